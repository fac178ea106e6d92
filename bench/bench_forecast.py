"""`automa forecast` against cold `automa turn`s, on an 8-monster table with blocked sight.

The table is the demo battle (three heroes, line of sight blocked by obstacles) with three more
monsters: eight AI pieces. In one run this measures

- a cold `automa turn` of that table (the median of --turns runs), then
- a cold `automa forecast` of --n turns (default 10,000) on every core, and reports how many
  cold turns its wall time is worth (target: at most 15), and
- the peak memory of a forecast of --rss-runs turns (default 100,000; target: under 300 MB), as
  the largest sum of the resident sets of the forecast process and its workers, sampled every
  50 ms (shared pages are counted once per process: an upper bound).

    python bench/bench_forecast.py [--n 10000] [--rss-runs 100000] [--workers N]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=7, help="cold turns for the median")
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
            # the first run writes the bytecode and data caches; `timed` adds no sampling
            timed([*automa(), "turn", table, "--seed", "1"])
            turns = [timed([*automa(), "turn", table, "--seed", str(i)])
                     for i in range(args.turns)]
            cold = statistics.median(turns)
            spent, peak = run([*automa(), "forecast", table, "--n", str(args.n), *workers])
            print(f"8 monsters, blocked sight, {os.cpu_count()} cores")
            print(f"  cold automa turn (median of {args.turns}): {cold * 1000:.0f} ms")
            print(f"  automa forecast --n {args.n}: {spent:.1f} s = {spent / cold:.1f} cold "
                  f"turns (target <= 15), {spent / args.n * 1000:.2f} ms a turn, "
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
