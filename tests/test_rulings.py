"""The registry of rulings: every ruling the engine applies is registered, marked where it fires
(`* ruling N` in the printout, `rulings` in the JSON), documented in docs/rulings.md, and every
switch really switches."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.engine.battle import StepLog
from automa.engine.turn import TurnResult, run_turn
from automa.errors import ScenarioError
from automa.render.text import ruling_text
from automa.rules.rulings import BY_KEY, BY_NUMBER, RULINGS, SWITCHES, RulingKey, key_of
from automa.rules.rulings_doc import rulings_markdown
from tests.conftest import scenario_from
from tests.regenerate_playthroughs import run_scenario, scenario_files
from tests.test_engine import HEAD, piece

ROOT = Path(__file__).resolve().parents[1]
APPLIED_BY_WORD = re.compile(r"""\b(?:ruling|option|cite)\((?:[\w.]+, )?["'][a-z][a-z0-9-]*["']""")


def test_numbers_run_from_one_without_gaps() -> None:
    assert [r.number for r in RULINGS] == list(range(1, len(RULINGS) + 1))
    assert len(BY_KEY) == len(RULINGS)


def test_every_key_names_one_ruling_in_the_registry_order() -> None:
    """`RulingKey` and the registry list the same rulings: a key without a record (or a record
    without a key) is caught here, a misspelt key by mypy."""
    assert [r.key for r in RULINGS] == list(RulingKey)
    assert all(isinstance(r.key, RulingKey) for r in RULINGS)


def test_the_engine_names_rulings_by_their_key_not_by_a_word() -> None:
    """`log.ruling`, `table.option`, `option` and `cite` take a `RulingKey` member: a bare word
    there would escape the type check."""
    found = [f"{path.relative_to(ROOT)}: {hit}" for path in (ROOT / "automa").rglob("*.py")
             for hit in APPLIED_BY_WORD.findall(path.read_text(encoding="utf-8"))]
    assert found == []
    assert "house_rule(" not in "".join(p.read_text(encoding="utf-8")
                                       for p in (ROOT / "automa").rglob("*.py"))


def test_every_switch_is_read_by_the_engine() -> None:
    sources = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "automa").rglob("*.py"))
    for key in SWITCHES:  # `table.option(RulingKey.KEY)` or `option(rulings, RulingKey.KEY)`
        assert re.search(rf"option\((?:[\w.]+, )?RulingKey\.{key.name}\)", sources), \
            f"the switch {key!r} is never read"


def test_a_scenario_names_a_switch_by_its_word(catalog: Catalog) -> None:
    """`[rulings]` takes the ruling's word; the loaded settings hold the key itself."""
    assert key_of("ice-push") is RulingKey.ICE_PUSH
    assert key_of("ice_push") is None and key_of("ice-pushh") is None
    scenario = scenario_from(HEAD + '[rulings]\nice-push = "no-push"\n'
                             + piece("elf", "heroes", (30, 30), health=5), catalog)
    assert [(type(k), k) for k in scenario.settings.rulings] == [(RulingKey, "ice-push")]


def test_docs_are_generated_from_the_registry() -> None:
    written = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    assert written == rulings_markdown(), (
        "docs/rulings.md is out of date: run `python -m automa.rules.rulings_doc > "
        "docs/rulings.md`")


def printed_marks(printout: str) -> list[list[int]]:
    """The ruling numbers printed with `*` under each activation, in order."""
    blocks: list[list[int]] = []
    for line in printout.splitlines():
        if re.match(r"^\d+\. ", line):
            blocks.append([])
        found = re.match(r"^\s+\* ruling (\d+):", line)
        if found:
            blocks[-1].append(int(found.group(1)))
    return blocks


SCENARIOS = scenario_files()


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_ruling_that_fires_is_marked(path: Path) -> None:
    """The printout's `*` lines and the JSON's `rulings` name the same rulings, activation by
    activation, and each names a registered ruling."""
    text, as_json = run_scenario(path), run_scenario(path, as_json=True)
    if text.exit_code != 0:
        pytest.skip("refused scenario")
    listed = [a["rulings"] for a in json.loads(as_json.stdout)["activations"]]
    assert printed_marks(text.stdout) == listed
    assert all(n in BY_NUMBER for numbers in listed for n in numbers)
    assert all(len(set(numbers)) == len(numbers) for numbers in listed), \
        "each ruling is marked once an activation"


