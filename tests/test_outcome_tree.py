"""The forecast's tree of outcomes: a turn walked down the tree ends exactly as the same turn
played out with `run_turn` (the same Active Targets, the same battle to the last bit), on the
shipped examples, the fingerprint tables and every playthrough scenario (Lords summoning,
repeat shots, Direction-tile ties, pushes, deaths), whether the tree is roomy or full."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from msgspec.structs import replace

from automa.catalog.load import load_catalog
from automa.engine import outcome_tree
from automa.engine.activation import QUIET_LOG, QuietLog, Resume
from automa.engine.outcome_tree import Call, OutcomeTree, TracedChance, TurnEnd
from automa.engine.seeding import pcg64_states, set_pcg64
from automa.engine.turn import Pending, run_turn
from automa.errors import AutomaError
from automa.geometry.table import build_table
from automa.model.components import DamageToken
from automa.model.scenario import Bag, ChanceScript, Scenario
from automa.scenario.load import load_scenario, parse_scenario
from tests.fingerprint_tables import FINGERPRINT_TABLES, table_text

ROOT = Path(__file__).resolve().parents[1]
CATALOG = load_catalog()
SEEDS = [int(s) for s in np.random.SeedSequence(2026).generate_state(24)]


def scenarios() -> Iterator[tuple[str, Scenario]]:
    for path in sorted([*(ROOT / "examples").glob("*.toml"),
                        *(ROOT / "examples").glob("*/scenario.toml")]):
        yield str(path.relative_to(ROOT / "examples")), load_scenario(path, CATALOG)
    for spec in FINGERPRINT_TABLES:
        yield spec.name, parse_scenario(table_text(spec), f"{spec.name}.toml", CATALOG)
    for path in sorted((ROOT / "tests" / "playthroughs").glob("*.toml")):
        try:
            yield path.name, load_scenario(path, CATALOG)
        except AutomaError:  # a playthrough of a refused scenario: no turn to play
            continue


SCENARIOS = dict(scenarios())


def played_out(scenario: Scenario, seed: int) -> TurnEnd | type[AutomaError]:
    """The turn as `automa turn` plays it, in the form the tree gives (or the error raised)."""
    try:
        result = run_turn(scenario, CATALOG, seed)
    except AutomaError as error:
        return type(error)
    return TurnEnd(frozenset(a.target for a in result.activations if a.target is not None),
                   result.battle)


def walked(tree: OutcomeTree, seed: int) -> TurnEnd | type[AutomaError]:
    try:
        return tree.play(seed)
    except AutomaError as error:
        return type(error)


def unscripted(scenario: Scenario) -> Scenario:
    return replace(scenario, chance=ChanceScript())


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_turn_down_the_tree_ends_as_played_out(name: str) -> None:
    scenario = unscripted(SCENARIOS[name])
    tree = OutcomeTree(scenario, CATALOG, build_table(scenario.playmat))
    for seed in SEEDS * 2:  # the second pass walks what the first kept
        assert walked(tree, seed) == played_out(scenario, seed), f"seed {seed}"


def test_a_full_tree_still_plays_every_turn_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outcome_tree, "KEPT_NODES", 12)
    scenario = unscripted(SCENARIOS["demo-battle.toml"])
    tree = OutcomeTree(scenario, CATALOG, build_table(scenario.playmat))
    for seed in SEEDS:
        assert tree.play(seed) == played_out(scenario, seed)
    assert tree.nodes <= 12


def test_a_run_handed_its_seeded_state_plays_as_its_seed() -> None:
    """The forecast hands each run the state its seed gives the Generator (worked out for all
    runs at once) in place of the seed: the same turn, whatever the runs before it left in the
    reused Generator (a half-used 64-bit word among them)."""
    scenario = unscripted(SCENARIOS["demo-battle.toml"])
    tree = OutcomeTree(scenario, CATALOG, build_table(scenario.playmat))
    for seed, state in zip(SEEDS, pcg64_states(SEEDS), strict=True):
        assert tree.play(state) == played_out(scenario, seed), f"seed {seed}"
        assert tree.play(seed) == played_out(scenario, seed), f"seed {seed}"
    for seed in (2**32 + 5, 2**62 + 1):  # a seed beyond the forecast's 32-bit words
        assert tree.play(seed) == played_out(scenario, seed), f"seed {seed}"


def test_turns_share_what_they_have_in_common() -> None:
    """Activations already played from the same place with the same draws are not played
    again: over 400 demo turns about 60 % of the steps are played, and the share falls as the
    turns grow in number (a tree that never shared would play all of them)."""
    scenario = unscripted(SCENARIOS["demo-battle.toml"])
    tree = OutcomeTree(scenario, CATALOG, build_table(scenario.playmat))
    played = 0
    act = tree._act

    def counted(*args: object) -> object:
        nonlocal played
        played += 1
        return act(*args)  # type: ignore[arg-type]

    tree._act = counted  # type: ignore[method-assign]
    seeds = np.random.SeedSequence(1).generate_state(400)
    for seed in seeds:
        tree.play(int(seed))
    steps_per_turn = 6  # five monsters act, then the turn is found over
    assert played < 0.7 * steps_per_turn * len(seeds)


def test_places_reached_by_different_draws_are_shared() -> None:
    scenario = unscripted(SCENARIOS["demo-battle.toml"])
    tree = OutcomeTree(scenario, CATALOG, build_table(scenario.playmat))
    for seed in SEEDS:
        tree.play(seed)
    reached: list[int] = []

    def count(node: object) -> None:
        if isinstance(node, outcome_tree.Drawn):
            for below in node.below.values():
                count(below)
        elif isinstance(node, outcome_tree.Acted):
            reached.append(id(node.then))

    for place in [tree.start, *tree.places.values()]:
        count(place.next)
    assert len(set(reached)) < len(reached)  # some place is reached by two paths


def test_a_scripted_outcome_is_refused() -> None:
    scenario = replace(SCENARIOS["demo-battle.toml"], chance=ChanceScript(d12=(3,)))
    with pytest.raises(AutomaError, match="scripts some"):
        OutcomeTree(scenario, CATALOG, build_table(scenario.playmat))


def test_traced_chance_answers_the_given_draws_first_then_its_stream() -> None:
    chance = TracedChance(ChanceScript(), np.random.default_rng(0))
    set_pcg64(chance.rng, *pcg64_states([5])[0])  # the run's stream: seed 5
    chance.begin([4, (2, 0, 1)])
    assert chance.d12("first") == 5  # index 4 of 1..12
    assert chance.shuffle(["a", "b", "c"], "tiles") == ["c", "a", "b"]
    fresh = np.random.default_rng(5)
    assert chance.d12("third") == int(fresh.integers(12)) + 1  # now from the Generator itself
    assert [raw for _, raw in chance.calls] == [4, (2, 0, 1), chance.calls[2][1]]
    assert chance.calls[1][0] == Call(("a", "b", "c"), order=True)


def test_equal_tokens_drawn_from_a_bag_are_one_outcome() -> None:
    zero, one = DamageToken(0), DamageToken(1)
    call = Call(Bag((zero, one, zero)).tokens)
    assert call.outcome(0) == call.outcome(2) == zero
    assert call.outcome(1) == one
    assert Call(("x", "y"), order=True).outcome((1, 0)) == ("y", "x")


def _played(resume: Resume | None) -> object:
    """What a resumed sequence will do (its reason is text for the printout, which a quiet
    table does not make)."""
    return None if resume is None else (resume.shots, resume.target, resume.friendly)


def _queued(pending: Pending) -> object:
    return replace(pending, resume=None), _played(pending.resume)


def _stepped(scenario: Scenario, seed: int, quiet: bool) -> list[tuple[object, ...]]:
    """Every step of the turn on a quiet or a loud table: the battle after it and what the
    tree reads of the activation (or the error raised)."""
    from automa.engine.battle import Battle, Table
    from automa.engine.chance import Chance
    from automa.engine.turn import TurnProgress, step_turn

    components = CATALOG.components
    chance = Chance(scenario.chance, np.random.default_rng(seed), components.rune_die,
                    components.location_die)
    table = Table(scenario, CATALOG, build_table(scenario.playmat), chance, quiet=quiet)
    progress = TurnProgress(Battle(scenario.pieces, scenario.bags, scenario.out))
    steps: list[tuple[object, ...]] = []
    try:
        while (stepped := step_turn(table, progress)) is not None:
            progress, done = stepped
            steps.append((progress.battle.pieces, dict(progress.battle.bags),
                          dict(progress.battle.out), done.target, done.summoned, done.repeat,
                          _played(done.resume), tuple(map(_queued, progress.queue)),
                          str(chance.rng.bit_generator.state)))  # the same draws, no more
            if quiet:  # nothing said, and the one quiet log every activation shares kept nothing
                assert not (done.steps or done.explain or done.close_calls or done.rulings)
                assert QuietLog(explaining=False) == QUIET_LOG
    except AutomaError as error:
        steps.append((type(error),))
    return steps


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_quiet_table_plays_every_step_as_a_loud_one(name: str) -> None:
    """The forecast's runs say nothing (Table.quiet): each step ends in the same battle, with
    the same Active Target, summons, repeat and queue, as on the table `automa turn` uses."""
    scenario = SCENARIOS[name]
    if scenario.chance.d12 or scenario.chance.rune_die or scenario.chance.location_die \
            or scenario.chance.tokens:
        scenario = replace(scenario, chance=ChanceScript())
    for seed in SEEDS[:3]:
        assert _stepped(scenario, seed, quiet=True) == _stepped(scenario, seed, quiet=False)


def test_a_quiet_table_says_nothing_of_a_close_ranged_shot() -> None:
    """Both heroes just beyond Ruler 3 of the archer: the loud table notes the close calls,
    the quiet one neither notes nor measures differently."""
    scenario = SCENARIOS["16-target-shot-tile-in-range.toml"]
    archer = next(p for p in scenario.pieces if p.id == "archer-1")
    reach = archer.radius + 15.2  # Ruler 3 is 15 cm; close calls within 0.5 cm
    pieces = tuple(p.moved((archer.at[0] + (reach + p.radius) * (1 if p.id == "wizard" else -1),
                            archer.at[1])) if p.side == "heroes" else p
                   for p in scenario.pieces)
    scenario = replace(scenario, pieces=pieces, chance=ChanceScript())
    for seed in SEEDS[:3]:
        assert _stepped(scenario, seed, quiet=True) == _stepped(scenario, seed, quiet=False)


def test_a_quiet_table_asks_nobody() -> None:
    from automa.engine.battle import Table
    from automa.engine.chance import Chance
    from automa.engine.judge import Judge

    scenario = SCENARIOS["demo-battle.toml"]
    chance = Chance(scenario.chance, np.random.default_rng(0))
    with pytest.raises(ValueError, match="asks nobody"):
        Table(scenario, CATALOG, build_table(scenario.playmat), chance, Judge(mode="hybrid"),
              quiet=True)


def test_the_tree_plays_on_a_quiet_table() -> None:
    scenario = SCENARIOS["demo-battle.toml"]
    tree = OutcomeTree(scenario, CATALOG, build_table(scenario.playmat))
    tree.play(SEEDS[0])
    assert tree._table is not None and tree._table.quiet


