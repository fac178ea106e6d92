"""`automa`: click commands. Parse, call the library, render; errors become one line on stderr.

Heavy modules (numpy, shapely) are imported inside the commands, so `--help` answers at once.
"""

from __future__ import annotations

import errno
import functools
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:  # imported when a path is made: it costs a command's start ~5 ms
    from pathlib import Path

F = TypeVar("F", bound=Callable[..., Any])
EXIT_INTERRUPTED = 130
EXIT_INTERNAL = 70
EXIT_WRITE = 5  # the output could not be written (a full disk, a read-only place)
WRITE_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG, errno.EIO)


def reports_errors(command: F) -> F:
    """Bad input of any kind: one clear line on stderr and a non-zero exit, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from automa.errors import AutomaError
        from automa.safe_text import one_line

        try:
            result = command(*args, **kwargs)
            sys.stdout.flush()  # a full disk under the output shows here, not after exit
            return result
        except AutomaError as error:  # user text in it is shown, never obeyed (escape codes)
            click.echo(f"automa: {one_line(str(error))}", err=True)
            sys.exit(error.exit_code)
        except KeyboardInterrupt:
            click.echo("automa: interrupted; nothing was saved", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:  # the reader (head, less) went away: nothing more to say
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except (click.ClickException, click.exceptions.Exit, SystemExit):
            raise
        except Exception as error:  # a bug, not bad input: say so plainly
            if isinstance(error, OSError) and error.errno in WRITE_ERRNOS:  # not a bug
                click.echo(f"automa: cannot write the output ({error.strerror})", err=True)
                sys.exit(EXIT_WRITE)
            if os.environ.get("AUTOMA_DEBUG"):
                import traceback

                traceback.print_exc()
            click.echo(f"automa: internal error ({type(error).__name__}: "
                       f"{one_line(str(error))}); please "
                       f"report it with the input that caused it (AUTOMA_DEBUG=1 shows details)",
                       err=True)
            sys.exit(EXIT_INTERNAL)

    return wrapper  # type: ignore[return-value]


def path_text(value: str) -> str:
    """`str(pathlib.Path(value))` without importing pathlib: the path as it writes it, without
    "." parts or doubled and trailing slashes (two leading slashes kept, as POSIX asks)."""
    if os.name != "posix":
        from pathlib import Path

        return str(Path(value))
    stripped = value.lstrip("/")
    slashes = len(value) - len(stripped)
    root = "//" if slashes == 2 else "/" if slashes else ""
    return root + "/".join(p for p in stripped.split("/") if p and p != ".") or "."


class PathText:
    """click's `path_type` for a path a command only reads: text, as `path_text` writes it.
    (A class only because click calls `path_type(value)`; there is never an instance.)"""

    def __new__(cls, value: str) -> str:  # type: ignore[misc]
        return path_text(value)


class PathValue:
    """click's `path_type` for a pathlib.Path, imported only when such a path is given (as
    PathText, a class for click's call; there is never an instance)."""

    def __new__(cls, value: str) -> Path:  # type: ignore[misc]
        from pathlib import Path

        return Path(value)


