"""Order tiles: who acts first, and the Direction tiles' tie-breaks.

Direction tiles are read from the Monster Start Zone's side: "left to right" there runs from
high x to low x; "Monster Start Zone to Hero Start Zone" runs from high y to low y.

Every tie the tiles break (activation order, target selection, setup placement) goes through
`by_tiles`: each tile keeps only the candidates that tie on it, and the next tile breaks ties
among those alone, so a lexicographic key over rounded ranks is the whole rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter, itemgetter
from typing import Generic, TypeVar

from msgspec import Struct

from automa.model.components import CharacterTile, DirectionTile, Family
from automa.model.pieces import Kind, Piece
from automa.model.scenario import Tiles

T = TypeVar("T")
Point = tuple[float, float]

DIRECTION_WORDS = {
    DirectionTile.LEFT_TO_RIGHT: "leftmost seen from the Monster Start Zone",
    DirectionTile.RIGHT_TO_LEFT: "rightmost seen from the Monster Start Zone",
    DirectionTile.MSZ_TO_HSZ: "nearest the Monster Start Zone edge",
    DirectionTile.HSZ_TO_MSZ: "nearest the Hero Start Zone edge",
}
TILE_NAMES = ("green tile", "blue tile")
TIE_DIGITS = 6  # ranks equal to a millionth of a cm tie: pieces laid on one line


def direction_rank(tile: DirectionTile, at: Point) -> float:
    """Smaller comes first along the tile's arrow."""
    x, y = at
    if tile == DirectionTile.LEFT_TO_RIGHT:
        return -x
    if tile == DirectionTile.RIGHT_TO_LEFT:
        return x
    if tile == DirectionTile.MSZ_TO_HSZ:
        return -y
    if tile == DirectionTile.HSZ_TO_MSZ:
        return y
    raise KeyError(tile)


def tile_key(direction: Sequence[DirectionTile], at: Point) -> tuple[float, ...]:
    """The rank along the green tile, then along the blue; equal ranks tie."""
    if len(direction) == 2:  # the two tiles (without a generator: the turn order asks often)
        green, blue = direction
        return (round(direction_rank(green, at), TIE_DIGITS),
                round(direction_rank(blue, at), TIE_DIGITS))
    return tuple(round(direction_rank(tile, at), TIE_DIGITS) for tile in direction)


def in_tile_order(candidates: Iterable[T], direction: Sequence[DirectionTile],
                  at: Callable[[T], Point]) -> list[T]:
    """The candidates along the tiles: the green's order, ties by the blue; a complete tie keeps
    their given order (the order `by_tiles` ranks them in, without its trace). Setup scans its
    spots so."""
    return sorted(candidates, key=lambda candidate: tile_key(direction, at(candidate)))


class TileBreak(Struct, Generic[T], frozen=True):
    """Candidates in the tiles' order, and how far down the tiles the first one was decided."""

    ranked: tuple[T, ...]
    tile: int | None  # 0: the green tile decided, 1: the blue, None: still tied after both
    gap: float  # how far (cm) the runner-up is from the winner on the deciding tile
    trace: tuple[str, ...]


