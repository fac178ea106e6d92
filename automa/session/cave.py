"""The Hidden Cave inside a battle: a hero's Kraken fight (`EnterCave`) and an Antient summoned
instead of the base shot sequence (`Summon`), with what the battle's campaign says of them.

An `EnterCave` logged holds the whole fight as it came out (the D12, each red token, the item,
the Antient chosen), so replaying it, or undoing it, is exact: the tokens are drawn again from
the battle's own bag in the logged order, and anything that does not fit is refused in one line.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct
from msgspec.structs import replace

from automa.catalog.fields import missing_for_battle
from automa.catalog.load import Catalog
from automa.catalog.pieces import monster_piece
from automa.engine.battle import Battle
from automa.errors import InputError
from automa.geometry.moves import spot_beside
from automa.geometry.table import TableGeometry
from automa.model.board import PLATINUM
from automa.model.components import DamageToken
from automa.model.pieces import Kind, Piece, Point, Side
from automa.model.scenario import Bag, Scenario
from automa.rules.hidden_cave import HiddenCave, collect
from automa.rules.kraken import KrakenFight, fight, reward, token_count
from automa.session.commands import CaveFight, Command, EnterCave, Summon


class KrakenFightBegins(Struct, frozen=True):
    """Told the table as a hero enters the Hidden Cave, before any die or token: who, why,
    and how many red tokens they draw from which bag."""

    hero: str
    portal: bool
    tokens: int
    bag: int


class BagEmptied(Struct, frozen=True):
    """Told the table when a Kraken fight has drawn every red token: they all go back."""

    drawn: int


Notice = KrakenFightBegins | BagEmptied


class RoomContext(Struct, frozen=True):
    """What the other rooms of the battle's campaign say (campaign/battles.py reads it): the
    Hidden Cave as the campaign log has it (None: played without it) and the inputs in force
    of the campaign's other rooms' sessions."""

    cave: HiddenCave | None
    other_rooms: tuple[Command, ...] = ()


def hero_in_play(battle: Battle, hero_id: str) -> Piece:
    hero = battle.get(hero_id)
    if hero is None or hero.side != Side.HEROES or hero.kind != Kind.HERO:
        heroes = ", ".join(p.id for p in battle.pieces
                           if p.side == Side.HEROES and p.kind == Kind.HERO)
        raise InputError(f"no hero {hero_id!r} in play (heroes: {heroes or 'none'})")
    return hero


def replay_fight(battle: Battle, command: EnterCave, outcome: CaveFight) -> KrakenFight:
    """The Kraken fight of a logged `EnterCave`, fought again with its D12 and tokens from the
    battle's bag as it is now."""
    hero = hero_in_play(battle, command.piece)
    bag = battle.bags.get(outcome.bag)
    if bag is None:
        raise InputError(f"there is no level {outcome.bag} bag for the Kraken fight")
    try:
        tokens = [DamageToken.parse(t) for t in outcome.tokens]
    except ValueError as error:
        raise InputError(str(error)) from None
    count = token_count(hero.health or 0, command.shots)
    if len(tokens) != count:
        raise InputError(f"{hero.id} draws {count} red tokens ({hero.health or 0} health, "
                         f"{command.shots} shot icons), not {len(tokens)}")
    queue = list(tokens)

    def next_token(now: Bag, hand: Sequence[DamageToken]) -> DamageToken:
        token = queue.pop(0)
        if token not in now.tokens:
            raise InputError(f"the red token {token.label()} is not in the level {outcome.bag} "
                             f"bag at its turn")
        return token

    return fight(hero.health or 0, command.shots, bag, lambda: outcome.strength, next_token,
                 outcome.tie)


def apply_cave(battle: Battle, command: EnterCave) -> Battle:
    """The hero entered the Hidden Cave instead of a turn and fought the Kraken; the outcome as
    printed lands on their board. "If the Kraken wins ... They may discard one Poison card (if
    they have one) and take one of the four items (randomly determined). If the hero wins ...
    1 platinum coin from the Treasury, 2 health points, 1 of the items of their choice, and 1
    unused Antient piece of their choice." Health never passes the starting health (as any
    healing; ruling cave-in-battle). With no item left beside the card the hero takes none."""
    outcome = command.fight
    if outcome is None:
        raise InputError("the Kraken fight has not been fought")
    hero = hero_in_play(battle, command.piece)
    result = replay_fight(battle, command, outcome)
    if result.hero_wins and not outcome.antient:
        raise InputError("the hero evaded the Kraken: name the unused Antient they take")
    if not result.hero_wins and outcome.antient is not None:
        raise InputError("the Kraken won: the hero takes no Antient")
    won = reward(result.hero_wins, hero.poison, [outcome.item] if outcome.item else [],
                 lambda items: items[0])
    health = hero.health
    if health is not None and won.health:
        health = health + won.health
        if hero.starting_health is not None:
            health = min(health, hero.starting_health)
    after = replace(hero, health=health, gold=hero.gold + won.platinum * PLATINUM,
                    poison=hero.poison - won.discard_poison,
                    items=hero.items + (1 if won.item else 0))
    return battle.with_piece(after).with_bag(outcome.bag, result.bag)


