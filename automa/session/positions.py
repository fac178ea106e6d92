"""Where the players say a piece now stands, in table words or coordinates.

  12.5,40                              coordinates in cm (mat frame)
  rune 3 | on rune 3                   centred on a rune
  touching obstacle B on its north side
  touching elf on its west side
  touching elf | touching obstacle B   on the side nearest the piece's spot now (of the four)
  2 cm left of the elf                 an edge-to-edge gap; left/right as seen from the
                                       Hero Start Zone; north = toward the Monster Start Zone
"""

from __future__ import annotations

import math
import re

from shapely.geometry import Point

from automa.errors import InputError
from automa.geometry.moves import overlap_with
from automa.geometry.table import PLACEMENT_TOLERANCE, TableGeometry
from automa.geometry.zones import runes_of
from automa.model.pieces import Piece
from automa.session.names import UnknownPiece, nearest_hint, piece_named

Vec = tuple[float, float]
DIRECTIONS: dict[str, Vec] = {
    "north": (0.0, 1.0), "south": (0.0, -1.0), "east": (1.0, 0.0), "west": (-1.0, 0.0),
    "left": (-1.0, 0.0), "right": (1.0, 0.0), "ahead": (0.0, 1.0), "behind": (0.0, -1.0),
}
_NUMBER = r"-?\d{1,5}(?:\.\d{1,6})?"  # cm on a mat: no digit string large enough to be inf
_COORDS = re.compile(rf"^\(?\s*({_NUMBER})\s*[, ]\s*({_NUMBER})\s*\)?$", re.ASCII)
_RUNE = re.compile(r"^(?:on\s+)?rune\s+(\d+)$", re.ASCII)
_TOUCH = re.compile(r"^touching\s+(obstacle\s+)?(\S+)(?:\s+on\s+its\s+(\w+)\s+side)?$",
                    re.ASCII)
SIDES = ("north", "south", "east", "west")  # what `touching X` alone chooses among
_GAP = re.compile(r"^(\d{1,5}(?:\.\d{1,6})?)\s*cm\s+(\w+)\s+of\s+(?:the\s+)?(\S+)$", re.ASCII)


def coordinates(text: str) -> Vec | None:
    """`X,Y` in cm (plain ASCII digits, a sign, a decimal point), else None."""
    match = _COORDS.match(" ".join(text.split()))
    return (float(match[1]), float(match[2])) if match else None


def spelled_out(text: str, table: TableGeometry, pieces: list[Piece], mover: Piece,
                asked: bool = False) -> str:
    """The players' words with what they left to us said: `touching X` gets the side of X
    nearest the mover's spot now, where it lies flat if one does (`touching elf on its south
    side`), and a short piece name its full id. Other words come back as typed. `asked`
    (asked geometry): nobody measured where the pieces stand, so no side is guessed: the
    players name it."""
    words = " ".join(text.lower().split())
    match = _TOUCH.match(words)
    if match is None:
        return text
    obstacle, name = bool(match[1]), match[2]
    what = f"obstacle {name.upper()}" if obstacle else _piece(name, pieces).id
    if match[3] is None and asked:
        raise InputError(f"{text!r}: name the side (`touching {what} on its north side`): with "
                         f"asked geometry nobody measured which side is nearest")
    side = match[3] or _nearest_side(table, pieces, mover, obstacle, name)
    return f"touching {what} on its {side} side"


def _nearest_side(table: TableGeometry, pieces: list[Piece], mover: Piece, obstacle: bool,
                  name: str) -> str:
    """Of the four sides of the piece or obstacle, the one nearest the mover's spot now where
    it lies flat (the nearest of all when none is free: placing it says why not)."""
    def spot(side: str) -> Vec:
        return _spot(f"touching {'obstacle ' if obstacle else ''}{name} on its {side} side",
                     table, pieces, mover)

    spots = {side: spot(side) for side in SIDES}
    order = sorted(SIDES, key=lambda side: math.dist(spots[side], mover.at))
    free = [side for side in order
            if overlap_with(table, pieces, mover, spots[side], PLACEMENT_TOLERANCE) is None]
    return (free or order)[0]


