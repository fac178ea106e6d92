"""The Red Box's physical components: rulers, templates, dice, damage-token bags and order tiles."""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import Struct, field

from automa.model.provenance import Provenance
from automa.model.vocabulary import Word


class Family(Word):
    """A monster's family: the face of its Monster order tile and its metre colour's row."""

    DUNGEON = "dungeon"
    INFERNAL = "infernal"
    MYTHOLOGICAL = "mythological"
    UNDEAD = "undead"
    VERMIN = "vermin"
    WRAITH_KNIGHT = "wraith-knight"
    ZOMBIE = "zombie"


class CharacterTile(Word):
    """The faces of the Character order tiles (a Catacomb Lord's and an Antient's are their
    kinds' words)."""

    LEVEL_1 = "level-1"
    LEVEL_2 = "level-2"
    LEVEL_3 = "level-3"
    LEVEL_4 = "level-4"
    CATACOMB_LORD = "catacomb-lord"
    ANTIENT = "antient"


class DirectionTile(Word):
    """The faces of the Direction tiles, read from the Monster Start Zone: the green tile's
    two, then the blue's (Monster Start Zone to Hero Start Zone, and back)."""

    LEFT_TO_RIGHT = "left-to-right"
    RIGHT_TO_LEFT = "right-to-left"
    MSZ_TO_HSZ = "msz-to-hsz"
    HSZ_TO_MSZ = "hsz-to-msz"


FAMILIES = tuple(Family)
CHARACTER_TILES = tuple(CharacterTile)
GREEN_TILES = (DirectionTile.LEFT_TO_RIGHT, DirectionTile.RIGHT_TO_LEFT)
BLUE_TILES = (DirectionTile.MSZ_TO_HSZ, DirectionTile.HSZ_TO_MSZ)


class DamageToken(Struct, frozen=True, order=True):
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


class ClockTemplate(Struct, frozen=True):
    """Each side is twelve angles, face 1..12, degrees clockwise seen from above, from face 12."""

    radius: float
    front: tuple[float, ...]
    reverse: tuple[float, ...]
    half: tuple[float, ...]


class AttackTemplate(Struct, frozen=True):
    """Centred on the attacker; a disc of `radius`, or a polygon given relative to the centre."""

    radius: float
    polygon: tuple[tuple[float, float], ...] = ()


class TileSet(Struct, frozen=True):
    """The faces of the order tiles; the ids are the vocabulary the rules code understands."""

    character: tuple[CharacterTile, ...] = CHARACTER_TILES
    monster: tuple[Family, ...] = FAMILIES
    colours: Mapping[Family, str] = field(default_factory=dict)  # family -> tile colour
    green: tuple[DirectionTile, ...] = GREEN_TILES
    blue: tuple[DirectionTile, ...] = BLUE_TILES

    def monster_label(self, family: Family) -> str:
        """A Monster tile as the players see it: its printed colour, then its family."""
        colour = self.colours.get(family)
        return f"{colour} ({family})" if colour else family


class Components(Struct, frozen=True):
    """The physical components' measures and contents (data/components.toml)."""

    disc_radius: Mapping[str, float]
    rulers: Mapping[int, float]
    attack: AttackTemplate
    clock: ClockTemplate
    rune_die: tuple[int, ...]
    location_die: tuple[int, ...]
    bags: Mapping[int, tuple[DamageToken, ...]]
    hero_target_bands: Mapping[int, tuple[int, int]]
    tiles: TileSet
    provenance: Mapping[str, Provenance]
    red_bag: int = 1  # the level of the Kraken fight's "red" Damage tokens (ruling kraken-bag)
    # the records still our house placeholders: provenance house and as data/ ships them (a
    # value of the players' own, measured or entered, is `house` too, but not ours)
    placeholders: frozenset[str] = frozenset()
    # each size's height in cm: the photo capture corrects a disc's centre for its top face's
    # height; no rule reads it (a battle's data digest leaves it out)
    disc_thickness: Mapping[str, float] = field(default_factory=dict)
