"""Printouts of a session: its status, its input log, and what each command did (the lines the
terminal prints after a command and the board shows as its output)."""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Mapping, Sequence

from automa.catalog.fields import card_hint
from automa.engine.battle import Battle
from automa.model.board import HeroBoard, board_of
from automa.model.components import DamageToken
from automa.model.modes import KrakenTie
from automa.model.pieces import Condition, Kind, Side
from automa.render.json_out import pieces_json
from automa.rules.hidden_cave import HiddenCave
from automa.rules.kraken import hero_wins, token_count
from automa.rules.rulings import RulingKey, cite
from automa.session.apply import Applied
from automa.session.cave import NO_ANTIENT, KrakenFightBegins, Notice, antients_held
from automa.session.commands import (
    Adjust,
    Checkpoint,
    Command,
    Damage,
    Damaged,
    EndHeroesTurn,
    EnterCave,
    Heal,
    Hit,
    Move,
    NextActivation,
    Redo,
    Remove,
    ReturnToMat,
    Rollback,
    SetCondition,
    Summon,
    Undo,
    UseCard,
)
from automa.session.game import Game
from automa.session.positions import named_piece
from automa.session.state import Phase, SessionState, in_force
from automa.session.words import Asked

Antients = Mapping[str, Sequence[tuple[str, bool]]]  # hero -> (Antient, summoned) in order won
WIDTH = 100


def status_json(state: SessionState, antients: Antients | None = None,
                unmeasured: Collection[str] = frozenset()) -> dict[str, object]:
    """The battle as JSON; with `antients` (session/cave.py `antients_held`) each board also
    lists the Antients the hero holds: `[{"name": ..., "summoned": bool}]`. A piece in
    `unmeasured` (asked geometry: its place nobody measured) has `"at": null, "measured":
    false`."""
    boards: dict[str, dict[str, object]] = {
        b.hero: {"health": b.health, "starting_health": b.starting_health, "gold": b.gold,
                 "poison": b.poison, "items": b.items, "kills": list(b.kills),
                 "used": list(b.used)} for b in hero_boards(state)}
    if antients is not None:
        for hero, board in boards.items():
            board["antients"] = [{"name": name, "summoned": summoned}
                                 for name, summoned in antients.get(hero, ())]
    pieces = pieces_json(state.battle)
    for piece_id in unmeasured:
        if piece_id in pieces:
            pieces[piece_id].update(at=None, measured=False)
    return {"round": state.round, "phase": str(state.phase), "pieces": pieces,
            "out": dict(state.battle.out), "boards": boards}


def session_status_json(game: Game, unmeasured: Collection[str] | None = None
                        ) -> dict[str, object]:
    """`automa status --json` of a live session: the battle, and each board's Antients (the
    one object `status`, `undo`/`redo`/`rollback --json` and the board's `/api/state`
    print). Asked geometry: a piece whose place nobody measured has no `at` (null);
    `unmeasured` gives them when the caller has worked them out already."""
    from automa.render.measured import unmeasured_now

    if unmeasured is None:
        unmeasured = frozenset(unmeasured_now(game))
    return status_json(game.state, antients_held(game.state.battle, game.room,
                                                 game.effective()[0]), unmeasured)


def accepted_lines(state: SessionState, settled: Sequence[str], data: bool) -> list[str]:
    """What going on under the new data (`data`) or this machine's figures says: the battle as
    it stands is kept in the log, then what changed or was settled, one line each."""
    what = "the data and rulings in force now" if data else "the battle as computed here"
    return [f"Going on under {what} from the next input on; the battle as it stands is kept "
            f"in the log (round {state.round}, {state.phase}'s turn):",
            *(f"  {line}" for line in settled)]


def antients_text(held: Sequence[tuple[str, bool]]) -> str:
    """`; Antients: urthoth (summoned), dargoth (not summoned yet)`, or nothing."""
    if not held:
        return ""
    return "; Antients: " + ", ".join(
        f"{name} ({'summoned' if summoned else 'not summoned yet'})" for name, summoned in held)


