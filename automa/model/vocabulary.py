"""`Word`: the base of the closed sets of words the rules speak (sides, kinds, families, shots,
ruling keys ...), so mypy catches a misspelt one.

A member is a `str` equal to its word: it prints, formats, sorts, hashes and goes into JSON as
the word. Its repr is the word's too (`'hero'`, not `<Kind.HERO: 'hero'>`): the records held
these words as plain text before, and a message or a printout that shows one with `!r`, or in a
list, reads the same as it always did.

On CPython 3.11 reading a member through its class (`Kind.HERO`) costs about ten times reading
a global (the enum's metaclass has a `__getattr__`, which sends every class attribute read the
slow way; 3.12 dropped it). Where a comparison runs once a piece, many times a turn, the member
is read once before the loop, or kept in a module constant.
"""

from __future__ import annotations

from enum import StrEnum


class Word(StrEnum):
    """A StrEnum whose members read as their words everywhere, repr included."""

    __repr__ = str.__repr__
