"""A log whose lines vouch for each other (the session's log.jsonl and the campaign's
campaign.jsonl): every line is one JSON object that carries its sequence number (`seq`, the
header is 1), the hash of the line before (`prev`, "" for the header: the chain's root) and,
last, its own hash (`hash`: the SHA-256 of the line's bytes without that last field).

So a line deleted, repeated, moved or edited is found by its line number: an edit breaks the
line's own hash, a deletion or a move breaks the numbering, a line written by hand has no hash.
Appending needs only the last line's number and hash (a `Link`), never the whole file.

What no chain can tell: whole lines cut off the end of the file. That is what a crash before
the write would have left, and the shorter log is a log that was.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from msgspec import Struct

from automa.storage import atomic_write_bytes

SEQ, PREV, HASH = "seq", "prev", "hash"
SEAL_KEYS = frozenset((SEQ, PREV, HASH))
ROOT = ""  # the `prev` of line 1
_SEAL = re.compile(rb', "hash": "([0-9a-f]{64})"\}\Z')
_SEALED = re.compile(rb', "hash": "[0-9a-f]{64}"')  # a line that reached its end once
TAIL_BLOCK = 1 << 16  # bytes read at a time from the end of a log for its last line

Fail = Callable[[str], Exception]


class Link(Struct, frozen=True):
    """The last line of a chain: the next line carries `seq + 1` and this `hash`."""

    seq: int = 0
    hash: str = ROOT


START = Link()


class Sealed(Struct, frozen=True):
    """One line as read: its record (without the chain's fields) and its place in the chain."""

    record: dict[str, Any]
    seq: int
    prev: str
    hash: str
    intact: bool  # its bytes still give its hash


class Break(Struct, frozen=True):
    """Where the chain does not hold, and why (the file's name is the caller's to add)."""

    line: int
    problem: str


class Chain(Struct, frozen=True):
    """A chained log as read: the sound lines, the last link, what does not hold."""

    lines: tuple[tuple[int, Sealed], ...]  # (line number, line) of each complete line sealed
    link: Link  # after the last complete line (START for an empty file)
    breaks: tuple[Break, ...]
    torn: bool  # the last line was cut off by a crash (it is not in `lines`)
    unterminated: bool  # the last line is whole but lacks its newline (it is in `lines`)
    size: int  # the bytes the complete lines take (where the next line goes)


# --- one line ---------------------------------------------------------------------------------

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


def seal(record: Mapping[str, Any], after: Link) -> tuple[bytes, Link]:
    """The line that follows `after` holding `record`, newline included, and its link."""
    clash = SEAL_KEYS & record.keys()
    if clash:
        raise ValueError(f"a log record may not use the chain's own key(s) {sorted(clash)}")
    seq = after.seq + 1
    body = json.dumps({SEQ: seq, PREV: after.hash, **record}, ensure_ascii=False,
                      allow_nan=False)
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    return f'{body[:-1]}, "{HASH}": "{digest}"}}\n'.encode(), Link(seq, digest)


def body_of(raw: bytes) -> tuple[bytes, str] | None:
    """A sealed line's bytes without its hash field, and the hash it carries (None: no seal)."""
    found = _SEAL.search(raw)
    if found is None:
        return None
    return raw[:found.start()] + b"}", found.group(1).decode()


def digest_of(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def unseal(raw: bytes) -> Sealed | str:
    """The line's record and place, or why it is not a line of the chain at all."""
    value = parse_line(raw)
    sealed = body_of(raw)
    if sealed is None:
        if isinstance(value, str):
            return f"is damaged ({value.removeprefix('damaged: ')})"
        return "carries no hash (a line added by hand?)"
    body, carried = sealed
    seq, prev = (value.get(SEQ), value.get(PREV)) if isinstance(value, dict) else (None, None)
    if not isinstance(value, dict) or not isinstance(seq, int) or isinstance(seq, bool) or \
            not isinstance(prev, str):
        return "was edited or damaged (it is no longer a line of the log)"
    record = {k: v for k, v in value.items() if k not in SEAL_KEYS}
    return Sealed(record, seq, prev, carried, digest_of(body) == carried)


# --- a whole log ------------------------------------------------------------------------------

def _problem(line: int, sealed: Sealed, expected: int, prev: str | None,
             first_seen: Mapping[str, int], where: Mapping[int, int]) -> str | None:
    """What is wrong with a line that unsealed, given the lines before it (a phrase that
    follows "line N")."""
    if not sealed.intact:
        return "was edited or damaged (it no longer matches its hash)"
    if sealed.hash in first_seen:
        return f"repeats line {first_seen[sealed.hash]} (a line copied twice)"
    if sealed.seq > expected:
        if expected in where:
            return (f"is out of order: it was written as line {sealed.seq} (the line written as "
                    f"line {expected} is now line {where[expected]})")
        missing = (f"the line written as line {expected} is" if sealed.seq == expected + 1
                   else f"the lines written as lines {expected}-{sealed.seq - 1} are")
        return f"was written as line {sealed.seq}: {missing} missing (deleted)"
    if sealed.seq < expected:
        return f"is out of order: it was written as line {sealed.seq}"
    if prev is not None and sealed.prev != prev:
        return f"does not follow line {line - 1} (the line before it was replaced)"
    return None


def read_chain(data: bytes) -> Chain:
    """Every line checked against its own hash and against the line before it."""
    parts = data.split(b"\n")
    complete, tail = parts[:-1], parts[-1]
    unsealed = [unseal(raw) for raw in complete]
    where: dict[int, int] = {}
    for number, one in enumerate(unsealed, start=1):
        if isinstance(one, Sealed) and one.intact:
            where.setdefault(one.seq, number)
    sound: list[tuple[int, Sealed]] = []
    breaks: list[Break] = []
    first_seen: dict[str, int] = {}
    expected, link = 1, START
    prev_known: str | None = ROOT
    for number, one in enumerate(unsealed, start=1):
        if isinstance(one, str):
            breaks.append(Break(number, one))
            expected, prev_known = expected + 1, None
            continue
        problem = _problem(number, one, expected, prev_known, first_seen, where)
        first_seen.setdefault(one.hash, number)
        if problem is None:
            sound.append((number, one))
            link = Link(one.seq, one.hash)
        else:
            breaks.append(Break(number, problem))
        expected, prev_known = max(expected, one.seq) + 1, one.hash
    size = len(data) - len(tail)
    torn = unterminated = False
    if tail:
        last = unseal(tail)
        if isinstance(last, Sealed) and last.intact and last.seq == expected and \
                last.prev == prev_known and last.hash not in first_seen:
            sound.append((len(complete) + 1, last))  # whole, only its newline is missing
            link, unterminated, size = Link(last.seq, last.hash), True, len(data)
        elif _sealed_before_end(tail):  # a crash cuts a line short, never adds to a whole one
            breaks.append(Break(len(complete) + 1, "was edited or damaged (it is neither "
                                                   "whole nor cut short by a crash)"))
        else:
            torn = True
    return Chain(tuple(sound), link, tuple(breaks), torn, unterminated, size)


def _sealed_before_end(tail: bytes) -> bool:
    """The bytes reached a line's hash and go on after it: not a line a crash cut short."""
    found = _SEALED.search(tail)
    return found is not None and found.end() < len(tail)


def whole_lines(data: bytes) -> tuple[list[bytes], bool]:
    """The log's lines, a last one that lacks only its newline included; and whether a line
    cut off by a crash was left out."""
    parts = data.split(b"\n")
    lines, tail = parts[:-1], parts[-1]
    if not tail:
        return lines, False
    last = unseal(tail)
    if isinstance(last, Sealed) and last.intact:
        return [*lines, tail], False
    return lines, True


def chained_bytes(records: Sequence[Mapping[str, Any]]) -> tuple[bytes, Link]:
    """A whole log from its records, the first one the header."""
    out: list[bytes] = []
    link = START
    for record in records:
        line, link = seal(record, link)
        out.append(line)
    return b"".join(out), link


# --- on disk ----------------------------------------------------------------------------------

def append_line(path: Path, data: bytes, fail: Fail) -> None:
    """Append one whole line; it is on disk when this returns, or nothing of it is."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise fail(f"{path}: cannot be written ({exc.strerror}); the input was not "
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
        raise fail(f"{path}: cannot be written ({exc.strerror}); the input was not "
                   f"recorded") from None
    finally:
        os.close(fd)


def _last_bytes(path: Path, fail: Fail) -> tuple[int, bytes]:
    """(where the bytes start, the end of the file) holding at least its last complete line
    and whatever follows it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise fail(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        start = end = os.fstat(fd).st_size
        data = b""
        while start > 0 and data.count(b"\n") < 2:
            start = max(0, start - TAIL_BLOCK)
            data = os.pread(fd, end - start - len(data), start) + data
        return start, data
    except OSError as exc:
        raise fail(f"{path}: cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)


class Tail(Struct, frozen=True):
    """The end of a chained log: what the next line follows, and how to mend the end first."""

    link: Link  # the last whole line's
    keep: int  # where the next line goes: a crash's half line from here on is cut off
    unterminated: bool  # the last line is whole but lacks its newline (it goes at `keep`)
    sealed: bool  # the last whole line carries a hash (False: an empty or unchained log)


def tail_of(chain: Chain) -> Tail:
    return Tail(chain.link, chain.size, chain.unterminated, chain.link != START)


def read_tail(path: Path, fail: Fail) -> Tail:
    """The last line's number and hash, from the end of the file alone (O(1) in its length)."""
    start, data = _last_bytes(path, fail)
    cut = data.rfind(b"\n") + 1
    head, after = data[:cut], data[cut:]
    if not head:
        return Tail(START, start, False, False)
    last = unseal(head[head.rfind(b"\n", 0, len(head) - 1) + 1:-1])
    if not isinstance(last, Sealed):
        return Tail(START, start + cut, False, False)
    if after:
        whole = unseal(after)
        if isinstance(whole, Sealed) and whole.intact and whole.seq == last.seq + 1 and \
                whole.prev == last.hash:
            return Tail(Link(whole.seq, whole.hash), start + len(data), True, True)
    return Tail(Link(last.seq, last.hash), start + cut, False, True)


def mend_tail(path: Path, tail: Tail, fail: Fail) -> None:
    """Before the next line: cut a crash's half line off, or end a whole last line."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            if tail.unterminated:
                os.pwrite(fd, b"\n", tail.keep)
            else:
                os.ftruncate(fd, tail.keep)
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise fail(f"{path}: cannot be written ({exc.strerror})") from None


def free_name(path: Path, suffix: str) -> Path:
    """`path` with `suffix` added, numbered if that name is taken: a copy is never lost."""
    candidate = path.with_name(f"{path.name}.{suffix}")
    number = 1
    while candidate.exists() or candidate.is_symlink():
        number += 1
        candidate = path.with_name(f"{path.name}.{suffix}-{number}")
    return candidate


def rewrite(path: Path, old: bytes, new: bytes, suffix: str) -> Path:
    """Replace the log whole (a temporary file renamed into place), the old bytes kept first
    beside it under a free name, which is returned."""
    backup = free_name(path, suffix)
    atomic_write_bytes(backup, old)
    atomic_write_bytes(path, new)
    return backup
