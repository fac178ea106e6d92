"""Ulom and his claw (Special Heroes: "Damage may be inflicted on either piece."; docs/rulings.md
27): the AI aims at the physical piece that makes Ulom seen or nearer, and the hit counts against
Ulom. Golden playthroughs 76-79 show whole turns; these check the other shots and effects."""

from __future__ import annotations

import json
from pathlib import Path

from automa.catalog.load import Catalog
from automa.engine.battle import Battle
from automa.geometry.table import edge_distance
from automa.model.pieces import Piece
from tests.regenerate_playthroughs import PLAYTHROUGHS, run_scenario
from tests.test_engine import piece, turn

ULOM_CLAW_FAR = piece("ulom", "heroes", (10, 20), health=6, gold=5) \
    + piece("claw", "heroes", (45, 50), part_of="ulom", name="Ulom's claw")


def test_ice_on_the_claw_freezes_ulom(catalog: Catalog) -> None:
    """A ranged shot aimed through the claw: the effect lands on Ulom, the claw has none."""
    text = ULOM_CLAW_FAR + piece("orc", "ai", (45, 60), monster="orc", sequences=["ice"]) \
        + '[chance]\ntokens = { 1 = ["1"] }\n'
    result = turn(catalog, text)
    assert "frozen" in result.battle.piece("ulom").conditions
    assert not result.battle.piece("claw").conditions
    assert result.battle.piece("ulom").health == 6


def test_the_hero_target_tile_measures_ruler_3_to_the_nearer_piece(catalog: Catalog) -> None:
    """The target shot: Ulom's own piece is beyond Ruler 3, his claw is within it."""
    text = ULOM_CLAW_FAR.replace("[[piece]]", "[tiles]\nhero_targets = { ulom = 1 }\n\n[[piece]]",
                                 1) \
        + piece("orc", "ai", (45, 60), monster="orc", sequences=["target"]) \
        + '[chance]\nd12 = [2, 6]\ntokens = { 1 = ["1"] }\n'
    result = turn(catalog, text)
    assert result.battle.piece("ulom").health == 5
    texts = [getattr(s, "text", "") for s in result.activations[0].steps]
    assert "it reaches Ulom's claw (7.5 cm away): in range" in texts


def test_selection_uses_ulom_values_not_the_claw_s(catalog: Catalog) -> None:
    """Least gold: the claw carries no gold of its own; Ulom (5) has more than the Elf (2)."""
    text = ULOM_CLAW_FAR + piece("elf", "heroes", (20, 40), health=6, gold=2) \
        + piece("knight", "ai", (45, 60), family="wraith-knight", level=1, health=1,
                sequences=["melee"])
    activation = turn(catalog, text).activations[0]
    assert [(s.target, s.via) for s in activation.visible] == [("ulom", "claw"), ("elf", None)]
    assert activation.target == "elf"


def test_a_push_that_separates_ulom_from_his_claw_brings_the_claw_back(catalog: Catalog) -> None:
    """"If the two pieces are hit ... resulting in them being separated, the claw piece is
    immediately moved back to within 2.5cm (1") of the hero piece": Ulom is hit and pushed."""
    text = piece("ulom", "heroes", (30, 55), health=6) \
        + piece("claw", "heroes", (33.5, 55), part_of="ulom") \
        + piece("orc", "ai", (30, 60), monster="orc", sequences=["melee"]) \
        + '[chance]\nd12 = [3]\ntokens = { 1 = ["1"] }\n'
    battle = turn(catalog, text).battle
    ulom, claw = battle.piece("ulom"), battle.piece("claw")
    assert abs(ulom.at[0] - 15.0) < 1e-3 and claw.at[0] > ulom.at[0]  # the side it lay on
    assert abs(edge_distance(ulom, claw) - 1.0) < 1e-3


def test_a_character_leaves_play_with_its_parts() -> None:
    """A kill (or the players reporting Ulom dead) removes both pieces."""
    ulom = Piece("ulom", "heroes", "hero", (10.0, 10.0), 1.25, health=1)
    claw = Piece("claw", "heroes", "hero", (20.0, 10.0), 1.25, part_of="ulom")
    elf = Piece("elf", "heroes", "hero", (30.0, 10.0), 1.25, health=1)
    battle = Battle((ulom, claw, elf), {}, {}).without("ulom", "dead")
    assert [p.id for p in battle.pieces] == ["elf"]
    assert dict(battle.out) == {"ulom": "dead", "claw": "dead"}
    assert [p.id for p in Battle((ulom, claw, elf), {}, {}).without("claw", "x").pieces] \
        == ["ulom", "elf"]


def test_json_keeps_ulom_as_target_and_names_the_claw() -> None:
    """CONTRACT.md: `target` is the character; `aim_piece` is the piece moved toward."""
    path: Path = PLAYTHROUGHS / "77-ulom-claw-visible-ulom-hidden.toml"
    activation = json.loads(run_scenario(path, as_json=True).stdout)["activations"][0]
    assert activation["target"] == "ulom"
    assert activation["aim_piece"] == "ulom-claw"
    assert activation["visible"] == ["ulom"] and activation["hidden"] == []
    assert activation["measured_to"] == {"ulom": "ulom-claw"}
    assert activation["distances"] == {"ulom": 16.24}
    attack = next(s for s in activation["steps"] if s["kind"] == "attack")
    assert attack["target"] == "ulom-claw"


def test_a_portal_trap_that_moves_ulom_brings_his_claw_along(catalog: Catalog) -> None:
    """The portal trap's random rune moves the character hit; the claw beside him follows."""
    text = piece("ulom", "heroes", (30, 55), health=6) \
        + piece("claw", "heroes", (33.5, 55), part_of="ulom") \
        + piece("orc", "ai", (30, 60), monster="orc", sequences=["portal-trap"]) \
        + '[chance]\nd12 = [7]\nrune_die = [1]\ntokens = { 1 = ["1"] }\n'
    battle = turn(catalog, text).battle
    ulom, claw = battle.piece("ulom"), battle.piece("claw")
    assert ulom.at == (10.0, 80.0) and ulom.health == 4
    assert edge_distance(ulom, claw) <= 2.5
