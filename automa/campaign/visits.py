"""The special rooms' visits (data/visits.toml): what can be bought there and at what price, and
what a purchase does to the heroes' boards. Pure: the command asks, this decides."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from automa.campaign.log import CampaignError
from automa.campaign.model import HeroBoard
from automa.catalog.cards import write_record
from automa.catalog.locate import load_data_file
from automa.errors import DataError
from automa.model.rooms import RoomSpec

FILE = "visits.toml"
UNKNOWN = "unknown"
FIELDS = ("health", "gold", "poison", "items", "spells", "allies")
_EFFECT = re.compile(r"^(?P<each>each:)?(?:(?P<field>[a-z]+)(?P<sign>[+-=])(?P<amount>\d+|full))$")
SPECIAL_EFFECTS = ("resurrect", "note", "bet")
BAG_KINDS = ("orc", "fire-spirit", "centaur", "hero")
MAX_PRICE = 99


@dataclass(frozen=True)
class Offer:
    id: str
    text: str
    price: int | None  # None: the price printed on the card bought, asked at the purchase
    effect: str
    limit: int | None = None  # times per visit
    over: bool = False  # health may pass the starting value
    health: int = 0  # a resurrected hero's health
    ruling: str | None = None
    option: str | None = None
    provenance: str = ""


@dataclass(frozen=True)
class Visit:
    room: str
    offers: tuple[Offer, ...]
    pool: bool
    known: bool
    provenance: str
    bag: Mapping[str, int | None]  # the Alewife Tavern's bag: pieces of each kind (None: unknown)

    def menu(self, settings: Mapping[str, str]) -> tuple[Offer, ...]:
        """The offers in force with the campaign's settings (an offer tied to a ruling's option
        shows only when the campaign chose that option)."""
        return tuple(o for o in self.offers
                     if o.ruling is None or settings.get(o.ruling) == o.option)

    def offer(self, offer_id: str, settings: Mapping[str, str]) -> Offer | None:
        return next((o for o in self.menu(settings) if o.id == offer_id), None)


def _fail(where: str, room: str, field: str, why: str) -> DataError:
    return DataError(where, room, field, why)


def check_effect(effect: str) -> bool:
    if effect in SPECIAL_EFFECTS:
        return True
    match = _EFFECT.match(effect)
    if match is None or match["field"] not in FIELDS:
        return False
    return match["amount"] != "full" or (match["field"], match["sign"]) == ("health", "=")


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
                                                    f"{', '.join(FIELDS)}, or one of "
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
    if ("ruling" in entry) != ("option" in entry):
        raise _fail(where, room, field, "ruling and option go together")
    return Offer(entry["id"], entry["text"], None if price == "card" else price,
                 entry["effect"], limit, bool(entry.get("over", False)), health,
                 entry.get("ruling"), entry.get("option"), entry.get("provenance", provenance))


def parse_visit(room: str, record: object, where: str) -> Visit:
    if not isinstance(record, dict):
        raise _fail(where, room, "", "expected a table")
    extra = sorted(set(record) - {"pool", "known", "provenance", "offers", "bag"})
    if extra:
        raise _fail(where, room, extra[0], "unknown key (a typo?)")
    provenance = record.get("provenance")
    if not isinstance(provenance, str):
        raise _fail(where, room, "provenance", "missing or not text")
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
    tables, origins = load_data_file(FILE, user_dir)
    visits = {}
    for room_id, record in tables.items():
        spec = rooms.get(room_id)
        if spec is None or spec.kind != "special":
            raise DataError(origins[room_id], room_id, "", "not a special room of rooms.toml")
        visits[room_id] = parse_visit(room_id, record, origins[room_id])
    return visits


def remember_visit(user_dir: Path, room_id: str, record: dict[str, Any]) -> Path:
    """A visit's record as the players gave it, checked, into the user's visits.toml."""
    parse_visit(room_id, record, str(user_dir / FILE))
    return write_record(user_dir, "visit", room_id, record)


def parse_offers_answer(text: str) -> list[dict[str, Any]]:
    """The offers of a card our sources lack, as typed: `ID=PRICE:EFFECT; ...`, e.g.
    `horse=5:items+1; rest=2:each:health+1`. ValueError says what is wrong."""
    offers: list[dict[str, Any]] = []
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
                             f"{', '.join(FIELDS)}; each:FIELD+N; resurrect; note)")
        offers.append({"id": offer_id, "text": offer_id.replace("-", " "),
                       "price": price if price == "card" else int(price), "effect": effect,
                       **({"health": 2} if effect == "resurrect" else {})})
    if not offers:
        raise ValueError("name at least one offer, e.g. rest=2:health+1")
    return offers


def _changed(board: HeroBoard, effect: str, over: bool) -> HeroBoard:
    match = _EFFECT.match(effect)
    assert match is not None  # checked when the data was read
    field, sign, amount = match["field"], match["sign"], match["amount"]
    now = getattr(board, field)
    if amount == "full":
        value = max(now, board.starting_health)
    elif sign == "=":
        value = int(amount)
    else:
        value = now + (int(amount) if sign == "+" else -int(amount))
    if field == "health" and not over:
        value = min(value, max(now, board.starting_health))
    return replace(board, **{field: max(value, 0)})


def paid(heroes: Mapping[str, HeroBoard], payers: Mapping[str, int], price: int, pool: bool,
         ) -> dict[str, HeroBoard]:
    """The boards once the price is paid: by one hero, or pooled where the room allows it."""
    if sum(payers.values()) != price:
        raise CampaignError(f"--pay: {sum(payers.values())} gold given for a price of {price}")
    if len(payers) > 1 and not pool:
        raise CampaignError("--pay: gold cannot be pooled here: one hero pays")
    boards = dict(heroes)
    for hero, gold in payers.items():
        board = boards.get(hero)
        if board is None or not board.alive:
            raise CampaignError(f"--pay: {hero!r} is not a living hero of the campaign")
        if board.gold < gold:
            total = sum(b.gold for b in heroes.values() if b.alive)
            pooled = f" (the heroes hold {total} together)" if pool else ""
            raise CampaignError(f"{hero} cannot afford {gold} gold: {hero} has {board.gold}"
                                f"{pooled}")
        boards[hero] = replace(board, gold=board.gold - gold)
    return boards


def bought(heroes: Mapping[str, HeroBoard], offer: Offer, target: str | None,
           ) -> dict[str, HeroBoard]:
    """What the offer does to the boards (the price already paid)."""
    boards = dict(heroes)
    if offer.effect in ("note", "bet"):
        return boards
    if offer.effect == "resurrect":
        board = boards.get(target or "")
        if board is None or board.alive:
            raise CampaignError(f"--for: {target!r} is not a dead hero of the campaign")
        boards[board.id] = replace(board, health=offer.health, alive=True)
        return boards
    if offer.effect.startswith("each:"):
        effect = offer.effect.removeprefix("each:")
        return {h: _changed(b, effect, offer.over) if b.alive else b for h, b in boards.items()}
    board = boards.get(target or "")
    if board is None or not board.alive:
        raise CampaignError(f"--for: {target!r} is not a living hero of the campaign")
    if offer.effect.startswith("poison-") and board.poison == 0:
        raise CampaignError(f"--for: {board.id} has no Poison card to cure")
    boards[board.id] = _changed(board, offer.effect, offer.over)
    return boards


def needs_target(offer: Offer) -> bool:
    return not (offer.effect in ("note", "bet") or offer.effect.startswith("each:"))


def times_bought(steps: Iterable[Mapping[str, Any]], offer_id: str) -> int:
    return sum(1 for s in steps if s.get("offer") == offer_id)
