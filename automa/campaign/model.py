"""A campaign's records: its route (data/campaigns.toml), the heroes' boards, its state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

LAIR = "lair"  # the route's name for the Catacomb Lord's Lair
CHOICES = ("one", "any")  # alternatives: either ... or / the heroes may visit both
ROOM_STATES = ("done", "current", "open", "skipped")


@dataclass(frozen=True)
class RouteRoom:
    id: str
    name: str
    level: int | None  # the printed Room card level, where one is shown
    kind: str  # "battle", "special" or "lair"


@dataclass(frozen=True)
class RouteStep:
    rooms: tuple[RouteRoom, ...]
    choose: str = "one"  # with two rooms or more: "one" or "any"


@dataclass(frozen=True)
class Route:
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

    def step_of(self, room_id: str) -> RouteStep | None:
        return next((s for s in self.steps if any(r.id == room_id for r in s.rooms)), None)


@dataclass(frozen=True)
class Rewards:
    """A Room card's Room Level Rewards."""

    gold: int  # each surviving hero gets this much gold
    spell: bool  # the Spell card icon: one Spell card for a hero who can use it
    provenance: str


@dataclass(frozen=True)
class HeroBoard:
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

    def as_json(self) -> dict[str, object]:
        return {"health": self.health, "starting_health": self.starting_health,
                "gold": self.gold, "poison": self.poison, "items": self.items,
                "spells": self.spells, "alive": self.alive, "allies": self.allies,
                "used": list(self.used)}


@dataclass(frozen=True)
class HiddenCave:
    needed: tuple[str, ...]  # the five level-1 monsters to collect
    items: tuple[str, ...]  # the four items beside the Hidden Cave card
    collected: Mapping[str, tuple[str, ...]]  # hero -> monsters collected so far


@dataclass(frozen=True)
class CampaignState:
    route: Route
    lord: str
    heroes: Mapping[str, HeroBoard]
    done: tuple[str, ...]  # rooms finished, in the order played
    current: str | None  # the room being played
    current_session: str | None  # its session folder, relative to the campaign folder
    hidden_cave: HiddenCave | None
    steps: int  # campaign steps in force (not undone)
    hero_death: str = "returns"  # ruling campaign-hero-death
    settings: Mapping[str, str] = field(default_factory=dict)  # switches: ruling -> option
    bought: tuple[str, ...] = ()  # the offers bought at the current visit, in order

    @property
    def over(self) -> bool:
        return LAIR in self.done or not any(h.alive for h in self.heroes.values())

    @property
    def victory(self) -> bool:
        return LAIR in self.done and any(h.alive for h in self.heroes.values())
