"""Piece names as the players type them: the full id (`sewer-rat-1`), or any unique short form
of it, the id's last words (`rat-1`) or its beginning (`barb` for `barbarian`). A short form
that fits several pieces is refused naming them; a name that fits none is refused with the
nearest id (difflib). Every command that names a piece is read through here once, in the core
(`full_names`), so the terminal and the board's command line take the same short forms and the
log keeps the full id.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Sequence

from msgspec.structs import replace

from automa.errors import InputError
from automa.session.commands import (
    Adjust,
    Command,
    Damage,
    EnterCave,
    Heal,
    Hit,
    Move,
    Remove,
    ReturnToMat,
    SetCondition,
    Summon,
    UseCard,
)
from automa.session.state import SessionState

SUGGESTIONS = 1  # the nearest id offered on a typo
CUTOFF = 0.6  # difflib's default: below it, no id is near enough to offer


class UnknownPiece(InputError):
    """A name that fits no piece: one line, with the nearest id when one is near."""


class AmbiguousPiece(InputError):
    """A short form that fits several pieces: one line naming them."""


def short_form_of(name: str, piece_id: str) -> bool:
    """`name` is `piece_id`'s beginning or its last hyphenated words (`rat-1`, `1` is not)."""
    return piece_id.startswith(name) or is_last_words(name, piece_id)


def is_last_words(name: str, piece_id: str) -> bool:
    """`name` is `piece_id`'s last hyphenated words: `rat-1` of `sewer-rat-1` (a bare number
    is not: `1` would name every first piece)."""
    return piece_id.endswith(f"-{name}") and not name.isdigit()


def piece_named(name: str, ids: Collection[str], in_play: Sequence[str] = ()) -> str:
    """The id among `ids` that `name` names: itself, or the one id it is a short form of.
    Case is ignored, as the ids are lower case. A refusal lists `in_play`, when given."""
    typed = name.strip().lower()
    for exact in (name, typed):
        if exact in ids:
            return exact
    fits = sorted(i for i in ids if typed and short_form_of(typed, i))
    if len(fits) == 1:
        return fits[0]
    if fits:
        raise AmbiguousPiece(f"{name!r} could be {', '.join(fits)}: type more of the name")
    listed = f" in play (pieces: {', '.join(in_play)})" if in_play else ""
    raise UnknownPiece(f"no piece {name!r}{listed}{nearest_hint(typed, ids)}")


def nearest_hint(typed: str, ids: Collection[str]) -> str:
    """`; did you mean 'elf'?` for the id nearest a typo, or nothing when none is near."""
    close = difflib.get_close_matches(typed, sorted(ids), n=SUGGESTIONS, cutoff=CUTOFF)
    if not close:  # a typo in a short form: compare with the ids' last words too
        tails = {i.split("-", 1)[1]: i for i in sorted(ids) if "-" in i}
        near = difflib.get_close_matches(typed, list(tails), n=SUGGESTIONS, cutoff=CUTOFF)
        close = [tails[n] for n in near]
    return f"; did you mean {close[0]!r}?" if close else ""


def known_ids(state: SessionState) -> set[str]:
    """Every piece a command may name: those in play and those that have left it (named in
    full, a piece out of play is refused by the command itself, saying so)."""
    return {p.id for p in state.battle.pieces} | {p.id for p in state.scenario.pieces} | \
        set(state.battle.out)


def full_names(command: Command, state: SessionState) -> Command:
    """`command` with every piece it names by its full id (UnknownPiece, AmbiguousPiece)."""
    ids, in_play = known_ids(state), [p.id for p in state.battle.pieces]

    def full(name: str) -> str:
        return piece_named(name, ids, in_play)

    def by(name: str | None) -> str | None:
        """The hero who dealt it: a short form taken; a name that is no piece is left to the
        command's own check, which names the heroes."""
        if name is None:
            return None
        try:
            return full(name)
        except UnknownPiece:
            return name

    match command:
        case Move() | Heal() | Adjust() | Remove() | SetCondition() | ReturnToMat() \
                | UseCard() | EnterCave() | Summon():
            return replace(command, piece=full(command.piece))
        case Damage():
            return replace(command, piece=full(command.piece), by=by(command.by))
        case Hit():
            return replace(command, targets=tuple(full(t) for t in command.targets),
                           by=by(command.by))
    return command
