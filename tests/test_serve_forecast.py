"""`GET /api/forecast` (docs/serve.md, "The forecast"): the coming AI turn's forecast at
precision 0.02 (at most 10,000 turns) for the battle as it stands, as the engine gives it; one
per log version kept (counted, not timed), worked out outside the board's lock with its
progress; refused where the CLI refuses. And the threat map's progress and kept sight."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from automa.catalog.load import Catalog, load_catalog
from automa.engine.forecast import forecast_runs
from automa.session.store import Session
from automa.web import forecast as board_forecast
from automa.web.api import ApiError, Board, call
from automa.web.server import endpoints
from tests import test_serve_api as served
from tests.test_asked_honest import asked
from tests.test_serve_api import Client, asked_while_held

demo = served.demo  # the fixtures: the demo battle's session and a board serving it
board = served.board
__all__ = ["asked"]  # the asked-geometry session fixture, used by name below


def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each forecast the board works out, as the first hero's id of its battle."""
    computed: list[str] = []
    real = board_forecast.forecast_of

    def counting(scenario: Any, catalog: Catalog, progress: Any = None) -> Any:
        computed.append(scenario.pieces[0].id)
        return real(scenario, catalog, progress)

    monkeypatch.setattr(board_forecast, "forecast_of", counting)
    return computed


