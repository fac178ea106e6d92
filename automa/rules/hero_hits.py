"""A hero's hit on the AI's pieces, by the rules: what the players flicked, what it did.

Pure rules, one function per sentence: the shot's base damage (the dagger's 2 for Catacomb
heroes), the card's Nullifies and Reflects boxes, the optional Monster Vulnerabilities, the
Catacomb Lords' and Antients' immunities, the modifiers a hero's shot puts on a monster (the
Red Box's poison card, stun, fear, devour, petrify), the ice shot and the Portal Trap's D12.
The players' flick decides who was hit; this module says what that hit does.
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from automa.model.components import Family
from automa.model.monsters import MonsterSpec
from automa.model.pieces import Colour, Condition, Kind, Piece, Side
from automa.model.shots import RANGED_SHOTS, ModifierName, ShotName
from automa.rules.rulings import RulingKey, cite
from automa.rules.yilleph import flip_line, flipped

# base damage of a hero's shot that lands (the card's shot icon); critical adds 1. Printed
# rules: bite 2 and roll 2 unmodified (catacombs-facts.md 1.3, Dized "character shots" and
# "roll shots"); the sword is "functionally equivalent to the bite shot, inflicting two points
# of damage in its unmodified form" (red-box-solo-rules.txt l.358); Ulom's claw "inflicts one
# point of damage to each of them" (l.316).
BASE_DAMAGE = {
    ShotName.MELEE: 1, ShotName.BITE: 2, ShotName.ROLL: 2, ShotName.SWORD: 2,
    ShotName.DEVOUR: 1, ShotName.MISSILE: 1, ShotName.FIREBALL: 1, ShotName.GIANT_FIREBALL: 2,
    ShotName.TARGET: 1, ShotName.BOOMERANG: 1, ShotName.SCORCHED_EARTH: 2, ShotName.DAGGER: 1,
    ShotName.ICE: 0, ShotName.PORTAL_TRAP: 0, ShotName.FIRE_WALL: 0, ShotName.CLAW: 1,
}
HIT_SHOTS = tuple(BASE_DAMAGE)
# all a Lord feels
LORD_MODIFIERS = frozenset({ModifierName.CHAIN, ModifierName.CRITICAL, ModifierName.REGENERATION})
HIT_MODIFIERS = frozenset({ModifierName.POISON, ModifierName.STUN, ModifierName.FEAR,
                           ModifierName.CRITICAL, ModifierName.CHAIN, ModifierName.REGENERATION,
                           ModifierName.DEVOUR, ModifierName.PETRIFY})


class HeroShot(Struct, frozen=True):
    """One shot of a hero as it struck one piece."""

    shot: ShotName
    modifiers: frozenset[ModifierName] = frozenset()
    catacomb_hero: bool = False  # the dagger does 2 for a Catacomb hero
    poison_card: int | None = None  # the value on the Poison card drawn for a poison shot
    portal_roll: int | None = None  # the D12 rolled for this piece, for the Portal Trap
    vulnerabilities: bool = False  # the optional Monster Vulnerabilities are in play
    last_damaged: bool = False  # the hero's previous shot in this sequence damaged this piece


class HitOutcome(Struct, frozen=True):
    damage: int = 0  # health the piece loses
    reflected: int = 0  # damage back to the attacker
    heal_attacker: int = 0
    gains: frozenset[Condition] = frozenset()  # frozen, stunned, devoured, teleported
    petrified: bool = False
    lines: tuple[str, ...] = ()  # what happened and why, and what the players do now

    def say(self, *lines: str) -> HitOutcome:
        return replace(self, lines=(*self.lines, *lines))


def base_damage(shot: HeroShot) -> int:
    """"In Catacombs 3E, this ranged shot inflicts 1 point of damage by default, 2 points when
    performed by any Catacomb hero (including the Illusionist)." Critical: +1 on the base
    shot."""
    damage = BASE_DAMAGE[shot.shot]
    if shot.shot == ShotName.DAGGER and shot.catacomb_hero:
        damage = 2
    return damage + (1 if ModifierName.CRITICAL in shot.modifiers and damage > 0 else 0)


def defence(shot: HeroShot, target: Piece, spec: MonsterSpec | None) -> str | None:
    """"nullified" or "reflected" when the card's box lists the shot, else None. A frozen
    character loses its defensive properties; with the vulnerabilities, a Wraith Knight's
    are ignored. Ulom's claw is no shot a box lists (ruling 68)."""
    if spec is None or Condition.FROZEN in target.conditions or shot.shot == ShotName.CLAW:
        return None
    if shot.vulnerabilities and target.family == Family.WRAITH_KNIGHT:
        return None
    if shot.shot in spec.reflects:
        return "reflected"
    if shot.shot in spec.nullifies:
        return "nullified"
    return None


