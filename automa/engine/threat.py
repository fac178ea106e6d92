"""The threat map: where on the mat a hero would be chosen as an Active Target.

The hero is placed in turn on every free spot of a grid over the mat, and for each spot we ask
which AI pieces, as they stand at the start of the coming AI turn, would choose the hero as
their Active Target: sight under the table's setting, the behaviour row's columns, then the
Direction tiles. No piece is moved first: a piece that must move before it looks (an Antient to
its random rune, a flier climbing down, a piece coming back from the Teleported! card) is not
mapped, and the map says so.

Everything that does not depend on the hero's spot (the other enemies' sightings and values,
an advanced target) is worked out once per AI piece; what does (the hero's sight line, its
distance, its place along the Direction tiles) is worked out for the whole grid at once, as
numpy arrays, sight by the engine's own `sight_lines` (every line of the grid in one call).
`tests/test_threat.py` checks every cell against the engine's own activation, one spot at a
time.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np
import shapely
from msgspec import Struct
from msgspec.structs import replace
from numpy.typing import NDArray

from automa.catalog.load import Catalog
from automa.engine.battle import Battle
from automa.engine.parts import merge_sightings
from automa.engine.riders import wyverns_to_ride
from automa.errors import InputError
from automa.geometry.legal import legal_mask
from automa.geometry.sight import (
    ANY_LINE_SAMPLES,
    CORRIDOR_WIDTH,
    Sighting,
    look_around,
    sight_lines,
)
from automa.geometry.table import TableGeometry, build_table, remembering
from automa.model.modes import LosTest
from automa.model.monsters import BehaviourRow
from automa.model.pieces import Condition, Kind, Piece, Side
from automa.model.scenario import Scenario
from automa.rules.rulings import RulingKey, option
from automa.rules.sequences import has_preferred_shot
from automa.rules.targeting import COLUMNS, Candidate, _measure
from automa.rules.tiles import direction_rank

MIN_STEP = 0.25  # cm: finer than a quarter centimetre says nothing a player could use
MAX_STEP = 50.0  # cm
MAX_CELLS = 250_000  # a 1000 cm mat at 2 cm; beyond that ask for a coarser grid
TIE = 1e-9  # the targeting columns' tie tolerance (rules/targeting.py)
TIE_DIGITS = 6  # the Direction tiles' rounding (rules/tiles.py)
Progress = Callable[[int, int], None]  # told (AI pieces mapped, AI pieces in all)
SIGHT_KEPT = 512  # AI pieces' sight of a grid kept by a SightMemo (0.5 cm on 60 x 90: 43 kB each)
PRE_MOVES = {
    "teleported": "comes back from the Teleported! card to a random rune before it looks",
    "aloft": "climbs down from its obstacle before it looks",
    "antient": "moves to a random rune before it looks",
}

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


class ThreatCell(Struct, frozen=True):
    at: tuple[float, float]
    targeted_by: tuple[str, ...]  # every AI piece with a chance of choosing the hero here
    p_targeted: float  # the chance at least one of them does
    p_by: dict[str, float]  # each piece's own chance


class ThreatMap(Struct, frozen=True):
    hero: str
    step: float
    hero_at: tuple[float, float]
    spots: FloatArray  # (n, 2) the free spots' centres, cm
    actors: tuple[str, ...]  # the AI pieces mapped, one column of `p` each
    p: FloatArray  # (n, len(actors)): each piece's chance of choosing the hero there
    unmapped: tuple[tuple[str, str], ...]  # AI pieces not mapped, and why

    @property
    def p_targeted(self) -> FloatArray:
        """Per spot, the chance that at least one AI piece chooses the hero (independent)."""
        if not self.actors:
            return np.zeros(len(self.spots))
        return np.asarray(1.0 - np.prod(1.0 - self.p, axis=1), dtype=float)

    def cell(self, i: int) -> ThreatCell:
        row = self.p[i]
        by = {a: float(row[j]) for j, a in enumerate(self.actors) if row[j] > 0}
        x, y = self.spots[i]
        return ThreatCell((float(x), float(y)), tuple(sorted(by)),
                          float(self.p_targeted[i]), by)

    def cells(self) -> list[ThreatCell]:
        return [self.cell(i) for i in range(len(self.spots))]

    def share(self, actor: str) -> float:
        """The share of free spots where `actor` may choose the hero."""
        column = self.p[:, self.actors.index(actor)]
        return float(np.count_nonzero(column > 0) / max(len(column), 1))

    def only(self, actors: tuple[str, ...]) -> ThreatMap:
        """The map of these AI pieces alone ("without drawing the Minotaur")."""
        for actor in actors:
            if actor not in self.actors:
                why = dict(self.unmapped).get(actor)
                raise InputError(f"--by {actor}: " + (f"not mapped: it {why}" if why else
                                 f"no AI piece; the AI pieces mapped are "
                                 f"{', '.join(self.actors) or '(none)'}"))
        keep = [self.actors.index(a) for a in actors]
        return replace(self, actors=tuple(actors), p=self.p[:, keep],
                       unmapped=tuple(u for u in self.unmapped if u[0] in actors))

    @property
    def expected(self) -> FloatArray:
        """Per spot, how many AI pieces are expected to choose the hero."""
        return np.asarray(self.p.sum(axis=1), dtype=float)

    def nearest_clear_of(self, actor: str) -> tuple[tuple[float, float], float] | None:
        """The spot nearest the hero's current one where `actor` never chooses the hero, and
        how far it is (cm); None when there is none."""
        clear = np.flatnonzero(self.p[:, self.actors.index(actor)] == 0)
        if not len(clear):
            return None
        gaps = np.hypot(self.spots[clear, 0] - self.hero_at[0],
                        self.spots[clear, 1] - self.hero_at[1])
        best = int(np.argmin(gaps))
        x, y = self.spots[clear[best]]
        return (float(x), float(y)), float(gaps[best])

    def safest_near(self) -> tuple[tuple[float, float], float, float] | None:
        """The spot with the lowest chance of drawing an attack, nearest the hero's current
        spot: (spot, its chance, its distance in cm)."""
        if not len(self.spots):
            return None
        p = self.p_targeted
        low = float(p.min())
        near = np.flatnonzero(p <= low + TIE)
        gaps = np.hypot(self.spots[near, 0] - self.hero_at[0],
                        self.spots[near, 1] - self.hero_at[1])
        best = int(near[int(np.argmin(gaps))])
        x, y = self.spots[best]
        return (float(x), float(y)), low, float(gaps.min())

    def json(self) -> dict[str, Any]:
        p = self.p_targeted
        cells = []
        for i, (x, y) in enumerate(self.spots):
            row = self.p[i]
            by = [a for j, a in enumerate(self.actors) if row[j] > 0]
            cells.append({"at": [float(x), float(y)], "targeted_by": sorted(by),
                          "p_targeted": round(float(p[i]), 12)})
        return {"hero": self.hero, "step": self.step, "hero_at": list(self.hero_at),
                "mapped": list(self.actors),
                "unmapped": [{"id": a, "why": why} for a, why in self.unmapped],
                "cells": cells}


class SightMemo:
    """What a threat map's sight costs, kept for the next map of the same mat: per AI piece's
    place and size (and the hero's size, the grid and the sight test), whether it sees a hero
    on each grid square. Sight depends on nothing else (pieces never block it), so another
    hero's map, another `by`, or the same battle after a hero moved, asks only the squares
    not yet known. Holds the mat's geometry as a remembering copy (geometry/table.py
    `remembering`): the other pieces' sightings are kept there the same way. One memo serves
    one mat; the newest SIGHT_KEPT pieces' grids are kept."""

    def __init__(self, geometry: TableGeometry, kept: int = SIGHT_KEPT) -> None:
        self.geometry = geometry if geometry.memo is not None else remembering(geometry)
        self.kept = kept
        self.squares_worked = 0  # squares whose sight was worked out (not found kept)
        self._grids: OrderedDict[tuple[Any, ...], tuple[BoolArray, BoolArray]] = OrderedDict()

    def sight(self, key: tuple[Any, ...], cells: NDArray[np.intp], size: int,
              work: Callable[[NDArray[np.intp]], BoolArray]) -> BoolArray:
        """Whether the piece of `key` sees the hero on each of the grid's squares `cells`
        (indices into a grid of `size` squares); `work` is asked about the unknown ones."""
        known, seen = self._grids.pop(key, None) or (np.zeros(size, dtype=bool),
                                                    np.zeros(size, dtype=bool))
        todo = cells[~known[cells]]
        if len(todo):
            seen[todo] = work(todo)
            known[todo] = True
            self.squares_worked += len(todo)
        self._grids[key] = (known, seen)
        while len(self._grids) > self.kept:
            self._grids.popitem(last=False)
        return seen[cells]


