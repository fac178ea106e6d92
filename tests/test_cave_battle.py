"""The Hidden Cave inside a campaign room's battle (`cave HERO SHOTS` in `automa play`) and an
Antient summoned instead of the base shot sequence (`summon HERO ANTIENT`): the collection read
from the campaign and the battle, the refusals, the fight logged as one event that replays and
undoes exactly, and the outcome on the hero's board."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from automa.campaign.battles import open_room
from automa.catalog.load import Catalog, load_catalog
from automa.cli.main import cli
from automa.engine.battle import Battle
from automa.errors import InputError
from automa.model.modes import KrakenTie
from automa.model.pieces import Piece
from automa.model.scenario import Bag
from automa.rules.kraken import CAVE_ITEMS
from automa.rules.rulings import RulingKey, cite
from automa.session.cave import apply_cave, apply_summon
from automa.session.commands import (
    Adjust,
    CaveFight,
    Counter,
    EndHeroesTurn,
    EnterCave,
    Remove,
    Summon,
)
from automa.session.store import Session
from tests.conftest import GLAAOTH, finish_ai_turn, logged_inputs, reseal
from tests.test_campaign import ok, status

ROOM2 = "ehanostha"  # the second battle room of the Monstrosity route


def _play(folder: Path, data: Path, lines: list[str]) -> str:
    result = CliRunner().invoke(cli, ["play", "--session", str(folder)],
                                env={"AUTOMA_DATA_DIR": str(data)},
                                input="".join(f"{line}\n" for line in lines))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def _campaign(tmp_path: Path, catalog: Catalog, heroes: str = "elf=8,dwarf=3",
              collect: int = 4, monsters: str = "") -> tuple[Path, Path, Path, list[str]]:
    """A Monstrosity campaign with the Hidden Cave: the elf collected `collect` of the five in
    Glaaoth; Ehanostha's battle holds one piece of the fifth; `monsters`: records of the
    players' own data folder (a card entered). (campaign, data, battle, needed)"""
    data = tmp_path / "data"
    data.mkdir()
    if monsters:
        (data / "monsters.toml").write_text(monsters, encoding="utf-8")
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", heroes,
        "--lord", "hmotha", "--hidden-cave", "--seed", "8"], None)
    needed: list[str] = status(folder, None)["hidden_cave"]["needed"]
    last = next(m for m in reversed(needed) if catalog.monsters[m].health is not None)
    first = [m for m in needed if m != last]
    room2 = GLAAOTH.replace("[glaaoth]", f"[{ROOM2}]").replace('"sewer-rat", count = 2',
                                                               f'"{last}", count = 1')
    (data / "rooms.toml").write_text(GLAAOTH + room2, encoding="utf-8")
    room1 = Path(json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder),
                                "--json"], data).stdout)["session"])
    session = Session.open(room1, load_catalog(data))
    for piece in [p.id for p in session.state.battle.pieces if p.side == "ai"]:
        session.do(Remove(piece, "dead"))
    collected = [f"--collect=elf={m}" for m in first[:collect]]
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell",
        *collected], data)
    battle = Path(json.loads(ok(["campaign", "next", ROOM2, "--session", str(folder),
                                 "--json"], data).stdout)["session"])
    return folder, data, battle, needed


def _kill_the_fifth(battle: Path, data: Path, needed: list[str], by: str = "elf") -> None:
    session = Session.open(battle, load_catalog(data))
    victim = next(p.id for p in session.state.battle.pieces if p.monster in needed)
    session.do(Remove(victim, f"killed by {by}"))


