"""The Red Box pieces and the Antients in data/, and what a battle does with a field we lack.

Rules checked: every AI piece the rulebook's components list names has a record with the size
class of its sticker chart and provenance `rulebook`; the Wraith Commander is of the Wraith
Knight family and carries the sword shot the rulebook names; the Husk and Drowned Zombies are the
Zombie family; the Antients our sources name are records of kind antient. A field written
"unknown" is never a silent default: a scenario or a setup that needs it stops with one line
naming the field and the card-entry command, unless the scenario gives the field itself.
"""

from __future__ import annotations

import pytest

from automa.catalog.fields import missing_for_battle, needed
from automa.catalog.load import Catalog
from automa.engine.chance import Chance
from automa.engine.setup import SetupOptions, run_setup
from automa.engine.turn import run_turn
from automa.errors import RulesError, ScenarioError
from automa.model.scenario import ChanceScript
from tests.conftest import scenario_from

# the sticker chart: piece -> size class (the AI pieces only)
STICKER_CHART = {
    "grave-golem": "small", "mummy": "small", "dwarven-warrior": "small",
    "stone-sentinel": "small", "mystic": "flat", "eris": "flat", "bandit": "flat",
    "king-cobra": "flat", "sphinx": "large", "siege-defender": "large",
    "wraith-commander": "large", "husk-zombie": "large", "drowned-zombie": "large",
    "ice-elemental": "large", "crypt-mummy": "large", "apep": "extra-large",
}
RED_BOX_LORDS = {"pharaoh": "extra-large", "monstrosity": "extra-large"}
ANTIENTS = ("urthoth", "stone-antient", "flame-antient")

HEROES = """
format = 1
[battle]
playmat = "inline"
[[piece]]
id = "elf"
side = "heroes"
at = [30.0, 30.0]
health = 6
"""


def ai_piece(monster: str, extra: str = "", kind: str = "") -> str:
    kind_line = f'kind = "{kind}"\n' if kind else ""
    return (f'[[piece]]\nid = "x"\nside = "ai"\n{kind_line}monster = "{monster}"\n'
            f"at = [30.0, 50.0]\n{extra}")


def test_every_red_box_ai_piece_has_a_rulebook_record(catalog: Catalog) -> None:
    for piece_id, size in STICKER_CHART.items():
        spec = catalog.monsters[piece_id]
        assert (spec.size, spec.provenance, spec.kind) == (size, "rulebook", "monster"), piece_id
    for lord_id, size in RED_BOX_LORDS.items():
        lord = catalog.lords[lord_id]
        assert (lord.size, lord.provenance) == (size, "rulebook")
        assert {"health", "sequences", "minions", "mercenary"} <= lord.unknown


def test_families_by_colour(catalog: Catalog) -> None:
    assert catalog.monsters["wraith-commander"].family == "wraith-knight"
    assert catalog.monsters["wraith-commander"].named_shots == ("sword",)
    assert catalog.monsters["husk-zombie"].family == "zombie"
    assert catalog.monsters["drowned-zombie"].family == "zombie"
    assert "wraith-knight" in catalog.behaviour["black"].families
    assert "zombie" in catalog.behaviour["purple"].families
    # nothing else is given a family the rulebook does not name
    guessed = [m for m, spec in catalog.monsters.items()
               if spec.provenance == "rulebook" and spec.family is not None]
    assert sorted(guessed) == ["drowned-zombie", "husk-zombie", "wraith-commander"]


def test_unknown_values_are_unknown_not_empty(catalog: Catalog) -> None:
    ice = catalog.monsters["ice-elemental"]
    assert needed(ice) == ("family", "level", "health", "sequences")
    assert needed(ice, every=True) == ("family", "level", "health", "gold", "nullifies",
                                      "reflects", "sequences")
    assert catalog.monsters["mummy"].level == 1 and "level" not in catalog.monsters["mummy"].unknown
    assert needed(catalog.monsters["orc"], every=True) == ()  # a fan record: [] means none


