"""A campaign's records: the heroes' boards, the Hidden Cave's collections, the state a campaign's
log leaves (its route is data: model/campaigns.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

from msgspec import Struct, field

from automa.model.campaigns import LAIR, Route

HeroDeath = Literal["returns", "stays-dead", "keeps-board"]  # ruling campaign-hero-death
RoomState = Literal["done", "current", "open", "skipped"]
HERO_DEATH: tuple[HeroDeath, ...] = get_args(HeroDeath)
ROOM_STATES: tuple[RoomState, ...] = get_args(RoomState)


class AllyBoard(Struct, frozen=True):
    """An ally recruited at the Amaranth Inn: its piece's id, the hero it serves (its kill gold
    is that hero's) and its health, carried from room to room as a hero's is. "It cannot be
    resurrected": once dead it stays dead."""

    id: str
    hero: str
    starting_health: int
    health: int
    alive: bool = True

    def as_json(self) -> dict[str, object]:
        return {"id": self.id, "health": self.health, "starting_health": self.starting_health,
                "alive": self.alive}


class HeroBoard(Struct, frozen=True):
    id: str
    starting_health: int
    health: int
    gold: int
    poison: int = 0
    items: int = 0
    spells: int = 0
    alive: bool = True
    allies: int = 0  # allies recruited (the Amaranth Inn)
    used: tuple[str, ...] = ()  # cards used once per game: they stay used in later rooms
    ally_boards: tuple[AllyBoard, ...] = ()  # the allies recruited, each with its health

    def as_json(self) -> dict[str, object]:
        board: dict[str, object] = {
            "health": self.health, "starting_health": self.starting_health, "gold": self.gold,
            "poison": self.poison, "items": self.items, "spells": self.spells,
            "alive": self.alive, "allies": self.allies, "used": list(self.used)}
        if self.ally_boards:  # a board without allies is written as it always was
            board["ally_boards"] = [a.as_json() for a in self.ally_boards]
        return board


class CaveVisit(Struct, frozen=True):
    """A hero's Kraken fight in one of the campaign's rooms, as that room's battle logged it."""

    hero: str
    room: str  # the room whose battle it was fought in
    portal: bool  # sent there by the Portal Trap: not their own visit (ruling cave-once)
    won: bool  # the hero evaded the Kraken
    item: str | None  # the item taken from beside the card (None: none was left)
    antient: str | None  # the Antient won (None: the Kraken won, or none was left unused)

    def as_json(self) -> dict[str, object]:
        return {"hero": self.hero, "room": self.room, "portal": self.portal, "won": self.won,
                "item": self.item, "antient": self.antient}


class HiddenCave(Struct, frozen=True):
    needed: tuple[str, ...]  # the five level-1 monsters to collect
    items: tuple[str, ...]  # the four items set beside the Hidden Cave card at the start
    collected: Mapping[str, tuple[str, ...]]  # hero -> monsters collected so far
    visits: tuple[CaveVisit, ...] = ()  # the Kraken fights of the rooms' battles, in order

    @property
    def items_left(self) -> tuple[str, ...]:
        """The items still beside the card: those set out, less those the fights took."""
        left = list(self.items)
        for visit in self.visits:
            if visit.item in left:
                left.remove(visit.item)
        return tuple(left)

    def antients(self, hero: str) -> tuple[str, ...]:
        """The Antients the hero won in the Hidden Cave, in the order won."""
        return tuple(v.antient for v in self.visits if v.hero == hero and v.antient)

    def visited(self, hero: str) -> bool:
        """The hero has made their own visit (ruling cave-once: the Portal Trap's do not
        count)."""
        return any(v.hero == hero and not v.portal for v in self.visits)


class CampaignState(Struct, frozen=True):
    route: Route
    lord: str
    heroes: Mapping[str, HeroBoard]
    done: tuple[str, ...]  # rooms finished, in the order played
    current: str | None  # the room being played
    current_session: str | None  # its session folder, relative to the campaign folder
    hidden_cave: HiddenCave | None
    steps: int  # campaign steps in force (not undone)
    hero_death: HeroDeath = "returns"
    settings: Mapping[str, str] = field(default_factory=dict)  # switches: ruling -> option
    bought: tuple[str, ...] = ()  # the offers bought at the current visit, in order

    @property
    def over(self) -> bool:
        return LAIR in self.done or not any(h.alive for h in self.heroes.values())

    @property
    def victory(self) -> bool:
        return LAIR in self.done and any(h.alive for h in self.heroes.values())


def room_states(state: CampaignState) -> dict[str, RoomState]:
    """Each room of the route: done, current, open or skipped.

    Ruling campaign-open-rooms: every room not yet visited is open, in any order; of two rooms
    offered as "either ... or", visiting one skips the other; the Lord's Lair ends the campaign
    and the rooms not visited by then are skipped. Ruling lair-last: so a room the list prints
    after the Lair (the Monstrosity's Healer) is open before the Lair, and never after it."""
    found: dict[str, RoomState] = {}
    visited = set(state.done) | ({state.current} if state.current else set())
    for step in state.route.steps:
        chosen = [r.id for r in step.rooms if r.id in visited]
        for room in step.rooms:
            if room.id in state.done:
                found[room.id] = "done"
            elif room.id == state.current:
                found[room.id] = "current"
            elif state.over or (step.choose == "one" and chosen):
                found[room.id] = "skipped"
            else:
                found[room.id] = "open"
    return found
