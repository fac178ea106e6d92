"""A session's state is its starting scenario with every effective input applied, in order."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from automa.catalog.load import Catalog
from automa.engine.activation import Activation
from automa.engine.battle import Battle, Table
from automa.engine.chance import Asker, Chance, Outcome
from automa.engine.judge import Judge
from automa.engine.turn import TurnProgress, step_turn
from automa.errors import InputError, RulesError
from automa.geometry.table import TableGeometry, build_table
from automa.model.components import DamageToken
from automa.model.scenario import ChanceScript, Scenario
from automa.session.agreement import (
    LOGGED,
    Contradiction,
    compare_ends,
    from_answers,
    keep_logged_ends,
    logged_ends,
)
from automa.session.checks import DAMAGED
from automa.session.events import (
    TABLE_EVENTS,
    Event,
    apply_hit_event,
    apply_table_event,
    apply_used_event,
)
from automa.session.log import SessionError
from automa.session.provenance import CHECKPOINT
from automa.session.snapshot import AI, HEROES, Standing, standing_from

MARKERS = ("undo", "redo", "rollback")


@dataclass(frozen=True)
class SessionState:
    scenario: Scenario
    battle: Battle
    round: int
    progress: TurnProgress | None  # None: the heroes' turn
    activations: tuple[tuple[int, Activation], ...]  # (round, activation), oldest first

    @property
    def phase(self) -> str:
        return "heroes" if self.progress is None else "ai"

    def as_scenario(self) -> Scenario:
        battle = self.battle
        return replace(self.scenario, round=self.round, pieces=battle.pieces, bags=battle.bags,
                       out=battle.out, chance=ChanceScript())


def effective_events(events: Sequence[Event]) -> tuple[list[Event], list[Event]]:
    """Apply the undo / redo / rollback markers: (the inputs in force, those that can be redone)."""
    done: list[Event] = []
    undone: list[Event] = []
    for event in events:
        kind = event.get("type")
        if kind == "undo":
            if done:
                undone.append(done.pop())
        elif kind == "redo":
            if undone:
                done.append(undone.pop())
        elif kind == "rollback":
            keep = event.get("to")
            if not isinstance(keep, int) or isinstance(keep, bool) or not 0 <= keep <= len(done):
                done.append({"type": DAMAGED, "problem": f"a rollback marker keeps {keep!r} "
                                                         f"inputs of {len(done)}"})
                undone.clear()
                continue
            undone = list(reversed(done[keep:])) + undone
            done = done[:keep]
        else:
            done.append(event)
            undone.clear()
    return done, undone


def script_of(outcomes: Sequence[dict[str, Any]]) -> ChanceScript:
    """The recorded outcomes of one activation, as a script that replays them exactly."""
    d12, rune, location = [], [], []
    tokens: dict[int, list[DamageToken]] = {}
    for outcome in outcomes:
        kind, value = outcome.get("kind"), str(outcome.get("value"))
        if kind == "d12":
            d12.append(int(value))
        elif kind == "rune_die":
            rune.append(int(value))
        elif kind == "location_die":
            location.append(int(value))
        elif kind == "token":
            level, label = value.split(":")
            tokens.setdefault(int(level), []).append(DamageToken.parse(label))
    return ChanceScript(None, tuple(d12), tuple(rune), tuple(location),
                        {level: tuple(values) for level, values in tokens.items()})


def start(scenario: Scenario) -> SessionState:
    return SessionState(scenario, Battle(scenario.pieces, scenario.bags, scenario.out),
                        scenario.round, None, ())


def advance(state: SessionState, catalog: Catalog, geometry: TableGeometry, chance: Chance,
            judge: Judge) -> tuple[SessionState, Activation | None]:
    """One AI activation (starting the AI turn if the heroes' turn was on)."""
    progress = replace(state.progress or TurnProgress(state.battle), battle=state.battle)
    table = Table(replace(state.scenario, round=state.round), catalog, geometry, chance, judge)
    stepped = step_turn(table, progress)
    if stepped is None:
        return replace(state, progress=None), None
    progress, activation = stepped
    history = (*state.activations, (state.round, activation))
    if progress.finished:
        return replace(state, battle=progress.battle, round=state.round + 1, progress=None,
                       activations=history), activation
    return replace(state, battle=progress.battle, progress=progress,
                   activations=history), activation


def new_chance(catalog: Catalog, seed: int, index: int, asker: Asker | None,
               script: ChanceScript | None = None,
               script_source: str = "[chance] tokens") -> Chance:
    """Chance for input number `index`: its own stream of the session seed, so replays and
    redone inputs draw the same whatever came before."""
    components = catalog.components
    return Chance(script or ChanceScript(), np.random.default_rng([seed, index]),
                  components.rune_die, components.location_die, asker=asker,
                  script_source=script_source)


def apply_event(state: SessionState, event: Event, index: int, catalog: Catalog,
                geometry: TableGeometry, seed: int, found: list[Contradiction] | None = None,
                keep: str = LOGGED) -> SessionState:
    """The state after one input. An activation's logged answers and ends stand (`keep`
    COMPUTED: this machine's ends); what this machine computes otherwise goes to `found`."""
    kind = event.get("type")
    if kind is None:
        raise InputError("it has no type")
    if kind == DAMAGED:
        raise InputError(str(event.get("problem", "the line is damaged")))
    if kind == "activation":
        return replay_activation(state, event, index, catalog, geometry, seed, found, keep)
    if kind == CHECKPOINT:
        return restored(state, event.get("state"))
    if kind == "end-heroes-turn":
        return state if state.progress is not None else replace(
            state, progress=TurnProgress(state.battle))
    if kind in TABLE_EVENTS:
        return replace(state, battle=apply_table_event(state.battle, event, geometry))
    if kind == "used":
        return replace(state, battle=apply_used_event(state.battle, event))
    if kind == "hit":
        battle, _ = apply_hit_event(state.battle, event, catalog.monsters,
                                    state.scenario.settings.rulings)
        return replace(state, battle=battle)
    raise InputError(f"unknown input {kind!r}")


def replay_activation(state: SessionState, event: Event, index: int, catalog: Catalog,
                      geometry: TableGeometry, seed: int, found: list[Contradiction] | None,
                      keep: str) -> SessionState:
    """A logged activation again, from its dice and answers; where the log kept where pieces
    ended, there they stay (unless `keep` is COMPUTED)."""
    outcomes = event.get("outcomes", [])
    if not isinstance(outcomes, list) or not all(isinstance(o, dict) for o in outcomes):
        raise InputError("its dice are not a list of outcomes")
    if not isinstance(event.get("answers", []), list):
        raise InputError("its answers are not a list")
    answers = event.get("answers", [])
    _check_faces(outcomes, catalog)
    chance = new_chance(catalog, seed, index, None, script_of(outcomes),
                        "the tokens logged with it")
    judge = Judge("tracked", state.scenario.settings.close_call, None, answers)
    before = state
    state, activation = advance(state, catalog, geometry, chance, judge)
    if any(o.source != "script" for o in chance.record) or \
            len(chance.record) != len(outcomes) or \
            ("answers" in event and len(judge.record) != len(answers)):
        raise InputError("the recorded dice do not match this activation; the log and "
                         "the scenario disagree")
    ends = logged_ends(event)
    if found is not None and activation is not None:
        found += from_answers(index, activation.label, judge.disagreements)
        if ends is not None:
            found += compare_ends(index, activation.label, ends, before.battle, state.battle)
    if ends is not None and keep == LOGGED:
        battle = keep_logged_ends(ends, before.battle, state.battle)
        if battle is not state.battle:
            progress = state.progress and replace(state.progress, battle=battle)
            state = replace(state, battle=battle, progress=progress)
    return state


def _check_faces(outcomes: Sequence[dict[str, Any]], catalog: Catalog) -> None:
    """Each logged die face is on that die and each token face is in that level's set."""
    components = catalog.components
    faces = {"rune_die": components.rune_die, "location_die": components.location_die}
    for outcome in outcomes:
        kind, value = outcome.get("kind"), str(outcome.get("value"))
        if kind in faces and int(value) not in faces[str(kind)]:
            raise InputError(f"{kind} {value} is not a face of that die")
        if kind == "token":
            level, _, face = value.partition(":")
            tokens = components.bags.get(int(level))
            if tokens is None:
                raise InputError(f"token {value}: there is no level {level} bag")
            if DamageToken.parse(face) not in tokens:
                raise InputError(f"token {value}: no level {level} token reads {face}")


def replay_states(scenario: Scenario, events: Sequence[Event], catalog: Catalog, seed: int,
                  lines: Sequence[int] = (), log: str = "",
                  found: list[Contradiction] | None = None, keep: str = LOGGED
                  ) -> Iterator[tuple[SessionState, SessionState]]:
    """The state before and after each input in turn, from the scenario on. `lines` (the log
    line of each event) and `log` (its path) make a failure name where it is. What this
    machine computes otherwise than the log goes to `found`, from the last checkpoint on (a
    checkpoint went on from what came before it)."""
    geometry = build_table(scenario.playmat)
    state = start(scenario)
    for index, event in enumerate(events):
        before = state
        if found is not None and event.get("type") == CHECKPOINT:
            found.clear()
        try:
            state = apply_event(state, event, index, catalog, geometry, seed, found, keep)
        except (InputError, RulesError, SessionError, ValueError, TypeError, AttributeError,
                KeyError, IndexError) as error:
            line = event.get("line") if event.get("type") == DAMAGED else None
            line = line or (lines[index] if index < len(lines) else None)
            where = f"{log or 'log.jsonl'} line {line}: " if line else ""
            raise SessionError(f"{where}input {index + 1} of the log cannot be replayed "
                               f"({error}); {way_out(index)}") from None
        yield before, state


def way_out(keep: int) -> str:
    """What to do about a log that cannot be replayed from input keep + 1 on."""
    return f"`automa log` lists the inputs; `automa rollback {keep}` keeps those before it"


def replay(scenario: Scenario, events: Sequence[Event], catalog: Catalog,
           seed: int, lines: Sequence[int] = (), log: str = "") -> SessionState:
    final = start(scenario)
    for _, after in replay_states(scenario, events, catalog, seed, lines, log):
        final = after
    return final


def replay_checked(scenario: Scenario, events: Sequence[Event], catalog: Catalog, seed: int,
                   lines: Sequence[int] = (), log: str = "", keep: str = LOGGED
                   ) -> tuple[SessionState, list[Contradiction]]:
    """`replay`, and what this machine computes otherwise than the log since the last
    checkpoint."""
    found: list[Contradiction] = []
    final = start(scenario)
    for _, after in replay_states(scenario, events, catalog, seed, lines, log, found, keep):
        final = after
    return final, found


def standing_of(state: SessionState) -> Standing:
    """What a checkpoint keeps; refused in the middle of an AI turn with a piece still to act
    out of the tiles' order (a repeat shot, a summon): the order of such a turn is not kept."""
    progress = state.progress
    if progress is not None and progress.queue:
        raise InputError("a piece is still to act out of the tiles' order (a repeat shot or a "
                         "summon): play on to the next activation, or `automa rollback` to the "
                         "heroes' turn, first")
    return Standing(state.battle, state.round, HEROES if progress is None else AI,
                    progress.acted if progress is not None else frozenset(),
                    progress.count if progress is not None else 0)


def restored(state: SessionState, data: Any) -> SessionState:
    """The state a checkpoint line keeps (the activations before it stay in the history)."""
    standing = standing_from(data)
    progress = None if standing.phase == HEROES else TurnProgress(
        standing.battle, standing.acted, (), standing.count)
    return replace(state, battle=standing.battle, round=standing.round, progress=progress)


def scripted_left(scenario: Scenario, events: Sequence[Event]) -> ChanceScript:
    """The scenario's own [chance] outcomes not yet used by the logged activations."""
    used: dict[str, int] = {}
    for event in events:
        for outcome in event.get("outcomes", []) if event.get("type") == "activation" else []:
            if outcome.get("source") == "script":
                kind = str(outcome.get("kind"))
                if kind == "token":
                    kind = f"token-{str(outcome.get('value')).split(':')[0]}"
                used[kind] = used.get(kind, 0) + 1
    script = scenario.chance
    return ChanceScript(
        None, script.d12[used.get("d12", 0):], script.rune_die[used.get("rune_die", 0):],
        script.location_die[used.get("location_die", 0):],
        {level: tokens[used.get(f"token-{level}", 0):]
         for level, tokens in script.tokens.items()})


def outcomes_json(outcomes: Sequence[Outcome]) -> list[dict[str, str]]:
    return [{"kind": o.kind, "value": o.value, "source": o.source} for o in outcomes]


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