def one_shot(command: F) -> F:
    """A command that reads its input, prints and ends runs with the cyclic garbage collector
    paused. Its start makes tens of thousands of objects that live until the end (modules,
    classes, functions, records); the collector walked them some 20 times, ~5 ms of the ~60 a
    turn adds to the bare imports. After it, what it made joins the oldest generation without a
    collection (re-enabled with all of it in the youngest, the next allocation would start one
    over all of it); the next full collection of a longer-lived process (tests) still frees its
    cyclic garbage. The exit itself skips the collector's last walk: see `main`."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import gc

        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return command(*args, **kwargs)
        finally:
            if was_enabled:
                if gc.get_freeze_count() == 0:  # (never thaw what someone else froze)
                    gc.freeze()  # what the command made joins the oldest generation: the next
                    gc.unfreeze()  # full collection looks at it (one now would be wasted)
                gc.enable()

    return wrapper  # type: ignore[return-value]


def emit_json(data: object) -> None:
    """One JSON object on stdout: readable Unicode, but nothing a terminal would obey."""
    import json

    from automa.safe_text import json_safe

    click.echo(json_safe(json.dumps(data, indent=2, ensure_ascii=False)))


# Commands defined in sibling modules, by name: a module is imported only when one of its
# commands runs (or help lists them), so a command at the table starts without the others.
COMMAND_MODULES = {
    **dict.fromkeys(("new", "next", "undo", "redo", "rollback", "status", "log", "replay",
                     "picture", "forecast"), "session_cmds"),
    "play": "play",
    "data": "data_cmds",  # the group is below; its subcommands live in data_cmds
    "calibrate": "calibrate",
    "capture": "capture_cmds",
    "campaign": "campaign_cmds",
    "hidden-cave": "cave_cmds",
    "threat": "threat_cmds",
    "serve": "serve_cmds",
    "markers": "markers_cmds",
    "setup": "setup_cmds",
    **dict.fromkeys(("export", "import"), "bundle_cmds"),
}


def command_line_refused(error: click.UsageError, ctx: click.Context | None,
                         path: str | None = None) -> click.UsageError:
    """A refused command line (a bad option value, a missing argument, an unknown command or
    option) as `OneLineUsage`; a bare group's help (`NoArgsIsHelpError`) is kept as it is.
    `path`: the command's words, when click made no context for it."""
    if isinstance(error, OneLineUsage | click.exceptions.NoArgsIsHelpError):
        return error
    return OneLineUsage(error.format_message(), error.ctx or ctx, path)


class OneLineUsage(click.UsageError):
    """Shown as one line on stderr naming the command and pointing at its help, e.g.
    "automa new: Invalid value for '--dice': ... (`automa new --help` says what it takes)",
    in place of click's usage block; exit 2."""

    def __init__(self, message: str, ctx: click.Context | None = None,
                 path: str | None = None) -> None:
        super().__init__(message, ctx)
        self.path = ctx.command_path if ctx is not None else path or "automa"

    def show(self, file: Any = None) -> None:
        from automa.safe_text import one_line

        click.echo(one_line(f"{self.path}: {self.format_message()} (`{self.path} --help` says "
                            f"what it takes)"), file=file, err=True)


