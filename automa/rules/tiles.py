"""Order tiles: who acts first, and the Direction tiles' tie-breaks.

Direction tiles are read from the Monster Start Zone's side: "left to right" there runs from
high x to low x; "Monster Start Zone to Hero Start Zone" runs from high y to low y.

Every tie the tiles break (activation order, target selection, setup placement) goes through
`by_tiles`: each tile keeps only the candidates that tie on it, and the next tile breaks ties
among those alone, so a lexicographic key over rounded ranks is the whole rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Generic, TypeVar

from automa.model.pieces import Piece
from automa.model.records import dataclass
from automa.model.scenario import Tiles

T = TypeVar("T")
Point = tuple[float, float]

DIRECTION_WORDS = {
    "left-to-right": "leftmost seen from the Monster Start Zone",
    "right-to-left": "rightmost seen from the Monster Start Zone",
    "msz-to-hsz": "nearest the Monster Start Zone edge",
    "hsz-to-msz": "nearest the Hero Start Zone edge",
}
TILE_NAMES = ("green tile", "blue tile")
TIE_DIGITS = 6  # ranks equal to a millionth of a cm tie: pieces laid on one line


def direction_rank(tile: str, at: Point) -> float:
    """Smaller comes first along the tile's arrow."""
    x, y = at
    if tile == "left-to-right":
        return -x
    if tile == "right-to-left":
        return x
    if tile == "msz-to-hsz":
        return -y
    if tile == "hsz-to-msz":
        return y
    raise KeyError(tile)


def tile_key(direction: Sequence[str], at: Point) -> tuple[float, ...]:
    """The rank along the green tile, then along the blue; equal ranks tie."""
    if len(direction) == 2:  # the two tiles (without a generator: the turn order asks often)
        green, blue = direction
        return (round(direction_rank(green, at), TIE_DIGITS),
                round(direction_rank(blue, at), TIE_DIGITS))
    return tuple(round(direction_rank(tile, at), TIE_DIGITS) for tile in direction)


@dataclass(frozen=True)
class TileBreak(Generic[T]):
    """Candidates in the tiles' order, and how far down the tiles the first one was decided."""

    ranked: tuple[T, ...]
    tile: int | None  # 0: the green tile decided, 1: the blue, None: still tied after both
    gap: float  # how far (cm) the runner-up is from the winner on the deciding tile
    trace: tuple[str, ...]


def by_tiles(candidates: Sequence[T], direction: Sequence[str], at: Callable[[T], Point],
             name: Callable[[T], str], explain: bool = True) -> TileBreak[T]:
    """Break a tie with the Direction tiles: the green keeps those tied on it, the blue
    decides among those alone. A complete tie keeps the candidates' given order. Without
    `explain` the trace is left empty (nobody reads it)."""
    keyed = sorted([(tile_key(direction, at(c)), c) for c in candidates], key=itemgetter(0))
    ranked = tuple(c for _, c in keyed)
    if len(ranked) < 2:
        return TileBreak(ranked, None, 0.0, ())
    tied = keyed
    trace: list[str] = []
    for index, tile in enumerate(direction):
        best = tied[0][0][index]
        keep = [kc for kc in tied if kc[0][index] == best]
        if explain:
            trace.append(f"{TILE_NAMES[index]} ({DIRECTION_WORDS[tile]}): "
                         + ", ".join(name(c) for _, c in tied) + " -> "
                         + ", ".join(name(c) for _, c in keep))
        if len(keep) == 1:
            runner = min(key[index] for key, c in tied if c is not keep[0][1])
            return TileBreak(ranked, index, runner - best, tuple(trace))
        tied = keep
    return TileBreak(ranked, None, 0.0, tuple(trace))


def character_tile(piece: Piece) -> str:
    if piece.kind in ("catacomb-lord", "antient"):
        return piece.kind
    return f"level-{piece.level}" if piece.level else "level-1"


def _tile_ranks(piece: Piece, tiles: Tiles) -> tuple[int, int]:
    """The piece's places on the Character and Monster tiles, kept by what they rest on in the
    tiles' own dict (a turn ranks the waiting pieces before every activation)."""
    kept: dict[tuple[str, int | None, str | None], tuple[int, int]] | None = \
        tiles.__dict__.get("_ranks_kept")
    if kept is None:
        kept = tiles.__dict__["_ranks_kept"] = {}
    key = (piece.kind, piece.level, piece.family)
    found = kept.get(key)
    if found is None:
        found = kept[key] = _ranks(piece, tiles)
    return found


def _ranks(piece: Piece, tiles: Tiles) -> tuple[int, int]:
    tile = character_tile(piece)
    char_rank = tiles.character_order.index(tile) if tile in tiles.character_order else 99
    family = piece.family or ""
    family_rank = tiles.monster_order.index(family) if family in tiles.monster_order else 99
    return char_rank, family_rank


@dataclass(frozen=True)
class NextActor:
    piece: Piece
    reason: str
    by_direction: bool  # a Direction tile decided (the frame of ruling 2 applies)
    tied: tuple[str, ...] = ()  # the pieces still tied when the Direction tiles broke it


def next_to_act(waiting: list[Piece], tiles: Tiles) -> NextActor:
    """The Active Character among those still to act: Character tile, then Monster tile, then
    the Direction tiles among the pieces still tied."""
    keyed = sorted([((_tile_ranks(p, tiles), p.id), p) for p in waiting],  # ranks once each
                   key=itemgetter(0))
    ranked = [p for _, p in keyed]
    first = ranked[0]
    if len(ranked) == 1:
        return NextActor(first, "the last to act", False)
    ranks = keyed[0][0][0]
    char_rank, family_rank = ranks[0] + 1, ranks[1] + 1
    if ranks[0] != keyed[1][0][0][0]:
        return NextActor(first, f"Character tile {_ordinal(char_rank)} "
                                f"({character_tile(first)})", False)
    if ranks[1] != keyed[1][0][0][1]:
        return NextActor(first, f"Character tile {_ordinal(char_rank)}, Monster tile "
                                f"{_ordinal(family_rank)} ({first.family})", False)
    tied = [p for (piece_ranks, _), p in keyed if piece_ranks == ranks]
    broken = by_tiles(tied, tiles.direction, lambda p: p.at, lambda p: p.label, explain=False)
    ids = tuple(p.id for p in tied)
    if broken.tile is None:
        return NextActor(broken.ranked[0], "a complete tie on every tile; by id", True, ids)
    colour = TILE_NAMES[broken.tile].split()[0]
    return NextActor(broken.ranked[0], f"tie on tiles; {colour} Direction tile: "
                                       f"{DIRECTION_WORDS[tiles.direction[broken.tile]]}", True,
                     ids)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
