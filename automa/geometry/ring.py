"""The ring of spots round a target where a rushing piece may end touching it, and the arcs of it
that other discs surely take.

A rush whose direct spot is taken ends on the legal spot of the ring nearest where it meant to
stop (moves._ring_spot): RING_SAMPLES spots evenly round the target. Checking them nearest first
finds the answer deep in the order when others crowd the target, so the arcs that a disc surely
covers are worked out first, from the law of cosines, and those spots are not checked at all:
a spot is left out only when it lies nearer the disc's centre than the disc's reach by MARGIN
(far more than any rounding of the spot or of the check), so it would fail the check, and the
first legal spot is the same.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # for annotations only: numpy.typing costs a turn's start a millisecond
    from numpy.typing import NDArray

RING_SAMPLES = 720  # candidate spots around a target when the direct touching spot is taken
RING_ANGLES = np.linspace(0.0, 2 * np.pi, RING_SAMPLES, endpoint=False)  # k times STEP, exactly
STEP = 2 * math.pi / RING_SAMPLES
RING_COS, RING_SIN = np.cos(RING_ANGLES), np.sin(RING_ANGLES)  # the same on every call
RING_COS.flags.writeable = RING_SIN.flags.writeable = False
MARGIN = 1e-7  # cm: a spot this much nearer a disc's centre than its reach is surely in it
ANGLE_SLACK = 1e-9  # radians off each end of an arc, for the rounding of its angles

Disc = tuple[float, float, float]  # a centre (x, y), and the reach a spot must keep from it


def ring_spots(centre: tuple[float, float], radius: float) -> NDArray[np.float64]:
    """The RING_SAMPLES spots at `radius` round `centre`, from angle 0 counter-clockwise."""
    return np.column_stack([centre[0] + radius * RING_COS, centre[1] + radius * RING_SIN])


def surely_taken(centre: tuple[float, float], radius: float, discs: Iterable[Disc]
                 ) -> NDArray[np.bool_]:
    """Which ring spots (`ring_spots(centre, radius)`) lie nearer than its reach, by more than
    MARGIN, to some disc's centre."""
    taken = np.zeros(RING_SAMPLES, dtype=bool)
    cx, cy = centre
    for x, y, reach in discs:
        inner = reach - MARGIN
        if inner <= 0.0:
            continue
        away = math.hypot(x - cx, y - cy)
        if away + radius < inner:  # the whole ring lies inside the disc's reach
            taken[:] = True
            return taken
        if away == 0.0 or away >= radius + inner or radius >= away + inner:
            continue  # the ring passes wholly outside (or round) it
        cos_half = (radius * radius + away * away - inner * inner) / (2.0 * radius * away)
        if not -1.0 < cos_half < 1.0:
            continue
        half = math.acos(cos_half) - ANGLE_SLACK
        if half <= 0.0:
            continue
        middle = math.atan2(y - cy, x - cx)
        _take_arc(taken, middle - half, middle + half)
    return taken


def _take_arc(taken: NDArray[np.bool_], low: float, high: float) -> None:
    """Mark the spots whose angle lies within [low, high] (radians, any turn)."""
    first, last = math.ceil(low / STEP), math.floor(high / STEP)
    if last < first:
        return
    if last - first + 1 >= RING_SAMPLES:
        taken[:] = True
        return
    start, stop = first % RING_SAMPLES, last % RING_SAMPLES
    if start <= stop:
        taken[start:stop + 1] = True
    else:  # across angle 0
        taken[start:] = True
        taken[:stop + 1] = True
