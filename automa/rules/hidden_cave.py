"""The Hidden Cave's state between rooms and turns (Red Box rulebook, "Hidden Cave (Optional)"):
the five monsters to collect, the items beside the card, each hero's collected pieces, and who
is on the Hidden Cave card. Pure functions; each returns a new state.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct
from msgspec.structs import replace

from automa.errors import RulesError, ScenarioError
from automa.rules.rulings import RulingKey, cite

NEEDED = 5  # "randomly draw five of them"


class HiddenCave(Struct, frozen=True):
    needed: tuple[str, ...]  # the five level-1 monsters a hero must collect
    items: tuple[str, ...]  # the items still face up beside the Hidden Cave card
    collected: tuple[tuple[str, tuple[str, ...]], ...] = ()  # hero -> pieces kept, in order
    inside: tuple[str, ...] = ()  # heroes on the Hidden Cave card
    visited: tuple[str, ...] = ()  # heroes who entered by their collection (ruling cave-once)

    def pieces(self, hero: str) -> tuple[str, ...]:
        return dict(self.collected).get(hero, ())

    def missing(self, hero: str) -> tuple[str, ...]:
        """The needed monsters the hero has not collected yet, in the order they were drawn."""
        have = set(self.pieces(hero))
        return tuple(m for m in self.needed if m not in have)


def new_cave(needed: Sequence[str], items: Sequence[str]) -> HiddenCave:
    if len(needed) != NEEDED or len(set(needed)) != NEEDED:
        raise RulesError(f"the Hidden Cave needs {NEEDED} different level-1 monsters, not "
                         f"{', '.join(needed) or 'none'}")
    return HiddenCave(tuple(needed), tuple(items))


def collect(cave: HiddenCave, hero: str, monster: str) -> tuple[HiddenCave, bool]:
    """"Each time a hero destroys one of the indicated level 1 monsters, they keep it on their
    player board. The collected monsters are not returned to the Monster Pool during the
    Resolution Phase". True when the piece is kept (it is one of the five): every such kill is
    kept, a second of the same kind too (it stays out of the game but adds nothing)."""
    if monster not in cave.needed:
        return cave, False
    board = dict(cave.collected)
    board[hero] = (*board.get(hero, ()), monster)
    return replace(cave, collected=tuple(board.items())), True


def has_all(cave: HiddenCave, hero: str) -> bool:
    """"When a hero collects all five of the monsters"."""
    return not cave.missing(hero)


def why_not_enter(cave: HiddenCave, hero: str) -> str | None:
    """Why the hero may not place their piece on the Hidden Cave card now, or None."""
    if hero in cave.inside:
        return f"{hero} is already in the Hidden Cave"
    if hero in cave.visited:
        return f"{hero} has visited the Hidden Cave already ({cite(RulingKey.CAVE_ONCE)})"
    missing = cave.missing(hero)
    if missing:
        return f"{hero} has not collected {', '.join(missing)} yet"
    if cave.inside:
        return (f"{', '.join(cave.inside)} is in the Hidden Cave: only one hero may visit at a "
                f"time")
    return None


def may_enter(cave: HiddenCave, hero: str) -> bool:
    """"the player controlling that hero may place their hero's piece on the Hidden Cave card
    instead of taking their normal turn. ... only one hero is permitted to visit the Hidden
    Cave at a time, unless a hero is sent there via the Portal Trap.\""""
    return why_not_enter(cave, hero) is None


def enter(cave: HiddenCave, hero: str, portal_trap: bool = False) -> HiddenCave:
    """The hero's piece goes onto the Hidden Cave card (instead of their turn). Sent by the
    Portal Trap (result 12) a hero goes in whatever they have collected and whoever is inside;
    such a visit does not use up their own (ruling cave-once)."""
    if portal_trap:
        if hero in cave.inside:
            raise RulesError(f"{hero} is already in the Hidden Cave")
        return replace(cave, inside=(*cave.inside, hero))
    reason = why_not_enter(cave, hero)
    if reason is not None:
        raise RulesError(f"{hero} may not enter the Hidden Cave: {reason}")
    return replace(cave, inside=(*cave.inside, hero), visited=(*cave.visited, hero))


def leave(cave: HiddenCave, hero: str) -> HiddenCave:
    """The hero's piece leaves the Hidden Cave card (after the Kraken fight)."""
    if hero not in cave.inside:
        raise RulesError(f"{hero} is not in the Hidden Cave")
    return replace(cave, inside=tuple(h for h in cave.inside if h != hero))


def in_battle(cave: HiddenCave, hero: str) -> bool:
    """"A hero that has been placed on the Hidden Cave card is considered to have temporarily
    left the Battle Phase.\""""
    return hero not in cave.inside


def take_item(cave: HiddenCave, item: str) -> HiddenCave:
    """An item taken by a hero after the Kraken fight leaves the Hidden Cave card."""
    if item not in cave.items:
        raise RulesError(f"{item!r} is not beside the Hidden Cave card (left: "
                         f"{', '.join(cave.items) or 'none'})")
    rest = list(cave.items)
    rest.remove(item)
    return replace(cave, items=tuple(rest))


def cave_json(cave: HiddenCave) -> dict[str, object]:
    """The state as JSON (the `hidden_cave` of `automa campaign status --json`, CONTRACT.md)."""
    return {"needed": list(cave.needed), "collected": {h: list(p) for h, p in cave.collected},
            "items": list(cave.items), "inside": list(cave.inside),
            "visited": list(cave.visited)}


def cave_from_json(data: object, where: str) -> HiddenCave:
    """The state read back from `cave_json`; anything wrong is one line naming the field."""
    def fail(field: str, problem: str) -> ScenarioError:
        return ScenarioError(where, "hidden_cave", field, problem)

    def names(value: object, field: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise fail(field, "expected a list of names")
        return tuple(value)

    if not isinstance(data, dict):
        raise fail("", "expected a table")
    unknown = set(data) - {"needed", "collected", "items", "inside", "visited"}
    if unknown:
        raise fail(sorted(unknown)[0], "unknown field")
    collected = data.get("collected", {})
    if not isinstance(collected, dict):
        raise fail("collected", "expected a table of hero = [pieces]")
    try:
        cave = new_cave(names(data.get("needed"), "needed"), names(data.get("items", []), "items"))
    except RulesError as error:
        raise fail("needed", str(error)) from None
    pieces = tuple((str(hero), names(kept, f"collected.{hero}"))
                   for hero, kept in collected.items())
    for hero, kept in pieces:
        stray = [m for m in kept if m not in cave.needed]
        if stray:
            raise fail(f"collected.{hero}", f"{stray[0]} is not one of the five")
    return replace(cave, collected=pieces, inside=names(data.get("inside", []), "inside"),
                   visited=names(data.get("visited", []), "visited"))