def test_a_hero_with_all_five_enters_and_wins(tmp_path: Path, catalog: Catalog) -> None:
    # rule: "When a hero collects all five of the monsters, the player controlling that hero
    # may place their hero's piece on the Hidden Cave card instead of taking their normal
    # turn." and "If the hero wins, then they evaded the kraken and gain the following: 1
    # platinum coin from the Treasury, 2 health points, 1 of the items of their choice, and 1
    # unused Antient piece of their choice."
    _, data, battle, needed = _campaign(tmp_path, catalog)
    _kill_the_fifth(battle, data, needed)  # four from Glaaoth, the fifth killed in this battle
    before = Session.open(battle, load_catalog(data)).state.battle.piece("elf")
    # 5 health: 1 token, 20 shot icons: 21 red tokens; the level 1 bag's 13 add up to 12,
    # and 8 more after the counted tokens go back are at least 5: the elf wins whatever comes
    out = _play(battle, data, ["damage elf 3", "cave elf 20", "Trident", "urthoth", "quit"])
    assert f"elf enters the Hidden Cave (instead of their turn) and has left the Battle " \
           f"Phase; the Kraken fight ({cite(RulingKey.CAVE_IN_BATTLE)})" in out
    assert "the hero evades the Kraken: 1 platinum coin (5 gold), 2 health, Trident" in out
    fight = logged_inputs(battle)[-1]
    assert fight["type"] == "cave" and len(fight["tokens"]) == 21
    assert (fight["item"], fight["antient"], fight["portal"]) == ("Trident", "urthoth", False)
    after = Session.open(battle, load_catalog(data)).state.battle.piece("elf")
    assert after.health == 5 + 2 and after.gold == before.gold + 5
    assert after.items == before.items + 1
    # the same log replays to the same board; undo takes the whole fight back at once
    assert Session.open(battle, load_catalog(data)).state.battle.piece("elf") == after
    _play(battle, data, ["undo", "quit"])
    assert Session.open(battle, load_catalog(data)).state.battle.piece("elf").health == 5
    _play(battle, data, ["redo", "quit"])
    assert Session.open(battle, load_catalog(data)).state.battle.piece("elf") == after


def test_the_cave_is_refused_in_one_line(tmp_path: Path, catalog: Catalog) -> None:
    # rule: "When a hero collects all five of the monsters, the player controlling that hero
    # may place their hero's piece on the Hidden Cave card instead of taking their normal turn."
    folder, data, battle, needed = _campaign(tmp_path, catalog)
    out = _play(battle, data, ["cave elf 3", "cave dwarf 3", "cave elf", "quit"])
    fifth = [m for m in needed if m not in status(folder, data)["hidden_cave"]["collected"]
             ["elf"]]
    assert f"elf may not enter the Hidden Cave: elf has not collected {fifth[0]} yet" in out
    assert "dwarf has not collected" in out
    assert "usage: cave HERO SHOTS [portal]" in out
    assert logged_inputs(battle) == []
    _kill_the_fifth(battle, data, needed)
    out = _play(battle, data, ["done", "cave elf 3", "cave dwarf 0 portal", "quit"])
    assert "not the heroes' turn: elf enters the Hidden Cave instead of taking their turn" in out
    # at the AI's prompt: the AI's Portal Trap (result 12) sent the dwarf there
    assert "dwarf enters the Hidden Cave (sent by the Portal Trap)" in out
    assert [e["type"] for e in logged_inputs(battle)] == ["remove", "end-heroes-turn", "cave"]


def test_no_cave_outside_a_campaign_with_one(tmp_path: Path) -> None:
    # rule: "Hidden Cave (Optional)": a session that is no room of a Hidden Cave campaign has
    # no cave to enter
    from tests.conftest import new_session, play_lines
    from tests.test_geometry_modes import DUEL

    folder = new_session(tmp_path, DUEL)
    out = play_lines(folder, ["cave elf 3", "quit"])
    assert "no Hidden Cave in this game" in out
    assert logged_inputs(folder) == []


