"""The Hidden Cave's Kraken fight on its own (`automa hidden-cave fight`): a hero's health and
shot icons against the Kraken's D12, rolled and drawn by the seed or at the table. (A fight in a
room's battle is the session's `cave` input.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from msgspec import Struct
from msgspec.structs import replace

from automa.campaign.asking import CampaignAsker
from automa.errors import InputError
from automa.model.modes import DiceMode, KrakenTie

if TYPE_CHECKING:
    from automa.catalog.load import Catalog
    from automa.model.components import DamageToken
    from automa.model.scenario import Bag
    from automa.rules.kraken import KrakenFight

TIES = tuple(KrakenTie)  # who wins a tie (ruling kraken-tie)
DICE = tuple(DiceMode)
SEED_SPACE = 2**63


class FightKraken(Struct, frozen=True):
    """The fight: the hero's current health and damage-inflicting shot icons (`seed` filled in
    when the dice are virtual and none was given; `tie` None: the ruling's default)."""

    health: int
    shots: int
    seed: int | None = None
    dice: DiceMode = DiceMode.VIRTUAL
    tie: KrakenTie | None = None

    def to_json(self) -> dict[str, object]:
        return {"type": "kraken", "health": self.health, "shots": self.shots,
                "seed": self.seed, "dice": self.dice, "tie": self.tie}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> FightKraken:
        def whole(key: str, low: int = 0, high: int | None = None) -> int:
            value = data.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or value < low or (
                    high is not None and value > high):
                raise InputError(f"kraken: {key!r} is not a whole number of {low} or more")
            return value

        if data.get("type") != "kraken":
            raise InputError(f"kraken: the type is {data.get('type')!r}, not 'kraken'")
        seed = None if data.get("seed") is None else whole("seed", 0, SEED_SPACE - 1)
        dice, tie = data.get("dice", DiceMode.VIRTUAL), data.get("tie")
        if dice not in DICE:
            raise InputError(f"kraken: dice {dice!r} is not one of {', '.join(DICE)}")
        if tie is not None and tie not in TIES:
            raise InputError(f"kraken: tie {tie!r} is not one of {', '.join(TIES)}")
        return cls(whole("health"), whole("shots"), seed, DiceMode(str(dice)),
                   None if tie is None else KrakenTie(str(tie)))

    def check(self) -> str | None:
        if self.health < 0 or self.shots < 0:
            return "the health and the shot icons are whole numbers of 0 or more"
        if self.seed is not None and not 0 <= self.seed < SEED_SPACE:
            return f"the seed is a whole number from 0 to {SEED_SPACE - 1}"
        return None


class KrakenFought(Struct, frozen=True):
    command: FightKraken  # as fought: the seed filled in
    fight: KrakenFight
    tokens: int  # how many red tokens the hero drew
    level: int  # the red bag's level (ruling kraken-bag)
    items: tuple[str, ...]  # the items beside the Hidden Cave card
    item_drawn: str | None  # the Kraken won with virtual dice: the item drawn at random


def fight_kraken(command: FightKraken, catalog: Catalog,
                 asker: CampaignAsker | None = None) -> KrakenFought:
    """The fight by the rules (rules/kraken.py): the D12 and the red tokens from the seed, or
    asked of the players with physical dice."""
    import numpy as np

    from automa.engine.chance import Chance
    from automa.model.scenario import Bag, ChanceScript
    from automa.rules.kraken import fight, reward, token_count
    from automa.rules.rulings import RulingKey, cite, ruling

    reason = command.check()
    if reason is not None:
        raise InputError(reason)
    physical = command.dice == DiceMode.PHYSICAL
    if physical and asker is None:
        raise InputError("physical dice: the players roll and draw at the table, and nobody "
                         "is there to be asked")
    seed = (command.seed if command.seed is not None
            else int(np.random.SeedSequence().generate_state(1)[0]))
    components = catalog.components
    level = components.red_bag
    chance = Chance(ChanceScript(), np.random.default_rng(seed),
                    asker=asker if physical else None)
    count = token_count(command.health, command.shots)
    if physical and asker is not None:
        asker.tell(f"The hero draws {count} red Damage tokens (level {level} bag, "
                   f"{cite(RulingKey.KRAKEN_BAG)}), one at a time, keeping each out of the bag.")
    drawn = [0]

    def draw(bag: Bag, hand: Sequence[DamageToken]) -> DamageToken:
        if physical and asker is not None and drawn[0] and not hand:  # ruling kraken-draw:
            # every token was in hand
            asker.tell(f"The bag is empty: note the {drawn[0]} tokens drawn so far and put "
                       f"them all back into the bag ({cite(RulingKey.KRAKEN_DRAW)})")
        drawn[0] = len(hand) + 1
        return chance.token(level, bag, "against the Kraken", hand)

    result = fight(command.health, command.shots, Bag(components.bags[level]),
                   lambda: chance.d12("the Kraken's strength"), draw,
                   command.tie or KrakenTie(ruling(RulingKey.KRAKEN_TIE).default
                                            or KrakenTie.KRAKEN))
    items = tuple(catalog.setup.hidden_cave_items)
    item = None
    if not result.hero_wins and not physical and items:
        item = reward(False, 0, items, lambda left: chance.pick(left, "the item")).item
    return KrakenFought(replace(command, seed=seed), result, count, level, items, item)
