"""The play loop at the table: `back` and `undo` at every question of an activation, commands
during the AI turn (a corrected position is logged), the conditions reminded at the heroes'
turn, and the summary at the battle's end. Scripted through CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.render.summary import summary_text
from automa.session.store import Session
from tests.conftest import logged_inputs, new_session, play_lines
from tests.test_geometry_modes import DUEL

SIGHT = "Can Sewer Rat see elf?"
TEMPLATE = "Centre the Attack template on Sewer Rat: does it cover elf, even partly?"
TOKEN = "Draw a level 2 damage token (melee+poison damage)"


def _session(tmp_path: Path, *args: str) -> Path:
    return new_session(tmp_path, DUEL, *args)


def test_back_takes_back_a_yes_no_answer(tmp_path: Path) -> None:
    """Asked geometry: `back` at the token question takes back the template answer (yes) and
    asks the template question again; `n` now: no token is drawn."""
    folder = _session(tmp_path, "--dice", "physical", "--geometry", "asked")
    out = play_lines(folder, ["done", "", "y", "y", "back", "n", "quit"])
    assert "taken back: y" in out
    assert out.count(TEMPLATE) == 2 and out.count(SIGHT) == 2  # the sight answer given again
    activation = logged_inputs(folder)[-1]
    assert [(a["a"], a["source"]) for a in activation["answers"]] == [(True, "table"),
                                                                      (False, "table")]
    assert activation["outcomes"] == []


def test_back_takes_back_a_token_and_twice_goes_further(tmp_path: Path) -> None:
    folder = _session(tmp_path, "--dice", "physical", "--geometry", "asked")
    out = play_lines(folder, ["done", "", "y", "y", "3", "back", "back", "y", "2", "5", "n",
                         "quit"])
    assert out.count("taken back:") == 2 and out.count(TOKEN) == 3
    activation = logged_inputs(folder)[-1]
    assert [o["value"] for o in activation["outcomes"]] == ["2:2", "5"]


def test_back_at_the_first_question_asks_it_again(tmp_path: Path) -> None:
    folder = _session(tmp_path, "--dice", "physical", "--geometry", "asked")
    out = play_lines(folder, ["done", "", "back", "n", "4", "quit"])  # no target: it retreats
    assert "nothing to take back yet" in out
    assert logged_inputs(folder)[-1]["answers"][0]["a"] is False


def test_undo_at_a_prompt_takes_back_that_activations_answers_only(tmp_path: Path) -> None:
    """`undo` at a question abandons the activation under way, its answers with it; the input
    before it (the end of the heroes' turn) stands until `undo` is typed again at the prompt."""
    folder = _session(tmp_path, "--dice", "physical", "--geometry", "asked")
    out = play_lines(folder, ["move elf 30,20", "done", "", "y", "undo", "status", "undo",
                              "status", "quit"])
    assert out.count("the activation under way is abandoned: its answers are taken back") == 1
    status, undo = out.split("> status")[1].split("> undo")
    assert "Round 1 · the AI turn" in status and "undone:" not in status  # still the AI turn
    assert "undone: end of the heroes' turn" in undo  # the second undo, at the prompt
    assert "[round 1 · heroes] > status" in out  # back in the heroes' turn
    assert [e["type"] for e in logged_inputs(folder)] == ["move", "end-heroes-turn", "undo"]


def test_clear_at_a_prompt_and_at_a_question_asks_again(tmp_path: Path) -> None:
    """`clear` clears the screen (nothing to clear on a pipe) and the same prompt or question
    comes back; it is never taken as an answer or logged."""
    folder = _session(tmp_path, "--dice", "physical")
    out = play_lines(folder, ["clear", "done", "", "clear", "2", "5", "quit"])
    assert "unknown command" not in out and "try again" not in out
    assert out.count(f"{TOKEN} (in the bag:") == 2  # asked again after `clear`
    activation = logged_inputs(folder)[-1]
    assert [o["value"] for o in activation["outcomes"]] == ["2:2", "5"]


def test_quit_at_a_prompt_saves_nothing_half_done(tmp_path: Path) -> None:
    folder = _session(tmp_path, "--dice", "physical")
    out = play_lines(folder, ["done", "", "quit"])
    assert "Everything is saved" in out
    assert [e["type"] for e in logged_inputs(folder)] == ["end-heroes-turn"]
    ended = play_lines(folder, ["", "3"])  # the input ends at the D12 (as Ctrl-D): the same
    assert "Everything is saved" in ended
    assert [e["type"] for e in logged_inputs(folder)] == ["end-heroes-turn"]


def test_ctrl_c_at_a_question_ends_play_interrupted_with_nothing_half_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C is not `quit`: the activation under way is abandoned, every earlier input is
    kept, and the command ends interrupted (exit 130), as it does at play's own prompt."""
    from automa.cli import asker

    folder = _session(tmp_path, "--dice", "physical")
    typed = asker.read_plain_line

    def ctrl_c_at_the_token(prompt: str, err: bool = False) -> str | None:
        if prompt.startswith(TOKEN):
            raise KeyboardInterrupt
        return typed(prompt, err)

    monkeypatch.setattr(asker, "read_plain_line", ctrl_c_at_the_token)
    result = CliRunner().invoke(cli, ["play", "--session", str(folder)], input="done\n\n")
    assert result.exit_code == 130, result.output
    assert "the activation under way is abandoned" in result.output
    assert "Every input so far is saved" in result.output
    assert [e["type"] for e in logged_inputs(folder)] == ["end-heroes-turn"]


@pytest.mark.parametrize(("pressed", "raised"), [(KeyboardInterrupt, KeyboardInterrupt),
                                                 (EOFError, click.Abort)])
def test_on_a_terminal_ctrl_c_interrupts_and_ctrl_d_ends_the_input(
        monkeypatch: pytest.MonkeyPatch, pressed: type[BaseException],
        raised: type[BaseException]) -> None:
    import io
    import sys

    from automa.cli import asker

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    def press(prompt: str) -> str:
        raise pressed

    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.setattr("builtins.input", press)
    with pytest.raises(raised):
        asker._read_answer("Roll the D12: ")


def test_the_ai_turn_takes_a_correction_status_los_and_help(tmp_path: Path) -> None:
    folder = _session(tmp_path)
    out = play_lines(folder, ["done", "help", "status", "los rat-1", "move elf 30,20", "frobnicate",
                         "", "quit"])
    assert "the real piece landed elsewhere" in out  # the AI turn's help
    assert "Round 1 · the AI turn" in out  # status
    assert "sees   elf" in out  # los
    assert "elf is at (30.0, 20.0)" in out
    assert "unknown command 'frobnicate' here; press Enter for the next activation" in out
    events = logged_inputs(folder)
    assert events[:2] == [{"type": "end-heroes-turn"},
                          {"type": "move", "piece": "elf", "to": [30.0, 20.0]}]
    assert events[2]["type"] == "activation"
    reopened = json.loads(CliRunner().invoke(cli, ["status", "--session", str(folder),
                                                   "--json"]).stdout)
    assert reopened["round"] == 2


def test_the_heroes_turn_reminds_the_conditions_to_clear(tmp_path: Path) -> None:
    folder = _session(tmp_path)
    out = play_lines(folder, ["stun elf", "freeze elf", "done", "", "quit"])
    after_ai = out.split("Round 2: the heroes' turn")[1] if "Round 2: the heroes' turn" in out \
        else out.split("The AI turn is over")[1]
    assert "elf is stunned: a stunned hero cannot use items except familiars" in after_ai
    assert "elf is frozen: a frozen character cannot act" in after_ai
    assert "elf is stunned" not in out.split("stun elf")[0]


def test_the_battle_ends_with_a_summary(tmp_path: Path, catalog: Catalog) -> None:
    """The rat hits the elf for 3 (physical token 3); the elf kills the rat: the summary says
    who fell, the damage each way, the rounds and what is left in each bag."""
    folder = _session(tmp_path, "--dice", "physical")
    out = play_lines(folder, ["done", "", "3", "5", "damage rat-1 4 by elf", "quit"])
    summary = out.split("The room is cleared: no AI character is left.")[1]
    assert "Played: rounds 1 to 2" in summary
    assert "Fell: rat-1 (dead)" in summary
    assert "elf: dealt 1, taken 3 (health 6)" in summary  # the rat had 1 health
    assert "Level 2 bag: 11 tokens left (0, 0, 1, 1, 1, 1R, 2, 2, 2, 2, 2R)" in summary
    assert "Level 3 bag: 13 tokens left" in summary
    session = Session.open(folder, catalog)
    assert summary_text(session.state, session.effective()[0], session.setting) in out


def test_damage_by_names_a_hero(tmp_path: Path) -> None:
    folder = _session(tmp_path)
    out = play_lines(folder, ["damage rat-1 1 by rat-1", "quit"])
    assert "usage: damage ID N [by HERO] (heroes: elf)" in out
    assert logged_inputs(folder) == []


def test_the_summary_when_the_heroes_fall(tmp_path: Path) -> None:
    folder = _session(tmp_path)
    out = play_lines(folder, ["damage elf 12"])
    summary = out.split("The heroes have fallen: no hero is left alive.")[1]
    assert "Played: round 1" in summary
    assert "Fell: elf (dead)" in summary
    assert "elf: dealt 0, taken 9 (fallen)" in summary  # the elf had 9 health


def test_asked_status_and_los_print_no_position_nobody_measured(tmp_path: Path) -> None:
    """Asked geometry: after the rat rushes, its model spot is invented (nobody measured where
    the real disc stopped), so `status` and `los` show no coordinates or distances from it
    until the players report it with `move`."""
    folder = _session(tmp_path, "--geometry", "asked")
    out = play_lines(folder, ["done", "", "y", "y", "n", "status", "los rat-1", "move elf 30,30",
                         "los elf", "move rat-1 20,50", "los rat-1", "quit"])
    after_turn = out.split("> status")[1]
    for piece in ("rat-1", "elf"):  # the rat rushed; the elf was pushed
        line = next(line for line in after_turn.splitlines() if line.strip().startswith(piece))
        assert "(not measured)" in line
    assert "rat-1 stands where nobody measured" in after_turn
    assert "not measured, read at the table: rat-1" in after_turn.split("> los elf")[1]
    assert "sees   elf" in after_turn.split("> los rat-1")[-1]  # measured now: computed


def test_a_hero_reported_dead_took_no_damage_in_the_summary(tmp_path: Path) -> None:
    """`dead elf` says the hero left play, not that it lost its health to damage: the summary
    counts only health that damage took."""
    folder = _session(tmp_path)
    out = play_lines(folder, ["damage elf 2", "dead elf"])
    summary = out.split("The heroes have fallen: no hero is left alive.")[1]
    assert "Fell: elf (dead)" in summary
    assert "elf: dealt 0, taken 2 (fallen)" in summary
