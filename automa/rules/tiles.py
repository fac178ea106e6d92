"""Order tiles: who acts first, and the Direction tiles' tie-breaks.

Direction tiles are read from the Monster Start Zone's side: "left to right" there runs from
high x to low x; "Monster Start Zone to Hero Start Zone" runs from high y to low y.
"""

from __future__ import annotations

from automa.model.pieces import Piece
from automa.model.scenario import Tiles

DIRECTION_WORDS = {
    "left-to-right": "leftmost seen from the Monster Start Zone",
    "right-to-left": "rightmost seen from the Monster Start Zone",
    "msz-to-hsz": "nearest the Monster Start Zone edge",
    "hsz-to-msz": "nearest the Hero Start Zone edge",
}


def direction_rank(tile: str, at: tuple[float, float]) -> float:
    """Smaller comes first along the tile's arrow."""
    x, y = at
    return {"left-to-right": -x, "right-to-left": x, "msz-to-hsz": -y, "hsz-to-msz": y}[tile]


def direction_key(tile: str, piece: Piece) -> float:
    return direction_rank(tile, piece.at)


def character_tile(piece: Piece) -> str:
    if piece.kind in ("catacomb-lord", "antient"):
        return piece.kind
    return f"level-{piece.level}" if piece.level else "level-1"


def activation_key(piece: Piece, tiles: Tiles) -> tuple[float, ...]:
    """Character tile, then Monster tile, then the green and the blue Direction tile."""
    tile = character_tile(piece)
    char_rank = tiles.character_order.index(tile) if tile in tiles.character_order else 99
    family = piece.family or ""
    family_rank = tiles.monster_order.index(family) if family in tiles.monster_order else 99
    green, blue = tiles.direction
    return (char_rank, family_rank, direction_key(green, piece), direction_key(blue, piece))


def next_to_act(waiting: list[Piece], tiles: Tiles) -> tuple[Piece, str]:
    """The Active Character among those still to act, and the tile that decided it."""
    ranked = sorted(waiting, key=lambda p: (activation_key(p, tiles), p.id))
    first = ranked[0]
    if len(ranked) == 1:
        return first, "the last to act"
    key, runner = activation_key(first, tiles), activation_key(ranked[1], tiles)
    char_rank, family_rank = int(key[0]) + 1, int(key[1]) + 1
    if key[0] != runner[0]:
        return first, f"Character tile {_ordinal(char_rank)} ({character_tile(first)})"
    if key[1] != runner[1]:
        return first, (f"Character tile {_ordinal(char_rank)}, Monster tile "
                       f"{_ordinal(family_rank)} ({first.family})")
    green, blue = tiles.direction
    if key[2] != runner[2]:
        return first, f"tie on tiles; green Direction tile: {DIRECTION_WORDS[green]}"
    if key[3] != runner[3]:
        return first, f"tie on tiles; blue Direction tile: {DIRECTION_WORDS[blue]}"
    return first, "a complete tie; by id"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
