"""A battle's state as a scenario file holds it (see CONTRACT.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec import Struct, field
from msgspec.structs import force_setattr

from automa.model.components import CharacterTile, DamageToken, DirectionTile, Family
from automa.model.memo import Memo
from automa.model.modes import LosTest
from automa.model.pieces import Piece
from automa.model.playmat import Playmat

LOS_TESTS = tuple(LosTest)


class Templates(Struct, frozen=True):
    """The rulers' lengths and the templates' radii in force (cm)."""

    rulers: Mapping[int, float]
    attack_radius: float
    clock_radius: float


class TilesMemo(Memo):
    """What the turn order works out from a Tiles' fields before every activation, kept for
    the next (rules/tiles.py: each piece's places on the Character and Monster tiles, the
    order of a set of waiting pieces, the reasons printed): a cache, never part of the tiles'
    value, and the one part of a Tiles that changes."""

    __slots__ = ("orders", "ranks", "reasons")

    def __init__(self) -> None:
        self.ranks: dict[Any, Any] = {}
        self.orders: dict[Any, Any] = {}
        self.reasons: dict[Any, Any] = {}


class Tiles(Struct, frozen=True):
    """The order tiles as laid for this battle, and the Hero Target tiles held."""

    character_order: tuple[CharacterTile, ...]
    monster_order: tuple[Family, ...]
    direction: tuple[DirectionTile, DirectionTile]  # (green tile, blue tile)
    hero_targets: Mapping[str, int]
    memo: TilesMemo = field(default_factory=TilesMemo)

    def __post_init__(self) -> None:
        force_setattr(self, "memo", TilesMemo())  # its own, even when `replace`d


class Bag(Struct, frozen=True):
    """One level's damage tokens: those in the bag and those face up on the discard pile."""

    tokens: tuple[DamageToken, ...]
    discard: tuple[DamageToken, ...] = ()


class ChanceScript(Struct, frozen=True):
    """Outcomes the players fixed in advance; each list is used in order before any RNG draw."""

    seed: int | None = None
    d12: tuple[int, ...] = ()
    rune_die: tuple[int, ...] = ()
    location_die: tuple[int, ...] = ()
    tokens: Mapping[int, tuple[DamageToken, ...]] = field(default_factory=dict)


class Settings(Struct, frozen=True):
    """The battle's switches: sight, advanced targeting, close calls, rulings."""

    los_blocked: bool = False
    los_test: LosTest = LosTest.CENTRE_LINE
    advanced_targeting: bool = False
    close_call: float = 0.5  # cm: decisions with a smaller margin are flagged for the table
    rulings: Mapping[str, str] = field(default_factory=dict)  # switchable ruling -> option


class Scenario(Struct, frozen=True):
    """A battle as its scenario file holds it, at the start of an AI turn."""

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
