"""The campaign's rules: its state replayed from the log, the rooms open next, carrying the
heroes' boards out of a room, and the Room Level Rewards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from automa.campaign.log import CampaignError, CampaignLog
from automa.campaign.model import CampaignState, HeroBoard, HiddenCave
from automa.model.campaigns import LAIR, Rewards, Route
from automa.model.pieces import Piece
from automa.rules.battle_end import gold_earners, killer

STARTING_GOLD = 5  # "each hero starts with 5 gold" (research notes, official rules)


def new_heroes(heroes: Iterable[tuple[str, int]]) -> dict[str, HeroBoard]:
    return {hero: HeroBoard(hero, health, health, STARTING_GOLD) for hero, health in heroes}


def _board(hero: str, data: Any) -> HeroBoard:
    try:
        return HeroBoard(hero, int(data["starting_health"]), int(data["health"]),
                         int(data["gold"]), int(data["poison"]), int(data["items"]),
                         int(data["spells"]), bool(data["alive"]), int(data.get("allies", 0)),
                         tuple(str(card) for card in data.get("used", ())))
    except (KeyError, TypeError, ValueError):
        raise CampaignError(f"campaign log: hero {hero!r}'s board is damaged") from None


def boards_json(heroes: Mapping[str, HeroBoard]) -> dict[str, dict[str, object]]:
    return {hero: board.as_json() for hero, board in heroes.items()}


def in_force(steps: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The steps an undo has not taken back (an undo takes back the latest one in force)."""
    kept: list[dict[str, Any]] = []
    for step in steps:
        if step.get("type") == "undo":
            if kept:
                kept.pop()
        else:
            kept.append(step)
    return kept


def replay(log: CampaignLog, route: Route) -> CampaignState:
    """The campaign as its log leaves it."""
    header = log.header
    try:
        heroes = {h: _board(h, b) for h, b in dict(header["heroes"]).items()}
        cave_data = header.get("hidden_cave")
        cave = None if cave_data is None else HiddenCave(
            tuple(cave_data["needed"]), tuple(cave_data["items"]),
            {h: () for h in heroes})
        death = header.get("hero_death", HERO_DEATH[0])
        if death not in HERO_DEATH:
            raise ValueError(death)
        settings = {**SETTINGS, **dict(header.get("settings", {}))}
        if any(settings[k] not in v for k, v in SETTING_OPTIONS.items()):
            raise ValueError(settings)
        state = CampaignState(route, str(header["lord"]), heroes, (), None, None, cave, 0,
                              death, settings)
    except (KeyError, TypeError, ValueError):
        raise CampaignError("campaign log: line 1 lacks the campaign's heroes or Lord") from None
    for step in in_force(log.steps):
        state = apply(state, step)
    return state


def apply(state: CampaignState, step: dict[str, Any]) -> CampaignState:
    kind = step.get("type")
    if kind == "enter":
        return replace(state, current=str(step["room"]), current_session=step.get("session"),
                       heroes=_at_setup(state, str(step["room"])), steps=state.steps + 1,
                       bought=())
    if kind == "visit":
        heroes = {h: _board(h, b) for h, b in dict(step["heroes"]).items()}
        return replace(state, heroes=heroes, bought=(*state.bought, str(step["offer"])),
                       steps=state.steps + 1)
    if kind == "end-room":
        heroes = {h: _board(h, b) for h, b in dict(step["heroes"]).items()}
        cave = state.hidden_cave
        if cave is not None and step.get("collected"):
            gained = dict(cave.collected)
            for hero, monster in step["collected"]:
                gained[hero] = (*gained.get(hero, ()), str(monster))
            cave = replace(cave, collected=gained)
        return replace(state, heroes=heroes, hidden_cave=cave,
                       done=(*state.done, str(step["room"])), current=None,
                       current_session=None, steps=state.steps + 1, bought=())
    raise CampaignError(f"campaign log: unknown step {kind!r}")


def _at_setup(state: CampaignState, room_id: str) -> dict[str, HeroBoard]:
    """A fallen hero comes back "at the next Setup": a battle room's or the lair's, not a
    visit's."""
    room = state.route.room(room_id)
    if room is None or room.kind == "special":
        return dict(state.heroes)
    return returning(state.heroes, state.hero_death)


def room_states(state: CampaignState) -> dict[str, str]:
    """Each room of the route: done, current, open or skipped.

    Ruling campaign-open-rooms: every room not yet visited is open, in any order; of two rooms
    offered as "either ... or", visiting one skips the other; the Lord's Lair ends the campaign
    and the rooms not visited by then are skipped."""
    found: dict[str, str] = {}
    visited = set(state.done) | ({state.current} if state.current else set())
    for step in state.route.steps:
        chosen = [r.id for r in step.rooms if r.id in visited]
        for room in step.rooms:
            if room.id in state.done:
                found[room.id] = "done"
            elif room.id == state.current:
                found[room.id] = "current"
            elif state.over or (step.choose == "one" and chosen):
                found[room.id] = "skipped"
            else:
                found[room.id] = "open"
    return found


