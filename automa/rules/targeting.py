"""Target selection: the Primary, Secondary and Tie Breaker columns, then the Direction tiles."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from automa.model.monsters import BehaviourRow
from automa.model.pieces import Piece
from automa.model.scenario import Tiles
from automa.rules.tiles import DIRECTION_WORDS, direction_key

CRITERION_WORDS = {
    "most-gold": "most gold",
    "least-gold": "least gold",
    "most-health": "most health",
    "least-health": "least health",
    "most-poison": "hero with most poison",
    "no-items": "hero without any items",
    "closest": "closest enemy in line of sight",
}
COLUMNS = (("primary", "Primary"), ("secondary", "Secondary"), ("tie_breaker", "Tie Breaker"))


@dataclass(frozen=True)
class Candidate:
    piece: Piece
    distance: float  # edge to edge, cm


@dataclass(frozen=True)
class TargetChoice:
    target: str
    column: str  # "Primary", "Secondary", "Tie Breaker", "green tile", "blue tile", "only one"
    criterion: str
    reason: str
    close_call: bool = False
    trace: tuple[str, ...] = ()  # column by column: every candidate's value and who stayed


def _measure(criterion: str) -> Callable[[Candidate], float]:
    """Smaller is preferred."""
    return {
        "most-gold": lambda c: -c.piece.gold,
        "least-gold": lambda c: c.piece.gold,
        # a piece without a health track (invulnerable) never wins on health
        "most-health": lambda c: -c.piece.health if c.piece.health is not None else math.inf,
        "least-health": lambda c: c.piece.health if c.piece.health is not None else math.inf,
        "most-poison": lambda c: -c.piece.poison if c.piece.kind == "hero" else 0,
        "no-items": lambda c: 0 if c.piece.kind == "hero" and c.piece.items == 0 else 1,
        "closest": lambda c: c.distance,
    }[criterion]


def _shown(criterion: str, c: Candidate) -> str:
    p = c.piece
    return {
        "most-gold": f"{p.gold} gold",
        "least-gold": f"{p.gold} gold",
        "most-health": "no health" if p.health is None else f"{p.health} health",
        "least-health": "no health" if p.health is None else f"{p.health} health",
        "most-poison": f"{p.poison} poison",
        "no-items": f"{p.items} items",
        "closest": f"{c.distance:.1f} cm",
    }[criterion]


def select_target(candidates: list[Candidate], row: BehaviourRow, tiles: Tiles,
                  close_call: float) -> TargetChoice:
    """Narrow the visible enemies column by column until one remains."""
    if len(candidates) == 1:
        only = candidates[0].piece
        return TargetChoice(only.id, "only one", "", f"the only enemy in sight: {only.label}",
                            trace=(f"{only.label} is the only enemy in sight",))
    remaining = sorted(candidates, key=lambda c: c.piece.id)
    trace: list[str] = []
    for field, column in COLUMNS:
        criterion = getattr(row, field)
        measure = _measure(criterion)
        best = min(measure(c) for c in remaining)
        keep = [c for c in remaining if measure(c) - best <= 1e-9]
        values = ", ".join(f"{c.piece.label} {_shown(criterion, c)}" for c in remaining)
        trace.append(f"{column} ({CRITERION_WORDS[criterion]}): {values} -> "
                     + ", ".join(c.piece.label for c in keep))
        if len(keep) < len(remaining) and len(keep) == 1:
            winner = keep[0]
            losers = [c for c in remaining if c is not winner]
            runner = min(losers, key=measure)
            near = criterion == "closest" and measure(runner) - best < close_call
            reason = (f"{CRITERION_WORDS[criterion]} -> {winner.piece.label} "
                      f"({_shown(criterion, winner)}; "
                      + ", ".join(f"{c.piece.label} {_shown(criterion, c)}" for c in losers) + ")")
            return TargetChoice(winner.piece.id, column, criterion, reason, near, tuple(trace))
        remaining = keep
    for tile, column in zip(tiles.direction, ("green tile", "blue tile"), strict=True):
        ranked = sorted(remaining, key=lambda c: direction_key(tile, c.piece))
        trace.append(f"{column} ({DIRECTION_WORDS[tile]}): "
                     + ", ".join(c.piece.label for c in ranked))
        if direction_key(tile, ranked[0].piece) != direction_key(tile, ranked[1].piece):
            winner = ranked[0]
            return TargetChoice(winner.piece.id, column, tile,
                                f"tied on every column; {column}: {DIRECTION_WORDS[tile]} -> "
                                f"{winner.piece.label}", trace=tuple(trace))
    winner = remaining[0]
    return TargetChoice(winner.piece.id, "id", "", f"a complete tie; by id -> {winner.piece.label}",
                        trace=tuple(trace))
