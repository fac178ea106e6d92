"""The threat map's speed against a cold `automa turn`, as a ratio measured in one run.

Each pair runs `automa turn SCENARIO --seed 1 --json` and `automa threat SCENARIO HERO --json`
as fresh processes, in alternating order (so drift on a shared machine hits both alike), and
the ratio of their wall times is taken per pair; the median of the ratios is reported. The
target (issue 14): at least 1,000 grid spots within 8 cold turns, that is
spots / (threat time / turn time) * 8 >= 1000.

Usage: python bench/bench_threat.py [--pairs 9] [--step 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "automa" / "_examples" / "demo-battle.toml"
TARGET = 1000  # spots within 8 cold turns


def _run(args: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "automa", *args], capture_output=True,
                          text=True, check=True)
    return time.perf_counter() - start, done.stdout


def _tables(folder: Path) -> list[tuple[str, Path, str]]:
    """The demo as shipped (blocked, centre-line) and with the lenient any-line test."""
    text = DEMO.read_text()
    lenient = folder / "demo-any-line.toml"
    lenient.write_text(text.replace("los_blocked = true", 'los_blocked = true\nlos_test = '
                                                          '"any-line"'))
    return [("demo, blocked, centre-line", DEMO, "elf"),
            ("demo, blocked, any-line", lenient, "elf")]


def measure(scenario: Path, hero: str, pairs: int, step: float) -> dict[str, float]:
    turn = ["turn", str(scenario), "--seed", "1", "--json"]
    threat = ["threat", str(scenario), hero, "--step", f"{step:g}", "--json"]
    _run(turn), _run(threat)  # warm the file cache and the bytecode
    ratios, turns, threats = [], [], []
    spots = 0
    for i in range(pairs):
        order = (turn, threat) if i % 2 == 0 else (threat, turn)
        times = {}
        for args in order:
            seconds, out = _run(args)
            times[args[0]] = seconds
            if args[0] == "threat":
                spots = len(json.loads(out)["cells"])
        turns.append(times["turn"])
        threats.append(times["threat"])
        ratios.append(times["threat"] / times["turn"])
    ratio = statistics.median(ratios)
    return {"spots": spots, "turn_s": statistics.median(turns),
            "threat_s": statistics.median(threats), "ratio": ratio,
            "spots_in_8_turns": spots / ratio * 8}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=9)
    parser.add_argument("--step", type=float, default=1.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        ok = True
        for name, scenario, hero in _tables(Path(folder)):
            found = measure(scenario, hero, args.pairs, args.step)
            ok &= found["spots_in_8_turns"] >= TARGET
            print(f"{name}: {found['spots']} spots; cold turn {found['turn_s'] * 1000:.0f} ms, "
                  f"threat {found['threat_s'] * 1000:.0f} ms (median of {args.pairs}); "
                  f"paired median ratio {found['ratio']:.2f}x a turn -> "
                  f"{found['spots_in_8_turns']:.0f} spots within 8 cold turns "
                  f"(target {TARGET})")
    print("target met" if ok else "TARGET MISSED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
