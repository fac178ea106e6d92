"""The Alewife Tavern's bet (official rules, research notes "Special rooms"): "put all Orcs, Fire
Spirits, Centaurs and 4 hero pieces in a bag; bet 2 gold and draw 3 pieces". What the three
pieces win, best first; "a lower reward may be taken instead; pieces go back in the bag after
each bet" (ruling tavern-bet)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal, get_args

from automa.campaign.log import CampaignError

if TYPE_CHECKING:
    import numpy as np

DRAWN = 3
HERO = "hero"
TavernResult = Literal["three-heroes", "three-of-a-kind", "two-heroes", "three-colours",
                       "one-hero"]
TAVERN_RESULTS: tuple[TavernResult, ...] = get_args(TavernResult)
# (result, its rewards: (id, what it does, the effect on the chosen hero's board)), best first
RESULTS: tuple[tuple[TavernResult, tuple[tuple[str, str, str], ...]], ...] = (
    ("three-heroes", (("full-heal", "full heal for a hero (and their ally)", "health=full"),
                      ("cure-all", "cure all poison on one hero", "poison=0"))),
    ("three-of-a-kind", (("item", "choose 1 Item card", "items+1"),)),
    ("two-heroes", (("blind-item", "blind-draw 1 usable Item card", "items+1"),)),
    ("three-colours", (("heal", "+1 health", "health+1"),
                       ("cure", "cure 1 Poison card", "poison-1"))),
    ("one-hero", (("gold", "+1 gold", "gold+1"),)),
)
KINDS = ("orc", "fire-spirit", "centaur", HERO)
BY_HEROES: tuple[TavernResult, ...] = ("one-hero", "two-heroes", "three-heroes")


def result(drawn: Sequence[str]) -> TavernResult | None:
    """What three drawn pieces make: the heroes among them first, then three of one monster
    kind, then one of each monster kind (three colours); two of a kind and another: nothing."""
    if len(drawn) != DRAWN or any(d not in KINDS for d in drawn):
        raise CampaignError(f"the draw is {DRAWN} pieces of {', '.join(KINDS)}, not "
                            f"{', '.join(drawn)}")
    heroes = sum(1 for d in drawn if d == HERO)
    if heroes:
        return BY_HEROES[heroes - 1]
    kinds = set(drawn)
    if len(kinds) == 1:
        return "three-of-a-kind"
    return "three-colours" if len(kinds) == DRAWN else None


def rewards(won: TavernResult | None) -> tuple[tuple[str, str, str], ...]:
    """The rewards the players may take for a result: its own, or any lower one."""
    if won is None:
        return ()
    names = [name for name, _ in RESULTS]
    return tuple(r for name, found in RESULTS[names.index(won):] for r in found)


def draw(bag: Mapping[str, int], rng: np.random.Generator) -> list[str]:
    """Three pieces from the bag, without putting one back during the draw."""
    pieces = [kind for kind in KINDS for _ in range(bag.get(kind, 0))]
    if len(pieces) < DRAWN:
        raise CampaignError(f"the bag holds {len(pieces)} pieces: {DRAWN} are drawn")
    picked = rng.choice(len(pieces), size=DRAWN, replace=False)
    return [pieces[int(i)] for i in picked]


def parse_drawn(text: str) -> list[str]:
    drawn = [p.strip().lower() for p in text.split(",") if p.strip()]
    result(drawn)  # checks the pieces
    return drawn
