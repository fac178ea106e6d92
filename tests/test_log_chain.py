"""Logs that detect damage (issue 26 §8): every line of a session's log carries its number and
the hash of the line before, so a line deleted, copied twice, moved or edited is refused at
every open in one line naming the file and the line, nothing written; `automa log --verify`
lists it and `automa log --repair` mends it keeping every sound input; a damaged first line is
restored or rebuilt; a crash's torn last line stays recoverable; an older log still opens and
is chained on its first write."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from automa.cli.main import cli
from automa.session import chain
from automa.session.log import SessionError, parse_log, read_log
from automa.session.store import LOG, SCENARIO
from tests.conftest import logged_inputs, play_lines, unchain
from tests.test_session import DEMO, new_session

INPUTS = ["move elf 12,30", "damage rat-1 1", "done", "", "", "", "", "gold barbarian +2"]


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def one_line_error(result: Result, code: int = 5) -> str:
    assert result.exit_code == code, result.output
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    return result.stderr


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One session with reports and AI activations, played once for the module."""
    folder = new_session(tmp_path_factory.mktemp("played"))
    play_lines(folder, [*INPUTS, "quit"])
    return folder


@pytest.fixture
def session(played: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "s"
    shutil.copytree(played, copy)
    return copy


def lines_of(folder: Path) -> list[bytes]:
    return (folder / LOG).read_bytes().splitlines(keepends=True)


def write_lines(folder: Path, lines: list[bytes]) -> None:
    (folder / LOG).write_bytes(b"".join(lines))


# --- the chain --------------------------------------------------------------------------------

def test_each_line_carries_its_number_and_the_hash_of_the_line_before(session: Path) -> None:
    lines = lines_of(session)
    assert len(lines) == 1 + len(logged_inputs(session)) >= 6
    previous = ""
    for number, line in enumerate(lines, start=1):
        record = json.loads(line)
        assert (record["seq"], record["prev"]) == (number, previous)
        body = line.rstrip(b"\n")
        without = body[:body.rindex(b', "hash": ')] + b"}"
        assert record["hash"] == hashlib.sha256(without).hexdigest()
        previous = record["hash"]


def _deleted(lines: list[bytes]) -> list[bytes]:
    return lines[:2] + lines[3:]


def _copied(lines: list[bytes]) -> list[bytes]:
    return [*lines[:3], lines[2], *lines[3:]]


def _moved(lines: list[bytes]) -> list[bytes]:
    return [*lines[:2], lines[3], lines[2], *lines[4:]]


def _edited(lines: list[bytes]) -> list[bytes]:
    return [*lines[:2], lines[2].replace(b'"amount": 1', b'"amount": 3'), *lines[3:]]


def _invented(lines: list[bytes]) -> list[bytes]:
    return [*lines[:2], b'{"type": "gold", "piece": "elf", "amount": 9}\n', *lines[2:]]


def _header(lines: list[bytes]) -> list[bytes]:
    return [lines[0].replace(b'"seed": 5', b'"seed": 6'), *lines[1:]]


DAMAGE: dict[str, tuple[Callable[[list[bytes]], list[bytes]], int, str]] = {
    "deleted": (_deleted, 3, "the line written as line 3 is missing (deleted)"),
    "copied twice": (_copied, 4, "repeats line 3 (a line copied twice)"),
    "moved": (_moved, 3, "is out of order: it was written as line 4"),
    "edited": (_edited, 3, "was edited or damaged (it no longer matches its hash)"),
    "invented": (_invented, 3, "carries no hash"),
    "header": (_header, 1, ", the header, was edited or damaged"),
}


@pytest.mark.parametrize("name", sorted(DAMAGE))
def test_a_damaged_log_is_refused_at_every_open_naming_the_line(session: Path,
                                                                 name: str) -> None:
    damage, line, words = DAMAGE[name]
    assert b'"amount": 1' in lines_of(session)[2]  # the line _edited changes
    write_lines(session, damage(lines_of(session)))
    before = (session / LOG).read_bytes()
    for command in (["status"], ["next"], ["undo"], ["rollback", "1"], ["replay"]):
        where = [str(session)] if command == ["replay"] else ["--session", str(session)]
        error = one_line_error(run(*command, *where))
        assert f"{session / LOG} line {line}" in error and words in error, error
    assert (session / LOG).read_bytes() == before  # nothing written
    verified = run("log", "--verify", "--session", str(session))
    assert verified.exit_code == 5
    assert verified.stdout.splitlines()[0].startswith(f"{session / LOG} line {line} ")


def test_a_damaged_header_is_not_blamed_on_scenario_toml(session: Path) -> None:
    write_lines(session, _header(lines_of(session)))
    error = one_line_error(run("status", "--session", str(session)))
    assert "the log's start is damaged, not scenario.toml" in error
    assert f"`automa log --repair --session {session}`" in error
    assert "edited after the session started" not in error


def test_an_edited_scenario_is_still_told_apart(session: Path) -> None:
    (session / SCENARIO).write_text(DEMO.read_text().replace("seed = 7", "seed = 8"))
    error = one_line_error(run("status", "--session", str(session)))
    assert f"{session / SCENARIO}: edited after the session started" in error


def test_a_sound_log_verifies(session: Path) -> None:
    result = run("log", "--verify", "--session", str(session))
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"{session / LOG}: {len(lines_of(session))} lines, sound: each "
                             f"line matches its hash and follows the one before; the start, "
                             f"the data and the rulings are those recorded; replay agrees with "
                             f"every logged answer and end\n")


