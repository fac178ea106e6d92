"""Asked geometry asks a question once while its answer cannot change (issue 28, point 11): the
same question again in the activation, with no piece slid, pushed or placed since, takes the
table's earlier answer. The reuse is recorded (source `reused`), so the log says so and a
replay reads the same answers without asking anybody."""

from __future__ import annotations

from collections.abc import Sequence

from automa.engine.battle import StepLog
from automa.engine.judge import GeometryMode, Judge
from automa.engine.steps import MoveStep
from automa.session.commands import GeometryAnswer, Source

RUNE = "Is rune 3 free (no piece on its icon, and Sewer Rat #1 not already on it)?"
CLOSEST = "Which enemy is closest to Centaur #1, edge to edge?"


class Players:
    """Answers from a list; counts the questions put to them."""

    def __init__(self, answers: Sequence[bool | str]) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []

    def yes_no(self, prompt: str) -> bool:
        self.asked.append(prompt)
        return bool(self.answers.pop(0))

    def choice(self, prompt: str, options: Sequence[str]) -> str:
        self.asked.append(prompt)
        return str(self.answers.pop(0))


def slide(log: StepLog) -> None:
    log.add(MoveStep("rat-1", (1.0, 1.0), (2.0, 2.0), "rush", "Ruler 3"))


def test_the_same_question_with_nothing_moved_is_not_asked_again() -> None:
    players, log = Players([False]), StepLog()
    judge = Judge(GeometryMode.ASKED, asker=players)
    assert judge.confirm(RUNE, True, 0.0, log) is False
    assert judge.confirm(RUNE, True, 0.0, log) is False  # the rune is still taken
    assert players.asked == [RUNE]
    assert [r["source"] for r in judge.record] == ["table", "reused"]
    assert judge.last_asked  # the players' answer: no measurement backs it


def test_a_move_since_puts_the_question_again() -> None:
    players, log = Players([False, True]), StepLog()
    judge = Judge(GeometryMode.ASKED, asker=players)
    judge.confirm(RUNE, True, 0.0, log)
    slide(log)
    assert judge.confirm(RUNE, True, 0.0, log) is True
    assert players.asked == [RUNE, RUNE]
    assert [r["source"] for r in judge.record] == ["table", "table"]


def test_a_choice_is_reused_only_among_the_same_options() -> None:
    players, log = Players(["elf", "wizard"]), StepLog()
    judge = Judge(GeometryMode.ASKED, asker=players)
    assert judge.pick(CLOSEST, ["elf", "barbarian"], "elf", 0.0, log) == "elf"
    assert judge.pick(CLOSEST, ["elf", "barbarian"], "elf", 0.0, log) == "elf"
    assert judge.pick(CLOSEST, ["elf", "wizard"], "elf", 0.0, log) == "wizard"
    assert players.asked == [CLOSEST, CLOSEST]


def test_without_the_activation_nothing_is_reused() -> None:
    """A question asked before any activation has begun (no briefs) cannot tell what moved."""
    players = Players([True, True])
    judge = Judge(GeometryMode.ASKED, asker=players)
    judge.confirm(RUNE, True, 0.0, None)
    judge.confirm(RUNE, True, 0.0, None)
    assert len(players.asked) == 2


def test_a_reused_answer_replays_from_the_log_asking_nobody() -> None:
    players, log = Players([False]), StepLog()
    judge = Judge(GeometryMode.ASKED, asker=players)
    first = [judge.confirm(RUNE, True, 0.0, log) for _ in range(2)]
    logged = [GeometryAnswer.from_record(r) for r in judge.record]
    assert [a.source for a in logged] == [Source.TABLE, Source.REUSED]
    replayed = Judge(GeometryMode.TRACKED, script=[a.to_json() for a in logged])
    assert replayed.mode == GeometryMode.ASKED  # the answers say how they were given
    assert [replayed.confirm(RUNE, True, 0.0, StepLog()) for _ in range(2)] == first
    assert replayed.record == judge.record
