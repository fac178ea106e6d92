"""The sweep's measures in plain floats (automa.geometry.contacts) are numpy's to the bit: the
same first contact with each disc and each polygon, zeros signed alike, for one row as for
many (numpy's product of rows rounds as fused multiply-adds, one row otherwise than several)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from automa.geometry.contacts import disc_contact, fused, polygon_contact
from automa.geometry.table import TableGeometry
from tests.test_geometry_fast import (
    numpy_contact_with_discs,
    numpy_contact_with_edges,
    numpy_polygon_edges,
    tables,
)

# no underflow (the product's error must be a float): any size a mat's figures have, and more
sized = st.one_of(st.just(0.0), st.floats(1e-100, 1e6), st.floats(-1e6, -1e-100))
on_mat = st.floats(-5.0, 95.0)
radius = st.floats(0.0, 6.0)
angle = st.floats(0.0, 2 * math.pi)


def same(a: float, b: float) -> bool:
    """The very same float: equal, and a zero of the same sign."""
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


@settings(max_examples=2000, deadline=None)
@given(sized, sized, sized)
def test_fused_rounds_the_exact_product_and_sum_once(a: float, b: float, c: float) -> None:
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    assert fused(a, b, c) == float(exact)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(on_mat, on_mat), min_size=1, max_size=12), angle)
def test_numpys_product_of_rows_is_the_fused_one_this_module_copies(
        rows: list[tuple[float, float]], turn: float) -> None:
    """The premise: on this machine numpy's `rows @ u` fuses each row's multiply-add, the one
    row of a single-row product the other way round (if this fails, numpy or the BLAS under it
    rounds otherwise here, and contacts.py must follow)."""
    u = (math.cos(turn), math.sin(turn))
    got = (np.array(rows, dtype=float) @ np.array(u)).tolist()
    if len(rows) == 1:
        (x, y), = rows
        assert got == [fused(y, u[1], x * u[0])]
    else:
        assert got == [fused(x, u[0], y * u[1]) for x, y in rows]


@st.composite
def discs_ahead(draw: st.DrawFn) -> tuple[tuple[float, float], tuple[float, float], float,
                                          list[tuple[float, float, float]]]:
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


@settings(max_examples=1000, deadline=None)
@given(discs_ahead())
def test_disc_contacts_are_numpys(case: tuple[tuple[float, float], tuple[float, float], float,
                                             list[tuple[float, float, float]]]) -> None:
    start, u, mover, fixed = case
    expected = numpy_contact_with_discs(
        np.array(start), np.array(u), mover, np.array([f[:2] for f in fixed], dtype=float),
        np.array([f[2] for f in fixed], dtype=float)).tolist()
    got = [disc_contact(start, u, mover, (x, y), other, single=len(fixed) == 1)
           for x, y, other in fixed]
    assert all(same(a, b) for a, b in zip(got, expected, strict=True)), (got, expected)


@settings(max_examples=500, deadline=None)
@given(tables(), on_mat, on_mat, angle, st.floats(0.5, 3.0))
def test_polygon_contacts_are_numpys(table: TableGeometry, x: float, y: float, turn: float,
                                     mover: float) -> None:
    """Each polygon's first contact, the least over its edges as numpy's `minimum.reduceat`."""
    u = (math.cos(turn), math.sin(turn))
    for rank, edges in enumerate(numpy_polygon_edges(table)):
        per_edge = numpy_contact_with_edges(np.array([x, y]), np.array(u), mover, edges)
        expected = float(np.minimum.reduceat(per_edge, [0])[0])
        got = polygon_contact((x, y), u, mover, table.polygon_edge_rows[rank])
        assert same(got, expected), (got, expected)
