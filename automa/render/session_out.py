"""Printouts of a session: its status and its input log."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from automa.model.board import HeroBoard, board_of
from automa.render.json_out import pieces_json
from automa.session.events import Event
from automa.session.state import SessionState

Antients = Mapping[str, Sequence[tuple[str, bool]]]  # hero -> (Antient, summoned) in order won


def status_json(state: SessionState, antients: Antients | None = None) -> dict[str, Any]:
    """The battle as JSON; with `antients` (cli/play_cave.py `antients_held`) each board also
    lists the Antients the hero holds: `[{"name": ..., "summoned": bool}]`."""
    boards: dict[str, dict[str, Any]] = {
        b.hero: {"health": b.health, "starting_health": b.starting_health, "gold": b.gold,
                 "poison": b.poison, "items": b.items, "kills": list(b.kills),
                 "used": list(b.used)} for b in hero_boards(state)}
    if antients is not None:
        for hero, board in boards.items():
            board["antients"] = [{"name": name, "summoned": summoned}
                                 for name, summoned in antients.get(hero, ())]
    return {"round": state.round, "phase": state.phase, "pieces": pieces_json(state.battle),
            "out": dict(state.battle.out), "boards": boards}


def antients_text(held: Sequence[tuple[str, bool]]) -> str:
    """`; Antients: urthoth (summoned), dargoth (not summoned yet)`, or nothing."""
    if not held:
        return ""
    return "; Antients: " + ", ".join(
        f"{name} ({'summoned' if summoned else 'not summoned yet'})" for name, summoned in held)


def hero_boards(state: SessionState) -> list[HeroBoard]:
    """Each hero's board as the battle stands (no kills on it in the Lord fight)."""
    lord_fight = any(p.kind == "catacomb-lord" for p in state.scenario.pieces)
    return [board_of(p, state.battle.out, lord_fight) for p in state.battle.pieces
            if p.side == "heroes" and p.kind == "hero"]


def status_text(state: SessionState, unmeasured: Collection[str] = frozenset(),
                antients: Antients | None = None) -> str:
    """Where the battle stands; a piece in `unmeasured` (asked geometry: moved by the AI and
    not yet reported) shows no coordinates, since nobody measured them. `antients`: the
    Antients each hero holds, shown on their board."""
    phase = "the heroes' turn" if state.phase == "heroes" else "the AI turn"
    lines = [f"Round {state.round} · {phase}"]
    for side, title in (("heroes", "Heroic Forces"), ("ai", "AI"), ("neutral", "Neutral")):
        pieces = [p for p in state.battle.pieces if p.side == side]
        if not pieces:
            continue
        lines.append(f"  {title}:")
        for p in pieces:
            health = "" if p.health is None else f" health {p.health}"
            extra = "".join(f" {k} {getattr(p, k)}" for k in ("gold", "poison", "items")
                            if side == "heroes")
            conditions = f" [{', '.join(sorted(p.conditions))}]" if p.conditions else ""
            where = ("(not measured)" if p.id in unmeasured
                     else f"({p.at[0]:5.1f}, {p.at[1]:5.1f})")
            lines.append(f"    {p.id:<18} {where:<14}{health}{extra}{conditions}")
    boards = hero_boards(state)
    if boards:
        lines.append("  Hero boards:")
        lines += [f"    {board.text()}{antients_text((antients or {}).get(board.hero, ()))}"
                  for board in boards]
    if state.battle.out:
        lines.append("  Out of play: " + ", ".join(f"{k} ({v})"
                                                   for k, v in state.battle.out.items()))
    if state.phase == "ai" and state.progress is not None:
        lines.append(f"  Acted this turn: {', '.join(sorted(state.progress.acted)) or 'nobody'}")
    return "\n".join(lines) + "\n"


