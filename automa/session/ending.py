"""Whether a battle is over, and what its end says: the room cleared (how), the heroes fallen,
the devoured coming back, and the Resolution Phase's monsters (gold for each hero's kills, the
discs back to the Monster Pool, the Hidden Cave's kept)."""

from __future__ import annotations

from msgspec import Struct

from automa.model.pieces import Kind
from automa.rules.battle_end import (
    FROZEN_CLEAR,
    devoured_return,
    overseer_won,
    resolution,
    room_cleared,
)
from automa.session.game import Game
from automa.session.replay import frozen_by
from automa.session.state import SessionState


class BattleOver(Struct, frozen=True):
    cleared: str | None  # how the room was cleared (None: the heroes fell)
    fallen: str | None  # how the heroes fell (None: the room was cleared)
    devoured_back: tuple[str, ...] = ()
    resolution: tuple[str, ...] = ()


def is_over(state: SessionState) -> bool:
    """The room is cleared or the heroes have fallen (as `play` ends)."""
    pieces = state.battle.pieces
    return room_cleared(state.scenario.pieces, pieces) is not None or \
        overseer_won(pieces) is not None


def battle_over(game: Game) -> BattleOver | None:
    """How the battle ended, or None while it goes on."""
    state = game.state
    battle = state.battle
    cleared = room_cleared(state.scenario.pieces, battle.pieces)
    if cleared is None:
        lost = overseer_won(battle.pieces)
        return None if lost is None else BattleOver(None, lost)
    pieces = state.scenario.pieces
    cave = game.room.cave.needed if game.room is not None and game.room.cave is not None \
        else ()
    gold = {name: spec.gold for name, spec in game.catalog.monsters.items()}
    lines = resolution(pieces, battle.out, gold, cave,
                       any(p.kind == Kind.CATACOMB_LORD for p in pieces),
                       frozen_by(game) if cleared == FROZEN_CLEAR else None)
    return BattleOver(cleared, None, tuple(devoured_return(battle.pieces)), tuple(lines))
