"""`automa play`: the table loop for a whole battle. Every input is logged the moment it is
accepted, so quitting, Ctrl-C or a crash loses nothing: `play` resumes where it stopped."""

from __future__ import annotations

import contextlib
import shlex
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from automa.cli.main import cli, reports_errors
from automa.cli.session_cmds import open_session, session_option

HELP = """Heroes' turn: report what happened at the table, then `done`.
  move ID POSITION      e.g. move elf 12.5,40 | move elf rune 3 | move elf 2 cm left of rat-1
                        | move elf touching obstacle B on its north side
  hit ID[, ID...] SHOT[+MOD...] [by HERO] [trilithon]   a hero's hit on AI pieces, resolved
                        by the rules (nullify/reflect boxes, Lords' immunities, poison, stun,
                        fear, ice, devour, petrify, dagger, portal-trap; chain remembers the
                        hero's last damaged piece when `by HERO` is named), e.g.
                        hit rat-1, rat-2 fireball by elf; `trilithon`: it went through it;
                        hit skel-1 fire-wall: it hit or was pushed into a fire wall;
                        a neutral piece (a wild wyvern) can be hit too
  damage ID N [by HERO] raw damage on any piece, no rules applied (name the hero for the summary)
  heal ID N
  used HERO CARD room|game   a card used (Ability, Item, Spell): once per room or per game
  cave                  the Hidden Cave: the five, each hero's collection, the items left
  cave HERO SHOTS [portal]   the hero enters the Hidden Cave instead of their turn (`portal`:
                        sent by the Portal Trap) and fights the Kraken; SHOTS: the damage
                        shot icons on their base sequence, Ability, Item and up to 5 Spell cards
  summon HERO ANTIENT   an Antient the hero holds, instead of their base shot sequence
  gold ID +N / -N       also items, poison; gold ID +1p: a platinum coin (5 gold)
  dead ID               the piece leaves play; freeze / unfreeze / stun / unstun ID
  condition ID NAME on|off   any condition: frozen, stunned, teleported, devoured, aloft ...
  back ID               back on the mat from the Teleported! or Devoured! card (then move it)
  los ID                whom ID sees;  status;  log;  undo;  redo
  done                  end the heroes' turn: the AI acts, one activation per Enter
  quit                  stop here (everything is saved)
Numbers are plain digits (0-9). Up and Down recall earlier lines; Tab completes commands and
piece ids."""
AI_HELP = """AI turn: press Enter for the next activation. Also:
  move ID POSITION      the real piece landed elsewhere: put it where it stands (logged)
  los ID                whom ID sees;  status;  log;  undo;  redo;  help;  quit
  cave HERO SHOTS portal   the AI's Portal Trap sent the hero to the Hidden Cave: the fight
At any question during an activation (a die, a token, a yes/no, which one):
  back                  take back the last answer and answer that question again
  undo                  abandon this activation (nothing logged) and undo the last input
  quit                  stop; the activation under way is not saved"""
AI_COMMANDS = ("move", "los", "status", "log", "undo", "redo", "help", "quit", "exit")
HISTORY = "history"  # in the session folder: the lines typed at `play`, for Up and Down
COMMANDS = ("move", "damage", "hit", "used", "cave", "summon", "heal", "gold", "items", "poison",
            "dead", "freeze", "unfreeze", "stun", "unstun", "condition", "back", "los", "status",
            "log", "undo", "redo", "done", "quit", "exit", "help")


Handler = Callable[[Any, list[str]], None]


class Quit(Exception):
    pass


