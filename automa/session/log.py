"""The append-only input log: one JSON object a line, a header first, fsync after each line.

A crash can only cut the last line short; that line is an input that never completed, so it is
ignored (and reported). Anything else wrong names the file and the line.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automa.errors import AutomaError
from automa.session.checks import DAMAGED, check_event
from automa.storage import atomic_write_bytes

LOG_FORMAT = "catacombs-automa session"
LOG_VERSION = 1
SCENARIO_SHA256 = "scenario_sha256"  # the header's fingerprint of scenario.toml's bytes


class SessionError(AutomaError):
    exit_code = 5


@dataclass(frozen=True)
class LogContents:
    header: dict[str, Any]
    events: list[dict[str, Any]]
    torn: bool  # the last line was cut off by a crash and is ignored
    stamp: tuple[int, str] = (0, "")  # the bytes read: their length and SHA-256
    lines: tuple[int, ...] = ()  # the line number of each event


def write_header(path: Path, header: dict[str, Any], log_format: str = LOG_FORMAT,
                 version: int = LOG_VERSION) -> None:
    """The log's first line, written whole (a temporary file renamed into place) or not at all;
    the caller has made sure no log is there."""
    line = json.dumps({"format": log_format, "version": version, **header}) + "\n"
    atomic_write_bytes(path, line.encode("utf-8"))


def append_event(path: Path, event: dict[str, Any]) -> None:
    """Append one input; it is on disk when this returns."""
    data = (json.dumps(event, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise SessionError(f"{path}: cannot be written ({exc.strerror}); the input was not "
                           f"recorded") from None
    size = -1
    try:
        size = os.fstat(fd).st_size
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError as exc:
        try:  # leave no part of the input behind
            if size >= 0:
                os.ftruncate(fd, size)
        except OSError:
            pass  # a cut-off line is ignored when read and cut off before the next input
        raise SessionError(f"{path}: cannot be written ({exc.strerror}); the input was not "
                           f"recorded") from None
    finally:
        os.close(fd)


def drop_torn_tail(path: Path) -> None:
    """Cut a crash's half-written last line off, so the next input starts a clean line."""
    data = read_bytes(path)
    keep = data.rfind(b"\n") + 1
    if keep < len(data):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            try:
                os.ftruncate(fd, keep)
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise SessionError(f"{path}: cannot be written ({exc.strerror})") from None


def read_log(path: Path) -> LogContents:
    """The log, each line checked. A damaged line (not JSON, a value no battle can hold) becomes
    a `damaged` input naming its line: the inputs before it stay usable, `automa log` lists it
    and `automa rollback` can leave it behind."""
    return parse_log(path, read_bytes(path))


def parse_log(path: Path, data: bytes) -> LogContents:
    """`read_log` on the bytes already read from `path`."""
    lines = data.split(b"\n")
    torn = bool(lines and lines[-1].strip())  # a last line without its newline
    complete = lines[:-1]
    if not complete:
        raise SessionError(f"{path}: the log is empty, not a session (start again with "
                           f"`automa new SCENARIO --session {path.parent}`)")
    header = parse_line(complete[0])
    if isinstance(header, str):
        raise SessionError(f"{path}: line 1 is not a session header ({header})")
    _check_header(path, header)
    events: list[dict[str, Any]] = []
    numbers: list[int] = []
    for number, line in enumerate(complete[1:], start=2):
        if not line.strip():
            continue
        value = parse_line(line)
        problem = value if isinstance(value, str) else check_event(value)
        if problem is not None or isinstance(value, str):
            value = damaged(number, problem or "damaged")
        events.append(value)
        numbers.append(number)
    return LogContents(header, events, torn, stamp_of(data), tuple(numbers))


def read_bytes(path: Path) -> bytes:
    """The log's bytes; a symbolic link, a folder or an unreadable file is one line."""
    if path.is_symlink():
        raise SessionError(f"{path}: is a symbolic link; a session's files must be its own "
                           f"(copy the file there instead)")
    if not path.exists():
        raise SessionError(f"{path}: no session log here (start one with `automa new "
                           f"SCENARIO --session {path.parent}`)")
    if not path.is_file():
        raise SessionError(f"{path}: is not a regular file")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SessionError(f"{path}: cannot be read ({exc.strerror})") from None


def stamp_of(data: bytes) -> tuple[int, str]:
    return len(data), hashlib.sha256(data).hexdigest()


def damaged(line: int, problem: str) -> dict[str, Any]:
    """The stand-in for a log line that cannot be an input: replaying it stops with `problem`."""
    return {"type": DAMAGED, "line": line, "problem": problem}


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a battle can hold")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large a number")
    return value


NOT_A_RECORD = "not an input record"


def parse_line(data: bytes) -> dict[str, Any] | str:
    """The record on one line, or what is wrong with it (NaN, huge numbers and deep nesting
    included: a log line is data, never trusted)."""
    try:
        line = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"damaged: not UTF-8 text ({exc.reason})"
    try:
        value = json.loads(line, parse_constant=_refuse_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        return f"damaged: {exc.msg}"
    except ValueError as exc:  # NaN, Infinity, 1e999, an integer of thousands of digits
        return f"damaged: {exc}"
    except RecursionError:
        return "damaged: nested too deeply"
    if not isinstance(value, dict):
        return NOT_A_RECORD
    return value


def _check_header(path: Path, header: dict[str, Any]) -> None:
    if header.get("format") != LOG_FORMAT:
        raise SessionError(f"{path}: line 1 is not a catacombs-automa session header")
    version = header.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SessionError(f"{path}: line 1 has no log version")
    if version > LOG_VERSION:
        raise SessionError(f"{path}: written by a newer automa (log version {version}; this "
                           f"one reads {LOG_VERSION}): upgrade catacombs-automa to continue")
    if version < LOG_VERSION:
        raise SessionError(f"{path}: log version {version} is older than this automa reads "
                           f"({LOG_VERSION})")
    seed = header.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise SessionError(f"{path}: line 1 lacks the seed (a whole number from 0 to 2^64-1)")
    for key in ("chance", "geometry", "scenario", SCENARIO_SHA256):
        if key in header and not isinstance(header[key], str):
            raise SessionError(f"{path}: line 1: {key} is not text")
    if "round" in header and (not isinstance(header["round"], int) or
                              isinstance(header["round"], bool)):
        raise SessionError(f"{path}: line 1: round is not a whole number")
