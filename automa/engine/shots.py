"""Performing one AI shot: rush, contact shots with the Attack template, ranged shots, tokens."""

from __future__ import annotations

import math
from collections.abc import Callable

from msgspec import Struct, field
from msgspec.structs import replace
from shapely.geometry import LineString, Point

from automa.engine.battle import Battle, StepLog, Table
from automa.engine.movement import push, rush_toward, to_random_rune
from automa.engine.parts import (
    aim_piece,
    character_of,
    keep_together,
    leave_play,
    note_part_hit,
    onto_card,
)
from automa.engine.steps import (
    AttackStep,
    DamageStep,
    DiscardStep,
    EffectStep,
    HealEffect,
    MoveStep,
    NoteStep,
    RollStep,
    TokenStep,
)
from automa.errors import RulesError
from automa.geometry.sight import CORRIDOR_WIDTH
from automa.geometry.table import edge_distance
from automa.geometry.templates import attack_cover
from automa.model.components import DamageToken
from automa.model.monsters import EffectSpec
from automa.model.pieces import Colour, Condition, Kind, Piece
from automa.model.provenance import Provenance
from automa.model.shots import ModifierName, Shot, ShotName
from automa.rules.rulings import RulingKey
from automa.rules.tokens import (
    discard,
    draw,
    level_reading,
    pour_back,
    refill_if_empty,
    token_levels,
)
from automa.rules.yilleph import flip_line, flipped, flips

TARGET_TILE_RETRIES = 24
KEPT_TARGET = ("the Active Target is kept for the whole sequence: out of play, it leaves the "
               "later shots that need it without a target")
FRIEND_SHOT = "aimed at a friend, the AI makes its rushes toward it and no damaging shot at it"


class ShotContext(Struct):
    """One activation's actor and Active Target, and what the shots ask the turn to do next."""

    actor: str
    target: str | None
    friendly: bool = False  # advanced targeting aimed at a teammate or a wild wyvern
    in_repeat: bool = False  # this turn was given by a repeat shot
    summoned: list[str] = field(default_factory=list)
    repeat: str | None = None
    stop: bool = False  # the sequence ends (the actor left the mat)


Drawn = tuple[tuple[int, DamageToken], ...]  # (level, token) in hand, in the order drawn


def draw_tokens(table: Table, battle: Battle, log: StepLog, shot: Shot) -> tuple[Battle, Drawn]:
    """Every token of the shot, drawn into the hand before any is resolved (docs/rulings.md 18):
    a token in hand is in neither bag nor pile, so it cannot come out twice in one shot."""
    levels = token_levels(shot)
    if log.loud and (reading := level_reading(shot)) is not None:
        log.ruling(RulingKey.TOKEN_LEVELS, reading)
    for level in sorted(set(levels)):
        bag, needed = battle.bags[level], levels.count(level)
        if len(bag.tokens) + len(bag.discard) < needed:
            raise RulesError(f"a {shot.notation()} draws {needed} level {level} tokens, but the "
                             f"level {level} bag and discard pile hold "
                             f"{len(bag.tokens) + len(bag.discard)}")
    drawn: Drawn = ()
    for number, level in enumerate(levels, start=1):
        bag, refilled = refill_if_empty(battle.bags[level])
        hand = tuple(t for lvl, t in drawn if lvl == level)
        token = table.chance.token(level, bag, f"{shot.notation()} damage" if log.loud else "",
                                   hand, log)
        battle = battle.with_bag(level, draw(bag, (token,)))
        if log.loud:
            log.add(TokenStep(level, token.value, token.reset, refilled, number, len(levels)))
        drawn = (*drawn, (level, token))
    return battle, drawn


def discard_tokens(table: Table, battle: Battle, log: StepLog, drawn: Drawn) -> Battle:
    """The shot is resolved: its tokens go onto the discard pile, and a reset icon among them
    then returns the whole pile, these tokens included, to the bag (ruling 18; ruling 44 for
    several tokens)."""
    for level in dict.fromkeys(lvl for lvl, _ in drawn):
        hand = tuple(t for lvl, t in drawn if lvl == level)
        reset = any(t.reset for t in hand)
        bag = discard(battle.bags[level], hand)
        battle = battle.with_bag(level, bag)
        if len(hand) > 1 and reset:
            log.ruling(RulingKey.RESET_TIMING,
                       "a reset icon among a shot's several tokens returns the "
                       "discard pile once the whole shot is resolved and its "
                       "tokens discarded, so they go back into the bag too")
        if log.loud and (len(drawn) > 1 or reset):
            log.add(DiscardStep(level, tuple(t.label() for t in hand), reset, len(bag.tokens),
                                len(bag.discard)))
        if reset:
            battle = _reset_others(table, battle, log, level)
    return battle


