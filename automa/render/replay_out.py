"""The replay printout: the same lines the table saw, input by input."""

from __future__ import annotations

from automa.render.session_out import describe_command
from automa.render.text import RULE, activation_lines, labelled
from automa.session.commands import EndHeroesTurn
from automa.session.replay import ReplayStep
from automa.session.state import Phase


def step_lines(step: ReplayStep, coordinates: bool = True) -> list[str]:
    if step.activation is None:
        if isinstance(step.command, EndHeroesTurn):
            return [f"[{step.number}] the heroes are done: round {step.after.round}, AI turn"]
        return [f"[{step.number}] round {step.before.round}, heroes: "
                f"{describe_command(step.command)}"]
    pieces, names = labelled(step.before.scenario.pieces, step.before.battle.pieces,
                             step.after.battle.pieces)
    lines = []
    if step.activation_number == 1:
        lines += [f"Round {step.before.round} · AI turn", RULE]
    lines.append(f"[{step.number}]")
    lines += activation_lines(step.activation_number, step.activation, names, pieces,
                              step.before.scenario.settings.los_blocked,
                              coordinates=coordinates)
    if step.after.phase == Phase.HEROES and step.after.round != step.before.round:
        lines.append(f"The AI turn is over. Round {step.after.round}: the heroes' turn.")
    return lines
