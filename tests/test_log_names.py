"""`automa log` (and play's `log`, `undo`, `redo`) names every kind of input in words: the
Hidden Cave's Kraken fight with its strength, tokens, outcome and reward, an Antient summoned,
the end of the heroes' turn; no input prints as its bare type."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from automa.cli.main import cli
from automa.render.session_out import describe_command
from automa.session.commands import READERS, command_from_json
from tests.conftest import new_session, play_lines
from tests.test_hero_hits import DUEL


def _cave(**fields: Any) -> dict[str, Any]:
    return {"type": "cave", "piece": "elf", "shots": 1, "bag": 1, "strength": 7,
            "tokens": ["2", "0", "1R"], "tie": "kraken", "item": "Trident", "antient": None,
            "portal": False, **fields}


def test_a_kraken_win_names_strength_tokens_total_and_reward() -> None:
    # rule: "If the Kraken wins, then the hero ... may discard one Poison card (if they have
    # one) and take one of the four items (randomly determined)."
    assert describe_event(_cave()) == (
        "elf fought the Kraken: strength 7, tokens 2, 0, 1R = 3: the Kraken wins; a Poison "
        "card discarded (if any), item Trident")


def test_a_hero_win_names_the_platinum_health_item_and_antient() -> None:
    # rule: "If the hero wins ... 1 platinum coin from the Treasury, 2 health points, 1 of the
    # items of their choice, and 1 unused Antient piece of their choice."
    text = describe_event(_cave(strength=2, tokens=["2", "1R"], antient="urthoth"))
    assert text == ("elf fought the Kraken: strength 2, tokens 2, 1R = 3: the hero wins; "
                    "1 platinum, 2 health, item Trident, Antient urthoth")


@pytest.mark.parametrize(("tie", "winner"), [("kraken", "the Kraken wins"),
                                             ("hero", "the hero wins")])
def test_a_tie_says_who_it_goes_to(tie: str, winner: str) -> None:
    antient = "urthoth" if tie == "hero" else None
    text = describe_event(_cave(strength=3, tie=tie, antient=antient))
    assert f"= 3, a tie ({tie} wins): {winner};" in text


def test_a_portal_trap_visit_says_so_and_no_tokens_read_none() -> None:
    text = describe_event(_cave(portal=True, tokens=[], shots=0))
    assert text.startswith("elf fought the Kraken (sent by the Portal Trap): strength 7, "
                           "tokens none = 0: the Kraken wins")


def test_a_summon_names_the_antient() -> None:
    assert describe_event({"type": "summon", "piece": "elf", "antient": "urthoth"}) == \
        "elf summoned Antient urthoth (instead of the base shot sequence)"


def test_an_edited_name_cannot_send_escape_codes() -> None:
    text = describe_event({"type": "summon", "piece": "elf", "antient": "\x1b[2Jx"})
    assert "\x1b" not in text and "?[2Jx" in text


EXAMPLES: dict[str, dict[str, Any]] = {
    "activation": {"outcomes": [{"kind": "d12", "value": "4", "source": "rng"}]},
    "back": {"piece": "elf"},
    "end-heroes-turn": {},
    "move": {"piece": "elf", "to": [1.0, 2.0]},
    "remove": {"piece": "rat-1", "why": "dead"},
    "condition": {"piece": "elf", "condition": "stunned", "on": True},
    "hit": {"targets": ["rat-1"], "shot": "melee", "by": "elf"},
    "used": {"piece": "elf", "card": "elven-arrow", "per": "room"},
    "cave": _cave(),
    "summon": {"piece": "elf", "antient": "urthoth"},
    "checkpoint": {"why": "data", "state": {}},
    "damage": {"piece": "elf", "amount": 2},
    "heal": {"piece": "elf", "amount": 2},
    "gold": {"piece": "elf", "amount": 5},
    "items": {"piece": "elf", "amount": 1},
    "poison": {"piece": "elf", "amount": 1},
    "undo": {},
    "redo": {},
    "rollback": {"to": 3},
}


def describe_event(event: dict[str, Any]) -> str:
    """A log line as `automa log` names it."""
    return describe_command(command_from_json(event))


@pytest.mark.parametrize("kind", sorted(READERS))
def test_no_input_prints_as_its_bare_type(kind: str) -> None:
    """Every type a log may hold (session/commands.py) has words of its own; a new type added
    there without them fails here."""
    text = describe_event({"type": kind, **EXAMPLES[kind]})
    assert text != kind and " " in text


def test_automa_log_names_the_end_of_the_heroes_turn(tmp_path: Path) -> None:
    folder = new_session(tmp_path, DUEL)
    play_lines(folder, ["done", "quit"])
    listed = CliRunner().invoke(cli, ["log", "--session", str(folder)]).stdout.splitlines()
    assert listed[0] == "   1  end of the heroes' turn"