def describe_event(event: Event) -> str:
    kind = event.get("type")
    if kind == "activation":
        dice = ", ".join(f"{o['kind']} {o['value']}" for o in event.get("outcomes", []))
        summary = event.get("summary")
        if isinstance(summary, str) and summary:  # logged since the summary was kept
            return clean(summary) + (f", {clean(dice)}" if dice else "")
        return f"AI activation ({clean(dice) or 'no dice'})"
    if kind == "damaged":
        line = event.get("line")
        return (f"damaged line {line}" if line else "damaged input") + \
            f" ({clean(str(event.get('problem', '')))})"
    if kind == "move":
        x, y = event["to"]
        return f"move {event['piece']} to ({x:.1f}, {y:.1f})"
    if kind in ("damage", "heal", "gold", "items", "poison"):
        return f"{kind} {event['piece']} {event['amount']:+d}" if kind in (
            "gold", "items", "poison") else f"{kind} {event['piece']} {event['amount']}"
    if kind == "used":
        return f"{event['piece']} used {event.get('card')} (once per {event.get('per')})"
    if kind == "hit":
        by = f" by {event['by']}" if event.get("by") else ""
        return f"hit {', '.join(map(str, event.get('targets', [])))} {event.get('shot')}{by}"
    if kind == "remove":
        return f"{event['piece']} leaves play ({event.get('why', 'dead')})"
    if kind == "condition":
        return f"{event['piece']} {'is' if event['on'] else 'is no longer'} {event['condition']}"
    if kind == "rollback":
        return f"rollback to {event['to']} inputs"
    if kind == "cave":
        return describe_cave(event)
    if kind == "summon":
        return clean(f"{event['piece']} summoned Antient {event['antient']} (instead of the "
                     f"base shot sequence)")
    if kind in MARKER_WORDS:
        return MARKER_WORDS[kind]
    if kind == "checkpoint":
        return CHECKPOINT_WORDS.get(str(event.get("why")), CHECKPOINT_WORDS[""])
    return clean(str(kind))


CHECKPOINT_WORDS = {"data": "checkpoint: the battle as logged goes on under the new data",
                    "recomputed": "checkpoint: the battle as computed here goes on",
                    "": "checkpoint: the battle goes on as it stood"}


MARKER_WORDS = {"end-heroes-turn": "end of the heroes' turn",
                "undo": "undo of the last input", "redo": "redo of the last input undone"}


def describe_cave(event: Event) -> str:
    """A `cave` input as the log line: the hero's Kraken fight and what it gave them."""
    from automa.model.components import DamageToken
    from automa.rules.kraken import hero_wins

    labels = [str(t) for t in event.get("tokens") or ()]
    total = sum(DamageToken.parse(t).value for t in labels)
    strength = int(event["strength"])
    tie = str(event.get("tie", "kraken"))
    won = hero_wins(strength, total, tie)
    sent = " (sent by the Portal Trap)" if event.get("portal") else ""
    fight = (f"{event['piece']} fought the Kraken{sent}: strength {strength}, tokens "
             f"{', '.join(labels) or 'none'} = {total}")
    if total == strength:
        fight += f", a tie ({tie} wins)"
    item = event.get("item")
    outcome = (f"the hero wins; 1 platinum, 2 health, item {item}, Antient "
               f"{event.get('antient')}" if won else
               f"the Kraken wins; a Poison card discarded (if any), item {item}")
    return clean(f"{fight}: {outcome}")


def clean(text: str) -> str:
    """Log text as printable characters: an edited log cannot send escape codes to the
    terminal."""
    return "".join(c if c.isprintable() else "?" for c in text)


def latest_activation_text(state: SessionState, coordinates: bool) -> str:
    """The printout of the session's latest activation, numbered within its AI turn."""
    from automa.render.text import activation_lines, labelled

    round_number, activation = state.activations[-1]
    pieces, names = labelled(state.scenario.pieces, state.battle.pieces)
    number = 0
    for r, _ in reversed(state.activations):
        if r != round_number:
            break
        number += 1
    lines = activation_lines(number, activation, names, pieces,
                             state.scenario.settings.los_blocked, coordinates=coordinates)
    if state.phase == "heroes":
        lines.append(f"The AI turn is over. Round {state.round}: the heroes' turn.")
    return "\n".join(lines)
