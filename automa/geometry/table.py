"""The playmat as geometry: the mat rectangle and its obstacles as shapely polygons and arrays.

A circle obstacle is a true circle wherever a piece meets it (sight, sweeps, where a piece may
stand): its distance is measured from its centre. Its polygon (a 128-gon inscribed in it) serves
only drawing and the few slow queries that need a shape (zones, setup).
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from msgspec import Struct, field
from msgspec.structs import replace
from shapely.geometry import Point, Polygon

from automa.model.pieces import Piece
from automa.model.playmat import Playmat

if TYPE_CHECKING:  # for annotations only: numpy.typing costs a turn's start a millisecond
    from numpy.typing import NDArray

CIRCLE_SEGMENTS = 32  # quarter-circle segments: a 3 cm disc is off by under 0.01 mm
EPSILON = 1e-6  # cm: "touching" tolerance for exact tests
SLACK = 1e-7  # cm: a bound this close to a threshold is settled by the exact (shapely) test
PLACEMENT_TOLERANCE = 0.01  # cm: overlaps this small in a typed or saved position are touching


class ObstacleShape(Struct, frozen=True):
    """An obstacle as geometry: its polygon, edges and, for a circle, its centre and radius."""

    id: str
    polygon: Polygon
    edges: NDArray[np.float64]  # (n, 2, 2) segment end points, for swept-disc tests
    circle: tuple[float, float, float] | None = None  # x, y, radius of a circle obstacle


SightBound = tuple[float, float, float, float, float, float, float]
# a polygon edge as plain floats: its start corner (x, y), length, unit direction, left normal
EdgeRow = tuple[float, float, float, float, float, float, float]
HubFloats = tuple[float, float, float, float | None]  # x, y, reach; a circle's radius


class TableGeometry(Struct, frozen=True):
    """A playmat as geometry: its obstacles as shapely polygons and as arrays and floats."""

    playmat: Playmat
    obstacles: tuple[ObstacleShape, ...]
    edges: NDArray[np.float64]  # every polygon obstacle's edge, (m, 2, 2), obstacle by obstacle
    # each obstacle's bounding circle (centre, radius): a cheap numpy bound on the distance to
    # it, so the exact shapely test runs only where the bound cannot settle the answer; for a
    # circle obstacle the hub is its centre and `circle_radius` its radius (0 for a polygon)
    hub: NDArray[np.float64]  # (k, 2)
    hub_radius: NDArray[np.float64]  # (k,)
    obstacle_array: NDArray[np.object_]  # the polygons, for vectorised shapely calls
    is_circle: NDArray[np.bool_]  # (k,)
    circle_radius: NDArray[np.float64]  # (k,)
    # answers that depend only on this geometry and the positions asked about (sight between
    # two discs, a move), kept for the next turn from the same places; cleared when it grows
    # past MEMO_KEPT entries. Only a geometry made by `remembering` keeps them (a forecast's,
    # whose turns start from one place): None in the shared one, as a single turn's own
    # questions are never asked twice and the keys would be work for nothing
    memo: dict[Any, Any] | None = None
    # each obstacle as plain floats: its bounding circle (x, y, reach) and a circle's own
    # radius (None for a polygon), for the checks of one spot or one path that need not start
    # numpy (the same floats as the arrays above)
    hub_floats: tuple[HubFloats, ...] = ()
    # each obstacle's place among the polygons (-1 for a circle): its row of polygon_edge_rows
    sided_rank: tuple[int, ...] = ()
    # how far from its hub every point is surely inside a polygon obstacle (0: not at all, and
    # for circles): a line or band passing nearer the hub than this meets the interior
    hub_inner: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    # the bounding reach of a polygon and -inf for a circle, and inf for a polygon and 0 for a
    # circle: masks as numbers, so one arithmetic call both measures and selects
    sided_reach: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    sided_inf: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    # the circle obstacles (indices)
    circles: NDArray[np.intp] = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    # each polygon's edges as plain floats, an edge a row (its start corner, length, unit
    # direction and left normal), polygon by polygon: the sweep measures the few near its path
    polygon_edge_rows: tuple[tuple[EdgeRow, ...], ...] = ()
    # each obstacle's row of the arrays sight measures with, as plain floats (hub x, hub y,
    # hub_radius, circle_radius, hub_inner, sided_reach, sided_inf): sight's few-line path
    sight_bounds: tuple[SightBound, ...] = ()
    # each polygon obstacle's corners as plain floats (none for a circle): sight's quick test
    # that a line passes wholly to one side of it, before asking shapely
    sight_corners: tuple[tuple[tuple[float, float], ...], ...] = ()
    # whether each obstacle is a polygon of one simple ring (no holes), whose every edge has
    # the inside on one side and the outside on the other: sight's quick test that a line
    # crossing an edge enters it
    sight_simple: tuple[bool, ...] = ()

    def obstacle(self, obstacle_id: str) -> ObstacleShape:
        return next(o for o in self.obstacles if o.id == obstacle_id)


_BUILT: dict[int, tuple[Playmat, TableGeometry]] = {}  # id -> (the playmat, its geometry)
BUILT_KEPT = 8
MEMO_KEPT = 20_000  # entries; a move with 40 pieces keys ~3 kB, so at most ~60 MB


def build_table(playmat: Playmat) -> TableGeometry:
    """The geometry of a playmat. It never changes, so the last few are kept: loading a
    scenario builds it to check the pieces' places, and its turns (or many turns, in process)
    reuse it. The entry holds the playmat itself, so its id cannot be reused while kept."""
    kept = _BUILT.get(id(playmat))
    if kept is not None and kept[0] is playmat:
        return kept[1]
    geometry = _build_table(playmat)
    if len(_BUILT) >= BUILT_KEPT:
        del _BUILT[next(iter(_BUILT))]
    _BUILT[id(playmat)] = (playmat, geometry)
    return geometry


def remembering(geometry: TableGeometry) -> TableGeometry:
    """The same geometry with a memo of its own: for many turns from the same places (a
    forecast), which ask the same questions of sight and moves again and again."""
    return replace(geometry, memo={})


def _build_table(playmat: Playmat) -> TableGeometry:
    shapes = []
    for obstacle in playmat.obstacles:
        if obstacle.circle is not None:
            x, y, r = obstacle.circle
            polygon = Point(x, y).buffer(r, quad_segs=CIRCLE_SEGMENTS)
        else:
            polygon = shapely.make_valid(Polygon(obstacle.polygon))
            polygon = shapely.normalize(polygon)
        coords = np.asarray(polygon.exterior.coords, dtype=float)
        edges = np.stack([coords[:-1], coords[1:]], axis=1)
        shapes.append(ObstacleShape(obstacle.id, polygon, edges, obstacle.circle))
    shapely.prepare(np.array([s.polygon for s in shapes], dtype=object))
    sided = [(i, s) for i, s in enumerate(shapes) if s.circle is None]
    edges = np.concatenate([s.edges for _, s in sided]) if sided else np.zeros((0, 2, 2))
    hubs, reach, radii = [], [], []
    for shape in shapes:
        if shape.circle is not None:
            hub, radius = np.array(shape.circle[:2], dtype=float), shape.circle[2]
        else:
            corners = shape.edges[:, 0, :]
            hub = (corners.min(axis=0) + corners.max(axis=0)) / 2
            radius = float(np.hypot(*(corners - hub).T).max())
        hubs.append(hub)
        reach.append(radius * (1 + 1e-9) + SLACK)
        radii.append(radius if shape.circle is not None else 0.0)
    hub_array = np.array(hubs, dtype=float).reshape(-1, 2)
    reach_array = np.array(reach, dtype=float)
    is_circle = np.array([s.circle is not None for s in shapes], dtype=bool)
    radius_array = np.array(radii, dtype=float)
    inner = np.array([_inner_reach(shape, hub)
                      for shape, hub in zip(shapes, hub_array, strict=True)])
    sided_reach = np.where(is_circle, -np.inf, reach_array)
    sided_inf = np.where(is_circle, 0.0, np.inf)
    return TableGeometry(playmat, tuple(shapes), edges, hub_array, reach_array,
                         np.array([s.polygon for s in shapes], dtype=object), is_circle,
                         radius_array,
                         polygon_edge_rows=_edge_rows(edges, [len(s.edges) for _, s in sided]),
                         hub_floats=tuple(
                             (float(x), float(y), float(r),
                              None if s.circle is None else float(own))
                             for (x, y), r, own, s in zip(hub_array, reach, radii, shapes,
                                                          strict=True)),
                         sided_rank=_sided_rank(shapes),
                         sided_reach=sided_reach, sided_inf=sided_inf, hub_inner=inner,
                         circles=np.array([i for i, s in enumerate(shapes) if s.circle is not None],
                                          dtype=np.intp),
                         sight_bounds=_sight_bounds(hub_array[:, 0], hub_array[:, 1], reach_array,
                                                    radius_array, inner, sided_reach, sided_inf),
                         sight_simple=tuple(s.circle is None and isinstance(s.polygon, Polygon)
                                            and not s.polygon.interiors for s in shapes),
                         sight_corners=tuple(() if s.circle is not None else
                                             tuple(map(tuple, s.edges[:, 0, :].tolist()))
                                             for s in shapes))


def _edge_rows(edges: NDArray[np.float64], counts: list[int]
               ) -> tuple[tuple[EdgeRow, ...], ...]:
    """`TableGeometry.polygon_edge_rows`: each edge (m, 2, 2) as its start corner, length, unit
    direction and left normal, in plain floats, the polygons' runs of `counts` edges apart."""
    along = edges[:, 1, :] - edges[:, 0, :]
    length = np.hypot(along[:, 0], along[:, 1])
    unit = along / length[:, None]
    rows = [(x, y, size, ex, ey, -ey, ex) for (x, y), size, (ex, ey)
            in zip(edges[:, 0, :].tolist(), length.tolist(), unit.tolist(), strict=True)]
    runs = np.cumsum([0, *counts]).tolist()
    return tuple(tuple(rows[a:b]) for a, b in pairwise(runs))


