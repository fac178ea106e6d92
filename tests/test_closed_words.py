"""The closed sets of words the rules speak (sides, kinds, families, tiles, shots, modifiers,
provenances, modes, ruling keys) are enums, so mypy catches a misspelt one: the records hold
their members, the members read as their words in every printout, and no comparison in
automa/ spells one of these words as a bare string again."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from enum import Enum
from pathlib import Path

from automa.catalog.load import Catalog
from automa.engine.judge import GeometryMode
from automa.model.components import CharacterTile, DirectionTile, Family
from automa.model.modes import DiceMode, KrakenTie, LosTest
from automa.model.pieces import Condition, Kind, Side
from automa.model.provenance import Provenance
from automa.model.shots import ModifierName, ShotName
from automa.rules.rulings import RulingKey
from automa.scenario.load import load_scenario
from automa.session.state import Phase
from tests.conftest import scenario_from
from tests.test_engine import HEAD, piece

ROOT = Path(__file__).resolve().parents[1]
ENUMS: tuple[type[Enum], ...] = (
    Side, Kind, Condition, Family, CharacterTile, DirectionTile, ShotName, ModifierName,
    Provenance, DiceMode, LosTest, KrakenTie, GeometryMode, RulingKey, Phase)
WORDS = {str(member.value) for enum in ENUMS for member in enum}

# Comparisons with a word of another vocabulary that happens to be spelt as one of these, by
# file and the comparison as `ast.unparse` writes it. Each says which vocabulary it is; an
# entry no longer found fails the test too, so the list never outlives its reason.
ALLOWED = {
    ("automa/campaign/cave.py", "data.get('type') != 'kraken'"):
        "a campaign log line's step type, not a Kraken tie",
    ("automa/catalog/load.py", "'kraken' in tables"):
        "the [kraken] table of components.toml",
    ("automa/engine/shots.py", "result == 'teleported'"):
        "a Portal Trap result of the PORTAL_TRAP table, not a condition",
    ("automa/engine/shots.py", "result == 'random-rune'"):
        "a Portal Trap result, not the ruling random-rune",
    ("automa/render/campaign_out.py", "k not in ('type', 'heroes')"):
        "the keys of a step's JSON object",
    ("automa/render/overlays.py", "getattr(activation.steps[i], 'effect', None) == 'petrify'"):
        "an effect step's word (engine/shots.py writes it), not the modifier",
    ("automa/render/svg.py", "zone == 'hero'"):
        "the Hero Start Zone of the picture's two zones, not a kind",
    ("automa/rules/sequences.py", "preference == 'repeat'"):
        "a behaviour row's shot preference, not the shot itself",
    ("automa/rules/targeting.py", "criterion == 'most-poison'"):
        "a behaviour column's criterion, not the ruling most-poison",
    ("automa/session/words.py", "word == 'summon'"):
        "the play loop's command word `summon`, not the shot",
}


def _words_in(node: ast.expr) -> set[str]:
    """The string constants of one side of a comparison: a constant, or a literal tuple, list
    or set of them (`kind in ("monster", "antient")`)."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return {e.value for e in items if isinstance(e, ast.Constant) and isinstance(e.value, str)}


