"""`automa forecast` against cold `automa turn`s, on an 8-monster table with blocked sight.

The table is the demo battle (three heroes, line of sight blocked by obstacles) with three more
monsters: eight AI pieces. In one run this measures

- in each of --rounds paired rounds (default 5), a cold `automa turn` of that table (the median
  of --turns runs), then a cold `automa forecast` of --n turns (default 10,000) on every core,
  and how many cold turns the forecast's wall time is worth; the median of the rounds' ratios
  is the figure (target: at most 15): pairing them lets a busy host slow both sides alike, and
  its speed moved the cold turn from 190 to 306 ms between three runs a minute apart; and
- the peak memory of a forecast of --rss-runs turns (default 100,000; target: under 300 MB), as
  the largest sum of the resident sets of the forecast process and its workers, sampled every
  50 ms (shared pages are counted once per process: an upper bound).

    python bench/bench_forecast.py [--n 10000] [--rounds 5] [--rss-runs 100000] [--workers N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from installed import installed_env, timed  # bench/installed.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
MORE_MONSTERS = """
[[piece]]
id = "rat-3"
side = "ai"
monster = "sewer-rat"
name = "Sewer Rat #3"
at = [8.0, 72.0]

[[piece]]
id = "skeleton-2"
side = "ai"
monster = "skeleton-warrior"
name = "Skeleton Warrior #2"
at = [38.0, 72.0]

[[piece]]
id = "centaur-2"
side = "ai"
monster = "centaur"
name = "Centaur #2"
at = [24.0, 80.0]
"""


def eight_monster_table(folder: Path) -> Path:
    text = (ROOT / "examples" / "demo-battle.toml").read_text(encoding="utf-8")
    assert "los_blocked = true" in text and "\n[chance]" in text
    path = folder / "eight-monsters.toml"
    path.write_text(text.replace("\n[chance]", MORE_MONSTERS + "\n[chance]"), encoding="utf-8")
    return path


def automa() -> list[str]:
    script = Path(sys.executable).parent / "automa"
    return [str(script)] if script.exists() else [sys.executable, "-m", "automa"]


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


def run(command: list[str]) -> tuple[float, int]:
    """Wall time in seconds and the peak resident set of the process tree in kB (sampled every
    50 ms, so the time of a run is known to 50 ms: for the long runs only)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=installed_env())
    peak = 0
    while process.poll() is None:
        peak = max(peak, tree_rss_kb(process.pid))
        time.sleep(0.05)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit {process.returncode}")
    return time.perf_counter() - start, peak


def paired_rounds(table: str, n: int, rounds: int, turns: int,
                  workers: list[str]) -> list[tuple[float, float]]:
    """Per round: the median of `turns` cold turns, then one forecast of `n` turns, back to
    back, so a change of the machine's speed (another job, a busy host) falls on both; the
    round's ratio is taken from its own pair."""
    pairs = []
    for _ in range(rounds):
        cold = statistics.median(timed([*automa(), "turn", table, "--seed", str(i)])
                                 for i in range(turns))
        spent = timed([*automa(), "forecast", table, "--n", str(n), *workers])
        pairs.append((cold, spent))
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds for the ratio")
    parser.add_argument("--turns", type=int, default=3, help="cold turns a round (median)")
    parser.add_argument("--rss-runs", type=int, default=100_000, help="0: skip")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--rss-table", choices=("eight", "demo"), default="eight",
                        help="the table of the memory run (demo: three times quicker turns)")
    parser.add_argument("--skip-ratio", action="store_true", help="only the memory run")
    args = parser.parse_args()
    workers = [] if args.workers is None else ["--workers", str(args.workers)]
    with tempfile.TemporaryDirectory() as scratch:
        table = str(eight_monster_table(Path(scratch)))
        if not args.skip_ratio:
            # the first runs write the bytecode and data caches; `timed` adds no sampling
            timed([*automa(), "turn", table, "--seed", "1"])
            _, peak = run([*automa(), "forecast", table, "--n", str(args.n), *workers])
            pairs = paired_rounds(table, args.n, args.rounds, args.turns, workers)
            ratios = [spent / cold for cold, spent in pairs]
            print(f"8 monsters, blocked sight, {os.cpu_count()} cores, {args.rounds} paired "
                  f"rounds (each: the median of {args.turns} cold turns, then the forecast)")
            for (cold, spent), ratio in zip(pairs, ratios, strict=True):
                print(f"  cold automa turn {cold * 1000:.0f} ms, automa forecast --n {args.n} "
                      f"{spent:.1f} s = {ratio:.1f} cold turns")
            print(f"  median: {statistics.median(ratios):.1f} cold turns (target <= 15); "
                  f"forecast {statistics.median(s for _, s in pairs):.1f} s, "
                  f"{statistics.median(s for _, s in pairs) / args.n * 1000:.2f} ms a turn, "
                  f"peak {peak / 1024:.0f} MB")
        if args.rss_runs:
            chosen = table if args.rss_table == "eight" else str(ROOT / "examples" /
                                                                 "demo-battle.toml")
            spent, peak = run([*automa(), "forecast", chosen, "--n", str(args.rss_runs),
                               *workers])
            print(f"  automa forecast --n {args.rss_runs} ({args.rss_table} table): "
                  f"{spent:.1f} s, peak resident set {peak / 1024:.0f} MB (target < 300 MB)")


if __name__ == "__main__":
    main()
