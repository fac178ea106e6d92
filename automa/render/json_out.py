"""The `--json` shapes of CONTRACT.md."""

from __future__ import annotations

import math
from typing import Any

from automa.engine.activation import Activation
from automa.engine.battle import Battle
from automa.engine.parts import measured_to
from automa.engine.steps import MoveStep, Step
from automa.engine.turn import TurnResult
from automa.geometry.sight import Sighting
from automa.model.pieces import Piece, Side
from automa.render.text import ruling_text

FORMAT = 1


def _r(value: float) -> float | None:
    return None if math.isinf(value) else round(value, 2)


def piece_json(piece: Piece) -> dict[str, Any]:
    data: dict[str, Any] = {"at": [round(piece.at[0], 2), round(piece.at[1], 2)],
                            "health": piece.health}
    if piece.side == Side.HEROES:
        data.update(gold=piece.gold, poison=piece.poison, items=piece.items)
    if piece.conditions:
        data["conditions"] = sorted(piece.conditions)
    if piece.part_of:
        data["part_of"] = piece.part_of
    if piece.serves:
        data["serves"] = piece.serves
    if piece.colour is not None:
        data["colour"] = str(piece.colour)
    return data


def pieces_json(battle: Battle) -> dict[str, Any]:
    return {p.id: piece_json(p) for p in battle.pieces}


UNMEASURED_MOVE = ("from", "to", "stopped_by", "short_by", "adjusted", "close_call")


def _step_json(step: Step, asked: bool) -> dict[str, Any]:
    """A step's object; asked geometry: a move's ends, what stopped it and how short it fell
    are the model's guesses (the table slid the real ruler and measured nothing), so they are
    left out (`from`, `to` null) and the step says `"measured": false`."""
    data = step.to_json()
    if asked and isinstance(step, MoveStep):
        data = {k: v for k, v in data.items() if k not in UNMEASURED_MOVE}
        data.update({"from": None, "to": None, "measured": False})
    return data


def activation_json(activation: Activation, asked: bool = False) -> dict[str, Any]:
    """An activation's object (CONTRACT.md); `asked` (asked geometry): no distance or spot the
    table did not measure (`distances` empty, moves without ends: `_step_json`)."""
    sightings = () if asked else (*activation.visible, *activation.hidden)
    return {
        "character": activation.character,
        "order": activation.order_reason,
        "row": activation.row,
        "visible": [s.target for s in activation.visible],
        "hidden": [s.target for s in activation.hidden],
        "distances": {s.target: _r(s.distance) for s in sightings},
        "measured_to": {s.target: s.via for s in (*activation.visible, *activation.hidden)
                        if s.via},
        "target": activation.target,
        "aim_piece": measured_to(activation.visible, activation.target) or activation.target,
        "reason": activation.reason,
        "sequence": list(activation.sequence),
        "sequence_reason": activation.sequence_reason,
        "steps": [_step_json(step, asked) for step in activation.steps],
        "close_calls": list(activation.close_calls),
        "rulings": [r.number for r in activation.rulings],
        "house_rules": [ruling_text(r) for r in activation.rulings],
        "explain": list(activation.explain),
    }


def turn_json(result: TurnResult) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "round": result.round,
        "seed": result.seed,
        "activations": [activation_json(a) for a in result.activations],
        "pieces": pieces_json(result.battle),
        "out": dict(result.battle.out),
        "bags": {str(level): {"bag": len(bag.tokens), "discard": len(bag.discard)}
                 for level, bag in sorted(result.battle.bags.items())},
        "chance": [{"kind": o.kind, "value": o.value, "source": o.source, "why": o.why}
                   for o in result.outcomes],
    }


def sight_json(piece_id: str, sightings: list[Sighting], close_call: float) -> dict[str, Any]:
    return {
        "piece": piece_id,
        "visible": [s.target for s in sightings if s.visible],
        "hidden": [s.target for s in sightings if not s.visible],
        "distances": {s.target: _r(s.distance) for s in sightings},
        "margins": {s.target: _r(s.margin) for s in sightings},
        "blockers": {s.target: list(s.blockers) for s in sightings if s.blockers},
        "close_calls": [s.target for s in sightings if s.margin < close_call],
    }
