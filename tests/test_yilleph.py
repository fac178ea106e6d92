"""Yilleph the Illusionist (red-box-solo-rules.txt l.320-335), a hero of two pieces entered with
`part_of` (docs/data.md): "The white Yilleph is invulnerable ... The black Yilleph is vulnerable
to damage" (l.326). A hit on an invulnerable piece damages nothing, neither it nor the piece it
is part of (docs/rulings.md 27). The AI's monsters target and hit Yilleph; the heroes report
their own hits with `hit`."""

from __future__ import annotations

from pathlib import Path

from automa.catalog.load import Catalog
from automa.engine.battle import Battle, StepLog
from automa.engine.shots import damage
from automa.rules.hero_hits import HeroShot, resolve
from tests.conftest import OPEN_MAT, new_session, play_lines, scenario_from
from tests.test_engine import HEAD, kinds, piece, turn
from tests.test_hero_hits import ELF, ai, battle_of, hit, monster

# the whole piece holds Yilleph's health; the other piece is part of it (docs/data.md)
WHITE_PART = piece("yilleph", "heroes", (10, 20), health=5) \
    + piece("yilleph-w", "heroes", (30, 55), part_of="yilleph", invulnerable=True)
ORC_HITS = piece("orc", "ai", (30, 60), monster="orc", sequences=["melee"]) \
    + '[chance]\ntokens = { 1 = ["2"] }\nd12 = [12]\nrune_die = [4]\n'


def _battle(catalog: Catalog, text: str) -> Battle:
    scenario = scenario_from(HEAD + text, catalog)
    return Battle(scenario.pieces, scenario.bags, scenario.out)


# --- a hit on an invulnerable piece damages nothing ----------------------------------------

def test_damage_on_an_invulnerable_part_reaches_nobody(catalog: Catalog) -> None:
    """l.326 "The white Yilleph is invulnerable": the damage of a hit on the white piece does
    not go on to the piece it is part of; a hit on a part that is not invulnerable still does
    (ruling 27, Ulom's claw)."""
    text = WHITE_PART + piece("ulom", "heroes", (50, 20), health=6) \
        + piece("claw", "heroes", (50, 25), part_of="ulom")
    battle, log = _battle(catalog, text), StepLog()
    assert damage(battle, log, "yilleph-w", 2).piece("yilleph").health == 5
    assert "no damage to it or to yilleph" in log.steps[-1].text  # type: ignore[union-attr]
    assert damage(battle, StepLog(), "claw", 2).piece("ulom").health == 4


def test_the_ai_hitting_the_white_piece_leaves_yilleph_unharmed(catalog: Catalog) -> None:
    """The Orc's melee hits the white piece (a 2 drawn, no zero): it is pushed ("damage does not
    necessarily have to be inflicted ... as the active target may be invulnerable", l.294),
    and neither piece loses health."""
    result = turn(catalog, WHITE_PART + ORC_HITS)
    assert result.activations[0].target == "yilleph"
    assert "damage" not in kinds(result)
    assert result.battle.piece("yilleph").health == 5
    assert result.battle.piece("yilleph-w").at != (30.0, 55.0)  # pushed all the same
    assert 27 in [r.number for r in result.activations[0].rulings]


def test_an_invulnerable_part_takes_no_poison_either(catalog: Catalog) -> None:
    """No damage, so no effect that needs damage (data/effects.toml): the Sewer Rat's poison
    gives Yilleph no Poison card when it hits the white piece."""
    text = WHITE_PART.replace("health = 5", "health = 5\nstarting_health = 5") \
        + piece("rat", "ai", (30, 60), monster="sewer-rat", sequences=["melee+poison"]) \
        + '[chance]\ntokens = { 2 = ["1"] }\nd12 = [12]\n'
    yilleph = turn(catalog, text).battle.piece("yilleph")
    assert (yilleph.health, yilleph.poison) == (5, 0)


def test_play_ai_turn_hitting_the_white_piece(tmp_path: Path) -> None:
    """Through `automa play`: the AI turn's Orc hits the white piece; `status` shows Yilleph's
    health unchanged."""
    folder = new_session(tmp_path, HEAD + WHITE_PART + ORC_HITS + OPEN_MAT)
    out = play_lines(folder, ["done", "", "status", "quit"])
    assert "yilleph-w is invulnerable: no damage to it or to yilleph" in out
    assert "yilleph takes 2" not in out
    assert "yilleph            ( 10.0,  20.0) health 5" in out.split("> status")[-1]


# --- the heroes' hit ----------------------------------------------------------------------

def test_a_heros_shot_does_nothing_to_an_invulnerable_piece(catalog: Catalog) -> None:
    """An invulnerable piece takes no damage, and no modifier acts on it (each needs damage):
    no Stunned! card, no petrify."""
    orc = monster(catalog, "orc", invulnerable=True)
    for shot in ("melee+stun", "melee+petrify", "bite+critical"):
        out = resolve(HeroShot(shot.split("+")[0], frozenset(shot.split("+")[1:])), orc,
                      catalog.monsters["orc"])
        assert (out.damage, out.gains, out.petrified) == (0, frozenset(), False), shot
        assert "invulnerable: no damage" in out.lines[-1]


def test_a_heros_hit_on_a_part_goes_to_its_whole_unless_invulnerable(catalog: Catalog) -> None:
    """`hit` names the piece struck: a part counts as the piece it is part of (ruling 27), so
    the Troll loses the health; an invulnerable part passes nothing on."""
    battle = battle_of(catalog, ai("troll", "troll", 40.0),
                       ai("club", "troll", 44.0, part_of="troll", name="club"),
                       ai("ward", "troll", 36.0, part_of="troll", invulnerable=True, name="ward"))
    after, lines = hit(catalog, battle, ["club"], "melee", by="elf")
    assert after.piece("troll").health == 1
    assert lines[0].startswith("club (part of Troll): melee: 1 damage")
    after, lines = hit(catalog, battle, ["ward"], "melee", by="elf")
    assert after.piece("troll").health == 2 and "invulnerable: no damage" in lines[0]


def test_play_hit_on_an_invulnerable_part(tmp_path: Path) -> None:
    """Through `automa play`: `hit ward bite by elf` on the Troll's invulnerable part."""
    ward = ai("ward", "troll", 36.0, part_of="troll", invulnerable=True, name="ward")
    folder = new_session(tmp_path, HEAD + ELF + ai("troll", "troll", 40.0) + ward
                         + "[chance]\nseed = 1\n" + OPEN_MAT)
    out = play_lines(folder, ["hit ward bite by elf", "status", "quit"])
    assert "ward (part of Troll): invulnerable: no damage" in out
    assert "troll" in out and "health 2" in out
