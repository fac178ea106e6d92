"""Asked geometry asks a question once while its answer cannot change (issue 28, point 11): the
same question again in the AI turn, with no piece slid, pushed or placed since (and no other
input), takes the table's earlier answer. The reuse is recorded (source `reused`), so the log
says so and a replay reads the same answers without asking anybody."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.engine.battle import StepLog
from automa.engine.judge import GeometryMode, Judge
from automa.engine.steps import MoveStep
from automa.session.apply import answers_that_hold
from automa.session.commands import (
    EndHeroesTurn,
    GeometryAnswer,
    Move,
    NextActivation,
    Source,
)
from automa.session.store import Session
from tests.conftest import EXAMPLES

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


def test_a_choice_is_reused_only_among_the_options_it_was_made_from() -> None:
    """Closest of the Elf and the Barbarian: still the Elf (nothing moved); but a Wizard now
    offered too may be closer: asked."""
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


def test_an_earlier_activations_answers_hold_until_something_moves(tmp_path: Path,
                                                                   catalog: Catalog) -> None:
    """In the AI turn, the yes/no answers of the activations just before this one hold back
    to the last that moved a piece, or any other input: here the Flame Wraith's activation
    rushed (a move), so nothing holds; had it moved nothing, its answers would; a reported
    move since, or the heroes' turn, ends that."""
    session = Session.create(tmp_path / "asked", EXAMPLES / "demo-battle.toml", catalog, 3,
                             "virtual", "asked")
    session.do(EndHeroesTurn())
    assert session.next_activation(Players([True] * 10)) is not None
    state, done = session.state, session.effective()[0]
    assert answers_that_hold(state, done) == {}  # its rush moved the wraith
    played_in, activation = state.activations[-1]
    still = replace(activation, steps=tuple(s for s in activation.steps
                                            if not isinstance(s, MoveStep)))
    quiet = replace(state, activations=(*state.activations[:-1], (played_in, still)))
    logged = done[-1]
    assert isinstance(logged, NextActivation)
    asked = {a.question: a.answer for a in logged.answers if isinstance(a.answer, bool)}
    assert asked and answers_that_hold(quiet, done) == asked
    assert answers_that_hold(quiet, [*done, Move("wizard", (50.0, 20.0))]) == {}
    assert answers_that_hold(replace(quiet, progress=None), done) == {}


def test_an_answer_held_from_earlier_in_the_turn_is_not_asked() -> None:
    players, log = Players([]), StepLog()
    judge = Judge(GeometryMode.ASKED, asker=players, answered={RUNE: (True, 0, ())})
    assert judge.confirm(RUNE, False, 0.0, log) is True
    assert players.asked == [] and judge.record[-1]["source"] == "reused"
    slide(log)
    players.answers.append(False)
    assert judge.confirm(RUNE, True, 0.0, log) is False and players.asked == [RUNE]