def grid_spots(width: float, length: float, step: float) -> FloatArray:
    """Centres of the grid's squares: (k + 1/2) * step, inside the mat."""
    check_step(step, width, length)
    xs = (np.arange(math.floor(width / step + 1e-9)) + 0.5) * step
    ys = (np.arange(math.floor(length / step + 1e-9)) + 0.5) * step
    gx, gy = np.meshgrid(xs, ys)
    return np.column_stack([gx.ravel(), gy.ravel()])


def check_step(step: float, width: float, length: float) -> None:
    if not math.isfinite(step) or not MIN_STEP <= step <= MAX_STEP:
        raise InputError(f"--step {step:g}: give a grid step from {MIN_STEP:g} to "
                         f"{MAX_STEP:g} cm")
    cells = math.floor(width / step + 1e-9) * math.floor(length / step + 1e-9)
    if cells > MAX_CELLS:
        raise InputError(f"--step {step:g}: {cells} spots on a {width:g} x {length:g} cm mat; "
                         f"at most {MAX_CELLS} (use a coarser step)")


def hero_of(battle: Battle, hero: str) -> Piece:
    """The hero to place, or one line naming the heroes there are."""
    heroes = sorted(p.id for p in battle.pieces if p.kind == Kind.HERO)
    piece = battle.get(hero)
    if piece is None or piece.kind != Kind.HERO:
        what = "no piece" if piece is None else f"a {piece.kind}, not a hero"
        raise InputError(f"threat {hero}: {what}; the heroes are "
                         f"{', '.join(heroes) or '(none)'}")
    if piece not in battle.on_table():
        raise InputError(f"threat {hero}: {piece.label} is not on the mat "
                         f"({', '.join(sorted(piece.conditions))})")
    return piece


