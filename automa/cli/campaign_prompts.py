"""The players at the terminal for a campaign step: the engine's dice and tiles asked as in
`automa play`, what their cards show asked when they may be asked (stdin a terminal, or --ask),
and otherwise refused in one line naming the option that gives it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import click

from automa.cli.asker import PromptAsker
from automa.errors import InputError

if TYPE_CHECKING:
    from automa.campaign.asking import Question

T = TypeVar("T")


class CampaignPrompts(PromptAsker):
    """The players at the terminal. What their cards show is asked only when they may be asked
    (stdin a terminal, or --ask); otherwise the question is refused in one line naming the
    option that gives the answer. A line told before a question is shown with it. On a
    terminal every prompt has line editing, and Up recalls the answers typed before."""

    remember_answers = True

    def __init__(self, may_ask: bool) -> None:
        super().__init__()
        self.may_ask = may_ask
        self.pending: list[str] = []

    def tell(self, line: str) -> None:
        self.pending.append(line)

    def _ask(self, prompt: str) -> str:
        for line in self.pending:
            click.echo(line, err=True)
        self.pending = []
        return super()._ask(prompt)

    def text(self, question: Question, parse: Callable[[str], T]) -> T:
        if not self.may_ask:
            raise InputError(refusal(question))
        while True:
            answer = self._ask(question.prompt)
            try:
                value = parse(answer)
            except ValueError as exc:
                click.echo(f"  {exc}; try again", err=True)
                continue
            self._accept(answer)
            return value


def prompts(ask: bool) -> CampaignPrompts:
    return CampaignPrompts(ask or sys.stdin.isatty())


def refusal(question: Question) -> str:
    """What is missing, and the option that gives it."""
    from automa.campaign.answers import OFFERS_EXAMPLE
    from automa.campaign.cards import EXAMPLE
    from automa.cli.campaign_ask import LORD_FIELDS

    if question.topic == "spell-to":
        return "--spell-to: name the hero who takes the Spell card (or --ask to answer on stdin)"
    if question.topic == "drawn":
        return ("--dice physical: pass --drawn 'hero,orc,centaur' (the three pieces drawn at the "
                "table), or --ask")
    flags = ", ".join(next(k for k, v in LORD_FIELDS.items() if v == f)
                      for f in question.fields if f in LORD_FIELDS.values())
    how = {"gold": "pass --gold N and --spell/--no-spell as the card shows",
           "spell": "pass --gold N and --spell/--no-spell as the card shows",
           "monsters": f"pass --monsters 'KIND=COUNT,...' (e.g. {EXAMPLE})",
           "lord-card": f"pass --lord-card FIELD=VALUE for {flags} (e.g. --lord-card "
                        f"health=30)",
           "offers": f"pass --offers 'ID=PRICE:EFFECT; ...' (e.g. {OFFERS_EXAMPLE})",
           "bag": "pass --bag 'orc=N,fire-spirit=N,centaur=N' (your box), --drawn for a draw at "
                  "the table"}[question.topic]
    end = ", or --ask" if question.topic == "bag" else ", or --ask to answer on stdin"
    return f"{question.lacking}: {how}{end}"
