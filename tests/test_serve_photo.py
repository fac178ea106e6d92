"""The board's Photo button over HTTP (docs/serve.md, "Positions from a photo"): a photo's
bytes posted to the board's own server, the moves it proposes, and their confirmation as one
`move` input each. A real server on a free port, driven with http.client as
tests/test_serve_api.py drives it; a refused request is its 4xx and one line, and nothing is
recorded."""

from __future__ import annotations

import math
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from automa.photo import battle
from automa.photo.model import Capture, FoundPiece
from automa.web import server
from tests.test_serve_api import DEMO, JSON, Client, log_bytes, new_session, serving

PNG = {"Content-Type": "image/png"}
JPEG = {"Content-Type": "image/jpeg"}
PHOTO_PATHS = ("/api/photo", "/api/photo/empty")


@pytest.fixture(autouse=True)
def home_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The default data folder (where a kept empty mat is looked for when the board's data
    folder has none) inside the test's own folder, never the player's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg"


def stand_in(monkeypatch: pytest.MonkeyPatch, reader: Any) -> None:
    """The vision replaced by `reader` (the board's handling is what such a test tests), an
    empty mat taken as kept."""
    monkeypatch.setattr(battle, "capture_pieces", reader)
    monkeypatch.setattr(battle, "kept_empty", lambda playmat, settings, catalog: None)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return new_session(tmp_path, DEMO)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """The board's data folder: where an empty mat's view is kept (never the home folder)."""
    folder = tmp_path / "my-data"
    folder.mkdir()
    return folder


@pytest.fixture
def board(demo: Path, data: Path) -> Iterator[Client]:
    with serving(demo, data) as client:
        yield client


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def moved(view: dict[str, Any], pid: str) -> list[float]:
    return [float(v) for v in view["state"]["pieces"][pid]["at"]]


# --- the photo's body -----------------------------------------------------------------------

@pytest.mark.parametrize("path", PHOTO_PATHS)
def test_a_photo_must_be_sent_as_an_image(demo: Path, data: Path, board: Client,
                                          path: str) -> None:
    before = files(demo.parent)
    for raw, headers, status, words in [
        (b'{"photo": 1}', JSON, 415, "send the photo itself"),
        (b"\xff\xd8\xff\xe0 a jpeg", {}, 415, "Content-Type: image/jpeg"),
        (b"\xff\xd8\xff\xe0 a jpeg", {"Content-Type": "text/plain"}, 415, "image/png"),
        (b"", JPEG, 400, "holds no photo"),
    ]:
        reply = board.request("POST", path, raw=raw, headers=headers)
        assert reply.status == status and words in reply.error, (raw, headers, reply.data)
    assert files(demo.parent) == before  # nothing kept, nothing logged


@pytest.mark.parametrize("path", PHOTO_PATHS)
def test_a_photo_over_the_limit_is_refused_unread(board: Client, path: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(server.BODY_LIMITS, path, 300 * 1024)
    reply = board.request("POST", path, raw=b"\xff" * (300 * 1024 + 1), headers=JPEG)
    assert reply.status == 413 and "over 300 KB" in reply.error
    assert board.ok("GET", "/api/version")  # the server goes on


def test_the_photo_limit_is_a_phones_photo_not_a_json_body(board: Client) -> None:
    """A photo of several MB is read (here: found not to be an image), not refused as a JSON
    body over 64 KB would be; over 40 MB it is refused."""
    assert server.BODY_LIMITS["/api/photo"] == server.BODY_LIMITS["/api/photo/empty"]
    assert server.BODY_LIMITS["/api/photo"] >= 40 * 1024 * 1024 > server.MAX_BODY
    reply = board.request("POST", "/api/photo", raw=b"\x00" * (3 * 1024 * 1024), headers=PNG)
    assert reply.status != 413, reply.data


def test_the_photo_endpoints_refuse_another_sites_page(demo: Path, board: Client) -> None:
    before = files(demo.parent)
    for path, raw, headers in [("/api/photo", b"\xff\xd8", JPEG),
                               ("/api/photo/empty", b"\xff\xd8", JPEG),
                               ("/api/photo/confirm", b'{"moves": []}', JSON)]:
        for hostile in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
                        {"Sec-Fetch-Site": "same-site"}):
            reply = board.request("POST", path, raw=raw, headers={**headers, **hostile})
            assert reply.status == 403 and "another site's page" in reply.error, (path, hostile)
    reply = board.request("GET", "/api/photo/progress", headers={"Sec-Fetch-Site": "cross-site"})
    assert reply.status == 403
    assert files(demo.parent) == before


