"""Session commands: new, next, undo, redo, status, log, rollback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from automa.cli.main import _catalog, cli, emit_json, reports_errors

json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print one JSON object instead of text.")
session_option = click.option("--session", "folder", required=True,
                              type=click.Path(file_okay=False, path_type=Path),
                              help="The session folder.")


def open_session(ctx: click.Context, folder: Path) -> Any:
    from automa.session.store import Session

    session = Session.open(folder, _catalog(ctx))
    if session.torn:
        click.echo("automa: note: the last input was cut off by a crash and is ignored",
                   err=True)
    return session


@cli.command()
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@session_option
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None)
@click.option("--dice", type=click.Choice(["virtual", "physical"]), default="virtual",
              help="physical: you roll and draw at the table and type what came up.")
@click.option("--geometry", type=click.Choice(["tracked", "asked", "hybrid"]),
              default="tracked",
              help="tracked: computed from the positions; asked: the app asks yes/no and "
                   "which-one questions you answer with the real rulers and templates; "
                   "hybrid: computed, asked only on close calls.")
@json_option
@click.pass_context
@reports_errors
def new(ctx: click.Context, scenario: Path, folder: Path, seed: int | None, dice: str,
        geometry: str, as_json: bool) -> None:
    """Start a session from a scenario: a folder holding it and the log of every input.

    \b
    Example:
      automa new battle.toml --session my-battle && automa play --session my-battle
    """
    from automa.session.store import Session

    session = Session.create(folder, scenario, _catalog(ctx), seed, dice, geometry)
    if as_json:
        emit_json({"session": str(folder), "round": session.state.round, "dice": dice,
                   "geometry": geometry, "seed": session.seed})
        return
    click.echo(f"Session {folder}: round {session.state.round}, {dice} dice, {geometry} "
               f"geometry, seed {session.seed}. Next: automa play --session {folder}")


@cli.command("next")
@session_option
@click.option("--json", "as_json", is_flag=True, help="That activation's object, as in turn.")
@click.pass_context
@reports_errors
def next_(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """Advance one AI activation and print it."""
    from automa.cli.asker import PromptAsker
    from automa.render.json_out import activation_json
    from automa.render.text import activation_lines

    session = open_session(ctx, folder)
    activation = session.next(PromptAsker())
    if activation is None:
        if as_json:
            emit_json(None)
        else:
            click.echo("No AI character can act: the room is cleared.")
        return
    if as_json:
        emit_json(activation_json(activation))
        return
    pieces = {p.id: p for p in (*session.state.scenario.pieces, *session.state.battle.pieces)}
    names = {k: p.label for k, p in pieces.items()}
    number = sum(1 for r, _ in session.state.activations if r == session.state.activations[-1][0])
    click.echo("\n".join(activation_lines(number, activation, names, pieces,
                                          session.state.scenario.settings.los_blocked,
                                          coordinates=session.geometry_mode != "asked")))
    if session.state.phase == "heroes":
        click.echo(f"The AI turn is over: round {session.state.round}, the heroes' turn.")


def _changed(session: Any, verb: str, event: dict[str, Any], as_json: bool) -> None:
    from automa.render.session_out import describe_event, status_json

    if as_json:
        emit_json({verb: event, **status_json(session.state)})
    else:
        click.echo(f"{verb.capitalize()}: {describe_event(event)} (round {session.state.round}, "
                   f"{session.state.phase}'s turn)")


@cli.command()
@session_option
@json_option
@click.pass_context
@reports_errors
def undo(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """Take back the last input (the log keeps it; `redo` puts it back)."""
    session = open_session(ctx, folder)
    _changed(session, "undone", session.undo(), as_json)


@cli.command()
@session_option
@json_option
@click.pass_context
@reports_errors
def redo(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """Put back the last input undone."""
    session = open_session(ctx, folder)
    _changed(session, "redone", session.redo(), as_json)


@cli.command()
@session_option
@click.argument("keep", type=click.IntRange(0, None))
@json_option
@click.pass_context
@reports_errors
def rollback(ctx: click.Context, folder: Path, keep: int, as_json: bool) -> None:
    """Go back to just after input KEEP (see `automa log`); `redo` brings inputs back."""
    from automa.render.session_out import status_json

    session = open_session(ctx, folder)
    session.rollback(keep)
    if as_json:
        emit_json({"kept": keep, **status_json(session.state)})
        return
    click.echo(f"Rolled back to input {keep}: round {session.state.round}, "
               f"{session.state.phase}'s turn")


@cli.command()
@session_option
@click.option("--json", "as_json", is_flag=True, help='{"round": n, "pieces": {...}}')
@click.pass_context
@reports_errors
def status(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """Where the battle stands."""
    from automa.render.session_out import status_json, status_text

    state = open_session(ctx, folder).state
    if as_json:
        emit_json(status_json(state))
    else:
        click.echo(status_text(state), nl=False)


@cli.command("log")
@session_option
@click.option("--json", "as_json", is_flag=True, help="The inputs in force, as recorded.")
@click.pass_context
@reports_errors
def log_(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """Every input in force, numbered (the numbers `rollback` takes)."""
    from automa.render.session_out import describe_event

    done, undone = open_session(ctx, folder).effective()
    if as_json:
        emit_json({"inputs": done, "redo": undone})
        return
    for number, event in enumerate(done, start=1):
        click.echo(f"{number:>4}  {describe_event(event)}")
    if undone:
        click.echo(f"      ({len(undone)} undone input(s) can be redone)")
