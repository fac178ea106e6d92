"""Zones, runes and setup spots: what the Red Box's setup and rune rules measure."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import Point

from automa.catalog.load import Catalog
from automa.engine.battle import Battle, StepLog, Table
from automa.engine.chance import Chance
from automa.engine.movement import climb_down, to_random_rune
from automa.geometry.table import build_table
from automa.geometry.zones import (
    Spot,
    back_edge_centre,
    behind_obstacles,
    monster_zone_runes,
    quadrant_problems,
    runes_of,
    within_triangle,
    zone_corners,
    zone_of,
)
from automa.model.pieces import Piece
from automa.model.playmat import Obstacle, Playmat
from automa.model.scenario import ChanceScript
from automa.rules.tiles import in_tile_order
from tests.conftest import scenario_from

OBSTACLES = (
    Obstacle("A", ((10.0, 40.0), (14.0, 40.0), (14.0, 44.0), (10.0, 44.0)), rune=7),
    Obstacle("B", circle=(45.0, 50.0, 3.0), rune=8),
)
MAT = Playmat("test", "Test", 60.0, 90.0, 12.0, 75.0, OBSTACLES,
              {1: (8.0, 80.0), 2: (30.0, 85.0), 3: (52.0, 80.0), 4: (30.0, 40.0)}, 1.5, "house")
TABLE = build_table(MAT)


def disc(piece_id: str, x: float, y: float, **extra: object) -> Piece:
    return Piece(piece_id, "ai", "monster", (x, y), 1.25, 1, family="vermin", level=1,
                 **extra)  # type: ignore[arg-type]


def _at(spot: Spot) -> tuple[float, float]:
    return spot.at


def test_sticker_runes_sit_on_their_obstacles() -> None:
    runes = runes_of(TABLE)
    assert runes[7].on_obstacle == "A" and runes[7].at == pytest.approx((12.0, 42.0))
    assert runes[1].on_obstacle is None


def test_zone_membership_by_centre() -> None:
    assert zone_of(MAT, (30, 5)) == "hero"
    assert zone_of(MAT, (30, 80)) == "monster"
    assert zone_of(MAT, (30, 50)) is None


@pytest.mark.parametrize(
    ("green", "order"),
    [("left-to-right", ["rune 3", "rune 2", "rune 1"]),
     ("right-to-left", ["rune 1", "rune 2", "rune 3"])],
)
def test_monster_zone_runes_scanned_along_the_green_tile(green: str, order: list[str]) -> None:
    """Setup 1: vacant Monster Start Zone runes from the edge the green tile starts at (its left
    is the mat's high x, seen from the Monster Start Zone)."""
    spots = in_tile_order(monster_zone_runes(TABLE, []), (green, "msz-to-hsz"), _at)
    assert [s.where for s in spots] == order


def test_occupied_runes_are_skipped() -> None:
    spots = in_tile_order(monster_zone_runes(TABLE, [disc("rat", 30.5, 85.0)]),
                          ("left-to-right", "msz-to-hsz"), _at)
    assert [s.where for s in spots] == ["rune 3", "rune 1"]


def test_behind_each_obstacle_touches_its_far_side() -> None:
    """Setup 2: directly behind each obstacle, opposite the Hero Start Zone."""
    spots = in_tile_order(behind_obstacles(TABLE, disc("m", 0, 0)),
                          ("left-to-right", "msz-to-hsz"), _at)
    assert [s.where for s in spots] == ["behind obstacle B", "behind obstacle A"]
    assert spots[0].at == pytest.approx((45.0, 53.0 + 1.25), abs=0.01)
    assert spots[1].at == pytest.approx((12.0, 44.0 + 1.25), abs=0.01)


def test_corners_then_back_edge_centre() -> None:
    """Setup 3 and 4: the zone's corners in the green tile's order, then the back-edge centre."""
    corners = in_tile_order(zone_corners(MAT, disc("m", 0, 0)), ("right-to-left", "msz-to-hsz"),
                            _at)
    assert corners[0].at == pytest.approx((1.25, 88.75))
    assert back_edge_centre(MAT, disc("m", 0, 0)).at == pytest.approx((30.0, 88.75))


def test_scorched_earth_needs_the_whole_disc_inside() -> None:
    corners = ((0.0, 0.0), (40.0, 0.0), (0.0, 40.0))
    assert within_triangle(corners, disc("in", 10, 10)) == (True, pytest.approx(8.75))
    inside, margin = within_triangle(corners, disc("edge", 10, 0.5))
    assert not inside and margin == pytest.approx(0.75)


# Random rune moves -----------------------------------------------------------------------------


def table_for(catalog: Catalog, d: tuple[int, ...] = (), rune: tuple[int, ...] = (),
              location: tuple[int, ...] = ()) -> Table:
    scenario = scenario_from('format = 1\n[battle]\nplaymat = "inline"\n', catalog)
    chance = Chance(ChanceScript(None, d, rune, location), np.random.default_rng(0))
    return Table(scenario, catalog, TABLE, chance)


def test_random_rune_occupied_means_nothing_happens(catalog: Catalog) -> None:
    mover, sitter = disc("m", 30, 60), disc("s", 8.5, 80.0)
    battle = Battle((mover, sitter), {}, {})
    log = StepLog()
    after = to_random_rune(table_for(catalog, rune=(1,)), battle, log, "m")
    assert after.piece("m").at == (30, 60)
    assert "occupied by s" in log.steps[-1].result  # type: ignore[union-attr]


def test_random_rune_moves_onto_a_free_rune(catalog: Catalog) -> None:
    battle = Battle((disc("m", 30, 60),), {}, {})
    after = to_random_rune(table_for(catalog, rune=(2,)), battle, StepLog(), "m")
    assert after.piece("m").at == pytest.approx((30.0, 85.0))


def test_a_flier_rolls_both_dice_and_may_land_on_an_obstacle(catalog: Catalog) -> None:
    """Flying characters roll the Rune Die and the Location Die; if the Rune Die's rune is taken
    they go to the other, here the sticker rune 7 on top of obstacle A."""
    flier, sitter = disc("bat", 30, 60, flying=True), disc("s", 8.0, 80.0)
    battle = Battle((flier, sitter), {}, {})
    after = to_random_rune(table_for(catalog, rune=(1,), location=(7,)), battle, StepLog(), "bat")
    assert "aloft" in after.piece("bat").conditions
    assert after.piece("bat").at == pytest.approx((12.0, 42.0))
    down = climb_down(table_for(catalog), after, StepLog(), "bat")
    landed = down.piece("bat")
    assert "aloft" not in landed.conditions
    gap = TABLE.obstacles[0].polygon.distance(Point(landed.at))
    assert landed.radius - 1e-6 <= gap <= landed.radius + 2.5


def test_quadrant_rule_for_castle_obstacles() -> None:
    """Catacombs & Castles: at most two per quadrant, none doubled while one is empty."""
    from msgspec.structs import replace

    crowded = replace(MAT, obstacles=tuple(
        Obstacle(c, circle=(10.0 + i, 10.0 + 2 * i, 0.5)) for i, c in enumerate("ABC")))
    problems = quadrant_problems(build_table(crowded))
    assert any("at most two" in p for p in problems)
    assert quadrant_problems(TABLE) == []  # one obstacle in each of two quadrants
    doubled = replace(MAT, obstacles=(*OBSTACLES, Obstacle("C", circle=(5.0, 5.0, 1.0))))
    assert quadrant_problems(build_table(doubled)) == [
        "a quadrant has two obstacles while another has none"]
