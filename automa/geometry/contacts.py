"""How far a disc moving in a straight line goes before it touches a disc or a polygon, in plain
floats: the sweep's measures (moves.sweep), the very figures numpy's arithmetic gave them.

Each figure is the same operations on the same floats as the numpy version (kept beside the
tests, tests/test_geometry_fast.py, which holds the two to the bit), where numpy's fixed cost
per call on a few rows was most of the work. Two things numpy did its own way are kept:

- A matrix product of rows with the direction (`rows @ u`) goes to OpenBLAS, whose kernels fuse
  each multiply-add: for two rows or more, each row's figure is fma(x, ux, y * uy); for a single
  row, fma(y, uy, x * ux) (so a product's rounding depends on how many rows it had: `single`).
  Python 3.11 has no math.fma: `fused` splits the product exactly in two (Dekker) and sums the
  parts with one rounding (math.fsum, correctly rounded).
- numpy's `minimum` and `maximum` give the second operand when the two are equal, which keeps
  the sign of a zero; Python's `min` and `max` give the first.
"""

from __future__ import annotations

import math

from automa.geometry.table import EPSILON, EdgeRow

SPLIT = 134217729.0  # 2**27 + 1: a double times this splits into halves whose products are exact
APPROACH = 1e-9  # cm per cm: a disc moving past another slower than this is not approaching it
FACING = 1e-12  # a disc moving along an edge more nearly than this never meets it


def fused(a: float, b: float, c: float) -> float:
    """a * b + c with one rounding (a fused multiply-add), for finite operands of a mat's size:
    the product as the sum of its rounding and the rounding's exact error, summed with c."""
    product = a * b
    t = SPLIT * a
    a_high = t - (t - a)
    a_low = a - a_high
    t = SPLIT * b
    b_high = t - (t - b)
    b_low = b - b_high
    error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
    return math.fsum((product, error, c))


def disc_contact(start: tuple[float, float], u: tuple[float, float], radius: float,
                 centre: tuple[float, float], other_radius: float, single: bool) -> float:
    """How far the disc of `radius` at `start`, moving along the unit `u`, goes before it first
    touches the fixed disc (`centre`, `other_radius`): inf when it never does (it is not moving
    toward it, or passes it by), 0 when already touching and moving closer. `single`: the figure
    as numpy's product of one row gave it, rather than of several."""
    (sx, sy), (ux, uy) = start, u
    dx, dy = sx - centre[0], sy - centre[1]
    along = fused(dy, uy, dx * ux) if single else fused(dx, ux, dy * uy)
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
    at_corner = disc_contact(start, u, radius, (px, py), 0.0, single=False)
    across = (sx - px) * nx + (sy - py) * ny
    closing = fused(nx, ux, ny * uy)
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
    """How far the moving disc goes before it first touches a polygon (its edges' least, in
    their order, as numpy's `minimum.reduceat`: a tie keeps the later)."""
    least = math.inf
    for edge in edges:
        t = edge_contact(start, u, radius, edge)
        least = least if least < t else t
    return least