def check_can_enter(state: CampaignState, room_id: str) -> None:
    if state.over:
        raise CampaignError("the campaign is over; see `automa campaign status`")
    if state.current is not None:
        raise CampaignError(f"the heroes are still in {state.current}: finish it with "
                            f"`automa campaign end-room` first")
    states = room_states(state)
    if room_id not in states:
        raise CampaignError(f"ROOM: {room_id!r} is not on the {state.route.name} route "
                            f"(open: {', '.join(r for r, s in states.items() if s == 'open')})")
    if states[room_id] != "open":
        raise CampaignError(f"ROOM: {room_id} is {states[room_id]}, not open")


HERO_DEATH = ("returns", "stays-dead", "keeps-board")  # ruling campaign-hero-death
SETTING_OPTIONS = {"althea-cure": ("official", "fan")}  # the campaign's switches, default first
SETTINGS = {key: options[0] for key, options in SETTING_OPTIONS.items()}


def died(board: HeroBoard, rule: str) -> HeroBoard:
    """A hero who fell in a room (ruling campaign-hero-death)."""
    if rule == "keeps-board":
        return replace(board, health=0, poison=0, alive=False)
    return replace(board, health=0, gold=0, poison=0, items=0, alive=False)


def returning(heroes: Mapping[str, HeroBoard], rule: str) -> dict[str, HeroBoard]:
    """The heroes at the next room's setup: the fallen come back with half their starting
    health, rounded down, unless the rule keeps them dead."""
    if rule == "stays-dead":
        return dict(heroes)
    return {h: b if b.alive or b.starting_health // 2 < 1
            else replace(b, health=b.starting_health // 2, alive=True)
            for h, b in heroes.items()}


def carried_back(heroes: Mapping[str, HeroBoard], pieces: Iterable[Piece],
                 out: Mapping[str, str], rule: str) -> dict[str, HeroBoard]:
    """The heroes' boards as the room's session leaves them; a hero who left play dead, or
    with no health, is dead. Devoured and teleported heroes come back at the room's end."""
    on_mat = {p.id: p for p in pieces if p.side == "heroes" and p.kind == "hero"}
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
    whose card's gold our data lacks counts 0 (the players add it with --change)."""
    gained: dict[str, int] = {}
    for piece_id, hero in gold_earners(out, frozen_by or {}).items():
        board = heroes.get(hero)
        monster = kinds.get(piece_id)
        if board is None or not board.alive or monster is None:
            continue
        gained[hero] = gained.get(hero, 0) + (gold_of.get(monster) or 0)
    return gained


def resurrected(heroes: Mapping[str, HeroBoard], hero: str, health: int
                ) -> dict[str, HeroBoard]:
    board = heroes.get(hero)
    if board is None or board.alive:
        raise CampaignError(f"--resurrect: {hero!r} is not a dead hero of the campaign")
    return {**heroes, hero: replace(board, health=health, alive=True)}


def rewarded(heroes: Mapping[str, HeroBoard], rewards: Rewards, spell_to: str | None
             ) -> dict[str, HeroBoard]:
    """Room Level Rewards: every surviving hero gets the gold; one chosen hero the Spell card."""
    if rewards.spell and spell_to is not None:
        chosen = heroes.get(spell_to)
        if chosen is None or not chosen.alive:
            raise CampaignError(f"--spell-to: {spell_to!r} is not a surviving hero")
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


def is_lair(room_id: str) -> bool:
    return room_id == LAIR


BOARD_FIELDS = ("health", "gold", "poison", "items", "spells", "allies")


def parse_change(text: str) -> tuple[str, str, int]:
    """`elf.gold=-3`: a change the players made on a hero's board (a visit's purchase)."""
    target, _, amount = text.partition("=")
    hero, _, field = target.partition(".")
    digits = amount[1:] if amount[:1] in "+-" else amount
    if not hero or field not in BOARD_FIELDS or not digits.isascii() or not digits.isdigit():
        raise CampaignError(f"--change: write HERO.FIELD=+N or -N (FIELD one of "
                            f"{', '.join(BOARD_FIELDS)}), not {text!r}")
    return hero, field, int(amount)


def changed(heroes: Mapping[str, HeroBoard], changes: Iterable[tuple[str, str, int]]
            ) -> dict[str, HeroBoard]:
    boards = dict(heroes)
    for hero, field, amount in changes:
        board = boards.get(hero)
        if board is None or not board.alive:
            raise CampaignError(f"--change: {hero!r} is not a living hero of the campaign")
        value = getattr(board, field) + amount
        if value < 0:
            raise CampaignError(f"--change: {hero} has only {getattr(board, field)} {field}")
        boards[hero] = replace(board, **{field: value})
    return boards


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
        raise CampaignError("--collect: this campaign is played without the Hidden Cave")
    kept: list[tuple[str, str]] = []
    for hero, monster in pairs:
        if hero not in state.heroes:
            raise CampaignError(f"--collect: {hero!r} is not a hero of the campaign")
        if monster not in cave.needed:
            raise CampaignError(f"--collect: {monster!r} is not one of the Hidden Cave's "
                                f"monsters ({', '.join(cave.needed)})")
        if monster in cave.collected.get(hero, ()) or (hero, monster) in kept:
            raise CampaignError(f"--collect: {hero} already keeps a {monster}")
        kept.append((hero, monster))
    return kept
