"""`automa play`'s Hidden Cave and Antient commands, and what a room's battle knows of the rest
of its campaign (read only): the Hidden Cave's five monsters and items, each hero's collection,
and what earlier rooms' sessions logged (cave visits, Antients won and summoned).

A session inside a campaign folder is `CAMPAIGN/rooms/NN-room/`; anywhere else there is no
campaign and no Hidden Cave.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from automa.errors import InputError
from automa.rules.hidden_cave import HiddenCave
from automa.session.events import Event

if TYPE_CHECKING:
    from automa.model.components import DamageToken
    from automa.model.scenario import Bag

ROOMS = "rooms"


@dataclass(frozen=True)
class CampaignView:
    """What the other rooms of the session's campaign say."""

    cave: HiddenCave | None  # needed, items and collections as the campaign log has them
    events: tuple[Event, ...]  # the inputs in force of the campaign's other rooms' sessions


def campaign_view(session: Any) -> CampaignView | None:
    """The campaign the session belongs to, or None when it belongs to none."""
    from automa.campaign import log as campaign_log
    from automa.campaign.rules import in_force
    from automa.session.store import Session

    folder: Path = session.folder
    home = folder.resolve().parent.parent
    if folder.resolve().parent.name != ROOMS or not (home / campaign_log.LOG).is_file():
        return None
    contents = campaign_log.read(home)
    steps = in_force(contents.steps)
    data = contents.header.get("hidden_cave")
    cave = None
    if isinstance(data, dict):
        collected: dict[str, tuple[str, ...]] = {}
        for step in steps:
            for hero, monster in step.get("collected") or () if step.get("type") == "end-room" \
                    else ():
                collected[str(hero)] = (*collected.get(str(hero), ()), str(monster))
        cave = HiddenCave(tuple(map(str, data.get("needed", ()))),
                          tuple(map(str, data.get("items", ()))), tuple(collected.items()))
    events: list[Event] = []
    for step in steps:
        room = step.get("session") if step.get("type") == "enter" else None
        if not isinstance(room, str) or (home / room).resolve() == folder.resolve():
            continue
        other = Session.open(home / room, session.catalog)
        events.extend(other.effective()[0])
    return CampaignView(cave, tuple(events))


def cave_now(session: Any, view: CampaignView) -> HiddenCave:
    """The Hidden Cave as this battle leaves it: the campaign's collections plus the cave
    monsters this battle logged as killed by a hero; the items taken and the visits made in
    the campaign's Kraken fights, this battle's included."""
    from automa.rules.hidden_cave import collect

    assert view.cave is not None
    cave = view.cave
    kinds = {p.id: p.monster for p in session.state.scenario.pieces}
    heroes = {p.id for p in session.state.scenario.pieces if p.side == "heroes"}
    for piece_id, why in session.state.battle.out.items():
        hero = why.removeprefix("killed by ")
        monster = kinds.get(piece_id)
        if why.startswith("killed by ") and hero in heroes and monster is not None:
            cave, _ = collect(cave, hero, monster)
    for event in (*view.events, *session.effective()[0]):
        if event.get("type") != "cave":
            continue
        items = list(cave.items)
        if event.get("item") in items:
            items.remove(str(event.get("item")))
        visited = cave.visited if event.get("portal") else (*cave.visited, str(event["piece"]))
        cave = replace(cave, items=tuple(items), visited=visited)
    return cave


def antients_won(events: tuple[Event, ...], hero: str | None = None) -> list[str]:
    """The Antients won in the Hidden Cave, by one hero or by anyone."""
    return [str(e["antient"]) for e in events if e.get("type") == "cave" and e.get("antient")
            and (hero is None or e.get("piece") == hero)]


def antients_held(session: Any) -> dict[str, tuple[tuple[str, bool], ...]]:
    """Each hero's Antients won in the Hidden Cave (this campaign's rooms and this battle), in
    the order won, each with whether it has been summoned (here or in an earlier room)."""
    from automa.session.cave_events import summoned_mark

    view = campaign_view(session)
    events = (*(view.events if view else ()), *session.effective()[0])
    held: dict[str, tuple[tuple[str, bool], ...]] = {}
    for hero in session.state.battle.pieces:
        if hero.side != "heroes" or hero.kind != "hero":
            continue
        gone = {*hero.used, *summoned_in_other_rooms(view, hero.id)}
        held[hero.id] = tuple((name, summoned_mark(name) in gone)
                              for name in antients_won(events, hero.id))
    return held


