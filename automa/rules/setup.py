"""Pure rules of the Solo & Co-Op setup: tiles, the direction redraw, the D12 halves, and the
order in which monsters are placed."""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct

from automa.model.components import CharacterTile, DirectionTile, Family, TileSet
from automa.model.scenario import Tiles
from automa.rules.sequences import d12_band


def character_tiles_for(tiles: TileSet, lair: bool) -> tuple[CharacterTile, ...]:
    """A Battle Room puts the Catacomb Lord Character tile aside."""
    return tiles.character if lair else tuple(t for t in tiles.character
                                              if t != CharacterTile.CATACOMB_LORD)


def direction_pair(drawn: Sequence[DirectionTile], tiles: TileSet
                   ) -> tuple[DirectionTile, DirectionTile, list[DirectionTile]]:
    """Draw two Direction tiles; a second of the first one's colour is discarded and another
    drawn, so there is one green and one blue. Returns (green, blue, discarded)."""
    colour = {t: "green" for t in tiles.green} | {t: "blue" for t in tiles.blue}
    first, rest = drawn[0], list(drawn[1:])
    discarded = []
    while colour[rest[0]] == colour[first]:
        discarded.append(rest.pop(0))
    second = rest[0]
    green, blue = (first, second) if colour[first] == "green" else (second, first)
    return green, blue, discarded


def d12_half(face: int, options: Sequence[str]) -> str:
    """1-6 the left (or top) option, 7-12 the right (or bottom) one: the D12 split in two."""
    return options[d12_band(len(options), face)]


class Unit(Struct, frozen=True):
    """One monster piece to place: its id, and where it came from on the card."""

    monster: str
    level: int
    family: Family | None
    source: str  # "named", "Monster Metre level 2", "Mercenary", "minion", ...


def placement_order(units: Sequence[Unit], tiles: Tiles) -> list[Unit]:
    """In Character tile order; several of one level in Monster tile order (stable otherwise)."""
    def key(unit: Unit) -> tuple[int, int]:
        tile = f"level-{unit.level}"
        char = tiles.character_order.index(tile) if tile in tiles.character_order else 99
        family = unit.family or ""
        mon = tiles.monster_order.index(family) if family in tiles.monster_order else 99
        return (char, mon)

    return sorted(units, key=key)
