"""Identical discs told apart at the table: a numbered marker on each.

Two Sewer Rats are the same disc; once they have moved, nobody at the table can say which is
`sewer-rat-1`. So each piece that shares its monster with another carries a marker (a numbered
sticker, or a numbered token beside the disc) showing its number, said once when it is placed.
The number is the one its name already carries (`Sewer Rat #1`, `sewer-rat-1`), so every
question and step that names the piece names the disc with that marker.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from automa.model.pieces import Piece, Side

_LABEL_NUMBER = re.compile(r"#(\d{1,4})$")
_ID_NUMBER = re.compile(r"-(\d{1,4})$")



def _number(piece: Piece) -> int | None:
    found = _LABEL_NUMBER.search(piece.label) or _ID_NUMBER.search(piece.id)
    return int(found[1]) if found else None


def markers(pieces: Iterable[Piece]) -> dict[str, int]:
    """The pieces that share their monster with another (heroes' side excluded), each with the
    number its marker shows: the one in its name, or else its place among its kind."""
    kinds: dict[str, list[Piece]] = {}
    for piece in pieces:
        if piece.monster and piece.side != Side.HEROES and not piece.part_of:
            kinds.setdefault(piece.monster, []).append(piece)
    result: dict[str, int] = {}
    for group in kinds.values():
        if len(group) < 2:
            continue
        numbers = [_number(p) for p in group]
        if None in numbers or len(set(numbers)) != len(numbers):
            numbers = list(range(1, len(group) + 1))  # names that do not tell them apart
        result.update((p.id, n) for p, n in zip(group, numbers, strict=True) if n is not None)
    return result


def marker_words(piece: Piece, number: int) -> str:
    """`rat-1 (Sewer Rat #1): marker 1`."""
    named = f" ({piece.label})" if piece.label != piece.id else ""
    return f"{piece.id}{named}: marker {number}"


def markers_line(example: Piece, number: int, placing: bool) -> str:
    """The one line that tells the table to mark the identical discs, with one disc as the
    example; `placing`: said at setup, as the pieces go down (else they stand already)."""
    when = "as you place each one, put" if placing else "put"
    return (f"Mark the identical discs: {when} the marker with its number on it (a numbered "
            f"sticker, or a numbered token beside the disc); every question names it by that "
            f"number from now on ({example.label}: marker {number}).")
