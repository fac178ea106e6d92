"""The Red Box campaigns: the route from the rulebook, a scripted evening through new, next,
end-room and status, the Room Level Rewards, undo, and one line for every bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from automa.catalog.campaigns import load_campaigns
from automa.catalog.load import Catalog, check_catalog, load_catalog
from automa.cli.main import cli
from automa.rules.rulings import RulingKey, ruling
from automa.session.commands import Adjust, Counter, Damage, Hit, Remove
from automa.session.store import Session
from tests.conftest import GLAAOTH, finish_ai_turn

# The card's list is our test's, not the real Glaaoth card (not in our sources).


def run(args: list[str], data: Path | None, stdin: str | None = None) -> Result:
    env = {"AUTOMA_DATA_DIR": str(data) if data else None}
    return CliRunner().invoke(cli, args, env=env, input=stdin)


def ok(args: list[str], data: Path | None, stdin: str | None = None) -> Result:
    result = run(args, data, stdin)
    assert result.exit_code == 0, result.output + result.stderr
    return result


def refused(args: list[str], data: Path | None, words: str) -> None:
    result = run(args, data)
    assert result.exit_code not in (0, 70), result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and words in lines[0], result.stderr


def status(folder: Path, data: Path | None) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(
        ok(["campaign", "status", "--session", str(folder), "--json"], data).stdout)
    return out


MONSTROSITY = ["glaaoth", "ehanostha", "zhamanok", "amaranth-inn", "hearthshire-stables",
               "sacthurag", "izchak-the-merchant", "thothazhon", "urnehath", "lair",
               "althea-the-healer"]
PHARAOH = ["dephaoth", "crypt-of-shaurath", "alewife-tavern", "yornathor", "rharhlos",
           "abotharur", "izchak-the-merchant", "althea-the-healer", "othagoth", "ubornath",
           "amaranth-inn", "zhamanok", "lair"]


def test_routes_are_the_rulebooks_lists_in_order(catalog: Catalog) -> None:
    # rule: "Each campaign's room cards are listed below with their printed Room card level"
    routes, rewards = load_campaigns(None, catalog.rooms, catalog.lords)
    assert [r.id for r in routes["monstrosity"].rooms] == MONSTROSITY
    assert [r.id for r in routes["pharaoh"].rooms] == PHARAOH
    assert (routes["monstrosity"].start, routes["pharaoh"].start) == ("monstrosity", "pharaoh")
    levels = {r.id: r.level for r in routes["pharaoh"].rooms}
    assert (levels["dephaoth"], levels["yornathor"], levels["lair"]) == (2, 1, None)
    # "The heroes may visit both" / "The heroes may visit either ... or ..."
    assert routes["monstrosity"].step_of("amaranth-inn").choose == "any"  # type: ignore[union-attr]
    assert routes["pharaoh"].step_of("alewife-tavern").choose == "one"  # type: ignore[union-attr]
    assert rewards == {}  # no card's icons are in our sources


def test_a_scripted_campaign_evening(tmp_path: Path, data: Path) -> None:
    folder = tmp_path / "evening"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes",
        "elf=8,dwarf=9", "--lord", "hmotha", "--seed", "3"], data)
    first = status(folder, data)
    assert [r["state"] for r in first["rooms"]] == ["open"] * len(MONSTROSITY)
    assert first["heroes"]["elf"] == {"health": 8, "starting_health": 8, "gold": 5,
                                      "poison": 0, "items": 0, "spells": 0, "alive": True,
                                      "allies": 0, "used": []}
    entered = json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder),
                             "--json"], data).stdout)
    battle = Path(entered["session"])
    assert battle.parent.parent == folder
    # every session command works on the room's battle
    seen = json.loads(ok(["status", "--session", str(battle), "--json"], data).stdout)
    assert seen["round"] == 1
    refused(["campaign", "end-room", "--session", str(folder), "--gold", "2", "--no-spell"],
            data, "not cleared")
    ok(["next", "--session", str(battle)], data)  # the AI can act in the room's session
    catalog = load_catalog(data)
    session = Session.open(battle, catalog)
    finish_ai_turn(session)
    session.do(Damage("elf", 2))
    session.do(Adjust(Counter.GOLD, "dwarf", 1))
    for piece in [p.id for p in session.state.battle.pieces if p.side == "ai"]:
        session.do(Remove(piece, "dead"))
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "2", "--spell",
        "--spell-to", "dwarf"], data)
    after = status(folder, data)
    assert after == {
        "campaign": "monstrosity", "lord": "hmotha",
        "rooms": [{"id": r["id"], "name": r["name"], "level": r["level"],
                   "state": "done" if r["id"] == "glaaoth" else "open"}
                  for r in first["rooms"]],
        "heroes": {
            "elf": {"health": 6, "starting_health": 8, "gold": 7, "poison": 0, "items": 0,
                    "spells": 0, "alive": True, "allies": 0, "used": []},
            "dwarf": {"health": 9, "starting_health": 9, "gold": 8, "poison": 0, "items": 0,
                      "spells": 1, "alive": True, "allies": 0, "used": []}},
        "hidden_cave": None,
        # the rooms open next, the Healer listed after the Lair open before it (the Lord
        # named, not the start piece)
        "rulings": [55, 70]}
    assert after["rooms"][0] == {"id": "glaaoth", "name": "Glaaoth", "level": 1,
                                 "state": "done"}
    # the answer is remembered in the user's data folder: the next campaign is not asked
    assert check_catalog(data) == []
    again = tmp_path / "second"
    ok(["campaign", "new", "monstrosity", "--session", str(again), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "4"], data)
    second = Path(json.loads(ok(["campaign", "next", "glaaoth", "--session", str(again),
                                 "--json"], data).stdout)["session"])
    session = Session.open(second, catalog)
    for piece in [p.id for p in session.state.battle.pieces if p.side == "ai"]:
        session.do(Remove(piece, "dead"))
    ok(["campaign", "end-room", "--session", str(again), "--spell-to", "elf"], data)
    elf = status(again, data)["heroes"]["elf"]
    assert (elf["gold"], elf["spells"]) == (7, 1)


def _cleared(folder: Path, data: Path | None) -> None:
    room = status(folder, data)
    current = next(r["id"] for r in room["rooms"] if r["state"] == "current")
    battle = next((folder / "rooms").glob(f"*-{current}"))
    session = Session.open(battle, load_catalog(data))
    for piece in [p.id for p in session.state.battle.pieces if p.side == "ai"]:
        session.do(Remove(piece, "dead"))


def test_rewards_are_asked_and_the_spell_goes_to_a_chosen_hero(tmp_path: Path,
                                                                data: Path) -> None:
    # rule: "For a room with the Spell card icon, choose a Spell card and assign it to a hero
    # that can use it. ... For the gold icon, each hero is given the indicated amount of gold."
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes",
        "elf=8,dwarf=9", "--lord", "hmotha", "--seed", "5"], data)
    ok(["campaign", "next", "glaaoth", "--session", str(folder)], data)
    _cleared(folder, data)
    refused(["campaign", "end-room", "--session", str(folder)], data,
            "pass --gold N and --spell/--no-spell")  # a pipe with nothing given
    refused(["campaign", "end-room", "--session", str(folder), "--gold", "3", "--spell"], data,
            "--spell-to")
    shown = ok(["campaign", "end-room", "--session", str(folder), "--ask"], data,
               stdin="3\ny\nelf\n").stdout
    assert "a Spell card for elf (then reshuffle the Spell deck)" in shown
    heroes = status(folder, data)["heroes"]
    assert (heroes["elf"]["gold"], heroes["elf"]["spells"]) == (8, 1)
    assert (heroes["dwarf"]["gold"], heroes["dwarf"]["spells"]) == (8, 0)
    remembered = (data / "campaigns.toml").read_text(encoding="utf-8")
    assert "gold = 3" in remembered and "spell = true" in remembered


@pytest.mark.parametrize(("rule", "fallen", "back"), [
    # official: Items and Poison back to the decks, gold to the Treasury; half health back
    ("returns", {"health": 0, "gold": 0, "poison": 0, "alive": False}, 4),
    # advanced: "the hero stays dead unless resurrected"
    ("stays-dead", {"health": 0, "gold": 0, "poison": 0, "alive": False}, None),
    # FAQ revised: "keeps coins, items and spells, and loses only Poison and Stun cards"
    ("keeps-board", {"health": 0, "gold": 5, "poison": 0, "alive": False}, 4),
])
def test_a_dead_hero_gets_no_reward_and_the_death_rule_decides_the_rest(
        tmp_path: Path, data: Path, rule: str, fallen: dict[str, Any], back: int | None) -> None:
    # rule: "Room cards that provide rewards to all heroes that survive the Battle Phase."
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes",
        "elf=8,dwarf=9", "--lord", "hmotha", "--seed", "5", "--hero-death", rule], data)
    battle = Path(json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder),
                                 "--json"], data).stdout)["session"])
    session = Session.open(battle, load_catalog(data))
    session.do(Adjust(Counter.POISON, "elf", 1))
    session.do(Remove("elf", "dead"))
    _cleared(folder, data)
    shown = ok(["campaign", "end-room", "--session", str(folder), "--gold", "2", "--no-spell"],
               data).stdout
    number = ruling(RulingKey.CAMPAIGN_HERO_DEATH).number
    assert "elf fell: " in shown and f"(* ruling {number}, hero-death = {rule})" in shown
    heroes = status(folder, data)["heroes"]
    assert {k: heroes["elf"][k] for k in fallen} == fallen
    assert heroes["dwarf"]["gold"] == 7
    ok(["campaign", "next", "althea-the-healer", "--session", str(folder)], data)
    assert status(folder, data)["heroes"]["elf"]["alive"] is False  # a visit is no Setup
    if back is None:  # Althea: "Resurrect a hero with 2 health: 10 gold"
        ok(["campaign", "end-room", "--session", str(folder), "--resurrect", "elf",
            "--change", "dwarf.gold=-7"], data)
        elf = status(folder, data)["heroes"]["elf"]
        assert (elf["alive"], elf["health"]) == (True, 2)
        return
    refused(["campaign", "end-room", "--session", str(folder), "--change", "elf.gold=+1"],
            data, "not a living hero")
    ok(["campaign", "end-room", "--session", str(folder)], data)
    lair = json.loads(ok(["campaign", "next", "lair", "--session", str(folder), "--json"],
                         data).stdout)
    elf = status(folder, data)["heroes"]["elf"]
    assert (elf["alive"], elf["health"]) == (True, back)  # "back at the next Setup"
    on_mat = Session.open(Path(lair["session"]), load_catalog(data)).state.battle.piece("elf")
    assert (on_mat.health, on_mat.starting_health) == (back, 8)


def test_either_or_skips_the_other_and_the_lair_ends_the_campaign(tmp_path: Path) -> None:
    folder = tmp_path / "pharaoh"
    ok(["campaign", "new", "pharaoh", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "1"], None)
    ok(["campaign", "next", "alewife-tavern", "--session", str(folder)], None)
    states = {r["id"]: r["state"] for r in status(folder, None)["rooms"]}
    assert (states["alewife-tavern"], states["crypt-of-shaurath"]) == ("current", "skipped")
    refused(["campaign", "next", "yornathor", "--session", str(folder)], None,
            "still in alewife-tavern")
    ok(["campaign", "end-room", "--session", str(folder)], None)
    refused(["campaign", "next", "crypt-of-shaurath", "--session", str(folder)], None,
            "is skipped")
    ok(["campaign", "next", "lair", "--session", str(folder)], None)
    _cleared(folder, None)
    ended = ok(["campaign", "end-room", "--session", str(folder)], None).stdout
    assert "victory" in ended
    states = {r["id"]: r["state"] for r in status(folder, None)["rooms"]}
    assert states["lair"] == "done" and states["dephaoth"] == "skipped"
    refused(["campaign", "next", "dephaoth", "--session", str(folder)], None, "over")


def test_the_healer_listed_after_the_lair_is_open_before_it(tmp_path: Path) -> None:
    # ruling lair-last: "• Catacomb Lord's Lair" then "• Healer (Althea the Healer)" (l.467-468)
    # list the room cards; "The campaign paths are drawn as arrows on the printed diagrams and
    # are not reproduced as text" (l.454)
    number = ruling(RulingKey.LAIR_LAST).number
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "1"], None)
    shown = ok(["campaign", "status", "--session", str(folder)], None).stdout.splitlines()
    assert shown[10:12] == [
        "  open     Catacomb Lord's Lair  [lair]",
        f"  open     Althea the Healer  [althea-the-healer]  (listed after the Lair; open "
        f"before it: ruling {number})"]
    first = status(folder, None)
    assert [r["id"] for r in first["rooms"]] == MONSTROSITY  # the rulebook's order, kept
    assert number in first["rulings"]
    entered = ok(["campaign", "next", "althea-the-healer", "--session", str(folder)],
                 None).stdout.splitlines()
    assert entered[:2] == [
        "Althea the Healer: a visit (no battle).",
        "The rulebook lists Althea the Healer after the Catacomb Lord's Lair; it is visited "
        f"before the Lair, the campaign's last room (ruling {number})."]
    assert number in status(folder, None)["rulings"]  # "current ... visited before it"
    ok(["campaign", "undo", "--session", str(folder)], None)
    shown_json = json.loads(ok(["campaign", "next", "althea-the-healer", "--session",
                                str(folder), "--json"], None).stdout)
    assert shown_json["rulings"] == [number]
    ok(["campaign", "end-room", "--session", str(folder)], None)
    after = status(folder, None)
    assert number not in after["rulings"]  # visited: nothing left to decide
    merchant = json.loads(ok(["campaign", "next", "izchak-the-merchant", "--session",
                              str(folder), "--json"], None).stdout)
    assert merchant["rulings"] == []
    pharaoh = tmp_path / "p"
    ok(["campaign", "new", "pharaoh", "--session", str(pharaoh), "--heroes", "elf=8",
        "--lord", "hmotha"], None)
    assert number not in status(pharaoh, None)["rulings"]  # its list ends with the Lair


def test_the_lair_ends_the_campaign_before_the_healer_listed_after_it(tmp_path: Path) -> None:
    # ruling lair-last: the base game places the Lair last, the heroes win by killing the Lord,
    # and a hero Althea resurrects "starts playing in the next room"
    number = ruling(RulingKey.LAIR_LAST).number
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "1"], None)
    last = (f"The Lair is the campaign's last room: Althea the Healer, listed after it, is not "
            f"visited once it ends (ruling {number}).")
    assert last in ok(["campaign", "next", "lair", "--session", str(folder)],
                      None).stdout.splitlines()
    ok(["campaign", "undo", "--session", str(folder)], None)
    lair = json.loads(ok(["campaign", "next", "lair", "--session", str(folder), "--json"],
                         None).stdout)
    assert number in lair["rulings"]
    session = Session.open(Path(lair["session"]), load_catalog(None))
    for piece in [p.id for p in session.state.battle.pieces if p.side == "ai"]:
        session.do(Remove(piece, "dead"))
    ended = ok(["campaign", "end-room", "--session", str(folder)], None).stdout
    assert "victory" in ended
    assert (f"  skipped  Althea the Healer  [althea-the-healer]  (listed after the Lair; the "
            f"Lair ended the campaign first: ruling {number})") in ended.splitlines()
    after = status(folder, None)
    assert {r["id"]: r["state"] for r in after["rooms"]}["althea-the-healer"] == "skipped"
    assert number in after["rulings"]
    refused(["campaign", "next", "althea-the-healer", "--session", str(folder)], None,
            f"the campaign is over: it ended with the Catacomb Lord's Lair, its last room, so "
            f"Althea the Healer, listed after the Lair, is not visited (ruling {number})")
    refused(["campaign", "next", "glaaoth", "--session", str(folder)], None,
            "the campaign is over; see `automa campaign status`")


def test_undo_takes_back_the_last_step(tmp_path: Path, data: Path) -> None:
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "2"], data)
    refused(["campaign", "undo", "--session", str(folder)], data, "nothing to undo")
    ok(["campaign", "next", "glaaoth", "--session", str(folder)], data)
    _cleared(folder, data)
    before = status(folder, data)
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "4", "--no-spell"], data)
    assert status(folder, data)["heroes"]["elf"]["gold"] == 9
    ok(["campaign", "undo", "--session", str(folder)], data)
    assert status(folder, data) == before
    ok(["campaign", "undo", "--session", str(folder)], data)
    assert status(folder, data)["rooms"][0]["state"] == "open"
    lines = (folder / "campaign.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line).get("type") for line in lines[1:]] == [
        "enter", "end-room", "undo", "undo"]  # append-only: nothing rewritten
    shown = ok(["campaign", "log", "--session", str(folder)], data).stdout.splitlines()
    assert [line.split(". ", 1)[1] for line in shown] == [
        "entered glaaoth (session rooms/01-glaaoth) (undone)",
        "ended glaaoth: 4 gold each (undone)", "undo", "undo"]
    listed = json.loads(ok(["campaign", "log", "--session", str(folder), "--json"],
                           data).stdout)["steps"]
    assert [s["undone"] for s in listed] == [True, True, False, False]


def test_a_players_route_replaces_ours(tmp_path: Path, data: Path, catalog: Catalog) -> None:
    (data / "campaigns.toml").write_text(
        '[monstrosity]\nname = "Monstrosity"\nstart = "monstrosity"\nprovenance = "house"\n'
        'steps = [{ rooms = ["glaaoth"], level = 1 }, { rooms = ["lair"] }]\n',
        encoding="utf-8")
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha"], data)
    assert [r["id"] for r in status(folder, data)["rooms"]] == ["glaaoth", "lair"]
    (data / "campaigns.toml").write_text(
        '[monstrosity]\nname = "M"\nstart = "monstrosity"\nprovenance = "house"\n'
        'steps = [{ rooms = ["glaoth"] }, { rooms = ["lair"] }]\n', encoding="utf-8")
    problems = check_catalog(data)
    assert [(p.record, p.field) for p in problems] == [("glaoth", "rooms")]
    (data / "campaigns.toml").write_text('[rewards.glaaoth]\ngold = -1\nspell = false\n'
                                         'provenance = "asked"\n', encoding="utf-8")
    problems = check_catalog(data)
    assert [(p.record, p.field) for p in problems] == [("rewards.glaaoth", "gold")]
    refused(["campaign", "status", "--session", str(folder)], data, "[rewards.glaaoth] gold")


@pytest.mark.parametrize(("args", "words"), [
    (["campaign", "new", "monstrosty", "--heroes", "elf=8"], "unknown campaign"),
    (["campaign", "new", "pharaoh", "--heroes", "elf"], "ID=HEALTH"),
    (["campaign", "new", "pharaoh", "--heroes", "elf=8", "--lord", "nobody"], "unknown Catacomb"),
    (["campaign", "status"], "no campaign here"),
    (["campaign", "end-room"], "no campaign here"),
])
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    refused([*args, "--session", str(tmp_path / "nowhere")], None, words)


def test_bad_steps_are_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    ok(["campaign", "new", "pharaoh", "--session", str(folder), "--heroes", "elf=8"], None)
    assert status(folder, None)["lord"] == "pharaoh"  # ruling campaign-lord: the start piece
    refused(["campaign", "new", "pharaoh", "--session", str(folder), "--heroes", "elf=8"],
            None, "already holds a campaign")
    refused(["campaign", "next", "glaaoth", "--session", str(folder)], None, "not on the")
    refused(["campaign", "end-room", "--session", str(folder)], None, "no room is being")
    with (folder / "campaign.jsonl").open("a", encoding="utf-8") as log:
        log.write("not json\n")
    refused(["campaign", "status", "--session", str(folder)], None, "line 2 is damaged")


def test_a_visit_records_what_was_bought(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes",
        "elf=8,dwarf=9", "--lord", "hmotha"], None)
    visit = json.loads(ok(["campaign", "next", "izchak-the-merchant", "--session", str(folder),
                           "--json"], None).stdout)
    menu = visit.pop("menu")
    assert visit == {"room": "izchak-the-merchant", "kind": "special", "session": None,
                     "rulings": []}
    assert {o["id"]: o["price"] for o in menu["offers"]}["map"] == 2  # "A map costs 2 gold"
    refused(["campaign", "end-room", "--session", str(folder), "--change", "elf.gold=-6"],
            None, "has only 5 gold")
    refused(["campaign", "end-room", "--session", str(folder), "--change", "elf.mana=+1"],
            None, "HERO.FIELD")
    ok(["campaign", "end-room", "--session", str(folder), "--change", "elf.gold=-3",
        "--change", "elf.items=+1"], None)
    after = status(folder, None)
    assert (after["heroes"]["elf"]["gold"], after["heroes"]["elf"]["items"]) == (2, 1)
    assert after["heroes"]["dwarf"]["gold"] == 5  # no Room Level Rewards at a visit
    assert {r["id"]: r["state"] for r in after["rooms"]}["izchak-the-merchant"] == "done"


def test_an_orphan_room_folder_is_not_reused(tmp_path: Path, data: Path) -> None:
    """A crash after the room's session was made but before the campaign logged it."""
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "2"], data)
    (folder / "rooms" / "01-glaaoth").mkdir(parents=True)
    entered = json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder),
                             "--json"], data).stdout)
    assert Path(entered["session"]).name == "02-glaaoth"


