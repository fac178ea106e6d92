"""A session folder on a hostile disk (issue 11 §1): the suggested recovery works on a log that
no longer replays, the starting scenario is fingerprinted, write errors are one line, a kill
during `new` leaves no dead end, every logged value is checked when read, links are refused and
written files honour the umask."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.session.commands import Undo
from automa.session.lock import LOCK
from automa.session.log import SessionError
from automa.session.store import LOG, SCENARIO, Session
from automa.storage import atomic_write_text
from tests.conftest import reseal, unchain
from tests.test_session import DEMO, new_session


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def three_activations(tmp_path: Path) -> Path:
    folder = new_session(tmp_path)
    for _ in range(3):
        assert run("next", "--session", str(folder)).exit_code == 0
    return folder


def lines_of(folder: Path) -> list[str]:
    return (folder / LOG).read_text().splitlines()


def replace_line(folder: Path, number: int, text: str) -> None:
    lines = lines_of(folder)
    lines[number - 1] = text
    (folder / LOG).write_text("\n".join(lines) + "\n")


def one_line_error(result: Result, code: int = 5) -> str:
    assert result.exit_code == code, result.output
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    return result.stderr


# --- the suggested recovery works -------------------------------------------------------------

def test_log_names_each_activations_piece_and_what_it_did(tmp_path: Path) -> None:
    folder = three_activations(tmp_path)
    listed = run("log", "--session", str(folder)).stdout.splitlines()
    assert listed == [
        "   1  Flame Wraith #1: rush+fireball at Elf (Elf -1 health), token 1:1, d12 10",
        "   2  Sewer Rat #2: melee+poison at Elf",
        "   3  Sewer Rat #1: melee+poison at Barbarian (Barbarian -2 health), token 2:2, d12 3",
    ]


def test_an_old_log_without_summaries_lists_the_dice(tmp_path: Path) -> None:
    folder = three_activations(tmp_path)
    lines = lines_of(folder)
    for number in (2, 3, 4):
        event = json.loads(lines[number - 1])
        del event["summary"]
        lines[number - 1] = json.dumps(event)
    (folder / LOG).write_text("\n".join(lines) + "\n")
    reseal(folder / LOG)  # as an older automa wrote them
    listed = run("log", "--session", str(folder)).stdout.splitlines()
    assert listed[0] == "   1  AI activation (token 1:1, d12 10)"
    assert listed[1] == "   2  AI activation (no dice)"
    assert run("status", "--session", str(folder)).exit_code == 0


def test_log_and_rollback_work_on_a_log_that_no_longer_replays(tmp_path: Path) -> None:
    """The second activation's D12 is edited to 13: status refuses in one line naming the log
    line and the way out; `log` lists every input; `rollback 1` keeps the first and the
    battle goes on from there."""
    folder = three_activations(tmp_path)
    replace_line(folder, 4, lines_of(folder)[3].replace('"value": "3"', '"value": "13"'))
    reseal(folder / LOG)  # as a faulty program would have written it
    error = one_line_error(run("status", "--session", str(folder)))
    assert f"{folder / LOG} line 4: input 3 of the log cannot be replayed" in error
    assert "d12 '13' is not a face of the die" in error
    assert "`automa log` lists the inputs; `automa rollback 2` keeps those before it" in error
    listed = run("log", "--session", str(folder))
    assert listed.exit_code == 0
    assert listed.stdout.splitlines()[2].startswith("   3  damaged line 4 (d12 '13'")
    rolled = run("rollback", "--session", str(folder), "2")
    assert rolled.exit_code == 0, rolled.output
    assert rolled.stdout == "Rolled back to input 2: round 2, ai's turn\n"
    assert run("next", "--session", str(folder)).exit_code == 0
    listed = run("log", "--session", str(folder)).stdout
    assert "damaged" not in listed and listed.count("\n") == 3


def test_rollback_says_so_when_the_inputs_kept_still_fail(tmp_path: Path) -> None:
    folder = three_activations(tmp_path)
    unchain(folder / LOG)  # a log from before the hash chain, damaged
    replace_line(folder, 2, "{not json")
    error = one_line_error(run("rollback", "--session", str(folder), "2"))
    assert error.startswith("automa: rolled back to input 2, but the inputs kept do not replay "
                            f"either: {folder / LOG} line 2: input 1 of the log cannot be "
                            "replayed (damaged: ")
    assert "`automa rollback 0` keeps those before it" in error
    assert run("rollback", "--session", str(folder), "0").exit_code == 0
    assert run("status", "--session", str(folder)).exit_code == 0


def test_a_damaged_rollback_marker_is_an_input_that_can_be_rolled_back(tmp_path: Path) -> None:
    folder = three_activations(tmp_path)
    with (folder / LOG).open("a") as log:
        log.write('{"type": "rollback", "to": 7}\n')
    reseal(folder / LOG)  # as a faulty program would have written it
    error = one_line_error(run("status", "--session", str(folder)))
    assert "a rollback marker keeps 7 inputs of 3" in error and "`automa rollback 3`" in error
    assert run("rollback", "--session", str(folder), "3").exit_code == 0
    assert run("status", "--session", str(folder)).exit_code == 0


# --- the starting scenario is fingerprinted ---------------------------------------------------

def test_an_edited_scenario_is_refused_with_how_to_start_from_it(tmp_path: Path) -> None:
    folder = new_session(tmp_path)
    header = json.loads(lines_of(folder)[0])
    assert header["scenario_sha256"] == hashlib.sha256(DEMO.read_bytes()).hexdigest()
    (folder / SCENARIO).write_text(DEMO.read_text().replace("seed = 7", "seed = 8"))
    error = one_line_error(run("status", "--session", str(folder)))
    assert error == (f"automa: {folder / SCENARIO}: edited after the session started (it no "
                     f"longer matches the log); a session's start is never changed: start a "
                     f"new one from it with `automa new {folder / SCENARIO} --session NEW`\n")
    before = (folder / LOG).read_bytes()
    assert one_line_error(run("rollback", "--session", str(folder), "0")) == error
    assert (folder / LOG).read_bytes() == before  # no marker: rolling back cannot mend it
    assert run("new", str(folder / SCENARIO), "--session", str(tmp_path / "NEW")).exit_code == 0


def test_an_old_header_without_a_fingerprint_still_opens(tmp_path: Path) -> None:
    folder = three_activations(tmp_path)
    unchain(folder / LOG)  # as an automa before the fingerprint wrote it
    lines = lines_of(folder)
    header = json.loads(lines[0])
    del header["scenario_sha256"]
    replace_line(folder, 1, json.dumps(header))
    assert run("status", "--session", str(folder)).exit_code == 0


# --- write errors, a kill during new ----------------------------------------------------------

def _no_space(*args: object, **kwargs: object) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_while_logging_is_one_line_and_loses_nothing(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    folder = three_activations(tmp_path)
    before = (folder / LOG).read_bytes()
    with monkeypatch.context() as patch:
        patch.setattr(os, "write", _no_space)
        error = one_line_error(run("undo", "--session", str(folder)))
    assert error == (f"automa: {folder / LOG}: cannot be written (No space left on device); the "
                     f"input was not recorded\n")
    assert (folder / LOG).read_bytes() == before


def test_a_full_disk_during_new_is_one_line(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", _no_space)
        error = one_line_error(run("new", str(DEMO), "--session", str(tmp_path / "s")))
    assert "cannot be written (No space left on device)" in error
    assert not (tmp_path / "s" / LOG).exists()
    assert run("new", str(DEMO), "--session", str(tmp_path / "s")).exit_code == 0


def test_a_save_under_a_file_is_one_line_exit_5(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    error = one_line_error(run("turn", str(DEMO), "--save", str(tmp_path / "file" / "x.toml")))
    assert error.startswith(f"automa: {tmp_path / 'file' / 'x.toml'}: cannot be written (")


@pytest.mark.parametrize("log", [None, "", '{"format": "catacombs-au'])
def test_a_half_made_session_is_finished_by_new(tmp_path: Path, log: str | None) -> None:
    """Killed during `new`: the scenario copied and the log missing, empty or cut short."""
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / SCENARIO).write_text(DEMO.read_text())
    if log is not None:
        (folder / LOG).write_text(log)
    result = run("new", str(DEMO), "--session", str(folder))
    assert result.exit_code == 0, result.output
    assert run("status", "--session", str(folder)).exit_code == 0


def test_new_still_refuses_a_folder_holding_a_session(tmp_path: Path) -> None:
    folder = new_session(tmp_path)
    error = one_line_error(run("new", str(DEMO), "--session", str(folder)))
    assert "already holds a session" in error


# --- logged values are checked when read ------------------------------------------------------

ACTIVATION = '{"type": "activation", "outcomes": [OUTCOME], "answers": []}'
BAD_LINES = {
    "nan": ('{"type": "move", "piece": "elf", "to": [NaN, 3]}', "NaN is not a number"),
    "infinity": ('{"type": "move", "piece": "elf", "to": [Infinity, 3]}', "Infinity is not"),
    "huge float": ('{"type": "move", "piece": "elf", "to": [1e999, 3]}', "too large a number"),
    "huge int": ('{"type": "gold", "piece": "elf", "amount": ' + "9" * 5000 + "}", "damaged: "),
    "far move": ('{"type": "move", "piece": "elf", "to": [1e300, 3]}', "on the table"),
    "deep": ("[" * 100_000 + "]" * 100_000, "damaged: nested too deeply"),
    "d12 of 13": (ACTIVATION.replace("OUTCOME", '{"kind": "d12", "value": "13", "source": '
                                                '"rng"}'), "d12 '13' is not a face"),
    "token face": (ACTIVATION.replace("OUTCOME", '{"kind": "token", "value": "1:7R", '
                                                 '"source": "rng"}'),
                   "token 1:7R: no level 1 token reads 7R"),
    "token level": (ACTIVATION.replace("OUTCOME", '{"kind": "token", "value": "9:1", '
                                                  '"source": "rng"}'),
                    "there is no level 9 bag"),
    "rune face": (ACTIVATION.replace("OUTCOME", '{"kind": "rune_die", "value": "77", '
                                                '"source": "rng"}'),
                  "rune_die 77 is not a face of that die"),
    "amount text": ('{"type": "damage", "piece": "elf", "amount": "3"}', "amount '3'"),
    "amount bool": ('{"type": "damage", "piece": "elf", "amount": true}', "amount True"),
    "piece number": ('{"type": "damage", "piece": 4, "amount": 1}', "piece is not text"),
    "on text": ('{"type": "condition", "piece": "elf", "condition": "frozen", "on": "yes"}',
                "on is not true or false"),
    "unknown type": ('{"type": "teleport", "piece": "elf"}', "unknown input 'teleport'"),
    "summary": ('{"type": "activation", "outcomes": [], "answers": [], "summary": 3}',
                "summary is not text"),
    "answer": ('{"type": "activation", "outcomes": [], "answers": [{"q": 1}]}',
               "an answer is not"),
}


@pytest.mark.parametrize("name", sorted(BAD_LINES))
def test_a_bad_logged_value_is_one_line_naming_the_log_line(tmp_path: Path, name: str) -> None:
    folder = new_session(tmp_path)
    line, problem = BAD_LINES[name]
    unchain(folder / LOG)  # a log from before the hash chain takes lines added by hand
    with (folder / LOG).open("a") as log:
        log.write('{"type": "gold", "piece": "elf", "amount": 1}\n' + line + "\n")
    error = one_line_error(run("status", "--session", str(folder)))
    assert error.startswith(f"automa: {folder / LOG} line 3: input 2 of the log cannot be "
                            f"replayed (")
    assert problem in error, error
    assert "`automa rollback 1` keeps those before it" in error
    assert run("rollback", "--session", str(folder), "1").exit_code == 0
    assert run("status", "--session", str(folder)).exit_code == 0


@pytest.mark.parametrize("header", ['{"format": "catacombs-automa session", "version": 1, '
                                    '"seed": NaN, "chance": "virtual"}',
                                    '{"format": "catacombs-automa session", "version": 1, '
                                    '"seed": -4, "chance": "virtual"}',
                                    "[" * 50_000])
def test_a_bad_header_is_one_line(tmp_path: Path, header: str) -> None:
    folder = new_session(tmp_path)
    replace_line(folder, 1, header)
    error = one_line_error(run("status", "--session", str(folder)))
    assert error.startswith(f"automa: {folder / LOG}: line 1 ")


# --- links and permissions --------------------------------------------------------------------

@pytest.mark.parametrize("name", [SCENARIO, LOG, LOCK])
def test_a_symlinked_session_file_is_refused(tmp_path: Path, name: str) -> None:
    folder = new_session(tmp_path)
    run("next", "--session", str(folder))
    elsewhere = tmp_path / "elsewhere"
    (folder / name).rename(elsewhere)
    (folder / name).symlink_to(elsewhere)
    error = one_line_error(run("undo", "--session", str(folder)))
    fix = "(remove the link)" if name == LOCK else "(copy the file there instead)"
    assert error == (f"automa: {folder / name}: is a symbolic link; a session's files must be "
                     f"its own {fix}\n")


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_written_files_honour_the_umask(tmp_path: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        atomic_write_text(tmp_path / "saved.toml", "x = 1\n")
        folder = new_session(tmp_path)
    finally:
        os.umask(old)
    for path in (tmp_path / "saved.toml", folder / SCENARIO, folder / LOG):
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_to_a_full_disk_is_one_line_exit_5(tmp_path: Path) -> None:
    import subprocess

    from tests.conftest import AUTOMA

    folder = new_session(tmp_path)
    with open("/dev/full", "w") as full:
        result = subprocess.run([*AUTOMA, "next", "--session", str(folder)], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=60)
    assert result.returncode == 5
    assert result.stderr == "automa: cannot write the output (No space left on device)\n"
    assert run("log", "--session", str(folder)).stdout.startswith("   1  Flame Wraith #1")


def test_a_read_only_session_can_be_read_but_a_write_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A session on a read-only disk (simulated: the tests may run as root, whom chmod does not
    stop): status and log work, a write is refused in one line, exit 5."""
    folder = three_activations(tmp_path)
    (folder / LOCK).unlink()
    real_open = os.open

    def read_only(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(os, "open", read_only)
        assert run("status", "--session", str(folder)).exit_code == 0
        assert run("log", "--session", str(folder)).exit_code == 0
        error = one_line_error(run("undo", "--session", str(folder)))
    assert error == (f"automa: {folder / LOCK}: cannot be written (Read-only file system); the "
                     f"session can be read but not played on here\n")


def test_a_log_replaced_under_an_open_window_is_one_line(tmp_path: Path,
                                                         catalog: Catalog) -> None:
    folder = new_session(tmp_path)
    session = Session.open(folder, catalog)
    other = new_session(tmp_path, "other", seed=6)
    (folder / LOG).write_bytes((other / LOG).read_bytes())
    with pytest.raises(SessionError, match="was replaced by another session's log"):
        session.do(Undo())


def test_a_write_cut_short_by_a_full_disk_leaves_no_part_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = three_activations(tmp_path)
    before = (folder / LOG).read_bytes()
    real_write = os.write

    def half(fd: int, data: bytes) -> int:
        if len(data) > 4:
            return real_write(fd, bytes(data[:4]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patch:
        patch.setattr(os, "write", half)
        one_line_error(run("undo", "--session", str(folder)))
    assert (folder / LOG).read_bytes() == before


def test_a_line_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    folder = new_session(tmp_path)
    unchain(folder / LOG)
    with (folder / LOG).open("ab") as log:
        log.write(b'{"type": "remove", "piece": "elf", "why": "\xff"}\n')
    error = one_line_error(run("status", "--session", str(folder)))
    assert "line 2: input 1 of the log cannot be replayed (damaged: not UTF-8 text" in error


@pytest.mark.parametrize("name", [SCENARIO, LOG])
def test_a_fifo_in_a_session_folder_is_refused_not_waited_on(tmp_path: Path, name: str) -> None:
    folder = new_session(tmp_path)
    (folder / name).unlink()
    os.mkfifo(folder / name)
    error = one_line_error(run("status", "--session", str(folder)))
    assert error == f"automa: {folder / name}: is not a regular file\n"


def test_new_refuses_a_symlinked_log(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (tmp_path / "elsewhere").write_text("")
    (folder / LOG).symlink_to(tmp_path / "elsewhere")
    error = one_line_error(run("new", str(DEMO), "--session", str(folder)))
    assert "is a symbolic link" in error and (tmp_path / "elsewhere").read_text() == ""


@pytest.mark.parametrize("delay", [0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
def test_a_kill_during_new_leaves_no_dead_end(tmp_path: Path, delay: float) -> None:
    """SIGKILL `automa new` at some moment: whatever it left, `new` again (or the session it
    finished) works."""
    import signal
    import subprocess
    import time

    from tests.conftest import AUTOMA, running

    folder = tmp_path / "s"
    with running([*AUTOMA, "new", str(DEMO), "--session", str(folder)],
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as process:
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
    again = run("new", str(DEMO), "--session", str(folder))
    if again.exit_code != 0:
        assert "already holds a session" in one_line_error(again)
    assert run("status", "--session", str(folder)).exit_code == 0
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []


def test_an_oversized_scenario_in_a_session_folder_is_one_line(tmp_path: Path) -> None:
    folder = new_session(tmp_path)
    (folder / SCENARIO).write_text("#" * 5_000_000 + "\n", encoding="utf-8")
    error = one_line_error(run("status", "--session", str(folder)))
    assert error == f"automa: {folder / SCENARIO}: larger than 4 MB: not a file this program " \
                    f"writes\n"
