"""The fingerprints of seeded AI turns: what tests/test_fingerprint.py compares against.

Run `python tests/regenerate_fingerprints.py` ONLY when a change of output is meant (a rule
changed, say), and say in the commit why the fingerprints moved. A speed-up must leave them as
they are, and so must another machine: another BLAS, CPU features or libm may round a length
otherwise in its last bits, never decide otherwise.

A turn's fingerprint keeps its decisions exactly and its lengths to within TOLERANCE_CM:

- Each activation's record (what it saw, each step, what it summoned, a repeat) and the turn's
  end (every piece as it stands, every chance outcome) are split in two. Every float goes to
  `numbers` (lengths and coordinates in cm, kept to KEPT_DECIMALS places; inf as "inf"); the
  rest, with each float's place marked, is the decision: activation order, targets, sequences,
  draws, hits, damage, which outcome came from a script, a die or the Generator, every word.
  The decision is kept as a digest: it compares exactly, and a change is shown by `--compare`.
- The printouts (the text with its --explain trace, and the `--json` object) print rounded
  numbers, and a length within 1e-6 cm of a rounding boundary may print one unit higher or
  lower in its last digit on another machine. So they are kept as a digest of their text with
  every decimal number masked (their words and whole numbers compare exactly), and their
  decimal numbers are compared through the unrounded floats above. The explain trace prints a
  few figures no record holds (a move's room before a different stop): its numbers are kept as
  printed (`explained`), and each may differ by one unit of its last printed digit at most.

`python tests/regenerate_fingerprints.py --compare` plays every table and prints every place
where it differs from the stored fingerprints (beyond the tolerance), and the largest change of
a number.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from msgspec import Struct

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from automa.catalog.load import Catalog, load_catalog  # noqa: E402
from automa.engine.turn import TurnResult, run_turn  # noqa: E402
from automa.model.memo import Memo  # noqa: E402
from automa.model.scenario import Scenario  # noqa: E402
from automa.render.json_out import turn_json  # noqa: E402
from automa.render.text import turn_text  # noqa: E402
from automa.scenario.load import load_scenario, parse_scenario  # noqa: E402
from tests.fingerprint_tables import FINGERPRINT_TABLES, table_text  # noqa: E402

STORE = ROOT / "tests" / "fingerprints.json"
TOLERANCE_CM = 1e-6  # a length or coordinate may move this much (cm) on another machine
KEPT_DECIMALS = 7  # stored numbers are rounded to 1e-7 cm (off by 5e-8 at most: a twentieth
# of the tolerance), which keeps the file small
SEEDS = (0, 1, 2, 3)  # each seed plays CHAINED turns, each from the table the last one left
CHAINED = 2
EXAMPLES = ("demo-battle.toml", "battle-chagnars-lair/scenario.toml",
            "lair-hmotha/scenario.toml", "special-summoners/scenario.toml")
DECIMAL = re.compile(r"-?\d+\.\d+")  # a printed decimal number (a sign may flip at -0.0)
FLOAT_MARK = "#"  # a float's place in a decision
DIGEST_CHARS = 24  # hex digits kept of a SHA-256: far past any chance of a collision here

Number = float | str  # a stored number: a finite float, or "inf", "-inf", "nan"
Fingerprint = dict[str, Any]  # one turn's: see `turn_fingerprint`


def plain(value: Any) -> Any:
    """A record as JSON-like values: a record as a dict of its fields (but a memo: never
    part of its value), numpy scalars as Python ones, tuples as lists, a frozenset sorted.
    Floats stay floats."""
    if isinstance(value, Struct):
        return {name: plain(getattr(value, name)) for name in value.__struct_fields__
                if not isinstance(getattr(value, name), Memo)}
    if isinstance(value, np.generic):
        return plain(value.item())
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(plain(v) for v in value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def turn_record(result: TurnResult, los_blocked: bool) -> dict[str, Any]:
    """All a seeded turn produced, unrounded: each activation's record, the pieces and chance
    outcomes at its end, and both printouts (the text with its trace, and the JSON object)."""
    activations = [{"character": a.character, "visible": plain(a.visible),
                    "hidden": plain(a.hidden),
                    "steps": [{"kind": s.kind, **plain(s)} for s in a.steps],
                    "summoned": list(a.summoned), "repeat": a.repeat}
                   for a in result.activations]
    return {"activations": activations,
            "end": {"pieces": plain(result.after.pieces), "chance": plain(result.outcomes)},
            "text": turn_text(result, los_blocked, True),
            "json": json.dumps(plain(turn_json(result)), sort_keys=True, ensure_ascii=False)}


def split(value: Any, where: str = "") -> tuple[Any, list[Number], list[str]]:
    """A record's decision (floats marked in their places), its floats in order, and each
    float's place (for messages)."""
    numbers: list[Number] = []
    places: list[str] = []

    def walk(item: Any, at: str) -> Any:
        if isinstance(item, float):
            numbers.append(round(item, KEPT_DECIMALS) if math.isfinite(item) else str(item))
            places.append(at)
            return FLOAT_MARK
        if isinstance(item, list):
            return [walk(v, f"{at}[{i}]") for i, v in enumerate(item)]
        if isinstance(item, dict):
            return {k: walk(v, f"{at}.{k}" if at else k) for k, v in item.items()}
        return item

    return walk(value, where), numbers, places


