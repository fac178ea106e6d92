"""The append-only input log: one JSON object a line, a header first, fsync after each line.

A crash can only cut the last line short; that line is an input that never completed, so it is
ignored (and reported). Anything else wrong names the file and the line.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automa.errors import AutomaError

LOG_FORMAT = "catacombs-automa session"
LOG_VERSION = 1


class SessionError(AutomaError):
    exit_code = 5


@dataclass(frozen=True)
class LogContents:
    header: dict[str, Any]
    events: list[dict[str, Any]]
    torn: bool  # the last line was cut off by a crash and is ignored


def write_header(path: Path, header: dict[str, Any]) -> None:
    if path.exists():
        raise SessionError(f"{path}: a session log is already there; use another folder")
    line = json.dumps({"format": LOG_FORMAT, "version": LOG_VERSION, **header}) + "\n"
    with path.open("x", encoding="utf-8") as handle:
        handle.write(line)
        handle.flush()
        os.fsync(handle.fileno())


def append_event(path: Path, event: dict[str, Any]) -> None:
    """Append one input; it is on disk when this returns."""
    line = json.dumps(event, ensure_ascii=False) + "\n"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line)
        handle.flush()
        os.fsync(handle.fileno())


def drop_torn_tail(path: Path) -> None:
    """Cut a crash's half-written last line off, so the next input starts a clean line."""
    data = path.read_bytes()
    keep = data.rfind(b"\n") + 1
    if keep < len(data):
        with path.open("r+b") as handle:
            handle.truncate(keep)
            handle.flush()
            os.fsync(handle.fileno())


def read_log(path: Path) -> LogContents:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SessionError(f"{path}: no session log here (start one with `automa new`)") \
            from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SessionError(f"{path}: cannot be read ({exc})") from None
    lines = text.split("\n")
    torn = bool(lines and lines[-1].strip())  # a last line without its newline
    complete = [line for line in lines[:-1]]
    if not complete:
        raise SessionError(f"{path}: the log is empty, not a session")
    header = _parse(path, 1, complete[0])
    _check_header(path, header)
    events = [_parse(path, number, line) for number, line in enumerate(complete[1:], start=2)
              if line.strip()]
    return LogContents(header, events, torn)


def _parse(path: Path, number: int, line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        raise SessionError(f"{path}: line {number} is damaged ({exc.msg}); the inputs before "
                           f"it are intact: `automa log` shows them") from None
    if not isinstance(value, dict) or not isinstance(value.get("type", ""), str):
        raise SessionError(f"{path}: line {number} is not an input record")
    return value


def _check_header(path: Path, header: dict[str, Any]) -> None:
    if header.get("format") != LOG_FORMAT:
        raise SessionError(f"{path}: line 1 is not a catacombs-automa session header")
    version = header.get("version")
    if not isinstance(version, int):
        raise SessionError(f"{path}: line 1 has no log version")
    if version > LOG_VERSION:
        raise SessionError(f"{path}: written by a newer automa (log version {version}; this "
                           f"one reads {LOG_VERSION}): upgrade catacombs-automa to continue")
    if version < LOG_VERSION:
        raise SessionError(f"{path}: log version {version} is older than this automa reads "
                           f"({LOG_VERSION})")
