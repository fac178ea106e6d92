"""The legal spot nearest a point, found exactly instead of on a polygon of the free region.

A centre is illegal inside an open "keep-out" set: a disc of radius r + r_i round every other
piece, r + R round a circle obstacle, the points nearer than r to a polygon obstacle, and the
band within r of the mat edge. The legal region is what is left (a closed set). Its point nearest
a given point p is either the foot of p on one boundary curve (the near point of a circle, the
perpendicular foot on a line) or a corner where two boundary curves cross. So the candidates are
those feet and crossings (the curves: every keep-out circle, a circle of radius r round every
polygon corner, the two lines at distance r along every polygon edge, the four mat lines, and the
circle a ruler can reach); the answer is the nearest candidate that is legal. Crossings are only
needed between curves passing closer to p than the best legal foot, which keeps them few.

Numpy's fixed cost per call dominates such small searches, so the nearest few candidates are
checked one by one and the crossings of a few curves worked out in plain floats, in the same
order as the vectorised code (tests/test_geometry_fast.py holds both paths to the same spots,
within a millionth of a centimetre).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np
import shapely

from automa.geometry.legal import legal_mask
from automa.geometry.table import SLACK, TableGeometry
from automa.model.pieces import Piece

if TYPE_CHECKING:  # for annotations only: numpy.typing costs a turn's start a millisecond
    from numpy.typing import NDArray

Vec = tuple[float, float]
CHECKED_ONE_BY_ONE = 16  # nearest candidates checked for legality one at a time in plain floats
# (the nearest legal one is most often among the first few: numpy's fixed cost would dominate)
CROWDED = 40  # pieces and obstacles together from which none is (each check loops over them all
# and a crowded spot fails many in a row: the vectorised calls cost less)
CHECKED_AT_ONCE = 32  # candidates checked in the first vectorised call after those; each later
# call checks twice as many (a crowded spot fails many in a row)
PLAIN_PAIRS = 100  # pairs of curves up to which their crossings are worked out in plain floats
ON_BOUNDARY = 1e-9  # cm: a candidate this far into a keep-out set lies on its boundary
CLEAR = 1e-9  # cm: every curve is drawn this much outside its keep-out set, so the spot found
# touches with a gap of a hundred-millionth of a millimetre, never an overlap of a rounding error


def _curves(table: TableGeometry, pieces: Sequence[Piece], mover: Piece,
            within: tuple[Vec, float] | None
            ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Every boundary curve: circles (c, 3) as x, y, radius; lines (l, 4) as a point and a unit
    direction."""
    r = mover.radius + CLEAR
    others = [p for p in pieces if p.id != mover.id]
    circles = [np.array([[p.at[0], p.at[1], p.radius + r] for p in others]).reshape(-1, 3)]
    fixed, lines = _table_curves(table, r)
    circles.append(fixed)
    if within is not None:
        circles.append(np.array([[within[0][0], within[0][1], within[1] - CLEAR]]))
    return np.concatenate(circles), lines