def unmapped_reason(piece: Piece) -> str | None:
    """Why an AI piece is not mapped (it moves before it looks), or None."""
    if Condition.TELEPORTED in piece.conditions:
        return PRE_MOVES["teleported"]
    if Condition.ALOFT in piece.conditions:
        return PRE_MOVES["aloft"]
    if piece.kind == Kind.ANTIENT:
        return PRE_MOVES["antient"]
    return None


def ai_characters(battle: Battle) -> list[Piece]:
    """The AI characters that act in the coming turn (parts are no characters of their own)."""
    return [p for p in battle.pieces if p.side == Side.AI and Condition.DEVOURED not in p.conditions
            and p.part_of is None]


class _Context(Struct, frozen=True):
    scenario: Scenario
    catalog: Catalog
    geometry: TableGeometry
    battle: Battle
    hero: Piece
    spots: FloatArray
    convex: BoolArray  # which obstacles are convex (a circle's polygon, a square...)
    cells: NDArray[np.intp] | None = None  # each spot's square of the grid (threat_map)
    grid: FloatArray | None = None  # the grid's squares' centres (threat_map)
    memo: SightMemo | None = None  # the mat's sight kept from map to map (the live board's)
    step: float = 0.0  # the grid's step, cm (part of the memo's key)

    @property
    def wealth(self) -> str:
        return option(self.scenario.settings.rulings, RulingKey.NON_HERO_WEALTH)


def threat_map(source: Scenario | tuple[Scenario, Battle], catalog: Catalog, hero: str,
               step: float = 1.0, geometry: TableGeometry | None = None, *,
               progress: Progress | None = None, memo: SightMemo | None = None) -> ThreatMap:
    """The threat map of `hero` over a scenario (or a scenario's settings with a battle as it
    stands now, as a session or the live board holds it). Pure: no dice are rolled.
    `progress` is told (AI pieces mapped, AI pieces in all) as each is done. With a `memo`
    (of this mat: its geometry is used), sight already worked out for a square is not worked
    out again (the live board's next map)."""
    scenario, battle = _split(source)
    mat = scenario.playmat
    spots = grid_spots(mat.width, mat.length, step)
    piece = hero_of(battle, hero)
    geometry = memo.geometry if memo is not None else geometry or build_table(mat)
    free = legal_mask(geometry, list(battle.on_table()), piece, spots) if len(spots) else \
        np.zeros(0, dtype=bool)
    cells = np.flatnonzero(free)
    return _mapped(scenario, battle, catalog, piece, spots[free], float(step), geometry,
                   progress, (cells, spots, memo) if memo is not None else None)