TYPED_SETUP = ["2",                                    # Rune Die -> throne-room
               "level-4", "level-3", "level-2", "level-1",
               "purple", "black", "gray", "brown", "blue", "orange",
               "4",                                    # elf's Hero Target tile
               "left-to-right", "hsz-to-msz"]


def test_physical_entry_sets_up_the_room_and_its_session(tmp_path: Path, data: Path) -> None:
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "1"], data)
    cut = run(["campaign", "next", "glaaoth", "--session", str(folder), "--dice", "physical"],
              data, stdin="2\nlevel-4\n")
    assert cut.exit_code != 0 and len(cut.stderr.strip().splitlines()) >= 1
    assert status(folder, data)["rooms"][0]["state"] == "open"  # nothing was logged
    entered = json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder),
                             "--dice", "physical", "--json"], data,
                            stdin="\n".join(TYPED_SETUP) + "\n").stdout)
    assert entered["playmat"] == "throne-room"
    session = Session.open(Path(entered["session"]), load_catalog(data))
    assert session.state.scenario.tiles.character_order == (
        "level-4", "level-3", "level-2", "level-1", "antient")
    header = json.loads((Path(entered["session"]) / "log.jsonl").read_text(
        encoding="utf-8").splitlines()[0])
    assert header["chance"] == "physical"  # the battle keeps the table's dice


