"""Where a piece may stand, ruler moves toward a target, and the clock-template sweep.

A piece never ends on an obstacle, on another piece or off the mat: a move that would end there
goes to the nearest legal spot (the base rules' "nearest spot where it lies flat").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from msgspec import Struct
from msgspec.structs import replace
from shapely.geometry import Point
from shapely.ops import nearest_points

from automa.errors import RulesError
from automa.geometry.contacts import disc_contact, polygon_contact
from automa.geometry.legal import legal_mask
from automa.geometry.ring import Disc, ring_spots, surely_taken
from automa.geometry.spots import (
    first_obstacle_within,
    free_spot_within,
    growing_chunks,
    nearest_free_spot,
)
from automa.geometry.table import (
    EPSILON,
    MEMO_KEPT,
    TableGeometry,
    centre_distance,
    nearest_obstacle,
    off_mat_by,
)
from automa.model.pieces import Condition, Piece

if TYPE_CHECKING:  # for annotations only: numpy.typing costs a turn's start a millisecond
    pass

Vec = tuple[float, float]
RING_CHECKED_AT_ONCE = 32  # ring spots checked for legality in the first vectorised call,
# nearest first, twice as many in each later one
NEAR_SLACK = 0.01  # cm: a piece this much farther off than touching is not near a move (the
# geometry's own tolerances are a millionth of that)


class Move(Struct, frozen=True):
    """A piece's move: where it started, where it ended and why it stopped there."""

    piece: str
    start: Vec
    end: Vec
    intended: Vec  # where the ruler or template put it before the legal-spot rule
    stopped_by: str | None = None  # "elf", "obstacle C", "the mat edge", "touching elf"
    margin: float = math.inf  # for a sweep: the room left before the next thing in the way

    @property
    def adjusted(self) -> bool:
        return centre_distance(self.intended, self.end) > 1e-3

    @property
    def travelled(self) -> float:
        return centre_distance(self.start, self.end)


def overlap_with(table: TableGeometry, pieces: Sequence[Piece], mover: Piece,
                 centre: Vec, tolerance: float = EPSILON) -> str | None:
    """What a disc of the mover's size at `centre` would overlap, or None when the spot is legal.

    Overlaps smaller than `tolerance` (cm) count as touching.
    """
    if off_mat_by(table, centre, mover.radius) > tolerance:
        return "the mat edge"
    x, y = centre
    if table.obstacles:
        met = first_obstacle_within(table, x, y, mover.radius - tolerance)
        if met is not None:
            return f"obstacle {table.obstacles[met].id}"
    for other in pieces:
        reach = mover.radius + other.radius - tolerance
        dx, dy = x - other.at[0], y - other.at[1]
        # a side of the gap at least `reach` settles it without the hypotenuse (never shorter)
        if -reach < dx < reach and -reach < dy < reach and other.id != mover.id \
                and math.hypot(dx, dy) < reach:
            return other.id
    return None


def nearest_legal_spot(table: TableGeometry, pieces: Sequence[Piece], mover: Piece,
                       desired: Vec, within: tuple[Vec, float] | None = None) -> Vec:
    """The legal centre nearest `desired`; with `within` = (centre, reach), inside that circle
    if any legal spot lies there (a ruler move never ends beyond its ruler)."""
    if overlap_with(table, pieces, mover, desired) is None:
        return desired
    spot = nearest_free_spot(table, pieces, mover, desired, within)
    if spot is None:
        raise RulesError(f"there is no room left on the mat for {mover.id}")
    return spot



def spot_beside(table: TableGeometry, pieces: Sequence[Piece], anchor: Piece, piece: Piece,
                toward: Vec, gap: float, within: float) -> Vec:
    """Where `piece` goes beside `anchor`: `gap` cm from its edge in the direction `toward`,
    else the nearest legal spot at most `within` cm from its edge (a familiar, a summoned
    Antient, a part put back by its owner: each "within 2.5 cm" of its piece)."""
    dx, dy = toward
    norm = math.hypot(dx, dy) or 1.0
    reach = anchor.radius + piece.radius + gap
    desired = (anchor.at[0] + dx / norm * reach, anchor.at[1] + dy / norm * reach)
    return nearest_legal_spot(table, pieces, piece, desired,
                              within=(anchor.at, anchor.radius + piece.radius + within))