def bare_words(source: str) -> Iterator[tuple[str, set[str]]]:
    """Each comparison (or `case`) in `source` that spells a closed-set word as a string."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            found = set().union(*map(_words_in, [node.left, *node.comparators])) & WORDS
            if found:
                yield ast.unparse(node), found
        elif isinstance(node, ast.MatchValue) and (found := _words_in(node.value) & WORDS):
            yield ast.unparse(node.value), found


def test_the_scan_sees_a_bare_word_and_not_a_member() -> None:
    code = ("if p.kind == 'catacomb-lord' or 'frozen' in p.conditions: pass\n"
            "if shot.name in ('rush', 'open-portal'): pass\n"
            "match side:\n    case 'heroes': pass\n"
            "if p.kind == Kind.CATACOMB_LORD and p.name == 'Rat': pass\n")
    assert sorted(sorted(words) for _, words in bare_words(code)) == [
        ["catacomb-lord"], ["frozen"], ["heroes"], ["open-portal", "rush"]]


def test_no_comparison_spells_a_closed_word_as_a_bare_string() -> None:
    found = {(str(path.relative_to(ROOT)), text): words
             for path in sorted((ROOT / "automa").rglob("*.py"))
             for text, words in bare_words(path.read_text(encoding="utf-8"))}
    assert found, "the scan found nothing at all: the allowed exceptions are gone too"
    unexplained = {where: words for where, words in found.items() if where not in ALLOWED}
    assert unexplained == {}, "compare with the enum's member (Kind.HERO, not 'hero')"
    assert set(ALLOWED) <= set(found), f"allowed but gone: {sorted(set(ALLOWED) - set(found))}"


def test_a_member_reads_as_its_word_in_every_printout() -> None:
    """f-strings, str(), JSON and repr (a message's `!r`, a list shown whole) as the plain
    words the records held before."""
    members = [Kind.CATACOMB_LORD, Family.WRAITH_KNIGHT, Condition.FROZEN, ShotName.MELEE,
               ModifierName.POISON, Provenance.HOUSE, DiceMode.PHYSICAL, LosTest.ANY_LINE,
               RulingKey.ICE_PUSH, DirectionTile.MSZ_TO_HSZ]
    words = [m.value for m in members]
    assert [f"{m}" for m in members] == [str(m) for m in members] == words
    assert json.dumps(members) == json.dumps(words)
    assert repr(members) == repr(words) and f"{Kind.HERO!r}" == "'hero'"
    assert json.dumps({Side.AI: 1}) == '{"ai": 1}' and hash(Side.AI) == hash("ai")


def test_the_catalog_holds_members(catalog: Catalog) -> None:
    for monster in catalog.monsters.values():
        assert type(monster.kind) is Kind and type(monster.provenance) is Provenance
        assert monster.family is None or type(monster.family) is Family
        assert all(type(s) is ShotName for s in (*monster.nullifies, *monster.reflects,
                                                  *monster.named_shots))
        assert all(type(m) is ModifierName for m in monster.rotating_modifiers)
        for sequence in monster.sequences:
            assert all(type(s.name) is ShotName for s in sequence.shots)
            assert all(type(m.name) is ModifierName for s in sequence.shots
                       for m in s.modifiers)
    for row in catalog.behaviour.values():
        assert all(type(f) is Family for f in row.families)
    for effect in catalog.effects.values():
        assert type(effect.modifier) is ModifierName
        assert all(type(k) is Kind for k in effect.kinds)
    tiles = catalog.components.tiles
    assert all(type(t) is CharacterTile for t in tiles.character)
    assert all(type(f) is Family for f in (*tiles.monster, *tiles.colours))
    assert all(type(t) is DirectionTile for t in (*tiles.green, *tiles.blue))


def test_a_scenario_holds_members(catalog: Catalog) -> None:
    demo = load_scenario(ROOT / "examples" / "demo-battle.toml", catalog)
    assert {type(p.side) for p in demo.pieces} == {Side}
    assert {type(p.kind) for p in demo.pieces} == {Kind}
    assert {type(p.family) for p in demo.pieces if p.family is not None} == {Family}
    assert {type(t) for t in demo.tiles.character_order} == {CharacterTile}
    assert {type(f) for f in demo.tiles.monster_order} == {Family}
    assert {type(t) for t in demo.tiles.direction} == {DirectionTile}
    assert type(demo.settings.los_test) is LosTest
    frozen = scenario_from(HEAD + piece("elf", "heroes", (30, 30), health=5,
                                        conditions=["frozen", "stunned"]), catalog)
    assert {type(c) for c in frozen.pieces[0].conditions} == {Condition}
