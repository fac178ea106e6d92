"""Sight without its margins (`look_around(..., margins=False)`, a forecast's quiet runs): the
same answer to who is seen, and the same distance, as the measured look, on random tables and
pieces, under each test; only the margins (inf) and the any-line test's blockers are left out.
The any-line test asks its lines in stages (`any_line_sees`) and must say what asking all 81
at once says."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from automa.geometry.sight import any_line_sees, line_of_sight, look_around
from automa.geometry.table import TableGeometry, build_table, remembering
from automa.model.modes import LosTest
from automa.model.pieces import Piece
from automa.model.playmat import Obstacle, Playmat
from tests.conftest import examples
from tests.test_geometry_fast import LENGTH, WIDTH, pieces, tables


@settings(max_examples=examples(1.0), deadline=None)
@given(tables(), pieces())
def test_any_line_in_stages_says_what_all_lines_say(table: TableGeometry,
                                                    found: tuple[Piece, ...]) -> None:
    for a in found:
        for b in found:
            if a.id != b.id:
                want = line_of_sight(table, a, b, True, LosTest.ANY_LINE).visible
                assert any_line_sees(table, a, b) == want


@settings(max_examples=examples(0.5), deadline=None)
@given(tables(), pieces(), st.sampled_from(list(LosTest)))
def test_an_unmeasured_look_sees_what_a_measured_one_sees(table: TableGeometry,
                                                          found: tuple[Piece, ...],
                                                          test: LosTest) -> None:
    mat = remembering(table)  # both kept in one memo: neither may be read for the other
    for viewer in found:
        measured = look_around(mat, viewer, found, True, test)
        unmeasured = look_around(mat, viewer, found, True, test, margins=False)
        again = look_around(mat, viewer, found, True, test)
        assert again == measured
        assert [(s.target, s.visible, s.distance) for s in unmeasured] == \
            [(s.target, s.visible, s.distance) for s in measured]
        if test != LosTest.CORRIDOR:  # the corridor has no other way: it is measured
            assert all(s.margin == math.inf for s in unmeasured)
        if test == LosTest.CENTRE_LINE:
            assert [s.blockers for s in unmeasured] == [s.blockers for s in measured]


def test_a_line_between_the_outer_ones_may_be_the_only_clear_one() -> None:
    """Five small posts across the middle block the centre line and every line between the
    discs' middle and outer points (each crosses the posts' row at one of five spots); a line
    from a point between sees through: the last stage must be asked."""
    posts = tuple(Obstacle(f"post{i}", circle=(x, 40.0, 0.3))
                  for i, x in enumerate((27.5, 28.75, 30.0, 31.25, 32.5)))
    table = build_table(Playmat("t", "T", WIDTH, LENGTH, 12.0, 75.0, posts, {}, 1.5, "test"))
    a = Piece("a", "ai", "monster", (30.0, 20.0), 2.5, 3)
    b = Piece("b", "heroes", "hero", (30.0, 60.0), 2.5, 3)
    assert not line_of_sight(table, a, b, True, LosTest.CENTRE_LINE).visible
    assert line_of_sight(table, a, b, True, LosTest.ANY_LINE).visible
    assert any_line_sees(table, a, b)
