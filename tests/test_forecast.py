"""The forecast: the same figures for any number of workers, the same as one plain loop over the
seed's streams, and each share printed with its 95 % interval (CONTRACT.md's keys unchanged)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from msgspec.structs import replace

from automa.catalog.load import load_catalog
from automa.cli.main import cli
from automa.engine.forecast import forecast, mean_interval, wilson
from automa.engine.turn import run_turn
from automa.geometry.table import build_table
from automa.model.scenario import ChanceScript
from automa.scenario.load import load_scenario

DEMO = str(Path(__file__).resolve().parents[1] / "examples" / "demo-battle.toml")


def plain_loop(runs: int, seed: int) -> dict[str, tuple[float, float, float]]:
    """The forecast as first written: one turn per stream word, in order, in this process."""
    catalog = load_catalog()
    scenario = load_scenario(DEMO, catalog)
    unscripted = replace(scenario, chance=ChanceScript())
    geometry = build_table(scenario.playmat)
    heroes = [p for p in scenario.pieces if p.side == "heroes"]
    sums = {h.id: [0, 0, 0] for h in heroes}
    for stream in np.random.SeedSequence(seed).generate_state(runs):
        result = run_turn(unscripted, catalog, int(stream), geometry)
        aimed = {a.target for a in result.activations}
        after = {p.id: p for p in result.battle.pieces}
        for hero in heroes:
            sums[hero.id][0] += hero.id in aimed
            end = after.get(hero.id)
            if end is None:
                sums[hero.id][1] += hero.health or 0
                sums[hero.id][2] += 1
            elif end.health is not None and hero.health is not None:
                sums[hero.id][1] += hero.health - end.health
    return {h: (t / runs, d / runs, k / runs) for h, (t, d, k) in sums.items()}


def test_one_and_two_workers_give_the_same_figures_as_a_plain_loop() -> None:
    catalog = load_catalog()
    scenario = load_scenario(DEMO, catalog)
    one = forecast(scenario, catalog, 130, 11, workers=1)
    two = forecast(scenario, catalog, 130, 11, workers=2)  # chunks of 50, 50 and 30
    assert one == two
    expected = plain_loop(130, 11)
    assert {h: (f.targeted, f.expected_damage, f.death) for h, f in one.items()} == expected
    assert one != forecast(scenario, catalog, 130, 12, workers=1)  # the seed matters


def test_wilson_interval_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 100)[0] == 0.0 and wilson(0, 100)[1] == pytest.approx(0.0370, abs=1e-4)
    assert wilson(100, 100)[1] == 1.0 and wilson(100, 100)[0] == pytest.approx(0.9630, abs=1e-4)
    low, high = mean_interval(10, 30, 5)  # values 2,2,2,2,2 would give 20; these vary
    assert low < 2.0 < high
    assert mean_interval(10, 20, 5) == (2.0, 2.0)  # no spread: no width


def test_json_adds_intervals_and_keeps_the_contract_keys() -> None:
    args = ["forecast", DEMO, "--n", "40", "--seed", "4", "--json"]
    data = json.loads(CliRunner().invoke(cli, args).stdout)
    assert data["n"] == 40
    for hero in data["heroes"].values():
        assert {"targeted", "expected_damage", "death"} <= set(hero)
        for key in ("targeted", "expected_damage", "death"):
            low, high = hero[f"{key}_ci95"]
            assert low <= hero[key] <= high
    assert data["heroes"]["wizard"]["targeted_ci95"][1] - \
        data["heroes"]["wizard"]["targeted_ci95"][0] > 0.05  # 40 runs: a wide interval


def test_text_prints_an_interval_beside_each_share() -> None:
    result = CliRunner().invoke(cli, ["forecast", DEMO, "--n", "40", "--seed", "4",
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "95 % interval" in result.stdout
    barbarian = next(line for line in result.stdout.splitlines() if "barbarian" in line)
    assert barbarian.count("[") == 3 and "100% [ 91%-100%]" in barbarian


def test_runs_are_dealt_by_whole_branches_the_biggest_first() -> None:
    """Each task holds whole branches (a worker never plays an activation another plays),
    the biggest first, small ones together; every run is dealt exactly once."""
    from automa.engine.forecast import by_branch

    branches = [[1, 2], list(range(10, 70)), [3], list(range(100, 160)), [4, 5, 6]]
    tasks = by_branch(branches, least=5)
    assert tasks[0] in (list(range(10, 70)), list(range(100, 160)))
    assert [len(task) for task in tasks] == [60, 60, 5, 1]  # 3 + 2 runs reach 5; then 1
    assert tasks[2:] == [[4, 5, 6, 1, 2], [3]]
    assert sorted(run for task in tasks for run in task) == sorted(
        run for branch in branches for run in branch)


def test_spawned_workers_give_the_same_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where fork is missing, workers start afresh and are sent the job: the same figures."""
    import multiprocessing

    from automa.engine import forecast as module

    catalog = load_catalog()
    scenario = load_scenario(DEMO, catalog)
    monkeypatch.setattr(module, "_context", lambda: multiprocessing.get_context("spawn"))
    assert forecast(scenario, catalog, 120, 3, workers=2) == forecast(scenario, catalog, 120, 3,
                                                                      workers=1)
