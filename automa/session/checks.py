"""What a logged input may hold, checked when the log is read: a hand edit, a disk error or a bug
never reaches the engine as a value no battle can have (a D12 of 13, a move to 1e300). The
commands themselves say what they may hold (session/commands.py); this is the log's question
put to them."""

from __future__ import annotations

from typing import Any

from automa.session.commands import READERS, BadCommand, Checkpoint, Damaged, command_from_json

DAMAGED = Damaged.TYPE  # the stand-in for a line that cannot be an input
CHECKPOINT = Checkpoint.TYPE  # goes on from a kept battle (session/provenance.py)
KINDS = tuple(READERS)


def check_event(event: dict[str, Any]) -> str | None:
    """What is wrong with one logged input, or None."""
    try:
        command_from_json(event)
    except BadCommand as bad:
        return str(bad)
    return None
