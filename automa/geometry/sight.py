"""Line of sight between discs, in the three tests a table may agree on, each with its margin.

- centre-line: the segment between the two centres must not cross an obstacle's interior;
- corridor: a ruler-wide band along that segment must not touch an obstacle's interior;
- any-line: some straight line from a point of one disc to a point of the other is clear.
Other pieces never block. Range is unlimited (to the mat edge).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString

from automa.geometry.table import SLACK, TableGeometry, edge_distance
from automa.model.pieces import Piece

INTERIORS_MEET = "T********"  # DE-9IM: the line's interior meets the obstacle's interior
CORRIDOR_WIDTH = 3.0  # cm, the ruler's width (house: unmeasured)
ANY_LINE_SAMPLES = 9  # points across each disc for the any-line test


@dataclass(frozen=True)
class Sighting:
    viewer: str
    target: str
    visible: bool
    distance: float  # edge to edge, cm
    margin: float  # how far an obstacle edge would have to move to flip the answer
    blockers: tuple[str, ...] = ()
    via: str | None = None  # the piece measured, when it is a part of the target (Ulom's claw)


def _segment_blockers(table: TableGeometry, line: LineString, grow: float) -> list[int]:
    if not table.obstacles:
        return []
    shape = line if grow == 0 else line.buffer(grow, cap_style="flat")
    hits = shapely.relate_pattern(shape, table.obstacle_array, INTERIORS_MEET)
    return [int(i) for i in np.flatnonzero(hits)]


def _clear_margin(table: TableGeometry, line: LineString, grow: float) -> float:
    if not table.obstacles:
        return math.inf
    return float(np.min(shapely.distance(line, table.obstacle_array))) - grow


def _blocked_margin(table: TableGeometry, a: Piece, b: Piece, blockers: list[int],
                    grow: float) -> float:
    """The sideways shift of the sight line that would clear every blocking obstacle."""
    start, end = np.asarray(a.at), np.asarray(b.at)
    direction = end - start
    normal = np.array([-direction[1], direction[0]]) / max(np.hypot(*direction), 1e-12)
    left = right = 0.0
    for i in blockers:
        offsets = (table.obstacles[i].edges[:, 0, :] - start) @ normal
        left = max(left, float(offsets.max()) + grow)
        right = max(right, float(-offsets.min()) + grow)
    return min(left, right)


def _any_line_visible(table: TableGeometry, a: Piece, b: Piece) -> tuple[bool, float]:
    start, end = np.asarray(a.at), np.asarray(b.at)
    direction = end - start
    normal = np.array([-direction[1], direction[0]]) / max(np.hypot(*direction), 1e-12)
    spread = np.linspace(-1.0, 1.0, ANY_LINE_SAMPLES)
    from_points = start + np.outer(spread * a.radius, normal)
    to_points = end + np.outer(spread * b.radius, normal)
    pairs = np.stack(np.broadcast_arrays(from_points[:, None, :], to_points[None, :, :]), axis=2)
    lines = shapely.linestrings(pairs.reshape(-1, 2, 2))
    blocked = shapely.relate_pattern(lines[:, None], table.obstacle_array[None, :],
                                     INTERIORS_MEET).any(axis=1)
    if blocked.all():
        centre = LineString([a.at, b.at])
        return False, _blocked_margin(table, a, b, _segment_blockers(table, centre, 0.0), 0.0)
    clear = lines[~blocked]
    margin = float(np.max(np.min(shapely.distance(clear[:, None], table.obstacle_array[None, :]),
                                 axis=1)))
    return True, margin


def line_of_sight(table: TableGeometry, a: Piece, b: Piece, blocked_by_obstacles: bool,
                  test: str = "centre-line") -> Sighting:
    """Does `a` see `b`? With obstacles not blocking, always yes (margin infinite)."""
    distance = edge_distance(a, b)
    if not blocked_by_obstacles or not table.obstacles:
        return Sighting(a.id, b.id, True, distance, math.inf)
    if test == "any-line":
        visible, margin = _any_line_visible(table, a, b)
        return Sighting(a.id, b.id, visible, distance, margin)
    grow = CORRIDOR_WIDTH / 2 if test == "corridor" else 0.0
    line = LineString([a.at, b.at])
    blockers = _segment_blockers(table, line, grow)
    if blockers:
        margin = _blocked_margin(table, a, b, blockers, grow)
        ids = tuple(table.obstacles[i].id for i in blockers)
        return Sighting(a.id, b.id, False, distance, margin, ids)
    return Sighting(a.id, b.id, True, distance, _clear_margin(table, line, grow))


def look_around(table: TableGeometry, viewer: Piece, others: Iterable[Piece],
                blocked_by_obstacles: bool, test: str = "centre-line") -> list[Sighting]:
    """The 360-degree check: a sighting of every other piece, closest first.

    The centre-line test runs as one vectorised shapely call over every (line, obstacle) pair.
    """
    targets = [other for other in others if other.id != viewer.id]
    if blocked_by_obstacles and test == "centre-line" and table.obstacles and targets:
        sightings = _centre_lines_at_once(table, viewer, targets)
    else:
        sightings = [line_of_sight(table, viewer, other, blocked_by_obstacles, test)
                     for other in targets]
    return sorted(sightings, key=lambda s: (s.distance, s.target))


def _segment_hub_distances(table: TableGeometry, start: tuple[float, float],
                           ends: NDArray[np.float64]) -> NDArray[np.float64]:
    """(lines, obstacles): distance from each segment start-end to each obstacle's hub."""
    a = np.asarray(start, dtype=float)
    d = ends - a  # (n, 2)
    w = table.hub[None, :, :] - a  # (1, k, 2)
    length2 = np.maximum(np.einsum("ij,ij->i", d, d), 1e-300)[:, None]
    t = np.clip((w[..., 0] * d[:, None, 0] + w[..., 1] * d[:, None, 1]) / length2, 0.0, 1.0)
    gap: NDArray[np.float64] = np.hypot(w[..., 0] - t * d[:, None, 0],
                                        w[..., 1] - t * d[:, None, 1])
    return gap