def _sight_bounds(*columns: NDArray[np.float64]) -> tuple[SightBound, ...]:
    """`TableGeometry.sight_bounds`: the rows of sight's arrays (k,), as plain floats."""
    return tuple(zip(*(column.tolist() for column in columns), strict=True))


def _inner_reach(shape: ObstacleShape, hub: NDArray[np.float64]) -> float:
    """The radius round the hub of a polygon obstacle within which every point is inside it,
    made smaller by far more than any rounding (0 when the hub is outside, and for circles)."""
    centre = Point(float(hub[0]), float(hub[1]))
    if shape.circle is not None or not shape.polygon.contains(centre):
        return 0.0
    return max(float(shape.polygon.boundary.distance(centre)) * (1 - 1e-9) - SLACK, 0.0)


def _sided_rank(shapes: list[ObstacleShape]) -> tuple[int, ...]:
    ranks, count = [], 0
    for shape in shapes:
        ranks.append(-1 if shape.circle is not None else count)
        count += shape.circle is None
    return tuple(ranks)


def centre_distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def edge_distance(a: Piece, b: Piece) -> float:
    """Edge-to-edge distance between two discs (negative when they overlap)."""
    return centre_distance(a.at, b.at) - a.radius - b.radius


def obstacle_distances(table: TableGeometry, centre: tuple[float, float]) -> NDArray[np.float64]:
    """Distance from a point to each obstacle (0 inside)."""
    if not table.obstacles:
        return np.zeros(0)
    _, obstacle, gaps = point_gaps(table, np.array([centre], dtype=float), math.inf)
    distances = np.zeros(len(table.obstacles))
    distances[obstacle] = gaps
    return distances


