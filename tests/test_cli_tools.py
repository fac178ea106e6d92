"""`automa los` and `automa triangle`: questions players ask at any time (CONTRACT.md)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from automa.cli.main import cli
from tests.conftest import EXAMPLES

DEMO = str(EXAMPLES / "demo-battle.toml")


def test_los_json_lists_visible_closest_first_and_hidden() -> None:
    result = CliRunner().invoke(cli, ["los", DEMO, "skeleton-1", "--json"])
    data = json.loads(result.stdout)
    assert data["piece"] == "skeleton-1"
    assert data["visible"] == ["elf"]
    assert sorted(data["hidden"]) == ["barbarian", "wizard"]
    assert data["blockers"]["barbarian"] == ["C"]
    assert data["distances"]["elf"] < data["distances"]["wizard"]


def test_close_call_tolerance_comes_from_the_flag() -> None:
    loose = json.loads(CliRunner().invoke(cli, ["los", DEMO, "skeleton-1", "--json",
                                                "--close-call", "3"]).stdout)
    strict = json.loads(CliRunner().invoke(cli, ["los", DEMO, "skeleton-1", "--json",
                                                 "--close-call", "0.1"]).stdout)
    assert sorted(loose["close_calls"]) == ["barbarian", "wizard"]
    assert strict["close_calls"] == []


def test_los_printout_marks_close_calls() -> None:
    result = CliRunner().invoke(cli, ["los", DEMO, "skeleton-1"])
    wizard = next(line for line in result.stdout.splitlines() if "wizard" in line)
    assert "hidden" in wizard and "behind obstacle B" in wizard and "close call" in wizard


def test_triangle_reports_pieces_completely_inside() -> None:
    result = CliRunner().invoke(cli, ["triangle", DEMO, "5,20", "40,20", "25,60", "--json"])
    assert result.exit_code == 0
    assert sorted(json.loads(result.stdout)["inside"]) == ["barbarian", "rat-1"]


@pytest.mark.parametrize("corner", ["25", "inf,1", "nan,3", "1e3,4", "1" * 400 + ",2", "\uff11,2"])
def test_triangle_refuses_a_bad_corner_in_one_line(corner: str) -> None:
    """Only plain finite cm: `inf` or a 400-digit number once reached shapely (exit 70)."""
    result = CliRunner().invoke(cli, ["triangle", DEMO, "5,20", "40,20", corner])
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0 and "X,Y" in result.stderr


def test_forecast_json_shape_and_determinism() -> None:
    """CONTRACT: {"n": N, "heroes": {hero: {"targeted", "expected_damage", "death"}}}."""
    args = ["forecast", DEMO, "--n", "30", "--seed", "4", "--json"]
    first = json.loads(CliRunner().invoke(cli, args).stdout)
    second = json.loads(CliRunner().invoke(cli, args).stdout)
    assert first == second and first["n"] == 30
    assert set(first["heroes"]) == {"barbarian", "elf", "wizard"}
    for hero in first["heroes"].values():
        assert 0 <= hero["targeted"] <= 1 and 0 <= hero["death"] <= 1
        assert hero["expected_damage"] >= 0
    # in the demo, the only monster that can see the wizard is a rat that prefers richer heroes
    assert first["heroes"]["barbarian"]["targeted"] == 1.0
    assert first["heroes"]["wizard"]["targeted"] < 1.0
