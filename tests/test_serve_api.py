"""The live board's HTTP API (docs/serve.md): a real server on a free port, in a thread or as
`automa serve` in its own process, driven with http.client. Every endpoint with good and bad
requests; the session on disk is the only state (a CLI write shows, a killed server loses
nothing); a bad request gets its 4xx and one line, never a traceback."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from automa.catalog.load import load_catalog
from automa.cli.main import cli
from automa.session.lock import holder
from automa.session.store import LOG, Session
from automa.web import api
from automa.web.api import Board
from automa.web.server import MAX_BODY, make_server
from tests.conftest import AUTOMA, EXAMPLES, STOP_WITHIN, first_line, new_session, running
from tests.test_geometry_modes import DUEL

DEMO = (EXAMPLES / "demo-battle.toml").read_text()
JSON = {"Content-Type": "application/json"}


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    data: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.data)

    @property
    def error(self) -> str:
        body = self.json
        assert set(body) == {"error"}, body
        assert "\n" not in body["error"] and "Traceback" not in body["error"]
        return str(body["error"])


@dataclass
class Client:
    port: int

    def request(self, method: str, path: str, body: Any = None, *, raw: bytes | None = None,
                headers: dict[str, str] | None = None) -> Reply:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        sent = {**(JSON if data is not None and raw is None else {}), **(headers or {})}
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        reply = Reply(response.status, {k.lower(): v for k, v in response.getheaders()},
                      response.read())
        connection.close()
        return reply

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post(self, path: str, body: Any = None) -> Reply:
        return self.request("POST", path, {} if body is None else body)

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        reply = self.request(method, path, body if body is not None or method == "GET" else {})
        assert reply.status == 200, (path, reply.data)
        return reply.json


@contextmanager
def serving(folder: Path, data_dir: Path | None = None) -> Iterator[Client]:
    """The board on `folder` in a thread, on a free port; stopped and its socket closed
    however the test ends (`shutdown` returns once `serve_forever` has, so the thread ends)."""
    board = Board(Session.open(folder, load_catalog(data_dir)), data_dir)
    server = make_server(board, "127.0.0.1", 0)
    try:
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                                  daemon=True)
        thread.start()  # only a started loop may be shut down: `shutdown` waits for it
        try:
            yield Client(server.server_address[1])
        finally:
            server.shutdown()
            thread.join()
    finally:
        server.server_close()


@contextmanager
def asked_while_held(board: Client, path: str, started: threading.Event,
                     release: threading.Event) -> Iterator[list[Reply]]:
    """`path` asked in a thread of its own while the test holds the work it starts (the work,
    patched in by the test, sets `started` and waits for `release`): inside, the replies so far
    (none until the work is let go); after, the one reply."""
    replies: list[Reply] = []
    asking = threading.Thread(target=lambda: replies.append(board.get(path)))
    asking.start()
    try:
        assert started.wait(30)
        yield replies
    finally:
        release.set()
        asking.join(60)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return new_session(tmp_path, DEMO)


@pytest.fixture
def board(demo: Path) -> Iterator[Client]:
    with serving(demo) as client:
        yield client


def cli_json(*args: str) -> Any:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def log_bytes(folder: Path) -> bytes:
    return (folder / LOG).read_bytes()


# --- reading: state, version, view --------------------------------------------------------

def test_state_is_exactly_automa_status_json(demo: Path, board: Client) -> None:
    assert board.ok("GET", "/api/state") == cli_json("status", "--session", str(demo), "--json")
    board.ok("POST", "/api/damage", {"piece": "elf", "amount": 2})
    board.ok("POST", "/api/done")
    board.ok("POST", "/api/next")
    state = board.ok("GET", "/api/state")
    assert state == cli_json("status", "--session", str(demo), "--json")
    assert state["phase"] == "ai" and state["pieces"]["elf"]["health"] <= 4


def test_version_is_the_hash_of_the_log_and_moves_with_every_write(demo: Path,
                                                                     board: Client) -> None:
    first = board.ok("GET", "/api/version")
    assert first == {"version": hashlib.sha256(log_bytes(demo)).hexdigest(), "asking": None,
                     "asking_about": None}
    assert board.ok("GET", "/api/version") == first  # nothing written: the same
    board.ok("POST", "/api/heal", {"piece": "elf", "amount": 1})
    second = board.ok("GET", "/api/version")["version"]
    assert second != first["version"]
    assert second == hashlib.sha256(log_bytes(demo)).hexdigest()


def test_view_holds_everything_the_page_draws(demo: Path, board: Client) -> None:
    view = board.ok("GET", "/api/view")
    assert {"version", "state", "mat", "mat_size", "pieces", "phase", "round", "turn", "last",
            "printout", "bags", "boards", "log", "dice", "geometry", "campaign"} <= set(view)
    assert view["state"] == board.ok("GET", "/api/state")
    assert view["version"] == board.ok("GET", "/api/version")["version"]
    assert (view["phase"], view["round"], view["dice"], view["geometry"]) == \
        ("heroes", 2, "virtual", "computed")
    assert view["turn"] == {"done": [], "next": None, "pending": []}
    assert view["last"] is None and view["printout"] == "" and view["log"] == []
    assert view["mat_size"] == [60.0, 90.0] and view["campaign"] is None
    playmat = view["playmat"]
    assert (playmat["id"], playmat["width"], playmat["length"]) == ("mausoleum", 60.0, 90.0)
    for obstacle in playmat["obstacles"]:  # the shapes the mat draws, in cm
        assert f'data-obstacle="{obstacle["id"]}"' in view["mat"]
    for number, (x, y) in playmat["runes"].items():
        cx = view["mat_frame"]["margin"] + x * view["mat_frame"]["scale"]
        cy = view["mat_frame"]["margin"] + (90.0 - y) * view["mat_frame"]["scale"]
        drawn_at = re.search(rf'data-rune="{number}" cx="([\d.]+)" cy="([\d.]+)"', view["mat"])
        assert drawn_at is not None
        assert (float(drawn_at[1]), float(drawn_at[2])) == pytest.approx((cx, cy))
    # the mat as `automa picture` draws it: one element per piece, and a layer for overlays
    mat = view["mat"]
    assert mat.startswith("<svg") and '<g id="overlays"></g>' in mat
    drawn = re.findall(r'<g class="piece" data-piece="([^"]+)"', mat)
    assert sorted(drawn) == sorted(view["state"]["pieces"])
    by_id = {p["id"]: p for p in view["pieces"]}
    for piece_id, piece in view["state"]["pieces"].items():
        assert [by_id[piece_id]["x"], by_id[piece_id]["y"]] == piece["at"]
        assert f'data-piece="{piece_id}" ' in mat
        x = re.search(rf'data-piece="{piece_id}" [^>]*data-x="([\d.]+)"', mat)
        assert x is not None and float(x[1]) == pytest.approx(piece["at"][0])
    elf = by_id["elf"]
    assert (elf["side"], elf["kind"], elf["health"], elf["max_health"], elf["measured"]) == \
        ("heroes", "hero", 6, 6, True)
    assert by_id["rat-1"]["side"] == "ai" and by_id["rat-1"]["radius"] > 0
    assert view["bags"]["1"]["discard"] == [] and "1R" in view["bags"]["1"]["left"]
    assert view["boards"]["elf"]["gold"] == 7


def test_view_after_an_ai_activation_names_the_turn_order_log_and_printout(
        demo: Path, board: Client) -> None:
    board.ok("POST", "/api/done")
    activation = board.ok("POST", "/api/next")
    view = board.ok("GET", "/api/view")
    assert view["phase"] == "ai"
    assert view["last"] == activation
    assert view["turn"]["done"] == [activation["character"]]
    ai = {p for p, v in view["state"]["pieces"].items() if p.startswith(("rat", "centaur",
                                                                          "skeleton", "wraith"))}
    assert {view["turn"]["next"], *view["turn"]["pending"], *view["turn"]["done"]} == ai
    # the next one the order named is the one that acts
    named = view["turn"]["next"]
    assert board.ok("POST", "/api/next")["character"] == named
    logged = CliRunner().invoke(cli, ["log", "--session", str(demo)]).output.splitlines()
    view = board.ok("GET", "/api/view")
    assert [f"{e['n']:>4}  {e['text']}" for e in view["log"]] == logged
    assert view["printout"].startswith("2. ") and "Target" in view["printout"]


def test_view_gives_the_acting_card_of_every_ai_piece(demo: Path, board: Client) -> None:
    """Issue 28 point 2: the page's card for the acting monster needs its name, family, level,
    health and sequences, and which sequence the last activation chose: as the scenario's
    pieces hold them."""
    view = board.ok("GET", "/api/view")
    assert view["acting"] is None
    battle = Session.open(demo, load_catalog()).state.battle
    ai = [p for p in battle.pieces if p.side == "ai"]
    assert set(view["cards"]) == {p.id for p in ai}
    for piece in ai:
        card = view["cards"][piece.id]
        assert (card["name"], card["family"], card["level"], card["health"], card["in_play"]) \
            == (piece.label, str(piece.family), piece.level, piece.health, True)
        assert card["sequences"] == [s.text for s in piece.sequences] and card["sequences"]
    board.ok("POST", "/api/done")
    for _ in range(3):
        last = board.ok("POST", "/api/next")
        view = board.ok("GET", "/api/view")
        acting, card = view["acting"], view["cards"][last["character"]]
        assert (acting["piece"], acting["target"]) == (last["character"], last["target"])
        assert acting["name"] == card["name"] and acting["round"] == view["round"]
        assert acting["target_name"] == next(p["name"] for p in view["pieces"]
                                             if p["id"] == last["target"])
        assert card["sequences"][acting["chosen"]] == " then ".join(last["sequence"])
    assert {"poison"} <= set(view["pieces"][0])


def test_the_last_activation_is_drawn_step_by_step_as_picture_draws_it(
        tmp_path: Path, demo: Path, board: Client) -> None:
    assert board.ok("GET", "/api/view")["last_overlay"] == ""
    board.ok("POST", "/api/done")
    board.ok("POST", "/api/next")
    view = board.ok("GET", "/api/view")
    overlay = view["last_overlay"]
    groups = re.findall(r'<g class="overlay-step" data-step="([^"]+)">', overlay)
    assert groups == ["sight", *map(str, range(len(view["last"]["steps"])))]
    drawn = re.findall(r"<(?:line|circle|polygon|path) class=[^>]*/>", overlay)
    assert any('class="sight"' in d for d in drawn) and any('class="move"' in d for d in drawn)
    picture = tmp_path / "now.svg"
    assert CliRunner().invoke(cli, ["picture", str(demo), "-o", str(picture)]).exit_code == 0
    whole = picture.read_text()
    assert all(d in whole for d in drawn)  # the very elements `automa picture` draws
    moved = [n for n, s in enumerate(view["last"]["steps"]) if s["kind"] == "move"]
    step = re.search(rf'data-step="{moved[0]}">(.*?)</g>', overlay)
    assert step is not None and 'class="move"' in step[1]


def test_a_piece_taken_out_of_play_is_drawn_until_the_step_that_took_it(tmp_path: Path) -> None:
    """The Ghoul's first melee kills the Elf: the mat (the battle after) no longer has her, so
    the overlay draws her where she stood, faded, for the page to show until the step that
    killed her; a piece still in play gets no such disc."""
    from automa.web.view import build_view

    text = (Path(__file__).parent / "playthroughs" / "18-hero-killed-mid-sequence.toml"
            ).read_text()
    folder = new_session(tmp_path, text)
    runner = CliRunner()
    played = runner.invoke(cli, ["next", "--session", str(folder), "--json"])
    assert played.exit_code == 0, played.output
    steps = json.loads(played.output)["steps"]
    killed = next(i for i, s in enumerate(steps) if s["kind"] == "damage" and s["died"])
    view = build_view(Session.open(folder, load_catalog()))
    assert "elf" not in {p["id"] for p in view["pieces"]}
    gone = re.findall(r'<g class="overlay-gone" data-piece="([^"]+)" data-until="(\d+)"',
                      view["last_overlay"])
    assert gone == [("elf", str(killed))]
    disc = re.search(r'data-piece="elf"[^>]*><circle cx="([\d.]+)" cy="([\d.]+)"',
                     view["last_overlay"])
    assert disc is not None
    assert (float(disc[1]), float(disc[2])) == (pytest.approx(60 + 30.0 * 10),
                                                 pytest.approx(60 + (90 - 42.0) * 10))


def test_a_part_leaves_with_its_owner_and_a_piece_at_its_death(tmp_path: Path) -> None:
    """The step a piece leaves play at is its death, not merely the last step naming it; a
    part of another piece (Ulom's claw) leaves with its owner, even when a step moved it
    before."""
    from msgspec.structs import replace

    from automa.engine.steps import MoveStep, NoteStep
    from automa.model.pieces import Piece
    from automa.render.overlays import _leaving_step
    from automa.session.replay import replay_steps

    text = (Path(__file__).parent / "playthroughs" / "18-hero-killed-mid-sequence.toml"
            ).read_text()
    folder = new_session(tmp_path, text)
    assert CliRunner().invoke(cli, ["next", "--session", str(folder)]).exit_code == 0
    step = list(replay_steps(Session.open(folder, load_catalog())))[-1]
    assert step.activation is not None
    before = {p.id: p for p in step.before.battle.pieces}
    claw = Piece("claw", "heroes", "hero", (31.0, 40.0), 1.0, part_of="elf")
    moved = MoveStep("claw", claw.at, (30.0, 40.0), "kept beside its owner", "hand")
    activation = replace(step.activation, steps=(moved, *step.activation.steps,
                                                 NoteStep("elf leaves play")))
    died = next(i for i, s in enumerate(activation.steps) if getattr(s, "died", False))
    assert _leaving_step(activation, {**before, "claw": claw}, before["elf"]) == died
    assert _leaving_step(activation, {**before, "claw": claw}, claw) == died


# --- next: as `automa next --json`, and the questions of physical dice and asked geometry ---

def test_next_is_exactly_automa_next_json(tmp_path: Path, demo: Path, board: Client) -> None:
    twin = tmp_path / "twin"
    shutil.copytree(demo, twin)
    for _ in range(3):
        by_board = board.ok("POST", "/api/next")
        assert by_board == cli_json("next", "--session", str(twin), "--json")
    assert log_bytes(demo) == log_bytes(twin)


def test_a_post_naming_an_old_version_is_refused_so_a_double_tap_does_nothing_twice(
        tmp_path: Path) -> None:
    folder = new_session(tmp_path, DUEL, "--dice", "physical")
    with serving(folder) as board:
        seen = board.ok("GET", "/api/version")["version"]
        answers: list[str] = []
        while "question" in (reply := board.ok("POST", "/api/next", {"answers": answers,
                                                                      "version": seen})):
            answers.append(_answer(reply["question"]))
        assert reply["character"] == "rat-1"
        after = log_bytes(folder)
        again = board.post("/api/next", {"answers": answers, "version": seen})
        assert again.status == 409 and "nothing was done" in again.error
        twice = board.post("/api/damage", {"piece": "elf", "amount": 1, "version": seen})
        assert twice.status == 409
        assert log_bytes(folder) == after
        now = board.ok("GET", "/api/version")["version"]
        board.ok("POST", "/api/damage", {"piece": "elf", "amount": 1, "version": now})
        assert board.post("/api/damage", {"piece": "elf", "amount": 1,
                                          "version": 3}).status == 400


def test_answers_to_a_session_that_asks_nothing_are_refused(demo: Path, board: Client) -> None:
    before = log_bytes(demo)
    reply = board.post("/api/next", {"answers": ["7"]})
    assert reply.status == 400 and "asks nothing" in reply.error
    assert log_bytes(demo) == before


def _answer(question: dict[str, Any]) -> str:
    """A valid answer to any question: a die's third face, a token's last face (one that
    hurts, so a push and its D12 follow), else the first option."""
    options = question["options"]
    if question["kind"] == "number":
        return str(options[2])
    return str(options[-1] if question["kind"] == "token" else options[0])


@pytest.mark.parametrize("options", [("--dice", "physical"),
                                     ("--dice", "physical", "--geometry", "asked")])
def test_every_question_names_who_acts_and_at_whom(tmp_path: Path,
                                                    options: tuple[str, ...]) -> None:
    """Issue 28 point 3: the board shows the acting piece and its target before the table
    draws a token or rolls a die. Through a whole AI turn of the demo battle, every question of
    an activation names the piece the activation turns out to be of, and every draw (a die or
    a token) after the target is chosen names the target it turns out to have; a question
    before the choice (a sight question in asked geometry) names none rather than a guess, and
    one before any piece acts (which of two tied pieces acts next) names no actor."""
    folder = new_session(tmp_path, DEMO, *options)
    with serving(folder) as board:
        board.ok("POST", "/api/done")
        names = {p["id"]: p["name"] for p in board.ok("GET", "/api/view")["pieces"]}
        draws = 0
        for _ in range(12):
            if board.ok("GET", "/api/view")["phase"] != "ai":
                break
            answers: list[str] = []
            asked = []
            reply = board.ok("POST", "/api/next", {"answers": answers})
            while reply is not None and "question" in reply:
                asked.append(reply["question"])
                answers.append(_answer(reply["question"]))
                assert len(answers) < 60
                reply = board.ok("POST", "/api/next", {"answers": answers})
            if reply is None:
                break
            acting = False
            for question in asked:
                if question["actor"] is None:  # the turn order's own question comes first
                    assert not acting and question["target"] is None, question
                    continue
                acting = True
                assert question["actor"] == reply["character"], question["prompt"]
                assert question["actor_name"] == names[reply["character"]]
                if question["target"] is not None:
                    assert question["target"] == reply["target"]
                    assert question["target_name"] == names[reply["target"]]
                    assert question["target_reason"] == reply["reason"]
                elif question["kind"] in ("number", "token") and reply["target"] and \
                        question["prompt"].startswith(("Draw", "Roll the D12 (shot")):
                    raise AssertionError(f"drawn before its target was named: {question}")
            draws += sum(q["kind"] in ("number", "token") and q["target"] is not None
                         for q in asked)
        assert draws >= 2  # the turn drew tokens or rolled dice with the target named


def test_every_page_is_told_the_question_open_on_the_log(tmp_path: Path) -> None:
    """While a device answers Next's questions, /api/version says what the table is asked, so
    the other pages (a watcher, a phone) can say so, and whom it is about (the piece acting
    and its target); once the activation is logged, or the log moves on any other way, no
    question is open."""
    folder = new_session(tmp_path, DUEL, "--dice", "physical")
    with serving(folder) as board:
        assert board.ok("GET", "/api/version")["asking"] is None
        answers: list[str] = []
        while "question" in (reply := board.ok("POST", "/api/next", {"answers": answers})):
            told = board.ok("GET", "/api/version")
            assert told["asking"] == reply["question"]["prompt"]
            assert told["asking_about"] == {key: reply["question"][key] for key in
                                            ("actor", "actor_name", "target", "target_name")}
            assert told["asking_about"]["actor"] == "rat-1"
            answers.append(_answer(reply["question"]))
            assert len(answers) < 20
        assert board.ok("GET", "/api/version")["asking"] is None  # answered: logged
        reply = board.ok("POST", "/api/next", {"answers": []})
        assert board.ok("GET", "/api/version")["asking"] == reply["question"]["prompt"]
        board.ok("POST", "/api/undo")  # another input moves the log on: that question is gone
        assert board.ok("GET", "/api/version")["asking"] is None
        assert board.ok("GET", "/api/version")["asking_about"] is None


def test_physical_dice_are_asked_one_question_at_a_time_nothing_logged_until_done(
        tmp_path: Path) -> None:
    folder = new_session(tmp_path, DUEL, "--dice", "physical")
    with serving(folder) as board:
        before = log_bytes(folder)
        answers: list[str] = []
        kinds = []
        while True:
            reply = board.ok("POST", "/api/next", {"answers": answers})
            if "question" not in reply:
                break
            question = reply["question"]
            kinds.append(question["kind"])
            assert reply["answers"] == answers
            assert question["prompt"] and isinstance(question["briefing"], list)
            if question["kind"] == "token":
                assert question["options"] == sorted(question["options"])
                assert isinstance(question["elsewhere"], dict)
            assert log_bytes(folder) == before  # nothing logged while asking
            answers.append(_answer(question))
            assert len(answers) < 20
        activation = reply
        assert activation["character"] == "rat-1" and "number" in kinds
        logged = json.loads(log_bytes(folder).decode().splitlines()[-1])
        assert logged["type"] == "activation"
        assert [o["source"] for o in logged["outcomes"]] == ["table"] * len(answers)
        assert [o["value"].split(":")[-1] for o in logged["outcomes"]] == answers
        assert board.ok("GET", "/api/view")["last"] == activation


def test_a_d12_of_13_and_other_wrong_answers_are_refused_naming_them(tmp_path: Path) -> None:
    folder = new_session(tmp_path, DUEL, "--dice", "physical")
    with serving(folder) as board:
        before = log_bytes(folder)
        answers: list[str] = []
        while True:  # up to the first D12
            question = board.ok("POST", "/api/next", {"answers": answers})["question"]
            if question["options"] == [str(n) for n in range(1, 13)]:
                break
            answers.append(_answer(question))
        for wrong in ("13", "0", "seven", "\uff17", "-3", " "):
            reply = board.post("/api/next", {"answers": [*answers, wrong]})
            assert reply.status == 400, wrong
            assert repr(wrong) in reply.error and "not a face of this die (1-12" in reply.error
        # Back: the same answers minus the last ask the question before again
        if answers:
            again = board.ok("POST", "/api/next", {"answers": answers[:-1]})
            assert again["answers"] == answers[:-1] and "question" in again
        assert log_bytes(folder) == before


def test_a_token_face_not_in_the_bag_is_refused_saying_where_it_is(tmp_path: Path) -> None:
    folder = new_session(tmp_path, DUEL, "--dice", "physical")
    with serving(folder) as board:
        answers: list[str] = []
        while True:
            question = board.ok("POST", "/api/next", {"answers": answers})["question"]
            if question["kind"] == "token":
                break
            answers.append(_answer(question))
        reply = board.post("/api/next", {"answers": [*answers, "9"]})
        assert reply.status == 400 and "'9'" in reply.error and "token face" in reply.error


def test_a_briefing_is_a_line_a_step_for_the_page_to_wrap(tmp_path: Path) -> None:
    """The page lists the briefing one item a line: a step too long for a terminal's line (the
    demo's first rush) comes whole, not as a numbered item and its wrapped rest as others."""
    folder = new_session(tmp_path, DEMO, "--dice", "physical")
    with serving(folder) as board:
        board.ok("POST", "/api/done")
        question = board.ok("POST", "/api/next", {"answers": []})["question"]
        actor, *steps = question["briefing"]
        assert actor.startswith("Flame Wraith #1 acts — ")
        assert all(re.match(r"   (▸ |[a-z]\) )", line) for line in steps), steps
        assert any(len(line) > 100 for line in steps), "the long rush, whole"


def test_asked_geometry_asks_yes_no_with_a_briefing(tmp_path: Path) -> None:
    folder = new_session(tmp_path, DUEL, "--geometry", "asked")
    with serving(folder) as board:
        view = board.ok("GET", "/api/view")
        assert view["geometry"] == "asked" and view["dice"] == "virtual"
        reply = board.ok("POST", "/api/next", {"answers": []})
        question = reply["question"]
        assert question["kind"] in ("yes_no", "choice")
        if question["kind"] == "yes_no":
            assert question["options"] == ["yes", "no"]
            bad = board.post("/api/next", {"answers": ["maybe"]})
            assert bad.status == 400 and "'maybe'" in bad.error
        assert question["briefing"], "the steps to do at the table come with the question"
        answers: list[str] = []
        while "question" in reply:
            answers.append(_answer(reply["question"]))
            reply = board.ok("POST", "/api/next", {"answers": answers})
        assert reply["character"] == "rat-1"


@pytest.mark.parametrize("body, words", [
    ({"answers": "7"}, "expected a list"),
    ({"answers": [7]}, "answer 1 is a number, not a string"),
    ({"answers": [None]}, "not a string"),
    ({"answers": ["x" * 300]}, "not a short line"),
    ({"answers": ["7\x1b[2J"]}, "not a short line"),
    ({"answer": ["7"]}, "unknown field 'answer'"),
    ([], "must be a JSON object"),
    ("next", "must be a JSON object"),
])
def test_next_refuses_a_malformed_body(tmp_path: Path, body: Any, words: str) -> None:
    folder = new_session(tmp_path, DUEL, "--dice", "physical")
    with serving(folder) as board:
        reply = board.post("/api/next", body)
        assert reply.status == 400 and words in reply.error


def test_next_when_nobody_can_act_answers_null_as_the_cli(tmp_path: Path) -> None:
    folder = new_session(tmp_path, DUEL.replace('monster = "sewer-rat"',
                                                'monster = "sewer-rat"\nconditions = '
                                                '["frozen"]'))
    with serving(folder) as board:
        reply = board.post("/api/next")
        assert reply.status == 200
        assert reply.json == cli_json("next", "--session", str(folder), "--json")


def test_the_scripted_asker_checks_each_answer_as_the_cli_does() -> None:
    """Choices by name or by a word of it, one draw at a time for an order, and the question
    the answers ran out at."""
    from automa.web.questions import BadAnswer, NeedsAnswer, ScriptedAsker

    assert ScriptedAsker(["Green"]).choice("Which tile?", ["green (dungeon)", "blue"]) == \
        "green (dungeon)"
    assert ScriptedAsker(["c", "a"]).order("Draw the tiles", ["a", "b", "c"]) == ["c", "a", "b"]
    with pytest.raises(NeedsAnswer) as need:
        ScriptedAsker(["c"]).order("Draw the tiles", ["a", "b", "c"])
    assert need.value.question["kind"] == "order"
    assert need.value.question["options"] == ["a", "b"]
    assert "draw 2 of 3" in need.value.question["prompt"]
    with pytest.raises(BadAnswer, match="answer 1 'd': not one of: a, b, c"):
        ScriptedAsker(["d"]).choice("Which?", ["a", "b", "c"])
    assert ScriptedAsker(["Y"]).yes_no("Sees?") is True
    assert ScriptedAsker(["no"]).yes_no("Sees?") is False
    assert ScriptedAsker(["2r"]).token("Draw", ["1", "2R"], {}) == "2R"
    with pytest.raises(BadAnswer, match="every 1 is on the discard pile"):
        ScriptedAsker(["1"]).token("Draw", ["2R"], {"1": "on the discard pile"})


# --- the heroes' actions ------------------------------------------------------------------

def test_move_by_coordinates_and_by_words_answer_the_new_view(demo: Path, board: Client) -> None:
    view = board.ok("POST", "/api/move", {"piece": "elf", "at": [12.25, 30]})
    assert view["state"]["pieces"]["elf"]["at"] == [12.25, 30.0]
    assert "elf is at (12.2, 30.0)" in view["output"] or "elf is at (12.3, 30.0)" in \
        view["output"]
    assert view["version"] == hashlib.sha256(log_bytes(demo)).hexdigest()
    view = board.ok("POST", "/api/move", {"piece": "wizard", "words": "rune 1"})
    runes = re.findall(r'data-rune="1" cx="([\d.]+)" cy="([\d.]+)"', view["mat"])
    assert runes and view["log"][-1]["text"].startswith("move wizard to")
    view = board.ok("POST", "/api/move", {"piece": "elf", "words": "2 cm left of rat-1"})
    assert view["state"]["pieces"]["elf"]["at"][0] < 22.0


@pytest.mark.parametrize("body, status, words", [
    ({"piece": "orc", "at": [10, 10]}, 404, "no piece 'orc'"),
    ({"piece": "elf"}, 400, "'at': [x, y] or as 'words'"),
    ({"piece": "elf", "at": [1, 2], "words": "rune 1"}, 400, "one of them"),
    ({"piece": "elf", "at": "10,10"}, 400, "expected [x, y]"),
    ({"piece": "elf", "at": [10]}, 400, "expected [x, y]"),
    ({"piece": "elf", "at": [True, 3]}, 400, "expected [x, y]"),
    ({"piece": "elf", "at": [1e300, 3]}, 400, "on the mat"),
    ({"piece": "elf", "at": [10**400, 3]}, 400, "on the mat"),  # too big for a float
    ({"piece": "elf", "at": [3, -10**400]}, 400, "on the mat"),
    ({"piece": "elf", "at": [-5, 10]}, 400, "off the mat"),
    ({"piece": "elf", "at": [22, 45]}, 400, "rat-1"),
    ({"piece": "elf", "words": "somewhere nice"}, 400, "somewhere nice"),
    ({"piece": 3, "at": [10, 10]}, 400, "piece: expected a non-empty string"),
    ({"piece": "elf rat-1", "at": [10, 10]}, 400, "expected one word"),
    ({"at": [10, 10]}, 400, "missing field 'piece'"),
    ({"piece": "elf", "to": [10, 10]}, 400, "unknown field 'to'"),
])
def test_move_refuses(demo: Path, board: Client, body: Any, status: int, words: str) -> None:
    before = log_bytes(demo)
    reply = board.post("/api/move", body)
    assert reply.status == status and words in reply.error, reply.data
    assert log_bytes(demo) == before


def test_damage_heal_condition(demo: Path, board: Client) -> None:
    view = board.ok("POST", "/api/damage", {"piece": "rat-1", "amount": 1, "by": "elf"})
    assert "rat-1" not in view["state"]["pieces"] and view["state"]["out"] == {"rat-1": "dead"}
    view = board.ok("POST", "/api/damage", {"piece": "barbarian", "amount": 3})
    assert view["state"]["pieces"]["barbarian"]["health"] == 6
    view = board.ok("POST", "/api/heal", {"piece": "barbarian", "amount": 2})
    assert view["state"]["pieces"]["barbarian"]["health"] == 8
    view = board.ok("POST", "/api/condition", {"piece": "elf", "condition": "stunned",
                                               "on": True})
    assert {p["id"]: p for p in view["pieces"]}["elf"]["conditions"] == ["stunned"]
    view = board.ok("POST", "/api/condition", {"piece": "elf", "condition": "Stunned",
                                               "on": False})
    assert "conditions" not in view["state"]["pieces"]["elf"]
    # the piece is out of play now: a conflict, not an unknown piece
    gone = board.post("/api/damage", {"piece": "rat-1", "amount": 1})
    assert gone.status == 409 and "out of play" in gone.error


@pytest.mark.parametrize("path, body, status, words", [
    ("/api/damage", {"piece": "elf", "amount": "2"}, 400, "amount: expected a whole number"),
    ("/api/damage", {"piece": "elf", "amount": 0}, 400, "expected 1 to 999"),
    ("/api/damage", {"piece": "elf", "amount": 2.5}, 400, "expected a whole number"),
    ("/api/damage", {"piece": "elf", "amount": True}, 400, "expected a whole number"),
    ("/api/damage", {"piece": "elf", "amount": 2, "by": "rat-1"}, 400, "by HERO"),
    ("/api/damage", {"piece": "ghost", "amount": 2}, 404, "no piece 'ghost'"),
    ("/api/heal", {"piece": "elf", "amount": -1}, 400, "expected 1 to 999"),
    ("/api/heal", {"piece": "elf", "amount": 1, "by": "elf"}, 400, "unknown field 'by'"),
    ("/api/heal", {"piece": "ghost", "amount": 1}, 404, "no piece"),
    ("/api/condition", {"piece": "elf", "condition": "sleepy", "on": True}, 400,
     "unknown condition 'sleepy'"),
    ("/api/condition", {"piece": "elf", "condition": "stunned", "on": "yes"}, 400,
     "on: expected true or false"),
    ("/api/condition", {"piece": "elf", "condition": "stunned"}, 400, "missing field 'on'"),
    ("/api/condition", {"piece": "ghost", "condition": "stunned", "on": True}, 404, "ghost"),
])
def test_actions_refuse_bad_fields(demo: Path, board: Client, path: str, body: Any,
                                   status: int, words: str) -> None:
    before = log_bytes(demo)
    reply = board.post(path, body)
    assert reply.status == status and words in reply.error, reply.data
    assert log_bytes(demo) == before


def test_hit_is_plays_hit_with_its_dice(demo: Path, board: Client) -> None:
    view = board.ok("POST", "/api/hit", {"targets": ["skeleton-1"], "shot": "missile",
                                         "by": "elf"})
    assert "nullif" in view["output"].lower()  # the Skeleton Warrior nullifies missiles
    assert view["log"][-1]["text"] == "hit skeleton-1 missile by elf"
    view = board.ok("POST", "/api/hit", {"targets": ["rat-1", "rat-2"],
                                         "shot": "melee+poison", "by": "barbarian",
                                         "dice": [2]})
    logged = json.loads(log_bytes(demo).decode().splitlines()[-1])
    assert logged["targets"] == ["rat-1", "rat-2"] and logged["poison_card"] == 2
    missing = board.post("/api/hit", {"targets": ["centaur-1"], "shot": "melee+poison"})
    assert missing.status == 400 and "the Poison card drawn (1-9)" in missing.error
    wrong = board.post("/api/hit", {"targets": ["centaur-1"], "shot": "melee+poison",
                                    "dice": [10]})
    assert wrong.status == 400 and "10 is not 1-9" in wrong.error
    extra = board.post("/api/hit", {"targets": ["centaur-1"], "shot": "melee", "dice": [3]})
    assert extra.status == 400 and "needs 0" in extra.error


@pytest.mark.parametrize("body, status, words", [
    ({"targets": [], "shot": "melee"}, 400, "targets: expected a list"),
    ({"targets": "rat-1", "shot": "melee"}, 400, "targets: expected a list"),
    ({"targets": ["rat-1"], "shot": 3}, 400, "shot: expected a non-empty string"),
    ({"targets": ["goblin"], "shot": "melee"}, 404, "no piece 'goblin'"),
    ({"targets": ["rat-1"], "shot": "melee", "trilithon": "no"}, 400, "trilithon: expected"),
    ({"targets": ["rat-1"], "shot": "melee", "dice": ["2"]}, 400, "dice: expected a list"),
    ({"targets": ["rat-1"], "shot": "frobnicate"}, 400, "frobnicate"),
])
def test_hit_refuses(demo: Path, board: Client, body: Any, status: int, words: str) -> None:
    before = log_bytes(demo)
    reply = board.post("/api/hit", body)
    assert reply.status == status and words in reply.error, reply.data
    assert log_bytes(demo) == before


def test_command_runs_any_line_of_play(demo: Path, board: Client) -> None:
    view = board.ok("POST", "/api/command", {"line": "gold elf +3"})
    assert view["state"]["pieces"]["elf"]["gold"] == 10 and "gold 10" in view["output"]
    view = board.ok("POST", "/api/command", {"line": "los rat-1"})
    assert "sees" in view["output"]
    assert "done" in board.ok("POST", "/api/command", {"line": "help"})["output"]
    for line, status, words in [("quit", 400, "means nothing on the board"),
                                ("frobnicate elf", 400, "unknown command 'frobnicate'"),
                                ('move elf "rune 1', 400, "unbalanced quotes"),
                                ("   ", 400, "line: expected a non-empty string"),
                                ("gold elf +x", 400, "not a whole number"),
                                ("move", 400, "usage: move ID POSITION")]:
        reply = board.post("/api/command", {"line": line})
        assert reply.status == status and words in reply.error, (line, reply.data)
    reply = board.post("/api/command", {"line": 42})
    assert reply.status == 400
    nothing = board.post("/api/command", {"line": "redo"})  # as /api/redo: the state refuses
    assert nothing.status == 409 and "nothing to redo" in nothing.error


def test_done_then_the_ai_turn_refuses_heroes_actions(demo: Path, board: Client) -> None:
    view = board.ok("POST", "/api/done")
    assert view["phase"] == "ai" and view["turn"]["next"] is not None
    again = board.post("/api/done")
    assert again.status == 409 and "cannot be done in the AI turn" in again.error
    for path, body in [("/api/damage", {"piece": "elf", "amount": 1}),
                       ("/api/command", {"line": "gold elf +1"}),
                       ("/api/hit", {"targets": ["rat-1"], "shot": "melee"})]:
        reply = board.post(path, body)
        assert reply.status == 409 and "cannot be done in the AI turn" in reply.error, path
    # a piece the AI left elsewhere may be put where it stands in the AI turn, as in `play`
    board.ok("POST", "/api/move", {"piece": "elf", "at": [11, 36]})
    unknown = board.post("/api/done", {"now": True})
    assert unknown.status == 400


def test_undo_redo_rollback(demo: Path, board: Client) -> None:
    nothing = board.post("/api/undo")
    assert nothing.status == 409 and "nothing to undo" in nothing.error
    assert board.post("/api/redo").status == 409
    board.ok("POST", "/api/damage", {"piece": "elf", "amount": 1})
    board.ok("POST", "/api/damage", {"piece": "elf", "amount": 2})
    view = board.ok("POST", "/api/undo")
    assert view["state"]["pieces"]["elf"]["health"] == 5 and view["redo"] == 1
    assert "undone: damage elf 2" in view["output"]
    view = board.ok("POST", "/api/redo")
    assert view["state"]["pieces"]["elf"]["health"] == 3 and view["redo"] == 0
    view = board.ok("POST", "/api/rollback", {"keep": 0})
    assert view["state"]["pieces"]["elf"]["health"] == 6 and view["log"] == []
    assert view["redo"] == 2
    assert view["state"] == cli_json("status", "--session", str(demo), "--json")
    for body, status, words in [({"keep": 5}, 409, "keep 0..0"), ({"keep": "1"}, 400,
                                                                  "expected a whole number"),
                                ({"keep": -1}, 400, "expected 0"), ({}, 400, "missing")]:
        reply = board.post("/api/rollback", body)
        assert reply.status == status and words in reply.error, body
    assert board.post("/api/undo", {"all": True}).status == 400


# --- HTTP: methods, bodies, paths, headers -------------------------------------------------

def test_every_response_carries_the_security_headers_and_no_cors(board: Client) -> None:
    for reply in (board.get("/"), board.get("/api/state"), board.get("/nowhere"),
                  board.post("/api/undo"), board.request("PUT", "/api/state")):
        assert reply.headers["content-security-policy"] == (
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'")
        assert reply.headers["x-content-type-options"] == "nosniff"
        assert not any(h.startswith("access-control-") for h in reply.headers)
    assert board.get("/api/state").headers["content-type"] == "application/json; charset=utf-8"


def test_the_page_and_its_files(board: Client) -> None:
    page = board.get("/")
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    assert b"<html" in page.data
    assert not re.search(rb"""(src|href)\s*=\s*["']?(https?:)?//""", page.data)  # all local
    assert board.get("/static/index.html").data == page.data
    for path in ("/static/../api.py", "/static/..%2fapi.py", "/static/%2e%2e%2fserver.py",
                 "/static/", "/static/.hidden", "/static/missing.js", "/static//etc/passwd",
                 "/static/..\\api.py", "/../automa/web/api.py", "/static/index.html/x"):
        reply = board.get(path)
        assert reply.status == 404, path
        assert reply.error
    assert board.post("/", {}).status == 405


@pytest.mark.parametrize("method, path, status", [
    ("GET", "/api/next", 405), ("GET", "/api/move", 405), ("POST", "/api/state", 405),
    ("POST", "/api/view", 405), ("PUT", "/api/next", 405), ("DELETE", "/api/state", 405),
    ("OPTIONS", "/api/next", 405), ("FROB", "/api/state", 405), ("GET", "/api/nothing", 404),
    ("GET", "/api", 404), ("POST", "/api/nothing", 404),
])
def test_wrong_method_or_path(board: Client, method: str, path: str, status: int) -> None:
    reply = board.request(method, path, raw=b"{}" if method != "GET" else None,
                          headers=JSON if method != "GET" else {})
    assert reply.status == status, reply.data
    assert reply.error


def test_bodies_that_are_not_json_objects(demo: Path, board: Client) -> None:
    before = log_bytes(demo)
    cases = [
        (b"{not json", JSON, 400, "not JSON"),
        (b'{"piece": "elf", "amount": NaN}', JSON, 400, "not JSON"),
        (b'{"piece": "elf", "amount": Infinity}', JSON, 400, "not JSON"),
        (b"\xff\xfe", JSON, 400, "not JSON"),
        (b"[" * 100_00 + b"]" * 100_00, JSON, 400, "not JSON"),
        (b'{"piece": "elf", "amount": 1}', {}, 415, "Content-Type: application/json"),
        (b'{"piece": "elf", "amount": 1}', {"Content-Type": "text/plain"}, 415, "JSON"),
        (b"piece=elf&amount=1", {"Content-Type": "application/x-www-form-urlencoded"}, 415,
         "JSON"),
        (b"1", JSON, 400, "must be a JSON object"),
    ]
    for raw, headers, status, words in cases:
        reply = board.request("POST", "/api/damage", raw=raw, headers=headers)
        assert reply.status == status and words in reply.error, (raw[:40], reply.data)
    assert log_bytes(demo) == before


def test_a_huge_body_is_refused_unread(demo: Path, board: Client) -> None:
    body = json.dumps({"line": "x" * (MAX_BODY + 10)}).encode()
    reply = board.request("POST", "/api/command", raw=body, headers=JSON)
    assert reply.status == 413 and "64 KB" in reply.error
    assert board.ok("GET", "/api/version")  # the server goes on


def test_another_sites_page_and_a_rebound_host_are_refused(demo: Path, board: Client) -> None:
    before = log_bytes(demo)
    cross = board.request("POST", "/api/damage", {"piece": "elf", "amount": 1},
                          headers={"Origin": "http://evil.example"})
    assert cross.status == 403
    rebound = board.request("GET", "/api/state", headers={"Host": "evil.example"})
    assert rebound.status == 403
    same = board.request("POST", "/api/damage", {"piece": "elf", "amount": 1},
                         headers={"Origin": f"http://127.0.0.1:{board.port}"})
    assert same.status == 200
    assert board.request("GET", "/api/state", headers={"Host": "localhost"}).status == 200
    assert log_bytes(demo) != before


@pytest.mark.parametrize("path", ["/api/view", "/api/version", "/api/threat?hero=elf&step=5",
                                  "/api/state", "/api/access"])
def test_another_sites_page_may_not_read_either(board: Client, path: str) -> None:
    for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
                    {"Origin": "http://evil.example"}):
        reply = board.request("GET", path, headers=headers)
        assert reply.status == 403 and "another site's page" in reply.error, (path, headers)
    for headers in ({"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, {}):
        assert board.request("GET", path, headers=headers).status == 200, (path, headers)


def test_an_internal_error_is_one_line_500(board: Client, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    def broken(board: Board, body: Any) -> api.Result:
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setitem(api.ENDPOINTS, "/api/state", ("GET", broken))
    reply = board.get("/api/state")
    assert reply.status == 500
    assert reply.error.startswith("internal error: RuntimeError: a bug")
    assert board.ok("GET", "/api/version")


# --- many windows: the CLI, other clients, a busy session, a killed server ----------------

def test_a_cli_write_and_another_client_show_at_once(demo: Path, board: Client) -> None:
    other = Client(board.port)
    first = other.ok("GET", "/api/version")["version"]
    typed = subprocess.run([*AUTOMA, "play", "--session", str(demo)], input="damage elf 2\nquit\n",
                           capture_output=True, text=True, timeout=60)  # the terminal, meanwhile
    assert typed.returncode == 0, typed.stderr
    assert other.ok("GET", "/api/version")["version"] != first
    view = board.ok("GET", "/api/view")
    assert view["state"]["pieces"]["elf"]["health"] == 4
    assert view["log"][-1]["text"] == "damage elf 2"
    board.ok("POST", "/api/heal", {"piece": "elf", "amount": 1})
    assert other.ok("GET", "/api/view")["state"]["pieces"]["elf"]["health"] == 5
    assert cli_json("status", "--session", str(demo), "--json")["pieces"]["elf"]["health"] == 5


def test_clients_writing_at_once_each_get_their_input_logged(demo: Path, board: Client) -> None:
    """Requests are served in threads; each input is taken whole, one at a time."""
    replies: list[int] = []

    def client() -> None:
        for _ in range(5):
            replies.append(board.post("/api/command", {"line": "gold elf +1"}).status)
            replies.append(board.get("/api/view").status)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), "a client never finished"
    assert replies == [200] * 40
    state = cli_json("status", "--session", str(demo), "--json")
    assert state["pieces"]["elf"]["gold"] == 7 + 20
    assert len(board.ok("GET", "/api/view")["log"]) == 20


def test_a_session_busy_in_another_window_is_a_conflict(tmp_path: Path) -> None:
    folder = new_session(tmp_path, DUEL, "--dice", "physical")
    with serving(folder) as board:
        with running([*AUTOMA, "next", "--session", str(folder)], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE) as waiting:
            deadline = time.monotonic() + 30
            while holder(folder)[1] != "activation":  # it waits at its first question
                assert time.monotonic() < deadline and waiting.poll() is None
                time.sleep(0.05)
            before = log_bytes(folder)
            for path, body in [("/api/next", {}), ("/api/damage", {"piece": "elf",
                                                                   "amount": 1}),
                               ("/api/undo", {})]:
                reply = board.post(path, body)
                assert reply.status == 409, (path, reply.data)
                assert "another window is in the middle of an activation" in reply.error
            assert board.ok("GET", "/api/view")["phase"] == "heroes"  # reading still works
            assert log_bytes(folder) == before
            waiting.kill()
            waiting.communicate()
        board.ok("POST", "/api/damage", {"piece": "elf", "amount": 1})  # free again


@contextmanager
def started_serve(folder: Path, *options: str) -> Iterator[tuple[subprocess.Popen[str], Client]]:
    """`automa serve --port 0` in its own process, and a client on the port it prints. The test
    may stop it its own way; it is stopped anyway however the test ends."""
    with running([*AUTOMA, "serve", "--session", str(folder), "--port", "0", *options],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE) as server:
        url = first_line(server)
        match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/", url)
        assert match, (url, server.communicate(timeout=STOP_WITHIN)[1]
                       if server.poll() is not None else "")
        yield server, Client(int(match[1]))


def test_killing_the_server_mid_battle_loses_nothing(demo: Path) -> None:
    with started_serve(demo) as (server, board):
        board.ok("POST", "/api/move", {"piece": "elf", "at": [11, 35]})
        board.ok("POST", "/api/done")
        board.ok("POST", "/api/next")
        board.ok("POST", "/api/next")
        last = board.ok("GET", "/api/view")
        os.kill(server.pid, signal.SIGKILL)
        server.communicate()
    assert server.returncode == -signal.SIGKILL
    assert cli_json("status", "--session", str(demo), "--json") == last["state"]
    reopened = Session.open(demo, load_catalog())
    assert len(reopened.effective()[0]) == len(last["log"]) == 4
    with serving(demo) as again:
        view = again.ok("GET", "/api/view")
        assert {k: view[k] for k in ("version", "state", "turn", "last", "log")} == \
            {k: last[k] for k in ("version", "state", "turn", "last", "log")}


def test_serve_on_the_network_warns_and_ctrl_c_stops_cleanly(demo: Path) -> None:
    with started_serve(demo, "--host", "0.0.0.0") as (server, board):
        assert board.ok("GET", "/api/state")["round"] == 2
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=30)
    assert server.returncode == 0
    assert "warning: listening on 0.0.0.0: anyone on the network" in err
    assert "Stopped. Everything is saved" in err and "Traceback" not in err


def test_serve_refuses_a_busy_port_and_a_missing_session(tmp_path: Path, demo: Path) -> None:
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        result = CliRunner().invoke(cli, ["serve", "--session", str(demo), "--port",
                                          str(taken.getsockname()[1])])
    finally:
        taken.close()
    assert result.exit_code == 2 and "cannot listen there" in result.stderr
    missing = CliRunner().invoke(cli, ["serve", "--session", str(tmp_path / "none")])
    assert missing.exit_code == 5 and "no such session folder" in missing.stderr


def test_a_battle_in_a_campaign_shows_the_campaigns_status(tmp_path: Path) -> None:
    from tests.test_campaign import GLAAOTH

    data = tmp_path / "my-data"
    data.mkdir()
    (data / "rooms.toml").write_text(GLAAOTH, encoding="utf-8")
    folder = tmp_path / "evening"
    base = ["--data-dir", str(data)]
    assert CliRunner().invoke(cli, [*base, "campaign", "new", "monstrosity", "--session",
                                    str(folder), "--heroes", "elf=8", "--lord", "hmotha",
                                    "--seed", "3"]).exit_code == 0
    entered = cli_json(*base, "campaign", "next", "glaaoth", "--session", str(folder),
                       "--json")
    with serving(Path(entered["session"]), data) as board:
        campaign = board.ok("GET", "/api/view")["campaign"]
    assert campaign == cli_json(*base, "campaign", "status", "--session", str(folder),
                                "--json")
    assert campaign["campaign"] == "monstrosity"
    assert {"id": "glaaoth", "name": "Glaaoth", "level": 1, "state": "current"} in \
        campaign["rooms"]
