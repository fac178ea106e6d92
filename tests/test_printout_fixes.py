"""The printout at the table (issue 28 §14): a close call's `!` line says what to type if the
real ruler or template says otherwise, and that command is one `automa play` (and the board's
command line) accepts on the battle as it stands; a tracked move gives coordinates only beside
a rune or an obstacle named, where a player with a real mat can use them."""

from __future__ import annotations

import re

import pytest

from automa.catalog.load import Catalog
from automa.render.session_out import latest_activation_text
from automa.render.text import LANDMARK
from automa.scenario.load import parse_scenario
from automa.session.commands import EndHeroesTurn, Move, Undo
from automa.session.game import Game
from automa.session.words import parse_line
from tests.regenerate_playthroughs import PLAYTHROUGHS
from tests.test_geometry_modes import DUEL

BIG_CLOSE_CALLS = "los_blocked = true\nclose_call = 10.0"  # every margin under 10 cm is flagged


def _played(catalog: Catalog, rat_at: str, seed: int) -> tuple[Game, str]:
    """The duel's rat acts once, from `rat_at`, every margin under 10 cm a close call."""
    text = DUEL.replace("at = [30.0, 34.0]", f"at = {rat_at}").replace("los_blocked = true",
                                                                      BIG_CLOSE_CALLS)
    game = Game(parse_scenario(text, "duel.toml", catalog), catalog, seed=seed)
    game.do(EndHeroesTurn())
    game.next_activation()
    return game, latest_activation_text(game.state, coordinates=True)


def _close_calls(printout: str) -> list[str]:
    """The `!` lines, each joined whole again."""
    calls: list[str] = []
    for line in printout.splitlines():
        if line.startswith("   ! "):
            calls.append(line[5:])
        elif calls and line.startswith("     ") and not line.startswith("      "):
            calls[-1] += " " + line.strip()
    return calls


@pytest.mark.parametrize(("rat_at", "seed", "fix"), [
    ("[45.0, 45.0]", 1, "if your Ruler 3 reaches elf, type `move rat-1 touching elf`"),
    ("[42.0, 42.0]", 5, "if your Ruler 3 leaves a gap, put it there and type `move rat-1 1 cm "
                        "east of elf` with the gap you measure"),
])
def test_a_close_call_move_says_the_move_to_type(catalog: Catalog, rat_at: str, seed: int,
                                                 fix: str) -> None:
    game, printout = _played(catalog, rat_at, seed)
    move = next(c for c in _close_calls(printout) if "rush: within" in c)
    assert move.endswith(fix), printout
    typed = re.findall(r"`([^`]+)`", fix)[0]
    command = parse_line(typed, game.state.phase)
    assert isinstance(command, Move)
    assert game.check(command) is None  # the battle takes it as it stands
    done = game.do(command)
    assert done.command.to is not None


def test_a_close_call_decision_says_undo_and_undo_takes_the_activation_back(
        catalog: Catalog) -> None:
    game, printout = _played(catalog, "[30.0, 34.0]", 1)
    calls = _close_calls(printout)
    assert len(calls) == 2  # the line of sight and the Attack template
    for call, tool in zip(calls, ("ruler edge", "template"), strict=True):
        assert call.endswith(f"if the real {tool} says otherwise: `undo`, move the pieces "
                             f"where they really stand, then Enter to play it again")
        assert re.findall(r"`([^`]+)`", call) == ["undo"]
    assert parse_line("undo", game.state.phase) == Undo()
    undone = game.do(Undo()).taken
    assert undone is not None and undone.TYPE == "activation"


def test_automa_turn_prints_no_session_command(catalog: Catalog) -> None:
    """`automa turn` has no session to type into: its close calls are as before."""
    from automa.render.text import activation_lines, labelled

    game, _ = _played(catalog, "[30.0, 34.0]", 1)
    _, activation = game.state.activations[-1]
    pieces, names = labelled(game.state.scenario.pieces, game.state.battle.pieces)
    lines = activation_lines(1, activation, names, pieces, True)
    assert any(line.startswith("   ! close call") for line in lines)
    assert not any("`" in line for line in lines)


def _logical_lines(printout: str) -> list[str]:
    """The printout's lines, each wrapped step joined whole again."""
    lines: list[str] = []
    for line in printout.splitlines():
        if lines and line.startswith("      "):
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return lines


def test_coordinates_only_beside_a_rune_or_an_obstacle() -> None:
    """Every golden playthrough and recorded battle: a step with coordinates names a rune or
    an obstacle; moves onto a rune still give them."""
    with_coordinates = 0
    for golden in sorted(PLAYTHROUGHS.rglob("*.out")):
        for line in _logical_lines(golden.read_text()):
            if re.match(r"^   [a-z]\) ", line) and "→ (" in line:
                with_coordinates += 1
                assert LANDMARK.search(line.split("→ (")[0]), (golden.name, line)
    assert with_coordinates > 0
