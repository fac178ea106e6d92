"""Asked geometry in a campaign room (issue 28, point 9): `campaign next --geometry` makes the
room's battle session as `automa new --geometry` makes one, kept in the session's first line,
so every battle of the evening can be played with the real rulers and templates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automa.catalog.load import load_catalog
from automa.engine.judge import GeometryMode
from automa.render.session_out import latest_activation_text
from automa.session.commands import EndHeroesTurn
from automa.session.store import Session
from tests.test_campaign import ok, refused, run
from tests.test_geometry_modes import ScriptedTable


def entered_room(tmp_path: Path, data: Path, *options: str) -> Path:
    folder = tmp_path / "evening"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8,dwarf=9",
        "--lord", "hmotha", "--seed", "3"], data)
    entered = json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder), *options,
                             "--json"], data).stdout)
    return Path(entered["session"])


def header(session: Path) -> dict[str, object]:
    first = (session / "log.jsonl").read_text(encoding="utf-8").splitlines()[0]
    loaded: dict[str, object] = json.loads(first)
    return loaded


@pytest.mark.parametrize("mode", ["asked", "hybrid", "tracked"])
def test_the_room_session_keeps_the_geometry_asked_for(tmp_path: Path, data: Path,
                                                       mode: str) -> None:
    session = entered_room(tmp_path, data, "--geometry", mode)
    assert header(session)["geometry"] == mode
    assert Session.open(session, load_catalog(data)).geometry_mode == GeometryMode(mode)


def test_a_room_is_computed_unless_asked_otherwise(tmp_path: Path, data: Path) -> None:
    session = entered_room(tmp_path, data)
    assert header(session).get("geometry", "tracked") == "tracked"


def test_an_unknown_geometry_is_refused_in_one_line(tmp_path: Path, data: Path) -> None:
    folder = tmp_path / "evening"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "3"], data)
    refused(["campaign", "next", "glaaoth", "--session", str(folder), "--geometry", "guessed"],
            data, "--geometry")
    assert not (folder / "rooms").exists() or not any((folder / "rooms").iterdir())
    assert "--geometry" in run(["campaign", "next", "--help"], data).stdout


def test_the_asked_room_asks_the_table_and_prints_no_coordinates(tmp_path: Path,
                                                                  data: Path) -> None:
    """The room's battle asks its geometric questions of the players: an AI activation there
    goes to the table, and its printout gives no centimetres."""
    session = Session.open(entered_room(tmp_path, data, "--geometry", "asked"),
                           load_catalog(data))
    session.do(EndHeroesTurn())
    table = ScriptedTable([True] * 12)
    assert session.next_activation(table) is not None
    assert table.questions, "asked geometry puts its questions to the table"
    printout = latest_activation_text(session.state, coordinates=False)
    assert " cm" not in printout and "→ (" not in printout
