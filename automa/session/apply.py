"""What each command does to a battle, and why it may be refused there.

`apply_command` takes the state and one command and gives the state after it, with the command
as it goes into the log (every answer it needed filled in: a Poison card, the Portal Trap's
D12s, a Kraken fight, an activation's dice and geometric answers) and what the rules said
happened. It changes nothing: a command refused raises InputError (one line) and the state
stays as it was, so `check_command` is the same call with the reason caught.

Answers a command still needs are drawn from the input's own stream of the session seed
(virtual dice) or asked through the asker (the players' own dice and choices; geometry asked
at the table). Replaying a logged command asks nothing: every answer is in it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from enum import StrEnum
from typing import Protocol

from msgspec import Struct
from msgspec.structs import replace

from automa.catalog.fields import card_hint
from automa.catalog.load import Catalog
from automa.engine.activation import Activation
from automa.engine.battle import STACKED, Battle, Table
from automa.engine.chance import Asker, Chance
from automa.engine.judge import GeometryMode, Judge
from automa.engine.parts import CARDS, back_from_card
from automa.engine.riders import carried, stack_of
from automa.engine.steps import MoveStep
from automa.engine.turn import TurnProgress, begin_turn, step_turn
from automa.errors import InputError, RulesError
from automa.geometry.moves import overlap_with, stacked_with
from automa.geometry.table import PLACEMENT_TOLERANCE, TableGeometry, build_table
from automa.model.components import DamageToken
from automa.model.modes import KrakenTie
from automa.model.monsters import MonsterSpec
from automa.model.pieces import Condition, Kind, Piece, Side
from automa.model.scenario import Bag, Scenario
from automa.model.shots import (
    CHARACTER_DAMAGE_SHOTS,
    RANGED_SHOTS,
    ModifierName,
    Shot,
    ShotName,
    parse_shot,
)
from automa.rules.round import unplayable_antients
from automa.rules.rulings import RulingKey, cite, option
from automa.rules.yilleph import flipped, flips
from automa.session.agreement import (
    Contradiction,
    compare_ends,
    ends_of,
    from_answers,
    keep_logged_ends,
)
from automa.session.cave import (
    NO_ANTIENT,
    BagEmptied,
    KrakenFightBegins,
    Notice,
    RoomContext,
    antients_won,
    apply_cave,
    apply_summon,
    cave_now,
    hero_in_play,
    summon_spot,
    summoned_in_other_rooms,
    summoned_mark,
)
from automa.session.commands import (
    Adjust,
    CaveFight,
    ChanceAnswer,
    Checkpoint,
    Command,
    Counter,
    Damage,
    Damaged,
    EndHeroesTurn,
    EnterCave,
    GeometryAnswer,
    Heal,
    Hit,
    Move,
    NextActivation,
    Redo,
    Remove,
    ReturnToMat,
    Rollback,
    SetCondition,
    Source,
    Summon,
    Undo,
    UseCard,
)
from automa.session.hero_turn import acted, in_the_cave, sent_away, this_turn
from automa.session.names import full_names
from automa.session.positions import coordinates, named_piece, parse_position, spelled_out
from automa.session.snapshot import standing_from
from automa.session.state import (
    Phase,
    SessionState,
    activation_summary,
    followed_by,
    new_chance,
    restored,
    script_of,
    scripted_left,
    start,
    way_out,
)

OFF_THE_MAT = frozenset({Condition.TELEPORTED, Condition.DEVOURED})


class TableAsker(Asker, Protocol):
    """The players, asked what a command still needs (engine/chance.py's Asker), and told what
    they must know before they answer (a Kraken fight beginning)."""

    def announce(self, notice: Notice) -> None: ...


class Setting(Struct, frozen=True):
    """What stays the same through a session: its data, the mat, the seed, how dice are rolled
    and geometry is judged, and what the battle's campaign says (None: no campaign)."""

    catalog: Catalog
    geometry: TableGeometry
    seed: int
    physical: bool = False
    geometry_mode: GeometryMode = GeometryMode.TRACKED
    room: RoomContext | None = None

    @property
    def asks(self) -> bool:
        """Whether the players may be asked anything during an activation."""
        return self.physical or self.geometry_mode != GeometryMode.TRACKED


class Applied(Struct, frozen=True):
    """One command done: as it goes into the log, the states around it, what the rules said
    happened (a line or two a piece hit, a Kraken fight), the activation it played, and for
    undo / redo the input taken back or put back. `logged` is False when there was nothing
    to do (no AI character can act): nothing goes into the log."""

    command: Command
    before: SessionState
    after: SessionState
    notes: tuple[str, ...] = ()
    activation: Activation | None = None
    taken: Command | None = None
    logged: bool = True


# ---------------------------------------------------------------------------------------------
# The heroes' reports at the table.

def _piece(battle: Battle, piece_id: str) -> Piece:
    piece = battle.get(piece_id)
    if piece is None:
        ids = ", ".join(p.id for p in battle.pieces)
        raise InputError(f"no piece {piece_id!r} in play (pieces: {ids})")
    return piece


def _positive(amount: int) -> int:
    if amount < 1:
        raise InputError(f"expected a whole number above 0, got {amount}")
    return amount


def poisoned_to_death(piece: Piece, cards: int) -> bool:
    """"When the total of the Poison cards reaches or passes the hero's *starting* health, the
    hero dies at once." (catacombs-facts.md 1.7)"""
    return piece.side == Side.HEROES and piece.starting_health is not None and \
        cards >= piece.starting_health


def _mover(battle: Battle, piece: Piece) -> tuple[Piece, list[Piece], Piece | None]:
    """The disc a reported move puts down, the other pieces on the mat it must keep off, and
    the piece stacked with it: a rider and its mount move as one, as the wider of their discs
    (ruling 72, `stack_of`)."""
    disc, near, partner = stack_of(battle, piece)
    return disc, [p for p in near if p.id != piece.id], partner


def resolve_move(battle: Battle, command: Move, geometry: TableGeometry,
                 asked: bool = False) -> Move:
    """A move given in table words, with the place they name worked out (to the mm); `asked`:
    asked geometry (session/positions.py `parse_position`)."""
    if command.words is None or command.to is not None:
        if command.to is None:
            raise InputError("a move needs a place: coordinates or table words")
        return command
    piece = _piece(battle, command.piece)
    mover, others, partner = _mover(battle, piece)
    said = spelled_out(command.words, geometry, others, mover, asked)  # `touching elf`: a side
    try:
        at = parse_position(said, geometry, others, mover, asked)
    except InputError as error:
        if partner is None:
            raise
        raise InputError(f"{error}, with {partner.id}: a rider and its mount move as one "
                         f"({cite(RulingKey.RIDERS)})") from None
    words = None if coordinates(command.words) is not None else said
    return Move(command.piece, (round(at[0], 3), round(at[1], 3)), words)


def apply_move(battle: Battle, command: Move, geometry: TableGeometry, asked: bool = False
               ) -> tuple[Battle, list[str]]:
    """The piece where the players say it stands; the piece stacked with it (a rider's mount,
    a mount's rider) goes along, the same way and as far. `asked` (asked geometry): the other
    pieces' model spots are no measurements, so only the mat's edge and obstacles are checked,
    and nothing for a place given beside a piece (positions.py `parse_position`)."""
    piece = _piece(battle, command.piece)
    if command.to is None:
        raise InputError("a move needs a place: coordinates or table words")
    at = command.to
    mover, others, partner = _mover(battle, piece)
    beside = asked and command.words is not None and named_piece(command.words) is not None
    clash = None if beside else overlap_with(geometry, [] if asked else others, mover, at,
                                             PLACEMENT_TOLERANCE)
    with_partner = f" with {partner.id}" if partner is not None else ""
    if clash == "the mat edge":
        raise InputError(f"({at[0]:.1f}, {at[1]:.1f}) puts {piece.id}{with_partner} off the mat")
    if clash is not None:
        raise InputError(f"{piece.id}{with_partner} at ({at[0]:.1f}, {at[1]:.1f}) would be on "
                         f"{clash}")
    battle = battle.with_piece(piece.moved(at))
    if partner is None:
        return battle, []
    to = carried(piece, partner, at)
    rider = Condition.RIDING in piece.conditions
    return battle.with_piece(partner.moved(to)), [
        f"{partner.id} moves with {piece.id}, its {'rider' if rider else 'mount'}, to "
        f"({to[0]:.1f}, {to[1]:.1f}): a rider and its mount move as one "
        f"({cite(RulingKey.RIDERS)}; `condition {piece.id if rider else partner.id} riding off` "
        f"first to get down)"]


def apply_damage(battle: Battle, command: Damage) -> Battle:
    piece = _piece(battle, command.piece)
    if piece.health is None:
        raise InputError(f"{piece.id} has no health to lose")
    after = piece.health - _positive(command.amount)
    if after <= 0:
        return battle.without(piece.id, "dead")
    return battle.with_piece(replace(piece, health=after))


def apply_heal(battle: Battle, command: Heal) -> Battle:
    piece = _piece(battle, command.piece)
    if piece.health is None:
        raise InputError(f"{piece.id} has no health to heal")
    healed = piece.health + _positive(command.amount)
    if piece.starting_health is not None:
        healed = min(healed, piece.starting_health)  # never above the starting health
    return battle.with_piece(replace(piece, health=healed))


def apply_adjust(battle: Battle, command: Adjust) -> Battle:
    piece = _piece(battle, command.piece)
    kind = command.counter
    value = getattr(piece, kind) + command.change
    if value < 0:
        raise InputError(f"{piece.id} has only {getattr(piece, kind)} {kind}")
    if kind == Counter.POISON and poisoned_to_death(piece, value):
        return battle.without(piece.id, "dead")
    return battle.with_piece(replace(piece, **{str(kind): value}))


def apply_condition(battle: Battle, command: SetCondition, geometry: TableGeometry
                    ) -> tuple[Battle, list[str]]:
    """A condition put on or taken off, and what goes with it: onto a card or back from it,
    a character's parts go too (ruling 73); a rider getting down takes its mount's mark off
    too, and the other way round (ruling 72)."""
    piece = _piece(battle, command.piece)
    on, condition = command.on, command.condition
    if condition in OFF_THE_MAT and on:
        return _to_card(battle, piece.id, condition)
    if condition in OFF_THE_MAT and condition in piece.conditions:
        return _from_card(battle, piece, frozenset({condition}), geometry)
    conditions = piece.conditions | {condition} if on else piece.conditions - {condition}
    after = battle.with_piece(replace(piece, conditions=frozenset(conditions)))
    partner = stacked_with(piece, battle.on_table())
    if on or condition not in STACKED or partner is None:
        return after, []
    marked = "riding" if Condition.RIDING in partner.conditions else "ridden"
    return after.with_piece(replace(partner, conditions=partner.conditions - STACKED)), [
        f"{partner.id} is no longer {marked} either ({cite(RulingKey.RIDERS)})"]


def apply_return(battle: Battle, command: ReturnToMat, geometry: TableGeometry
                 ) -> tuple[Battle, list[str]]:
    piece = _piece(battle, command.piece)
    held = piece.conditions & OFF_THE_MAT
    if not held:
        raise InputError(f"{piece.id} is not on the Teleported! or Devoured! card")
    return _from_card(battle, piece, held, geometry)


def _to_card(battle: Battle, piece_id: str, card: Condition) -> tuple[Battle, list[str]]:
    """The piece's character onto the Teleported! or Devoured! card with all its parts; the
    piece it rode or carried stays on the mat (`Battle.to_card`); what went along, said."""
    after, named = battle.to_card(piece_id, card), battle.piece(piece_id)
    owner = named.part_of or piece_id
    went = [p.id for p in after.pieces if p.id != piece_id and card in p.conditions
            and card not in battle.piece(p.id).conditions]
    notes = [f"{p} goes onto the {CARDS[card]} card too: "
             + (f"{piece_id} is part of it" if p == owner else f"it is part of {owner}")
             + f" ({cite(RulingKey.PARTS_ON_CARDS)})" for p in went]
    notes += [f"{p.id} stays where it is, no longer "
              f"{'riding' if Condition.RIDING in was.conditions else 'ridden'} "
              f"({cite(RulingKey.RIDERS)})"
              for p in after.on_table() if p.conditions.isdisjoint(STACKED)
              and not (was := battle.piece(p.id)).conditions.isdisjoint(STACKED)]
    return after, notes


def _from_card(battle: Battle, piece: Piece, held: frozenset[Condition],
               geometry: TableGeometry) -> tuple[Battle, list[str]]:
    """The piece's character back on the mat from the card (`held`: the card's condition),
    where it stood, with all its parts (ruling 73); what came back with it, said."""
    owner = battle.piece(piece.part_of) if piece.part_of is not None else piece
    back = battle.with_piece(replace(owner, conditions=owner.conditions - held))
    after = back_from_card(geometry, back, owner.id)
    return after, [f"{p.id} comes back with {owner.id}, at ({p.at[0]:.1f}, {p.at[1]:.1f}) "
                   f"within 2.5 cm of it ({cite(RulingKey.PARTS_ON_CARDS)})"
                   for p in after.on_table() if p.id != owner.id and not back.placed(p)]


def apply_use(battle: Battle, command: UseCard) -> Battle:
    """A hero used an Ability, Item or Spell card. "A once-per-room box (Ability cards, items)
    is used at the player's choice, then the card is flipped and refreshed in the next Setup
    Phase. A once-per-game box (Spells, items) is discarded after use." (catacombs-facts.md
    1.8): a card is used once in a room; a once-per-game card once in the game (the campaign
    logs the cards spent in earlier rooms at the start of each room's battle)."""
    piece = _piece(battle, command.piece)
    if piece.side != Side.HEROES:
        raise InputError(f"{piece.id} is not one of the heroes: only their cards are used")
    card = command.card
    spent = next((entry for entry in piece.used if entry.split(" (")[0] == card), None)
    if spent is not None:
        raise InputError(f"{piece.id} already used {card} this game: the card is discarded"
                         if spent.endswith(" (game)") else
                         f"{piece.id} already used {card} in this room: the card is flipped "
                         f"until the next Setup Phase")
    return battle.with_piece(replace(piece, used=(*piece.used, f"{card} ({command.per})")))


# ---------------------------------------------------------------------------------------------
# A hero's hit on the AI's pieces (rules/hero_hits.py).

def _parsed_shot(text: str) -> Shot:
    """The shot a hit names. A fire wall is no shot (the piece hit or was pushed into one), nor
    Ulom's claw (flicked after his sequence, Red Box l.316): neither takes a modifier."""
    head = text.split("+")[0].strip()
    if head in (ShotName.FIRE_WALL, ShotName.CLAW):
        if head != text.strip():
            raise InputError(f"{head} takes no modifier: `hit ID {head}`")
        return Shot(ShotName(head))
    try:
        return parse_shot(text)
    except ValueError as error:
        raise InputError(str(error)) from None


# Shots that land on one piece however many they hit, the one the shooter chooses: "If it hits
# several characters, only one is affected (the shooter chooses)" (the roll, catacombs-facts.md
# 1.3); "With several targets, the shooter picks which one freezes" (ice, 1.6).
ONE_CHOSEN_PIECE = {ShotName.ROLL: "a roll that hits several pieces affects",
                    ShotName.ICE: "an ice shot that hits several pieces freezes"}


class ShotKind(StrEnum):
    """How a shot a hero reports with `hit` struck: by contact, as a ranged piece, or neither
    (a fire wall, Ulom's claw)."""

    CHARACTER = "character"
    RANGED = "ranged"
    OTHER = "other"


class HitShot(Struct, frozen=True):
    """A shot `hit` resolves, as a board offers it: its name, how it struck, its base damage
    (before the dagger's 2 for a Catacomb hero and critical), and whether it lands on the one
    piece the shooter chooses however many it hits (`ONE_CHOSEN_PIECE`)."""

    name: ShotName
    kind: ShotKind
    damage: int
    one_piece: bool


def hit_shots() -> tuple[HitShot, ...]:
    """Every shot `hit` resolves (rules/hero_hits.py's HIT_SHOTS), in that order."""
    from automa.rules.hero_hits import BASE_DAMAGE, HIT_SHOTS

    def kind(name: ShotName) -> ShotKind:
        return ShotKind.CHARACTER if name in CHARACTER_DAMAGE_SHOTS else \
            ShotKind.RANGED if name in RANGED_SHOTS else ShotKind.OTHER

    return tuple(HitShot(name, kind(name), BASE_DAMAGE[name], name in ONE_CHOSEN_PIECE)
                 for name in HIT_SHOTS)


def hit_modifiers() -> tuple[ModifierName, ...]:
    """Every modifier `hit` resolves on the AI's pieces, in the vocabulary's order."""
    from automa.rules.hero_hits import HIT_MODIFIERS

    return tuple(m for m in ModifierName if m in HIT_MODIFIERS)


def apply_hit(battle: Battle, command: Hit, monsters: Mapping[str, MonsterSpec],
              rulings: Mapping[str, str], geometry: TableGeometry) -> tuple[Battle, list[str]]:
    """A hero's hit resolved by the rules: the battle after it and what happened, a line or two
    a piece."""
    from automa.rules.hero_hits import (
        HIT_MODIFIERS,
        HIT_SHOTS,
        HeroShot,
        disc_line,
        health_after,
        on_teammate,
        resolve,
        trilithon_reshot,
    )

    targets = command.targets
    if not targets:
        raise InputError("a hit names the pieces it struck, as in `hit rat-1, rat-2 fireball`")
    if len(set(targets)) != len(targets):
        raise InputError("a hit names each piece it struck once")
    struck = [_target(battle, target_id) for target_id in targets]
    parsed = _parsed_shot(command.shot)
    teammates = all(piece.side == Side.HEROES for piece in struck)  # Yilleph's pieces
    if parsed.name not in HIT_SHOTS and not teammates:  # any piece flips a Yilleph piece
        raise InputError(f"`hit` resolves {', '.join(HIT_SHOTS)}; report a {parsed.name} "
                         f"with `damage ID N`")
    one_piece = ONE_CHOSEN_PIECE.get(parsed.name)
    if one_piece is not None and len(targets) > 1:
        raise InputError(f"{one_piece} only the one the shooter chooses: name that one, as in "
                         f"`hit {targets[0]} {command.shot}`")
    modifiers = frozenset(m.name for m in parsed.modifiers)
    if unknown := sorted(modifiers - HIT_MODIFIERS):
        raise InputError(f"`hit` does not resolve the {', '.join(unknown)} modifier on the "
                         f"AI's pieces; report it with `damage`/`condition`")
    attacker = battle.get(command.by) if command.by is not None else None
    if command.by is not None and (attacker is None or attacker.side != Side.HEROES):
        raise InputError(f"`by {command.by}`: no hero {command.by!r} in play")
    poison = command.poison_card
    if ModifierName.POISON in modifiers and poison is None:
        raise InputError("a poison shot needs the Poison card's value (1-9)")
    rolls = command.portal
    if parsed.name == ShotName.PORTAL_TRAP and len(rolls) != len(targets):
        raise InputError(f"the Portal Trap needs one D12 (1-12) per piece hit, not "
                         f"{list(rolls)!r}")
    vulnerabilities = option(rulings, RulingKey.MONSTER_VULNERABILITIES) == "on"
    lines: list[str] = []
    if parsed.name == ShotName.DAGGER:
        thrower = "2 damage, thrown by a Catacomb hero" if _catacomb(attacker) else \
            "1 damage, no Catacomb hero named"
        lines.append(f"dagger: {thrower} ({cite(RulingKey.DAGGER_HERO)}); the thrower now performs "
                     f"move to rune")
    for index, target_id in enumerate(targets):
        piece = battle.get(target_id)  # as the hits named before it left it
        if piece is None:
            lines.append(f"{target_id}: out of play already, with the piece it is part of")
            continue
        if piece.side == Side.HEROES:  # a Yilleph piece: no damage, it flips
            lines.append(f"{piece.label}: " + "; ".join(on_teammate(piece, parsed.name).lines))
            battle = battle.with_piece(flipped(piece))
            continue
        # a part is hit as the piece it is part of (ruling 27), as invulnerable as itself
        whole = battle.piece(piece.part_of) if piece.part_of is not None else piece
        target = replace(whole, invulnerable=piece.invulnerable)
        spec = monsters.get(target.monster) if target.monster else None
        shot = HeroShot(parsed.name, modifiers, _catacomb(attacker), poison,
                        rolls[index] if parsed.name == ShotName.PORTAL_TRAP else None,
                        vulnerabilities, target_id in command.last_damaged)
        out = resolve(shot, target, spec, modified=index == 0)
        after = health_after(target, out)
        said = disc_line(target, out, spec)
        named = piece.label if piece is whole else f"{piece.label} (part of {whole.label})"
        lines.append(f"{named}: " + "; ".join([*out.lines, *([said] if said else [])]))
        target = whole
        if after is not None and after <= 0:
            why = f"killed by {attacker.id}" if attacker is not None else "dead"
            battle = _free_devoured(battle.without(target.id, why), target, lines, geometry)
            continue
        kept = replace(target, health=after if after is not None else target.health,
                       conditions=target.conditions | (out.gains - OFF_THE_MAT))
        battle = battle.with_piece(kept)
        for card in sorted(out.gains & OFF_THE_MAT):  # with its parts, not its mount
            battle, went = _to_card(battle, target.id, card)
            lines.extend(went)
        if attacker is not None and (out.reflected or out.heal_attacker):
            battle = _attacker_change(battle, attacker.id, out.heal_attacker - out.reflected,
                                      lines)
    if command.trilithon:
        lines.append(trilithon_reshot(parsed.name))
    return battle, lines


def _catacomb(attacker: Piece | None) -> bool:
    """Ruling 53: every hero is a Catacomb hero, so a hero piece named with `by` throws the
    dagger for 2 in a Catacombs 3E battle (an ally or a familiar is no hero)."""
    return attacker is not None and attacker.kind == Kind.HERO


def hittable(piece: Piece) -> bool:
    """Whether a hit may name this piece: the AI's, a neutral one (a wild wyvern), or one of
    Yilleph's, which any piece's hit flips (ruling 67)."""
    return piece.side in (Side.AI, Side.NEUTRAL) or flips(piece)


def hit_targets(battle: Battle) -> list[str]:
    """The pieces a hit may name now: those `hittable` on the mat (a piece on the Teleported!
    or Devoured! card cannot be hit), in the battle's order."""
    return [p.id for p in battle.pieces if hittable(p) and battle.placed(p)]


def hit_dealers(state: SessionState) -> list[str]:
    """The pieces `by HERO` may name in a hit: the battle's heroes still in play."""
    heroes = {p.id for p in state.scenario.pieces if p.side == Side.HEROES}
    return [p.id for p in state.battle.pieces if p.id in heroes and p.part_of is None]


def _target(battle: Battle, target_id: str) -> Piece:
    """A piece a hit may name (`hittable`), on the mat."""
    target = battle.get(target_id)
    if target is None or not hittable(target):
        ids = ", ".join(p.id for p in battle.on_table() if p.side in (Side.AI, Side.NEUTRAL))
        raise InputError(f"no AI or neutral piece {target_id!r} in play (those pieces: {ids}; "
                         f"of the heroes', only Yilleph's pieces, which a hit flips)")
    if not battle.placed(target):
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


def _free_devoured(battle: Battle, devourer: Piece, lines: list[str],
                   geometry: TableGeometry) -> Battle:
    """Devoured characters are released when the devouring monster dies: back where it died,
    with their parts (ruling 73). The log does not say whom a monster devoured: a dying
    devourer frees the devoured heroes when no other AI piece in play could have devoured
    them."""
    if not _devours(devourer):
        return battle
    for piece in battle.pieces:
        if piece.side == Side.HEROES and piece.part_of is None \
                and Condition.DEVOURED in piece.conditions and not any(
                p.side == Side.AI and _devours(p) for p in battle.on_table()):
            battle, back = _from_card(battle, piece.moved(devourer.at),
                                      frozenset({Condition.DEVOURED}), geometry)
            lines.append(f"{piece.label} is freed from the Devoured! card where "
                         f"{devourer.label} died")
            lines.extend(back)
    return battle


def _devours(piece: Piece) -> bool:
    """Whether a piece can devour: a devour shot, or a shot with the devour modifier."""
    return any(s.name == ShotName.DEVOUR or s.has_modifier(ModifierName.DEVOUR)
               for seq in piece.sequences for s in seq.shots)


DAMAGE_USAGE = "damage ID N [by HERO]"
HIT_USAGE = "hit ID[, ID...] SHOT[+MODIFIER...] [by HERO] [trilithon]"


def check_hero_turn(hero: str | None, done: Sequence[Command]) -> None:
    """A hero who entered the Hidden Cave this turn (not sent by the Portal Trap) has taken
    their turn: the visit was it (ruling 58), so no hit of theirs follows it."""
    if hero is not None and in_the_cave(done, hero):
        raise InputError(f"{hero} has been in the Hidden Cave this turn: the visit was their "
                         f"turn ({cite(RulingKey.CAVE_IN_BATTLE)}); they act again next round")


def check_dealt_by(state: SessionState, by: str | None, usage: str) -> None:
    """`by HERO`: one of the battle's heroes dealt it (for the chain and the summary)."""
    heroes = sorted(p.id for p in state.scenario.pieces if p.side == Side.HEROES)
    if by is not None and by not in heroes:
        raise InputError(f"usage: {usage} (heroes: {', '.join(heroes)})")


class NumberAsked(Struct, frozen=True):
    """A number a command asks the players for: what it is (`name`; `what` a value of it is,
    for saying an answer is not one), the prompt, its range."""

    name: str
    what: str
    prompt: str
    low: int
    high: int


def hit_questions(command: Hit, physical: bool) -> list[NumberAsked]:
    """What a hit asks the table, in order: the Poison card drawn for a poison shot, then in
    physical mode the Portal Trap's D12 for each piece hit (virtual dice roll it)."""
    asked = []
    if ModifierName.POISON in command.modifiers and command.poison_card is None:
        asked.append(NumberAsked("the Poison card drawn", "a Poison card's value",
                                 "the Poison card you drew shows", 1, 9))
    if command.shot_name == ShotName.PORTAL_TRAP and not command.portal and physical:
        asked += [NumberAsked(f"the D12 for the Portal Trap on {t}", "a face of the D12",
                              f"D12 rolled for the Portal Trap on {t}", 1, 12)
                  for t in command.targets]
    return asked


def resolve_hit(command: Hit, state: SessionState, setting: Setting, done: Sequence[Command],
                asker: TableAsker | None) -> Hit:
    """The hit with what it needs from the table (`hit_questions`: the Poison card drawn, the
    Portal Trap's D12 per piece in physical mode, else rolled from this input's own stream of
    the seed), and what the hero's previous shot this turn damaged (for chain)."""
    check_dealt_by(state, command.by, HIT_USAGE)
    answers = [_asked_number(asker, q.prompt, range(q.low, q.high + 1), q.what)
               for q in hit_questions(command, setting.physical)]
    resolved = command
    if ModifierName.POISON in command.modifiers and command.poison_card is None:
        resolved = replace(resolved, poison_card=answers.pop(0))
    if command.shot_name == ShotName.PORTAL_TRAP and not command.portal:
        rolls = tuple(answers) if setting.physical else _rolled(command.targets, setting,
                                                                len(done))
        resolved = replace(resolved, portal=rolls)
    if ModifierName.CHAIN in command.modifiers and command.by is not None \
            and not command.last_damaged:
        resolved = replace(resolved, last_damaged=tuple(
            last_damaged(state.scenario, done, setting, command.by)))
    return resolved


class Unanswered(InputError):
    """A command needs an answer from the players and there is nobody to ask."""


def _asked_number(asker: TableAsker | None, prompt: str, allowed: range, what: str) -> int:
    if asker is None:
        raise Unanswered(f"{what} is needed: give it with the command")
    return asker.number(prompt, allowed, what)


def _rolled(targets: Sequence[str], setting: Setting, index: int) -> tuple[int, ...]:
    """The Portal Trap's D12 per piece, rolled from the input's own stream of the seed."""
    chance = new_chance(setting.catalog, setting.seed, index, None)
    return tuple(chance.d12(f"Portal Trap on {target}") for target in targets)


def last_damaged(scenario: Scenario, done: Sequence[Command], setting: Setting,
                 hero: str) -> list[str]:
    """The pieces the hero's previous `hit` in this heroes' turn damaged (lost health or died),
    in the order named; [] when the hero has not hit anything yet this turn."""
    first = len(done) - len(this_turn(done))
    previous = max((i for i, c in enumerate(done)
                    if i >= first and isinstance(c, Hit) and c.by == hero), default=None)
    if previous is None:
        return []
    hit = done[previous]
    assert isinstance(hit, Hit)
    for index, (before, after) in enumerate(replay_states(scenario, done[:previous + 1],
                                                          setting)):
        if index < previous:
            continue
        damaged = []
        for target in hit.targets:
            was, now = before.battle.get(target), after.battle.get(target)
            if was is not None and (now is None or (was.health or 0) > (now.health or 0)):
                damaged.append(target)
        return damaged
    return []


# ---------------------------------------------------------------------------------------------
# The Hidden Cave in a battle (session/cave.py).

def _campaign_cave(setting: Setting) -> RoomContext:
    room = setting.room
    if room is None or room.cave is None:
        raise InputError("no Hidden Cave in this game: it is set up with `automa campaign new "
                         "... --hidden-cave`, and this session is not a room of such a campaign")
    return room


def resolve_cave(command: EnterCave, state: SessionState, setting: Setting,
                 done: Sequence[Command], asker: TableAsker | None) -> EnterCave:
    """The hero may enter (refused in one line when not), then fights the Kraken at once
    (ruling cave-in-battle): the D12 and the red tokens from the dice (the players' own in
    physical mode), the item and the Antient chosen by the players."""
    from automa.rules.hidden_cave import enter
    from automa.rules.kraken import fight, token_count

    room = _campaign_cave(setting)
    hero_id, portal = command.piece, command.portal
    if state.phase != Phase.HEROES and not portal:
        raise InputError(f"not the heroes' turn: {hero_id} enters the Hidden Cave instead of "
                         f"taking their turn (`cave {hero_id} {command.shots} portal` when the "
                         f"Portal Trap sent them)")
    hero = state.battle.get(hero_id)
    if hero is None or hero.side != Side.HEROES or hero.kind != Kind.HERO:
        raise InputError(f"no hero {hero_id!r} in play")
    if not state.battle.placed(hero) and not portal:
        raise InputError(f"{hero_id} is on the Teleported! or Devoured! card: not on the mat")
    took = None if portal else acted(done, hero_id)
    if took is not None:
        raise InputError(f"{hero_id} {took}: the Hidden Cave is entered instead of taking "
                         f"their normal turn")
    now = cave_now(state.scenario, state.battle, room, done)
    try:
        enter(now, hero_id, portal_trap=portal)
    except RulesError as error:
        raise InputError(str(error)) from None
    if command.fight is not None:
        item = command.fight.item
        if (item not in now.items) if item is not None else bool(now.items):
            raise InputError(f"the item taken is one of those beside the Hidden Cave card "
                             f"({', '.join(now.items) or 'none is left'}), not {item!r}")
        return command
    catalog = setting.catalog
    level = catalog.components.red_bag
    tie = KrakenTie(option(state.scenario.settings.rulings, RulingKey.KRAKEN_TIE))
    chance = new_chance(catalog, setting.seed, len(done), asker if setting.physical else None)
    if asker is not None:
        asker.announce(KrakenFightBegins(hero_id, portal,
                                         token_count(hero.health or 0, command.shots), level))
    drawn = [0]

    def draw(bag: Bag, hand: Sequence[DamageToken]) -> DamageToken:
        if setting.physical and asker is not None and drawn[0] and not hand:
            asker.announce(BagEmptied(drawn[0]))  # every token was in hand: all go back
        drawn[0] = len(hand) + 1
        return chance.token(level, bag, "against the Kraken", hand)

    result = fight(hero.health or 0, command.shots, state.battle.bags[level],
                   lambda: chance.d12("the Kraken's strength"), draw, tie)
    antient, item = None, None  # no item left: the fight gives the rest (rules/kraken.py)
    if result.hero_wins:
        if now.items:
            item = _asked_choice(asker, f"{hero_id} evaded the Kraken: the item of their "
                                        f"choice", list(now.items))
        taken = set(antients_won((*room.other_rooms, *done)))
        free = [a for a, spec in sorted(catalog.monsters.items())
                if spec.kind == Kind.ANTIENT and a not in taken]
        antient = _asked_choice(asker, "the unused Antient of their choice", free) \
            if free else NO_ANTIENT
    elif now.items:
        item = chance.pick(list(now.items), "the item beside the Hidden Cave card")
    return replace(command, fight=CaveFight(level, result.strength,
                                            tuple(t.label() for t in result.tokens), tie, item,
                                            antient))


def _asked_choice(asker: TableAsker | None, prompt: str, options: list[str]) -> str:
    if asker is None:
        raise Unanswered(f"the players' choice is needed ({prompt}): nobody to ask")
    return asker.choice(prompt, options)


def check_summon(command: Summon, state: SessionState, setting: Setting,
                 done: Sequence[Command]) -> None:
    """An Antient the hero holds (won in the Hidden Cave, or a hero's Antient card in this
    battle), summoned in the heroes' turn instead of the base shot sequence."""
    hero_id, antient = command.piece, command.antient
    if state.phase != Phase.HEROES:
        raise InputError(f"not the heroes' turn: {hero_id} summons an Antient instead of "
                         f"performing their base shot sequence in their turn")
    room = setting.room
    won = antients_won((*(room.other_rooms if room else ()), *done), hero_id)
    cards = [p.id for p in state.scenario.pieces
             if p.side == Side.HEROES and p.kind == Kind.ANTIENT]
    if antient not in won and antient not in cards:
        held = ", ".join([*won, *cards]) or "none"
        raise InputError(f"{hero_id} holds no Antient {antient!r} (held: {held}; won in the "
                         f"Hidden Cave or a hero's Antient card in this battle)")
    if summoned_mark(antient) in summoned_in_other_rooms(room, hero_id):
        raise InputError(f"{hero_id} summoned {antient} in an earlier room: it is used")
    hero_in_play(state.battle, hero_id)
    took = acted(done, hero_id)
    if took is not None:
        raise InputError(f"{hero_id} {took}: an Antient is summoned instead of performing the "
                         f"base shot sequence, in a turn of its own")


# ---------------------------------------------------------------------------------------------
# An AI activation.

def ai_turn_begins(state: SessionState, done: Sequence[Command]) -> TurnProgress:
    """The AI turn as the heroes' turn ends (`done`: the inputs before): the Antients pass to
    the Overseer (ruling 66); the AI pieces the heroes teleported this round stay on the card
    (ruling 64)."""
    return begin_turn(state.battle, sent_away(done, state.battle))


def play_activation(state: SessionState, setting: Setting, chance: Chance,
                    judge: Judge, done: Sequence[Command]) -> tuple[SessionState,
                                                                     Activation | None]:
    """One AI activation (starting the AI turn if the heroes' turn was on: `done`, the inputs
    before it, say what the heroes did), its dice from `chance` and its geometry judged by
    `judge`."""
    progress = replace(state.progress, battle=state.battle) if state.progress is not None \
        else ai_turn_begins(state, done)
    table = Table(replace(state.scenario, round=state.round), setting.catalog,
                  setting.geometry, chance, judge)
    stepped = step_turn(table, progress)
    if stepped is None:
        return replace(state, progress=None), None
    progress, activation = stepped
    history = (*state.activations, (state.round, activation))
    if progress.finished:
        return replace(state, battle=progress.battle, round=state.round + 1, progress=None,
                       activations=history), activation
    return replace(state, battle=progress.battle, progress=progress,
                   activations=history), activation


def _check_faces(outcomes: Sequence[ChanceAnswer], catalog: Catalog) -> None:
    """Each logged die face is on that die and each token face is in that level's set."""
    components = catalog.components
    faces = {"rune_die": components.rune_die, "location_die": components.location_die}
    for outcome in outcomes:
        kind, value = outcome.kind, outcome.value
        if kind in faces and int(value) not in faces[kind]:
            raise InputError(f"{kind} {value} is not a face of that die")
        if kind == "token":
            level, _, face = value.partition(":")
            tokens = components.bags.get(int(level))
            if tokens is None:
                raise InputError(f"token {value}: there is no level {level} bag")
            if DamageToken.parse(face) not in tokens:
                raise InputError(f"token {value}: no level {level} token reads {face}")


class Keep(StrEnum):
    """Where a replay's figures and the log's differ, which stand: the log's (what happened at
    the table), or this machine's (`automa log --accept-recomputed`)."""

    LOGGED = "logged"
    COMPUTED = "computed"


def replay_activation(state: SessionState, command: NextActivation, setting: Setting,
                      done: Sequence[Command], found: list[Contradiction] | None = None,
                      keep: Keep = Keep.LOGGED) -> tuple[SessionState, Activation | None]:
    """A logged activation played again from its recorded dice and answers, which must be
    exactly the ones it needs. Where the log kept where pieces ended, there they stay (unless
    `keep` is COMPUTED); what this machine computes otherwise goes to `found`. `done`: the
    inputs before it."""
    index = len(done)
    _check_faces(command.outcomes, setting.catalog)
    chance = new_chance(setting.catalog, setting.seed, index, None,
                        script_of(command.outcomes), "the tokens logged with it")
    records = [a.to_json() for a in command.answers]
    judge = Judge(GeometryMode.TRACKED, state.scenario.settings.close_call, None, records)
    after, activation = play_activation(state, setting, chance, judge, done)
    if any(o.source != Source.SCRIPT for o in chance.record) or \
            len(chance.record) != len(command.outcomes) or \
            (command.answered and len(judge.record) != len(command.answers)):
        raise InputError("the recorded dice do not match this activation; the log and the "
                         "scenario disagree")
    ends = dict(command.ends) if command.ends is not None else None
    if found is not None and activation is not None:
        found += from_answers(index, activation.label, judge.disagreements)
        if ends is not None:
            found += compare_ends(index, activation.label, ends, state.battle, after.battle)
    if ends is not None and keep == Keep.LOGGED:
        battle = keep_logged_ends(ends, state.battle, after.battle)
        if battle is not after.battle:
            progress = after.progress and replace(after.progress, battle=battle)
            after = replace(after, battle=battle, progress=progress)
    return after, activation


def answers_that_hold(state: SessionState, done: Sequence[Command]) -> dict[str, bool]:
    """The players' yes/no geometric answers earlier in this AI turn that cannot have
    changed: those of the activations just before this one, back to the last that moved a
    piece (slid, pushed or placed it) or to any other input (a reported move, the turn's
    start). The Judge takes them rather than ask again (engine/judge.py); a choice is not
    carried over, as the log does not keep the options it was made from."""
    if state.progress is None:
        return {}
    trailing: list[NextActivation] = []
    for command in reversed(done):
        if not isinstance(command, NextActivation):
            break
        trailing.append(command)
    held: dict[str, bool] = {}
    logged = state.activations[len(state.activations) - len(trailing):]
    for command, (played_in, activation) in zip(trailing, reversed(logged), strict=False):
        if played_in != state.round or any(isinstance(s, MoveStep) for s in activation.steps):
            break
        for answer in command.answers:
            if answer.source in (Source.TABLE, Source.REUSED) and \
                    isinstance(answer.answer, bool):
                held.setdefault(answer.question, answer.answer)
    return held


def run_activation(state: SessionState, command: NextActivation, setting: Setting,
                   done: Sequence[Command], asker: TableAsker | None
                   ) -> tuple[SessionState, NextActivation, Activation | None]:
    """A new activation: the answers given with the command first, then the scenario's own
    scripted dice, then the dice (the players' in physical mode) and the geometry (asked of the
    players in asked or hybrid mode). The command comes back with every answer in it."""
    script = followed_by(script_of(command.outcomes), scripted_left(state.scenario, done))
    chance = new_chance(setting.catalog, setting.seed, len(done),
                        asker if setting.physical else None, script,
                        f"{state.scenario.source}: [chance] tokens")
    judge = Judge(setting.geometry_mode, state.scenario.settings.close_call, asker,
                  [a.to_json() for a in command.answers],
                  answered={q: (a, 0, ()) for q, a in answers_that_hold(state, done).items()})
    after, activation = play_activation(state, setting, chance, judge, done)
    if activation is None:
        return after, command, None
    ends = None if setting.geometry_mode == GeometryMode.ASKED else \
        tuple(ends_of(state.battle, after.battle).items())  # nothing measured: no ends
    logged = NextActivation(
        tuple(ChanceAnswer(o.kind, o.value, Source(o.source)) for o in chance.record),
        tuple(GeometryAnswer.from_record(r) for r in judge.record),
        activation_summary(activation, state, after), answered=True, ends=ends)
    return after, logged, activation


# ---------------------------------------------------------------------------------------------
# Every command.

class NotThisTurn(InputError):
    """A report the heroes make in their own turn, given during the AI turn."""


HEROES_TURN_ONLY = (Damage, Heal, Adjust, Remove, SetCondition, ReturnToMat, Hit, UseCard,
                    Summon, EndHeroesTurn)
WORDS = {EndHeroesTurn.TYPE: "done", Remove.TYPE: "dead"}  # the words players type for them


def check_turn(state: SessionState, command: Command) -> None:
    """During the AI turn the heroes may only put a piece where it really stands (`move`), go
    to the Hidden Cave when the Portal Trap sends them, and undo or redo."""
    if state.phase == Phase.AI and isinstance(command, HEROES_TURN_ONLY):
        word = WORDS.get(command.TYPE, command.TYPE)
        raise NotThisTurn(f"{word!r} cannot be done in the AI turn")

def apply_command(state: SessionState, command: Command, setting: Setting,
                  done: Sequence[Command], asker: TableAsker | None = None,
                  replaying: bool = False) -> Applied:
    """The state after `command`, given the inputs in force before it (`done`); InputError
    (nothing changed) if it cannot be. `replaying`: the command comes from the log, with every
    answer in it, and is applied as it was done (what only its doing checks, such as whether
    the hero may enter the Hidden Cave now, was checked then). Undo, redo and rollback are the
    session's own (session/store.py): they change which inputs are in force."""
    if isinstance(command, Damaged):
        raise InputError(command.problem)
    if isinstance(command, Checkpoint):
        if not replaying:
            raise InputError("a checkpoint is written by `automa log --accept-data` or "
                             "`--accept-recomputed`, not played")
        return Applied(command, state, restored(state, standing_from(command.standing)))
    if not replaying:
        check_turn(state, command)
        command = full_names(command, state)  # `rat-1` for `sewer-rat-1`, logged in full
    battle = state.battle
    if isinstance(command, NextActivation):
        if replaying:
            after, activation = replay_activation(state, command, setting, done)
            return Applied(command, state, after, activation=activation)
        after, logged, activation = run_activation(state, command, setting, done, asker)
        return Applied(logged, state, after, activation=activation,
                       logged=activation is not None)
    if isinstance(command, EndHeroesTurn):
        if state.phase == Phase.AI:
            raise InputError("the AI turn is already on")
        progress = ai_turn_begins(state, done)
        return Applied(command, state, replace(state, battle=progress.battle, progress=progress),
                       turn_notes(state, progress))
    notes: list[str] = []
    if isinstance(command, Move):
        asked = setting.geometry_mode == GeometryMode.ASKED
        command = resolve_move(battle, command, setting.geometry, asked)
        battle, lines = apply_move(battle, command, setting.geometry, asked)
        notes.extend(lines)
    elif isinstance(command, Damage):
        if not replaying:
            check_dealt_by(state, command.by, DAMAGE_USAGE)
        battle = apply_damage(battle, command)
    elif isinstance(command, Heal):
        battle = apply_heal(battle, command)
    elif isinstance(command, Adjust):
        battle = apply_adjust(battle, command)
    elif isinstance(command, Remove):
        _piece(battle, command.piece)
        battle = battle.without(command.piece, command.why)
    elif isinstance(command, SetCondition):
        battle, lines = apply_condition(battle, command, setting.geometry)
        notes.extend(lines)
    elif isinstance(command, ReturnToMat):
        battle, lines = apply_return(battle, command, setting.geometry)
        notes.extend(lines)
    elif isinstance(command, UseCard):
        battle = apply_use(battle, command)
    elif isinstance(command, Hit):
        if not replaying:
            check_hero_turn(command.by, done)
            command = resolve_hit(command, state, setting, done, asker)
        battle, lines = apply_hit(battle, command, setting.catalog.monsters,
                                  state.scenario.settings.rulings, setting.geometry)
        notes.extend(lines)
    elif isinstance(command, EnterCave):
        if not replaying:
            command = resolve_cave(command, state, setting, done, asker)
        battle = apply_cave(battle, command)
    elif isinstance(command, Summon):
        if not replaying:
            check_summon(command, state, setting, done)
        command = summon_spot(battle, command, setting.catalog, setting.geometry)
        battle = apply_summon(battle, command, setting.catalog)
    elif isinstance(command, Undo | Redo | Rollback):
        raise InputError(f"{command.TYPE} changes which inputs are in force: the session does it")
    return Applied(command, state, replace(state, battle=battle), tuple(notes))


def turn_notes(state: SessionState, progress: TurnProgress) -> tuple[str, ...]:
    """What changes hands as the heroes' turn ends: the Antients' cards, the pieces the heroes
    teleported this round."""
    notes = [f"{p.label}: its card passes to the Overseer, the heroes' turn is over; it acts "
             f"in the AI turn, then passes back ({cite(RulingKey.ANTIENT_TURNS)})"
             for p in progress.battle.pieces
             if (was := state.battle.get(p.id)) is not None and was.side != p.side]
    notes += [f"{p.label} stays with the heroes: its shot sequence is not in our data, so the "
              f"AI cannot play it ({card_hint(p.monster or p.id)})"
              for p in unplayable_antients(progress.battle.pieces)]
    away = cite(RulingKey.TELEPORTED_BY_HEROES)
    notes += [f"{state.battle.piece(p).label} stays on the Teleported! card this round (the "
              f"heroes sent it there) and comes back in the next ({away})"
              for p in sorted(progress.away)]
    return tuple(notes)


def check_command(state: SessionState, command: Command, setting: Setting,
                  done: Sequence[Command]) -> str | None:
    """Why `command` cannot be done now (one line), or None. Nothing is asked or changed: a
    command that still needs the players' answers is checked as far as it can be without
    them."""
    try:
        apply_command(state, command, setting, done, asker=None)
    except Unanswered:
        return None  # as far as it can be checked without the players' answers, it can be
    except (InputError, RulesError) as error:
        return str(error)
    return None


# ---------------------------------------------------------------------------------------------
# Replaying a log.

def replay_states(scenario: Scenario, done: Sequence[Command], setting: Setting,
                  lines: Sequence[int] = (), log: str = "",
                  found: list[Contradiction] | None = None, keep: Keep = Keep.LOGGED
                  ) -> Iterator[tuple[SessionState, SessionState]]:
    """The state before and after each input in force, from the scenario on. `lines` (the log
    line of each input) and `log` (its path) make a failure name where it is. What this
    machine computes otherwise than the log goes to `found`, from the last checkpoint on (a
    checkpoint went on from what came before it); `keep` says whose figures stand."""
    from automa.session.log import SessionError

    state = start(scenario)
    for index, command in enumerate(done):
        before = state
        if found is not None and isinstance(command, Checkpoint):
            found.clear()
        try:
            if isinstance(command, NextActivation):
                state = replay_activation(state, command, setting, done[:index], found,
                                          keep)[0]
            else:
                state = apply_command(state, command, setting, done[:index],
                                      replaying=True).after
        except (InputError, RulesError, SessionError, ValueError, TypeError, AttributeError,
                KeyError, IndexError) as error:
            line = command.line if isinstance(command, Damaged) else None
            line = line or (lines[index] if index < len(lines) else None)
            where = f"{log or 'log.jsonl'} line {line}: " if line else ""
            raise SessionError(f"{where}input {index + 1} of the log cannot be replayed "
                               f"({error}); {way_out(index)}") from None
        yield before, state


def replay(scenario: Scenario, done: Sequence[Command], setting: Setting,
           lines: Sequence[int] = (), log: str = "") -> SessionState:
    final = start(scenario)
    for _, after in replay_states(scenario, done, setting, lines, log):
        final = after
    return final


def replay_checked(scenario: Scenario, done: Sequence[Command], setting: Setting,
                   lines: Sequence[int] = (), log: str = "", keep: Keep = Keep.LOGGED
                   ) -> tuple[SessionState, list[Contradiction]]:
    """`replay`, and what this machine computes otherwise than the log since the last
    checkpoint."""
    found: list[Contradiction] = []
    final = start(scenario)
    for _, after in replay_states(scenario, done, setting, lines, log, found, keep):
        final = after
    return final, found


def scenario_setting(scenario: Scenario, catalog: Catalog, seed: int) -> Setting:
    """The setting of a battle played from a scenario alone (no session folder)."""
    return Setting(catalog, build_table(scenario.playmat), seed)
