"""The Kraken fight in the Hidden Cave (Red Box rulebook, "Hidden Cave (Optional)").

"First, roll the D12 which represents the Kraken's attack strength. The hero draws a red Damage
token for every 4 Health points they currently have. They also draw Damage tokens for each
damage inflicting shot icon available to them" (base shot sequence, Ability and Item cards, used
ones too, up to five Spell cards). "Add up all of the values on the Damage tokens and compare it
to the Kraken's attack strength."

Pure: the D12 and each token come from callables the caller injects (virtual or physical dice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from msgspec import Struct

from automa.model.components import DamageToken
from automa.model.modes import KrakenTie
from automa.model.scenario import Bag
from automa.rules.tokens import discard, draw, refill_if_empty

HEALTH_PER_TOKEN = 4  # "a red Damage token for every 4 Health points they currently have"
MAX_SPELLS = 5  # "Up to five Spell cards"
CAVE_ITEMS = ("Champion's Helm", "Dagger of Deception", "Delilah's Potion", "Trident")

RollD12 = Callable[[], int]
DrawToken = Callable[[Bag, Sequence[DamageToken]], DamageToken]  # (bag, hand so far) -> token


class ShotIcons(Struct, frozen=True):
    """The damage-inflicting shot icons on the hero's cards, counted by the players."""

    base: int = 0
    abilities: int = 0  # used ones too
    items: int = 0  # used ones too
    spells: tuple[int, ...] = ()  # icons per Spell card; only five cards count

    def total(self) -> int:
        return self.base + self.abilities + self.items + spell_icons(self.spells)


def spell_icons(per_card: Sequence[int]) -> int:
    """Up to five Spell cards count; the hero picks them, so the five with most icons."""
    return sum(sorted(per_card, reverse=True)[:MAX_SPELLS])


def health_tokens(health: int) -> int:
    """One token for every 4 current health, rounded down (3 health draws none)."""
    if health < 0:
        raise ValueError(f"health cannot be negative ({health})")
    return health // HEALTH_PER_TOKEN


def token_count(health: int, shots: int) -> int:
    if shots < 0:
        raise ValueError(f"the shot icons cannot be negative ({shots})")
    return health_tokens(health) + shots


def hero_wins(strength: int, total: int, tie: KrakenTie = KrakenTie.KRAKEN) -> bool:
    """The hero wins with more than the Kraken's strength; a tie goes by ruling `kraken-tie`
    (`kraken`: the Kraken wins, `hero`: the hero wins)."""
    if total != strength:
        return total > strength
    return tie == KrakenTie.HERO


class KrakenFight(Struct, frozen=True):
    strength: int
    tokens: tuple[DamageToken, ...]
    hero_wins: bool
    tie: bool
    bag: Bag  # the red bag afterwards (tokens discarded; a reset returns the pile)
    refilled: bool  # the bag ran out during the draw and was refilled (ruling kraken-bag)

    @property
    def total(self) -> int:
        return sum(t.value for t in self.tokens)


def fight(health: int, shots: int, bag: Bag, roll_d12: RollD12, draw_token: DrawToken,
          tie: KrakenTie = KrakenTie.KRAKEN) -> KrakenFight:
    """Roll the Kraken's strength, then draw the hero's tokens one after the other from the red
    bag. When the bag is empty before the count is reached, its discard pile goes back first (as
    everywhere); when the tokens in hand are all there is, they are counted and go back into the
    bag (ruling `kraken-bag`). Afterwards the drawn tokens are discarded as any shot's are."""
    count = token_count(health, shots)
    strength = roll_d12()
    if not 1 <= strength <= 12:
        raise ValueError(f"the D12 shows 1 to 12, not {strength}")
    counted: list[DamageToken] = []
    hand: list[DamageToken] = []
    refilled = False
    for _ in range(count):
        bag, poured = refill_if_empty(bag)
        if not bag.tokens:  # every token is in hand: counted, they go back into the bag
            bag, hand, refilled = Bag(tuple(sorted(hand)), bag.discard), [], True
        refilled = refilled or poured
        token = draw_token(bag, tuple(hand))
        bag = draw(bag, [token])
        hand.append(token)
        counted.append(token)
    total = sum(t.value for t in counted)
    return KrakenFight(strength, tuple(counted), hero_wins(strength, total, tie),
                       total == strength, discard(bag, hand), refilled)


class Reward(Struct, frozen=True):
    """What the fight gives, as printed."""

    platinum: int
    health: int
    discard_poison: int  # Poison cards discarded (at most one, if the hero has one)
    item: str | None  # the item taken (None: no item is left beside the card)
    item_chosen: bool  # True: the hero's choice; False: at random
    antient: bool  # one unused Antient of the hero's choice


def reward(won: bool, poison_cards: int, items: Sequence[str], pick_item: Callable[
        [Sequence[str]], str]) -> Reward:
    """Kraken wins: "They may discard one Poison card (if they have one) and take one of the
    four items (randomly determined)." Hero wins: "1 platinum coin from the Treasury, 2 health
    points, 1 of the items of their choice, and 1 unused Antient piece of their choice."
    `pick_item` is the random draw (Kraken wins) or the hero's choice (hero wins). With no item
    left beside the card the hero takes none and gains the rest: entering needs only the five
    monsters ("When a hero collects all five of the monsters, the player ... may place their
    hero's piece on the Hidden Cave card"), and each gain stands on its own."""
    item = pick_item(items) if items else None
    if item is not None and item not in items:
        raise ValueError(f"{item!r} is not beside the Hidden Cave card")
    if won:
        return Reward(1, 2, 0, item, True, True)
    return Reward(0, 0, 1 if poison_cards > 0 else 0, item, False, False)