def hero_boards(state: SessionState) -> list[HeroBoard]:
    """Each hero's board as the battle stands (no kills on it in the Lord fight)."""
    lord_fight = any(p.kind == Kind.CATACOMB_LORD for p in state.scenario.pieces)
    return [board_of(p, state.battle.out, lord_fight) for p in state.battle.pieces
            if p.side == Side.HEROES and p.kind == Kind.HERO]


def status_text(state: SessionState, unmeasured: Collection[str] = frozenset(),
                antients: Antients | None = None) -> str:
    """Where the battle stands; a piece in `unmeasured` (asked geometry: moved by the AI and
    not yet reported) shows no coordinates, since nobody measured them. `antients`: the
    Antients each hero holds, shown on their board."""
    phase = "the heroes' turn" if state.phase == Phase.HEROES else "the AI turn"
    lines = [f"Round {state.round} · {phase}"]
    for side, title in ((Side.HEROES, "Heroic Forces"), (Side.AI, "AI"),
                        (Side.NEUTRAL, "Neutral")):
        pieces = [p for p in state.battle.pieces if p.side == side]
        if not pieces:
            continue
        lines.append(f"  {title}:")
        for p in pieces:
            health = "" if p.health is None else f" health {p.health}"
            extra = "".join(f" {k} {getattr(p, k)}" for k in ("gold", "poison", "items")
                            if side == Side.HEROES)
            conditions = f" [{', '.join(sorted(p.conditions))}]" if p.conditions else ""
            colour = f" {p.colour} side up" if p.colour is not None else ""  # Yilleph's
            where = ("(not measured)" if p.id in unmeasured
                     else f"({p.at[0]:5.1f}, {p.at[1]:5.1f})")
            lines.append(f"    {p.id:<18} {where:<14}{health}{colour}{extra}{conditions}")
    boards = hero_boards(state)
    if boards:
        lines.append("  Hero boards:")
        lines += [f"    {board.text()}{antients_text((antients or {}).get(board.hero, ()))}"
                  for board in boards]
    if state.battle.out:
        lines.append("  Out of play: " + ", ".join(f"{k} ({v})"
                                                   for k, v in state.battle.out.items()))
    if state.phase == Phase.AI and state.progress is not None:
        lines.append(f"  Acted this turn: {', '.join(sorted(state.progress.acted)) or 'nobody'}")
        if state.progress.away:
            lines.append(f"  On the Teleported! card until the next round: "
                         f"{', '.join(sorted(state.progress.away))} "
                         f"({cite(RulingKey.TELEPORTED_BY_HEROES)})")
    return "\n".join(lines) + "\n"


MARKER_WORDS = {EndHeroesTurn.TYPE: "end of the heroes' turn",
                Undo.TYPE: "undo of the last input", Redo.TYPE: "redo of the last input undone"}


