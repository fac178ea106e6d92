"""A note that one exact set of data files was checked whole and found clean.

Checking every data file against the others costs a command's start more than the command
itself needs: a turn never reads the rooms, the setup tables or the campaigns. Once the data has
been checked whole, a small marker file remembers a digest of every data file's bytes (shipped and
the user's) and of the checking code; while the digest is there, a command parses only the parts
it reads. Any change of any of those bytes gives another digest, so the whole check runs again.

The marker holds no data, only the digests of the last few clean data sets: a damaged or foreign
line matches nothing and is ignored, and nothing in it is ever executed or parsed into records.
It lives in the user's cache folder (never beside the installed package, which may be
read-only); a folder that is not the user's own or that others may write to is not used. Set
AUTOMA_CACHE_DIR to choose the folder, or to an empty value to check the data whole each start.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from automa.catalog.locate import DATA_FILES, shipped_data_folder

if TYPE_CHECKING:  # a turn reads these paths as text: pathlib costs its start ~5 ms
    from pathlib import Path

CACHE_ENV = "AUTOMA_CACHE_DIR"
FORMAT = b"automa-validated-1"
CHECKING_CODE = ("catalog", "model", "campaign", "rules")  # the folders whose code checks data


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


def cache_dir() -> Path | None:
    """`cache_folder` as a Path."""
    folder = cache_folder()
    if folder is None:
        return None
    from pathlib import Path

    return Path(folder)


def is_safe(folder: str | Path) -> bool:
    """The user's own folder, a real one (no symlink), that no one else may write to."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    owner_ok = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISDIR(info.st_mode) and owner_ok and not info.st_mode & (stat.S_IWGRP
                                                                           | stat.S_IWOTH)


def data_digest(user_dir: Path | None) -> str:
    """A digest of every data file's name and bytes, and of the code that checks them."""
    import hashlib

    digest = hashlib.sha256(FORMAT)
    folders: list[tuple[str, str | Path]] = [("shipped", shipped_data_folder())]
    if user_dir is not None:
        folders.append(("user", user_dir))
    for label, folder in folders:
        for name in DATA_FILES:
            path = os.path.join(folder, name)
            try:
                content = _read_bytes(path) if os.path.isfile(path) else b"<none>"
            except OSError:
                content = b"<unreadable>"
            digest.update(f"\0{label}\0{name}\0{len(content)}\0".encode())
            digest.update(content)
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for sub in CHECKING_CODE:
        for entry in sorted(os.scandir(os.path.join(package, sub)), key=lambda e: e.name):
            if entry.name.endswith(".py"):
                info = entry.stat()
                digest.update(f"\0{sub}/{entry.name}\0{info.st_size}\0{info.st_mtime_ns}"
                              .encode())
    return digest.hexdigest()


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


KEPT = 16  # digests remembered: a few data folders in use, each with its latest content


def _marker() -> str | None:
    folder = cache_folder()
    if folder is None or not is_safe(folder):
        return None
    return os.path.join(folder, "validated")


def _remembered(marker: str) -> list[str]:
    """The digests in the marker file; anything else in it (damage) is ignored."""
    try:
        with open(marker, "rb") as handle:
            text = handle.read(KEPT * 70).decode("ascii", "replace")
    except OSError:
        return []
    return [line for line in text.splitlines()
            if len(line) == 64 and all(c in "0123456789abcdef" for c in line)][:KEPT]


def is_validated(digest: str) -> bool:
    """True only when this exact digest is in the marker file, in a safe folder."""
    marker = _marker()
    return marker is not None and digest in _remembered(marker)


def mark_validated(digest: str) -> None:
    """Remember the digest (newest first, KEPT at most); where the cache folder cannot be made
    or written, remember nothing."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        marker = _marker()
        if marker is None:
            return
        kept = [digest, *(d for d in _remembered(marker) if d != digest)][:KEPT]
        temp = folder / f".validated.{os.getpid()}.tmp"
        temp.write_text("".join(f"{d}\n" for d in kept), encoding="ascii")
        os.replace(temp, marker)
    except OSError:
        return
