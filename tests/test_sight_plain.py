"""Sight's few-line path in plain floats (`plain_sight_lines`) against its numpy path
(`sight_lines`) on random tables: the same answers (which obstacles block each line) and each
clear line's clearance within the tolerance, for lines anywhere and for the lines where rounding
decides (zero-length, from a corner or a centre, along an edge, tangent to a circle, grazing a
bounding circle). Both make the same operations on the same floats (numpy's elementwise ones
round as Python's), so where one says blocked the other does too."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from automa.geometry import sight
from automa.geometry.sight import Line, plain_sight_lines, sight_lines, sight_rows
from automa.geometry.table import TableGeometry, build_table
from automa.model.playmat import Obstacle, Playmat
from tests.conftest import examples
from tests.test_geometry_fast import LENGTH, WIDTH, close, coordinate, depth, tables

# Each example here is microseconds of plain arithmetic held to numpy's or shapely's answer,
# so these properties run several times the profile's examples (`examples`).

Point = tuple[float, float]
Answer = tuple[list[list[bool]], list[float]]


def same_sight(got: Answer, want: Answer) -> bool:
    """The same obstacles block each line, and each clearance is the same within the tolerance
    (a plain float, as `tolist` gives)."""
    return (got[0] == want[0] and len(got[1]) == len(want[1])
            and all(type(a) is float and close(a, b) for a, b in zip(*(got[1], want[1]),
                                                                       strict=True)))


def special_points(table: TableGeometry) -> list[Point]:
    """Points where a line's answer turns on rounding: every polygon corner, every hub, and
    points on each circle and on each bounding circle, in the four directions."""
    points: list[Point] = [(x, y) for x, y in table.edges[:, 0, :].tolist()]
    for x, y, hub_radius, radius, *_ in table.sight_bounds:
        points.append((x, y))
        for r in (radius, hub_radius):
            if r > 0:
                points += [(x + r, y), (x - r, y), (x, y + r), (x, y - r)]
    return points


@st.composite
def lines_on(draw: st.DrawFn, table: TableGeometry) -> list[Line]:
    special = special_points(table)
    anywhere = st.tuples(st.floats(-5.0, WIDTH + 5.0), st.floats(-5.0, LENGTH + 5.0))
    point = st.one_of(anywhere, st.sampled_from(special)) if special else anywhere
    found: list[Line] = []
    for _ in range(draw(st.integers(1, 8))):
        a = draw(point)
        kind = draw(st.sampled_from(["any", "same", "tangent", "grazing"]))
        if kind == "grazing" and len(table.edges):
            found.append(draw(grazing(table)))
        elif kind == "same":
            found.append((a, a))
        elif kind == "tangent" and table.sight_bounds:
            # a line touching a circle (or a bounding circle) at the point straight across
            x, y, hub_radius, radius, *_ = draw(st.sampled_from(table.sight_bounds))
            r = draw(st.sampled_from([radius or hub_radius, hub_radius]))
            turn = draw(st.floats(0.0, 2 * math.pi))
            touch = (x + r * math.cos(turn), y + r * math.sin(turn))
            along = draw(st.floats(0.5, 40.0))
            sx, sy = -math.sin(turn), math.cos(turn)
            found.append(((touch[0] - along * sx, touch[1] - along * sy),
                          (touch[0] + along * sx, touch[1] + along * sy)))
        else:
            found.append((a, draw(point)))
    return found


@st.composite
def grazing(draw: st.DrawFn, table: TableGeometry) -> Line:
    """A line along a polygon's edge, a hair to one side of it or the other (or on it), from
    short of the edge to past it, or ending at or before its corner."""
    (ax, ay), (bx, by) = draw(st.sampled_from(table.edges.tolist()))
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    shift = draw(st.sampled_from([0.0, 0.25, sight.CORRIDOR_WIDTH / 2]))  # a band's edge
    shift += draw(st.sampled_from([0.0, 1e-12, 1e-9, 5e-8, 1e-7, 1.2e-7, 2e-7, 1e-6, 1e-3]))
    shift *= draw(st.sampled_from([1.0, -1.0]))
    start = draw(st.sampled_from([-5.0, -1e-7, 0.0, 1e-7, 0.5 * length]))
    end = draw(st.sampled_from([-1e-3, -1e-7, 0.0, 1e-7, 0.5 * length, length, length + 1e-7,
                                length + 5.0]))
    return ((ax + start * ux - shift * uy, ay + start * uy + shift * ux),
            (ax + end * ux - shift * uy, ay + end * uy + shift * ux))


def numpy_answer(table: TableGeometry, lines: list[Line], grow: float) -> Answer:
    blocked, clearance = sight_lines(table, np.array(lines, dtype=float).reshape(-1, 2, 2), grow)
    return blocked.tolist(), clearance.tolist()


# a line of no length asks shapely its distance to a polygon, which warns of a division by zero
@pytest.mark.filterwarnings("ignore:divide by zero encountered in distance:RuntimeWarning")
@settings(max_examples=examples(6))
@given(tables(), st.sampled_from([0.0, sight.CORRIDOR_WIDTH / 2, 0.25]), st.data())
def test_plain_sight_lines_are_numpys(table: TableGeometry, grow: float,
                                      data: st.DataObject) -> None:
    lines = data.draw(lines_on(table))
    assert same_sight(plain_sight_lines(table, lines, grow), numpy_answer(table, lines, grow))


def test_a_line_through_a_polygon_a_circle_and_along_an_edge() -> None:
    """A fixed table where every branch is taken: a line deep through a polygon's hub, one
    asked of shapely, one along an edge, one tangent to a circle, one clear, one of no length."""
    square = Obstacle("S", ((10.0, 10.0), (20.0, 10.0), (20.0, 20.0), (10.0, 20.0)))
    ring = Obstacle("C", circle=(40.0, 40.0, 3.0))
    table = build_table(Playmat("t", "T", WIDTH, LENGTH, 12.0, 75.0, (square, ring), {}, 1.5,
                                "test"))
    lines: list[Line] = [((5.0, 15.0), (25.0, 15.0)), ((5.0, 5.0), (25.0, 13.0)),
                         ((5.0, 10.0), (25.0, 10.0)), ((30.0, 43.0), (50.0, 43.0)),
                         ((50.0, 5.0), (55.0, 80.0)), ((15.0, 15.0), (15.0, 15.0)),
                         ((40.0, 40.0), (40.0, 40.0))]
    for grow in (0.0, 1.5):
        assert same_sight(plain_sight_lines(table, lines, grow),
                          numpy_answer(table, lines, grow))
    blocked, clearance = plain_sight_lines(table, lines)
    assert blocked[0] == [True, False] and blocked[1] == [True, False]
    assert blocked[2] == [False, False]  # along an edge: the interiors do not meet
    assert blocked[3] == [False, False] and clearance[3] == 0.0  # tangent: touching
    assert clearance[4] > 0
    # the lines of no length (5, 6) are only compared with numpy above: the arithmetic puts
    # every hub at distance 0 from them (their direction is 0, 0), whatever it is


@settings(max_examples=examples(2.4))
@given(tables(), st.lists(st.tuples(st.tuples(coordinate, depth), st.tuples(coordinate, depth)),
                          min_size=1, max_size=20))
@example(build_table(Playmat("t", "T", WIDTH, LENGTH, 12.0, 75.0, (), {}, 1.5, "test")),
         [((1.0, 1.0), (2.0, 2.0))])
def test_sight_rows_answers_as_numpy_on_either_side_of_the_cut(table: TableGeometry,
                                                               lines: list[Line]) -> None:
    """Whichever path `sight_rows` takes (few pairs or many), the answer is numpy's."""
    assert same_sight(sight_rows(table, lines), numpy_answer(table, lines, 0.0))


