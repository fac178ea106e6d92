"""What the players report during the heroes' turn, as log events applied to the battle."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from automa.engine.battle import Battle
from automa.errors import InputError
from automa.geometry.moves import overlap_with
from automa.geometry.table import PLACEMENT_TOLERANCE, TableGeometry
from automa.model.monsters import MonsterSpec
from automa.model.pieces import CONDITIONS, Piece
from automa.model.shots import Shot, parse_shot
from automa.rules.rulings import cite

Event = dict[str, Any]
TABLE_EVENTS = ("move", "damage", "heal", "gold", "items", "poison", "remove", "condition",
                "cave", "summon")
COUNTERS = ("gold", "items", "poison")


def _piece_id(battle: Battle, event: Event) -> str:
    piece_id = event.get("piece")
    if not isinstance(piece_id, str) or battle.get(piece_id) is None:
        ids = ", ".join(p.id for p in battle.pieces)
        raise InputError(f"no piece {piece_id!r} in play (pieces: {ids})")
    return piece_id


def _amount(event: Event, signed: bool = False) -> int:
    amount = event.get("amount")
    if not isinstance(amount, int) or isinstance(amount, bool) or (amount < 1 and not signed):
        raise InputError(f"expected a whole number{'' if signed else ' above 0'}, "
                         f"got {amount!r}")
    if abs(amount) > 99:
        raise InputError(f"{amount} is more than any piece could have")
    return amount


def poisoned_to_death(piece: Piece, cards: int) -> bool:
    """"When the total of the Poison cards reaches or passes the hero's *starting* health, the
    hero dies at once." (catacombs-facts.md 1.7)"""
    return piece.side == "heroes" and piece.starting_health is not None and \
        cards >= piece.starting_health


def apply_table_event(battle: Battle, event: Event, table: TableGeometry) -> Battle:
    """The battle after one reported event; InputError (nothing changed) if it cannot be."""
    kind = event.get("type")
    piece_id = _piece_id(battle, event)
    piece = battle.piece(piece_id)
    if kind in ("cave", "summon"):  # the Hidden Cave's events (session/cave_events.py)
        from automa.session.cave_events import apply_cave_event, apply_summon_event

        return (apply_cave_event if kind == "cave" else apply_summon_event)(battle, event)
    if kind == "move":
        to = event.get("to")
        if not (isinstance(to, list) and len(to) == 2
                and all(isinstance(v, int | float) for v in to)):
            raise InputError(f"a move needs a position [x, y], not {to!r}")
        at = (float(to[0]), float(to[1]))
        others = [p for p in battle.on_table() if p.id != piece_id]
        clash = overlap_with(table, others, piece, at, PLACEMENT_TOLERANCE)
        if clash is not None:
            raise InputError(f"{piece_id} at ({at[0]:.1f}, {at[1]:.1f}) would be on {clash}")
        return battle.with_piece(piece.moved(at))
    if kind == "damage":
        if piece.health is None:
            raise InputError(f"{piece_id} has no health to lose")
        after = piece.health - _amount(event)
        if after <= 0:
            return battle.without(piece_id, "dead")
        return battle.with_piece(replace(piece, health=after))
    if kind == "heal":
        if piece.health is None:
            raise InputError(f"{piece_id} has no health to heal")
        healed = piece.health + _amount(event)
        if piece.starting_health is not None:
            healed = min(healed, piece.starting_health)  # never above the starting health
        return battle.with_piece(replace(piece, health=healed))
    if kind in COUNTERS:
        value = getattr(piece, kind) + _amount(event, signed=True)
        if value < 0:
            raise InputError(f"{piece_id} has only {getattr(piece, kind)} {kind}")
        if kind == "poison" and poisoned_to_death(piece, value):
            return battle.without(piece_id, "dead")
        return battle.with_piece(replace(piece, **{kind: value}))
    if kind == "remove":
        return battle.without(piece_id, str(event.get("why") or "dead"))
    if kind == "condition":
        condition, on = event.get("condition"), event.get("on")
        if condition not in CONDITIONS or not isinstance(on, bool):
            raise InputError(f"unknown condition {condition!r} (known: {', '.join(CONDITIONS)})")
        conditions = piece.conditions | {condition} if on else piece.conditions - {condition}
        return battle.with_piece(replace(piece, conditions=frozenset(conditions)))
    raise InputError(f"unknown event {kind!r}")


