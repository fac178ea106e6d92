"""What a campaign's steps show: the status (text, and CONTRACT.md's JSON), a room entered or
ended, a visit's menu and purchases, a step taken back, and the log. The terminal prints these;
the board sends the same JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from automa.campaign.commands import Bet, Buy, EndRoom, EnterRoom, Step, boards_json
from automa.campaign.model import CampaignState, HeroBoard, room_states
from automa.model.campaigns import LAIR, LAIR_NAME
from automa.rules.battle_end import is_elani
from automa.rules.rulings import RulingKey, cite, key_of, ruling

if TYPE_CHECKING:
    from automa.campaign.store import Bought, Entered, RoomEnded, Undone
    from automa.model.campaigns import Offer, Visit
    from automa.model.components import TileSet

JSON = dict[str, object]


# The status --------------------------------------------------------------------------------

def _lord_is_start(state: CampaignState) -> bool:
    """The campaign's Lord is its start piece (ruling 56: the start piece is the Lord)."""
    return state.lord == state.route.start


def _next_room_open(state: CampaignState) -> bool:
    """The status says which rooms are open next (ruling 55)."""
    return not state.over and state.current is None


def after_lair(state: CampaignState) -> dict[str, str]:
    """What ruling lair-last decides for each room the list prints after the Lair (the
    Monstrosity's Healer): open (or visited now) before the Lair, skipped once the Lair ended
    the campaign. A room visited, or skipped for another reason (its either-or twin visited,
    every hero fallen before the Lair), is not its doing."""
    states = room_states(state)
    visited = set(state.done) | ({state.current} if state.current else set())
    decided: dict[str, str] = {}
    for room in state.route.after_lair:
        step = state.route.step_of(room.id)
        twin = step is not None and step.choose == "one" and any(
            r.id in visited for r in step.rooms if r.id != room.id)
        now = states[room.id]
        if now == "open" and not state.over:
            decided[room.id] = "open before it"
        elif now == "current":
            decided[room.id] = "visited before it"
        elif now == "skipped" and LAIR in state.done and not twin:
            decided[room.id] = "the Lair ended the campaign first"
    return decided


def status_rulings(state: CampaignState) -> list[int]:
    """The rulings the status printout marks."""
    keys = [*([RulingKey.CAMPAIGN_OPEN_ROOMS] if _next_room_open(state) else []),
            *([RulingKey.CAMPAIGN_LORD] if _lord_is_start(state) else []),
            *([RulingKey.LAIR_LAST] if after_lair(state) else [])]
    return sorted(ruling(key).number for key in keys)


def status_json(state: CampaignState) -> JSON:
    states = room_states(state)
    cave = state.hidden_cave
    return {
        "campaign": state.route.id, "lord": state.lord,
        "rooms": [{"id": r.id, "name": r.name, "level": r.level, "state": states[r.id]}
                  for r in state.route.rooms],
        "heroes": boards_json(state.heroes.values()),
        "hidden_cave": None if cave is None else {
            "needed": list(cave.needed),
            "collected": {h: list(m) for h, m in cave.collected.items()},
            "items": list(cave.items_left),  # those still beside the card
            "visits": [v.as_json() for v in cave.visits],
            "antients": {h: list(cave.antients(h)) for h in state.heroes}},
        "rulings": status_rulings(state),
    }