def _reset_others(table: Table, battle: Battle, log: StepLog, level: int) -> Battle:
    """Ruling 18: a reset returns its own level's discard pile, or every level's."""
    if table.option(RulingKey.RESET_SCOPE) == "own-level":
        log.ruling(RulingKey.RESET_SCOPE, f"the reset returns the level {level} discard pile only")
        return battle
    log.ruling(RulingKey.RESET_SCOPE, "the reset returns every level's discard pile (your table's "
                                      "reading)")
    for other, bag in battle.bags.items():
        if other != level and bag.discard:
            battle = battle.with_bag(other, pour_back(bag))
    return battle


def damage(battle: Battle, log: StepLog, struck_id: str, amount: int) -> Battle:
    """`amount` damage from a hit on the piece `struck_id`: its character loses the health (a
    part's owner, ruling 27), unless the piece struck is invulnerable (`unharmed`) or the
    character has no health track."""
    if unharmed(battle, log, struck_id):
        return battle
    piece_id = character_of(battle, struck_id)
    piece = battle.piece(piece_id)
    if piece.health is None:
        log.add(NoteStep(f"{piece.label} is invulnerable: no damage, but the hit still counts"))
        return battle
    after = max(0, piece.health - amount)
    died = after == 0
    if log.loud:
        log.add(DamageStep(piece_id, amount, piece.health, after, died))
    if died:
        return leave_play(battle, log, piece_id, "dead")
    return battle.with_piece(piece.altered(health=after))


def unharmed(battle: Battle, log: StepLog, struck_id: str) -> bool:
    """An invulnerable piece struck (the white Yilleph, l.326) takes no damage, and neither
    does the character it is part of: the hit still counts (it pushes, it flips a Yilleph)."""
    struck = battle.piece(struck_id)
    if not struck.invulnerable:
        return False
    owner = battle.get(struck.part_of) if struck.part_of is not None else None
    whole = f" or to {owner.label}, the piece it is part of" if owner is not None else ""
    log.ruling(RulingKey.PARTS, f"{struck.label} is invulnerable: never damaged")
    if owner is not None:
        log.ruling(RulingKey.PARTS, f"a hit on an invulnerable part damages its owner no more "
                                    f"than itself: {owner.label} takes none")
    log.add(NoteStep(f"{struck.label} is invulnerable: no damage to it{whole}, but the hit "
                     f"still counts"))
    return True


def apply_modifiers(table: Table, battle: Battle, log: StepLog, ctx: ShotContext, shot: Shot,
                    target_id: str, amount: int) -> Battle:
    """The effects of a hit's modifiers on the target, read from data/effects.toml."""
    for modifier in shot.modifiers:
        target = battle.get(target_id)
        spec = table.catalog.effects[modifier.name]
        if target is None or spec.effect == "ignored":
            continue
        if spec.provenance == Provenance.HOUSE:
            key = EFFECT_RULINGS.get(modifier.name, RulingKey.EFFECTS_DATA)
            log.ruling(key, EFFECT_SAID.get(key, f"the {modifier.name} modifier's effect is ours"))
        if spec.effect == "note":
            log.add(NoteStep(_effect_text(battle, spec, ctx, target, modifier.count, amount)))
            continue
        if spec.needs_damage and amount <= 0:
            log.add(NoteStep(f"{modifier.name}: no damage was done, so no effect"))
            continue
        if target.kind not in spec.kinds:
            log.add(NoteStep(f"{modifier.name}: {target.label} ({target.kind}) is immune"))
            continue
        text = _effect_text(battle, spec, ctx, target, modifier.count, amount)
        battle = EFFECTS[spec.effect](battle, log, ctx, target, modifier.count, text)
    return battle


def _effect_text(battle: Battle, spec: EffectSpec, ctx: ShotContext, target: Piece, count: int,
                 amount: int) -> str:
    attacker = battle.get(ctx.actor)
    return spec.said(target.label, attacker.label if attacker else ctx.actor, count, amount)