def test_one_visit_and_the_portal_trap(tmp_path: Path, catalog: Catalog) -> None:
    # rule: "Note: only one hero is permitted to visit the Hidden Cave at a time, unless a hero
    # is sent there via the Portal Trap." and "If the Kraken wins then the hero's ability to
    # explore the Hidden Cave is limited. They may discard one Poison card (if they have one)
    # and take one of the four items (randomly determined)."
    folder, data, battle, needed = _campaign(tmp_path, catalog)
    _kill_the_fifth(battle, data, needed)
    Session.open(battle, load_catalog(data)).do(Adjust(Counter.POISON, "dwarf", 1))
    # the dwarf (3 health: no token, 0 shot icons) sent by the Portal Trap: no collection
    # needed, and with no token the Kraken wins
    out = _play(battle, data, ["cave elf 20", "Trident", "urthoth", "cave dwarf 0 portal",
                               "cave elf 20", "quit"])
    assert "dwarf enters the Hidden Cave (sent by the Portal Trap)" in out
    assert "the Kraken wins: one Poison card discarded (if any), and" in out
    assert "elf has been in the Hidden Cave this turn" in out
    session = Session.open(battle, load_catalog(data))  # the AI's turn, then the heroes' again
    session.do(EndHeroesTurn())
    while session.state.phase == "ai" and session.next_activation() is not None:
        pass
    out = _play(battle, data, ["cave elf 20", "quit"])
    assert f"elf has visited the Hidden Cave already ({cite(RulingKey.CAVE_ONCE)})" in out
    fights = [e for e in logged_inputs(battle) if e["type"] == "cave"]
    assert len(fights) == 2 and fights[1]["antient"] is None and fights[1]["tokens"] == []
    dwarf = Session.open(battle, load_catalog(data)).state.battle.piece("dwarf")
    assert dwarf.poison == 0 and dwarf.items == 1
    # an item taken is gone from beside the card: the random one was one of the three left
    assert fights[1]["item"] in set(CAVE_ITEMS) - {"Trident"}
    assert status(folder, data)["hidden_cave"]["items"] == [
        i for i in CAVE_ITEMS if i not in ("Trident", fights[1]["item"])]


def test_campaign_status_lists_the_items_left_the_visits_and_the_antients(
        tmp_path: Path, catalog: Catalog) -> None:
    # rule: "take one of the four items (randomly determined)" / "gain the following: ... 1 of
    # the items of their choice, and 1 unused Antient piece of their choice": an item taken is
    # no longer beside the Hidden Cave card, in `campaign status` as in the next room's `cave`
    folder, data, battle, needed = _campaign(tmp_path, catalog)
    third = "zhamanok"
    (data / "rooms.toml").write_text((data / "rooms.toml").read_text(encoding="utf-8")
                                     + GLAAOTH.replace("[glaaoth]", f"[{third}]"),
                                     encoding="utf-8")
    _kill_the_fifth(battle, data, needed)
    _play(battle, data, ["cave elf 20", "Trident", "urthoth", "quit"])
    left = [i for i in CAVE_ITEMS if i != "Trident"]
    cave = status(folder, data)["hidden_cave"]
    assert cave["items"] == left
    assert cave["visits"] == [{"hero": "elf", "room": ROOM2, "portal": False, "won": True,
                               "item": "Trident", "antient": "urthoth"}]
    assert cave["antients"] == {"elf": ["urthoth"], "dwarf": []}
    assert set(cave) == {"needed", "collected", "items", "visits", "antients"}
    text = ok(["campaign", "status", "--session", str(folder)], data).stdout
    assert f"; items {', '.join(left)}\n" in text
    assert f"(has visited the Hidden Cave: {cite(RulingKey.CAVE_ONCE)})" in text
    name = next(r["name"] for r in status(folder, data)["rooms"] if r["id"] == ROOM2)
    assert f"elf in the Hidden Cave, in {name}: evaded the Kraken; took Trident and the " \
           f"Antient urthoth" in text
    # a fight undone in the battle is no visit
    _play(battle, data, ["undo", "quit"])
    cave = status(folder, data)["hidden_cave"]
    assert (cave["items"], cave["visits"], cave["antients"]["elf"]) == (list(CAVE_ITEMS), [], [])
    _play(battle, data, ["redo", "quit"])
    # the room ended, the next room's battle sees the same items as the status
    session = Session.open(battle, load_catalog(data))
    for piece in [p.id for p in session.state.battle.pieces if p.side == "ai"]:
        session.do(Remove(piece, "dead"))
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell"], data)
    room3 = Path(json.loads(ok(["campaign", "next", third, "--session", str(folder), "--json"],
                               data).stdout)["session"])
    out = _play(room3, data, ["cave", "quit"])
    assert f"items beside the card: {', '.join(left)}" in out
    assert status(folder, data)["hidden_cave"]["items"] == left