def status_text(state: CampaignState) -> str:
    states = room_states(state)
    start = (f" (the campaign's start piece, {cite(RulingKey.CAMPAIGN_LORD)})"
             if _lord_is_start(state) else "")
    lines = [f"{state.route.name} campaign, Catacomb Lord: {state.lord}{start}"]
    decided = after_lair(state)
    for room in state.route.rooms:
        level = f" (level {room.level})" if room.level is not None else ""
        why = (f"  (listed after the Lair; {decided[room.id]}: {cite(RulingKey.LAIR_LAST)})"
               if room.id in decided else "")
        lines.append(f"  {states[room.id]:<8} {room.name}{level}  [{room.id}]{why}")
    lines.append("Heroes:")
    for hero, b in state.heroes.items():
        fate = "" if b.alive else "  (dead)"
        extra = (f", {allies_text(b)}" if b.allies or b.ally_boards else "") + (
            f", used this game: {', '.join(b.used)}" if b.used else "")
        lines.append(f"  {hero}: health {b.health}/{b.starting_health}, gold {b.gold}, "
                     f"poison {b.poison}, items {b.items}, spells {b.spells}{extra}{fate}")
    if state.hidden_cave is not None:
        lines.extend(cave_lines(state))
    if state.done:
        names = [(entry.name if (entry := state.route.room(r)) else r) for r in state.done]
        lines.append(f"Played, in order: {', '.join(names)}")
    if state.over:
        fallen = [h for h, b in state.heroes.items() if not b.alive]
        lines.append("The campaign is over: " + ("victory!" if state.victory else "defeat.")
                     + (f" Fallen: {', '.join(fallen)}." if fallen else ""))
    elif state.current is not None and state.current_session is None:
        bought = f" (bought so far: {', '.join(state.bought)})" if state.bought else ""
        lines.append(f"Now: visiting {state.current}{bought}: `automa campaign visit` shows what "
                     f"can be bought; then `automa campaign end-room`")
    elif state.current is not None:
        lines.append(f"Now: {state.current} (session {state.current_session}); then "
                     f"`automa campaign end-room`")
    else:
        lines.append("Next: `automa campaign next ROOM` with one of the open rooms (any room "
                     f"not yet visited: {cite(RulingKey.CAMPAIGN_OPEN_ROOMS)})")
    return "\n".join(lines)


def cave_lines(state: CampaignState) -> list[str]:
    """The Hidden Cave: the five, the items still beside the card, each hero's collection, and
    the Kraken fights fought in the rooms' battles."""
    cave = state.hidden_cave
    assert cave is not None
    lines = [f"Hidden Cave: collect {', '.join(cave.needed)}; items "
             f"{', '.join(cave.items_left) or 'none left'}"]
    for hero, kept in cave.collected.items():
        ready = ""
        if cave.visited(hero):
            ready = f" (has visited the Hidden Cave: {cite(RulingKey.CAVE_ONCE)})"
        elif set(cave.needed) <= set(kept):
            ready = " (all five: may enter the Hidden Cave)"
        lines.append(f"  {hero} keeps: {', '.join(kept) or 'none yet'}{ready}")
    for visit in cave.visits:
        room = state.route.room(visit.room)
        sent = " (sent by the Portal Trap)" if visit.portal else ""
        outcome = "evaded the Kraken" if visit.won else "the Kraken won"
        took = [visit.item or "no item (none left)"]
        if visit.antient:
            took.append(f"the Antient {visit.antient}")
        lines.append(f"  {visit.hero} in the Hidden Cave{sent}, in "
                     f"{room.name if room else visit.room}: {outcome}; took {' and '.join(took)}")
    return lines


# Entering and ending a room ----------------------------------------------------------------

def _lair_last_line(entered: Entered) -> str | None:
    """Ruling lair-last, when entering the room decides it: a room the list prints after the
    Lair visited before it, or the Lair entered while such a room is still open."""
    state = entered.state
    if entered.room.id in after_lair(state):
        return (f"The rulebook lists {entered.room.name} after the {LAIR_NAME}; it is visited "
                f"before the Lair, the campaign's last room ({cite(RulingKey.LAIR_LAST)}).")
    if entered.room.id != LAIR:
        return None
    states = room_states(state)
    left = [r.name for r in state.route.after_lair if states[r.id] == "open"]
    if not left:
        return None
    return (f"The Lair is the campaign's last room: {' and '.join(left)}, listed after it, "
            f"{'is' if len(left) == 1 else 'are'} not visited once it ends "
            f"({cite(RulingKey.LAIR_LAST)}).")


