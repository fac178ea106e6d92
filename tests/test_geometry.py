"""The table in shapely: clock faces, line of sight, ruler moves and sweeps (tolerance 1e-6 cm)."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from automa.catalog.load import Catalog
from automa.geometry.moves import nearest_legal_spot, overlap_with, ruler_toward, sweep
from automa.geometry.sight import line_of_sight, look_around
from automa.geometry.table import build_table, centre_distance, edge_distance
from automa.geometry.templates import attack_cover, clock_direction
from automa.model.components import AttackTemplate
from automa.model.pieces import Piece
from automa.model.playmat import Obstacle, Playmat

TOL = 1e-6
SQUARE = Obstacle("A", ((28.0, 40.0), (32.0, 40.0), (32.0, 44.0), (28.0, 44.0)))
MAT = Playmat("test", "Test", 60.0, 90.0, 12.0, 75.0, (SQUARE,), {1: (10.0, 80.0)}, 1.5, "house")
TABLE = build_table(MAT)


def disc(piece_id: str, x: float, y: float, r: float = 1.25, side: str = "ai") -> Piece:
    return Piece(piece_id, side, "monster" if side == "ai" else "hero", (x, y), r, 3)


def close(a: tuple[float, float], b: tuple[float, float], tol: float = 1e-6) -> bool:
    return centre_distance(a, b) < tol


# Clock template ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "direction"),
    [(12, (0.0, -1.0)), (3, (-1.0, 0.0)), (6, (0.0, 1.0)), (9, (1.0, 0.0))],
)
def test_front_clock_faces(catalog: Catalog, face: int, direction: tuple[float, float]) -> None:
    """CONTRACT: face 12 at the Hero Start Zone (-y); 3 to -x, 6 to +y, 9 to +x."""
    reading = clock_direction(TABLE, catalog.components.clock, 6.0, (30.0, 60.0), face)
    assert reading.side == "front" and close(reading.direction, direction)


def test_clock_faces_are_thirty_degrees_apart(catalog: Catalog) -> None:
    directions = [clock_direction(TABLE, catalog.components.clock, 6.0, (30.0, 60.0), f).direction
                  for f in range(1, 13)]
    for a, b in zip(directions, directions[1:] + directions[:1], strict=True):
        angle = math.degrees(math.acos(max(-1.0, min(1.0, a[0] * b[0] + a[1] * b[1]))))
        assert angle == pytest.approx(30.0, abs=1e-6)


def test_at_the_edge_the_reverse_side_points_twelve_at_the_centre(catalog: Catalog) -> None:
    """At the mat edge the template flips; its 12 points at the mat centre."""
    reading = clock_direction(TABLE, catalog.components.clock, 6.0, (2.0, 45.0), 12)
    assert reading.side == "reverse" and close(reading.direction, (1.0, 0.0))


# Line of sight ------------------------------------------------------------------------------------


def test_obstacle_blocks_the_centre_line() -> None:
    sighting = line_of_sight(TABLE, disc("m", 30, 60), disc("h", 30, 20, side="heroes"), True)
    assert not sighting.visible and sighting.blockers == ("A",)
    assert sighting.margin == pytest.approx(2.0)  # shift the line 2 cm sideways to clear it


def test_sight_is_not_blocked_by_default_mode() -> None:
    assert line_of_sight(TABLE, disc("m", 30, 60), disc("h", 30, 20, side="heroes"), False).visible


def test_grazing_an_obstacle_edge_does_not_block() -> None:
    sighting = line_of_sight(TABLE, disc("m", 32, 60), disc("h", 32, 20, side="heroes"), True)
    assert sighting.visible and sighting.margin == pytest.approx(0.0, abs=TOL)


def test_corridor_is_stricter_and_any_line_more_lenient() -> None:
    a, b = disc("m", 33, 60), disc("h", 33, 20, side="heroes")
    assert line_of_sight(TABLE, a, b, True, "centre-line").visible
    assert not line_of_sight(TABLE, a, b, True, "corridor").visible
    c, d = disc("m", 31.5, 60), disc("h", 31.5, 20, side="heroes")
    assert not line_of_sight(TABLE, c, d, True, "centre-line").visible
    assert line_of_sight(TABLE, c, d, True, "any-line").visible


coords = st.floats(2.0, 58.0), st.floats(2.0, 88.0)


@given(*coords, *coords)
def test_line_of_sight_is_symmetric(x1: float, y1: float, x2: float, y2: float) -> None:
    a, b = disc("a", x1, y1), disc("b", x2, y2)
    assume(edge_distance(a, b) > 0)
    assert line_of_sight(TABLE, a, b, True).visible == line_of_sight(TABLE, b, a, True).visible


# Ruler moves -----------------------------------------------------------------------------------


def test_rush_within_reach_ends_touching_the_target() -> None:
    mover, target = disc("m", 10, 60), disc("h", 10, 50, side="heroes")
    move = ruler_toward(TABLE, [mover, target], mover, target.at, target.radius, 15.0, target)
    assert centre_distance(move.end, target.at) == pytest.approx(2.5, abs=1e-5)
    assert move.stopped_by and move.stopped_by.startswith("touching")


def test_rush_out_of_reach_moves_the_full_ruler() -> None:
    mover, target = disc("m", 10, 80), disc("h", 10, 20, side="heroes")
    move = ruler_toward(TABLE, [mover, target], mover, target.at, target.radius, 15.0, target)
    assert close(move.end, (10.0, 65.0))


def test_rush_passes_through_obstacles_but_never_ends_on_one() -> None:
    """AI pieces pass through obstacles while moving; the end spot must still be legal."""
    mover, target = disc("m", 30, 50), disc("h", 30, 10, side="heroes")
    move = ruler_toward(TABLE, [mover, target], mover, target.at, target.radius, 8.0, target)
    assert move.adjusted
    assert overlap_with(TABLE, [target], mover, move.end) is None


def test_sweep_stops_touching_the_first_obstacle() -> None:
    mover = disc("h", 30, 50, side="heroes")
    move = sweep(TABLE, [mover], mover, (0.0, -1.0), 15.0)
    assert move.stopped_by == "obstacle A"
    assert move.end[1] == pytest.approx(44.0 + 1.25, abs=1e-5)


def test_sweep_stops_at_the_mat_edge() -> None:
    mover = disc("h", 5, 60, side="heroes")
    move = sweep(TABLE, [mover], mover, (-1.0, 0.0), 15.0)
    assert move.stopped_by == "the mat edge" and move.end[0] == pytest.approx(1.25, abs=1e-5)


def test_sweep_ignores_a_piece_it_touches_and_moves_away_from() -> None:
    mover, friend = disc("h", 10, 60, side="heroes"), disc("m", 12.5, 60)
    move = sweep(TABLE, [mover, friend], mover, (-1.0, 0.0), 5.0)
    assert move.stopped_by is None and close(move.end, (5.0, 60.0))


def test_sweep_stops_touching_a_piece_ahead() -> None:
    mover, other = disc("h", 10, 60, side="heroes"), disc("m", 10, 66)
    move = sweep(TABLE, [mover, other], mover, (0.0, 1.0), 15.0)
    assert move.stopped_by == "m" and move.end[1] == pytest.approx(63.5, abs=1e-5)


@given(*coords, *coords, st.floats(1.0, 20.0))
def test_ruler_moves_never_end_on_anything(x1: float, y1: float, x2: float, y2: float,
                                           length: float) -> None:
    mover, target = disc("m", x1, y1), disc("t", x2, y2, side="heroes")
    pieces = [mover, target]
    assume(all(overlap_with(TABLE, pieces, p, p.at) is None for p in pieces))
    move = ruler_toward(TABLE, pieces, mover, target.at, target.radius, length, target)
    assert overlap_with(TABLE, pieces, mover, move.end) is None
    assert move.travelled <= length + 1e-6
    if edge_distance(mover, target) <= length and not move.adjusted:
        assert edge_distance(mover.moved(move.end), target) == pytest.approx(0.0, abs=1e-5)


@given(*coords, st.floats(0, 2 * math.pi), st.floats(0.5, 20.0))
def test_sweeps_never_end_on_anything(x: float, y: float, angle: float, length: float) -> None:
    mover, other = disc("m", x, y), disc("o", 30.0, 30.0)
    pieces = [mover, other]
    assume(all(overlap_with(TABLE, pieces, p, p.at) is None for p in pieces))
    move = sweep(TABLE, pieces, mover, (math.cos(angle), math.sin(angle)), length)
    assert overlap_with(TABLE, pieces, mover, move.end) is None
    assert move.travelled <= length + 1e-6


# Attack template --------------------------------------------------------------------------------


def test_attack_template_covers_partly_or_wholly() -> None:
    template = AttackTemplate(4.0)
    attacker = disc("m", 10, 60)
    assert attack_cover(template, 4.0, attacker, disc("h", 10, 65.0, side="heroes")).covers
    miss = attack_cover(template, 4.0, attacker, disc("h", 10, 65.5, side="heroes"))
    assert not miss.covers and miss.margin == pytest.approx(0.25)


@given(st.floats(5.0, 55.0), st.floats(-6.0, 6.0))
def test_shifting_by_the_margin_flips_the_sight_answer(x: float, offset: float) -> None:
    """A sight line's margin is how far it must move sideways to flip: move it by a little less
    and the answer holds, by a little more (one way or the other) and it flips. The line runs
    from y 60 to y 20 past obstacle A (y 40..44), so the obstacle lies beside its middle."""
    a, b = disc("a", x, 60), disc("b", x + offset, 20, side="heroes")
    before = line_of_sight(TABLE, a, b, True)
    assume(0.05 < before.margin < 20)
    length = math.hypot(offset, 40.0)
    normal = (40.0 / length, offset / length)

    def flips(shift: float) -> bool:
        dx, dy = normal[0] * shift, normal[1] * shift
        moved_a = a.moved((a.at[0] + dx, a.at[1] + dy))
        moved_b = b.moved((b.at[0] + dx, b.at[1] + dy))
        return line_of_sight(TABLE, moved_a, moved_b, True).visible != before.visible

    shorter = before.margin - 0.02
    longer = before.margin + 0.02
    assert not flips(shorter) and not flips(-shorter)
    assert flips(longer) or flips(-longer)


def test_worked_case_diagonal_rush() -> None:
    """Drawn on paper: from (10, 70) toward (40, 30), 50 cm apart; Ruler 3 (15 cm) moves the
    centre 15 cm along the 3-4-5 line, to (19, 58)."""
    mover, target = disc("m", 10, 70), disc("h", 40, 30, side="heroes")
    move = ruler_toward(TABLE, [mover, target], mover, target.at, target.radius, 15.0, target)
    assert close(move.end, (19.0, 58.0), 1e-9)


def test_worked_case_push_into_a_corner_of_obstacle_a() -> None:
    """Drawn on paper: a disc of radius 1.25 at (26, 38) pushed toward +x+y at 45 degrees meets
    obstacle A's corner (28, 40) when its centre is 1.25 cm from it: t = sqrt(8) - 1.25."""
    mover = disc("h", 26, 38, side="heroes")
    move = sweep(TABLE, [mover], mover, (1.0, 1.0), 15.0)
    travelled = math.sqrt(8) - 1.25
    assert move.stopped_by == "obstacle A"
    assert close(move.end, (26 + travelled / math.sqrt(2), 38 + travelled / math.sqrt(2)), 1e-5)