def test_the_photo_endpoints_take_their_method(board: Client) -> None:
    for method, path in [("GET", "/api/photo"), ("GET", "/api/photo/confirm"),
                         ("POST", "/api/photo/progress")]:
        reply = board.request(method, path, {} if method == "POST" else None)
        assert reply.status == 405, (method, path)


def test_without_the_photo_extra_the_answer_says_how_to_install_it(
        demo: Path, board: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cv2", None)  # `import cv2` fails as when not installed
    before = files(demo.parent)
    for path in PHOTO_PATHS:
        reply = board.request("POST", path, raw=b"\xff\xd8\xff\xe0", headers=JPEG)
        assert reply.status == 501, reply.data
        assert "pip install 'catacombs-automa[photo]'" in reply.error
    assert files(demo.parent) == before


def test_a_photo_before_any_empty_mat_is_kept_says_to_keep_one(demo: Path,
                                                                 board: Client) -> None:
    before = files(demo.parent)
    reply = board.request("POST", "/api/photo", raw=b"\xff\xd8\xff\xe0", headers=JPEG)
    assert reply.status == 400
    assert reply.error.startswith("no usable photo of the empty Mausoleum side is kept")
    assert "press Empty mat" in reply.error
    assert files(demo.parent) == before


# --- reading outside the board's lock -------------------------------------------------------

def test_a_photo_is_read_without_holding_the_board(demo: Path, board: Client,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """While a photo is read (seconds), the page's polling and other writes are answered, the
    page can ask how far the reading has got, and a second photo waits its turn (409). The
    reader here stands in for the vision (it holds until told): what is tested is the board."""
    started, finish = threading.Event(), threading.Event()

    def slow(photo: bytes, where: str, pieces: Any, catalog: Any, playmat: Any,
             settings: Any, empty_top: Any, unmeasured: Any = None,
             progress: Any = None) -> Capture:
        progress("discs", 0.5)
        started.set()
        assert finish.wait(20)
        return Capture((0, 1, 2, 3), (FoundPiece("elf", (12.0, 30.0), 6.3, 0.9),),
                       tuple(p.id for p in pieces if p.id != "elf"), ())

    stand_in(monkeypatch, slow)
    assert board.ok("GET", "/api/photo/progress") == {"reading": False, "step": None,
                                                      "fraction": None}
    answers: list[Any] = []
    reading = threading.Thread(target=lambda: answers.append(
        board.request("POST", "/api/photo", raw=b"\xff\xd8 photo", headers=JPEG)))
    reading.start()
    try:
        assert started.wait(20)
        assert board.ok("GET", "/api/photo/progress") == {"reading": True, "step": "discs",
                                                          "fraction": 0.5}
        assert board.ok("GET", "/api/view")["pieces"]
        board.ok("POST", "/api/damage", {"piece": "rat-1", "amount": 1})  # a write goes on
        second = board.request("POST", "/api/photo", raw=b"\xff\xd8 another", headers=JPEG)
        assert second.status == 409 and "another photo is being read" in second.error
    finally:
        finish.set()
        reading.join(30)
    reply = answers[0]
    assert reply.status == 200, reply.data
    found = reply.json
    assert [p["id"] for p in found["pieces"]] == ["elf"]
    elf = found["pieces"][0]
    assert elf["from"] == [10.0, 36.0] and elf["move"] and not elf["check"]
    assert found["confident"] == 0.8 and found["still"] == 0.5
    assert set(found) >= {"markers", "pieces", "missing", "unknown", "version"}
    assert board.ok("GET", "/api/photo/progress")["reading"] is False


def test_a_piece_named_with_little_confidence_is_to_check_and_a_still_one_is_no_move(
        board: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def reader(photo: bytes, where: str, pieces: Any, catalog: Any, playmat: Any,
               settings: Any, empty_top: Any, unmeasured: Any = None,
               progress: Any = None) -> Capture:
        return Capture((0, 1, 2, 3), (FoundPiece("elf", (10.2, 36.1), 0.22, 0.95),
                                      FoundPiece("wizard", (40.0, 20.0), 10.2, 0.5)), (), ())

    stand_in(monkeypatch, reader)
    found = {p["id"]: p for p in board.request("POST", "/api/photo", raw=b"\x89PNG",
                                               headers=PNG).json["pieces"]}
    assert not found["elf"]["move"] and not found["elf"]["check"]
    assert found["wizard"]["move"] and found["wizard"]["check"]
    assert found["wizard"]["from"] == [50.0, 22.0]


# --- confirming the moves -------------------------------------------------------------------

def test_confirm_records_one_move_each_undone_one_by_one(demo: Path, board: Client) -> None:
    start = board.ok("GET", "/api/view")
    moves = [{"piece": "elf", "at": [12.5, 30.25]}, {"piece": "barbarian", "at": [36, 40]},
             {"piece": "wizard", "at": [44.0, 16.0]}]
    view = board.ok("POST", "/api/photo/confirm", {"moves": moves, "version": start["version"]})
    assert view["recorded"] == 3
    assert len(view["log"]) == len(start["log"]) + 3
    assert all(entry["type"] == "move" for entry in view["log"][-3:])
    for move in moves:
        assert moved(view, str(move["piece"])) == pytest.approx(move["at"])
    assert view["output"].count("\n") >= 3
    for count, undone in enumerate(reversed(moves), start=1):
        view = board.ok("POST", "/api/undo")
        assert len(view["log"]) == len(start["log"]) + 3 - count
        piece = str(undone["piece"])
        assert moved(view, piece) == moved(start, piece)
        for kept in moves[:3 - count]:
            assert moved(view, str(kept["piece"])) == pytest.approx(kept["at"])
    assert view["state"]["pieces"] == start["state"]["pieces"]


def test_confirm_finds_an_order_in_which_every_move_can_be_done(demo: Path,
                                                                board: Client) -> None:
    """The elf takes the spot the barbarian leaves: listed first, it is done second."""
    view = board.ok("POST", "/api/photo/confirm", {"moves": [
        {"piece": "elf", "at": [30.0, 34.0]}, {"piece": "barbarian", "at": [36.0, 44.0]}]})
    assert moved(view, "elf") == [30.0, 34.0] and moved(view, "barbarian") == [36.0, 44.0]
    assert [entry["text"].split()[1] for entry in view["log"][-2:]] == ["barbarian", "elf"]


@pytest.mark.parametrize("moves, status, words", [
    ([{"piece": "elf", "at": [12, 30]}, {"piece": "orc", "at": [20, 20]}], 404,
     "move 2: no piece 'orc'"),
    ([{"piece": "elf", "at": [12, 30]}, {"piece": "wizard", "at": [22, 45]}], 400,
     "nothing was recorded"),  # onto rat-1
    ([{"piece": "elf", "at": [12, 30]}, {"piece": "wizard", "at": [-5, 10]}], 400,
     "off the mat"),
    ([{"piece": "elf", "at": [12, 30]}, {"piece": "elf", "at": [14, 30]}], 400,
     "elf is moved twice"),
    ([{"piece": "elf", "at": [12, 30]}, {"piece": "wizard", "at": [12.5, 30]}], 400,
     "nothing was recorded"),  # onto the elf's new spot
    ([{"piece": "elf", "at": "12,30"}], 400, "move 1: at: expected [x, y]"),
    ([{"piece": "elf", "at": [1e300, 3]}], 400, "on the mat"),
    ([{"piece": "elf", "at": [True, 3]}], 400, "expected [x, y]"),
    ([{"piece": "elf"}], 400, "move 1: missing field 'at'"),
    ([{"piece": "elf", "at": [12, 30], "to": [1, 1]}], 400, "unknown field 'to'"),
    ([{"piece": "elf rat-1", "at": [12, 30]}], 400, "expected one word"),
    (["elf"], 400, "move 1 is a string"),
    ([], 400, "(empty)"),
    ("elf", 400, "expected a list"),
    ([{"piece": "elf", "at": [12, 30]}] * 61, 400, "more than 60"),
])
def test_confirm_refuses_and_records_nothing(demo: Path, board: Client, moves: Any,
                                             status: int, words: str) -> None:
    before = log_bytes(demo)
    reply = board.post("/api/photo/confirm", {"moves": moves})
    assert reply.status == status and words in reply.error, reply.data
    assert log_bytes(demo) == before


def test_confirm_refuses_a_piece_out_of_play_and_an_old_version(demo: Path,
                                                                board: Client) -> None:
    old = board.ok("GET", "/api/version")["version"]
    board.ok("POST", "/api/damage", {"piece": "rat-1", "amount": 1})  # it dies
    before = log_bytes(demo)
    out = board.post("/api/photo/confirm", {"moves": [{"piece": "elf", "at": [12, 30]},
                                                      {"piece": "rat-1", "at": [20, 50]}]})
    assert out.status == 409 and "rat-1 is out of play" in out.error
    stale = board.post("/api/photo/confirm", {"moves": [{"piece": "elf", "at": [12, 30]}],
                                              "version": old})
    assert stale.status == 409 and "nothing was done" in stale.error
    assert board.post("/api/photo/confirm", {"moved": []}).status == 400
    assert log_bytes(demo) == before


def test_confirm_in_the_ai_turn_moves_as_the_ai_turns_move_does(demo: Path,
                                                               board: Client) -> None:
    board.ok("POST", "/api/done")
    view = board.ok("POST", "/api/photo/confirm", {"moves": [{"piece": "elf",
                                                              "at": [12, 30]}]})
    assert moved(view, "elf") == [12.0, 30.0] and view["phase"] == "ai"


# --- real photos (tests/photo_synth.py) read by the vision ---------------------------------

HEROES_MOVED = {"elf": (12.0, 26.0), "barbarian": (36.0, 40.0), "wizard": (44.0, 14.0)}


def synthetic(folder: Path, data: Path, moved: dict[str, tuple[float, float]], seed: int,
              **options: Any) -> tuple[bytes, bytes]:
    """A synthetic photo of the session's mat side without pieces and one with its pieces
    where the session has them but `moved`: (empty, with pieces) JPEG bytes."""
    from automa.catalog.capture import load_capture_settings
    from automa.catalog.load import load_catalog
    from automa.photo.battle import battle_pieces
    from automa.session.store import Session
    from tests import photo_synth as synth

    catalog = load_catalog(data)
    session = Session.open(folder, catalog)
    mat = session.scenario.playmat
    settings = load_capture_settings(data)
    pieces = [synth.SynthPiece(p.id, p.disc, moved.get(p.id, p.at))
              for p in battle_pieces(session.state.battle.pieces, catalog) if p.at is not None]
    empty = synth.empty(seed, mat.id, mat.width, mat.length, settings,
                        synth.Options(**options))
    full = synth.render(seed, mat.id, mat.width, mat.length, settings, pieces)
    return empty.jpeg, full.jpeg


def test_a_real_photo_is_read_and_never_kept(tmp_path: Path, demo: Path, data: Path,
                                             board: Client) -> None:
    """The empty mat kept (its straightened view, in the data folder), then a photo of the
    heroes' turn: each hero found within 1 cm of where it stands, with where it stood; no file
    written anywhere for the photo itself."""
    empty, photo = synthetic(demo, data, HEROES_MOVED, seed=7)
    kept = board.request("POST", "/api/photo/empty", raw=empty, headers=JPEG)
    assert kept.status == 200, kept.data
    assert Path(kept.json["kept"]).is_file() and Path(kept.json["kept"]).parent == data / "capture"
    assert kept.json["playmat"] == "mausoleum"
    before = files(tmp_path)
    reply = board.request("POST", "/api/photo", raw=photo, headers=JPEG)
    assert reply.status == 200, reply.data
    found = {p["id"]: p for p in reply.json["pieces"]}
    assert reply.json["markers"] == [0, 1, 2, 3]
    start = board.ok("GET", "/api/view")
    for hero, truth in HEROES_MOVED.items():
        assert found[hero]["move"], found[hero]
        assert math.dist(found[hero]["at"], truth) <= 1.0, (hero, found[hero])
        assert found[hero]["from"] == moved(start, hero)
    assert files(tmp_path) == before  # the photo went nowhere, nothing was recorded


@pytest.mark.parametrize("kind", ["not an image", "something else"])
def test_a_photo_that_cannot_be_read_is_one_line_and_nothing_recorded(
        tmp_path: Path, demo: Path, data: Path, board: Client, kind: str) -> None:
    import io

    from PIL import Image

    empty, _ = synthetic(demo, data, {}, seed=11)
    assert board.request("POST", "/api/photo/empty", raw=empty, headers=JPEG).status == 200
    if kind == "not an image":
        photo = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 40
    else:
        out = io.BytesIO()
        Image.new("RGB", (800, 600), (90, 140, 60)).save(out, format="JPEG")
        photo = out.getvalue()
    before = log_bytes(demo)
    reply = board.request("POST", "/api/photo", raw=photo, headers=JPEG)
    assert reply.status == 400, reply.data
    words = {"not an image": "the photo: not an image",
             "something else": "the photo: no marker cards"}[kind]
    assert words in reply.error, reply.error
    assert log_bytes(demo) == before