def apply_summon(battle: Battle, command: Summon, catalog: Catalog) -> Battle:
    """The hero summons an Antient instead of performing their base shot sequence ("This
    Antient may be summoned instead of performing their hero's base shot sequence in a
    subsequent turn of the Battle Phase"); it is marked used on their board and cannot be
    summoned again (ruling antient-summon-once). Its piece goes on the mat at `command.to`,
    the heroes' (ruling antient-turns: the Overseer's when their turn is over)."""
    hero = hero_in_play(battle, command.piece)
    mark = summoned_mark(command.antient)
    if mark in hero.used:
        raise InputError(f"{hero.id} has summoned {command.antient} already: it is used")
    battle = battle.with_piece(replace(hero, used=(*hero.used, mark)))
    if command.to is None or battle.get(command.antient) is not None:
        return battle
    piece = summoned_piece(catalog, command.antient, command.to)
    return replace(battle, pieces=(*battle.pieces, piece))


def summoned_piece(catalog: Catalog, antient: str, at: Point) -> Piece:
    """The piece of an Antient a hero summons: the heroes' to begin with."""
    spec = catalog.monsters.get(antient)
    if spec is None or spec.kind != Kind.ANTIENT:
        raise InputError(f"no Antient {antient!r} in the data")
    return replace(monster_piece(catalog, spec, antient, at), side=Side.HEROES)


def playable(catalog: Catalog, antient: str) -> bool:
    """Whether our data holds what the AI needs to play the Antient (its size and shot
    sequences: its card entered)."""
    spec = catalog.monsters.get(antient)
    return spec is not None and spec.kind == Kind.ANTIENT and not missing_for_battle(spec)


SUMMON_GAP = 0.5  # cm between the hero's edge and the Antient's, where it is first put
PLACE_WITHIN = 2.5  # cm: "within 2.5 cm (1 in) of the summoner" (catacombs-facts.md 1.4)


def summon_spot(battle: Battle, command: Summon, catalog: Catalog,
                geometry: TableGeometry) -> Summon:
    """Where the summoned Antient's piece goes: beside the hero, toward the Monster Start Zone
    (the nearest free spot within 2.5 cm of the hero), unless its piece is on the mat already.
    The players `move` it where it really stands."""
    if command.to is not None or battle.get(command.antient) is not None \
            or not playable(catalog, command.antient):
        return command
    hero = hero_in_play(battle, command.piece)
    piece = summoned_piece(catalog, command.antient, hero.at)
    spot = spot_beside(geometry, battle.on_table(), hero, piece, (0.0, 1.0), SUMMON_GAP,
                       PLACE_WITHIN)
    return replace(command, to=(round(spot[0], 3), round(spot[1], 3)))


def summoned_mark(antient: str) -> str:
    """How a summoned Antient shows among the hero's used cards."""
    return f"{antient} (summoned)"


def cave_now(scenario: Scenario, battle: Battle, room: RoomContext,
             done: Sequence[Command]) -> HiddenCave:
    """The Hidden Cave as this battle leaves it: the campaign's collections plus the cave
    monsters this battle logged as killed by a hero; the items taken and the visits made in
    the campaign's Kraken fights, this battle's included."""
    assert room.cave is not None
    cave = room.cave
    kinds = {p.id: p.monster for p in scenario.pieces}
    heroes = {p.id for p in scenario.pieces if p.side == Side.HEROES}
    for piece_id, why in battle.out.items():
        hero = why.removeprefix("killed by ")
        monster = kinds.get(piece_id)
        if why.startswith("killed by ") and hero in heroes and monster is not None:
            cave, _ = collect(cave, hero, monster)
    for command in (*room.other_rooms, *done):
        if not isinstance(command, EnterCave) or command.fight is None:
            continue
        items = list(cave.items)
        if command.fight.item in items:
            items.remove(command.fight.item)
        visited = cave.visited if command.portal else (*cave.visited, command.piece)
        cave = replace(cave, items=tuple(items), visited=visited)
    return cave


NO_ANTIENT = "none"  # logged as the Antient won when every Antient was taken already


def antients_won(commands: Sequence[Command], hero: str | None = None) -> list[str]:
    """The Antients won in the Hidden Cave, by one hero or by anyone (a win when none was
    left unused gave none)."""
    return [c.fight.antient for c in commands
            if isinstance(c, EnterCave) and c.fight is not None and c.fight.antient
            and c.fight.antient != NO_ANTIENT and (hero is None or c.piece == hero)]


def summoned_in_other_rooms(room: RoomContext | None, hero: str) -> list[str]:
    """The Antients the hero summoned in the campaign's other rooms: used for the rest of the
    game. (Cards used once per game need no such look: the campaign logs them at the start of
    each room's battle.)"""
    if room is None:
        return []
    return [summoned_mark(c.antient) for c in room.other_rooms
            if isinstance(c, Summon) and c.piece == hero]


Held = dict[str, tuple[tuple[str, bool], ...]]  # hero -> (Antient, summoned) in order won


def antients_held(battle: Battle, room: RoomContext | None, done: Sequence[Command]) -> Held:
    """Each hero's Antients won in the Hidden Cave (this campaign's rooms and this battle), in
    the order won, each with whether it has been summoned (here or in an earlier room)."""
    commands = (*(room.other_rooms if room else ()), *done)
    held: Held = {}
    for hero in battle.pieces:
        if hero.side != Side.HEROES or hero.kind != Kind.HERO:
            continue
        gone = {*hero.used, *summoned_in_other_rooms(room, hero.id)}
        held[hero.id] = tuple((name, summoned_mark(name) in gone)
                              for name in antients_won(commands, hero.id))
    return held
