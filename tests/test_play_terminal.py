"""`automa play` and the campaign prompts on a real terminal (tmux), issue 28 §13: `undo` at a
question takes back that activation's answers only; `clear` clears the screen and asks again;
every prompt has line editing (Backspace, Ctrl-U), and Up at a campaign prompt recalls the
answer typed before, to mend a typo."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from automa.session.store import LOG
from tests.conftest import AUTOMA, AUTOMA_SHELL
from tests.test_geometry_modes import DUEL, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

TOKEN = "Draw a level 2 damage token (melee+poison damage) (in the bag: 0, 1, 1R, 2, 2R, 3):"
D12 = "Roll the D12 (push direction for elf) [1-12]:"
AI_PROMPT = "[round 1 · AI] Enter for the next activation (help) >"


def physical_duel(tmp_path: Path, name: str = "duel") -> Path:
    """A new session of the duel with physical dice: the players draw and roll."""
    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL)
    folder = tmp_path / name
    subprocess.run([*AUTOMA, "new", str(scenario), "--session", str(folder), "--dice",
                    "physical"], check=True, capture_output=True)
    return folder


def _inputs(folder: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in (folder / LOG).read_text().splitlines()[1:]]


def test_undo_clear_and_line_editing_at_a_question(tmp_path: Path) -> None:
    folder = physical_duel(tmp_path)
    with Pane(folder) as pane:
        pane.wait_line("[round 1 · heroes] >")
        pane.keys("done", "Enter")
        pane.wait_line(AI_PROMPT)
        pane.keys("Enter")
        pane.wait_line(TOKEN)
        pane.keys("3", "Enter")
        pane.wait_line(D12)
        pane.keys("undo", "Enter")  # that activation's answers only: `done` stands
        shown = pane.wait_line(AI_PROMPT)
        assert "its answers are taken back" in shown and "undone:" not in shown
        assert [e["type"] for e in _inputs(folder)] == ["end-heroes-turn"]
        pane.keys("Enter")
        pane.wait_line(TOKEN)
        pane.keys("clear", "Enter")  # the screen is cleared, the same question asked again
        shown = pane.wait_line(TOKEN, gone="its answers are taken back")
        assert [line for line in shown.splitlines() if line.strip()] == [TOKEN]
        pane.keys("7x", "BSpace", "BSpace", "2")  # Backspace mends the line before Enter
        pane.wait_line(f"{TOKEN} 2")
        pane.keys("Enter")
        pane.wait_line(D12)
        pane.keys("11", "C-u", "5", "Enter")  # Ctrl-U wipes what was typed
        pane.wait_line("[round 2 · heroes] >")
        pane.keys("quit", "Enter")
        pane.wait_for("Everything is saved")
    inputs = _inputs(folder)
    assert [e["type"] for e in inputs] == ["end-heroes-turn", "activation"]
    assert [o["value"] for o in inputs[1]["outcomes"]] == ["2:2", "5"]


def test_a_campaign_prompt_edits_recalls_and_clears(tmp_path: Path) -> None:
    """`campaign next` asks the Room card's monsters on a terminal: a typo is refused, Up
    recalls it to mend, and `clear` asks again on a clean screen."""
    data = tmp_path / "my-data"
    data.mkdir()
    folder = tmp_path / "c"
    env = {"AUTOMA_DATA_DIR": str(data)}
    subprocess.run([*AUTOMA, "campaign", "new", "monstrosity", "--session", str(folder),
                    "--heroes", "elf=8", "--seed", "3", "--lord", "hmotha"], check=True,
                   capture_output=True, env={**os.environ, **env})
    command = (f"AUTOMA_DATA_DIR={shlex.quote(str(data))} {AUTOMA_SHELL} campaign next "
               f"glaaoth --session {shlex.quote(str(folder))}")
    with Pane(folder, command) as pane:
        pane.wait_for("The Glaaoth Room card: its monsters")
        asked = "=2):"  # the question's last line (it wraps on the 120 columns)
        pane.wait_line(asked)
        pane.keys("sewer-ratt=2", "Enter")
        pane.wait_for("(did you mean 'sewer-rat'?); try again")
        pane.wait_line(asked)
        pane.keys("clear", "Enter")
        pane.wait_line(asked, gone="try again")
        pane.keys("Up")  # the answer typed before, to mend
        pane.wait_line(f"{asked} sewer-ratt=2")
        pane.keys("BSpace", "BSpace", "BSpace", "BSpace", "t=2", "Enter")
        pane.wait_for("Remembered Glaaoth's monsters (sewer-rat=2)")
    assert "sewer-rat" in (data / "rooms.toml").read_text()