Effect = Callable[[Battle, StepLog, ShotContext, Piece, int, str], Battle]
# a house effect that a ruling of its own reads (else ruling 29, the effects as data)
EFFECT_RULINGS = {ModifierName.REGENERATION: RulingKey.REGENERATION,
                  ModifierName.TRANSFORM: RulingKey.TRANSFORM}
EFFECT_SAID = {RulingKey.REGENERATION: "the attacker heals 1 when its shot damages, up to its "
                                       "starting health",
               RulingKey.TRANSFORM: "the AI never flips a piece into a fire wall"}


def _poison_cards(battle: Battle, log: StepLog, ctx: ShotContext, target: Piece, count: int,
                  text: str) -> Battle:
    log.add(EffectStep(target.id, "poison", text))
    poisoned = target.altered(poison=target.poison + count)
    if poisoned.starting_health is not None and poisoned.poison >= poisoned.starting_health:
        log.ruling(RulingKey.DEVOUR_POISON,
                   f"{target.label}'s Poison cards reach its starting health: it dies at once")
        log.add(EffectStep(target.id, "dies", f"{target.label}'s Poison cards reach its starting "
                                              f"health ({poisoned.starting_health}): it dies"))
        return leave_play(battle, log, target.id, "dead")
    return battle.with_piece(poisoned)


def _gains(condition: Condition, effect: str) -> Effect:
    """An effect that puts the target under a condition (a Stunned! card, the Devoured! card)."""
    def apply(battle: Battle, log: StepLog, ctx: ShotContext, target: Piece, count: int,
              text: str) -> Battle:
        log.add(EffectStep(target.id, effect, text))
        return battle.with_piece(replace(target, conditions=target.conditions | {condition}))
    return apply


def _devoured(battle: Battle, log: StepLog, ctx: ShotContext, target: Piece, count: int,
              text: str) -> Battle:
    """The target goes onto the Devoured! card, with every part of it."""
    log.add(EffectStep(target.id, "devour", text))
    return onto_card(battle, log, target.id, Condition.DEVOURED)


def _lose_gold(battle: Battle, log: StepLog, ctx: ShotContext, target: Piece, count: int,
               text: str) -> Battle:
    if target.gold <= 0:
        log.add(NoteStep(f"capture coin: {target.label} has no gold, so no effect"))
        return battle
    log.add(EffectStep(target.id, "capture-coin", text))
    return battle.with_piece(replace(target, gold=max(0, target.gold - count)))


def _corrode(battle: Battle, log: StepLog, ctx: ShotContext, target: Piece, count: int,
             text: str) -> Battle:
    if target.items > 0:
        log.add(EffectStep(target.id, "corrosion", text))
        return battle.with_piece(replace(target, items=target.items - 1))
    if target.gold > 0:
        lost = min(3, target.gold)
        log.add(EffectStep(target.id, "corrosion",
                           f"{target.label} has no items: loses {lost} gold"))
        return battle.with_piece(replace(target, gold=target.gold - lost))
    log.add(NoteStep(f"corrosion: {target.label} has neither items nor gold, so no effect"))
    return battle


def _dies(battle: Battle, log: StepLog, ctx: ShotContext, target: Piece, count: int,
          text: str) -> Battle:
    log.add(EffectStep(target.id, "petrify", text))
    return leave_play(battle, log, target.id, "dead")


def _heal_attacker(battle: Battle, log: StepLog, ctx: ShotContext, target: Piece, count: int,
                   text: str) -> Battle:
    attacker = battle.get(ctx.actor)
    if attacker is None or attacker.health is None:
        return battle
    if attacker.starting_health is not None and attacker.health >= attacker.starting_health:
        log.add(NoteStep(f"regeneration: {attacker.label} is at full health"))
        return battle
    log.add(HealEffect(attacker.id, "regeneration", text, count,
                       attacker.health + count))
    return battle.with_piece(replace(attacker, health=attacker.health + count))


EFFECTS: dict[str, Effect] = {
    "poison-cards": _poison_cards,
    "stunned-card": _gains(Condition.STUNNED, "stun"),
    "lose-gold": _lose_gold,
    "destroy-item-or-gold": _corrode,
    "dies": _dies,
    "devoured": _devoured,
    "heal-attacker": _heal_attacker,
}


