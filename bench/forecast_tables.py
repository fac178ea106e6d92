"""The forecast's bench tables, as scenario text: the same text for every code tree measured.

- `eight`: the demo battle with three more monsters (bench_forecast.py's first table);
- `twelve`: 12 monsters, 4 heroes, 12 obstacles, sight blocked by the any-line test (the
  costliest): the slowest to forecast of three seeded draws (3012 to 3014) of
  tests/fingerprint_tables.py's generator, one worker, 1,000 turns;
- `forty`: 40 pieces, 12 monsters among 28 heroes, 12 obstacles, blocked sight (centre-line):
  every monster's target chosen among many.

The generator is read from tests/ by its path, so an older tree's program is fed the same
tables (the text does not depend on the code under test).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
TABLES = ("eight", "twelve", "forty")
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
NAMES = {"eight": "8 monsters, the demo's 7 obstacles, blocked sight (centre-line)",
         "twelve": "12 monsters, 4 heroes, 12 obstacles, blocked sight (any-line)",
         "forty": "40 pieces (12 monsters, 28 heroes), 12 obstacles, blocked sight"}


def fingerprint_tables() -> ModuleType:
    """tests/fingerprint_tables.py (the tables' generator), loaded by its path so any code
    tree's bench can use it without tests/ being a package on the path."""
    spec = importlib.util.spec_from_file_location(
        "fingerprint_tables", ROOT / "tests" / "fingerprint_tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fingerprint_tables"] = module
    spec.loader.exec_module(module)
    return module


def table_text(name: str) -> str:
    """The scenario text of the bench table `name` (one of TABLES)."""
    if name == "eight":
        text = (ROOT / "examples" / "demo-battle.toml").read_text(encoding="utf-8")
        assert "los_blocked = true" in text and "\n[chance]" in text
        return text.replace("\n[chance]", MORE_MONSTERS + "\n[chance]")
    gen = fingerprint_tables()
    if name == "twelve":
        return str(gen.table_text(gen.TableSpec(
            "bench-forecast-12m", 3014, heroes=4, monsters=12, obstacles=12, los_blocked=True,
            los_test="any-line")))
    if name == "forty":
        return str(gen.table_text(gen.TableSpec(
            "bench-forecast-40p", 4012, heroes=28, monsters=12, obstacles=12,
            los_blocked=True)))
    raise ValueError(f"no bench table {name!r}; one of {', '.join(TABLES)}")


def write_table(name: str, folder: Path) -> Path:
    path = folder / f"forecast-{name}.toml"
    path.write_text(table_text(name), encoding="utf-8")
    return path
