"""The playmat as geometry: the mat rectangle and its obstacles as shapely polygons and arrays."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point, Polygon

from automa.model.pieces import Piece
from automa.model.playmat import Playmat

CIRCLE_SEGMENTS = 32  # quarter-circle segments: a 3 cm disc is off by under 0.01 mm
EPSILON = 1e-6  # cm: "touching" tolerance for exact tests
SLACK = 1e-7  # cm: a bound this close to a threshold is settled by the exact (shapely) test
PLACEMENT_TOLERANCE = 0.01  # cm: overlaps this small in a typed or saved position are touching


@dataclass(frozen=True)
class ObstacleShape:
    id: str
    polygon: Polygon
    edges: NDArray[np.float64]  # (n, 2, 2) segment end points, for swept-disc tests


@dataclass(frozen=True)
class TableGeometry:
    playmat: Playmat
    obstacles: tuple[ObstacleShape, ...]
    edges: NDArray[np.float64]  # every obstacle edge, (m, 2, 2), for one vectorised sweep
    edge_owner: NDArray[np.intp]  # index of the obstacle each edge belongs to
    # each obstacle's bounding circle (centre, radius): a cheap numpy bound on the distance to
    # it, so the exact shapely test runs only where the bound cannot settle the answer
    hub: NDArray[np.float64]  # (k, 2)
    hub_radius: NDArray[np.float64]  # (k,)
    obstacle_array: NDArray[np.object_]  # the polygons, for vectorised shapely calls

    def obstacle(self, obstacle_id: str) -> ObstacleShape:
        return next(o for o in self.obstacles if o.id == obstacle_id)


def build_table(playmat: Playmat) -> TableGeometry:
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
        shapes.append(ObstacleShape(obstacle.id, polygon, edges))
    shapely.prepare(np.array([s.polygon for s in shapes], dtype=object))
    edges = np.concatenate([s.edges for s in shapes]) if shapes else np.zeros((0, 2, 2))
    owner = np.concatenate([np.full(len(s.edges), i) for i, s in enumerate(shapes)]) if shapes \
        else np.zeros(0, dtype=np.intp)
    hubs, reach = [], []
    for shape in shapes:
        corners = shape.edges[:, 0, :]
        hub = (corners.min(axis=0) + corners.max(axis=0)) / 2
        hubs.append(hub)
        reach.append(float(np.hypot(*(corners - hub).T).max()) * (1 + 1e-9) + SLACK)
    return TableGeometry(playmat, tuple(shapes), edges, owner.astype(np.intp),
                         np.array(hubs, dtype=float).reshape(-1, 2), np.array(reach, dtype=float),
                         np.array([s.polygon for s in shapes], dtype=object))


def centre_distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def edge_distance(a: Piece, b: Piece) -> float:
    """Edge-to-edge distance between two discs (negative when they overlap)."""
    return centre_distance(a.at, b.at) - a.radius - b.radius


def obstacle_distances(table: TableGeometry, centre: tuple[float, float]) -> NDArray[np.float64]:
    """Distance from a point to each obstacle (0 inside)."""
    if not table.obstacles:
        return np.zeros(0)
    return np.asarray(shapely.distance(Point(centre), table.obstacle_array), dtype=float)


def obstacles_within(table: TableGeometry, centre: tuple[float, float], reach: float
                     ) -> NDArray[np.intp]:
    """Indices, in order, of the obstacles that may lie closer than `reach` to a point (a
    superset: the bounding circles decide, with slack)."""
    lower = np.hypot(table.hub[:, 0] - centre[0], table.hub[:, 1] - centre[1]) - table.hub_radius
    return np.flatnonzero(lower < reach + SLACK)


def off_mat_by(table: TableGeometry, centre: tuple[float, float], radius: float) -> float:
    """How far a disc hangs over the mat edge (0 when wholly on the mat)."""
    x, y = centre
    mat = table.playmat
    return max(0.0, radius - x, x + radius - mat.width, radius - y, y + radius - mat.length)
