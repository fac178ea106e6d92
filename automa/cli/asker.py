"""The players at the table answer with their real dice, tiles and cards: every answer is
validated, and a bad one is re-asked with one line saying what is wrong."""

from __future__ import annotations

from collections.abc import Sequence

import click

from automa.engine.judge import Briefing
from automa.errors import InputError


def _ask(prompt: str) -> str:
    try:
        return str(click.prompt(prompt, prompt_suffix=": ", err=True)).strip()
    except click.Abort:
        raise InputError("the input ended before every roll was given; nothing was saved") \
            from None


def _complain(text: str) -> None:
    click.echo(f"  {text}; try again", err=True)


class PromptAsker:
    def number(self, prompt: str, allowed: Sequence[int]) -> int:
        span = f"{min(allowed)}-{max(allowed)}"
        while True:
            answer = _ask(f"{prompt} [{span}]")
            if answer.isdigit() and int(answer) in allowed:
                return int(answer)
            _complain(f"{answer!r} is not a face of this die ({span})")

    def order(self, prompt: str, items: Sequence[str]) -> list[str]:
        menu = ", ".join(f"{i}={item}" for i, item in enumerate(items, start=1))
        while True:
            answer = _ask(f"{prompt} ({menu}; names or numbers, comma-separated)")
            chosen = [self._resolve(part.strip(), items) for part in answer.split(",")]
            if None in chosen:
                _complain(f"{answer!r} names something that is not in the list")
            elif sorted(c for c in chosen if c) != sorted(items):
                _complain(f"give each of the {len(items)} exactly once")
            else:
                return [c for c in chosen if c]

    def choice(self, prompt: str, options: Sequence[str]) -> str:
        menu = ", ".join(f"{i}={item}" for i, item in enumerate(options, start=1))
        while True:
            answer = _ask(f"{prompt} ({menu})")
            chosen = self._resolve(answer, options)
            if chosen is not None:
                return chosen
            _complain(f"{answer!r} is not one of the {len(options)} choices")

    def yes_no(self, prompt: str) -> bool:
        while True:
            answer = _ask(f"{prompt} [y/n]").lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            _complain(f"{answer!r}: answer y or n")

    @staticmethod
    def _resolve(answer: str, items: Sequence[str]) -> str | None:
        """An item by its name, or by its number in the menu. The name wins: a damage token
        is typed as printed on it ("4"), not by its place in the menu."""
        if answer in items:
            return answer
        if answer.isdigit() and 1 <= int(answer) <= len(items):
            return items[int(answer) - 1]
        return None

    @staticmethod
    def instruct(briefing: Briefing) -> None:
        """The steps the players have not seen yet, printed before they are asked."""
        from automa.render.text import briefing_lines

        for line in briefing_lines(briefing):
            click.echo(line, err=True)
