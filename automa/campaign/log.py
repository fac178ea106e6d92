"""The campaign log: campaign.jsonl in the campaign folder, one JSON object a line, a header
first, appended and fsynced step by step (a crash can only cut the last line short, and that
step never happened). Undo appends a step too: nothing is ever rewritten."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automa.errors import AutomaError
from automa.session.log import (
    NOT_A_RECORD,
    append_event,
    drop_torn_tail,
    parse_line,
    write_header,
)

LOG = "campaign.jsonl"
FORMAT = "catacombs-automa campaign"
VERSION = 1
MAX_LOG_BYTES = 16 * 1024 * 1024


class CampaignError(AutomaError):
    exit_code = 5


@dataclass(frozen=True)
class CampaignLog:
    header: dict[str, Any]
    steps: tuple[dict[str, Any], ...]
    torn: bool


def create(folder: Path, header: dict[str, Any]) -> None:
    path = folder / LOG
    if path.exists():
        raise CampaignError(f"{folder}: already holds a campaign; see "
                            f"`automa campaign status --session {folder}`")
    write_header(path, header, FORMAT, VERSION)


def append(folder: Path, step: dict[str, Any]) -> None:
    drop_torn_tail(folder / LOG)
    append_event(folder / LOG, step)


def read(folder: Path) -> CampaignLog:
    path = folder / LOG
    if not path.is_file():
        raise CampaignError(f"{folder}: no campaign here (start one with `automa campaign new`)")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CampaignError(f"{path}: cannot be read ({exc.strerror})") from None
    if len(data) > MAX_LOG_BYTES:
        raise CampaignError(f"{path}: larger than any campaign log")
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
    if not records or records[0].get("format") != FORMAT or records[0].get("version") != VERSION:
        raise CampaignError(f"{path}: line 1 is not a campaign header")
    return CampaignLog(records[0], tuple(records[1:]), torn)
