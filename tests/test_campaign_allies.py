"""Allies recruited at the Amaranth Inn are real: the campaign keeps each one (its id, the hero
it serves, its health), places it in every battle room's setup as `automa setup --allies` does,
carries its health from room to room as a hero's, and gives its kill gold to its hero.

Rule (research notes 2.5, Allies): "An ally gets 2 Spell cards, cannot buy or sell items, and
earns no gold itself; its gold goes to its hero. It cannot be resurrected ... Both hero and ally
take a turn each round. Recruit at the Amaranth Inn for 10 gold by drawing a random unused Hero
Portrait"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from automa.campaign.model import AllyBoard, HeroBoard
from automa.campaign.visits import bought
from automa.catalog.load import Catalog, load_catalog
from automa.errors import ScenarioError
from automa.model.campaigns import Offer
from automa.model.pieces import Kind
from automa.scenario.load import parse_scenario
from automa.session.commands import Damage, Remove
from automa.session.store import SCENARIO, Session
from tests.test_campaign import ok, refused, status


def _recruited(folder: Path, data: Path, *ally: str) -> dict[str, Any]:
    """The elf (8 health, 18 gold) and the dwarf at the Amaranth Inn, the elf's ally bought."""
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8,dwarf=9",
        "--lord", "hmotha", "--seed", "5"], data)
    ok(["campaign", "next", "izchak-the-merchant", "--session", str(folder)], data)
    ok(["campaign", "end-room", "--session", str(folder), "--change", "elf.gold=+13"], data)
    ok(["campaign", "next", "amaranth-inn", "--session", str(folder)], data)
    bought: dict[str, Any] = json.loads(ok(["campaign", "visit", "ally", "--for", "elf", *ally,
                                            "--session", str(folder), "--json"], data).stdout)
    ok(["campaign", "end-room", "--session", str(folder)], data)
    return bought


def _room(folder: Path, data: Path, room: str, *more: str) -> Session:
    battle = Path(json.loads(ok(["campaign", "next", room, "--session", str(folder), *more,
                                 "--json"], data).stdout)["session"])
    return Session.open(battle, load_catalog(data))


def test_an_ally_is_placed_and_carries_its_health_and_its_gold_to_its_hero(
        tmp_path: Path, data: Path, catalog: Catalog) -> None:
    folder = tmp_path / "c"
    bought = _recruited(folder, data, "--ally-health", "6")
    elf = bought["heroes"]["elf"]
    assert (elf["allies"], elf["gold"]) == (1, 8)
    assert elf["ally_boards"] == [{"id": "elf-ally", "health": 6, "starting_health": 6,
                                   "alive": True}]
    assert "ally_boards" not in bought["heroes"]["dwarf"]  # a board without allies as before
    session = _room(folder, data, "glaaoth")
    ally = next(p for p in session.state.battle.pieces if p.id == "elf-ally")
    assert (ally.kind, ally.health, ally.starting_health, ally.serves) == (Kind.ALLY, 6, 6,
                                                                          "elf")
    scenario = (session.folder / SCENARIO).read_text(encoding="utf-8")
    assert 'serves = "elf"' in scenario  # the room's file keeps whom it serves
    for bad, words in (('serves = "nobody"', "no hero 'nobody'"),):
        with pytest.raises(ScenarioError, match=words):
            parse_scenario(scenario.replace('serves = "elf"', bad), "room", load_catalog(data))
    session.do(Damage("elf-ally", 2))
    rats = [p.id for p in session.state.battle.pieces if p.side == "ai"]
    session.do(Remove(rats[0], "killed by elf-ally"))  # its gold is the elf's
    for rat in rats[1:]:
        session.do(Remove(rat, "dead"))
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell"], data)
    elf = status(folder, data)["heroes"]["elf"]
    assert elf["ally_boards"] == [{"id": "elf-ally", "health": 4, "starting_health": 6,
                                   "alive": True}]
    assert elf["gold"] == 8 + (catalog.monsters["sewer-rat"].gold or 0)
    text = ok(["campaign", "status", "--session", str(folder)], data).stdout
    assert "allies 1 (elf-ally 4/6)" in text
    session = _room(folder, data, "ehanostha", "--monsters", "sewer-rat=1")
    ally = next(p for p in session.state.battle.pieces if p.id == "elf-ally")
    assert (ally.kind, ally.health, ally.starting_health) == (Kind.ALLY, 4, 6)


def test_an_ally_killed_stays_dead_and_is_not_placed_again(tmp_path: Path, data: Path) -> None:
    # "It cannot be resurrected"
    folder = tmp_path / "c"
    bought = _recruited(folder, data)  # no --ally-health: the hero's own starting health
    assert bought["heroes"]["elf"]["ally_boards"][0]["health"] == 8
    session = _room(folder, data, "glaaoth")
    session.do(Remove("elf-ally", "dead"))
    for rat in [p.id for p in session.state.battle.pieces if p.side == "ai"]:
        session.do(Remove(rat, "dead"))
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell"], data)
    assert status(folder, data)["heroes"]["elf"]["ally_boards"] == [
        {"id": "elf-ally", "health": 0, "starting_health": 8, "alive": False}]
    session = _room(folder, data, "ehanostha", "--monsters", "sewer-rat=1")
    assert "elf-ally" not in {p.id for p in session.state.battle.pieces}


def test_the_ally_health_is_for_an_ally_only(tmp_path: Path, data: Path) -> None:
    folder = tmp_path / "c"
    ok(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8",
        "--lord", "hmotha", "--seed", "5"], data)
    ok(["campaign", "next", "amaranth-inn", "--session", str(folder)], data)
    refused(["campaign", "visit", "sleep", "--ally-health", "5", "--session", str(folder)],
            data, "recruits no ally")


def test_the_players_change_an_allys_health_at_the_table(tmp_path: Path, data: Path) -> None:
    # a heal at the table ("each Heal icon gives +1, and can target another hero or ally"),
    # never past its starting health; a dead ally "cannot be resurrected"
    folder = tmp_path / "c"
    _recruited(folder, data, "--ally-health", "6")
    session = _room(folder, data, "glaaoth")
    session.do(Damage("elf-ally", 3))
    for rat in [p.id for p in session.state.battle.pieces if p.side == "ai"]:
        session.do(Remove(rat, "dead"))
    refused(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell",
             "--change", "elf-ally.gold=+1"], data, "elf-ally is an ally: only its health")
    ok(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell",
        "--change", "elf-ally.health=+5"], data)
    ally = status(folder, data)["heroes"]["elf"]["ally_boards"][0]
    assert (ally["health"], ally["alive"]) == (6, True)


def test_the_tavern_full_heal_heals_the_ally_too() -> None:
    # the Tavern's three heroes: "full heal for hero + ally"; Althea's +1 heals the hero only
    ally = AllyBoard("elf-ally", "elf", 6, 2)
    dead = AllyBoard("elf-ally-2", "elf", 5, 0, alive=False)
    heroes = {"elf": HeroBoard("elf", 8, 3, 10, allies=2, ally_boards=(ally, dead))}
    healed = bought(heroes, Offer("full-heal", "full heal", 0, "health=full"), "elf")["elf"]
    assert healed.health == 8
    assert [(a.health, a.alive) for a in healed.ally_boards] == [(6, True), (0, False)]
    plus = bought(heroes, Offer("heal", "heal", 3, "health+1"), "elf")["elf"]
    assert (plus.health, plus.ally_boards) == (4, (ally, dead))
