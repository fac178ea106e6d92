"""Fast paths of the geometry against the plain computation they stand in for, on random tables:
the same answers, every length and coordinate within TOLERANCE (the fingerprints test the shipped
tables; these test the shortcuts where those tables never go). The fast paths work in plain
floats where the references work in numpy, whose products may round otherwise in the last bits
(its BLAS may fuse a multiply-add), so a choice that turns on the last bits (which of two things
a sweep meets at the same distance within the tolerance) may go either way."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from automa.errors import RulesError
from automa.geometry import moves, sight, spots
from automa.geometry.table import (
    EPSILON,
    TableGeometry,
    build_table,
    nearest_obstacle,
    obstacle_distances,
    point_gaps,
)
from automa.model.pieces import Piece
from automa.model.playmat import Obstacle, Playmat
from tests.conftest import examples
from tests.regenerate_fingerprints import TOLERANCE_CM as TOLERANCE

# Each example here is microseconds of plain arithmetic held to numpy's or shapely's answer,
# so these properties run several times the profile's examples (`examples`).

WIDTH, LENGTH = 60.0, 90.0
coordinate = st.floats(0.0, WIDTH)
depth = st.floats(0.0, LENGTH)


@st.composite
def obstacles(draw: st.DrawFn) -> Obstacle:
    x, y = draw(coordinate), draw(depth)
    name = f"O{draw(st.integers(0, 10**6))}"
    if draw(st.booleans()):
        return Obstacle(name, circle=(x, y, draw(st.floats(0.5, 8.0))))
    corners = draw(st.integers(3, 7))
    radii = draw(st.lists(st.floats(0.5, 8.0), min_size=corners, max_size=corners))
    turn = draw(st.floats(0.0, 2 * math.pi))
    # star-shaped round (x, y): a simple polygon, convex or not
    return Obstacle(name, tuple((x + r * math.cos(turn + 2 * math.pi * i / corners),
                                 y + r * math.sin(turn + 2 * math.pi * i / corners))
                                for i, r in enumerate(radii)))


@st.composite
def tables(draw: st.DrawFn) -> TableGeometry:
    found = draw(st.lists(obstacles(), min_size=0, max_size=7, unique_by=lambda o: o.id))
    return build_table(Playmat("t", "T", WIDTH, LENGTH, 12.0, 75.0, tuple(found), {}, 1.5, "test"))


@st.composite
def pieces(draw: st.DrawFn) -> tuple[Piece, ...]:
    count = draw(st.integers(1, 9))
    return tuple(Piece(f"p{i}", "ai", "monster", (draw(st.floats(1.0, WIDTH - 1.0)),
                                                   draw(st.floats(1.0, LENGTH - 1.0))),
                       draw(st.sampled_from([1.0, 1.25, 1.5, 2.5])), 3)
                 for i in range(count))


def close(a: float, b: float) -> bool:
    """The same length to within TOLERANCE (inf only as inf)."""
    return a == b or abs(a - b) <= TOLERANCE


def close_points(a: Sequence[float] | None, b: Sequence[float] | None) -> bool:
    """The same point to within TOLERANCE in each coordinate (or both None)."""
    if a is None or b is None:
        return a is b
    return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b, strict=True))


direction = st.one_of(
    st.sampled_from([(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (0.6, 0.8)]),
    st.tuples(st.floats(-1.0, 1.0), st.floats(-1.0, 1.0)).filter(
        lambda d: math.hypot(*d) > 1e-3))


EdgeArrays = tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64],
                   NDArray[np.float64], NDArray[np.float64]]


def numpy_edges(table: TableGeometry) -> tuple[EdgeArrays, NDArray[np.intp]]:
    """Every polygon edge's arrays as numpy's sweep and margin read them (the table kept them
    before plain floats): corners, lengths, unit directions, left normals and zero radii, a row
    an edge; and where each polygon's run of rows starts."""
    edges = table.edges
    along = edges[:, 1, :] - edges[:, 0, :]
    length = np.hypot(along[:, 0], along[:, 1])
    unit = along / length[:, None]
    normal = np.column_stack([-unit[:, 1], unit[:, 0]])
    runs = np.cumsum([0, *[len(rows) for rows in table.polygon_edge_rows][:-1]], dtype=np.intp)
    return (np.ascontiguousarray(edges[:, 0, :]), length, unit, normal,
            np.zeros(len(edges))), runs


