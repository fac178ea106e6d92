"""Special rooms are visits with a menu: what can be bought at the data's prices (visits.toml,
with provenance), refused in one line when a hero cannot afford it, gold pooled only where the
room allows, everything on the heroes' boards and undone by `campaign undo`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from automa.campaign import tavern
from automa.campaign.commands import BadLine, StartCampaign
from automa.campaign.log import CampaignError
from automa.campaign.model import HeroBoard
from automa.campaign.visits import bought, paid
from automa.catalog.campaigns import load_visits
from automa.catalog.load import Catalog
from automa.model.campaigns import Offer
from automa.rules.rulings import RulingKey, ruling
from tests.test_campaign import ok, refused, run, status


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "my-data"
    folder.mkdir()
    return folder


def _at(room: str, folder: Path, data: Path | None, *more: str) -> dict[str, Any]:
    campaign = "pharaoh" if room in ("alewife-tavern", "crypt-of-shaurath") else "monstrosity"
    ok(["campaign", "new", campaign, "--session", str(folder), "--heroes", "elf=8,dwarf=9",
        "--lord", "hmotha", "--seed", "5", *more], data)
    shown: dict[str, Any] = json.loads(ok(["campaign", "next", room, "--session", str(folder),
                                           "--json"], data).stdout)
    return shown


def _buy(folder: Path, data: Path | None, *args: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(ok(["campaign", "visit", *args, "--session", str(folder),
                                         "--json"], data).stdout)
    return out


def test_shipped_prices_carry_their_provenance(catalog: Catalog) -> None:
    visits = load_visits(None, catalog.rooms)
    izchak = {o.id: o for o in visits["izchak-the-merchant"].offers}
    # "Pay 1 gold to see the next card (no limit). Gold can be pooled. A map costs 2 gold"
    assert (izchak["next-card"].price, izchak["map"].price, izchak["item"].price) == (1, 2, None)
    assert visits["izchak-the-merchant"].pool and izchak["map"].provenance == "official"
    althea = visits["althea-the-healer"]
    assert [(o.id, o.price) for o in althea.menu({"althea-cure": "official"})] == [
        ("free-cure", 0), ("heal", 3), ("cure", 20), ("resurrect", 10)]
    assert althea.offer("cure", {"althea-cure": "fan"}).price == 2  # type: ignore[union-attr]
    for sleep in ("capped", "over"):
        inn = {o.id: (o.price, o.provenance) for o in visits["amaranth-inn"].menu(
            {"inn-sleep": sleep})}
        assert inn == {"sleep": (8, "fan"), "cellar-job": (8, "fan"), "ally": (10, "fan")}
    assert [o.over for o in visits["amaranth-inn"].offers if o.id == "sleep"] == [False, True]
    assert not visits["hearthshire-stables"].known and not visits["crypt-of-shaurath"].known


def test_one_hero_pays_at_the_merchant(tmp_path: Path) -> None:
    # rule: "Reminder: Catacomb heroes cannot share their gold with other heroes or amongst
    # themselves." (l.306): every hero is a Catacomb hero (ruling dagger-hero), so even at the
    # Merchant one hero pays each price (ruling visit-pool's default)
    folder = tmp_path / "c"
    entered = _at("izchak-the-merchant", folder, None)
    assert entered["menu"]["pool"] is False
    shown = ok(["campaign", "visit", "--session", str(folder)], None).stdout
    number = ruling(RulingKey.VISIT_POOL).number
    assert f"Gold: one hero pays each price from their own gold (Catacomb heroes cannot share " \
           f"their gold) (* ruling {number}, visit-pool = own-gold)" in shown
    log = (folder / "campaign.jsonl").read_bytes()
    split = run(["campaign", "visit", "map", "--pay", "elf=1,dwarf=1", "--session", str(folder)],
                None)
    assert split.exit_code == 2 and split.stdout == ""
    assert split.stderr.splitlines() == [
        "automa: --pay: elf and dwarf cannot split the price: \"Catacomb heroes cannot share "
        "their gold with other heroes or amongst themselves\", so one hero pays it all (* ruling "
        f"{number}, visit-pool = own-gold; a campaign begun with `automa campaign new ... "
        "--visit-pool pooled` pools gold at the Merchant)"]
    assert (folder / "campaign.jsonl").read_bytes() == log  # nothing written
    assert [b["gold"] for b in status(folder, None)["heroes"].values()] == [5, 5]
    refused(["campaign", "visit", "item", "--for", "elf", "--price", "6", "--pay",
             "elf=4,dwarf=2", "--session", str(folder)], None, "cannot split the price")
    after = _buy(folder, None, "map", "--pay", "elf")
    assert (after["heroes"]["elf"]["gold"], after["heroes"]["dwarf"]["gold"]) == (3, 5)
    assert after["visit"]["payers"] == {"elf": 2}
    after = _buy(folder, None, "item", "--for", "elf", "--price", "4", "--pay", "dwarf")
    assert (after["heroes"]["elf"]["items"], after["heroes"]["dwarf"]["gold"]) == (1, 1)


def test_the_merchant_pools_gold_by_the_other_reading(tmp_path: Path) -> None:
    # rule: "Pay 1 gold to see the next card (no limit). Gold can be pooled. A map costs 2 gold
    # and reveals every Room card." (base game; ruling visit-pool's `pooled`)
    folder = tmp_path / "c"
    entered = _at("izchak-the-merchant", folder, None, "--visit-pool", "pooled")
    header = json.loads((folder / "campaign.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["settings"] == {"althea-cure": "official", "visit-pool": "pooled",
                                  "inn-sleep": "capped"}
    # a header written before the setting was kept reads as the ruling's default
    older = {k: v for k, v in header.items() if k != "settings"}
    assert StartCampaign.from_json(older).visit_pool == "own-gold"
    with pytest.raises(BadLine, match=r"settings\.visit-pool 'shared' is not one of own-gold, "
                                      r"pooled"):
        StartCampaign.from_json({**header, "settings": {"visit-pool": "shared"}})
    assert [o["id"] for o in entered["menu"]["offers"]] == ["item", "next-card", "map"]
    assert entered["menu"]["pool"] is True
    shown = ok(["campaign", "visit", "--session", str(folder)], None).stdout
    assert "map" in shown and "2 gold" in shown
    assert f"may pool their gold (* ruling {ruling(RulingKey.VISIT_POOL).number}, visit-pool = " \
           f"pooled)" in shown
    paid = ok(["campaign", "visit", "map", "--pay", "elf=1,dwarf=1", "--session", str(folder)],
              None).stdout
    assert "(paid: elf 1, dwarf 1; pooled, * ruling" in paid
    after = status(folder, None)
    assert (after["heroes"]["elf"]["gold"], after["heroes"]["dwarf"]["gold"]) == (4, 4)
    refused(["campaign", "visit", "item", "--for", "elf", "--price", "6", "--session",
             str(folder)], None, "elf cannot afford 6 gold: elf has 4 (the heroes hold 8")
    refused(["campaign", "visit", "item", "--for", "elf", "--session", str(folder)], None,
            "--price")
    refused(["campaign", "visit", "map", "--pay", "elf=1", "--session", str(folder)], None,
            "1 gold given for a price of 2")
    refused(["campaign", "visit", "sleep", "--session", str(folder)], None, "offers no 'sleep'")
    after = _buy(folder, None, "item", "--for", "elf", "--price", "6", "--pay", "elf=4,dwarf=2")
    assert (after["heroes"]["elf"]["items"], after["heroes"]["elf"]["gold"]) == (1, 0)
    for _ in range(2):  # "no limit"
        _buy(folder, None, "next-card", "--pay", "dwarf")
    assert status(folder, None)["heroes"]["dwarf"]["gold"] == 0
    # undo takes back the last purchase only
    ok(["campaign", "undo", "--session", str(folder)], None)
    assert status(folder, None)["heroes"]["dwarf"]["gold"] == 1
    log = ok(["campaign", "log", "--session", str(folder)], None).stdout
    assert "bought item at izchak-the-merchant for 6 gold (elf 4, dwarf 2) for elf" in log


def test_althea_heals_cures_and_resurrects_at_her_prices(tmp_path: Path) -> None:
    # rule: "cures 1 Poison card free ... Heal hero or ally +1: 3 gold. Cure poison: 20 gold ...
    # Resurrect a hero with 2 health: 10 gold"
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8,dwarf=9",
        "--lord", "hmotha", "--seed", "5"], None)
    ok(["campaign", "next", "izchak-the-merchant", "--session", str(folder)], None)
    ok(["campaign", "end-room", "--session", str(folder), "--change", "dwarf.poison=+2",
        "--change", "dwarf.health=-3", "--change", "dwarf.gold=+20"], None)
    ok(["campaign", "next", "althea-the-healer", "--session", str(folder)], None)
    _buy(folder, None, "free-cure", "--for", "dwarf")
    refused(["campaign", "visit", "free-cure", "--for", "dwarf", "--session", str(folder)],
            None, "only 1 per visit")
    refused(["campaign", "visit", "cure", "--for", "dwarf", "--pay", "elf", "--session",
             str(folder)], None, "elf cannot afford 20 gold")
    after = _buy(folder, None, "cure", "--for", "dwarf")
    assert (after["heroes"]["dwarf"]["poison"], after["heroes"]["dwarf"]["gold"]) == (0, 5)
    refused(["campaign", "visit", "cure", "--for", "dwarf", "--session", str(folder)], None,
            "no Poison card")
    after = _buy(folder, None, "heal", "--for", "dwarf")
    assert (after["heroes"]["dwarf"]["health"], after["heroes"]["dwarf"]["gold"]) == (7, 2)
    refused(["campaign", "visit", "resurrect", "--for", "elf", "--pay", "dwarf", "--session",
             str(folder)], None, "'elf' is not a dead hero")  # a dead hero: the whole campaign


def test_the_fan_cure_price_is_a_setting(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    _at("althea-the-healer", folder, None, "--althea-cure", "fan")
    cure = next(o for o in json.loads(ok(["campaign", "visit", "--session", str(folder),
                                          "--json"], None).stdout)["offers"]
                if o["id"] == "cure")
    assert (cure["price"], cure["provenance"]) == (2, "fan")


def test_boards_change_by_the_offer() -> None:
    heroes = {"elf": HeroBoard("elf", 8, 8, 10), "dwarf": HeroBoard("dwarf", 9, 0, 0,
                                                                     alive=False)}
    sleep = Offer("sleep", "sleep", 8, "each:health+1", over=True)
    assert bought(heroes, sleep, None)["elf"].health == 9  # "may exceed starting health"
    assert bought(heroes, sleep, None)["dwarf"].health == 0  # every *living* hero
    heal = Offer("heal", "heal", 3, "health+1")
    assert bought(heroes, heal, "elf")["elf"].health == 8  # never above starting health
    raised = bought(heroes, Offer("r", "r", 10, "resurrect", health=2), "dwarf")["dwarf"]
    assert (raised.alive, raised.health) == (True, 2)
    with pytest.raises(CampaignError, match="gold cannot be pooled"):
        paid(heroes | {"orc": HeroBoard("orc", 5, 5, 5)}, {"elf": 4, "orc": 4}, 8, False)


def _at_the_inn(folder: Path, *more: str) -> None:
    """The elf with 18 gold and the dwarf two health down, at the Amaranth Inn."""
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8,dwarf=9",
        "--lord", "hmotha", "--seed", "5", *more], None)
    ok(["campaign", "next", "izchak-the-merchant", "--session", str(folder)], None)
    ok(["campaign", "end-room", "--session", str(folder), "--change", "elf.gold=+13",
        "--change", "dwarf.health=-2"], None)
    ok(["campaign", "next", "amaranth-inn", "--session", str(folder)], None)


def test_the_inn_sleep_stops_at_the_starting_health(tmp_path: Path) -> None:
    # ruling inn-sleep: "A character's health may not be increased beyond its starting level"
    # (official, Taking and Healing Damage); only the fan transcription of the Inn's card says
    # "(in this case, they can exceed their starting health)"
    folder = tmp_path / "c"
    _at_the_inn(folder)
    number = ruling(RulingKey.INN_SLEEP).number
    menu = json.loads(ok(["campaign", "visit", "--session", str(folder), "--json"],
                         None).stdout)
    sleep = next(o for o in menu["offers"] if o["id"] == "sleep")
    assert (sleep["price"], sleep["ruling"], sleep["provenance"]) == (8, number, "fan")
    assert number in menu["rulings"]
    shown = ok(["campaign", "visit", "--session", str(folder)], None).stdout
    assert (f"sleep: every living hero +1 health, not past their starting health (ruling "
            f"{number}: capped)") in shown
    refused(["campaign", "visit", "sleep", "--pay", "elf=4,dwarf=4", "--session", str(folder)],
            None, "cannot split the price")
    slept = ok(["campaign", "visit", "sleep", "--pay", "elf", "--session", str(folder)],
               None).stdout.splitlines()
    assert slept[0] == (f"sleep: every living hero +1 health, not past their starting health: "
                        f"8 gold (paid: elf 8, ruling {number}: capped)")
    assert slept[1:] == ["  dwarf: health 8/9, gold 5, poison 0, items 0, allies 0",
                         "  elf: health 8/8, gold 10, poison 0, items 0, allies 0"]
    ok(["campaign", "undo", "--session", str(folder)], None)
    after = _buy(folder, None, "sleep", "--pay", "elf")
    assert (after["heroes"]["elf"]["health"], after["heroes"]["dwarf"]["health"]) == (8, 8)
    assert number in after["rulings"]
    after = _buy(folder, None, "sleep", "--pay", "elf")
    assert (after["heroes"]["elf"]["health"], after["heroes"]["dwarf"]["health"]) == (8, 9)
    assert after["heroes"]["elf"]["gold"] == 2  # paid all the same
    refused(["campaign", "visit", "ally", "--for", "elf", "--session", str(folder)], None,
            "elf cannot afford 10 gold")


def test_the_inn_sleep_passes_the_starting_health_by_the_other_reading(tmp_path: Path) -> None:
    # ruling inn-sleep's `over`: the fan transcription, "each living hero receives one health
    # (in this case, they can exceed their starting health)"
    folder = tmp_path / "c"
    _at_the_inn(folder, "--inn-sleep", "over")
    header = json.loads((folder / "campaign.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["settings"]["inn-sleep"] == "over"
    with pytest.raises(BadLine, match=r"settings\.inn-sleep 'always' is not one of capped, "
                                      r"over"):
        StartCampaign.from_json({**header, "settings": {"inn-sleep": "always"}})
    older = {**header, "settings": {"althea-cure": "official"}}
    assert StartCampaign.from_json(older).inn_sleep == "capped"  # written before the setting
    after = _buy(folder, None, "sleep", "--pay", "elf")
    assert (after["heroes"]["elf"]["health"], after["heroes"]["dwarf"]["health"]) == (9, 8)
    sleep = next(o for o in json.loads(ok(["campaign", "visit", "--session", str(folder),
                                           "--json"], None).stdout)["offers"]
                 if o["id"] == "sleep")
    assert (sleep["text"], sleep["ruling"]) == (
        "sleep: every living hero +1 health (may pass their starting health)",
        ruling(RulingKey.INN_SLEEP).number)
    text = ok(["campaign", "status", "--session", str(folder)], None).stdout
    assert "elf: health 9/8" in text
    after = _buy(folder, None, "ally", "--for", "elf")
    assert (after["heroes"]["elf"]["allies"], after["heroes"]["elf"]["gold"]) == (1, 0)


def test_tavern_results_best_first_and_a_lower_reward() -> None:
    # rule: "3 heroes ... 3 of a kind ... 2 heroes ... 3 different colours ... 1 hero: +1 gold.
    # A lower reward may be taken instead."
    assert tavern.result(["hero", "hero", "hero"]) == "three-heroes"
    assert tavern.result(["orc", "orc", "orc"]) == "three-of-a-kind"
    assert tavern.result(["hero", "orc", "hero"]) == "two-heroes"
    assert tavern.result(["orc", "centaur", "fire-spirit"]) == "three-colours"
    assert tavern.result(["orc", "centaur", "hero"]) == "one-hero"
    assert tavern.result(["orc", "orc", "centaur"]) is None
    assert [r[0] for r in tavern.rewards("three-colours")] == ["heal", "cure", "gold"]
    drawn = tavern.draw({"orc": 1, "fire-spirit": 1, "centaur": 0, "hero": 1},
                        np.random.default_rng(3))
    assert sorted(drawn) == ["fire-spirit", "hero", "orc"]  # without putting one back


def test_the_tavern_bet_virtual_and_at_the_table(tmp_path: Path, data: Path) -> None:
    folder = tmp_path / "c"
    _at("alewife-tavern", folder, data)
    refused(["campaign", "visit", "bet", "--pay", "dwarf", "--for", "elf", "--session",
             str(folder)], data, "--bag")
    first = _buy(folder, data, "bet", "--pay", "dwarf", "--for", "elf", "--bag",
                 "orc=6,fire-spirit=4,centaur=4")["visit"]
    assert len(first["drawn"]) == 3 and first["price"] == 2
    assert "orc = 6" in (data / "visits.toml").read_text(encoding="utf-8")  # asked once
    _buy(folder, data, "bet", "--pay", "dwarf", "--for", "elf")  # remembered: not asked again
    ok(["campaign", "undo", "--session", str(folder)], data)
    ok(["campaign", "undo", "--session", str(folder)], data)
    again = _buy(folder, data, "bet", "--pay", "dwarf", "--for", "elf")["visit"]
    assert again["drawn"] != [] and status(folder, data)["heroes"]["dwarf"]["gold"] == 3
    refused(["campaign", "visit", "bet", "--pay", "dwarf", "--drawn", "hero,hero,orc",
             "--reward", "cure-all", "--for", "elf", "--session", str(folder)], data,
            "not a reward for two-heroes")
    table = _buy(folder, data, "bet", "--pay", "dwarf", "--for", "elf", "--drawn",
                 "hero,hero,orc", "--reward", "gold")
    assert table["visit"]["reward"] == "gold" and table["heroes"]["elf"]["gold"] == 6
    refused(["campaign", "visit", "bet", "--pay", "elf", "--dice", "physical", "--session",
             str(folder)], data, "--drawn")
    piped = json.loads(ok(["campaign", "visit", "bet", "--pay", "elf", "--dice", "physical",
                           "--ask", "--session", str(folder), "--json"], data,
                          stdin="hero, dragon, orc\norc, orc, orc\n").stdout)["visit"]
    assert (piped["result"], piped["reward"]) == ("three-of-a-kind", "item")


def test_a_room_our_sources_lack_is_asked_once(tmp_path: Path, data: Path) -> None:
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha"], data)
    refused(["campaign", "next", "hearthshire-stables", "--session", str(folder)], data,
            "--offers")
    refused(["campaign", "next", "hearthshire-stables", "--session", str(folder), "--offers",
             "groom=3:mana+1"], data, "unknown effect 'mana+1'")
    ok(["campaign", "next", "hearthshire-stables", "--session", str(folder), "--offers",
        "groom=3:health+2; horse=card:items+1"], data)
    assert 'provenance = "asked"' in (data / "visits.toml").read_text(encoding="utf-8")
    after = _buy(folder, data, "horse", "--price", "4")
    assert (after["heroes"]["elf"]["items"], after["heroes"]["elf"]["gold"]) == (1, 1)
    second = tmp_path / "second"
    ok(["campaign", "new", "monstrosity", "--session", str(second), "--heroes", "elf=8",
        "--lord", "hmotha"], data)
    menu = json.loads(ok(["campaign", "next", "hearthshire-stables", "--session", str(second),
                          "--json"], data).stdout)["menu"]
    assert [o["id"] for o in menu["offers"]] == ["groom", "horse"]
    refused(["campaign", "visit", "map", "--session", str(tmp_path / "none")], data,
            "no campaign here")


def test_a_bad_visit_record_is_one_data_check_problem(tmp_path: Path, data: Path) -> None:
    from automa.catalog.load import check_catalog

    (data / "visits.toml").write_text(
        '[amaranth-inn]\nprovenance = "house"\noffers = [{ id = "sleep", text = "sleep", '
        'price = 8, effect = "each:mana+1" }]\n', encoding="utf-8")
    problems = check_catalog(data)
    assert [(p.record, p.field) for p in problems] == [("amaranth-inn", "offers[0].effect")]
    (data / "visits.toml").write_text('[glaaoth]\nprovenance = "house"\noffers = []\n',
                                      encoding="utf-8")
    assert [p.record for p in check_catalog(data)] == ["glaaoth"]  # not a special room


def test_status_says_a_visit_is_under_way(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    _at("izchak-the-merchant", folder, None)
    _buy(folder, None, "map", "--pay", "elf")
    text = ok(["campaign", "status", "--session", str(folder)], None).stdout
    assert "Now: visiting izchak-the-merchant (bought so far: map)" in text
