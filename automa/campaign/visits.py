"""What a special room's purchase does to the heroes' boards (the offers themselves are data:
data/visits.toml, read by catalog/campaigns.py). Pure: the campaign asks, this decides."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from msgspec.structs import replace

from automa.campaign.commands import FieldConflict
from automa.campaign.log import CampaignError
from automa.campaign.model import HeroBoard
from automa.model.campaigns import EFFECT, Offer


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
    return replace(board, **{field: max(value, 0)})


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
