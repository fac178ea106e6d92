"""The campaign log: campaign.jsonl in the campaign folder, one JSON object a line, a header
first, appended and fsynced step by step (a crash can only cut the last line short, and that
step never happened). Undo appends a step too: nothing is ever rewritten.

Since version 2 its lines form the same hash chain as a session's log (session/chain.py): a
step deleted, repeated, moved or edited is refused by every command, naming the line. A
version-1 log still reads, and is rewritten with the chain on its first write (the old file
kept beside it as `campaign.jsonl.v1`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msgspec import Struct

from automa.errors import AutomaError
from automa.session.chain import (
    NOT_A_RECORD,
    Break,
    Chain,
    Sealed,
    append_line,
    body_of,
    chained_bytes,
    mend_tail,
    parse_line,
    read_chain,
    read_tail,
    rewrite,
    seal,
    unseal,
    whole_lines,
)
from automa.session.log import write_header

LOG = "campaign.jsonl"
FORMAT = "catacombs-automa campaign"
VERSION = 2  # 2: the lines form a hash chain
UNCHAINED = 1
MAX_LOG_BYTES = 16 * 1024 * 1024


class CampaignError(AutomaError):
    exit_code = 5


class CampaignLog(Struct, frozen=True):
    header: dict[str, Any]
    steps: tuple[dict[str, Any], ...]
    torn: bool  # a step cut off by a crash: it never happened, and it is cut off on the next
    version: int = VERSION


def create(folder: Path, header: dict[str, Any]) -> None:
    path = folder / LOG
    if path.exists():
        raise CampaignError(f"{folder}: already holds a campaign; see "
                            f"`automa campaign status --session {folder}`")
    write_header(path, header, FORMAT, VERSION)


def append(folder: Path, step: dict[str, Any]) -> None:
    """Seal one step onto the last line, read from the end of the file alone (every campaign
    command has read and checked the whole log first, holding the folder's lock)."""
    path = folder / LOG
    tail = read_tail(path, CampaignError)
    if not tail.sealed:  # a log from before the chain: chained once, whole
        _chain_old_log(path)
        tail = read_tail(path, CampaignError)
        if not tail.sealed:
            raise CampaignError(f"{path}: its last line is damaged; see `automa campaign log "
                                f"--verify --session {folder}`")
    if tail.unterminated or tail.keep < path.stat().st_size:
        mend_tail(path, tail, CampaignError)
    line, _ = seal(step, tail.link)
    append_line(path, line, CampaignError)


def _bytes(path: Path) -> bytes:
    folder = path.parent
    if not path.is_file():
        raise CampaignError(f"{folder}: no campaign here (start one with `automa campaign new`)")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CampaignError(f"{path}: cannot be read ({exc.strerror})") from None
    if len(data) > MAX_LOG_BYTES:
        raise CampaignError(f"{path}: larger than any campaign log")
    return data


def _chained(data: bytes) -> bool:
    first, _, rest = data.partition(b"\n")
    header = parse_line(first)
    return body_of(first) is not None or body_of(rest.partition(b"\n")[0]) is not None or (
        isinstance(header, dict) and header.get("version") == VERSION)


def read(folder: Path) -> CampaignLog:
    path = folder / LOG
    data = _bytes(path)
    if not _chained(data):
        return _read_unchained(path, data)
    chain = read_chain(data)
    if chain.breaks:
        raise CampaignError(break_message(path, chain.breaks[0], len(chain.breaks)))
    records = [line.record for _, line in chain.lines]
    _check_header(path, records, VERSION)
    return CampaignLog(records[0], tuple(records[1:]), chain.torn)


def break_message(path: Path, where: Break, count: int = 1) -> str:
    more = f" (and {count - 1} more)" if count > 1 else ""
    what = ", the header," if where.line == 1 else ""
    return (f"{path} line {where.line}{what} {where.problem}{more}; `automa campaign log "
            f"--verify --session {path.parent}` lists what is damaged, `automa campaign log "
            f"--repair --session {path.parent}` keeps the steps before the first damage (a "
            f"copy of the file as it is stays beside it)")


def _check_header(path: Path, records: list[dict[str, Any]], version: int) -> None:
    if not records or records[0].get("format") != FORMAT or records[0].get("version") != version:
        raise CampaignError(f"{path}: line 1 is not a campaign header")


def _read_unchained(path: Path, data: bytes) -> CampaignLog:
    lines = data.split(b"\n")
    torn = lines[-1] != b""  # a last line without its newline never completed
    complete = lines[:-1]
    records = []
    for number, raw in enumerate(complete, start=1):
        record = parse_line(raw)  # the session log's checks: NaN, deep nesting, bad UTF-8
        if isinstance(record, str):
            what = "not a step" if record == NOT_A_RECORD else "damaged"
            raise CampaignError(f"{path}: line {number} is {what}")
        records.append(record)
    _check_header(path, records, UNCHAINED)
    return CampaignLog(records[0], tuple(records[1:]), torn, UNCHAINED)


def _chain_old_log(path: Path) -> Path:
    data = _bytes(path)
    if _chained(data):
        raise CampaignError(f"{path}: its last line is damaged; see `automa campaign log "
                            f"--verify --session {path.parent}`")
    old = _read_unchained(path, data)
    header = {k: v for k, v in old.header.items() if k not in ("format", "version")}
    chained, _ = chained_bytes([{"format": FORMAT, "version": VERSION, **header}, *old.steps])
    return rewrite(path, data, chained, "v1")


CUT_OFF = ("the last step was cut off by a crash: it never happened (it is ignored, and cut "
           "off before the next step)")


def check(folder: Path) -> tuple[list[str], list[str]]:
    """What does not hold in the log's chain and what is worth knowing, one line each (for
    `automa campaign log --verify`: reported, not refused)."""
    path = folder / LOG
    data = _bytes(path)
    if not _chained(data):
        try:
            old = _read_unchained(path, data)
        except CampaignError as error:
            return [str(error)], []
        notes = [f"{path}: written before the hash chain (campaign log version 1); it is "
                 f"chained on its next step"]
        return [], [*notes, *([f"{path}: {CUT_OFF}"] if old.torn else [])]
    chain: Chain = read_chain(data)
    problems = [f"{path} line {b.line} {b.problem}" for b in chain.breaks]
    return problems, [f"{path}: {CUT_OFF}"] if chain.torn else []


def repair(folder: Path) -> tuple[Path | None, list[str]]:
    """Keep the steps before the first damage, each in its written place (a repeated line
    once, lines moved put back), and leave the rest out: a campaign step cannot stand in for
    one lost. Returns the copy of the file as it was, and one line for each step left out."""
    path = folder / LOG
    data = _bytes(path)
    problems, _ = check(folder)
    if not problems and data.endswith(b"\n"):
        return None, []
    found: dict[int, tuple[int, dict[str, Any]]] = {}  # written as line -> (now at, record)
    lines, _ = whole_lines(data)
    for number, raw in enumerate(lines, start=1):
        one = unseal(raw)
        if isinstance(one, Sealed) and one.intact:
            found.setdefault(one.seq, (number, one.record))
    if not _chained(data):  # an older log: the lines before the first damaged one
        found = {}
        for number, raw in enumerate(data.split(b"\n")[:-1], start=1):
            record = parse_line(raw)
            if isinstance(record, str):
                break
            found[number] = (number, record)
    if 1 not in found:
        raise CampaignError(f"{path}: line 1, the header, is damaged; it holds what `campaign "
                            f"new` was given (the heroes, the Lord, the seed), kept nowhere "
                            f"else: start the campaign again with `automa campaign new`")
    kept: list[dict[str, Any]] = []
    while len(kept) + 1 in found:
        kept.append(found[len(kept) + 1][1])
    left_out = [f"{path} line {found[seq][0]} (step {seq - 1}) is left out: a step before it "
                f"is damaged or missing" for seq in sorted(found) if seq > len(kept)]
    if kept[0].get("format") != FORMAT:
        raise CampaignError(f"{path}: line 1 is not a campaign header")
    header = {k: v for k, v in kept[0].items() if k not in ("format", "version")}
    kept[0] = {"format": FORMAT, "version": VERSION, **header}
    chained, _ = chained_bytes(kept)
    return rewrite(path, data, chained, "damaged"), left_out
