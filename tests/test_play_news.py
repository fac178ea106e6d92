"""`automa play` says what happened elsewhere (issue 28 §12): an input another window made (the
board, another `play`, `automa undo`) is announced in one line when this window sees it, as
`automa log` names it; a second `play` on a session whose activation another window is asking
waits with a line saying so and goes on when it is free (Ctrl-C leaves cleanly)."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from automa.catalog.load import Catalog
from automa.render.session_out import ELSEWHERE, elsewhere_line
from automa.session.commands import Adjust, Counter, EndHeroesTurn, Move, Undo
from automa.session.store import LOG, Session
from tests.conftest import logged_inputs, new_session, playing
from tests.test_geometry_modes import DUEL, Pane
from tests.test_play_terminal import D12, TOKEN, physical_duel

GOLD = Adjust(Counter.GOLD, "elf", 2)
MOVE = Move("elf", (30.0, 20.0))


@pytest.mark.parametrize(("before", "after", "said"), [
    ([GOLD], [GOLD], None),
    ([GOLD], [GOLD, MOVE], "move elf to (30.0, 20.0)"),
    ([GOLD], [GOLD, MOVE, Undo()], "move elf to (30.0, 20.0); undone: move elf to (30.0, 20.0)"),
    ([GOLD, MOVE], [GOLD, MOVE, Undo(), Undo()], "undone: move elf to (30.0, 20.0); undone: "
                                                 "gold elf +2"),
    ([], [EndHeroesTurn()], "end of the heroes' turn"),
    ([GOLD, MOVE], [GOLD], "the log was rewritten; 1 inputs are in force now"),
])
def test_what_was_added_elsewhere_in_one_line(before: list, after: list,  # type: ignore[type-arg]
                                              said: str | None) -> None:
    line = elsewhere_line(before, after)
    assert line == (None if said is None else ELSEWHERE + said)


def test_play_announces_another_windows_inputs_and_not_its_own(tmp_path: Path,
                                                               catalog: Catalog) -> None:
    folder = new_session(tmp_path, DUEL)
    with playing(folder) as play:
        other = Session.open(folder, catalog)  # the board, or another terminal
        other.do(Move("elf", (30.0, 20.0)))
        other.do(Undo())
        out, err = play.communicate("\ngold elf +1\nquit\n", timeout=60)
    assert play.returncode == 0, err
    news = [line for line in out.splitlines() if line.startswith(ELSEWHERE)]
    assert news == [f"{ELSEWHERE}move elf to (30.0, 20.0); undone: move elf to (30.0, 20.0)"]
    assert [e["type"] for e in logged_inputs(folder)] == ["gold", "move", "undo", "gold"]


WAITING = "is in an activation: waiting until it is done (Ctrl-C leaves)"


def _joined(pane: Pane) -> str:
    """The pane's screen with wrapped lines joined (a pid's length moves where lines wrap)."""
    return subprocess.run([*pane.tmux, "capture-pane", "-p", "-J", "-t", pane.name],
                          capture_output=True, text=True, check=True).stdout


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_second_play_waits_for_the_first_ones_activation(tmp_path: Path) -> None:
    """Two `play` windows on one session with real dice: while the first one's players draw
    the token, the second says it waits (it quit to the shell before), then goes on, telling
    what the first one did; Ctrl-C while it waits leaves it cleanly."""
    folder = physical_duel(tmp_path, "two-plays")
    with Pane(folder) as first:
        first.wait_line("[round 1 · heroes] >")
        first.keys("done", "Enter")
        first.wait_line("[round 1 · AI] Enter for the next activation (help) >")
        first.keys("Enter")
        first.wait_line(TOKEN)  # the first window holds the session through its questions
        with Pane(folder) as second:
            shown = second.wait_for("waiting until it is done")
            assert "Traceback" not in shown and "automa:" not in shown
            first.keys("2", "Enter")
            first.wait_line(D12)
            first.keys("5", "Enter")
            first.wait_line("[round 2 · heroes] >")
            shown = second.wait_for("the other window is done: going on")
            second.wait_line("[round 2 · heroes] >")
            news = [line for line in _joined(second).splitlines() if ELSEWHERE.strip() in line]
            assert len(news) == 1 and "token 2:2" in news[0], _joined(second)
            # the first window's next activation: the second one waits again, and leaves
            first.keys("done", "Enter")
            first.wait_line("[round 2 · AI] Enter for the next activation (help) >")
            first.keys("Enter")
            first.wait_line(TOKEN)
            second.keys("status", "Enter")  # it looks before its next prompt
            for _ in range(300):
                if _joined(second).count(WAITING) == 2:
                    break
                time.sleep(0.1)
            assert _joined(second).count(WAITING) == 2, _joined(second)
            assert _joined(second).rstrip().endswith(WAITING)  # waiting now
            second.keys("C-c")
            shown = second.wait_for("Every input so far is saved")
            assert "Traceback" not in shown
        first.keys("quit", "Enter")
        first.wait_for("Everything is saved")
    log = [json.loads(line)["type"] for line in (folder / LOG).read_text().splitlines()[1:]]
    assert log == ["end-heroes-turn", "activation", "end-heroes-turn"]


def test_a_write_refused_by_another_windows_activation_keeps_play_going(
        tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another window's activation begins between play's look at the lock and its write (made
    to happen here by play not seeing it before the prompt): the write is refused, play says
    the line was not done and goes on; before, the refusal quit play to the shell."""
    from click.testing import CliRunner

    from automa.cli import play
    from automa.cli.main import cli
    from tests.test_two_writers import _holding, _physical_session

    folder = _physical_session(tmp_path, catalog)
    before = (folder / LOG).read_bytes()
    monkeypatch.setattr(play, "_wait_while_busy", lambda session: None)
    with _holding(folder):
        result = CliRunner().invoke(cli, ["play", "--session", str(folder)],
                                    input="gold elf +1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "'gold elf +1' was not done: type it again if it still holds" in result.output
    assert "Everything is saved" in result.output
    assert (folder / LOG).read_bytes() == before
