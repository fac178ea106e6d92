"""Every typo in a card answer is said at once (issue 28 §13): an answer of several parts (the
Room card's icons, a Lord's minions, the Tavern bag, --lord-card and `automa data card`'s
options) is checked whole, and every part that is wrong is named in the one refusal, so the
players fix them all in one go, not one per try."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from automa.campaign.answers import parse_bag
from automa.campaign.cards import parse_icons
from automa.catalog.cards import every_part, parse_answer
from automa.catalog.load import Catalog
from automa.cli.campaign_ask import lord_card
from automa.cli.main import cli
from automa.errors import InputError


def test_every_part_names_every_problem() -> None:
    assert every_part(["1", "2"], int) == [1, 2]
    with pytest.raises(ValueError) as refused:
        every_part(["1", "x", "2", "y"], int)
    assert str(refused.value).count("invalid literal") == 2


def test_the_room_cards_icons_say_every_typo_at_once(catalog: Catalog) -> None:
    with pytest.raises(ValueError) as refused:
        parse_icons("orcc=2, centuar=1, troll=x, metre-9=1, centaur=1", catalog)
    assert str(refused.value) == (
        "'orcc' is not a monster kind in the data (did you mean 'orc'?); 'centuar' is not a "
        "monster kind in the data (did you mean 'centaur'?); 'troll=x': the count is a whole "
        "number from 1 to 10; 'metre-9=1': a Monster Metre icon is metre-1 to metre-4")
    icons = parse_icons("orc=2, centaur=1, metre-2=1, mercenary=1", catalog)
    assert icons.monsters == (("orc", 2), ("centaur", 1))
    assert icons.metres == ((2, 1),) and icons.mercenaries == 1


def test_a_lords_minions_say_every_typo_at_once(catalog: Catalog) -> None:
    with pytest.raises(ValueError) as refused:
        parse_answer("minions", "zombi x4, orc|centuar x2, troll", catalog)
    problems = str(refused.value).split("; ")
    assert len(problems) == 3, problems
    assert "zombi" in problems[0] and "centuar" in problems[1] and "ID xCOUNT" in problems[2]


def test_the_tavern_bag_says_every_typo_at_once() -> None:
    with pytest.raises(ValueError) as refused:
        parse_bag("ork=2, centaur=x, fire-spirit=1", ("orc", "centaur", "fire-spirit"))
    assert str(refused.value).count("write KIND=N") == 2
    assert parse_bag("orc=2, centaur=0", ("orc", "centaur")) == {"orc": 2, "centaur": 0}


def test_lord_card_options_say_every_wrong_field_at_once() -> None:
    with pytest.raises(InputError) as refused:
        lord_card(("helth=30", "size=large", "minons=zombie x4"))
    assert "not 'helth=30', 'minons=zombie x4'" in str(refused.value)


def test_data_card_options_say_every_typo_at_once(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["data", "card", "husk-zombie", "--data-dir",
                                      str(tmp_path), "--level", "7", "--health", "x",
                                      "--gold", "1", "--nullifies", "none", "--reflects",
                                      "none", "--sequence", "rush then melee"])
    assert result.exit_code == 2
    assert "--level:" in result.stderr and "--health:" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
