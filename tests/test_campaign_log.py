"""The campaign log detects damage as a session's does (issue 26 §8): its steps carry their
number and the hash of the line before, a step deleted, copied twice, moved or edited is
refused by every campaign command naming the line, `automa campaign log --verify` lists it and
`--repair` keeps the steps before it; a step cut off by a crash is said, not dropped without a
word; an older campaign log is chained on its next step."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from automa.campaign import log as campaign_log
from automa.campaign.log import LOG, CampaignError
from automa.cli.main import cli
from automa.session import chain
from tests.conftest import unsealed
from tests.test_log_chain import _damage


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env={"AUTOMA_DATA_DIR": None})


def ok(*args: str) -> Result:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A campaign of a few steps: a visit bought at and ended, another entered and undone."""
    folder = tmp_path_factory.mktemp("evening") / "c"
    ok("campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8,dwarf=9",
       "--lord", "hmotha", "--seed", "3")
    ok("campaign", "next", "izchak-the-merchant", "--session", str(folder))
    ok("campaign", "end-room", "--session", str(folder), "--change", "elf.gold=-3")
    ok("campaign", "next", "althea-the-healer", "--session", str(folder))
    ok("campaign", "undo", "--session", str(folder))
    return folder


@pytest.fixture
def campaign(evening: Path, tmp_path: Path) -> Path:
    shutil.copytree(evening, tmp_path / "c")
    return tmp_path / "c"


def lines_of(folder: Path) -> list[bytes]:
    return (folder / LOG).read_bytes().splitlines(keepends=True)


def steps_of(folder: Path) -> list[dict[str, object]]:
    return [unsealed(json.loads(line)) for line in lines_of(folder)[1:]]


def test_campaign_steps_are_chained(campaign: Path) -> None:
    sound = chain.read_chain((campaign / LOG).read_bytes())
    assert not sound.breaks and [one.seq for _, one in sound.lines] == [1, 2, 3, 4, 5]
    assert [s["type"] for s in steps_of(campaign)] == ["enter", "end-room", "enter", "undo"]


@pytest.mark.parametrize(("damage", "line", "words"), [
    (lambda ls: ls[:2] + ls[3:], 3, "the line written as line 3 is missing (deleted)"),
    (lambda ls: [*ls[:3], ls[2], *ls[3:]], 4, "repeats line 3"),
    (lambda ls: [ls[0], ls[2], ls[1], *ls[3:]], 2, "is out of order"),
    (lambda ls: [ls[0], ls[1].replace(b'"enter"', b'"visit"'), *ls[2:]], 2, "was edited"),
])
def test_a_damaged_campaign_log_is_refused_naming_the_line(campaign: Path, damage: object,
                                                           line: int, words: str) -> None:
    assert callable(damage)
    (campaign / LOG).write_bytes(b"".join(damage(lines_of(campaign))))
    before = (campaign / LOG).read_bytes()
    for command in (["status"], ["undo"], ["next", "amaranth-inn"], ["log"]):
        result = run("campaign", *command, "--session", str(campaign))
        assert result.exit_code == 5 and result.stderr.count("\n") == 1, result.output
        assert f"{campaign / LOG} line {line}" in result.stderr and words in result.stderr
    assert (campaign / LOG).read_bytes() == before  # nothing written
    verified = run("campaign", "log", "--verify", "--session", str(campaign))
    assert verified.exit_code == 5
    assert verified.stdout.startswith(f"{campaign / LOG} line {line} ")


def test_repair_keeps_the_steps_before_the_first_damage(campaign: Path) -> None:
    steps = steps_of(campaign)
    lines = lines_of(campaign)
    (campaign / LOG).write_bytes(b"".join(lines[:2] + lines[3:]))  # step 2 lost
    result = run("campaign", "log", "--repair", "--session", str(campaign))
    assert result.exit_code == 0, result.output
    assert f"{campaign / LOG} line 3 (step 3) is left out" in result.stdout
    assert steps_of(campaign) == steps[:1]
    assert (campaign / f"{LOG}.damaged").read_bytes() == b"".join(lines[:2] + lines[3:])
    ok("campaign", "status", "--session", str(campaign))
    ok("campaign", "log", "--verify", "--session", str(campaign))