def resolve_hit(table: Table, battle: Battle, log: StepLog, ctx: ShotContext, shot: Shot,
                target_id: str) -> Battle:
    """Draw all the shot's tokens; a zero is a miss. A hit then does what the shot does: most
    shots damage, apply their modifiers and push; some replace that (see ON_HIT). Then the
    tokens are discarded (and a reset icon returns the pile). `target_id` is the piece struck:
    a part (Ulom's claw) passes the hit to its owner."""
    battle, drawn = draw_tokens(table, battle, log, shot)
    tokens = [t for _, t in drawn]
    if any(t.value == 0 for t in tokens):
        struck = False
        if len(tokens) > 1:
            battle, struck = _partly_zero(table, battle, log, tokens, target_id)
        else:
            log.add(NoteStep("a zero: the shot misses (no damage, no effect, no push)"))
        battle = discard_tokens(table, battle, log, drawn)
        return flip_when_hit(table, battle, log, target_id) if struck else battle
    note_part_hit(battle, log, target_id)
    amount = sum(t.value for t in tokens)
    on_hit = ON_HIT.get(shot.name, _damage_and_push)
    battle = on_hit(table, battle, log, ctx, shot, target_id, amount)
    battle = discard_tokens(table, battle, log, drawn)
    return flip_when_hit(table, battle, log, target_id)


def flip_when_hit(table: Table, battle: Battle, log: StepLog, struck_id: str) -> Battle:
    """A Yilleph piece the shot hit flips over once the hit is resolved, damage and push
    (l.330-332, ruling 67): flipped to white, the players perform its single rush shot now;
    flipped to black, the AI rolls the Rune Die and moves it to a random rune."""
    piece = battle.get(struck_id)
    if piece is None or not flips(piece) or not battle.placed(piece):
        return battle  # no Yilleph, or it died of the hit (its pieces left play)
    turned = flipped(piece)
    battle = battle.with_piece(turned)
    log.ruling(RulingKey.YILLEPH_FLIP,
               "a Yilleph piece hit by the AI's shot (no zero drawn) flips once the hit is "
               "resolved, after the damage and the push")
    if turned.colour == Colour.WHITE:
        log.add(EffectStep(piece.id, "flip", f"{flip_line(piece)} (then `move {piece.id} ...` "
                                             f"where it stops)"))
        return battle
    log.add(EffectStep(piece.id, "flip", f"{flip_line(piece)}: the AI rolls the Rune Die"))
    return to_random_rune(table, battle, log, piece.id, "flipped to black: move to random rune")


def _partly_zero(table: Table, battle: Battle, log: StepLog, tokens: list[DamageToken],
                 target_id: str) -> tuple[Battle, bool]:
    """Several tokens, a zero among them (the boulder): ruling 17 reads the zero as a miss of
    the whole shot, or lets the other tokens' damage stand (no push, no effect). Whether the
    piece was hit after all."""
    amount = sum(t.value for t in tokens)
    if table.option(RulingKey.BOULDER_ZERO) == "miss" or amount == 0:
        log.ruling(RulingKey.BOULDER_ZERO,
                   "one zero among the shot's tokens: the whole shot misses")
        log.add(NoteStep("a zero: the shot misses (no damage, no effect, no push)"))
        return battle, False
    log.ruling(RulingKey.BOULDER_ZERO,
               "a zero among the shot's tokens: the others' damage stands, no "
               "push (your table's reading)")
    log.add(NoteStep(f"a zero among the tokens: {amount} damage, no effect, no push"))
    return damage(battle, log, target_id, amount), True


def _damage_and_push(table: Table, battle: Battle, log: StepLog, ctx: ShotContext, shot: Shot,
                     target_id: str, amount: int) -> Battle:
    """The character takes the damage and the effects; the piece struck is pushed."""
    character = character_of(battle, target_id)
    if unharmed(battle, log, target_id) or spared_by_ice(table, log, battle.piece(character)):
        amount = 0  # no damage done: no effect that needs it
    else:
        battle = damage(battle, log, target_id, amount)
    battle = apply_modifiers(table, battle, log, ctx, shot, character, amount)
    if shot.name == ShotName.DEVOUR:
        battle = _devour_shot(table, battle, log, ctx, character, amount)
    if character != target_id:
        owner = battle.get(character)
        if owner is None or not battle.placed(owner):
            return battle  # dead (the part left play with it) or on the Devoured! card
        log.ruling(RulingKey.PART_PUSH,
                   "a hit on a part of a character (Ulom's claw) pushes that piece, "
                   "the one struck; the character takes the damage and the effects")
    return push(table, battle, log, target_id)


