"""The campaign's rules: its state replayed from the log, the rooms open next, carrying the
heroes' boards out of a room, and the Room Level Rewards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from automa.campaign.commands import (
    Buy,
    Change,
    EndRoom,
    EnterRoom,
    FieldConflict,
    StartCampaign,
    Step,
    Undo,
)
from automa.campaign.model import CampaignState, HeroBoard, HeroDeath, HiddenCave
from automa.model.campaigns import Rewards, Route
from automa.model.pieces import Kind, Piece, Side
from automa.rules.battle_end import elani_bonus, gold_earners, killer

STARTING_GOLD = 5  # "each hero starts with 5 gold" (research notes, official rules)
Played = EnterRoom | EndRoom | Buy  # a step that changes the campaign (an undo takes one back)


def new_heroes(heroes: Iterable[tuple[str, int]]) -> tuple[HeroBoard, ...]:
    """The heroes' boards at a campaign's start: their health, and the starting gold."""
    return tuple(HeroBoard(hero, health, health, STARTING_GOLD) for hero, health in heroes)


def in_force(steps: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The raw lines an undo has not taken back (an undo takes back the latest one in force),
    for a reader of the log's lines as they are (cli/play_cave.py)."""
    kept: list[dict[str, Any]] = []
    for step in steps:
        if step.get("type") == "undo":
            if kept:
                kept.pop()
        else:
            kept.append(step)
    return kept


def undone(steps: Sequence[Step]) -> set[int]:
    """The places of the steps an undo took back (each undo takes back the latest step still
    in force); the undo steps themselves stay in force."""
    taken: set[int] = set()
    kept: list[int] = []
    for index, step in enumerate(steps):
        if isinstance(step, Undo):
            if kept:
                taken.add(kept.pop())
        else:
            kept.append(index)
    return taken


def steps_in_force(steps: Sequence[Step]) -> list[Played]:
    """The steps an undo has not taken back, in order."""
    taken = undone(steps)
    return [s for i, s in enumerate(steps) if i not in taken and not isinstance(s, Undo)]


def initial_state(start: StartCampaign, route: Route) -> CampaignState:
    """The campaign as its first line starts it."""
    cave = None if start.cave is None else HiddenCave(start.cave.needed, start.cave.items,
                                                      {b.id: () for b in start.heroes})
    assert start.lord is not None  # a logged start names its Lord
    return CampaignState(route, start.lord, {b.id: b for b in start.heroes}, (), None, None, cave,
                         0, start.hero_death, start.settings)


def apply(state: CampaignState, step: Played) -> CampaignState:
    """The campaign after one logged step (an undo is applied by leaving out what it undid)."""
    if isinstance(step, EnterRoom):
        return replace(state, current=step.room, current_session=step.session,
                       heroes=_at_setup(state, step.room), steps=state.steps + 1, bought=())
    assert step.heroes is not None  # a logged step holds the boards afterwards
    heroes = {b.id: b for b in step.heroes}
    if isinstance(step, Buy):
        return replace(state, heroes=heroes, bought=(*state.bought, step.offer),
                       steps=state.steps + 1)
    cave = state.hidden_cave
    if cave is not None and step.collected:
        gained = dict(cave.collected)
        for hero, monster in step.collected:
            gained[hero] = (*gained.get(hero, ()), monster)
        cave = replace(cave, collected=gained)
    assert step.room is not None
    return replace(state, heroes=heroes, hidden_cave=cave, done=(*state.done, step.room),
                   current=None, current_session=None, steps=state.steps + 1, bought=())


def _at_setup(state: CampaignState, room_id: str) -> dict[str, HeroBoard]:
    """A fallen hero comes back "at the next Setup": a battle room's or the lair's, not a
    visit's."""
    room = state.route.room(room_id)
    if room is None or room.kind == "special":
        return dict(state.heroes)
    return returning(state.heroes, state.hero_death)


def died(board: HeroBoard, rule: HeroDeath) -> HeroBoard:
    """A hero who fell in a room (ruling campaign-hero-death)."""
    if rule == "keeps-board":
        return replace(board, health=0, poison=0, alive=False)
    return replace(board, health=0, gold=0, poison=0, items=0, alive=False)


