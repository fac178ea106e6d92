"""Golden playthroughs: each scenario in tests/playthroughs/ must print its .out file.

The .out files are generated (`python tests/regenerate_playthroughs.py`) and then read by a
person against the `# expect:` line at the top of the scenario. The JSON form of the same turn
is also checked for invariants that hold whatever the printout says.

"The same" allows what another machine's rounding may do (`same_printout`): every word and whole
number exactly, and each decimal number within one unit of its last printed digit (a length a
millionth of a centimetre from a rounding boundary prints one side of it or the other). The
lengths themselves are held to 1e-6 cm by the fingerprint test (tests/test_fingerprint.py).
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Point

from automa.catalog.load import load_catalog
from automa.catalog.pieces import disc_radius
from automa.geometry.table import build_table
from automa.scenario.load import load_scenario
from tests.regenerate_fingerprints import same_printout
from tests.regenerate_playthroughs import (
    example_golden,
    examples,
    golden_path,
    run_example,
    run_scenario,
    scenario_files,
)

BAG_SIZES = {"1": 13, "2": 12, "3": 13}
TOLERANCE = 0.02  # cm: the JSON rounds positions to 0.01
SCENARIOS = scenario_files()


def _header(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {key: line.split(":", 1)[1].strip() for line in lines
            for key in ("rule", "expect") if line.startswith(f"# {key}:")}


def test_there_are_playthroughs() -> None:
    assert len(SCENARIOS) >= 30


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_says_what_it_checks(path: Path) -> None:
    header = _header(path)
    assert header.get("rule"), f"{path.name} must start with a '# rule: ...' line"
    assert header.get("expect"), f"{path.name} must have an '# expect: ...' line"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_printout_matches_golden(path: Path) -> None:
    golden = golden_path(path)
    if not golden.exists():
        pytest.fail(f"{golden.name} is missing: run `python tests/regenerate_playthroughs.py "
                    f"{path.stem}` and read the result against the scenario's '# expect:' line")
    expected = golden.read_text(encoding="utf-8")
    actual = run_scenario(path).golden()
    if not same_printout(expected, actual):
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True),
            fromfile=f"{golden.name} (golden)", tofile=f"{path.name} (now)"))
        pytest.fail(f"the printout of {path.name} changed; if the change is intended, run "
                    f"`python tests/regenerate_playthroughs.py {path.stem}` and check it.\n{diff}")


def _radii(path: Path) -> tuple[Any, dict[str, float]]:
    """The scenario and the disc radius of each piece, summoned ones ("zombie-2") included."""
    catalog = load_catalog()
    scenario = load_scenario(path, catalog)
    radii = {p.id: p.radius for p in scenario.pieces}
    for spec in (*catalog.monsters.values(), *catalog.lords.values()):
        radii.setdefault(spec.id, disc_radius(catalog, getattr(spec, "size", None)))
    return scenario, radii


def _radius(radii: dict[str, float], piece_id: str) -> float:
    if piece_id in radii:
        return radii[piece_id]
    return radii.get(piece_id.rsplit("-", 1)[0], 0.0)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_json_invariants(path: Path) -> None:
    run = run_scenario(path, as_json=True)
    if run.exit_code != 0:
        text = run_scenario(path)
        assert text.exit_code != 0, f"{path.name} is refused only with --json: {run.stderr}"
        # a scenario the rules refuse (its golden records the exit code): the same one line,
        # and no half-written JSON on stdout
        assert (run.exit_code, run.stderr, run.stdout) == (text.exit_code, text.stderr, "")
        assert run.stderr.count("\n") == 1, run.stderr
        return
    data = json.loads(run.stdout)
    scenario, radii = _radii(path)
    width, length = scenario.playmat.width, scenario.playmat.length
    for activation in data["activations"]:
        for step in activation["steps"]:
            if step["kind"] != "move":
                continue
            x, y = step["to"]
            r = _radius(radii, step["piece"])
            assert r - TOLERANCE <= x <= width - r + TOLERANCE, (
                f"{activation['character']}: move of {step['piece']} ends off the mat: {step}")
            assert r - TOLERANCE <= y <= length - r + TOLERANCE, (
                f"{activation['character']}: move of {step['piece']} ends off the mat: {step}")
    for level, size in BAG_SIZES.items():
        bag = data["bags"][level]
        assert bag["bag"] + bag["discard"] == size, f"level {level} bag and discard: {bag}"
    obstacles = build_table(scenario.playmat).obstacles
    for piece_id, piece in data["pieces"].items():
        if set(piece.get("conditions", ())) & {"aloft", "teleported", "devoured"}:
            continue
        disc = Point(piece["at"]).buffer(_radius(radii, piece_id) - TOLERANCE)
        for obstacle in obstacles:
            assert disc.intersection(obstacle.polygon).area < 1e-3, (
                f"{piece_id} ends on obstacle {obstacle.id} at {piece['at']}")


EXAMPLES = examples()


def test_the_examples_include_three_recorded_battles() -> None:
    """A battle room, a Catacomb Lord room and a Red Box special, recorded as sessions."""
    recorded = [e.name for e in EXAMPLES if e.is_dir()]
    assert len(recorded) >= 3
    assert any("lair" in name for name in recorded) and any("battle" in name for name in recorded)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_every_example_replays_to_its_golden(example: Path) -> None:
    golden = example_golden(example)
    assert golden.exists(), (f"the example {example.name} has no golden printout: run "
                             f"`python tests/regenerate_playthroughs.py {example.name}`")
    run = run_example(example)
    assert run.exit_code == 0, run.stderr
    if not same_printout(golden.read_text(encoding="utf-8"), run.golden()):
        diff = "".join(difflib.unified_diff(
            golden.read_text(encoding="utf-8").splitlines(keepends=True),
            run.golden().splitlines(keepends=True), fromfile="golden", tofile="now"))
        pytest.fail(f"{example.name} no longer replays to its golden printout:\n{diff}")
