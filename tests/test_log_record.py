"""Replay checks the record (issue 26 §7): the session's first line records a digest of the
rules data a battle reads (by file and table) and of every ruling's option; data changed after
`new` is refused in one line naming it, and `automa log --accept-data` goes on under the new
data from the next input on, the battle kept as logged. The logged answers and ends are what
happened at the table: a recomputed one that disagrees is reported in one line naming the
input, the question and both answers, the logged one stands, and `automa log
--accept-recomputed` goes on with this machine's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from msgspec.structs import replace

from automa.catalog.digests import battle_table, table_digest
from automa.catalog.locate import load_data_file, shipped_data_dir
from automa.cli.main import cli
from automa.engine.judge import Briefs, Judge
from automa.rules import rulings
from automa.session.store import LOG
from tests.conftest import EXAMPLES, logged_inputs, reseal

DEMO = EXAMPLES / "demo-battle.toml"
INPUTS = ["move elf 12,30", "done", "", "", "", ""]  # a whole AI turn: four activations


def run(*args: str, data: Path | None = None) -> Result:
    prefix = ["--data-dir", str(data)] if data is not None else []
    return CliRunner().invoke(cli, [*prefix, *args])


def status(folder: Path, data: Path | None = None) -> Any:
    result = run("status", "--session", str(folder), "--json", data=data)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A session played under a data folder of the user's (empty at first)."""
    home = tmp_path_factory.mktemp("played")
    data = home / "my-data"
    data.mkdir()
    folder = home / "s"
    assert run("new", str(DEMO), "--session", str(folder), "--seed", "5",
               data=data).exit_code == 0
    result = CliRunner().invoke(cli, ["--data-dir", str(data), "play", "--session",
                                      str(folder)], input="\n".join([*INPUTS, "quit"]) + "\n")
    assert result.exit_code == 0, result.output
    return data, folder


