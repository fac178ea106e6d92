"""One way to ask a number at the table (`PromptAsker.number`), used by `automa play` for the
Poison card's value and the Portal Trap's D12; one way to print a sighting (`sight_line`), used
by `automa los` and play's `los`."""

from __future__ import annotations

from pathlib import Path

from automa.geometry.sight import Sighting
from automa.render.sight_out import sight_line
from tests.conftest import logged_inputs, new_session, play_lines
from tests.test_hero_hits import DUEL


def test_a_bad_poison_card_value_is_asked_again(tmp_path: Path) -> None:
    folder = new_session(tmp_path, DUEL)
    out = play_lines(folder, ["hit rat-1 melee+poison by elf", "10", "²", "3", "quit"])
    assert "the Poison card you drew shows [1-9]: 10" in out
    assert "'10' is not a Poison card's value: a whole number from 1 to 9 in plain digits; " \
           "try again" in out
    assert "'²' is not a Poison card's value" in out
    assert logged_inputs(folder)[0]["poison_card"] == 3


def test_the_input_ending_at_the_question_stops_play_with_nothing_logged(
        tmp_path: Path) -> None:
    folder = new_session(tmp_path, DUEL, "--dice", "physical")
    out = play_lines(folder, ["hit mino portal-trap"])
    assert "D12 rolled for the Portal Trap on mino [1-12]: " in out
    assert "Stopped. Everything is saved" in out and logged_inputs(folder) == []


def test_a_sighting_as_play_prints_it() -> None:
    seen = Sighting("elf", "rat-1", True, 11.44, 2.2)
    hidden = Sighting("elf", "skeleton-1", False, 18.5, 2.5, ("C",))
    assert sight_line(seen) == "  sees   rat-1 11.4 cm"
    assert sight_line(hidden) == "  hidden skeleton-1 18.5 cm"


def test_a_sighting_as_automa_los_prints_it() -> None:
    hidden = Sighting("elf", "skeleton-1", False, 18.5, 2.5, ("C", "D"))
    assert sight_line(hidden, 0.5) == \
        "  hidden skeleton-1         18.5 cm behind obstacle C, D (margin 2.5 cm)"
    close = Sighting("elf", "centaur-1", True, 29.3, 0.4)
    assert sight_line(close, 0.5) == ("  sees   centaur-1          29.3 cm (margin 0.4 cm) "
                                      "close call: check with a ruler edge")
    open_mat = Sighting("elf", "rat-1", True, 5.0, float("inf"))
    assert sight_line(open_mat, 0.5) == "  sees   rat-1" + " " * 15 + "5.0 cm"
