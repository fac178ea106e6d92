"""The replay printout: the same lines the table saw, input by input."""

from __future__ import annotations

from automa.render.session_out import describe_event
from automa.render.text import RULE, activation_lines
from automa.session.replay import ReplayStep


def step_lines(step: ReplayStep, coordinates: bool = True) -> list[str]:
    if step.activation is None:
        prefix = ""
        if step.event.get("type") == "end-heroes-turn":
            return [f"[{step.number}] the heroes are done: round {step.after.round}, AI turn"]
        return [f"{prefix}[{step.number}] round {step.before.round}, heroes: "
                f"{describe_event(step.event)}"]
    pieces = {p.id: p for p in (*step.before.battle.pieces, *step.after.battle.pieces,
                                *step.before.scenario.pieces)}
    names = {k: p.label for k, p in pieces.items()}
    lines = []
    if step.activation_number == 1:
        lines += [f"Round {step.before.round} · AI turn", RULE]
    lines.append(f"[{step.number}]")
    lines += activation_lines(step.activation_number, step.activation, names, pieces,
                              step.before.scenario.settings.los_blocked,
                              coordinates=coordinates)
    if step.after.phase == "heroes" and step.after.round != step.before.round:
        lines.append(f"The AI turn is over. Round {step.after.round}: the heroes' turn.")
    return lines
