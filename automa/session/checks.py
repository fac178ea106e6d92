"""What a logged input may hold, checked when the log is read: a hand edit, a disk error or a bug
never reaches the engine as a value no battle can have (a D12 of 13, a move to 1e300)."""

from __future__ import annotations

import math
from typing import Any

DAMAGED = "damaged"  # the stand-in for a line that cannot be an input
COUNTERS = ("damage", "heal", "gold", "items", "poison")
MARKERS = ("undo", "redo", "rollback")
CHECKPOINT = "checkpoint"  # goes on from a kept battle (session/provenance.py)
KINDS = ("activation", "end-heroes-turn", "move", "remove", "condition", "hit", "used",
         "cave", "summon", CHECKPOINT, *COUNTERS, *MARKERS)
DICE = {"d12": 12, "rune_die": 99, "location_die": 99}
MAX_AMOUNT = 99
MAX_COORDINATE = 10_000.0  # cm: far beyond any mat, so a typo is caught, not drawn
MAX_INPUTS = 10_000_000


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(event: dict[str, Any], key: str, optional: bool = False) -> str | None:
    if optional and key not in event:
        return None
    if not isinstance(event.get(key), str):
        return f"{key} is not text"
    return None


def _outcome(outcome: Any) -> str | None:
    if not isinstance(outcome, dict) or not all(
            isinstance(outcome.get(k), str) for k in ("kind", "value", "source")):
        return "an outcome is not {kind, value, source} text"
    kind, value = outcome["kind"], outcome["value"]
    if kind in DICE:
        if not value.isascii() or not value.isdigit() or not 1 <= int(value) <= DICE[kind]:
            return f"{kind} {value!r} is not a face of the die"
    elif kind == "token":
        level, _, face = value.partition(":")
        body = face.upper().removesuffix("R")
        if not (level.isascii() and level.isdigit() and len(level) <= 2 and body.isascii()
                and body.isdigit() and len(body) <= 2):
            return f"token {value!r} is not LEVEL:FACE (like 2:1R)"
    return None


def _activation(event: dict[str, Any]) -> str | None:
    outcomes = event.get("outcomes", [])
    if not isinstance(outcomes, list):
        return "its dice are not a list of outcomes"
    for outcome in outcomes:
        problem = _outcome(outcome)
        if problem:
            return problem
    answers = event.get("answers", [])
    if not isinstance(answers, list):
        return "its answers are not a list"
    for answer in answers:
        if not isinstance(answer, dict) or not isinstance(answer.get("q"), str) or \
                not isinstance(answer.get("a"), bool | str) or \
                not isinstance(answer.get("source", ""), str):
            return "an answer is not {q, a, source}"
    ends = event.get("ends", {})
    if not isinstance(ends, dict) or not all(_position(at) for at in ends.values()):
        return "ends is not a table of positions [x, y] on the table"
    return _text(event, "summary", optional=True)


def _position(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
        and abs(v) <= MAX_COORDINATE for v in value)


def _checkpoint(event: dict[str, Any]) -> str | None:
    """The rest (the battle it keeps) is checked when it is applied (session/snapshot.py)."""
    if not isinstance(event.get("state"), dict):
        return "a checkpoint without the battle it keeps"
    if not isinstance(event.get("data", {}), dict) or \
            not isinstance(event.get("rulings", {}), dict):
        return "a checkpoint's record of the data or rulings is not a table"
    return _text(event, "why", optional=True)


def _hit(event: dict[str, Any]) -> str | None:
    """A hero's hit: the pieces struck, the shot, who shot, the Poison card and the D12s."""
    targets = event.get("targets")
    if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        return "targets is not a list of piece ids"
    poison, portal = event.get("poison_card", 1), event.get("portal", [])
    if not _whole(poison) or not 1 <= poison <= 9:
        return f"poison_card {poison!r} is not a Poison card's value (1-9)"
    if not isinstance(portal, list) or not all(_whole(r) and 1 <= r <= 12 for r in portal):
        return f"portal {portal!r} is not a list of D12 faces"
    last = event.get("last_damaged", [])
    if not isinstance(last, list) or not all(isinstance(t, str) for t in last):
        return "last_damaged is not a list of piece ids"
    if not isinstance(event.get("trilithon", False), bool):
        return "trilithon is not true or false"
    return _text(event, "shot") or _text(event, "by", optional=True)


def check_event(event: dict[str, Any]) -> str | None:
    """What is wrong with one logged input, or None."""
    kind = event.get("type")
    if not isinstance(kind, str):
        return "it has no type"
    if kind not in KINDS:
        return f"unknown input {kind!r}"
    if kind == "activation":
        return _activation(event)
    if kind == CHECKPOINT:
        return _checkpoint(event)
    if kind == "rollback":
        keep = event.get("to")
        return None if isinstance(keep, int) and _whole(keep) and 0 <= keep <= MAX_INPUTS else \
            f"a rollback to {keep!r} inputs"
    if kind in ("undo", "redo", "end-heroes-turn"):
        return None
    if kind == "hit":
        return _hit(event)
    if kind == "used":
        return _text(event, "piece") or _text(event, "card") or _text(event, "per")
    if kind == "summon":
        return _text(event, "piece") or _text(event, "antient")
    if kind == "cave":  # the rest is checked when it is applied (session/cave_events.py)
        tokens = event.get("tokens")
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            return "tokens is not a list of token faces"
        return _text(event, "piece") or _text(event, "item")
    problem = _text(event, "piece")
    if problem:
        return problem
    if kind == "move":
        to = event.get("to")
        if not _position(to):
            return f"a move needs a position [x, y] on the table, not {to!r}"
        return None
    if kind in COUNTERS:
        amount = event.get("amount")
        if not isinstance(amount, int) or not _whole(amount) or abs(amount) > MAX_AMOUNT:
            return f"amount {amount!r} is not a whole number from -99 to 99"
        return None
    if kind == "remove":
        return _text(event, "why", optional=True)
    if not isinstance(event.get("on"), bool):
        return "on is not true or false"
    return _text(event, "condition")
