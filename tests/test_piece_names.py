"""Piece names as the players type them (issue 28 §13): a unique short form names its piece
(`rat-1` for `sewer-rat-1`, `barb` for `barbarian`), an ambiguous one is refused naming the
candidates, a typo gets the nearest id; every command that takes a piece reads them in the core,
so the board's command line and `automa play` take the same words, and the log keeps full ids.
`move X touching Y` with no side takes the side of Y nearest X's spot now."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from automa.catalog.load import Catalog
from automa.errors import InputError
from automa.geometry.table import build_table
from automa.model.pieces import Condition
from automa.scenario.load import load_scenario, parse_scenario
from automa.session.commands import Damage, Hit, Move, SetCondition
from automa.session.game import Game
from automa.session.names import AmbiguousPiece, UnknownPiece, piece_named
from automa.session.positions import parse_position, spelled_out
from automa.session.state import Phase
from automa.session.words import parse_line
from tests.conftest import EXAMPLES, OPEN_MAT, logged_inputs, new_session, play_lines

IDS = ("barbarian", "elf", "sewer-rat-1", "sewer-rat-2", "giant-rat-1", "flame-wraith-1")


@pytest.mark.parametrize(("typed", "meant"), [
    ("sewer-rat-1", "sewer-rat-1"),  # in full
    ("wraith-1", "flame-wraith-1"),  # its last words
    ("barb", "barbarian"),  # its beginning
    ("Elf", "elf"),  # case does not matter
    ("giant", "giant-rat-1"),
])
def test_a_unique_short_form_names_its_piece(typed: str, meant: str) -> None:
    assert piece_named(typed, IDS) == meant


@pytest.mark.parametrize(("typed", "candidates"), [
    ("rat-1", "giant-rat-1, sewer-rat-1"),
    ("sewer-rat", "sewer-rat-1, sewer-rat-2"),
])
def test_an_ambiguous_short_form_is_refused_naming_the_candidates(typed: str,
                                                                 candidates: str) -> None:
    with pytest.raises(AmbiguousPiece) as refused:
        piece_named(typed, IDS)
    assert str(refused.value) == f"{typed!r} could be {candidates}: type more of the name"


@pytest.mark.parametrize(("typed", "hint"), [
    ("barbarain", "; did you mean 'barbarian'?"),
    ("sewer-rta-2", "; did you mean 'sewer-rat-2'?"),
    ("wriath-1", "; did you mean 'flame-wraith-1'?"),  # a typo in a short form
    ("1", ""),  # a bare number is no short form, and nothing is near it
    ("zzz", ""),
])
def test_a_typo_is_refused_with_the_nearest_name(typed: str, hint: str) -> None:
    with pytest.raises(UnknownPiece) as refused:
        piece_named(typed, IDS)
    assert str(refused.value) == f"no piece {typed!r}{hint}"


LINE_UP = """format = 1
[battle]
playmat = "inline"
[[piece]]
id = "elf"
side = "heroes"
at = [30.0, 20.0]
health = 9
[[piece]]
id = "sewer-rat-1"
side = "ai"
monster = "sewer-rat"
at = [20.0, 40.0]
[[piece]]
id = "sewer-rat-2"
side = "ai"
monster = "sewer-rat"
at = [45.0, 30.0]
[[piece]]
id = "giant-rat-1"
side = "ai"
monster = "sewer-rat"
at = [45.0, 60.0]
[chance]
seed = 1
""" + OPEN_MAT


@pytest.fixture
def game(catalog: Catalog) -> Game:
    return Game(parse_scenario(LINE_UP, "line-up.toml", catalog), catalog, seed=1)


@pytest.mark.parametrize(("line", "logged"), [
    ("damage sewer-rat-2 1 by el", Damage("sewer-rat-2", 1, "elf")),
    ("damage rat-2 1", Damage("sewer-rat-2", 1)),
    ("stun giant", SetCondition("giant-rat-1", Condition.STUNNED, True)),
    ("move rat-2 10,10", Move("sewer-rat-2", (10.0, 10.0))),
])
def test_every_command_taking_a_piece_logs_its_full_id(game: Game, line: str,
                                                       logged: object) -> None:
    command = parse_line(line, Phase.HEROES)
    assert not isinstance(command, tuple) and command is not None
    done = game.do(command)  # type: ignore[arg-type]
    assert done.command == logged
    assert game.raw[-1] == logged


def test_a_hit_names_its_targets_and_hero_by_short_forms(game: Game) -> None:
    done = game.do(Hit(("rat-2", "sewer-rat-1"), "melee", by="el"))
    assert isinstance(done.command, Hit)
    assert done.command.targets == ("sewer-rat-2", "sewer-rat-1")
    assert done.command.by == "elf"


@pytest.mark.parametrize(("line", "problem"), [
    ("damage rat-1 1", "'rat-1' could be giant-rat-1, sewer-rat-1: type more of the name"),
    ("heal elf-1 1", "no piece 'elf-1' in play (pieces: elf, sewer-rat-1, sewer-rat-2, "
                     "giant-rat-1); did you mean 'elf'?"),
    ("move sewer-rta-1 10,10", "did you mean 'sewer-rat-1'?"),
    ("move elf touching rta-2", "no piece 'rta-2' on the mat; did you mean 'sewer-rat-2'?"),
])
def test_a_bad_name_is_refused_in_one_line_and_nothing_is_logged(game: Game, line: str,
                                                                 problem: str) -> None:
    command = parse_line(line, Phase.HEROES)
    with pytest.raises(InputError, match=problem.replace("(", r"\(").replace(")", r"\)")
                       .replace("?", r"\?")):
        game.do(command)  # type: ignore[arg-type]
    assert game.raw == []


def test_the_boards_command_line_takes_short_forms(tmp_path: Path) -> None:
    """/api/command reads a line as `automa play` does, through the same core."""
    from tests.test_serve_api import DEMO, serving

    folder = new_session(tmp_path, DEMO)
    with serving(folder) as board:
        view = board.ok("POST", "/api/command", {"line": "gold barb +3"})
        assert "barbarian: health" in view["output"]
        refused = board.post("/api/command", {"line": "damage rat 1"})
        assert refused.status in (400, 409)
        assert "'rat' could be rat-1, rat-2: type more of the name" in refused.error
        refused = board.post("/api/command", {"line": "heal wizrd 1"})
        assert "did you mean 'wizard'?" in refused.error
    assert [e["piece"] for e in logged_inputs(folder)] == ["barbarian"]


@pytest.mark.parametrize(("mover_at", "side"), [
    ((20.0, 30.0), "south"), ((20.0, 50.0), "north"), ((8.0, 40.0), "west"),
    ((33.0, 41.0), "east"),
])
def test_touching_with_no_side_takes_the_side_nearest_the_mover(
        game: Game, mover_at: tuple[float, float], side: str) -> None:
    """The elf put touching the rat: the side of the rat nearest where the elf stands now."""
    battle = game.state.battle
    elf = battle.piece("elf").moved(mover_at)
    others = [p for p in battle.pieces if p.id != "elf"]
    said = spelled_out("touching rat-1 on", game.geometry, others, elf)
    assert said == "touching rat-1 on"  # not the touching grammar: left as typed
    said = spelled_out("touching sewer-rat-1", game.geometry, others, elf)
    assert said == f"touching sewer-rat-1 on its {side} side"
    at = parse_position("touching sewer-rat-1", game.geometry, others, elf)
    assert at == parse_position(said, game.geometry, others, elf)
    rat = battle.piece("sewer-rat-1")
    assert math.dist(at, rat.at) == pytest.approx(rat.radius + elf.radius, abs=1e-3)


def test_touching_skips_a_taken_side(game: Game) -> None:
    """West of sewer-rat-2 is nearest the elf, but a rat stands there: the next side is
    taken."""
    battle = game.state.battle
    elf = battle.piece("elf").moved((38.0, 30.0))
    blocker = battle.piece("giant-rat-1").moved((45.0 - 2.5, 30.0))
    others = [blocker if p.id == blocker.id else p for p in battle.pieces if p.id != "elf"]
    said = spelled_out("touching rat-2", game.geometry, others, elf)
    assert said != "touching sewer-rat-2 on its west side"
    assert said.startswith("touching sewer-rat-2 on its ")


@pytest.mark.parametrize(("mover_at", "side"), [
    ((18.0, 20.0), "south"), ((10.0, 30.0), "west"), ((18.0, 38.0), "north"),
    ((24.0, 30.0), "east"),
])
def test_touching_an_obstacle_with_no_side(catalog: Catalog, mover_at: tuple[float, float],
                                           side: str) -> None:
    """Obstacle A of the mausoleum spans x 16.25-19.75, y 27.25-32.75."""
    scenario = load_scenario(EXAMPLES / "demo-battle.toml", catalog)
    table = build_table(scenario.playmat)
    elf = next(p for p in scenario.pieces if p.id == "elf").moved(mover_at)
    others = [p for p in scenario.pieces if p.id != "elf"]
    assert spelled_out("touching obstacle a", table, others, elf) == \
        f"touching obstacle A on its {side} side"


def test_the_move_is_logged_with_the_side_taken(game: Game) -> None:
    done = game.do(Move("elf", words="touching rat-2"))
    assert isinstance(done.command, Move)
    assert done.command.words == "touching sewer-rat-2 on its west side"
    assert done.command.to is not None


def test_play_says_where_a_move_in_words_put_the_piece(tmp_path: Path) -> None:
    """As the players said it, with the side `touching` took; coordinates only beside a rune
    (a real mat has no grid) or when they were typed."""
    folder = new_session(tmp_path, LINE_UP)
    out = play_lines(folder, ["move elf touching rat-2", "move elf rune 4", "move elf 30,20",
                              "quit"])
    assert "  elf is touching sewer-rat-2 on its west side\n" in out
    assert "  elf is on rune 4 → (10.0, 50.0)\n" in out
    assert "  elf is at (30.0, 20.0)\n" in out


def test_asked_geometry_guesses_no_side(catalog: Catalog) -> None:
    """With asked geometry nobody measured where the pieces stand: `touching X` must name its
    side (a side the model would pick rests on guessed spots); with one named it is taken."""
    from automa.engine.judge import GeometryMode

    game = Game(parse_scenario(LINE_UP, "line-up.toml", catalog), catalog, seed=1,
                geometry_mode=GeometryMode.ASKED)
    with pytest.raises(InputError, match="name the side"):
        game.do(Move("elf", words="touching rat-2"))
    done = game.do(Move("elf", words="touching rat-2 on its south side"))
    assert isinstance(done.command, Move)
    assert done.command.words == "touching sewer-rat-2 on its south side"


def test_a_question_takes_the_same_short_forms() -> None:
    """`which acts next? (sewer-rat-1, sewer-rat-2)`: `rat-2` answers it, as in a command; a
    form that fits both, or a bare number that is no menu's, answers nothing."""
    from automa.session.answers import resolve

    rats = ["sewer-rat-1", "sewer-rat-2"]
    assert resolve("rat-2", rats) == "sewer-rat-2"
    assert resolve("RAT-1", rats) == "sewer-rat-1"
    assert resolve("rat", rats) is None and resolve("sewer", rats) is None
    assert resolve("rat-2", ["sewer-rat-2", "giant-rat-2"]) is None