def test_repair_puts_moved_steps_back(campaign: Path) -> None:
    original = (campaign / LOG).read_bytes()
    lines = lines_of(campaign)
    (campaign / LOG).write_bytes(b"".join([lines[0], lines[2], lines[1], *lines[3:]]))
    ok("campaign", "log", "--repair", "--session", str(campaign))
    assert (campaign / LOG).read_bytes() == original


def test_a_step_cut_off_by_a_crash_is_said(campaign: Path) -> None:
    with (campaign / LOG).open("ab") as log:
        log.write(b'{"seq": 6, "prev": "')
    listed = ok("campaign", "log", "--session", str(campaign))
    assert "the last step was cut off by a crash: it never happened" in listed.stderr
    verified = ok("campaign", "log", "--verify", "--session", str(campaign))
    assert "cut off by a crash" in verified.stdout
    ok("campaign", "next", "amaranth-inn", "--session", str(campaign))  # cut off, then chained
    assert steps_of(campaign)[-1]["room"] == "amaranth-inn"
    ok("campaign", "log", "--verify", "--session", str(campaign))


def test_an_older_campaign_log_is_chained_on_its_next_step(campaign: Path) -> None:
    records = [unsealed(json.loads(line)) for line in lines_of(campaign)]
    records[0]["version"] = 1
    older = "".join(json.dumps(r) + "\n" for r in records).encode()
    (campaign / LOG).write_bytes(older)
    before = ok("campaign", "status", "--session", str(campaign), "--json").stdout
    assert "written before the hash chain" in ok("campaign", "log", "--verify", "--session",
                                                 str(campaign)).stdout
    ok("campaign", "next", "amaranth-inn", "--session", str(campaign))
    assert (campaign / f"{LOG}.v1").read_bytes() == older
    assert steps_of(campaign)[:-1] == records[1:]
    assert json.loads(lines_of(campaign)[0])["version"] == 2
    ok("campaign", "undo", "--session", str(campaign))
    assert ok("campaign", "status", "--session", str(campaign), "--json").stdout == before


def test_a_step_is_appended_from_the_end_of_the_file_alone(campaign: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """A long log: appending reads a block or two from its end, never the whole file."""
    filler = [{"type": "undo"}] * 2000  # undo of nothing: a campaign reads it as nothing
    data, _ = chain.chained_bytes([unsealed(json.loads(lines_of(campaign)[0])), *filler])
    (campaign / LOG).write_bytes(data)
    read: list[int] = []
    pread = os.pread

    def counted(fd: int, length: int, offset: int) -> bytes:
        read.append(length)
        return pread(fd, length, offset)

    with monkeypatch.context() as patch:
        patch.setattr(os, "pread", counted)
        patch.setattr(Path, "read_bytes", _no_whole_read)
        campaign_log.append(campaign, {"type": "undo"})
    assert 0 < sum(read) <= 2 * chain.TAIL_BLOCK < len(data)
    assert chain.read_chain((campaign / LOG).read_bytes()).link.seq == 2002


def _no_whole_read(*args: object) -> bytes:
    raise AssertionError("the whole log was read to append")


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.integers(0, 7), first=st.integers(0, 10_000), second=st.integers(0, 10_000),
       byte=st.integers(0, 255))
def test_random_damage_to_a_campaign_log_is_detected_or_harmless(
        evening: Path, tmp_path_factory: pytest.TempPathFactory, kind: int, first: int,
        second: int, byte: int) -> None:
    data = (evening / LOG).read_bytes()
    original = campaign_log.read(evening).steps
    folder = tmp_path_factory.mktemp("damaged")
    (folder / LOG).write_bytes(_damage(data, kind, first, second, byte))
    damaged = (folder / LOG).read_bytes()
    try:
        read = campaign_log.read(folder)
    except CampaignError as error:
        assert str(folder / LOG) in str(error) or str(folder) in str(error)
        return
    if read.torn:
        return  # said by `campaign log` and `--verify`; cut off before the next step
    if read.steps != original:
        assert data.startswith(damaged) and damaged.endswith(b"\n"), kind
        assert read.steps == original[:len(read.steps)]