def _ring_spot(table: TableGeometry, pieces: Sequence[Piece], mover: Piece, target: Piece,
               desired: Vec, length: float) -> Vec | None:
    """The legal spot touching `target`, within `length` of the mover, closest to `desired`
    (the first of equals). Legality is checked nearest first, a few at a time, leaving out the
    spots that another piece or an obstacle surely takes (`ring.surely_taken`)."""
    reach = (mover.radius + target.radius) * (1 + 1e-9) + 1e-7
    spots = ring_spots(target.at, reach)
    near = np.hypot(spots[:, 0] - mover.at[0], spots[:, 1] - mover.at[1]) <= length
    near &= ~surely_taken(target.at, reach, _keeping_off(table, pieces, mover))
    gaps = np.hypot(spots[:, 0] - desired[0], spots[:, 1] - desired[1])
    order = np.argsort(gaps, kind="stable")
    order = order[near[order]]
    for chunk in growing_chunks(order, RING_CHECKED_AT_ONCE):
        legal = legal_mask(table, pieces, mover, spots[chunk])
        if legal.any():
            best = int(chunk[int(np.argmax(legal))])
            return (float(spots[best, 0]), float(spots[best, 1]))
    return None


def _placed(pieces: Sequence[Piece]) -> tuple[tuple[str, Vec, float], ...]:
    """All a move reads of the pieces on the mat, in their order: a key for the table's memo."""
    return tuple([(p.id, p.at, p.radius) for p in pieces])


def _placed_near_disc(pieces: Sequence[Piece], centre: Vec, reach: float
                      ) -> tuple[tuple[str, Vec, float], ...]:
    """As `_placed`, only the pieces whose discs come within `reach` of `centre` (squared
    distances: a filter with room to spare, NEAR_SLACK, needs no exact root)."""
    x, y = centre
    near = []
    for p in pieces:
        (px, py), limit = p.at, reach + p.radius + NEAR_SLACK
        if (px - x) * (px - x) + (py - y) * (py - y) <= limit * limit:
            near.append((p.id, p.at, p.radius))
    return tuple(near)


def _placed_near_ray(pieces: Sequence[Piece], start: Vec, direction: Vec, reach: float
                     ) -> tuple[tuple[str, Vec, float], ...]:
    """As `_placed`, only the pieces whose discs come within `reach` of the ray from `start`
    along `direction` (beside the ray, the distance across it; behind it, to its start)."""
    (x, y), norm = start, math.hypot(*direction)
    ux, uy = direction[0] / norm, direction[1] / norm
    near = []
    for p in pieces:
        (px, py), limit = p.at, reach + p.radius + NEAR_SLACK
        dx, dy = px - x, py - y
        across = dx * uy - dy * ux
        gap = across * across if dx * ux + dy * uy >= 0.0 else dx * dx + dy * dy
        if gap <= limit * limit:
            near.append((p.id, p.at, p.radius))
    return tuple(near)


def ruler_toward(table: TableGeometry, pieces: Sequence[Piece], mover: Piece, goal: Vec,
                 goal_radius: float, length: float, goal_piece: Piece | None = None,
                 goal_name: str = "") -> Move:
    """Slide the mover along the ruler toward `goal` (through obstacles), at most `length` cm.

    If the ruler would carry it past the goal it stops touching it (a disc of `goal_radius`).
    An illegal end spot becomes the nearest legal one, keeping contact with a goal piece if it can.
    On a table that remembers (`remembering`), the move is kept in its memo, keyed by
    everything it reads (the same move from the same places, as in a forecast's turns, is not
    worked out again). A move that ends within its ruler's reach reads only the pieces near
    that reach (`free_spot_within`), so it is kept by those alone: a forecast's turns that part
    only in a piece far off share it.
    """
    memo = table.memo
    if memo is None:
        return _ruler_toward(table, pieces, mover, goal, goal_radius, length, goal_piece,
                             goal_name)[0]
    near = _placed_near_disc(pieces, mover.at, length + mover.radius)
    rest = (mover.id, mover.at, mover.radius, goal, goal_radius, length,
            None if goal_piece is None else (goal_piece.at, goal_piece.radius), goal_name)
    return _kept_move(memo, pieces, ("ruler", near, *rest), lambda: _ruler_toward(
        table, pieces, mover, goal, goal_radius, length, goal_piece, goal_name))


