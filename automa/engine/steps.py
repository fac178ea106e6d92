"""What an activation does, step by step. The text printout and the JSON both read these."""

from __future__ import annotations

from typing import Any, ClassVar

from msgspec import Struct

Vec = tuple[float, float]


def _pt(p: Vec) -> list[float]:
    return [round(p[0], 2), round(p[1], 2)]


class ShotStep(Struct, frozen=True):
    """A shot of the sequence begins (performed as another where the AI has no rule)."""

    kind: ClassVar[str] = "shot"
    shot: str
    performed_as: str  # the shot the AI really performs ("rush" for open portal ...)
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "shot": self.shot, "as": self.performed_as, "note": self.note}


class RollStep(Struct, frozen=True):
    """A die rolled, and what its face decided."""

    kind: ClassVar[str] = "roll"
    die: str
    value: int
    why: str
    result: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "die": self.die, "value": self.value, "why": self.why,
                "result": self.result}


class MoveStep(Struct, frozen=True):
    """A piece moved by a ruler or a template: from where to where, and what stopped it."""

    kind: ClassVar[str] = "move"
    piece: str
    start: Vec
    end: Vec
    why: str
    tool: str  # "Ruler 3", "Clock template (front) + Ruler 3", ...
    toward: str = ""
    stopped_by: str | None = None
    adjusted: bool = False
    clock: int | None = None
    close_call: bool = False
    short_by: float | None = None  # edge gap left to the piece it moved toward

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "piece": self.piece, "from": _pt(self.start),
                                "to": _pt(self.end), "why": self.why, "tool": self.tool}
        if self.toward:
            data["toward"] = self.toward
        if self.stopped_by:
            data["stopped_by"] = self.stopped_by
        if self.adjusted:
            data["adjusted"] = True
        if self.clock is not None:
            data["clock"] = self.clock
        if self.close_call:
            data["close_call"] = True
        if self.short_by is not None:
            data["short_by"] = round(self.short_by, 2)
        return data


class AttackStep(Struct, frozen=True):
    """The Attack template laid on the attacker: whether it covers the target."""

    kind: ClassVar[str] = "attack"
    piece: str
    target: str
    covers: bool
    margin: float
    close_call: bool
    measured: bool = True  # False: the players answered; no margin backs it

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "piece": self.piece, "target": self.target,
                                "covers": self.covers,
                                "margin": round(self.margin, 2) if self.measured else None,
                                "close_call": self.close_call}
        if not self.measured:
            data["measured"] = False
        return data


class TokenStep(Struct, frozen=True):
    """One token drawn into the hand: draw `draw` of the shot's `of` (all are drawn before any
    is resolved)."""

    kind: ClassVar[str] = "token"
    level: int
    value: int
    reset: bool
    refilled: bool = False  # the bag was empty: its discard pile went back in first
    draw: int = 1
    of: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "value": self.value, "reset": self.reset,
                "refilled": self.refilled, "draw": self.draw, "of": self.of}


class DiscardStep(Struct, frozen=True):
    """The shot is resolved: its tokens of one level go from the hand onto the discard pile,
    and after a reset icon the whole pile goes back into the bag. Logged when the shot drew
    several tokens or a reset icon; a single plain token is simply discarded."""

    kind: ClassVar[str] = "discard"
    level: int
    tokens: tuple[str, ...]  # their labels, as drawn
    reset: bool
    bag: int  # tokens in the bag afterwards
    discard: int  # tokens on the discard pile afterwards

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "tokens": list(self.tokens),
                "reset": self.reset, "bag": self.bag, "discard": self.discard}


class DamageStep(Struct, frozen=True):
    """Damage a piece took, and its health before and after."""

    kind: ClassVar[str] = "damage"
    piece: str
    amount: int
    health_before: int | None
    health_after: int | None
    died: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "piece": self.piece, "amount": self.amount,
                "health": self.health_after, "died": self.died}


class EffectStep(Struct, frozen=True):
    """A modifier's effect on the piece hit (a Poison card, a Stunned! card ...)."""

    kind: ClassVar[str] = "effect"
    piece: str
    effect: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "piece": self.piece, "effect": self.effect, "text": self.text}


class HealEffect(EffectStep, frozen=True):
    """An effect that heals its piece (the regeneration's heal on the attacker): the health
    gained and the piece's health afterwards, as a damage step has them, so a reader stepping
    through an activation shows that health from this step on and the one before until then."""

    amount: int
    health: int

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "amount": self.amount, "health": self.health}


class NoteStep(Struct, frozen=True):
    """An instruction or remark for the table, in words alone."""

    kind: ClassVar[str] = "note"
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text}


Step = (ShotStep | RollStep | MoveStep | AttackStep | TokenStep | DiscardStep | DamageStep
        | EffectStep | NoteStep)
