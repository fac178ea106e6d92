"""The append-only input log: one JSON object a line, a header first, fsync after each line.

Since log version 2 the lines form a hash chain (session/chain.py): a line deleted, repeated,
moved or edited stops every command at once, naming the line. A crash can only cut the last
line short; that line is an input that never completed, so it is ignored (and reported).
A version-1 log (no chain) still opens as before and is rewritten with the chain on its first
write, the old file kept beside it as `log.jsonl.v1`.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from msgspec import Struct

from automa.errors import AutomaError
from automa.session.chain import (
    NOT_A_RECORD,
    START,
    Break,
    Tail,
    append_line,
    body_of,
    chained_bytes,
    mend_tail,
    parse_line,
    read_chain,
    rewrite,
    seal,
    tail_of,
)
from automa.session.checks import DAMAGED, check_event

__all__ = ["NOT_A_RECORD", "parse_line"]  # the line parser, for the campaign log too

LOG_FORMAT = "catacombs-automa session"
LOG_VERSION = 2  # 2: the lines form a hash chain
UNCHAINED = 1  # the version before the chain: read as it is, chained on its first write
SCENARIO_SHA256 = "scenario_sha256"  # the header's fingerprint of scenario.toml's bytes


NO_TAIL = Tail(START, 0, False, False)


class SessionError(AutomaError):
    exit_code = 5


class LogContents(Struct, frozen=True):
    header: dict[str, Any]
    events: list[dict[str, Any]]
    torn: bool  # the last line was cut off by a crash and is ignored
    stamp: tuple[int, str] = (0, "")  # the bytes read: their length and SHA-256
    lines: tuple[int, ...] = ()  # the line number of each event
    version: int = LOG_VERSION
    tail: Tail = NO_TAIL  # where the next line goes (version 2)
    digest: Any = None  # sha256 of the bytes read


def write_header(path: Path, header: dict[str, Any], log_format: str = LOG_FORMAT,
                 version: int = LOG_VERSION) -> None:
    """The log's first line, the root of its chain, written whole (a temporary file renamed
    into place) or not at all; the caller has made sure no log is there."""
    from automa.storage import atomic_write_bytes

    line, _ = seal({"format": log_format, "version": version, **header}, START)
    atomic_write_bytes(path, line)


class LogEnd(Struct):
    """The end of a log as its writer last read it (under the session's lock): each input
    is sealed onto the last line's hash kept here, so appending never reads the file again."""

    path: Path
    version: int
    tail: Tail
    torn: bool
    size: int
    digest: Any  # sha256 of the bytes so far

    @classmethod
    def of(cls, path: Path, contents: LogContents) -> LogEnd:
        digest = contents.digest.copy() if contents.digest is not None else hashlib.sha256()
        return cls(path, contents.version, contents.tail, contents.torn, contents.stamp[0],
                   digest)

    @property
    def stamp(self) -> tuple[int, str]:
        return self.size, self.digest.hexdigest()

    def append(self, event: dict[str, Any]) -> tuple[int, str]:
        """Seal and append one input; the stamp of the log with it."""
        if self.version < LOG_VERSION:
            self._chain_old_log()
        elif self.torn or self.tail.unterminated:
            mend_tail(self.path, self.tail, SessionError)
            self._reread()
        line, link = seal(event, self.tail.link)
        append_line(self.path, line, SessionError)
        self.tail = Tail(link, self.tail.keep + len(line), False, True)
        self.size += len(line)
        self.digest.update(line)
        return self.stamp

    def _reread(self) -> None:
        """After the end was mended or rewritten (rare): the bytes as they now are."""
        data = read_bytes(self.path)
        contents = parse_log(self.path, data)
        self.version, self.tail, self.torn = contents.version, contents.tail, False
        self.size, self.digest = len(data), hashlib.sha256(data)

    def _chain_old_log(self) -> None:
        chain_old_log(self.path)
        self._reread()


def chain_old_log(path: Path) -> Path | None:
    """A version-1 log rewritten with the chain (version 2), every input kept as it was read (a
    line that could not be an input stays a `damaged` stand-in); the old file is kept beside
    it. Returns that copy's path (None: nothing to do). Call it holding the session's lock."""
    data = read_bytes(path)
    contents = parse_log(path, data)
    if contents.version >= LOG_VERSION:
        return None
    header = {k: v for k, v in contents.header.items() if k not in ("format", "version")}
    records = [{"format": LOG_FORMAT, "version": LOG_VERSION, **header}]
    for event in contents.events:
        if event.get("type") == DAMAGED:
            event = {"type": DAMAGED, "problem": str(event.get("problem", "damaged"))}
        records.append(event)
    chained, _ = chained_bytes(records)
    return rewrite(path, data, chained, "v1")


def read_log(path: Path) -> LogContents:
    """The log, each line checked. A broken chain is refused (SessionError naming the line).
    A line that cannot be an input (a value no battle can hold) becomes a `damaged` input
    naming its line: the inputs before it stay usable, `automa log` lists it and `automa
    rollback` can leave it behind."""
    return parse_log(path, read_bytes(path))


def is_chained(data: bytes) -> bool:
    """Whether the log is of the chained kind (its header or its second line has a hash)."""
    first, _, rest = data.partition(b"\n")
    if body_of(first) is not None:
        return True
    second = rest.partition(b"\n")[0]
    if body_of(second) is not None:
        return True
    header = parse_line(first)
    return isinstance(header, dict) and header.get("version") == LOG_VERSION


def parse_log(path: Path, data: bytes) -> LogContents:
    """`read_log` on the bytes already read from `path`."""
    if b"\n" not in data:
        raise SessionError(f"{path}: the log is empty, not a session (start again with "
                           f"`automa new SCENARIO --session {path.parent}`)")
    header = parse_line(data.partition(b"\n")[0])
    if isinstance(header, dict) and header.get("format") == LOG_FORMAT:
        _refuse_newer(path, header.get("version"))  # a newer log may be chained otherwise
    if is_chained(data):
        return _parse_chained(path, data)
    return _parse_unchained(path, data)


def _parse_chained(path: Path, data: bytes) -> LogContents:
    chain = read_chain(data)
    if chain.breaks:
        raise SessionError(break_message(path, chain.breaks[0], len(chain.breaks)))
    (_, first), *rest = chain.lines
    header = first.record
    _check_header(path, header, LOG_VERSION)
    events: list[dict[str, Any]] = []
    numbers: list[int] = []
    for number, line in rest:
        events.append(_event(number, line.record))
        numbers.append(number)
    return LogContents(header, events, chain.torn, stamp_of(data), tuple(numbers), LOG_VERSION,
                       tail_of(chain), hashlib.sha256(data))


def _event(number: int, value: dict[str, Any]) -> dict[str, Any]:
    if value.get("type") == DAMAGED:  # kept as such when an older log was chained
        return damaged(number, str(value.get("problem", "damaged")))
    problem = check_event(value)
    return value if problem is None else damaged(number, problem)


def break_message(path: Path, where: Break, count: int = 1) -> str:
    """One line for a broken chain, with the way out."""
    folder = path.parent
    more = f" (and {count - 1} more)" if count > 1 else ""
    if where.line == 1:
        return (f"{path} line 1, the header, {where.problem}{more}: the log's start is damaged, "
                f"not scenario.toml; `automa log --repair --session {folder}` rebuilds it and "
                f"keeps every input")
    return (f"{path} line {where.line} {where.problem}{more}; `automa log --verify --session "
            f"{folder}` lists what is damaged, `automa log --repair --session {folder}` keeps "
            f"every sound line (a copy of the file as it is stays beside it)")


def _parse_unchained(path: Path, data: bytes) -> LogContents:
    lines = data.split(b"\n")
    torn = bool(lines and lines[-1].strip())  # a last line without its newline
    complete = lines[:-1]
    header = parse_line(complete[0])
    if isinstance(header, str):
        raise SessionError(f"{path}: line 1 is not a session header ({header})")
    _check_header(path, header, UNCHAINED)
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
    return LogContents(header, events, torn, stamp_of(data), tuple(numbers), UNCHAINED,
                       NO_TAIL,
                       hashlib.sha256(data))


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


def _refuse_newer(path: Path, version: object) -> None:
    if isinstance(version, int) and not isinstance(version, bool) and version > LOG_VERSION:
        raise SessionError(f"{path}: written by a newer automa (log version {version}; this "
                           f"one reads {LOG_VERSION}): upgrade catacombs-automa to continue")


def _check_header(path: Path, header: dict[str, Any], version_read: int) -> None:
    if header.get("format") != LOG_FORMAT:
        raise SessionError(f"{path}: line 1 is not a catacombs-automa session header")
    version = header.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SessionError(f"{path}: line 1 has no log version")
    _refuse_newer(path, version)
    if version < UNCHAINED:
        raise SessionError(f"{path}: log version {version} is older than this automa reads "
                           f"({UNCHAINED})")
    if version != version_read:
        what = "has no hash chain" if version_read == UNCHAINED else "has a hash chain"
        raise SessionError(f"{path}: line 1 says log version {version}, but the log {what}")
    seed = header.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise SessionError(f"{path}: line 1 lacks the seed (a whole number from 0 to 2^64-1)")
    for key in ("chance", "geometry", "scenario", SCENARIO_SHA256):
        if key in header and not isinstance(header[key], str):
            raise SessionError(f"{path}: line 1: {key} is not text")
    if "round" in header and (not isinstance(header["round"], int) or
                              isinstance(header["round"], bool)):
        raise SessionError(f"{path}: line 1: round is not a whole number")
