"""The campaigns' data files: data/campaigns.toml (the Red Box routes and the Room Level Rewards
we know or were told) and data/visits.toml (the special rooms' offers), each merged with the
user's data folder like every data file (a record there replaces ours), checked with the rest of
the data. What the players tell at the table is written back by catalog/remembered.py."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from automa.catalog.locate import load_data_file
from automa.errors import DataError
from automa.model.campaigns import (
    BAG_KINDS,
    BOARD_FIELDS,
    CHOICES,
    LAIR,
    LAIR_NAME,
    SPECIAL_EFFECTS,
    Offer,
    Rewards,
    Route,
    RouteRoom,
    RouteStep,
    Visit,
    check_effect,
)
from automa.model.provenance import Provenance
from automa.model.rooms import RoomSpec

CAMPAIGNS_FILE = "campaigns.toml"
VISITS_FILE = "visits.toml"
REWARDS = "rewards"
MAX_GOLD = 99
UNKNOWN = "unknown"
MAX_PRICE = 99
ASKED = Provenance.ASKED  # the provenance of what the players told at the table
RESURRECTED_HEALTH = 2  # Althea the Healer: "Resurrect a hero with 2 health" (research notes)


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


ROUTE_KEYS = ("name", "start", "steps", "provenance", "notes")
REWARD_KEYS = ("gold", "spell", "provenance")
PROVENANCES = tuple(Provenance)


def check_provenance(where: str, record: str, value: object) -> str:
    """A record's provenance: one of the Provenance words (where the record comes from)."""
    if value is None:
        raise DataError(where, record, "provenance", f"missing: every record says where it "
                                                      f"comes from ({', '.join(PROVENANCES)})")
    if value not in PROVENANCES:
        shown = repr(value) if isinstance(value, str) else "not text"
        raise DataError(where, record, "provenance", f"expected one of "
                                                      f"{', '.join(PROVENANCES)}, got {shown}")
    return str(value)


def _reject_unknown(where: str, record: str, table: Mapping[str, object],
                    known: tuple[str, ...]) -> None:
    extra = sorted(set(table) - set(known))
    if extra:
        raise DataError(where, record, extra[0], "unknown key (a typo?)")


def parse_route(route_id: str, record: object, where: str, rooms: Mapping[str, RoomSpec],
                lords: Mapping[str, object]) -> Route:
    if not isinstance(record, dict):
        raise DataError(where, route_id, "", "expected a table")
    check_provenance(where, route_id, record.get("provenance"))
    _reject_unknown(where, route_id, record, ROUTE_KEYS)
    for key in ("name", "start", *(("notes",) if "notes" in record else ())):
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
        provenance = check_provenance(where, f"{REWARDS}.{room_id}", record.get("provenance"))
        _reject_unknown(where, f"{REWARDS}.{room_id}", record, REWARD_KEYS)
        gold, spell = record.get("gold"), record.get("spell")
        if isinstance(gold, bool) or not isinstance(gold, int) or not 0 <= gold <= MAX_GOLD:
            raise DataError(where, f"{REWARDS}.{room_id}", "gold",
                            f"expected a whole number from 0 to {MAX_GOLD}")
        if not isinstance(spell, bool):
            raise DataError(where, f"{REWARDS}.{room_id}", "spell", "expected true or false")
        found[room_id] = Rewards(gold, spell, provenance)
    return found


def load_campaigns(user_dir: Path | None, rooms: Mapping[str, RoomSpec],
                   lords: Mapping[str, object]) -> tuple[dict[str, Route], dict[str, Rewards]]:
    """The routes and the known Room Level Rewards, the user's folder merged over ours."""
    tables, origins = load_data_file(CAMPAIGNS_FILE, user_dir)
    routes = {key: parse_route(key, value, origins[key], rooms, lords)
              for key, value in tables.items() if key != REWARDS}
    rewards = parse_rewards(tables.get(REWARDS, {}), origins.get(REWARDS, f"data/{CAMPAIGNS_FILE}"))
    load_visits(user_dir, rooms)  # the special rooms' offers are checked with the routes
    return routes, rewards



def _fail(where: str, room: str, field: str, why: str) -> DataError:
    return DataError(where, room, field, why)


