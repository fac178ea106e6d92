"""A digest of the rules data a battle is played under, by file and table: a session records
them when it starts, so data changed afterwards is named, never silently used to replay the
activations that were played under the old.

A battle reads six files (components, behaviour, effects, playmats, monsters, lords), each as
the shipped file with the user's folder merged over it. Each top-level table of the merged
file gets a digest of its own, so a change is named down to the table (`[ruler]`, a monster's
record); of playmats, monsters and Lords only the records the battle can reach are kept (its
mat, its pieces' records and what they can summon): a campaign writes a Lord's card or a room's
monsters into the user's folder between its rooms, and a record a battle never read cannot
have changed it. The files that only set a battle up or run a campaign (rooms, setup,
campaigns, visits) are left out for that reason.

A digest is SHA-256 of the table's canonical JSON, cut to 16 hex digits: enough to tell a
change, not meant to stand against forgery. Each file's bytes get one too: while they are the
same, nothing needs parsing to know the tables are (a session's every open checks them).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from automa.catalog.locate import load_data_file, shipped_data_folder

if TYPE_CHECKING:
    from pathlib import Path

WHOLE_FILES = ("components.toml", "behaviour.toml", "effects.toml")
RECORD_FILES = ("playmats.toml", "monsters.toml", "lords.toml")  # only the records reached
DIGITS = 16
# fields no battle reads, left out of its tables' digests: a disc's thickness serves the photo
# capture only, so measuring it never makes a battle's data "changed"
UNREAD = {("components.toml", "disc"): "thickness"}

Digests = Mapping[str, Mapping[str, str]]  # {file: {table: digest}}


def table_digest(table: Any) -> str:
    text = json.dumps(table, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGITS]


def battle_table(name: str, key: str, table: Any) -> Any:
    """A top-level table of data file `name` as a battle reads it (see UNREAD)."""
    field = UNREAD.get((name, key))
    if field is None or not isinstance(table, dict):
        return table
    return {size: {k: v for k, v in record.items() if k != field}
            if isinstance(record, dict) else record for size, record in table.items()}


def data_digests(user_dir: Path | None, records: Mapping[str, Collection[str]]
                 ) -> dict[str, dict[str, str]]:
    """Each table's digest: every table of the whole files, and of the record files those
    named in `records` (by file) that the data holds."""
    found: dict[str, dict[str, str]] = {}
    for name in (*WHOLE_FILES, *RECORD_FILES):
        tables, _ = load_data_file(name, user_dir)
        keep = tables if name in WHOLE_FILES else \
            {k: v for k, v in tables.items() if k in records.get(name, ())}
        found[name] = {key: table_digest(battle_table(name, key, value))
                       for key, value in sorted(keep.items())}
    return found


def file_digests(user_dir: Path | None) -> dict[str, str]:
    """The bytes of each file a battle reads, shipped ("data/NAME") and the user's
    ("user/NAME", those the folder holds): equal digests, equal tables."""
    found = {}
    for name in (*WHOLE_FILES, *RECORD_FILES):
        for label, folder in (("data", shipped_data_folder()), ("user", user_dir)):
            if folder is None:
                continue
            path = os.path.join(folder, name)
            try:
                with open(path, "rb") as handle:
                    found[f"{label}/{name}"] = hashlib.sha256(handle.read()).hexdigest()[:DIGITS]
            except FileNotFoundError:
                continue
            except OSError:
                found[f"{label}/{name}"] = "unreadable"
    return found


def data_changes(recorded: Digests, user_dir: Path | None) -> list[str]:
    """Each table that differs from the record, in a few words naming its file (the one it
    comes from now, shipped or the user's) and the table."""
    changes = []
    for name, before in sorted(recorded.items()):
        if name not in (*WHOLE_FILES, *RECORD_FILES):
            continue
        tables, origins = load_data_file(name, user_dir)
        now = {key: table_digest(battle_table(name, key, value)) for key, value in tables.items()
               if name in WHOLE_FILES or key in before}
        for key in sorted(set(before) | set(now)):
            where = origins.get(key, f"data/{name}")
            if key not in now:
                changes.append(f"{where}: [{key}] is gone")
            elif key not in before:
                changes.append(f"{where}: [{key}] was added")
            elif before[key] != now[key]:
                changes.append(f"{where}: [{key}] changed")
    return changes


def well_formed(value: object) -> bool:
    """A recorded set of digests as `data_digests` writes it (a header is data, not trusted)."""
    return isinstance(value, dict) and all(
        isinstance(files, dict) and all(isinstance(k, str) and isinstance(v, str)
                                        for k, v in files.items())
        for files in value.values())