# --- repair keeps every input -----------------------------------------------------------------

def status_json(folder: Path) -> Any:
    result = run("status", "--session", str(folder), "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("name", ["copied twice", "moved", "header"])
def test_repair_restores_a_line_moved_or_copied_or_a_header_digit_exactly(session: Path,
                                                                          name: str) -> None:
    original = (session / LOG).read_bytes()
    write_lines(session, DAMAGE[name][0](lines_of(session)))
    damaged = (session / LOG).read_bytes()
    result = run("log", "--repair", "--session", str(session))
    assert result.exit_code == 0, result.output
    assert (session / LOG).read_bytes() == original  # every input, in its place
    assert (session / f"{LOG}.damaged").read_bytes() == damaged  # the file as it was
    if name == "header":
        assert "line 1, the header: restored exactly (one character, at column" in \
            result.stdout


def test_repair_puts_a_stand_in_where_a_line_was_lost(session: Path) -> None:
    inputs = logged_inputs(session)
    write_lines(session, _deleted(lines_of(session)))
    result = run("log", "--repair", "--session", str(session))
    assert result.exit_code == 0, result.output
    assert "the line written as line 3 is lost; a damaged input stands in its place" in \
        result.stdout
    kept = logged_inputs(session)
    assert kept[:1] == inputs[:1] and kept[2:] == inputs[2:]  # every other input
    assert kept[1]["type"] == "damaged"
    error = one_line_error(run("status", "--session", str(session)))
    assert "input 2 of the log cannot be replayed" in error and "`automa rollback 1`" in error
    assert run("rollback", "--session", str(session), "1").exit_code == 0
    assert run("next", "--session", str(session)).exit_code == 0
    assert run("log", "--verify", "--session", str(session)).exit_code == 0


def test_a_header_beyond_one_character_is_rebuilt_keeping_every_input(session: Path) -> None:
    before = status_json(session)
    inputs = logged_inputs(session)
    lines = lines_of(session)
    write_lines(session, [b'{"format": "catacombs-automa sess\n', *lines[1:]])
    result = run("log", "--repair", "--session", str(session))
    assert result.exit_code == 0, result.output
    assert "rebuilt from" in result.stdout and "seed 7 (scenario.toml's [chance] seed" in \
        result.stdout  # the session's own seed, 5, was kept only in the damaged line
    assert logged_inputs(session) == inputs
    after = status_json(session)
    assert after == before  # the seed only decides the rolls to come
    header = json.loads(lines_of(session)[0])
    assert (header["chance"], header["geometry"]) == ("virtual", "tracked")


def test_a_seed_kept_nowhere_else_is_asked_for(session: Path) -> None:
    lines = lines_of(session)
    (session / SCENARIO).write_text(DEMO.read_text().replace("seed = 7\n", ""))
    write_lines(session, [b"{garbage\n", *lines[1:]])
    error = one_line_error(run("log", "--repair", "--session", str(session)))
    assert "the session's seed was kept only in the header" in error
    assert "give it with --seed N" in error
    assert lines_of(session)[0] == b"{garbage\n"  # nothing written
    result = run("log", "--repair", "--seed", "5", "--session", str(session))
    assert result.exit_code == 0, result.output
    assert "seed 5 (given" in result.stdout
    assert json.loads(lines_of(session)[0])["seed"] == 5


def test_repair_of_a_sound_log_changes_nothing(session: Path) -> None:
    before = (session / LOG).read_bytes()
    result = run("log", "--repair", "--session", str(session))
    assert result.stdout == f"{session / LOG}: sound, nothing to mend\n"
    assert (session / LOG).read_bytes() == before
    assert not (session / f"{LOG}.damaged").exists()


# --- the torn tail, older logs, appending -----------------------------------------------------

def test_a_torn_last_line_is_ignored_then_cut_off(session: Path) -> None:
    inputs = logged_inputs(session)
    with (session / LOG).open("ab") as log:
        log.write(lines_of(session)[-1][:40])  # a crash in the middle of the next line
    result = run("status", "--session", str(session))
    assert result.exit_code == 0 and "cut off by a crash" in result.stderr
    play_lines(session, ["gold elf +1", "quit"])
    assert logged_inputs(session) == [*inputs, {"type": "gold", "piece": "elf", "amount": 1}]
    assert run("log", "--verify", "--session", str(session)).exit_code == 0


def test_a_whole_last_line_without_its_newline_is_kept(session: Path) -> None:
    inputs = logged_inputs(session)
    (session / LOG).write_bytes((session / LOG).read_bytes()[:-1])
    result = run("status", "--session", str(session))
    assert result.exit_code == 0 and result.stderr == ""
    play_lines(session, ["gold elf +1", "quit"])
    assert logged_inputs(session) == [*inputs, {"type": "gold", "piece": "elf", "amount": 1}]


def test_bytes_after_a_whole_last_line_are_damage_not_a_crash(session: Path) -> None:
    with (session / LOG).open("ab") as log:
        log.write(lines_of(session)[-1].rstrip(b"\n") + b"x")
    error = one_line_error(run("status", "--session", str(session)))
    assert f"line {len(lines_of(session))} was edited or damaged (it is neither whole" in error


def test_an_older_log_opens_and_is_chained_on_its_first_write(session: Path) -> None:
    before = status_json(session)
    inputs = logged_inputs(session)
    unchain(session / LOG)
    older = (session / LOG).read_bytes()
    assert b'"hash"' not in older
    assert status_json(session) == before
    verified = run("log", "--verify", "--session", str(session))
    assert verified.exit_code == 0 and "written before the hash chain" in verified.stdout
    assert (session / LOG).read_bytes() == older  # reading writes nothing
    play_lines(session, ["gold elf +1", "quit"])
    assert (session / f"{LOG}.v1").read_bytes() == older  # kept beside, as it was
    assert logged_inputs(session) == [*inputs, {"type": "gold", "piece": "elf", "amount": 1}]
    assert json.loads(lines_of(session)[0])["version"] == 2
    assert run("log", "--verify", "--session", str(session)).exit_code == 0


def test_an_older_log_with_a_damaged_line_keeps_it_as_a_stand_in(session: Path) -> None:
    unchain(session / LOG)
    lines = lines_of(session)
    write_lines(session, [*lines[:2], b"{not json\n", *lines[3:]])
    assert run("rollback", "--session", str(session), "1").exit_code == 0  # the first write
    inputs = logged_inputs(session)
    assert inputs[1] == {"type": "damaged", "problem": "damaged: Expecting property name "
                                                      "enclosed in double quotes"}
    assert inputs[-1] == {"type": "rollback", "to": 1}
    assert run("log", "--verify", "--session", str(session)).exit_code == 0


def test_appending_reads_nothing_of_the_file(session: Path, monkeypatch: pytest.MonkeyPatch,
                                             catalog: Any) -> None:
    """The next line is sealed onto the last line's hash kept from the writer's read."""
    from automa.session.store import Session

    opened = Session.open(session, catalog)
    assert opened.end is not None
    with monkeypatch.context() as patch:
        patch.setattr(Path, "read_bytes", _no_reading)
        patch.setattr(os, "read", _no_reading)
        patch.setattr(os, "pread", _no_reading)
        opened.end.append({"type": "gold", "piece": "elf", "amount": 1})
    assert opened.end.stamp == parse_log(session / LOG, (session / LOG).read_bytes()).stamp
    assert read_log(session / LOG).events[-1] == {"type": "gold", "piece": "elf", "amount": 1}


def _no_reading(*args: object, **kwargs: object) -> Any:
    raise AssertionError("the log was read again to append")


# --- damage at random -------------------------------------------------------------------------

def _damage(data: bytes, kind: int, first: int, second: int, byte: int) -> bytes:
    lines = data.splitlines(keepends=True)
    i, j = first % len(lines), second % len(lines)
    at = first % len(data)
    if kind == 0:  # a line deleted
        return b"".join(lines[:i] + lines[i + 1:])
    if kind == 1:  # a line copied in elsewhere
        return b"".join([*lines[:j], lines[i], *lines[j:]])
    if kind == 2:  # two lines swapped
        lines[i], lines[j] = lines[j], lines[i]
        return b"".join(lines)
    if kind == 3:  # a byte changed
        return data[:at] + bytes((byte if byte != data[at] else byte ^ 1,)) + data[at + 1:]
    if kind == 4:  # a byte lost
        return data[:at] + data[at + 1:]
    if kind == 5:  # a byte added
        return data[:at] + bytes((byte,)) + data[at:]
    if kind == 6:  # cut off (a crash, or a copy stopped short)
        return data[:at]
    return b"".join([*lines[:j], b'{"type": "gold", "piece": "elf", "amount": 9}\n', *lines[j:]])


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.integers(0, 7), first=st.integers(0, 10_000), second=st.integers(0, 10_000),
       byte=st.integers(0, 255))