def _kept_move(memo: dict[Any, Any], pieces: Sequence[Piece], near_key: tuple[object, ...],
               work: Callable[[], tuple[Move, bool]]) -> Move:
    """The move kept in `memo` under `near_key` (whose second part is the pieces near the
    move), else under the same key with every piece, else worked out (`work`: the move and
    whether it read only the near pieces) and kept under the key that holds all it read."""
    if len(memo) > MEMO_KEPT:
        memo.clear()
    move: Move | None = memo.get(near_key)
    if move is None:
        whole_key = (near_key[0], _placed(pieces), *near_key[2:])
        move = memo.get(whole_key)
        if move is None:
            move, read_near_only = work()
            memo[near_key if read_near_only else whole_key] = move
    return move


def _keeping_off(table: TableGeometry, pieces: Sequence[Piece], mover: Piece) -> list[Disc]:
    """The discs the mover's centre must keep out of, as `legal_mask` checks them (overlaps
    under EPSILON are touching): round each other piece, each circle obstacle, and the disc
    round each polygon's hub that lies wholly inside it."""
    r = mover.radius - EPSILON
    discs = [(p.at[0], p.at[1], p.radius + r) for p in pieces if p.id != mover.id]
    for hx, hy, _, radius, inner, *_ in table.sight_bounds:
        own = radius if radius > 0.0 else inner
        if own > 0.0:
            discs.append((hx, hy, own + r))
    return discs


def _ruler_toward(table: TableGeometry, pieces: Sequence[Piece], mover: Piece, goal: Vec,
                  goal_radius: float, length: float, goal_piece: Piece | None,
                  goal_name: str) -> tuple[Move, bool]:
    """The move, and whether it ended within the ruler's reach of the start (where no spot
    there was free, the nearest one anywhere on the mat)."""
    start = mover.at
    gap = centre_distance(start, goal) - mover.radius - goal_radius
    if gap <= EPSILON:
        return Move(mover.id, start, start, start, f"already touching {goal_name}".strip(),
                    gap), True
    dx, dy = goal[0] - start[0], goal[1] - start[1]
    norm = math.hypot(dx, dy)
    travel = min(length, gap)
    intended = (start[0] + dx / norm * travel, start[1] + dy / norm * travel)
    touching = length >= gap
    end: Vec | None = intended
    if overlap_with(table, pieces, mover, intended) is not None:
        end = None
        if touching and goal_piece is not None:
            end = _ring_spot(table, pieces, mover, goal_piece, intended, length)
        end = end or free_spot_within(table, pieces, mover, intended, (start, length))
    within_reach = end is not None
    end = end or nearest_legal_spot(table, pieces, mover, intended)
    reached = touching and centre_distance(end, goal) - mover.radius - goal_radius < 1e-3
    stopped = f"touching {goal_name}" if reached else None
    return Move(mover.id, start, end, intended, stopped, abs(length - gap)), within_reach


SWEEP_SLACK = 1e-3  # cm: a thing this much nearer the path than its bound is still measured


def _maybe_met(wx: float, wy: float, ux: float, uy: float, reach: float, bound: float) -> bool:
    """Might a disc moving along (ux, uy) from the origin come within `reach` of the point
    (wx, wy) before travelling `bound`? False only when surely not: it passes farther to the
    side, or the point lies behind, or it could meet it only beyond `bound` (a first contact is
    never nearer than the point's distance along the path less `reach`)."""
    reach += SWEEP_SLACK
    along = wx * ux + wy * uy
    return abs(wx * uy - wy * ux) < reach and -reach < along < bound + reach


