"""A hero's hit on the AI's pieces, resolved by the rules (rules/hero_hits.py), logged as one
`Hit` command (session/apply.py) and typed at the table as `hit ...` (cli/play.py). Each test
cites the sentence it checks: the Red Box chapter, or catacombs-facts.md for base-game rules."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.engine.battle import Battle
from automa.errors import InputError
from automa.geometry.table import build_table
from automa.model.pieces import Condition, Piece
from automa.model.shots import ShotName
from automa.rules.hero_hits import (
    BASE_DAMAGE,
    HeroShot,
    base_damage,
    disc_line,
    portal_trap,
    resolve,
)
from automa.rules.rulings import RulingKey, ruling
from automa.session.apply import apply_hit
from automa.session.commands import Hit
from tests.conftest import OPEN_MAT, logged_inputs, new_session, play_lines, scenario_from

HEAD = 'format = 1\n[battle]\nplaymat = "inline"\n'
ELF = '[[piece]]\nid = "elf"\nside = "heroes"\nat = [30.0, 30.0]\nhealth = 6\n' \
      'starting_health = 6\n'


def ai(piece_id: str, monster: str, at: float = 40.0, **fields: object) -> str:
    lines = ["[[piece]]", f'id = "{piece_id}"', 'side = "ai"', f'monster = "{monster}"',
             f"at = [{at}, 60.0]"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in fields.items()]
    return "\n".join(lines) + "\n"


def battle_of(catalog: Catalog, *pieces: str) -> Battle:
    scenario = scenario_from(HEAD + ELF + "".join(pieces), catalog)
    return Battle(scenario.pieces, scenario.bags, scenario.out)


def hit(catalog: Catalog, battle: Battle, targets: list[str], shot: str,
        rulings: dict[str, str] | None = None, **extra: Any) -> tuple[Battle, list[str]]:
    command = Hit.from_json({"type": "hit", "targets": targets, "shot": shot, **extra})
    geometry = build_table(scenario_from(HEAD + ELF, catalog).playmat)
    return apply_hit(battle, command, catalog.monsters, rulings or {}, geometry)


def monster(catalog: Catalog, spec_id: str, health: int | None = 1,
            **fields: Any) -> Piece:
    spec = catalog.monsters[spec_id]
    return Piece(spec_id, "ai", "monster", (0.0, 0.0), 1.0, health=health, monster=spec_id,
                 name=spec.name, family=spec.family, level=spec.level, **fields)


# --- damage and the card's boxes ---------------------------------------------------------

def test_nullify_box_stops_damage_and_modifiers(catalog: Catalog) -> None:
    """facts 1.8: "Nullifies box: the listed shot types do no damage and their modifiers are
    ignored. Example: the Skeleton Warrior nullifies missiles, including critical missiles.\""""
    battle = battle_of(catalog, ai("sk", "skeleton-warrior"))
    after, lines = hit(catalog, battle, ["sk"], "missile+critical")
    assert after.piece("sk").health == 1
    assert any("nullifies missile" in line for line in lines)


def test_reflect_box_sends_one_damage_back(catalog: Catalog) -> None:
    """facts 1.8: "Reflects box: as nullify, and 1 damage goes back to the attacker. Example:
    the Minotaur reflects missiles.\""""
    battle = battle_of(catalog, ai("mino", "minotaur"))
    after, lines = hit(catalog, battle, ["mino"], "missile", by="elf")
    assert after.piece("mino").health == 2 and after.piece("elf").health == 5
    assert any("reflects missile" in line for line in lines)


def test_the_box_only_lists_what_it_lists(catalog: Catalog) -> None:
    """The Skeleton Warrior's box names missiles: a melee kills the 1-health monster, and
    "A 1-health monster dies on its first hit" (facts 2.1)."""
    battle = battle_of(catalog, ai("sk", "skeleton-warrior"))
    after, lines = hit(catalog, battle, ["sk"], "melee", by="elf")
    assert after.get("sk") is None and after.out["sk"] == "killed by elf"
    assert any("dies" in line for line in lines)


def test_critical_adds_one(catalog: Catalog) -> None:
    """facts 1.7: "Critical (red): +1 damage on the base shot.\""""
    assert base_damage(HeroShot("melee", frozenset({"critical"}))) == 2
    assert base_damage(HeroShot("melee")) == 1


@pytest.mark.parametrize("shot", ["bite", "roll", "sword"])
def test_bite_roll_and_sword_do_two(catalog: Catalog, shot: str) -> None:
    """facts 1.3: "Bite: does 2 damage to what it hits." "Roll ... Unmodified it does 2
    damage." Red Box l.358: the sword "is functionally equivalent to the bite shot, inflicting
    two points of damage in its unmodified form". A 2-health Troll dies of one."""
    battle = battle_of(catalog, ai("troll", "troll"))
    after, lines = hit(catalog, battle, ["troll"], shot, by="elf")
    assert after.get("troll") is None and f"{shot}: 2 damage" in lines[0]
    assert base_damage(HeroShot(shot)) == 2
    assert base_damage(HeroShot(shot, frozenset({"critical"}))) == 3


