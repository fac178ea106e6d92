"""The fingerprints of seeded AI turns: what tests/test_fingerprint.py compares against.

Run `python tests/regenerate_fingerprints.py` ONLY when a change of output is meant (a rule
changed, say), and say in the commit why the fingerprints moved. A speed-up must leave them as
they are.

A fingerprint is the SHA-256 of everything a turn prints, at full precision: the `automa turn
--json` object, the text printout with the --explain trace, and every float the engine produced
(each sighting's distance and margin, each step's fields, each piece's final place) in repr form.

To see what a meant change moved: `--dump old.json` before it, `--dump new.json` after it, then
`--compare old.json new.json` prints every place that changed other than by a number, and every
number that changed by more than 0.011 (a printed figure's last digit), and the largest change.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from automa.catalog.load import Catalog, load_catalog  # noqa: E402
from automa.engine.turn import TurnResult, run_turn  # noqa: E402
from automa.model.scenario import Scenario  # noqa: E402
from automa.render.json_out import turn_json  # noqa: E402
from automa.render.text import turn_text  # noqa: E402
from automa.scenario.load import load_scenario, parse_scenario  # noqa: E402
from tests.fingerprint_tables import FINGERPRINT_TABLES, table_text  # noqa: E402

STORE = ROOT / "tests" / "fingerprints.json"
SEEDS = (0, 1, 2, 3)  # each seed plays CHAINED turns, each from the table the last one left
CHAINED = 2
EXAMPLES = ("demo-battle.toml", "battle-chagnars-lair/scenario.toml",
            "lair-hmotha/scenario.toml", "special-summoners/scenario.toml")


def _exact(value: Any) -> Any:
    """Every field of a dataclass, floats as repr (round-trip exact)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _exact(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, np.generic):  # a numpy bool or float prints as the Python one
        return _exact(value.item())
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return [_exact(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(_exact(v) for v in value)
    if isinstance(value, dict):
        return {str(k): _exact(v) for k, v in value.items()}
    return value


def turn_record(result: TurnResult, los_blocked: bool) -> dict[str, Any]:
    exact = [{"visible": _exact(a.visible), "hidden": _exact(a.hidden),
              "steps": [{"kind": s.kind, **_exact(s)} for s in a.steps],
              "summoned": list(a.summoned), "repeat": a.repeat}
             for a in result.activations]
    return {"json": _exact(turn_json(result)), "text": turn_text(result, los_blocked, True),
            "exact": exact, "pieces": _exact(result.after.pieces),
            "chance": _exact(result.outcomes)}


def tables(catalog: Catalog) -> Iterator[tuple[str, Scenario]]:
    for name in EXAMPLES:
        yield name, load_scenario(ROOT / "examples" / name, catalog)
    for spec in FINGERPRINT_TABLES:
        yield spec.name, parse_scenario(table_text(spec), f"{spec.name}.toml", catalog)


def records(scenario: Scenario, catalog: Catalog) -> Iterator[dict[str, Any]]:
    for seed in SEEDS:
        current = scenario
        for _ in range(CHAINED):
            result = run_turn(current, catalog, seed, explain=True)
            yield turn_record(result, current.settings.los_blocked)
            current = result.after


def fingerprint(scenario: Scenario, catalog: Catalog) -> str:
    digest = hashlib.sha256()
    for record in records(scenario, catalog):
        digest.update(json.dumps(record, sort_keys=True, ensure_ascii=False).encode())
    return digest.hexdigest()


def fingerprints() -> dict[str, str]:
    catalog = load_catalog()
    return {name: fingerprint(scenario, catalog) for name, scenario in tables(catalog)}


NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def differences(old: Any, new: Any, where: str = "") -> Iterator[tuple[str, float | None]]:
    """Where two dumps differ: (place, largest numeric change) or (place, None) when the
    difference is not in a number (a different word, choice or count)."""
    if isinstance(old, dict) and isinstance(new, dict):
        if sorted(old) != sorted(new):
            yield where + " keys", None
            return
        for key in old:
            yield from differences(old[key], new[key], f"{where}/{key}")
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            yield where + " length", None
            return
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            yield from differences(a, b, f"{where}[{i}]")
    elif isinstance(old, str) and isinstance(new, str):
        if old == new:
            return
        if NUMBER.split(old) != NUMBER.split(new):
            yield where, None
            return
        change = max(abs(float(a) - float(b)) for a, b in
                     zip(NUMBER.findall(old), NUMBER.findall(new), strict=True))
        yield where, change
    elif isinstance(old, (int, float)) and isinstance(new, (int, float)) \
            and not isinstance(old, bool) and not isinstance(new, bool):
        if old != new:
            yield where, abs(float(old) - float(new))
    elif old != new:
        yield where, None


def dump(path: Path) -> None:
    catalog = load_catalog()
    path.write_text(json.dumps({name: list(records(scenario, catalog))
                                for name, scenario in tables(catalog)}))


def compare(old_path: Path, new_path: Path) -> None:
    """Print how the output moved between two dumps: numbers by how much, anything else."""
    old, new = json.loads(old_path.read_text()), json.loads(new_path.read_text())
    worst = 0.0
    for place, change in differences(old, new):
        if change is None or change > 0.011:
            print(f"{place}: {'not a number' if change is None else change}")
        worst = max(worst, change or 0.0)
    print(f"largest numeric change: {worst:.3g}")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--dump":
        dump(Path(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "--compare":
        compare(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        STORE.write_text(json.dumps(fingerprints(), indent=2) + "\n")
        print(f"wrote {STORE}")


if __name__ == "__main__":
    main()