class LineReader:
    """Lines typed at the table. On a terminal: `input()` with readline (line editing, history
    kept in the session folder, Tab completing commands and piece ids). From a pipe: plain
    lines, echoed so a scripted transcript reads naturally."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.history: Path | None = None
        self.tty = sys.stdin.isatty()
        if self.tty:
            self._enable_line_editing()

    def _enable_line_editing(self) -> None:
        try:
            import readline
        except ImportError:
            return
        self.history = self.session.folder / HISTORY
        readline.clear_history()
        with contextlib.suppress(OSError):  # no history on a read-only folder: play on
            self.history.touch(exist_ok=True)
            readline.read_history_file(str(self.history))
        readline.set_completer(self._complete)
        readline.set_completer_delims(" \t\n")
        readline.parse_and_bind("tab: complete")

    def _complete(self, text: str, state: int) -> str | None:
        words = [*COMMANDS, *(p.id for p in self.session.state.battle.pieces)]
        matches = [w for w in words if w.startswith(text)]
        return matches[state] if state < len(matches) else None

    def read(self, prompt: str) -> str:
        if self.tty:
            try:
                line = input(prompt)
            except EOFError:
                raise Quit from None
            self._remember(line)
            return line.strip()
        from automa.cli.asker import read_plain_line

        piped = read_plain_line(prompt)
        if piped is None:
            raise Quit
        return piped

    def _remember(self, line: str) -> None:
        if self.history is None or not line.strip():
            return
        import readline

        with contextlib.suppress(OSError):
            readline.append_history_file(1, str(self.history))


@cli.command()
@session_option
@click.pass_context
@reports_errors
def play(ctx: click.Context, folder: Path) -> None:
    """The interactive table loop: the heroes' turn, then the AI's, round after round.

    \b
    Example:
      automa new battle.toml --session my-battle
      automa play --session my-battle
    """
    from automa.render.summary import summary_text

    session = open_session(ctx, folder)
    reader = LineReader(session)
    click.echo(f"Session {folder} · type help for the commands")
    reminded: list[int] = []
    try:
        while True:
            session.refresh()  # another window's input shows before the next prompt
            if _room_over(session):
                click.echo(summary_text(session.state, session.effective()[0],
                                        session.catalog, session.seed), nl=False)
                return
            if session.state.phase == "heroes":
                if session.state.round not in reminded:
                    reminded.append(session.state.round)
                    _remind_conditions(session.state)
                _heroes_turn(session, reader)
            else:
                _ai_turn(session, reader)
    except Quit:
        click.echo(f"\nStopped. Everything is saved: automa play --session {folder}")
    except KeyboardInterrupt:
        click.echo(f"\nInterrupted. Every input so far is saved: automa play --session "
                   f"{folder}", err=True)
        sys.exit(130)


REMINDERS = {
    "stunned": "a stunned hero cannot use items except familiars; the Stunned! card goes at "
               "the end of the Battle Phase, when the hero is teleported or devoured, or as "
               "your rulebook says (`unstun {id}`)",
    "frozen": "a frozen character cannot act, cannot be damaged and loses its defensive "
              "properties until the ice piece is knocked off (`unfreeze {id}`)",
    "teleported": "on the Teleported! card: it comes back this round anywhere on the mat's "
                  "edge and makes one melee shot (`back {id}`, then `move {id} ...`)",
    "devoured": "on the Devoured! card: out of play until the room is cleared or the "
                "devouring monster dies (`back {id}`, then `move {id} ...`)",
}


def _remind_conditions(state: Any) -> None:
    """At the start of the heroes' turn: the conditions they hold and what the rules say."""
    for piece in state.battle.pieces:
        if piece.side != "heroes":
            continue
        for condition in sorted(piece.conditions & REMINDERS.keys()):
            text = f"{piece.id} is {condition}: " + REMINDERS[condition].format(id=piece.id)
            click.echo(textwrap.fill(text, 100, initial_indent="  ", subsequent_indent="    "))


def _room_over(session: Any) -> bool:
    from automa.rules.battle_end import (
        FROZEN_CLEAR,
        devoured_return,
        overseer_won,
        room_cleared,
    )

    battle = session.state.battle
    cleared = room_cleared(session.state.scenario.pieces, battle.pieces)
    if cleared is not None:
        click.echo(f"The room is cleared: {cleared}.")
        for line in devoured_return(battle.pieces):
            click.echo(f"  {line}")
        _resolution(session, frozen_cleared=cleared == FROZEN_CLEAR)
        return True
    lost = overseer_won(battle.pieces)
    if lost is not None:
        click.echo(f"The heroes have fallen: {lost}.")
        return True
    return False


def _resolution(session: Any, frozen_cleared: bool) -> None:
    """The Resolution Phase's monsters: each surviving hero's gold for their kills (and for
    the frozen ones, when they cleared the room), the discs back to the Monster Pool, the
    Hidden Cave's kept."""
    from automa.cli.play_cave import campaign_view
    from automa.rules.battle_end import resolution
    from automa.session.replay import frozen_by

    pieces = session.state.scenario.pieces
    view = campaign_view(session)
    cave = view.cave.needed if view is not None and view.cave is not None else ()
    gold = {name: spec.gold for name, spec in session.catalog.monsters.items()}
    battle = session.state.battle
    lines = resolution(pieces, battle.out, gold, cave,
                       any(p.kind == "catacomb-lord" for p in pieces),
                       frozen_by(session) if frozen_cleared else None)
    if lines:
        click.echo("Resolution Phase:")
    for line in lines:
        click.echo(f"  {line}")


