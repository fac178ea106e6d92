"""Sight's plain test of a line against a polygon (`_plainly_meets`): where it answers, it says
what shapely's `relate_pattern` says of the line's band and the polygon's interior, on random
tables (star-shaped polygons, convex or not) and on lines where the answer turns on rounding
(through corners, along edges a hair to either side, ending on an edge)."""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from automa.geometry import sight
from automa.geometry.sight import INTERIORS_MEET, Line, _plainly_meets, plain_sight_lines
from automa.geometry.table import TableGeometry, build_table
from automa.model.playmat import Obstacle, Playmat
from tests.conftest import examples
from tests.test_geometry_fast import LENGTH, WIDTH, tables
from tests.test_sight_plain import lines_on, numpy_answer, same_sight

# Each example here is microseconds of plain arithmetic held to numpy's or shapely's answer,
# so these properties run several times the profile's examples (`examples`).

GROWS = [0.0, 0.25, sight.CORRIDOR_WIDTH / 2]


def plain_answer(table: TableGeometry, line: Line, j: int, grow: float) -> bool | None:
    (ax, ay), (bx, by) = line
    dx, dy = bx - ax, by - ay
    span = abs(complex(dx, dy))
    safe = span if span != 0 else 1.0
    hx, hy, hub_radius, *_ = table.sight_bounds[j]
    return _plainly_meets(table.sight_corners[j], (ax, ay, dx / safe, dy / safe, span), grow,
                          abs(hx) + abs(hy) + hub_radius, table.sight_simple[j])


def shapely_answer(table: TableGeometry, line: Line, j: int, grow: float) -> bool:
    shape = shapely.linestrings(np.array(line, dtype=float))
    if grow:
        shape = shapely.buffer(shape, grow, cap_style="flat")
    return bool(shapely.relate_pattern(shape, table.obstacle_array[j], INTERIORS_MEET))


def through_corners(table: TableGeometry, rng: np.random.Generator) -> list[Line]:
    """Lines where a crossing sits on a corner or an edge's end: from corner to corner, from a
    corner outward, ending on an edge's middle or a hair short of it or past it."""
    found: list[Line] = []
    corners = table.edges[:, 0, :].tolist()
    for (px, py), (qx, qy) in table.edges.tolist():
        far = (float(rng.uniform(0.0, WIDTH)), float(rng.uniform(0.0, LENGTH)))
        found.append(((px, py), far))
        mx, my = (px + qx) / 2, (py + qy) / 2
        for hair in (0.0, 1e-12, 1e-9, -1e-9, 1e-7, -1e-7):
            end = (mx + hair * (mx - far[0]), my + hair * (my - far[1]))
            found.append((far, end))
        if corners:
            found.append(((px, py), tuple(corners[int(rng.integers(len(corners)))])))
    return found


@settings(max_examples=examples(4))
@given(tables(), st.sampled_from(GROWS), st.data())
def test_the_plain_answer_is_shapelys(table: TableGeometry, grow: float,
                                      data: st.DataObject) -> None:
    lines = data.draw(lines_on(table))
    lines += through_corners(table, np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))))
    for line in lines:
        for j, simple in enumerate(table.sight_simple):
            if not simple:
                continue
            plain = plain_answer(table, line, j, grow)
            if plain is not None:
                assert plain == shapely_answer(table, line, j, grow), (line, j)


@settings(max_examples=examples(2.4))
@given(tables(), st.integers(0, 2**32 - 1))
def test_seeded_lines_answer_as_shapely_and_numpy(table: TableGeometry, seed: int) -> None:
    """Lines at seeded random points (hypothesis's round numbers are exact either way), and the
    whole of `plain_sight_lines` still numpy's."""
    rng = np.random.default_rng(seed)
    ends = rng.uniform((-5.0, -5.0), (WIDTH + 5.0, LENGTH + 5.0), (30, 2, 2)).tolist()
    lines: list[Line] = [((ax, ay), (bx, by)) for (ax, ay), (bx, by) in ends]
    lines += through_corners(table, rng)
    for grow in GROWS:
        for line in lines:
            for j, simple in enumerate(table.sight_simple):
                plain = plain_answer(table, line, j, grow) if simple else None
                if plain is not None:
                    assert plain == shapely_answer(table, line, j, grow), (line, j, grow)
        assert same_sight(plain_sight_lines(table, lines, grow), numpy_answer(table, lines, grow))


def test_a_concave_polygon_is_settled_where_it_is_sure() -> None:
    """A U-shaped obstacle: a line through both arms crosses edges (True), one through the notch
    alone passes beside every corner's side only partly (shapely is asked), one ending on the
    outer edge touches it (asked, and shapely says no), one ending past it enters (True), one
    beside the whole shape is apart (False)."""
    u_shape = Obstacle("U", ((10.0, 10.0), (30.0, 10.0), (30.0, 30.0), (25.0, 30.0),
                             (25.0, 15.0), (15.0, 15.0), (15.0, 30.0), (10.0, 30.0)))
    table = build_table(Playmat("t", "T", WIDTH, LENGTH, 12.0, 75.0, (u_shape,), {}, 1.5,
                                "test"))
    assert table.sight_simple == (True,)
    through_arms: Line = ((5.0, 25.0), (35.0, 25.0))
    in_the_notch: Line = ((20.0, 20.0), (20.0, 40.0))
    onto_the_edge: Line = ((0.0, 20.0), (10.0, 20.0))
    past_the_edge: Line = ((0.0, 20.0), (11.0, 20.0))
    beside: Line = ((40.0, 0.0), (40.0, 50.0))
    assert plain_answer(table, through_arms, 0, 0.0) is True
    assert plain_answer(table, in_the_notch, 0, 0.0) is None
    assert shapely_answer(table, in_the_notch, 0, 0.0) is False
    assert plain_answer(table, onto_the_edge, 0, 0.0) is None
    assert shapely_answer(table, onto_the_edge, 0, 0.0) is False
    assert plain_answer(table, past_the_edge, 0, 0.0) is True
    assert plain_answer(table, beside, 0, 0.0) is False
    # the notch line's band, 3 cm wide, still meets neither arm (the notch is 10 cm wide)
    assert shapely_answer(table, in_the_notch, 0, sight.CORRIDOR_WIDTH / 2) is False
    lines = [through_arms, in_the_notch, onto_the_edge, past_the_edge, beside]
    for grow in GROWS:
        assert same_sight(plain_sight_lines(table, lines, grow), numpy_answer(table, lines, grow))
    assert math.isinf(plain_sight_lines(table, lines)[1][0])  # blocked: no clearance
