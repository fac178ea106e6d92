"""The ring of spots round a target (geometry/ring.py): an arc left out as surely taken holds
only spots the exact check refuses, so a rush ends on the same spot as when every spot was
checked."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automa.geometry import moves
from automa.geometry.moves import legal_mask
from automa.geometry.ring import RING_SAMPLES, ring_spots, surely_taken
from automa.geometry.spots import growing_chunks
from automa.geometry.table import TableGeometry
from automa.model.pieces import Piece
from tests.conftest import examples
from tests.test_geometry_fast import tables

# Each example here is microseconds of plain arithmetic held to numpy's or shapely's answer,
# so these properties run several times the profile's examples (`examples`).

# a crowd round a target in the middle of the mat, in millimetres (pieces meet each other)
near_target = st.tuples(st.integers(150, 450).map(lambda mm: mm / 10),
                        st.integers(250, 650).map(lambda mm: mm / 10))


@st.composite
def crowds(draw: st.DrawFn) -> tuple[Piece, ...]:
    count = draw(st.integers(2, 10))
    return tuple(Piece(f"p{i}", "ai", "monster", draw(near_target),
                       draw(st.sampled_from([1.0, 1.25, 1.5, 2.5])), 3) for i in range(count))


def every_spot_checked(table: TableGeometry, pieces: tuple[Piece, ...], mover: Piece,
                       target: Piece, desired: tuple[float, float], length: float
                       ) -> tuple[float, float] | None:
    """`_ring_spot` as it was before the arcs: every spot within reach checked, nearest first."""
    reach = (mover.radius + target.radius) * (1 + 1e-9) + 1e-7
    spots = ring_spots(target.at, reach)
    near = np.hypot(spots[:, 0] - mover.at[0], spots[:, 1] - mover.at[1]) <= length
    gaps = np.hypot(spots[:, 0] - desired[0], spots[:, 1] - desired[1])
    order = np.argsort(gaps, kind="stable")
    order = order[near[order]]
    for chunk in growing_chunks(order, 32):
        legal = legal_mask(table, pieces, mover, spots[chunk])
        if legal.any():
            best = int(chunk[int(np.argmax(legal))])
            return (float(spots[best, 0]), float(spots[best, 1]))
    return None


@settings(max_examples=examples(6))
@given(tables(), crowds(), st.integers(0, 9), st.integers(0, 9))
def test_a_spot_surely_taken_is_refused_by_the_exact_check(
        table: TableGeometry, crowd: tuple[Piece, ...], which: int, whom: int) -> None:
    mover, target = crowd[which % len(crowd)], crowd[whom % len(crowd)]
    if mover.id == target.id:
        return
    reach = (mover.radius + target.radius) * (1 + 1e-9) + 1e-7
    spots = ring_spots(target.at, reach)
    taken = surely_taken(target.at, reach, moves._keeping_off(table, crowd, mover))
    assert not (taken & legal_mask(table, crowd, mover, spots)).any()


@settings(max_examples=examples(6))
@given(tables(), crowds(), st.integers(0, 9), st.integers(0, 9), st.floats(0.0, 2 * math.pi),
       st.floats(2.0, 30.0))
def test_the_ring_spot_is_the_one_every_spot_checked_finds(
        table: TableGeometry, crowd: tuple[Piece, ...], which: int, whom: int, turn: float,
        length: float) -> None:
    mover, target = crowd[which % len(crowd)], crowd[whom % len(crowd)]
    if mover.id == target.id:
        return
    desired = (target.at[0] + 3 * math.cos(turn), target.at[1] + 3 * math.sin(turn))
    assert moves._ring_spot(table, crowd, mover, target, desired, length) == \
        every_spot_checked(table, crowd, mover, target, desired, length)


def test_a_disc_on_the_ring_takes_the_arc_round_it_and_no_more() -> None:
    """A disc of reach 1 centred on the ring (radius 5, round the origin) at angle 0 covers the
    spots within about 2 * asin(1 / 10) = 0.2 radians each side: across angle 0, both ends."""
    taken = surely_taken((0.0, 0.0), 5.0, [(5.0, 0.0, 1.0)])
    step = 2 * math.pi / RING_SAMPLES
    half = 2 * math.asin(1.0 / 10.0)
    angles = np.arange(RING_SAMPLES) * step
    away = np.minimum(angles, 2 * math.pi - angles)  # from angle 0, either way round
    assert taken[away < half - 1e-6].all()
    assert not taken[away > half + 1e-6].any()
    assert taken[0] and taken[-1]


def test_a_disc_round_the_whole_ring_takes_all_and_one_beside_it_none() -> None:
    assert surely_taken((10.0, 10.0), 2.0, [(10.5, 10.0, 4.0)]).all()
    assert not surely_taken((10.0, 10.0), 2.0, [(20.0, 10.0, 3.0)]).any()
    assert not surely_taken((10.0, 10.0), 2.0, [(10.0, 10.0, 1.0)]).any()  # inside the ring