def numpy_polygon_edges(table: TableGeometry) -> list[EdgeArrays]:
    """`numpy_edges`, each polygon's own rows."""
    (corners, length, unit, normal, no_radii), _ = numpy_edges(table)
    bounds = np.cumsum([0, *[len(rows) for rows in table.polygon_edge_rows]]).tolist()
    return [(corners[a:b], length[a:b], unit[a:b], normal[a:b], no_radii[a:b])
            for a, b in pairwise(bounds)]


def numpy_contact_with_discs(start: NDArray[np.float64], u: NDArray[np.float64], radius: float,
                              centres: NDArray[np.float64], radii: NDArray[np.float64]
                              ) -> NDArray[np.float64]:
    """Distance along u at which the moving disc first touches each fixed disc (inf: never), as
    numpy's arithmetic gave it before the sweep measured in plain floats (automa.geometry.
    contacts): the reference the plain figures are held to."""
    d0 = start - centres
    along = d0 @ u
    reach = radius + radii
    c = np.einsum("ij,ij->i", d0, d0) - reach**2
    disc = along**2 - c
    approaching = along < -1e-9  # moving sideways past a touching disc is not approaching it
    hit = approaching & (disc >= 0)
    t = np.where(hit, -along - np.sqrt(np.maximum(disc, 0.0)), np.inf)
    t = np.where(hit & (c <= EPSILON), 0.0, t)  # already touching and moving closer
    return np.maximum(t, 0.0)


def numpy_contact_with_edges(start: NDArray[np.float64], u: NDArray[np.float64], radius: float,
                              edges: EdgeArrays) -> NDArray[np.float64]:
    """Distance along u at which the moving disc first touches each edge (segment) of some
    polygon obstacles (inf: never): `edges` holds their corners, lengths, unit directions, left
    normals and zero radii, a row an edge."""
    p, length, e, n, no_radii = edges
    vertex_t = numpy_contact_with_discs(start, u, radius, p, no_radii)
    s0 = np.sum((start - p) * n, axis=1)
    un = n @ u
    side = np.where(s0 >= 0, 1.0, -1.0)
    approaching = side * un < -1e-12  # so |un| > 1e-12: the division below is finite
    t = (side * radius - s0) / np.where(approaching, un, 1.0)
    t = np.where(approaching & (t >= -EPSILON), np.maximum(t, 0.0), np.inf)
    finite = np.isfinite(t)
    contact = start + np.where(finite, t, 0.0)[:, None] * u
    proj = np.sum((contact - p) * e, axis=1)
    t = np.where(finite & (proj >= 0) & (proj <= length), t, np.inf)
    return np.minimum(t, vertex_t)


def full_sweep(table: TableGeometry, pieces: Sequence[Piece], mover: Piece,
               direction: tuple[float, float], length: float) -> moves.Move:
    """The sweep measuring every obstacle and every piece (the code before the cull), in numpy
    (the code before `contacts`)."""
    start = np.asarray(mover.at, dtype=float)
    u = np.asarray(direction, dtype=float)
    u = u / np.hypot(*u)
    r = mover.radius
    limits: list[tuple[float, str]] = [(length, "")]
    mat = table.playmat
    for axis, size in ((0, mat.width), (1, mat.length)):
        if u[axis] > 1e-12:
            limits.append(((size - r - start[axis]) / u[axis], "the mat edge"))
        elif u[axis] < -1e-12:
            limits.append(((start[axis] - r) / -u[axis], "the mat edge"))
    if table.obstacles:
        per_obstacle = np.full(len(table.obstacles), np.inf)
        if len(table.edges):
            edges, runs = numpy_edges(table)
            sided = [i for i, rank in enumerate(table.sided_rank) if rank >= 0]
            per_obstacle[sided] = np.minimum.reduceat(
                numpy_contact_with_edges(start, u, r, edges), runs)
        if len(table.circles):
            per_obstacle[table.circles] = numpy_contact_with_discs(
                start, u, r, table.hub[table.circles], table.circle_radius[table.circles])
        limits += [(t, f"obstacle {obstacle.id}")
                   for obstacle, t in zip(table.obstacles, per_obstacle.tolist(), strict=True)
                   if math.isfinite(t)]
    others = [p for p in pieces if p.id != mover.id]
    if others:
        centres = np.array([p.at for p in others], dtype=float)
        radii = np.array([p.radius for p in others], dtype=float)
        contacts = numpy_contact_with_discs(start, u, r, centres, radii).tolist()
        limits += [(t, piece.id) for piece, t in zip(others, contacts, strict=True)
                   if t != math.inf]
    limits.sort(key=lambda item: item[0])
    travel, stopped_by = limits[0]
    travel = max(0.0, travel - 1e-7)
    margin = limits[1][0] - limits[0][0]
    end = (float(start[0] + u[0] * travel), float(start[1] + u[1] * travel))
    intended = (float(start[0] + u[0] * length), float(start[1] + u[1] * length))
    safe_end = moves.nearest_legal_spot(table, pieces, mover, end)
    return moves.Move(mover.id, mover.at, safe_end, intended if not stopped_by else end,
                      stopped_by or None, margin)