def _ignored_box(shot: HeroShot, target: Piece, spec: MonsterSpec | None) -> str | None:
    """The card's box ("Reflects", "Nullifies") that would have stopped this shot, when the
    Monster Vulnerabilities ignore a Wraith Knight's defensive properties (ruling 50)."""
    if spec is None or Condition.FROZEN in target.conditions or not shot.vulnerabilities \
            or target.family != Family.WRAITH_KNIGHT:
        return None
    return "Reflects" if shot.shot in spec.reflects else \
        "Nullifies" if shot.shot in spec.nullifies else None


def vulnerable_as(shot: HeroShot, target: Piece, spec: MonsterSpec | None
                  ) -> ModifierName | None:
    """The modifier an unmodified shot counts as under Monster Vulnerabilities, or None."""
    if not shot.vulnerabilities or shot.modifiers or target.kind != Kind.MONSTER:
        return None
    family = target.family
    if family == Family.ZOMBIE and shot.shot == ShotName.MELEE:
        return ModifierName.CRITICAL
    if family == Family.DUNGEON and shot.shot == ShotName.MISSILE:
        return ModifierName.CRITICAL
    if family == Family.UNDEAD and shot.shot == ShotName.FIREBALL:
        return ModifierName.CRITICAL
    if family == Family.MYTHOLOGICAL and shot.shot == ShotName.MELEE:
        return ModifierName.REGENERATION
    if family == Family.VERMIN and shot.shot in (ShotName.MELEE, ShotName.MISSILE) \
            and spec is not None and spec.size == "extra-small" and not _has_fear_shot(spec):
        return ModifierName.FEAR
    return None


def _has_fear_shot(spec: MonsterSpec) -> bool:
    return any(m.name == ModifierName.FEAR for seq in spec.sequences for s in seq.shots
               for m in s.modifiers)


def portal_trap(roll: int) -> HitOutcome:
    """The Portal Trap's D12 table, for each character hit."""
    if not 1 <= roll <= 12:
        raise ValueError(f"a D12 shows 1 to 12, not {roll}")
    if roll <= 3:
        return HitOutcome(damage=roll, gains=frozenset({Condition.TELEPORTED}), lines=(
            f"Portal Trap D12 {roll}: {roll} damage, then onto the Teleported! card "
            f"if still alive",))
    if roll <= 5:
        return HitOutcome(lines=(f"Portal Trap D12 {roll}: no damage; it may perform a rush "
                                 f"shot ({cite(RulingKey.PORTAL_RUSH)}: the AI declines)",))
    if roll <= 11:
        return HitOutcome(damage=2, lines=(
            f"Portal Trap D12 {roll}: 2 damage, then if still alive move it to a random rune "
            f"(roll the rune die; `move ID rune N`)",))
    return HitOutcome(lines=(
        f"Portal Trap D12 12: no damage; it goes to an unoccupied rune "
        f"({cite(RulingKey.PORTAL_TWELVE)}: not the Hidden Cave; roll the rune die until it names "
        f"an unoccupied rune)",))


