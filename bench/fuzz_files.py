"""Mutation fuzzing at scale: thousands of mutated scenarios and data files through the real
commands; prints how each kind of input ended and every failure (exit 70, traceback, hang,
multi-line error).

Run: python bench/fuzz_files.py [--scenarios N] [--data N] [--seed S]
(the suite runs a few hundred of the same inputs: tests/test_mutation_fuzz.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.test_mutation_fuzz import cases, is_bad, run_case


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=3000)
    parser.add_argument("--data", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1000)
    options = parser.parse_args()
    counts: Counter[tuple[str, str]] = Counter()
    bad: list[str] = []
    slowest = (0.0, "")
    start = time.perf_counter()
    for case in cases(options.seed, options.scenarios, options.data):
        began = time.perf_counter()
        for command, what, err in run_case(case):
            counts[(command, what)] += 1
            if is_bad(what):
                bad.append(f"{case.label}: {command}: {what}: {err[:200]}")
        took = time.perf_counter() - began
        slowest = max(slowest, (took, case.label))
    total = options.scenarios + options.data
    elapsed = time.perf_counter() - start
    print(f"{total} inputs in {elapsed:.0f} s ({elapsed / max(total, 1) * 1000:.0f} ms each; "
          f"slowest {slowest[0]:.1f} s: {slowest[1]})")
    for (command, what), n in sorted(counts.items()):
        print(f"  {command:<8} {what:<28} {n:>6}")
    for line in bad:
        print("FAIL", line)
    print(f"{len(bad)} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
