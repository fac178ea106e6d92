"""Which positions the table measured, in an asked-geometry session.

The engine keeps moving its model pieces when the players answer the questions, but at the
table nobody measures where a slid piece stopped. So after an AI activation a piece it moved
(or summoned) stands at an unmeasured spot, until the players report where it is (a `move`, or
any report that sets its position). The scenario's own positions count as given. A piece
reported beside a piece whose spot is unmeasured (`move elf 2 cm left of rat-1`) is only as
known as that piece: unmeasured too, with no measured spot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msgspec import Struct

from automa.engine.activation import Activation
from automa.engine.judge import GeometryMode
from automa.engine.steps import MoveStep
from automa.model.pieces import Piece
from automa.session.commands import Move
from automa.session.game import Game
from automa.session.positions import named_piece
from automa.session.replay import ReplayStep, replay_steps

Point = tuple[float, float]


class Unmeasured(Struct, frozen=True):
    """Pieces whose model position the table never gave: id -> its last measured spot (None:
    it never had one), at the start of a step and after it."""

    before: Mapping[str, Point | None]
    after: Mapping[str, Point | None]


START = Unmeasured({}, {})


def _spots(pieces: Sequence[Piece]) -> dict[str, Point]:
    return {p.id: p.at for p in pieces}


def moved_by(activation: Activation) -> frozenset[str]:
    """Every piece an activation told the players to slide (even where the model, lacking
    measurements, left it in place)."""
    return frozenset(step.piece for step in activation.steps if isinstance(step, MoveStep))


def _beside(move: Move) -> str | None:
    """The piece a reported place is given beside (`2 cm left of rat-1`), if any."""
    return None if move.words is None else named_piece(move.words)


def unmeasured_steps(steps: Sequence[ReplayStep]) -> list[Unmeasured]:
    """For an asked-geometry session, what each step leaves unmeasured."""
    current: dict[str, Point | None] = {}
    result = []
    for step in steps:
        before = dict(current)
        old, new = _spots(step.before.battle.pieces), _spots(step.after.battle.pieces)
        moved = moved_by(step.activation) if step.activation is not None else frozenset()
        for piece_id, at in new.items():
            if step.activation is not None:
                if piece_id not in old:
                    current[piece_id] = None  # summoned: placed by the model, never measured
                elif (at != old[piece_id] or piece_id in moved) and piece_id not in current:
                    current[piece_id] = old[piece_id]
            elif isinstance(step.command, Move) and step.command.piece == piece_id \
                    and _beside(step.command) in current:
                current[piece_id] = None  # beside a piece nobody measured: no better known
            elif at != old.get(piece_id) or (isinstance(step.command, Move)
                                             and step.command.piece == piece_id):
                current.pop(piece_id, None)  # the players said where it stands
        for piece_id in set(current) - set(new):
            del current[piece_id]  # out of play
        result.append(Unmeasured(before, dict(current)))
    return result


def unmeasured_now(session: Game) -> Mapping[str, Point | None]:
    """The pieces of a live session whose position the table never gave (empty unless its
    geometry is asked): id -> last measured spot."""
    if session.geometry_mode != GeometryMode.ASKED:
        return {}
    steps = list(replay_steps(session))
    return unmeasured_steps(steps)[-1].after if steps else {}