def _offer(where: str, room: str, index: int, entry: object, provenance: str) -> Offer:
    field = f"offers[{index}]"
    if not isinstance(entry, dict):
        raise _fail(where, room, field, "expected { id, text, price, effect }")
    known = {"id", "text", "price", "effect", "limit", "over", "health", "ruling", "option",
             "provenance"}
    extra = sorted(set(entry) - known)
    if extra:
        raise _fail(where, room, f"{field}.{extra[0]}", "unknown key (a typo?)")
    for key in ("id", "text", "effect"):
        if not isinstance(entry.get(key), str) or not entry[key]:
            raise _fail(where, room, f"{field}.{key}", "missing or not text")
    price = entry.get("price")
    if price != "card" and (isinstance(price, bool) or not isinstance(price, int)
                            or not 0 <= price <= MAX_PRICE):
        raise _fail(where, room, f"{field}.price", f"expected gold 0-{MAX_PRICE} or \"card\"")
    if not check_effect(entry["effect"]):
        raise _fail(where, room, f"{field}.effect", f"unknown effect {entry['effect']!r} "
                                                    f"(FIELD+N with FIELD one of "
                                                    f"{', '.join(BOARD_FIELDS)}, or one of "
                                                    f"{', '.join(SPECIAL_EFFECTS)})")
    limit = entry.get("limit")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 1):
        raise _fail(where, room, f"{field}.limit", "expected a whole number from 1")
    health = entry.get("health", 0)
    if isinstance(health, bool) or not isinstance(health, int) or not 0 <= health <= 99:
        raise _fail(where, room, f"{field}.health", "expected a whole number 0-99")
    if entry["effect"] == "resurrect" and health < 1:
        raise _fail(where, room, f"{field}.health", "a resurrected hero needs health")
    for key in ("ruling", "option", "provenance"):
        if key in entry and not isinstance(entry[key], str):
            raise _fail(where, room, f"{field}.{key}", "not text")
    if "provenance" in entry and entry["provenance"] not in PROVENANCES:
        raise _fail(where, room, f"{field}.provenance", f"expected one of "
                                                         f"{', '.join(PROVENANCES)}, got "
                                                         f"{entry['provenance']!r}")
    if ("ruling" in entry) != ("option" in entry):
        raise _fail(where, room, field, "ruling and option go together")
    return Offer(entry["id"], entry["text"], None if price == "card" else price,
                 entry["effect"], limit, bool(entry.get("over", False)), health,
                 entry.get("ruling"), entry.get("option"), entry.get("provenance", provenance))


def parse_visit(room: str, record: object, where: str) -> Visit:
    if not isinstance(record, dict):
        raise _fail(where, room, "", "expected a table")
    provenance = check_provenance(where, room, record.get("provenance"))
    extra = sorted(set(record) - {"pool", "known", "provenance", "offers", "bag"})
    if extra:
        raise _fail(where, room, extra[0], "unknown key (a typo?)")
    offers = record.get("offers", [])
    if not isinstance(offers, list):
        raise _fail(where, room, "offers", "expected a list")
    parsed = tuple(_offer(where, room, i, e, provenance) for i, e in enumerate(offers))
    known = record.get("known", True)
    if not isinstance(known, bool) or (known and not parsed):
        raise _fail(where, room, "known", "a known room lists its offers")
    bag: dict[str, int | None] = {}
    raw_bag = record.get("bag", {})
    if not isinstance(raw_bag, dict):
        raise _fail(where, room, "bag", "expected { orc = N, ... }")
    for kind, count in raw_bag.items():
        if kind not in BAG_KINDS:
            raise _fail(where, room, f"bag.{kind}", f"expected one of {', '.join(BAG_KINDS)}")
        if count != UNKNOWN and (isinstance(count, bool) or not isinstance(count, int)
                                 or not 0 <= count <= 30):
            raise _fail(where, room, f"bag.{kind}", "expected a count 0-30 or \"unknown\"")
        bag[kind] = None if count == UNKNOWN else count
    pool = record.get("pool", False)
    if not isinstance(pool, bool):
        raise _fail(where, room, "pool", "expected true or false")
    return Visit(room, parsed, pool, known, provenance, bag)


def load_visits(user_dir: Path | None, rooms: Mapping[str, RoomSpec]) -> dict[str, Visit]:
    """The visits, the user's folder merged over ours; each names a special room."""
    tables, origins = load_data_file(VISITS_FILE, user_dir)
    visits = {}
    for room_id, record in tables.items():
        spec = rooms.get(room_id)
        if spec is None or spec.kind != "special":
            raise DataError(origins[room_id], room_id, "", "not a special room of rooms.toml")
        visits[room_id] = parse_visit(room_id, record, origins[room_id])
    return visits



def parse_offers_answer(text: str) -> tuple[Offer, ...]:
    """The offers of a card our sources lack, as typed: `ID=PRICE:EFFECT; ...`, e.g.
    `horse=5:items+1; rest=2:each:health+1`. ValueError says what is wrong."""
    offers: list[Offer] = []
    for part in (p.strip() for p in text.split(";") if p.strip()):
        offer_id, sep, rest = (s.strip() for s in part.partition("="))
        price, sep2, effect = (s.strip() for s in rest.partition(":"))
        if not sep or not sep2 or not re.fullmatch(r"[a-z][a-z0-9-]*", offer_id):
            raise ValueError(f"{part!r}: write ID=PRICE:EFFECT, e.g. rest=2:health+1")
        if not (price == "card" or (price.isascii() and price.isdigit()
                                    and int(price) <= MAX_PRICE)):
            raise ValueError(f"{part!r}: the price is gold 0-{MAX_PRICE} or 'card'")
        if not check_effect(effect):
            raise ValueError(f"{part!r}: unknown effect {effect!r} (FIELD+N, FIELD one of "
                             f"{', '.join(BOARD_FIELDS)}; each:FIELD+N; resurrect; note)")
        offers.append(Offer(offer_id, offer_id.replace("-", " "),
                            None if price == "card" else int(price), effect,
                            health=RESURRECTED_HEALTH if effect == "resurrect" else 0,
                            provenance=ASKED))
    if not offers:
        raise ValueError("name at least one offer, e.g. rest=2:health+1")
    return tuple(offers)