def _obstacle_contacts(table: TableGeometry, start: Vec, u: Vec, r: float, near: list[int]
                       ) -> list[tuple[int, float]]:
    """The first contact along u with each obstacle in `near`, in the table's order: a polygon
    by its edges, a circle as a disc."""
    found = []
    for i in near:
        rank = table.sided_rank[i]
        if rank >= 0:
            found.append((i, polygon_contact(start, u, r, table.polygon_edge_rows[rank])))
        else:
            hx, hy, _, radius = table.hub_floats[i]
            assert radius is not None
            found.append((i, disc_contact(start, u, r, (hx, hy), radius)))
    return found


def sweep(table: TableGeometry, pieces: Sequence[Piece], mover: Piece, direction: Vec,
          length: float) -> Move:
    """Slide the mover's disc along `direction` for up to `length` cm; it stops touching the first
    obstacle or piece ahead, or at the mat edge. A piece it touches and moves away from is no bar.
    Kept in a remembering table's memo like `ruler_toward`: by the pieces near its line (all it
    reads) when it ends where it stopped, by all of them when that spot was taken.
    """
    memo = table.memo
    if memo is None:
        return _sweep(table, pieces, mover, direction, length)[0]
    near = _placed_near_ray(pieces, mover.at, direction, mover.radius)
    return _kept_move(memo, pieces,
                      ("sweep", near, mover.id, mover.at, mover.radius, direction, length),
                      lambda: _sweep(table, pieces, mover, direction, length))


def _sweep(table: TableGeometry, pieces: Sequence[Piece], mover: Piece, direction: Vec,
           length: float) -> tuple[Move, bool]:
    """The move, and whether it ends where the disc stopped (that spot was free: no piece off
    its line was read). Measured in plain floats (`contacts`), only what it may meet first."""
    dx, dy = float(direction[0]), float(direction[1])
    norm = math.hypot(dx, dy)
    if not norm > 0:
        raise ValueError(f"a sweep needs a direction, not {direction}")
    ux, uy = dx / norm, dy / norm
    x, y = float(mover.at[0]), float(mover.at[1])
    r = mover.radius
    limits: list[tuple[float, str]] = [(length, "")]
    mat = table.playmat
    for along, at, size in ((ux, x, mat.width), (uy, y, mat.length)):
        if along > 1e-12:
            limits.append(((size - r - at) / along, "the mat edge"))
        elif along < -1e-12:
            limits.append(((at - r) / -along, "the mat edge"))
    # only limits[0:2] are read (where it stops, and the margin to the next); anything first met
    # beyond `bound`, the second of these, sorts after at least two of them (ties too: the sort
    # is stable), so it is not measured
    bound = sorted(t for t, _ in limits)[1]
    near = [i for i, (hx, hy, reach, _) in enumerate(table.hub_floats)
            if _maybe_met(hx - x, hy - y, ux, uy, reach + r, bound)]
    if near:  # an obstacle never met adds nothing: the ruler's length is always a finite limit
        limits += [(t, f"obstacle {table.obstacles[i].id}")
                   for i, t in _obstacle_contacts(table, (x, y), (ux, uy), r, near)
                   if math.isfinite(t)]
    for piece in pieces:
        if piece.id != mover.id and _maybe_met(piece.at[0] - x, piece.at[1] - y, ux, uy,
                                               piece.radius + r, bound):
            t = disc_contact((x, y), (ux, uy), r, piece.at, piece.radius)
            if t != math.inf:
                limits.append((t, piece.id))
    limits.sort(key=lambda item: item[0])
    travel, stopped_by = limits[0]
    travel = max(0.0, travel - 1e-7)
    margin = limits[1][0] - limits[0][0] if len(limits) > 1 else math.inf
    end = (x + ux * travel, y + uy * travel)
    intended = (x + ux * length, y + uy * length)
    safe_end = nearest_legal_spot(table, pieces, mover, end)
    return Move(mover.id, mover.at, safe_end, intended if not stopped_by else end,
                stopped_by or None, margin), safe_end == end


