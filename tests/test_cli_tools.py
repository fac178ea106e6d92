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


def test_every_command_of_a_sibling_module_is_known_for_lazy_loading() -> None:
    """`automa` imports a command's module only when it runs: so every command a sibling
    module defines must be listed, or it would be missing from `automa --help`."""
    import importlib
    import pkgutil

    import automa.cli
    from automa.cli.main import COMMAND_MODULES

    for info in pkgutil.iter_modules(automa.cli.__path__):
        importlib.import_module(f"automa.cli.{info.name}")
    for name, command in cli.commands.items():
        module = command.callback.__module__ if command.callback else ""
        if module != "automa.cli.main":
            assert COMMAND_MODULES.get(name) == module.rsplit(".", 1)[1], name


def test_a_turn_imports_no_session_or_campaign_code() -> None:
    """A command at the table starts at once: `turn` loads neither the session commands nor
    the campaign's."""
    import subprocess
    import sys

    probe = ("import sys; from automa.cli.main import cli\n"
             f"try:\n    cli(['turn', {DEMO!r}])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith('automa.cli.')), "
             "file=sys.stderr)")
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           check=True).stderr
    assert "automa.cli.session_cmds" not in shown and "automa.cli.campaign_cmds" not in shown
    assert "automa.cli.main" in shown
