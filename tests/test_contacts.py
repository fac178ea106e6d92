"""The sweep's measures in plain floats (automa.geometry.contacts) against the numpy code they
replaced (tests/test_geometry_fast.py keeps it): the same first contact with each disc and each
polygon, within a millionth of a centimetre. The two round differently (numpy's product of rows
goes to the BLAS, which may fuse each multiply-add), so a path that only grazes a disc may meet
it on one side and pass it on the other: there any figure touches to within the tolerance."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automa.geometry.contacts import disc_contact, polygon_contact
from automa.geometry.table import TableGeometry
from tests.conftest import examples
from tests.test_geometry_fast import (
    TOLERANCE,
    close,
    numpy_contact_with_discs,
    numpy_contact_with_edges,
    numpy_polygon_edges,
    tables,
)

# Each example here is microseconds of plain arithmetic held to numpy's or shapely's answer,
# so these properties run several times the profile's examples (`examples`).

on_mat = st.floats(-5.0, 95.0)
radius = st.floats(0.0, 6.0)
angle = st.floats(0.0, 2 * math.pi)

Case = tuple[tuple[float, float], tuple[float, float], float, list[tuple[float, float, float]]]


@st.composite
def discs_ahead(draw: st.DrawFn) -> Case:
    """A disc moving along u, and fixed discs about its path: some touching, some grazed, some
    behind, some met head on."""
    start = (draw(on_mat), draw(on_mat))
    turn = draw(angle)
    u = (math.cos(turn), math.sin(turn))
    mover = draw(st.floats(0.5, 3.0))
    fixed = []
    for _ in range(draw(st.integers(1, 9))):
        other = draw(radius)
        ahead, aside = draw(st.floats(-10.0, 40.0)), draw(st.floats(-1.2, 1.2))
        reach = mover + other
        if draw(st.booleans()):  # exactly about the path's edge, or touching now
            aside = draw(st.sampled_from([-1.0, 1.0, 0.0])) * (1 + draw(st.floats(-1e-9, 1e-9)))
            ahead = draw(st.sampled_from([ahead, reach, -reach * 0.5]))
        x = start[0] + ahead * u[0] - aside * reach * u[1]
        y = start[1] + ahead * u[1] + aside * reach * u[0]
        fixed.append((x, y, other))
    return start, u, mover, fixed


def grazes(start: tuple[float, float], u: tuple[float, float], reach: float,
           centre: tuple[float, float]) -> bool:
    """Whether the path of a disc passes within the tolerance of just touching a disc `reach`
    from it (centre to centre): where it meets the disc, or whether, turns on the last bits."""
    across = (centre[0] - start[0]) * u[1] - (centre[1] - start[1]) * u[0]
    return abs(abs(across) - reach) <= TOLERANCE


@settings(max_examples=examples(12))
@given(discs_ahead())
def test_disc_contacts_are_numpys(case: Case) -> None:
    start, u, mover, fixed = case
    expected = numpy_contact_with_discs(
        np.array(start), np.array(u), mover, np.array([f[:2] for f in fixed], dtype=float),
        np.array([f[2] for f in fixed], dtype=float)).tolist()
    for (x, y, other), want in zip(fixed, expected, strict=True):
        got = disc_contact(start, u, mover, (x, y), other)
        assert close(got, want) or grazes(start, u, mover + other, (x, y)), (got, want)


@settings(max_examples=examples(8))
@given(tables(), on_mat, on_mat, angle, st.floats(0.5, 3.0))
def test_polygon_contacts_are_numpys(table: TableGeometry, x: float, y: float, turn: float,
                                     mover: float) -> None:
    """Each polygon's first contact, the least over its edges."""
    u = (math.cos(turn), math.sin(turn))
    for rank, edges in enumerate(numpy_polygon_edges(table)):
        expected = float(np.min(numpy_contact_with_edges(np.array([x, y]), np.array(u), mover,
                                                         edges)))
        got = polygon_contact((x, y), u, mover, table.polygon_edge_rows[rank])
        corners = edges[0].tolist()
        assert close(got, expected) or any(grazes((x, y), u, mover, (cx, cy))
                                           for cx, cy in corners), (got, expected)


def test_a_disc_met_head_on_grazed_and_passed() -> None:
    """A disc of reach 2 dead ahead is met at 8 cm; one 2 cm aside is grazed (touched at 10);
    one behind or 3 cm aside never; one touching already and moved toward at 0."""
    assert disc_contact((0.0, 0.0), (1.0, 0.0), 1.0, (10.0, 0.0), 1.0) == 8.0
    assert disc_contact((0.0, 0.0), (1.0, 0.0), 1.0, (10.0, 2.0), 1.0) == 10.0
    assert disc_contact((0.0, 0.0), (1.0, 0.0), 1.0, (-10.0, 0.0), 1.0) == math.inf
    assert disc_contact((0.0, 0.0), (1.0, 0.0), 1.0, (10.0, 3.0), 1.0) == math.inf
    assert disc_contact((0.0, 0.0), (1.0, 0.0), 1.0, (2.0, 0.0), 1.0) == 0.0
