"""The explain trace ("why, in full") is made only when someone will read it: `automa turn
--explain`, the JSON's `explain` list, a session's activations. Without it a turn does exactly
the same and says the same (steps, close calls, rulings, targets, the battle after), only
without the trace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from automa.catalog.load import load_catalog
from automa.cli.main import cli
from automa.engine.turn import run_turn
from automa.scenario.load import load_scenario
from tests.conftest import EXAMPLES

CATALOG = load_catalog()
TABLES = sorted(p.name for p in EXAMPLES.glob("*.toml"))


def said(result: object) -> list[tuple[object, ...]]:
    from automa.engine.turn import TurnResult

    assert isinstance(result, TurnResult)
    return [(a.character, a.target, a.reason, a.steps, a.close_calls, a.rulings, a.visible,
             a.hidden, a.sequence, a.summoned, a.repeat) for a in result.activations]


@pytest.mark.parametrize("name", TABLES)
def test_a_turn_without_the_trace_does_and_says_the_same(name: str) -> None:
    scenario = load_scenario(EXAMPLES / name, CATALOG)
    for seed in (1, 7, 2026):
        quiet = run_turn(scenario, CATALOG, seed)
        explained = run_turn(scenario, CATALOG, seed, explain=True)
        assert said(quiet) == said(explained)
        assert quiet.after == explained.after and quiet.outcomes == explained.outcomes
        assert all(a.explain == () for a in quiet.activations)
        assert any(a.explain for a in explained.activations)


def test_the_trace_is_made_for_explain_and_for_json_only() -> None:
    demo = str(EXAMPLES / "demo-battle.toml")
    runner = CliRunner()
    plain = runner.invoke(cli, ["turn", demo, "--seed", "3"])
    explained = runner.invoke(cli, ["turn", demo, "--seed", "3", "--explain"])
    as_json = runner.invoke(cli, ["turn", demo, "--seed", "3", "--json"])
    assert plain.exit_code == explained.exit_code == as_json.exit_code == 0
    assert "Why, in full:" not in plain.output and "Why, in full:" in explained.output
    assert explained.output.startswith(plain.output.split("\n1. ")[0])  # the same header
    activations = json.loads(as_json.output)["activations"]
    assert all(a["explain"] for a in activations)


def test_a_session_keeps_its_trace(tmp_path: Path) -> None:
    """A session's activations keep their trace (`next --json`, and replay reads it)."""
    folder = str(tmp_path / "s")
    runner = CliRunner()
    assert runner.invoke(cli, ["new", str(EXAMPLES / "demo-battle.toml"), "--session",
                               folder]).exit_code == 0
    step = runner.invoke(cli, ["next", "--session", folder, "--json"])
    assert step.exit_code == 0, step.output
    assert json.loads(step.output)["explain"]
