"""Between rooms: the Resolution Phase's kill gold and every monster back to the Monster Pool
(the Hidden Cave's pieces stay aside), and the cards used "this game" still used in later
rooms, the boards carried from room to room."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automa.catalog.load import load_catalog
from automa.errors import InputError
from automa.session.commands import Remove, UseCard, UsePeriod
from automa.session.store import Session
from tests.conftest import GLAAOTH
from tests.test_campaign import ok, status


def _enter(folder: Path, data: Path, room: str) -> Session:
    entered = json.loads(ok(["campaign", "next", room, "--session", str(folder), "--json"],
                            data).stdout)
    return Session.open(Path(entered["session"]), load_catalog(data))


def _clear(session: Session, killer: str | None) -> None:
    for piece in [p for p in session.state.battle.pieces if p.side == "ai"]:
        why = f"killed by {killer}" if killer and piece.monster == "sewer-rat" else "dead"
        session.do(Remove(piece.id, why))


def test_each_hero_collects_the_gold_of_the_monsters_they_destroyed(tmp_path: Path,
                                                                     data: Path) -> None:
    # rule: "Each surviving hero collects gold equal to the printed rewards of the monsters
    # *they* destroyed ... All monsters return to the pool." (Resolution Phase)
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8,dwarf=9",
        "--lord", "hmotha", "--seed", "3", "--hidden-cave"], data)
    session = _enter(folder, data, "glaaoth")
    _clear(session, "elf")  # two sewer rats, 1 gold each on their card
    shown = ok(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell"],
               data).stdout
    assert "elf +2 gold" in shown and "goes back to the Monster Pool" in shown
    assert "the Hidden Cave's pieces stay aside" in shown
    heroes = status(folder, data)["heroes"]
    assert (heroes["elf"]["gold"], heroes["dwarf"]["gold"]) == (7, 5)
    steps = [json.loads(line) for line in
             (folder / "campaign.jsonl").read_text(encoding="utf-8").splitlines()[1:]]
    assert steps[-1]["kill_gold"] == {"elf": 2}
    # undo takes the kill gold back with the rest of the room's end
    ok(["campaign", "undo", "--session", str(folder)], data)
    assert status(folder, data)["heroes"]["elf"]["gold"] == 5


def test_a_card_used_this_game_stays_used_in_the_next_room(tmp_path: Path, data: Path) -> None:
    # rule: "Spells are used once per game. Abilities are used once per room and refreshed in
    # the next Setup." (Playing Spell, Ability and Item cards)
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "3"], data)
    first = _enter(folder, data, "glaaoth")
    first.do(UseCard("elf", "fireball", UsePeriod.GAME))
    first.do(UseCard("elf", "elven-sight", UsePeriod.ROOM))
    _clear(first, None)
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell"], data)
    assert status(folder, data)["heroes"]["elf"]["used"] == ["fireball"]
    text = ok(["campaign", "status", "--session", str(folder)], data).stdout
    assert "used this game: fireball" in text
    ok(["campaign", "next", "amaranth-inn", "--session", str(folder)], data)
    ok(["campaign", "end-room", "--session", str(folder)], data)
    (data / "rooms.toml").write_text(GLAAOTH.replace("[glaaoth]", "[ehanostha]").replace(
        '"Glaaoth"', '"Ehanostha"'), encoding="utf-8")
    second = _enter(folder, data, "ehanostha")
    assert second.state.battle.piece("elf").used == ("fireball (game)",)
    second.do(UseCard("elf", "elven-sight", UsePeriod.ROOM))
    with pytest.raises(InputError, match="already used fireball"):
        second.do(UseCard("elf", "fireball", UsePeriod.GAME))
    second.do(UseCard("elf", "heal", UsePeriod.GAME))
    _clear(second, None)
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell"], data)
    assert status(folder, data)["heroes"]["elf"]["used"] == ["fireball", "heal"]
