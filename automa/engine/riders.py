"""A rider and its mount (or wild wyvern): one stack that moves as one (docs/rulings.md 72).

A rider sits on top of its mount, both marked (`riding`, `ridden`) on the same spot
(geometry/moves.py `rides_on`). Whatever moves one of them moves the other with it, as the wider
of the two discs: the rider's rush or move to a rune, a push on the mount. The one move that
parts them is the Clock template on the rider (Red Box l.294: knocked off, engine/movement.py);
a piece that leaves the mat (killed, onto the Teleported! or Devoured! card) leaves the other
one on the mat, and neither stays marked (`Battle.without`, `Battle.to_card`).
"""

from __future__ import annotations

from collections.abc import Sequence

from automa.engine.battle import Battle, StepLog
from automa.engine.steps import MoveStep, NoteStep
from automa.geometry.moves import stack_disc, stacked_with
from automa.model.pieces import Condition, Kind, Piece
from automa.rules.rulings import RulingKey

Vec = tuple[float, float]


def stack_mover(battle: Battle, piece: Piece) -> tuple[Piece, Sequence[Piece]]:
    """The disc `piece` moves as, and the pieces on the mat it must keep off: a piece stacked
    with another moves as the wider of the two, through nothing but each other."""
    disc, others, _ = stack_of(battle, piece)
    return disc, others


def stack_of(battle: Battle, piece: Piece) -> tuple[Piece, Sequence[Piece], Piece | None]:
    """`stack_mover`'s disc and pieces to keep off, and the piece stacked with `piece` (None:
    it stands alone)."""
    on_table = battle.on_table()
    partner = stacked_with(piece, on_table)
    if partner is None:
        return piece, on_table, None
    return stack_disc(piece, partner), [p for p in on_table if p.id != partner.id], partner


def carried(piece: Piece, partner: Piece, end: Vec) -> Vec:
    """Where `partner` stands once `piece`, stacked with it, has moved to `end`: the same way
    and as far, so the rider stays where it sat on its mount."""
    return (end[0] + (partner.at[0] - piece.at[0]), end[1] + (partner.at[1] - piece.at[1]))


def carry(before: Battle, moved: Battle, log: StepLog, piece_id: str) -> Battle:
    """After `piece_id` moved (from `before` to `moved`), the piece stacked with it before goes
    along, the same way and as far: a rider's mount under it, a mount's rider on top."""
    piece = before.piece(piece_id)
    partner = stacked_with(piece, before.on_table())
    end = moved.piece(piece_id).at
    if partner is None or end == piece.at:
        return moved
    to = carried(piece, partner, end)
    if log.loud:
        rider = Condition.RIDING in piece.conditions
        log.ruling(RulingKey.RIDERS, f"{partner.label} moves with {piece.label}, its "
                                     f"{'rider' if rider else 'mount'}: a rider and its mount "
                                     f"move as one")
        log.add(MoveStep(partner.id, partner.at, to, "a rider and its mount move as one",
                         "by hand", f"{'under' if rider else 'on top of'} {piece.label}"))
    return moved.with_piece(partner.moved(to))


def note_left(battle: Battle, log: StepLog, piece_id: str, going: str) -> None:
    """Say that the piece stacked with `piece_id`, which leaves the mat (`going`: "dies", "goes
    onto the Teleported! card"), stays where it is, no longer riding or ridden."""
    piece = battle.get(piece_id)
    partner = stacked_with(piece, battle.on_table()) if piece is not None else None
    if piece is None or partner is None or not log.loud:
        return
    marked = "riding" if Condition.RIDING in partner.conditions else "ridden"
    log.ruling(RulingKey.RIDERS, f"{piece.label} {going}: {partner.label} stays on the mat, no "
                                 f"longer {marked}")
    log.add(NoteStep(f"{partner.label} stays where it is, no longer {marked}: {piece.label} "
                     f"{going}"))


def wyverns_to_ride(battle: Battle, actor: Piece, log: StepLog | None = None) -> list[Piece]:
    """The wild wyverns on the mat `actor` may ride (Advanced Target Selection 3): those not
    ridden, and none for a character riding already (marked in `log`, where there were some)."""
    free = [p for p in battle.on_table()
            if p.kind == Kind.WILD_WYVERN and Condition.RIDDEN not in p.conditions]
    if free and Condition.RIDING in actor.conditions:
        if log is not None:
            log.ruling(RulingKey.RIDERS, f"{actor.label} rides already: it looks for no wild "
                                         f"wyvern to ride")
        return []
    return free