def resolve(shot: HeroShot, target: Piece, spec: MonsterSpec | None,
            modified: bool = True) -> HitOutcome:
    """What one hero's shot does to one AI piece it struck. `modified`: this piece takes the
    shot's modifiers (a modified shot hitting several applies them to one only)."""
    mods = shot.modifiers if modified else frozenset()
    if shot.shot == ShotName.DEVOUR and modified:  # the devour shot devours one of those it hits
        mods = mods | {ModifierName.DEVOUR}
    out = HitOutcome()
    if not modified and shot.modifiers:
        out = out.say("base damage only (the modifiers go to one piece hit, the first named)")
        shot = replace(shot, modifiers=frozenset())
    if target.kind == Kind.ANTIENT:
        return out.say("an Antient: immune to every shot and modifier")
    if Condition.FROZEN in target.conditions:
        return out.say("frozen: it cannot be damaged (knocked the ice off? "
                       f"`unfreeze {target.id}` first)")
    box = defence(shot, target, spec)
    unboxed = _ignored_box(shot, target, spec)
    if unboxed is not None:
        out = out.say(f"Monster Vulnerabilities (wraith-knight, "
                      f"{cite(RulingKey.MONSTER_VULNERABILITIES)}): its card's {unboxed} box is "
                      f"ignored")
    if box is not None:
        verb = "reflects" if box == "reflected" else "nullifies"
        out = out.say(f"its card {verb} {shot.shot}: no damage, modifiers ignored")
        if box == "reflected":
            out = replace(out, reflected=1).say("1 damage goes back to the attacker")
        return out
    lord = target.kind == Kind.CATACOMB_LORD
    if lord and (ignored := sorted(mods - LORD_MODIFIERS)):
        out = out.say(f"a Catacomb Lord: immune to {', '.join(ignored)}")
        mods = mods & LORD_MODIFIERS
        shot = replace(shot, modifiers=mods)
    if shot.shot == ShotName.PORTAL_TRAP:
        if shot.portal_roll is None:
            raise ValueError("the Portal Trap needs a D12 for each piece hit")
        trap = portal_trap(shot.portal_roll)
        return _damaged(replace(trap, lines=out.lines + trap.lines), target)
    if shot.shot == ShotName.ICE:
        return _iced(shot, target, out)
    if shot.shot == ShotName.FIRE_WALL:
        return _fire_wall(shot, target, out)
    if target.invulnerable:  # nothing the shot does after this point acts without damage
        return out.say("invulnerable: no damage, and no modifier (each needs damage)")
    if shot.shot == ShotName.CLAW:  # "one point of damage to each of them" (l.316)
        return _damaged(replace(out, damage=BASE_DAMAGE[ShotName.CLAW]).say(
            f"Ulom's claw: 1 damage ({cite(RulingKey.CLAW_HIT)}: no card box or vulnerability "
            f"acts on it)"), target)
    extra = vulnerable_as(shot, target, spec)
    if extra is not None:
        out = out.say(f"Monster Vulnerabilities ({target.family}, "
                      f"{cite(RulingKey.MONSTER_VULNERABILITIES)}): the unmodified {shot.shot} "
                      f"counts as {extra}")
        mods = mods | {extra}
        shot = replace(shot, modifiers=mods)
    if ModifierName.PETRIFY in mods:
        return replace(out, petrified=True).say("petrify: it dies at once")
    damage = base_damage(shot)
    chain_ignored = shot.vulnerabilities and target.family == Family.WRAITH_KNIGHT
    if ModifierName.CHAIN in mods and chain_ignored:
        out = out.say(f"Monster Vulnerabilities (wraith-knight, "
                      f"{cite(RulingKey.MONSTER_VULNERABILITIES)}): the chain modifier is "
                      f"ignored" + (f": {target.label} may be damaged again, though it was the "
                                    f"last piece this hero damaged" if shot.last_damaged else ""))
    if ModifierName.CHAIN in mods and shot.last_damaged and not chain_ignored:
        return out.say(f"chain: {target.label} is the last piece this hero damaged in this "
                       f"sequence; the same target cannot be damaged twice in a row: no damage")
    critical = " (critical)" if ModifierName.CRITICAL in mods else ""
    out = replace(out, damage=damage).say(f"{shot.shot}{critical}: {damage} damage")
    if ModifierName.POISON in mods:
        if shot.poison_card is None:
            raise ValueError("a poison shot needs the value of the Poison card drawn")
        out = replace(out, damage=out.damage + shot.poison_card).say(
            f"poison: the Poison card shows {shot.poison_card}, inflicted as damage "
            f"({cite(RulingKey.HERO_POISON)}); shuffle it back into the deck")
    survives = target.health is None or target.health > out.damage
    if ModifierName.STUN in mods and survives:
        out = replace(out, gains=out.gains | {Condition.STUNNED}).say(
            f"stun: a Stunned! card (it loses its next turn, "
            f"{cite(RulingKey.STUN_AND_ALOFT)})")
    if ModifierName.DEVOUR in mods and survives:
        out = replace(out, gains=out.gains | {Condition.DEVOURED}).say(
            "devour: onto the Devoured! card")
    if ModifierName.CHAIN in mods and not chain_ignored:
        out = out.say("chain: the same piece takes no damage twice in a row in one sequence "
                      "(with `by HERO`, the hero's next chain hit on it this turn does none)")
    out = _damaged(out, target)
    if ModifierName.REGENERATION in mods and out.damage > 0:  # ruling 21: "when its shot damages"
        out = replace(out, heal_attacker=1).say(
            f"regeneration: the attacker heals 1, up to its starting health "
            f"({cite(RulingKey.REGENERATION)})")
    if ModifierName.FEAR in mods and out.damage > 0:  # "an attacker who damages a target with it"
        out = out.say("fear: the attacker may now flick one unmodified rush shot with it")
    return out


def _iced(shot: HeroShot, target: Piece, out: HitOutcome) -> HitOutcome:
    """"Catacomb Lords and Antients are immune" to ice; an Infernal monster (vulnerabilities)
    takes 1 damage before freezing."""
    if target.kind == Kind.CATACOMB_LORD:
        return out.say("a Catacomb Lord: it cannot be frozen")
    damage = 1 if shot.vulnerabilities and target.family == Family.INFERNAL else 0
    if damage:
        out = out.say(f"Monster Vulnerabilities (infernal, "
                      f"{cite(RulingKey.MONSTER_VULNERABILITIES)}): the ice shot does 1 damage "
                      f"first")
    out = replace(out, damage=damage, gains=frozenset({Condition.FROZEN})).say(
        "ice: frozen, if still alive (put the ice piece on it)")
    return _damaged(out, target)


