"""What the heroes have done so far this heroes' turn, read from the inputs in force."""

from __future__ import annotations

from collections.abc import Sequence

from automa.session.commands import Command, EndHeroesTurn, EnterCave, Hit, NextActivation, Summon


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
