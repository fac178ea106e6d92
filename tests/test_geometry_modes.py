"""Geometry per table: tracked (computed), asked (the players answer with the real rulers and
templates, no coordinates), hybrid (computed, asked only on close calls). Every answer is
logged, so the session replays the same."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Mapping, Sequence
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

    def token(self, prompt: str, faces: Sequence[str], elsewhere: Mapping[str, str]) -> str:
        raise AssertionError("virtual dice: no tokens are asked")


def make(tmp_path: Path, catalog: Catalog, geometry: str, text: str = DUEL) -> Session:
    scenario = tmp_path / "duel.toml"
    scenario.write_text(text)
    return Session.create(tmp_path / geometry, scenario, catalog, 4, "virtual", geometry)


def test_asked_mode_asks_sight_and_the_template_and_obeys(tmp_path: Path,
                                                           catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "asked")
    table = ScriptedTable([True, False])  # it sees the elf; the template does not cover it
    activation = session.next_activation(table)
    assert activation is not None and activation.target == "elf"
    assert table.questions[0].startswith("Can Sewer Rat see elf?")
    assert "Attack template" in table.questions[1]
    assert not any(step.kind == "token" for step in activation.steps)
    answers = json.loads((tmp_path / "asked" / LOG).read_text().splitlines()[-1])["answers"]
    assert [(a["a"], a["source"]) for a in answers] == [(True, "table"), (False, "table")]


def test_asked_answers_replay_without_asking(tmp_path: Path, catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "asked")
    session.next_activation(ScriptedTable([False]))  # nobody in sight: the No Target Action
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
    activation = session.next_activation(table)
    assert table.questions == ["Can Flame Wraith #1 see Elf? (a line from centre to centre "
                               "clear of obstacles)"]
    assert activation is not None and activation.target == "barbarian"


def test_tracked_mode_never_asks(tmp_path: Path, catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "tracked")
    table = ScriptedTable([])
    assert session.next_activation(table) is not None and table.questions == []


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


class Pane:
    """`automa play` (or another shell command line) in a detached tmux pane, read and typed
    into as a player would. Each pane has its own tmux server (socket), so other tmux users on
    the machine cannot disturb it."""

    def __init__(self, folder: Path, command: str | None = None) -> None:
        self.name = f"automa-test-{os.getpid()}-{time.monotonic_ns()}"  # parallel runs too
        self.tmux = ["tmux", "-L", self.name]
        self.folder = folder
        self.command = command or f"{AUTOMA_SHELL} play --session {folder}"

    def __enter__(self) -> Pane:
        subprocess.run([*self.tmux, "new-session", "-d", "-s", self.name, "-x", "120", "-y",
                        "50", self.command], check=True)
        try:
            # keep the pane (and what it shows) if `play` ends, so a failure can be read
            subprocess.run([*self.tmux, "set-option", "-t", self.name, "remain-on-exit", "on"],
                           capture_output=True, timeout=30)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """The pane's own tmux server goes, and `play` in it with it (SIGHUP)."""
        subprocess.run([*self.tmux, "kill-server"], capture_output=True, timeout=30)

    def screen(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name],
                              capture_output=True, text=True, check=True).stdout

    def keys(self, *typed: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *typed], check=True)

    def wait_for(self, text: str) -> str:
        for _ in range(300):  # 30 s: a loaded machine starts Python slowly
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared:\n{self.screen()}")

    def wait_line(self, text: str, gone: str | None = None) -> str:
        """Until the last line on screen reads `text` (and `gone`, when given, has left the
        screen: it was cleared): keys sent before the prompt is up would meet the terminal in
        line mode, not readline."""
        for _ in range(300):
            shown = self.screen()
            lines = [line.rstrip() for line in shown.splitlines() if line.strip()]
            if lines and lines[-1] == text and (gone is None or gone not in shown):
                return shown
            time.sleep(0.1)
        waited = f"the last line never read {text!r}" + (
            "" if gone is None else f" with {gone!r} gone")
        raise AssertionError(f"{waited}:\n{self.screen()}")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_play_in_a_real_terminal_under_tmux(tmp_path: Path) -> None:
    """`automa play` in a tmux pane: typed commands answered on a real terminal, the Up arrow
    recalls the last line for editing (no escape codes printed), Tab completes a command and a
    piece id, and the history is kept in the session folder."""
    folder = tmp_path / "tmux-session"
    subprocess.run([*AUTOMA, "new", str(EXAMPLES / "demo-battle.toml"), "--session",
                    str(folder), "--seed", "1"], check=True, capture_output=True)
    with Pane(folder) as pane:
        prompt = "[round 2 · heroes] >"
        pane.wait_line(prompt)
        pane.keys("move elf 12,30", "Enter")
        pane.wait_for("elf is at (12.0, 30.0)")
        pane.wait_line(prompt)
        pane.keys("Up")  # the last line again, to edit: 30 becomes 31
        pane.wait_line(f"{prompt} move elf 12,30")
        pane.keys("BSpace", "1", "Enter")
        shown = pane.wait_for("elf is at (12.0, 31.0)")
        assert "^[[A" not in shown
        pane.wait_line(prompt)
        pane.keys("sta", "Tab")  # completes the command
        pane.wait_line(f"{prompt} status")
        pane.keys("Enter")
        pane.wait_for("Round 2 · the heroes' turn")
        pane.wait_line(prompt)
        pane.keys("los wra", "Tab")  # completes a piece id
        pane.wait_line(f"{prompt} los wraith-1")
        pane.keys("Enter")
        pane.wait_line(prompt)
        for typed in ("done", ""):
            pane.keys(typed, "Enter")
        pane.wait_for("1. Flame Wraith #1")
        pane.keys("quit", "Enter")
        pane.wait_for("Everything is saved")
    log = (folder / LOG).read_text().splitlines()
    assert [json.loads(line)["type"] for line in log[1:3]] == ["move", "move"]
    assert json.loads(log[-1])["type"] == "activation"
    history = (folder / "history").read_text().splitlines()
    assert "move elf 12,31" in history and "status" in history


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_back_at_a_question_in_a_real_terminal(tmp_path: Path) -> None:
    """Physical dice on a terminal: the token is typed, then `back` at the D12 asks for the
    token again; the token logged is the second one typed. Ctrl-C at the next activation's
    question stops with nothing of that activation saved."""
    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL)
    folder = tmp_path / "tmux-physical"
    subprocess.run([*AUTOMA, "new", str(scenario), "--session", str(folder), "--dice",
                    "physical"], check=True, capture_output=True)
    token = "Draw a level 2 damage token (melee+poison damage) (in the bag: 0, 1, 1R, 2, 2R, 3):"
    d12 = "Roll the D12 (push direction for elf) [1-12]:"
    with Pane(folder) as pane:
        pane.wait_line("[round 1 · heroes] >")
        pane.keys("done", "Enter")
        pane.wait_line("[round 1 · AI] Enter for the next activation (help) >")
        pane.keys("Enter")
        pane.wait_line(token)
        pane.keys("3", "Enter")
        pane.wait_line(d12)
        pane.keys("back", "Enter")
        pane.wait_for("taken back: 3")
        pane.wait_line(token)
        pane.keys("2", "Enter")
        pane.wait_line(d12)
        pane.keys("5", "Enter")
        pane.wait_for("Draw a level 2 damage token → 2")
        pane.wait_line("[round 2 · heroes] >")
        pane.keys("done", "Enter")
        pane.wait_line("[round 2 · AI] Enter for the next activation (help) >")
        pane.keys("Enter")
        pane.wait_line(token)
        pane.keys("C-c")  # Ctrl-C at a question: the activation under way is not saved
        pane.wait_for("Every input so far is saved")  # interrupted, not a plain quit
    log = [json.loads(line) for line in (folder / LOG).read_text().splitlines()[1:]]
    assert [e["type"] for e in log] == ["end-heroes-turn", "activation", "end-heroes-turn"]
    assert [o["value"] for o in log[1]["outcomes"]] == ["2:2", "5"]
    # the history keeps the commands; the answers to questions are not recalled by Up
    assert (folder / "history").read_text().split() == ["done", "done"]
