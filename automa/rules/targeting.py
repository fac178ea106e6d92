"""Target selection: the Primary, Secondary and Tie Breaker columns, then the Direction tiles."""

from __future__ import annotations

import math
from collections.abc import Callable

from msgspec import Struct

from automa.model.monsters import BehaviourRow
from automa.model.pieces import Kind, Piece
from automa.model.scenario import Tiles
from automa.rules.rulings import RulingKey
from automa.rules.tiles import DIRECTION_WORDS, TILE_NAMES, by_tiles

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


class Candidate(Struct, frozen=True):
    """An enemy the AI may target, with its distance from the actor."""

    piece: Piece
    distance: float  # edge to edge, cm
    measured: bool = True  # False: the players ranked it (0 the closest, 1 farther), no cm


class TargetChoice(Struct, frozen=True):
    """The target the behaviour row's columns chose, and how they chose it."""

    target: str
    column: str  # "Primary", "Secondary", "Tie Breaker", "green tile", "blue tile", "only one"
    criterion: str
    reason: str
    close_call: bool = False
    trace: tuple[str, ...] = ()  # column by column: every candidate's value and who stayed
    rulings: tuple[RulingKey, ...] = ()  # the rulings the choice rested on
    tied: tuple[str, ...] = ()  # the candidates still tied when the Direction tiles broke it


WEALTH_COLUMNS = frozenset({"most-gold", "least-gold", "no-items"})
NON_HERO_WEALTH = ("behind-heroes", "count-zero")  # ruling 40's options


_MEASURES: dict[tuple[str, str], Callable[[Candidate], float]] = {}


def _measure(criterion: str, non_hero_wealth: str) -> Callable[[Candidate], float]:
    """Smaller is preferred (built once per column and reading, then kept)."""
    kept = _MEASURES.get((criterion, non_hero_wealth))
    if kept is None:
        kept = _MEASURES[criterion, non_hero_wealth] = _build_measure(criterion, non_hero_wealth)
    return kept


def _build_measure(criterion: str, non_hero_wealth: str) -> Callable[[Candidate], float]:
    """Smaller is preferred. Pieces other than heroes hold no gold of their own: under the
    `behind-heroes` reading (ruling 40) they rank after every hero on the gold columns."""
    behind = non_hero_wealth == "behind-heroes"

    def gold(c: Candidate, sign: int) -> float:
        if c.piece.kind != Kind.HERO and behind:
            return math.inf
        return sign * c.piece.gold

    return {
        "most-gold": lambda c: gold(c, -1),
        "least-gold": lambda c: gold(c, 1),
        # a piece without a health track (invulnerable) never wins on health
        "most-health": lambda c: -c.piece.health if c.piece.health is not None else math.inf,
        "least-health": lambda c: c.piece.health if c.piece.health is not None else math.inf,
        "most-poison": lambda c: -c.piece.poison if c.piece.kind == Kind.HERO else 0,
        "no-items": lambda c: 0 if c.piece.kind == Kind.HERO and c.piece.items == 0 else 1,
        "closest": lambda c: c.distance,
    }[criterion]


def _shown(criterion: str, c: Candidate) -> str:
    """How the trace shows a candidate's value on a column (only that one is formatted)."""
    p = c.piece
    if criterion in WEALTH_COLUMNS and p.kind != Kind.HERO:
        return f"a {p.kind}, no purse" if criterion != "no-items" else f"a {p.kind}"
    if criterion in ("most-gold", "least-gold"):
        return f"{p.gold} gold"
    if criterion in ("most-health", "least-health"):
        return "no health" if p.health is None else f"{p.health} health"
    if criterion == "most-poison":
        return f"{p.poison} poison"
    if criterion == "no-items":
        return f"{p.items} items"
    if criterion == "closest":
        return f"{c.distance:.1f} cm" if c.measured else \
            "the closest, by the table" if c.distance == 0 else "farther, by the table"
    raise KeyError(criterion)


def _rulings_of(criterion: str, remaining: list[Candidate]) -> tuple[RulingKey, ...]:
    """The rulings a column rests on when it is read over these candidates."""
    fired: tuple[RulingKey, ...] = ()
    if criterion == "closest":
        fired += (RulingKey.CLOSEST_EDGE,)
    if criterion in WEALTH_COLUMNS and any(c.piece.kind != Kind.HERO for c in remaining):
        fired += (RulingKey.NON_HERO_WEALTH,)
    if criterion == "most-poison" and any(c.piece.kind != Kind.HERO for c in remaining):
        fired += (RulingKey.MOST_POISON,)
    return fired


