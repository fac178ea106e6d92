"""The compiled code of the methods the standard dataclass decorator writes, kept between runs.

The standard decorator (Python 3.11 and 3.12) writes each `__init__` as source text and compiles
it when the class is made: about a quarter of a millisecond a record, some 15 ms of a turn's
start. Python keeps the compiled code of our modules in `__pycache__`; this keeps the code of
those method texts the same way, in one file per interpreter in the user's cache folder
(user_cache.py: the user's own folder, that no one else may write to; none with AUTOMA_CACHE_DIR
empty), keyed by the exact text. The code a text compiles to does not depend on the class it is
made for, so the code found for a text is the code `exec` would have compiled from it, and each
class gets a code object of its own (read from the kept bytes, as a compile would make a new
one): the method made is the standard one. A file that is damaged, foreign or from another
Python is ignored and written anew; texts never seen before are compiled as always, and the file
is rewritten once as the process ends (by the process that compiled them, not by a forked copy
of it). The texts used last are kept first, up to MAX_KEPT; what another command added while
this one ran may be dropped, and is compiled again next time.

Like `__pycache__`, the file holds code that runs: it is trusted as far as the folder it is in.
"""

from __future__ import annotations

import atexit
import marshal
import os
import sys
import threading
from collections.abc import Callable
from types import CodeType

from automa.user_cache import cached_file, keep, sealed, unmarshalled, unsealed

HEADER = b"automa-method-code-3\n"  # 3: frozen records' fields set at once
MAX_FILE_BYTES = 4_000_000
FILE_NAME = f"method-code-{sys.implementation.cache_tag}"
MAX_KEPT = 600  # texts, ~2 kB each: every record of every command is a few hundred


class MethodCode:
    """Compiled code by source text: what the cache file held (read on first use), and what
    this process compiled (written back as it ends)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: dict[str, bytes] | None = None  # text -> its code, marshalled
        self._used: set[str] = set()
        self._writer: int | None = None  # the process that compiled something new

    def code(self, text: str, prepare: Callable[[str], str] | None = None) -> CodeType:
        """The code of `text` (made `prepare(text)` first, when given: the code is kept by the
        text as given, so a text found is not prepared again), compiled as `exec(text, ...)` in
        dataclasses compiles it (no future flags: annotations stay objects)."""
        with self._lock:
            if self._known is None:
                path = cached_file(FILE_NAME)
                self._known = _read(path) if path is not None else {}
            self._used.add(text)
            kept = _code(self._known.get(text))
            if kept is not None:
                return kept
            code = compile(prepare(text) if prepare is not None else text, "<string>", "exec",
                           dont_inherit=True)
            self._known[text] = marshal.dumps(code)
            if self._writer is None:
                self._writer = os.getpid()
                atexit.register(self.store)
            return code

    def store(self) -> None:
        """Write the texts used by this run, then the newest others, back to the cache file,
        whole or not at all; where it cannot be written, nothing is kept."""
        with self._lock:
            if self._known is None or self._writer != os.getpid():
                return
            self._writer = None
            used = [(text, code) for text, code in self._known.items() if text in self._used]
            others = [(text, code) for text, code in self._known.items()
                      if text not in self._used]
            kept = dict(used[:MAX_KEPT] + others[:max(0, MAX_KEPT - len(used))])  # others: the
            # file's order, which is last used first
            keep(FILE_NAME, sealed(_head(), marshal.dumps(kept)))

    def after_fork(self) -> None:
        """A forked child starts with the lock free (another thread may have held it at the
        fork), and leaves the writing to its parent."""
        self._lock = threading.Lock()


def _head() -> bytes:
    """The file's first line: the format and the interpreter whose bytecode it holds (another
    Python never reads it)."""
    import hashlib

    tag = f"{sys.implementation.cache_tag}\0{sys.version}\0{marshal.version}".encode()
    return HEADER + hashlib.sha256(tag).hexdigest().encode() + b"\n"


def _code(kept: bytes | None) -> CodeType | None:
    """A code object of its own from kept bytes; None for none, or for bytes that are not one."""
    code = unmarshalled(kept)
    return code if isinstance(code, CodeType) else None


def _read(path: str) -> dict[str, bytes]:
    known = unmarshalled(unsealed(path, _head(), MAX_FILE_BYTES))
    if not isinstance(known, dict) or not all(
            isinstance(k, str) and isinstance(v, bytes) for k, v in known.items()):
        return {}
    return known
