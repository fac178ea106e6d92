"""`automa turn` honours CONTRACT.md: required JSON keys, scripted chance first, --save chains,
and the same seed gives the same output."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.engine.turn import run_turn
from automa.scenario.save import save_scenario
from tests.conftest import EXAMPLES, OPEN_MAT, scenario_from

DEMO = EXAMPLES / "demo-battle.toml"

DUEL = """
format = 1
[battle]
playmat = "inline"
round = 3
[tiles]
hero_targets = { elf = 1 }
[[piece]]
id = "elf"
side = "heroes"
at = [10.0, 50.0]
health = 8
gold = 5
[[piece]]
id = "rat-1"
side = "ai"
monster = "sewer-rat"
at = [10.0, 58.0]
[chance]
seed = 3
d12 = [7, 2]
tokens = { 2 = ["2"] }
"""


def run_json(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(cli, ["turn", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_has_every_required_key() -> None:
    data = run_json(str(DEMO))
    assert data["format"] == 1 and data["round"] == 2
    assert data["activations"]
    for activation in data["activations"]:
        assert {"character", "target", "steps", "visible", "sequence"} <= activation.keys()
        for step in activation["steps"]:
            assert "kind" in step
            if step["kind"] == "move":
                assert {"piece", "from", "to"} <= step.keys()
    for piece in data["pieces"].values():
        assert {"at", "health"} <= piece.keys()


def test_every_ai_character_acts_once_in_activation_order() -> None:
    data = run_json(str(DEMO))
    characters = [a["character"] for a in data["activations"]]
    assert sorted(characters) == ["centaur-1", "rat-1", "rat-2", "skeleton-1", "wraith-1"]
    assert characters[0] == "wraith-1"  # the level-2 Character tile lies first


def test_scripted_chance_is_used_first_and_in_order(tmp_path: Path) -> None:
    """The rat rushes, covers the elf, draws the scripted 2 and pushes it with the scripted 7."""
    path = tmp_path / "duel.toml"
    path.write_text(DUEL + OPEN_MAT)
    data = run_json(str(path))
    steps = data["activations"][0]["steps"]
    token = next(s for s in steps if s["kind"] == "token")
    assert (token["level"], token["value"]) == (2, 2)
    push = next(s for s in steps if s["kind"] == "move" and s["why"] == "push")
    assert push["clock"] == 7
    assert [c["source"] for c in data["chance"]] == ["script", "script"]
    assert data["pieces"]["elf"]["health"] == 6 and data["pieces"]["elf"]["poison"] == 1


def test_save_writes_a_scenario_the_next_turn_runs(tmp_path: Path) -> None:
    first = tmp_path / "round3.toml"
    run_json(str(DEMO), "--save", str(first))
    saved = tomllib.loads(first.read_text())
    assert saved["battle"]["round"] == 3
    second = run_json(str(first), "--save", str(tmp_path / "round4.toml"))
    assert second["round"] == 3
    assert tomllib.loads((tmp_path / "round4.toml").read_text())["battle"]["round"] == 4


def test_saved_positions_and_health_match_the_turn(tmp_path: Path) -> None:
    path = tmp_path / "next.toml"
    data = run_json(str(DEMO), "--seed", "11", "--save", str(path))
    saved = {p["id"]: p for p in tomllib.loads(path.read_text())["piece"]}
    for piece_id, piece in data["pieces"].items():
        assert saved[piece_id]["at"] == pytest.approx(piece["at"], abs=0.01)
        assert saved[piece_id].get("health") == piece["health"]


def test_every_damage_token_is_accounted_for(catalog: Catalog) -> None:
    """Bag plus discard pile always hold the whole set: 13 / 12 / 13."""
    scenario = scenario_from(DEMO.read_text(), catalog, inline_mat=False)
    for seed in range(20):
        result = run_turn(scenario, catalog, seed)
        for level, bag in result.battle.bags.items():
            assert Counter(bag.tokens) + Counter(bag.discard) == Counter(
                catalog.components.bags[level])


def test_same_seed_same_output_and_seeds_matter() -> None:
    runner = CliRunner()
    outputs = [runner.invoke(cli, ["turn", str(DEMO), "--seed", str(s)]).stdout
               for s in (5, 5, 6)]
    assert outputs[0] == outputs[1]
    assert outputs[0] != outputs[2]


def test_printout_names_the_rule_behind_each_choice() -> None:
    result = CliRunner().invoke(cli, ["demo", "--seed", "7"])
    assert result.exit_code == 0
    assert "brown Primary: most gold -> Barbarian (9 gold" in result.stdout
    assert "* ruling 13: the gray row" in result.stdout
    assert "Wizard hidden behind obstacle" in result.stdout


def test_the_contracts_own_example_runs(tmp_path: Path) -> None:
    """CONTRACT.md's example scenario, exactly as written, runs and honours its [chance]."""
    import re

    contract = Path(__file__).resolve().parents[2] / "shared" / "design" / "CONTRACT.md"
    if not contract.exists():
        pytest.skip("the design folder is not beside this checkout")
    example = re.search(r"```toml\n(.*?)```", contract.read_text(), re.S)
    assert example is not None
    path = tmp_path / "contract.toml"
    path.write_text(example.group(1))
    data = run_json(str(path))
    assert data["activations"][0]["character"] == "rat-1"
    assert data["activations"][0]["target"] == "elf"
    assert set(data["pieces"]) == {"elf", "rat-1"}


def test_save_writes_names_any_toml_reader_reads_back(catalog: Catalog, tmp_path: Path) -> None:
    """Names with quotes, backslashes and control characters (DEL included, which JSON-style
    escaping leaves raw) are written as valid TOML strings, and the table's [rulings] stay."""
    name = 'Elf "the \\ quick"\x7f\x01'
    text = (DUEL.replace('[battle]\n', '[rulings]\nice-push = "no-push"\n\n[battle]\n', 1)
            + OPEN_MAT)
    scenario = scenario_from(text, catalog, inline_mat=False)
    piece = scenario.pieces[0]
    scenario = replace(scenario, pieces=(replace(piece, name=name), *scenario.pieces[1:]))
    path = tmp_path / "saved.toml"
    save_scenario(scenario, path)
    saved = tomllib.loads(path.read_text(encoding="utf-8"))
    assert saved["piece"][0]["name"] == name
    assert saved["rulings"] == {"ice-push": "no-push"}
