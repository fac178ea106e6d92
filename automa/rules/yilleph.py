"""Yilleph the Illusionist's two-sided pieces (red-box-solo-rules.txt l.320-335).

Each piece shows a white or a black side (`Piece.colour`): "The white Yilleph is invulnerable"
and "The black Yilleph is vulnerable to damage" (l.326). "When an Yilleph piece of either colour
is directly hit (not necessarily damaged) by any piece including a character, shield, ranged
piece, or another Yilleph, it flips over (after applicable damage is inflicted). When it flips to
white, the player controlling the affected Yilleph immediately performs a single rush shot. When
it flips to black, it is immediately moved to a random rune." (l.330-332)
"""

from __future__ import annotations

from msgspec.structs import replace

from automa.model.pieces import Colour, Piece

RULE_LINES = "l.330-332"  # the flip, as the printout cites it


def flips(piece: Piece) -> bool:
    """Whether a direct hit flips the piece over: one of Yilleph's two-sided pieces."""
    return piece.colour is not None


def flipped(piece: Piece) -> Piece:
    """The piece turned over: its colour changes, and its invulnerability with it (white is
    invulnerable, black is not, l.326)."""
    if piece.colour is None:
        raise ValueError(f"{piece.id} has no colour: only Yilleph's pieces flip")
    colour = Colour.BLACK if piece.colour == Colour.WHITE else Colour.WHITE
    return replace(piece, colour=colour, invulnerable=colour == Colour.WHITE)


def flip_line(piece: Piece) -> str:
    """What happens when the piece, as it lies before the flip, is directly hit: what it flips
    to and what the rules make of it now (the caller says how the players do it)."""
    after = flipped(piece)
    if after.colour == Colour.WHITE:
        return (f"{piece.label} was hit: it flips to white, invulnerable ({RULE_LINES}); the "
                f"players perform a single rush shot with it now")
    return (f"{piece.label} was hit: it flips to black, vulnerable ({RULE_LINES}); it is moved "
            f"to a random rune now")
