"""Performing one AI shot: rush, contact shots with the Attack template, ranged shots, tokens."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from automa.engine.battle import Battle, StepLog, Table
from automa.engine.movement import push, rush_toward, to_random_rune
from automa.engine.steps import AttackStep, DamageStep, EffectStep, NoteStep, RollStep, TokenStep
from automa.geometry.table import edge_distance
from automa.geometry.templates import attack_cover
from automa.model.components import DamageToken
from automa.model.shots import Shot
from automa.rules.tokens import refill_if_empty, take, token_levels

TARGET_TILE_RETRIES = 24


@dataclass
class ShotContext:
    """One activation's actor and Active Target, and what the shots ask the turn to do next."""

    actor: str
    target: str | None
    summoned: list[str] = field(default_factory=list)
    repeat: str | None = None
    stop: bool = False  # the sequence ends (the actor left the mat)


def draw_tokens(table: Table, battle: Battle, log: StepLog, shot: Shot
                ) -> tuple[Battle, list[DamageToken]]:
    drawn = []
    for level in token_levels(shot):
        bag, refilled = refill_if_empty(battle.bags[level])
        token = table.chance.token(level, bag, f"{shot.notation()} damage")
        result = take(bag, token)
        battle = battle.with_bag(level, result.bag)
        log.add(TokenStep(level, token.value, token.reset, refilled))
        drawn.append(token)
    return battle, drawn


def damage(battle: Battle, log: StepLog, piece_id: str, amount: int) -> Battle:
    piece = battle.piece(piece_id)
    if piece.health is None:
        log.add(NoteStep(f"{piece.label} cannot be damaged"))
        return battle
    after = max(0, piece.health - amount)
    died = after == 0
    log.add(DamageStep(piece_id, amount, piece.health, after, died))
    if died:
        return battle.without(piece_id, "dead")
    return battle.with_piece(replace(piece, health=after))


def apply_modifiers(table: Table, battle: Battle, log: StepLog, ctx: ShotContext, shot: Shot,
                    target_id: str, amount: int) -> Battle:
    """The effects of a hit's modifiers on the target, as the players carry them out."""
    for modifier in shot.modifiers:
        target = battle.get(target_id)
        if target is None:
            return battle
        name, count = modifier.name, modifier.count
        if name == "poison" and amount > 0 and target.kind == "hero":
            battle = battle.with_piece(replace(target, poison=target.poison + count))
            cards = "card" if count == 1 else "cards"
            log.add(EffectStep(target_id, "poison",
                               f"draw {count} Poison {cards} onto {target.label}'s board"))
        elif name == "stun" and target.kind in ("hero", "mount", "assistant"):
            battle = battle.with_piece(replace(target, conditions=target.conditions | {"stunned"}))
            log.add(EffectStep(target_id, "stun", f"give {target.label} a Stunned! card"))
        elif name == "capture-coin" and amount > 0:
            if target.gold > 0:
                battle = battle.with_piece(replace(target, gold=target.gold - 1))
                log.add(EffectStep(target_id, "capture-coin",
                                   f"{target.label} returns 1 gold to the Treasury"))
            else:
                log.add(NoteStep(f"capture coin: {target.label} has no gold"))
        elif name == "corrosion":
            battle = _corrode(battle, log, target_id)
        elif name == "petrify":
            log.add(EffectStep(target_id, "petrify", f"{target.label} is petrified and dies"))
            battle = battle.without(target_id, "dead")
        elif name == "devour":
            battle = battle.with_piece(replace(target, conditions=target.conditions | {"devoured"}))
            log.add(EffectStep(target_id, "devour",
                               f"put {target.label} on the Devoured! card"))
        elif name == "regeneration" and amount > 0:
            battle = _regenerate(battle, log, ctx.actor)
        elif name == "fear":
            log.add(NoteStep("fear: the random move is the push below"))
        elif name == "transform":
            log.house_rule("the AI never flips a piece into a fire wall (docs/rulings.md)")
            log.add(NoteStep("transform: the AI does not flip into a fire wall (house)"))
    return battle


def _corrode(battle: Battle, log: StepLog, target_id: str) -> Battle:
    target = battle.piece(target_id)
    if target.items > 0:
        log.add(EffectStep(target_id, "corrosion",
                           f"destroy one random Item card of {target.label} (and its pieces)"))
        return battle.with_piece(replace(target, items=target.items - 1))
    if target.gold > 0:
        lost = min(3, target.gold)
        log.add(EffectStep(target_id, "corrosion",
                           f"{target.label} has no items: loses {lost} gold"))
        return battle.with_piece(replace(target, gold=target.gold - lost))
    log.add(NoteStep(f"corrosion: {target.label} has neither items nor gold"))
    return battle


