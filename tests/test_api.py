"""The Python surface (docs/api.md): the documented example runs as written, and a script's
game is the battle the terminal plays from the same inputs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from automa import api
from automa.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "examples" / "demo-battle.toml"


def test_the_documented_example_runs(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", text, re.S)
    assert example is not None
    monkeypatch.chdir(ROOT)
    exec(compile(example.group(1), "docs/api.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "no piece 'goblin' in play" in printed
    assert "'move', 'hit', 'end-heroes-turn', 'activation'" in printed


def test_a_script_and_a_session_play_the_same_battle(tmp_path: Path) -> None:
    """The same commands on a game in memory and on a session folder give the same battle, and
    the session's log reads back as the commands that were done."""
    commands = [api.Move("elf", (12.0, 40.0)), api.Damage("rat-1", 1, by="barbarian"),
                api.EndHeroesTurn(), api.NextActivation(), api.NextActivation()]
    game = api.open_scenario(DEMO, seed=5)
    session = api.new_session(tmp_path / "s", DEMO, seed=5)
    for command in commands:
        assert game.do(command).command == session.do(command).command
    assert game.state.battle == session.state.battle
    reopened = api.open_session(tmp_path / "s")
    assert reopened.effective()[0] == game.effective()[0]
    assert reopened.state.battle == game.state.battle


def test_a_command_refused_changes_nothing() -> None:
    game = api.open_scenario(DEMO, seed=1)
    before = game.state
    assert game.check(api.Heal("elf", 0)) == "expected a whole number above 0, got 0"
    with pytest.raises(InputError, match="no piece 'goblin' in play"):
        game.do(api.Move("goblin", (10.0, 10.0)))
    assert game.state is before and game.effective() == ([], [])


def test_a_command_needing_the_players_says_what_it_needs() -> None:
    game = api.open_scenario(DEMO, seed=1)
    assert game.check(api.Hit(("rat-1",), "melee+poison", by="elf")) is None
    with pytest.raises(InputError, match="a Poison card's value is needed"):
        game.do(api.Hit(("rat-1",), "melee+poison", by="elf"))
    done = game.do(api.Hit(("rat-1",), "melee+poison", by="elf", poison_card=3))
    assert done.command.to_json()["poison_card"] == 3
