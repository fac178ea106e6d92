"""A session's state is its starting scenario with every input in force applied, in order."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

import numpy as np
from msgspec import Struct
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.engine.activation import Activation
from automa.engine.battle import Battle
from automa.engine.chance import Asker, Chance
from automa.engine.turn import TurnProgress
from automa.errors import InputError
from automa.model.components import DamageToken
from automa.model.scenario import ChanceScript, Scenario
from automa.session.commands import (
    ChanceAnswer,
    Command,
    Damaged,
    Die,
    NextActivation,
    Redo,
    Rollback,
    Source,
    Undo,
)
from automa.session.snapshot import AI, HEROES, Standing


class Phase(StrEnum):
    HEROES = "heroes"
    AI = "ai"


class SessionState(Struct, frozen=True):
    scenario: Scenario
    battle: Battle
    round: int
    progress: TurnProgress | None  # None: the heroes' turn
    activations: tuple[tuple[int, Activation], ...]  # (round, activation), oldest first

    @property
    def phase(self) -> Phase:
        return Phase.HEROES if self.progress is None else Phase.AI

    def as_scenario(self) -> Scenario:
        battle = self.battle
        return replace(self.scenario, round=self.round, pieces=battle.pieces, bags=battle.bags,
                       out=battle.out, chance=ChanceScript())


def start(scenario: Scenario) -> SessionState:
    return SessionState(scenario, Battle(scenario.pieces, scenario.bags, scenario.out),
                        scenario.round, None, ())


def in_force(commands: Sequence[Command]) -> tuple[list[Command], list[Command]]:
    """Apply the undo / redo / rollback markers: (the inputs in force, those that can be
    redone, the next to redo last)."""
    done: list[Command] = []
    undone: list[Command] = []
    for command in commands:
        if isinstance(command, Undo):
            if done:
                undone.append(done.pop())
        elif isinstance(command, Redo):
            if undone:
                done.append(undone.pop())
        elif isinstance(command, Rollback):
            if command.keep > len(done):
                done.append(Damaged(f"a rollback marker keeps {command.keep} inputs of "
                                    f"{len(done)}"))
                undone.clear()
                continue
            undone = list(reversed(done[command.keep:])) + undone
            done = done[:command.keep]
        else:
            done.append(command)
            undone.clear()
    return done, undone


def script_of(outcomes: Sequence[ChanceAnswer]) -> ChanceScript:
    """The outcomes of one activation, as a script that plays them again exactly."""
    d12, rune, location = [], [], []
    tokens: dict[int, list[DamageToken]] = {}
    for outcome in outcomes:
        if outcome.kind == Die.D12:
            d12.append(int(outcome.value))
        elif outcome.kind == Die.RUNE_DIE:
            rune.append(int(outcome.value))
        elif outcome.kind == Die.LOCATION_DIE:
            location.append(int(outcome.value))
        elif outcome.kind == "token":
            level, label = outcome.value.split(":")
            tokens.setdefault(int(level), []).append(DamageToken.parse(label))
    return ChanceScript(None, tuple(d12), tuple(rune), tuple(location),
                        {level: tuple(values) for level, values in tokens.items()})


def followed_by(first: ChanceScript, then: ChanceScript) -> ChanceScript:
    """`first`'s outcomes, then `then`'s, kind by kind."""
    levels = {*first.tokens, *then.tokens}
    return ChanceScript(None, first.d12 + then.d12, first.rune_die + then.rune_die,
                        first.location_die + then.location_die,
                        {level: first.tokens.get(level, ()) + then.tokens.get(level, ())
                         for level in levels})


def scripted_left(scenario: Scenario, done: Sequence[Command]) -> ChanceScript:
    """The scenario's own [chance] outcomes not yet used by the logged activations."""
    used: dict[str, int] = {}
    for command in done:
        if not isinstance(command, NextActivation):
            continue
        for outcome in command.outcomes:
            if outcome.source == Source.SCRIPT:
                kind = outcome.kind
                if kind == "token":
                    kind = f"token-{outcome.value.split(':')[0]}"
                used[kind] = used.get(kind, 0) + 1
    script = scenario.chance
    return ChanceScript(
        None, script.d12[used.get(Die.D12, 0):], script.rune_die[used.get(Die.RUNE_DIE, 0):],
        script.location_die[used.get(Die.LOCATION_DIE, 0):],
        {level: tokens[used.get(f"token-{level}", 0):]
         for level, tokens in script.tokens.items()})


def new_chance(catalog: Catalog, seed: int, index: int, asker: Asker | None,
               script: ChanceScript | None = None,
               script_source: str = "[chance] tokens") -> Chance:
    """Chance for input number `index`: its own stream of the session seed, so replays and
    redone inputs draw the same whatever came before."""
    components = catalog.components
    return Chance(script or ChanceScript(), np.random.default_rng([seed, index]),
                  components.rune_die, components.location_die, asker=asker,
                  script_source=script_source)


def way_out(keep: int) -> str:
    """What to do about a log that cannot be replayed from input keep + 1 on."""
    return f"`automa log` lists the inputs; `automa rollback {keep}` keeps those before it"


def activation_summary(activation: Activation, before: SessionState,
                       after: SessionState) -> str:
    """One line for the log: who acted, with which shots, at whom, and the health it took (the
    dice are listed from the outcomes beside it), so `automa log` can say it without
    replaying."""
    names = {p.id: p.label for p in (*before.scenario.pieces, *before.battle.pieces,
                                     *after.battle.pieces)}
    shots = "+".join(activation.sequence)
    if activation.target is None:
        text = f"{activation.label}: {shots + ', ' if shots else ''}no target"
    else:
        text = f"{activation.label}: {shots or 'no shots'} at " \
               f"{names.get(activation.target, activation.target)}"
    changes = []
    for piece in before.battle.pieces:
        now = after.battle.get(piece.id)
        if now is None:
            changes.append(f"{names[piece.id]} out of play")
        elif piece.health is not None and now.health is not None and now.health != piece.health:
            changes.append(f"{names[piece.id]} {now.health - piece.health:+d} health")
    return text + (f" ({', '.join(changes)})" if changes else "")


def standing_of(state: SessionState) -> Standing:
    """What a checkpoint keeps of the state; refused in the middle of an AI turn with a piece
    still to act out of the tiles' order (a repeat shot, a summon): such a turn's order is not
    kept."""
    progress = state.progress
    if progress is not None and progress.queue:
        raise InputError("a piece is still to act out of the tiles' order (a repeat shot or a "
                         "summon): play on to the next activation, or `automa rollback` to the "
                         "heroes' turn, first")
    return Standing(state.battle, state.round, HEROES if progress is None else AI,
                    progress.acted if progress is not None else frozenset(),
                    progress.count if progress is not None else 0,
                    progress.away if progress is not None else frozenset())


def restored(state: SessionState, standing: Standing) -> SessionState:
    """The state a checkpoint keeps (the activations before it stay in the history)."""
    progress = None if standing.phase == HEROES else TurnProgress(
        standing.battle, standing.acted, (), standing.count, standing.away)
    return replace(state, battle=standing.battle, round=standing.round, progress=progress)
