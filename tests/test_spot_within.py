"""A spot's nearness to a polygon obstacle in plain floats (`spots._plainly_within`): where it
answers, it says what shapely's distance says, and `first_obstacle_within` finds the obstacle
the all-shapely code found, on random tables (star-shaped polygons, convex or not) at points
where the answer turns on rounding (corners, hubs, a hair either side of an edge or of the
reach round it)."""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from automa.geometry.spots import _plainly_within, first_obstacle_within
from automa.geometry.table import SLACK, TableGeometry, build_table
from automa.model.playmat import Obstacle, Playmat
from tests.conftest import examples
from tests.test_geometry_fast import LENGTH, WIDTH, tables

# Each example here is microseconds of plain arithmetic held to numpy's or shapely's answer,
# so these properties run several times the profile's examples (`examples`).

HAIRS = [0.0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-7, -1e-7, 1e-3, -1e-3]
INSIDES = [1.0 - 1e-6, 1.25 - 1e-9, 2.5 - 1e-6, 0.0, -1e-6]


def shapely_first_within(table: TableGeometry, x: float, y: float, inside: float) -> int | None:
    """`first_obstacle_within` as it was: every near polygon measured by shapely."""
    near_polygons: list[int] = []
    circle_met = None
    for i, (hx, hy, hub_reach, circle_radius) in enumerate(table.hub_floats):
        centre_gap = abs(complex(x - hx, y - hy))
        if centre_gap - hub_reach < inside + SLACK:
            if circle_radius is None:
                near_polygons.append(i)
            elif max(centre_gap - circle_radius, 0.0) < inside:
                circle_met = i
                break
    if near_polygons:
        gaps = shapely.distance(shapely.points(x, y), table.obstacle_array[near_polygons])
        for i, gap in zip(near_polygons, gaps.tolist(), strict=True):
            if gap < inside:
                return i
    return circle_met


def hard_points(table: TableGeometry, inside: float, rng: np.random.Generator
                ) -> list[tuple[float, float]]:
    """Corners, hubs, and points a hair off each edge and a hair off `inside` from it, on
    either side, at the edge's middle and at a random place along it."""
    points = [(x, y) for x, y in table.edges[:, 0, :].tolist()]
    points += [(x, y) for x, y, *_ in table.hub_floats]
    for (px, py), (qx, qy) in table.edges.tolist():
        length = math.hypot(qx - px, qy - py)
        nx, ny = -(qy - py) / length, (qx - px) / length
        for along in (0.5, float(rng.uniform(0.0, 1.0))):
            mx, my = px + along * (qx - px), py + along * (qy - py)
            for off in (0.0, inside, -inside):
                for hair in HAIRS:
                    points.append((mx + (off + hair) * nx, my + (off + hair) * ny))
    return points


@settings(max_examples=examples(3.2))
@given(tables(), st.sampled_from(INSIDES), st.integers(0, 2**32 - 1))
def test_plain_nearness_is_shapelys(table: TableGeometry, inside: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    points = hard_points(table, inside, rng)
    points += [(float(x), float(y)) for x, y in
               rng.uniform((-5.0, -5.0), (WIDTH + 5.0, LENGTH + 5.0), (40, 2))]
    for x, y in points:
        for i, simple in enumerate(table.sight_simple):
            if not simple:
                continue
            plain = _plainly_within(table.sight_corners[i], x, y, inside, table.hub_floats[i])
            if plain is not None:
                gap = float(shapely.distance(shapely.points(x, y), table.obstacle_array[i]))
                assert plain == (gap < inside), (x, y, i)
        assert first_obstacle_within(table, x, y, inside) == \
            shapely_first_within(table, x, y, inside), (x, y)


def test_a_concave_polygon_near_and_far() -> None:
    """A U-shaped obstacle: a point in its notch is near an arm or not by its distance, one in
    an arm is inside (distance 0), one a hair from the reach is left to shapely."""
    u_shape = Obstacle("U", ((10.0, 10.0), (30.0, 10.0), (30.0, 30.0), (25.0, 30.0),
                             (25.0, 15.0), (15.0, 15.0), (15.0, 30.0), (10.0, 30.0)))
    table = build_table(Playmat("t", "T", WIDTH, LENGTH, 12.0, 75.0, (u_shape,), {}, 1.5,
                                "test"))
    corners, hub = table.sight_corners[0], table.hub_floats[0]
    assert _plainly_within(corners, 20.0, 25.0, 1.5, hub) is False  # the notch's middle
    assert _plainly_within(corners, 16.0, 25.0, 1.5, hub) is True  # 1 cm from an arm
    assert _plainly_within(corners, 12.5, 25.0, 1.5, hub) is True  # inside an arm
    assert _plainly_within(corners, 12.5, 25.0, 0.0, hub) is False  # nothing is nearer than 0
    assert _plainly_within(corners, 16.5, 25.0, 1.5, hub) is None  # on the reach: shapely
    for x, y in ((20.0, 25.0), (16.0, 25.0), (12.5, 25.0), (16.5, 25.0), (40.0, 40.0)):
        assert first_obstacle_within(table, x, y, 1.5) == shapely_first_within(table, x, y, 1.5)