def sweep_move(*args: Any) -> moves.Move:
    """The sweep's move (without whether it ended where it stopped)."""
    return moves._sweep(*args)[0]


def outcome(call: Callable[..., object], *args: object) -> object:
    """What a call gives, or the one line of the error it raises (no room on the mat)."""
    try:
        return call(*args)
    except RulesError as error:
        return str(error)


def same_sweep(got: object, want: object) -> bool:
    """The same move within TOLERANCE: what stopped it too, unless the next thing in the way
    was as near within the tolerance (either may be met first); the same error line."""
    if not isinstance(got, moves.Move) or not isinstance(want, moves.Move):
        return got == want
    tie = want.margin <= 2 * TOLERANCE
    return (got.piece == want.piece and got.start == want.start
            and (got.stopped_by == want.stopped_by or tie)
            and close_points(got.end, want.end) and close_points(got.intended, want.intended)
            and (close(got.margin, want.margin) or tie))


@settings(max_examples=examples(6))
@given(tables(), pieces(), direction, st.floats(0.0, 40.0), st.integers(0, 8))
def test_the_sweep_measures_only_what_it_may_meet(table: TableGeometry,
                                                  placed: tuple[Piece, ...],
                                                  way: tuple[float, float], length: float,
                                                  which: int) -> None:
    """Skipping the obstacles and pieces surely met only past the second-nearest limit (or never)
    changes nothing: where it stops, what stops it, the margin."""
    mover = placed[which % len(placed)]
    assert same_sweep(outcome(sweep_move, table, placed, mover, way, length),
                      outcome(full_sweep, table, placed, mover, way, length))


@settings(max_examples=examples(6))
@given(tables(), pieces(), st.integers(0, 10**6), st.floats(0.0, 2 * math.pi),
       st.floats(-1.1, 1.1), st.floats(-3.0, 25.0), st.floats(0.0, 30.0))
def test_the_sweep_grazing_what_it_may_meet(table: TableGeometry, placed: tuple[Piece, ...],
                                            which: int, angle: float, aside: float, back: float,
                                            length: float) -> None:
    """The mover aimed to pass an obstacle's corner, a circle or a piece at about the distance
    where it just touches (the cull's edge: a glancing contact, a contact at once, moving
    away), from up to 25 cm before it to 3 cm past it."""
    mover = placed[which % len(placed)]
    others = [p for p in placed if p.id != mover.id]
    points = [(x, y, mover.radius) for x, y in table.edges[:, 0, :].tolist()]
    circles = table.circles
    points += [(x, y, r + mover.radius) for (x, y), r
               in zip(table.hub[circles].tolist(), table.circle_radius[circles].tolist(),
                      strict=True)]
    points += [(p.at[0], p.at[1], p.radius + mover.radius) for p in others]
    if not points:
        return
    x, y, reach = points[which % len(points)]
    way = (math.cos(angle), math.sin(angle))
    at = (x - back * way[0] - aside * reach * way[1], y - back * way[1] + aside * reach * way[0])
    if not (mover.radius <= at[0] <= WIDTH - mover.radius
            and mover.radius <= at[1] <= LENGTH - mover.radius):
        return
    moved = tuple(p if p.id != mover.id else p.moved(at) for p in placed)
    mover = next(p for p in moved if p.id == mover.id)
    assert same_sweep(outcome(sweep_move, table, moved, mover, way, length),
                      outcome(full_sweep, table, moved, mover, way, length))