def test_hidden_cave_monsters_are_set_aside_and_collected(tmp_path: Path, data: Path) -> None:
    # rule: "Each time a hero destroys one of the indicated level 1 monsters, they keep it on their
    # player board."
    (data / "rooms.toml").write_text(GLAAOTH.replace(
        'monsters = [{ monster = "sewer-rat", count = 2 }]\nmetres = []',
        "monsters = []\nmetres = [{ level = 1, count = 3 }]"), encoding="utf-8")
    assert "count = 3" in (data / "rooms.toml").read_text(encoding="utf-8")
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8,dwarf=9",
        "--lord", "hmotha", "--hidden-cave", "--seed", "8"], data)
    cave = status(folder, data)["hidden_cave"]
    assert len(cave["needed"]) == 5 and cave["collected"] == {"elf": [], "dwarf": []}
    assert cave["items"] == ["Champion's Helm", "Dagger of Deception", "Delilah's Potion",
                             "Trident"]
    battle = Path(json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder),
                                 "--json"], data).stdout)["session"])
    drawn = {p.monster for p in Session.open(battle, load_catalog(data)).state.battle.pieces
             if p.side == "ai" and p.monster != "zombie"}  # the zombie: Hmotha's Mercenary
    assert len(drawn) >= 1  # the cave's kinds may come up: only its pieces are set aside (49)
    _cleared(folder, data)
    first = cave["needed"][0]
    refused(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell",
             "--collect", "elf=orc-warchief"], data, "not one of the Hidden Cave's")
    assert not (data / "campaigns.toml").exists()  # a refused step remembers nothing
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell",
        "--collect", f"elf={first}"], data)
    assert status(folder, data)["hidden_cave"]["collected"] == {"elf": [first], "dwarf": []}


