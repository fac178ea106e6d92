"""The forecast: the same figures for any number of workers, the same as one plain loop over the
seed's streams, and each share printed with its 95 % interval (CONTRACT.md's keys unchanged)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from msgspec.structs import replace

from automa.catalog.load import Catalog, load_catalog
from automa.cli.main import cli
from automa.engine.forecast import (
    PRECISION_CHUNK,
    HeroForecast,
    forecast,
    forecast_runs,
    mean_interval,
    most_runs,
    wilson,
    within,
)
from automa.engine.turn import run_turn
from automa.geometry.table import build_table
from automa.model.scenario import ChanceScript, Scenario
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
    monkeypatch.setattr(module, "_context",
                        lambda threaded: multiprocessing.get_context("spawn"))
    assert forecast(scenario, catalog, 120, 3, workers=2) == forecast(scenario, catalog, 120, 3,
                                                                      workers=1)


def test_a_threaded_caller_forks_its_workers_from_a_clean_server() -> None:
    """The board's server runs threads: its forecast's workers come from a forkserver (a
    single-threaded process), with the same figures."""
    from automa.engine.forecast import _context, forecast_runs

    assert _context(threaded=True).get_start_method() == "forkserver"
    assert _context(threaded=False).get_start_method() == "fork"
    scenario, catalog = _demo()
    threaded = forecast_runs(scenario, catalog, 120, 3, workers=2, threaded=True)
    assert threaded.heroes == forecast(scenario, catalog, 120, 3, workers=1)


def _demo() -> tuple[Scenario, Catalog]:
    catalog = load_catalog()
    return load_scenario(DEMO, catalog), catalog


def test_a_precise_forecast_equals_a_plain_one_of_as_many_turns() -> None:
    """Stopped at a chunk's end, in seed order: the figures of a plain forecast of as many
    turns, for one worker and two."""
    scenario, catalog = _demo()
    one = forecast_runs(scenario, catalog, 5000, 8, workers=1, precision=0.04)
    two = forecast_runs(scenario, catalog, 5000, 8, workers=2, precision=0.04)
    assert one == two
    assert one.precise and one.runs < 5000 and one.runs % PRECISION_CHUNK == 0
    assert one.heroes == forecast(scenario, catalog, one.runs, 8, workers=2)
    for figures in one.heroes.values():  # every share within the precision, both sides
        for share, (low, high) in ((figures.targeted, figures.targeted_ci95),
                                   (figures.death, figures.death_ci95)):
            assert share - low <= 0.04 and high - share <= 0.04
    shorter = forecast(scenario, catalog, one.runs - PRECISION_CHUNK, 8, workers=1)
    assert not within_figures(shorter, 0.04)  # it stopped at the first chunk within it


def within_figures(heroes: dict[str, HeroForecast], precision: float) -> bool:
    return all(max(share - low, high - share) <= precision
               for f in heroes.values()
               for share, (low, high) in ((f.targeted, f.targeted_ci95),
                                          (f.death, f.death_ci95)))


def test_a_tighter_precision_takes_more_turns_and_the_cap_bounds_it() -> None:
    scenario, catalog = _demo()
    loose = forecast_runs(scenario, catalog, 20_000, 3, workers=1, precision=0.05)
    tight = forecast_runs(scenario, catalog, 20_000, 3, workers=1, precision=0.025)
    assert loose.precise and tight.precise and loose.runs < tight.runs
    capped = forecast_runs(scenario, catalog, 700, 3, workers=1, precision=0.001)
    assert capped.runs == 700 and not capped.precise
    assert capped.heroes == forecast(scenario, catalog, 700, 3, workers=1)


@pytest.mark.parametrize("precision", [0.02, 0.035, 0.05])
def test_a_precise_forecast_has_stopped_by_most_runs(precision: float) -> None:
    """What progress is told against: the first chunk's end where every share, whatever it
    is, lies within the precision, and none sooner."""
    most = most_runs(20_000, precision)
    assert most % PRECISION_CHUNK == 0
    assert all(within([[hits, most - hits, 0, 0]], most, precision) for hits in range(most + 1))
    sooner = most - PRECISION_CHUNK
    assert sooner == 0 or not within([[sooner // 2, 0, 0, 0]], sooner, precision)


def test_most_runs_is_the_cap_without_a_precision_or_below_it() -> None:
    assert most_runs(5_000, None) == 5_000
    assert most_runs(700, 0.001) == 700
    scenario, catalog = _demo()
    assert forecast_runs(scenario, catalog, 20_000, 3, workers=1,
                         precision=0.05).runs <= most_runs(20_000, 0.05)


def test_within_reads_the_wilson_interval_on_both_sides() -> None:
    assert within([[0, 0, 0, 0]], 200, 0.02)  # 0 of 200: the interval is [0, 1.9 %]
    assert not within([[0, 0, 0, 0]], 150, 0.02)  # [0, 2.4 %]
    assert not within([[1150, 0, 0, 0]], 2300, 0.02)  # half of 2,300: +-0.0204
    assert within([[1200, 0, 0, 0]], 2400, 0.02)  # half of 2,400: +-0.0200


@pytest.mark.parametrize("value", ["0", "-0.02", "0.5", "0.7", "abc", "nan", "inf", ""])
def test_a_bad_precision_is_one_line_and_exit_2(value: str) -> None:
    result = CliRunner().invoke(cli, ["forecast", DEMO, "--n", "40", "--precision", value])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--precision" in lines[0] and "Traceback" not in result.output


def test_the_precision_is_said_in_text_and_json() -> None:
    args = ["forecast", DEMO, "--n", "3000", "--seed", "4", "--workers", "1", "--precision",
            "0.05"]
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    turns = int(text.stdout.split("reached after ")[1].split(" turns")[0])
    assert f"The coming AI turn, {turns} simulated turns" in text.stdout
    data = json.loads(CliRunner().invoke(cli, [*args, "--json"]).stdout)
    assert data["n"] == turns and data["precision"] == 0.05 and data["precise"] is True
    assert data["cap"] == 3000
    plain = json.loads(CliRunner().invoke(cli, ["forecast", DEMO, "--n", str(turns), "--seed",
                                                "4", "--json"]).stdout)
    assert plain["heroes"] == data["heroes"] and set(plain) == {"n", "heroes"}


def test_a_branch_holding_most_runs_is_cut_for_several_workers() -> None:
    """One place reached by most runs' first step would be one task, played on one core."""
    from automa.engine.forecast import by_branch

    big, small = list(range(1000)), list(range(2000, 2100))
    tasks = by_branch([big, small], least=50, total=1100, workers=2)
    assert max(len(task) for task in tasks) == 138  # 1100 / (4 x 2 workers), rounded up
    assert sorted(run for task in tasks for run in task) == sorted(big + small)
    assert by_branch([big, small], least=50, total=1100, workers=1) == [big, small]
