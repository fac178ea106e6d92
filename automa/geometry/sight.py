"""Line of sight between discs, in the three tests a table may agree on, each with its margin.

- centre-line: the segment between the two centres must not cross an obstacle's interior;
- corridor: a ruler-wide band along that segment must not touch an obstacle's interior;
- any-line: some straight line from a point of one disc to a point of the other is clear.
Other pieces never block. Range is unlimited (to the mat edge).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import shapely
from msgspec import Struct

from automa.geometry.table import MEMO_KEPT, SLACK, TableGeometry, edge_distance
from automa.model.modes import LosTest
from automa.model.pieces import Piece, Point

if TYPE_CHECKING:  # for annotations only: numpy.typing costs a turn's start a millisecond
    from numpy.typing import NDArray

INTERIORS_MEET = "T********"  # DE-9IM: the line's interior meets the obstacle's interior
CORRIDOR_WIDTH = 3.0  # cm, the ruler's width (house: unmeasured)
ANY_LINE_SAMPLES = 9  # points across each disc for the any-line test
# at most this many (line, obstacle) pairs are worked in plain floats, more in numpy (a look
# costs about the same either way near this many)
PLAIN_PAIRS = 64
MANY_PAIRS = 64  # (line, polygon) pairs beyond which the unsettled ones are settled over arrays

Line = tuple[Point, Point]
# what the memo keeps of a sighting, all but whose it is: visible, distance, margin, blockers
Seen = tuple[bool, float, float, tuple[str, ...]]
LOOK = "look"  # the first part of a whole look's key in the table's memo
UNMEASURED = "unmeasured"  # beside the test in the key of a sighting kept without its margin


class Sighting(Struct, frozen=True):
    """What one piece sees of another, and how near the answer came to turning."""

    viewer: str
    target: str
    visible: bool
    distance: float  # edge to edge, cm
    margin: float  # how far an obstacle edge would have to move to flip the answer
    blockers: tuple[str, ...] = ()
    via: str | None = None  # the piece measured, when it is a part of the target (Ulom's claw)


def sight_lines(table: TableGeometry, coords: NDArray[np.float64], grow: float = 0.0,
                clearance: bool = True) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """For sight lines (n, 2, 2): which obstacles each one's band (the line grown by `grow`
    each side, flat ends) enters, (n, k); and each unblocked line's clearance, the least distance
    from the line itself to an obstacle (inf for a blocked line; inf for every line when no
    `clearance` is asked for). Each line's answers are its own: the same in any batch.

    A circle obstacle is measured from its centre. A polygon is asked of shapely only where its
    bounding circles cannot settle it: a band clear of the outer one cannot enter the polygon,
    one entering the inner one (round the hub, inside the polygon) surely does, and the
    clearance is the least among polygons whose bound could be least.
    """
    n, k = len(coords), len(table.obstacles)
    ax, ay = coords[:, 0, 0, None], coords[:, 0, 1, None]  # (n, 1)
    dx, dy = coords[:, 1, 0, None] - ax, coords[:, 1, 1, None] - ay
    length = np.hypot(dx, dy)
    safe = length + (length == 0)  # a point-long line keeps a unit divisor (x + 0.0 is x)
    dx, dy = dx / safe, dy / safe
    wx, wy = table.hub[:, 0] - ax, table.hub[:, 1] - ay  # (n, k)
    # each line's own values repeated along its row once, so that what follows works on arrays
    # of one shape (numpy's fast path; broadcasting a column costs twice as much a call)
    dx, dy, span = (np.repeat(q, k, axis=1) for q in (dx, dy, length))
    u = wx * dx + wy * dy
    v = np.abs(wy * dx - wx * dy)
    beyond = np.maximum(np.maximum(-u, u - span), 0.0)
    hub_gap = np.hypot(beyond, v)  # hub to the line
    band_gap = hub_gap if grow == 0 else np.hypot(beyond, np.maximum(v - grow, 0.0))
    # a circle blocks when the band comes within its radius (0 for a polygon: no gap is less);
    # a polygon surely blocks when the band passes within its inner reach of the hub (a line
    # of some length), and otherwise is asked of shapely where its bounding circle cannot
    # settle it (a circle's reach there is -inf: never asked)
    deep = (band_gap < table.hub_inner) & (span > 0)
    blocked = (band_gap < table.circle_radius) | deep
    line, obstacle = ((band_gap - table.sided_reach < SLACK) & ~deep).nonzero()
    if len(line):
        line, obstacle = _ask_unsettled(table, coords, line, obstacle, grow, blocked)
    lines = None
    if len(line):
        lines = shapely.linestrings(coords)
        shapes = lines[line] if grow == 0 else shapely.buffer(lines[line], grow, cap_style="flat")
        blocked[line, obstacle] = shapely.relate_pattern(shapes, table.obstacle_array[obstacle],
                                                         INTERIORS_MEET)
    clear = ~np.logical_or.reduce(blocked, axis=1)
    if not k or not clearance or not clear.any():
        return blocked, np.full(n, np.inf)
    # a circle's clearance from its centre; a polygon's (inf + anything) only if shapely asked
    gap = np.maximum(hub_gap - table.circle_radius, 0.0) + table.sided_inf
    upper = np.minimum.reduce(np.minimum(gap, hub_gap + table.hub_radius), axis=1)
    line, obstacle = ((hub_gap - table.sided_reach <= upper[:, None] + SLACK)
                      & clear[:, None]).nonzero()
    if len(line):
        if lines is None:
            lines = shapely.linestrings(coords)
        gap[line, obstacle] = shapely.distance(lines[line], table.obstacle_array[obstacle])
    return blocked, np.where(clear, np.minimum.reduce(gap, axis=1), np.inf)


def _ask_unsettled(table: TableGeometry, coords: NDArray[np.float64], line: NDArray[np.intp],
                   obstacle: NDArray[np.intp], grow: float, blocked: NDArray[np.bool_]
                   ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Of the (line, polygon) pairs for shapely, those `_plainly_meets` cannot settle; the
    others' answers are set in `blocked`. Many pairs (a threat map's grid) are settled over
    arrays, polygon by polygon (`_plainly_meet_all`, the same operations on the same numbers)."""
    if len(line) > MANY_PAIRS:
        return _ask_unsettled_at_once(table, coords, line, obstacle, grow, blocked)
    hubs, corners, simple = table.sight_bounds, table.sight_corners, table.sight_simple
    frames: dict[int, tuple[float, float, float, float, float]] = {}
    keep = []
    ends = coords.tolist()
    for k, (i, j) in enumerate(zip(line.tolist(), obstacle.tolist(), strict=True)):
        frame = frames.get(i)
        if frame is None:
            (ax, ay), (bx, by) = ends[i]
            span = abs(complex(bx - ax, by - ay))
            safe = span if span != 0 else 1.0
            frame = frames[i] = (ax, ay, (bx - ax) / safe, (by - ay) / safe, span)
        hx, hy, hub_radius, *_ = hubs[j]
        settled = _plainly_meets(corners[j], frame, grow, abs(hx) + abs(hy) + hub_radius,
                                 simple[j])
        if settled is None:
            keep.append(k)
        else:
            blocked[i, j] = settled
    return line[keep], obstacle[keep]