def _entered_rulings(entered: Entered) -> list[int]:
    return [ruling(RulingKey.LAIR_LAST).number] if _lair_last_line(entered) else []


def entered_json(entered: Entered, folder: Path) -> JSON:
    step = entered.step
    if entered.visit is not None:
        return {"room": step.room, "kind": "special", "session": None,
                "menu": menu_json(entered.visit, entered.state),
                "rulings": _entered_rulings(entered)}
    from automa.render.setup_out import setup_rulings

    setup = [] if entered.setup is None else setup_rulings(entered.setup)
    return {"room": step.room, "kind": entered.room.kind,
            "session": None if step.session is None else str(folder / step.session),
            "playmat": step.playmat,
            "rulings": sorted({*setup, *_entered_rulings(entered)})}


def entered_text(entered: Entered, folder: Path, tiles: TileSet) -> str:
    """A visit's menu, or the room's setup and where its battle is played."""
    from automa.render.setup_out import setup_text

    last = _lair_last_line(entered)
    if entered.visit is not None:
        return (f"{entered.room.name}: a visit (no battle).\n"
                + (f"{last}\n" if last else "")
                + menu_text(entered.visit, entered.state, folder))
    assert entered.setup is not None and entered.step.session is not None
    battle = folder / entered.step.session
    text = setup_text(entered.setup, tiles)
    if last:
        text += f"{last}\n"
    cave = entered.state.hidden_cave
    if cave is not None:
        text += (f"Hidden Cave: its pieces ({', '.join(cave.needed)}) stay aside, out of the "
                 f"Overseer's reach.\n")
    return text + (f"The battle is the session {battle}: `automa play --session {battle}`; "
                   f"when the room is over, `automa campaign end-room --session {folder}`")


def resolution_line(gained: Mapping[str, int], state: CampaignState) -> str:
    """The Resolution Phase: kill gold, and every monster back to the Monster Pool but the
    Hidden Cave's five pieces, which stay aside the whole game."""
    gold = "; ".join(f"{hero} +{n} gold" + (" (Elani the Thief: +1 a kill)"
                                             if is_elani(hero) else "")
                     for hero, n in gained.items()) or "no hero's kills"
    cave = state.hidden_cave
    aside = (f" (the Hidden Cave's pieces stay aside: {', '.join(cave.needed)}; those the "
             f"heroes destroyed stay on their boards)" if cave is not None else "")
    return (f"Resolution: the printed gold of the monsters each hero destroyed: {gold}. Every "
            f"monster goes back to the Monster Pool{aside}.")


def fallen_line(hero: str, state: CampaignState) -> str:
    board = state.heroes[hero]
    what = {"returns": f"their Items and Poison cards go back to the decks and their gold to the "
                       f"Treasury; they keep their Spells and come back at the next room's setup "
                       f"with {board.starting_health // 2} health",
            "stays-dead": "their Items and Poison cards go back to the decks and their gold to "
                          "the Treasury; they stay dead unless resurrected",
            "keeps-board": f"they keep coins, items and spells, lose their Poison cards and "
                           f"come back at the next room's setup with "
                           f"{board.starting_health // 2} health"}[state.hero_death]
    return (f"{hero} fell: {what} (* {cite(RulingKey.CAMPAIGN_HERO_DEATH)}, hero-death = "
            f"{state.hero_death})")


def _fallen(ended: RoomEnded) -> list[str]:
    """The heroes who fell in the room just ended."""
    return [hero for hero, b in ended.state.heroes.items()
            if not b.alive and ended.before[hero].alive]


def ended_json(ended: RoomEnded) -> JSON:
    """`end-room --json`: the status after the room, its rulings with the hero-death rule
    when a hero fell there."""
    status = status_json(ended.state)
    death = [ruling(RulingKey.CAMPAIGN_HERO_DEATH).number] if _fallen(ended) else []
    return {**status, "rulings": sorted({*status_rulings(ended.state), *death})}


