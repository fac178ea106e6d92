"""Session commands: new, next, undo, redo, status, log, rollback."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import click

from automa.cli.main import (
    _catalog,
    _scenario,
    _scenario_or_session,
    cli,
    emit_json,
    reports_errors,
)
from automa.model.modes import DICE_WORDS, DiceMode

if TYPE_CHECKING:
    from automa.session.agreement import Contradiction
    from automa.session.store import Session

json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print one JSON object instead of text.")
session_option = click.option("--session", "folder", required=True,
                              type=click.Path(file_okay=False, path_type=Path),
                              help="The session folder.")


def open_session(ctx: click.Context, folder: Path) -> Session:
    """The session in `folder`, with what its campaign says when it is a campaign's room."""
    from automa.campaign.battles import open_room
    from automa.session.lock import is_held

    session = open_room(folder, _catalog(ctx))
    if session.torn and not is_held(folder):  # not a line another window is writing now
        click.echo("automa: note: the last input was cut off by a crash and is ignored",
                   err=True)
    note_contradictions(session)
    return session


SHOWN_CONTRADICTIONS = 3


def contradiction_note(found: Contradiction, folder: Path) -> str:
    """A logged figure this machine computes otherwise, and the command that goes on with
    this machine's."""
    from automa.session.store import LOG

    return (f"{found.text(folder / LOG)}; the log's stands (`automa log --accept-recomputed "
            f"--session {folder}` goes on with this machine's)")


def note_contradictions(session: Session) -> None:
    """The logged figures this machine computes otherwise (the logged ones stand)."""
    from automa.safe_text import one_line

    found = session.contradictions
    for contradiction in found[:SHOWN_CONTRADICTIONS]:
        click.echo(f"automa: note: {one_line(contradiction_note(contradiction, session.folder))}",
                   err=True)
    if len(found) > SHOWN_CONTRADICTIONS:
        click.echo(f"automa: note: and {len(found) - SHOWN_CONTRADICTIONS} more (`automa log "
                   f"--verify --session {session.folder}` lists them)", err=True)


