"""Both Red Box campaigns played start to finish on the SHIPPED data only: what our sources lack
(the Red Box Room cards' monsters, the Monstrosity's and the Pharaoh's cards, the Stables' and
the Crypt's offers, the Tavern's bag) is given the way a table gives it (options, piped answers)
and remembered in a fresh data folder; every kind of room is played, every special room's menu
used, one campaign with physical entry; the campaign and its battles replay identically."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from automa.catalog.campaigns import load_campaigns
from automa.catalog.load import Catalog, check_catalog, load_catalog
from automa.session.commands import Adjust, Counter, Damage, Remove
from automa.session.store import Session
from tests.conftest import finish_ai_turn
from tests.test_campaign import ok, status

LORD_CARD = ["--lord-card", "health=12", "--lord-card", "sequence=rush then melee",
             "--lord-card", "minions=skeleton-warrior x2", "--lord-card",
             "mercenary=skeleton-warrior"]
# The Room cards as our test's table reads them (the real cards are not in our sources).
MONSTERS = {0: "sewer-rat=2,mercenary=1", 1: "skeleton-warrior=1,metre-1=1"}
VISITS: dict[str, list[list[str]]] = {  # what the heroes buy at each special room
    "izchak-the-merchant": [["map", "--pay", "elf"],
                            ["item", "--for", "dwarf", "--price", "3", "--pay", "elf"]],
    "althea-the-healer": [["free-cure", "--for", "elf"], ["heal", "--for", "elf"]],
    "amaranth-inn": [["sleep", "--pay", "dwarf"]],
    "alewife-tavern": [["bet", "--pay", "dwarf", "--for", "elf", "--bag",
                        "orc=6,fire-spirit=4,centaur=4"]],
    "hearthshire-stables": [["groom", "--for", "elf"]],
    "crypt-of-shaurath": [["offering", "--for", "elf"]],
}
OFFERS = {"hearthshire-stables": "groom=1:health+1", "crypt-of-shaurath": "offering=0:spells+1"}
# Physical entry of a battle room's setup with two heroes: the Rune Die, the Character, Monster,
# Hero Target and Direction tiles as drawn at the table.
TILES = ["purple", "black", "gray", "brown", "blue", "orange", "4", "2", "left-to-right",
         "hsz-to-msz"]


def _typed_setup(room_number: int, lair: bool) -> str:
    mat = "2" if room_number % 2 else "3"  # never the same mat side twice in a row
    characters = ["level-4", "level-3", "level-2", "level-1", *(["lord"] if lair else [])]
    return "\n".join([mat, *characters, *TILES]) + "\n"


def _battle(data: Path, session_path: Path, dice: str, hero: str, first: bool) -> None:
    """The battle: the AI acts once (virtual dice), then the heroes clear the room; the first
    monster is the hero's kill."""
    if dice == "virtual":
        ok(["next", "--session", str(session_path)], data)
    session = Session.open(session_path, load_catalog(data))
    finish_ai_turn(session)
    if first:  # the hero is hurt and poisoned: Althea has work
        session.do(Damage(hero, 2))
        session.do(Adjust(Counter.POISON, hero, 1))
    ai = [p for p in session.state.battle.pieces if p.side == "ai"]
    for number, piece in enumerate(ai):
        lord = piece.kind == "catacomb-lord"
        why = f"killed by {hero}" if number == 0 and not lord else "dead"
        session.do(Remove(piece.id, why))


def _play(tmp_path: Path, name: str, dice: str, either: str, catalog: Catalog
          ) -> tuple[Path, Path, dict[str, Any]]:
    routes, _ = load_campaigns(None, catalog.rooms, catalog.lords)
    route = routes[name]
    data = tmp_path / "my-data"
    data.mkdir()
    folder = tmp_path / name
    ok(["campaign", "new", name, "--session", str(folder), "--heroes", "elf=8,dwarf=9",
        "--seed", "21"], data)
    assert status(folder, data)["lord"] == name  # the start piece is the Lord (campaign-lord)
    hero = "elf"
    battles = 0
    order = [r for r in route.rooms if r.id != "lair"] + [route.room("lair")]
    for room in order:
        assert room is not None
        states = {r["id"]: r["state"] for r in status(folder, data)["rooms"]}
        if states[room.id] == "skipped" or (room.id in (
                "crypt-of-shaurath", "alewife-tavern") and room.id != either):
            continue
        args = ["campaign", "next", room.id, "--session", str(folder), "--json"]
        stdin = None
        if room.kind == "special":
            args += ["--offers", OFFERS[room.id]] if room.id in OFFERS else []
        else:
            first_time = room.kind == "battle" and not load_catalog(data).rooms[room.id].known
            if first_time:
                monsters = MONSTERS[battles % 2] if dice == "virtual" else "skeleton-warrior=2"
                args += ["--monsters", monsters]
            if room.kind == "lair" or (dice == "virtual" and battles == 0):
                args += LORD_CARD
            if dice == "physical":
                args += ["--dice", "physical"]
                stdin = _typed_setup(battles, room.kind == "lair")
            battles += 1
        entered = json.loads(ok(args, data, stdin).stdout)
        if room.kind == "special":
            assert entered["menu"]["offers"], room.id  # the menu at the data's prices
            for purchase in VISITS[room.id]:
                ok(["campaign", "visit", *purchase, "--session", str(folder)], data)
            ok(["campaign", "end-room", "--session", str(folder)], data)
            continue
        _battle(data, Path(entered["session"]), dice, hero, battles == 1)
        ok(["campaign", "end-room", "--session", str(folder), "--gold", "1", "--no-spell"],
           data)
    return data, folder, status(folder, data)


