"""`GET /api/threat` (docs/serve.md): a hero's threat map over the battle as it stands in the
session, the same as `automa threat --json` on that battle, cached per log version; a bad
query gets a 400 and one line naming what is wrong, as the CLI's options do."""

from __future__ import annotations

import subprocess
import threading
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
from tests.test_serve_api import Client, asked_while_held

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
    ("?hero=elf&step=0.1", "step 0.1: the board draws squares of 0.5, 1, 2, 5 cm"),
    ("?hero=elf&step=51", "step 51: the board draws squares of"),
    ("?hero=elf&step=0.25", "step 0.25: the board draws squares of"),
    ("?hero=elf&step=nan", "step nan: the board draws squares of"),
    ("?hero=elf&step=1e999", "step 1e999: the board draws squares of"),
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


def counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float]]:
    """Each threat map the board computes, as (hero, step)."""
    from automa.web import threat

    computed: list[tuple[str, float]] = []
    real = threat.compute_map

    def counting(state: Any, catalog: Any, hero: str, step: float, memo: Any,
                 progress: Any = None) -> Any:
        computed.append((hero, step))
        return real(state, catalog, hero, step, memo, progress)

    monkeypatch.setattr(threat, "compute_map", counting)
    return computed


def test_cached_per_version_and_redone_after_a_write(demo: Path, board: Client,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    computed = counted(monkeypatch)
    first = board.ok("GET", "/api/threat?hero=elf")
    assert board.ok("GET", "/api/threat?hero=elf&step=1.0") == first
    assert computed == [("elf", 1.0)]
    board.ok("GET", "/api/threat?hero=wizard")
    assert computed == [("elf", 1.0), ("wizard", 1.0)]
    alone = board.ok("GET", "/api/threat?hero=elf&by=rat-1")  # one map serves every `by`
    assert computed == [("elf", 1.0), ("wizard", 1.0)] and alone["mapped"] == ["rat-1"]

    typed = subprocess.run([*AUTOMA, "play", "--session", str(demo)],
                           input="move rat-1 20,60\nquit\n", capture_output=True, text=True,
                           timeout=60)  # the terminal beside the board
    assert typed.returncode == 0 and "rat-1 is at (20.0, 60.0)" in typed.stdout
    moved = board.ok("GET", "/api/threat?hero=elf")
    assert computed == [("elf", 1.0), ("wizard", 1.0), ("elf", 1.0)]
    assert moved["version"] != first["version"]
    assert moved["cells"] != first["cells"]
    assert moved["version"] == board.ok("GET", "/api/version")["version"]


def test_the_board_keeps_a_few_maps_whatever_a_page_asks(demo: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Any number of requests, for any heroes, steps and `by`: at most THREAT_MAPS_KEPT maps
    are kept, the newest, each computed once while it is kept."""
    from automa.web.api import THREAT_MAPS_KEPT

    computed = counted(monkeypatch)
    board = Board(Session.open(demo, load_catalog(None)))
    asked = [(hero, step) for step in ("2", "5") for hero in ("elf", "wizard", "barbarian")]
    for hero, step in asked * 2:
        for by in ([], ["rat-1"], ["rat-1", "skeleton-1"]):
            status, _ = call(board, "/api/threat", {"hero": [hero], "step": [step], "by": by})
            assert status == 200
    assert len(computed) == len(asked) and len(board._threats) == len(asked)
    for number in range(THREAT_MAPS_KEPT + 3):
        call(board, "/api/damage", {"piece": "elf", "amount": 1})  # a new log version
        call(board, "/api/heal", {"piece": "elf", "amount": 1})
        call(board, "/api/threat", {"hero": ["elf"], "step": ["5"]})
        assert len(computed) == len(asked) + number + 1
    assert len(board._threats) == THREAT_MAPS_KEPT


def test_the_board_answers_while_a_map_is_computed(demo: Path, board: Client,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """No lock the page's polling needs is held while a map is computed: the version, the
    view and a write answer while another request's map is still being worked out."""
    from automa.web import threat

    started, release = threading.Event(), threading.Event()
    real = threat.compute_map

    def slow(*args: Any) -> Any:
        started.set()
        assert release.wait(30)
        return real(*args)

    monkeypatch.setattr(threat, "compute_map", slow)
    with asked_while_held(board, "/api/threat?hero=elf", started, release) as replies:
        assert board.ok("GET", "/api/version")["version"]
        assert board.ok("POST", "/api/damage", {"piece": "rat-1", "amount": 1})
        assert not replies  # the map is still being computed
    assert replies[0].status == 200