def test_random_damage_is_detected_or_harmless(played: Path, kind: int, first: int,
                                               second: int, byte: int) -> None:
    """Whatever one slip does to the log, reading it either refuses it (SessionError naming the
    line), reports a torn last line, or reads the very inputs logged, or those of a log cut
    short at a line's end (what a crash before those writes would have left)."""
    data = (played / LOG).read_bytes()
    original = parse_log(played / LOG, data).events
    damaged = _damage(data, kind, first, second, byte)
    try:
        contents = parse_log(played / LOG, damaged)
    except SessionError as error:
        assert f"{played / LOG}" in str(error)
        return
    if contents.torn:
        return  # reported: "the last input was cut off by a crash and is ignored"
    if contents.events != original:
        assert data.startswith(damaged) and damaged.endswith(b"\n"), kind
        assert contents.events == original[:len(contents.events)]


def test_the_chain_alone_names_each_kind_of_damage() -> None:
    records = [{"format": "f", "version": 2}, *({"n": n} for n in range(2, 7))]
    data, link = chain.chained_bytes(records)
    assert link.seq == 6
    lines = data.splitlines(keepends=True)
    sound = chain.read_chain(data)
    assert not sound.breaks and [one.seq for _, one in sound.lines] == [1, 2, 3, 4, 5, 6]
    problems = {
        "deleted": chain.read_chain(b"".join(lines[:2] + lines[4:])).breaks[0],
        "copied": chain.read_chain(b"".join([*lines[:3], lines[1], *lines[3:]])).breaks[0],
        "moved": chain.read_chain(b"".join([lines[0], lines[2], lines[1], *lines[3:]])
                                  ).breaks[0],
    }
    assert problems["deleted"] == chain.Break(
        3, "was written as line 5: the lines written as lines 3-4 are missing (deleted)")
    assert problems["copied"] == chain.Break(4, "repeats line 2 (a line copied twice)")
    assert problems["moved"] == chain.Break(
        2, "is out of order: it was written as line 3 (the line written as line 2 is now "
           "line 3)")