class OneLineUsageMixin:
    """Usage errors met parsing this command's line, or finding and running its sub-command,
    become `OneLineUsage`."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            made: click.Context = super().make_context(  # type: ignore[misc]
                info_name, args, parent, **extra)
        except click.UsageError as error:
            words = [parent.command_path] if parent is not None else []
            raise command_line_refused(error, None, " ".join([*words, info_name or ""]).strip()
                                       ) from None
        return made

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)  # type: ignore[misc]
        except click.UsageError as error:
            raise command_line_refused(error, ctx) from None


class AutomaCommand(OneLineUsageMixin, click.Command):
    """Every automa command: a refused command line is one line (`OneLineUsage`)."""


class AutomaGroup(OneLineUsageMixin, click.Group):
    """Every automa group: a refused command line is one line; its commands and groups are
    made of these classes too."""

    command_class = AutomaCommand
    group_class: type[click.Group | type] | None = type  # a sub-group is an AutomaGroup


class LazyGroup(AutomaGroup):
    """The root group, whose sibling modules attach their commands when first needed."""

    group_class = AutomaGroup  # its sub-groups are not lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMAND_MODULES})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMAND_MODULES.get(cmd_name)
        if module is not None:
            import importlib

            importlib.import_module(f"automa.cli.{module}")
        return super().get_command(ctx, cmd_name)


@click.group("automa", cls=LazyGroup,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=PathValue),
              envvar="AUTOMA_DATA_DIR", default=None,
              help="Folder whose data files extend or replace the shipped ones "
                   "(or set AUTOMA_DATA_DIR).")
@click.version_option(package_name="catacombs-automa")
@click.pass_context
def cli(ctx: click.Context, data_dir: Path | None) -> None:
    """The Red Box AI player for Catacombs 3E, beside your physical table.

    \b
    Examples:
      automa demo                         one AI turn of the shipped example battle
      automa turn battle.toml --seed 7    the AI turn of your table, step by step
      automa turn battle.toml --json --save next.toml
      automa los battle.toml rat-1        whom the rat sees, closest first
      automa data check my-data/          validate your own data files
    """
    ctx.obj = {"data_dir": data_dir}


def _catalog(ctx: click.Context) -> Any:
    from automa.catalog.load import load_catalog

    return load_catalog(ctx.obj["data_dir"])


def _scenario(ctx: click.Context, path: str | Path, close_call: float | None = None) -> Any:
    """Load a scenario; `close_call` (cm) overrides its close-call tolerance."""
    from msgspec.structs import replace

    from automa.scenario.load import load_scenario

    scenario = load_scenario(path, _catalog(ctx))
    if close_call is not None:
        scenario = replace(scenario, settings=replace(scenario.settings, close_call=close_call))
    return scenario


def _scenario_or_session(ctx: click.Context, source: Path) -> Any:
    """A scenario file, or a session folder (or its log) as its battle stands now; refused
    while an asked-geometry session has pieces nobody measured (their spots are guesses)."""
    if source.is_file() and source.suffix == ".toml":
        return _scenario(ctx, source)
    from automa.errors import InputError
    from automa.render.measured import unmeasured_now
    from automa.session.replay import open_recorded

    session = open_recorded(str(source), _catalog(ctx))
    unknown = sorted(unmeasured_now(session))
    if unknown:
        raise InputError(f"{source}: asked geometry: nobody measured where "
                         f"{', '.join(unknown)} stand(s), so their spots would be guesses; "
                         f"report each with move (automa play --session {source}) first")
    return session.state.as_scenario()


close_call_option = click.option(
    "--close-call", type=click.FloatRange(0.0, 10.0), default=None, metavar="CM",
    help="Flag decisions whose margin is below CM as close calls (default: the scenario's "
         "battle.close_call, else 0.5).")


def _run_turn(ctx: click.Context, scenario: Any, seed: int | None, as_json: bool,
              save: Path | None, explain: bool = False) -> None:
    from automa.engine.turn import run_turn

    # the trace is made only when it is shown: --explain, or the JSON's "explain" list
    result = run_turn(scenario, _catalog(ctx), seed, explain=explain or as_json)
    if save is not None:
        from automa.scenario.save import save_scenario

        save_scenario(result.after, save)
    if as_json:
        from automa.render.json_out import turn_json

        emit_json(turn_json(result))
    else:
        from automa.render.text import turn_text

        click.echo(turn_text(result, scenario.settings.los_blocked, explain), nl=False)
        if save is not None:
            click.echo(f"Saved the table after this turn to {save}")


@cli.command()
@click.argument("scenario", type=click.Path(path_type=PathText))
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="Seed for every draw the scenario does not script (default: [chance] seed, "
                   "else a fresh one, printed).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (CONTRACT.md).")
@click.option("--save", type=click.Path(dir_okay=False, path_type=PathValue), default=None,
              help="Write the table after the turn as a scenario for the next turn.")
@close_call_option
@click.option("--explain", is_flag=True,
              help="After each activation, the full trace: every candidate, measured value, "
                   "deciding column and loser.")
@click.pass_context
@reports_errors
@one_shot
def turn(ctx: click.Context, scenario: str, seed: int | None, as_json: bool,
         save: Path | None, close_call: float | None, explain: bool) -> None:
    """Resolve one full AI turn: every AI character acts once, in activation order.

    \b
    Example:
      automa turn battle.toml --seed 7 --save round2.toml
    """
    _run_turn(ctx, _scenario(ctx, scenario, close_call), seed, as_json, save, explain)


@cli.command()
@click.argument("scenario", type=click.Path(path_type=PathText))
@click.argument("piece")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (CONTRACT.md).")
@close_call_option
@click.pass_context
@reports_errors
@one_shot
def los(ctx: click.Context, scenario: str, piece: str, as_json: bool,
        close_call: float | None) -> None:
    """Whom PIECE sees under the scenario's line-of-sight setting, closest first."""
    from automa.errors import ScenarioError
    from automa.geometry.sight import look_around
    from automa.geometry.table import build_table
    from automa.render.json_out import sight_json
    from automa.render.sight_out import sight_line

    loaded = _scenario(ctx, scenario, close_call)
    viewer = next((p for p in loaded.pieces if p.id == piece), None)
    if viewer is None:
        ids = ", ".join(p.id for p in loaded.pieces)
        raise ScenarioError(str(scenario), "", "PIECE", f"no piece {piece!r} (pieces: {ids})")
    enemies = [p for p in loaded.pieces if p.side != viewer.side]
    settings = loaded.settings
    sightings = look_around(build_table(loaded.playmat), viewer, enemies, settings.los_blocked,
                            settings.los_test)
    if as_json:
        emit_json(sight_json(piece, sightings, settings.close_call))
        return
    mode = (f"blocked by obstacles ({settings.los_test})" if settings.los_blocked
            else "not blocked by obstacles")
    click.echo(f"{viewer.label}: line of sight {mode}")
    for s in sightings:
        click.echo(sight_line(s, settings.close_call))


