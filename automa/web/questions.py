"""The board's players answer from a list: `POST /api/next` (and a hit's `dice`) carries the
answers given so far to the command's questions, in order. The command is run again from its
start with them; when they run out, the next question goes back to the page (`NeedsAnswer`) and
nothing is logged. Each answer is read as `automa play` reads a typed one (session/answers.py):
a die face in plain digits, a token face still in the bag, a choice by name, yes or no."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from automa.engine.judge import Briefing
from automa.session.answers import plain_number, resolve
from automa.session.cave import Notice

MAX_ANSWERS = 500
MAX_ANSWER_LENGTH = 200


class NeedsAnswer(Exception):
    """The answers ran out: `question` is the next one, as the page shows it."""

    def __init__(self, question: dict[str, Any]) -> None:
        super().__init__(question.get("prompt", ""))
        self.question = question


class BadAnswer(Exception):
    """An answer the table could not have given (not a face, not a choice): one line."""


class ScriptedAsker:
    """The engine's Asker (engine/chance.py) over a list of answers."""

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.used = 0
        self.briefing: list[str] = []  # steps shown since the last question
        self.briefed: list[str] = []  # every step shown in this activation so far
        self.announced: list[str] = []  # what the core told the table before it asked
        self.acting: Briefing | None = None  # the latest briefing: who acts, and at whom

    def _next(self, question: dict[str, Any]) -> str:
        if self.used >= len(self.answers):
            raise NeedsAnswer({**question, "briefing": list(self.briefing),
                               "briefed": list(self.briefed), **acting_fields(self.acting)})
        answer = self.answers[self.used]
        self.used += 1
        self.briefing = []
        return answer

    def _refuse(self, answer: str, why: str) -> BadAnswer:
        return BadAnswer(f"answer {self.used} {answer!r}: {why}")

    def number(self, prompt: str, allowed: Sequence[int], what: str | None = None) -> int:
        span = f"{min(allowed)}-{max(allowed)}"
        answer = self._next({"kind": "number", "prompt": f"{prompt} [{span}]",
                             "options": [str(v) for v in allowed]})
        value = plain_number(answer)
        if value is None or value not in allowed:
            raise self._refuse(answer, f"not a face of this die ({span}; plain digits)"
                               if what is None else f"not {what} ({span}; plain digits)")
        return value

    def order(self, prompt: str, items: Sequence[str]) -> list[str]:
        left, drawn = list(items), list[str]()
        while len(left) > 1:
            drawn.append(self._choose("order", f"{prompt}: draw {len(drawn) + 1} of "
                                               f"{len(items)}", left))
            left.remove(drawn[-1])
        return drawn + left

    def choice(self, prompt: str, options: Sequence[str]) -> str:
        return self._choose("choice", prompt, options)

    def _choose(self, kind: str, prompt: str, options: Sequence[str]) -> str:
        answer = self._next({"kind": kind, "prompt": prompt, "options": list(options)})
        chosen = resolve(answer, options)
        if chosen is None:
            raise self._refuse(answer, f"not one of: {', '.join(options)}")
        return chosen

    def token(self, prompt: str, faces: Sequence[str], elsewhere: Mapping[str, str]) -> str:
        answer = self._next({"kind": "token", "prompt": prompt, "options": list(faces),
                             "elsewhere": dict(elsewhere)})
        face = answer.strip().upper()
        if face in faces:
            return face
        if face in elsewhere:
            raise self._refuse(answer, f"no {face} is in the bag now (every {face} is "
                                       f"{elsewhere[face]}; the bag holds {', '.join(faces)})")
        raise self._refuse(answer, f"not a token face in this bag ({', '.join(faces)})")

    def yes_no(self, prompt: str) -> bool:
        answer = self._next({"kind": "yes_no", "prompt": prompt, "options": ["yes", "no"]})
        if answer.strip().lower() not in ("y", "yes", "n", "no"):
            raise self._refuse(answer, "answer yes or no")
        return answer.strip().lower().startswith("y")

    def announce(self, notice: Notice) -> None:
        from automa.render.session_out import notice_lines

        lines = [line.strip() for line in notice_lines(notice)]
        self.announced += lines
        self.briefing += lines
        self.briefed += lines

    def instruct(self, briefing: Briefing) -> None:
        from automa.render.text import briefing_lines

        lines = briefing_lines(briefing, wrap=False)  # a line a step: the page wraps them
        self.briefing += lines
        self.briefed += lines
        self.acting = briefing


def acting_fields(briefing: Briefing | None) -> dict[str, str | None]:
    """Who the question's activation is of and at whom, as the engine holds them (ids and the
    printout's names), so the page can show and draw that piece before any draw: `actor` and
    `target` are None when no activation is under way, `target` also before the target is
    chosen (a sight question) or when there is none."""
    if briefing is None or not briefing.actor_id:
        return {"actor": None, "actor_name": None, "target": None, "target_name": None,
                "target_reason": None}
    target = briefing.target
    return {"actor": briefing.actor_id, "actor_name": briefing.actor, "target": target,
            "target_name": None if target is None else briefing.names.get(target, target),
            "target_reason": briefing.target_reason if target is not None else None}