def test_the_cave_is_fought_when_no_item_is_left(tmp_path: Path, catalog: Catalog) -> None:
    # rule: "When a hero collects all five of the monsters, the player controlling that hero
    # may place their hero's piece on the Hidden Cave card" (the items are no condition) and
    # "If the hero wins, then they ... gain the following: 1 platinum coin from the Treasury, 2
    # health points, 1 of the items of their choice, and 1 unused Antient piece of their
    # choice": with no item left, everything but the item
    folder, data, battle, needed = _campaign(tmp_path, catalog)
    _kill_the_fifth(battle, data, needed)
    # the Portal Trap sent the dwarf there four times (3 health, no shot icon: no token, the
    # Kraken wins): each time an item drawn at random, until none is left
    _play(battle, data, ["damage elf 3", *["cave dwarf 0 portal"] * 4, "quit"])
    assert status(folder, data)["hidden_cave"]["items"] == []
    session = open_room(battle, load_catalog(data))  # with what its campaign says
    with pytest.raises(InputError, match="the item taken is one of those beside the Hidden "
                                         "Cave card \\(none is left\\), not 'Trident'"):
        session.do(EnterCave("dwarf", 0, True, CaveFight(1, 5, (), KrakenTie.KRAKEN,
                                                         "Trident", None)))
    Session.open(battle, load_catalog(data)).do(Adjust(Counter.POISON, "dwarf", 1))
    before = Session.open(battle, load_catalog(data)).state.battle
    # 5 health: 1 token, 20 shot icons: the elf wins whatever comes (as above); no item is asked
    out = _play(battle, data, ["cave dwarf 0 portal", "cave elf 20", "urthoth", "quit"])
    assert "the Kraken wins: one Poison card discarded (if any), and no item: none is left " \
           "beside the Hidden Cave card" in out
    assert "the hero evades the Kraken: 1 platinum coin (5 gold), 2 health, no item: none is " \
           "left beside the Hidden Cave card, the Antient urthoth" in out
    fights = [e for e in logged_inputs(battle) if e["type"] == "cave"]
    assert len(fights) == 6 and [f["item"] for f in fights[4:]] == [None, None]
    after = Session.open(battle, load_catalog(data)).state.battle  # replayed from the log
    elf, dwarf = after.piece("elf"), after.piece("dwarf")
    assert (elf.health, elf.gold, elf.items) == (5 + 2, before.piece("elf").gold + 5,
                                                 before.piece("elf").items)
    assert (dwarf.poison, dwarf.items) == (0, before.piece("dwarf").items)
    cave = status(folder, data)["hidden_cave"]
    assert cave["items"] == [] and cave["antients"]["elf"] == ["urthoth"]
    assert cave["visits"][-1] == {"hero": "elf", "room": ROOM2, "portal": False, "won": True,
                                  "item": None, "antient": "urthoth"}
    assert "took no item (none left) and the Antient urthoth" in ok(
        ["campaign", "status", "--session", str(folder)], data).stdout


def test_summon_the_antient_won(tmp_path: Path, catalog: Catalog) -> None:
    # rule: "This Antient may be summoned instead of performing their hero's base shot
    # sequence in a subsequent turn of the Battle Phase."
    _, data, battle, needed = _campaign(tmp_path, catalog)
    _kill_the_fifth(battle, data, needed)
    out = _play(battle, data, ["summon elf urthoth", "cave elf 20", "Trident", "urthoth",
                               "summon dwarf urthoth", "summon elf urthoth", "quit"])
    assert "elf holds no Antient 'urthoth' (held: none;" in out
    assert "dwarf holds no Antient 'urthoth'" in out
    # "in a subsequent turn": the cave visit was the elf's turn (ruling 58)
    assert "elf has been in the Hidden Cave this turn: an Antient is summoned instead" in out
    _next_round(battle, data)
    out = _play(battle, data, ["summon elf urthoth", "summon elf urthoth", "quit"])
    assert "elf summons urthoth instead of performing their base shot sequence" in out
    assert f"({cite(RulingKey.ANTIENT_SUMMON_ONCE)})" in out
    assert "elf summoned an Antient this turn: an Antient is summoned instead" in out
    state = Session.open(battle, load_catalog(data)).state
    assert state.battle.piece("elf").used == ("urthoth (summoned)",)
    # the shipped data lacks Urthoth's card: the players place it and play it themselves
    assert state.battle.get("urthoth") is None
    assert "its card is not in our data, so the AI cannot play it" in out
    _play(battle, data, ["undo", "quit"])  # undoable
    assert Session.open(battle, load_catalog(data)).state.battle.piece("elf").used == ()
    _play(battle, data, ["summon elf urthoth", "quit"])
    _next_round(battle, data)
    assert "elf has summoned urthoth already: it is used" in _play(
        battle, data, ["summon elf urthoth", "quit"])