def describe_command(command: Command) -> str:
    """One input as `automa log` lists it."""
    if isinstance(command, NextActivation):
        dice = ", ".join(f"{o.kind} {o.value}" for o in command.outcomes)
        if command.summary:  # logged since the summary was kept
            return clean(command.summary) + (f", {clean(dice)}" if dice else "")
        return f"AI activation ({clean(dice) or 'no dice'})"
    if isinstance(command, Damaged):
        return (f"damaged line {command.line}" if command.line else "damaged input") + \
            f" ({clean(command.problem)})"
    if isinstance(command, Move):
        if command.to is None or (command.words is not None
                                  and named_piece(command.words) is not None):
            return clean(f"move {command.piece} to {command.words}")
        x, y = command.to
        return clean(f"move {command.piece} to ({x:.1f}, {y:.1f})")
    if isinstance(command, Damage | Heal):
        return clean(f"{command.TYPE} {command.piece} {command.amount}")
    if isinstance(command, Adjust):
        return clean(f"{command.counter} {command.piece} {command.change:+d}")
    if isinstance(command, UseCard):
        return clean(f"{command.piece} used {command.card} (once per {command.per})")
    if isinstance(command, Hit):
        by = f" by {command.by}" if command.by else ""
        return clean(f"hit {', '.join(command.targets)} {command.shot}{by}")
    if isinstance(command, Remove):
        return clean(f"{command.piece} leaves play ({command.why})")
    if isinstance(command, SetCondition):
        return clean(f"{command.piece} {'is' if command.on else 'is no longer'} "
                     f"{command.condition}")
    if isinstance(command, ReturnToMat):
        return clean(f"{command.piece} back on the mat from the Teleported! or Devoured! card")
    if isinstance(command, Rollback):
        return f"rollback to {command.keep} inputs"
    if isinstance(command, EnterCave):
        return describe_cave(command)
    if isinstance(command, Summon):
        return clean(f"{command.piece} summoned Antient {command.antient} (instead of the "
                     f"base shot sequence)")
    if isinstance(command, Checkpoint):
        return CHECKPOINT_WORDS.get(command.why, CHECKPOINT_WORDS[""])
    return MARKER_WORDS[command.TYPE]


CHECKPOINT_WORDS = {"data": "checkpoint: the battle as logged goes on under the new data",
                    "recomputed": "checkpoint: the battle as computed here goes on",
                    "": "checkpoint: the battle goes on as it stood"}


def describe_cave(command: EnterCave) -> str:
    """A Kraken fight as the log line: the hero's fight and what it gave them."""
    fight = command.fight
    sent = " (sent by the Portal Trap)" if command.portal else ""
    if fight is None:
        return clean(f"{command.piece} enters the Hidden Cave{sent}")
    labels = list(fight.tokens)
    total = sum(DamageToken.parse(t).value for t in labels)
    won = hero_wins(fight.strength, total, fight.tie)
    text = (f"{command.piece} fought the Kraken{sent}: strength {fight.strength}, tokens "
            f"{', '.join(labels) or 'none'} = {total}")
    if total == fight.strength:
        text += f", a tie ({fight.tie} wins)"
    item = f"item {fight.item}" if fight.item else "no item (none left)"
    outcome = (f"the hero wins; 1 platinum, 2 health, {item}, Antient {fight.antient}" if won
               else f"the Kraken wins; a Poison card discarded (if any), {item}")
    return clean(f"{text}: {outcome}")


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
                             state.scenario.settings.los_blocked, coordinates=coordinates,
                             fixes=True)
    if state.phase == Phase.HEROES:
        lines.append(f"The AI turn is over. Round {state.round}: the heroes' turn.")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# What a command did, in a few lines (indented as the play loop prints them).

def _wrapped(line: str) -> list[str]:
    return textwrap.wrap(line, WIDTH, initial_indent="  ", subsequent_indent="    ") or [""]


def applied_lines(applied: Applied, announced: bool = False) -> list[str]:
    """What the table is told after a heroes'-turn command (an activation's printout is
    `latest_activation_text`); `announced`: the notices before its questions were shown."""
    command, after = applied.command, applied.after.battle
    notes = [wrapped for note in applied.notes for wrapped in _wrapped(note)]
    if isinstance(command, Move):
        return [_moved_to(command), *notes]
    if isinstance(command, Damage | Heal | Adjust):
        piece = after.get(command.piece)
        return [f"  {command.piece}: " + ("out of play" if piece is None else
                                          f"health {piece.health}, gold {piece.gold}, items "
                                          f"{piece.items}, poison {piece.poison}")]
    if isinstance(command, Hit):
        rolls = [f"  D12 for the Portal Trap on {target}: {roll}"
                 for target, roll in zip(command.targets, command.portal, strict=False)]
        return [*rolls, *notes]
    if isinstance(command, UseCard):
        fate = "flip the card; it is refreshed in the next Setup Phase" \
            if command.per == "room" else "discard the card"
        return [clean(f"  {command.piece} used {command.card}: {fate}")]
    if isinstance(command, Remove):
        return [f"  {command.piece} leaves play"]
    if isinstance(command, SetCondition):
        return [f"  {command.piece} {'is' if command.on else 'is no longer'} "
                f"{command.condition}", *notes]
    if isinstance(command, ReturnToMat):
        return [f"  {command.piece} is back on the mat at its old spot: `move` it where it "
                f"stands", *notes]
    if isinstance(command, EnterCave):
        return cave_lines(applied, announced)
    if isinstance(command, Summon):
        return summon_lines(command, after)
    if isinstance(command, EndHeroesTurn):
        return [f"Round {applied.after.round}: the AI turn.", *notes]
    if isinstance(command, Undo | Redo):
        verb = "undone" if isinstance(command, Undo) else "redone"
        taken = describe_command(applied.taken) if applied.taken is not None else "nothing"
        return [f"  {verb}: {taken}"]
    if isinstance(command, Rollback):
        return [f"Rolled back to input {command.keep}"]
    return []


