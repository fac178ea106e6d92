"""`automa play`: the table loop for a whole battle. Every input is logged the moment it is
accepted, so quitting, Ctrl-C or a crash loses nothing: `play` resumes where it stopped."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from automa.cli.main import cli, reports_errors
from automa.cli.session_cmds import open_session, session_option

HELP = """Heroes' turn: report what happened at the table, then `done`.
  move ID POSITION      e.g. move elf 12.5,40 | move elf rune 3 | move elf 2 cm left of rat-1
                        | move elf touching obstacle B on its north side
  damage ID N           a hit on a piece (monsters too); heal ID N
  gold ID +N / -N       also items, poison
  dead ID               the piece leaves play; freeze / unfreeze / stun / unstun ID
  condition ID NAME on|off   any condition: frozen, stunned, teleported, devoured, aloft ...
  back ID               back on the mat from the Teleported! or Devoured! card (then move it)
  los ID                whom ID sees;  status;  log;  undo;  redo
  done                  end the heroes' turn: the AI acts, one activation per Enter
  quit                  stop here (everything is saved)"""
COMMANDS = ("move", "damage", "hit", "heal", "gold", "items", "poison", "dead", "freeze",
            "unfreeze", "stun", "unstun", "condition", "back", "los", "status", "log", "undo",
            "redo", "done", "quit", "exit", "help")


class Quit(Exception):
    pass


def _read(prompt: str) -> str:
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        raise Quit
    if not sys.stdin.isatty():
        click.echo(line.rstrip("\n"))  # echo scripted input so the transcript reads naturally
    return line.strip()


def _enable_line_editing(session: Any) -> None:
    """Tab completes commands and piece ids when a terminal is attached."""
    if not sys.stdin.isatty():
        return
    try:
        import readline
    except ImportError:
        return

    def complete(text: str, state: int) -> str | None:
        words = [*COMMANDS, *(p.id for p in session.state.battle.pieces)]
        matches = [w for w in words if w.startswith(text)]
        return matches[state] if state < len(matches) else None

    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")


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
    from automa.cli.asker import PromptAsker

    session = open_session(ctx, folder)
    _enable_line_editing(session)
    asker = PromptAsker()
    click.echo(f"Session {folder} · type help for the commands")
    try:
        while True:
            session.refresh()  # another window's input shows before the next prompt
            if _room_over(session):
                return
            if session.state.phase == "heroes":
                _heroes_turn(session)
            else:
                _ai_turn(session, asker)
    except Quit:
        click.echo(f"\nStopped. Everything is saved: automa play --session {folder}")
    except KeyboardInterrupt:
        click.echo(f"\nInterrupted. Every input so far is saved: automa play --session "
                   f"{folder}", err=True)
        sys.exit(130)


def _room_over(session: Any) -> bool:
    battle = session.state.battle
    if not any(p.side == "ai" for p in battle.pieces):
        click.echo("The room is cleared: no AI character is left.")
        return True
    if not any(p.side == "heroes" and p.kind == "hero" for p in battle.on_table()):
        click.echo("The heroes have fallen: no hero is left on the mat.")
        return True
    return False


def _heroes_turn(session: Any) -> None:
    from automa.errors import AutomaError

    state = session.state
    line = _read(f"[round {state.round} · heroes] > ")
    if not line:
        return
    try:
        words = shlex.split(line)
    except ValueError:
        click.echo("  unbalanced quotes; try again")
        return
    command, args = words[0].lower(), words[1:]
    handler = HANDLERS.get(command)
    if handler is None:
        click.echo(f"  unknown command {command!r}; type help")
        return
    try:
        handler(session, args)
    except AutomaError as error:
        click.echo(f"  {error}")


def _ai_turn(session: Any, asker: Any) -> None:
    from automa.render.session_out import latest_activation_text

    state = session.state
    line = _read(f"[round {state.round} · AI] Enter for the next activation (undo, quit) > ")
    if line in ("q", "quit", "exit"):
        raise Quit
    if line in ("u", "undo"):
        _undo(session, [])
        return
    if line:
        click.echo("  press Enter, or type undo or quit")
        return
    activation = session.next(asker)
    if activation is None:
        click.echo("No AI character can act.")
        return
    click.echo(latest_activation_text(session.state, session.geometry_mode != "asked"))


def _need(args: list[str], count: int, usage: str) -> None:
    from automa.errors import InputError

    if len(args) < count:
        raise InputError(f"usage: {usage}")


def _number(text: str) -> int:
    from automa.errors import InputError

    try:
        return int(text)
    except ValueError:
        raise InputError(f"{text!r} is not a whole number") from None


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


def _amount(kind: str) -> Callable[[Any, list[str]], None]:
    def handler(session: Any, args: list[str]) -> None:
        _need(args, 2, f"{kind} ID N")
        session.report({"type": kind, "piece": args[0], "amount": _number(args[1])})
        piece = session.state.battle.get(args[0])
        click.echo(f"  {args[0]}: " + ("out of play" if piece is None else
                                      f"health {piece.health}, gold {piece.gold}, "
                                      f"items {piece.items}, poison {piece.poison}"))
    return handler


def _condition(name: str, on: bool) -> Callable[[Any, list[str]], None]:
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

    _need(args, 1, "los ID")
    viewer = session.state.battle.get(args[0])
    if viewer is None:
        raise InputError(f"no piece {args[0]!r} in play")
    settings = session.state.scenario.settings
    others = [p for p in session.state.battle.on_table() if p.side != viewer.side]
    for s in look_around(session.geometry, viewer, others, settings.los_blocked,
                         settings.los_test):
        click.echo(f"  {'sees  ' if s.visible else 'hidden'} {s.target} {s.distance:.1f} cm")


def _status(session: Any, args: list[str]) -> None:
    from automa.render.session_out import status_text

    click.echo(status_text(session.state), nl=False)


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


HANDLERS: dict[str, Callable[[Any, list[str]], None]] = {
    "move": _move,
    "damage": _amount("damage"),
    "hit": _amount("damage"),
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