def digest(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True,
                                                           ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_CHARS]


def masked(text: str) -> str:
    """A printout with every decimal number masked: its words and whole numbers."""
    return DECIMAL.sub(FLOAT_MARK, text)


def explained(record: dict[str, Any]) -> str:
    """The decimal numbers of the JSON printout's explain traces, as printed, in order."""
    lines = [line for activation in json.loads(record["json"])["activations"]
             for line in activation.get("explain", ())]
    return " ".join(DECIMAL.findall("\n".join(lines)))


def turn_fingerprint(record: dict[str, Any]) -> Fingerprint:
    """What is stored of a turn (see the module's text)."""
    parts = []
    for activation in [*record["activations"], record["end"]]:
        decision, numbers, _ = split(activation)
        parts.append({"who": activation.get("character", "end"), "decision": digest(decision),
                      "numbers": numbers})
    return {"parts": parts,
            "printout": digest(masked(record["text"]) + "\n" + masked(record["json"])),
            "explained": explained(record)}


def same_printout(old: str, new: str) -> bool:
    """Whether two printouts are the same but for printed decimal numbers that a length moved
    within the tolerance could have rounded otherwise: the same words and whole numbers, and
    each decimal number at most one unit of its last digit apart."""
    if old == new:
        return True
    if masked(old) != masked(new):
        return False
    return not any(printed_apart(a, b) for a, b in zip(DECIMAL.findall(old),
                                                        DECIMAL.findall(new), strict=True))


def tables(catalog: Catalog) -> Iterator[tuple[str, Scenario]]:
    for name in EXAMPLES:
        yield name, load_scenario(ROOT / "examples" / name, catalog)
    for spec in FINGERPRINT_TABLES:
        yield spec.name, parse_scenario(table_text(spec), f"{spec.name}.toml", catalog)


def records(scenario: Scenario, catalog: Catalog) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each seeded turn's name ("seed 1, turn 2") and record."""
    for seed in SEEDS:
        current = scenario
        for turn in range(1, CHAINED + 1):
            result = run_turn(current, catalog, seed, explain=True)
            yield f"seed {seed}, turn {turn}", turn_record(result, current.settings.los_blocked)
            current = result.after


def fingerprint(scenario: Scenario, catalog: Catalog) -> dict[str, Fingerprint]:
    return {name: turn_fingerprint(record) for name, record in records(scenario, catalog)}


def _number_change(old: Number, new: Number) -> float | None:
    """How far a number moved (0.0: the same); None when one is not finite and they differ."""
    if isinstance(old, str) or isinstance(new, str):
        return 0.0 if old == new else None
    return abs(new - old)


def printed_apart(old: str, new: str) -> bool:
    """Whether two printed numbers differ by more than one unit of the finer last digit (a
    rounding boundary crossed by a tiny change moves a printed figure by one unit)."""
    if old == new:
        return False
    places = max(len(old.partition(".")[2]), len(new.partition(".")[2]))
    return abs(float(old) - float(new)) > 10.0 ** -places * (1 + 1e-9)