def summoned_in_other_rooms(view: CampaignView | None, hero: str) -> list[str]:
    """The Antients the hero summoned in the campaign's other rooms: used for the rest of the
    game. (Cards used once per game need no such look: the campaign logs them at the start of
    each room's battle.)"""
    from automa.session.cave_events import summoned_mark

    if view is None:
        return []
    return [summoned_mark(str(e.get("antient"))) for e in view.events
            if e.get("type") == "summon" and e.get("piece") == hero]


def _ask_choice(prompt: str, choices: list[str]) -> str:
    """One of `choices`, as the players say (`PromptAsker.choice`); the end of the input stops
    `play`, with nothing of the fight logged."""
    from automa.cli.asker import PromptAsker
    from automa.cli.play import Quit

    try:
        return PromptAsker().choice(f"  {prompt}", choices)
    except InputError:  # the input ended at the question
        raise Quit from None


def cave(session: Any, args: list[str]) -> None:
    """`cave HERO SHOTS [portal]`: the hero enters the Hidden Cave instead of their turn (or was
    sent there by the Portal Trap) and fights the Kraken at once (ruling cave-in-battle)."""
    from automa.cli.asker import PromptAsker, plain_number
    from automa.rules.hidden_cave import enter
    from automa.rules.kraken import fight, token_count
    from automa.rules.rulings import cite, option
    from automa.session.state import new_chance

    usage = "cave HERO SHOTS [portal] (SHOTS: the damage-inflicting shot icons on the hero's " \
            "base sequence, Ability and Item cards, used ones too, and up to five Spell cards)"
    if not args:
        _show(session)
        return
    portal = bool(args) and args[-1].lower() == "portal"
    words = args[:-1] if portal else args
    if len(words) != 2 or plain_number(words[1]) is None:
        raise InputError(f"usage: {usage}")
    hero_id, shots = words[0], int(words[1])
    view = campaign_view(session)
    if view is None or view.cave is None:
        raise InputError("no Hidden Cave in this game: it is set up with `automa campaign new "
                         "... --hidden-cave`, and this session is not a room of such a campaign")
    if session.state.phase != "heroes" and not portal:
        raise InputError(f"not the heroes' turn: {hero_id} enters the Hidden Cave instead of "
                         f"taking their turn (`cave {hero_id} {shots} portal` when the Portal "
                         f"Trap sent them)")
    hero = session.state.battle.get(hero_id)
    if hero is None or hero.side != "heroes" or hero.kind != "hero":
        raise InputError(f"no hero {hero_id!r} in play")
    if hero not in session.state.battle.on_table() and not portal:
        raise InputError(f"{hero_id} is on the Teleported! or Devoured! card: not on the mat")
    from automa.session.hero_turn import acted

    done, _ = session.effective()
    took = None if portal else acted(done, hero_id)
    if took is not None:
        raise InputError(f"{hero_id} {took}: the Hidden Cave is entered instead of taking "
                         f"their normal turn")
    now = cave_now(session, view)
    enter(now, hero_id, portal_trap=portal)  # refused in one line when not allowed
    if not now.items:
        raise InputError("no item is left beside the Hidden Cave card")
    catalog = session.catalog
    level = catalog.components.red_bag
    tie = option(session.state.scenario.settings.rulings, "kraken-tie")
    chance = new_chance(catalog, session.seed, len(done),
                        PromptAsker() if session.physical else None)
    why = "sent by the Portal Trap" if portal else "instead of their turn"
    click.echo(f"  {hero_id} enters the Hidden Cave ({why}) and has left the Battle Phase; "
               f"the Kraken fight ({cite('cave-in-battle')})")
    click.echo(f"  {hero_id} draws {token_count(hero.health or 0, shots)} red Damage tokens "
               f"(level {level} bag, {cite('kraken-bag')}), one at a time, keeping each out of "
               f"the bag")
    drawn = [0]

    def draw(bag: Bag, hand: Sequence[DamageToken]) -> DamageToken:
        if session.physical and drawn[0] and not hand:  # every token was in hand
            click.echo(f"  The bag is empty: note the {drawn[0]} tokens drawn so far and put "
                       f"them all back into the bag ({cite('kraken-draw')})")
        drawn[0] = len(hand) + 1
        return chance.token(level, bag, "against the Kraken", hand)

    result = fight(hero.health or 0, shots, session.state.battle.bags[level],
                   lambda: chance.d12("the Kraken's strength"), draw, tie)
    antient = None
    if result.hero_wins:
        item = _ask_choice(f"{hero_id} evaded the Kraken: the item of their choice",
                           list(now.items))
        taken = set(antients_won((*view.events, *done)))
        free = [a for a, spec in sorted(catalog.monsters.items())
                if spec.kind == "antient" and a not in taken]
        antient = _ask_choice("the unused Antient of their choice", free) if free else "none"
    else:
        item = chance.pick(list(now.items), "the item beside the Hidden Cave card")
    event = {"type": "cave", "piece": hero_id, "shots": shots, "bag": level,
             "strength": result.strength, "tokens": [t.label() for t in result.tokens],
             "tie": tie, "item": item, "antient": antient, "portal": portal}
    session.report(event)
    for line in fight_lines(result, hero_id, hero.health or 0, shots, item, antient):
        click.echo(f"  {line}")
    after = session.state.battle.piece(hero_id)
    click.echo(f"  {hero_id}: health {after.health}, gold {after.gold}, poison {after.poison}, "
               f"items {after.items}; back on the mat where they stood")


