"""What the players told at the table, written into their data folder so the next campaign does
not ask again: a Room card's Room Level Rewards (campaigns.toml), a special room's offers and
the Tavern bag's pieces (visits.toml). Each is checked as the loader reads it before anything is
written, and written atomically."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from automa.catalog.campaigns import ASKED, CAMPAIGNS_FILE, REWARDS, VISITS_FILE, parse_visit
from automa.catalog.cards import write_record
from automa.catalog.locate import load_data_file, read_toml
from automa.catalog.reader import parse_toml
from automa.errors import DataError
from automa.model.campaigns import Offer, Rewards, Visit
from automa.storage import atomic_write_text
from automa.toml_text import toml_string


def remember_rewards(user_dir: Path, room_id: str, rewards: Rewards) -> Path:
    """Add the players' answer to the user's campaigns.toml (made if missing), atomically."""
    path = user_dir / CAMPAIGNS_FILE
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if text:
        existing = read_toml(path).get(REWARDS, {})
        if isinstance(existing, dict) and room_id in existing:
            raise DataError(str(path), f"{REWARDS}.{room_id}", "", "already holds this room")
    block = (f"\n[{REWARDS}.{toml_string(room_id)}]\ngold = {rewards.gold}\n"
             f"spell = {'true' if rewards.spell else 'false'}\n"
             f"provenance = {toml_string(rewards.provenance)}\n")
    new_text = (text.rstrip("\n") + "\n" if text else "") + block
    parse_toml(new_text, str(path))  # what is written must read back: else nothing is written
    atomic_write_text(path, new_text)
    return path


def remember_visit(user_dir: Path, room_id: str, record: dict[str, Any]) -> Path:
    """A visit's record as the players gave it, checked, into the user's visits.toml."""
    parse_visit(room_id, record, str(user_dir / VISITS_FILE))
    return write_record(user_dir, "visit", room_id, record)


def remember_offers(user_dir: Path, room_id: str, offers: Sequence[Offer]) -> Path:
    """A special room's offers our sources lack, as the players read them off the card."""
    records = [{"id": o.id, "text": o.text, "price": "card" if o.price is None else o.price,
                "effect": o.effect, **({"health": o.health} if o.effect == "resurrect" else {})}
               for o in offers]
    return remember_visit(user_dir, room_id, {"pool": False, "known": True, "provenance": ASKED,
                                              "offers": records})


def remember_bag(user_dir: Path, visit: Visit, counts: Mapping[str, int]) -> Path:
    """The Tavern bag's pieces the players' box holds, over the counts our data lacks; the
    room's offers keep their own provenance."""
    tables, _ = load_data_file(VISITS_FILE, user_dir)
    record = dict(tables[visit.room])
    record["bag"] = {k: counts.get(k, v) for k, v in record["bag"].items()}
    record["offers"] = [{"provenance": visit.provenance, **o} for o in record["offers"]]
    record["provenance"] = ASKED
    return remember_visit(user_dir, visit.room, record)
