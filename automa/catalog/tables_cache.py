"""The parsed tables of each data file, kept beside the validated marker, by the file's bytes.

Parsing TOML is most of what reading the data costs a command (the parser is pure Python); the
tables it yields are plain values (tables, arrays, strings, numbers, booleans), which `marshal`
writes and reads back exactly and a hundred times faster. One entry per data file path, holding
a digest of the file's text (with the Python version and the checking code), a digest of the
payload, and the payload. An entry is used only when both digests match: a changed file, a
damaged or truncated entry, or one from another Python is ignored and written anew. The records
built from the tables are checked as always; only the TOML parse is skipped. Entries live in the
user's own cache folder (see user_cache.py); where it cannot be written, nothing is kept.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from typing import TYPE_CHECKING, Any

from automa.user_cache import (
    cached_file,
    can_keep,
    keep,
    prune,
    sealed,
    unmarshalled,
    unsealed,
)

if TYPE_CHECKING:  # a turn reads these paths as text: pathlib costs its start ~5 ms
    from pathlib import Path

HEADER = b"automa-tables-1\n"
MAX_ENTRY_BYTES = 20_000_000
KEPT_ENTRIES = 64  # data files: the shipped ones and a user's, for a few installs


def _entry_name(path: str | Path) -> str:
    return "tables-" + hashlib.sha256(os.fsencode(os.path.abspath(path))).hexdigest()[:32]


def _text_digest(text: str) -> bytes:
    reader = os.stat(os.path.join(os.path.dirname(__file__), "reader.py"))
    digest = hashlib.sha256(HEADER)
    digest.update(f"{sys.version}\0{marshal.version}\0{reader.st_size}\0{reader.st_mtime_ns}\0"
                  .encode())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest().encode()


def cached_tables(path: str | Path, text: str) -> dict[str, Any] | None:
    """The tables parsed from exactly this text before, else None."""
    entry = cached_file(_entry_name(path))
    if entry is None:
        return None
    tables = unmarshalled(unsealed(entry, HEADER + _text_digest(text) + b"\n", MAX_ENTRY_BYTES))
    return tables if isinstance(tables, dict) else None


def store_tables(path: str | Path, text: str, tables: dict[str, Any]) -> None:
    """Keep the tables for next time; any failure (no folder, a full disk, a value marshal
    cannot write) leaves nothing."""
    if not can_keep():
        return  # nowhere to keep them: not even worth writing them out
    try:
        payload = marshal.dumps(tables)
        if marshal.loads(payload) != tables:  # a value marshal does not keep exactly
            return
        head = HEADER + _text_digest(text) + b"\n"
    except (OSError, ValueError):
        return
    keep(_entry_name(path), sealed(head, payload))
    prune("tables-", KEPT_ENTRIES)
