"""What a campaign room needs and our shipped data lacks (a Red Box Room card's monsters, the
Monstrosity's or the Pharaoh's card) is asked once at `campaign next` and remembered in the
player's data folder; a typo, a pipe with nothing given, no data folder: one line each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automa.catalog.load import Catalog, check_catalog, load_catalog
from automa.session.store import Session
from tests.test_campaign import ok, refused, run, status

LORD_CARD = ["--lord-card", "health=30", "--lord-card", "sequence=rush then melee",
             "--lord-card", "minions=orc x2", "--lord-card", "mercenary=orc"]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "my-data"
    folder.mkdir()
    return folder


def _new(folder: Path, data: Path | None, *more: str) -> None:
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--seed", "3", *more], data)


def test_a_piped_next_with_nothing_given_names_the_option(tmp_path: Path, data: Path) -> None:
    # rule: "Lay out the Monster cards shown on the room card" (the Setup Phase): the card is
    # the players', so without it the room cannot be set up.
    folder = tmp_path / "c"
    _new(folder, data)
    refused(["campaign", "next", "glaaoth", "--session", str(folder)], data, "--monsters")
    refused(["campaign", "next", "glaaoth", "--session", str(folder), "--monsters",
             "sewer-rat=2, skelton-warrior=1"], data, "did you mean 'skeleton-warrior'?")
    refused(["campaign", "next", "glaaoth", "--session", str(folder), "--monsters",
             "sewer-rat=11"], data, "from 1 to 10")
    refused(["campaign", "next", "glaaoth", "--session", str(folder), "--monsters",
             "metre-5=1"], data, "metre-1 to metre-4")
    refused(["campaign", "next", "amaranth-inn", "--session", str(folder), "--monsters",
             "sewer-rat=2"], data, "not a battle room")
    assert list(data.iterdir()) == []  # nothing remembered from a refused answer
    assert status(folder, data)["rooms"][0]["state"] == "open"


def test_the_room_card_is_remembered_with_provenance_asked(tmp_path: Path, data: Path,
                                                           catalog: Catalog) -> None:
    folder = tmp_path / "c"
    _new(folder, data, "--lord", "hmotha")
    entered = json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder),
                             "--monsters", "sewer-rat=2,skeleton-warrior=1,metre-1=1",
                             "--json"], data).stdout)
    assert check_catalog(data) == []
    mine = load_catalog(data).rooms["glaaoth"]
    assert (mine.monsters, mine.metres, mine.provenance, mine.known) == (
        (("sewer-rat", 2), ("skeleton-warrior", 1)), ((1, 1),), "asked", True)
    assert mine.mercenaries == 0 and catalog.rooms["glaaoth"].known is False  # ours untouched
    pieces = Session.open(Path(entered["session"]), load_catalog(data)).state.battle.pieces
    kinds = [p.monster for p in pieces if p.side == "ai"]
    assert kinds.count("sewer-rat") == 2 and kinds.count("skeleton-warrior") >= 1
    # the next campaign in the same data folder is not asked again
    again = tmp_path / "second"
    _new(again, data, "--lord", "hmotha")
    ok(["campaign", "next", "glaaoth", "--session", str(again)], data)
    # the same answer given again is accepted; a different one is refused in one line
    third = tmp_path / "third"
    _new(third, data, "--lord", "hmotha")
    refused(["campaign", "next", "glaaoth", "--session", str(third), "--monsters",
             "sewer-rat=1"], data, "differ")


def test_piped_answers_are_asked_again_after_a_typo(tmp_path: Path, data: Path) -> None:
    folder = tmp_path / "c"
    _new(folder, data, "--lord", "hmotha")
    result = ok(["campaign", "next", "glaaoth", "--session", str(folder), "--ask"], data,
                stdin="sewer-ratt=2\nsewer-rat=2, mercenary=1\n")
    assert "(did you mean 'sewer-rat'?); try again" in result.stderr
    assert load_catalog(data).rooms["glaaoth"].mercenaries == 1


def test_the_start_piece_card_is_asked_once_through_data_card(tmp_path: Path,
                                                              data: Path) -> None:
    # rule: "Monstrosity campaign: Use the Monstrosity ..." (its card is the players')
    folder = tmp_path / "c"
    _new(folder, data)
    # a Mercenary icon needs the Lord's Mercenary box: the Monstrosity's card is asked
    refused(["campaign", "next", "glaaoth", "--session", str(folder), "--monsters",
             "sewer-rat=2,mercenary=1"], data, "--lord-card FIELD=VALUE for health, sequence, "
                                               "minions, mercenary")
    refused(["campaign", "next", "glaaoth", "--session", str(folder), "--monsters",
             "sewer-rat=2,mercenary=1", "--lord-card", "hp=3"], data, "FIELD one of")
    entered = json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder),
                             "--monsters", "sewer-rat=2,mercenary=1", *LORD_CARD, "--json"],
                            data).stdout)  # stdout is the JSON only: data card's lines to stderr
    lord = load_catalog(data).lords["monstrosity"]
    assert (lord.health, lord.mercenary, lord.unknown) == (30, ("orc",), frozenset())
    pieces = Session.open(Path(entered["session"]), load_catalog(data)).state.battle.pieces
    assert [p.monster for p in pieces if p.side == "ai"].count("orc") == 1  # its Mercenary


def test_the_lair_asks_the_lords_card_on_a_pipe_with_ask(tmp_path: Path, data: Path) -> None:
    folder = tmp_path / "c"
    ok(["campaign", "new", "pharaoh", "--session", str(folder), "--heroes", "elf=8",
        "--seed", "4"], data)
    refused(["campaign", "next", "lair", "--session", str(folder)], data, "--lord-card")
    result = ok(["campaign", "next", "lair", "--session", str(folder), "--ask", "--json"],
                data, stdin="40\nrush then melee\n\nzombie x3\nzombie\n")
    pieces = Session.open(Path(json.loads(result.stdout)["session"]),
                          load_catalog(data)).state.battle.pieces
    assert next(p for p in pieces if p.id == "pharaoh").health == 40
    assert "provenance = \"asked\"" in (data / "lords.toml").read_text(encoding="utf-8")


def test_without_a_data_folder_nothing_can_be_remembered(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    _new(folder, None, "--lord", "hmotha")
    result = run(["campaign", "next", "glaaoth", "--session", str(folder), "--monsters",
                  "sewer-rat=2"], None)
    assert result.exit_code == 2 and "--data-dir" in result.stderr
    assert len(result.stderr.splitlines()) == 1
