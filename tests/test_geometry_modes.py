"""Geometry per table: tracked (computed), asked (the players answer with the real rulers and
templates, no coordinates), hybrid (computed, asked only on close calls). Every answer is
logged, so the session replays the same."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.engine.judge import Briefing
from automa.render.text import briefing_lines
from automa.session.store import LOG, Session
from tests.conftest import AUTOMA, AUTOMA_SHELL, EXAMPLES, OPEN_MAT

DUEL = """format = 1
[battle]
playmat = "inline"
los_blocked = true
[[piece]]
id = "elf"
side = "heroes"
at = [30.0, 30.0]
health = 9
[[piece]]
id = "rat-1"
side = "ai"
monster = "sewer-rat"
at = [30.0, 34.0]
[chance]
seed = 1
""" + OPEN_MAT


class ScriptedTable:
    """Players who answer from a list and note every question, and every instruction shown
    before one (`transcript`: what the table saw, in order)."""

    def __init__(self, answers: Sequence[object]) -> None:
        self.answers = list(answers)
        self.questions: list[str] = []
        self.transcript: list[str] = []

    def instruct(self, briefing: Briefing) -> None:
        self.transcript.extend(briefing_lines(briefing))

    def yes_no(self, prompt: str) -> bool:
        self.questions.append(prompt)
        self.transcript.append(f"? {prompt}")
        return bool(self.answers.pop(0))

    def choice(self, prompt: str, options: Sequence[str]) -> str:
        self.questions.append(prompt)
        self.transcript.append(f"? {prompt} {' / '.join(options)}")
        return str(self.answers.pop(0))

    def number(self, prompt: str, allowed: Sequence[int]) -> int:
        raise AssertionError("virtual dice: no rolls are asked")

    def order(self, prompt: str, items: Sequence[str]) -> list[str]:
        raise AssertionError("no shuffles in a turn")


def make(tmp_path: Path, catalog: Catalog, geometry: str, text: str = DUEL) -> Session:
    scenario = tmp_path / "duel.toml"
    scenario.write_text(text)
    return Session.create(tmp_path / geometry, scenario, catalog, 4, "virtual", geometry)


def test_asked_mode_asks_sight_and_the_template_and_obeys(tmp_path: Path,
                                                           catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "asked")
    table = ScriptedTable([True, False])  # it sees the elf; the template does not cover it
    activation = session.next(table)
    assert activation is not None and activation.target == "elf"
    assert table.questions[0].startswith("Can Sewer Rat see elf?")
    assert "Attack template" in table.questions[1]
    assert not any(step.kind == "token" for step in activation.steps)
    answers = json.loads((tmp_path / "asked" / LOG).read_text().splitlines()[-1])["answers"]
    assert [(a["a"], a["source"]) for a in answers] == [(True, "table"), (False, "table")]


def test_asked_answers_replay_without_asking(tmp_path: Path, catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "asked")
    session.next(ScriptedTable([False]))  # nobody in sight: the No Target Action
    reopened = Session.open(tmp_path / "asked", catalog)
    assert reopened.state.battle == session.state.battle
    assert reopened.state.activations[-1][1].target is None


def test_hybrid_asks_only_close_calls(tmp_path: Path, catalog: Catalog) -> None:
    """The demo's Flame Wraith sees the Elf by 0.1 cm and the Barbarian by 0.5 cm: with a
    0.3 cm tolerance only the Elf is asked."""
    text = (EXAMPLES / "demo-battle.toml").read_text().replace(
        "round = 2", "round = 2\nclose_call = 0.3")
    session = make(tmp_path, catalog, "hybrid", text)
    table = ScriptedTable([False])
    activation = session.next(table)
    assert table.questions == ["Can Flame Wraith #1 see Elf? (a line from centre to centre "
                               "clear of obstacles)"]
    assert activation is not None and activation.target == "barbarian"


def test_tracked_mode_never_asks(tmp_path: Path, catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "tracked")
    table = ScriptedTable([])
    assert session.next(table) is not None and table.questions == []


def test_a_battle_in_asked_mode_through_play(tmp_path: Path) -> None:
    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL)
    folder = tmp_path / "s"
    runner = CliRunner()
    assert runner.invoke(cli, ["new", str(scenario), "--session", str(folder), "--geometry",
                               "asked", "--seed", "2"]).exit_code == 0
    lines = ["done", "", "y", "y", "n", "move elf 30,20", "done", "", "n", "quit"]
    result = runner.invoke(cli, ["play", "--session", str(folder)],
                           input="".join(f"{line}\n" for line in lines))
    assert result.exit_code == 0, result.output
    assert "(30." not in result.output.split("AI turn")[1]  # no coordinates in asked mode
    status = json.loads(runner.invoke(cli, ["status", "--session", str(folder),
                                            "--json"]).stdout)
    assert status["round"] == 3


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_play_in_a_real_terminal_under_tmux(tmp_path: Path) -> None:
    """Smoke test: `automa play` in a tmux pane answers typed commands on a real terminal."""
    folder = tmp_path / "tmux-session"
    subprocess.run([*AUTOMA, "new", str(EXAMPLES / "demo-battle.toml"), "--session",
                    str(folder), "--seed", "1"], check=True, capture_output=True)
    name = f"automa-test-{time.monotonic_ns()}"
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "120", "-y", "50",
                    f"{AUTOMA_SHELL} play --session {folder}"], check=True)
    try:
        def screen() -> str:
            return subprocess.run(["tmux", "capture-pane", "-p", "-t", name],
                                  capture_output=True, text=True, check=True).stdout

        def wait_for(text: str) -> str:
            for _ in range(300):  # 30 s: a loaded machine starts Python slowly
                shown = screen()
                if text in shown:
                    return shown
                time.sleep(0.1)
            raise AssertionError(f"{text!r} never appeared:\n{screen()}")

        wait_for("[round 2 · heroes] >")
        for keys in ("move elf 12,30", "done", ""):
            subprocess.run(["tmux", "send-keys", "-t", name, keys, "Enter"], check=True)
        shown = wait_for("1. Flame Wraith #1")
        assert "elf is at (12.0, 30.0)" in shown
        subprocess.run(["tmux", "send-keys", "-t", name, "quit", "Enter"], check=True)
        wait_for("Everything is saved")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
    log = (folder / LOG).read_text().splitlines()
    assert json.loads(log[1])["type"] == "move" and json.loads(log[-1])["type"] == "activation"


def test_a_battle_in_hybrid_mode_through_play(tmp_path: Path) -> None:
    """Hybrid with a generous tolerance asks every decision near the limit; the answers given
    at the table decide, and the log keeps them."""
    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL.replace("los_blocked = true", "los_blocked = true\nclose_call = 9"))
    folder = tmp_path / "h"
    runner = CliRunner()
    assert runner.invoke(cli, ["new", str(scenario), "--session", str(folder), "--geometry",
                               "hybrid", "--seed", "2"]).exit_code == 0
    result = runner.invoke(cli, ["play", "--session", str(folder)],
                           input="done\n\ny\nn\nquit\n")
    assert result.exit_code == 0, result.output
    assert "(30." in result.output.split("AI turn")[1]  # hybrid keeps the coordinates
    answers = json.loads((folder / LOG).read_text().splitlines()[-1])["answers"]
    assert [(a["a"], a["source"]) for a in answers] == [(True, "table"), (False, "table")]