def spared_by_ice(table: Table, log: StepLog, target: Piece) -> bool:
    """A frozen character "cannot be damaged" (the base game's ice rule; ruling 39)."""
    if Condition.FROZEN not in target.conditions:
        return False
    rule = table.option(RulingKey.FROZEN_HERO)
    log.ruling(RulingKey.FROZEN_HERO, f"{target.label} is frozen: "
                              + ("it cannot be damaged" if rule == "no-damage"
                                 else "damaged all the same (your table's reading)"))
    if rule == "no-damage":
        log.add(NoteStep(f"{target.label} is frozen: no damage, and no effect that needs damage"))
        return True
    return False


def _dagger(table: Table, battle: Battle, log: StepLog, ctx: ShotContext, shot: Shot,
            target_id: str, amount: int) -> Battle:
    """The dagger: "after inflicting damage", the thrower moves to a random rune."""
    battle = _damage_and_push(table, battle, log, ctx, shot, target_id, amount)
    return to_random_rune(table, battle, log, ctx.actor, "dagger: move to random rune")


def _freeze(table: Table, battle: Battle, log: StepLog, ctx: ShotContext, shot: Shot,
            target_id: str, amount: int) -> Battle:
    """Ice: the character is frozen instead of damaged; the piece struck is pushed (ruling 20)."""
    struck, target_id = target_id, character_of(battle, target_id)
    target = battle.piece(target_id)
    log.add(EffectStep(target_id, "frozen",
                       f"put the ice piece on {target.label}: frozen until it is knocked off"))
    battle = battle.with_piece(replace(target, conditions=target.conditions | {Condition.FROZEN}))
    if table.option(RulingKey.ICE_PUSH) == "no-push":
        log.ruling(RulingKey.ICE_PUSH,
                   "an ice hit freezes instead of damaging and the frozen target is "
                   "not pushed (your table's reading)")
        return battle
    log.ruling(RulingKey.ICE_PUSH,
               "an ice hit freezes instead of damaging; no zero was drawn, so the "
               "frozen target is pushed too, the ice piece on it")
    return push(table, battle, log, struck)


def _devour_shot(table: Table, battle: Battle, log: StepLog, ctx: ShotContext, target_id: str,
                 amount: int) -> Battle:
    """The devour shot: the damage, then a survivor goes onto the Devoured! card."""
    target = battle.get(target_id)
    spec = table.catalog.effects[ModifierName.DEVOUR]
    if target is None:
        return battle
    if target.kind not in spec.kinds:
        log.add(NoteStep(f"devour: {target.label} ({target.kind}) cannot be devoured"))
        return battle
    log.ruling(RulingKey.DEVOUR_POISON,
               f"the devour shot dealt its token's damage; {target.label} survives and goes "
               f"onto the Devoured! card, not pushed")
    return _devoured(battle, log, ctx, target, 1,
                     _effect_text(battle, spec, ctx, target, 1, amount))


PORTAL_TRAP = {1: (1, "teleported"), 2: (2, "teleported"), 3: (3, "teleported"),
               4: (0, "may-rush"), 5: (0, "may-rush"), 12: (0, "hidden-cave")}


def _portal_trap(table: Table, battle: Battle, log: StepLog, ctx: ShotContext, shot: Shot,
                 target_id: str, amount: int) -> Battle:
    """A character hit by the portal trap rolls the D12 on the portal table, which decides the
    damage and the move (the token only decided the hit; no push)."""
    struck, target_id = target_id, character_of(battle, target_id)
    target = battle.get(target_id)
    if target is None:
        return battle
    log.ruling(RulingKey.PORTAL_TRAP,
               "the token decided the hit; the D12 portal table replaces the push")
    face = table.chance.d12(f"portal trap on {target.label}", log)
    loss, result = PORTAL_TRAP.get(face, (2, "random-rune"))
    log.add(RollStep("d12", face, "portal trap", {
        "teleported": f"{loss} damage, then the Teleported! card",
        "may-rush": "no damage; the character may make a rush shot",
        "random-rune": "2 damage, then moved to a random rune",
        "hidden-cave": "no damage; onto the Hidden Cave card or a free rune of their choice",
    }[result]))
    if loss:
        battle = damage(battle, log, struck, loss)
    target = battle.get(target_id)
    if target is None:
        return battle
    if result == "teleported":
        log.add(EffectStep(target_id, "teleported", f"put {target.label} on the Teleported! card"))
        return onto_card(battle, log, target_id, Condition.TELEPORTED)
    if result == "random-rune":
        moved = to_random_rune(table, battle, log, target_id, "portal trap: random rune")
        return keep_together(table, battle, moved, log, target_id)
    if result == "hidden-cave":
        log.add(NoteStep(f"{target.label}'s players put it on the Hidden Cave card or a free "
                         f"rune of their choice (then correct its position); on the Hidden Cave "
                         f"card a hero fights the Kraken from the AI's prompt in `automa play`: "
                         f"`cave {target.id} SHOTS portal`"))
    else:
        log.add(NoteStep(f"{target.label}'s players may make a rush shot with it now"))
    return battle


