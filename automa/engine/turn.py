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
from automa.model.pieces import Piece
from automa.model.scenario import Scenario, Tiles
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


@dataclass(frozen=True)
class TurnProgress:
    """Where an AI turn stands: who has acted, who acts next by a repeat or a summon."""

    battle: Battle
    acted: frozenset[str] = frozenset()
    queue: tuple[tuple[str, str], ...] = ()
    count: int = 0

    def waiting(self) -> list[Piece]:
        return [p for p in self.battle.pieces if p.side == "ai" and p.id not in self.acted
                and "devoured" not in p.conditions]

    @property
    def finished(self) -> bool:
        return not self.queue and not self.waiting()


def next_actor(progress: TurnProgress, tiles: Tiles) -> tuple[str, str, TurnProgress] | None:
    """The next Active Character and why, or None when every AI character has acted."""
    queue = list(progress.queue)
    while queue:
        actor_id, reason = queue.pop(0)
        if progress.battle.get(actor_id) is not None:
            return actor_id, reason, replace(progress, queue=tuple(queue))
    waiting = progress.waiting()
    if not waiting:
        return None
    actor, reason = next_to_act(waiting, tiles)
    return actor.id, reason, replace(progress, queue=())


def step_turn(table: Table, progress: TurnProgress) -> tuple[TurnProgress, Activation] | None:
    """One activation of the AI turn; None when the turn is over."""
    if progress.count > MAX_ACTIVATIONS:
        raise RulesError(f"the AI turn did not end after {MAX_ACTIVATIONS} activations "
                         f"(summons summoning without end?); check the sequences")
    chosen = next_actor(progress, table.scenario.tiles)
    if chosen is None:
        return None
    actor_id, reason, progress = chosen
    battle, activation = activate(table, progress.battle, actor_id, reason,
                                  reason.startswith(REPEAT_REASON))
    follow = [(s, "summoned: acts at once") for s in activation.summoned]
    if activation.repeat:
        follow.append((activation.repeat, f"{REPEAT_REASON} of {activation.label}"))
    return TurnProgress(battle, progress.acted | {actor_id}, (*follow, *progress.queue),
                        progress.count + 1), activation


def run_turn(scenario: Scenario, catalog: Catalog, seed: int | None = None) -> TurnResult:
    used_seed = resolve_seed(scenario, seed)
    rng = np.random.default_rng(used_seed)
    components = catalog.components
    chance = Chance(scenario.chance, rng, components.rune_die, components.location_die)
    table = Table(scenario, catalog, build_table(scenario.playmat), chance)
    progress = TurnProgress(Battle(scenario.pieces, scenario.bags, scenario.out))
    activations: list[Activation] = []
    while (stepped := step_turn(table, progress)) is not None:
        progress, activation = stepped
        activations.append(activation)
    battle = progress.battle
    next_seed = int(rng.integers(2**31))
    after = replace(scenario, round=scenario.round + 1, pieces=battle.pieces, bags=battle.bags,
                    out=battle.out, chance=chance.remaining_script(next_seed))
    return TurnResult(scenario.round, used_seed, tuple(activations), battle,
                      tuple(chance.record), after, scenario)