def _next_round(battle: Path, data: Path) -> None:
    """The heroes' turn ends and the AI turn is played through."""
    session = Session.open(battle, load_catalog(data))
    session.do(EndHeroesTurn())
    finish_ai_turn(session)


def test_a_card_used_once_per_game_in_an_earlier_room(tmp_path: Path, catalog: Catalog) -> None:
    # rule: "A once-per-game box (Spells, items) is discarded after use." (catacombs-facts.md
    # 1.8): a card used in an earlier room of the campaign cannot be used again
    data = tmp_path / "data"
    data.mkdir()
    folder = tmp_path / "c"
    room2 = GLAAOTH.replace("[glaaoth]", f"[{ROOM2}]")
    (data / "rooms.toml").write_text(GLAAOTH + room2, encoding="utf-8")
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "3"], data)
    room1 = Path(json.loads(ok(["campaign", "next", "glaaoth", "--session", str(folder),
                                "--json"], data).stdout)["session"])
    _play(room1, data, ["used elf fire ball game", "used elf elven arrow room", "quit"])
    session = Session.open(room1, load_catalog(data))
    for piece in [p.id for p in session.state.battle.pieces if p.side == "ai"]:
        session.do(Remove(piece, "dead"))
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell"], data)
    room2_folder = Path(json.loads(ok(["campaign", "next", ROOM2, "--session", str(folder),
                                       "--json"], data).stdout)["session"])
    out = _play(room2_folder, data, ["used elf fire ball room", "used elf elven arrow room",
                                     "quit"])
    assert "elf already used fire ball this game: the card is discarded" in out
    # the campaign logged the spent card first in the room's battle; the second use is refused
    assert [e["card"] for e in logged_inputs(room2_folder)] == ["fire ball", "elven arrow"]


def _hero(health: int = 8, poison: int = 0) -> Battle:
    elf = Piece("elf", "heroes", "hero", (10.0, 10.0), 1.5, health=health, gold=2,
                poison=poison, starting_health=9)
    return Battle((elf,), {1: Bag(tuple())}, {})


def _event(**fields: Any) -> dict[str, Any]:
    return {"type": "cave", "piece": "elf", "shots": 0, "bag": 1, "strength": 5,
            "tokens": [], "tie": "kraken", "item": "Trident", "antient": None,
            "portal": False, **fields}


def apply_cave_event(battle: Battle, event: dict[str, Any]) -> Battle:
    """A Kraken fight's log line, read and applied."""
    return apply_cave(battle, EnterCave.from_json(event))


def test_the_outcome_lands_on_the_board(catalog: Catalog) -> None:
    # rule: "If the hero wins, then they evaded the kraken and gain the following: 1 platinum
    # coin from the Treasury, 2 health points, 1 of the items of their choice, and 1 unused
    # Antient piece of their choice."
    bag = Bag(catalog.components.bags[1])
    battle = Battle(_hero().pieces, {1: bag}, {})
    won = apply_cave_event(battle, _event(strength=1, tokens=["2", "1"],
                                          antient="urthoth"))
    elf = won.piece("elf")
    assert (elf.health, elf.gold, elf.items) == (9, 7, 1)  # 8 + 2, no more than the 9 it had
    assert sorted(t.label() for t in won.bags[1].discard) == ["1", "2"]  # the tokens discarded
    # "If the Kraken wins ... They may discard one Poison card (if they have one) and take one
    # of the four items (randomly determined)."
    poisoned = Battle(_hero(poison=2).pieces, {1: bag}, {})
    lost = apply_cave_event(poisoned, _event(strength=12, tokens=["2", "1"]))
    assert (lost.piece("elf").poison, lost.piece("elf").items, lost.piece("elf").gold) == \
        (1, 1, 2)
    # a tie is the Kraken's (ruling kraken-tie) unless the scenario says otherwise
    tie = apply_cave_event(battle, _event(strength=3, tokens=["2", "1"]))
    assert tie.piece("elf").gold == 2
    hero_tie = apply_cave_event(battle, _event(strength=3, tokens=["2", "1"],
                                               tie="hero", antient="urthoth"))
    assert hero_tie.piece("elf").gold == 7