Judged = Callable[[list[Candidate]], list[Candidate]]


def preference_key(candidate: Candidate, row: BehaviourRow,
                   non_hero_wealth: str = "behind-heroes") -> tuple[float, ...]:
    """The candidate's values on the row's columns before its first `closest` one: what can be
    ranked without a ruler (smaller is preferred)."""
    key: list[float] = []
    for field, _ in COLUMNS:
        criterion = getattr(row, field)
        if criterion == "closest":
            break
        key.append(_measure(criterion, non_hero_wealth)(candidate))
    return tuple(key)


def select_target(candidates: list[Candidate], row: BehaviourRow, tiles: Tiles,
                  close_call: float, non_hero_wealth: str = "behind-heroes",
                  closest: Judged | None = None, explain: bool = True,
                  reasoned: bool = True) -> TargetChoice:
    """Narrow the visible enemies column by column until one remains, then by the tiles.
    `closest`, when given, measures the candidates still in play when a `closest` column is
    reached (the players with a ruler): only then, and only those. Without `explain` the
    columns' lines are left out of the trace, and without `reasoned` the reason is left empty
    too (nobody reads them: a forecast's quiet runs)."""
    if len(candidates) == 1:
        only = candidates[0].piece
        if not reasoned:
            return TargetChoice(only.id, "only one", "", "")
        return TargetChoice(only.id, "only one", "", f"the only enemy in sight: {only.label}",
                            trace=(f"{only.label} is the only enemy in sight",))
    remaining = sorted(candidates, key=lambda c: c.piece.id)
    trace: list[str] = []
    fired: tuple[RulingKey, ...] = ()
    for field, column in COLUMNS:
        criterion = getattr(row, field)
        if criterion == "closest" and closest is not None:
            remaining = sorted(closest(remaining), key=lambda c: c.piece.id)
        measure = _measure(criterion, non_hero_wealth)
        measured = [measure(c) for c in remaining]
        best = min(measured)
        keep = [c for c, m in zip(remaining, measured, strict=True)
                if m == best or m - best <= 1e-9]
        if explain:
            values = ", ".join(f"{c.piece.label} {_shown(criterion, c)}" for c in remaining)
            trace.append(f"{column} ({CRITERION_WORDS[criterion]}): {values} -> "
                         + ", ".join(c.piece.label for c in keep))
        if len(keep) < len(remaining):
            fired += tuple(k for k in _rulings_of(criterion, remaining) if k not in fired)
        if len(keep) < len(remaining) and len(keep) == 1:
            winner = keep[0]
            losers = [c for c in remaining if c is not winner]
            runner = min(losers, key=measure)
            near = criterion == "closest" and winner.measured \
                and measure(runner) - best < close_call
            if not reasoned:
                return TargetChoice(winner.piece.id, column, criterion, "", near, (), fired)
            reason = (f"{CRITERION_WORDS[criterion]} -> {winner.piece.label} "
                      f"({_shown(criterion, winner)}; "
                      + ", ".join(f"{c.piece.label} {_shown(criterion, c)}" for c in losers) + ")")
            return TargetChoice(winner.piece.id, column, criterion, reason, near, tuple(trace),
                                fired)
        remaining = keep
    broken = by_tiles(remaining, tiles.direction, lambda c: c.piece.at, lambda c: c.piece.label,
                      explain)
    trace.extend(broken.trace)
    first = broken.ranked[0].piece
    if broken.tile is None:
        return TargetChoice(first.id, "id", "", f"a complete tie; by id -> {first.label}",
                            trace=tuple(trace), rulings=fired,
                            tied=tuple(c.piece.id for c in remaining))
    tile = tiles.direction[broken.tile]
    column = TILE_NAMES[broken.tile]
    return TargetChoice(first.id, column, tile,
                        f"tied on every column; {column}: {DIRECTION_WORDS[tile]} -> "
                        f"{first.label}", broken.gap < close_call, tuple(trace),
                        (*fired, RulingKey.DIRECTION_FRAME), tuple(c.piece.id for c in remaining))