def ended_text(ended: RoomEnded) -> str:
    step, state = ended.step, ended.state
    lines = [f"{ended.room.name} is done."]
    if step.kill_gold is not None:
        lines.append(resolution_line(dict(step.kill_gold), state))
    lines.extend(fallen_line(hero, state) for hero in _fallen(ended))
    if step.rewards is not None:
        spell_line = (f"; a Spell card for {step.spell_to} (then reshuffle the Spell deck)"
                      if step.rewards.spell else "")
        lines.append(f"Room Level Rewards: {step.rewards.gold} gold to each surviving hero"
                     f"{spell_line}")
    lines.append(status_text(state))
    return "\n".join(lines)


# A visit ------------------------------------------------------------------------------------

def _offer_ruling(offer: Offer) -> RulingKey | None:
    """The ruling whose option put this offer on the menu (Althea's price), if any."""
    return key_of(offer.ruling) if offer.ruling else None


def offer_json(offer: Offer, bought: int) -> JSON:
    key = _offer_ruling(offer)
    return {"id": offer.id, "text": offer.text, "price": offer.price, "effect": offer.effect,
            "provenance": offer.provenance, "limit": offer.limit, "bought": bought,
            "ruling": None if key is None else ruling(key).number}


def menu_rulings(visit: Visit, state: CampaignState) -> list[int]:
    """The rulings the menu marks: who pays (always), and the rulings its offers rest on."""
    keys = {RulingKey.VISIT_POOL, *(k for o in visit.menu(state.settings)
                                    if (k := _offer_ruling(o)) is not None)}
    return sorted(ruling(key).number for key in keys)


def menu_json(visit: Visit, state: CampaignState) -> JSON:
    from automa.campaign.visits import pooled, times_bought

    return {"room": visit.room, "pool": pooled(visit, state.settings),
            "provenance": visit.provenance,
            "offers": [offer_json(o, times_bought(state.bought, o.id))
                       for o in visit.menu(state.settings)],
            "rulings": menu_rulings(visit, state)}


def menu_text(visit: Visit, state: CampaignState, folder: Path) -> str:
    from automa.campaign.visits import pooled, times_bought
    from automa.rules.rulings import option

    lines = [f"What can be bought or done here ({visit.provenance} data):"]
    for offer in visit.menu(state.settings):
        price = "the card's price" if offer.price is None else f"{offer.price} gold"
        spent = (f" (used: {times_bought(state.bought, offer.id)} of {offer.limit})"
                 if offer.limit else "")
        key = _offer_ruling(offer)
        by = f" ({cite(key)}: {offer.option})" if key is not None else ""
        lines.append(f"  {offer.id:<11} {price:>16}  {offer.text}{by}{spent}")
    chosen = option(state.settings, RulingKey.VISIT_POOL)
    pool = ("the heroes may pool their gold" if pooled(visit, state.settings) else
            "one hero pays each price from their own gold" + (
                " (Catacomb heroes cannot share their gold)" if chosen == "own-gold" else ""))
    pay = "HERO=N,..." if pooled(visit, state.settings) else "HERO"
    lines.append(f"Gold: {pool} (* {cite(RulingKey.VISIT_POOL)}, visit-pool = {chosen}). Buy "
                 f"with `automa campaign visit OFFER --session {folder} --for HERO [--pay "
                 f"{pay}]`; leave with `automa campaign end-room --session {folder}`.")
    return "\n".join(lines)


def bought_json(bought: Bought) -> JSON:
    step = {k: v for k, v in bought.step.to_json().items() if k not in ("type", "heroes")}
    status = status_json(bought.state)
    key = _offer_ruling(bought.offer)
    marked = {*status_rulings(bought.state), *([ruling(key).number] if key else []),
              *([ruling(RulingKey.TAVERN_BET).number] if isinstance(bought.step, Bet) else [])}
    return {"visit": step, **status, "rulings": sorted(marked)}


