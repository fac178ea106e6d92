"""The parsed tables of each data file, kept beside the validated marker, by the file's bytes.

Parsing TOML is most of what reading the data costs a command (the parser is pure Python); the
tables it yields are plain values (tables, arrays, strings, numbers, booleans), which `marshal`
writes and reads back exactly and a hundred times faster. One entry per data file path, holding
a digest of the file's text (with the Python version and the checking code), a digest of the
payload, and the payload. An entry is used only when both digests match: a changed file, a
damaged or truncated entry, or one from another Python is ignored and written anew. The records
built from the tables are checked as always; only the TOML parse is skipped. Entries live in the
user's own cache folder (see validated.py); where it cannot be written, nothing is kept.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from typing import TYPE_CHECKING, Any

from automa.catalog.validated import cache_dir, cache_folder, is_safe

if TYPE_CHECKING:  # a turn reads these paths as text: pathlib costs its start ~5 ms
    from pathlib import Path

HEADER = b"automa-tables-1\n"
MAX_ENTRY_BYTES = 20_000_000


def _entry(path: str | Path) -> str | None:
    folder = cache_folder()
    if folder is None or not is_safe(folder):
        return None
    name = hashlib.sha256(os.fsencode(os.path.abspath(path))).hexdigest()[:32]
    return os.path.join(folder, f"tables-{name}")


def _text_digest(text: str) -> bytes:
    reader = os.stat(os.path.join(os.path.dirname(__file__), "reader.py"))
    digest = hashlib.sha256(HEADER)
    digest.update(f"{sys.version}\0{marshal.version}\0{reader.st_size}\0{reader.st_mtime_ns}\0"
                  .encode())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest().encode()


def cached_tables(path: str | Path, text: str) -> dict[str, Any] | None:
    """The tables parsed from exactly this text before, else None."""
    entry = _entry(path)
    if entry is None:
        return None
    try:
        with open(entry, "rb") as handle:
            blob = handle.read(MAX_ENTRY_BYTES + 1)
    except OSError:
        return None
    text_sum = _text_digest(text)
    if len(blob) > MAX_ENTRY_BYTES or not blob.startswith(HEADER + text_sum + b"\n"):
        return None
    rest = blob[len(HEADER) + len(text_sum) + 1:]
    payload_sum, _, payload = rest.partition(b"\n")
    if hashlib.sha256(payload).hexdigest().encode() != payload_sum:
        return None  # damaged: never handed to marshal
    try:
        tables = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    return tables if isinstance(tables, dict) else None


def store_tables(path: str | Path, text: str, tables: dict[str, Any]) -> None:
    """Keep the tables for next time; any failure (no folder, a full disk, a value marshal
    cannot write) leaves nothing."""
    try:
        folder = cache_dir()
        if folder is None:
            return
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        entry = _entry(path)
        if entry is None:
            return
        payload = marshal.dumps(tables)
        if marshal.loads(payload) != tables:  # a value marshal does not keep exactly
            return
        blob = (HEADER + _text_digest(text) + b"\n" + hashlib.sha256(payload).hexdigest().encode()
                + b"\n" + payload)
        temp = folder / f".{os.path.basename(entry)}.{os.getpid()}.tmp"
        temp.write_bytes(blob)
        os.replace(temp, entry)
    except (OSError, ValueError):
        return