def nearest_obstacle(table: TableGeometry, centre: tuple[float, float]) -> tuple[int, float]:
    """The obstacle nearest a point (its index, the first of equals) and its distance (0
    inside): the least of `obstacle_distances`, measured exactly only for the obstacles whose
    bounding circle could hold the nearest point (the others are surely farther), a polygon by
    shapely. The table has obstacles."""
    x, y = centre
    hubs = table.hub_floats
    centre_gaps = [abs(complex(x - hx, y - hy)) for hx, hy, _, _ in hubs]
    bound = min(gap + reach for gap, (_, _, reach, _) in zip(centre_gaps, hubs, strict=True))
    bound = bound * (1 + 1e-9) + SLACK
    near = [i for i, (gap, (_, _, reach, _)) in enumerate(zip(centre_gaps, hubs, strict=True))
            if gap - reach <= bound]
    gaps = {i: max(centre_gaps[i] - radius, 0.0) for i in near
            if (radius := hubs[i][3]) is not None}
    polygons = [i for i in near if i not in gaps]
    if polygons:
        measured = shapely.distance(shapely.points(float(x), float(y)),
                                    table.obstacle_array[polygons]).tolist()
        gaps.update(zip(polygons, measured, strict=True))
    best = min(near, key=gaps.__getitem__)  # the first of equals, as numpy's argmin
    return best, float(gaps[best])


def point_gaps(table: TableGeometry, points: NDArray[np.float64], reach: float
               ) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]]:
    """The distance (0 inside) from points (n, 2) to obstacles, for every (point, obstacle) pair
    that may be closer than `reach`: (point index, obstacle index, distance), in row order.
    Circles are measured from their centres; polygons by shapely, only where the bounding
    circle cannot settle it."""
    dx = points[:, 0, None] - table.hub[None, :, 0]
    dy = points[:, 1, None] - table.hub[None, :, 1]
    centre_gap = np.hypot(dx, dy)
    row, obstacle = np.nonzero(centre_gap - table.hub_radius < reach + SLACK)
    gaps = np.maximum(centre_gap[row, obstacle] - table.circle_radius[obstacle], 0.0)
    sided = ~table.is_circle[obstacle]
    if sided.any():
        gaps[sided] = shapely.distance(shapely.points(points[row[sided]]),
                                       table.obstacle_array[obstacle[sided]])
    return row, obstacle, gaps


def off_mat_by(table: TableGeometry, centre: tuple[float, float], radius: float) -> float:
    """How far a disc hangs over the mat edge (0 when wholly on the mat)."""
    x, y = centre
    mat = table.playmat
    return max(0.0, radius - x, x + radius - mat.width, radius - y, y + radius - mat.length)