def _heroes_turn(session: Any, reader: LineReader) -> None:
    line = reader.read(f"[round {session.state.round} · heroes] > ")
    _dispatch(session, line, HANDLERS)


def _dispatch(session: Any, line: str, handlers: dict[str, Handler]) -> None:
    from automa.errors import AutomaError

    if not line:
        return
    try:
        words = shlex.split(line)
    except ValueError:
        click.echo("  unbalanced quotes; try again")
        return
    command, args = words[0].lower(), words[1:]
    handler = handlers.get(command)
    if handler is None:
        known = "type help" if handlers is HANDLERS else \
            "press Enter for the next activation, or type help"
        click.echo(f"  unknown command {command!r} here; {known}")
        return
    try:
        handler(session, args)
    except AutomaError as error:
        click.echo(f"  {error}")


def _ai_turn(session: Any, reader: LineReader) -> None:
    line = reader.read(f"[round {session.state.round} · AI] Enter for the next activation "
                       f"(help) > ")
    if line:
        _dispatch(session, line, AI_HANDLERS)
        return
    _activate(session)


def _activate(session: Any) -> None:
    """One AI activation. `back` at a question runs it again with the answers so far minus the
    last; `undo` abandons it and undoes the last logged input; nothing half-done is logged."""
    from automa.cli.asker import QuitAtPrompt, UndoAtPrompt, run_with_takebacks
    from automa.render.session_out import latest_activation_text

    try:
        activation = run_with_takebacks(session.next)
    except UndoAtPrompt:
        click.echo("  the activation under way is abandoned (nothing of it was logged)")
        _dispatch(session, "undo", AI_HANDLERS)
        return
    except QuitAtPrompt:
        click.echo("  the activation under way is abandoned (nothing of it was logged)")
        raise Quit from None
    except KeyboardInterrupt:  # Ctrl-C at a question: `play` stops, saying so (exit 130)
        click.echo("\n  the activation under way is abandoned (nothing of it was logged)")
        raise
    if activation is None:
        click.echo("No AI character can act.")
        return
    click.echo(latest_activation_text(session.state, session.geometry_mode != "asked"))


def _need(args: list[str], count: int, usage: str) -> None:
    from automa.errors import InputError

    if len(args) < count:
        raise InputError(f"usage: {usage}")


def _number(text: str) -> int:
    from automa.cli.asker import plain_number
    from automa.errors import InputError

    number = plain_number(text, signed=True)
    if number is None:
        raise InputError(f"{text!r} is not a whole number in plain digits (0-9)")
    return number


def _move(session: Any, args: list[str]) -> None:
    from automa.errors import InputError
    from automa.session.positions import parse_position

    _need(args, 2, "move ID POSITION")
    piece = session.state.battle.get(args[0])
    if piece is None:
        raise InputError(f"no piece {args[0]!r} in play")
    others = [p for p in session.state.battle.on_table() if p.id != piece.id]
    at = parse_position(" ".join(args[1:]), session.geometry, others, piece)
    session.report({"type": "move", "piece": piece.id, "to": [round(at[0], 3), round(at[1], 3)]})
    click.echo(f"  {piece.id} is at ({at[0]:.1f}, {at[1]:.1f})")


def _amount(kind: str) -> Handler:
    def handler(session: Any, args: list[str]) -> None:
        _need(args, 2, f"{kind} ID N")
        amount = args[1]
        if kind == "gold" and amount.lower().endswith("p"):  # platinum coins: 1 = 5 gold
            from automa.model.board import PLATINUM

            event = {"type": kind, "piece": args[0], "amount": _number(amount[:-1]) * PLATINUM}
        else:
            event = {"type": kind, "piece": args[0], "amount": _number(amount)}
        if kind == "damage" and len(args) > 2:
            event["by"] = _dealt_by(session, args[2:])
        session.report(event)
        piece = session.state.battle.get(args[0])
        click.echo(f"  {args[0]}: " + ("out of play" if piece is None else
                                      f"health {piece.health}, gold {piece.gold}, "
                                      f"items {piece.items}, poison {piece.poison}"))
    return handler


