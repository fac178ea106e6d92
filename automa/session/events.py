"""What the players report during the heroes' turn, as log events applied to the battle."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from automa.engine.battle import Battle
from automa.errors import InputError
from automa.geometry.moves import overlap_with
from automa.geometry.table import PLACEMENT_TOLERANCE, TableGeometry
from automa.model.pieces import CONDITIONS

Event = dict[str, Any]
TABLE_EVENTS = ("move", "damage", "heal", "gold", "items", "poison", "remove", "condition")
COUNTERS = ("gold", "items", "poison")


def _piece_id(battle: Battle, event: Event) -> str:
    piece_id = event.get("piece")
    if not isinstance(piece_id, str) or battle.get(piece_id) is None:
        ids = ", ".join(p.id for p in battle.pieces)
        raise InputError(f"no piece {piece_id!r} in play (pieces: {ids})")
    return piece_id


def _amount(event: Event, signed: bool = False) -> int:
    amount = event.get("amount")
    if not isinstance(amount, int) or isinstance(amount, bool) or (amount < 1 and not signed):
        raise InputError(f"expected a whole number{'' if signed else ' above 0'}, "
                         f"got {amount!r}")
    if abs(amount) > 99:
        raise InputError(f"{amount} is more than any piece could have")
    return amount


def apply_table_event(battle: Battle, event: Event, table: TableGeometry) -> Battle:
    """The battle after one reported event; InputError (nothing changed) if it cannot be."""
    kind = event.get("type")
    piece_id = _piece_id(battle, event)
    piece = battle.piece(piece_id)
    if kind == "move":
        to = event.get("to")
        if not (isinstance(to, list) and len(to) == 2
                and all(isinstance(v, int | float) for v in to)):
            raise InputError(f"a move needs a position [x, y], not {to!r}")
        at = (float(to[0]), float(to[1]))
        others = [p for p in battle.on_table() if p.id != piece_id]
        clash = overlap_with(table, others, piece, at, PLACEMENT_TOLERANCE)
        if clash is not None:
            raise InputError(f"{piece_id} at ({at[0]:.1f}, {at[1]:.1f}) would be on {clash}")
        return battle.with_piece(piece.moved(at))
    if kind == "damage":
        if piece.health is None:
            raise InputError(f"{piece_id} has no health to lose")
        after = piece.health - _amount(event)
        if after <= 0:
            return battle.without(piece_id, "dead")
        return battle.with_piece(replace(piece, health=after))
    if kind == "heal":
        if piece.health is None:
            raise InputError(f"{piece_id} has no health to heal")
        healed = piece.health + _amount(event)
        if piece.starting_health is not None:
            healed = min(healed, piece.starting_health)  # never above the starting health
        return battle.with_piece(replace(piece, health=healed))
    if kind in COUNTERS:
        value = getattr(piece, kind) + _amount(event, signed=True)
        if value < 0:
            raise InputError(f"{piece_id} has only {getattr(piece, kind)} {kind}")
        return battle.with_piece(replace(piece, **{kind: value}))
    if kind == "remove":
        return battle.without(piece_id, str(event.get("why") or "dead"))
    if kind == "condition":
        condition, on = event.get("condition"), event.get("on")
        if condition not in CONDITIONS or not isinstance(on, bool):
            raise InputError(f"unknown condition {condition!r} (known: {', '.join(CONDITIONS)})")
        conditions = piece.conditions | {condition} if on else piece.conditions - {condition}
        return battle.with_piece(replace(piece, conditions=frozenset(conditions)))
    raise InputError(f"unknown event {kind!r}")
