"""Pieces on top of something: a rider on its mount or wild wyvern, a flier on an obstacle; and
the Cave of the Keystone's two rune dice. The goldens 95-99 show the printout; these tests read
the positions, conditions and steps from the JSON, where a printout could hide them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.engine.battle import Battle, StepLog, Table
from automa.engine.chance import Chance
from automa.engine.movement import to_random_rune
from automa.engine.steps import RollStep
from automa.errors import ScenarioError
from automa.geometry.table import build_table
from automa.model.pieces import Piece
from automa.model.scenario import ChanceScript
from automa.scenario.load import load_scenario
from automa.scenario.save import save_scenario
from tests.conftest import scenario_from
from tests.regenerate_playthroughs import PLAYTHROUGHS, run_scenario


def turn(name: str) -> dict[str, Any]:
    path = next(PLAYTHROUGHS.glob(f"{name}-*.toml"))
    run = run_scenario(path, as_json=True)
    assert run.exit_code == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout)
    return data


def steps_of(data: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [s for a in data["activations"] for s in a["steps"] if s["kind"] == kind]


# Riders ----------------------------------------------------------------------------------------


def test_a_monster_that_reaches_a_wild_wyvern_rides_on_top_of_it() -> None:
    data = turn("95")
    pieces = data["pieces"]
    assert data["activations"][0]["target"] == "wyvern"
    assert pieces["scorpion-1"]["at"] == pieces["wyvern"]["at"] == [45.0, 70.0]
    assert pieces["scorpion-1"]["conditions"] == ["riding"]
    assert pieces["wyvern"]["conditions"] == ["ridden"]
    assert not steps_of(data, "token") and pieces["elf"]["health"] == 6


def test_a_pushed_rider_is_knocked_off_and_only_the_rider_moves() -> None:
    data = turn("96")
    knight, horse = data["pieces"]["knight"], data["pieces"]["horse"]
    assert knight["at"] == [15.0, 30.0] and knight["health"] == 8
    assert horse["at"] == [30.0, 30.0] and horse["health"] == 4
    assert "conditions" not in knight and "conditions" not in horse
    assert [m["piece"] for m in steps_of(data, "move")] == ["skeleton-1", "knight"]


def test_a_wild_wyvern_whose_rider_is_knocked_off_can_be_ridden_again() -> None:
    data = turn("96b")
    pieces = data["pieces"]
    assert [a["target"] for a in data["activations"]] == ["barbarian", "wyvern"]
    assert "conditions" not in pieces["barbarian"]
    assert pieces["centaur-1"]["at"] == pieces["wyvern"]["at"] == [30.0, 30.0]
    assert pieces["centaur-1"]["conditions"] == ["riding"]
    assert pieces["wyvern"]["conditions"] == ["ridden"]


STACK = """format = 1
[battle]
playmat = "inline"
[[piece]]
id = "knight"
side = "heroes"
at = [30.0, 30.0]
health = 9
conditions = {rider}
[[piece]]
id = "horse"
side = "heroes"
kind = "mount"
at = [30.5, 30.0]
radius = 2.0
health = 4
conditions = {mount}
"""


def test_a_rider_may_stand_on_its_mount(catalog: Catalog) -> None:
    scenario = scenario_from(STACK.format(rider='["riding"]', mount='["ridden"]'), catalog)
    assert {p.id for p in scenario.pieces} == {"knight", "horse"}


@pytest.mark.parametrize(("rider", "mount"), [("[]", '["ridden"]'), ('["riding"]', "[]"),
                                              ("[]", "[]")])
def test_pieces_that_are_not_rider_and_mount_may_not_overlap(catalog: Catalog, rider: str,
                                                             mount: str) -> None:
    with pytest.raises(ScenarioError, match="overlaps piece"):
        scenario_from(STACK.format(rider=rider, mount=mount), catalog)


@pytest.mark.parametrize("leaving", ["horse", "knight"])
def test_when_a_mount_or_its_rider_leaves_play_the_other_is_unseated_and_saves(
        tmp_path: Path, catalog: Catalog, leaving: str) -> None:
    """The one left stays where it stands, no longer riding (or ridden): a scenario saved
    after (`turn --save`) loads again, as a rider with no mount under it is refused."""
    scenario = scenario_from(STACK.format(rider='["riding"]', mount='["ridden"]'), catalog)
    battle = Battle(scenario.pieces, scenario.bags, scenario.out).without(leaving, "dead")
    (left,) = battle.pieces
    assert left.conditions == frozenset() and left.at == scenario.pieces[
        0 if leaving == "horse" else 1].at
    path = tmp_path / "after.toml"
    save_scenario(replace(scenario, pieces=battle.pieces, out=battle.out), path)
    assert [p.id for p in load_scenario(path, catalog).pieces] == [left.id]


def test_a_saved_turn_with_a_rider_on_its_wyvern_loads_again(tmp_path: Path,
                                                              catalog: Catalog) -> None:
    saved = tmp_path / "next.toml"
    path = next(PLAYTHROUGHS.glob("95-*.toml"))
    result = CliRunner().invoke(cli, ["turn", str(path), "--seed", "1", "--save", str(saved)])
    assert result.exit_code == 0, result.output
    pieces = {p.id: p for p in load_scenario(saved, catalog).pieces}
    assert pieces["scorpion-1"].at == pieces["wyvern"].at


# On top of an obstacle -------------------------------------------------------------------------


def test_on_top_of_an_obstacle_the_attack_template_does_not_reach() -> None:
    data = turn("97")
    assert not steps_of(data, "token") and not steps_of(data, "attack")
    assert data["pieces"]["elf"] == {**data["pieces"]["elf"], "at": [30.0, 30.0], "health": 5,
                                     "conditions": ["aloft"]}


def test_on_top_of_an_obstacle_a_ranged_hit_lands_but_the_clock_does_not_move() -> None:
    data = turn("97b")
    assert [t["value"] for t in steps_of(data, "token")] == [1]
    assert not [r for r in steps_of(data, "roll") if r["die"] == "d12"]
    elf = data["pieces"]["elf"]
    assert elf["at"] == [30.0, 30.0] and elf["health"] == 4 and elf["conditions"] == ["aloft"]
    assert any("Clock template" in rule for a in data["activations"] for rule in a["house_rules"])


def test_on_top_of_an_obstacle_the_boomerangs_ruler_passes_over() -> None:
    data = turn("97c")
    assert len(steps_of(data, "token")) == 1  # the Elf's; none for the Wizard beneath the ruler
    assert data["pieces"]["wizard"]["health"] == 7


# The Cave of the Keystone's two dice ------------------------------------------------------------


def keystone(catalog: Catalog, rune: int, location: int) -> Table:
    scenario = scenario_from('format = 1\n[battle]\nplaymat = "cave-of-the-keystone"\n', catalog,
                             inline_mat=False)
    chance = Chance(ChanceScript(None, (), (rune,), (location,)), np.random.default_rng(0))
    return Table(scenario, catalog, build_table(scenario.playmat), chance)


def piece(piece_id: str, at: tuple[float, float]) -> Piece:
    return Piece(piece_id, "ai", "monster", at, 1.25, 1, family="undead", level=1)


def test_keystone_two_free_runes_the_rune_die_is_taken_under_a_house_rule(
        catalog: Catalog) -> None:
    battle = Battle((piece("m", (30.0, 60.0)),), {}, {})
    log = StepLog()
    after = to_random_rune(keystone(catalog, 4, 10), battle, log, "m")
    assert after.piece("m").at == (20.0, 38.0)  # rune 4
    assert [s.die for s in log.steps if isinstance(s, RollStep)] == ["rune", "location"]
    assert [r.number for r in log.rulings] == [26]


def test_keystone_rune_die_taken_means_the_location_die_and_no_house_rule(
        catalog: Catalog) -> None:
    battle = Battle((piece("m", (30.0, 60.0)), piece("s", (20.0, 38.0))), {}, {})
    log = StepLog()
    after = to_random_rune(keystone(catalog, 4, 10), battle, log, "m")
    assert after.piece("m").at == (50.0, 64.0)  # rune 10
    assert log.rulings == []


def test_keystone_standing_on_the_rune_die_rune_means_the_location_die(catalog: Catalog) -> None:
    battle = Battle((piece("m", (20.0, 38.0)),), {}, {})
    after = to_random_rune(keystone(catalog, 4, 10), battle, StepLog(), "m")
    assert after.piece("m").at == (50.0, 64.0)
