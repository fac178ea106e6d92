"""The compiled code of the methods the standard dataclass decorator writes, kept between runs.

The standard decorator (Python 3.11 and 3.12) writes each `__init__` as source text and compiles
it when the class is made: about a quarter of a millisecond a record, some 15 ms of a turn's
start. Python keeps the compiled code of our modules in `__pycache__`; this keeps the code of
those method texts the same way, in one file in the user's cache folder (validated.py's rules:
the user's own folder, that no one else may write to; none with AUTOMA_CACHE_DIR empty), keyed
by the exact text and the interpreter's bytecode tag. A text compiles to the same code whatever
class it is made for, so the code found for a text is the code `exec` would have compiled from
it: the method made from it is the standard one. A file that is damaged, foreign or from another
Python is ignored and written anew; texts never seen before are compiled as always, and the file
is rewritten once as the process ends.

Like `__pycache__`, the file holds code that runs: it is trusted as far as the folder it is in.
"""

from __future__ import annotations

import atexit
import marshal
import sys
import threading
from types import CodeType
from typing import Any

from automa.user_cache import cached_file, keep, sealed, unsealed

HEADER = b"automa-method-code-1\n"
MAX_FILE_BYTES = 4_000_000
FILE_NAME = f"method-code-{sys.implementation.cache_tag}"
MAX_KEPT = 2_000  # texts: every record of every command is a few hundred


class MethodCode:
    """Compiled code by source text: what the cache file held (read on first use), and what
    this process compiled (written back as it ends)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: dict[str, CodeType] | None = None
        self._new = False

    def code(self, text: str) -> CodeType:
        """The code of `text`, compiled as `exec(text, ...)` in dataclasses compiles it (no
        future flags: annotations stay objects)."""
        with self._lock:
            if self._known is None:
                path = cached_file(FILE_NAME)
                self._known = _read(path) if path is not None else {}
            found = self._known.get(text)
            if found is None:
                found = self._known[text] = compile(text, "<string>", "exec", dont_inherit=True)
                if not self._new:
                    self._new = True
                    atexit.register(self.store)
            return found

    def store(self) -> None:
        """Write every text known back to the cache file, whole or not at all; where it cannot
        be written, nothing is kept."""
        with self._lock:
            if self._known is None or not self._new:
                return
            self._new = False
            known = self._known
            if len(known) > MAX_KEPT:  # texts of classes changed since pile up: the newest
                known = dict(list(known.items())[-MAX_KEPT:])
            keep(FILE_NAME, sealed(_head(), marshal.dumps(known)))


def _head() -> bytes:
    """The file's first line: the format and the interpreter whose bytecode it holds (another
    Python never reads it)."""
    import hashlib

    tag = f"{sys.implementation.cache_tag}\0{sys.version}\0{marshal.version}".encode()
    return HEADER + hashlib.sha256(tag).hexdigest().encode() + b"\n"


def _read(path: str) -> dict[str, CodeType]:
    payload = unsealed(path, _head(), MAX_FILE_BYTES)
    if payload is None:
        return {}
    try:
        known: Any = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return {}
    if not isinstance(known, dict) or not all(
            isinstance(k, str) and isinstance(v, CodeType) for k, v in known.items()):
        return {}
    return known
