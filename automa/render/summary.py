"""The battle's end in a few lines: who fell, damage dealt and taken by each hero, the rounds
played and the tokens left in each bag. A pure function of the session's start and its log:
every input is replayed and the health of each piece compared before and after it."""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct, field

from automa.model.pieces import Side
from automa.session.apply import Setting, replay_states
from automa.session.commands import Command, Damage, Hit, NextActivation
from automa.session.state import SessionState, start

UNNAMED = ""  # damage the heroes reported without saying who dealt it


class Tally(Struct):
    taken: dict[str, int] = field(default_factory=dict)  # hero -> damage taken
    dealt: dict[str, int] = field(default_factory=dict)  # hero (or UNNAMED) -> damage dealt


def _health(state: SessionState) -> dict[str, int]:
    return {p.id: p.health for p in state.battle.pieces if p.health is not None}


def tally(state: SessionState, done: Sequence[Command], setting: Setting) -> Tally:
    """Damage per hero over the effective inputs: a hero's health lost is damage taken
    (whoever caused it); an AI piece's health lost to a heroes' `damage` report is damage
    dealt by the hero the report names (`by`), else by the heroes unnamed. A piece that leaves
    play lost its remaining health only when damage took it (an activation, `damage`, `hit`);
    one reported dead or killed by poison cards took no damage in the summary's sense."""
    result = Tally()
    heroes = {p.id for p in start(state.scenario).battle.pieces if p.side == Side.HEROES}
    for command, (before, after) in zip(done, replay_states(state.scenario, done, setting),
                                        strict=True):
        was, now = _health(before), _health(after)
        damaging = isinstance(command, NextActivation | Damage | Hit)
        for piece_id, health in was.items():
            if piece_id not in now and not damaging:
                continue  # left play by a report (`dead`, poison): not damage dealt or taken
            lost = health - now.get(piece_id, 0)
            if lost <= 0:
                continue
            if piece_id in heroes:
                result.taken[piece_id] = result.taken.get(piece_id, 0) + lost
            elif isinstance(command, Damage | Hit):
                by = command.by
                who = by if by is not None and by in heroes else UNNAMED
                result.dealt[who] = result.dealt.get(who, 0) + lost
    return result


def summary_text(state: SessionState, done: Sequence[Command], setting: Setting) -> str:
    battle = state.battle
    first = state.scenario.round
    span = f"round {first}" if state.round <= first else f"rounds {first} to {state.round}"
    lines = ["Battle summary", f"  Played: {span}"]
    fell = [(piece_id, why) for piece_id, why in battle.out.items()
            if piece_id not in state.scenario.out]
    lines.append("  Fell: " + (", ".join(f"{piece_id} ({why})" for piece_id, why in fell)
                               or "nobody"))
    counts = tally(state, done, setting)
    heroes = [p for p in start(state.scenario).battle.pieces if p.side == Side.HEROES]
    for hero in heroes:
        now = battle.get(hero.id)
        left = "fallen" if now is None else \
            ("no health track" if now.health is None else f"health {now.health}")
        lines.append(f"  {hero.id}: dealt {counts.dealt.get(hero.id, 0)}, "
                     f"taken {counts.taken.get(hero.id, 0)} ({left})")
    if counts.dealt.get(UNNAMED):
        lines.append(f"  Damage reported without a hero named (damage ID N by HERO): "
                     f"{counts.dealt[UNNAMED]}")
    for level, bag in sorted(battle.bags.items()):
        faces = ", ".join(t.label() for t in bag.tokens) or "empty"
        lines.append(f"  Level {level} bag: {len(bag.tokens)} token"
                     f"{'' if len(bag.tokens) == 1 else 's'} left ({faces})")
    return "\n".join(lines) + "\n"