def test_antients_are_records(catalog: Catalog) -> None:
    for antient in ANTIENTS:
        spec = catalog.monsters[antient]
        assert (spec.kind, spec.provenance, spec.health, spec.family) == ("antient", "official",
                                                                         None, None)
        assert missing_for_battle(spec) == ("sequences",)


@pytest.mark.parametrize(("monster", "extra", "field"), [
    ("husk-zombie", "", "level"),
    ("husk-zombie", "level = 1\n", "health"),
    ("husk-zombie", "level = 1\nhealth = 2\n", "sequences"),
    ("ice-elemental", "level = 2\nhealth = 2\nsequences = [\"melee\"]\n", "family"),
])
def test_an_unknown_field_stops_the_scenario_in_one_line(catalog: Catalog, monster: str,
                                                         extra: str, field: str) -> None:
    with pytest.raises(ScenarioError) as error:
        scenario_from(HEROES + ai_piece(monster, extra), catalog)
    message = str(error.value)
    assert f"[piece x] {field}: not known for" in message
    assert f"automa data card {monster}" in message and "\n" not in message


def test_the_scenario_override_fills_the_gap(catalog: Catalog) -> None:
    scenario = scenario_from(HEROES + ai_piece(
        "husk-zombie", 'level = 1\nhealth = 2\nsequences = ["rush then melee"]\n'), catalog)
    husk = scenario.pieces[1]
    assert (husk.family, husk.level, husk.health, husk.radius) == (
        "zombie", 1, 2, catalog.components.disc_radius["large"])
    result = run_turn(scenario, catalog, 1)
    assert result.activations[0].row == "purple"


def test_an_antient_from_the_data(catalog: Catalog) -> None:
    with pytest.raises(ScenarioError, match="sequences: not known for Urthoth"):
        scenario_from(HEROES + ai_piece("urthoth", kind="antient"), catalog)
    with pytest.raises(ScenarioError, match=r'kind: .* write kind = "antient"'):
        scenario_from(HEROES + ai_piece("urthoth", 'sequences = ["melee"]\n'), catalog)
    scenario = scenario_from(HEROES + ai_piece("urthoth", 'sequences = ["rush then melee"]\n',
                                               kind="antient"), catalog)
    antient = scenario.pieces[1]
    assert (antient.kind, antient.name, antient.health) == ("antient",
                                                           "Urthoth the Liquid Antient", None)
    # in the heroes' hands it needs no shots yet
    held = HEROES + ai_piece("urthoth", kind="antient").replace('side = "ai"',
                                                                'side = "heroes"')
    assert scenario_from(held, catalog).pieces[1].side == "heroes"


def test_a_lord_with_unknown_fields(catalog: Catalog) -> None:
    with pytest.raises(ScenarioError, match="health: not known for Pharaoh"):
        scenario_from(HEROES + ai_piece("pharaoh", kind="catacomb-lord"), catalog)


def test_setup_stops_on_a_red_box_lord_in_one_line(catalog: Catalog) -> None:
    import numpy as np

    chance = Chance(ChanceScript(), np.random.default_rng(1), catalog.components.rune_die,
                    catalog.components.location_die)
    options = SetupOptions(room="lair", lord="monstrosity", heroes=(("elf", 8),))
    with pytest.raises(RulesError, match=r"^Monstrosity: minions not in our data; enter the card "
                                         r"once with `automa data card monstrosity`$"):
        run_setup(catalog, options, chance)


def test_summoning_a_piece_we_lack_stops_in_one_line(catalog: Catalog) -> None:
    scenario = scenario_from(HEROES + ai_piece(
        "husk-zombie", 'level = 1\nhealth = 2\nsequences = ["summon mummy then melee"]\n'),
        catalog)
    with pytest.raises(RulesError, match=r"^summon mummy: family, health, sequences not in our "
                                         r"data; enter the card once with `automa data card "
                                         r"mummy`$"):
        run_turn(scenario, catalog, 1)