@cli.command()
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@session_option
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None)
@click.option("--dice", type=click.Choice(DICE_WORDS), default=DiceMode.VIRTUAL.value,
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
    import textwrap

    from automa.engine.judge import GeometryMode
    from automa.render.markers import marker_words, markers, markers_line
    from automa.render.text import WIDTH
    from automa.session.store import Session

    session = Session.create(folder, scenario, _catalog(ctx), seed, DiceMode(dice),
                             GeometryMode(geometry))
    pieces = session.state.battle.pieces
    numbered = markers(pieces)
    if as_json:
        emit_json({"session": str(folder), "round": session.state.round, "dice": dice,
                   "geometry": geometry, "seed": session.seed, "markers": numbered})
        return
    click.echo(f"Session {folder}: round {session.state.round}, {dice} dice, {geometry} "
               f"geometry, seed {session.seed}. Next: automa play --session {folder}")
    marked = [p for p in pieces if p.id in numbered]
    if marked:
        click.echo(textwrap.fill(markers_line(marked[0], numbered[marked[0].id], placing=False),
                                 WIDTH))
        click.echo("\n".join(f"  {marker_words(p, numbered[p.id])}, the one at "
                             f"({p.at[0]:.1f}, {p.at[1]:.1f})" for p in marked))


@cli.command("next")
@session_option
@click.option("--json", "as_json", is_flag=True, help="That activation's object, as in turn.")
@click.pass_context
@reports_errors
def next_(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """Advance one AI activation and print it."""
    from automa.cli.asker import QuitAtPrompt, UndoAtPrompt, run_with_takebacks
    from automa.engine.judge import GeometryMode
    from automa.errors import InputError
    from automa.render.json_out import activation_json
    from automa.render.session_out import latest_activation_text
    from automa.session.commands import NextActivation

    session = open_session(ctx, folder)
    try:  # `back` at a question asks the one before again (cli/asker.py)
        applied = run_with_takebacks(lambda asker: session.do(NextActivation(), asker))
    except UndoAtPrompt:  # its answers only: `automa undo` takes back the input before it
        click.echo("Abandoned the activation: its answers are taken back, nothing was logged "
                   "(`automa undo` takes back the input before it)", err=True)
        return
    except QuitAtPrompt:
        raise InputError("stopped at a question; the activation was not saved") from None
    activation = applied.activation
    if activation is None:
        if as_json:
            emit_json(None)
        else:
            click.echo("No AI character can act: the room is cleared.")
        return
    asked = session.geometry_mode == GeometryMode.ASKED
    if as_json:
        emit_json(activation_json(activation, asked=asked))
        return
    click.echo(latest_activation_text(session.state, not asked))


def _marker(ctx: click.Context, folder: Path, verb: str, as_json: bool) -> None:
    from automa.render.session_out import describe_command, session_status_json
    from automa.session.commands import Redo, Undo

    session = open_session(ctx, folder)
    taken = session.do(Undo() if verb == "undone" else Redo()).taken
    assert taken is not None
    if as_json:
        emit_json({verb: taken.to_json(), **session_status_json(session)})
    else:
        click.echo(f"{verb.capitalize()}: {describe_command(taken)} (round "
                   f"{session.state.round}, {session.state.phase}'s turn)")


@cli.command()
@session_option
@json_option
@click.pass_context
@reports_errors
def undo(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """Take back the last input (the log keeps it; `redo` puts it back)."""
    _marker(ctx, folder, "undone", as_json)


@cli.command()
@session_option
@json_option
@click.pass_context
@reports_errors
def redo(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """Put back the last input undone."""
    _marker(ctx, folder, "redone", as_json)


@cli.command()
@session_option
@click.argument("keep", type=click.IntRange(0, None))
@json_option
@click.pass_context
@reports_errors
def rollback(ctx: click.Context, folder: Path, keep: int, as_json: bool) -> None:
    """Go back to just after input KEEP (see `automa log`); `redo` brings inputs back.

    It works on a log that no longer replays: the marker is written first, then the inputs
    kept are replayed."""
    from automa.render.session_out import session_status_json
    from automa.session.log import SessionError
    from automa.session.store import rollback_log

    rollback_log(folder, keep)
    try:
        session = open_session(ctx, folder)
    except SessionError as error:
        raise SessionError(f"rolled back to input {keep}, but the inputs kept do not replay "
                           f"either: {error}") from None
    if as_json:
        emit_json({"kept": keep, **session_status_json(session)})
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
    from automa.render.session_out import session_status_json, session_status_text

    session = open_session(ctx, folder)
    if as_json:
        emit_json(session_status_json(session))
    else:
        click.echo(session_status_text(session), nl=False)


@cli.command("log")
@session_option
@click.option("--json", "as_json", is_flag=True, help="The inputs in force, as recorded.")
@click.option("--verify", is_flag=True,
              help="Check the record: every line against its hash and the one before, the "
                   "start, the data and rulings, and every logged answer against a replay. One "
                   "line per problem; exit 5 if there is any.")
@click.option("--repair", is_flag=True,
              help="Mend a damaged log, keeping every sound line (lines moved are put back, a "
                   "line copied twice kept once, a lost one leaves a damaged input in its "
                   "place); a damaged first line is restored or rebuilt from scenario.toml. "
                   "The file as it was stays beside it.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="With --repair: the session's seed, if the damaged first line lost it.")
@click.option("--accept-data", is_flag=True,
              help="Go on under the rules data and rulings in force now, from the next input "
                   "on: a checkpoint keeps the battle as logged.")
@click.option("--accept-recomputed", is_flag=True,
              help="Go on with the battle as this machine computes it where it differs from "
                   "the logged figures, from the next input on (a checkpoint keeps it).")
@click.pass_context
@reports_errors
def log_(ctx: click.Context, folder: Path, as_json: bool, verify: bool, repair: bool,
         seed: int | None, accept_data: bool, accept_recomputed: bool) -> None:
    """Every input in force, numbered (the numbers `rollback` takes); or check, mend or go on
    from the record.

    \b
    Examples:
      automa log --session my-battle --verify
      automa log --session my-battle --repair
      automa log --session my-battle --accept-data
    """
    from automa.errors import InputError

    chosen = [name for name, on in (("--verify", verify), ("--repair", repair),
                                    ("--accept-data", accept_data),
                                    ("--accept-recomputed", accept_recomputed)) if on]
    if len(chosen) > 1:
        raise InputError(f"{' and '.join(chosen)}: give one at a time")
    if seed is not None and not repair:
        raise InputError("--seed goes with --repair")
    if verify:
        _verify_log(ctx, folder, as_json)
    elif repair:
        _repair_log(ctx, folder, seed, as_json)
    elif accept_data or accept_recomputed:
        _accept(ctx, folder, accept_data, as_json)
    else:
        _list_log(folder, as_json)


def _list_log(folder: Path, as_json: bool) -> None:
    from automa.render.session_out import describe_command
    from automa.session.log import read_log
    from automa.session.state import in_force
    from automa.session.store import LOG, commands_of

    contents = read_log(folder / LOG)  # no replay: always readable
    done, undone = in_force(commands_of(contents))
    if as_json:
        emit_json({"inputs": [c.to_json() for c in done],
                   "redo": [c.to_json() for c in undone]})
        return
    for number, command in enumerate(done, start=1):
        click.echo(f"{number:>4}  {describe_command(command)}")
    if undone:
        click.echo(f"      ({len(undone)} undone input(s) can be redone)")


def _verify_log(ctx: click.Context, folder: Path, as_json: bool) -> None:
    from automa.safe_text import one_line
    from automa.session.mend import verify
    from automa.session.store import LOG

    verdict = verify(folder, _catalog(ctx))
    problems = [*verdict.problems, *(contradiction_note(c, folder) for c in verdict.contradictions)]
    if as_json:
        emit_json({"sound": verdict.sound, "problems": problems, "notes": list(verdict.notes),
                   "lines": verdict.lines})
    else:
        for line in (*problems, *verdict.notes):
            click.echo(one_line(line))
        if verdict.sound:
            click.echo(f"{folder / LOG}: {verdict.lines} lines, sound: each line matches its "
                       f"hash and follows the one before; the start, the data and the rulings "
                       f"are those recorded; replay agrees with every logged answer and end")
    if not verdict.sound:
        ctx.exit(5)


def _repair_log(ctx: click.Context, folder: Path, seed: int | None, as_json: bool) -> None:
    from automa.safe_text import one_line
    from automa.session.lock import session_lock
    from automa.session.mend import repair

    if not folder.is_dir():
        from automa.session.log import SessionError

        raise SessionError(f"{folder}: no such session folder")
    with session_lock(folder):
        mended = repair(folder, _catalog(ctx), seed)
    if as_json:
        emit_json({"copy": None if mended.backup is None else str(mended.backup),
                   "notes": list(mended.notes)})
        return
    for line in mended.notes:
        click.echo(one_line(line))


def _accept(ctx: click.Context, folder: Path, data: bool, as_json: bool) -> None:
    from automa.safe_text import one_line
    from automa.session.accept import accept_data, accept_recomputed

    if not folder.is_dir():
        from automa.session.log import SessionError

        raise SessionError(f"{folder}: no such session folder")
    from automa.render.session_out import accepted_lines
    from automa.session.store import LOG

    settled = (accept_data(folder, _catalog(ctx)) if data else
               [c.text(folder / LOG) for c in accept_recomputed(folder, _catalog(ctx))])
    session = open_session(ctx, folder)
    if as_json:
        from automa.render.session_out import session_status_json

        emit_json({"accepted": settled, **session_status_json(session)})
        return
    for line in accepted_lines(session.state, settled, data):
        click.echo(one_line(line))


@cli.command()
@click.argument("recorded", type=click.Path(exists=True, path_type=Path))
@click.option("--to", "upto", type=click.IntRange(1, None), default=None,
              help="Stop after input N.")
@click.option("--auto", is_flag=True, help="Print every step without waiting for Enter.")
@click.option("--json", "as_json", is_flag=True, help="The list of activation objects.")
@click.option("--html", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write one self-contained page (FILE.html): a step slider, the mat and "
                   "the printout.")
@click.pass_context
@reports_errors
def replay(ctx: click.Context, recorded: Path, upto: int | None, auto: bool, as_json: bool,
           html: Path | None) -> None:
    """Step through a recorded battle (a session folder or its log.jsonl), reproducing the
    printout exactly from the recorded inputs.

    \b
    Examples:
      automa replay examples/lair-hmotha --auto
      automa replay my-battle --to 12
      automa replay my-battle --html my-battle.html
    """
    import sys

    from automa.engine.judge import GeometryMode
    from automa.render.json_out import activation_json
    from automa.render.replay_out import step_lines
    from automa.session.replay import open_recorded, replay_steps

    if html is not None:
        from automa.render.png import output_kind

        output_kind(html, ("html", "htm"), "--html")
    session = open_recorded(str(recorded), _catalog(ctx))
    note_contradictions(session)  # the logged figures stand in what follows
    steps = [s for s in replay_steps(session) if upto is None or s.number <= upto]
    if html is not None:
        from automa.render.html import replay_page
        from automa.storage import atomic_write_text

        atomic_write_text(html, replay_page(session, steps))
        click.echo(f"Wrote {html}: open it in a browser (it needs no network)")
        return
    if as_json:
        asked = session.geometry_mode == GeometryMode.ASKED
        emit_json([activation_json(s.activation, asked=asked) for s in steps
                   if s.activation is not None])
        return
    coordinates = session.geometry_mode != GeometryMode.ASKED
    interactive = not auto and sys.stdin.isatty()
    for step in steps:
        click.echo("\n".join(step_lines(step, coordinates)))
        if interactive and step is not steps[-1]:
            click.prompt("", default="", show_default=False, prompt_suffix="", err=True)


@cli.command()
@click.argument("source", type=click.Path(exists=True, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The file to write: .svg, or .png (needs the png extra).")
@click.option("--step", type=click.IntRange(0, None), default=None,
              help="For a session: the table after input N (an activation is drawn with its "
                   "sight lines, moves, template and pushes). Default: the latest.")
@click.pass_context
@reports_errors
def picture(ctx: click.Context, source: Path, output: Path, step: int | None) -> None:
    """Draw the mat at true scale, with a cm grid and a legend, as SVG or PNG: a scenario, or
    a session at one of its steps.

    \b
    Examples:
      automa picture battle.toml -o battle.svg
      automa picture my-battle --step 7 -o step7.png
    """
    from automa.errors import InputError
    from automa.render.png import output_kind, png_bytes
    from automa.render.svg import picture as draw
    from automa.storage import atomic_write_bytes, atomic_write_text

    kind = output_kind(output, ("svg", "png"), "-o")

    components = _catalog(ctx).components
    if source.is_file() and source.suffix == ".toml":
        scenario = _scenario(ctx, source)
        svg = draw(scenario, scenario.pieces, source.stem, components=components)
    else:
        from automa.engine.judge import GeometryMode
        from automa.render.measured import START, unmeasured_steps
        from automa.session.replay import open_recorded, replay_steps

        session = open_recorded(str(source), _catalog(ctx))
        steps = list(replay_steps(session))
        chosen = steps[-1] if step is None and steps else None
        if step is not None:
            if step > len(steps):
                raise InputError(f"--step {step}: the session has {len(steps)} inputs")
            chosen = steps[step - 1] if step else None
        scenario = session.state.scenario
        asked = session.geometry_mode == GeometryMode.ASKED
        title = f"{source.name}: " + (f"after input {chosen.number}" if chosen else "the start")
        if chosen is None:
            svg = draw(scenario, scenario.pieces, title, components=components,
                       unmeasured=START if asked else None)
        else:
            unmeasured = unmeasured_steps(steps)[chosen.number - 1] if asked else None
            svg = draw(scenario, chosen.after.battle.pieces, title, chosen.activation,
                       chosen.before.battle.pieces, components, unmeasured)
    if kind == "png":
        atomic_write_bytes(output, png_bytes(svg))
    else:
        atomic_write_text(output, svg)
    click.echo(f"Wrote {output}")


@cli.command()
@click.argument("source", type=click.Path(exists=True, path_type=Path))
@click.option("--n", "runs", type=click.IntRange(1, 100_000), default=200, show_default=True,
              help="How many simulated turns.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Processes to run the turns on (default: every core; the result is the "
                   "same for any number).")
@click.option("--precision", type=str, default=None, metavar="P",
              help="Stop once every share has its 95 % interval within +-P (e.g. 0.02), "
                   "checked every 500 turns; --n is then the most it plays.")
@json_option
@click.pass_context
@reports_errors
def forecast(ctx: click.Context, source: Path, runs: int, seed: int, workers: int | None,
             precision: str | None, as_json: bool) -> None:
    """Monte Carlo over the coming AI turn: for each hero, how often it is targeted, the
    damage it can expect and the chance it dies, each with its 95 % interval. SOURCE is a
    scenario or a session folder.

    \b
    Examples:
      automa forecast battle.toml --n 500
      automa forecast battle.toml --n 20000 --precision 0.02
    """
    from automa.cli.progress import progress_bar
    from automa.engine.forecast import forecast_runs, most_runs

    wanted = None if precision is None else _precision(precision)
    scenario = _scenario_or_session(ctx, source)
    with progress_bar("Forecast", most_runs(runs, wanted), shown=not as_json) as told:
        found = forecast_runs(scenario, _catalog(ctx), runs, seed, workers, precision=wanted,
                              progress=told)
    result = found.heroes
    if as_json:
        def interval(pair: tuple[float, float]) -> list[float]:
            return [round(pair[0], 4), round(pair[1], 4)]

        extra: dict[str, object] = {} if wanted is None else {
            "precision": wanted, "cap": runs, "precise": found.precise}
        emit_json({"n": found.runs, **extra, "heroes": {
            hero: {"targeted": round(f.targeted, 4), "expected_damage": round(f.expected_damage, 4),
                   "death": round(f.death, 4), "targeted_ci95": interval(f.targeted_ci95),
                   "expected_damage_ci95": interval(f.expected_damage_ci95),
                   "death_ci95": interval(f.death_ci95)} for hero, f in result.items()}})
        return
    runs = found.runs
    if wanted is not None:
        click.echo(f"Precision +-{wanted:g}: " + (
            f"reached after {runs} turns." if found.precise else
            f"not reached within the cap of {runs} turns (--n); the intervals are wider."))
    click.echo(f"The coming AI turn, {runs} simulated turns (95 % intervals in brackets):")
    click.echo(f"  {'hero':<16} {'targeted':>19} {'damage':>18} {'death':>22}")
    for hero, f in result.items():
        (t_lo, t_hi), (d_lo, d_hi) = f.targeted_ci95, f.expected_damage_ci95
        k_lo, k_hi = f.death_ci95
        click.echo(f"  {hero:<16} {f.targeted:>5.0%} [{t_lo:>4.0%}-{t_hi:>4.0%}] "
                   f"{f.expected_damage:>5.2f} [{d_lo:>4.2f}-{d_hi:>5.2f}] "
                   f"{f.death:>6.1%} [{k_lo:>5.1%}-{k_hi:>5.1%}]")


def _precision(text: str) -> float:
    """--precision as a number above 0 and below 0.5 (a half-width of a share's interval)."""
    from automa.errors import InputError

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 < value < 0.5:  # nan and inf fail too
        raise InputError(f"--precision {text}: give a number above 0 and below 0.5, e.g. 0.02 "
                         f"(each share within +-0.02)")
    return value
