"""One full AI turn: every AI character acts once, in the order the tiles give."""

from __future__ import annotations

import numpy as np
from msgspec import Struct
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.engine.activation import Activation, Resume, activate, read_direction_tiles
from automa.engine.battle import Battle, Table
from automa.engine.chance import Chance, Outcome
from automa.errors import RulesError
from automa.geometry.table import TableGeometry, build_table
from automa.model.pieces import Condition, Piece, Side
from automa.model.scenario import Scenario, Tiles
from automa.rules.round import antients_to_overseer
from automa.rules.rulings import RulingKey
from automa.rules.tiles import next_to_act

MAX_ACTIVATIONS = 200
REPEAT_REASON = "repeat shot"
SUMMONED_REASON = "summoned: acts at once"
ACTED_KEPT = 4096  # (who has acted, who acts) pairs a table keeps: k AI pieces make k * 2**(k-1)


class TurnResult(Struct, frozen=True):
    """A whole AI turn: its activations, outcomes and the scenario before and after."""

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


class Pending(Struct, frozen=True):
    """A character that acts next out of the tiles' order: summoned, repeated or resuming."""

    actor: str
    reason: str
    repeated: bool = False  # a repeat shot gave it this turn: its own turn still comes
    resume: Resume | None = None
    rulings: tuple[RulingKey, ...] = ()  # rulings the choice of this actor rested on
    tied: tuple[str, ...] = ()  # tied on the order tiles: the Direction tiles chose among them


class TurnProgress(Struct, frozen=True):
    """Where an AI turn stands: who has acted, who acts next by a repeat or a summon, and who
    stays on the Teleported! card through this turn (`away`: the heroes sent it there this
    round; ruling 64): its place in the order comes and passes."""

    battle: Battle
    acted: frozenset[str] = frozenset()
    queue: tuple[Pending, ...] = ()
    count: int = 0
    away: frozenset[str] = frozenset()

    def waiting(self) -> list[Piece]:
        ai, devoured = Side.AI, Condition.DEVOURED  # read once (model/vocabulary.py)
        return [p for p in self.battle.pieces if p.side == ai and p.id not in self.acted
                and devoured not in p.conditions]

    @property
    def finished(self) -> bool:
        return not self.queue and not self.waiting()


def next_actor(progress: TurnProgress, tiles: Tiles) -> tuple[Pending, TurnProgress] | None:
    """The next Active Character and why, or None when every AI character has acted."""
    queue = progress.queue
    for i, pending in enumerate(queue):
        if progress.battle.get(pending.actor) is not None:
            return pending, replace(progress, queue=queue[i + 1:])
    waiting = progress.waiting()
    if not waiting:
        return None
    chosen = next_to_act(waiting, tiles)
    rulings = (RulingKey.DIRECTION_FRAME,) if chosen.by_direction else ()
    if queue:  # every queued actor has left play
        progress = replace(progress, queue=())
    return Pending(chosen.piece.id, chosen.reason, rulings=rulings, tied=chosen.tied), progress


def step_turn(table: Table, progress: TurnProgress) -> tuple[TurnProgress, Activation] | None:
    """One activation of the AI turn; None when the turn is over."""
    if progress.count >= MAX_ACTIVATIONS:
        raise RulesError(f"the AI turn did not end after {MAX_ACTIVATIONS} activations "
                         f"(summons summoning without end?); check the sequences")
    chosen = next_actor(progress, table.scenario.tiles)
    if chosen is None:
        return None
    pending, progress = chosen
    if pending.tied and table.judge.asked:
        pending = read_order_tiles(table, progress.battle, pending)
    battle, activation = activate(table, progress.battle, pending.actor, pending.reason,
                                  pending.repeated, pending.resume, pending.rulings,
                                  away=pending.actor in progress.away)
    acted = progress.acted if pending.repeated else _acted_with(table, progress.acted,
                                                               pending.actor)
    return TurnProgress(battle, acted, (*_follow(pending, activation), *progress.queue),
                        progress.count + 1, progress.away), activation


def _acted_with(table: Table, acted: frozenset[str], actor: str) -> frozenset[str]:
    """`acted | {actor}`, one copy of each such set a table: a forecast's tree keeps thousands
    of places, which share a few hundred sets (kept in the table's memo; emptied if it grows
    past ACTED_KEPT)."""
    kept = table.memo.acted
    if len(kept) > ACTED_KEPT:
        kept.clear()
    found = kept.get((acted, actor))
    if found is None:
        found = kept[acted, actor] = acted | {actor}
    return found


def _follow(pending: Pending, activation: Activation) -> list[Pending]:
    """Who acts next, before the queue, because of what `activation` did."""
    if not activation.summoned and activation.resume is None and not activation.repeat:
        return []
    follow = [Pending(s, SUMMONED_REASON, rulings=(RulingKey.SUMMONED_TURN,))
              for s in activation.summoned]
    if activation.resume is not None:
        follow.append(Pending(pending.actor, "goes on with its sequence after the summon",
                              pending.repeated, activation.resume))
    if activation.repeat:
        follow.append(Pending(activation.repeat, f"{REPEAT_REASON} of {activation.label}",
                              repeated=True))
    return follow


def begin_turn(battle: Battle, away: frozenset[str] = frozenset()) -> TurnProgress:
    """The AI turn as it begins: the heroes' turn is over, so the Overseer holds every Antient
    in play (ruling 66); nobody has acted; `away`: the AI pieces the heroes put on the
    Teleported! card this round, which stay there through this turn (ruling 64)."""
    pieces = antients_to_overseer(battle.pieces)
    if any(new is not old for new, old in zip(pieces, battle.pieces, strict=True)):
        battle = Battle(pieces, battle.bags, battle.out)
    return TurnProgress(battle, away=away)


def read_order_tiles(table: Table, battle: Battle, pending: Pending) -> Pending:
    """Asked geometry: who acts first among pieces tied on the order tiles rests on positions
    the table never gave, so the players read the Direction tiles on the real mat."""
    actor = read_direction_tiles(table, None, [battle.piece(t) for t in pending.tied],
                                 "on the Character and Monster tiles", pending.actor,
                                 " It acts next.")
    return replace(pending, actor=actor, reason="tie on tiles; the Direction tiles, read at the "
                                                "table")


def run_turn(scenario: Scenario, catalog: Catalog, seed: int | None = None,
             geometry: TableGeometry | None = None, explain: bool = False) -> TurnResult:
    """The whole AI turn; `geometry` may be passed in when many turns share one mat. The
    explain trace of each activation is made only when asked (`explain`: --explain, --json)."""
    used_seed = resolve_seed(scenario, seed)
    rng = np.random.default_rng(used_seed)
    components = catalog.components
    chance = Chance(scenario.chance, rng, components.rune_die, components.location_die,
                    script_source=f"{scenario.source}: [chance] tokens")
    table = Table(scenario, catalog, geometry or build_table(scenario.playmat), chance,
                  explain=explain)
    progress = begin_turn(Battle(scenario.pieces, scenario.bags, scenario.out))
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
