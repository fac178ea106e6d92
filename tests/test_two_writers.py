"""Two windows on one session (issue 11 §1): every write holds the folder's lock on the log as
it is on disk, so a second writer goes through consistently or is refused in one line, and a
killed holder never blocks the next writer."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import threading
import time
from collections import Counter as Tally
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.errors import InputError, RulesError
from automa.session.commands import (
    Adjust,
    Command,
    Counter,
    EndHeroesTurn,
    Redo,
    Undo,
    command_from_json,
)
from automa.session.lock import LOCK
from automa.session.store import LOG, Session
from tests.conftest import AUTOMA, playing, running
from tests.test_session import DEMO, new_session

WRITERS_WITHIN = 120.0  # seconds the two writer threads get; they are daemons, so a hung one
# fails its test without keeping the run alive

REPORTS = [
    {"type": "gold", "piece": "barbarian", "amount": 1},
    {"type": "gold", "piece": "barbarian", "amount": -1},
    {"type": "heal", "piece": "elf", "amount": 1},
    {"type": "damage", "piece": "centaur-1", "amount": 1},
    {"type": "condition", "piece": "elf", "condition": "stunned", "on": True},
    {"type": "condition", "piece": "elf", "condition": "stunned", "on": False},
    {"type": "poison", "piece": "elf", "amount": 1},
    {"type": "poison", "piece": "elf", "amount": -1},
]


def _key(event: dict | Command) -> str:  # type: ignore[type-arg]
    return json.dumps(event if isinstance(event, dict) else event.to_json(), sort_keys=True)


def _writer(folder: Path, catalog: Catalog, seed: int, kinds: list[str], count: int,
            accepted: list[dict], failures: list[BaseException]) -> None:  # type: ignore[type-arg]
    """One window: `count` seeded inputs, recording each one the session accepted."""
    rng = random.Random(seed)
    try:
        session = Session.open(folder, catalog)
        for _ in range(count):
            kind = rng.choice(kinds)
            try:
                if kind == "report":
                    event = session.do(command_from_json(rng.choice(REPORTS))).command.to_json()
                elif kind == "done":
                    session.do(EndHeroesTurn())
                    event = {"type": "end-heroes-turn"}
                elif kind == "next":
                    if session.next_activation() is None:
                        continue
                    event = session.raw[-1].to_json()
                else:
                    session.do(Undo()) if kind == "undo" else session.do(Redo())
                    event = {"type": kind}
            except (InputError, RulesError):
                continue  # refused on the state as it is now: nothing written
            accepted.append(event)
            time.sleep(rng.random() * 0.004)
    except BaseException as error:  # reported by the test thread
        failures.append(error)


@pytest.mark.parametrize("seed", range(1, 9))
def test_play_and_undo_in_two_windows_never_brick_the_session(tmp_path: Path, catalog: Catalog,
                                                              seed: int) -> None:
    """A play-like window (reports, done, the AI's activations) and a second window (undo,
    next, redo) write at once, in seeded random orders: the session always opens and replays,
    and every input either window was told was accepted is in the log."""
    folder = new_session(tmp_path, seed=seed)
    accepted: list[list[dict]] = [[], []]  # type: ignore[type-arg]
    failures: list[BaseException] = []
    threads = [
        threading.Thread(target=_writer, args=(
            folder, catalog, seed * 10, ["report"] * 4 + ["done", "next", "next"], 30,
            accepted[0], failures), daemon=True),
        threading.Thread(target=_writer, args=(
            folder, catalog, seed * 10 + 1, ["undo", "undo", "next", "redo", "report"], 30,
            accepted[1], failures), daemon=True),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WRITERS_WITHIN)
    assert not any(thread.is_alive() for thread in threads), "a writer never finished"
    assert not failures, failures
    session = Session.open(folder, catalog)  # opens and replays every input in force
    logged = Tally(_key(e) for e in session.raw)
    assert logged == Tally(_key(e) for e in accepted[0] + accepted[1])
    assert sum(len(a) for a in accepted) > 20
    status = CliRunner().invoke(cli, ["status", "--session", str(folder), "--json"])
    assert status.exit_code == 0, status.output


def test_refresh_shows_another_windows_input(tmp_path: Path, catalog: Catalog) -> None:
    folder = new_session(tmp_path)
    mine, theirs = Session.open(folder, catalog), Session.open(folder, catalog)
    theirs.do(Adjust(Counter.GOLD, "elf", 2))
    assert mine.state.battle.piece("elf").gold == 7
    assert mine.refresh() is True
    assert mine.state.battle.piece("elf").gold == 9
    assert mine.refresh() is False
    mine.do(Undo())  # takes back their input: the latest in the log, not the latest it knew of
    assert theirs.refresh() and theirs.state.battle.piece("elf").gold == 7


def test_a_stale_window_checks_its_input_on_the_fresh_battle(tmp_path: Path,
                                                             catalog: Catalog) -> None:
    """The elf's 7 gold are spent in one window; the other, which still shows 7, is refused."""
    folder = new_session(tmp_path)
    mine, theirs = Session.open(folder, catalog), Session.open(folder, catalog)
    theirs.do(Adjust(Counter.GOLD, "elf", -7))
    with pytest.raises(InputError, match="has only 0 gold"):
        mine.do(Adjust(Counter.GOLD, "elf", -7))
    assert Session.open(folder, catalog).state.battle.piece("elf").gold == 0


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*AUTOMA, *args], capture_output=True, text=True, timeout=60)