def returning(heroes: Mapping[str, HeroBoard], rule: HeroDeath) -> dict[str, HeroBoard]:
    """The heroes at the next room's setup: the fallen come back with half their starting
    health, rounded down, unless the rule keeps them dead."""
    if rule == "stays-dead":
        return dict(heroes)
    return {h: b if b.alive or b.starting_health // 2 < 1
            else replace(b, health=b.starting_health // 2, alive=True)
            for h, b in heroes.items()}


def allies_back(board: HeroBoard, pieces: Mapping[str, Piece], out: Mapping[str, str],
                started: Iterable[str]) -> HeroBoard:
    """The hero's allies as the room's session leaves them: each placed in the room (in
    `started`) takes its piece's health; one that left play dead or killed, or with no health,
    is dead for good ("it cannot be resurrected"). An ally not placed (its hero was dead at the
    setup) is as it was."""
    placed = set(started)
    allies = []
    for ally in board.ally_boards:
        piece = pieces.get(ally.id)
        if not ally.alive or ally.id not in placed:
            allies.append(ally)
        elif piece is None:
            why = out.get(ally.id, "dead")
            dead = why == "dead" or why.startswith("killed")
            allies.append(replace(ally, health=0, alive=False) if dead else ally)
        else:
            health = piece.health if piece.health is not None else ally.health
            allies.append(replace(ally, health=max(health, 0), alive=health > 0))
    return replace(board, ally_boards=tuple(allies))


def serving(heroes: Mapping[str, HeroBoard]) -> dict[str, str]:
    """Each recruited ally's piece id -> the hero it serves."""
    return {a.id: a.hero for b in heroes.values() for a in b.ally_boards}


def carried_back(heroes: Mapping[str, HeroBoard], pieces: Iterable[Piece],
                 out: Mapping[str, str], rule: HeroDeath, started: Iterable[str] = (),
                 ) -> dict[str, HeroBoard]:
    """The heroes' boards as the room's session leaves them; a hero who left play dead, or
    with no health, is dead. Devoured and teleported heroes come back at the room's end. The
    allies placed (`started`: the ids of the pieces the battle began with) carry their health
    back too (`allies_back`)."""
    pieces = tuple(pieces)
    on_mat = {p.id: p for p in pieces if p.side == Side.HEROES and p.kind == Kind.HERO}
    allies_on_mat = {p.id: p for p in pieces if p.side == Side.HEROES and p.kind == Kind.ALLY}
    heroes = {h: allies_back(b, allies_on_mat, out, started) if b.ally_boards else b
              for h, b in heroes.items()}
    boards = {}
    for hero, board in heroes.items():
        piece = on_mat.get(hero)
        if not board.alive:
            boards[hero] = board
        elif piece is None:
            boards[hero] = died(board, rule) if out.get(hero, "dead") == "dead" else board
        else:
            health = piece.health if piece.health is not None else board.health
            now = replace(board, health=health, gold=piece.gold, poison=piece.poison,
                          items=piece.items, used=used_this_game(board.used, piece.used))
            boards[hero] = now if health > 0 else died(now, rule)
    return boards


PER_GAME = " (game)"


def used_this_game(before: Iterable[str], in_room: Iterable[str]) -> tuple[str, ...]:
    """The cards used once per game so far: those of earlier rooms and the room's `used HERO
    CARD game` (a once-per-room card is refreshed at the next setup)."""
    cards = list(before)
    for entry in in_room:
        card = entry.removesuffix(PER_GAME)
        if entry.endswith(PER_GAME) and card not in cards:
            cards.append(card)
    return tuple(cards)


def kill_gold(heroes: Mapping[str, HeroBoard], out: Mapping[str, str],
              kinds: Mapping[str, str | None], gold_of: Mapping[str, int | None],
              frozen_by: Mapping[str, str | None] | None = None) -> dict[str, int]:
    """The Resolution Phase: "Each surviving hero collects gold equal to the printed rewards of
    the monsters they destroyed" (research notes, Resolution), and the gold of a monster still
    frozen when the room was cleared goes to the hero who froze it (`frozen_by`). A monster
    whose card's gold our data lacks counts 0 (the players add it with --change). Elani the
    Thief "gets +1 gold per kill" (`is_elani`: a hero whose id says so), for each monster she
    destroyed (a frozen one is no kill). A recruited ally "earns no gold itself; its gold goes
    to its hero" (research notes 2.5): its kills are its hero's gold, unless it fell in the
    room (as the battle's Resolution has it: rules/battle_end.py)."""
    gained: dict[str, int] = {}
    allies = serving(heroes)
    for piece_id, earner in gold_earners(out, frozen_by or {}).items():
        hero = allies.get(earner, earner)
        if earner in allies and out.get(earner) is not None:
            continue  # the ally fell: nothing to collect
        board = heroes.get(hero)
        monster = kinds.get(piece_id)
        if board is None or not board.alive or monster is None:
            continue
        destroyed = killer(out.get(piece_id, "")) == hero
        gained[hero] = gained.get(hero, 0) + (gold_of.get(monster) or 0) + \
            elani_bonus(hero, "", int(destroyed))
    return gained


def resurrected(heroes: Mapping[str, HeroBoard], hero: str, health: int
                ) -> dict[str, HeroBoard]:
    board = heroes.get(hero)
    if board is None or board.alive:
        raise FieldConflict("resurrected", f"{hero!r} is not a dead hero of the campaign")
    return {**heroes, hero: replace(board, health=health, alive=True)}


def rewarded(heroes: Mapping[str, HeroBoard], rewards: Rewards, spell_to: str | None
             ) -> dict[str, HeroBoard]:
    """Room Level Rewards: every surviving hero gets the gold; one chosen hero the Spell card."""
    if rewards.spell and spell_to is not None:
        chosen = heroes.get(spell_to)
        if chosen is None or not chosen.alive:
            raise FieldConflict("spell_to", f"{spell_to!r} is not a surviving hero")
    boards = {}
    for hero, board in heroes.items():
        if not board.alive:
            boards[hero] = board
            continue
        spells = board.spells + (1 if rewards.spell and hero == spell_to else 0)
        boards[hero] = replace(board, gold=board.gold + rewards.gold, spells=spells)
    return boards


def survivors(heroes: Mapping[str, HeroBoard]) -> list[str]:
    return [h for h, b in heroes.items() if b.alive]


def changed(heroes: Mapping[str, HeroBoard], changes: Iterable[Change]) -> dict[str, HeroBoard]:
    """The players' own changes to the boards (`--change`), each refused in one line when it
    cannot be made."""
    boards = dict(heroes)
    for hero, field, amount in ((c.hero, c.field, c.amount) for c in changes):
        owner = serving(boards).get(hero) if hero not in boards else None
        if owner is not None:  # an ally's health (`--change elf-ally.health=-1`)
            boards[owner] = _ally_changed(boards[owner], hero, field, amount)
            continue
        board = boards.get(hero)
        if board is None or not board.alive:
            raise FieldConflict("changes", f"{hero!r} is not a living hero of the campaign")
        value = getattr(board, field) + amount
        if value < 0:
            raise FieldConflict("changes", f"{hero} has only {getattr(board, field)} {field}")
        boards[hero] = replace(board, **{field: value})
    return boards


def _ally_changed(board: HeroBoard, ally_id: str, field: str, amount: int) -> HeroBoard:
    """A change the players made to an ally's health at the table (its only track here: it
    "cannot buy or sell items, and earns no gold itself"); never past its starting health, and
    a dead ally "cannot be resurrected"."""
    ally = next(a for a in board.ally_boards if a.id == ally_id)
    if field != "health":
        raise FieldConflict("changes", f"{ally_id} is an ally: only its health changes")
    if not ally.alive:
        raise FieldConflict("changes", f"{ally_id} is dead: an ally cannot be resurrected")
    health = min(ally.health + amount, ally.starting_health)
    if health < 0:
        raise FieldConflict("changes", f"{ally_id} has only {ally.health} health")
    now = replace(ally, health=health, alive=health > 0)
    return replace(board, ally_boards=tuple(now if a.id == ally_id else a
                                            for a in board.ally_boards))


def cave_kills(state: CampaignState, kinds: Mapping[str, str | None],
               out: Mapping[str, str]) -> list[tuple[str, str]]:
    """The Hidden Cave monsters the room's battle logged as killed by a hero (`hit ... by
    HERO`): (hero, monster) pairs not kept yet. `kinds` maps the room's piece ids to their
    monster; a piece summoned during the battle is not in it (give it with --collect)."""
    cave = state.hidden_cave
    if cave is None:
        return []
    pairs: list[tuple[str, str]] = []
    for piece_id, why in out.items():
        hero = killer(why) or ""
        monster = kinds.get(piece_id)
        if (hero in state.heroes and monster in cave.needed
                and monster not in cave.collected.get(hero, ()) and (hero, monster) not in pairs):
            pairs.append((hero, monster))
    return pairs


def collect(state: CampaignState, pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Hidden Cave monsters destroyed this room: "Each time a hero destroys one of the
    indicated level 1 monsters, they keep it on their player board." """
    cave = state.hidden_cave
    if cave is None:
        raise FieldConflict("collected", "this campaign is played without the Hidden Cave")
    kept: list[tuple[str, str]] = []
    for hero, monster in pairs:
        if hero not in state.heroes:
            raise FieldConflict("collected", f"{hero!r} is not a hero of the campaign")
        if monster not in cave.needed:
            raise FieldConflict("collected", f"{monster!r} is not one of the Hidden Cave's "
                                f"monsters ({', '.join(cave.needed)})")
        if monster in cave.collected.get(hero, ()) or (hero, monster) in kept:
            raise FieldConflict("collected", f"{hero} already keeps a {monster}")
        kept.append((hero, monster))
    return kept