@cli.command()
@click.argument("scenario", type=click.Path(path_type=PathText))
@click.argument("corners", nargs=3, metavar="X1,Y1 X2,Y2 X3,Y3")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
@reports_errors
@one_shot
def triangle(ctx: click.Context, scenario: str, corners: tuple[str, str, str],
             as_json: bool) -> None:
    """Scorched Earth: which pieces lie completely within the triangle of the three pieces.

    \b
    Example (the three Scorched Earth pieces landed at these centres):
      automa triangle battle.toml 10,30 50,35 30,60
    """
    from automa.errors import InputError
    from automa.geometry.zones import within_triangle
    from automa.session.positions import coordinates

    loaded = _scenario(ctx, scenario)
    points = [coordinates(corner) for corner in corners]
    for corner, point in zip(corners, points, strict=True):
        if point is None:
            raise InputError(f"corner {corner!r}: write it as X,Y in cm, e.g. 12.5,40")
    a, b, c = (p for p in points if p is not None)
    if abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) < 1e-9:
        raise InputError("the three corners lie on one line: no triangle")
    results = {p.id: within_triangle((a, b, c), p) for p in loaded.pieces}
    if as_json:
        emit_json({"inside": [k for k, (inside, _) in results.items() if inside],
                   "margins": {k: round(m, 2) for k, (_, m) in results.items()}})
        return
    for piece_id, (inside, margin) in results.items():
        verdict = "completely inside" if inside else "not completely inside"
        flag = "  (close call: check with Ruler 3)" if margin < loaded.settings.close_call else ""
        click.echo(f"  {piece_id:<16} {verdict} (margin {margin:.1f} cm){flag}")


@cli.command()
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="Seed (default: the example's own).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--explain", is_flag=True, help="Show the full trace of each decision.")
@click.pass_context
@reports_errors
@one_shot
def demo(ctx: click.Context, seed: int | None, as_json: bool, explain: bool) -> None:
    """One AI turn of the shipped example battle, printed step by step."""
    from pathlib import Path

    path = Path(__file__).parent.parent / "_examples" / "demo-battle.toml"
    if not path.is_file():
        from importlib import resources

        path = Path(str(resources.files("automa") / "_examples" / "demo-battle.toml"))
    scenario = _scenario(ctx, path)
    if not as_json:
        click.echo(f"Demo battle: {path.name} (copy it to start your own)\n")
    _run_turn(ctx, scenario, seed, as_json, None, explain)


