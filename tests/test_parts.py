"""Ulom and his claw (Special Heroes: "Damage may be inflicted on either piece."; docs/rulings.md
27): the AI aims at the physical piece that makes Ulom seen or nearer, and the hit counts against
Ulom. Golden playthroughs 76-79 show whole turns; these check the other shots and effects."""

from __future__ import annotations

import json
from pathlib import Path

from automa.catalog.load import Catalog
from automa.engine.battle import Battle
from automa.engine.parts import back_from_card
from automa.geometry.table import build_table, edge_distance
from automa.model.pieces import Piece
from automa.rules.battle_end import devoured_return
from automa.session.store import Session
from tests.conftest import OPEN_MAT, new_session, play_lines, scenario_from
from tests.regenerate_playthroughs import PLAYTHROUGHS, run_scenario
from tests.test_engine import HEAD, piece, turn

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


# On the Teleported! and Devoured! cards (docs/rulings.md 73) ------------------------------------

def test_ulom_teleported_by_the_portal_trap_takes_his_claw() -> None:
    """Result 1 puts Ulom on the Teleported! card: his claw goes too, each keeping its spot."""
    path = PLAYTHROUGHS / "79b-ulom-teleported-with-his-claw.toml"
    data = json.loads(run_scenario(path, as_json=True).stdout)
    ulom, claw = data["pieces"]["ulom"], data["pieces"]["ulom-claw"]
    assert ulom["conditions"] == claw["conditions"] == ["teleported"]
    assert ulom["health"] == 5 and claw["at"] == [33.5, 40.0]
    assert 73 in data["activations"][0]["rulings"]


def test_devoured_ulom_takes_his_claw(catalog: Catalog) -> None:
    text = piece("ulom", "heroes", (30, 55), health=6) \
        + piece("claw", "heroes", (33.5, 55), part_of="ulom") \
        + piece("rem", "ai", (30, 60), monster="remorhaz", sequences=["devour"]) \
        + '[chance]\ntokens = { 2 = ["1"] }\n'
    battle = turn(catalog, text).battle
    assert battle.piece("ulom").conditions == battle.piece("claw").conditions == {"devoured"}
    assert not battle.on_table()[0].part_of and [p.id for p in battle.on_table()] == ["rem"]


def _away(claw_at: tuple[float, float]) -> Battle:
    ulom = Piece("ulom", "heroes", "hero", (30.0, 30.0), 1.25, health=5)
    claw = Piece("claw", "heroes", "hero", claw_at, 1.25, part_of="ulom",
                 conditions=frozenset({"teleported"}))
    return Battle((ulom, claw), {}, {})


def test_back_from_the_card_the_claw_keeps_its_spot_beside_ulom(catalog: Catalog) -> None:
    """Ulom is back on the mat; the claw left 1 cm from him comes back where it was."""
    geometry = build_table(scenario_from(HEAD, catalog).playmat)
    battle = back_from_card(geometry, _away((33.5, 30.0)), "ulom")
    assert battle.piece("claw").at == (33.5, 30.0) and not battle.piece("claw").conditions


def test_back_from_the_card_a_far_claw_is_put_beside_ulom(catalog: Catalog) -> None:
    """Ulom landed elsewhere: the claw comes back 1 cm from his edge, toward where it was."""
    geometry = build_table(scenario_from(HEAD, catalog).playmat)
    battle = back_from_card(geometry, _away((50.0, 30.0)), "ulom")
    ulom, claw = battle.piece("ulom"), battle.piece("claw")
    assert abs(edge_distance(ulom, claw) - 1.0) < 1e-3 and claw.at[0] > ulom.at[0]
    assert not claw.conditions


ULOM_SESSION = HEAD + piece("ulom", "heroes", (30, 30), health=6) \
    + piece("ulom-claw", "heroes", (33.5, 30), part_of="ulom") \
    + piece("elf", "heroes", (10, 20), health=6) \
    + piece("rem", "ai", (30, 70), monster="remorhaz", health=1) + OPEN_MAT


def test_in_a_session_ulom_goes_onto_the_card_and_back_with_his_claw(
        tmp_path: Path, catalog: Catalog) -> None:
    """`condition ulom teleported on` takes the claw along; the rat moves onto the claw's
    spot; `back ulom` brings the claw back beside Ulom, within 2.5 cm, on a free spot."""
    folder = new_session(tmp_path, ULOM_SESSION)
    out = play_lines(folder, ["condition ulom teleported on", "move rem 34,30", "back ulom",
                              "quit"])
    assert "ulom-claw goes onto the Teleported! card too: it is part of ulom (ruling 73)" in out
    assert "ulom-claw comes back with ulom" in out
    battle = Session.open(folder, catalog).state.battle
    ulom, claw = battle.piece("ulom"), battle.piece("ulom-claw")
    assert not ulom.conditions and not claw.conditions
    assert edge_distance(ulom, claw) <= 2.5 + 1e-6
    assert edge_distance(claw, battle.piece("rem")) >= -1e-6


def test_in_a_session_the_claw_sent_to_a_card_sends_ulom(tmp_path: Path,
                                                        catalog: Catalog) -> None:
    folder = new_session(tmp_path, ULOM_SESSION)
    out = play_lines(folder, ["condition ulom-claw devoured on", "quit"])
    assert "ulom goes onto the Devoured! card too: ulom-claw is part of it" in out
    battle = Session.open(folder, catalog).state.battle
    assert battle.piece("ulom").conditions == battle.piece("ulom-claw").conditions \
        == {"devoured"}


def test_in_a_session_a_dying_devourer_frees_ulom_with_his_claw(tmp_path: Path,
                                                               catalog: Catalog) -> None:
    """The Remorhaz devoured Ulom (and so his claw); the Elf kills it: Ulom comes back where it
    died, the claw beside him."""
    folder = new_session(tmp_path, ULOM_SESSION)
    out = play_lines(folder, ["condition ulom devoured on", "hit rem melee by elf", "quit"])
    assert "ulom is freed from the Devoured! card where Remorhaz died" in out
    battle = Session.open(folder, catalog).state.battle
    ulom, claw = battle.piece("ulom"), battle.piece("ulom-claw")
    assert ulom.at == (30.0, 70.0) and not ulom.conditions and not claw.conditions
    assert edge_distance(ulom, claw) <= 2.5 + 1e-6
    assert devoured_return(battle.pieces) == []


def test_in_a_session_the_ai_teleports_ulom_with_his_claw(tmp_path: Path,
                                                         catalog: Catalog) -> None:
    """`automa play`: the Wraith Warlock's portal trap (1) sends Ulom and his claw to the card;
    `back ulom` in the next heroes' turn brings both back."""
    path = PLAYTHROUGHS / "79b-ulom-teleported-with-his-claw.toml"
    folder = new_session(tmp_path, path.read_text(encoding="utf-8"))
    out = play_lines(folder, ["done", "", "back ulom", "quit"])
    assert "put Ulom's claw on the Teleported! card too: it is part of Ulom" in out
    assert "ulom-claw comes back with ulom" in out
    battle = Session.open(folder, catalog).state.battle
    assert not battle.piece("ulom").conditions and not battle.piece("ulom-claw").conditions
    assert battle.piece("ulom-claw").at == (33.5, 40.0)