def threat_at(source: Scenario | tuple[Scenario, Battle], catalog: Catalog, hero: str,
              spots: FloatArray, step: float = 0.0, geometry: TableGeometry | None = None, *,
              progress: Progress | None = None) -> ThreatMap:
    """The same over any spots (n, 2), legal or not: e.g. the hero's own spot."""
    scenario, battle = _split(source)
    piece = hero_of(battle, hero)
    geometry = geometry or build_table(scenario.playmat)
    spots = np.asarray(spots, dtype=float).reshape(-1, 2)
    return _mapped(scenario, battle, catalog, piece, spots, step, geometry, progress, None)


def _mapped(scenario: Scenario, battle: Battle, catalog: Catalog, piece: Piece,
            spots: FloatArray, step: float, geometry: TableGeometry, progress: Progress | None,
            grid: tuple[NDArray[np.intp], FloatArray, SightMemo] | None) -> ThreatMap:
    """The map over `spots`; with `grid` (each spot's square, the grid's squares, the
    memo), sight is asked of the memo square by square."""
    convex = np.array([bool(shapely.equals(o, shapely.convex_hull(o)))
                       for o in geometry.obstacle_array], dtype=bool)
    cells, squares, memo = grid if grid is not None else (None, None, None)
    ctx = _Context(scenario, catalog, geometry, battle, piece, spots, convex, cells=cells,
                   grid=squares, memo=memo, step=step)
    actors: list[str] = []
    unmapped: list[tuple[str, str]] = []
    columns: list[FloatArray] = []
    characters = ai_characters(battle)
    for done, actor in enumerate(characters, 1):
        why = unmapped_reason(actor)
        if why is None:
            actors.append(actor.id)
            columns.append(_chosen(ctx, actor).astype(float))
        else:
            unmapped.append((actor.id, why))
        if progress is not None:
            progress(done, len(characters))
    p = np.column_stack(columns) if columns else np.zeros((len(spots), 0))
    return ThreatMap(piece.id, step, piece.at, spots, tuple(actors), p, tuple(unmapped))


def _split(source: Scenario | tuple[Scenario, Battle]) -> tuple[Scenario, Battle]:
    if isinstance(source, tuple):
        return source
    return source, Battle(source.pieces, source.bags, source.out)


def _chosen(ctx: _Context, actor: Piece) -> BoolArray:
    """Per spot: does `actor` choose the hero as its Active Target with the hero there?"""
    n = len(ctx.spots)
    if actor.conditions & {Condition.FROZEN, Condition.STUNNED} or _advanced_target(ctx, actor):
        return np.zeros(n, dtype=bool)
    settings = ctx.scenario.settings
    enemies = ctx.battle.enemies_of_ai()
    hero = ctx.hero
    others = [p for p in enemies if p.id != hero.id and p.part_of != hero.id]
    seen = [s for s in merge_sightings(ctx.battle, look_around(
        ctx.geometry, actor, others, settings.los_blocked, settings.los_test)) if s.visible]
    parts = [p for p in enemies if p.part_of == hero.id]
    part_sightings = look_around(ctx.geometry, actor, parts, settings.los_blocked,
                                 settings.los_test)
    visible, distance = _hero_sight(ctx, actor)
    for s in part_sightings:  # the hero is seen through a part as merge_sightings does
        better = (s.visible & ~visible) | ((s.visible == visible) & (s.distance < distance))
        visible = np.where(better, s.visible, visible)
        distance = np.where(better, s.distance, distance)
    row = ctx.catalog.behaviour_for(actor)
    return visible & _hero_wins(ctx, row, seen, distance)


def _advanced_target(ctx: _Context, actor: Piece) -> bool:
    """Advanced Target Selection finds a friendly target in sight: then no enemy is chosen,
    wherever the hero stands (the hero never blocks sight, and is none of these)."""
    settings = ctx.scenario.settings
    if not settings.advanced_targeting:
        return False
    mates = ctx.battle.teammates_of(actor.id)

    def any_in_sight(pieces: list[Piece]) -> bool:
        return any(s.visible for s in look_around(ctx.geometry, actor, pieces,
                                                  settings.los_blocked, settings.los_test))

    if any_in_sight([p for p in mates if Condition.FROZEN in p.conditions]):
        return True
    if any(has_preferred_shot(s, "repeat") for s in actor.sequences) and any_in_sight(
            [p for p in mates if Condition.FROZEN not in p.conditions]):
        return True
    return any_in_sight(wyverns_to_ride(ctx.battle, actor))