@pytest.mark.parametrize(("fields", "words"), [
    ({"tokens": ["1"]}, "elf draws 2 red tokens (8 health, 0 shot icons), not 1"),
    ({"tokens": ["9", "9"]}, "the red token 9 is not in the level 1 bag"),
    ({"strength": 13, "tokens": ["1", "1"]}, "strength 13 is not a whole number from 1 to 12"),
    ({"strength": 1, "tokens": ["1", "1"]}, "name the unused Antient they take"),
    ({"strength": 12, "tokens": ["1", "1"], "antient": "urthoth"}, "the hero takes no Antient"),
    ({"piece": "rat-1", "tokens": ["1", "1"]}, "no hero 'rat-1' in play"),
    ({"tie": "draw", "tokens": ["1", "1"]}, "tie 'draw' is not one of kraken, hero"),
])
def test_a_bad_cave_event_is_one_line(catalog: Catalog, fields: dict[str, Any],
                                      words: str) -> None:
    battle = Battle(_hero().pieces, {1: Bag(catalog.components.bags[1])}, {})
    with pytest.raises(InputError, match=words.replace("(", r"\(").replace(")", r"\)")):
        apply_cave_event(battle, _event(**fields))


def test_a_summon_is_marked_used_once(catalog: Catalog) -> None:
    # rule: "This Antient may be summoned instead of performing their hero's base shot sequence
    # in a subsequent turn of the Battle Phase." (ruling antient-summon-once)
    battle = apply_summon(_hero(), Summon("elf", "urthoth"), catalog)
    assert battle.piece("elf").used == ("urthoth (summoned)",)
    with pytest.raises(InputError, match="summoned urthoth already"):
        apply_summon(battle, Summon("elf", "urthoth"), catalog)


def test_a_physical_fight_asks_the_table(tmp_path: Path, catalog: Catalog) -> None:
    # rule: "First, roll the D12 which represents the Kraken's attack strength. The hero draws
    # a red Damage token for every 4 Health points they currently have." With `--dice
    # physical` the table rolls and draws, and the fight is logged as typed.
    _, data, battle, needed = _campaign(tmp_path, catalog)
    log = battle / "log.jsonl"  # the room's battle played with the table's dice
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["chance"] == "virtual"
    log.write_text(json.dumps({**header, "chance": "physical"}) + "\n", encoding="utf-8")
    reseal(log)
    _kill_the_fifth(battle, data, needed)
    # 8 health: 2 tokens, and 1 shot icon: 3 tokens, 1 + 1 + 2 = 4 against a D12 of 3
    out = _play(battle, data, ["cave elf 1", "3", "1", "1", "2", "Delilah's Potion",
                               "flame-antient", "quit"])
    assert "elf draws 3 red Damage tokens (level 1 bag" in out
    fight = logged_inputs(battle)[-1]
    assert (fight["strength"], fight["tokens"]) == (3, ["1", "1", "2"])
    assert (fight["item"], fight["antient"]) == ("Delilah's Potion", "flame-antient")
    elf = Session.open(battle, load_catalog(data)).state.battle.piece("elf")
    assert (elf.health, elf.items) == (8, 1)  # 8 + 2, never above the starting 8


def test_the_cave_is_entered_instead_of_a_turn_and_shown(tmp_path: Path,
                                                        catalog: Catalog) -> None:
    # rule: "the player controlling that hero may place their hero's piece on the Hidden Cave
    # card instead of taking their normal turn": a hero who has shot this turn has taken it;
    # next turn they may enter. `cave` alone shows each hero's collection.
    folder, data, battle, needed = _campaign(tmp_path, catalog)
    _kill_the_fifth(battle, data, needed)
    kept = status(folder, data)["hidden_cave"]["collected"]["elf"]
    out = _play(battle, data, ["cave", "quit"])
    assert f"elf keeps: {', '.join([*kept, *(m for m in needed if m not in kept)])} " \
           f"(may enter instead of their turn)" in out
    assert "dwarf keeps: none (missing " in out
    rat = next(p.id for p in Session.open(battle, load_catalog(data)).state.battle.pieces
               if p.side == "ai" and p.kind == "monster")
    out = _play(battle, data, [f"hit {rat} fire-wall by elf", "cave elf 20", "quit"])
    assert "elf has shot this turn: the Hidden Cave is entered instead of taking their " \
           "normal turn" in out
    assert [e["type"] for e in logged_inputs(battle)][-1] == "hit"