def apply_hit_event(battle: Battle, event: Event, monsters: Mapping[str, MonsterSpec],
                    rulings: Mapping[str, str]) -> tuple[Battle, list[str]]:
    """A hero's hit (`{"type": "hit", "targets": [...], "shot": "melee+poison", "by": HERO,
    "poison_card": N, "portal": [D12 per target]}`) resolved by the rules (rules/hero_hits.py):
    the battle after it and what happened, a line or two per piece. InputError if it cannot
    be."""
    from automa.rules.hero_hits import (
        HIT_MODIFIERS,
        HIT_SHOTS,
        HeroShot,
        disc_line,
        health_after,
        resolve,
        trilithon_reshot,
    )
    from automa.rules.rulings import option as chosen

    def option(key: str) -> str:
        return chosen(rulings, key)

    targets, text = event.get("targets"), event.get("shot")
    if not isinstance(targets, list) or not targets or not all(isinstance(t, str)
                                                               for t in targets):
        raise InputError("a hit names the pieces it struck, as in `hit rat-1, rat-2 fireball`")
    if len(set(targets)) != len(targets):
        raise InputError("a hit names each piece it struck once")
    try:  # a fire wall is no shot: the piece hit or was pushed into one
        parsed = Shot("fire-wall") if text == "fire-wall" else parse_shot(str(text))
    except ValueError as error:
        raise InputError(str(error)) from None
    if parsed.name not in HIT_SHOTS:
        raise InputError(f"`hit` resolves {', '.join(HIT_SHOTS)}; report a {parsed.name} "
                         f"with `damage ID N`")
    modifiers = frozenset(m.name for m in parsed.modifiers)
    if unknown := sorted(modifiers - HIT_MODIFIERS):
        raise InputError(f"`hit` does not resolve the {', '.join(unknown)} modifier on the "
                         f"AI's pieces; report it with `damage`/`condition`")
    by = event.get("by")
    attacker = battle.get(by) if isinstance(by, str) else None
    if by is not None and (attacker is None or attacker.side != "heroes"):
        raise InputError(f"`by {by}`: no hero {by!r} in play")
    poison = event.get("poison_card")
    if "poison" in modifiers and (not isinstance(poison, int) or isinstance(poison, bool)
                                  or not 1 <= poison <= 9):
        raise InputError(f"a poison shot needs the Poison card's value (1-9), not {poison!r}")
    rolls = event.get("portal", [])
    if parsed.name == "portal-trap" and (
            not isinstance(rolls, list) or len(rolls) != len(targets)
            or not all(isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= 12
                       for r in rolls)):
        raise InputError(f"the Portal Trap needs one D12 (1-12) per piece hit, not {rolls!r}")
    vulnerabilities = option("monster-vulnerabilities") == "on"
    last = event.get("last_damaged", [])  # chain: what the hero's previous shot damaged
    if not isinstance(last, list) or not all(isinstance(t, str) for t in last):
        raise InputError(f"last_damaged is a list of piece ids, not {last!r}")
    lines: list[str] = []
    if parsed.name == "dagger":
        thrower = "2 damage, thrown by a Catacomb hero" if _catacomb(attacker) else \
            "1 damage, no Catacomb hero named"
        lines.append(f"dagger: {thrower} ({cite('dagger-hero')}); the thrower now performs "
                     f"move to rune")
    for index, target_id in enumerate(targets):
        target = _target(battle, target_id)
        spec = monsters.get(target.monster) if target.monster else None
        shot = HeroShot(parsed.name, modifiers, _catacomb(attacker),
                        poison if isinstance(poison, int) else None,
                        rolls[index] if parsed.name == "portal-trap" else None,
                        vulnerabilities, target_id in last)
        out = resolve(shot, target, spec, modified=index == 0)
        after = health_after(target, out)
        said = disc_line(target, out, spec)
        lines.append(f"{target.label}: " + "; ".join([*out.lines, *([said] if said else [])]))
        if after is not None and after <= 0:
            why = f"killed by {attacker.id}" if attacker is not None else "dead"
            battle = _free_devoured(battle.without(target.id, why), target, lines)
            continue
        kept = replace(target, health=after if after is not None else target.health,
                       conditions=target.conditions | out.gains)
        battle = battle.with_piece(kept)
        if attacker is not None and (out.reflected or out.heal_attacker):
            battle = _attacker_change(battle, attacker.id, out.heal_attacker - out.reflected,
                                      lines)
    if event.get("trilithon") is True:
        lines.append(trilithon_reshot(parsed.name))
    return battle, lines


