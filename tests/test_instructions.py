"""Instructions a player can follow exactly (issue 11, section 4): every ruler step says where the
ruler starts, what it points at and where the disc stops; every Clock template step says which
side is up, where 12 points and which number the ruler goes to."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from automa.engine.steps import MoveStep
from automa.render.text import step_text

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
STEP = re.compile(r"^   [a-z]\) ")


def printed_steps() -> list[str]:
    """Every lettered step of every golden printout, its wrapped lines joined."""
    steps: list[str] = []
    for out in sorted(PLAYTHROUGHS.rglob("*.out")):
        for line in out.read_text(encoding="utf-8").splitlines():
            if STEP.match(line):
                steps.append(line.strip())
            elif line.startswith("      ") and steps:
                steps[-1] += " " + line.strip()
    return steps


def test_every_ruler_move_starts_points_and_stops() -> None:
    moves = [s for s in printed_steps() if re.search(r"\blay Ruler \d", s)
             and "boomerang" not in s and "pointing at the centre of" in s
             and not re.fullmatch(r"[a-z]\) lay Ruler 3 from .+", s)]  # a range check
    assert len(moves) > 50
    for step in moves:
        assert re.search(r"lay Ruler \d from .+'s edge pointing at ", step), step
        assert re.search(r"stops|does not move|lies flat", step), step


def test_the_range_check_lays_the_ruler_then_says_if_it_reaches() -> None:
    steps = printed_steps()
    check = re.compile(r"[a-z]\) lay Ruler 3 from \S.*'s edge pointing at the centre of .+")
    checks = [i for i, s in enumerate(steps) if check.fullmatch(s)]
    assert checks
    for i in checks:
        assert re.match(r"[a-z]\) it (reaches|does not reach) ", steps[i + 1]), steps[i + 1]


def test_every_clock_step_says_side_twelve_and_number() -> None:
    clocks = [s for s in printed_steps() if "Clock template on" in s and "half Clock" not in s]
    assert len(clocks) > 30
    for step in clocks:
        assert re.search(r"(front|reverse) side up, 12 toward the (Hero Start Zone edge|centre "
                         r"of the mat)", step), step
        assert re.search(r"toward (\d+ o'clock|face \d+)", step), step
        assert re.search(r"stops|far end of the ruler|does not move, already", step), step


ASKED_MOVES = [
    MoveStep("rat", (0, 0), (1, 1), "rush", "Ruler 3", "Elf"),
    MoveStep("elf", (0, 0), (1, 1), "push", "Clock template (reverse) + Ruler 3", clock=4),
    MoveStep("rat", (0, 0), (1, 1), "retreat toward the Monster Start Zone",
             "half Clock template + Ruler 2", clock=7),
    MoveStep("rat", (0, 0), (1, 1), "move toward the closest obstacle", "Ruler 3", "obstacle A"),
    MoveStep("rat-2", (0, 0), (1, 1), "summoned", "Clock template (front) + Ruler 1", "Rat",
             clock=9),
]


def test_the_half_clock_faces_the_monster_zone() -> None:
    retreats = [s for s in printed_steps() if "half Clock template on" in s]
    assert retreats
    for step in retreats:
        assert re.search(r"arc toward the Monster Start Zone edge; Ruler \d from its edge toward "
                         r"face \d+", step), step


@pytest.mark.parametrize("step", ASKED_MOVES, ids=lambda s: s.why)
def test_asked_moves_say_the_same_without_coordinates(step: MoveStep) -> None:
    text = step_text(step, {"rat": "Rat", "elf": "Elf", "rat-2": "Rat #2"}, coordinates=False)
    assert "(1.0, 1.0)" not in text and " cm" not in text
    assert re.search(r"from (\w+'s|its) edge", text), text
    assert re.search(r"far end of the ruler", text), text
    if step.clock is not None and "half" not in step.tool:
        assert "12 toward" in text and f"{step.clock} o'clock" in text, text
