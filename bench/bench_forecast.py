"""`automa forecast` against cold `automa turn`s of the same table, this tree beside another.

The tables (bench/forecast_tables.py): `eight` (the demo battle with three more monsters),
`twelve` (12 monsters, 12 obstacles, any-line sight) and `forty` (40 pieces: 12 monsters
among 28 heroes, 12 obstacles). For each table asked (default: twelve and forty) this measures,
in each of --rounds paired rounds (default 5), back to back:

- the median of --turns cold `automa turn`s of the table (this tree), then one cold `automa
  forecast --n N` (default 10,000, on every core); the round's figure is the forecast's wall
  time in cold turns (target: at most 15);
- with --baseline TREE (e.g. `git archive <commit> | tar -x -C /tmp/base`), the same for that
  tree's program, its own cold turns and forecast, the two trees in alternating order;
- with --precision P, this tree's forecast with `--precision P` too (--n its cap), and how
  many turns it took.

The median of the rounds' figures is reported: pairing lets a busy host slow both sides alike
(its speed moved a cold turn from 190 to 306 ms between three runs a minute apart). Then, unless
--rss-runs 0, the peak memory of a forecast of --rss-runs turns (default 100,000; target under
300 MB), as the largest sum of the resident sets of the forecast process and its workers,
sampled every 50 ms (shared pages counted once per process: an upper bound).

    python bench/bench_forecast.py [--table twelve --table forty] [--baseline TREE]
        [--precision 0.02] [--n 10000] [--rounds 5] [--turns 3] [--rss-runs 100000]
        [--workers N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from forecast_tables import NAMES, TABLES, write_table  # bench/, beside this script
from installed import installed_env, timed

ROOT = Path(__file__).resolve().parent.parent


def eight_monster_table(folder: Path) -> Path:
    """The first bench table (forecast_instructions.py's)."""
    return write_table("eight", folder)


def program(tree: Path) -> tuple[list[str], dict[str, str]]:
    """`python -m automa` run on the code tree `tree` (first on the path), as installed."""
    return [sys.executable, "-m", "automa"], {**installed_env(), "PYTHONPATH": str(tree)}


def tree_rss_kb(pid: int) -> int:
    """The resident set of `pid` and all its descendants, in kB (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as kids:
                    todo.extend(int(k) for k in kids.read().split())
        except (OSError, ValueError):
            continue
    return total


def run(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall time in seconds and the peak resident set of the process tree in kB (sampled every
    50 ms, so the time of a run is known to 50 ms: for the long runs only)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
    peak = 0
    while process.poll() is None:
        peak = max(peak, tree_rss_kb(process.pid))
        time.sleep(0.05)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit {process.returncode}")
    return time.perf_counter() - start, peak


def one_round(tree: Path, table: str, n: int, turns: int, workers: list[str]
              ) -> tuple[float, float]:
    """The median of `turns` cold turns, then one forecast of `n` turns, back to back, so a
    change of the machine's speed falls on both: (cold turn, forecast) in seconds."""
    command, env = program(tree)
    cold = statistics.median(timed([*command, "turn", table, "--seed", str(i)], env)
                             for i in range(turns))
    spent = timed([*command, "forecast", table, "--n", str(n), *workers], env)
    return cold, spent


def report(label: str, pairs: list[tuple[float, float]], n: int, played: int = 0) -> float:
    """The rounds of one side, and their median in cold turns (`played`: the turns the
    forecast played, when fewer than the `n` asked for)."""
    ratios = [spent / cold for cold, spent in pairs]
    print(f"  {label}:")
    for (cold, spent), ratio in zip(pairs, ratios, strict=True):
        print(f"    cold automa turn {cold * 1000:.0f} ms, automa forecast --n {n} "
              f"{spent:.1f} s = {ratio:.1f} cold turns")
    spent = statistics.median(s for _, s in pairs)
    print(f"    median: {statistics.median(ratios):.1f} cold turns (target <= 15); forecast "
          f"{spent:.1f} s, {spent / (played or n) * 1000:.2f} ms a turn")
    return statistics.median(ratios)


def precise_turns(table: str, n: int, precision: str) -> int:
    """How many turns this tree's forecast takes to reach `precision` (its JSON's `n`)."""
    command, env = program(ROOT)
    done = subprocess.run([*command, "forecast", table, "--n", str(n), "--precision", precision,
                           "--json"], env=env, capture_output=True, text=True, check=True)
    return int(json.loads(done.stdout)["n"])


def measure(table_name: str, folder: Path, args: argparse.Namespace, workers: list[str]) -> None:
    table = str(write_table(table_name, folder))
    trees = [ROOT] if args.baseline is None else [ROOT, args.baseline.resolve()]
    for tree in trees:  # the first runs write the bytecode and data caches
        command, env = program(tree)
        timed([*command, "turn", table, "--seed", "1"], env)
    # each side: a code tree, and the forecast's options (this tree with --precision too)
    sides: list[tuple[Path, list[str]]] = [(tree, workers) for tree in trees]
    if args.precision:
        sides.append((ROOT, [*workers, "--precision", args.precision]))
    rounds: list[list[tuple[float, float]]] = [[] for _ in sides]
    for i in range(args.rounds):
        for k in range(len(sides)) if i % 2 == 0 else reversed(range(len(sides))):
            tree, options = sides[k]
            rounds[k].append(one_round(tree, table, args.n, args.turns, options))
    print(f"{NAMES[table_name]}: {os.cpu_count()} cores, {args.rounds} paired rounds (each: "
          f"the median of {args.turns} cold turns, then the forecast)")
    figures = [report("this tree" if tree == ROOT else f"baseline {tree}", pairs, args.n)
               for (tree, _), pairs in zip(sides[:len(trees)], rounds, strict=False)]
    if args.baseline is not None:
        print(f"  this tree's forecast is {figures[1] / figures[0]:.2f}x quicker in cold turns")
    if args.precision:
        turns = precise_turns(table, args.n, args.precision)
        report(f"this tree, --precision {args.precision} (stops after {turns} turns)",
               rounds[-1], args.n, turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", action="append", choices=TABLES, default=None,
                        help="a bench table (repeat for several; default: twelve, forty)")
    parser.add_argument("--baseline", type=Path, default=None, help="another code tree")
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds for the ratio")
    parser.add_argument("--turns", type=int, default=3, help="cold turns a round (median)")
    parser.add_argument("--rss-runs", type=int, default=100_000, help="0: skip")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--precision", default="", help="also this tree with --precision P")
    parser.add_argument("--rss-table", choices=TABLES, default="eight",
                        help="the table of the memory run")
    parser.add_argument("--skip-ratio", action="store_true", help="only the memory run")
    args = parser.parse_args()
    workers = [] if args.workers is None else ["--workers", str(args.workers)]
    with tempfile.TemporaryDirectory() as scratch:
        if not args.skip_ratio:
            for name in args.table or ["twelve", "forty"]:
                measure(name, Path(scratch), args, workers)
        if args.rss_runs:
            command, env = program(ROOT)
            chosen = str(write_table(args.rss_table, Path(scratch)))
            spent, peak = run([*command, "forecast", chosen, "--n", str(args.rss_runs),
                               *workers], env)
            print(f"automa forecast --n {args.rss_runs} ({args.rss_table} table): "
                  f"{spent:.1f} s, peak resident set {peak / 1024:.0f} MB (target < 300 MB)")


if __name__ == "__main__":
    main()