def _regenerate(battle: Battle, log: StepLog, actor_id: str) -> Battle:
    actor = battle.get(actor_id)
    if actor is None or actor.health is None:
        return battle
    if actor.starting_health is not None and actor.health >= actor.starting_health:
        return battle
    log.house_rule("regeneration heals the attacker 1 when its shot damages (docs/rulings.md)")
    log.add(EffectStep(actor_id, "regeneration", f"{actor.label} heals 1"))
    return battle.with_piece(replace(actor, health=actor.health + 1))


def resolve_hit(table: Table, battle: Battle, log: StepLog, ctx: ShotContext, shot: Shot,
                target_id: str) -> Battle:
    """Draw the shot's tokens; a zero is a miss. Otherwise damage, effects, then the push."""
    battle, tokens = draw_tokens(table, battle, log, shot)
    if any(t.value == 0 for t in tokens):
        log.add(NoteStep("a zero: the shot misses (no damage, no effect, no push)"))
        return battle
    amount = sum(t.value for t in tokens)
    target = battle.piece(target_id)
    if shot.name == "ice":
        log.house_rule("an ice hit freezes instead of damaging and is not pushed (docs/rulings.md)")
        log.add(EffectStep(target_id, "frozen",
                           f"put the ice piece on {target.label}: frozen until it is knocked off"))
        return battle.with_piece(replace(target, conditions=target.conditions | {"frozen"}))
    battle = damage(battle, log, target_id, amount)
    battle = apply_modifiers(table, battle, log, ctx, shot, target_id, amount)
    return push(table, battle, log, target_id)


def contact_shot(table: Table, battle: Battle, log: StepLog, ctx: ShotContext,
                 shot: Shot) -> Battle:
    """Melee, bite, roll, sword, devour: rush, then the Attack template must cover the target."""
    if not _target_on_table(battle, log, ctx):
        return battle
    assert ctx.target is not None
    battle = rush_toward(table, battle, log, ctx.actor, ctx.target, why=f"{shot.name}: rush")
    actor, target = battle.piece(ctx.actor), battle.piece(ctx.target)
    template = table.catalog.components.attack
    cover = attack_cover(template, table.scenario.templates.attack_radius, actor, target)
    close = cover.margin < table.close_call
    if close:
        log.close_calls.append(f"Attack template on {actor.label} vs {target.label}: "
                               f"{cover.margin:.1f} cm from the other answer; check it")
    log.add(AttackStep(ctx.actor, ctx.target, cover.covers, cover.margin, close))
    if not cover.covers:
        return battle
    return resolve_hit(table, battle, log, ctx, shot, ctx.target)


def ranged_shot(table: Table, battle: Battle, log: StepLog, ctx: ShotContext,
                shot: Shot) -> Battle:
    """A ranged shot needs no template: the Active Target is hit unless a token says zero."""
    if shot.name == "target":
        return target_ranged_shot(table, battle, log, ctx, shot)
    if not _target_on_table(battle, log, ctx):
        return battle
    assert ctx.target is not None
    battle = resolve_hit(table, battle, log, ctx, shot, ctx.target)
    if shot.name == "dagger":
        battle = to_random_rune(table, battle, log, ctx.actor, "dagger: move to random rune")
    return battle


def target_ranged_shot(table: Table, battle: Battle, log: StepLog, ctx: ShotContext,
                       shot: Shot) -> Battle:
    """The Hero Target tile picks the target (D12), and it must be within Ruler 3."""
    tiles = table.scenario.tiles.hero_targets
    bands = table.catalog.components.hero_target_bands
    alive = {p.id for p in battle.enemies_of_ai()}
    for _ in range(TARGET_TILE_RETRIES):
        face = table.chance.d12("Hero Target tile")
        tile = next(t for t, (low, high) in bands.items() if low <= face <= high)
        hero = next((h for h, t in tiles.items() if t == tile and h in alive), None)
        log.add(RollStep("d12", face, "Hero Target tile",
                         f"tile {tile} -> {hero}" if hero else f"tile {tile}: nobody; roll again"))
        if hero is not None:
            break
    else:
        log.add(NoteStep("no Hero Target tile belongs to a hero in play: the shot is lost"))
        return battle
    actor, target = battle.piece(ctx.actor), battle.piece(hero)
    reach = table.ruler(3)
    gap = edge_distance(actor, target)
    if abs(gap - reach) < table.close_call:
        log.close_calls.append(f"Ruler 3 range to {target.label}: {gap:.1f} cm; check it")
    if gap > reach:
        log.add(NoteStep(f"{target.label} is {gap:.1f} cm away, beyond Ruler 3: the shot misses"))
        return battle
    log.add(NoteStep(f"{target.label} is within Ruler 3 ({gap:.1f} cm)"))
    return resolve_hit(table, battle, log, ctx, shot, hero)


def _target_on_table(battle: Battle, log: StepLog, ctx: ShotContext) -> bool:
    target = battle.get(ctx.target) if ctx.target else None
    if target is None or target not in battle.on_table():
        who = ctx.target or "nobody"
        log.add(NoteStep(f"the Active Target ({who}) is out of play: the shot has no target"))
        return False
    return True