def contact_shot(table: Table, battle: Battle, log: StepLog, ctx: ShotContext,
                 shot: Shot) -> Battle:
    """Melee, bite, roll, sword, devour: rush, then the Attack template must cover the target."""
    if not _target_on_table(battle, log, ctx):
        return battle
    assert ctx.target is not None
    aim = aim_piece(table, battle, ctx.actor, ctx.target)
    battle = rush_toward(table, battle, log, ctx.actor, aim,
                         why=f"{shot.name}: rush" if log.loud else "")
    if ctx.friendly:
        log.ruling(RulingKey.FRIENDLY_TARGET, FRIEND_SHOT)
        log.add(NoteStep(f"no {shot.name} at a friend: only the rush counts"))
        return reach_friend(battle, log, ctx)
    actor, target = battle.piece(ctx.actor), battle.piece(aim)
    if Condition.ALOFT in target.conditions:
        log.ruling(RulingKey.STUN_AND_ALOFT,
                   "a piece on top of an obstacle is safe from the Attack template")
        log.add(NoteStep(f"{target.label} stands on top of an obstacle: safe from the Attack "
                         f"template"))
        return battle
    template = table.catalog.components.attack
    cover = attack_cover(template, table.scenario.templates.attack_radius, actor, target)
    if table.quiet:  # nobody is asked, nothing is said
        return resolve_hit(table, battle, log, ctx, shot, aim) if cover.covers else battle
    covers = table.judge.confirm(f"Centre the Attack template on {actor.label}: does it cover "
                                 f"{target.label}, even partly?", cover.covers, cover.margin,
                                 log)
    told = table.judge.last_asked  # the players answered: no margin backs it
    if covers != cover.covers:  # the players saw it otherwise
        cover = replace(cover, covers=covers)
    close = not told and cover.margin < table.close_call
    if close:
        log.close_calls.append(f"Attack template on {actor.label} vs {target.label}: "
                               f"{cover.margin:.1f} cm from the other answer; check it")
    log.add(AttackStep(ctx.actor, aim, cover.covers, cover.margin, close, measured=not told))
    if log.explaining:
        covered = "covered" if cover.covers else "not covered"
        if told:
            log.explain(f"Attack template on {actor.label}: {target.label} {covered}, as the "
                        f"table answered")
        else:
            log.explain(f"Attack template ({table.scenario.templates.attack_radius:g} cm) on "
                        f"{actor.label}: {target.label} is {edge_distance(actor, target):.2f} "
                        f"cm away edge to edge; {covered} by {cover.margin:.2f} cm")
    if not cover.covers:
        return battle
    return resolve_hit(table, battle, log, ctx, shot, aim)


def ranged_shot(table: Table, battle: Battle, log: StepLog, ctx: ShotContext,
                shot: Shot) -> Battle:
    """A ranged shot needs no template: the Active Target is hit unless a token says zero."""
    if shot.name == ShotName.TARGET:
        return target_ranged_shot(table, battle, log, ctx, shot)
    if not _target_on_table(battle, log, ctx):
        return battle
    assert ctx.target is not None
    if ctx.friendly:
        log.ruling(RulingKey.FRIENDLY_TARGET, FRIEND_SHOT)
        log.add(NoteStep(f"no {shot.name} at a friend: the shot is not made"))
        return battle
    if shot.name == ShotName.BOOMERANG:
        return _boomerang(table, battle, log, ctx, shot)
    return resolve_hit(table, battle, log, ctx, shot, aim_piece(table, battle, ctx.actor,
                                                                 ctx.target))