def by_tiles(candidates: Sequence[T], direction: Sequence[DirectionTile], at: Callable[[T], Point],
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


def character_tile(piece: Piece) -> CharacterTile:
    if piece.kind in (Kind.CATACOMB_LORD, Kind.ANTIENT):
        return CharacterTile(piece.kind)
    return CharacterTile(f"level-{piece.level}") if piece.level else CharacterTile.LEVEL_1


def first_on_tiles(candidates: Sequence[T], direction: Sequence[DirectionTile],
                   at: Callable[[T], Point]) -> tuple[T, int | None]:
    """`by_tiles(...)`'s first candidate and deciding tile, without ranking the others or
    measuring the gap: the least key wins (the first of equal ones, as the stable sort keeps
    them), and each tile in turn keeps the candidates equal to it on that tile."""
    keys = [tile_key(direction, at(c)) for c in candidates]
    best = min(keys)
    first = candidates[keys.index(best)]
    tied = keys
    for index in range(len(direction)):
        if len(tied) < 2:
            break
        value = best[index]
        tied = [key for key in tied if key[index] == value]
        if len(tied) == 1:
            return first, index
    return first, None


RankKey = tuple[Kind, int | None, Family | None]  # what a piece's places on the tiles rest on


def _rank_book(tiles: Tiles) -> dict[RankKey, tuple[int, int]]:
    """The places on the Character and Monster tiles by what they rest on (kept in the
    tiles' memo)."""
    return tiles.memo.ranks


def _learnt(book: dict[RankKey, tuple[int, int]], piece: Piece, tiles: Tiles) -> tuple[int, int]:
    found = book[piece.kind, piece.level, piece.family] = _ranks(piece, tiles)
    return found


def _ranks(piece: Piece, tiles: Tiles) -> tuple[int, int]:
    tile = character_tile(piece)
    char_rank = tiles.character_order.index(tile) if tile in tiles.character_order else 99
    family = piece.family or ""
    family_rank = tiles.monster_order.index(family) if family in tiles.monster_order else 99
    return char_rank, family_rank


class NextActor(Struct, frozen=True):
    """The next Active Character by the order tiles, and why."""

    piece: Piece
    reason: str
    by_direction: bool  # a Direction tile decided (the frame of ruling 2 applies)
    tied: tuple[str, ...] = ()  # the pieces still tied when the Direction tiles broke it


def next_to_act(waiting: list[Piece], tiles: Tiles) -> NextActor:
    """The Active Character among those still to act: Character tile, then Monster tile, then
    the Direction tiles among the pieces still tied. What the order tiles decide rests on the
    waiting pieces' ids, kinds, levels and families alone, so it is kept by those (a turn asks
    before every activation, from the same few sets); only a tie left to the Direction tiles
    is read again, on where the tied pieces stand now."""
    key = tuple(map(_ORDER_FIELDS, waiting))
    book: dict[tuple[tuple[object, ...], ...], OrderPlan] = tiles.memo.orders
    plan = book.get(key)
    if plan is None:
        plan = book[key] = _order_plan(waiting, tiles)
    first, reason, tied = plan
    if reason is not None:
        return NextActor(waiting[first], reason, False)
    group = [waiting[i] for i in tied]
    chosen, tile = first_on_tiles(group, tiles.direction, _at)
    return NextActor(chosen, _tie_reason(tiles, tile), True, tuple(p.id for p in group))


_ORDER_FIELDS = attrgetter("id", "kind", "level", "family")  # what the order tiles read
# what the order tiles decide among some waiting pieces: the first's index and why, or (reason
# None) the indices of the pieces tied on both, for the Direction tiles to break
OrderPlan = tuple[int, str | None, tuple[int, ...]]


def _order_plan(waiting: list[Piece], tiles: Tiles) -> OrderPlan:
    book = _rank_book(tiles)
    keys = [(*(book.get((p.kind, p.level, p.family)) or _learnt(book, p, tiles)), p.id)
            for p in waiting]  # (character rank, family rank, id): ranks once each
    order = sorted(range(len(waiting)), key=keys.__getitem__)
    first = waiting[order[0]]
    if len(order) == 1:
        return order[0], "the last to act", ()
    mine, runner = keys[order[0]], keys[order[1]]
    if mine[0] != runner[0]:
        return order[0], _reason(tiles, "character", first), ()
    if mine[1] != runner[1]:
        return order[0], _reason(tiles, "monster", first), ()
    return order[0], None, tuple(i for i in order if keys[i][:2] == mine[:2])


def _at(piece: Piece) -> Point:
    return piece.at


def _reason(tiles: Tiles, decided: str, first: Piece) -> str:
    """Why `first` acts first when the Character tile (`decided` "character") or the Monster
    tile ("monster") decided; kept by what it rests on in the tiles' memo."""
    kept: dict[tuple[str, RankKey], str] = tiles.memo.reasons
    key = (decided, (first.kind, first.level, first.family))
    found = kept.get(key)
    if found is None:
        char_rank, family_rank = (rank + 1 for rank in _ranks(first, tiles))
        found = kept[key] = (
            f"Character tile {_ordinal(char_rank)} ({character_tile(first)})"
            if decided == "character" else
            f"Character tile {_ordinal(char_rank)}, Monster tile {_ordinal(family_rank)} "
            f"({first.family})")
    return found


def _tie_reason(tiles: Tiles, tile: int | None) -> str:
    if tile is None:
        return "a complete tie on every tile; by id"
    colour = TILE_NAMES[tile].split()[0]
    return f"tie on tiles; {colour} Direction tile: {DIRECTION_WORDS[tiles.direction[tile]]}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
