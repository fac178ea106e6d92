"""Identical discs told apart at the table (issue 28, point 11): where two or more pieces of the
same monster are placed, the setup says once which marker (a numbered sticker or token) goes on
each, with the number its name carries, so every question naming `Sewer Rat #2` names the disc
with marker 2; a monster alone of its kind needs none."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from automa.catalog.load import load_catalog
from automa.cli.main import cli
from automa.model.pieces import Piece, Side
from automa.render.markers import markers
from automa.session.commands import EndHeroesTurn
from automa.session.store import Session
from tests.conftest import EXAMPLES
from tests.test_asked_campaign import entered_room
from tests.test_asked_honest import Players
from tests.test_campaign import ok


def rat(number: int, name: str | None = None) -> Piece:
    return Piece(f"rat-{number}", Side.AI, "monster", (float(number), 1.0), 1.0,
                 monster="sewer-rat", name=name if name is not None else f"Sewer Rat #{number}")


def test_only_pieces_with_a_twin_get_a_marker_with_their_own_number() -> None:
    minotaur = Piece("minotaur-1", Side.AI, "monster", (9.0, 9.0), 1.5, monster="minotaur")
    assert markers([rat(1), rat(3), minotaur]) == {"rat-1": 1, "rat-3": 3}
    assert markers([rat(1), minotaur]) == {}


def test_names_that_do_not_tell_twins_apart_are_numbered_in_order() -> None:
    assert markers([rat(4, "Rat"), rat(2, "Rat")]) == {"rat-4": 4, "rat-2": 2}  # by the ids
    twins = [Piece("a", Side.AI, "monster", (1.0, 1.0), 1.0, monster="sewer-rat"),
             Piece("b", Side.AI, "monster", (5.0, 1.0), 1.0, monster="sewer-rat")]
    assert markers(twins) == {"a": 1, "b": 2}


def test_setup_says_each_twins_marker_once_and_in_its_json() -> None:
    args = ["setup", "chagnars-lair", "--heroes", "elf=8,barbarian=12", "--seed", "3"]
    text = CliRunner().invoke(cli, args).stdout
    lines = text.splitlines()
    for number in range(1, 5):
        (line,) = [x for x in lines if re.match(rf"\s*\d+\. sewer-rat-{number} ", x)]
        assert line.endswith(f", marker {number}")
    (minotaur,) = [x for x in lines if "minotaur-1" in x]
    assert "marker" not in minotaur
    assert sum("Mark the identical discs" in x for x in lines) == 1
    placed = json.loads(CliRunner().invoke(cli, [*args, "--json"]).stdout)["placements"]
    assert {p["piece"]: p["marker"] for p in placed}["sewer-rat-2"] == 2
    assert {p["piece"]: p["marker"] for p in placed}["minotaur-1"] is None


def test_new_names_the_marker_of_each_twin_by_its_place(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["new", str(EXAMPLES / "demo-battle.toml"), "--session",
                                      str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    assert "rat-1 (Sewer Rat #1): marker 1, the one at (22.0, 45.0)" in result.stdout
    assert "centaur-1" not in result.stdout  # alone of its kind
    shown = json.loads(CliRunner().invoke(cli, ["new", str(EXAMPLES / "demo-battle.toml"),
                                                "--session", str(tmp_path / "t"),
                                                "--json"]).stdout)
    assert shown["markers"] == {"rat-1": 1, "rat-2": 2}


def test_a_campaign_rooms_setup_and_its_questions_name_the_same_discs(tmp_path: Path,
                                                                      data: Path) -> None:
    """Glaaoth (the test card) holds two Sewer Rats: the room's setup marks them, and every
    question the asked battle puts names a rat by the number of its marker."""
    folder = tmp_path / "evening"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8,dwarf=9",
        "--lord", "hmotha", "--seed", "3"], data)
    text = ok(["campaign", "next", "glaaoth", "--session", str(folder), "--geometry", "asked"],
              data).stdout
    assert re.search(r"sewer-rat-1 .*, marker 1$", text, re.MULTILINE)
    assert re.search(r"sewer-rat-2 .*, marker 2$", text, re.MULTILINE)
    session = Session.open(entered_room(tmp_path / "again", data, "--geometry", "asked"),
                           load_catalog(data))
    numbered = markers(session.state.battle.pieces)
    by_label = {p.label: p.id for p in session.state.battle.pieces}
    session.do(EndHeroesTurn())
    table = Players()
    while session.state.phase == "ai":
        if session.next_activation(table) is None:
            break
    named = re.findall(r"Sewer Rat #(\d+)", " ".join(table.questions))
    assert named, table.questions
    for number in named:
        assert numbered[by_label[f"Sewer Rat #{number}"]] == int(number)