def test_the_forecast_is_the_engines_at_the_boards_precision(demo: Path, board: Client,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    computed = counted(monkeypatch)
    found = board.ok("GET", "/api/forecast")
    assert found["version"] == board.ok("GET", "/api/version")["version"]
    assert (found["precision"], found["cap"], found["seed"]) == (0.02, 10_000, 0)
    session = Session.open(demo, load_catalog(None))
    engine = forecast_runs(session.state.as_scenario(), session.catalog, 10_000, 0, workers=1,
                           precision=0.02)
    assert found["n"] == engine.runs and found["precise"] == engine.precise
    assert 0 < found["n"] < 10_000 and found["n"] % 500 == 0  # stopped at a chunk's end
    assert sorted(found["heroes"]) == sorted(engine.heroes)
    for hero, figures in engine.heroes.items():
        shown = found["heroes"][hero]
        assert shown["targeted"] == round(figures.targeted, 4)
        assert shown["death"] == round(figures.death, 4)
        assert shown["expected_damage"] == round(figures.expected_damage, 4)
        assert shown["targeted_ci95"] == [round(v, 4) for v in figures.targeted_ci95]
        assert shown["death_ci95"] == [round(v, 4) for v in figures.death_ci95]
        low, high = figures.targeted_ci95
        assert high - figures.targeted <= 0.02 and figures.targeted - low <= 0.02
    assert computed == ["barbarian"]


def test_one_forecast_a_version_kept_and_redone_after_a_write(demo: Path, board: Client,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    computed = counted(monkeypatch)
    first = board.ok("GET", "/api/forecast")
    assert board.ok("GET", "/api/forecast") == first  # the kept one: not worked out again
    assert len(computed) == 1
    board.ok("POST", "/api/damage", {"piece": "elf", "amount": 2})
    after = board.ok("GET", "/api/forecast")
    assert len(computed) == 2 and after["version"] != first["version"]
    assert after["heroes"]["elf"] != first["heroes"]["elf"]  # the Elf is weaker now
    assert board.ok("GET", "/api/forecast") == after and len(computed) == 2


def test_a_query_field_or_another_method_is_refused(board: Client) -> None:
    reply = board.get("/api/forecast?runs=5")
    assert reply.status == 400 and "unknown query field 'runs'" in reply.error
    assert "\n" not in reply.error
    assert board.post("/api/forecast", {}).status == 405
    assert board.ok("GET", "/api/forecast/progress") == {
        "working": False, "turns": None, "cap": 10_000, "fraction": None}


def test_no_forecast_from_guessed_places(asked: tuple[Session, list[str]],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """As `automa forecast` on the session: with pieces nobody measured it would rest on the
    model's guesses; one line, and nothing worked out."""
    computed = counted(monkeypatch)
    session, _ = asked
    with pytest.raises(ApiError, match=r"^asked geometry: nobody measured where .*rat-1") \
            as refused:
        call(Board(session), "/api/forecast", {}, endpoints())
    assert refused.value.status == 400 and "\n" not in str(refused.value)
    assert computed == []


def test_the_board_answers_and_shows_progress_while_a_forecast_is_worked_out(
        demo: Path, board: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """No lock the page's polling needs is held while the forecast runs; its progress says
    how many turns it has played."""
    started, release = threading.Event(), threading.Event()
    real = board_forecast.forecast_of

    def slow(scenario: Any, catalog: Catalog, progress: Any = None) -> Any:
        progress(1_500)
        started.set()
        assert release.wait(30)
        return real(scenario, catalog, progress)

    monkeypatch.setattr(board_forecast, "forecast_of", slow)
    with asked_while_held(board, "/api/forecast", started, release) as replies:
        # 1,500 of the 2,500 turns by which a precision of 0.02 has surely stopped
        assert board.ok("GET", "/api/forecast/progress") == {
            "working": True, "turns": 1_500, "cap": 10_000, "fraction": 0.6}
        assert board.ok("GET", "/api/version")["version"]
        assert board.ok("POST", "/api/damage", {"piece": "rat-1", "amount": 1})
        assert not replies  # still working
    assert replies[0].status == 200
    assert board.ok("GET", "/api/forecast/progress")["working"] is False


def test_the_threat_maps_progress_while_a_map_is_worked_out(
        demo: Path, board: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from automa.web import threat

    started, release = threading.Event(), threading.Event()
    real = threat.compute_map

    def slow(state: Any, catalog: Any, hero: str, step: float, memo: Any,
             progress: Any = None) -> Any:
        progress(3, 12)
        started.set()
        assert release.wait(30)
        return real(state, catalog, hero, step, memo, progress)

    assert board.ok("GET", "/api/threat/progress")["working"] is False
    monkeypatch.setattr(threat, "compute_map", slow)
    with asked_while_held(board, "/api/threat?hero=elf", started, release) as replies:
        assert board.ok("GET", "/api/threat/progress") == {
            "working": True, "done": 3, "of": 12, "fraction": 0.25}
    assert replies[0].status == 200
    assert board.ok("GET", "/api/threat/progress")["working"] is False


def test_a_second_toggle_asks_only_the_squares_not_yet_known(demo: Path) -> None:
    """The board keeps the mat's sight: the same hero again, another hero, the map after a
    move, each asks the memo only for squares it has not seen (counted, not timed), and the
    maps are those worked out afresh."""
    from automa.engine.threat import threat_map

    board = Board(Session.open(demo, load_catalog(None)))
    status, elf = call(board, "/api/threat", {"hero": ["elf"], "step": ["2"]})
    assert status == 200 and board._sight is not None
    memo = board._sight
    first = memo.squares_worked
    assert first > 0
    status, wizard = call(board, "/api/threat", {"hero": ["wizard"], "step": ["2"]})
    assert status == 200 and board._sight is memo
    again = memo.squares_worked - first
    assert again < first / 10  # the wizard's squares are mostly the elf's: known already
    session = board.session
    fresh = threat_map((session.state.scenario, session.state.battle), session.catalog,
                       "wizard", 2.0)
    assert [c["targeted_by"] for c in wizard["cells"]] == \
        [sorted(c.targeted_by) for c in fresh.cells()]
    call(board, "/api/move", {"piece": "elf", "at": [30.0, 20.0]})
    status, moved = call(board, "/api/threat", {"hero": ["elf"], "step": ["2"]})
    assert status == 200 and moved["version"] != elf["version"]
    assert memo.squares_worked - first - again < first / 10