def closest_obstacle(table: TableGeometry, centre: Vec) -> tuple[str, Vec, float] | None:
    """The obstacle nearest to a point: its id, its nearest boundary point, and the distance.
    Kept in a remembering table's memo by the point (all it depends on), like a ruler move."""
    if not table.obstacles:
        return None
    memo = table.memo
    if memo is None:
        return _closest_obstacle(table, centre)
    if len(memo) > MEMO_KEPT:
        memo.clear()
    key = ("closest obstacle", centre)
    found: tuple[str, Vec, float] | None = memo.get(key)
    if found is None:
        found = memo[key] = _closest_obstacle(table, centre)
    return found


def _closest_obstacle(table: TableGeometry, centre: Vec) -> tuple[str, Vec, float]:
    i, distance = nearest_obstacle(table, centre)
    circle = table.obstacles[i].circle
    if circle is not None:  # the point of the circle toward the centre
        away = math.hypot(centre[0] - circle[0], centre[1] - circle[1]) or 1.0
        return table.obstacles[i].id, (circle[0] + circle[2] * (centre[0] - circle[0]) / away,
                                       circle[1] + circle[2] * (centre[1] - circle[1]) / away), \
            distance
    point = nearest_points(table.obstacles[i].polygon.exterior, Point(centre))[0]
    return table.obstacles[i].id, (float(point.x), float(point.y)), distance


def rides_on(rider: Piece, mount: Piece) -> bool:
    """The rider sits on top of the mount (or wild wyvern): it is marked riding, the mount
    ridden, and the rider's centre lies on the mount's disc, so the two discs overlap."""
    return (rider.id != mount.id and Condition.RIDING in rider.conditions
            and Condition.RIDDEN in mount.conditions
            and centre_distance(rider.at, mount.at) <= mount.radius + EPSILON)


def mount_under(rider: Piece, pieces: Sequence[Piece]) -> Piece | None:
    """The mount or wild wyvern the rider sits on, if any (the nearest, should two qualify)."""
    if Condition.RIDING not in rider.conditions:  # rides on nothing (as `rides_on` of each says)
        return None
    under = [p for p in pieces if rides_on(rider, p)]
    return min(under, key=lambda p: centre_distance(rider.at, p.at), default=None)


def rider_on(mount: Piece, pieces: Sequence[Piece]) -> Piece | None:
    """The rider sitting on the mount (or wild wyvern), if any (the nearest, should two)."""
    if Condition.RIDDEN not in mount.conditions:  # carries nothing (as `rides_on` says)
        return None
    riders = [p for p in pieces if rides_on(p, mount)]
    return min(riders, key=lambda p: centre_distance(p.at, mount.at), default=None)


def stacked_with(piece: Piece, pieces: Sequence[Piece]) -> Piece | None:
    """The other piece of a rider-and-mount stack: the mount under a rider, the rider on a
    mount; None for a piece on its own."""
    if not piece.conditions:  # most pieces, every move: no condition to read
        return None
    return mount_under(piece, pieces) or rider_on(piece, pieces)


def stack_disc(piece: Piece, partner: Piece | None) -> Piece:
    """The disc a piece moves and stands as: its own, or with a piece stacked on it or under it
    (a rider and its mount move as one) widened about its centre to cover that one too, and no
    flier (the two land on no rune on top of an obstacle)."""
    if partner is None:
        return piece
    reach = centre_distance(piece.at, partner.at) + partner.radius
    return replace(piece, radius=max(piece.radius, reach), flying=False)


def rune_occupant(pieces: Sequence[Piece], rune: Vec, rune_radius: float) -> str | None:
    """A rune is occupied when any piece overlaps its icon."""
    for piece in pieces:
        if centre_distance(piece.at, rune) < piece.radius + rune_radius - EPSILON:
            return piece.id
    return None