def test_cli_doc_lists_each_shots_base_damage() -> None:
    """docs/cli.md's table of base damage is the one `hit` uses, shot for shot."""
    text = (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `([a-z-]+)` \| (\d) \|", text, re.MULTILINE))
    assert {shot: int(n) for shot, n in listed.items()} == dict(BASE_DAMAGE)


def test_roll_hitting_several_is_refused(catalog: Catalog) -> None:
    """facts 1.3 Roll: "If it hits several characters, only one is affected (the shooter
    chooses)": a roll names the one piece it affects."""
    battle = battle_of(catalog, ai("a", "troll", 40.0), ai("b", "troll", 50.0))
    with pytest.raises(InputError, match=r"^a roll that hits several pieces affects only "
                                         r"the one the shooter chooses: .*`hit a roll\+critical`$"):
        hit(catalog, battle, ["a", "b"], "roll+critical")
    assert hit(catalog, battle, ["b"], "roll")[0].get("b") is None


def test_ice_hitting_several_freezes_the_one_the_shooter_picks(catalog: Catalog) -> None:
    """facts 1.6 Ice: "With several targets, the shooter picks which one freezes": an ice shot
    names the one piece it freezes (before, every piece named was frozen)."""
    battle = battle_of(catalog, ai("a", "troll", 40.0), ai("b", "troll", 50.0))
    with pytest.raises(InputError, match=r"^an ice shot that hits several pieces freezes only "
                                         r"the one the shooter chooses: .*`hit a ice`$"):
        hit(catalog, battle, ["a", "b"], "ice")
    after, _ = hit(catalog, battle, ["b"], "ice")
    assert Condition.FROZEN in after.piece("b").conditions
    assert Condition.FROZEN not in after.piece("a").conditions


def test_two_health_disc_is_flipped_then_killed(catalog: Catalog) -> None:
    """facts 2.1: "2-health monsters: after 1 damage the disc is flipped in place to its orange
    or black damaged side; the next hit kills it.\""""
    battle = battle_of(catalog, ai("mino", "minotaur"))
    once, lines = hit(catalog, battle, ["mino"], "melee")
    assert once.piece("mino").health == 1
    assert any("flip its disc" in line for line in lines)
    twice, lines = hit(catalog, once, ["mino"], "melee")
    assert twice.get("mino") is None and not any("flip" in line for line in lines)


def test_giant_fireball_does_two(catalog: Catalog) -> None:
    """facts 1.6: "Giant Fireball = a large orange piece that does 2 damage, against 1 for a
    normal fireball.\""""
    battle = battle_of(catalog, ai("mino", "minotaur"))
    assert hit(catalog, battle, ["mino"], "giant-fireball")[0].get("mino") is None
    assert hit(catalog, battle, ["mino"], "fireball")[0].piece("mino").health == 1


def test_shadow_monster_takes_no_damage(catalog: Catalog) -> None:
    """facts 2.1: "Shadow monsters ... are destroyed only by being pushed completely off the
    playmat\"."""
    battle = battle_of(catalog, ai("ph", "phantom"))
    after, lines = hit(catalog, battle, ["ph"], "melee+critical")
    assert after.get("ph") is not None
    assert any("shadow monster" in line for line in lines)


def test_frozen_monster_cannot_be_damaged(catalog: Catalog) -> None:
    """facts 1.6 Ice: "A frozen character cannot act, cannot be damaged, and loses its
    defensive properties.\""""
    battle = battle_of(catalog, ai("mino", "minotaur", conditions=["frozen"]))
    after, _ = hit(catalog, battle, ["mino"], "melee")
    assert after.piece("mino").health == 2


# --- modifiers ---------------------------------------------------------------------------

def test_poison_card_is_inflicted_as_damage(catalog: Catalog) -> None:
    """"When the Heroic Forces have the Poison modifier applied to one of their shots ... Draw
    one (and only one) Poison card and immediately inflict the indicated poison value as
    damage." (ruling hero-poison: on top of the shot's own damage)"""
    battle = battle_of(catalog, ai("rem", "remorhaz"))
    after, lines = hit(catalog, battle, ["rem"], "melee+poison", poison_card=2)
    assert after.piece("rem").health == 1
    poison = next(line for line in lines if "Poison card shows 2" in line)
    assert f"(ruling {ruling(RulingKey.HERO_POISON).number})" in poison  # the registry's number


def test_poison_needs_the_card(catalog: Catalog) -> None:
    """The Poison card is drawn at the table: a poison hit without its value is refused."""
    battle = battle_of(catalog, ai("rem", "remorhaz"))
    with pytest.raises(InputError, match="Poison card"):
        hit(catalog, battle, ["rem"], "melee+poison")


def test_modifier_goes_to_one_of_several(catalog: Catalog) -> None:
    """facts 1.7: "If a modified shot hits several enemies, the modifier applies to only one
    of them (the attacker chooses); all of them still take the base damage.\""""
    battle = battle_of(catalog, ai("a", "remorhaz", 40.0), ai("b", "remorhaz", 50.0))
    after, _ = hit(catalog, battle, ["a", "b"], "fireball+stun")
    assert after.piece("a").health == 4 and not after.piece("a").conditions  # box: fireball
    after, _ = hit(catalog, battle, ["a", "b"], "melee+stun")
    assert "stunned" in after.piece("a").conditions
    assert "stunned" not in after.piece("b").conditions and after.piece("b").health == 3


def test_petrify_kills_at_once(catalog: Catalog) -> None:
    """facts 1.7: "Petrify (gray): the hit character dies at once, whatever its health.\""""
    battle = battle_of(catalog, ai("rem", "remorhaz"))
    assert hit(catalog, battle, ["rem"], "melee+petrify")[0].get("rem") is None


def test_devour_puts_a_living_monster_on_the_card(catalog: Catalog) -> None:
    """facts 1.6: "Devour. The target takes 1 damage. If still alive, it goes onto the
    Devoured card and is out of play.\""""
    battle = battle_of(catalog, ai("rem", "remorhaz"))
    after, _ = hit(catalog, battle, ["rem"], "melee+devour")
    assert after.piece("rem").health == 3 and "devoured" in after.piece("rem").conditions
    with pytest.raises(InputError, match="Devoured"):
        hit(catalog, after, ["rem"], "melee")


def test_fear_tells_the_attacker_to_rush_the_damaged_monster(catalog: Catalog) -> None:
    """facts 1.7: "Fear (white): an attacker who damages a target with it may immediately make
    one unmodified rush shot with the damaged character\"."""
    battle = battle_of(catalog, ai("rem", "remorhaz"))
    _, lines = hit(catalog, battle, ["rem"], "melee+fear")
    assert any("rush shot with it" in line for line in lines)


def test_devourer_dying_frees_the_devoured_hero(catalog: Catalog) -> None:
    """facts 1.6: "Devoured characters are released when the room is cleared, or when the
    devouring monster dies; in that case they return where the monster died.\""""
    battle = battle_of(catalog, ai("rem", "remorhaz", health=1))
    elf = battle.piece("elf")
    battle = battle.with_piece(replace(elf, conditions=frozenset({"devoured"})))
    after, lines = hit(catalog, battle, ["rem"], "melee")
    freed = after.piece("elf")
    assert "devoured" not in freed.conditions and freed.at == (40.0, 60.0)
    assert any("freed" in line for line in lines)


# --- Lords, Antients, ice ------------------------------------------------------------------

def lord(catalog: Catalog) -> Battle:
    return battle_of(catalog, '[[piece]]\nid = "lord"\nside = "ai"\nkind = "catacomb-lord"\n'
                              'monster = "hmotha"\nat = [40.0, 60.0]\nhealth = 8\n')


def test_lord_immune_to_modifiers_but_critical(catalog: Catalog) -> None:
    """facts 2.3: "Lords are immune to all modifiers except chain, critical and
    regeneration. They cannot be frozen or devoured\"."""
    after, lines = hit(catalog, lord(catalog), ["lord"], "melee+critical+stun+poison",
                       poison_card=3)
    assert after.piece("lord").health == 6 and not after.piece("lord").conditions
    assert any("immune to poison, stun" in line for line in lines)
    iced, _ = hit(catalog, lord(catalog), ["lord"], "ice")
    assert "frozen" not in iced.piece("lord").conditions


def test_ice_freezes_a_monster(catalog: Catalog) -> None:
    """facts 1.6: "Ice ... The target takes no damage but is frozen\"."""
    battle = battle_of(catalog, ai("mino", "minotaur"))
    after, _ = hit(catalog, battle, ["mino"], "ice")
    assert after.piece("mino").health == 2 and "frozen" in after.piece("mino").conditions


def test_antient_is_immune(catalog: Catalog) -> None:
    """facts 2.4: "They cannot be damaged, destroyed or suppressed, and are immune to every
    shot and modifier.\""""
    spec = catalog.monsters["flame-antient"]
    piece = Piece("an", "ai", "antient", (0.0, 0.0), 1.0, monster=spec.id)
    out = resolve(HeroShot("melee", frozenset({"petrify"})), piece, spec)
    assert out.damage == 0 and not out.petrified


# --- Monster Vulnerabilities (ruling monster-vulnerabilities: opt-in) ----------------------

ON = {"monster-vulnerabilities": "on"}


def test_vulnerabilities_are_off_unless_chosen(catalog: Catalog) -> None:
    """"Monster Vulnerabilities (Optional)": without the switch an Infernal ice does nothing
    but freeze (ruling monster-vulnerabilities)."""
    battle = battle_of(catalog, ai("fw", "flame-wraith"))
    after, _ = hit(catalog, battle, ["fw"], "ice")
    assert after.piece("fw").health == 2 and "frozen" in after.piece("fw").conditions


def test_zombie_family_unmodified_melee_is_critical(catalog: Catalog) -> None:
    """"When attacking monsters from the Zombie (purple) family, treat all unmodified melee
    shots successfully inflicted upon them as if they had the critical modifier.\""""
    spec = catalog.monsters["orc"]
    piece = monster(catalog, "orc", health=3)
    piece = replace(piece, family="zombie")
    assert resolve(HeroShot("melee", vulnerabilities=True), piece, spec).damage == 2
    assert resolve(HeroShot("melee"), piece, spec).damage == 1
    assert resolve(HeroShot("melee", frozenset({"stun"}), vulnerabilities=True), piece,
                   spec).damage == 1


def test_wraith_knight_ignores_defensive_properties(catalog: Catalog) -> None:
    """"When attacking monsters from the Wraith Knight (black) family ignore their defensive
    properties and also ignore the effects of the chain modifier.\""""
    spec = catalog.monsters["skeleton-warrior"]  # a card whose box nullifies missiles
    piece = replace(monster(catalog, "skeleton-warrior"), family="wraith-knight")
    assert resolve(HeroShot("missile", vulnerabilities=True), piece, spec).damage == 1
    assert resolve(HeroShot("missile"), piece, spec).damage == 0


def test_vulnerabilities_never_override_the_box(catalog: Catalog) -> None:
    """facts 1.9: "These never override a monster's own defensive properties." The Skeleton
    Warrior is Undead, whose fireball vulnerability does not touch its missile box."""
    battle = battle_of(catalog, ai("sk", "skeleton-warrior", health=2))
    after, _ = hit(catalog, battle, ["sk"], "missile", rulings=ON)
    assert after.piece("sk").health == 2
    after, _ = hit(catalog, battle, ["sk"], "fireball", rulings=ON)
    assert after.get("sk") is None  # unmodified fireball counts as critical: 2


def test_infernal_ice_does_one_damage(catalog: Catalog) -> None:
    """facts 1.9: "Infernal (orange): an ice shot also does 1 damage before freezing.\""""
    battle = battle_of(catalog, ai("fw", "flame-wraith"))
    after, _ = hit(catalog, battle, ["fw"], "ice", rulings=ON)
    assert after.piece("fw").health == 1 and "frozen" in after.piece("fw").conditions


def test_extra_small_vermin_melee_counts_as_fear(catalog: Catalog) -> None:
    """facts 1.9: "Vermin (brown), extra-small only ...: a hero's unmodified melee or missile
    counts as fear, unless the monster itself has a fear shot.\""""
    spec = catalog.monsters["sewer-rat"]
    piece = monster(catalog, "sewer-rat", health=2)
    out = resolve(HeroShot("melee", vulnerabilities=True), piece, spec)
    assert any("counts as fear" in line for line in out.lines)


def test_mythological_melee_regenerates_the_attacker(catalog: Catalog) -> None:
    """facts 1.9: "Mythological (blue): a hero's unmodified melee counts as having
    regeneration." (effects.toml, house: the attacker heals 1)"""
    battle = battle_of(catalog, ai("mino", "minotaur"))
    elf = battle.piece("elf")
    battle = battle.with_piece(replace(elf, health=4))
    after, _ = hit(catalog, battle, ["mino"], "melee", rulings=ON, by="elf")
    assert after.piece("elf").health == 5


def test_regeneration_heals_only_when_the_shot_damages(catalog: Catalog) -> None:
    """Ruling 21: "The attacker heals 1 when its shot damages": a regeneration melee on a shadow
    monster (no health track, no damage) heals nobody; on a monster it damages it heals 1."""
    battle = battle_of(catalog, ai("mino", "minotaur"), ai("shade", "minotaur", 55.0))
    battle = battle.with_piece(replace(battle.piece("shade"), health=None))
    battle = battle.with_piece(replace(battle.piece("elf"), health=4))
    after, lines = hit(catalog, battle, ["shade"], "melee+regeneration", by="elf")
    assert after.piece("elf").health == 4
    assert not any("regeneration" in line for line in lines)
    after, _ = hit(catalog, battle, ["mino"], "melee+regeneration", by="elf")
    assert after.piece("elf").health == 5


# --- the dagger and the Portal Trap ---------------------------------------------------------

def test_dagger_does_two_for_a_catacomb_hero(catalog: Catalog) -> None:
    """"In Catacombs 3E, this ranged shot inflicts 1 point of damage by default, 2 points when
    performed by any Catacomb hero (including the Illusionist)." (ruling dagger-hero)"""
    battle = battle_of(catalog, ai("mino", "minotaur"))
    after, lines = hit(catalog, battle, ["mino"], "dagger", by="elf")
    assert after.get("mino") is None and any("move to rune" in line for line in lines)
    assert hit(catalog, battle, ["mino"], "dagger")[0].piece("mino").health == 1


@pytest.mark.parametrize(("roll", "damage", "gains"), [
    (1, 1, {"teleported"}), (2, 2, {"teleported"}), (3, 3, {"teleported"}), (4, 0, set()),
    (5, 0, set()), (6, 2, set()), (11, 2, set()), (12, 0, set())])
def test_portal_trap_table(roll: int, damage: int, gains: set[str]) -> None:
    """"Portal Trap (Ranged Shot): ... For each character hit by this shot, roll the D12."
    1-3: that damage and the Teleported! card; 4-5: no damage, may rush; 6-11: 2 damage and a
    random rune; 12: no damage, an unoccupied rune (rulings portal-rush, portal-twelve)."""
    out = portal_trap(roll)
    assert out.damage == damage and out.gains == gains
    if roll == 12:
        assert "unoccupied rune" in out.lines[0]


def test_portal_trap_teleports_a_survivor(catalog: Catalog) -> None:
    """"Result 1: 1 point of damage is inflicted and the character is placed on the Teleported!
    card (assuming they are still alive).\""""
    battle = battle_of(catalog, ai("mino", "minotaur"), ai("sk", "skeleton-warrior", 50.0))
    after, _ = hit(catalog, battle, ["mino", "sk"], "portal-trap", portal=[1, 1])
    assert "teleported" in after.piece("mino").conditions and after.piece("mino").health == 1
    assert after.get("sk") is None


def test_disc_line_none_when_nothing_changes(catalog: Catalog) -> None:
    piece = monster(catalog, "minotaur", health=2)
    assert disc_line(piece, resolve(HeroShot("ice"), piece, None), None) is None


# --- at the table: `hit` in `automa play` ---------------------------------------------------

DUEL = HEAD + ELF + ai("rat-1", "sewer-rat", 30.0) + ai("mino", "minotaur", 50.0) \
    + "[chance]\nseed = 1\n" + OPEN_MAT


def _session(tmp_path: Path, *args: str) -> Path:
    return new_session(tmp_path, DUEL, *args)


def test_play_hit_resolves_and_logs_one_event(tmp_path: Path) -> None:
    """`hit mino missile by elf`: the Minotaur's Reflects box (facts 1.8) sends 1 back to the
    elf; one `hit` event is logged and replays to the same state."""
    folder = _session(tmp_path)
    out = play_lines(folder, ["hit mino missile by elf", "status", "quit"])
    assert "reflects missile" in out and "elf: health 5" in out
    events = logged_inputs(folder)
    assert [e["type"] for e in events] == ["hit"]
    assert events[0] == {"type": "hit", "by": "elf", "shot": "missile", "targets": ["mino"]}
    out = play_lines(folder, ["status", "quit"])  # replayed from the log
    assert "health 5" in out


def test_play_hit_several_with_poison_asks_the_card(tmp_path: Path) -> None:
    """`hit rat-1, mino melee+poison`: the Poison card's value is asked and logged; the
    modifier goes to the first named piece only."""
    folder = _session(tmp_path)
    out = play_lines(folder, ["hit rat-1, mino melee+poison by elf", "2", "quit"])
    assert "Poison card shows 2" in out and "base damage only" in out
    event = logged_inputs(folder)[0]
    assert event["targets"] == ["rat-1", "mino"] and event["poison_card"] == 2


def test_play_sword_does_two(tmp_path: Path) -> None:
    """`hit troll-1 sword by elf`: the sword does 2 (Red Box l.358), so the 2-health Troll
    dies; a roll naming two pieces is refused in one line and nothing is logged."""
    folder = new_session(tmp_path, HEAD + ELF + ai("troll-1", "troll", 40.0)
                         + ai("troll-2", "troll", 50.0) + "[chance]\nseed = 1\n" + OPEN_MAT)
    out = play_lines(folder, ["hit troll-1, troll-2 roll by elf", "hit troll-1 sword by elf",
                              "quit"])
    assert "a roll that hits several pieces affects only the one the shooter chooses" in out
    assert "Troll: sword: 2 damage; it dies" in out
    assert [e["targets"] for e in logged_inputs(folder)] == [["troll-1"]]


def test_play_portal_trap_rolls_the_sessions_d12(tmp_path: Path) -> None:
    """Virtual dice: the Portal Trap's D12 comes from the session's seeded chance and is logged
    with the hit, so a replay is identical."""
    folder = _session(tmp_path)
    out = play_lines(folder, ["hit mino portal-trap", "quit"])
    roll = logged_inputs(folder)[0]["portal"][0]
    assert f"D12 for the Portal Trap on mino: {roll}" in out
    assert f"Portal Trap D12 {roll}:" in out


def test_play_portal_trap_physical_asks_the_die(tmp_path: Path) -> None:
    folder = _session(tmp_path, "--dice", "physical")
    out = play_lines(folder, ["hit mino portal-trap", "13", "12", "quit"])
    assert "from 1 to 12" in out and logged_inputs(folder)[0]["portal"] == [12]


def test_play_hit_bad_input_is_one_line(tmp_path: Path) -> None:
    folder = _session(tmp_path)
    out = play_lines(folder, ["hit elf melee", "hit mino rush", "hit mino melee by nobody", "quit"])
    assert "no AI or neutral piece 'elf'" in out and "report a rush with `damage" in out
    assert "usage: hit" in out and logged_inputs(folder) == []


def test_damage_stays_the_raw_override(tmp_path: Path) -> None:
    """`damage` applies no rule: a missile-reflecting Minotaur still loses the health."""
    folder = _session(tmp_path)
    play_lines(folder, ["damage mino 1 by elf", "quit"])
    assert logged_inputs(folder)[0]["type"] == "damage"


# --- the Trilithon and the battle's end -----------------------------------------------------

def test_trilithon_reshot_for_a_ranged_piece(catalog: Catalog) -> None:
    """"When any ranged piece passes successfully through the Trilithon, then the player
    performing that shot must immediately perform the same shot again from where the piece
    finished up on the other side of the Trilithon obstacle.\""""
    battle = battle_of(catalog, ai("mino", "minotaur"))
    _, lines = hit(catalog, battle, ["mino"], "fireball", trilithon=True)
    assert "flick the same fireball again" in lines[-1]
    _, lines = hit(catalog, battle, ["mino"], "melee", trilithon=True)
    assert "or move to rune instead" in lines[-1]
    _, lines = hit(catalog, battle, ["mino"], "melee")
    assert not any("Trilithon" in line for line in lines)


def test_room_cleared_rules(catalog: Catalog) -> None:
    """facts 2.3 "The heroes win by killing the Lord; the remaining minions need not be
    killed."; 1.6 Ice "If every other monster is dead, the frozen ones count as cleared";
    1.6 Teleport "The Battle Phase goes on even if monsters are only on the Teleported card";
    2.4 Antients "cannot be damaged, destroyed"."""
    from automa.rules.battle_end import devoured_return, room_cleared

    rat = monster(catalog, "sewer-rat")
    frozen = replace(rat, conditions=frozenset({"frozen"}))
    away = replace(rat, conditions=frozenset({"teleported"}))
    antient = Piece("an", "ai", "antient", (0.0, 0.0), 1.0)
    lord = Piece("lord", "ai", "catacomb-lord", (9.0, 9.0), 2.0, health=12)
    assert room_cleared([rat], [rat]) is None
    assert room_cleared([lord, rat], [rat]) is not None  # the Lord fell: minions need not die
    assert room_cleared([lord, rat], [lord, rat]) is None
    assert room_cleared([frozen], [frozen]) is not None
    assert room_cleared([away], [away]) is None
    assert room_cleared([antient], [antient]) is not None
    elf = Piece("elf", "heroes", "hero", (0.0, 0.0), 1.0, health=3,
                conditions=frozenset({"devoured"}))
    assert devoured_return([elf]) == ["elf comes back from the Devoured! card"]


def test_play_kill_names_the_hero_and_clears_the_room(tmp_path: Path) -> None:
    """The last AI piece killed by `hit ... by elf`: it falls to the elf (facts 2.1 "A killed
    monster's disc goes onto the killing hero's board"), the room is cleared, and the summary
    counts the damage the elf dealt."""
    folder = _session(tmp_path)
    out = play_lines(folder, ["hit rat-1, mino giant-fireball+critical by elf", "quit"])
    assert "rat-1 (killed by elf)" in out and "mino (killed by elf)" in out
    assert "The room is cleared: no AI character is left." in out
    assert "elf: dealt 3" in out


# --- the hero's board -----------------------------------------------------------------------

def test_reported_poison_reaching_starting_health_kills_the_hero(tmp_path: Path) -> None:
    """facts 1.7: "When the total of the Poison cards reaches or passes the hero's *starting*
    health, the hero dies at once." The elf starts with 6: five cards leave it, a sixth kills
    it whatever its health."""
    folder = _session(tmp_path)
    out = play_lines(folder, ["poison elf +5", "status", "poison elf +1", "quit"])
    assert "poison 5" in out
    assert "The heroes have fallen" in out


def test_status_shows_the_hero_board_with_platinum_and_kills(tmp_path: Path) -> None:
    """Components: "Platinum x10 (1 platinum = 5 gold)"; facts 2.1: "A killed monster's disc
    goes onto the killing hero's board". `gold elf +1p` adds 5 gold; the board lists the
    kills and the Poison cards against the starting health."""
    folder = _session(tmp_path)
    out = play_lines(folder, ["gold elf +1p", "gold elf +2", "poison elf +1",
                         "hit rat-1 melee by elf", "status", "quit"])
    assert "elf: health 6 of 6, gold 7 (1 platinum + 2), 1 Poison card (dies at 6), " \
           "items 0, kills: rat-1" in out


def test_no_fear_rush_without_damage(catalog: Catalog) -> None:
    """facts 1.7: "Fear (white): an attacker who *damages* a target with it may immediately
    make one unmodified rush shot": a shadow monster takes no damage, so no rush."""
    spec = catalog.monsters["phantom"]
    piece = monster(catalog, "phantom", health=None)
    out = resolve(HeroShot("melee", frozenset({"fear"})), piece, spec)
    assert not any("rush shot" in line for line in out.lines)


def test_no_kills_on_the_board_in_the_lord_fight(catalog: Catalog) -> None:
    """facts 2.1: "A killed monster's disc goes onto the killing hero's board, except in the
    Lord fight.\""""
    from automa.model.board import board_of

    elf = Piece("elf", "heroes", "hero", (0.0, 0.0), 1.0, health=3)
    out = {"rat-1": "killed by elf", "rat-2": "dead"}
    assert board_of(elf, out).kills == ("rat-1",)
    assert board_of(elf, out, lord_fight=True).kills == ()


def test_status_json_carries_the_boards(tmp_path: Path) -> None:
    """`automa status --json` adds each hero's board beside the pieces."""
    folder = _session(tmp_path)
    play_lines(folder, ["hit rat-1 melee by elf", "quit"])
    result = CliRunner().invoke(cli, ["status", "--session", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    board = json.loads(result.stdout)["boards"]["elf"]
    assert board["kills"] == ["rat-1"] and board["starting_health"] == 6


def test_a_card_is_used_once_in_a_room(tmp_path: Path) -> None:
    """facts 1.8: "A once-per-room box (Ability cards, items) is used at the player's choice,
    then the card is flipped and refreshed in the next Setup Phase. A once-per-game box
    (Spells, items) is discarded after use." A second use in the room is refused; the board
    lists the cards used."""
    folder = _session(tmp_path)
    out = play_lines(folder, ["used elf elven-arrow room", "used elf fireball spell game",
                         "used elf elven-arrow room", "used elf orb week", "used mino x room",
                         "status", "quit"])
    assert "flip the card" in out and "discard the card" in out
    assert "already used elven-arrow in this room" in out
    assert "once per room or per game, not 'week'" in out and "not one of the heroes" in out
    assert "used: elven-arrow (room), fireball spell (game)" in out
    assert [e["type"] for e in logged_inputs(folder)] == ["used", "used"]


def test_a_heros_devour_shot_devours_one(catalog: Catalog) -> None:
    """facts 1.6: "Devour. The target takes 1 damage. If still alive, it goes onto the Devoured
    card ... If several are hit, all take damage but only one is devoured (the shooter
    chooses)." A Lord "cannot be frozen or devoured"."""
    battle = battle_of(catalog, ai("a", "remorhaz", 40.0), ai("b", "remorhaz", 50.0))
    after, _ = hit(catalog, battle, ["a", "b"], "devour")
    assert "devoured" in after.piece("a").conditions and after.piece("a").health == 3
    assert not after.piece("b").conditions and after.piece("b").health == 3
    after, lines = hit(catalog, lord(catalog), ["lord"], "devour")
    assert not after.piece("lord").conditions and after.piece("lord").health == 7
    assert "immune to devour" in lines[0]


def test_the_overseer_wins_when_no_hero_can_act() -> None:
    """"The Overseer wins as soon as all four heroes are dead or unable to act, for example all
    devoured"; a teleported hero comes back "in the next round", so the battle goes on."""
    from automa.rules.battle_end import overseer_won

    elf = Piece("elf", "heroes", "hero", (10.0, 10.0), 1.25, health=5)
    rat = Piece("rat-1", "ai", "monster", (20.0, 20.0), 1.25, health=1)
    assert overseer_won([elf, rat]) is None
    assert overseer_won([replace(elf, conditions=frozenset({"teleported"})), rat]) is None
    assert "Devoured!" in str(overseer_won([replace(elf, conditions=frozenset({"devoured"})),
                                            rat]))
    assert overseer_won([rat]) == "no hero is left alive"


# --- chain's last damaged piece, the fire wall, neutral pieces --------------------------------

def test_chain_does_not_damage_the_last_damaged_piece_again(catalog: Catalog) -> None:
    """facts 1.7: "Chain (yellow): the same target cannot be damaged twice in a row within one
    sequence; the extra damage is ignored." """
    spec = catalog.monsters["minotaur"]
    piece = monster(catalog, "minotaur", health=2)
    chain = HeroShot("melee", frozenset({"chain"}))
    assert resolve(chain, piece, spec).damage == 1  # not damaged by the previous shot
    again = resolve(replace(chain, last_damaged=True), piece, spec)
    assert again.damage == 0 and "cannot be damaged twice in a row" in again.lines[-1]
    # an unmodified shot is not held back: only chain forbids it
    assert resolve(HeroShot("melee", last_damaged=True), piece, spec).damage == 1
    # "When attacking monsters from the Wraith Knight (black) family ... also ignore the
    # effects of the chain modifier."
    knight = replace(piece, family="wraith-knight")
    assert resolve(replace(chain, last_damaged=True, vulnerabilities=True), knight,
                   spec).damage == 1


def test_play_chain_remembers_the_hero_s_last_damaged_piece(tmp_path: Path) -> None:
    """facts 1.7: "the same target cannot be damaged twice in a row within one sequence". The
    elf's melee damaged the Minotaur: its chain melee on it next does nothing, logged with the
    piece it remembered; the rat, not damaged just before, is hit; the next turn starts fresh."""
    folder = _session(tmp_path)
    out = play_lines(folder, ["hit mino melee by elf", "hit mino melee+chain by elf",
                              "status", "quit"])
    assert "is the last piece this hero damaged in this sequence" in out
    events = logged_inputs(folder)
    assert events[1]["last_damaged"] == ["mino"]
    assert "last_damaged" not in events[0]
    session_out = play_lines(folder, ["status", "quit"])  # replayed: the mino has 1 health
    assert "mino" in session_out
    from automa.catalog.load import load_catalog
    from automa.session.store import Session

    state = Session.open(folder, load_catalog()).state
    assert state.battle.piece("mino").health == 1
    # the previous hit damaged the mino, not the rat: a chain on the rat kills it
    play_lines(folder, ["hit rat-1 melee+chain by elf", "quit"])
    assert "last_damaged" not in logged_inputs(folder)[-1]  # the chain before damaged nothing
    assert Session.open(folder, load_catalog()).state.battle.get("rat-1") is None


@pytest.mark.parametrize(("piece_id", "spec_id", "vulnerabilities", "damage"), [
    ("sk", "skeleton-warrior", "on", 1),  # Undead, vulnerabilities on: 1 damage
    ("sk", "skeleton-warrior", "off", 0),  # off: a fire wall hurts only heroes
    ("mino", "minotaur", "on", 0),  # not Undead
])
def test_fire_wall_on_undead(catalog: Catalog, piece_id: str, spec_id: str,
                             vulnerabilities: str, damage: int) -> None:
    """facts 1.9: "Undead (gray): ... they take 1 damage when they hit, or are pushed into,
    fire walls or fire obstacles." (Monster Vulnerabilities, ruling 50); facts 1.6: "Any hero
    touching it, directly or indirectly, takes 1 damage." """
    battle = battle_of(catalog, ai(piece_id, spec_id))
    after, lines = hit(catalog, battle, [piece_id], "fire-wall",
                       {"monster-vulnerabilities": vulnerabilities})
    health = catalog.monsters[spec_id].health or 0
    left = after.get(piece_id)
    assert (health - (left.health or 0) if left else health) == damage, lines
    assert ("fire wall does 1 damage" in lines[0]) == bool(damage)


def test_a_neutral_wild_wyvern_can_be_hit(catalog: Catalog) -> None:
    """A piece under neither side's control (the rulebook's "wild wyvern", "available to ride")
    is on the mat and can be struck by a hero's shot like any other."""
    wyvern = ('[[piece]]\nid = "wyvern"\nside = "neutral"\nkind = "wild-wyvern"\n'
              'name = "Wild Wyvern"\nat = [45.0, 70.0]\nradius = 2.0\nhealth = 3\n')
    battle = battle_of(catalog, wyvern)
    after, lines = hit(catalog, battle, ["wyvern"], "melee+critical", by="elf")
    assert after.piece("wyvern").health == 1, lines
    untracked = battle_of(catalog, wyvern.replace("health = 3\n", ""))
    after, lines = hit(catalog, untracked, ["wyvern"], "melee")
    assert after.piece("wyvern").health is None and "no health track" in lines[0]
    with pytest.raises(InputError, match="no AI or neutral piece 'elf'"):
        hit(catalog, battle, ["elf"], "melee")


def test_dungeon_family_unmodified_missile_is_critical(catalog: Catalog) -> None:
    """facts 1.9: "Dungeon (green): a hero's unmodified missile counts as critical." (Monster
    Vulnerabilities, ruling 50): the troll's 2 health go at once; a modified missile or the
    switch off does the base 1."""
    battle = battle_of(catalog, ai("troll", "troll"))
    on = {"monster-vulnerabilities": "on"}
    after, lines = hit(catalog, battle, ["troll"], "missile", on)
    assert after.get("troll") is None and "counts as critical" in lines[0]
    assert hit(catalog, battle, ["troll"], "missile")[0].piece("troll").health == 1
    assert hit(catalog, battle, ["troll"], "melee", on)[0].piece("troll").health == 1


# --- Ulom's claw (Red Box l.316, ruling 68) ---------------------------------------------------

ULOM = '[[piece]]\nid = "ulom"\nside = "heroes"\nat = [10.0, 30.0]\nhealth = 5\n' \
       'starting_health = 6\n[[piece]]\nid = "ulom-claw"\nside = "heroes"\nat = [13.0, 30.0]\n' \
       'part_of = "ulom"\n'


def test_the_claw_does_one_damage_to_each_enemy_it_hits(catalog: Catalog) -> None:
    """l.316: "Then his claw piece is flicked. If it hits one or more enemies, it inflicts one
    point of damage to each of them": both Trolls lose 1; a Lord takes it too."""
    battle = battle_of(catalog, ULOM, ai("a", "troll", 40.0), ai("b", "troll", 50.0))
    after, lines = hit(catalog, battle, ["a", "b"], "claw", by="ulom")
    assert (after.piece("a").health, after.piece("b").health) == (1, 1)
    assert all("Ulom's claw: 1 damage (ruling 68" in line for line in lines)
    assert base_damage(HeroShot("claw")) == 1
    assert hit(catalog, lord(catalog), ["lord"], "claw")[0].piece("lord").health == 7


def test_no_box_or_vulnerability_acts_on_the_claw(catalog: Catalog) -> None:
    """Ruling 68: the boxes name shot types (facts 1.8: "the listed shot types do no damage"),
    the vulnerabilities a hero's melee, missile, fireball or ice (facts 1.9): the claw is none of
    them. A card that nullified or reflected melee, a Zombie's melee-as-critical, a
    Mythological melee's regeneration, an extra-small Vermin's fear: none touches the claw."""
    orc = monster(catalog, "orc", health=3)
    for box in ("nullifies", "reflects"):
        spec = replace(catalog.monsters["orc"], **{box: (ShotName.MELEE,)})
        assert resolve(HeroShot("melee"), orc, spec).damage == 0
        out = resolve(HeroShot("claw"), orc, spec)
        assert (out.damage, out.reflected) == (1, 0)
    zombie = replace(orc, family="zombie")
    assert resolve(HeroShot("melee", vulnerabilities=True), zombie, None).damage == 2
    assert resolve(HeroShot("claw", vulnerabilities=True), zombie, None).damage == 1
    mino = monster(catalog, "minotaur", health=2)
    assert resolve(HeroShot("claw", vulnerabilities=True), mino, None).heal_attacker == 0
    rat = monster(catalog, "sewer-rat", health=2)
    out = resolve(HeroShot("claw", vulnerabilities=True), rat, catalog.monsters["sewer-rat"])
    assert not any("fear" in line for line in out.lines)


def test_the_claw_spares_what_nothing_damages(catalog: Catalog) -> None:
    """An Antient is immune to every shot (facts 2.4), a frozen piece "cannot be damaged"
    (facts 1.6), a shadow monster is destroyed only when pushed off (facts 2.1)."""
    spec = catalog.monsters["flame-antient"]
    antient = Piece("an", "ai", "antient", (0.0, 0.0), 1.0, monster=spec.id)
    assert resolve(HeroShot("claw"), antient, spec).damage == 0
    frozen = monster(catalog, "orc", conditions=frozenset({"frozen"}))
    assert resolve(HeroShot("claw"), frozen, None).damage == 0
    assert resolve(HeroShot("claw"), monster(catalog, "orc", health=None), None).damage == 0


def test_the_claw_takes_no_modifier(catalog: Catalog) -> None:
    battle = battle_of(catalog, ai("a", "troll", 40.0))
    with pytest.raises(InputError, match=r"^claw takes no modifier: `hit ID claw`$"):
        hit(catalog, battle, ["a"], "claw+critical")


def test_play_claw_hits_with_the_vulnerabilities_on(tmp_path: Path) -> None:
    """Through `automa play`, Monster Vulnerabilities on: `hit rat-1, mino claw by ulom` does 1
    to each (the Minotaur keeps 1 of 2, Ulom is not healed as a melee on a Mythological
    monster would heal him); `claw+critical` is refused; logged as one `hit`, replayed."""
    folder = new_session(tmp_path, HEAD + '[rulings]\nmonster-vulnerabilities = "on"\n' + ELF
                         + ULOM + ai("rat-1", "sewer-rat", 30.0) + ai("mino", "minotaur", 50.0)
                         + "[chance]\nseed = 1\n" + OPEN_MAT)
    out = play_lines(folder, ["hit mino claw+critical by ulom", "hit rat-1, mino claw by ulom",
                              "status", "quit"])
    flat = " ".join(out.split())  # the printout wraps its lines
    assert "claw takes no modifier" in flat
    assert "Sewer Rat: Ulom's claw: 1 damage (ruling 68: no card box or vulnerability acts on " \
           "it); it dies" in flat
    assert "Minotaur: Ulom's claw: 1 damage (ruling 68: no card box or vulnerability acts on " \
           "it); 1 health left" in flat
    assert "regeneration" not in flat and "counts as" not in flat
    assert logged_inputs(folder) == [{"type": "hit", "targets": ["rat-1", "mino"],
                                      "shot": "claw", "by": "ulom"}]
    status = play_lines(folder, ["status", "quit"])
    assert "ulom               ( 10.0,  30.0) health 5" in status
    assert "mino               ( 50.0,  60.0) health 1" in status
