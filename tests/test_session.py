"""Sessions: a battle on disk that nothing can lose (issue: the companion at the table)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.geometry.table import build_table
from automa.scenario.load import load_scenario
from automa.session.positions import parse_position
from automa.session.store import LOG
from tests.conftest import AUTOMA, EXAMPLES, play_lines, reseal, running, unchain

DEMO = EXAMPLES / "demo-battle.toml"
# Two rounds at the table: reports, the AI turn one activation at a time, an undo and a redo.
SCRIPT = [
    "move elf 12,30", "damage rat-1 1", "gold barbarian +2", "heal wizard 1", "done",
    "", "", "undo", "", "", "", "", "",
    "move barbarian 2 cm east of wizard", "poison elf -1", "undo", "redo", "dead wizard", "done",
    "", "", "", "", "",
    "status",
]


def new_session(tmp_path: Path, name: str = "s", seed: int = 5) -> Path:
    folder = tmp_path / name
    result = CliRunner().invoke(cli, ["new", str(DEMO), "--session", str(folder), "--seed",
                                      str(seed)])
    assert result.exit_code == 0, result.output
    return folder


def status(folder: Path) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(cli, ["status", "--session", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_a_scripted_battle_through_play(tmp_path: Path) -> None:
    folder = new_session(tmp_path)
    transcript = play_lines(folder, SCRIPT)
    final = status(folder)
    assert final["round"] == 4 and final["phase"] == "heroes"
    assert "rat-1" not in final["pieces"] and "wizard" not in final["pieces"]
    assert final["pieces"]["barbarian"]["gold"] == 11
    assert "undone: Sewer Rat #2: melee+poison at Elf" in transcript
    assert "redone: poison elf -1" in transcript


@pytest.mark.parametrize("kill_after", range(0, len(SCRIPT) + 1, 2))
def test_killed_between_inputs_and_resumed_ends_the_same(tmp_path: Path, kill_after: int
                                                         ) -> None:
    """The input ends (as when the process dies) after `kill_after` lines; `play` again with the
    rest gives the same final state as an uninterrupted run."""
    whole = new_session(tmp_path, "whole")
    play_lines(whole, SCRIPT)
    broken = new_session(tmp_path, "broken")
    play_lines(broken, SCRIPT[:kill_after])
    play_lines(broken, SCRIPT[kill_after:])
    assert status(broken) == status(whole)


@pytest.mark.parametrize("torn_at", [1, 5, 9, 15, 20])
def test_a_write_torn_by_a_crash_is_ignored_and_entered_again(tmp_path: Path, torn_at: int
                                                              ) -> None:
    """A crash in the middle of writing an input leaves half a line: it is ignored (reported),
    the players enter that input again, and the battle ends the same."""
    whole = new_session(tmp_path, "whole")
    play_lines(whole, SCRIPT)
    torn = new_session(tmp_path, "torn")
    play_lines(torn, SCRIPT[:torn_at])
    with (torn / LOG).open("a", encoding="utf-8") as log:
        log.write('{"type": "move", "piece": "el')
    result = CliRunner().invoke(cli, ["status", "--session", str(torn)])
    assert "cut off by a crash" in result.stderr
    play_lines(torn, SCRIPT[torn_at:])
    assert status(torn) == status(whole)


def test_undo_redo_and_rollback_from_the_command_line(tmp_path: Path) -> None:
    folder = new_session(tmp_path)
    runner = CliRunner()
    for _ in range(3):
        assert runner.invoke(cli, ["next", "--session", str(folder)]).exit_code == 0
    after_three = status(folder)
    assert runner.invoke(cli, ["undo", "--session", str(folder)]).exit_code == 0
    assert runner.invoke(cli, ["redo", "--session", str(folder)]).exit_code == 0
    assert status(folder) == after_three
    assert runner.invoke(cli, ["rollback", "--session", str(folder), "1"]).exit_code == 0
    log = runner.invoke(cli, ["log", "--session", str(folder)]).stdout
    assert log.splitlines()[0].strip() == ("1  Flame Wraith #1: rush+fireball at Elf (Elf -1 "
                                           "health), token 1:1, d12 10")
    assert "2 undone input(s) can be redone" in log


def test_next_json_is_the_activation_object(tmp_path: Path) -> None:
    folder = new_session(tmp_path)
    data = json.loads(CliRunner().invoke(cli, ["next", "--session", str(folder),
                                               "--json"]).stdout)
    assert data["character"] == "wraith-1" and "steps" in data


def test_a_newer_log_is_refused_with_one_line(tmp_path: Path) -> None:
    folder = new_session(tmp_path)
    lines = (folder / LOG).read_text().splitlines()
    header = json.loads(lines[0])
    header["version"] = 99
    (folder / LOG).write_text(json.dumps(header) + "\n")
    result = CliRunner().invoke(cli, ["status", "--session", str(folder)])
    assert result.exit_code != 0 and "newer automa" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_damaged_line_names_the_file_and_line(tmp_path: Path) -> None:
    folder = new_session(tmp_path)
    play_lines(folder, ["move elf 12,30"])
    with (folder / LOG).open("a") as log:
        log.write("not json\n")
    result = CliRunner().invoke(cli, ["status", "--session", str(folder)])
    assert result.exit_code == 5 and result.stderr.count("\n") == 1
    assert f"{folder / LOG} line 3 is damaged (Expecting value)" in result.stderr
    assert f"`automa log --repair --session {folder}` keeps every sound line" in result.stderr


def test_a_damaged_line_of_an_older_log_names_the_file_and_line(tmp_path: Path) -> None:
    """A log from before the hash chain: a line that is not an input stops the replay there,
    and rollback leaves it behind."""
    folder = new_session(tmp_path)
    play_lines(folder, ["move elf 12,30"])
    unchain(folder / LOG)
    with (folder / LOG).open("a") as log:
        log.write("not json\n")
    result = CliRunner().invoke(cli, ["status", "--session", str(folder)])
    assert result.exit_code == 5 and result.stderr.count("\n") == 1
    assert f"{folder / LOG} line 3: input 2 of the log cannot be replayed (damaged: " \
        in result.stderr
    assert "`automa log` lists the inputs; `automa rollback 1` keeps those before it" \
        in result.stderr


def test_bad_reports_change_nothing(tmp_path: Path) -> None:
    folder = new_session(tmp_path)
    before = status(folder)
    out = play_lines(folder, ["move elf 100,100", "move elf onto the moon", "damage nobody 2",
                        "gold elf -99", "heal elf x", "freeze", "move elf rune 9"])
    assert status(folder) == before
    assert out.count("  ") >= 7


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",),
                                               blacklist_characters="\r\n\x0b\x0c\x1c\x1d\x1e"
                                                                    "\x85\u2028\u2029"),
                        max_size=30), max_size=12))
def test_fuzzed_lines_never_crash_or_corrupt(tmp_path_factory: pytest.TempPathFactory,
                                             lines: list[str]) -> None:
    folder = new_session(tmp_path_factory.mktemp("fuzz"))
    words = ["move elf", "damage", "done", "gold elf", "undo", "redo", "dead", "los"]
    play_lines(folder, [w + " " + line for w, line in zip(words * 2, lines, strict=False)] + lines)
    status(folder)  # the session still opens and replays


def test_positions_in_table_words(catalog: Catalog) -> None:
    scenario = load_scenario(DEMO, catalog)
    table = build_table(scenario.playmat)
    pieces = list(scenario.pieces)
    elf = next(p for p in pieces if p.id == "elf")
    others = [p for p in pieces if p.id != "elf"]
    assert parse_position("12.5, 40", table, others, elf) == (12.5, 40.0)
    assert parse_position("rune 1", table, others, elf) == (15.0, 82.0)
    x, y = parse_position("2 cm left of barbarian", table, others, elf)
    assert (x, y) == pytest.approx((30.0 - 1.25 - 1.25 - 2.0, 34.0))
    x, y = parse_position("touching obstacle A on its south side", table, others, elf)
    assert y == pytest.approx(27.25 - 1.25, abs=1e-3) and 16.25 <= x <= 19.75


@pytest.mark.parametrize("delay", [0.3, 0.5, 0.7, 0.9, 1.2])
def test_killed_for_real_nothing_is_corrupted(tmp_path: Path, catalog: Catalog,
                                              delay: float) -> None:
    """SIGKILL `automa play` mid-battle: the session still opens, every logged input replays,
    and playing on from the log reaches a sound state."""
    import signal
    import subprocess
    import time

    from automa.session.store import Session

    folder = new_session(tmp_path, "killed")
    with running([*AUTOMA, "play", "--session", str(folder)], stdin=subprocess.PIPE,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as process:
        assert process.stdin is not None
        try:
            for line in SCRIPT:
                process.stdin.write(line + "\n")
                process.stdin.flush()
                time.sleep(0.02)
            time.sleep(delay - 0.02 * len(SCRIPT) if delay > 0.02 * len(SCRIPT) else 0)
        except BrokenPipeError:
            pass
        process.send_signal(signal.SIGKILL)
        process.wait()
    session = Session.open(folder, catalog)  # replays every input on disk
    done, _ = session.effective()
    again = Session.open(folder, catalog)
    assert again.state.battle == session.state.battle
    play_lines(folder, (["done"] if session.state.phase == "heroes" else []) + ["", "", "quit"])
    status(folder)
    assert len(Session.open(folder, catalog).effective()[0]) >= len(done)


def test_a_session_uses_the_scenarios_own_chance(tmp_path: Path) -> None:
    """CONTRACT: scripted outcomes come before any draw, in a session as in `automa turn`."""
    scripted = DEMO.read_text().replace("[chance]\nseed = 7",
                                        '[chance]\nseed = 7\ntokens = { 1 = ["1R"] }')
    scenario = tmp_path / "scripted.toml"
    scenario.write_text(scripted)
    folder = tmp_path / "s"
    assert CliRunner().invoke(cli, ["new", str(scenario), "--session", str(folder)]
                              ).exit_code == 0
    turn = json.loads(CliRunner().invoke(cli, ["turn", str(scenario), "--json"]).stdout)
    first = json.loads(CliRunner().invoke(cli, ["next", "--session", str(folder),
                                                "--json"]).stdout)
    assert first == {**turn["activations"][0], "explain": first["explain"]}
    token = next(s for s in first["steps"] if s["kind"] == "token")
    assert (token["value"], token["reset"]) == (1, True)


@pytest.mark.parametrize("damage", ['"outcomes": "oops"', '"outcomes": [1, 2]',
                                    '"answers": "x"'])
def test_damaged_inputs_are_one_line_not_a_crash(tmp_path: Path, damage: str) -> None:
    folder = new_session(tmp_path)
    unchain(folder / LOG)  # a log as automa wrote it before the hash chain takes such a line
    with (folder / LOG).open("a") as log:
        log.write('{"type": "activation", ' + damage + "}\n")
    result = CliRunner().invoke(cli, ["status", "--session", str(folder)])
    assert result.exit_code == 5, result.output
    assert "input 1 of the log cannot be replayed" in result.stderr
    assert result.stderr.count("\n") == 1
    listed = CliRunner().invoke(cli, ["log", "--session", str(folder)])
    assert listed.exit_code == 0 and listed.stdout.strip().startswith("1  ")  # still listed


def test_a_session_can_start_from_its_own_folder(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "scenario.toml").write_text(DEMO.read_text())
    result = CliRunner().invoke(cli, ["new", str(folder / "scenario.toml"), "--session",
                                      str(folder)])
    assert result.exit_code == 0, result.output


def test_heroes_come_back_from_the_cards(tmp_path: Path) -> None:
    folder = new_session(tmp_path)
    out = play_lines(folder, ["condition elf teleported on", "status", "back elf", "back elf",
                        "condition elf frozen maybe"])
    assert "[teleported]" in out and "is back on the mat" in out
    assert "is not on the Teleported! or Devoured! card" in out and "usage: condition" in out
    assert "conditions" not in status(folder)["pieces"]["elf"]


BOULDER = Path(__file__).parent / "playthroughs" / "80-boulder-first-token-reset.toml"


def _boulder_session(tmp_path: Path, dice: str, scripted: bool) -> Path:
    """The Stone Giant's boulder with only the 3R and a 4 left in the level 3 bag."""
    text = BOULDER.read_text()
    if not scripted:
        text = text.replace('tokens = { 3 = ["3R"] }\n', "")
    scenario = tmp_path / "boulder.toml"
    scenario.write_text(text)
    folder = tmp_path / "boulder"
    result = CliRunner().invoke(cli, ["new", str(scenario), "--session", str(folder),
                                      "--dice", dice])
    assert result.exit_code == 0, result.output
    return folder


