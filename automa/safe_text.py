"""User text made safe to print in one terminal line: control characters shown, never obeyed.

A name, an id or a file read from disk may hold ESC (a terminal escape sequence that recolours or
rewrites the screen), other C0/C1 control characters, a newline that would split an error over
two lines, or a bidi override that reorders what the reader sees. `one_line` shows each of them
as a visible escape (`\\x1b`, `\\n`, `\\u202e`) and leaves every other character as it is.
"""

from __future__ import annotations

import unicodedata

# Unicode "format" characters that reorder or hide text: the bidi embeddings, overrides and
# isolates, and the marks that steer them.
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _visible(char: str) -> str:
    if char == "\n":
        return "\\n"
    if char == "\r":
        return "\\r"
    if char == "\t":
        return "\\t"
    code = ord(char)
    if code < 0x20 or 0x7F <= code < 0xA0:
        return f"\\x{code:02x}"
    if char in BIDI or unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp"):
        return f"\\u{code:04x}"
    return char


def one_line(text: str) -> str:
    """`text` with every control, line-break and bidi character written as a visible escape."""
    if text.isprintable():
        return text
    return "".join(_visible(c) for c in text)


def unsafe_character(text: str) -> str | None:
    """The first character of `text` that a terminal would obey rather than show, escaped."""
    if text.isprintable():
        return None
    for char in text:
        shown = _visible(char)
        if shown != char:
            return shown
    return None


def json_safe(text: str) -> str:
    """JSON text with every character a terminal would obey written as a `\\uXXXX` escape (the
    same string to a JSON reader; C0 controls are escaped by `json.dumps` already)."""
    if text.isprintable():
        return text
    return "".join(f"\\u{ord(c):04x}" if c not in "\n " and _visible(c) != c else c
                   for c in text)
