"""The live board's data for its buttons (issue 28, points 5 and 8): the hits a hero may report
(`hits` in /api/view, POST /api/hit-questions), the odds of each token bag's next draw (`odds`)
and the last activation's sight with the obstacles that blocked it (`sight`, `g.blocker` in
`last_overlay`). A real server in a thread, as tests/test_serve_api.py runs it."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import shapely

from automa.model.components import DamageToken
from automa.model.scenario import Bag
from automa.rules.tokens import next_draw
from tests import test_serve_api as served
from tests.conftest import new_session
from tests.test_serve_api import DEMO, Client, log_bytes, serving

demo = served.demo  # the fixtures: the demo battle's session and a board serving it
board = served.board


def token(label: str) -> DamageToken:
    return DamageToken.parse(label)


# --- the odds of a draw ---------------------------------------------------------------------

def test_each_token_in_the_bag_is_as_likely_as_any_other() -> None:
    bag = Bag(tuple(map(token, ["0", "0", "0", "1", "1", "1R", "2", "1", "1", "1"])),
              tuple(map(token, ["3"])))
    draw = next_draw(bag)
    assert (draw.left, draw.refilled) == (10, False)
    chances = {f.face: (f.count, f.of, f.percent) for f in draw.faces}
    assert chances == {"0": (3, 10, pytest.approx(30.0)), "1": (5, 10, pytest.approx(50.0)),
                       "1R": (1, 10, pytest.approx(10.0)), "2": (1, 10, pytest.approx(10.0))}
    assert "3" not in chances  # face up on the discard pile: it cannot come out


def test_an_empty_bag_draws_from_its_discard_pile_put_back() -> None:
    draw = next_draw(Bag((), tuple(map(token, ["2", "0", "2R"]))))
    assert (draw.left, draw.refilled) == (0, True)
    assert [(f.face, f.count, f.of) for f in draw.faces] == [("0", 1, 3), ("2", 1, 3),
                                                             ("2R", 1, 3)]
    nothing = next_draw(Bag(()))
    assert (nothing.left, nothing.refilled, nothing.faces) == (0, False, ())


def odds_agree_with_bags(view: dict[str, Any]) -> None:
    """Each level's odds count the tokens the view's bags list, and only those."""
    assert set(view["odds"]) == set(view["bags"])
    for level, odds in view["odds"].items():
        left = Counter(view["bags"][level]["left"])
        assert odds["left"] == sum(left.values()) and not odds["refilled"]
        assert {f["face"]: f["count"] for f in odds["faces"]} == dict(left)
        for face in odds["faces"]:
            assert face["of"] == odds["left"]
            assert face["percent"] == pytest.approx(100 * face["count"] / face["of"], abs=0.05)


def test_the_view_gives_each_bags_odds_as_the_state_has_them(demo: Path, board: Client) -> None:
    view = board.ok("GET", "/api/view")
    odds_agree_with_bags(view)
    board.ok("POST", "/api/done")
    while sum(len(b["discard"]) for b in view["bags"].values()) == 0:  # until a token is spent
        assert board.ok("POST", "/api/next") is not None
        view = board.ok("GET", "/api/view")
    odds_agree_with_bags(view)
    state = board.ok("GET", "/api/state")
    assert state == view["state"]


# --- the hit's buttons ----------------------------------------------------------------------

def test_the_hit_offers_the_pieces_it_may_strike_and_the_heroes(demo: Path,
                                                                board: Client) -> None:
    view = board.ok("GET", "/api/view")
    hits = view["hits"]
    assert hits["targets"] == [p["id"] for p in view["pieces"] if p["side"] != "heroes"]
    assert hits["by"] == [p["id"] for p in view["pieces"] if p["side"] == "heroes"]
    assert len({s["name"] for s in hits["shots"]}) == len(hits["shots"])
    assert {s["kind"] for s in hits["shots"]} <= {"character", "ranged", "other"}
    # a piece on the Teleported! card is off the mat: no hit can strike it
    view = board.ok("POST", "/api/condition", {"piece": "rat-1", "condition": "teleported",
                                               "on": True})
    assert "rat-1" not in view["hits"]["targets"] and "rat-2" in view["hits"]["targets"]
    refused = board.post("/api/hit", {"targets": ["rat-1"], "shot": "melee"})
    assert refused.status == 400 and "Teleported" in refused.error


def test_every_shot_and_modifier_offered_is_one_hit_resolves(demo: Path, board: Client) -> None:
    """Each shot the view offers, alone and with each modifier, asked for its numbers and sent
    with them, is logged as the page would send it (and undone again)."""
    hits = board.ok("GET", "/api/view")["hits"]
    target = hits["targets"][0]
    shots = [s["name"] for s in hits["shots"]] + [f"melee+{m}" for m in hits["modifiers"]]
    for shot in shots:
        body = {"targets": [target], "shot": shot, "by": hits["by"][0]}
        questions = board.ok("POST", "/api/hit-questions", body)["questions"]
        view = board.ok("POST", "/api/hit", {**body, "dice": [q["low"] for q in questions]})
        assert view["log"][-1]["text"].startswith(f"hit {target} {shot}"), shot
        board.ok("POST", "/api/undo")
    for word in ("rush", "summon", "melee+transform"):  # shots and modifiers hit never resolves
        assert word.split("+")[-1] not in {s["name"] for s in hits["shots"]} | set(
            hits["modifiers"])
        before = log_bytes(demo)
        assert board.post("/api/hit", {"targets": [target], "shot": word}).status == 400
        assert log_bytes(demo) == before


def test_hit_questions_are_what_hit_asks(demo: Path, board: Client) -> None:
    before = log_bytes(demo)
    plain = board.ok("POST", "/api/hit-questions", {"targets": ["rat-1"], "shot": "melee"})
    assert plain == {"questions": []}
    poison = board.ok("POST", "/api/hit-questions", {"targets": ["rat-1", "rat-2"],
                                                     "shot": "fireball+poison", "by": "elf"})
    [card] = poison["questions"]
    assert (card["low"], card["high"]) == (1, 9)
    assert card["options"] == [str(n) for n in range(1, 10)]
    # virtual dice roll the Portal Trap's D12: nothing to ask
    portal = board.ok("POST", "/api/hit-questions", {"targets": ["rat-1"],
                                                     "shot": "portal-trap"})
    assert portal == {"questions": []}
    assert log_bytes(demo) == before  # asking logs nothing
    for body, status, words in [
        ({"targets": ["rat-1"], "shot": "melee", "dice": [1]}, 400, "unknown field 'dice'"),
        ({"targets": ["goblin"], "shot": "melee"}, 404, "no piece 'goblin'"),
        ({"targets": [], "shot": "melee"}, 400, "targets: expected a list"),
        ({"shot": "melee"}, 400, "missing field 'targets'"),
    ]:
        reply = board.post("/api/hit-questions", body)
        assert reply.status == status and words in reply.error, reply.data
    assert board.get("/api/hit-questions").status == 405


def test_physical_dice_ask_a_d12_for_each_piece_the_portal_trap_struck(tmp_path: Path) -> None:
    folder = new_session(tmp_path, DEMO, "--dice", "physical")
    with serving(folder) as board:
        body = {"targets": ["rat-1", "rat-2"], "shot": "portal-trap+poison", "by": "wizard"}
        questions = board.ok("POST", "/api/hit-questions", body)["questions"]
        assert [(q["low"], q["high"]) for q in questions] == [(1, 9), (1, 12), (1, 12)]
        assert "rat-1" in questions[1]["prompt"] and "rat-2" in questions[2]["prompt"]
        view = board.ok("POST", "/api/hit", {**body, "dice": [1, 4, 12]})
        logged = json.loads(log_bytes(folder).decode().splitlines()[-1])
        assert (logged["poison_card"], logged["portal"]) == (1, [4, 12])
        assert view["log"][-1]["text"].startswith("hit rat-1, rat-2 portal-trap+poison")


# --- the sight of the last activation ---------------------------------------------------------

def test_the_obstacles_that_blocked_the_last_sight_are_outlined(demo: Path,
                                                                board: Client) -> None:
    """Each blocked line of the last activation names the obstacles on it, and each of those
    is drawn as a `g.blocker` saying whom it hides; the named obstacle does cross the line
    between the two centres (the demo battle's centre-line test)."""
    board.ok("POST", "/api/done")
    hidden: list[dict[str, Any]] = []
    while not hidden:
        assert board.ok("POST", "/api/next") is not None, "no activation had a blocked sight"
        view = board.ok("GET", "/api/view")
        hidden = [s for s in view["sight"] if not s["visible"]]
    assert {s["target"] for s in view["sight"]} == set(view["last"]["visible"]) | set(
        view["last"]["hidden"])
    overlay = view["last_overlay"]
    obstacles = {o["id"]: o for o in view["playmat"]["obstacles"]}
    # where the actor and each piece stood when it looked: the overlay's sight lines, in cm
    frame = view["mat_frame"]
    for sighting in hidden:
        assert sighting["blockers"], sighting
        line = re.search(rf'<line class="sight" data-target="{sighting["target"]}" '
                         rf'data-visible="false" data-blockers="([^"]*)" x1="([\d.]+)" '
                         rf'y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"', overlay)
        assert line is not None, sighting
        assert line[1].split() == sighting["blockers"]
        ends = [((float(line[i]) - frame["margin"]) / frame["scale"],
                 frame["length"] - (float(line[i + 1]) - frame["margin"]) / frame["scale"])
                for i in (2, 4)]
        for obstacle_id in sighting["blockers"]:
            drawn = re.search(rf'<g class="blocker" data-obstacle="{obstacle_id}" '
                              rf'data-hides="([^"]*)"', overlay)
            assert drawn is not None and sighting["target"] in drawn[1].split()
            shape = obstacles[obstacle_id]
            body = shapely.Point(shape["circle"][:2]).buffer(shape["circle"][2]) \
                if "circle" in shape else shapely.Polygon(shape["polygon"])
            assert shapely.LineString(ends).intersects(body)
    for sighting in view["sight"]:
        if sighting["visible"]:
            assert sighting["blockers"] == []
