"""A battle's state as a scenario file holds it (see CONTRACT.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from automa.model.components import CharacterTile, DamageToken, DirectionTile, Family
from automa.model.modes import LosTest
from automa.model.pieces import Piece
from automa.model.playmat import Playmat

LOS_TESTS = tuple(LosTest)


@dataclass(frozen=True)
class Templates:
    rulers: Mapping[int, float]
    attack_radius: float
    clock_radius: float


@dataclass(frozen=True)
class Tiles:
    character_order: tuple[CharacterTile, ...]
    monster_order: tuple[Family, ...]
    direction: tuple[DirectionTile, DirectionTile]  # (green tile, blue tile)
    hero_targets: Mapping[str, int]


@dataclass(frozen=True)
class Bag:
    """One level's damage tokens: those in the bag and those face up on the discard pile."""

    tokens: tuple[DamageToken, ...]
    discard: tuple[DamageToken, ...] = ()


@dataclass(frozen=True)
class ChanceScript:
    """Outcomes the players fixed in advance; each list is used in order before any RNG draw."""

    seed: int | None = None
    d12: tuple[int, ...] = ()
    rune_die: tuple[int, ...] = ()
    location_die: tuple[int, ...] = ()
    tokens: Mapping[int, tuple[DamageToken, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Settings:
    los_blocked: bool = False
    los_test: LosTest = LosTest.CENTRE_LINE
    advanced_targeting: bool = False
    close_call: float = 0.5  # cm: decisions with a smaller margin are flagged for the table
    rulings: Mapping[str, str] = field(default_factory=dict)  # switchable ruling -> option


@dataclass(frozen=True)
class Scenario:
    source: str
    playmat: Playmat
    playmat_ref: str  # a shipped playmat id, or "inline"
    settings: Settings
    round: int
    templates: Templates
    tiles: Tiles
    pieces: tuple[Piece, ...]
    bags: Mapping[int, Bag]
    chance: ChanceScript
    out: Mapping[str, str] = field(default_factory=dict)  # piece id -> why it left play
