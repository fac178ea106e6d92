"""Seeded legal tables for the fingerprint test and the benchmarks: scenario TOML text only.

A table is drawn from its own numpy Generator: a 60 x 90 cm inline mat, obstacles (circles,
boxes, triangles and hexagons) that keep clear of each other, then heroes and monsters placed
where their discs touch neither an obstacle, another disc nor the mat edge. Nothing here imports
the program, so the benchmark can feed the same tables to an older checkout of it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

WIDTH, LENGTH = 60.0, 90.0
HERO_RADIUS = 1.6  # generous: the catalog's discs are at most this (placement keeps a gap)
MONSTER_RADIUS = 2.6
GAP = 0.3
HEROES = ("barbarian", "elf", "wizard", "thief")
MONSTERS = ("sewer-rat", "orc", "centaur", "skeleton-warrior", "flame-wraith",
            "giant-scorpion", "zombie", "skeleton-archer", "minotaur", "troll", "gargoyle",
            "pit-viper", "fire-spirit", "ghoul", "vampire-bat", "swamp-orc")
RUNES = {1: (15.0, 82.0), 2: (45.0, 82.0), 3: (30.0, 85.0), 4: (8.0, 42.0), 5: (52.0, 42.0),
         6: (30.0, 53.0)}


@dataclass(frozen=True)
class TableSpec:
    name: str
    seed: int
    heroes: int
    monsters: int
    obstacles: int
    los_blocked: bool
    advanced: bool = False
    los_test: str = "centre-line"


def _obstacle(rng: np.random.Generator) -> tuple[str, tuple[float, float, float],
                                                  list[tuple[float, float]]]:
    """(kind, (x, y, bounding radius), polygon corners or [])."""
    x = float(rng.uniform(6.0, WIDTH - 6.0))
    y = float(rng.uniform(16.0, LENGTH - 18.0))
    kind = ("circle", "box", "triangle", "hexagon")[int(rng.integers(4))]
    if kind == "circle":
        r = round(float(rng.uniform(1.5, 3.5)), 2)
        return kind, (round(x, 2), round(y, 2), r), []
    size = float(rng.uniform(1.5, 3.5))
    turn = float(rng.uniform(0.0, 2 * math.pi))
    if kind == "box":
        half = (size, size * float(rng.uniform(0.5, 1.5)))
        corners = [(sx * half[0], sy * half[1]) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    else:
        n = 3 if kind == "triangle" else 6
        corners = [(size * math.cos(2 * math.pi * k / n), size * math.sin(2 * math.pi * k / n))
                   for k in range(n)]
    c, s = math.cos(turn), math.sin(turn)
    polygon = [(round(x + c * px - s * py, 3), round(y + s * px + c * py, 3))
               for px, py in corners]
    return kind, (x, y, max(math.hypot(px, py) for px, py in corners)), polygon


def table_text(spec: TableSpec) -> str:
    """The scenario of `spec`: legal, and the same for the same spec on every machine."""
    rng = np.random.default_rng(spec.seed)
    discs: list[tuple[float, float, float]] = []  # keep-out discs: obstacles, then pieces
    obstacle_lines = []
    while len(obstacle_lines) < spec.obstacles:
        kind, (x, y, r), polygon = _obstacle(rng)
        if any(math.hypot(x - a, y - b) < r + c + 1.0 for a, b, c in discs):
            continue
        if any(math.hypot(x - a, y - b) < r + 2.5 for a, b in RUNES.values()):
            continue
        discs.append((x, y, r))
        name = f"O{len(obstacle_lines)}"
        if kind == "circle":
            obstacle_lines.append(f'  {{ id = "{name}", circle = [{x}, {y}, {r}] }},')
        else:
            corners = ", ".join(f"[{px}, {py}]" for px, py in polygon)
            obstacle_lines.append(f'  {{ id = "{name}", polygon = [{corners}] }},')
    runes = "\n".join(f"{k} = [{x}, {y}]" for k, (x, y) in RUNES.items())
    text = (f"# generated: {spec}\nformat = 1\n[battle]\nplaymat = \"inline\"\n"
            f"los_blocked = {str(spec.los_blocked).lower()}\n"
            f"advanced_targeting = {str(spec.advanced).lower()}\n"
            f"los_test = \"{spec.los_test}\"\n"
            f"[playmat]\nsize = [{WIDTH}, {LENGTH}]\nhero_zone = 12.0\nmonster_zone = 75.0\n"
            f"obstacles = [\n" + "\n".join(obstacle_lines) + f"\n]\n[playmat.runes]\n{runes}\n")

    def place(radius: float, low: float, high: float) -> tuple[float, float]:
        for _ in range(10_000):
            x = round(float(rng.uniform(radius + 0.5, WIDTH - radius - 0.5)), 2)
            y = round(float(rng.uniform(max(low, radius + 0.5), min(high, LENGTH - radius - 0.5))),
                      2)
            if all(math.hypot(x - a, y - b) >= radius + c + GAP for a, b, c in discs):
                discs.append((x, y, radius))
                return x, y
        raise ValueError(f"{spec.name}: no room left for a piece")

    for i in range(spec.heroes):
        hero = HEROES[i] if i < len(HEROES) else f"hero-{i + 1}"
        x, y = place(HERO_RADIUS, 0.0, 60.0)
        text += (f'\n[[piece]]\nid = "{hero}"\nside = "heroes"\nat = [{x}, {y}]\n'
                 f"health = {int(rng.integers(3, 10))}\ngold = {int(rng.integers(0, 10))}\n"
                 f"items = {int(rng.integers(0, 3))}\npoison = {int(rng.integers(0, 2))}\n")
    for i in range(spec.monsters):
        monster = MONSTERS[int(rng.integers(len(MONSTERS)))]
        x, y = place(MONSTER_RADIUS, 25.0, LENGTH)
        text += (f'\n[[piece]]\nid = "m{i}"\nside = "ai"\nmonster = "{monster}"\n'
                 f"at = [{x}, {y}]\n")
    return text


DEMO_BLOCKED = TableSpec("bench-12m-4h-10o", 1214, heroes=4, monsters=12, obstacles=10,
                         los_blocked=True)
BIG = TableSpec("bench-40p-40o", 4040, heroes=8, monsters=32, obstacles=40, los_blocked=True)

FINGERPRINT_TABLES = (
    TableSpec("gen-small-open", 11, heroes=2, monsters=3, obstacles=2, los_blocked=False),
    TableSpec("gen-small-blocked", 12, heroes=3, monsters=4, obstacles=5, los_blocked=True),
    TableSpec("gen-mid-blocked", 13, heroes=4, monsters=10, obstacles=12, los_blocked=True),
    TableSpec("gen-mid-advanced", 14, heroes=4, monsters=8, obstacles=8, los_blocked=True,
              advanced=True),
    TableSpec("gen-mid-open", 15, heroes=4, monsters=12, obstacles=20, los_blocked=False),
    TableSpec("gen-large-blocked", 16, heroes=6, monsters=24, obstacles=25, los_blocked=True),
    TableSpec("gen-max-blocked", 17, heroes=8, monsters=32, obstacles=30, los_blocked=True),
    TableSpec("gen-mid-corridor", 18, heroes=4, monsters=8, obstacles=12, los_blocked=True,
              los_test="corridor"),
    TableSpec("gen-mid-any-line", 19, heroes=4, monsters=8, obstacles=12, los_blocked=True,
              los_test="any-line"),
    DEMO_BLOCKED,
)