def _moved_to(command: Move) -> str:
    """Where a reported move put the piece: as the players said it (the side `touching` took
    included). Beside a piece, only that: it may stand where nobody measured (asked geometry),
    and a real mat has no grid anyway; beside a rune or obstacle, with the coordinates; typed
    as coordinates, those."""
    from automa.render.text import LANDMARK

    assert command.to is not None
    at = f"({command.to[0]:.1f}, {command.to[1]:.1f})"
    if command.words is None:
        return f"  {command.piece} is at {at}"
    words = clean(command.words)
    if named_piece(words) is not None:
        return f"  {command.piece} is {words}"
    where = f"on {words}" if words.startswith("rune") else words
    return f"  {command.piece} is {where}" + (f" → {at}" if LANDMARK.search(words) else "")


def notice_lines(notice: Notice) -> list[str]:
    """What the core tells the table before it asks (session/cave.py's notices)."""
    if isinstance(notice, KrakenFightBegins):
        why = "sent by the Portal Trap" if notice.portal else "instead of their turn"
        lines = [f"{notice.hero} enters the Hidden Cave ({why}) and has left the Battle Phase; "
                 f"the Kraken fight ({cite(RulingKey.CAVE_IN_BATTLE)})",
                 f"{notice.hero} draws {notice.tokens} red Damage tokens (level {notice.bag} "
                 f"bag, {cite(RulingKey.KRAKEN_BAG)}), one at a time, keeping each out of the bag"]
    else:
        lines = [f"The bag is empty: note the {notice.drawn} tokens drawn so far and put them "
                 f"all back into the bag ({cite(RulingKey.KRAKEN_DRAW)})"]
    return [clean(f"  {line}") for line in lines]


def cave_lines(applied: Applied, announced: bool = False) -> list[str]:
    """The Kraken fight as the table is told it: the draws, the outcome and the reward (after
    the fight's beginning, unless it was `announced` before the players were asked)."""
    command = applied.command
    assert isinstance(command, EnterCave) and command.fight is not None
    fight = command.fight
    hero = applied.before.battle.piece(command.piece)
    health = hero.health or 0
    tokens = [DamageToken.parse(t) for t in fight.tokens]
    total = sum(t.value for t in tokens)
    won = hero_wins(fight.strength, total, fight.tie)
    begins = KrakenFightBegins(command.piece, command.portal,
                               token_count(health, command.shots), fight.bag)
    head = [] if announced else notice_lines(begins)
    lines = [f"the Kraken's strength (D12): {fight.strength}",
             f"red tokens ({health // 4} for health, {command.shots} for shot icons): "
             f"{' '.join(fight.tokens) or 'none'} = {total}"]
    if total == fight.strength:
        winner = "the hero" if fight.tie == KrakenTie.HERO else "the Kraken"
        lines.append(f"a tie: {winner} wins ({cite(RulingKey.KRAKEN_TIE)})")
    none_left = "no item: none is left beside the Hidden Cave card"
    if won:
        item = f"{fight.item} (their choice)" if fight.item else none_left
        antient = ("no Antient: every one is taken already" if fight.antient == NO_ANTIENT else
                   f"the Antient {fight.antient} (summon it instead of the base shot sequence "
                   f"in a later turn: `summon {command.piece} {fight.antient}`)")
        lines.append(f"the hero evades the Kraken: 1 platinum coin (5 gold), 2 health, "
                     f"{item}, {antient}")
    else:
        item = f"{fight.item}, drawn at random" if fight.item else none_left
        lines.append(f"the Kraken wins: one Poison card discarded (if any), and {item}")
    after = applied.after.battle.piece(command.piece)
    lines.append(f"{command.piece}: health {after.health}, gold {after.gold}, poison "
                 f"{after.poison}, items {after.items}; back on the mat where they stood")
    return [*head, *(clean(f"  {line}") for line in lines)]