def test_a_ruling_is_marked_once_an_activation_its_details_in_order() -> None:
    """A ruling deciding several things in one activation keeps one mark, whose text says
    each thing once, in the order it was decided; a mark without a detail says the title."""
    log = StepLog()
    log.ruling(RulingKey.HOUSE_ROWS, "the orange row of the behaviour table is ours")
    log.ruling(RulingKey.CLOSEST_EDGE)
    log.ruling(RulingKey.HOUSE_ROWS, "its Primary column is ours")
    log.ruling(RulingKey.HOUSE_ROWS, "the orange row of the behaviour table is ours")
    assert [ruling_text(f) for f in log.rulings] == [
        "ruling 13: the orange row of the behaviour table is ours; its Primary column is ours",
        "ruling 7: Distances are edge to edge"]


def test_the_playthroughs_fire_many_rulings() -> None:
    fired = {n for path in SCENARIOS if (run := run_scenario(path, as_json=True)).exit_code == 0
             for a in json.loads(run.stdout)["activations"] for n in a["rulings"]}
    assert len(fired) >= 14, sorted(fired)


def test_a_misspelt_or_impossible_switch_is_one_line(catalog: Catalog) -> None:
    for table, expected in (('ice-pushh = "push"', "not a switchable ruling"),
                            ('ice-push = "sometimes"', "takes one of 'push', 'no-push'"),
                            ('los-test = "corridor"', "[battle] los_test")):
        with pytest.raises(ScenarioError, match=re.escape(expected)):
            scenario_from(HEAD + f"[rulings]\n{table}\n"
                          + piece("elf", "heroes", (30, 30), health=5), catalog)


def test_rulings_command_lists_and_shows() -> None:
    listed = CliRunner().invoke(cli, ["rulings"])
    assert listed.exit_code == 0 and "20. Ice and the push" in listed.output
    shown = CliRunner().invoke(cli, ["rulings", "37", "--json"])
    assert json.loads(shown.output)["rulings"][0]["options"] == ["d12", "card"]
    assert json.loads(shown.output)["rulings"][0]["marked"] == ["turn"]
    assert CliRunner().invoke(cli, ["rulings", "0"]).exit_code == 2


# Each switch changes what the engine does ---------------------------------------------------


def _turn(catalog: Catalog, body: str, rulings: str = "", seed: int = 1) -> TurnResult:
    head = HEAD + (f"[rulings]\n{rulings}\n" if rulings else "")
    return run_turn(scenario_from(head + body, catalog), catalog, seed)


def _numbers(result: TurnResult, index: int = 0) -> list[int]:
    return [r.number for r in result.activations[index].rulings]


def test_least_gold_picks_a_hero_before_a_familiar(catalog: Catalog) -> None:
    """Black row Primary "least gold": a familiar has no purse, so a hero with 3 gold is picked
    before it (ruling 40); counted as 0 gold, the familiar would be picked."""
    body = piece("elf", "heroes", (20, 40), health=5, gold=3) \
        + piece("owl", "heroes", (40, 40), kind="familiar", health=2) \
        + piece("wraith", "ai", (30, 60), family="wraith-knight", level=1, health=2,
                sequences=["melee"])
    ours = _turn(catalog, body)
    assert ours.activations[0].target == "elf" and 40 in _numbers(ours)
    literal = _turn(catalog, body, 'non-hero-wealth = "count-zero"')
    assert literal.activations[0].target == "owl" and 40 in _numbers(literal)


def test_several_preferred_sequences_first_or_d12(catalog: Catalog) -> None:
    """Brown prefers poison; with two poison sequences, ruling 15: the first, or the D12."""
    body = piece("elf", "heroes", (20, 30), health=5) \
        + piece("rat", "ai", (20, 40), monster="sewer-rat",
                sequences=["melee+poison", "rush then melee+poison"]) \
        + "[chance]\nd12 = [12, 6]\ntokens = { 2 = [\"0\"] }\n"
    first = _turn(catalog, body)
    assert first.activations[0].sequence == ("melee+poison",) and 15 in _numbers(first)
    rolled = _turn(catalog, body, 'preferred-sequence = "d12"')
    assert rolled.activations[0].sequence == ("rush", "melee+poison")
    assert "D12 12" in rolled.activations[0].sequence_reason


