"""Asked geometry is honest (issue 28, point 10): no coordinate the program did not measure is
shown, drawn or used. The table measures nothing in asked mode: the only places known are the
scenario's own and the ones the players report. Every printout, picture and view of an asked
battle is searched for numbers, and each one found must be one of those; a piece the AI moved
stands apart, in the tray below the mat, marked "place unknown"; a place given beside such a
piece is taken relative to the real piece, never checked against the model's guess."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.errors import InputError
from automa.render.session_out import (
    applied_lines,
    latest_activation_text,
    session_status_text,
)
from automa.session.commands import EndHeroesTurn, Move
from automa.session.store import Session
from automa.web.view import build_view
from tests.conftest import EXAMPLES
from tests.test_geometry_modes import ScriptedTable

Point = tuple[float, float]
DEMO = EXAMPLES / "demo-battle.toml"
WIZARD_REPORT = (50.0, 20.0)
BARBARIAN_REPORT = (30.0, 30.0)
PAIR = re.compile(r"\(\s*(-?\d+(?:\.\d+)?),\s*(-?\d+(?:\.\d+)?)\s*\)")
DISTANCE = re.compile(r"\d+\.\d+\s*cm")


class Players(ScriptedTable):
    """Yes to every yes/no question, the last option of every choice."""

    def __init__(self) -> None:
        super().__init__([])

    def yes_no(self, prompt: str) -> bool:
        self.questions.append(prompt)
        return True

    def choice(self, prompt: str, options: Any) -> str:
        self.questions.append(prompt)
        return str(options[-1])


def play_ai_turn(session: Session) -> list[str]:
    """The whole AI turn, answered by `Players`; each activation's printout."""
    printouts = []
    session.do(EndHeroesTurn())
    while session.state.phase == "ai":
        if session.next_activation(Players()) is None:
            break
        printouts.append(latest_activation_text(session.state, coordinates=False))
    return printouts


@pytest.fixture
def asked(tmp_path: Path, catalog: Catalog) -> Iterator[tuple[Session, list[str]]]:
    """The demo battle in asked geometry: the Wizard reported at a spot, a whole AI turn, then
    the Elf reported beside a rat the AI moved and the Barbarian at a spot."""
    session = Session.create(tmp_path / "asked", DEMO, catalog, 3, "virtual", "asked")
    session.do(Move("wizard", WIZARD_REPORT))
    printouts = play_ai_turn(session)
    outputs = [line for command in (Move("elf", words="2 cm left of rat-1"),
                                    Move("barbarian", BARBARIAN_REPORT))
               for line in applied_lines(session.do(command))]
    yield session, [*printouts, *outputs]
    shutil.rmtree(tmp_path / "asked", ignore_errors=True)


def measured_spots(session: Session) -> set[Point]:
    """The scenario's places and the players' reports: the only places anybody measured."""
    start = {(round(p.at[0], 1), round(p.at[1], 1)) for p in session.state.scenario.pieces}
    return start | {WIZARD_REPORT, BARBARIAN_REPORT}


def pairs(text: str) -> set[Point]:
    return {(round(float(x), 1), round(float(y), 1)) for x, y in PAIR.findall(text)}


def test_the_printouts_and_status_give_only_measured_places(asked: tuple[Session, list[str]]
                                                            ) -> None:
    session, printed = asked
    texts = [*printed, session_status_text(session)]
    for text in texts:
        assert pairs(text) <= measured_spots(session), text
        assert not DISTANCE.search(text), text
    assert "  elf is 2 cm left of rat-1" in printed  # as said, beside the real rat


def test_the_views_pieces_have_no_guessed_place(asked: tuple[Session, list[str]]) -> None:
    session, _ = asked
    view = build_view(session)
    pieces = {p["id"]: p for p in view["pieces"]}
    for piece in pieces.values():
        if piece["measured"]:
            assert (piece["x"], piece["y"]) in measured_spots(session)
            assert "tray" not in piece
        else:  # apart, in the tray below the mat (y < 0), with no place on it
            assert piece["x"] is None and piece["y"] is None
            assert piece["tray"][1] < 0
    assert not pieces["elf"]["measured"]  # placed beside a rat nobody measured
    assert pieces["barbarian"]["measured"] and pieces["wizard"]["measured"]
    assert not pieces["rat-1"]["measured"]


def test_the_views_state_and_last_activation_carry_no_guess(
        asked: tuple[Session, list[str]]) -> None:
    session, _ = asked
    view = build_view(session)
    for piece_id, piece in view["state"]["pieces"].items():
        if piece["at"] is None:
            assert piece["measured"] is False, piece_id
        else:
            assert tuple(piece["at"]) in measured_spots(session), piece_id
    assert view["state"]["pieces"]["elf"]["at"] is None
    last = view["last"]
    assert last["distances"] == {}
    moves = [s for s in last["steps"] if s["kind"] == "move"]
    assert moves and all(s["from"] is None and s["to"] is None and s["measured"] is False
                         and "short_by" not in s and "stopped_by" not in s for s in moves)
    assert not DISTANCE.search(view["printout"]) and pairs(view["printout"]) == set()
    assert all(pairs(entry["text"]) <= measured_spots(session) for entry in view["log"])