def _catacomb(attacker: Piece | None) -> bool:
    """Ruling 48: a hero piece named with `by` is a Catacomb hero in a Catacombs 3E battle."""
    return attacker is not None and attacker.kind == "hero"


def _target(battle: Battle, target_id: str) -> Piece:
    target = battle.get(target_id)
    if target is None or target.side not in ("ai", "neutral"):  # a wild wyvern can be hit
        ids = ", ".join(p.id for p in battle.on_table() if p.side in ("ai", "neutral"))
        raise InputError(f"no AI or neutral piece {target_id!r} in play (those pieces: {ids})")
    if not battle.placed(target):  # `in battle.on_table()`, by identity first
        raise InputError(f"{target_id} is on the Teleported! or Devoured! card: it cannot be "
                         f"hit")
    return target


def _attacker_change(battle: Battle, hero_id: str, change: int, lines: list[str]) -> Battle:
    """Reflected damage hurts the hero who shot; regeneration heals it up to its starting
    health."""
    hero = battle.piece(hero_id)
    if hero.health is None or change == 0:
        return battle
    health = hero.health + change
    if hero.starting_health is not None:
        health = min(health, hero.starting_health)
    if health <= 0:
        lines.append(f"{hero.label} dies of the reflected damage")
        return battle.without(hero_id, "dead")
    lines.append(f"{hero.label}: health {health}")
    return battle.with_piece(replace(hero, health=health))


def _free_devoured(battle: Battle, devourer: Piece, lines: list[str]) -> Battle:
    """Devoured characters are released when the devouring monster dies: back where it died.
    The log does not say whom a monster devoured: a dying devourer frees the devoured heroes
    when no other AI piece in play could have devoured them."""
    if "devour" not in _shot_words(devourer):
        return battle
    for piece in battle.pieces:
        if piece.side == "heroes" and "devoured" in piece.conditions and not any(
                p.side == "ai" and "devour" in _shot_words(p) for p in battle.on_table()):
            battle = battle.with_piece(replace(piece.moved(devourer.at),
                                               conditions=piece.conditions - {"devoured"}))
            lines.append(f"{piece.label} is freed from the Devoured! card where "
                         f"{devourer.label} died")
    return battle


def _shot_words(piece: Piece) -> set[str]:
    return {s.name for seq in piece.sequences for s in seq.shots} | \
        {m.name for seq in piece.sequences for s in seq.shots for m in s.modifiers}


USE_PERIODS = ("room", "game")


def apply_used_event(battle: Battle, event: Event) -> Battle:
    """A hero used an Ability, Item or Spell card (`{"type": "used", "piece": HERO, "card":
    NAME, "per": "room"|"game"}`). "A once-per-room box (Ability cards, items) is used at the
    player's choice, then the card is flipped and refreshed in the next Setup Phase. A
    once-per-game box (Spells, items) is discarded after use." (catacombs-facts.md 1.8): a card
    is used once in a room; a once-per-game card once in the game (the campaign logs the cards
    spent in earlier rooms at the start of each room's battle)."""
    piece_id = _piece_id(battle, event)
    piece = battle.piece(piece_id)
    card, per = event.get("card"), event.get("per")
    if piece.side != "heroes":
        raise InputError(f"{piece_id} is not one of the heroes: only their cards are used")
    if not isinstance(card, str) or not card.strip() or len(card) > 60:
        raise InputError(f"a used card needs its name, not {card!r}")
    if per not in USE_PERIODS:
        raise InputError(f"a card is used once per room or per game, not {per!r}")
    spent = next((entry for entry in piece.used if entry.split(" (")[0] == card), None)
    if spent is not None:
        raise InputError(f"{piece_id} already used {card} this game: the card is discarded"
                         if spent.endswith(" (game)") else
                         f"{piece_id} already used {card} in this room: the card is flipped "
                         f"until the next Setup Phase")
    return battle.with_piece(replace(piece, used=(*piece.used, f"{card} ({per})")))