def _hero_sight(ctx: _Context, actor: Piece) -> tuple[BoolArray, FloatArray]:
    """Whether the actor sees the hero at each spot, and the edge-to-edge distance."""
    start = np.asarray(actor.at, dtype=float)
    end = ctx.spots
    distance = np.hypot(end[:, 0] - start[0], end[:, 1] - start[1]) - actor.radius \
        - ctx.hero.radius
    settings = ctx.scenario.settings
    n = len(end)
    if not settings.los_blocked or not ctx.geometry.obstacles or n == 0:
        return np.ones(n, dtype=bool), distance
    memo, cells, grid = ctx.memo, ctx.cells, ctx.grid
    if memo is None or cells is None or grid is None:
        return _sees(ctx, actor, end), distance
    key = (actor.at, actor.radius, ctx.hero.radius, settings.los_test, ctx.step, len(grid))
    return memo.sight(key, cells, len(grid), lambda todo: _sees(ctx, actor, grid[todo])), \
        distance


def _sees(ctx: _Context, actor: Piece, end: FloatArray) -> BoolArray:
    """Whether the actor sees a hero centred on each of `end` (n, 2), under the table's test."""
    start = np.asarray(actor.at, dtype=float)
    lines = np.stack([np.broadcast_to(start, end.shape), end], axis=1)
    settings = ctx.scenario.settings
    if settings.los_test == LosTest.ANY_LINE:
        return _any_line(ctx, actor, lines, end)
    grow = CORRIDOR_WIDTH / 2 if settings.los_test == LosTest.CORRIDOR else 0.0
    return ~_any(_blocked(ctx, lines, grow))


def _blocked(ctx: _Context, lines: NDArray[np.float64], grow: float) -> BoolArray:
    """(lines, obstacles): does the line (n, 2, 2) (or the band `grow` either side of it)
    meet the obstacle's interior? The engine's own test (geometry/sight.py `sight_lines`),
    line by line: the same answers it gives one activation, in one call for the whole grid."""
    if not len(lines):
        return np.zeros((0, len(ctx.geometry.obstacles)), dtype=bool)
    blocked, _ = sight_lines(ctx.geometry, lines, grow, clearance=False)
    return blocked


def _any_line(ctx: _Context, actor: Piece, centre_lines: NDArray[np.float64],
              spots: FloatArray) -> BoolArray:
    """The lenient test: some line from a point across one disc to a point across the other
    is clear (the same 9 x 9 lines as geometry/sight.py).

    The centre line is one of them: a spot whose centre line is clear is seen. The 81 lines
    lie in the trapezoid between the two outermost ones (from one disc's edge to the same
    side of the other's); a convex obstacle whose interior meets both outermost lines holds a
    chord across that trapezoid in its interior, which every line from disc to disc crosses:
    such a spot is hidden without testing the other 79. Only the rest test all 81."""
    visible = ~_any(_blocked(ctx, centre_lines, 0.0))
    todo = np.flatnonzero(~visible)
    if len(todo) == 0:
        return visible
    start = np.asarray(actor.at, dtype=float)
    end = spots[todo]
    direction = end - start
    norm = np.maximum(np.hypot(direction[:, 0], direction[:, 1]), 1e-12)
    normal = np.column_stack([-direction[:, 1], direction[:, 0]]) / norm[:, None]
    spread = np.linspace(-1.0, 1.0, ANY_LINE_SAMPLES)
    k = ANY_LINE_SAMPLES
    from_points = start[None, None, :] + (spread * actor.radius)[None, :, None] \
        * normal[:, None, :]
    to_points = end[:, None, :] + (spread * ctx.hero.radius)[None, :, None] * normal[:, None, :]
    sides = np.stack([from_points[:, [0, -1]], to_points[:, [0, -1]]],
                     axis=2).reshape(-1, 2, 2)  # (m * 2) outermost lines
    walls = _blocked(ctx, sides, 0.0).reshape(len(todo), 2, -1)
    hidden = (walls[:, 0] & walls[:, 1] & ctx.convex[None, :]).any(axis=1)
    side_clear = ~_any(walls).all(axis=1)  # an outermost line is itself clear
    visible[todo[side_clear]] = True
    undecided = np.flatnonzero(~hidden & ~side_clear)  # indices into todo
    for batch in _stages(k):  # the lines most likely clear first: a clear one settles a spot
        if not len(undecided):
            break
        i, j = batch[:, 0], batch[:, 1]
        pairs = np.stack([from_points[undecided][:, i], to_points[undecided][:, j]], axis=2)
        blocked = _any(_blocked(ctx, pairs.reshape(-1, 2, 2), 0.0)).reshape(
            len(undecided), len(batch))
        clear = ~blocked.all(axis=1)
        visible[todo[undecided[clear]]] = True
        undecided = undecided[~clear]
    return visible