@given(st.lists(st.tuples(*coords), min_size=1, max_size=6))
def test_the_vectorised_360_check_agrees_with_one_by_one(points: list[tuple[float, float]]
                                                          ) -> None:
    viewer = disc("v", 30.0, 70.0)
    others = [disc(f"t{i}", x, y, side="heroes") for i, (x, y) in enumerate(points)]
    assume(all(edge_distance(viewer, o) > 0 for o in others))
    at_once = {s.target: s for s in look_around(TABLE, viewer, others, True)}
    for other in others:
        single = line_of_sight(TABLE, viewer, other, True)
        assert at_once[other.id].visible == single.visible
        assert at_once[other.id].margin == pytest.approx(single.margin, abs=1e-9)


@given(st.lists(st.tuples(*coords), min_size=1, max_size=8), *coords)
def test_the_nearest_legal_spot_is_always_legal(crowd: list[tuple[float, float]], x: float,
                                                y: float) -> None:
    """Wherever a move would end, the piece is placed where it lies flat: on the mat, on no
    obstacle, on no other piece."""
    others: list[Piece] = []
    for i, (cx, cy) in enumerate(crowd):
        candidate = disc(f"p{i}", cx, cy)
        if overlap_with(TABLE, others, candidate, candidate.at) is None:
            others.append(candidate)
    mover = disc("m", x, y)
    spot = nearest_legal_spot(TABLE, others, mover, (x, y))
    assert overlap_with(TABLE, others, mover, spot) is None
