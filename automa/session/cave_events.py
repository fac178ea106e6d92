"""The Hidden Cave inside a battle, as log events: a hero's Kraken fight (`cave`) and an Antient
summoned instead of the base shot sequence (`summon`).

One `cave` event holds the whole fight as it came out (the D12, each red token, the item, the
Antient chosen), so replaying it, or undoing it, is exact: the tokens are drawn again from the
battle's own bag in the logged order, and anything that does not fit is refused in one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from automa.engine.battle import Battle
from automa.errors import InputError
from automa.model.board import PLATINUM
from automa.model.components import DamageToken
from automa.model.pieces import Piece
from automa.model.scenario import Bag
from automa.rules.kraken import KrakenFight, fight, reward, token_count

CAVE_EVENTS = ("cave", "summon")
TIES = ("kraken", "hero")  # ruling kraken-tie
MAX_NAME = 60


def _hero(battle: Battle, event: dict[str, object]) -> Piece:
    hero_id = event.get("piece")
    hero = battle.get(hero_id) if isinstance(hero_id, str) else None
    if hero is None or hero.side != "heroes" or hero.kind != "hero":
        heroes = ", ".join(p.id for p in battle.pieces if p.side == "heroes" and p.kind == "hero")
        raise InputError(f"no hero {hero_id!r} in play (heroes: {heroes or 'none'})")
    return hero


def _name(event: dict[str, object], field: str) -> str:
    value = event.get(field)
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise InputError(f"the {field} needs a name, not {value!r}")
    return value


def _whole(event: dict[str, object], field: str, low: int, high: int) -> int:
    value = event.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InputError(f"the {field} is a whole number from {low} to {high}, not {value!r}")
    return value


def replay_fight(battle: Battle, event: dict[str, object]) -> KrakenFight:
    """The Kraken fight of a `cave` event, fought again with its logged D12 and tokens from the
    battle's bag as it is now."""
    hero = _hero(battle, event)
    shots = _whole(event, "shots", 0, 99)
    level = _whole(event, "bag", 1, 9)
    bag = battle.bags.get(level)
    if bag is None:
        raise InputError(f"there is no level {level} bag for the Kraken fight")
    tie = event.get("tie", TIES[0])
    if tie not in TIES:
        raise InputError(f"a tie goes to the kraken or the hero, not {tie!r}")
    strength = _whole(event, "strength", 1, 12)
    labels = event.get("tokens")
    if not isinstance(labels, list) or not all(isinstance(t, str) for t in labels):
        raise InputError(f"the Kraken fight's tokens are a list like [\"2\", \"1R\"], "
                         f"not {labels!r}")
    try:
        tokens = [DamageToken.parse(t) for t in labels]
    except ValueError as error:
        raise InputError(str(error)) from None
    count = token_count(hero.health or 0, shots)
    if len(tokens) != count:
        raise InputError(f"{hero.id} draws {count} red tokens ({hero.health or 0} health, "
                         f"{shots} shot icons), not {len(tokens)}")
    queue = list(tokens)

    def next_token(now: Bag, hand: Sequence[DamageToken]) -> DamageToken:
        token = queue.pop(0)
        if token not in now.tokens:
            raise InputError(f"the red token {token.label()} is not in the level {level} bag "
                             f"at its turn")
        return token

    return fight(hero.health or 0, shots, bag, lambda: strength, next_token, str(tie))


def apply_cave_event(battle: Battle, event: dict[str, object]) -> Battle:
    """`{"type": "cave", "piece": HERO, "shots": N, "bag": LEVEL, "strength": D12, "tokens":
    [...], "tie": "kraken", "item": NAME, "antient": NAME or null, "portal": bool}`: the hero
    entered the Hidden Cave instead of a turn and fought the Kraken; the outcome as printed
    lands on their board. "If the Kraken wins ... They may discard one Poison card (if they
    have one) and take one of the four items (randomly determined). If the hero wins ... 1
    platinum coin from the Treasury, 2 health points, 1 of the items of their choice, and 1
    unused Antient piece of their choice." Health never passes the starting health (as any
    healing; ruling cave-in-battle)."""
    hero = _hero(battle, event)
    result = replay_fight(battle, event)
    item = _name(event, "item")
    antient = event.get("antient")
    if result.hero_wins and (not isinstance(antient, str) or not antient.strip()):
        raise InputError("the hero evaded the Kraken: name the unused Antient they take")
    if not result.hero_wins and antient is not None:
        raise InputError("the Kraken won: the hero takes no Antient")
    won = reward(result.hero_wins, hero.poison, [item], lambda items: items[0])
    health = hero.health
    if health is not None and won.health:
        health = health + won.health
        if hero.starting_health is not None:
            health = min(health, hero.starting_health)
    after = replace(hero, health=health, gold=hero.gold + won.platinum * PLATINUM,
                    poison=hero.poison - won.discard_poison, items=hero.items + 1)
    level = _whole(event, "bag", 1, 9)
    return battle.with_piece(after).with_bag(level, result.bag)


def apply_summon_event(battle: Battle, event: dict[str, object]) -> Battle:
    """`{"type": "summon", "piece": HERO, "antient": NAME}`: the hero summons an Antient
    instead of performing their base shot sequence ("This Antient may be summoned instead of
    performing their hero's base shot sequence in a subsequent turn of the Battle Phase"); it
    is marked used on their board and cannot be summoned again (ruling antient-summon-once)."""
    hero = _hero(battle, event)
    antient = _name(event, "antient")
    mark = summoned_mark(antient)
    if mark in hero.used:
        raise InputError(f"{hero.id} has summoned {antient} already: it is used")
    return battle.with_piece(replace(hero, used=(*hero.used, mark)))


def summoned_mark(antient: str) -> str:
    """How a summoned Antient shows among the hero's used cards."""
    return f"{antient} (summoned)"