def _show(session: Any) -> None:
    """`cave` alone: the Hidden Cave as this battle leaves it."""
    view = campaign_view(session)
    if view is None or view.cave is None:
        raise InputError("no Hidden Cave in this game")
    cave = cave_now(session, view)
    click.echo(f"  the Hidden Cave: collect {', '.join(cave.needed)}; items beside the card: "
               f"{', '.join(cave.items) or 'none'}")
    for hero in sorted({p.id for p in session.state.scenario.pieces
                        if p.side == "heroes" and p.kind == "hero"}):
        missing = cave.missing(hero)
        state = "visited" if hero in cave.visited else \
            "may enter instead of their turn" if not missing else \
            f"missing {', '.join(missing)}"
        click.echo(f"  {hero} keeps: {', '.join(cave.pieces(hero)) or 'none'} ({state})")


def fight_lines(result: Any, hero: str, health: int, shots: int, item: str,
                antient: str | None) -> list[str]:
    from automa.rules.rulings import cite

    faces = " ".join(t.label() for t in result.tokens) or "none"
    lines = [f"the Kraken's strength (D12): {result.strength}",
             f"red tokens ({health // 4} for health, {shots} for shot icons): {faces} = "
             f"{result.total}"]
    if result.tie:
        lines.append(f"a tie: {'the hero' if result.hero_wins else 'the Kraken'} wins "
                     f"({cite('kraken-tie')})")
    if result.hero_wins:
        lines.append(f"the hero evades the Kraken: 1 platinum coin (5 gold), 2 health, {item} "
                     f"(their choice), the Antient {antient} (summon it instead of the base "
                     f"shot sequence in a later turn: `summon {hero} {antient}`)")
    else:
        lines.append(f"the Kraken wins: one Poison card discarded (if any), and {item}, drawn "
                     f"at random")
    return lines


def summon(session: Any, args: list[str]) -> None:
    """`summon HERO ANTIENT`: an Antient the hero holds (won in the Hidden Cave, or a hero's
    Antient card in this battle) summoned instead of the base shot sequence."""
    from automa.rules.rulings import cite
    from automa.session.cave_events import summoned_mark

    if len(args) != 2:
        raise InputError("usage: summon HERO ANTIENT")
    hero_id, antient = args
    if session.state.phase != "heroes":
        raise InputError(f"not the heroes' turn: {hero_id} summons an Antient instead of "
                         f"performing their base shot sequence in their turn")
    view = campaign_view(session)
    done, _ = session.effective()
    won = antients_won((*(view.events if view else ()), *done), hero_id)
    cards = [p.id for p in session.state.scenario.pieces
             if p.side == "heroes" and p.kind == "antient"]
    if antient not in won and antient not in cards:
        held = ", ".join([*won, *cards]) or "none"
        raise InputError(f"{hero_id} holds no Antient {antient!r} (held: {held}; won in the "
                         f"Hidden Cave or a hero's Antient card in this battle)")
    if summoned_mark(antient) in summoned_in_other_rooms(view, hero_id):
        raise InputError(f"{hero_id} summoned {antient} in an earlier room: it is used")
    session.report({"type": "summon", "piece": hero_id, "antient": antient})
    click.echo(f"  {hero_id} summons {antient} instead of performing their base shot sequence "
               f"(\"This Antient may be summoned instead of performing their hero's base shot "
               f"sequence in a subsequent turn of the Battle Phase\"); marked used on "
               f"{hero_id}'s board ({cite('antient-summon-once')}).")
    click.echo(f"  Place it within 2.5 cm of {hero_id}; it acts for the heroes first, then its "
               f"card passes to the Overseer and back until the Battle Phase ends "
               f"({cite('antient-control')}).")


def session_status_json(session: Any) -> dict[str, Any]:
    """`automa status --json` of a live session: the battle, and each board's Antients (the
    one object `status`, `undo`/`redo`/`rollback --json` and the board's `/api/state` print)."""
    from automa.render.session_out import status_json

    return status_json(session.state, antients_held(session))
