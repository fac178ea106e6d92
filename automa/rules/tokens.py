"""Damage tokens: which bags a shot draws from, and the bag with its discard pile and reset."""

from __future__ import annotations

from automa.model.components import DamageToken
from automa.model.scenario import Bag
from automa.model.shots import Shot

LEVEL_TWO_SHOTS = frozenset({"roll", "bite", "sword", "devour", "giant-fireball"})
IGNORED_BY_AI = frozenset({"chain", "target"})  # chain ignored; target melee is a plain melee


def token_levels(shot: Shot) -> tuple[int, ...]:
    """The damage-token draws of one AI shot, by the rulebook's list.

    Critical: one level 3. Boulder: two level 3. Any other modifier: one level 2. Roll, bite,
    sword (as bite), devour and giant fireball: level 2. Any other unmodified shot: level 1.
    """
    modifiers = [m.name for m in shot.modifiers if m.name not in IGNORED_BY_AI]
    if shot.name == "boulder":
        return (3, 3)  # already the strongest draw; a modifier does not lessen it
    if "critical" in modifiers:
        return (3,)
    if modifiers or shot.name in LEVEL_TWO_SHOTS:
        return (2,)
    return (1,)


def refill_if_empty(bag: Bag) -> tuple[Bag, bool]:
    if bag.tokens:
        return bag, False
    return Bag(tuple(sorted(bag.discard)), ()), True


def take(bag: Bag, token: DamageToken) -> Bag:
    """The bag after drawing `token` from it (refill an empty bag first): the token goes to the
    discard pile, and a reset icon then sends the whole pile back into the bag."""
    bag, _ = refill_if_empty(bag)
    tokens = list(bag.tokens)
    tokens.remove(token)
    discard = (*bag.discard, token)
    if token.reset:
        return Bag(tuple(sorted((*tokens, *discard))), ())
    return Bag(tuple(tokens), discard)