def _any(blocked: BoolArray) -> BoolArray:
    """Blocked by any obstacle: over the last axis."""
    return np.asarray(blocked.any(axis=-1), dtype=bool)


def _stages(k: int) -> list[NDArray[np.intp]]:
    """The k x k (from, to) sample pairs in three batches, leaving out the centre line and the
    two outermost ones (tested before, all blocked): the crossing corners, a coarse lattice,
    the rest."""
    done = {(k // 2, k // 2), (0, 0), (k - 1, k - 1)}
    corners = [(0, k - 1), (k - 1, 0)]
    coarse = [(i, j) for i in range(0, k, 2) for j in range(0, k, 2)]
    rest = [(i, j) for i in range(k) for j in range(k)]
    stages, seen = [], set(done)
    for stage in (corners, coarse, rest):
        fresh = [pair for pair in stage if pair not in seen]
        seen.update(fresh)
        stages.append(np.array(fresh, dtype=np.intp))
    return stages


def _hero_wins(ctx: _Context, row: BehaviourRow, seen: list[Sighting],
               hero_distance: FloatArray) -> BoolArray:
    """Per spot, with the hero in sight: do the row's columns, then the Direction tiles, pick
    the hero among the enemies in sight? (rules/targeting.py select_target, over arrays.)"""
    n = len(hero_distance)
    battle, hero, wealth = ctx.battle, ctx.hero, ctx.wealth
    others = [Candidate(battle.piece(s.target), s.distance) for s in seen]
    k = len(others)
    alive = np.ones((n, k + 1), dtype=bool)  # column k: the hero
    won = np.zeros(n, dtype=bool)
    open_ = np.ones(n, dtype=bool)  # not yet decided by a column
    for field, _ in COLUMNS:
        criterion = getattr(row, field)
        measure = _measure(criterion, wealth)
        values = np.empty((n, k + 1))
        for j, c in enumerate(others):
            values[:, j] = measure(c)
        values[:, k] = hero_distance if criterion == "closest" else measure(Candidate(hero, 0.0))
        masked = np.where(alive, values, np.inf)
        best = masked.min(axis=1, keepdims=True)
        with np.errstate(invalid="ignore"):
            keep = alive & ((values == best) | (values - best <= TIE))
        kept, before = keep.sum(axis=1), alive.sum(axis=1)
        decided = open_ & (kept < before) & (kept == 1)
        won |= decided & keep[:, k]
        open_ &= ~decided
        alive = np.where(open_[:, None], keep, alive)
    if not open_.any():
        return won
    return won | (open_ & _tiles_pick_hero(ctx, others, alive))


def _tiles_pick_hero(ctx: _Context, others: list[Candidate], alive: BoolArray) -> BoolArray:
    """Among the candidates still tied: the green tile, then the blue, then the id order."""
    direction = ctx.scenario.tiles.direction
    k = len(others)
    keys = np.empty((len(ctx.spots), k + 1, len(direction)))
    for t, tile in enumerate(direction):
        for j, c in enumerate(others):
            keys[:, j, t] = round(direction_rank(tile, c.piece.at), TIE_DIGITS)
        keys[:, k, t] = [round(direction_rank(tile, (x, y)), TIE_DIGITS)
                         for x, y in ctx.spots.tolist()]
    tied = alive.copy()
    for t in range(len(direction)):
        ranks = np.where(tied, keys[:, :, t], np.inf)
        tied &= ranks == ranks.min(axis=1, keepdims=True)
    ids = [c.piece.id for c in others]
    earlier = np.array([i < ctx.hero.id for i in ids], dtype=bool)  # sorted by id first
    beaten = (tied[:, :k] & earlier[None, :]).any(axis=1)
    return np.asarray(tied[:, k] & ~beaten, dtype=bool)


def placed(battle: Battle, hero: str, at: tuple[float, float]) -> Battle:
    """The battle with the hero moved to `at` (the one-spot reference and the live board)."""
    piece = battle.piece(hero)
    return battle.with_piece(replace(piece, at=at))
