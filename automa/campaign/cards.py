"""A Room card our data lacks, as the players read it at the table: its monster icons, asked
once and remembered in the user's data folder's rooms.toml with provenance "asked".

The answer is text, `sewer-rat=2, skeleton-warrior=1, metre-1=1, mercenary=2`: a monster kind
of the catalog and how many of its pieces the card shows; `metre-L=N` for N Monster Metre icons
of level L; `mercenary=N` for N Mercenary icons (the Lord's mercenary).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from msgspec import Struct

from automa.catalog.cards import every_part, write_record
from automa.catalog.load import Catalog, parse_room
from automa.catalog.locate import load_data_file
from automa.catalog.reader import Record
from automa.model.pieces import Kind
from automa.model.provenance import Provenance

ROOMS_FILE = "rooms.toml"
ASKED = Provenance.ASKED
MERCENARY = "mercenary"
METRE = "metre-"
MAX_COUNT = 10
EXAMPLE = "sewer-rat=2, skeleton-warrior=1 (metre-1=1 for a Monster Metre icon, mercenary=2)"


class RoomIcons(Struct, frozen=True):
    monsters: tuple[tuple[str, int], ...]  # (monster id, count) in card order
    metres: tuple[tuple[int, int], ...]  # (level, count)
    mercenaries: int

    def as_text(self) -> str:
        parts = [f"{m}={n}" for m, n in self.monsters]
        parts += [f"{METRE}{lvl}={n}" for lvl, n in self.metres]
        parts += [f"{MERCENARY}={self.mercenaries}"] if self.mercenaries else []
        return ", ".join(parts)


def _count(text: str, part: str) -> int:
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or not 1 <= int(digits) <= MAX_COUNT:
        raise ValueError(f"{part!r}: the count is a whole number from 1 to {MAX_COUNT}")
    return int(digits)


def _icon(part: str, catalog: Catalog) -> tuple[str, int]:
    """One `KIND=COUNT` of the card, checked: (kind, count)."""
    name, sep, amount = (s.strip() for s in part.partition("="))
    name = name.lower()
    if not sep:
        raise ValueError(f"{part!r}: write KIND=COUNT, e.g. {EXAMPLE}")
    count = _count(amount, part)
    if name.startswith(METRE):
        if name.removeprefix(METRE) not in ("1", "2", "3", "4"):
            raise ValueError(f"{part!r}: a Monster Metre icon is metre-1 to metre-4")
    elif name != MERCENARY:
        spec = catalog.monsters.get(name)
        if spec is None or spec.kind != Kind.MONSTER:
            close = difflib.get_close_matches(
                name, [m for m, s in catalog.monsters.items() if s.kind == Kind.MONSTER], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"{name!r} is not a monster kind in the data{hint}")
    return name, count


def parse_icons(text: str, catalog: Catalog) -> RoomIcons:
    """The card's icons; ValueError says in one line what is wrong (a typo gets its nearest
    monster id)."""
    monsters: dict[str, int] = {}
    metres: dict[int, int] = {}
    mercenaries = 0
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise ValueError(f"name the card's monsters, e.g. {EXAMPLE}")
    for name, count in every_part(parts, lambda part: _icon(part, catalog)):  # every typo at once
        if name == MERCENARY:
            mercenaries += count
        elif name.startswith(METRE):
            level = int(name.removeprefix(METRE))
            metres[level] = metres.get(level, 0) + count
        else:
            monsters[name] = monsters.get(name, 0) + count
    if not monsters and not metres and not mercenaries:
        raise ValueError(f"name the card's monsters, e.g. {EXAMPLE}")
    return RoomIcons(tuple(monsters.items()), tuple(sorted(metres.items())), mercenaries)


def room_record(base: Mapping[str, Any], icons: RoomIcons) -> dict[str, Any]:
    """The room's record with the card's icons, known, provenance "asked"."""
    record = {k: v for k, v in base.items() if k not in ("provenance", "notes")}
    record["monsters"] = [{"monster": m, "count": n} for m, n in icons.monsters]
    record["metres"] = [{"level": lvl, "count": n} for lvl, n in icons.metres]
    record["mercenaries"] = icons.mercenaries
    record["known"] = True
    record["provenance"] = ASKED
    record["notes"] = (f"The Room card's monsters as the players read them "
                       f"(`automa campaign next`): {icons.as_text()}.")
    return record


def remember_room(user_dir: Path, room_id: str, icons: RoomIcons) -> Path:
    """Write the room, checked as the loader reads it, into the user's rooms.toml."""
    tables, _ = load_data_file(ROOMS_FILE, user_dir)
    record = room_record(dict(tables[room_id]), icons)
    rec = Record(str(user_dir / ROOMS_FILE), room_id, dict(record))
    parse_room(rec)
    rec.reject_unknown_keys()
    return write_record(user_dir, "room", room_id, record)