@pytest.fixture
def session(played: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    data, folder = played
    shutil.copytree(data, tmp_path / "my-data")
    shutil.copytree(folder, tmp_path / "s")
    return tmp_path / "my-data", tmp_path / "s"


# --- the data and rulings in force ------------------------------------------------------------

def test_the_header_records_the_data_a_battle_reads_and_every_ruling(
        session: tuple[Path, Path]) -> None:
    data, folder = session
    header = json.loads((folder / LOG).read_text().splitlines()[0])
    tables, _ = load_data_file("components.toml", data)
    assert header["data"]["components.toml"] == {
        k: table_digest(battle_table("components.toml", k, v)) for k, v in sorted(tables.items())}
    monsters = header["data"]["monsters.toml"]
    assert {"sewer-rat", "centaur", "skeleton-warrior", "flame-wraith"} <= set(monsters)
    assert "orc" not in monsters  # no piece of this battle can become one
    assert set(header["data"]["playmats.toml"]) == {"mausoleum"}
    assert header["rulings"] == {key: ruling.default for key, ruling in
                                 sorted(rulings.SWITCHES.items())}


def test_a_changed_data_file_is_refused_naming_it(session: tuple[Path, Path]) -> None:
    data, folder = session
    before = (folder / LOG).read_bytes()
    (data / "components.toml").write_text('[ruler.1]\nlength = 6.0\nprovenance = "house"\n')
    for command in ("status", "next", "undo"):
        result = run(command, "--session", str(folder), data=data)
        assert result.exit_code == 5 and result.stderr.count("\n") == 1, result.output
        assert f"{data / 'components.toml'}: [ruler] changed" in result.stderr
        assert f"`automa log --accept-data --session {folder}`" in result.stderr
    assert (folder / LOG).read_bytes() == before  # nothing written


def test_accepting_new_data_keeps_the_battle_as_logged(session: tuple[Path, Path]) -> None:
    data, folder = session
    before = status(folder, data)
    inputs = logged_inputs(folder)
    (data / "components.toml").write_text('[ruler.1]\nlength = 6.0\nprovenance = "house"\n')
    accepted = run("log", "--accept-data", "--session", str(folder), data=data)
    assert accepted.exit_code == 0, accepted.output
    assert f"{data / 'components.toml'}: [ruler] changed" in accepted.stdout
    assert status(folder, data) == before  # no past activation replayed differently
    assert logged_inputs(folder)[:-1] == inputs  # nothing rewritten, one line added
    checkpoint = logged_inputs(folder)[-1]
    assert (checkpoint["type"], checkpoint["why"]) == ("checkpoint", "data")
    listed = run("log", "--session", str(folder), data=data).stdout.splitlines()
    assert listed[-1].endswith("checkpoint: the battle as logged goes on under the new data")
    assert run("log", "--verify", "--session", str(folder), data=data).exit_code == 0
    play_lines_under(data, folder, ["move elf 14,30", "done", ""])
    undone = run("rollback", "--session", str(folder), str(len(inputs)), data=data)
    assert undone.exit_code == 5 and "[ruler] changed" in undone.stderr  # before the checkpoint


def play_lines_under(data: Path, folder: Path, lines: list[str]) -> None:
    result = CliRunner().invoke(cli, ["--data-dir", str(data), "play", "--session",
                                      str(folder)], input="\n".join([*lines, "quit"]) + "\n")
    assert result.exit_code == 0, result.output


def test_data_a_battle_never_reads_changes_nothing(session: tuple[Path, Path]) -> None:
    data, folder = session
    (data / "lords.toml").write_text(  # a Lord on no piece of this battle
        (shipped_data_dir() / "lords.toml").read_text().replace(
            'sequences = ["shield then melee+stun then melee"]', 'sequences = ["melee"]', 1))
    (data / "rooms.toml").write_text("")  # a file only setting up and campaigns read
    assert run("status", "--session", str(folder), data=data).exit_code == 0


def test_a_ruling_whose_default_changed_is_refused_naming_it(session: tuple[Path, Path],
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """A later automa that reads a ruling otherwise by default (the scenario is unchanged)."""
    data, folder = session
    ice = rulings.BY_KEY["ice-push"]
    flipped = replace(ice, options=tuple(reversed(ice.options)))
    monkeypatch.setitem(rulings.BY_KEY, "ice-push", flipped)  # type: ignore[index]
    monkeypatch.setitem(rulings.SWITCHES, "ice-push", flipped)  # type: ignore[index]
    result = run("status", "--session", str(folder), data=data)
    assert result.exit_code == 5 and result.stderr.count("\n") == 1
    assert f"ruling ice-push was {ice.options[0].value}, is {ice.options[-1].value} now" in \
        result.stderr


# --- the logged answers stand -----------------------------------------------------------------

def _seeing_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine computes every "Can X see Y?" the other way (the replay is asked)."""
    confirm = Judge.confirm

    def other(self: Judge, question: str, computed: bool, margin: float,
              briefs: Briefs | None) -> bool:
        flip = question.startswith("Can ") and bool(self.script)
        return confirm(self, question, not computed if flip else computed, margin, briefs)

    monkeypatch.setattr(Judge, "confirm", other)


def test_a_contradicted_answer_is_reported_and_the_logged_one_stands(
        session: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    data, folder = session
    before = status(folder, data)
    _seeing_otherwise(monkeypatch)
    result = run("status", "--session", str(folder), "--json", data=data)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == before  # the logged outcome
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"automa: note: {folder / LOG} line 4: input 3 (Flame Wraith #1): "
                            f"'Can Flame Wraith #1 see ")
    assert "is yes in the log, no as computed here; the log's stands" in first
    verified = run("log", "--verify", "--session", str(folder), data=data)
    assert verified.exit_code == 5 and "as computed here" in verified.stdout


def _moved_end(folder: Path) -> tuple[int, str, float, float]:
    """An activation line's first end moved 0.01 cm, resealed as a machine that computed it
    there would have logged it: its line number, the piece and where this machine puts it."""
    log = folder / LOG
    lines = log.read_text().splitlines()
    number, line = next((n, json.loads(t)) for n, t in enumerate(lines)
                        if json.loads(t).get("ends"))
    piece, (x, y) = next(iter(line["ends"].items()))
    line["ends"][piece] = [x + 0.01, y]
    lines[number] = json.dumps(line)
    log.write_text("\n".join(lines) + "\n")
    reseal(log)
    return number + 1, piece, x, y


def test_a_moved_end_is_reported_and_the_logged_one_stands(session: tuple[Path, Path]
                                                            ) -> None:
    data, folder = session
    number, piece, x, y = _moved_end(folder)
    result = run("status", "--session", str(folder), "--json", data=data)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["pieces"][piece]["at"][0] == pytest.approx(x + 0.01,
                                                                              abs=1e-3)
    assert f"line {number}: input {number - 1} (" in result.stderr
    assert f"ended' is ({x + 0.01:.6f}, {y:.6f}) in the log, ({x:.6f}, {y:.6f}) as computed " \
        "here" in result.stderr
    accepted = run("log", "--accept-recomputed", "--session", str(folder), data=data)
    assert accepted.exit_code == 0, accepted.output
    after = run("status", "--session", str(folder), "--json", data=data)
    assert after.stderr == ""  # settled: no longer reported
    assert json.loads(after.stdout)["pieces"][piece]["at"][0] == pytest.approx(x, abs=1e-3)
    assert run("log", "--verify", "--session", str(folder), data=data).exit_code == 0


def test_the_board_lists_a_contradiction_and_its_button_goes_on_with_this_machines(
        session: tuple[Path, Path]) -> None:
    """The board words the contradiction without the terminal's command, and its action is
    the one `automa log --accept-recomputed` runs."""
    from automa.catalog.load import load_catalog
    from automa.session.store import Session
    from automa.web.api import Board, call

    data, folder = session
    number, piece, x, _y = _moved_end(folder)
    board = Board(Session.open(folder, load_catalog(data)), data)
    _, view = call(board, "/api/view", None)
    assert view["contradictions"]  # this end, and what the pieces after it did
    line = view["contradictions"][0]
    assert line.startswith(f"{LOG} line {number}: input ") and "ended' is (" in line
    assert all("as computed here" in line and "automa log" not in line
               for line in view["contradictions"])
    code, after = call(board, "/api/accept-recomputed", {})
    assert code == 200 and after["contradictions"] == []
    assert after["output"].startswith("Going on under the battle as computed here")
    assert f"{LOG} line {number}" in after["output"]
    assert status(folder, data)["pieces"][piece]["at"][0] == pytest.approx(x, abs=1e-3)
    assert run("log", "--verify", "--session", str(folder), data=data).exit_code == 0
    with pytest.raises(Exception, match="nothing to accept"):
        call(board, "/api/accept-recomputed", {})


def test_an_end_within_a_millionth_of_a_cm_agrees(session: tuple[Path, Path]) -> None:
    data, folder = session
    log = folder / LOG
    lines = log.read_text().splitlines()
    number, line = next((n, json.loads(t)) for n, t in enumerate(lines)
                        if json.loads(t).get("ends"))
    piece, (x, y) = next(iter(line["ends"].items()))
    line["ends"][piece] = [x + 4e-7, y - 4e-7]
    lines[number] = json.dumps(line)
    log.write_text("\n".join(lines) + "\n")
    reseal(log)
    result = run("status", "--session", str(folder), data=data)
    assert result.exit_code == 0 and result.stderr == ""


def test_nothing_to_accept_is_one_line(session: tuple[Path, Path]) -> None:
    data, folder = session
    for flag in ("--accept-data", "--accept-recomputed"):
        result = run("log", flag, "--session", str(folder), data=data)
        assert result.exit_code == 2 and "nothing to accept" in result.stderr


def test_an_activation_line_keeps_where_each_piece_it_moved_ended(
        session: tuple[Path, Path]) -> None:
    _data, folder = session
    activations = [e for e in logged_inputs(folder) if e["type"] == "activation"]
    assert len(activations) == 4 and all("ends" in e for e in activations)
    moved = [e["ends"] for e in activations if e["ends"]]
    assert moved and all(len(at) == 2 for ends in moved for at in ends.values())


def test_a_checkpoint_in_the_middle_of_an_ai_turn_goes_on_with_the_same_turn(
        tmp_path: Path) -> None:
    """Who has acted is kept: the piece that acts after the checkpoint is the one that came
    next (its rolls differ: each input draws from its own stream of the seed, and the
    checkpoint is an input)."""
    data = tmp_path / "my-data"
    data.mkdir()
    folder = tmp_path / "s"
    assert run("new", str(DEMO), "--session", str(folder), "--seed", "5",
               data=data).exit_code == 0
    play_lines_under(data, folder, ["done", "", ""])  # two of the four activations
    same = tmp_path / "same"
    shutil.copytree(folder, same)
    (data / "components.toml").write_text('[kraken]\nbag = 2\nprovenance = "house"\n')
    assert run("log", "--accept-data", "--session", str(folder), data=data).exit_code == 0
    assert status(folder, data)["phase"] == "ai"
    went_on = run("next", "--session", str(folder), "--json", data=data)
    (data / "components.toml").unlink()  # the unchanged copy, under the data it began with
    expected = run("next", "--session", str(same), "--json", data=data)
    assert went_on.exit_code == expected.exit_code == 0, went_on.output + expected.output
    after, before = json.loads(went_on.stdout), json.loads(expected.stdout)
    assert after["character"] == before["character"]
    assert after["explain"][0] == before["explain"][0]  # why it acts now
