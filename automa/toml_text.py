"""Writing TOML by hand: strings and keys that every TOML reader reads back as written.

json.dumps is not enough: it leaves DEL (0x7F) raw, which TOML forbids in a basic string.
"""

from __future__ import annotations

import re

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    escaped = ("\\" + c if c in '"\\' else f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7F
               else c for c in text)
    return '"' + "".join(escaped) + '"'


def toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else toml_string(key)
