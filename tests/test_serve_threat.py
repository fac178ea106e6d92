"""`GET /api/threat` (docs/serve.md): a hero's threat map over the battle as it stands in the
session, the same as `automa threat --json` on that battle, cached per log version; a bad
query gets a 400 and one line naming what is wrong, as the CLI's options do."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from automa.catalog.load import load_catalog
from automa.engine.threat import threat_map
from automa.render.threat_svg import levels
from automa.session.store import Session
from automa.web.api import Board, call
from tests import test_serve_api as served
from tests.conftest import AUTOMA
from tests.test_serve_api import Client

demo = served.demo  # the fixtures: the demo battle's session and a board serving it
board = served.board


def cells_of(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: c[k] for k in ("at", "targeted_by", "p_targeted")} for c in payload["cells"]]


def test_the_map_is_automa_threat_json_with_the_version_and_bands(demo: Path,
                                                                   board: Client) -> None:
    version = board.ok("GET", "/api/version")["version"]
    found = board.ok("GET", "/api/threat?hero=elf")
    assert found["version"] == version
    assert found["hero"] == "elf" and found["step"] == 1.0 and found["by"] == []
    session = Session.open(demo, load_catalog(None))
    engine = threat_map((session.state.scenario, session.state.battle), session.catalog, "elf")
    assert cells_of(found) == cells_of(engine.json())
    assert found["mapped"] == list(engine.actors)
    bands, colours = levels(engine)
    assert [(b["low"], b["high"], b["colour"]) for b in found["legend"]] == \
        [(low, high, colour) for (low, high), colour in zip(bands, colours, strict=True)]
    for cell, expected in zip(found["cells"], engine.expected.tolist(), strict=True):
        low, high = bands[cell["band"]]
        assert cell["expected"] == pytest.approx(expected)
        assert (expected == 0) if cell["band"] == 0 else (low < expected <= high + 1e-9 or
                                                          cell["band"] == len(bands) - 1)
    assert any(c["band"] > 0 for c in found["cells"])


def test_step_and_by_as_the_cli_takes_them(demo: Path, board: Client) -> None:
    coarse = board.ok("GET", "/api/threat?hero=elf&step=2")
    assert coarse["step"] == 2.0 and len(coarse["cells"]) < len(
        board.ok("GET", "/api/threat?hero=elf")["cells"])
    alone = board.ok("GET", "/api/threat?hero=elf&step=2&by=rat-1&by=rat-1")
    assert alone["mapped"] == ["rat-1"] and alone["by"] == ["rat-1"]
    assert {a for c in alone["cells"] for a in c["targeted_by"]} <= {"rat-1"}
    two = board.ok("GET", "/api/threat?hero=elf&step=2&by=rat-1,skeleton-1")
    assert two["mapped"] == ["rat-1", "skeleton-1"]


@pytest.mark.parametrize(("query", "words"), [
    ("", "missing query field 'hero'"),
    ("?hero=", "missing query field 'hero'"),
    ("?hero=rat-1", "threat rat-1: a monster, not a hero; the heroes are barbarian, elf, "
                    "wizard"),
    ("?hero=nobody", "threat nobody: no piece; the heroes are"),
    ("?hero=elf&step=0.1", "step 0.1: give a grid step from 0.25 to 50 cm"),
    ("?hero=elf&step=51", "step 51: give a grid step from 0.25 to 50 cm"),
    ("?hero=elf&step=nan", "step nan: give a grid step"),
    ("?hero=elf&step=two", "step: expected a number of cm, got 'two'"),
    ("?hero=elf&step=1&step=2", "step: given more than once"),
    ("?hero=elf&hero=wizard", "hero: given more than once"),
    ("?hero=elf&by=elf", "by elf: no AI piece; the AI pieces mapped are rat-1"),
    ("?hero=elf&by=", "by: an empty piece id"),
    ("?hero=elf&colour=red", "unknown query field 'colour' (fields: hero, step, by)"),
    ("?" + "&".join(f"by=r{i}" for i in range(61)) + "&hero=elf", "more than 60 fields"),
])
def test_a_bad_query_is_a_400_in_one_line(board: Client, query: str, words: str) -> None:
    reply = board.get("/api/threat" + query)
    assert reply.status == 400, reply.data
    assert words in reply.error


def test_a_hero_off_the_mat_and_other_paths(demo: Path, board: Client) -> None:
    board.ok("POST", "/api/condition", {"piece": "elf", "condition": "teleported", "on": True})
    reply = board.get("/api/threat?hero=elf")
    assert reply.status == 400 and "Elf is not on the mat (teleported)" in reply.error
    assert board.get("/api/threats?hero=elf").status == 404
    assert board.post("/api/threat", {"hero": "elf"}).status == 405


def test_cached_per_version_and_redone_after_a_write(demo: Path, board: Client,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from automa.web import threat

    computed: list[str] = []
    real = threat.threat_json

    def counting(session: Session, hero: str, step: float, by: tuple[str, ...]) -> Any:
        computed.append(hero)
        return real(session, hero, step, by)

    monkeypatch.setattr(threat, "threat_json", counting)
    first = board.ok("GET", "/api/threat?hero=elf")
    assert board.ok("GET", "/api/threat?hero=elf&step=1.0") == first
    assert computed == ["elf"]
    board.ok("GET", "/api/threat?hero=wizard")
    assert computed == ["elf", "wizard"]

    typed = subprocess.run([*AUTOMA, "play", "--session", str(demo)],
                           input="move rat-1 20,60\nquit\n", capture_output=True, text=True,
                           timeout=60)  # the terminal beside the board
    assert typed.returncode == 0 and "rat-1 is at (20.0, 60.0)" in typed.stdout
    moved = board.ok("GET", "/api/threat?hero=elf")
    assert computed == ["elf", "wizard", "elf"]
    assert moved["version"] != first["version"]
    assert moved["cells"] != first["cells"]
    assert moved["version"] == board.ok("GET", "/api/version")["version"]


def test_the_board_keeps_only_the_current_versions_maps(demo: Path) -> None:
    board = Board(Session.open(demo, load_catalog(None)))
    call(board, "/api/threat", {"hero": ["elf"], "step": ["5"]})
    call(board, "/api/threat", {"hero": ["wizard"], "step": ["5"]})
    assert len(board._threats) == 2
    call(board, "/api/damage", {"piece": "elf", "amount": 1})
    call(board, "/api/threat", {"hero": ["elf"], "step": ["5"]})
    assert len(board._threats) == 1
