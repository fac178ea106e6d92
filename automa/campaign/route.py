"""data/campaigns.toml: the two Red Box routes and the Room Level Rewards we know or were told.

The file merges with the user's data folder like every data file (a record there replaces ours).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from automa.campaign.model import CHOICES, LAIR, Rewards, Route, RouteRoom, RouteStep
from automa.campaign.visits import load_visits
from automa.catalog.locate import load_data_file, read_toml
from automa.catalog.reader import parse_toml
from automa.errors import DataError
from automa.model.rooms import RoomSpec
from automa.storage import atomic_write_text
from automa.toml_text import toml_string

FILE = "campaigns.toml"
REWARDS = "rewards"
LAIR_NAME = "Catacomb Lord's Lair"
MAX_GOLD = 99


def _room(where: str, room_id: object, level: object, rooms: Mapping[str, RoomSpec]
          ) -> RouteRoom:
    if not isinstance(room_id, str):
        raise DataError(where, "", "rooms", f"expected room ids, not {room_id!r}")
    if level is not None and (isinstance(level, bool) or not isinstance(level, int)
                              or not 1 <= level <= 4):
        raise DataError(where, room_id, "level", f"expected a level from 1 to 4, not {level!r}")
    if room_id == LAIR:
        return RouteRoom(LAIR, LAIR_NAME, None, "lair")
    spec = rooms.get(room_id)
    if spec is None:
        raise DataError(where, room_id, "rooms", "unknown room (not in rooms.toml)")
    lvl = level if isinstance(level, int) else None
    return RouteRoom(room_id, spec.name, lvl, "battle" if spec.kind == "battle" else "special")


def _step(where: str, step: object, rooms: Mapping[str, RoomSpec]) -> RouteStep:
    if not isinstance(step, dict) or not isinstance(step.get("rooms"), list) \
            or not step["rooms"]:
        raise DataError(where, "", "steps", "each step is { rooms = [ROOM, ...] }")
    unknown = sorted(set(step) - {"rooms", "level", "choose"})
    if unknown:
        raise DataError(where, "", "steps", f"unknown field {unknown[0]!r}")
    choose = step.get("choose", "one")
    if choose not in CHOICES:
        raise DataError(where, "", "choose", f"expected one of {', '.join(CHOICES)}, "
                                              f"not {choose!r}")
    return RouteStep(tuple(_room(where, r, step.get("level"), rooms) for r in step["rooms"]),
                     choose)


def parse_route(route_id: str, record: object, where: str, rooms: Mapping[str, RoomSpec],
                lords: Mapping[str, object]) -> Route:
    if not isinstance(record, dict):
        raise DataError(where, route_id, "", "expected a table")
    for key in ("name", "start", "provenance"):
        if not isinstance(record.get(key), str):
            raise DataError(where, route_id, key, "missing or not text")
    if record["start"] not in lords:
        raise DataError(where, route_id, "start", f"unknown Catacomb Lord {record['start']!r}")
    steps = record.get("steps")
    if not isinstance(steps, list) or not steps:
        raise DataError(where, route_id, "steps", "expected a list of steps")
    route = Route(route_id, record["name"], record["start"],
                  tuple(_step(where, s, rooms) for s in steps), record["provenance"])
    ids = [r.id for r in route.rooms]
    if len(set(ids)) != len(ids):
        raise DataError(where, route_id, "steps", "a room is listed twice")
    if LAIR not in ids:
        raise DataError(where, route_id, "steps", "the route needs the Lord's lair (\"lair\")")
    return route


def parse_rewards(table: object, where: str) -> dict[str, Rewards]:
    if not isinstance(table, dict):
        raise DataError(where, REWARDS, "", "expected a table of rooms")
    found = {}
    for room_id, record in table.items():
        if not isinstance(record, dict):
            raise DataError(where, f"{REWARDS}.{room_id}", "", "expected a table")
        gold, spell = record.get("gold"), record.get("spell")
        if isinstance(gold, bool) or not isinstance(gold, int) or not 0 <= gold <= MAX_GOLD:
            raise DataError(where, f"{REWARDS}.{room_id}", "gold",
                            f"expected a whole number from 0 to {MAX_GOLD}")
        if not isinstance(spell, bool):
            raise DataError(where, f"{REWARDS}.{room_id}", "spell", "expected true or false")
        provenance = record.get("provenance")
        if not isinstance(provenance, str):
            raise DataError(where, f"{REWARDS}.{room_id}", "provenance", "missing or not text")
        found[room_id] = Rewards(gold, spell, provenance)
    return found


def load_campaigns(user_dir: Path | None, rooms: Mapping[str, RoomSpec],
                   lords: Mapping[str, object]) -> tuple[dict[str, Route], dict[str, Rewards]]:
    """The routes and the known Room Level Rewards, the user's folder merged over ours."""
    tables, origins = load_data_file(FILE, user_dir)
    routes = {key: parse_route(key, value, origins[key], rooms, lords)
              for key, value in tables.items() if key != REWARDS}
    rewards = parse_rewards(tables.get(REWARDS, {}), origins.get(REWARDS, f"data/{FILE}"))
    load_visits(user_dir, rooms)  # the special rooms' offers are checked with the routes
    return routes, rewards


def remember_rewards(user_dir: Path, room_id: str, rewards: Rewards) -> Path:
    """Add the players' answer to the user's campaigns.toml (made if missing), atomically."""
    path = user_dir / FILE
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

