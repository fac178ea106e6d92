"""Physical entry: a damage token is typed as the face printed on it (never a place in a list),
a face not in the bag is refused saying where it is, and anything that is not a plain ASCII
number where one is expected is refused and asked again, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given
from hypothesis import strategies as st

from automa.catalog.cards import parse_answer
from automa.catalog.load import Catalog
from automa.cli.asker import PromptAsker
from automa.cli.main import cli
from automa.model.components import DamageToken
from automa.session.answers import plain_number, resolve
from automa.session.store import LOG
from tests.conftest import logged_inputs, new_session
from tests.test_geometry_modes import DUEL

FULL_WIDTH = "\uff11\uff12"  # 12 in full-width digits: str.isdigit says yes
BOULDER = Path(__file__).parent / "playthroughs" / "80-boulder-first-token-reset.toml"
NOT_PLAIN = ["\u00b2", "\uff11\uff12", "\u0663", "1_0", " ", "", "1.0", "0x3", "+", "\U0001d7d9"]
LINE_TEXT = st.text(st.characters(blacklist_characters="\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
                                  blacklist_categories=("Cs",)), max_size=12)


def _boulder(tmp_path: Path) -> Path:
    text = BOULDER.read_text().replace('tokens = { 3 = ["3R"] }\n', "")
    return new_session(tmp_path, text, "--dice", "physical")


def test_a_token_is_typed_by_its_face_never_by_a_place_in_a_list(tmp_path: Path) -> None:
    """The level 3 bag holds 3R and 4 (the rest are on the discard pile). `1` was menu item 1
    (3R) before; now it is the face 1, refused saying where the 1s are. The prompt lists the
    faces in the bag, with no numbers beside them."""
    folder = _boulder(tmp_path)
    result = CliRunner().invoke(cli, ["next", "--session", str(folder), "--json"],
                                input="1\n9\n3r\n4\n")
    assert result.exit_code == 0, result.output
    assert "(in the bag: 3R, 4)" in result.stderr and "1=" not in result.stderr
    assert ("no 1 is in the bag now (every 1 is on the discard pile; the bag holds 3R, 4); "
            "try again") in result.stderr
    assert "'9' is not a token face in this bag" in result.stderr
    steps = json.loads(result.stdout)["steps"]
    assert [(s["value"], s["reset"]) for s in steps if s["kind"] == "token"] == [(3, True),
                                                                                (4, False)]


def test_the_second_draw_lists_only_what_is_left(tmp_path: Path) -> None:
    folder = _boulder(tmp_path)
    result = CliRunner().invoke(cli, ["next", "--session", str(folder)], input="4\n3R\n")
    assert result.exit_code == 0, result.output
    assert "(in the bag: 3R)" in result.stderr


@pytest.mark.parametrize("typed", NOT_PLAIN)
def test_a_die_refuses_what_is_not_plain_digits(tmp_path: Path, typed: str) -> None:
    folder = new_session(tmp_path, DUEL, "--dice", "physical")
    lines = ["done", "", "3", typed, "5", "quit"]
    result = CliRunner().invoke(cli, ["play", "--session", str(folder)],
                                input="".join(f"{line}\n" for line in lines))
    assert result.exit_code == 0, result.output
    assert "is not a face of this die (1-12; plain digits); try again" in result.output
    activation = json.loads((folder / LOG).read_text().splitlines()[-1])
    assert activation["outcomes"][-1] == {"kind": "d12", "value": "5", "source": "table"}


@pytest.mark.parametrize("typed", ["\u00b2", "\uff11\uff12", "\u0663", "1_0", "--2"])
def test_a_reported_amount_refuses_what_is_not_plain_digits(tmp_path: Path, typed: str) -> None:
    folder = new_session(tmp_path, DUEL)
    result = CliRunner().invoke(cli, ["play", "--session", str(folder)],
                                input=f"damage elf {typed}\nmove elf {FULL_WIDTH},30\n"
                                      f"gold elf +2\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"{typed!r} is not a whole number in plain digits (0-9)" in result.output
    assert f"cannot read the position '{FULL_WIDTH},30'" in result.output
    assert logged_inputs(folder) == [{"type": "gold", "piece": "elf", "amount": 2}]


@given(LINE_TEXT)
@example("0\x1f")  # found by hypothesis: str.strip took the separator, int() refused it
def test_plain_number_takes_ascii_digits_only(text: str) -> None:
    value = plain_number(text)
    stripped = text.strip(" \t\n\r\f\v")  # ASCII spaces only: "0\x1f" is not a number
    if stripped and all("0" <= c <= "9" for c in stripped) and len(stripped) <= 6:
        assert value == int(stripped)
    else:
        assert value is None


@given(LINE_TEXT)
def test_a_die_prompt_never_crashes_on_any_text(text: str) -> None:
    """Whatever is typed, the die takes it only when it is a plain face; else asks again."""
    runner = CliRunner()
    with runner.isolation(input=f"{text}\n7\n"):
        value = PromptAsker().number("Roll the D12", range(1, 13))
    stripped = text.strip()
    plain = stripped.isascii() and stripped.isdigit() and 1 <= int(stripped) <= 12
    assert value == (int(stripped) if plain else 7)


@given(LINE_TEXT)
def test_a_token_prompt_never_crashes_on_any_text(text: str) -> None:
    runner = CliRunner()
    with runner.isolation(input=f"{text}\n0\n"):
        face = PromptAsker().token("Draw", ["0", "1R", "2"], {"3": "on the discard pile"})
    assert face in ("0", "1R", "2")
    assert face == (text.strip().upper() if text.strip().upper() in ("0", "1R", "2") else "0")


def test_a_token_face_is_ascii_only() -> None:
    for text in ("\u00b2", "\uff11", "\u0663R"):
        with pytest.raises(ValueError, match="damage token"):
            DamageToken.parse(text)


def test_menu_numbers_only_where_no_choice_holds_a_digit() -> None:
    assert resolve("2", ["elf", "barbarian"]) == "barbarian"
    assert resolve("2", ["0", "1", "2R"]) is None  # `2` is no face here, and no place either
    assert resolve("2", ["level-1", "level-2", "level-3"]) == "level-2"  # by name, not place
    assert resolve("1", ["level-3", "antient"]) is None
    assert resolve("green", ["green (dungeon)", "orange (infernal)"]) == "green (dungeon)"
    assert resolve("left", ["left-to-right (green)", "right-to-left (green)"]) is None
    assert resolve("\uff11", ["elf", "barbarian"]) is None


def test_heroes_health_in_plain_digits(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["setup", "chagnars-lair", "--heroes", "elf=\uff18"])
    assert result.exit_code != 0 and "plain digits" in result.output


def test_back_and_undo_at_a_question_of_automa_next(tmp_path: Path) -> None:
    folder = _boulder(tmp_path)
    result = CliRunner().invoke(cli, ["next", "--session", str(folder), "--json"],
                                input="4\nback\n3R\n4\n")
    assert result.exit_code == 0, result.output
    assert "taken back: 4" in result.stderr
    steps = json.loads(result.stdout)["steps"]
    assert [s["value"] for s in steps if s["kind"] == "token"] == [3, 4]
    undone = CliRunner().invoke(cli, ["next", "--session", str(folder)], input="undo\n")
    assert undone.exit_code == 0, undone.output
    assert "Abandoned the activation: its answers are taken back, nothing was logged" \
        in undone.stderr  # that activation's answers only: the one before stands
    assert [json.loads(line)["type"] for line in (folder / LOG).read_text().splitlines()[1:]] \
        == ["activation"]


@given(st.lists(LINE_TEXT, max_size=3), st.sampled_from(["damage elf", "heal elf", "gold elf",
                                                         "move elf", "damage rat-1 1 by"]))
def test_play_never_crashes_on_typed_text(tmp_path_factory: pytest.TempPathFactory,
                                          words: list[str], command: str) -> None:
    """Whatever follows a command at the heroes' prompt, `play` answers in one line and goes
    on: exit 0, never an internal error. (`damage elf 9` ends the battle: the summary.)"""
    folder = new_session(tmp_path_factory.mktemp("typed"), DUEL)
    lines = [f"{command} {word}" for word in words] + [*words, "quit"]
    result = CliRunner().invoke(cli, ["play", "--session", str(folder)],
                                input="".join(f"{line}\n" for line in lines))
    assert result.exit_code == 0, result.output
    assert "Everything is saved" in result.output or "Battle summary" in result.output


@pytest.mark.parametrize("typed", ["\u00b2", FULL_WIDTH, "\u0663", "\U0001d7d9"])
def test_a_typed_card_number_is_plain_digits(catalog: Catalog, typed: str) -> None:
    """`automa data card`: a level, health or gold that only looks like digits is refused."""
    for field in ("level", "health", "gold"):
        with pytest.raises(ValueError, match="is not a whole number"):
            parse_answer(field, typed, catalog)
    with pytest.raises(ValueError):
        parse_answer("minions", f"zombie x{typed}", catalog)
