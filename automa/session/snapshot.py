"""The battle as it stands, written into a checkpoint line and read back exactly: every piece
whole (its figures as they are, not as the data would make them now), the bags, who is out
of play, the round, and who has acted in an AI turn under way. A checkpoint's battle is where
the inputs after it start from, whatever the data says about the ones before it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec import Struct

from automa.engine.battle import Battle
from automa.errors import InputError
from automa.model.components import DamageToken
from automa.model.pieces import Colour, Piece
from automa.model.scenario import Bag
from automa.model.shots import parse_sequence

HEROES, AI = "heroes", "ai"


class Standing(Struct, frozen=True):
    """What a checkpoint keeps of a session's state."""

    battle: Battle
    round: int
    phase: str  # HEROES or AI
    acted: frozenset[str] = frozenset()  # in an AI turn: who has acted
    count: int = 0  # in an AI turn: activations so far
    away: frozenset[str] = frozenset()  # in an AI turn: teleported by the heroes this round


def piece_json(piece: Piece) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in Piece.__struct_fields__:
        value = getattr(piece, name)
        if name == "at":
            value = [value[0], value[1]]
        elif name == "sequences":
            value = [s.notation() for s in value]
        elif name == "conditions":
            value = sorted(value)
        elif name == "used":
            value = list(value)
        out[name] = value
    return out


def standing_json(standing: Standing) -> dict[str, Any]:
    battle = standing.battle
    return {
        "round": standing.round, "phase": standing.phase, "acted": sorted(standing.acted),
        "count": standing.count, **({"away": sorted(standing.away)} if standing.away else {}),
        "pieces": [piece_json(p) for p in battle.pieces],
        "bags": {str(level): {"tokens": [t.label() for t in bag.tokens],
                              "discard": [t.label() for t in bag.discard]}
                 for level, bag in sorted(battle.bags.items())},
        "out": dict(battle.out)}


def _piece(data: Any) -> Piece:
    if not isinstance(data, dict):
        raise ValueError("a piece is not a table")
    values = dict(data)
    at = values.get("at")
    if not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, int | float)
                                                          for v in at)):
        raise ValueError(f"piece {values.get('id')!r}: at is not [x, y]")
    values["at"] = (float(at[0]), float(at[1]))
    values["sequences"] = tuple(parse_sequence(str(s)) for s in values.get("sequences", []))
    values["conditions"] = frozenset(map(str, values.get("conditions", [])))
    values["used"] = tuple(map(str, values.get("used", [])))
    if values.get("colour") is not None:
        values["colour"] = Colour(str(values["colour"]))
    known = set(Piece.__struct_fields__)
    return Piece(**{k: v for k, v in values.items() if k in known})


def _bags(data: Any) -> dict[int, Bag]:
    if not isinstance(data, dict):
        raise ValueError("the bags are not a table")
    return {int(level): Bag(tuple(DamageToken.parse(str(t)) for t in bag["tokens"]),
                            tuple(DamageToken.parse(str(t)) for t in bag["discard"]))
            for level, bag in data.items()}


def standing_from(data: Any) -> Standing:
    """A checkpoint's state read back; InputError when it is not one."""
    try:
        if not isinstance(data, Mapping):
            raise ValueError("it is not a table")
        pieces = tuple(_piece(p) for p in data["pieces"])
        out = {str(k): str(v) for k, v in dict(data.get("out", {})).items()}
        phase = data["phase"]
        round_, count = data["round"], data.get("count", 0)
        if phase not in (HEROES, AI) or not isinstance(round_, int) or \
                not isinstance(count, int):
            raise ValueError("its round or phase is not one a battle has")
        return Standing(Battle(pieces, _bags(data["bags"]), out), round_, phase,
                        frozenset(map(str, data.get("acted", []))), count,
                        frozenset(map(str, data.get("away", []))))
    except (KeyError, TypeError, ValueError) as error:
        raise InputError(f"the checkpoint's battle cannot be read ({error})") from None