def _hit(session: Any, args: list[str]) -> None:
    """`hit rat-1, rat-2 fireball+poison by elf`: resolved by rules/hero_hits.py, one event."""
    from automa.errors import InputError

    usage = "hit ID[, ID...] SHOT[+MODIFIER...] [by HERO] [trilithon]"
    words = list(args)
    event: dict[str, Any] = {"type": "hit"}
    if words and words[-1].lower() == "trilithon":  # the shot went through the Trilithon
        event["trilithon"] = True
        words = words[:-1]
    if len(words) >= 2 and words[-2].lower() == "by":
        event["by"] = _dealt_by(session, words[-2:], usage)
        words = words[:-2]
    _need(words, 2, usage)
    event["shot"] = words[-1].lower()
    event["targets"] = [t for t in " ".join(words[:-1]).replace(",", " ").split() if t]
    modifiers = event["shot"].split("+")[1:]
    if any(m.split("(")[0] == "poison" for m in modifiers):
        event["poison_card"] = _ask_number("the Poison card you drew shows", 1, 9,
                                           "a Poison card's value")
    if event["shot"].split("+")[0] == "portal-trap":
        event["portal"] = _portal_rolls(session, event["targets"])
    if "chain" in (m.split("(")[0] for m in modifiers) and "by" in event:
        from automa.session.hero_turn import last_damaged

        last = last_damaged(session.state.scenario, session.effective()[0], session.catalog,
                            session.seed, event["by"])
        if last:  # the same piece takes no damage twice in a row in one sequence
            event["last_damaged"] = last
    if not event["targets"]:
        raise InputError(f"usage: {usage}")
    for line in session.report_hit(event):
        click.echo(textwrap.fill(line, 100, initial_indent="  ", subsequent_indent="    "))


def _used(session: Any, args: list[str]) -> None:
    """`used elf elven-arrow room`: a card used this room (flipped) or this game (discarded)."""
    _need(args, 3, "used HERO CARD room|game")
    card, per = " ".join(args[1:-1]), args[-1].lower()
    session.report_used({"type": "used", "piece": args[0], "card": card, "per": per})
    fate = "flip the card; it is refreshed in the next Setup Phase" if per == "room" else \
        "discard the card"
    click.echo(f"  {args[0]} used {card}: {fate}")


def _play_cave(command: str, session: Any, args: list[str]) -> None:
    """The Hidden Cave's `cave` and the Antients' `summon` (cli/play_cave.py)."""
    from automa.cli import play_cave

    (play_cave.cave if command == "cave" else play_cave.summon)(session, args)


def _ask_number(prompt: str, low: int, high: int, what: str = "the number asked") -> int:
    """A number the players read at the table (`PromptAsker.number`); the end of the input
    stops `play`, with nothing of the command logged."""
    from automa.cli.asker import PromptAsker
    from automa.errors import InputError

    try:
        return PromptAsker().number(f"  {prompt}", range(low, high + 1), what)
    except InputError:  # the input ended at the question
        raise Quit from None


def _portal_rolls(session: Any, targets: list[str]) -> list[int]:
    """The Portal Trap's D12 for each piece hit: the players' die in physical mode, else the
    session's seeded dice (this input's own stream, as for an AI activation)."""
    from automa.session.state import new_chance

    if session.physical:
        return [_ask_number(f"D12 rolled for the Portal Trap on {t}", 1, 12, "a face of the D12")
                for t in targets]
    done, _ = session.effective()
    chance = new_chance(session.catalog, session.seed, len(done), None)
    rolls = [chance.d12(f"Portal Trap on {target}") for target in targets]
    for target, roll in zip(targets, rolls, strict=True):
        click.echo(f"  D12 for the Portal Trap on {target}: {roll}")
    return rolls


def _dealt_by(session: Any, words: list[str],
              usage: str = "damage ID N [by HERO]") -> str:
    """`by HERO`: who dealt the damage (for the battle summary)."""
    from automa.errors import InputError

    heroes = {p.id for p in session.state.scenario.pieces if p.side == "heroes"}
    if len(words) != 2 or words[0].lower() != "by" or words[1] not in heroes:
        raise InputError(f"usage: {usage} (heroes: {', '.join(sorted(heroes))})")
    return words[1]


def _condition(name: str, on: bool) -> Handler:
    def handler(session: Any, args: list[str]) -> None:
        _need(args, 1, f"{'' if on else 'un'}{name} ID")
        session.report({"type": "condition", "piece": args[0], "condition": name, "on": on})
        click.echo(f"  {args[0]} {'is' if on else 'is no longer'} {name}")
    return handler


