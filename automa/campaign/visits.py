"""What a special room's purchase does to the heroes' boards (the offers themselves are data:
data/visits.toml, read by catalog/campaigns.py). Pure: the campaign asks, this decides."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from msgspec.structs import replace

from automa.campaign.commands import POOL_SETTING, FieldConflict
from automa.campaign.log import CampaignError
from automa.campaign.model import AllyBoard, HeroBoard
from automa.model.campaigns import EFFECT, Offer, Visit
from automa.rules.rulings import RulingKey, cite, option


def _changed(board: HeroBoard, effect: str, over: bool) -> HeroBoard:
    match = EFFECT.match(effect)
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
    if field == "health" and amount == "full":  # "full heal for a hero (and their ally)"
        board = replace(board, ally_boards=tuple(
            replace(a, health=max(a.health, a.starting_health)) if a.alive else a
            for a in board.ally_boards))
    return replace(board, **{field: max(value, 0)})


def pooled(visit: Visit, settings: Mapping[str, str]) -> bool:
    """Whether the heroes may pool their gold for a purchase here (ruling visit-pool): never by
    our reading ("Catacomb heroes cannot share their gold"); with the other reading, where the
    room's text says so (`pool` in visits.toml)."""
    return visit.pool and option(settings, RulingKey.VISIT_POOL) == "pooled"


def split_refusal(payers: Mapping[str, int], room: str, visit: Visit,
                  settings: Mapping[str, str]) -> str | None:
    """Why a price split between heroes cannot be paid here, in one line (None: one hero pays,
    or the gold may be pooled)."""
    if len(payers) < 2 or pooled(visit, settings):
        return None
    chosen = option(settings, RulingKey.VISIT_POOL)
    names = list(payers)
    split = f"{', '.join(names[:-1])} and {names[-1]}"
    if chosen == "own-gold":
        return (f"{split} cannot split the price: \"Catacomb heroes cannot share their gold "
                f"with other heroes or amongst themselves\", so one hero pays it all "
                f"(* {cite(RulingKey.VISIT_POOL)}, {POOL_SETTING} = own-gold; a campaign "
                f"begun with `automa campaign new ... --{POOL_SETTING} pooled` pools gold at "
                f"the Merchant)")
    return (f"{split} cannot split the price: gold is pooled only where the room's text says "
            f"so, and {room}'s does not; one hero pays it all (* {cite(RulingKey.VISIT_POOL)}, "
            f"{POOL_SETTING} = pooled)")


def paid(heroes: Mapping[str, HeroBoard], payers: Mapping[str, int], price: int, pool: bool,
         ) -> dict[str, HeroBoard]:
    """The boards once the price is paid: by one hero, or pooled where the room allows it."""
    if sum(payers.values()) != price:
        raise FieldConflict("payers", f"{sum(payers.values())} gold given for a price of {price}")
    if len(payers) > 1 and not pool:
        raise FieldConflict("payers", "gold cannot be pooled here: one hero pays")
    boards = dict(heroes)
    for hero, gold in payers.items():
        board = boards.get(hero)
        if board is None or not board.alive:
            raise FieldConflict("payers", f"{hero!r} is not a living hero of the campaign")
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
            raise FieldConflict("hero", f"{target!r} is not a dead hero of the campaign")
        boards[board.id] = replace(board, health=offer.health, alive=True)
        return boards
    if offer.effect.startswith("each:"):
        effect = offer.effect.removeprefix("each:")
        return {h: _changed(b, effect, offer.over) if b.alive else b for h, b in boards.items()}
    board = boards.get(target or "")
    if board is None or not board.alive:
        raise FieldConflict("hero", f"{target!r} is not a living hero of the campaign")
    if offer.effect.startswith("poison-") and board.poison == 0:
        raise FieldConflict("hero", f"{board.id} has no Poison card to cure")
    boards[board.id] = _changed(board, offer.effect, offer.over)
    return boards


def needs_target(offer: Offer) -> bool:
    return not (offer.effect in ("note", "bet") or offer.effect.startswith("each:"))


def times_bought(bought_so_far: Iterable[str], offer_id: str) -> int:
    """How many times the offer was bought at this visit (the offers bought, in order)."""
    return sum(1 for offer in bought_so_far if offer == offer_id)


def recruits(offer: Offer) -> int:
    """How many allies the offer recruits (the Amaranth Inn's `allies+1`)."""
    match = EFFECT.match(offer.effect)
    if match is None or match["field"] != "allies" or match["sign"] != "+":
        return 0
    return int(match["amount"]) if match["amount"] != "full" else 0


def ally_id(board: HeroBoard, taken: Iterable[str]) -> str:
    """A new ally's piece id: HERO-ally, then HERO-ally-2, ... (an id no piece has yet)."""
    used = set(taken) | {a.id for a in board.ally_boards}
    number = 1
    while (name := f"{board.id}-ally" + (f"-{number}" if number > 1 else "")) in used:
        number += 1
    return name


def recruited(heroes: Mapping[str, HeroBoard], hero: str, count: int, health: int | None
              ) -> dict[str, HeroBoard]:
    """The boards with `count` allies recruited for `hero` (the count already on the board):
    each ally "drawing a random unused Hero Portrait", with that portrait's health (`health`;
    None: the hero's own starting health)."""
    boards = dict(heroes)
    board = boards[hero]
    if health is not None and health < 1:
        raise FieldConflict("ally_health", f"an ally's health is 1 or more, not {health}")
    for _ in range(count):
        ally = AllyBoard(ally_id(board, boards), hero, health or board.starting_health,
                         health or board.starting_health)
        board = replace(board, ally_boards=(*board.ally_boards, ally))
    boards[hero] = board
    return boards