def test_status_json_gives_no_place_nobody_measured(asked: tuple[Session, list[str]]) -> None:
    session, _ = asked
    result = CliRunner().invoke(cli, ["status", "--session", str(session.folder), "--json"])
    assert result.exit_code == 0, result.output
    pieces = json.loads(result.stdout)["pieces"]
    assert pieces["rat-1"]["at"] is None and pieces["rat-1"]["measured"] is False
    assert pieces["wizard"]["at"] == list(WIZARD_REPORT) and "measured" not in pieces["wizard"]


SVG = "{http://www.w3.org/2000/svg}"


def to_cm(root: ET.Element, x: float, y: float) -> Point:
    scale, margin = float(root.get("data-scale", 0)), float(root.get("data-margin", 0))
    length = float(root.get("data-length", 0))
    return round((x - margin) / scale, 1), round(length - (y - margin) / scale, 1)


def test_the_mat_draws_unknown_places_apart(asked: tuple[Session, list[str]]) -> None:
    session, _ = asked
    root = ET.fromstring(build_view(session)["mat"])
    groups = [g for g in root.iter() if "piece" in (g.get("class") or "").split()]
    assert groups
    for g in groups:
        circle = g.find(f"{SVG}circle")
        assert circle is not None
        at = to_cm(root, float(circle.get("cx", 0)), float(circle.get("cy", 0)))
        if g.get("data-measured") == "true":
            assert at in measured_spots(session) and g.get("data-tray") is None
        else:
            assert g.get("data-tray") == "true" and at[1] < 0  # below the mat: not on it
    tray = [e for e in root.iter() if "tray-title" in (e.get("class") or "")]
    assert tray and "Place unknown" in (tray[0].text or "")


def test_the_overlay_draws_from_measured_places_only(asked: tuple[Session, list[str]]) -> None:
    session, _ = asked
    view = build_view(session)
    root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg" data-scale="10" '
                         f'data-margin="60" data-length="90">{view["last_overlay"]}</svg>')
    for line in (e for e in root.iter() if e.tag == f"{SVG}line"
                 and {"sight", "move"} & set((e.get("class") or "").split())):
        for x, y in (("x1", "y1"), ("x2", "y2")):
            assert to_cm(root, float(line.get(x, 0)), float(line.get(y, 0))) in \
                measured_spots(session)


def test_a_place_beside_an_unmeasured_piece_is_not_checked_against_a_guess(
        tmp_path: Path, catalog: Catalog) -> None:
    """Beside a rat the AI moved: the model's guess of the rat is no measurement, so it can
    neither refuse the report (nor name a spot in the refusal) nor make the Elf's place known."""
    session = Session.create(tmp_path / "asked", DEMO, catalog, 3, "virtual", "asked")
    play_ai_turn(session)
    rat = session.state.battle.piece("rat-1")
    # the spot the guess gives is on an obstacle, or anywhere: the words stand either way
    applied = session.do(Move("elf", words="2 cm left of rat-1"))
    assert applied.command.words == "2 cm left of rat-1"
    assert session.state.battle.piece("rat-1").at == rat.at
    pieces = {p["id"]: p for p in build_view(session)["pieces"]}
    assert pieces["elf"]["measured"] is False and pieces["elf"]["x"] is None


def test_tracked_geometry_still_checks_a_place_beside_a_piece(tmp_path: Path,
                                                              catalog: Catalog) -> None:
    """The Barbarian stands at (30, 34), obstacle C (radius 2.5) at (30, 42): 2 cm north of
    the Barbarian puts the Elf's disc on it."""
    session = Session.create(tmp_path / "tracked", DEMO, catalog, 3, "virtual", "tracked")
    with pytest.raises(InputError, match="puts elf on obstacle C"):
        session.do(Move("elf", words="2 cm north of barbarian"))


def test_no_threat_map_is_drawn_from_guessed_places(asked: tuple[Session, list[str]]) -> None:
    """The board's threat map places the hero on every square against the AI pieces where
    they stand: with pieces nobody measured it would rest on the model's guesses."""
    from automa.web.api import ApiError, Board, call

    session, _ = asked
    with pytest.raises(ApiError, match=r"nobody measured where .*rat-1") as refused:
        call(Board(session), "/api/threat", {"hero": ["wizard"], "step": ["5"]})
    assert refused.value.status == 400


def test_the_closest_question_does_not_list_the_models_guess_first(tmp_path: Path,
                                                                   catalog: Catalog) -> None:
    """The model has the Elf far closer to the Skeleton Warrior, but in asked geometry that is
    no measurement: the options come in the order of their names, not of the guess."""
    from tests.test_asked_questions import two_heroes

    text = two_heroes("skeleton-warrior").replace("at = [20.0, 30.0]", "at = [24.0, 47.0]")
    assert "at = [24.0, 47.0]" in text
    scenario = tmp_path / "battle.toml"
    scenario.write_text(text)
    session = Session.create(tmp_path / "asked", scenario, catalog, 4, "virtual", "asked")
    table = ScriptedTable([True, True, "elf", False])
    session.next_activation(table)
    (closest,) = [line for line in table.transcript if "closest" in line]
    assert closest.endswith("barbarian / elf")


@pytest.mark.parametrize("command", [["forecast", "--n", "5"], ["threat", "wizard"]])
def test_a_forecast_or_threat_map_of_the_session_refuses_guessed_places(
        asked: tuple[Session, list[str]], command: list[str]) -> None:
    session, _ = asked
    folder = str(session.folder)
    args = [command[0], folder, *command[1:]]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code not in (0, 70), result.output
    (line,) = result.stderr.splitlines()
    assert "nobody measured where" in line and "rat-1" in line