def _any_condition(session: Any, args: list[str]) -> None:
    from automa.errors import InputError

    _need(args, 3, "condition ID NAME on|off")
    if args[2] not in ("on", "off"):
        raise InputError(f"usage: condition ID NAME on|off (not {args[2]!r})")
    _condition(args[1], args[2] == "on")(session, args[:1])


def _back(session: Any, args: list[str]) -> None:
    _need(args, 1, "back ID")
    piece = session.state.battle.get(args[0])
    held = sorted(piece.conditions & {"teleported", "devoured"}) if piece else []
    if not held:
        from automa.errors import InputError

        raise InputError(f"{args[0]} is not on the Teleported! or Devoured! card")
    for condition in held:
        session.report({"type": "condition", "piece": args[0], "condition": condition,
                        "on": False})
    click.echo(f"  {args[0]} is back on the mat at its old spot: `move` it where it stands")


def _dead(session: Any, args: list[str]) -> None:
    _need(args, 1, "dead ID")
    session.report({"type": "remove", "piece": args[0], "why": "dead"})
    click.echo(f"  {args[0]} leaves play")


def _los(session: Any, args: list[str]) -> None:
    from automa.errors import InputError
    from automa.geometry.sight import look_around
    from automa.render.measured import unmeasured_now
    from automa.render.sight_out import sight_line

    _need(args, 1, "los ID")
    viewer = session.state.battle.get(args[0])
    if viewer is None:
        raise InputError(f"no piece {args[0]!r} in play")
    settings = session.state.scenario.settings
    unknown = unmeasured_now(session)
    if viewer.id in unknown:
        click.echo(f"  {viewer.id} stands where nobody measured: sight is read at the table "
                   f"(a ruler edge from centre to centre), or report it with `move` first")
        return
    others = [p for p in session.state.battle.on_table()
              if p.side != viewer.side and p.id not in unknown]
    for s in look_around(session.geometry, viewer, others, settings.los_blocked,
                         settings.los_test):
        click.echo(sight_line(s))
    if unmeasured := sorted(p.id for p in session.state.battle.on_table()
                            if p.side != viewer.side and p.id in unknown):
        click.echo(f"  not measured, read at the table: {', '.join(unmeasured)}")


def _status(session: Any, args: list[str]) -> None:
    from automa.cli.play_cave import antients_held
    from automa.render.measured import unmeasured_now
    from automa.render.session_out import status_text

    click.echo(status_text(session.state, frozenset(unmeasured_now(session)),
                           antients_held(session)), nl=False)


def _log(session: Any, args: list[str]) -> None:
    from automa.render.session_out import describe_event

    for number, event in enumerate(session.effective()[0], start=1):
        click.echo(f"  {number:>4}  {describe_event(event)}")


def _undo(session: Any, args: list[str]) -> None:
    from automa.render.session_out import describe_event

    click.echo(f"  undone: {describe_event(session.undo())}")


def _redo(session: Any, args: list[str]) -> None:
    from automa.render.session_out import describe_event

    click.echo(f"  redone: {describe_event(session.redo())}")


def _done(session: Any, args: list[str]) -> None:
    session.report_turn_end()
    click.echo(f"Round {session.state.round}: the AI turn.")


def _quit(session: Any, args: list[str]) -> None:
    raise Quit


HANDLERS: dict[str, Handler] = {
    "move": _move,
    "damage": _amount("damage"),
    "hit": _hit,
    "used": _used,
    "cave": lambda session, args: _play_cave("cave", session, args),
    "summon": lambda session, args: _play_cave("summon", session, args),
    "heal": _amount("heal"),
    "gold": _amount("gold"),
    "items": _amount("items"),
    "poison": _amount("poison"),
    "dead": _dead,
    "freeze": _condition("frozen", True),
    "unfreeze": _condition("frozen", False),
    "stun": _condition("stunned", True),
    "unstun": _condition("stunned", False),
    "condition": _any_condition,
    "back": _back,
    "los": _los,
    "status": _status,
    "log": _log,
    "undo": _undo,
    "redo": _redo,
    "done": _done,
    "quit": _quit,
    "exit": _quit,
    "help": lambda session, args: click.echo(HELP),
}
AI_HANDLERS: dict[str, Handler] = {
    **{name: HANDLERS[name] for name in AI_COMMANDS},
    "cave": HANDLERS["cave"],  # sent there by the AI's Portal Trap
    "help": lambda session, args: click.echo(AI_HELP),
}
