"""Geometric answers: computed on the model, or asked of the players holding the real rulers
and templates. Every answer is recorded, so a battle replays the same whatever computes it.

Modes: `tracked` computes every answer; `asked` asks every one (no coordinates needed);
`hybrid` computes and asks only when the margin is below the close-call tolerance.

Instruct, then ask: before the players are asked anything, they are shown the activation's
steps not yet shown (a `Briefing`: lay the ruler, slide it ...), so every question comes after
the instruction that sets up what it asks about. Each question is handed the activation under
way (`Briefs`: engine/battle.py's StepLog), or None where nothing has happened yet; the judge
keeps no pointer to it. The printout after the activation then only points back at the steps
shown (render/text.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any, Protocol

from msgspec import Struct, field

from automa.engine.steps import Step
from automa.errors import RulesError


class GeometryMode(StrEnum):
    """Where geometric answers come from: computed on the model (tracked), asked of the players
    holding the real rulers and templates (asked), or computed and asked on close calls only
    (hybrid)."""

    TRACKED = "tracked"
    ASKED = "asked"
    HYBRID = "hybrid"


GEOMETRY_MODES = tuple(GeometryMode)
# the modes the Judge compares with at every question, read once (model/vocabulary.py)
ASKED, TRACKED = GeometryMode.ASKED, GeometryMode.TRACKED
AGREEMENT_CM = 1e-6  # a decision this close to flipping agrees with either answer


class Disagreement(Struct, frozen=True):
    """A logged answer this machine computes otherwise (the logged one was used)."""

    question: str
    logged: bool | str
    computed: bool | str


class Briefing(Struct, frozen=True):
    """What the table must do before it can answer: the activation's steps so far, of which the
    first `shown` were shown already (`opened`: the acting piece was announced)."""

    actor: str  # the acting piece's name
    order: str  # why it acts now
    steps: tuple[Step, ...]
    shown: int
    opened: bool
    names: Mapping[str, str]
    coordinates: bool  # positions are tracked (tracked, hybrid), so the printout may give them
    actor_id: str = ""  # the acting piece's id
    target: str | None = None  # its Active Target once chosen (None: not yet, or none)
    target_reason: str = ""  # why that target


class Briefs(Protocol):
    """The activation under way: what the table has not been shown yet (each briefing marks
    its steps shown), and how many moves it has made so far (a piece slid, pushed, placed)."""

    def briefing(self) -> Briefing: ...

    @property
    def moves(self) -> int: ...


class YesNoAsker(Protocol):
    def yes_no(self, prompt: str) -> bool: ...

    def choice(self, prompt: str, options: Sequence[str]) -> str: ...

    def instruct(self, briefing: Briefing) -> None: ...


def instruct(asker: object, briefs: Briefs | None) -> None:
    """Show the players the steps of the activation under way they have not seen yet, before
    they are asked (a question or a die). An asker written before briefings existed (a test's,
    say) is simply not shown them."""
    show = getattr(asker, "instruct", None)
    if show is not None and briefs is not None:
        show(briefs.briefing())


REUSED = "reused"  # an answer's source: the table's own earlier answer, nothing moved since


class Judge(Struct):
    """Where geometric answers come from in a turn (see the module's text), and each one given.

    A question the players answered already in this AI turn, with nothing moved since (no
    piece slid, pushed or placed), is not put to them again: their answer stands, recorded
    with the source `reused`, so the log says so and a replay reads it like any other. A choice
    is reused only among the options it was made from (or fewer, its answer still one)."""

    mode: GeometryMode = GeometryMode.TRACKED
    tolerance: float = 0.5
    asker: YesNoAsker | None = None
    script: Sequence[dict[str, Any]] = ()
    record: list[dict[str, Any]] = field(default_factory=list)
    # a replay's logged answers that were computed, and that this machine computes otherwise
    disagreements: list[Disagreement] = field(default_factory=list)
    # the table's answers that hold: question -> (answer, the activation's moves when given,
    # a choice's options); a session starts it with the yes/no answers of the AI turn so far
    # that nothing has moved since
    answered: dict[str, tuple[bool | str, int, tuple[str, ...]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """A replay judges in the mode its answers were given in (they say so unless tracked):
        asked geometry takes other paths (only the questions the decision needs)."""
        modes = {a.get("mode", GeometryMode.TRACKED) for a in self.script if isinstance(a, dict)}
        if len(modes) == 1 and (recorded := modes.pop()) in GEOMETRY_MODES:
            self.mode = GeometryMode(recorded)

    @property
    def asked(self) -> bool:
        """Asked geometry: no positions are tracked, so nothing may be measured on them."""
        return self.mode == ASKED

    @property
    def may_ask(self) -> bool:
        """Whether any question can go to the players at all (else no margin matters)."""
        return self.asker is not None and self.mode != TRACKED

    def would_ask(self, margin: float) -> bool:
        """Whether a question with this margin goes to the players (nothing is recorded)."""
        return self._ask_table(margin)

    def _ask_table(self, margin: float) -> bool:
        if self.asker is None or self.mode == TRACKED:
            return False
        return self.mode == ASKED or margin < self.tolerance

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
        return bool(self.record) and self.record[-1]["source"] in ("table", REUSED)

    def _earlier(self, question: str, options: Sequence[str] | None, briefs: Briefs | None
                 ) -> bool | str | None:
        """The table's answer to the same question earlier (a yes/no when `options` is None,
        else one of `options`), if nothing has moved since: then it cannot have changed."""
        given = self.answered.get(question)
        if given is None or briefs is None or briefs.moves != given[1]:
            return None
        answer, _, offered = given
        if options is None:
            return answer if isinstance(answer, bool) else None
        # the piece chosen among these, still offered, and no other piece offered now
        chosen = isinstance(answer, str) and answer in options and set(options) <= set(offered)
        return answer if chosen else None

    def _ask(self, question: str, options: Sequence[str] | None, briefs: Briefs | None,
             put: Callable[[], bool | str]) -> tuple[bool | str, str]:
        """The players' answer, or their earlier one to the same question (`_earlier`)."""
        earlier = self._earlier(question, options, briefs)
        if earlier is not None:
            return earlier, REUSED
        assert self.asker is not None
        instruct(self.asker, briefs)
        answer = put()
        if briefs is not None:
            self.answered[question] = (answer, briefs.moves, tuple(options or ()))
        return answer, "table"

    def confirm(self, question: str, computed: bool, margin: float,
                briefs: Briefs | None) -> bool:
        """A yes/no geometric question; `briefs`: the activation under way, whose steps the
        players are shown first if they are asked."""
        answer: bool | str
        scripted, given_by = self._scripted(question)
        if isinstance(scripted, bool):
            answer, source = scripted, given_by
            self._compare(question, scripted, given_by, computed, margin)
        elif self._ask_table(margin):
            asker = self.asker
            assert asker is not None
            answer, source = self._ask(question, None, briefs, lambda: asker.yes_no(question))
        else:
            answer, source = computed, "computed"
        self._note(question, answer, source)
        return bool(answer)

    def _compare(self, question: str, logged: bool | str, given_by: str,
                 computed: bool | str, margin: float) -> None:
        """The logged answer stands; one that was computed (not the players') and that this
        machine computes otherwise, by more than the tolerance, is noted."""
        if given_by != "computed" or self.mode == ASKED or logged == computed:
            return
        if abs(margin) > AGREEMENT_CM:
            self.disagreements.append(Disagreement(question, logged, computed))

    def _note(self, question: str, answer: Any, source: str) -> None:
        entry = {"q": question, "a": answer, "source": source}
        self.record.append(entry if self.mode == TRACKED else {**entry, "mode": self.mode})

    def pick(self, question: str, options: Sequence[str], computed: str, margin: float,
             briefs: Briefs | None) -> str:
        """Which of several pieces (the closest, the first along a tile ...); `briefs` as for
        `confirm`."""
        answer: bool | str
        scripted, given_by = self._scripted(question)
        if isinstance(scripted, str) and scripted in options:
            answer, source = scripted, given_by
            self._compare(question, scripted, given_by, computed, margin)
        elif self._ask_table(margin):
            asker = self.asker
            assert asker is not None
            answer, source = self._ask(question, options, briefs,
                                       lambda: asker.choice(question, options))
        else:
            answer, source = computed, "computed"
        self._note(question, answer, source)
        return str(answer)
