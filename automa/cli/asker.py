"""The players at the table answer with their real dice, tiles and cards: every answer is
validated, and a bad one is re-asked with one line saying what is wrong.

Answers are names, never places in a list: a damage token is typed as printed on it (`2`,
`1R`, `0`), a tile by its colour or its name. A menu number is offered only where no choice is
itself a number (so it cannot be mistaken for a value). A number is plain ASCII digits only.

With `controls` on (the play loop), three words work at every question: `back` takes back the
last answer, `undo` abandons the activation under way (its answers are taken back; no earlier
input is touched: `undo` again at the prompt does that), `quit` stops
with nothing half-done saved. `run_with_takebacks` turns `back` into a re-run of the step with
the answers so far, minus the last, given again.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

import click

from automa.engine.judge import Briefing
from automa.errors import InputError
from automa.session.answers import menu_numbers_allowed, plain_number, resolve

if TYPE_CHECKING:
    from automa.session.cave import Notice

T = TypeVar("T")
CONTROL_WORDS = ("back", "undo", "quit")
CLEAR = "clear"  # at every prompt: the screen is cleared and the question asked again


class TakeBack(Exception):
    """`back`: the last answer is taken back."""


class UndoAtPrompt(Exception):
    """`undo`: abandon the activation under way, its answers taken back (nothing is logged, and
    no earlier input is undone)."""


class QuitAtPrompt(Exception):
    """`quit` (or Ctrl-C, or the end of the input): stop; nothing half-done is saved."""



def on_a_terminal() -> bool:
    """Both ends are a terminal: the prompt is `input`'s, with line editing."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def line_editing() -> None:
    """Line editing and history for `input` (readline, loaded once; nothing where the platform
    has none)."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (loading it is what turns editing on)


def _read_answer(prompt: str, remember: bool = False) -> str:
    """One typed line. On a terminal, `input` shows the prompt itself so readline can redraw
    the line as it is edited (arrows, Ctrl-A/E/U, Up for history); otherwise the prompt goes to
    stderr, keeping stdout for data (`automa next --json`). `remember`: Up recalls this answer
    later (campaign prompts); otherwise it is left out, so Up recalls commands, not rolls."""
    if on_a_terminal():
        line_editing()
        try:
            typed = input(prompt)
        except EOFError:  # Ctrl-D: the input ended (Ctrl-C goes on up as an interruption)
            raise click.Abort from None
        readline = sys.modules.get("readline")
        if typed and readline is not None and (not remember or typed.strip().lower() == CLEAR):
            readline.remove_history_item(readline.get_current_history_length() - 1)
        return typed.strip()
    line = read_plain_line(prompt, err=True)
    if line is None:
        raise click.Abort
    return line


def read_plain_line(prompt: str, err: bool = False) -> str | None:
    """One line without line editing (None at the end of the input). Piped lines are echoed
    after the prompt, so a scripted transcript reads as a dialogue."""
    click.echo(prompt, nl=False, err=err)
    line = sys.stdin.readline()
    if not line:
        return None
    if not sys.stdin.isatty():
        click.echo(line.rstrip("\n"), err=err)
    return line.strip()


def _complain(text: str) -> None:
    click.echo(f"  {text}; try again", err=True)


def _menu(options: Sequence[str]) -> str:
    if menu_numbers_allowed(options):
        return ", ".join(f"{i}={item}" for i, item in enumerate(options, start=1))
    return ", ".join(options)


class PromptAsker:
    remember_answers = False  # Up recalls earlier answers (else only commands)

    def __init__(self, controls: bool = False, prefill: Sequence[str] = ()) -> None:
        self.controls = controls
        self.prefill = list(prefill)
        self.given: list[str] = []  # every accepted answer, as typed (for `back`)

    def _ask(self, prompt: str) -> str:
        if self.prefill:
            answer = self.prefill.pop(0)
            click.echo(f"{prompt}: {answer}", err=True)
            return answer
        try:
            answer = _read_answer(f"{prompt}: ", self.remember_answers)
            while answer.lower() == CLEAR:
                click.clear()
                answer = _read_answer(f"{prompt}: ", self.remember_answers)
        except click.Abort:
            if self.controls:
                raise QuitAtPrompt from None
            raise InputError("the input ended before every roll was given; nothing was saved") \
                from None
        if self.controls and answer.lower() in CONTROL_WORDS:
            raise {"back": TakeBack, "undo": UndoAtPrompt,
                   "quit": QuitAtPrompt}[answer.lower()]
        return answer

    def _accept(self, answer: str) -> None:
        self.given.append(answer)

    def number(self, prompt: str, allowed: Sequence[int], what: str | None = None) -> int:
        """A number among `allowed`: a face of the die rolled, or (`what`, like "a Poison
        card's value") any other number the players read at the table."""
        low, high = min(allowed), max(allowed)
        span = f"{low}-{high}"
        while True:
            answer = self._ask(f"{prompt} [{span}]")
            value = plain_number(answer)
            if value is not None and value in allowed:
                self._accept(answer)
                return value
            _complain(f"{answer!r} is not a face of this die ({span}; plain digits)"
                      if what is None else
                      f"{answer!r} is not {what}: a whole number from {low} to {high} in "
                      f"plain digits")

    def order(self, prompt: str, items: Sequence[str]) -> list[str]:
        """The items one draw at a time, each from those left (the last one is not asked)."""
        left, drawn = list(items), list[str]()
        while len(left) > 1:
            chosen = self.choice(f"{prompt}: draw {len(drawn) + 1} of {len(items)}", left)
            drawn.append(chosen)
            left.remove(chosen)
        return drawn + left

    def choice(self, prompt: str, options: Sequence[str]) -> str:
        while True:
            answer = self._ask(f"{prompt} ({_menu(options)})")
            chosen = resolve(answer, options)
            if chosen is not None:
                self._accept(answer)
                return chosen
            _complain(f"{answer!r} is not one of: {', '.join(options)}")

    def token(self, prompt: str, faces: Sequence[str], elsewhere: Mapping[str, str]) -> str:
        """A damage token by the face printed on it; only a face still in the bag is taken.
        `elsewhere` says where each face not in the bag is."""
        while True:
            answer = self._ask(f"{prompt} (in the bag: {', '.join(faces)})")
            face = answer.strip().upper()
            if face in faces:
                self._accept(answer)
                return face
            if face in elsewhere:
                _complain(f"no {face} is in the bag now (every {face} is {elsewhere[face]}; "
                          f"the bag holds {', '.join(faces)})")
            else:
                _complain(f"{answer!r} is not a token face in this bag; type the face as "
                          f"printed on the token: {', '.join(faces)}")

    def yes_no(self, prompt: str) -> bool:
        while True:
            answer = self._ask(f"{prompt} [y/n]")
            if answer.lower() in ("y", "yes", "n", "no"):
                self._accept(answer)
                return answer.lower().startswith("y")
            _complain(f"{answer!r}: answer y or n")

    @staticmethod
    def instruct(briefing: Briefing) -> None:
        """The steps the players have not seen yet, printed before they are asked."""
        from automa.render.text import briefing_lines

        for line in briefing_lines(briefing):
            click.echo(line, err=True)

    @staticmethod
    def announce(notice: Notice) -> None:
        """What the table must know before it answers (a Kraken fight beginning)."""
        from automa.render.session_out import notice_lines

        for line in notice_lines(notice):
            click.echo(line)

def run_with_takebacks(step: Callable[[PromptAsker], T]) -> T:
    """Run `step` with a controlled asker; on `back`, run it again from the start with every
    answer but the last given again, so the question before is asked anew. The step must have
    no effect until it returns (an AI activation is logged only when it is complete)."""
    given: list[str] = []
    while True:
        asker = PromptAsker(controls=True, prefill=given)
        try:
            return step(asker)
        except TakeBack:
            taken = asker.given
            if not taken:
                click.echo("  nothing to take back yet", err=True)
                given = []
                continue
            click.echo(f"  taken back: {taken[-1]}", err=True)
            given = taken[:-1]
