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
from typing import TYPE_CHECKING

from automa.catalog.locate import DATA_FILES, shipped_data_folder
from automa.user_cache import cached_file, keep

if TYPE_CHECKING:  # a turn reads these paths as text: pathlib costs its start ~5 ms
    from pathlib import Path

FORMAT = b"automa-validated-1"
CHECKING_CODE = ("catalog", "model", "campaign", "rules")  # the folders whose code checks data


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
    return cached_file("validated")


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
    marker = _marker()
    kept = [digest, *(d for d in _remembered(marker) if d != digest)][:KEPT] if marker else [digest]
    keep("validated", "".join(f"{d}\n" for d in kept).encode("ascii"))
