"""Stepping through a recorded battle: each input in force, with the state after it and, for
an AI activation, the activation as it happened (reproduced from the logged dice and answers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from msgspec import Struct

from automa.catalog.load import Catalog
from automa.engine.activation import Activation
from automa.model.pieces import Condition
from automa.session.apply import replay_states
from automa.session.commands import Command, Hit, NextActivation
from automa.session.game import Game
from automa.session.log import SessionError
from automa.session.state import SessionState, way_out
from automa.session.store import Session


class ReplayStep(Struct, frozen=True):
    number: int  # 1-based input number (the numbers `automa log` and `rollback` use)
    command: Command
    before: SessionState
    after: SessionState
    activation: Activation | None  # for an AI activation
    activation_number: int  # its number within the round's AI turn (0 for other inputs)


def replay_steps(game: Game) -> Iterator[ReplayStep]:
    done, _ = game.effective()
    turn_count = 0
    states = replay_states(game.state.scenario, done, game.setting)
    for index, (command, (before, state)) in enumerate(zip(done, states, strict=True)):
        activation = None
        if isinstance(command, NextActivation):
            if len(state.activations) == len(before.activations):
                raise SessionError(f"input {index + 1}: the activation left no record; "
                                   f"{way_out(index)}")
            activation = state.activations[-1][1]
            turn_count = turn_count + 1 if before.progress is not None else 1
        yield ReplayStep(index + 1, command, before, state, activation,
                         turn_count if activation else 0)


def frozen_by(game: Game) -> dict[str, str | None]:
    """Each piece frozen now, and the hero whose ice shot froze it: the hero named (`hit ...
    ice by HERO`) by the input that put the ice on it, as the log in force replays. Frozen
    another way (`freeze`, an ice shot naming no hero) it has None: its gold is nobody's. An
    ice shot on a piece already frozen freezes nothing, so it changes nothing here."""
    froze: dict[str, str | None] = {}
    for step in replay_steps(game):
        was = {p.id: p for p in step.before.battle.pieces}
        by = step.command.by if isinstance(step.command, Hit) else None
        for piece in step.after.battle.pieces:
            before = was.get(piece.id)
            if Condition.FROZEN in piece.conditions and (
                    before is None or Condition.FROZEN not in before.conditions):
                froze[piece.id] = by
    now = game.state.battle
    return {piece_id: hero for piece_id, hero in froze.items()
            if (still := now.get(piece_id)) is not None and Condition.FROZEN in still.conditions}


def open_recorded(path: str, catalog: Catalog) -> Session:
    """A session folder, or the path of its log.jsonl."""
    folder = Path(path)
    if folder.is_file():
        folder = folder.parent
    return Session.open(folder, catalog)