def _table_curves(table: TableGeometry, r: float
                  ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The curves that depend only on the table and the mover's reach `r`: circles round the
    circle obstacles and the polygons' corners, the mat's four lines and the lines along the
    polygons' edges. Kept in a remembering table's memo (they live and go with the table): a
    forecast moves the same few sizes of piece on one mat again and again."""
    key = ("curves", r)
    memo = table.memo
    kept: tuple[NDArray[np.float64], NDArray[np.float64]] | None = \
        None if memo is None else memo.get(key)
    if kept is not None:
        return kept
    round_ones = np.flatnonzero(table.is_circle)
    corners = table.edges[:, 0, :]
    circles = np.concatenate([
        np.column_stack([table.hub[round_ones], table.circle_radius[round_ones] + r]),
        np.column_stack([corners, np.full(len(corners), r)])])
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
    every_line = np.concatenate(lines)
    circles.flags.writeable = every_line.flags.writeable = False  # shared from call to call
    if memo is not None:
        memo[key] = circles, every_line
    return circles, every_line


def _feet(p: NDArray[np.float64], circles: NDArray[np.float64], lines: NDArray[np.float64]
          ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """The foot of p on every curve (circles first, then lines), and on the way each circle's
    centre's distance from p (n,) and p less each line's base point (l, 2)."""
    away = p - circles[:, :2]
    length = np.hypot(away[:, 0], away[:, 1])
    if (length > 0).all():  # the usual case: `direction` below without its placeholders
        direction = away / length[:, None]
    else:
        safe = np.where(length > 0, length, 1.0)
        direction = np.where(length[:, None] > 0, away / safe[:, None], np.array([1.0, 0.0]))
    on_circles = circles[:, :2] + circles[:, 2:3] * direction
    base, unit = lines[:, :2], lines[:, 2:]
    from_base = p - base
    on_lines = base + np.sum(from_base * unit, axis=1)[:, None] * unit
    feet: NDArray[np.float64] = np.concatenate([on_circles, on_lines])
    return feet, length, from_base


@functools.lru_cache(maxsize=256)
def _pairs(count: int) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Every pair of `count` things, each once (`numpy.triu_indices`), kept by count."""
    i, j = np.triu_indices(count, 1)
    i.flags.writeable = j.flags.writeable = False  # shared from call to call
    return i, j


def _crossings(circles: NDArray[np.float64], lines: NDArray[np.float64]) -> NDArray[np.float64]:
    """Every point where two of the curves cross (circle-circle, circle-line, line-line)."""
    out = [np.zeros((0, 2))]
    if len(circles) > 1:
        i, j = _pairs(len(circles))
        a, b = circles[i], circles[j]
        d = b[:, :2] - a[:, :2]
        dist = np.hypot(d[:, 0], d[:, 1])
        ok = (dist > 0) & (dist <= a[:, 2] + b[:, 2]) & (dist >= np.abs(a[:, 2] - b[:, 2]))
        a, b, d, dist = a[ok], b[ok], d[ok], dist[ok]
        along = (a[:, 2] ** 2 - b[:, 2] ** 2 + dist**2) / (2 * dist)
        h = np.sqrt(np.maximum(a[:, 2] ** 2 - along**2, 0.0))
        unit = d / dist[:, None]
        mid = a[:, :2] + along[:, None] * unit
        side = np.column_stack([-unit[:, 1], unit[:, 0]]) * h[:, None]
        out += [mid + side, mid - side]
    if len(circles) and len(lines):
        c, ln = np.repeat(circles, len(lines), axis=0), np.tile(lines, (len(circles), 1))
        base, unit = ln[:, :2], ln[:, 2:]
        t = np.sum((c[:, :2] - base) * unit, axis=1)
        foot = base + t[:, None] * unit
        off = np.hypot(*(c[:, :2] - foot).T)
        ok = off <= c[:, 2]
        h = np.sqrt(np.maximum(c[ok, 2] ** 2 - off[ok] ** 2, 0.0))[:, None]
        out += [foot[ok] + h * unit[ok], foot[ok] - h * unit[ok]]
    if len(lines) > 1:
        i, j = _pairs(len(lines))
        a, b = lines[i], lines[j]
        cross = a[:, 2] * b[:, 3] - a[:, 3] * b[:, 2]
        ok = np.abs(cross) > 1e-12
        a, b, cross = a[ok], b[ok], cross[ok]
        w = b[:, :2] - a[:, :2]
        t = (w[:, 0] * b[:, 3] - w[:, 1] * b[:, 2]) / cross
        out.append(a[:, :2] + t[:, None] * a[:, 2:])
    crossings: NDArray[np.float64] = np.concatenate(out)
    return crossings


def _plain_crossings(circles: list[list[float]], lines: list[list[float]]) -> list[Vec]:
    """`_crossings` in plain floats, for a few curves: the same points in the same order (the
    first of equally near candidates is the first found, whichever path found it)."""
    plus: list[Vec] = []
    minus: list[Vec] = []
    for k, (ax, ay, ar) in enumerate(circles):
        for bx, by, br in circles[k + 1:]:
            dx, dy = bx - ax, by - ay
            dist = abs(complex(dx, dy))
            if not (dist > 0 and dist <= ar + br and dist >= abs(ar - br)):
                continue
            along = (ar * ar - br * br + dist * dist) / (2 * dist)
            h = math.sqrt(max(ar * ar - along * along, 0.0))
            ux, uy = dx / dist, dy / dist
            mx, my = ax + along * ux, ay + along * uy
            sx, sy = -uy * h, ux * h
            plus.append((mx + sx, my + sy))
            minus.append((mx - sx, my - sy))
    out = plus + minus
    plus, minus = [], []
    for cx, cy, cr in circles:
        for bx, by, ux, uy in lines:
            t = (cx - bx) * ux + (cy - by) * uy
            fx, fy = bx + t * ux, by + t * uy
            off = abs(complex(cx - fx, cy - fy))
            if not off <= cr:
                continue
            h = math.sqrt(max(cr * cr - off * off, 0.0))
            plus.append((fx + h * ux, fy + h * uy))
            minus.append((fx - h * ux, fy - h * uy))
    out += plus + minus
    for k, (ax, ay, aux, auy) in enumerate(lines):
        for bx, by, bux, buy in lines[k + 1:]:
            cross = aux * buy - auy * bux
            if not abs(cross) > 1e-12:
                continue
            wx, wy = bx - ax, by - ay
            t = (wx * buy - wy * bux) / cross
            out.append((ax + t * aux, ay + t * auy))
    return out


def growing_chunks(order: NDArray[np.intp], first: int) -> Iterator[NDArray[np.intp]]:
    """`order` in consecutive runs of `first`, then twice as many each time: a search for the
    first legal candidate in order finds the same one, in fewer calls when many fail."""
    start, size = 0, first
    while start < len(order):
        yield order[start:start + size]
        start, size = start + size, size * 2


def _legal(table: TableGeometry, pieces: Sequence[Piece], mover: Piece,
           spots: NDArray[np.float64], within: tuple[Vec, float] | None) -> NDArray[np.bool_]:
    ok = legal_mask(table, pieces, mover, spots, ON_BOUNDARY)
    if within is not None:
        (x, y), reach = within
        ok &= np.hypot(spots[:, 0] - x, spots[:, 1] - y) <= reach + ON_BOUNDARY
    return ok


Disc = tuple[float, float, float]  # x, y, radius


def _legal_one(table: TableGeometry, discs: Sequence[Disc], r: float, x: float, y: float,
               within: tuple[Vec, float] | None) -> bool:
    """`_legal` of one candidate (x, y) for a mover of radius `r` among `discs` (the other
    pieces), in plain floats: the same comparisons (a polygon by the same shapely call), so the
    same answer but where a rounding decides (tests/test_geometry_fast.py compares the two)."""
    mat, tolerance = table.playmat, ON_BOUNDARY
    if not (r - tolerance <= x <= mat.width - r + tolerance
            and r - tolerance <= y <= mat.length - r + tolerance):
        return False
    if within is not None:
        (wx, wy), reach = within
        if not abs(complex(x - wx, y - wy)) <= reach + ON_BOUNDARY:
            return False
    for ax, ay, radius in discs:
        if not abs(complex(x - ax, y - ay)) >= radius + r - tolerance:
            return False
    return not table.obstacles or first_obstacle_within(table, x, y, r - tolerance) is None


def first_obstacle_within(table: TableGeometry, x: float, y: float, inside: float) -> int | None:
    """The first obstacle (in the table's order) nearer the point (x, y) than `inside`, or
    None: `point_gaps` of one point in plain floats (a polygon by the same shapely call)."""
    near_polygons: list[int] = []
    circle_met = None
    for i, (hx, hy, hub_reach, circle_radius) in enumerate(table.hub_floats):
        centre_gap = abs(complex(x - hx, y - hy))
        if centre_gap - hub_reach < inside + SLACK:
            if circle_radius is None:
                near_polygons.append(i)
            elif max(centre_gap - circle_radius, 0.0) < inside:
                circle_met = i  # none later can come first
                break
    if near_polygons:
        within: dict[int, bool | None] = {
            i: _plainly_within(table.sight_corners[i], x, y, inside, table.hub_floats[i])
            if table.sight_simple[i] else None for i in near_polygons}
        asked = [i for i, met in within.items() if met is None]
        if asked:
            gaps = shapely.distance(shapely.points(x, y), table.obstacle_array[asked])
            within.update((i, gap < inside) for i, gap in zip(asked, gaps.tolist(), strict=True))
        for i in near_polygons:
            if within[i]:
                return i
    return circle_met


def _plainly_within(corners: tuple[Vec, ...], x: float, y: float, inside: float,
                    hub: tuple[float, float, float, float | None]) -> bool | None:
    """Is the point (x, y) nearer than `inside` to a simple polygon (one ring, no holes: its
    `corners`, round `hub`), where plain floats settle it by far more than SLACK and any
    rounding; None: ask shapely. The point's distance to the ring is the least over its edges;
    a point far from the ring is inside it when a ray to its right crosses the ring an odd
    number of times (the ray's crossing with an edge is off by a rounding, the point far more
    than that from the edge); inside, its distance to the polygon is 0. Nothing is nearer
    than 0 or less (so the ring is at least `margin` off when its parity is read)."""
    if inside <= 0.0:
        return False
    hx, hy, reach, _ = hub
    margin = SLACK + 1e-9 * (abs(x) + abs(y) + abs(hx) + abs(hy) + reach + abs(inside))
    nearest = math.inf  # the least squared distance to an edge
    odd = False
    last_x, last_y = corners[-1]  # the ring's last corner: the previous one of its first
    for next_x, next_y in corners:
        ex, ey = next_x - last_x, next_y - last_y
        px, py = x - last_x, y - last_y
        square = ex * ex + ey * ey
        t = (px * ex + py * ey) / square if square > 0.0 else 0.0
        t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
        dx, dy = px - t * ex, py - t * ey
        gap = dx * dx + dy * dy
        nearest = gap if gap < nearest else nearest
        if (last_y > y) != (next_y > y) and x < last_x + (y - last_y) / ey * ex:
            odd = not odd
        last_x, last_y = next_x, next_y
    distance = math.sqrt(nearest)
    if distance < inside - margin:
        return True
    if distance > inside + margin:
        return odd
    return None


def _first_legal(table: TableGeometry, pieces: Sequence[Piece], mover: Piece,
                 spots: NDArray[np.float64], p: NDArray[np.float64],
                 within: tuple[Vec, float] | None, one_by_one: int | None = None
                 ) -> tuple[Vec | None, float]:
    """The legal spot nearest p (the first of equals) and its distance; legality is checked
    nearest first: the first few candidates (`one_by_one`; by default as many as
    `_checked_one_by_one` says) one by one in plain floats (most searches end there), then a
    growing number at a time, vectorised, so far candidates are rarely checked at all."""
    gaps = np.hypot(spots[:, 0] - p[0], spots[:, 1] - p[1])
    order = np.argsort(gaps, kind="stable")
    if one_by_one is None:
        one_by_one = _checked_one_by_one(table, pieces)
    discs = _other_discs(pieces, mover) if one_by_one else []
    for i in order[:one_by_one].tolist():
        x, y = spots[i].tolist()
        if _legal_one(table, discs, mover.radius, x, y, within):
            return (x, y), float(gaps[i])
    for chunk in growing_chunks(order[one_by_one:], CHECKED_AT_ONCE):
        legal = _legal(table, pieces, mover, spots[chunk], within)
        if legal.any():
            i = int(chunk[int(np.argmax(legal))])
            return (float(spots[i, 0]), float(spots[i, 1])), float(gaps[i])
    return None, math.inf


def _first_legal_of_few(table: TableGeometry, pieces: Sequence[Piece], mover: Piece,
                        spots: list[Vec], gaps: list[float], p: NDArray[np.float64],
                        within: tuple[Vec, float] | None) -> tuple[Vec | None, float]:
    """`_first_legal` of spots given as plain floats with their distances from p: sorted
    (stably, as numpy's stable argsort) and the first few checked in plain floats; the rest,
    if need be, by `_first_legal` (in their order: its stable sort keeps it)."""
    order = sorted(range(len(gaps)), key=gaps.__getitem__)
    discs = _other_discs(pieces, mover)
    one_by_one = _checked_one_by_one(table, pieces)
    for i in order[:one_by_one]:
        if _legal_one(table, discs, mover.radius, *spots[i], within):
            return spots[i], gaps[i]
    if len(order) <= one_by_one:
        return None, math.inf
    rest = np.array([spots[i] for i in order[one_by_one:]], dtype=float)
    return _first_legal(table, pieces, mover, rest, p, within, one_by_one=0)


def _checked_one_by_one(table: TableGeometry, pieces: Sequence[Piece]) -> int:
    """How many of the nearest candidates to check one by one in plain floats: none on a
    crowded mat."""
    return CHECKED_ONE_BY_ONE if len(pieces) + len(table.obstacles) < CROWDED else 0


def _other_discs(pieces: Sequence[Piece], mover: Piece) -> list[Disc]:
    return [(o.at[0], o.at[1], o.radius) for o in pieces if o.id != mover.id]


def _few_pairs(circles: int, lines: int) -> bool:
    """Are the pairs of so many curves few enough to cross in plain floats (numpy's fixed
    cost per call would dominate)?"""
    return circles * (circles - 1) // 2 + circles * lines + lines * (lines - 1) // 2 \
        <= PLAIN_PAIRS


def _plain_nearer_crossings(circles: NDArray[np.float64], lines: NDArray[np.float64], p: Vec,
                            reach: float) -> tuple[list[Vec], list[float]]:
    """The crossings of the curves nearer p than `reach`, in `_crossings` order, and their
    distances from p, in plain floats."""
    x, y = p
    near, gaps = [], []
    for cx, cy in _plain_crossings(circles.tolist(), lines.tolist()):
        gap = abs(complex(cx - x, cy - y))
        if gap < reach - 1e-12:
            near.append((cx, cy))
            gaps.append(gap)
    return near, gaps


def _nearest(table: TableGeometry, pieces: Sequence[Piece], mover: Piece, desired: Vec,
             within: tuple[Vec, float] | None) -> Vec | None:
    p = np.asarray(desired, dtype=float)
    circles, lines = _curves(table, pieces, mover, within)
    feet, centre_gaps, from_base = _feet(p, circles, lines)
    feet = feet[np.isfinite(feet).all(axis=1)]
    best, reach = _first_legal(table, pieces, mover, feet, p, within)
    # only curves passing within `reach` of p can cross nearer than the best foot (a circle's
    # centre is as far from p as p from it: numpy's hypot is the C library's, of |x| and |y|)
    near_circles = circles[np.abs(centre_gaps - circles[:, 2]) <= reach + 1e-9]
    side = np.abs(from_base[:, 0] * lines[:, 3] - from_base[:, 1] * lines[:, 2])
    near_lines = lines[side <= reach + 1e-9]
    crossing: Vec | None = None
    if _few_pairs(len(near_circles), len(near_lines)):
        few, gaps = _plain_nearer_crossings(near_circles, near_lines, desired, reach)
        if few:
            crossing, _ = _first_legal_of_few(table, pieces, mover, few, gaps, p, within)
    else:
        crossings = _crossings(near_circles, near_lines)
        crossings = crossings[np.hypot(crossings[:, 0] - p[0], crossings[:, 1] - p[1])
                              < reach - 1e-12]
        if len(crossings):
            crossing, _ = _first_legal(table, pieces, mover, crossings, p, within)
    return best if crossing is None else crossing


def nearest_free_spot(table: TableGeometry, pieces: Sequence[Piece], mover: Piece,
                      desired: Vec, within: tuple[Vec, float] | None = None) -> Vec | None:
    """The legal centre nearest `desired` (None: no room on the mat); with `within` = (centre,
    reach), inside that circle if any legal spot lies there."""
    if within is not None:
        spot = free_spot_within(table, pieces, mover, desired, within)
        if spot is not None:
            return spot
    return _nearest(table, pieces, mover, desired, None)


def free_spot_within(table: TableGeometry, pieces: Sequence[Piece], mover: Piece, desired: Vec,
                     within: tuple[Vec, float]) -> Vec | None:
    """The legal centre nearest `desired` inside the circle `within` = (centre, reach); None
    when no legal spot lies there. The answer rests only on the pieces whose discs reach into
    that circle with the mover's beside them: another piece's curves lie outside it, so they add
    only candidates that are not legal, and it overlaps no spot inside."""
    return _nearest(table, pieces, mover, desired, within)
