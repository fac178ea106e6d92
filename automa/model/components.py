"""The Red Box's physical components: rulers, templates, dice, damage-token bags and order tiles."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

FAMILIES = ("dungeon", "infernal", "mythological", "undead", "vermin", "wraith-knight", "zombie")
CHARACTER_TILES = ("level-1", "level-2", "level-3", "level-4", "catacomb-lord", "antient")
GREEN_TILES = ("left-to-right", "right-to-left")
BLUE_TILES = ("msz-to-hsz", "hsz-to-msz")


@dataclass(frozen=True, order=True)
class DamageToken:
    """One damage token: its value (0 is a miss) and whether it bears the reset icon."""

    value: int
    reset: bool = False

    @classmethod
    def parse(cls, text: str) -> DamageToken:
        """"2" is a 2, "1R" a 1 with the reset icon; ValueError otherwise."""
        body = text.strip().upper()
        reset = body.endswith("R")
        digits = body[:-1] if reset else body
        if not digits.isascii() or not digits.isdigit() or len(digits) > 2:
            raise ValueError(f"a damage token is written like \"2\" or \"1R\", not {text!r}")
        return cls(int(digits), reset)

    def label(self) -> str:
        return f"{self.value}R" if self.reset else str(self.value)


@dataclass(frozen=True)
class ClockTemplate:
    """Each side is twelve angles, face 1..12, degrees clockwise seen from above, from face 12."""

    radius: float
    front: tuple[float, ...]
    reverse: tuple[float, ...]
    half: tuple[float, ...]


@dataclass(frozen=True)
class AttackTemplate:
    """Centred on the attacker; a disc of `radius`, or a polygon given relative to the centre."""

    radius: float
    polygon: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class TileSet:
    """The faces of the order tiles; the ids are the vocabulary the rules code understands."""

    character: tuple[str, ...] = CHARACTER_TILES
    monster: tuple[str, ...] = FAMILIES
    colours: Mapping[str, str] = field(default_factory=dict)  # family -> tile colour
    green: tuple[str, ...] = GREEN_TILES
    blue: tuple[str, ...] = BLUE_TILES

    def monster_label(self, family: str) -> str:
        """A Monster tile as the players see it: its printed colour, then its family."""
        colour = self.colours.get(family)
        return f"{colour} ({family})" if colour else family


@dataclass(frozen=True)
class Components:
    disc_radius: Mapping[str, float]
    rulers: Mapping[int, float]
    attack: AttackTemplate
    clock: ClockTemplate
    rune_die: tuple[int, ...]
    location_die: tuple[int, ...]
    bags: Mapping[int, tuple[DamageToken, ...]]
    hero_target_bands: Mapping[int, tuple[int, int]]
    tiles: TileSet
    provenance: Mapping[str, str]
    red_bag: int = 1  # the level of the Kraken fight's "red" Damage tokens (ruling kraken-bag)