@pytest.mark.parametrize(("name", "dice", "either"), [
    ("monstrosity", "virtual", ""),
    ("pharaoh", "virtual", "alewife-tavern"),
    ("pharaoh", "physical", "crypt-of-shaurath"),
])
def test_a_whole_campaign_on_shipped_data(tmp_path: Path, catalog: Catalog, name: str,
                                          dice: str, either: str) -> None:
    data, folder, final = _play(tmp_path, name, dice, either, catalog)
    text = ok(["campaign", "status", "--session", str(folder)], data).stdout
    assert "The campaign is over: victory!" in text
    states = {r["id"]: r["state"] for r in final["rooms"]}
    assert states["lair"] == "done"
    if name == "monstrosity":  # the Healer, listed after the Lair, visited before it
        # (campaign-open-rooms)
        assert all(s == "done" for s in states.values())
    else:
        other = "crypt-of-shaurath" if either == "alewife-tavern" else "alewife-tavern"
        assert states[other] == "skipped"
        assert all(s == "done" for r, s in states.items() if r != other)
    # what the table told is remembered, checked, and provenance "asked" (the Lord's card too)
    assert check_catalog(data) == []
    assert load_catalog(data).rooms["zhamanok"].provenance == "asked"
    assert load_catalog(data).lords[name].provenance == "asked"
    log = ok(["campaign", "log", "--session", str(folder)], data).stdout
    assert "bought" in log and "(undone)" not in log
    # the campaign replays identically: its log alone, in another folder, is the same campaign
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(folder / "campaign.jsonl", copy / "campaign.jsonl")
    assert status(copy, data) == final
    assert ok(["campaign", "log", "--session", str(copy), "--json"], data).stdout == \
        ok(["campaign", "log", "--session", str(folder), "--json"], data).stdout
    # and so does every room's battle, from its own log
    for battle in sorted((folder / "rooms").iterdir()):
        replayed = ok(["replay", str(battle), "--json"], data).stdout
        assert replayed == ok(["replay", str(battle), "--json"], data).stdout
    if dice == "physical":
        header = json.loads((next((folder / "rooms").iterdir()) / "log.jsonl").read_text(
            encoding="utf-8").splitlines()[0])
        assert header["chance"] == "physical"


def test_the_campaign_evening_in_docs_runs_as_written(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md "A campaign evening", line by line on the shipped data (the battle that
    `automa play` would be is cleared through the session instead)."""
    import shlex

    from click.testing import CliRunner

    from automa.cli.main import cli

    text = (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("## A campaign evening", 1)[1].split("```", 2)[1]
    lines = section.replace("\\\n", " ").strip().splitlines()
    assert lines[0].startswith("mkdir my-data && export AUTOMA_DATA_DIR=my-data")
    monkeypatch.chdir(tmp_path)
    Path("my-data").mkdir()
    played = []
    for line in lines[1:]:
        args = shlex.split(line, comments=True)
        assert args[0] == "automa", line
        if args[1] == "play":
            session = Session.open(Path(args[3]), load_catalog(Path("my-data")))
            for piece in [p.id for p in session.state.battle.pieces if p.side == "ai"]:
                session.do(Remove(piece, "dead"))
            continue
        result = CliRunner().invoke(cli, args[1:], env={"AUTOMA_DATA_DIR": "my-data"})
        assert result.exit_code == 0, (line, result.output, result.stderr)
        played.append(args[1:3])
    assert ["campaign", "visit"] in played and ["campaign", "undo"] in played
    log = CliRunner().invoke(cli, ["campaign", "log", "--session", "evening"],
                             env={"AUTOMA_DATA_DIR": "my-data"}).stdout
    assert "bought map at izchak-the-merchant for 2 gold (dwarf 2)" in log