def _boomerang(table: Table, battle: Battle, log: StepLog, ctx: ShotContext,
               shot: Shot) -> Battle:
    """Boomerang: it flies at the Active Target and lands where the target stood; the thrower
    rushes; Ruler 3 laid from the boomerang toward the thrower hits every enemy beneath it."""
    assert ctx.target is not None
    aim = aim_piece(table, battle, ctx.actor, ctx.target)
    landing, struck_name = battle.piece(aim).at, battle.piece(aim).label
    log.ruling(RulingKey.BOOMERANG,
               "the AI's boomerang lands where its target stood, and each enemy "
               "beneath the returning Ruler 3 is hit by a level 1 token")
    battle = resolve_hit(table, battle, log, ctx, shot, aim)
    log.add(NoteStep(f"leave the boomerang on the spot where {struck_name} stood when it was hit"
                     if table.judge.asked else
                     f"leave the boomerang at ({landing[0]:.1f}, {landing[1]:.1f})"))
    if battle.get(ctx.target) is not None:
        battle = rush_toward(table, battle, log, ctx.actor,
                             aim_piece(table, battle, ctx.actor, ctx.target),
                             why="boomerang: rush")
    thrower = battle.piece(ctx.actor)
    dx, dy = thrower.at[0] - landing[0], thrower.at[1] - landing[1]
    norm = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    reach = table.ruler(3)
    end = (landing[0] + dx / norm * reach, landing[1] + dy / norm * reach)
    ruler = LineString([landing, end]).buffer(CORRIDOR_WIDTH / 2, cap_style="flat")
    under = [p for p in battle.enemies_of_ai()
             if ruler.intersects(Point(p.at).buffer(p.radius, quad_segs=16))]
    if table.judge.asked:  # no positions: the players lay the ruler and say who is beneath
        under = _beneath_the_ruler(table, battle, log, thrower, under)
    struck: dict[str, str] = {}  # character -> its piece beneath (its own piece first)
    for p in under:
        if Condition.ALOFT in p.conditions:
            continue
        character = character_of(battle, p.id)
        if character not in struck or p.id == character:
            struck[character] = p.id
    beneath = list(struck.values())
    lay = "" if table.judge.asked else (f"lay Ruler 3 with one end over the boomerang, "
                                        f"pointing at the centre of {thrower.label}: ")
    log.add(NoteStep(f"{lay}beneath it " + (", ".join(p.label for p in under) if under
                                            else "nobody")))
    for aloft in (p for p in under if Condition.ALOFT in p.conditions):
        log.ruling(RulingKey.STUN_AND_ALOFT,
                   "a piece on top of an obstacle is safe from a ruler laid over it")
        log.add(NoteStep(f"{aloft.label} stands on top of an obstacle: safe from the ruler"))
    for enemy_id in beneath:
        if battle.get(enemy_id) is not None:
            battle = resolve_hit(table, battle, log, ctx, Shot(ShotName.BOOMERANG), enemy_id)
    return battle


def _beneath_the_ruler(table: Table, battle: Battle, log: StepLog, thrower: Piece,
                       computed: list[Piece]) -> list[Piece]:
    """Asked geometry: the instruction first, then one question per enemy on the mat."""
    log.add(NoteStep(f"lay Ruler 3 with one end over the boomerang, pointing at the centre of "
                     f"{thrower.label}"))
    return [p for p in battle.enemies_of_ai()
            if table.judge.confirm(f"Is {p.label} beneath Ruler 3 (laid from the boomerang "
                                   f"toward {thrower.label}), even partly?", p in computed,
                                   math.inf, log)]