def summon_lines(command: Summon, battle: Battle) -> list[str]:
    hero, antient = command.piece, command.antient
    return [clean(f"  {hero} summons {antient} instead of performing their base shot sequence "
                  f"(\"This Antient may be summoned instead of performing their hero's base "
                  f"shot sequence in a subsequent turn of the Battle Phase\"); marked used on "
                  f"{hero}'s board ({cite(RulingKey.ANTIENT_SUMMON_ONCE)})."),
            clean(f"  {_placed(command, battle)}; it acts for the heroes first. When the heroes' "
                  f"turn is over its card passes to the Overseer, who uses it in the AI turn, "
                  f"and back, until the Battle Phase ends ({cite(RulingKey.ANTIENT_CONTROL)}, "
                  f"{cite(RulingKey.ANTIENT_TURNS)}).")]


def _placed(command: Summon, battle: Battle) -> str:
    if command.to is None and battle.get(command.antient) is None:
        return (f"Place it within 2.5 cm of {command.piece} (its card is not in our data, so "
                f"the AI cannot play it: {card_hint(command.antient)})")
    if command.to is None:
        return f"Its piece is on the mat already (within 2.5 cm of {command.piece})"
    x, y = command.to
    return (f"Its piece is placed beside {command.piece} at ({x:.1f}, {y:.1f}): `move "
            f"{command.antient} POSITION` if it stands elsewhere")


def cave_view_lines(cave: HiddenCave, heroes: Sequence[str]) -> list[str]:
    """`cave` alone: the Hidden Cave as this battle leaves it."""
    lines = [f"  the Hidden Cave: collect {', '.join(cave.needed)}; items beside the card: "
             f"{', '.join(cave.items) or 'none'}"]
    for hero in heroes:
        missing = cave.missing(hero)
        state = "visited" if hero in cave.visited else \
            "may enter instead of their turn" if not missing else \
            f"missing {', '.join(missing)}"
        lines.append(f"  {hero} keeps: {', '.join(cave.pieces(hero)) or 'none'} ({state})")
    return lines


REMINDERS = {
    Condition.STUNNED: "a stunned hero cannot use items except familiars; the Stunned! card "
                       "goes at the end of the Battle Phase, when the hero is teleported or "
                       "devoured, or as your rulebook says (`unstun {id}`)",
    Condition.FROZEN: "a frozen character cannot act, cannot be damaged and loses its "
                      "defensive properties until the ice piece is knocked off "
                      "(`unfreeze {id}`)",
    Condition.TELEPORTED: "on the Teleported! card: it comes back this round anywhere on the "
                          "mat's edge and makes one melee shot (`back {id}`, then "
                          "`move {id} ...`)",
    Condition.DEVOURED: "on the Devoured! card: out of play until the room is cleared or the "
                        "devouring monster dies (`back {id}`, then `move {id} ...`)",
}


