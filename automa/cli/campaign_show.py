"""What the campaign commands print: the status (text and CONTRACT.md's JSON), a fallen hero's
line, the Resolution Phase's line, one line per campaign step."""

from __future__ import annotations

from typing import Any


def status_json(state: Any) -> dict[str, Any]:
    from automa.campaign.rules import boards_json, room_states

    states = room_states(state)
    cave = state.hidden_cave
    return {
        "campaign": state.route.id, "lord": state.lord,
        "rooms": [{"id": r.id, "name": r.name, "level": r.level, "state": states[r.id]}
                  for r in state.route.rooms],
        "heroes": boards_json(state.heroes),
        "hidden_cave": None if cave is None else {
            "needed": list(cave.needed),
            "collected": {h: list(m) for h, m in cave.collected.items()},
            "items": list(cave.items)},
    }


def status_text(state: Any) -> str:
    from automa.campaign.rules import room_states

    states = room_states(state)
    lines = [f"{state.route.name} campaign, Catacomb Lord: {state.lord}"]
    for room in state.route.rooms:
        level = f" (level {room.level})" if room.level is not None else ""
        lines.append(f"  {states[room.id]:<8} {room.name}{level}  [{room.id}]")
    lines.append("Heroes:")
    for hero, b in state.heroes.items():
        fate = "" if b.alive else "  (dead)"
        extra = (f", allies {b.allies}" if b.allies else "") + (
            f", used this game: {', '.join(b.used)}" if b.used else "")
        lines.append(f"  {hero}: health {b.health}/{b.starting_health}, gold {b.gold}, "
                     f"poison {b.poison}, items {b.items}, spells {b.spells}{extra}{fate}")
    if state.hidden_cave is not None:
        cave = state.hidden_cave
        lines.append(f"Hidden Cave: collect {', '.join(cave.needed)}; items "
                     f"{', '.join(cave.items)}")
        for hero, kept in cave.collected.items():
            ready = " (all five: may enter the Hidden Cave)" if set(cave.needed) <= set(kept) \
                else ""
            lines.append(f"  {hero} keeps: {', '.join(kept) or 'none yet'}{ready}")
    if state.done:
        names = [state.route.room(r).name if state.route.room(r) else r for r in state.done]
        lines.append(f"Played, in order: {', '.join(str(n) for n in names)}")
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
        from automa.rules.rulings import cite

        lines.append("Next: `automa campaign next ROOM` with one of the open rooms (any room "
                     f"not yet visited: {cite('campaign-open-rooms')})")
    return "\n".join(lines)


def resolution_line(gained: dict[str, int], state: Any) -> str:
    """The Resolution Phase: kill gold, and every monster back to the Monster Pool but the
    Hidden Cave's five pieces, which stay aside the whole game."""
    gold = "; ".join(f"{hero} +{n} gold" for hero, n in gained.items()) or "no hero's kills"
    cave = state.hidden_cave
    aside = (f" (the Hidden Cave's pieces stay aside: {', '.join(cave.needed)}; those the "
             f"heroes destroyed stay on their boards)" if cave is not None else "")
    return (f"Resolution: the printed gold of the monsters each hero destroyed: {gold}. Every "
            f"monster goes back to the Monster Pool{aside}.")


def fallen_line(hero: str, state: Any) -> str:
    board = state.heroes[hero]
    what = {"returns": f"their Items and Poison cards go back to the decks and their gold to the "
                       f"Treasury; they keep their Spells and come back at the next room's setup "
                       f"with {board.starting_health // 2} health",
            "stays-dead": "their Items and Poison cards go back to the decks and their gold to "
                          "the Treasury; they stay dead unless resurrected",
            "keeps-board": f"they keep coins, items and spells, lose their Poison cards and "
                           f"come back at the next room's setup with "
                           f"{board.starting_health // 2} health"}[state.hero_death]
    from automa.rules.rulings import cite

    return (f"{hero} fell: {what} (* {cite('campaign-hero-death')}, hero-death = "
            f"{state.hero_death})")


def describe_step(step: dict[str, Any]) -> str:
    kind = step.get("type")
    if kind == "enter":
        where = f" (session {step['session']})" if step.get("session") else " (a visit)"
        return f"entered {step.get('room')}{where}"
    if kind == "end-room":
        rewards = step.get("rewards")
        gained = "" if not rewards else (
            f": {rewards['gold']} gold each"
            + (f", a Spell card for {rewards['spell_to']}" if rewards["spell"] else ""))
        return f"ended {step.get('room')}{gained}"
    if kind == "visit":
        payers = ", ".join(f"{h} {n}" for h, n in dict(step.get("payers", {})).items())
        drawn = (f", drew {', '.join(step['drawn'])} -> {step.get('reward') or 'nothing'}"
                 if step.get("drawn") else "")
        return (f"bought {step.get('offer')} at {step.get('room')} for {step.get('price')} gold"
                + (f" ({payers})" if payers else "")
                + (f" for {step['for']}" if step.get("for") else "") + drawn)
    return "undo"
