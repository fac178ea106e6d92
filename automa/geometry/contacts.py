"""How far a disc moving in a straight line goes before it touches a disc or a polygon, in plain
floats: the sweep's measures (moves.sweep).

The sweep asks about a few discs and edges at a time, where numpy's fixed cost per call was most
of the work. tests/test_contacts.py holds these figures to the numpy code they replaced, within
a millionth of a centimetre (the two round differently in the last bits: numpy's product of rows
goes to the BLAS, which may fuse each multiply-add, or not).
"""

from __future__ import annotations

import math

from automa.geometry.table import EPSILON, EdgeRow

APPROACH = 1e-9  # cm per cm: a disc moving past another slower than this is not approaching it
FACING = 1e-12  # a disc moving along an edge more nearly than this never meets it


def disc_contact(start: tuple[float, float], u: tuple[float, float], radius: float,
                 centre: tuple[float, float], other_radius: float) -> float:
    """How far the disc of `radius` at `start`, moving along the unit `u`, goes before it first
    touches the fixed disc (`centre`, `other_radius`): inf when it never does (it is not moving
    toward it, or passes it by), 0 when already touching and moving closer."""
    (sx, sy), (ux, uy) = start, u
    dx, dy = sx - centre[0], sy - centre[1]
    along = dx * ux + dy * uy
    reach = radius + other_radius
    gap = (dx * dx + dy * dy) - reach * reach
    discriminant = along * along - gap
    if not (along < -APPROACH and discriminant >= 0):
        return math.inf
    if gap <= EPSILON:
        return 0.0
    t = -along - math.sqrt(discriminant if discriminant > 0.0 else 0.0)
    return t if t > 0.0 else 0.0


def edge_contact(start: tuple[float, float], u: tuple[float, float], radius: float,
                 edge: EdgeRow) -> float:
    """How far the moving disc goes before it first touches a polygon's edge: its corner (the
    edge's start, a disc of no size) or its side (inf: never)."""
    px, py, length, ex, ey, nx, ny = edge
    (sx, sy), (ux, uy) = start, u
    at_corner = disc_contact(start, u, radius, (px, py), 0.0)
    across = (sx - px) * nx + (sy - py) * ny
    closing = nx * ux + ny * uy
    side = 1.0 if across >= 0 else -1.0
    t = math.inf
    if side * closing < -FACING:
        t = (side * radius - across) / closing
        if t >= -EPSILON:
            t = t if t > 0.0 else 0.0
            proj = (sx + t * ux - px) * ex + (sy + t * uy - py) * ey
            if not (proj >= 0 and proj <= length):
                t = math.inf
        else:
            t = math.inf
    return t if t < at_corner else at_corner


def polygon_contact(start: tuple[float, float], u: tuple[float, float], radius: float,
                    edges: tuple[EdgeRow, ...]) -> float:
    """How far the moving disc goes before it first touches a polygon (its edges' least)."""
    least = math.inf
    for edge in edges:
        t = edge_contact(start, u, radius, edge)
        least = least if least < t else t
    return least