@cli.group()
def data() -> None:
    """Inspect and check the rules data."""


@data.command("check")
@click.argument("directory", required=False, type=click.Path(path_type=PathValue))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
@reports_errors
def data_check(ctx: click.Context, directory: Path | None, as_json: bool) -> None:
    """Check the shipped data merged with DIRECTORY (or --data-dir); list every problem."""
    import textwrap

    from automa.catalog.load import check_catalog
    from automa.safe_text import one_line

    folder = directory or ctx.obj["data_dir"]
    problems = check_catalog(folder)
    held = [] if problems else _placeholders(folder)
    if as_json:
        emit_json({"ok": not problems, "problems": [
            {"file": p.file, "record": p.record, "field": p.field, "problem": p.problem}
            for p in problems],
            "placeholders": [{"ruling": number, "what": what, "records": list(records)}
                             for number, what, records in held],
            "rulings": [number for number, _, _ in held]})
        sys.exit(1 if problems else 0)
    for problem in problems:
        click.echo(one_line(str(problem)))
    if problems:
        click.echo(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found", err=True)
        sys.exit(1)
    click.echo("data ok")
    if held:
        click.echo("Still our placeholders (provenance house): measure or enter yours "
                   "(docs/data.md)")
        for number, what, records in held:
            click.echo("\n".join(textwrap.wrap(one_line(
                f"* ruling {number}: {what} (components.toml {', '.join(records)})"),
                100, subsequent_indent="  ")))


def _placeholders(folder: Path | None) -> list[tuple[int, str, tuple[str, ...]]]:
    """The component rulings whose records the data folder leaves at our house values: each
    ruling's number, what the records hold, and the records (rules/placeholders.py)."""
    from automa.catalog.load import load_catalog
    from automa.rules.placeholders import placeholders
    from automa.rules.rulings import ruling

    return [(ruling(p.key).number, p.what, p.records)
            for p in placeholders(load_catalog(folder).components.placeholders)]


@cli.command()
@click.argument("number", required=False, type=int)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@reports_errors
def rulings(number: int | None, as_json: bool) -> None:
    """List our numbered rulings (or show ruling NUMBER), with their switches."""
    from automa.errors import InputError
    from automa.rules.rulings import BY_NUMBER, RULINGS
    from automa.rules.rulings_doc import ruling_markdown

    chosen = RULINGS if number is None else (BY_NUMBER.get(number),)
    if None in chosen:
        raise InputError(f"there is no ruling {number}: they run from 1 to "
                         f"{RULINGS[-1].number}")
    if as_json:
        emit_json({"rulings": [
            {"number": r.number, "key": r.key, "title": r.title, "text": r.text,
             "rests_on": r.rests_on, "alternative": r.alternative, "setting": r.where
             if r.options else None, "options": [o.value for o in r.options],
             "marked": list(r.marked)}
            for r in chosen if r is not None]})
        return
    for r in chosen:
        if r is None:
            continue
        if number is not None:
            click.echo("\n".join(ruling_markdown(r)))
            continue
        switch = f"  (switch: {r.where} = {' | '.join(o.value for o in r.options)})" \
            if r.options else ""
        click.echo(f"{r.number:>2}. {r.title}{switch}")


def main() -> None:
    """The `automa` command: `cli`, and then, as the process ends, the collector told to leave
    alone everything there is (gc.freeze). Ending, the interpreter collects once more over every
    object still alive (ours, numpy's, shapely's, click's) only to find the few cycles it could
    free, and the process is gone a moment later anyway: that last walk was about a sixth of a
    turn's whole time. Objects are still freed as their counts fall to zero; open files are
    closed by the code that opened them, and the standard streams flushed, as before."""
    import gc

    try:
        cli()
    finally:
        gc.freeze()