def target_ranged_shot(table: Table, battle: Battle, log: StepLog, ctx: ShotContext,
                       shot: Shot) -> Battle:
    """The Hero Target tile picks the target (D12), and it must be within Ruler 3."""
    tiles = table.scenario.tiles.hero_targets
    bands = table.catalog.components.hero_target_bands
    alive = {p.id for p in battle.enemies_of_ai()}
    if "hero-target" in table.catalog.components.placeholders:
        log.ruling(RulingKey.HERO_TARGET_REROLL,
                   "the Hero Target tiles answer to D12 bands "
                   + ", ".join(f"{low}-{high}" for _, (low, high) in sorted(bands.items())))
    for _ in range(TARGET_TILE_RETRIES):
        face = table.chance.d12("Hero Target tile", log)
        tile = next(t for t, (low, high) in bands.items() if low <= face <= high)
        hero = next((h for h, t in tiles.items() if t == tile and h in alive), None)
        log.add(RollStep("d12", face, "Hero Target tile",
                         f"tile {tile} -> {hero}" if hero else f"tile {tile}: nobody; roll again"))
        if hero is not None:
            break
        holder = next((h for h, t in tiles.items() if t == tile), None)
        if holder is None:
            log.ruling(RulingKey.HERO_TARGET_REROLL,
                       "a roll on a Hero Target tile no hero holds is rolled again")
        else:
            log.ruling(RulingKey.ABSENT_HERO_TILE,
                       f"the tile of {holder}, who is not on the mat, is rolled again")
    else:
        log.add(NoteStep("no Hero Target tile belongs to a hero in play: the shot is lost"))
        return battle
    actor = battle.piece(ctx.actor)
    target = battle.piece(aim_piece(table, battle, ctx.actor, hero, by_sight=False))
    if target.id != hero:
        log.ruling(RulingKey.PARTS, f"the range to {battle.piece(hero).label} is measured to "
                                    f"{target.label}, its nearer piece")
    reach = table.ruler(3)
    gap = edge_distance(actor, target)
    if table.quiet:  # nobody is asked, nothing is said
        return resolve_hit(table, battle, log, ctx, shot, target.id) if gap <= reach else battle
    log.add(NoteStep(f"lay Ruler 3 from {actor.label}'s edge pointing at the centre of "
                     f"{target.label}"))
    in_range = table.judge.confirm(f"Is {target.label} within Ruler 3 of {actor.label}?",
                                   gap <= reach, abs(gap - reach), log)
    told = table.judge.last_asked  # the players measured: no distance backs it
    if not told and abs(gap - reach) < table.close_call:
        log.close_calls.append(f"Ruler 3 range to {target.label}: {gap:.1f} cm; check it")
    away = "" if told else f" ({gap:.1f} cm away)"
    if not in_range:
        log.add(NoteStep(f"it does not reach {target.label}{away}: the shot misses"))
        return battle
    log.add(NoteStep(f"it reaches {target.label}{away}: in range"))
    return resolve_hit(table, battle, log, ctx, shot, target.id)


def reach_friend(battle: Battle, log: StepLog, ctx: ShotContext) -> Battle:
    """Touching a frozen teammate knocks the ice off; touching a wild wyvern mounts it."""
    if ctx.target is None:
        return battle
    actor, friend = battle.get(ctx.actor), battle.get(ctx.target)
    if actor is None or friend is None or edge_distance(actor, friend) > 0.01:
        return battle
    if Condition.FROZEN in friend.conditions:
        log.ruling(RulingKey.FRIENDLY_TARGET, "reaching a frozen teammate knocks the ice off")
        log.add(EffectStep(friend.id, "freed", f"remove the ice piece: {friend.label} is free"))
        return battle.with_piece(replace(friend, conditions=friend.conditions - {Condition.FROZEN}))
    if friend.kind == Kind.WILD_WYVERN and Condition.RIDDEN not in friend.conditions:
        log.ruling(RulingKey.FRIENDLY_TARGET, "reaching a wild wyvern mounts it")
        log.add(EffectStep(actor.id, "riding", f"{actor.label} now rides the wild wyvern "
                                               f"{friend.label}"))
        log.add(MoveStep(actor.id, actor.at, friend.at, "ride the wild wyvern", "by hand",
                         f"on top of {friend.label}"))
        battle = battle.with_piece(replace(friend,
                                           conditions=friend.conditions | {Condition.RIDDEN}))
        return battle.with_piece(replace(actor, at=friend.at,
                                         conditions=actor.conditions | {Condition.RIDING}))
    return battle


def _target_on_table(battle: Battle, log: StepLog, ctx: ShotContext) -> bool:
    target = battle.get(ctx.target) if ctx.target else None
    if target is None or not battle.placed(target):
        who = ctx.target or "nobody"
        if ctx.target is not None:
            log.ruling(RulingKey.KEEP_TARGET, KEPT_TARGET)
        log.add(NoteStep(f"the Active Target ({who}) is out of play: the shot has no target"))
        return False
    return True


OnHit = Callable[[Table, Battle, StepLog, ShotContext, Shot, str, int], Battle]
ON_HIT: dict[ShotName, OnHit] = {ShotName.ICE: _freeze, ShotName.PORTAL_TRAP: _portal_trap,
                                 ShotName.DAGGER: _dagger}