def _centre_lines_at_once(table: TableGeometry, viewer: Piece,
                          targets: list[Piece]) -> list[Sighting]:
    """Exact shapely answers, asked only where the obstacles' bounding circles cannot settle
    them: a line that passes clear of a bounding circle cannot meet that obstacle, and the
    clearance of a line is the least distance among obstacles whose bound could be least."""
    ends = np.array([t.at for t in targets], dtype=float)
    lines = shapely.linestrings(np.stack([np.broadcast_to(np.asarray(viewer.at, dtype=float),
                                                          ends.shape), ends], axis=1))
    obstacles = table.obstacle_array
    hub_gap = _segment_hub_distances(table, viewer.at, ends)
    lower = hub_gap - table.hub_radius
    blocked = np.zeros(lower.shape, dtype=bool)
    line, obstacle = np.nonzero(lower < SLACK)
    if len(line):
        blocked[line, obstacle] = shapely.relate_pattern(lines[line], obstacles[obstacle],
                                                         INTERIORS_MEET)
    upper = (hub_gap + table.hub_radius).min(axis=1)
    clear = ~np.any(blocked, axis=1)
    line, obstacle = np.nonzero(clear[:, None] & (lower <= upper[:, None] + SLACK))
    clearance = np.full(len(targets), np.inf)
    if len(line):
        np.minimum.at(clearance, line, shapely.distance(lines[line], obstacles[obstacle]))
    sightings = []
    for i, target in enumerate(targets):
        blockers = [int(j) for j in np.flatnonzero(blocked[i])]
        distance = edge_distance(viewer, target)
        if blockers:
            margin = _blocked_margin(table, viewer, target, blockers, 0.0)
            ids = tuple(table.obstacles[j].id for j in blockers)
            sightings.append(Sighting(viewer.id, target.id, False, distance, margin, ids))
        else:
            sightings.append(Sighting(viewer.id, target.id, True, distance,
                                      float(clearance[i])))
    return sightings
