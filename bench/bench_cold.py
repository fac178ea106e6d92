"""Cold start of `automa turn` against the floor: a bare `python -c "import numpy, shapely, click"`.

Each pair runs the two commands back to back (which one first alternates), so both see the same
load on a shared machine; the figure is the median of the per-pair ratios, and the medians of the
times. Two modes:

- cached: the project's bytecode is written by a warm-up run, then used (`python -B` is not set);
- uncached: PYTHONDONTWRITEBYTECODE=1 and the project's `__pycache__` folders removed first, as in
  an editable checkout run under that variable (numpy's and shapely's bytecode, written at their
  install, is used on both sides).

    python bench/bench_cold.py [--pairs 15] [--scenario examples/demo-battle.toml]

`--before DIR` compares with older code: DIR holds an older tree's `automa` package (e.g.
`git archive OLD automa data examples | tar -x -C DIR`, with `automa/_data` and
`automa/_examples` made links to `../data` and `../examples`); each round then runs the floor,
`python -m automa turn` with DIR first on PYTHONPATH, and today's, in rotating order (cached
bytecode only).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path

from installed import installed_env, timed  # bench/installed.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
FLOOR = [sys.executable, "-c", "import numpy, shapely, click"]


def automa_command(scenario: str) -> list[str]:
    script = Path(sys.executable).parent / "automa"
    entry = [str(script)] if script.exists() else [sys.executable, "-m", "automa"]
    return [*entry, "turn", scenario, "--seed", "7"]


def project_caches() -> list[Path]:
    import automa

    package = Path(automa.__file__).resolve().parent
    return [p for p in package.rglob("__pycache__") if p.is_dir()]


def measure(pairs: int, turn: list[str], cached: bool) -> tuple[float, float, float]:
    """Median ratio, median turn time and median floor time (seconds) over `pairs` pairs."""
    if cached:
        env = installed_env()
        timed(turn, env)  # writes the bytecode
    else:
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        for folder in project_caches():
            shutil.rmtree(folder, ignore_errors=True)
    for command in (turn, FLOOR):  # page the files in before timing
        timed(command, env)
    ratios, turns, floors = [], [], []
    for i in range(pairs):
        if i % 2:
            floor, spent = timed(FLOOR, env), timed(turn, env)
        else:
            spent, floor = timed(turn, env), timed(FLOOR, env)
        ratios.append(spent / floor)
        turns.append(spent)
        floors.append(floor)
    return statistics.median(ratios), statistics.median(turns), statistics.median(floors)


def compare(rounds: int, scenario: str, before: Path) -> None:
    """Median ratios of the older tree's turn and today's to the floor, in rotating triplets."""
    env = installed_env()
    turn = [sys.executable, "-m", "automa", "turn", scenario, "--seed", "7"]
    commands = {"floor": (FLOOR, env), "before": (turn, {**env, "PYTHONPATH": str(before)}),
                "now": (turn, env)}
    times: dict[str, list[float]] = {name: [] for name in commands}
    for command, where in [*commands.values(), *commands.values()]:  # warm up, write bytecode
        timed(command, where)
    names = list(commands)
    for i in range(rounds):
        for name in names[i % 3:] + names[:i % 3]:
            command, where = commands[name]
            times[name].append(timed(command, where))
    for name in ("before", "now"):
        ratio = statistics.median(t / f for t, f in zip(times[name], times["floor"], strict=True))
        print(f"  {name:<6} turn {statistics.median(times[name]) * 1000:6.1f} ms  floor "
              f"{statistics.median(times['floor']) * 1000:6.1f} ms  ratio {ratio:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=15)
    parser.add_argument("--scenario", default=str(ROOT / "examples" / "demo-battle.toml"))
    parser.add_argument("--mode", choices=("both", "cached", "uncached"), default="both")
    parser.add_argument("--before", type=Path, default=None, metavar="DIR")
    args = parser.parse_args()
    if args.before is not None:
        scenario, before = str(Path(args.scenario).resolve()), args.before.resolve()
        os.chdir(before.parent)  # `python -m` puts the current folder first on the path
        compare(args.pairs, scenario, before)
        return
    turn = automa_command(args.scenario)
    modes = ("cached", "uncached") if args.mode == "both" else (args.mode,)
    print(f"automa turn {Path(args.scenario).name} vs import numpy, shapely, click; "
          f"median of {args.pairs} interleaved pairs")
    for mode in modes:
        ratio, spent, floor = measure(args.pairs, turn, mode == "cached")
        print(f"  bytecode {mode:<8}  turn {spent * 1000:6.1f} ms  floor {floor * 1000:6.1f} ms  "
              f"ratio {ratio:.2f}x  (target <= 1.30x, aim 1.15x)")


if __name__ == "__main__":
    main()
