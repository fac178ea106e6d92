"""Every player input is a typed command whose JSON is its log line (session/commands.py): each
reads back as itself, a line no battle can hold is refused in one line naming what is wrong,
and each command's refusal against the battle says why (session/apply.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from automa import api
from automa.model.pieces import Condition
from automa.session.commands import (
    READERS,
    Adjust,
    BadCommand,
    CaveFight,
    ChanceAnswer,
    Checkpoint,
    Command,
    Counter,
    Damage,
    Damaged,
    EndHeroesTurn,
    EnterCave,
    GeometryAnswer,
    Heal,
    Hit,
    KrakenTie,
    Move,
    NextActivation,
    Redo,
    Remove,
    ReturnToMat,
    Rollback,
    SetCondition,
    Source,
    Summon,
    Undo,
    UseCard,
    UsePeriod,
    command_from_json,
    read_or_damaged,
)
from automa.session.state import Phase
from automa.session.words import Asked, NotNow, Query, UnknownWord, parse_line

DEMO = Path(__file__).resolve().parent.parent / "examples" / "demo-battle.toml"

EVERY_COMMAND: list[Command] = [
    Move("elf", (12.5, 40.0)),
    Move("elf", (12.5, 40.0), "2 cm left of rat-1"),
    Damage("rat-1", 2), Damage("rat-1", 2, by="elf"), Heal("elf", 1),
    Adjust(Counter.GOLD, "elf", 5), Adjust(Counter.ITEMS, "elf", -1),
    Adjust(Counter.POISON, "elf", 1),
    Remove("rat-1"), Remove("rat-1", "killed by elf"),
    SetCondition("elf", Condition.STUNNED, True), ReturnToMat("elf"),
    Hit(("rat-1", "rat-2"), "fireball+poison", "elf", True, 3),
    Hit(("mino",), "portal-trap", None, False, None, (4,)),
    Hit(("mino",), "melee+chain", "elf", False, None, (), ("rat-1",)),
    UseCard("elf", "elven arrow", UsePeriod.ROOM),
    EnterCave("elf", 2, False, CaveFight(1, 7, ("2", "0"), KrakenTie.KRAKEN, "Trident", None)),
    EnterCave("elf", 0, True, CaveFight(1, 2, ("2",), KrakenTie.HERO, "Trident", "urthoth")),
    EnterCave("elf", 0, True, CaveFight(1, 2, ("2",), KrakenTie.HERO, None, "urthoth")),
    Summon("elf", "urthoth"), EndHeroesTurn(),
    NextActivation((ChanceAnswer("d12", "4", Source.RNG),
                    ChanceAnswer("token", "2:1R", Source.TABLE)),
                   (GeometryAnswer("Can rat-1 see elf?", True, Source.TABLE, "asked"),),
                   "Sewer Rat #1: melee at Elf", answered=True),
    Undo(), Redo(), Rollback(3),
    NextActivation((), (), "Sewer Rat #1: rush, no target", answered=True,
                   ends=(("rat-1", (12.5, 40.25)),)),
    Checkpoint("data", {"rulings": {"kraken-tie": "kraken"}}, {"round": 2, "phase": "heroes"}),
]


@pytest.mark.parametrize("command", EVERY_COMMAND, ids=lambda c: c.TYPE)
def test_every_command_reads_back_from_its_log_line(command: Command) -> None:
    line = json.dumps(command.to_json())
    assert command_from_json(json.loads(line)) == command


def test_every_log_type_is_a_command() -> None:
    assert sorted(READERS) == sorted({c.TYPE for c in EVERY_COMMAND})


@pytest.mark.parametrize(("line", "words"), [
    ({"type": "move", "piece": "elf", "to": [1e300, 3]}, "a move needs a position [x, y]"),
    ({"type": "move", "piece": "elf", "to": [True, 3]}, "a move needs a position [x, y]"),
    ({"type": "damage", "piece": "elf", "amount": 100}, "amount 100 is not a whole number"),
    ({"type": "damage", "piece": "elf", "amount": 2.0}, "amount 2.0 is not a whole number"),
    ({"type": "gold", "piece": 3, "amount": 1}, "piece is not text"),
    ({"type": "condition", "piece": "elf", "condition": "sleepy", "on": True},
     "condition 'sleepy' is not one of frozen"),
    ({"type": "condition", "piece": "elf", "condition": "frozen", "on": "yes"},
     "on is not true or false"),
    ({"type": "hit", "targets": "rat-1", "shot": "melee"}, "targets is not a list of names"),
    ({"type": "hit", "targets": ["rat-1"], "shot": "melee", "portal": [13]},
     "portal [13] is not a list of whole numbers from 1 to 12"),
    ({"type": "hit", "targets": ["rat-1"], "shot": "melee+poison", "poison_card": 0},
     "poison_card 0 is not a whole number from 1 to 9"),
    ({"type": "used", "piece": "elf", "card": "x", "per": "week"},
     "per 'week' is not one of room, game"),
    ({"type": "activation", "outcomes": [{"kind": "d12", "value": "13", "source": "rng"}]},
     "d12 '13' is not a face of the die"),
    ({"type": "activation", "outcomes": [{"kind": "token", "value": "x", "source": "rng"}]},
     "token 'x' is not LEVEL:FACE"),
    ({"type": "activation", "answers": [{"q": "?", "a": 3}]}, "an answer is not {q, a, source}"),
    ({"type": "rollback", "to": -1}, "to -1 is not a whole number"),
    ({"type": "cave", "piece": "elf", "shots": 1, "bag": 1, "strength": 13, "tokens": [],
      "item": "Trident"}, "strength 13 is not a whole number from 1 to 12"),
    ({"type": "teleport", "piece": "elf"}, "unknown input 'teleport'"),
    ({"piece": "elf"}, "it has no type"),
    (["move"], "not an input record"),
])
def test_a_line_no_battle_can_hold_is_one_line(line: Any, words: str) -> None:
    with pytest.raises(BadCommand, match=words.replace("[", r"\[").replace("(", r"\(")
                       .replace("{", r"\{")):
        command_from_json(line)
    damaged = read_or_damaged(line, 7)
    assert isinstance(damaged, Damaged) and damaged.line == 7 and words in damaged.problem


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


@given(st.sampled_from(sorted(READERS)), st.dictionaries(
    st.sampled_from(["piece", "to", "amount", "by", "targets", "shot", "portal", "poison_card",
                     "condition", "on", "card", "per", "shots", "bag", "strength", "tokens",
                     "tie", "item", "antient", "outcomes", "answers", "summary", "to", "why",
                     "words", "trilithon", "last_damaged"]), JSON, max_size=8))
def test_any_line_is_a_command_or_one_reason(kind: str, fields: dict[str, Any]) -> None:
    """Whatever a damaged or hand-edited line holds, reading it gives a command or a BadCommand:
    never another exception, never a half-read record."""
    try:
        command = command_from_json({**fields, "type": kind})
    except BadCommand as bad:
        assert str(bad) and "\n" not in str(bad)
        return
    again = command_from_json(json.loads(json.dumps(command.to_json())))
    if isinstance(command, NextActivation):  # its line always carries its answers
        command = replace(command, answered=True)
    assert again == command


@pytest.mark.parametrize(("command", "reason"), [
    (Move("goblin", (10.0, 10.0)), "no piece 'goblin' in play"),
    (Move("elf", (-5.0, 10.0)), "puts elf off the mat"),
    (Move("elf", words="rune 99"), "there is no rune 99 on this mat"),
    (Damage("elf", 0), "expected a whole number above 0, got 0"),
    (Damage("rat-1", 1, by="rat-2"), "usage: damage ID N [by HERO] (heroes: barbarian, elf,"),
    (Heal("rat-1", 1), None),
    (Adjust(Counter.GOLD, "elf", -99), "elf has only 7 gold"),
    (ReturnToMat("elf"), "elf is not on the Teleported! or Devoured! card"),
    (Hit(("rat-1", "rat-1"), "melee"), "a hit names each piece it struck once"),
    (Hit(("elf",), "melee"), "no AI or neutral piece 'elf' in play"),
    (Hit(("rat-1",), "scorched-earth+stun+petrify+frobnicate"), "frobnicate"),
    (UseCard("rat-1", "fireball", UsePeriod.ROOM), "rat-1 is not one of the heroes"),
    (EnterCave("elf", 2), "no Hidden Cave in this game"),
    (Summon("elf", "urthoth"), "elf holds no Antient 'urthoth'"),
    (Undo(), "nothing to undo"), (Redo(), "nothing to redo"),
    (Rollback(2), "rollback: there are 0 inputs; keep 0..0"),
])
def test_each_refusal_is_one_reason_and_changes_nothing(command: Command,
                                                        reason: str | None) -> None:
    game = api.open_scenario(DEMO, seed=1)
    before = game.state
    problem = game.check(command)
    if reason is None:
        assert problem is None
        return
    assert problem is not None and reason in problem and "\n" not in problem
    with pytest.raises(api.InputError):
        game.do(command)
    assert game.state is before and game.effective() == ([], [])


def test_the_ai_turn_takes_only_the_moves_the_table_corrects() -> None:
    game = api.open_scenario(DEMO, seed=1)
    game.do(EndHeroesTurn())
    assert game.check(Damage("elf", 1)) == "'damage' cannot be done in the AI turn"
    assert game.check(EndHeroesTurn()) == "'done' cannot be done in the AI turn"
    assert game.check(Move("elf", (12.0, 40.0))) is None


@pytest.mark.parametrize(("line", "phase", "parsed"), [
    ("move elf 12.5,40", Phase.HEROES, Move("elf", words="12.5,40")),
    ("damage rat-1 2 by elf", Phase.HEROES, Damage("rat-1", 2, "elf")),
    ("gold elf +1p", Phase.HEROES, Adjust(Counter.GOLD, "elf", 5)),
    ("poison elf -1", Phase.HEROES, Adjust(Counter.POISON, "elf", -1)),
    ("hit rat-1, rat-2 fireball+poison by elf trilithon", Phase.HEROES,
     Hit(("rat-1", "rat-2"), "fireball+poison", "elf", True)),
    ("used elf elven arrow room", Phase.HEROES, UseCard("elf", "elven arrow", UsePeriod.ROOM)),
    ("cave elf 3 portal", Phase.AI, EnterCave("elf", 3, True)),
    ("cave", Phase.HEROES, Asked(Query.CAVE)),
    ("stun elf", Phase.HEROES, SetCondition("elf", Condition.STUNNED, True)),
    ("condition elf aloft off", Phase.HEROES, SetCondition("elf", Condition.ALOFT, False)),
    ("dead rat-1", Phase.HEROES, Remove("rat-1", "dead")),
    ("back elf", Phase.HEROES, ReturnToMat("elf")),
    ("los elf", Phase.AI, Asked(Query.LOS, ("elf",))),
    ("done", Phase.HEROES, EndHeroesTurn()),
    ("  ", Phase.HEROES, None),
])
def test_table_words_read_as_commands(line: str, phase: Phase, parsed: object) -> None:
    assert parse_line(line, phase) == parsed


@pytest.mark.parametrize(("line", "phase", "error", "words"), [
    ("hit rat-1 melee", Phase.AI, NotNow, "'hit' cannot be done in the AI turn"),
    ("teleport elf", Phase.HEROES, UnknownWord, "unknown command 'teleport'"),
    ("gold elf +x", Phase.HEROES, api.InputError, "not a whole number in plain digits"),
    ("gold elf +²", Phase.HEROES, api.InputError, "not a whole number in plain digits"),
    ("condition elf sleepy on", Phase.HEROES, api.InputError, "unknown condition 'sleepy'"),
    ("used elf arrow week", Phase.HEROES, api.InputError, "once per room or per game"),
    ('move elf "rune 1', Phase.HEROES, api.InputError, "unbalanced quotes"),
    ("move elf", Phase.HEROES, api.InputError, "usage: move ID POSITION"),
])
def test_table_words_refused_in_one_line(line: str, phase: Phase, error: type[Exception],
                                         words: str) -> None:
    with pytest.raises(error, match=words):
        parse_line(line, phase)