def test_the_real_play_loop_and_a_second_window(tmp_path: Path, catalog: Catalog) -> None:
    """`automa play` fed a battle while `automa undo` and `automa next` run in another
    window: every command ends in exit 0 or one line, the session replays, and every undo
    the second window was told about is in the log."""
    folder = new_session(tmp_path, seed=9)
    script = ["move elf 12,30", "gold barbarian +2", "done", "", "", "", "damage rat-1 1",
              "done", "", "", "heal wizard 1", "", "", "done", "", "", ""] * 2
    with running([*AUTOMA, "play", "--session", str(folder)], stdin=subprocess.PIPE,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE) as play:
        assert play.stdin is not None
        rng = random.Random(4)
        undos = 0
        for number, line in enumerate(script):
            play.stdin.write(line + "\n")
            play.stdin.flush()
            if number % 3 == 0:
                result = _run(rng.choice(["undo", "next", "undo"]), "--session", str(folder))
                assert result.returncode in (0, 2), result.stderr
                assert "Traceback" not in result.stderr
                undos += result.returncode == 0 and result.stdout.startswith("Undone")
        out, err = play.communicate("quit\n", timeout=60)
    assert play.returncode == 0, err
    assert "disagree" not in out + err and "internal error" not in out + err
    session = Session.open(folder, catalog)
    assert sum(isinstance(e, Undo) for e in session.raw) == undos
    assert _run("status", "--session", str(folder)).returncode == 0


def _physical_session(tmp_path: Path, catalog: Catalog) -> Path:
    folder = tmp_path / "physical"
    result = CliRunner().invoke(cli, ["new", str(DEMO), "--session", str(folder), "--dice",
                                      "physical"])
    assert result.exit_code == 0, result.output
    Session.open(folder, catalog).do(Adjust(Counter.GOLD, "elf", 1))
    return folder


@contextmanager
def _holding(folder: Path) -> Iterator[subprocess.Popen[str]]:
    """`automa next` on physical dice, waiting for the players to type a token: it holds the
    lock through its questions (and is stopped however the test ends)."""
    with running([*AUTOMA, "next", "--session", str(folder)], stdin=subprocess.PIPE,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as holder:
        deadline = time.monotonic() + 30
        while not (folder / LOCK).exists() or "activation" not in (folder / LOCK).read_text():
            assert time.monotonic() < deadline and holder.poll() is None
            time.sleep(0.05)
        yield holder


def test_a_second_writer_during_an_activation_is_refused_in_one_line(tmp_path: Path,
                                                                     catalog: Catalog) -> None:
    folder = _physical_session(tmp_path, catalog)
    with _holding(folder) as holder:
        result = _run("undo", "--session", str(folder))
        assert result.returncode == 5
        assert result.stderr == (f"automa: {folder}: another window is in the middle of an "
                                 f"activation (pid {holder.pid}); try again when it is done\n")
        assert _run("status", "--session", str(folder)).returncode == 0  # reading still works


def test_a_killed_holder_never_blocks_the_next_writer(tmp_path: Path, catalog: Catalog) -> None:
    folder = _physical_session(tmp_path, catalog)
    with _holding(folder) as holder:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    started = time.monotonic()
    result = _run("undo", "--session", str(folder))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Undone: gold elf +1")
    assert time.monotonic() - started < 20
    session = Session.open(folder, catalog)
    assert session.effective()[0] == [] and (folder / LOG).exists()


def test_the_play_loop_shows_another_windows_input_before_its_next_prompt(
        tmp_path: Path, catalog: Catalog) -> None:
    folder = new_session(tmp_path)
    with playing(folder) as play:
        Session.open(folder, catalog).do(Adjust(Counter.GOLD, "elf", 5))
        out, err = play.communicate("\nstatus\nquit\n", timeout=60)
    assert play.returncode == 0, err
    elf = next(line for line in out.splitlines()[::-1] if line.strip().startswith("elf "))
    assert " gold 13 " in elf, out


def test_a_write_from_inside_an_activations_questions_is_refused(tmp_path: Path,
                                                                catalog: Catalog) -> None:
    """The play loop's `undo` at a dice prompt must leave Session.next first: a write from
    inside the questions would put an input in the middle of the activation."""
    from automa.session.log import SessionError

    folder = _physical_session(tmp_path, catalog)
    session = Session.open(folder, catalog)
    refused: list[str] = []

    class Asker:
        def undo_instead(self, *args: object) -> str:
            try:
                session.do(Undo())
            except SessionError as error:
                refused.append(str(error))
            raise KeyboardInterrupt

        number = choice = yes_no = token = undo_instead

    with pytest.raises(KeyboardInterrupt):
        session.next_activation(Asker())  # type: ignore[arg-type]
    assert refused == [f"{folder}: this window is in the middle of an activation; leave its "
                       f"questions (or finish them) before another input"]
    undone = session.do(Undo()).taken  # the lock is released
    assert undone is not None and undone.to_json() == {"type": "gold", "piece": "elf", "amount": 1}