def condition_reminders(state: SessionState) -> list[str]:
    """At the start of the heroes' turn: the conditions they hold and what the rules say."""
    lines = []
    for piece in state.battle.pieces:
        if piece.side != Side.HEROES:
            continue
        held = piece.conditions & REMINDERS.keys()
        if piece.part_of is not None:  # on a card with its owner, back with it (ruling 73)
            held -= {Condition.TELEPORTED, Condition.DEVOURED}
        for condition in sorted(held):
            text = f"{piece.id} is {condition}: " + REMINDERS[Condition(condition)].format(
                id=piece.id)
            lines.append(textwrap.fill(text, WIDTH, initial_indent="  ",
                                       subsequent_indent="    "))
    return lines


def log_lines(game: Game) -> list[str]:
    """Play's `log`: every input in force, numbered (the numbers `rollback` takes)."""
    return [f"  {number:>4}  {describe_command(command)}"
            for number, command in enumerate(game.effective()[0], start=1)]


def room_cave_lines(game: Game) -> list[str]:
    """`cave` alone: the Hidden Cave as this battle leaves it."""
    from automa.errors import InputError
    from automa.session.cave import cave_now

    room = game.room
    if room is None or room.cave is None:
        raise InputError("no Hidden Cave in this game")
    cave = cave_now(game.state.scenario, game.state.battle, room, game.effective()[0])
    heroes = sorted({p.id for p in game.state.scenario.pieces
                     if p.side == Side.HEROES and p.kind == Kind.HERO})
    return cave_view_lines(cave, heroes)


def session_status_text(game: Game) -> str:
    """Play's `status` and `automa status`: the battle, positions nobody measured shown as
    such, each hero's Antients on their board."""
    from automa.render.measured import unmeasured_now

    held = antients_held(game.state.battle, game.room, game.effective()[0])
    return status_text(game.state, frozenset(unmeasured_now(game)), held)


def answer_text(game: Game, asked: Asked) -> str:
    """The answer to a question typed at the table (`los`, `status`, `log`, `cave`, `help`)."""
    from automa.render.sight_out import los_lines
    from automa.session.words import AI_HELP, HEROES_HELP, Query

    if asked.query == Query.HELP:
        return (HEROES_HELP if game.state.phase == Phase.HEROES else AI_HELP) + "\n"
    if asked.query == Query.STATUS:
        return session_status_text(game)
    lines = log_lines(game) if asked.query == Query.LOG else \
        los_lines(game, asked.args[0]) if asked.query == Query.LOS else \
        room_cave_lines(game) if asked.query == Query.CAVE else []
    return "".join(f"{line}\n" for line in lines)


# ---------------------------------------------------------------------------------------------
# What another window did, as `automa play` sees it before its next prompt.

ELSEWHERE = "  elsewhere (the board or another window): "


def elsewhere_line(before: Sequence[Command], after: Sequence[Command]) -> str | None:
    """One line saying what was added to the log since this window last read it (`before`:
    the inputs it knew; `after`: the log now, without this window's own input), each input as
    `automa log` names it and an undo or redo with what it took back or put back; None when
    nothing was added. A log rewritten under the window (mended, rolled back by hand) is said
    so."""
    if list(after[:len(before)]) != list(before):
        done = len(in_force(list(after))[0])
        return f"{ELSEWHERE}the log was rewritten; {done} inputs are in force now"
    new = after[len(before):]
    if not new:
        return None
    said = [_as_seen(command, after[:len(before) + index])
            for index, command in enumerate(new)]
    return ELSEWHERE + "; ".join(said)


def _as_seen(command: Command, earlier: Sequence[Command]) -> str:
    """An input as `automa log` names it; a marker with the input it took back or put back."""
    if isinstance(command, Undo | Redo):
        done, undone = in_force(list(earlier))
        taken = done if isinstance(command, Undo) else undone
        verb = "undone" if isinstance(command, Undo) else "redone"
        return f"{verb}: {describe_command(taken[-1]) if taken else 'nothing'}"
    return describe_command(command)
