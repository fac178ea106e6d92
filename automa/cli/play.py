"""`automa play`: the table loop for a whole battle. Every input is logged the moment it is
accepted, so quitting, Ctrl-C or a crash loses nothing: `play` resumes where it stopped.

The loop reads a line, turns it into a command (session/words.py), does it through the session
(`Session.do`) and prints what it did (render/session_out.py); the questions a command still
needs are asked at the prompt (cli/asker.py)."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from automa.cli.main import cli, reports_errors
from automa.cli.session_cmds import open_session, session_option

if TYPE_CHECKING:
    from automa.session.apply import Applied
    from automa.session.commands import Command
    from automa.session.store import Session
    from automa.session.words import Asked

HISTORY = "history"  # in the session folder: the lines typed at `play`, for Up and Down


class Quit(Exception):
    pass


class LineReader:
    """Lines typed at the table. On a terminal: `input()` with readline (line editing, history
    kept in the session folder, Tab completing commands and piece ids). From a pipe: plain
    lines, echoed so a scripted transcript reads naturally."""

    def __init__(self, session: Session) -> None:
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
        from automa.session.words import HEROES_WORDS

        words = [*HEROES_WORDS, *(p.id for p in self.session.state.battle.pieces)]
        matches = [w for w in words if w.startswith(text)]
        return matches[state] if state < len(matches) else None

    def read(self, prompt: str) -> str:
        """One line; `clear` clears the screen and the prompt is shown again."""
        from automa.cli.asker import CLEAR

        line = self._read(prompt)
        while line.lower() == CLEAR:
            click.clear()
            line = self._read(prompt)
        return line

    def _read(self, prompt: str) -> str:
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
        from automa.cli.asker import CLEAR

        if self.history is None or not line.strip():
            return
        import readline

        if line.strip().lower() == CLEAR:  # Up recalls commands, not `clear`
            readline.remove_history_item(readline.get_current_history_length() - 1)
            return
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
    from automa.render.session_out import condition_reminders
    from automa.session.state import Phase

    session = open_session(ctx, folder)
    reader = LineReader(session)
    news = News(session)
    click.echo(f"Session {folder} · type help for the commands")
    reminded: list[int] = []
    try:
        while True:
            _wait_while_busy(session)
            session.refresh()  # another window's input shows before the next prompt
            news.tell(session)
            if _battle_over(session):
                return
            if session.state.phase == Phase.HEROES:
                if session.state.round not in reminded:
                    reminded.append(session.state.round)
                    for line in condition_reminders(session.state):
                        click.echo(line)
                _line(session, reader.read(f"[round {session.state.round} · heroes] > "), news)
                continue
            line = reader.read(f"[round {session.state.round} · AI] Enter for the next "
                               f"activation (help) > ")
            if line:
                _line(session, line, news)
            else:
                _activate(session, news)
    except Quit:
        click.echo(f"\nStopped. Everything is saved: automa play --session {folder}")
    except KeyboardInterrupt:
        click.echo(f"\nInterrupted. Every input so far is saved: automa play --session "
                   f"{folder}", err=True)
        sys.exit(130)


class News:
    """What this window has seen of the log, so that what another window (the board, another
    `play`, `automa undo`) added since is said in one line when it is seen."""

    def __init__(self, session: Session) -> None:
        self.known: list[Command] = list(session.raw)

    def tell(self, session: Session, own: bool = False) -> None:
        """Say what was added since this window last looked (`own`: the log's last input is
        this window's, just done: not news), and take the log as known."""
        from automa.render.session_out import elsewhere_line
        from automa.safe_text import one_line

        log = session.raw
        line = elsewhere_line(self.known, log[:len(log) - 1] if own else log)
        if line is not None:
            click.echo(one_line(line))
        self.known = list(log)


WAIT_POLL = 0.25  # seconds between looks at a busy session's lock


def _wait_while_busy(session: Session) -> None:
    """Another window is in the middle of an activation (its players are being asked): say so
    in one line and wait until it is done; Ctrl-C leaves (everything is saved)."""
    import time

    from automa.session.lock import busy_elsewhere

    pid = busy_elsewhere(session.folder)
    if pid is None:
        return
    click.echo(f"  another window (pid {pid}) is in an activation: waiting until it is done "
               f"(Ctrl-C leaves)")
    while busy_elsewhere(session.folder) is not None:
        time.sleep(WAIT_POLL)
    click.echo("  the other window is done: going on")


def _battle_over(session: Session) -> bool:
    """The room is cleared or the heroes have fallen: the end, the Resolution Phase and the
    battle's summary are printed."""
    from automa.render.summary import summary_text
    from automa.session.ending import battle_over

    over = battle_over(session)
    if over is None:
        return False
    if over.cleared is not None:
        click.echo(f"The room is cleared: {over.cleared}.")
        for line in over.devoured_back:
            click.echo(f"  {line}")
        if over.resolution:
            click.echo("Resolution Phase:")
        for line in over.resolution:
            click.echo(f"  {line}")
    else:
        click.echo(f"The heroes have fallen: {over.fallen}.")
    click.echo(summary_text(session.state, session.effective()[0], session.setting), nl=False)
    return True


def _line(session: Session, line: str, news: News) -> None:
    """One typed line: a command done, or a question answered; a bad one is said in one line
    and nothing changes. Another window busy with an activation: waited for, and the line is
    not done (the battle may have changed: the player types it again if it still holds)."""
    from automa.errors import AutomaError
    from automa.session.lock import SessionBusy
    from automa.session.state import Phase
    from automa.session.words import Asked, NotNow, UnknownWord, parse_line

    try:
        parsed = parse_line(line, session.state.phase)
        if parsed is None:
            return
        if isinstance(parsed, Asked):
            _answer(session, parsed)
            return
        applied = _do(session, parsed)
    except SessionBusy:
        _wait_while_busy(session)
        session.refresh()
        news.tell(session)
        click.echo(f"  {line!r} was not done: type it again if it still holds")
        return
    except (NotNow, UnknownWord) as unknown:
        where = "type help" if session.state.phase == Phase.HEROES else \
            "press Enter for the next activation, or type help"
        click.echo(f"  unknown command {unknown.word!r} here; {where}")
        return
    except _AbandonedForUndo:
        click.echo(ABANDONED.format(what="command"))
        return
    except AutomaError as error:
        click.echo(f"  {error}")
        return
    from automa.render.session_out import applied_lines

    news.tell(session, own=applied.logged)
    for text in applied_lines(applied, announced=True):
        click.echo(text)


class _AbandonedForUndo(Exception):
    """`undo` at a question: the command under way is dropped, its answers with it; nothing
    logged before it is undone."""


ABANDONED = ("  the {what} under way is abandoned: its answers are taken back, nothing of it "
             "was logged (`undo` again takes back the input before it)")


def _do(session: Session, command: Command) -> Applied:
    """A command done with the players asked at the prompt (`back` takes an answer back);
    `quit` at a question stops `play`, nothing of the command logged."""
    from automa.cli.asker import QuitAtPrompt, UndoAtPrompt, run_with_takebacks

    try:
        return run_with_takebacks(lambda asker: session.do(command, asker))
    except UndoAtPrompt:
        raise _AbandonedForUndo from None
    except QuitAtPrompt:
        raise Quit from None


def _answer(session: Session, asked: Asked) -> None:
    """A question about the battle as it stands, or `quit`."""
    from automa.render.session_out import answer_text
    from automa.session.words import Query

    if asked.query == Query.QUIT:
        raise Quit
    click.echo(answer_text(session, asked), nl=False)


def _activate(session: Session, news: News) -> None:
    """One AI activation. `back` at a question runs it again with the answers so far minus the
    last; `undo` abandons it, its answers with it; nothing half-done is logged."""
    from automa.engine.judge import GeometryMode
    from automa.render.session_out import latest_activation_text
    from automa.session.commands import NextActivation
    from automa.session.lock import SessionBusy

    try:
        applied = _do(session, NextActivation())
    except SessionBusy:  # another window's activation: waited for, and shown, not run again
        _wait_while_busy(session)
        session.refresh()
        news.tell(session)
        return
    except _AbandonedForUndo:
        click.echo(ABANDONED.format(what="activation"))
        return
    except Quit:
        click.echo("  the activation under way is abandoned (nothing of it was logged)")
        raise
    except KeyboardInterrupt:  # Ctrl-C at a question: `play` stops, saying so (exit 130)
        click.echo("\n  the activation under way is abandoned (nothing of it was logged)")
        raise
    news.tell(session, own=applied.logged)
    if applied.activation is None:
        click.echo("No AI character can act.")
        return
    click.echo(latest_activation_text(session.state,
                                      session.geometry_mode != GeometryMode.ASKED))