def fresh_curves(table: TableGeometry, pieces: Sequence[Piece], mover: Piece,
                 within: tuple[tuple[float, float], float] | None
                 ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The keep-out curves built from nothing (the code before the table's part was kept)."""
    r = mover.radius + spots.CLEAR
    others = [p for p in pieces if p.id != mover.id]
    circles = [np.array([[p.at[0], p.at[1], p.radius + r] for p in others]).reshape(-1, 3)]
    round_ones = np.flatnonzero(table.is_circle)
    circles.append(np.column_stack([table.hub[round_ones], table.circle_radius[round_ones] + r]))
    corners = table.edges[:, 0, :]
    circles.append(np.column_stack([corners, np.full(len(corners), r)]))
    if within is not None:
        circles.append(np.array([[within[0][0], within[0][1], within[1] - spots.CLEAR]]))
    mat = table.playmat
    lines = [np.array([[r, 0.0, 0.0, 1.0], [mat.width - r, 0.0, 0.0, 1.0], [0.0, r, 1.0, 0.0],
                       [0.0, mat.length - r, 1.0, 0.0]])]
    if len(table.edges):
        p, q = table.edges[:, 0, :], table.edges[:, 1, :]
        along = q - p
        unit = along / np.hypot(along[:, 0], along[:, 1])[:, None]
        normal = np.column_stack([-unit[:, 1], unit[:, 0]])
        for side in (1.0, -1.0):
            lines.append(np.column_stack([p + side * r * normal, unit]))
    return np.concatenate(circles), np.concatenate(lines)


@settings(max_examples=examples(4))
@given(st.lists(tables(), min_size=1, max_size=3), pieces(), st.integers(0, 8),
       st.one_of(st.none(), st.tuples(st.tuples(coordinate, depth), st.floats(1.0, 20.0))))
def test_the_kept_curves_are_the_curves(tables_: list[TableGeometry], placed: tuple[Piece, ...],
                                        which: int,
                                        within: tuple[tuple[float, float], float] | None
                                        ) -> None:
    """The keep-out curves with the table's part kept from call to call (several tables and
    sizes of piece in turn) are the ones built afresh, bit for bit and row for row."""
    for table in tables_ * 2:
        for mover in placed[which % len(placed):]:
            kept, fresh = spots._curves(table, placed, mover, within), \
                fresh_curves(table, placed, mover, within)
            assert kept[0].tobytes() == fresh[0].tobytes() and kept[0].shape == fresh[0].shape
            assert kept[1].tobytes() == fresh[1].tobytes() and kept[1].shape == fresh[1].shape


def numpy_polygon_extents(table: TableGeometry, start: NDArray[np.float64],
                          normal: NDArray[np.float64]) -> tuple[list[float], list[float]]:
    """The highest and lowest offset along `normal` from `start` of each polygon's corners, in
    numpy (the code before plain floats): every polygon's corners in one product."""
    (corners, *_), runs = numpy_edges(table)
    offsets = (corners - start) @ normal
    return (np.maximum.reduceat(offsets, runs).tolist(),
            np.minimum.reduceat(offsets, runs).tolist())


def old_blocked_margin(table: TableGeometry, a: Piece, b: Piece, blockers: list[int],
                       grow: float) -> float:
    """`_blocked_margin` in numpy (the code before plain floats)."""
    start = np.asarray(a.at)
    direction = np.asarray(b.at) - start
    normal = np.array([-direction[1], direction[0]]) / max(np.hypot(*direction), 1e-12)
    left = right = 0.0
    highs, lows = numpy_polygon_extents(table, start, normal) if len(table.edges) else ([], [])
    for i in blockers:
        circle = table.obstacles[i].circle
        if circle is not None:
            offset = float((table.hub[i] - start) @ normal)
            high, low = offset + circle[2], offset - circle[2]
        else:
            high, low = highs[table.sided_rank[i]], lows[table.sided_rank[i]]
        left = max(left, high + grow)
        right = max(right, -low + grow)
    return min(left, right)


@settings(max_examples=examples(4))
@given(tables(), pieces(), st.sampled_from([0.0, 1.5]), st.data())
def test_a_blocked_line_margin_in_plain_floats(table: TableGeometry, placed: tuple[Piece, ...],
                                               grow: float, data: st.DataObject) -> None:
    """The margin in plain floats is numpy's, whatever obstacles block."""
    if not table.obstacles:
        return
    blockers = data.draw(st.lists(st.integers(0, len(table.obstacles) - 1), min_size=1,
                                  unique=True))
    for a in placed:
        for b in placed:
            got = sight._blocked_margin(table, a, b, blockers, grow)
            assert close(got, old_blocked_margin(table, a, b, blockers, grow))
            assert type(got) is float


@settings(max_examples=examples(6))
@given(tables(), st.lists(st.tuples(st.floats(-5.0, WIDTH + 5.0), st.floats(-5.0, LENGTH + 5.0)),
                          min_size=1, max_size=12))
def test_the_nearest_obstacle_is_the_least_of_all_distances(
        table: TableGeometry, points: list[tuple[float, float]]) -> None:
    """Measuring only the obstacles that may be nearest finds the same one (the first of
    equals, unless as near within the tolerance) at the same distance as measuring them all and
    taking numpy's argmin."""
    if not table.obstacles:
        return
    points += [tuple(corner) for corner in table.edges[:, 0, :].tolist()[:6]]  # on an edge: 0
    points += [tuple(hub) for hub in table.hub.tolist()]
    for point in points:
        distances = obstacle_distances(table, point)
        i = int(np.argmin(distances))
        found, distance = nearest_obstacle(table, point)
        assert close(distance, float(distances[i]))
        assert found == i or close(float(distances[found]), float(distances[i]))


@given(st.integers(0, 3000), st.integers(1, 64))
def test_growing_chunks_cover_the_order_once_in_order(count: int, first: int) -> None:
    """The legality search reads the candidates in runs that grow; together they are the order
    itself, so the first legal one found is the same as one at a time."""
    order = np.arange(count)[::-1].copy()
    chunks = list(spots.growing_chunks(order, first))
    assert np.concatenate([order[:0], *chunks]).tolist() == order.tolist()
    assert [len(chunk) for chunk in chunks[:-1]] == [first * 2**i for i in range(len(chunks) - 1)]


@settings(max_examples=examples(4))
@given(tables(), st.lists(st.tuples(coordinate, depth), min_size=1, max_size=8))
def test_the_closest_obstacle_remembered_is_the_one_worked_out(
        table: TableGeometry, points: list[tuple[float, float]]) -> None:
    """Asked again (from the memo) or asked of another point, the closest obstacle is the one
    worked out afresh for that very point."""
    if not table.obstacles:
        assert moves.closest_obstacle(table, points[0]) is None
        return
    for point in points * 2:
        assert moves.closest_obstacle(table, point) == moves._closest_obstacle(table, point)


def legal_candidates(table: TableGeometry, placed: tuple[Piece, ...], mover: Piece,
                     desired: tuple[float, float], extra: list[tuple[float, float]]
                     ) -> NDArray[np.float64]:
    """Points a search asks about (the feet and crossings of the keep-out curves round
    `desired`), points on the very edge of each keep-out set (at exactly the tolerance), and
    `extra` points."""
    circles, lines = spots._curves(table, placed, mover, None)
    p = np.asarray(desired)
    r, edge = mover.radius, mover.radius - spots.ON_BOUNDARY
    on_edges = [(edge, desired[1]), (WIDTH - r + spots.ON_BOUNDARY, desired[1]),
                (desired[0], edge), (desired[0], LENGTH - r + spots.ON_BOUNDARY)]
    on_edges += [(o.at[0] + o.radius + r - spots.ON_BOUNDARY, o.at[1]) for o in placed]
    on_edges += [(o.at[0], o.at[1] - (o.radius + r - spots.ON_BOUNDARY)) for o in placed]
    for hx, hy, reach, _ in table.hub_floats:
        on_edges += [(hx + reach + edge, hy), (hx, hy - reach)]
    return np.concatenate([spots._feet(p, circles, lines)[0], spots._crossings(circles, lines[:12]),
                           np.array(on_edges + extra, dtype=float).reshape(-1, 2)])


@settings(max_examples=examples(6))
@given(tables(), pieces(), st.integers(0, 8), st.tuples(coordinate, depth),
       st.one_of(st.none(), st.tuples(st.tuples(coordinate, depth), st.floats(0.0, 20.0))),
       st.lists(st.tuples(st.floats(-5.0, WIDTH + 5.0), st.floats(-5.0, LENGTH + 5.0)),
                max_size=20))
def test_one_candidates_legality_in_plain_floats(
        table: TableGeometry, placed: tuple[Piece, ...], which: int,
        desired: tuple[float, float], within: tuple[tuple[float, float], float] | None,
        extra: list[tuple[float, float]]) -> None:
    """`_legal_one` (plain floats, one point) answers as `_legal` (numpy, many points) on every
    point: generated ones, the feet and crossings a search asks about, and points lying
    exactly on the boundary of a keep-out set, within the tolerance."""
    mover = placed[which % len(placed)]
    candidates = legal_candidates(table, placed, mover, desired, extra)
    candidates = candidates[np.isfinite(candidates).all(axis=1)]
    if within is not None:  # a point exactly at the ruler's reach too
        (wx, wy), reach = within
        candidates = np.vstack([candidates, [[wx + reach + spots.ON_BOUNDARY, wy]]])
    vectorised = spots._legal(table, placed, mover, candidates, within).tolist()
    discs = [(o.at[0], o.at[1], o.radius) for o in placed if o.id != mover.id]
    plain = [spots._legal_one(table, discs, mover.radius, x, y, within)
             for x, y in candidates.tolist()]
    assert plain == vectorised


@settings(max_examples=examples(4))
@given(tables(), pieces(), st.integers(0, 8), st.tuples(coordinate, depth),
       st.one_of(st.none(), st.tuples(st.tuples(coordinate, depth), st.floats(0.0, 20.0))),
       st.sampled_from([0, 1, 3]))
def test_the_nearest_spot_checked_one_by_one_is_the_vectorised_one(
        table: TableGeometry, placed: tuple[Piece, ...], which: int,
        desired: tuple[float, float], within: tuple[tuple[float, float], float] | None,
        one_by_one: int) -> None:
    """The nearest free spot is the same whether the first candidates are checked one by one in
    plain floats (as shipped, or fewer of them) or all vectorised."""
    mover = placed[which % len(placed)]
    shipped = spots.CHECKED_ONE_BY_ONE
    found = []
    try:
        for count in (shipped, one_by_one, 0):
            spots.CHECKED_ONE_BY_ONE = count
            found.append(spots.nearest_free_spot(table, placed, mover, desired, within))
    finally:
        spots.CHECKED_ONE_BY_ONE = shipped
    assert found[0] == found[1] == found[2]


finite = st.floats(-100.0, 100.0)
curve_circles = st.lists(st.one_of(
    st.tuples(finite, finite, st.floats(0.0, 30.0)),
    st.sampled_from([(0.0, 0.0, 5.0), (10.0, 0.0, 5.0), (0.0, 0.0, 0.0), (-0.0, 3.0, 3.0),
                     (3.0, 4.0, 0.0), (0.0, 0.0, 2.0), (-0.0, -0.0, 2.0)])),
    max_size=6)  # tangent, touching, of no radius, at a negative zero
unit_lines = st.one_of(
    st.tuples(finite, finite, st.floats(-math.pi, math.pi)).map(
        lambda t: (t[0], t[1], math.cos(t[2]), math.sin(t[2]))),
    st.sampled_from([(5.0, 0.0, 0.0, 1.0), (-0.0, 0.0, 1.0, 0.0), (0.0, -0.0, 0.0, -1.0),
                     (5.0, 0.0, 0.0, -1.0), (0.0, 2.0, 1.0, 0.0), (-0.0, -0.0, -0.0, -1.0)]))
# the mat's, a tangent, one whose foot has a sum of two negative zeros


@settings(max_examples=examples(12))
@given(curve_circles, st.lists(unit_lines, max_size=8))
def test_crossings_in_plain_floats_are_numpys(circles: list[tuple[float, float, float]],
                                              lines: list[tuple[float, float, float, float]]
                                              ) -> None:
    """`_plain_crossings` gives `_crossings`'s points, in the same order: on generated circles
    and lines, tangent and touching ones, circles of no radius and parallel lines."""
    c = np.array(circles, dtype=float).reshape(-1, 3)
    ln = np.array(lines, dtype=float).reshape(-1, 4)
    vectorised = spots._crossings(c, ln)
    plain = np.array(spots._plain_crossings(c.tolist(), ln.tolist()), dtype=float).reshape(-1, 2)
    assert plain.shape == vectorised.shape
    assert np.allclose(plain, vectorised, rtol=0.0, atol=TOLERANCE)


@settings(max_examples=examples(6))
@given(curve_circles, st.lists(unit_lines, max_size=8), st.tuples(finite, finite),
       st.floats(0.0, 200.0))
def test_the_nearer_crossings_in_plain_floats(circles: list[tuple[float, float, float]],
                                              lines: list[tuple[float, float, float, float]],
                                              p: tuple[float, float], reach: float) -> None:
    """The crossings nearer than `reach` and their distances are the same, worked out in plain
    floats or vectorised."""
    c = np.array(circles, dtype=float).reshape(-1, 3)
    ln = np.array(lines, dtype=float).reshape(-1, 4)
    plain, plain_gaps = spots._plain_nearer_crossings(c, ln, p, reach)
    crossings = spots._crossings(c, ln)
    gaps = np.hypot(crossings[:, 0] - p[0], crossings[:, 1] - p[1])
    nearer = gaps < reach - 1e-12
    assert np.allclose(np.array(plain).reshape(-1, 2), crossings[nearer], rtol=0.0,
                       atol=TOLERANCE)
    assert np.allclose(plain_gaps, gaps[nearer], rtol=0.0, atol=TOLERANCE)


def original_nearest(table: TableGeometry, placed: Sequence[Piece], mover: Piece,
                     desired: tuple[float, float],
                     within: tuple[tuple[float, float], float] | None
                     ) -> tuple[float, float] | None:
    """`spots._nearest` as first written, all in numpy (every candidate checked by
    `legal_mask`, 32 at first, the crossings vectorised): the plain-float paths must find the
    same spot."""
    p = np.asarray(desired, dtype=float)
    circles, lines = spots._curves(table, placed, mover, within)
    away = p - circles[:, :2]
    length = np.hypot(away[:, 0], away[:, 1])
    safe = np.where(length > 0, length, 1.0)
    direction = np.where(length[:, None] > 0, away / safe[:, None], np.array([1.0, 0.0]))
    on_circles = circles[:, :2] + circles[:, 2:3] * direction
    base, unit = lines[:, :2], lines[:, 2:]
    on_lines = base + np.sum((p - base) * unit, axis=1)[:, None] * unit
    feet = np.concatenate([on_circles, on_lines])
    feet = feet[np.isfinite(feet).all(axis=1)]

    def first_legal(candidates: NDArray[np.float64]) -> tuple[NDArray[np.float64] | None, float]:
        gaps = np.hypot(candidates[:, 0] - p[0], candidates[:, 1] - p[1])
        order = np.argsort(gaps, kind="stable")
        for chunk in spots.growing_chunks(order, 32):
            legal = spots._legal(table, placed, mover, candidates[chunk], within)
            if legal.any():
                i = int(chunk[int(np.argmax(legal))])
                return candidates[i], float(gaps[i])
        return None, math.inf

    best, reach = first_legal(feet)
    near_circles = circles[np.abs(np.hypot(circles[:, 0] - p[0], circles[:, 1] - p[1])
                                  - circles[:, 2]) <= reach + 1e-9]
    side = np.abs((p[0] - base[:, 0]) * unit[:, 1] - (p[1] - base[:, 1]) * unit[:, 0])
    near_lines = lines[side <= reach + 1e-9]
    crossings = spots._crossings(near_circles, near_lines)
    crossings = crossings[np.hypot(crossings[:, 0] - p[0], crossings[:, 1] - p[1])
                          < reach - 1e-12]
    if len(crossings):
        crossing, _ = first_legal(crossings)
        if crossing is not None:
            best = crossing
    return None if best is None else (float(best[0]), float(best[1]))


@settings(max_examples=examples(6))
@given(tables(), pieces(), st.integers(0, 8),
       st.one_of(st.tuples(coordinate, depth),
                 st.tuples(st.floats(-5.0, WIDTH + 5.0), st.floats(-5.0, LENGTH + 5.0))),
       st.one_of(st.none(), st.tuples(st.tuples(coordinate, depth), st.floats(0.0, 20.0))),
       st.booleans(), st.sampled_from([spots.PLAIN_PAIRS, 3, -1]))
def test_the_nearest_spot_is_the_one_first_written(
        table: TableGeometry, placed: tuple[Piece, ...], which: int,
        desired: tuple[float, float], within: tuple[tuple[float, float], float] | None,
        on_a_piece: bool, plain_pairs: int) -> None:
    """The nearest spot found (plain floats for few candidates and few crossings, or the
    crossings vectorised) is the one the all-numpy search first written finds; a desired spot
    on another piece's centre too (where one foot has no direction)."""
    mover = placed[which % len(placed)]
    if on_a_piece:
        desired = placed[(which + 1) % len(placed)].at
    shipped = spots.PLAIN_PAIRS
    try:
        spots.PLAIN_PAIRS = plain_pairs
        found = spots._nearest(table, placed, mover, desired, within)
    finally:
        spots.PLAIN_PAIRS = shipped
    assert close_points(found, original_nearest(table, placed, mover, desired, within))


def original_obstacle_overlap(table: TableGeometry, mover: Piece, centre: tuple[float, float],
                              tolerance: float) -> str | None:
    """The obstacle part of `moves.overlap_with` as first written: `point_gaps` in numpy (it
    first skipped that where every obstacle's bounding circle was plainly clear, which changes
    no answer)."""
    _, obstacle, gaps = point_gaps(table, np.array([centre], dtype=float),
                                   mover.radius - tolerance)
    for i in np.flatnonzero(gaps < mover.radius - tolerance):
        return f"obstacle {table.obstacles[int(obstacle[i])].id}"
    return None


@settings(max_examples=examples(6))
@given(tables(), st.sampled_from([1.0, 1.25, 1.5, 2.5]),
       st.sampled_from([moves.EPSILON, 0.0, 0.01, spots.ON_BOUNDARY]),
       st.lists(st.tuples(st.floats(-5.0, WIDTH + 5.0), st.floats(-5.0, LENGTH + 5.0)),
                max_size=20), st.floats(0.0, 2 * math.pi))
def test_the_obstacle_overlapped_in_plain_floats(table: TableGeometry, radius: float,
                                                 tolerance: float,
                                                 points: list[tuple[float, float]],
                                                 turn: float) -> None:
    """`overlap_with` names the obstacle `point_gaps` names (the first of several), on
    generated points and on points at the very reach of each obstacle (a circle's rim grown
    by the piece less the tolerance, a polygon's corners grown so, and its hub)."""
    mover = Piece("m", "ai", "monster", (1.0, 1.0), radius, 3)
    edge = radius - tolerance
    for obstacle in table.obstacles:
        if obstacle.circle is not None:
            x, y, r = obstacle.circle
            points += [(x + r + edge, y), (x, y - (r + edge)),
                       (x + (r + edge) * math.cos(turn), y + (r + edge) * math.sin(turn))]
        else:
            points += [(cx + edge * math.cos(turn), cy + edge * math.sin(turn))
                       for cx, cy in obstacle.edges[:, 0, :].tolist()]
    points += [(x, y) for x, y, _, _ in table.hub_floats]
    for centre in points:
        found = moves.overlap_with(table, (), mover, centre, tolerance)
        if found != "the mat edge":
            assert found == original_obstacle_overlap(table, mover, centre, tolerance)
