"""Who acts in a round besides the order tiles: whose the Antients are when the AI turn begins.

A round is the heroes' turn, then the AI turn. The order tiles choose among the AI's pieces that
have not acted (rules/tiles.py); what changes hands between the two turns is here.
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from automa.model.pieces import Kind, Piece, Side


def antients_to_overseer(pieces: Iterable[Piece]) -> tuple[Piece, ...]:
    """The pieces as the AI turn begins: the heroes' turn is over, so every Antient the heroes
    hold passes to the Overseer ("Once that player's turn is over, the Antient card passes to
    the Overseer. Control of the Antient passes back and forth ..."; ruling 66). One without a
    shot sequence (its card not entered) stays with the heroes: the AI has nothing to play.
    Pieces not changed are the same objects."""
    return tuple(replace(p, side=Side.AI) if _passes(p) else p for p in pieces)


def unplayable_antients(pieces: Iterable[Piece]) -> list[Piece]:
    """The heroes' Antients that cannot pass to the Overseer: no shot sequence to play."""
    return [p for p in pieces if p.kind == Kind.ANTIENT and p.side == Side.HEROES
            and not p.sequences]


def _passes(piece: Piece) -> bool:
    return piece.kind == Kind.ANTIENT and piece.side == Side.HEROES and bool(piece.sequences)
