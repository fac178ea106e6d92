"""Answers typed at the table, read the same way by every front end: a number is plain ASCII
digits only; a choice is taken by its name, by one word of it no other choice shares, or by its
menu number where no choice is itself a number (so a number cannot be mistaken for a value)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from automa.session.names import is_last_words

PLAIN_NUMBER = re.compile(r"[0-9]{1,6}", re.ASCII)
SIGNED_NUMBER = re.compile(r"[+-]?[0-9]{1,6}", re.ASCII)
ASCII_SPACE = " \t\n\r\f\v"


def plain_number(text: str, signed: bool = False) -> int | None:
    """`text` as a whole number when it is plain ASCII digits (a sign if `signed`), else None:
    a superscript two, full-width or Arabic-Indic digits are not numbers here (str.isdigit
    would say they are)."""
    pattern = SIGNED_NUMBER if signed else PLAIN_NUMBER
    bare = text.strip(ASCII_SPACE)  # str.strip would also take \x1c-\x1f, which int refuses
    return int(bare) if pattern.fullmatch(bare) else None


def menu_numbers_allowed(options: Sequence[str]) -> bool:
    """A menu number could be mistaken for a value (a token face, a tile's level or number)
    when any choice holds a digit: then only names are taken."""
    return not any(char.isdigit() for option in options for char in option)


def resolve(answer: str, options: Sequence[str]) -> str | None:
    """A choice by its name (any case), by one word of it that no other choice shares
    (`green` or `dungeon` for `green (dungeon)`, `4` for `level-4`), by its last words if no
    other choice ends so (`rat-2` for `sewer-rat-2`, as piece names are typed; never a bare
    beginning, so `2` is not `2R`), or by its menu
    number where numbers cannot be values."""
    text = answer.strip().lower()
    if not text:
        return None
    exact = [o for o in options if o.lower() == text]
    if exact:
        return exact[0]
    by_word = {o for o in options if text in _names_within(o)}
    if len(by_word) == 1:
        return by_word.pop()
    by_last_words = [o for o in options if is_last_words(text, o.lower())]  # `rat-2`
    if len(by_last_words) == 1:
        return by_last_words[0]
    number = plain_number(text)
    if number is not None and menu_numbers_allowed(options) and 1 <= number <= len(options):
        return options[number - 1]
    return None


def _names_within(option: str) -> set[str]:
    """`left-to-right (green)`: the parts in and out of brackets, and every word of them."""
    parts = {part.strip() for part in re.split(r"[()]", option.lower()) if part.strip()}
    return parts | {word for part in parts for word in re.split(r"[\s-]+", part) if word}
