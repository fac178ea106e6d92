"""A campaign's records: the heroes' boards, the Hidden Cave's collections, the state a campaign's
log leaves (its route is data: model/campaigns.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from automa.model.campaigns import LAIR, Route


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