def _ask_unsettled_at_once(table: TableGeometry, coords: NDArray[np.float64],
                           line: NDArray[np.intp], obstacle: NDArray[np.intp], grow: float,
                           blocked: NDArray[np.bool_]
                           ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """`_ask_unsettled` over arrays: each line's frame as `_ask_unsettled` makes it (its start,
    unit direction and length), then each polygon's pairs in one `_plainly_meet_all`."""
    ax, ay = coords[line, 0, 0], coords[line, 0, 1]
    dx, dy = coords[line, 1, 0] - ax, coords[line, 1, 1] - ay
    span = np.hypot(dx, dy)  # abs(complex(dx, dy)): the C library's hypot, as numpy's
    safe = np.where(span != 0, span, 1.0)
    dx, dy = dx / safe, dy / safe
    ask = np.zeros(len(line), dtype=bool)
    for j in np.unique(obstacle).tolist():
        mine = np.flatnonzero(obstacle == j)
        hx, hy, hub_radius, *_ = table.sight_bounds[j]
        meets, settled = _plainly_meet_all(
            np.array(table.sight_corners[j], dtype=float).reshape(-1, 2),
            (ax[mine], ay[mine], dx[mine], dy[mine], span[mine]), grow,
            abs(hx) + abs(hy) + hub_radius, table.sight_simple[j])
        blocked[line[mine[settled]], j] = meets[settled]
        ask[mine[~settled]] = True
    return line[ask], obstacle[ask]


def _plainly_meet_all(corners: NDArray[np.float64], frames: tuple[NDArray[np.float64], ...],
                      grow: float, size: float, simple: bool
                      ) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """`_plainly_meets` of many lines and one polygon, as (its answer, settled): the same
    floating-point operations in the same order on the same numbers, elementwise (no fused
    operations in numpy's ufuncs), so each answer is the plain one's
    (tests/test_sight_plain.py)."""
    ax, ay, dx, dy, span = (f[:, None] for f in frames)
    margin = SLACK + 1e-9 * (size + np.abs(ax) + np.abs(ay) + span + grow)
    wx, wy = corners[None, :, 0] - ax, corners[None, :, 1] - ay
    along = wx * dx + wy * dy
    across = wy * dx - wx * dy
    last_along, last_across = np.roll(along, 1, axis=1), np.roll(across, 1, axis=1)
    crossed: NDArray[np.bool_] = np.zeros(len(span), dtype=bool)
    if simple:
        change = ((across > margin) & (last_across < -margin)) | (
            (across < -margin) & (last_across > margin))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            at = last_along + (along - last_along) * (last_across / (last_across - across))
        room = margin + 1e-5 * (np.abs(along) + np.abs(last_along))
        crossed = np.asarray((change & (room < at) & (at < span - room)).any(axis=1))
    outside = ((across.min(axis=1) > (grow + margin)[:, 0])
               | (across.max(axis=1) < (-grow - margin)[:, 0])
               | (along.min(axis=1) > (span + margin)[:, 0])
               | (along.max(axis=1) < -margin[:, 0]))
    return ~outside & crossed, outside | crossed


def sight_rows(table: TableGeometry, lines: Sequence[Line], grow: float = 0.0,
               clearance: bool = True) -> tuple[list[list[bool]], list[float]]:
    """`sight_lines` of lines given as end points, as lists: worked in plain floats when there
    are few (line, obstacle) pairs (numpy's fixed cost per call outweighs the work), in numpy
    otherwise. Both give the same answers (tests/test_sight_plain.py)."""
    if len(lines) * len(table.obstacles) <= PLAIN_PAIRS:
        return plain_sight_lines(table, lines, grow, clearance)
    blocked, clear_by = sight_lines(table, np.array(lines, dtype=float).reshape(-1, 2, 2), grow,
                                    clearance)
    return blocked.tolist(), clear_by.tolist()


def plain_sight_lines(table: TableGeometry, lines: Sequence[Line], grow: float = 0.0,
                      clearance: bool = True) -> tuple[list[list[bool]], list[float]]:
    """`sight_lines` in plain floats, line by line and obstacle by obstacle, from
    `table.sight_bounds` (the rows of the arrays `sight_lines` reads): the same operations on
    the same numbers, and the pairs that neither bounds nor corners settle (`_plainly_meets`)
    asked of shapely, in one call for all lines. The least of a line's numbers is kept as they
    come (a least is the same whatever the order). Where the numbers' outcome is known, the
    operation is left out: `hypot(0, v)` is v, a polygon's gap (inf + anything) is never a
    least, a circle's bound (its hub's gap plus more than its radius) never less than its gap.
    For finite coordinates (Python's comparisons and numpy's `maximum` part only on NaN)."""
    blocked: list[list[bool]] = []
    asked: list[tuple[int, int]] = []
    kept: list[tuple[float, float, list[tuple[int, float]]]] = []
    for row, ((ax, ay), (bx, by)) in enumerate(lines):
        dx, dy = bx - ax, by - ay
        span = abs(complex(dx, dy))
        safe = span if span != 0 else 1.0  # as `length + (length == 0)`
        dx, dy = dx / safe, dy / safe
        row_blocked: list[bool] = []
        least = upper = math.inf  # the least gap; the least bound on the nearest obstacle
        polygons: list[tuple[int, float]] = []  # each polygon's lower bound on its distance
        for j, (hx, hy, hub_radius, radius, inner, reach, plus) in enumerate(table.sight_bounds):
            wx, wy = hx - ax, hy - ay
            u = wx * dx + wy * dy
            v = abs(wy * dx - wx * dy)
            beyond = -u if -u > u - span else u - span
            # beside the line (beyond it by 0: hypot(0, v) is v, exactly), the gap is across
            if beyond <= 0.0:
                hub_gap = band_gap = v
                if grow != 0:
                    band_gap = v - grow if v - grow > 0.0 else 0.0
            else:
                hub_gap = abs(complex(beyond, v))
                band_gap = hub_gap
                if grow != 0:
                    band_gap = abs(complex(beyond, v - grow if v - grow > 0.0 else 0.0))
            if plus:  # a polygon: its gap is inf + anything, its bound the least it adds
                deep = band_gap < inner and span > 0
                meets = deep
                if band_gap - reach < SLACK and not deep:
                    settled = _plainly_meets(table.sight_corners[j], (ax, ay, dx, dy, span),
                                             grow, abs(hx) + abs(hy) + hub_radius,
                                             table.sight_simple[j])
                    if settled is None:
                        asked.append((row, j))
                    else:
                        meets = settled
                row_blocked.append(meets)
                bound = hub_gap + hub_radius
                upper = bound if bound < upper else upper
                polygons.append((j, hub_gap - reach))
            else:  # a circle (never deep, never asked): its bound is never less than its gap
                row_blocked.append(band_gap < radius)
                gap = hub_gap - radius if hub_gap - radius > 0.0 else 0.0
                least = gap if gap < least else least
                upper = gap if gap < upper else upper
        blocked.append(row_blocked)
        kept.append((least, upper, polygons))
    if asked:
        shapes = _line_shapes(lines, [row for row, _ in asked], grow)
        answers: list[bool] = shapely.relate_pattern(
            shapes, table.obstacle_array[[j for _, j in asked]], INTERIORS_MEET).tolist()
        for (row, j), meet in zip(asked, answers, strict=True):
            blocked[row][j] = meet
    if not clearance:
        return blocked, [math.inf] * len(lines)
    return blocked, _plain_clearance(table, lines, blocked, kept)


def _plainly_meets(corners: tuple[Point, ...], line: tuple[float, float, float, float, float],
                   grow: float, size: float, simple: bool) -> bool | None:
    """Does a line's band (the line from (ax, ay) along the unit (dx, dy) for `span`, grown by
    `grow` each side, flat ends) meet a polygon's interior, where plain floats settle it by far
    more than SLACK and any rounding of the coordinates (`size`: the sum of the polygon's hub's
    coordinates and its reach); None: ask shapely (always for a line of no length, whose
    direction is 0, 0).

    False when every corner lies to one side of the band, across it or along it. True when an
    edge of a simple polygon (one ring, no holes: `simple`) crosses the line itself strictly
    between the line's ends and its own: a ring that is simple has no other edge through that
    point, so the line passes from outside the polygon into its inside there (and the band
    holds the line). Either is what shapely's `relate_pattern` would say."""
    ax, ay, dx, dy, span = line
    margin = SLACK + 1e-9 * (size + abs(ax) + abs(ay) + span + grow)
    least_across = least_along = math.inf
    most_across = most_along = -math.inf
    crossed = False
    x, y = corners[-1]  # the ring's last corner: the previous one of its first
    last_along, last_across = (x - ax) * dx + (y - ay) * dy, (y - ay) * dx - (x - ax) * dy
    for x, y in corners:
        wx, wy = x - ax, y - ay
        along = wx * dx + wy * dy
        across = wy * dx - wx * dy
        least_along = along if along < least_along else least_along
        most_along = along if along > most_along else most_along
        least_across = across if across < least_across else least_across
        most_across = across if across > most_across else most_across
        if simple and not crossed and ((across > margin and last_across < -margin)
                                       or (across < -margin and last_across > margin)):
            # where the edge from the previous corner crosses the line (the weight's rounding
            # is at most some millionths, as each end is more than `margin` off the line)
            at = last_along + (along - last_along) * (last_across / (last_across - across))
            room = margin + 1e-5 * (abs(along) + abs(last_along))
            crossed = room < at < span - room
        last_along, last_across = along, across
    if (least_across > grow + margin or most_across < -grow - margin
            or least_along > span + margin or most_along < -margin):
        return False
    return True if crossed else None


def _plain_clearance(table: TableGeometry, lines: Sequence[Line], blocked: list[list[bool]],
                     kept: list[tuple[float, float, list[tuple[int, float]]]]) -> list[float]:
    """The end of `plain_sight_lines`: each clear line's least distance to an obstacle (inf
    for a blocked one), a polygon measured by shapely where its bound could be least."""
    clear = [not any(row_blocked) for row_blocked in blocked]
    clearance = [least if is_clear else math.inf
                 for is_clear, (least, _, _) in zip(clear, kept, strict=True)]
    asked = [(row, j) for row, (is_clear, (_, upper, polygons))
             in enumerate(zip(clear, kept, strict=True))
             if is_clear for j, lower in polygons if lower <= upper + SLACK]
    if asked:
        measured = shapely.distance(_line_shapes(lines, [row for row, _ in asked], 0.0),
                                    table.obstacle_array[[j for _, j in asked]]).tolist()
        for (row, _), distance in zip(asked, measured, strict=True):
            clearance[row] = distance if distance < clearance[row] else clearance[row]
    return clearance


def _line_shapes(lines: Sequence[Line], rows: list[int], grow: float) -> NDArray[np.object_]:
    """The shapely lines (grown to bands by `grow`, flat ends) of the given rows of `lines`,
    made as `sight_lines` makes them."""
    shapes: NDArray[np.object_] = shapely.linestrings(np.array([lines[row] for row in rows],
                                                               dtype=float))
    return shapes if grow == 0 else shapely.buffer(shapes, grow, cap_style="flat")


def _segment(a: Piece, b: Piece) -> NDArray[np.float64]:
    return np.array([[a.at, b.at]], dtype=float)


def _blocked_margin(table: TableGeometry, a: Piece, b: Piece, blockers: list[int],
                    grow: float) -> float:
    """The sideways shift of the sight line that would clear every blocking obstacle: each
    one's extent across the line (a circle's from its centre, a polygon's from its corners)."""
    (ax, ay), (bx, by) = a.at, b.at
    dx, dy = bx - ax, by - ay
    norm = max(math.hypot(dx, dy), 1e-12)
    nx, ny = -dy / norm, dx / norm
    left = right = 0.0
    for i in blockers:
        circle = table.obstacles[i].circle
        if circle is not None:
            hx, hy, _, _ = table.hub_floats[i]
            offset = (hx - ax) * nx + (hy - ay) * ny
            high, low = offset + circle[2], offset - circle[2]
        else:
            high, low = _extent(ax, ay, nx, ny, table.sight_corners[i])
        left = max(left, high + grow)
        right = max(right, -low + grow)
    return min(left, right)


def _extent(ax: float, ay: float, nx: float, ny: float, corners: tuple[Point, ...]
            ) -> tuple[float, float]:
    """The highest and lowest offset along the normal (nx, ny) from (ax, ay) of a polygon's
    corners."""
    offsets = [(x - ax) * nx + (y - ay) * ny for x, y in corners]
    return max(offsets), min(offsets)


def _any_lines(a: Piece, b: Piece) -> NDArray[np.float64]:
    """The any-line test's lines (ANY_LINE_SAMPLES ** 2, 2, 2): from each of the points spread
    across one disc (square to the centre line) to each of those across the other."""
    start, end = np.asarray(a.at), np.asarray(b.at)
    direction = end - start
    normal = np.array([-direction[1], direction[0]]) / max(np.hypot(*direction), 1e-12)
    spread = np.linspace(-1.0, 1.0, ANY_LINE_SAMPLES)
    from_points = start + np.outer(spread * a.radius, normal)
    to_points = end + np.outer(spread * b.radius, normal)
    pairs = np.stack(np.broadcast_arrays(from_points[:, None, :], to_points[None, :, :]), axis=2)
    return pairs.reshape(-1, 2, 2)


def _any_line_stages(k: int) -> tuple[list[int], list[int], list[int]]:
    """The any-line test's lines in three batches, the likeliest clear first: the centre line
    alone (plain floats), then the lines between the discs' outer points, then the rest. A
    clear line settles the sighting, so a visible piece is most often settled by the first."""
    middle = k // 2
    centre = [middle * k + middle]
    outer = sorted({i * k + j for i in (0, middle, k - 1) for j in (0, middle, k - 1)}
                   - set(centre))
    rest = [i for i in range(k * k) if i not in set(centre) | set(outer)]
    return centre, outer, rest


ANY_LINE_STAGES = _any_line_stages(ANY_LINE_SAMPLES)


def any_line_sees(table: TableGeometry, a: Piece, b: Piece) -> bool:
    """The any-line test's answer alone, without its margin: whether some line of
    `_any_lines` is clear, the lines asked in stages (`ANY_LINE_STAGES`) until one is. Each
    line's answer is the one the whole batch gives it (`sight_lines` works line by line; the
    centre line in plain floats, as `sight_rows` works few lines), so the answer is
    `_any_line_visible`'s. For a table that reads no margin (a forecast's quiet runs): the
    margin is most of the cost, a distance to each obstacle near each of 81 lines."""
    blocked, _ = sight_rows(table, [(a.at, b.at)], clearance=False)  # the centre line: its
    if not any(blocked[0]):  # points are the centres (0 across the disc), exactly
        return True
    lines = _any_lines(a, b)
    _, outer, rest = ANY_LINE_STAGES
    for stage in (outer, rest):
        rows, _ = sight_lines(table, lines[stage], clearance=False)
        if not rows.any(axis=1).all():
            return True
    return False


def _any_line_visible(table: TableGeometry, a: Piece, b: Piece) -> tuple[bool, float]:
    blocked, clearance = sight_lines(table, _any_lines(a, b))
    if blocked.any(axis=1).all():
        centre, _ = sight_lines(table, _segment(a, b))
        blockers = [int(i) for i in np.flatnonzero(centre[0])]
        return False, _blocked_margin(table, a, b, blockers, 0.0)
    return True, float(np.max(clearance[np.isfinite(clearance)]))


def line_of_sight(table: TableGeometry, a: Piece, b: Piece, blocked_by_obstacles: bool,
                  test: str = LosTest.CENTRE_LINE) -> Sighting:
    """Does `a` see `b`? With obstacles not blocking, always yes (margin infinite)."""
    distance = edge_distance(a, b)
    if not blocked_by_obstacles or not table.obstacles:
        return Sighting(a.id, b.id, True, distance, math.inf)
    if test == LosTest.ANY_LINE:
        visible, margin = _any_line_visible(table, a, b)
        return Sighting(a.id, b.id, visible, distance, margin)
    grow = CORRIDOR_WIDTH / 2 if test == LosTest.CORRIDOR else 0.0
    blocked, clearance = sight_rows(table, [(a.at, b.at)], grow)
    blockers = [i for i, blocks in enumerate(blocked[0]) if blocks]
    if blockers:
        margin = _blocked_margin(table, a, b, blockers, grow)
        ids = tuple(table.obstacles[i].id for i in blockers)
        return Sighting(a.id, b.id, False, distance, margin, ids)
    return Sighting(a.id, b.id, True, distance, clearance[0] - grow)


def look_around(table: TableGeometry, viewer: Piece, others: Iterable[Piece],
                blocked_by_obstacles: bool, test: str = LosTest.CENTRE_LINE,
                margins: bool = True) -> list[Sighting]:
    """The 360-degree check: a sighting of every other piece, closest first. Without
    `margins` (for a caller that reads only who is seen, and how far: a forecast's quiet runs),
    the centre-line and any-line tests leave out the margins (each is inf) and the blockers
    of the any-line test, most of their cost; the memo keeps these answers apart.

    The centre-line test runs as one vectorised shapely call over every (line, obstacle) pair.
    On a table that remembers (`remembering`), each answer is kept in its memo, keyed by the
    test and both discs' centres and radii (all it depends on), for the next look from the
    same places; and the whole look, sorted, keyed by the test, the viewer's name and disc and
    each target's, for the next look at the very same pieces from the same places (a
    forecast's many turns).
    """
    targets = [other for other in others if other.id != viewer.id]
    if not blocked_by_obstacles or not table.obstacles:
        sightings = [line_of_sight(table, viewer, other, blocked_by_obstacles, test)
                     for other in targets]
        return _closest_first(sightings)
    memo = table.memo
    if memo is None:
        return _closest_first([Sighting(viewer.id, other.id, *seen) for other, seen
                               in zip(targets, _looks(table, viewer, targets, test),
                                      strict=True)])
    if len(memo) > MEMO_KEPT:
        memo.clear()
    measured = margins or test == LosTest.CORRIDOR  # the corridor's is its only way
    look = (LOOK, test, measured, viewer.id, viewer.at, viewer.radius,
            tuple([(other.id, other.at, other.radius) for other in targets]))
    seen: tuple[Sighting, ...] | None = memo.get(look)
    if seen is None:
        seen = memo[look] = tuple(_look_around(table, viewer, targets, test, measured))
    return list(seen)


def _look_around(table: TableGeometry, viewer: Piece, targets: list[Piece],
                 test: str, margins: bool = True) -> list[Sighting]:
    """`look_around` with obstacles blocking, each sighting from the memo or worked out."""
    memo = table.memo
    assert memo is not None
    tag = test if margins else (test, UNMEASURED)
    keys = [(tag, viewer.at, viewer.radius, other.at, other.radius) for other in targets]
    missing = [i for i, key in enumerate(keys) if key not in memo]
    if missing:
        found = (_looks(table, viewer, [targets[i] for i in missing], test) if margins else
                 _unmeasured_looks(table, viewer, [targets[i] for i in missing], test))
        for i, seen in zip(missing, found, strict=True):
            memo[keys[i]] = seen
    return _closest_first([Sighting(viewer.id, other.id, *memo[key])
                           for other, key in zip(targets, keys, strict=True)])


def _closest_first(sightings: list[Sighting]) -> list[Sighting]:
    return sorted(sightings, key=lambda s: (s.distance, s.target))


def _looks(table: TableGeometry, viewer: Piece, targets: list[Piece], test: str) -> list[Seen]:
    """What the viewer sees of each target, obstacles blocking, worked out."""
    if test == LosTest.CENTRE_LINE:
        return _centre_lines_at_once(table, viewer, targets)
    return [_seen(line_of_sight(table, viewer, other, True, test)) for other in targets]


def _unmeasured_looks(table: TableGeometry, viewer: Piece, targets: list[Piece], test: str
                      ) -> list[Seen]:
    """`_looks` without the margins (inf) nor the any-line test's blockers: who is seen, by the
    same answers, and how far."""
    if test == LosTest.ANY_LINE:
        return [(any_line_sees(table, viewer, other), edge_distance(viewer, other), math.inf, ())
                for other in targets]
    blocked, _ = sight_rows(table, [(viewer.at, t.at) for t in targets], clearance=False)
    ids = [obstacle.id for obstacle in table.obstacles]
    return [(not any(row), edge_distance(viewer, target), math.inf,
             tuple([ids[j] for j, blocks in enumerate(row) if blocks]))
            for target, row in zip(targets, blocked, strict=True)]


def _seen(s: Sighting) -> Seen:
    return s.visible, s.distance, s.margin, s.blockers


def _centre_lines_at_once(table: TableGeometry, viewer: Piece, targets: list[Piece]
                          ) -> list[Seen]:
    """What the viewer sees of each target by the centre line, as the memo keeps it (the
    sightings are made from it, with the pieces' names, when the look is read)."""
    blocked, clearance = sight_rows(table, [(viewer.at, t.at) for t in targets])
    seen: list[Seen] = []
    for target, row, clear_by in zip(targets, blocked, clearance, strict=True):
        blockers = [j for j, blocks in enumerate(row) if blocks]
        distance = edge_distance(viewer, target)
        if blockers:
            margin = _blocked_margin(table, viewer, target, blockers, 0.0)
            seen.append((False, distance, margin,
                         tuple(table.obstacles[j].id for j in blockers)))
        else:
            seen.append((True, distance, clear_by, ()))
    return seen
