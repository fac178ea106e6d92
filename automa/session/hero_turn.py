"""What a hero's earlier shots in this heroes' turn did, for the chain modifier: "the same
target cannot be damaged twice in a row within one sequence; the extra damage is ignored"
(catacombs-facts.md 1.7). A hero performs one sequence in their turn, so the sequence is the
hero's `hit`s since the heroes' turn began."""

from __future__ import annotations

from collections.abc import Sequence

from automa.catalog.load import Catalog
from automa.model.scenario import Scenario
from automa.session.events import Event

TURN_MARKS = ("end-heroes-turn", "activation")  # a heroes' turn begins after these


def last_damaged(scenario: Scenario, events: Sequence[Event], catalog: Catalog, seed: int,
                 hero: str) -> list[str]:
    """The pieces the hero's previous `hit` in this heroes' turn damaged (lost health or died),
    in the order named; [] when the hero has not hit anything yet this turn."""
    from automa.session.state import replay_states

    start = len(events) - len(this_turn(events))
    previous = max((i for i, e in enumerate(events) if i >= start and e.get("type") == "hit"
                    and e.get("by") == hero), default=None)
    if previous is None:
        return []
    for index, (before, after) in enumerate(replay_states(scenario, events[:previous + 1],
                                                          catalog, seed)):
        if index < previous:
            continue
        damaged = []
        for target in events[previous].get("targets", []):
            was, now = before.battle.get(str(target)), after.battle.get(str(target))
            if was is not None and (now is None or (was.health or 0) > (now.health or 0)):
                damaged.append(str(target))
        return damaged
    return []


def this_turn(events: Sequence[Event]) -> list[Event]:
    """The inputs since the heroes' turn began."""
    start = max((i + 1 for i, e in enumerate(events) if e.get("type") in TURN_MARKS),
                default=0)
    return list(events[start:])


def acted(events: Sequence[Event], hero: str) -> str | None:
    """What the hero has done this heroes' turn that takes their turn (a `hit` named `by` them,
    an Antient summoned, a Kraken fight), or None."""
    for event in this_turn(events):
        kind = event.get("type")
        if kind == "hit" and event.get("by") == hero:
            return "has shot this turn"
        if kind in ("summon", "cave") and event.get("piece") == hero and \
                not event.get("portal"):
            return "summoned an Antient this turn" if kind == "summon" else \
                "has been in the Hidden Cave this turn"
    return None