def test_frozen_hero_is_not_damaged_unless_switched(catalog: Catalog) -> None:
    body = piece("elf", "heroes", (20, 30), health=5, conditions=["frozen"]) \
        + piece("rat", "ai", (20, 35), monster="sewer-rat", sequences=["melee"]) \
        + "[chance]\nd12 = [6]\ntokens = { 1 = [\"2\"] }\n"
    spared = _turn(catalog, body)
    assert spared.battle.piece("elf").health == 5 and 39 in _numbers(spared)
    hurt = _turn(catalog, body, 'frozen-hero = "damage"')
    assert hurt.battle.piece("elf").health == 3 and 39 in _numbers(hurt)


def test_clock_edge_reading_switches_the_template_side(catalog: Catalog) -> None:
    """A hero 3 cm from the mat edge: the 6 cm Clock template overhangs (reverse side), but the
    disc does not touch the edge (front side under the other reading)."""
    body = piece("elf", "heroes", (3.0, 40), health=5) \
        + piece("rat", "ai", (3.0, 45), monster="sewer-rat", sequences=["melee"]) \
        + "[chance]\nd12 = [6]\ntokens = { 1 = [\"1\"] }\n"

    def side(result: TurnResult) -> str:
        roll = next(s for s in result.activations[0].steps
                    if s.kind == "roll" and "push" in s.why)  # type: ignore[union-attr]
        return roll.result.split()[0]  # type: ignore[union-attr]

    ours = _turn(catalog, body)
    assert side(ours) == "reverse" and 9 in _numbers(ours)
    touching = _turn(catalog, body, 'clock-edge = "touching"')
    assert side(touching) == "front" and 9 in _numbers(touching)


def test_repeat_friend_nearest_or_by_columns(catalog: Catalog) -> None:
    """Ruling 24: the repeat picks the nearest friend; read through the row's columns the
    lizard man's row decides instead (the Green row's Primary, most health, picks the far rat
    with 3 health over the near one with 1)."""
    body = piece("elf", "heroes", (30, 10), health=5) \
        + piece("lizard", "ai", (30, 60), monster="lizard-man", sequences=["repeat"]) \
        + piece("near", "ai", (36, 60), monster="sewer-rat", health=1, conditions=["stunned"]) \
        + piece("far", "ai", (30, 70), monster="sewer-rat", health=3, conditions=["stunned"])
    ours = _turn(catalog, body)
    lizard = next(a for a in ours.activations if a.character == "lizard")
    assert lizard.repeat == "near" and 24 in [r.number for r in lizard.rulings]
    by_columns = _turn(catalog, body, 'repeat = "columns"')
    lizard = next(a for a in by_columns.activations if a.character == "lizard")
    assert lizard.repeat == "far"


def _boulder(tokens: str) -> str:
    return (piece("knight", "heroes", (15, 40), health=8)
            + piece("giant", "ai", (15, 70), name="Stone Giant", family="mythological", level=3,
                    health=2, sequences=["boulder"])
            + f"[chance]\nd12 = [12]\ntokens = {{ 3 = [{tokens}] }}\n")


def test_boulder_with_one_zero_misses_or_keeps_the_other_damage(catalog: Catalog) -> None:
    """Ruling 17: one zero and the boulder misses entirely; read the other way, the non-zero
    token's damage stands (and there is no push)."""
    ours = _turn(catalog, _boulder('"0", "3"'))
    assert ours.battle.piece("knight").health == 8 and 17 in _numbers(ours)
    summed = _turn(catalog, _boulder('"0", "3"'), 'boulder-zero = "sum"')
    assert summed.battle.piece("knight").health == 5
    assert "move" not in [s.kind for s in summed.activations[0].steps]


def test_reset_returns_its_own_level_or_every_level(catalog: Catalog) -> None:
    """Ruling 18: a reset returns its own level's discard pile; read the other way, every
    level's pile goes back too."""
    level_one = [t.label() for t in catalog.components.bags[1]]
    bag = ", ".join(f'"{t}"' for t in level_one[2:])
    pile = ", ".join(f'"{t}"' for t in level_one[:2])
    body = _boulder('"3R", "4"') + f"[bags.1]\ntokens = [{bag}]\ndiscard = [{pile}]\n"
    ours = _turn(catalog, body)
    assert len(ours.battle.bags[1].discard) == 2 and 18 in _numbers(ours)
    every = _turn(catalog, body, 'reset-scope = "all-levels"')
    assert every.battle.bags[1].discard == ()
    assert len(every.battle.bags[1].tokens) == len(level_one)
