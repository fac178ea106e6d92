"""The user's cache folder, where commands keep what makes the next start quicker.

It is never beside the installed package (which may be read-only), and a folder that is not the
user's own, or that others may write to, is not used. Set AUTOMA_CACHE_DIR to choose the folder,
or to an empty value to keep nothing.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a turn reads these paths as text: pathlib costs its start ~5 ms
    from pathlib import Path

CACHE_ENV = "AUTOMA_CACHE_DIR"


def cache_folder() -> str | None:
    """$AUTOMA_CACHE_DIR (empty: none), else $XDG_CACHE_HOME/automa, else ~/.cache/automa."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        if not chosen.strip():
            return None
        folder = os.path.expanduser(chosen)
        return None if folder.startswith("~") else folder  # ~someone unknown: no cache
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):  # no home to be found: no cache, never one in the current folder
        return None
    return os.path.join(base, "automa")


def is_safe(folder: str | Path) -> bool:
    """The user's own folder, a real one (no symlink), that no one else may write to."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    owner_ok = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISDIR(info.st_mode) and owner_ok and not info.st_mode & (stat.S_IWGRP
                                                                           | stat.S_IWOTH)


def _safe_folder() -> str | None:
    """The cache folder, when there is one and it is safe to read."""
    folder = cache_folder()
    return folder if folder is not None and is_safe(folder) else None


def cached_file(name: str) -> str | None:
    """The path of `name` in the cache folder, when there is a folder and it is safe to read."""
    folder = _safe_folder()
    return None if folder is None else os.path.join(folder, name)


def can_keep() -> bool:
    """Whether `keep` may write at all: there is a cache folder, safe or not made yet."""
    folder = cache_folder()
    return folder is not None and (not os.path.lexists(folder) or is_safe(folder))


def keep(name: str, data: bytes) -> None:
    """Write `name` in the cache folder, made if need be, whole or not at all (through a file of
    its own, then renamed over the old one); where the folder cannot be made, is not safe, or
    cannot be written, nothing is kept."""
    folder = cache_folder()
    if folder is None:
        return
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return
    if not is_safe(folder):
        return
    temp = os.path.join(folder, f".{name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(temp, "wb") as handle:
            handle.write(data)
        os.replace(temp, os.path.join(folder, name))
    except OSError:
        with contextlib.suppress(OSError):
            os.remove(temp)  # a full disk, or a folder in the file's place: no litter either


def prune(prefix: str, most: int) -> None:
    """Remove the oldest files named `prefix`... beyond the `most` newest (by when written):
    entries for files no longer read (another install's data folder) would pile up for ever."""
    folder = _safe_folder()
    if folder is None:
        return
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(prefix) and e.is_file()]
        if len(entries) <= most:
            return
        entries.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
        for entry in entries[most:]:
            with contextlib.suppress(OSError):
                os.remove(entry.path)
    except OSError:
        return


def sealed(head: bytes, payload: bytes) -> bytes:
    """`head`, a digest of `payload`, and `payload`: what `unsealed` reads back."""
    return head + _digest(payload) + b"\n" + payload


def unsealed(path: str, head: bytes, most: int) -> bytes | None:
    """The payload of a file `sealed` wrote with exactly this `head`, else None (no file, another
    head, more than `most` bytes, or a payload that does not match its digest: damaged)."""
    try:
        with open(path, "rb") as handle:
            blob = handle.read(most + 1)
    except OSError:
        return None
    if len(blob) > most or not blob.startswith(head):
        return None
    payload_sum, _, payload = blob[len(head):].partition(b"\n")
    return payload if _digest(payload) == payload_sum else None


def unmarshalled(payload: bytes | None) -> object | None:
    """The value `marshal` wrote into `payload`; None for no payload or one it cannot read."""
    if payload is None:
        return None
    try:
        value: object = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    return value


def _digest(payload: bytes) -> bytes:
    import hashlib

    return hashlib.sha256(payload).hexdigest().encode()
