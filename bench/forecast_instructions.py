"""Instructions per forecast turn on a bench table (forecast_tables.py), counted by valgrind.

Wall time on a shared machine moves by 20 % and more between identical runs; an instruction
count does not. This counts, with cachegrind (`--cache-sim=no`), a single-worker `automa
forecast --n N` of a bench table (default `eight`: the demo battle and three more monsters,
blocked sight) less a forecast of one turn (imports, parsing, the first turn), per turn, for
each code tree given: the one this script is in by default, or `--baseline TREE` beside it (e.g.
a `git archive` of an older commit). A count is a guide, not a time: a change that makes fewer
but slower instructions (more memory touched) can count better and run no faster, so a cut worth
keeping is also timed.

    python bench/forecast_instructions.py [--n 1500] [--table eight] [--baseline TREE]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from forecast_tables import TABLES, write_table  # bench/, beside this script
from installed import instructions as counted

HERE = Path(__file__).resolve().parent.parent


def instructions(tree: Path, table: Path, turns: int) -> int:
    """Instructions of one single-worker forecast of `turns` turns by the code tree `tree`."""
    return counted(tree, ["-m", "automa", "forecast", str(table), "--n", str(turns),
                          "--workers", "1"])


def per_turn(tree: Path, table: Path, turns: int) -> float:
    return (instructions(tree, table, turns) - instructions(tree, table, 1)) / (turns - 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1500, help="forecast turns counted")
    parser.add_argument("--baseline", type=Path, default=None, help="another code tree")
    parser.add_argument("--table", choices=TABLES, default="eight", help="the bench table")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        table = write_table(args.table, Path(scratch))
        trees = [HERE] if args.baseline is None else [args.baseline.resolve(), HERE]
        counts = {tree: per_turn(tree, table, args.n) for tree in trees}
    for tree, count in counts.items():
        print(f"{tree}: {count / 1e6:.3f} M instructions per forecast turn ({args.table} table, "
              f"{args.n} turns, 1 worker)")
    if args.baseline is not None:
        old, new = counts[args.baseline.resolve()], counts[HERE]
        print(f"ratio (baseline / this tree): {old / new:.3f}x")


if __name__ == "__main__":
    main()