def named_piece(text: str) -> str | None:
    """The piece a place is given relative to (`2 cm left of rat-1`, `touching elf on its west
    side`), or None (coordinates, a rune, an obstacle)."""
    words = " ".join(text.lower().split())
    if (match := _TOUCH.match(words)) and not match[1]:
        return match[2]
    if match := _GAP.match(words):
        return match[3]
    return None


def parse_position(text: str, table: TableGeometry, pieces: list[Piece], mover: Piece,
                   asked: bool = False) -> Vec:
    """A legal centre for `mover` from the players' words; InputError says what is wrong.
    `asked` (asked geometry): the other pieces stand where nobody measured, so the spot is
    checked against the mat's edge and obstacles only, and a spot beside a piece not at all
    (it is only as known as that piece: the players put the real disc down)."""
    words = " ".join(text.lower().split())
    spot = _spot(words, table, pieces, mover)
    if asked and named_piece(words) is not None:
        return spot
    clash = overlap_with(table, [] if asked else pieces, mover, spot, PLACEMENT_TOLERANCE)
    if clash == "the mat edge":
        raise InputError(f"{text!r}: ({spot[0]:.1f}, {spot[1]:.1f}) puts {mover.id} off the mat")
    if clash is not None:
        raise InputError(f"{text!r}: ({spot[0]:.1f}, {spot[1]:.1f}) puts {mover.id} on {clash}")
    return spot


def _direction(word: str) -> Vec:
    if word not in DIRECTIONS:
        raise InputError(f"{word!r} is not a direction (use {', '.join(DIRECTIONS)})")
    return DIRECTIONS[word]


def _spot(words: str, table: TableGeometry, pieces: list[Piece], mover: Piece) -> Vec:
    if (at := coordinates(words)) is not None:
        return at
    if match := _RUNE.match(words):
        rune = runes_of(table).get(int(match[1]))
        if rune is None:
            raise InputError(f"there is no rune {match[1]} on this mat")
        return rune.at
    if match := _TOUCH.match(words):
        dx, dy = _direction(match[3] or _nearest_side(table, pieces, mover, bool(match[1]),
                                                      match[2]))
        if match[1]:
            return _beside_obstacle(table, match[2].upper(), (dx, dy), mover.radius)
        other = _piece(match[2], pieces)
        reach = other.radius + mover.radius + 1e-4
        return (other.at[0] + dx * reach, other.at[1] + dy * reach)
    if match := _GAP.match(words):
        dx, dy = _direction(match[2])
        other = _piece(match[3], pieces)
        reach = other.radius + mover.radius + float(match[1])
        return (other.at[0] + dx * reach, other.at[1] + dy * reach)
    raise InputError(f"cannot read the position {words!r}: try 12.5,40 | rune 3 | touching "
                     f"obstacle B on its north side | 2 cm left of elf")


def _piece(name: str, pieces: list[Piece]) -> Piece:
    """The piece on the mat `name` names, in full or by a short form (session/names.py)."""
    by_id = {p.id: p for p in pieces}
    try:
        return by_id[piece_named(name, by_id)]
    except UnknownPiece:
        raise UnknownPiece(f"no piece {name!r} on the mat{nearest_hint(name, by_id)}") from None


def _beside_obstacle(table: TableGeometry, obstacle_id: str, direction: Vec,
                     radius: float) -> Vec:
    shape = next((o for o in table.obstacles if o.id == obstacle_id), None)
    if shape is None:
        raise InputError(f"no obstacle {obstacle_id} on this mat")
    centre = shape.polygon.centroid
    minx, miny, maxx, maxy = shape.polygon.bounds
    reach = math.hypot(maxx - minx, maxy - miny)
    far = (centre.x + direction[0] * reach, centre.y + direction[1] * reach)
    # slide in from far away until the disc touches the obstacle
    lo, hi = 0.0, reach
    for _ in range(50):
        mid = (lo + hi) / 2
        at = (far[0] - direction[0] * mid, far[1] - direction[1] * mid)
        if shape.polygon.distance(Point(at)) < radius:
            hi = mid
        else:
            lo = mid
    return (far[0] - direction[0] * lo, far[1] - direction[1] * lo)


