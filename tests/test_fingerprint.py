"""Every seeded AI turn on the shipped examples and on generated tables (up to 40 pieces and 30
obstacles; circles and polygons; blocked and open sight; the three sight tests) decides exactly
what it decided when tests/fingerprints.json was written, prints the same words, and measures
every length and coordinate to within TOLERANCE_CM: a speed-up must not change a decision, nor
may another machine's rounding (tests/regenerate_fingerprints.py says what is kept and how the
rounded printouts are compared).

The fingerprints change only by running `python tests/regenerate_fingerprints.py` on purpose,
in a commit that says why the output moved.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from automa.catalog.load import load_catalog
from tests.regenerate_fingerprints import (
    STORE,
    TOLERANCE_CM,
    differences,
    same_printout,
    split,
    table_differences,
    tables,
    turn_fingerprint,
)

STORED: dict[str, dict[str, Any]] = json.loads(STORE.read_text())
CATALOG = load_catalog()
TABLES = dict(tables(CATALOG))


def test_every_table_has_a_fingerprint() -> None:
    assert sorted(STORED) == sorted(TABLES)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_seeded_turns_decide_and_measure_what_they_did(name: str) -> None:
    found = [f"{place}" + ("" if change is None else f" (moved {change:.3g} cm)")
             for place, change in table_differences(STORED[name], TABLES[name], CATALOG)
             if place != "largest change"]
    assert not found, (
        f"the seeded turns on {name} decide, print or measure otherwise now (lengths may move "
        f"{TOLERANCE_CM} cm):\n" + "\n".join(found[:20]) + "\nif that is meant, run python "
        "tests/regenerate_fingerprints.py and say why in the commit")


def _record(x: float, step: str = "move", health: int = 5, explain: str = "0.14") -> dict[
        str, Any]:
    """A made-up turn record of one activation, for the comparison's own tests."""
    activation = {"character": "rat-1", "visible": [], "hidden": [],
                  "steps": [{"kind": step, "end": [x, 2.0]}], "summoned": [], "repeat": None}
    trace = json.dumps({"activations": [{"explain": [f"margin {explain} cm"]}]})
    return {"activations": [activation],
            "end": {"pieces": [{"id": "elf", "at": [x, 1.5], "health": health}], "chance": []},
            "text": f"rat-1 moves to ({x:.1f}, 2.0)\n", "json": trace}


def _differs(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    return [place for place, _ in differences(turn_fingerprint(old), turn_fingerprint(new), new)]


def test_a_length_moved_within_the_tolerance_is_the_same_turn() -> None:
    assert _differs(_record(10.05), _record(10.05 + 0.9 * TOLERANCE_CM)) == []


def test_a_length_moved_beyond_the_tolerance_is_named() -> None:
    assert _differs(_record(10.05), _record(10.05 + 2 * TOLERANCE_CM)) == [
        "activation 1 (rat-1): steps[0].end[0] 10.05 -> 10.050002",
        "the turn's end: pieces[0].at[0] 10.05 -> 10.050002"]


def test_a_printed_figure_may_cross_a_rounding_boundary_by_one_digit() -> None:
    """10.05 prints 10.1 here (10.05 is a little above 10.05 in binary); 10.05 less a
    millionth prints 10.0, and the masked text and the numbers still agree."""
    below = 10.05 - 0.5 * TOLERANCE_CM
    assert f"{10.05:.1f}" != f"{below:.1f}"
    assert _differs(_record(10.05), _record(below)) == []
    assert _differs(_record(10.05, explain="0.14"), _record(10.05, explain="0.15")) == []


def test_a_decision_or_a_printed_number_beyond_a_digit_is_named() -> None:
    assert _differs(_record(1.0), _record(1.0, step="push")) == [
        "activation 1 (rat-1): its decisions"]
    assert _differs(_record(1.0), _record(1.0, health=4)) == [
        "the turn's end: its decisions"]
    assert _differs(_record(1.0, explain="0.14"), _record(1.0, explain="0.16")) == [
        "the explain trace's number 1: 0.14 -> 0.16"]


def test_a_float_is_a_number_and_every_other_value_a_decision() -> None:
    decision, numbers, places = split({"at": [1.5, 2], "ok": True, "far": float("inf")})
    assert decision == {"at": ["#", 2], "ok": True, "far": "#"}
    assert numbers == [1.5, "inf"] and places == ["at[0]", "far"]


def test_a_printout_is_the_same_but_for_a_last_digit_crossing_a_boundary() -> None:
    """The golden playthroughs' comparison (tests/test_playthroughs.py)."""
    golden = "Knight 25.1 cm → (30.0, 43.0); health 9 → 6\n"
    assert same_printout(golden, golden)
    assert same_printout(golden, "Knight 25.2 cm → (29.9, 43.0); health 9 → 6\n")
    assert same_printout(golden, "Knight 25.1 cm → (30.0, 43.0); health 9 → -6\n") is False
    assert same_printout(golden, "Knight 25.3 cm → (30.0, 43.0); health 9 → 6\n") is False
    assert same_printout(golden, "Knight 25.1 cm → (30.0, 43.0); health 9 → 5\n") is False
    assert same_printout(golden, "Elf 25.1 cm → (30.0, 43.0); health 9 → 6\n") is False