def bought_line(step: Buy, offer: Offer) -> str:
    paid_by = ", ".join(f"{s.hero} {s.gold}" for s in step.payers or ()) or "nobody"
    if len(step.payers or ()) > 1:
        paid_by += f"; pooled, * {cite(RulingKey.VISIT_POOL)}"
    key = _offer_ruling(offer)
    by = f", {cite(key)}: {offer.option}" if key is not None else ""
    line = f"{offer.text}: {step.price} gold (paid: {paid_by}{by})"
    if step.hero:
        line += f", for {step.hero}"
    if isinstance(step, Bet):
        line += (f". Drawn: {', '.join(step.drawn or ())} -> {step.result or 'nothing'}"
                 + (f"; reward: {step.reward}" if step.reward else "")
                 + f" ({cite(RulingKey.TAVERN_BET)}; the pieces go back in the bag)")
    return line


def bought_text(bought: Bought) -> str:
    step = bought.step
    lines = [bought_line(step, bought.offer)]
    # an offer for every hero (the Inn's sleep) shows every board it changed
    every = bought.offer.effect.startswith("each:")
    for hero in sorted({*(s.hero for s in step.payers or ()), *([step.hero] if step.hero
                                                                 else []),
                        *(bought.state.heroes if every else ())}):
        b = bought.state.heroes[hero]
        lines.append(f"  {hero}: health {b.health}/{b.starting_health}, gold {b.gold}, "
                     f"poison {b.poison}, items {b.items}, {allies_text(b)}"
                     + ("" if b.alive else "  (dead)"))
    return "\n".join(lines)


# Undo and the log ---------------------------------------------------------------------------

def undone_json(undone: Undone) -> JSON:
    return {"undone": undone.step.to_json(), **status_json(undone.state)}


def undone_text(undone: Undone) -> str:
    last = undone.step
    what = ("entering" if isinstance(last, EnterRoom) else
            f"buying {last.offer} at" if isinstance(last, Buy) else "ending")
    room = last.room if isinstance(last, EnterRoom | EndRoom | Buy) else None
    session = last.session if isinstance(last, EnterRoom) else None
    kept = f" (its session stays in {session})" if session else ""
    return f"Undone: {what} {room}{kept}\n{status_text(undone.state)}"


def describe_step(step: Step) -> str:
    if isinstance(step, EnterRoom):
        where = f" (session {step.session})" if step.session else " (a visit)"
        return f"entered {step.room}{where}"
    if isinstance(step, EndRoom):
        rewards = step.rewards
        gained = "" if not rewards else (
            f": {rewards.gold} gold each"
            + (f", a Spell card for {step.spell_to}" if rewards.spell else ""))
        return f"ended {step.room}{gained}"
    if isinstance(step, Buy):
        payers = ", ".join(f"{s.hero} {s.gold}" for s in step.payers or ())
        drawn = (f", drew {', '.join(step.drawn)} -> {step.reward or 'nothing'}"
                 if isinstance(step, Bet) and step.drawn else "")
        return (f"bought {step.offer} at {step.room} for {step.price} gold"
                + (f" ({payers})" if payers else "")
                + (f" for {step.hero}" if step.hero else "") + drawn)
    return "undo"


def log_json(steps: Sequence[Step], undone: set[int]) -> JSON:
    return {"steps": [{**step.to_json(), "undone": i in undone} for i, step in enumerate(steps)]}


def log_text(steps: Sequence[Step], undone: set[int]) -> str:
    return "\n".join(f"{number:>3}. {describe_step(step)}"
                     + (" (undone)" if number - 1 in undone else "")
                     for number, step in enumerate(steps, start=1))


def allies_text(board: HeroBoard) -> str:
    """"allies 1 (elf-ally 6/8)": the count on the board, and each recruited ally's health."""
    each = ", ".join(f"{a.id} {a.health}/{a.starting_health}" + ("" if a.alive else " dead")
                     for a in board.ally_boards)
    return f"allies {board.allies}" + (f" ({each})" if each else "")