def differences(stored: Fingerprint, fresh: Fingerprint, record: dict[str, Any] | None = None,
                tolerance: float = TOLERANCE_CM) -> Iterator[tuple[str, float | None]]:
    """Where a turn's fresh fingerprint differs from the stored one: (place, how far a number
    moved, beyond `tolerance`) or (place, None) for a decision or a printout. `record` (the
    fresh turn's) names each number's place."""
    old_parts, new_parts = stored["parts"], fresh["parts"]
    if [p["who"] for p in old_parts] != [p["who"] for p in new_parts]:
        yield (f"the activations: {[p['who'] for p in old_parts]} -> "
               f"{[p['who'] for p in new_parts]}"), None
        return
    sources = [*record["activations"], record["end"]] if record is not None else []
    for i, (old, new) in enumerate(zip(old_parts, new_parts, strict=True)):
        part = f"activation {i + 1} ({old['who']})" if old["who"] != "end" else "the turn's end"
        if old["decision"] != new["decision"]:
            yield f"{part}: its decisions", None
            continue
        places = split(sources[i])[2] if sources else []
        for k, (a, b) in enumerate(zip(old["numbers"], new["numbers"], strict=True)):
            change = _number_change(a, b)
            if change is None or change > tolerance:
                yield f"{part}: {places[k] if places else f'number {k}'} {a} -> {b}", change
    if stored["printout"] != fresh["printout"]:
        yield "the printout's words or whole numbers", None
    old_printed, new_printed = stored["explained"].split(), fresh["explained"].split()
    if len(old_printed) != len(new_printed):
        yield "the explain trace's count of numbers", None
        return
    for k, (a, b) in enumerate(zip(old_printed, new_printed, strict=True)):
        if printed_apart(a, b):
            yield f"the explain trace's number {k + 1}: {a} -> {b}", None


def table_differences(stored: dict[str, Fingerprint], scenario: Scenario, catalog: Catalog,
                      tolerance: float = TOLERANCE_CM) -> Iterator[tuple[str, float | None]]:
    """Every difference between a table's stored fingerprints and its turns played now, each
    place led by the turn's name; and (place "largest change", the largest number's move)."""
    largest = 0.0
    played = []
    for name, record in records(scenario, catalog):
        played.append(name)
        if name not in stored:
            yield f"{name}: not stored", None
            continue
        fresh = turn_fingerprint(record)
        for place, change in differences(stored[name], fresh, record, tolerance):
            yield f"{name}: {place}", change
        largest = max(largest, largest_change(stored[name], fresh))
    if sorted(played) != sorted(stored):
        yield f"stored turns {sorted(stored)}, played {sorted(played)}", None
    yield "largest change", largest


def largest_change(stored: Fingerprint, fresh: Fingerprint) -> float:
    """The largest move of a finite number, among the parts whose decisions are the same."""
    moves = [abs(b - a) for old, new in zip(stored["parts"], fresh["parts"], strict=False)
             if old["decision"] == new["decision"]
             for a, b in zip(old["numbers"], new["numbers"], strict=True)
             if isinstance(a, float) and isinstance(b, float)]
    return max(moves, default=0.0)


def fingerprints() -> dict[str, dict[str, Fingerprint]]:
    catalog = load_catalog()
    return {name: fingerprint(scenario, catalog) for name, scenario in tables(catalog)}


def stored_text(prints: dict[str, dict[str, Fingerprint]]) -> str:
    """The store's text: a table a block, a turn a line (a regenerated store diffs by turn)."""
    blocks = []
    for table, turns in prints.items():
        lines = [f"    {json.dumps(turn)}: {json.dumps(value, separators=(',', ':'))}"
                 for turn, value in turns.items()]
        blocks.append(f"  {json.dumps(table)}: {{\n" + ",\n".join(lines) + "\n  }")
    return "{\n" + ",\n".join(blocks) + "\n}\n"


def compare() -> int:
    """Print every difference from the stored fingerprints; the count of them."""
    catalog = load_catalog()
    stored = json.loads(STORE.read_text())
    found = 0
    for name, scenario in tables(catalog):
        for place, change in table_differences(stored.get(name, {}), scenario, catalog):
            if place == "largest change":
                print(f"{name}: largest change of a number {change:.3g} cm")
                continue
            found += 1
            print(f"{name}: {place}" + ("" if change is None else f" (moved {change:.3g})"))
    return found


def main() -> None:
    if sys.argv[1:] == ["--compare"]:
        raise SystemExit(1 if compare() else 0)
    if sys.argv[1:]:
        raise SystemExit("usage: python tests/regenerate_fingerprints.py [--compare]")
    STORE.write_text(stored_text(fingerprints()))
    print(f"wrote {STORE}")


if __name__ == "__main__":
    main()
