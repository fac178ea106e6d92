"""The whole evening on the board (issue 28, points 6 and 7): `automa serve` on a campaign
folder follows it from room to room and takes the campaign's own steps with the terminal's
checks; `automa export` / `automa import` carry a session or a campaign as one checked file;
a question a closed tab left open is kept by the server, to be taken over or dropped."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from automa.catalog.load import load_catalog
from automa.cli.main import cli
from automa.session.store import LOG, Session
from automa.web.api import Board
from tests.conftest import EXAMPLES, new_session
from tests.test_serve_api import Client, serving

DEMO = (EXAMPLES / "demo-battle.toml").read_text()


def run(*args: str, data: Path | None = None) -> Result:
    return CliRunner().invoke(cli, [*(["--data-dir", str(data)] if data else []), *args])


def ok(*args: str, data: Path | None = None) -> Result:
    result = run(*args, data=data)
    assert result.exit_code == 0, result.output + result.stderr
    return result


def refused(words: str, *args: str) -> None:
    """Exit 2 and one line naming what is wrong."""
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and words in lines[0], result.stderr


def new_campaign(tmp_path: Path, data: Path | None, name: str = "evening") -> Path:
    folder = tmp_path / name
    ok("campaign", "new", "monstrosity", "--session", str(folder), "--heroes",
       "elf=8,dwarf=9", "--lord", "hmotha", "--seed", "3", data=data)
    return folder


@contextmanager
def campaign_board(folder: Path, data: Path | None) -> Iterator[Client]:
    """The board on a campaign folder, as `automa serve --session CAMPAIGN` makes it."""
    import threading

    from automa.web.server import make_server

    board = Board(None, data, campaign=folder)
    board.follow()
    server = make_server(board, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        yield Client(server.server_address[1])
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def status(folder: Path, data: Path | None) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(
        ok("campaign", "status", "--session", str(folder), "--json", data=data).stdout)
    return found


# --- export and import ---------------------------------------------------------------------

def test_a_session_exported_and_imported_is_the_same_battle(tmp_path: Path) -> None:
    folder = new_session(tmp_path, DEMO)
    ok("next", "--session", str(folder))
    exported = tmp_path / "battle.automa.json"
    ok("export", "--session", str(folder), "-o", str(exported))
    copy = tmp_path / "copy"
    said = ok("import", str(exported), "--to", str(copy)).stdout
    assert str(copy) in said
    assert (copy / LOG).read_bytes() == (folder / LOG).read_bytes()
    assert ok("status", "--session", str(copy), "--json").stdout == \
        ok("status", "--session", str(folder), "--json").stdout
    # nothing is written over: neither the export nor the folder
    refused("already exists", "export", "--session", str(folder), "-o", str(exported))
    refused("already exists", "import", str(exported), "--to", str(copy))


def test_a_campaign_travels_whole_with_its_rooms(tmp_path: Path, data: Path) -> None:
    folder = new_campaign(tmp_path, data)
    entered = json.loads(ok("campaign", "next", "glaaoth", "--session", str(folder), "--json",
                            data=data).stdout)
    ok("next", "--session", entered["session"], data=data)
    exported = tmp_path / "evening.automa.json"
    ok("export", "--session", str(folder), "-o", str(exported))
    bundle = json.loads(exported.read_text())
    assert bundle["kind"] == "campaign" and bundle["name"] == "evening"
    assert {f["path"] for f in bundle["files"]} >= {
        "campaign.jsonl", "rooms/01-glaaoth/log.jsonl", "rooms/01-glaaoth/scenario.toml"}
    assert not any(f["path"].endswith(".lock") for f in bundle["files"])
    copy = tmp_path / "elsewhere" / "evening"
    ok("import", str(exported), "--to", str(copy), data=data)
    assert status(copy, data) == status(folder, data)
    room = copy / "rooms" / "01-glaaoth"
    assert ok("log", "--session", str(room), "--verify", data=data).exit_code == 0


def _exported(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    folder = new_session(tmp_path, DEMO)
    ok("next", "--session", str(folder))
    path = tmp_path / "x.automa.json"
    ok("export", "--session", str(folder), "-o", str(path))
    return path, json.loads(path.read_text())


def test_a_corrupt_foreign_or_truncated_file_is_one_line_exit_2(tmp_path: Path) -> None:
    path, bundle = _exported(tmp_path)
    cut = tmp_path / "cut.json"
    cut.write_bytes(path.read_bytes()[:len(path.read_bytes()) // 2])
    refused("cut off", "import", str(cut), "--to", str(tmp_path / "a"))
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"hello": "world"}')
    refused("not an automa export", "import", str(foreign), "--to", str(tmp_path / "b"))
    photo = tmp_path / "photo.json"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    refused("not an automa export", "import", str(photo), "--to", str(tmp_path / "c"))
    edited = json.loads(json.dumps(bundle))
    log = next(f for f in edited["files"] if f["path"] == "log.jsonl")
    log["text"] = log["text"].replace('"type"', '"type" ', 1)
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(edited))
    refused("do not match its sha256", "import", str(changed), "--to", str(tmp_path / "d"))
    escaping = json.loads(json.dumps(bundle))
    escaping["files"][0]["path"] = "../outside"
    (tmp_path / "escaping.json").write_text(json.dumps(escaping))
    refused("not a path inside", "import", str(tmp_path / "escaping.json"), "--to",
            str(tmp_path / "e"))
    for name in "abcde":
        assert not (tmp_path / name).exists()
    assert not (tmp_path / "outside").exists()


def test_the_logs_own_chain_is_checked_even_when_the_file_digests_are_made_again(
        tmp_path: Path) -> None:
    """Someone edits a logged input and fixes the export's digests to match: the log's hash
    chain still refuses it, and no folder appears."""
    import hashlib

    from automa.campaign.bundle import _digest

    _path, bundle = _exported(tmp_path)
    log = next(f for f in bundle["files"] if f["path"] == "log.jsonl")
    lines = log["text"].splitlines(keepends=True)
    lines[1] = lines[1].replace('"seed"', '"seed" ', 1) if '"seed"' in lines[1] else \
        lines[1].replace(":", ": ", 1)
    log["text"] = "".join(lines)
    log["sha256"] = hashlib.sha256(log["text"].encode()).hexdigest()
    bundle["sha256"] = _digest({f["path"]: f["sha256"] for f in bundle["files"]})
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(bundle))
    refused("does not check out", "import", str(forged), "--to", str(tmp_path / "f"))
    assert not (tmp_path / "f").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".f.")] == []


def test_export_of_a_folder_that_is_no_session_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    refused("neither a session", "export", "--session", str(tmp_path / "empty"), "-o",
            str(tmp_path / "x.json"))


# --- the campaign on the board -------------------------------------------------------------

def test_the_board_follows_a_campaign_from_room_to_room(tmp_path: Path, data: Path) -> None:
    folder = new_campaign(tmp_path, data)
    with campaign_board(folder, data) as board:
        view = board.ok("GET", "/api/view")
        assert view["battle"] is False and view["phase"] == "campaign"
        assert view["campaign"] == status(folder, data)
        info = board.ok("GET", "/api/campaign")
        assert "glaaoth" in [r["id"] for r in info["open"]] and info["current"] is None
        # a battle endpoint between rooms: one line, 409
        reply = board.post("/api/done")
        assert reply.status == 409 and "between rooms" in reply.error
        entered = board.ok("POST", "/api/campaign/next", {"room": "glaaoth"})
        assert entered["kind"] == "battle" and "Place the monsters" in entered["text"]
        view = board.ok("GET", "/api/view")
        assert view["session"] == "01-glaaoth" and view["phase"] == "heroes"
        # the campaign panel shows the mat's numbers during the battle
        hurt = board.ok("POST", "/api/damage", {"piece": "dwarf", "amount": 1})
        dwarf = next(p for p in hurt["pieces"] if p["id"] == "dwarf")
        assert hurt["campaign"]["heroes"]["dwarf"]["health"] == dwarf["health"] == 8
        assert status(folder, data)["heroes"]["dwarf"]["health"] == 9  # the board: at the end
        # the same checks as the terminal: the room is not cleared
        reply = board.post("/api/campaign/end-room")
        assert reply.status == 409 and "not cleared" in reply.error
        for piece in [p["id"] for p in view["pieces"] if p["side"] == "ai"]:
            board.ok("POST", "/api/damage", {"piece": piece, "amount": 99})
        ended = board.ok("POST", "/api/campaign/end-room", {"spell_to": "dwarf"})
        question = ended["question"]
        assert question["kind"] == "text" and question["topic"] in ("gold", "spell")
        answers: list[str] = []
        while "question" in ended:
            answers.append({"gold": "2", "spell": "no"}[ended["question"]["topic"]])
            ended = board.ok("POST", "/api/campaign/end-room", {"answers": answers})
        assert "Glaaoth is done" in ended["text"]
        assert ended["heroes"]["dwarf"]["health"] == 8
        view = board.ok("GET", "/api/view")
        assert view["battle"] is False
        assert view["campaign"]["heroes"]["dwarf"]["health"] == 8
        # a visit: the Merchant's menu, a purchase, undo, leave
        board.ok("POST", "/api/campaign/next", {"room": "izchak-the-merchant"})
        info = board.ok("GET", "/api/campaign")
        assert info["kind"] == "special" and "map" in [o["id"] for o in info["menu"]["offers"]]
        bought = board.ok("POST", "/api/campaign/visit",
                          {"offer": "map", "for": "elf", "pay": "elf"})
        assert bought["heroes"]["elf"]["gold"] == status(folder, data)["heroes"]["elf"]["gold"]
        assert bought["heroes"]["elf"]["gold"] == 7 - 2  # 5 + 2 reward, the map costs 2
        reply = board.post("/api/campaign/visit", {"offer": "map", "for": "nobody",
                                                   "pay": "elf"})
        assert reply.status in (400, 409) and reply.error.startswith("for: ") and \
            "nobody" in reply.error, reply.error
        undone = board.ok("POST", "/api/campaign/undo")
        assert undone["heroes"]["elf"]["gold"] == 7
        board.ok("POST", "/api/campaign/end-room")
        # a step the terminal took shows here at once: the next room entered in a terminal
        ok("campaign", "next", "ehanostha", "--session", str(folder), "--monsters",
           "sewer-rat=1", data=data)
        assert board.ok("GET", "/api/view")["session"].endswith("-ehanostha")


def test_a_campaign_step_refuses_bad_input_in_one_line(tmp_path: Path, data: Path) -> None:
    folder = new_campaign(tmp_path, data)
    with campaign_board(folder, data) as board:
        for path, body, status_, words in [
                ("/api/campaign/next", {"room": "atlantis"}, 409, "not on the"),
                ("/api/campaign/next", {"room": "glaaoth", "dice": "loaded"}, 400, "dice"),
                ("/api/campaign/next", {"room": "glaaoth", "extra": 1}, 400, "unknown field"),
                ("/api/campaign/next", {"room": "glaaoth", "geometry": "guessed"}, 400,
                 "geometry: expected tracked, asked or hybrid"),
                ("/api/campaign/end-room", {}, 409, "no room is being played"),
                ("/api/campaign/visit", {"offer": "map"}, 409, "no special room"),
                ("/api/campaign/visit", {"offer": "map", "price": 10**30}, 400, "price")]:
            reply = board.post(path, body)
            assert reply.status == status_ and words in reply.error, (path, reply.error)
        # what the data lacks is asked; a bad answer is one line naming it, nothing logged
        before = (folder / "campaign.jsonl").read_bytes()
        (data / "rooms.toml").write_text("")  # Glaaoth's card no longer known
        asked = board.ok("POST", "/api/campaign/next", {"room": "glaaoth"})
        assert asked["question"]["topic"] == "monsters"
        reply = board.post("/api/campaign/next", {"room": "glaaoth", "answers": ["dragons=9"]})
        assert reply.status == 400 and "dragons" in reply.error
        assert (folder / "campaign.jsonl").read_bytes() == before


def test_a_battle_board_has_no_campaign_steps(tmp_path: Path) -> None:
    with serving(new_session(tmp_path, DEMO)) as board:
        assert board.ok("GET", "/api/campaign") is None
        reply = board.post("/api/campaign/undo")
        assert reply.status == 404 and "not a campaign" in reply.error


def test_serve_on_a_campaign_folder_prints_its_address(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.conftest import first_line, running

    folder = new_campaign(tmp_path, None)
    with running([sys.executable, "-m", "automa", "serve", "--session", str(folder),
                  "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as server:
        assert first_line(server).startswith("http://127.0.0.1:")


# --- export and import on the board --------------------------------------------------------

def test_the_board_exports_and_imports(tmp_path: Path) -> None:
    folder = new_session(tmp_path, DEMO)
    with serving(folder) as board:
        reply = board.get("/api/export")
        assert reply.status == 200
        assert reply.headers["content-disposition"] == 'attachment; filename="s.automa.json"'
        bundle = json.loads(reply.data)
        made = board.ok("POST", "/api/import", {"export": bundle})
        assert made["folder"] == str((tmp_path / "s-2").resolve())
        assert (tmp_path / "s-2" / LOG).read_bytes() == (folder / LOG).read_bytes()
        again = board.ok("POST", "/api/import", {"export": bundle})
        assert again["folder"].endswith("s-3")  # never over another folder
        bundle["files"][0]["text"] += " "
        reply = board.post("/api/import", {"export": bundle})
        assert reply.status == 400 and "sha256" in reply.error
        reply = board.post("/api/import", {"export": {"format": "zip"}})
        assert reply.status == 400 and "not an automa export" in reply.error


# --- a question left open ------------------------------------------------------------------

def _answer(question: dict[str, Any]) -> str:
    options = question["options"]
    return "yes" if question["kind"] == "yes_no" else options[0]


def test_an_open_questions_answers_outlive_the_tab_and_the_server(tmp_path: Path) -> None:
    folder = new_session(tmp_path, DEMO, "--dice", "physical")
    with serving(folder) as board:
        board.ok("POST", "/api/done")
        assert board.ok("GET", "/api/open-question") is None
        asked, answers = board.ok("POST", "/api/next", {}), []
        for _ in range(30):  # on to a question asked after an answer was given
            if "question" in asked and answers:
                break
            answers = [*answers, _answer(asked["question"])] if "question" in asked else []
            asked = board.ok("POST", "/api/next", {"answers": answers} if answers else {})
        assert "question" in asked and answers
        kept = board.ok("GET", "/api/open-question")
        assert kept == {"answers": answers, "question": asked["question"]}
        assert board.ok("GET", "/api/version")["asking"] == asked["question"]["prompt"]
    with serving(folder) as board:  # the server restarted: a reloaded tab takes over
        kept = board.ok("GET", "/api/open-question")
        assert kept["answers"] == answers
        again = board.ok("POST", "/api/next", {"answers": kept["answers"]})
        assert again["question"] == kept["question"]
        board.ok("POST", "/api/open-question/drop")
        assert board.ok("GET", "/api/open-question") is None
        assert board.ok("GET", "/api/version")["asking"] is None
        # answered to its end, the activation is logged and nothing stays open
        given: list[str] = []
        reply = board.ok("POST", "/api/next", {})
        while isinstance(reply, dict) and "question" in reply:
            given.append(_answer(reply["question"]))
            reply = board.ok("POST", "/api/next", {"answers": given})
        assert board.ok("GET", "/api/open-question") is None
        assert not (folder / "open-question.json").exists()
    assert Session.open(folder, load_catalog(None)).state.activations


@pytest.mark.parametrize("text", ["not json", '{"version": 3}', "[]",
                                  '{"version": "v", "answers": [1], "question": {}}'])
def test_a_damaged_open_question_file_is_no_question(tmp_path: Path, text: str) -> None:
    folder = new_session(tmp_path, DEMO, "--dice", "physical")
    (folder / "open-question.json").write_text(text)
    with serving(folder) as board:
        assert board.ok("GET", "/api/open-question") is None


def test_a_room_set_up_with_physical_dice_is_asked_on_the_board(tmp_path: Path,
                                                                   data: Path) -> None:
    """The Rune Die and the tiles drawn at the table, one question at a time; nothing is
    logged until the last answer, and the battle then asks its dice too."""
    folder = new_campaign(tmp_path, data)
    before = (folder / "campaign.jsonl").read_bytes()
    with campaign_board(folder, data) as board:
        body: dict[str, Any] = {"room": "glaaoth", "dice": "physical"}
        # an answer the table could not give: one line naming it, nothing logged
        refused_ = board.post("/api/campaign/next", {**body, "answers": ["13"]})
        assert refused_.status == 400 and "'13'" in refused_.error
        reply = board.ok("POST", "/api/campaign/next", body)
        kinds = []
        for _ in range(60):
            if "question" not in reply:
                break
            question = reply["question"]
            kinds.append(question["kind"])
            assert (folder / "campaign.jsonl").read_bytes() == before
            body["answers"] = [*reply["answers"], question["options"][0]]
            reply = board.ok("POST", "/api/campaign/next", body)
        assert kinds and kinds[0] == "number"  # the Rune Die first
        assert reply["kind"] == "battle" and "Place the monsters" in reply["text"]
        assert board.ok("GET", "/api/view")["dice"] == "physical"
        # the terminal's check: a room is being played
        reply = board.post("/api/campaign/next", {"room": "ehanostha"})
        assert reply.status == 409 and "still in" in reply.error


def test_a_room_entered_on_the_board_in_asked_geometry(tmp_path: Path, data: Path) -> None:
    """As `campaign next --geometry asked`: the room's battle asks the table where pieces
    stand, and its view carries no coordinate nobody measured."""
    folder = new_campaign(tmp_path, data)
    with campaign_board(folder, data) as board:
        board.ok("POST", "/api/campaign/next", {"room": "glaaoth", "geometry": "asked"})
        view = board.ok("GET", "/api/view")
        assert view["session"] == "01-glaaoth" and view["geometry"] == "asked"
        board.ok("POST", "/api/done")
        reply = board.ok("POST", "/api/next")
        assert "question" in reply  # the table measures: the first geometric question