@settings(max_examples=examples(3.2))
@given(tables(), st.integers(0, 2**32 - 1))
def test_many_plain_lines_are_numpys(table: TableGeometry, seed: int) -> None:
    """Many lines a table, at points drawn by a seeded generator (hypothesis favours round
    numbers, where the arithmetic is exact)."""
    rng = np.random.default_rng(seed)
    ends = rng.uniform((-5.0, -5.0), (WIDTH + 5.0, LENGTH + 5.0), (40, 2, 2)).tolist()
    lines: list[Line] = [((ax, ay), (bx, by)) for (ax, ay), (bx, by) in ends]
    assert same_sight(plain_sight_lines(table, lines), numpy_answer(table, lines, 0.0))
    assert same_sight(plain_sight_lines(table, lines[:8], 1.5),
                      numpy_answer(table, lines[:8], 1.5))


def plain_settlements(table: TableGeometry, lines: list[Line], grow: float, j: int
                      ) -> list[bool | None]:
    """`_plainly_meets` of each line and polygon `j`, its frame made as `_ask_unsettled`
    makes it."""
    hx, hy, hub_radius, *_ = table.sight_bounds[j]
    found = []
    for (ax, ay), (bx, by) in lines:
        span = abs(complex(bx - ax, by - ay))
        safe = span if span != 0 else 1.0
        found.append(sight._plainly_meets(table.sight_corners[j],
                                          (ax, ay, (bx - ax) / safe, (by - ay) / safe, span),
                                          grow, abs(hx) + abs(hy) + hub_radius,
                                          table.sight_simple[j]))
    return found


@settings(max_examples=examples(6))
@given(tables(), st.sampled_from([0.0, sight.CORRIDOR_WIDTH / 2, 0.25]), st.data())
def test_the_array_settlement_is_the_plain_one(table: TableGeometry, grow: float,
                                               data: st.DataObject) -> None:
    """`_plainly_meet_all` (a threat map's many pairs at once) answers each (line, polygon)
    exactly as `_plainly_meets` does, on the lines where rounding decides."""
    lines = data.draw(lines_on(table))
    coords = np.array(lines, dtype=float).reshape(-1, 2, 2)
    for j, corners in enumerate(table.sight_corners):
        if not corners:
            continue
        line = np.arange(len(lines), dtype=np.intp)
        blocked = np.zeros((len(lines), len(table.obstacles)), dtype=bool)
        asked, _ = sight._ask_unsettled_at_once(table, coords, line,
                                                np.full(len(lines), j, dtype=np.intp), grow,
                                                blocked)
        got: list[bool | None] = [None if i in set(asked.tolist()) else bool(blocked[i, j])
                                  for i in range(len(lines))]
        assert got == plain_settlements(table, lines, grow, j)


@settings(max_examples=examples(2))
@given(tables(), st.integers(0, 2**32 - 1))
def test_sight_lines_answer_alike_in_arrays_or_pair_by_pair(table: TableGeometry,
                                                            seed: int) -> None:
    """Many lines (a threat map's) give the same blocked obstacles whether the unsettled
    pairs are settled over arrays or one by one."""
    rng = np.random.default_rng(seed)
    coords = rng.uniform((-5.0, -5.0), (WIDTH + 5.0, LENGTH + 5.0), (300, 2, 2))
    at_once, _ = sight_lines(table, coords, 0.0, clearance=False)
    many = sight.MANY_PAIRS
    try:
        sight.MANY_PAIRS = 10**9
        one_by_one, _ = sight_lines(table, coords, 0.0, clearance=False)
    finally:
        sight.MANY_PAIRS = many
    assert at_once.tolist() == one_by_one.tolist()
