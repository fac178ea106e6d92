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
from automa.session.store import Session
from tests.conftest import OPEN_MAT, new_session, play_lines, scenario_from
from tests.regenerate_playthroughs import PLAYTHROUGHS, run_scenario
from tests.test_engine import HEAD
from tests.test_engine import piece as piece_text
from tests.test_engine import turn as engine_turn


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


# A rider and its mount move as one (docs/rulings.md 72) ---------------------------------------


def test_a_rider_rushing_carries_its_wild_wyvern() -> None:
    """The rush and the melee's rush move the wyvern with the scorpion on top, as the wider
    disc (the wyvern's edge ends touching the Elf); both stay marked."""
    data = turn("95c")
    pieces = data["pieces"]
    assert pieces["scorpion-1"]["at"] == pieces["wyvern"]["at"] == [31.83, 50.69]
    assert pieces["scorpion-1"]["conditions"] == ["riding"]
    assert pieces["wyvern"]["conditions"] == ["ridden"]
    moves = steps_of(data, "move")
    assert [m["piece"] for m in moves] == ["scorpion-1", "wyvern", "scorpion-1", "wyvern"]
    assert [m["to"] for m in moves[1::2]] == [m["to"] for m in moves[::2]]
    assert 72 in data["activations"][0]["rulings"]


def test_a_pushed_mount_carries_its_rider() -> None:
    """The Clock template on the Warhorse: the Knight on top goes along, still riding (only a
    rider who is pushed is knocked off)."""
    data = turn("96c")
    knight, horse = data["pieces"]["knight"], data["pieces"]["horse"]
    assert knight["at"] == horse["at"] == [15.0, 30.0]
    assert knight["conditions"] == ["riding"] and horse["conditions"] == ["ridden"]
    assert knight["health"] == 4 and horse["health"] == 8
    assert [m["piece"] for m in steps_of(data, "move")] == ["skeleton-1", "horse", "knight"]


def ridden_horse(health: int) -> str:
    """The Knight (`health`) riding his Warhorse (1 health), both at (30, 30)."""
    return piece_text("knight", "heroes", (30, 30), health=health, conditions=["riding"]) \
        + piece_text("horse", "heroes", (30, 30), kind="mount", radius=2.0, health=1,
                     conditions=["ridden"])


@pytest.mark.parametrize(("health", "shot", "tokens", "knight"), [
    (1, "melee", '1 = ["1"]', None),
    (9, "devour", '2 = ["1"]', "devoured"),
    (9, "portal-trap", '1 = ["1"]', "teleported"),
])
def test_a_rider_leaving_the_mat_leaves_its_mount_where_it_stands(
        catalog: Catalog, health: int, shot: str, tokens: str, knight: str | None) -> None:
    """Killed, devoured or teleported, the Knight leaves the Warhorse on the mat, no longer
    ridden (and rides nothing on the card)."""
    text = ridden_horse(health) \
        + piece_text("beast", "ai", (30, 36), family="vermin", level=4, health=5,
                     sequences=[shot]) \
        + f"[chance]\nd12 = [1]\ntokens = {{ {tokens} }}\n"
    result = engine_turn(catalog, text)
    horse = result.battle.piece("horse")
    assert horse.at == (30.0, 30.0) and not horse.conditions
    rider = result.battle.get("knight")
    assert (rider is None) == (knight is None)
    assert rider is None or rider.conditions == {knight}
    assert 72 in [r.number for r in result.activations[0].rulings]


def test_a_rider_already_riding_looks_for_no_other_wild_wyvern(catalog: Catalog) -> None:
    """Advanced Target Selection 3 offers a free wild wyvern nearer than the Elf: the scorpion
    riding one already goes for the Elf, its wyvern under it."""
    text = "advanced_targeting = true\n" \
        + piece_text("elf", "heroes", (30, 30), health=6) \
        + piece_text("free", "neutral", (40, 60), kind="wild-wyvern", radius=2.0) \
        + piece_text("ridden", "neutral", (30, 60), kind="wild-wyvern", radius=2.0,
                     conditions=["ridden"]) \
        + piece_text("scorpion", "ai", (30, 60), monster="giant-scorpion",
                     conditions=["riding"]) \
        + '[chance]\ntokens = { 3 = ["0"] }\n'
    result = engine_turn(catalog, text)
    activation = result.activations[0]
    assert activation.target == "elf"
    assert result.battle.piece("scorpion").at == result.battle.piece("ridden").at
    assert not result.battle.piece("free").conditions
    assert "rides already" in next(r.text for r in activation.rulings if r.number == 72)


def test_a_rider_moving_to_a_rune_lands_there_with_its_mount(catalog: Catalog) -> None:
    text = piece_text("elf", "heroes", (30, 10), health=6) \
        + piece_text("wyvern", "neutral", (30, 30), kind="wild-wyvern", radius=2.0,
                     conditions=["ridden"]) \
        + piece_text("orc", "ai", (30, 30), monster="orc", sequences=["move-to-rune"],
                     conditions=["riding"]) \
        + "[chance]\nrune_die = [5]\n"
    battle = engine_turn(catalog, text).battle
    assert battle.piece("orc").at == battle.piece("wyvern").at == (50.0, 50.0)


STABLE = HEAD + ridden_horse(9) \
    + piece_text("elf", "heroes", (40, 30), health=6) \
    + piece_text("rat", "ai", (30, 70), monster="sewer-rat") + OPEN_MAT


def test_a_reported_move_of_a_rider_moves_its_mount(tmp_path: Path, catalog: Catalog) -> None:
    """`move knight` a short way, onto its own Warhorse's old disc: both go, the same way and
    as far; `move horse` carries the Knight; the two are kept off every other piece."""
    folder = new_session(tmp_path, STABLE)
    out = play_lines(folder, ["move knight 31,31", "move horse 20,20", "move knight 37,30",
                              "quit"])
    assert "horse moves with knight, its rider, to (31.0, 31.0)" in out
    assert "knight moves with horse, its mount, to (20.0, 20.0)" in out
    assert "(37.0, 30.0) puts knight on elf, with horse: a rider and its mount move as one" in out
    battle = Session.open(folder, catalog).state.battle
    assert battle.piece("knight").at == battle.piece("horse").at == (20.0, 20.0)
    assert battle.piece("knight").conditions == {"riding"}


def test_a_rider_that_gets_down_moves_alone(tmp_path: Path, catalog: Catalog) -> None:
    folder = new_session(tmp_path, STABLE)
    out = play_lines(folder, ["condition knight riding off", "move knight 30,24", "quit"])
    assert "horse is no longer ridden either (ruling 72)" in out
    battle = Session.open(folder, catalog).state.battle
    assert battle.piece("knight").at == (30.0, 24.0) and battle.piece("horse").at == (30.0, 30.0)
    assert not battle.piece("horse").conditions


def test_in_a_session_the_ai_rider_rushes_on_its_wild_wyvern(tmp_path: Path,
                                                            catalog: Catalog) -> None:
    """`automa play`: the heroes' turn ends, the scorpion's activation carries its wyvern."""
    path = next(PLAYTHROUGHS.glob("95c-*.toml"))
    folder = new_session(tmp_path, path.read_text(encoding="utf-8"))
    out = play_lines(folder, ["done", "", "quit"])
    assert "A rider and its mount move as one: put Wild Wyvern under Giant Scorpion #1" in out
    battle = Session.open(folder, catalog).state.battle
    assert battle.piece("scorpion-1").at == battle.piece("wyvern").at
    assert battle.piece("wyvern").at != (45.0, 70.0)
    assert battle.piece("wyvern").conditions == {"ridden"}


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