def _fire_wall(shot: HeroShot, target: Piece, out: HitOutcome) -> HitOutcome:
    """The piece hit, or was pushed into, a fire wall or fire obstacle. A fire wall hurts the
    heroes ("Any hero touching it, directly or indirectly, takes 1 damage"); with Monster
    Vulnerabilities an Undead monster "take[s] 1 damage when they hit, or are pushed into,
    fire walls or fire obstacles" (catacombs-facts.md 1.6, 1.9). Not a shot: no card's box
    applies."""
    if target.kind == Kind.MONSTER and target.family == Family.UNDEAD and shot.vulnerabilities:
        out = replace(out, damage=1).say(
            f"Monster Vulnerabilities (undead, {cite(RulingKey.MONSTER_VULNERABILITIES)}): the "
            f"fire wall does 1 damage")
        return _damaged(out, target)
    why = "not an Undead monster" if shot.vulnerabilities else \
        f"Monster Vulnerabilities are off ({cite(RulingKey.MONSTER_VULNERABILITIES)}); with " \
        f"them an Undead monster takes 1"
    return out.say(f"fire wall: no damage (it hurts the heroes; {why})")


def _damaged(out: HitOutcome, target: Piece) -> HitOutcome:
    """Invulnerable pieces and shadow monsters take no damage; the rest lose health."""
    if out.damage <= 0:
        return out
    if target.invulnerable:
        return replace(out, damage=0).say("invulnerable: no damage")
    if target.health is None and target.side == Side.NEUTRAL:
        return replace(out, damage=0).say("no health track in the scenario: no damage counted "
                                          "(give the piece its health to track it)")
    if target.health is None:
        return replace(out, damage=0).say(
            "a shadow monster: no damage; it is destroyed only when pushed "
            "completely off the playmat")
    return out


def on_teammate(target: Piece, shot: ShotName | None = None) -> HitOutcome:
    """A Yilleph piece struck in the heroes' turn, by a hero's piece, a ranged piece or another
    Yilleph: "Team members never damage each other" (catacombs-facts.md 1.1), but "When an
    Yilleph piece of either colour is directly hit (not necessarily damaged) by any piece ...
    it flips over" (l.330, ruling 67). The caller turns the piece over (`flipped`). Struck by
    Ulom's claw: "If it hits a friendly piece, that piece can be moved to an unoccupied rune.
    The player controlling the friendly piece chooses the rune." (l.317)"""
    how = (f"then `move {target.id} ...` where it stops" if flipped(target).colour == Colour.WHITE
           else f"roll the Rune Die, then `move {target.id} rune N`")
    out = HitOutcome(lines=("a teammate: no damage (team members never damage each other)",
                            f"{flip_line(target)} ({how}; {cite(RulingKey.YILLEPH_FLIP)})"))
    if shot == ShotName.CLAW:
        out = out.say("Ulom's claw hit a friendly piece: its player may move it to an "
                      "unoccupied rune of their choice (l.317)")
    return out


def health_after(target: Piece, out: HitOutcome) -> int | None:
    """The piece's health after the hit; 0 or less: it dies."""
    if out.petrified:
        return 0
    if target.health is None:
        return None
    return target.health - out.damage


def disc_line(target: Piece, out: HitOutcome, spec: MonsterSpec | None) -> str | None:
    """"2-health monsters: after 1 damage the disc is flipped in place to its orange or black
    damaged side; the next hit kills it." A killed monster's disc goes onto the killing hero's
    board, except in the Lord fight."""
    after = health_after(target, out)
    if after is None or (target.health == after and not out.petrified):
        return None
    if after <= 0:
        return "it dies: its disc goes onto the hero's board (not in the Lord fight)"
    printed = spec.health if spec is not None else target.starting_health
    if target.kind == Kind.MONSTER and printed == 2 and after == 1:
        return "1 health left: flip its disc to the damaged side"
    return f"{after} health left"


def trilithon_reshot(shot: str) -> str:
    """"When any ranged piece passes successfully through the Trilithon, then the player
    performing that shot must immediately perform the same shot again from where the piece
    finished up"; a character piece through it may "perform move to rune instead"."""
    if shot in RANGED_SHOTS:
        return (f"the {shot} piece passed through the Trilithon: flick the same {shot} again "
                f"from where it finished, then `hit` what it strikes")
    return (f"the hero passed through the Trilithon: perform the same {shot} again from where "
            f"the piece finished (or move to rune instead), then `hit` what it strikes")
