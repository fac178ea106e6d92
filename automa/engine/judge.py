"""Geometric answers: computed on the model, or asked of the players holding the real rulers
and templates. Every answer is recorded, so a battle replays the same whatever computes it.

Modes: `tracked` computes every answer; `asked` asks every one (no coordinates needed);
`hybrid` computes and asks only when the margin is below the close-call tolerance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from automa.errors import RulesError

GEOMETRY_MODES = ("tracked", "asked", "hybrid")


class YesNoAsker(Protocol):
    def yes_no(self, prompt: str) -> bool: ...

    def choice(self, prompt: str, options: Sequence[str]) -> str: ...


@dataclass
class Judge:
    mode: str = "tracked"
    tolerance: float = 0.5
    asker: YesNoAsker | None = None
    script: Sequence[dict[str, Any]] = ()
    record: list[dict[str, Any]] = field(default_factory=list)

    def _ask_table(self, margin: float) -> bool:
        if self.asker is None or self.mode == "tracked":
            return False
        return self.mode == "asked" or margin < self.tolerance

    def _scripted(self, question: str) -> tuple[Any, str]:
        """A recorded answer and who gave it (kept, so a replay prints what the game did)."""
        index = len(self.record)
        if index < len(self.script):
            answer = self.script[index]
            if answer.get("q") != question:
                raise RulesError(f"the recorded answer {index + 1} was to {answer.get('q')!r}, "
                                 f"not {question!r}: the log and the battle disagree")
            return answer.get("a"), str(answer.get("source", "computed"))
        return None, ""

    @property
    def last_asked(self) -> bool:
        """Whether the last answer came from the players (then no measurement backs it)."""
        return bool(self.record) and self.record[-1]["source"] == "table"

    def confirm(self, question: str, computed: bool, margin: float) -> bool:
        """A yes/no geometric question."""
        scripted, given_by = self._scripted(question)
        if isinstance(scripted, bool):
            answer, source = scripted, given_by
        elif self._ask_table(margin):
            assert self.asker is not None
            answer, source = self.asker.yes_no(question), "table"
        else:
            answer, source = computed, "computed"
        self.record.append({"q": question, "a": answer, "source": source})
        return answer

    def pick(self, question: str, options: Sequence[str], computed: str, margin: float) -> str:
        """Which of several pieces (the closest, the first along a tile ...)."""
        scripted, given_by = self._scripted(question)
        if isinstance(scripted, str) and scripted in options:
            answer, source = scripted, given_by
        elif self._ask_table(margin):
            assert self.asker is not None
            answer, source = self.asker.choice(question, options), "table"
        else:
            answer, source = computed, "computed"
        self.record.append({"q": question, "a": answer, "source": source})
        return answer
