"""Shot-sequence notation: what the data files and scenarios write, and what they may not."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from automa.model.shots import MODIFIERS, SHOT_NAMES, parse_sequence, parse_shot


def test_sequence_of_shots_joined_by_then() -> None:
    sequence = parse_sequence("rush then melee+critical")
    assert [s.name for s in sequence.shots] == ["rush", "melee"]
    assert sequence.shots[1].has_modifier("critical")
    assert sequence.notation() == "rush then melee+critical"


def test_elastic_connector_is_read_as_then() -> None:
    """Rulebook: the AI ignores the Elastic connector and treats it as Then."""
    assert parse_sequence("melee elastic missile") == parse_sequence("melee then missile")


def test_summon_carries_the_monster_and_poison_its_card_count() -> None:
    assert parse_shot("summon skeleton-warrior").argument == "skeleton-warrior"
    assert parse_shot("melee+poison(2)").modifiers[0].count == 2


@pytest.mark.parametrize("text", ["meelee", "melee+posion", "summon", "rush then", "", "melee+"])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_sequence(text)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(sorted(SHOT_NAMES - {"summon"})),
            st.lists(st.sampled_from(sorted(MODIFIERS)), max_size=2, unique=True),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_notation_round_trips(shots: list[tuple[str, list[str]]]) -> None:
    text = " then ".join("+".join([name, *mods]) for name, mods in shots)
    assert parse_sequence(parse_sequence(text).notation()) == parse_sequence(text)
