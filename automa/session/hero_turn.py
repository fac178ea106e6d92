"""What the heroes have done so far this heroes' turn, read from the inputs in force."""

from __future__ import annotations

from collections.abc import Sequence

from automa.engine.battle import Battle
from automa.model.pieces import Condition, Side
from automa.model.shots import ShotName
from automa.session.commands import (
    Command,
    EndHeroesTurn,
    EnterCave,
    Hit,
    NextActivation,
    SetCondition,
    Summon,
)


def this_turn(done: Sequence[Command]) -> list[Command]:
    """The inputs since the heroes' turn began (after the last AI activation or end of the
    heroes' turn)."""
    start = max((i + 1 for i, c in enumerate(done)
                 if isinstance(c, EndHeroesTurn | NextActivation)), default=0)
    return list(done[start:])


def acted(done: Sequence[Command], hero: str) -> str | None:
    """What the hero has done this heroes' turn that takes their turn (a hit named `by` them,
    an Antient summoned, a Kraken fight), or None."""
    for command in this_turn(done):
        if isinstance(command, Hit) and command.by == hero:
            return "has shot this turn"
        if isinstance(command, Summon) and command.piece == hero:
            return "summoned an Antient this turn"
        if isinstance(command, EnterCave) and command.piece == hero and not command.portal:
            return "has been in the Hidden Cave this turn"
    return None


def in_the_cave(done: Sequence[Command], hero: str) -> bool:
    """Whether the hero entered the Hidden Cave this heroes' turn instead of taking it (not sent
    by the Portal Trap): the visit was their turn (ruling 58)."""
    return any(isinstance(c, EnterCave) and c.piece == hero and not c.portal
               for c in this_turn(done))


def sent_away(done: Sequence[Command], battle: Battle) -> frozenset[str]:
    """The AI pieces the heroes put on the Teleported! card this heroes' turn (a Portal Trap's
    D12 1-3, `condition ID teleported on`) and still on it: they stay there through this
    round's AI turn and come back in the next round (ruling 64)."""
    named: set[str] = set()
    for command in this_turn(done):
        if isinstance(command, Hit) and command.shot_name == ShotName.PORTAL_TRAP:
            from automa.rules.hero_hits import portal_trap  # read when a hero hits (cold start)

            named.update(target for target, roll in zip(command.targets, command.portal,
                                                        strict=False)
                         if Condition.TELEPORTED in portal_trap(roll).gains)
        elif isinstance(command, SetCondition) and command.condition == Condition.TELEPORTED:
            (named.add if command.on else named.discard)(command.piece)
    return frozenset(p.id for p in battle.pieces if p.id in named and p.side == Side.AI
                     and Condition.TELEPORTED in p.conditions)
