"""Benchmark: AI activations per second, and one AI turn on a crowded mat, old code beside new.

Run: python bench/bench_activations.py [--rounds 5] [--baseline /work/main]

Each figure is measured in a fresh worker process per code tree; the workers for this tree and
for the baseline tree (a `git worktree` of main, read-only) alternate, round after round, and
the ratio printed is the median of the per-round ratios (paired, so load from other work on the
machine falls on both sides alike). Without a baseline tree, the ratio is taken against the
figures of main recorded in BASELINE below (measured the same way at the start of the work).

Tables (tests/fingerprint_tables.py draws the generated ones; the same text on both sides):
- demo: examples/demo-battle.toml (8 pieces, Mausoleum, blocked sight);
- 12m-blocked: 12 monsters, 4 heroes, 10 obstacles, blocked sight;
- 40p-40o: 8 heroes, 32 monsters, 40 obstacles, blocked sight: milliseconds for one AI turn.
Every turn is a full `run_turn` from the parsed scenario (the scenario parsed once, as a
forecast or a long session does). Times are CPU time of the worker process (`process_time`):
six other jobs share this machine's two cores, and wall time swung 2x between identical runs.
Activations per second: the fastest chunk of the same ten seeded turns within the budget (the
least disturbed), twice: on a mat that remembers sight and moves from turn to turn (`remembering`,
as a forecast plays its turns from one start), and each turn on its own, as `automa turn` plays
it (nothing remembered: a tree that kept a memo on the shared mat has it emptied before every
turn); one big turn: each of five seeds' faster of two runs, on its own, the median of those.
Against the original main (86f697d, no memo), run `git archive 86f697d | tar -x -C /tmp/orig`
and pass `--baseline /tmp/orig`.

With `--instructions`, each table's turns on their own are counted in instructions instead
(valgrind's cachegrind, see `instructions`): slow (about 50x), but the same count on every run,
where CPU time on this shared machine moves by 20 % or more; the ratio is old over new.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from forecast_tables import fingerprint_tables  # bench/, beside this script
from installed import instructions as counted  # bench/installed.py, beside this script

HERE = Path(__file__).resolve().parent.parent
# main (86f697d) on the reference machine under load from six other jobs, CPU time, medians of
# 5 worker runs, 2026-11-30 06:26 UTC (the paired run against /work/main is the figure to trust)
BASELINE = {"demo": 1026.0, "12m-blocked": 462.0, "40p-40o_ms": 241.0}
BUDGET = 2.0  # CPU seconds of turns per table and worker
INSTRUCTION_TURNS = {"demo": 20, "12m-blocked": 10, "40p-40o": 2}  # under valgrind: ~50x slower
CHUNK = 10  # seeded turns per timed chunk


def _load(code: Path) -> tuple[Any, dict[str, Any]]:
    """The catalog and the three tables, parsed by the code tree `code` (first on sys.path)."""
    import automa
    from automa.catalog.load import load_catalog
    from automa.scenario.load import load_scenario, parse_scenario

    assert Path(automa.__file__).resolve().is_relative_to(code.resolve()), automa.__file__
    gen = fingerprint_tables()
    catalog = load_catalog()
    return catalog, {
        "demo": load_scenario(code / "examples" / "demo-battle.toml", catalog),
        "12m-blocked": parse_scenario(gen.table_text(gen.DEMO_BLOCKED), "12m.toml", catalog),
        "40p-40o": parse_scenario(gen.table_text(gen.BIG), "big.toml", catalog),
    }


def forget(scenario: Any) -> None:
    """Empty the shared mat's memo of sight and moves, in a tree that kept one there (one
    without, or whose shared mat remembers nothing: nothing to do)."""
    from automa.geometry.table import build_table

    memo = getattr(build_table(scenario.playmat), "memo", None)
    if memo is not None:
        memo.clear()


def remembering(scenario: Any) -> Any:
    """A geometry of the mat that keeps its memo from turn to turn, as a forecast's does: in a
    tree with `remembering`, a copy made by it; in an older one, the shared mat (which kept its
    memo, or had none)."""
    from automa.geometry import table

    shared = table.build_table(scenario.playmat)
    return table.remembering(shared) if hasattr(table, "remembering") else shared


def worker(code: Path) -> dict[str, float]:
    """Measure in this process the code tree `code` (already first on sys.path)."""
    from automa.engine.turn import run_turn

    catalog, loaded = _load(code)
    big = loaded.pop("40p-40o")
    tables = loaded
    results: dict[str, float] = {}
    for name, scenario in tables.items():
        for fresh in (False, True):
            forget(scenario)
            kept = None if fresh else remembering(scenario)
            run_turn(scenario, catalog, 0, kept)
            best, spent = 0.0, 0.0
            while spent < BUDGET / 2:  # chunks of the same ten seeded turns; the fastest counts
                activations, took = 0, 0.0
                for seed in range(CHUNK):
                    if fresh:
                        forget(scenario)
                    start = time.process_time()
                    activations += len(run_turn(scenario, catalog, seed, kept).activations)
                    took += time.process_time() - start
                best, spent = max(best, activations / took), spent + took
            results[name + ("-fresh" if fresh else "")] = best
    run_turn(big, catalog, 0)
    costs = []
    for seed in range(5):  # each seed's faster of two runs; the median over the seeds
        runs = []
        for _ in range(2):
            forget(big)  # one turn as a cold `automa turn` plays it: nothing remembered
            start = time.process_time()
            run_turn(big, catalog, seed)
            runs.append(time.process_time() - start)
        costs.append(min(runs))
    results["40p-40o_ms"] = statistics.median(costs) * 1000
    return results


def play_turns(code: Path, table: str, turns: int) -> None:
    """One warm-up turn, then `turns` seeded turns of `table`, each on its own."""
    from automa.engine.turn import run_turn

    catalog, tables = _load(code)
    scenario = tables[table]
    run_turn(scenario, catalog, 0)
    for seed in range(turns):
        forget(scenario)
        run_turn(scenario, catalog, seed % CHUNK)


def instructions(code: Path, table: str, turns: int) -> float:
    """Instructions per turn on its own of `table` by the tree `code`, counted by valgrind's
    cachegrind: a run of `turns` turns less a run of none (imports, parsing, the warm-up).
    The count is the same from run to run (a fixed hash seed, one BLAS thread: the idle
    thread's spinning varies), whatever else the machine is doing."""
    def count(n: int) -> int:
        return counted(code, [__file__, "--turns", table, str(n), "--worker", str(code)])

    return (count(turns) - count(0)) / turns


def instruction_report(baseline: Path) -> None:
    print(f"{'instructions per turn on its own':<36}{'baseline':>12}{'this tree':>12}"
          f"{'ratio':>8}")
    for table, turns in INSTRUCTION_TURNS.items():
        old, new = instructions(baseline, table, turns), instructions(HERE, table, turns)
        print(f"{table:<36}{old / 1e6:>11.2f}M{new / 1e6:>11.2f}M{old / new:>7.2f}x")


def run_worker(code: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    out = subprocess.run([sys.executable, __file__, "--worker", str(code)], env=env, cwd=code,
                         capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", type=Path, default=Path("/work/main"))
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per turn with valgrind instead of timing")
    parser.add_argument("--worker", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--turns", nargs=2, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None and args.turns is not None:
        play_turns(args.worker, args.turns[0], int(args.turns[1]))
        return
    if args.worker is not None:
        print(json.dumps(worker(args.worker)))
        return
    if args.instructions:
        instruction_report(args.baseline)
        return
    paired = args.baseline.is_dir() and (args.baseline / "automa").is_dir()
    new: list[dict[str, float]] = []
    old: list[dict[str, float]] = []
    for i in range(args.rounds):
        if paired:
            old.append(run_worker(args.baseline))
        new.append(run_worker(HERE))
        print(f"round {i + 1}/{args.rounds} done", file=sys.stderr)
    report(new, old, paired)


def report(new: list[dict[str, float]], old: list[dict[str, float]], paired: bool) -> None:
    print(f"{'figure':<34}{'baseline':>12}{'this tree':>12}{'ratio':>8}")
    rows: list[tuple[str, str, bool]] = [
        ("demo", "activations/s, demo table", True),
        ("12m-blocked", "activations/s, 12m 4h 10o blocked", True),
        ("demo-fresh", "  the same, each turn on its own", True),
        ("12m-blocked-fresh", "  the same, each turn on its own", True),
        ("40p-40o_ms", "ms per AI turn, 40 pieces 40 obst.", False)]
    summary: dict[str, Any] = {}
    for key, label, higher_better in rows:
        mine = statistics.median(r[key] for r in new)
        if paired:
            theirs = statistics.median(r[key] for r in old)
            ratios = [(n[key] / o[key]) if higher_better else (o[key] / n[key])
                      for n, o in zip(new, old, strict=True)]
            ratio = statistics.median(ratios)
        else:
            theirs = BASELINE[key.removesuffix("-fresh")]
            ratio = (mine / theirs if higher_better else theirs / mine) if theirs else 0.0
        summary[key] = {"baseline": theirs, "new": mine, "speed-up": ratio}
        print(f"{label:<34}{theirs:>12.1f}{mine:>12.1f}{ratio:>7.2f}x")
    print("(ratio: how many times faster; " +
          ("paired worker runs against the baseline tree)" if paired else
           "against the BASELINE figures recorded in this file)"))
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
