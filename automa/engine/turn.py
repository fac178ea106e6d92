"""One full AI turn: every AI character acts once, in the order the tiles give."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from automa.catalog.load import Catalog
from automa.engine.activation import Activation, activate
from automa.engine.battle import Battle, Table
from automa.engine.chance import Chance, Outcome
from automa.errors import RulesError
from automa.geometry.table import build_table
from automa.model.scenario import Scenario
from automa.rules.tiles import next_to_act

MAX_ACTIVATIONS = 200
REPEAT_REASON = "repeat shot"


@dataclass(frozen=True)
class TurnResult:
    round: int
    seed: int
    activations: tuple[Activation, ...]
    battle: Battle
    outcomes: tuple[Outcome, ...]
    after: Scenario  # the scenario to save: positions, health, bags, round + 1
    before: Scenario


def resolve_seed(scenario: Scenario, seed: int | None) -> int:
    """--seed wins, then the scenario's [chance] seed, then fresh entropy (reported in output)."""
    if seed is not None:
        return seed
    if scenario.chance.seed is not None:
        return scenario.chance.seed
    return int(np.random.SeedSequence().generate_state(1)[0])


def run_turn(scenario: Scenario, catalog: Catalog, seed: int | None = None) -> TurnResult:
    used_seed = resolve_seed(scenario, seed)
    rng = np.random.default_rng(used_seed)
    components = catalog.components
    chance = Chance(scenario.chance, rng, components.rune_die, components.location_die)
    table = Table(scenario, catalog, build_table(scenario.playmat), chance)
    battle = Battle(scenario.pieces, scenario.bags, scenario.out)
    activations: list[Activation] = []
    acted: set[str] = set()
    queue: list[tuple[str, str]] = []
    while True:
        if len(activations) > MAX_ACTIVATIONS:
            raise RulesError(f"the AI turn did not end after {MAX_ACTIVATIONS} activations "
                             f"(summons summoning without end?); check the sequences")
        if queue:
            actor_id, reason = queue.pop(0)
            if battle.get(actor_id) is None:
                continue
        else:
            waiting = [p for p in battle.pieces if p.side == "ai" and p.id not in acted
                       and "devoured" not in p.conditions]
            if not waiting:
                break
            actor, reason = next_to_act(waiting, scenario.tiles)
            actor_id = actor.id
        repeated = reason.startswith(REPEAT_REASON)
        battle, activation = activate(table, battle, actor_id, reason, repeated)
        activations.append(activation)
        acted.add(actor_id)
        follow = [(s, "summoned: acts at once") for s in activation.summoned]
        if activation.repeat:
            follow.append((activation.repeat, f"{REPEAT_REASON} of {activation.label}"))
        queue = follow + queue
    next_seed = int(rng.integers(2**31))
    after = replace(scenario, round=scenario.round + 1, pieces=battle.pieces, bags=battle.bags,
                    out=battle.out, chance=chance.remaining_script(next_seed))
    return TurnResult(scenario.round, used_seed, tuple(activations), battle,
                      tuple(chance.record), after, scenario)
