"""Benchmark: the geometry of AI activations on a 10-piece, 7-obstacle table.

Run: python bench/bench_geometry.py  (prints per-query costs and activations per second).
Speed targets are checked here, never in the unit tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from automa.catalog.load import load_catalog
from automa.engine.forecast import forecast
from automa.engine.turn import run_turn
from automa.geometry.moves import ruler_toward, sweep
from automa.geometry.sight import look_around
from automa.geometry.table import build_table
from automa.scenario.load import parse_scenario

TABLE = """
format = 1
[battle]
playmat = "inline"
los_blocked = true
[playmat]
size = [60.0, 90.0]
hero_zone = 12.0
monster_zone = 75.0
obstacles = [
  { id = "A", polygon = [[16.0, 27.0], [20.0, 27.0], [20.0, 33.0], [16.0, 33.0]] },
  { id = "B", polygon = [[40.0, 27.0], [44.0, 27.0], [44.0, 33.0], [40.0, 33.0]] },
  { id = "C", circle = [30.0, 42.0, 2.5] },
  { id = "D", polygon = [[13.0, 52.0], [17.0, 52.0], [17.0, 58.0], [13.0, 58.0]] },
  { id = "E", polygon = [[43.0, 52.0], [47.0, 52.0], [47.0, 58.0], [43.0, 58.0]] },
  { id = "F", circle = [30.0, 64.0, 2.0] },
  { id = "G", polygon = [[25.0, 20.0], [29.0, 18.0], [31.0, 22.0]] },
]
[playmat.runes]
1 = [15.0, 82.0]
2 = [45.0, 82.0]
3 = [30.0, 85.0]
4 = [8.0, 42.0]
5 = [52.0, 42.0]
6 = [30.0, 53.0]
"""
HEROES = [("barbarian", 30, 34), ("elf", 10, 36), ("wizard", 50, 22), ("thief", 22, 14)]
MONSTERS = [("sewer-rat", 22, 45), ("sewer-rat", 52, 70), ("centaur", 45, 62),
            ("skeleton-warrior", 30, 55), ("flame-wraith", 14, 64), ("giant-scorpion", 38, 78)]


def scenario_text() -> str:
    text = TABLE
    for name, x, y in HEROES:
        text += (f'\n[[piece]]\nid = "{name}"\nside = "heroes"\nat = [{x}.0, {y}.0]\n'
                 f"health = 8\ngold = 5\n")
    for i, (monster, x, y) in enumerate(MONSTERS):
        text += (f'\n[[piece]]\nid = "m{i}"\nside = "ai"\nmonster = "{monster}"\n'
                 f"at = [{x}.0, {y}.0]\n")
    return text


def per_call(label: str, fn: Callable[[], object], repeat: int) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    cost = (time.perf_counter() - start) / repeat
    print(f"{label:<44} {cost * 1e6:10.1f} µs")
    return cost


def main() -> None:
    catalog = load_catalog()
    scenario = parse_scenario(scenario_text(), "bench.toml", catalog)
    table = build_table(scenario.playmat)
    pieces = list(scenario.pieces)
    heroes = [p for p in pieces if p.side == "heroes"]
    monster = next(p for p in pieces if p.side == "ai")
    target = heroes[0]
    per_call("build the table (7 obstacles)", lambda: build_table(scenario.playmat), 200)
    per_call("360-degree sight, 4 heroes, centre-line",
             lambda: look_around(table, monster, heroes, True), 500)
    per_call("360-degree sight, 4 heroes, any-line",
             lambda: look_around(table, monster, heroes, True, "any-line"), 100)
    per_call("ruler move toward a target",
             lambda: ruler_toward(table, pieces, monster, target.at, target.radius, 15.0, target),
             500)
    per_call("clock sweep (push)", lambda: sweep(table, pieces, target, (0.6, -0.8), 15.0), 500)
    turn = per_call("full AI turn (6 activations)", lambda: run_turn(scenario, catalog, 1), 50)
    print(f"{'activations per second':<44} {6 / turn:10.0f}")
    per_call("forecast, 200 simulated turns", lambda: forecast(scenario, catalog, 200, 0), 2)
    Path("bench/.last-run").write_text(f"turn_seconds={turn:.6f}\n")


if __name__ == "__main__":
    main()