# Both campaigns start to finish on the shipped data: tests/test_campaign_shipped.py


def test_one_writer_and_a_crash_cut_line(tmp_path: Path) -> None:
    from automa.session.lock import ACTIVATION, session_lock

    folder = tmp_path / "c"
    ok(["campaign", "new", "pharaoh", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha"], None)
    with session_lock(folder, ACTIVATION):  # another command is in the middle of a step
        refused(["campaign", "next", "amaranth-inn", "--session", str(folder)], None,
                "activation")
    assert status(folder, None)["rooms"][10]["state"] == "open"
    with (folder / "campaign.jsonl").open("a", encoding="utf-8") as log:
        log.write('{"type": "enter", "room": "amar')  # a crash cut this step short
    assert status(folder, None)["rooms"][10] == {"id": "amaranth-inn", "name": "Amaranth Inn",
                                                  "level": None, "state": "open"}
    ok(["campaign", "next", "amaranth-inn", "--session", str(folder)], None)
    lines = (folder / "campaign.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-1])["room"] == "amaranth-inn" and len(lines) == 2


def test_remembering_never_breaks_the_players_file(tmp_path: Path) -> None:
    from automa.catalog.remembered import remember_rewards
    from automa.errors import DataError
    from automa.model.campaigns import Rewards

    mine = tmp_path / "campaigns.toml"
    mine.write_text("rewards = {}\n", encoding="utf-8")  # an inline table cannot be extended
    with pytest.raises(DataError):
        remember_rewards(tmp_path, "glaaoth", Rewards(2, False, "asked"))
    assert mine.read_text(encoding="utf-8") == "rewards = {}\n"
    mine.write_text("# my table's cards\n", encoding="utf-8")
    remember_rewards(tmp_path, "glaaoth", Rewards(2, True, "asked"))
    with pytest.raises(DataError, match="already holds"):
        remember_rewards(tmp_path, "glaaoth", Rewards(3, True, "asked"))
    assert mine.read_text(encoding="utf-8").startswith("# my table's cards\n")


def test_a_hidden_cave_monster_killed_in_the_battle_is_kept_without_typing_it(
        tmp_path: Path, data: Path, catalog: Catalog) -> None:
    # rule: "Each time a hero destroys one of the indicated level 1 monsters, they keep it on
    # their player board." The battle's log already says who killed what (`hit ... by elf`).
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8,dwarf=9",
        "--lord", "hmotha", "--hidden-cave", "--seed", "8"], data)
    needed = status(folder, data)["hidden_cave"]["needed"]
    kind = next(m for m in needed if catalog.monsters[m].health is not None)
    (data / "rooms.toml").write_text(GLAAOTH.replace('"sewer-rat", count = 2', f'"{kind}", '
                                                     f'count = 1'), encoding="utf-8")
    battle = Path(json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder),
                                 "--json"], data).stdout)["session"])
    session = Session.open(battle, load_catalog(data))
    victim = next(p.id for p in session.state.battle.pieces if p.monster == kind)
    session.do(Remove(victim, "killed by dwarf"))
    _cleared(folder, data)
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell"], data)
    assert status(folder, data)["hidden_cave"]["collected"] == {"elf": [], "dwarf": [kind]}