def test_a_typed_token_not_in_the_bag_is_asked_for_again(tmp_path: Path) -> None:
    """Physical dice: the first boulder token (3R) is in hand, so typing 3R again is refused
    with one line saying where it is; the 4 is typed as printed on it (not menu item 4)."""
    folder = _boulder_session(tmp_path, "physical", scripted=False)
    result = CliRunner().invoke(cli, ["next", "--session", str(folder), "--json"],
                                input="3R\n3R\n4\n")
    assert result.exit_code == 0, result.output
    assert ("no 3R is in the bag now (every 3R is in hand, drawn earlier in this "
            "shot; the bag holds 4); try again") in result.stderr
    steps = json.loads(result.stdout)["steps"]
    assert [(s["value"], s["reset"]) for s in steps if s["kind"] == "token"] == [(3, True),
                                                                                (4, False)]
    assert status(folder)["pieces"]["knight"]["health"] == 1


def test_a_logged_token_not_in_the_bag_is_one_line(tmp_path: Path) -> None:
    """A log (edited, or written by an older version) that draws the one 3R twice in a shot."""
    folder = _boulder_session(tmp_path, "virtual", scripted=True)
    assert CliRunner().invoke(cli, ["next", "--session", str(folder)]).exit_code == 0
    log = folder / LOG
    text = log.read_text()
    assert '"3:4"' in text
    log.write_text(text.replace('"3:4"', '"3:3R"'))
    reseal(log)
    result = CliRunner().invoke(cli, ["status", "--session", str(folder)])
    assert result.exit_code == 5, result.output
    assert result.stderr == (f"automa: {log} line 2: input 1 of the log cannot be replayed "
                             "(the tokens logged with it: the level 3 token 3R is not in the "
                             "bag now (every 3R of level 3 is in hand, drawn earlier in this "
                             "shot)); `automa log` lists the inputs; `automa rollback 0` keeps "
                             "those before it\n")
