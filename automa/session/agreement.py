"""Replay checks the record: the answers and positions an activation logged are what happened
at the table, so on replay they stand; where this machine computes otherwise (a geometric
answer, or where a piece ended by more than 1e-6 cm) the disagreement is reported in one line,
and going on under this machine's figures is an explicit command (`automa log
--accept-recomputed`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

from msgspec import Struct

from automa.engine.battle import Battle
from automa.engine.judge import AGREEMENT_CM, Disagreement

LOGGED, COMPUTED = "logged", "computed"  # which figures a replay keeps where they differ


class Contradiction(Struct, frozen=True):
    """One logged figure this machine computes otherwise."""

    input: int  # the input's index among those in force (0-based)
    actor: str  # who acted
    question: str
    logged: str
    computed: str
    line: int = 0  # the input's line in the log (0: not known)

    def text(self, log: Path) -> str:
        """One line: where, the input, the question and both answers (each front end adds
        how to go on: a command in the terminal, a button on the board)."""
        where = f"{log} line {self.line}" if self.line else str(log)
        return (f"{where}: input {self.input + 1} ({self.actor}): {self.question!r} is "
                f"{self.logged} in the log, {self.computed} as computed here")


def _said(answer: bool | str) -> str:
    return ("yes" if answer else "no") if isinstance(answer, bool) else answer


def from_answers(index: int, actor: str, found: list[Disagreement]) -> list[Contradiction]:
    return [Contradiction(index, actor, d.question, _said(d.logged), _said(d.computed))
            for d in found]


def ends_of(before: Battle, after: Battle) -> dict[str, tuple[float, float]]:
    """Where each piece the activation moved or placed ended (the line's `ends`)."""
    was = {p.id: p.at for p in before.pieces}
    return {p.id: p.at for p in after.pieces if was.get(p.id) != p.at}




def _where(point: tuple[float, float] | None) -> str:
    return "off the table" if point is None else f"({point[0]:.6f}, {point[1]:.6f})"


def _apart(one: tuple[float, float] | None, other: tuple[float, float] | None) -> bool:
    if one is None or other is None:
        return one is not other
    return math.dist(one, other) > AGREEMENT_CM


def compare_ends(index: int, actor: str, logged: Mapping[str, tuple[float, float]],
                 before: Battle, after: Battle) -> list[Contradiction]:
    """Each piece this machine puts elsewhere than the log has it, by more than 1e-6 cm."""
    found = []
    for piece_id in sorted(set(logged) | set(ends_of(before, after))):
        now, was = after.get(piece_id), before.get(piece_id)
        computed = now.at if now is not None else None
        if piece_id in logged:
            differs, said = _apart(logged[piece_id], computed), _where(logged[piece_id])
        else:  # it moved here, not in the log
            differs, said = _apart(was.at if was is not None else None, computed), \
                "did not move"
        if differs:
            name = now.label if now is not None else was.label if was is not None else piece_id
            found.append(Contradiction(index, actor, f"where {name} ended", said,
                                       _where(computed)))
    return found


def keep_logged_ends(logged: Mapping[str, tuple[float, float]], before: Battle,
                     after: Battle) -> Battle:
    """The battle with every piece where the log says the activation left it."""
    moved = ends_of(before, after)
    battle = after
    for piece in after.pieces:
        if piece.id in logged:
            at = logged[piece.id]
        elif piece.id in moved and (old := before.get(piece.id)) is not None:
            at = old.at
        else:
            continue
        if at != piece.at:
            battle = battle.with_piece(piece.moved(at))
    return battle
