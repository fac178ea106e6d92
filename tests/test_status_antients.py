"""`automa status` (and play's `status`) shows the Antients each hero holds, won in the Hidden
Cave, and whether each has been summoned; `--json` adds them to the hero's board."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from automa.catalog.load import Catalog
from automa.cli.main import cli
from tests.test_cave_battle import _campaign, _kill_the_fifth, _next_round, _play


def _status(battle: Path, data: Path, *options: str) -> str:
    result = CliRunner().invoke(cli, ["status", "--session", str(battle), *options],
                                env={"AUTOMA_DATA_DIR": str(data)})
    assert result.exit_code == 0, result.output
    return result.stdout


def _board_line(text: str, hero: str) -> str:
    """The hero's board line of a status printout."""
    return next(line for line in text.splitlines()
                if line.strip().startswith(f"{hero}: ") and "kills:" in line)


def test_status_lists_the_antient_won_then_summoned(tmp_path: Path, catalog: Catalog) -> None:
    # rule: "If the hero wins ... 1 unused Antient piece of their choice." and "This Antient
    # may be summoned instead of performing their hero's base shot sequence in a subsequent
    # turn of the Battle Phase."
    _, data, battle, needed = _campaign(tmp_path, catalog)
    _kill_the_fifth(battle, data, needed)
    assert "Antients" not in _status(battle, data)
    assert json.loads(_status(battle, data, "--json"))["boards"]["elf"]["antients"] == []
    out = _play(battle, data, ["cave elf 20", "Trident", "urthoth", "status", "quit"])
    assert "; Antients: urthoth (not summoned yet)" in _board_line(out, "elf")
    assert _board_line(_status(battle, data), "elf").endswith(
        "; Antients: urthoth (not summoned yet)")
    assert "Antients" not in _board_line(_status(battle, data), "dwarf")
    boards = json.loads(_status(battle, data, "--json"))["boards"]
    assert boards["elf"]["antients"] == [{"name": "urthoth", "summoned": False}]
    assert boards["dwarf"]["antients"] == []
    _next_round(battle, data)  # "in a subsequent turn": the cave visit was the elf's turn
    _play(battle, data, ["summon elf urthoth", "quit"])
    assert _board_line(_status(battle, data), "elf").endswith("; Antients: urthoth (summoned)")
    boards = json.loads(_status(battle, data, "--json"))["boards"]
    assert boards["elf"]["antients"] == [{"name": "urthoth", "summoned": True}]