@pytest.mark.parametrize("line", ["[" * 100_000 + "]" * 100_000, '{"type": "end-room", "x": NaN}',
                                  '{"type": "end-room", "x": 1e999}'])
def test_a_hostile_campaign_log_line_is_one_line_not_a_crash(tmp_path: Path, data: Path,
                                                             line: str) -> None:
    """The campaign log is read with the session log's checks: deep nesting (once exit 70,
    RecursionError), NaN and overflowing numbers are a damaged line, exit 5."""
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "1"], data)
    with (folder / "campaign.jsonl").open("a", encoding="utf-8") as log:
        log.write(line + "\n")
    refused(["campaign", "status", "--session", str(folder)], data, "line 2 is damaged")


def test_a_room_left_with_only_frozen_monsters_is_cleared(tmp_path: Path, data: Path) -> None:
    # rule: "If every other monster is dead, the frozen ones count as cleared: the room is
    # complete, and the hero who froze a monster gets its gold." (catacombs-facts.md, Ice)
    folder = tmp_path / "iced"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes",
        "elf=8,dwarf=9", "--lord", "hmotha", "--seed", "3"], data)
    entered = json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder),
                             "--json"], data).stdout)
    session = Session.open(Path(entered["session"]), load_catalog(data))
    ai = [p for p in session.state.battle.pieces if p.side == "ai"]
    frozen = next(p for p in ai if p.monster == "sewer-rat")
    killed = [p for p in ai if p is not frozen]
    session.do(Hit((frozen.id,), "ice", by="elf"))
    refused(["campaign", "end-room", "--session", str(folder), "--gold", "2", "--no-spell"],
            data, f"{', '.join(p.id for p in killed)} still in play")  # not the frozen one
    for piece in killed:
        session.do(Remove(piece.id, "killed by dwarf"))
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "2", "--no-spell"], data)
    heroes = status(folder, data)["heroes"]
    gold = {m: s.gold or 0 for m, s in load_catalog(data).monsters.items()}
    assert heroes["elf"]["gold"] == 5 + 2 + gold["sewer-rat"]
    assert heroes["dwarf"]["gold"] == 5 + 2 + sum(gold[p.monster or ""] for p in killed)
