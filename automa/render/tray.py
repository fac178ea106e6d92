"""Asked geometry: the pieces whose place nobody measured, set apart in a tray below the mat.

A piece the AI moved (or summoned, or one reported beside such a piece) stands somewhere the
table never said; drawing it at the model's guess, or at the spot it left, would show a place
nobody measured. It is drawn in a strip below the mat instead, marked "place unknown", at a
spot that cannot be mistaken for one on the mat (below its Hero Start Zone edge, y < 0), until
the players report where it stands. The page draws the same strip from the same spots.
"""

from __future__ import annotations

from collections.abc import Sequence

from automa.model.pieces import Piece
from automa.model.playmat import Playmat
from automa.render.canvas import MARGIN, SCALE, Point
from automa.render.labels import text_width

TITLE = "Place unknown: the AI moved these. Say where each stands (move ID ...)."
TITLE_PX = 24.0  # the title's line
GAP_PX = 14.0  # between two discs, and from a disc to its name below it
NAME_PX = 16.0  # a name's line under its disc


def largest_radius(pieces: Sequence[Piece]) -> float:
    """The widest disc's radius in px: every row is this high, every name this far down."""
    return max(p.radius for p in pieces) * SCALE


def _row_height(pieces: Sequence[Piece]) -> float:
    return 2 * largest_radius(pieces) + GAP_PX + NAME_PX


def tray_rows(mat: Playmat, pieces: Sequence[Piece]) -> list[list[Piece]]:
    """The pieces in rows no wider than the mat, in the order given."""
    rows: list[list[Piece]] = []
    width = 0.0
    for piece in pieces:
        slot = _slot(piece)
        if not rows or width + slot > mat.width * SCALE:
            rows.append([])
            width = 0.0
        rows[-1].append(piece)
        width += slot
    return rows


def _slot(piece: Piece) -> float:
    return max(2 * piece.radius * SCALE, text_width(piece.id)) + GAP_PX


def tray_height(mat: Playmat, pieces: Sequence[Piece]) -> float:
    """The strip's height in px (0: nothing to set apart)."""
    if not pieces:
        return 0.0
    return TITLE_PX + len(tray_rows(mat, pieces)) * _row_height(pieces) + GAP_PX


def tray_spots(mat: Playmat, pieces: Sequence[Piece]) -> dict[str, Point]:
    """Each piece's centre in the tray, in the mat frame's cm (y < 0: below the mat's Hero
    Start Zone edge, past the margin's grid labels): not a place on the mat."""
    spots: dict[str, Point] = {}
    if not pieces:
        return spots
    top = MARGIN + TITLE_PX  # px below the mat's y = 0 edge
    radius = largest_radius(pieces)
    for row in tray_rows(mat, pieces):
        left = 0.0
        for piece in row:
            slot = _slot(piece)
            spots[piece.id] = (round((left + slot / 2) / SCALE, 3),
                               round(-(top + radius) / SCALE, 3))
            left += slot
        top += _row_height(pieces)
    return spots
