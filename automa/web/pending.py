"""The question a device was asked by Next, and the answers given to it so far, kept in the
session folder (`open-question.json`) until the log moves on.

The answers are the table's real dice and tokens, drawn and rolled already: a closed tab, a
reload or a restarted server must not ask them again, so they are kept on disk (written
atomically), not in the server's memory. They are not inputs: nothing is logged until the
activation's last answer, and the log's version they were given on is kept with them, so they
are shown only while the log has not moved since. The file is never exported (it is not a
record) and is dropped when the activation is logged or the table drops the question."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import msgspec
from msgspec import Struct

FILE = "open-question.json"
MAX_BYTES = 256 * 1024


class OpenQuestion(Struct, frozen=True):
    version: str  # the board's version when it was asked (the log's, and the campaign's)
    answers: tuple[str, ...]  # given so far, in order
    question: dict[str, Any]  # the question as the page shows it (POST /api/next's)

    def as_json(self) -> dict[str, Any]:
        return {"answers": list(self.answers), "question": self.question}


def keep(folder: Path, found: OpenQuestion) -> None:
    from automa.storage import atomic_write_bytes

    atomic_write_bytes(folder / FILE, msgspec.json.encode(found))


def read(folder: Path) -> OpenQuestion | None:
    """The kept question, or None (none kept, or a file this does not recognise: a question is
    never worth refusing to show the battle)."""
    path = folder / FILE
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        return msgspec.json.decode(path.read_bytes(), type=OpenQuestion)
    except (OSError, msgspec.MsgspecError):
        return None


def drop(folder: Path) -> None:
    with contextlib.suppress(OSError):
        (folder / FILE).unlink()
