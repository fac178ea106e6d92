"""The campaigns' data records: the Red Box routes (data/campaigns.toml), the Room Level Rewards
known or told, and the special rooms' offers (data/visits.toml). Loaded by catalog/campaigns.py;
played by campaign/."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal, get_args

from msgspec import Struct

RoomKind = Literal["battle", "special", "lair"]
Choose = Literal["one", "any"]  # alternatives: either ... or / the heroes may visit both
BoardField = Literal["health", "gold", "poison", "items", "spells", "allies"]
BagKind = Literal["orc", "fire-spirit", "centaur", "hero"]

LAIR = "lair"  # the route's name for the Catacomb Lord's Lair
LAIR_NAME = "Catacomb Lord's Lair"
CHOICES: tuple[Choose, ...] = get_args(Choose)
BOARD_FIELDS: tuple[BoardField, ...] = get_args(BoardField)
BAG_KINDS: tuple[BagKind, ...] = get_args(BagKind)
SPECIAL_EFFECTS = ("resurrect", "note", "bet")
# An offer's effect on a board: FIELD+N, FIELD-N, FIELD=N or health=full; each: for every hero
EFFECT = re.compile(r"^(?P<each>each:)?(?:(?P<field>[a-z]+)(?P<sign>[+-=])(?P<amount>\d+|full))$")


class RouteRoom(Struct, frozen=True):
    id: str
    name: str
    level: int | None  # the printed Room card level, where one is shown
    kind: RoomKind


class RouteStep(Struct, frozen=True):
    rooms: tuple[RouteRoom, ...]
    choose: Choose = "one"  # with two rooms or more


class Route(Struct, frozen=True):
    id: str
    name: str
    start: str  # the start piece (a Catacomb Lord id in lords.toml)
    steps: tuple[RouteStep, ...]
    provenance: str

    @property
    def rooms(self) -> tuple[RouteRoom, ...]:
        return tuple(room for step in self.steps for room in step.rooms)

    def room(self, room_id: str) -> RouteRoom | None:
        return next((r for r in self.rooms if r.id == room_id), None)

    @property
    def after_lair(self) -> tuple[RouteRoom, ...]:
        """The rooms the list prints after the Catacomb Lord's Lair (the Monstrosity's Healer):
        open before the Lair, as any room, never after it (ruling lair-last)."""
        rooms = self.rooms
        at = next((i for i, r in enumerate(rooms) if r.id == LAIR), len(rooms))
        return rooms[at + 1:]

    def step_of(self, room_id: str) -> RouteStep | None:
        return next((s for s in self.steps if any(r.id == room_id for r in s.rooms)), None)


class Rewards(Struct, frozen=True):
    """A Room card's Room Level Rewards."""

    gold: int  # each surviving hero gets this much gold
    spell: bool  # the Spell card icon: one Spell card for a hero who can use it
    provenance: str


class Offer(Struct, frozen=True):
    id: str
    text: str
    price: int | None  # None: the price printed on the card bought, asked at the purchase
    effect: str  # FIELD+N (EFFECT) or one of SPECIAL_EFFECTS
    limit: int | None = None  # times per visit
    over: bool = False  # health may pass the starting value
    health: int = 0  # a resurrected hero's health
    ruling: str | None = None
    option: str | None = None
    provenance: str = ""


class Visit(Struct, frozen=True):
    room: str
    offers: tuple[Offer, ...]
    pool: bool
    known: bool
    provenance: str
    bag: Mapping[str, int | None]  # the Alewife Tavern's bag: pieces of each kind (None: unknown)

    def menu(self, settings: Mapping[str, str]) -> tuple[Offer, ...]:
        """The offers in force with the campaign's settings (an offer tied to a ruling's option
        shows only when the campaign chose that option)."""
        return tuple(o for o in self.offers
                     if o.ruling is None or settings.get(o.ruling) == o.option)

    def offer(self, offer_id: str, settings: Mapping[str, str]) -> Offer | None:
        return next((o for o in self.menu(settings) if o.id == offer_id), None)


def check_effect(effect: str) -> bool:
    """An effect the data may give an offer."""
    if effect in SPECIAL_EFFECTS:
        return True
    match = EFFECT.match(effect)
    if match is None or match["field"] not in BOARD_FIELDS:
        return False
    return match["amount"] != "full" or (match["field"], match["sign"]) == ("health", "=")
