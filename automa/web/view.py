"""Everything the board draws, in one JSON object (`GET /api/view`), built from the session as
it stands: the same status, mat picture, printout and log the commands print."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from automa.engine.judge import GeometryMode
from automa.model.modes import DiceMode
from automa.model.pieces import Piece, Side
from automa.model.playmat import Playmat
from automa.render.measured import Unmeasured
from automa.session.commands import NextActivation
from automa.session.replay import ReplayStep
from automa.session.state import SessionState
from automa.session.store import LOG, Session

OVERLAYS = '<g id="overlays"></g>'
GEOMETRY_NAMES = {GeometryMode.TRACKED: "computed", GeometryMode.ASKED: "asked",
                  GeometryMode.HYBRID: "hybrid"}


def version(session: Session) -> str:
    """The SHA-256 of the log's bytes the session was last read from."""
    return session.stamp[1]


def phase(state: SessionState) -> str:
    """heroes, ai, or over (the room is cleared or the heroes have fallen, as `play` ends)."""
    from automa.session.ending import is_over

    return "over" if is_over(state) else str(state.phase)


def turn_order(state: SessionState) -> dict[str, Any]:
    """The AI turn by the tiles: who acted, who acts next, and who is still to act, as far as
    the positions now tell (a push may change a tie the Direction tiles break)."""
    from automa.engine.turn import next_actor
    from automa.rules.tiles import next_to_act

    progress = state.progress
    if progress is None:
        return {"done": [], "next": None, "pending": []}
    done = [a.character for r, a in state.activations if r == state.round][-progress.count:] \
        if progress.count else []
    chosen = next_actor(progress, state.scenario.tiles)
    if chosen is None:
        return {"done": done, "next": None, "pending": []}
    pending, after = chosen
    queued = [p.actor for p in after.queue]
    waiting = [p for p in after.waiting() if p.id != pending.actor and p.id not in queued]
    rest: list[str] = []
    while waiting:
        first = next_to_act(waiting, state.scenario.tiles).piece
        rest.append(first.id)
        waiting = [p for p in waiting if p.id != first.id]
    return {"done": done, "next": pending.actor, "pending": [*queued, *rest]}


def _max_health(piece: Piece, start: dict[str, Piece]) -> int | None:
    if piece.starting_health is not None:
        return piece.starting_health
    first = start.get(piece.id)
    if first is not None and first.health is not None:
        return max(first.health, piece.health or 0)
    return piece.health


def pieces_view(session: Session, unmeasured: dict[str, Any]) -> list[dict[str, Any]]:
    """Each piece in play; one whose place nobody measured (asked geometry) has no `x`, `y`
    (null) but its `tray` spot below the mat, where the mat picture draws it (render/tray.py)."""
    from automa.render.tray import tray_spots

    state = session.state
    start = {p.id: p for p in state.scenario.pieces}
    tray = tray_spots(state.scenario.playmat,
                      [p for p in state.battle.pieces if p.id in unmeasured])
    result = []
    for piece in state.battle.pieces:
        known = piece.id not in tray
        result.append({
            "id": piece.id, "name": piece.label, "side": piece.side, "kind": piece.kind,
            "x": round(piece.at[0], 3) if known else None,
            "y": round(piece.at[1], 3) if known else None,
            "radius": piece.radius,
            "health": piece.health, "max_health": _max_health(piece, start),
            "conditions": sorted(piece.conditions), "poison": piece.poison, "measured": known,
            **({} if known else {"tray": list(tray[piece.id])})})
    return result


def card(piece: Piece, start: dict[str, Piece], in_play: bool) -> dict[str, Any]:
    """What the acting card shows of an AI piece: its name, family, level, health and shot
    sequences (their notation, in the order of its card)."""
    return {"id": piece.id, "name": piece.label, "kind": piece.kind,
            "family": None if piece.family is None else str(piece.family),
            "level": piece.level, "health": piece.health if in_play else None,
            "max_health": _max_health(piece, start), "conditions": sorted(piece.conditions),
            "sequences": [sequence.text for sequence in piece.sequences], "in_play": in_play}


def cards_view(state: SessionState, steps: Sequence[ReplayStep]) -> dict[str, Any]:
    """A card for every AI piece in play, and for the last activation's piece if it has left
    play since (as it stood before it acted), keyed by id."""
    start = {p.id: p for p in state.scenario.pieces}
    cards = {p.id: card(p, start, True) for p in state.battle.pieces if p.side == Side.AI}
    found = next((s for s in reversed(steps) if s.activation is not None), None)
    if found is not None and found.activation is not None:
        actor = found.activation.character
        before = found.before.battle.get(actor)
        if actor not in cards and before is not None:
            cards[actor] = card(before, start, False)
    return cards


def acting_view(state: SessionState, steps: Sequence[ReplayStep]) -> dict[str, Any] | None:
    """The last activation as its card shows it: the piece, which of its sequences it chose
    (None: a sequence that is none of its card's, e.g. one melee shot back from the Teleported!
    card, or no shot at all), and its target's name; the rest is in `last`."""
    found = next((s for s in reversed(steps) if s.activation is not None), None)
    if found is None or found.activation is None:
        return None
    activation = found.activation
    piece = found.before.battle.get(activation.character)
    chosen = None if piece is None else next(
        (i for i, sequence in enumerate(piece.sequences)
         if tuple(sequence.shot_names()) == activation.sequence), None)
    names = {p.id: p.label for p in (*found.before.battle.pieces, *state.scenario.pieces)}
    target = activation.target
    return {"piece": activation.character, "name": activation.label, "chosen": chosen,
            "target": target, "target_name": None if target is None else names.get(target, target),
            "round": found.before.round}


def mat_svg(session: Session, unmeasured: dict[str, Any]) -> str:
    """The mat as `automa picture` draws the session now (no activation drawn over it: the page
    draws the steps itself), with an empty `<g id="overlays">` for them."""
    from automa.render.svg import picture

    state = session.state
    asked = session.geometry_mode == GeometryMode.ASKED
    svg = picture(state.scenario, state.battle.pieces, f"{session.folder.name}: round "
                  f"{state.round}", components=session.catalog.components,
                  unmeasured=Unmeasured({}, unmeasured) if asked else None)
    head, tail = svg.rsplit("</svg>", 1)
    return f"{head}{OVERLAYS}\n</svg>{tail}"


def last_overlay(session: Session, steps: Sequence[ReplayStep],
                 unmeasured_by_step: Sequence[Unmeasured]) -> str:
    """The last activation drawn as `automa picture` draws it over the mat (sight lines, ruler
    moves, the Attack template, the Clock template with its faces, pushes), one group a step:
    `<g class="overlay-step" data-step="sight">` first, then `data-step="N"` for `last.steps[N]`
    (empty where a step draws nothing), so the page can show them one by one; then, unless the
    geometry is asked, `<g class="overlay-gone" data-piece=ID data-until=N>` for each piece the
    activation took out of play, drawn where it stood, for the page to show until step N.
    `unmeasured_by_step`: render/measured.py's `unmeasured_steps` of an asked session (else
    empty)."""
    from msgspec.structs import replace

    from automa.render.canvas import Canvas
    from automa.render.overlays import activation_overlay, gone_pieces

    found = next((s for s in reversed(steps) if s.activation is not None), None)
    if found is None or found.activation is None:
        return ""
    asked = session.geometry_mode == GeometryMode.ASKED
    unmeasured = unmeasured_by_step[found.number - 1].before if asked else {}
    before = {p.id: p for p in found.before.battle.pieces}
    activation, scenario = found.activation, session.state.scenario
    groups, drawn = [], 0
    for count in range(len(activation.steps) + 1):  # each step adds what it draws, in order
        canvas = Canvas(scenario.playmat)
        activation_overlay(canvas, scenario, replace(activation, steps=activation.steps[:count]),
                           before, session.catalog.components, unmeasured, asked)
        step = "sight" if count == 0 else str(count - 1)
        groups.append(f'<g class="overlay-step" data-step="{step}">'
                      f'{"".join(canvas.parts[drawn:])}</g>')
        drawn = len(canvas.parts)
    if not asked:  # the pieces it took out of play, shown until the step that took them
        canvas = Canvas(scenario.playmat)
        gone_pieces(canvas, activation, before, (p.id for p in found.after.battle.pieces))
        groups.extend(canvas.parts)
    return "".join(groups)


def playmat_view(mat: Playmat) -> dict[str, Any]:
    """The mat's shapes in cm (mat frame), for the page to snap a dropped piece to touching an
    obstacle or onto a rune."""
    return {
        "id": mat.id, "name": mat.name, "width": mat.width, "length": mat.length,
        "hero_zone": mat.hero_zone, "monster_zone": mat.monster_zone,
        "obstacles": [{"id": o.id, **({"circle": list(o.circle)} if o.circle is not None else
                                      {"polygon": [list(p) for p in o.polygon]})}
                      for o in mat.obstacles],
        "runes": {str(n): list(at) for n, at in sorted(mat.runes.items())},
        "rune_radius": mat.rune_radius,
    }


def log_view(session: Session) -> list[dict[str, Any]]:
    """The inputs in force, numbered and named as `automa log` names them."""
    from automa.render.session_out import describe_command

    return [{"n": number, "text": describe_command(command), "type": command.TYPE}
            for number, command in enumerate(session.effective()[0], start=1)]


def bags_view(state: SessionState) -> dict[str, Any]:
    return {str(level): {"left": sorted(t.label() for t in bag.tokens),
                         "discard": sorted(t.label() for t in bag.discard)}
            for level, bag in sorted(state.battle.bags.items())}


def odds_view(state: SessionState) -> dict[str, Any]:
    """For each level's bag, what its next draw may bring (rules/tokens.py's `next_draw`): the
    tokens left, whether the discard pile goes back in first, and each face's chance as a
    count out of the tokens drawn from and a percentage."""
    from automa.rules.tokens import next_draw

    odds = {}
    for level, bag in sorted(state.battle.bags.items()):
        draw = next_draw(bag)
        odds[str(level)] = {
            "left": draw.left, "refilled": draw.refilled,
            "faces": [{"face": f.face, "count": f.count, "of": f.of,
                       "percent": round(f.percent, 1)} for f in draw.faces]}
    return odds


def sight_view(state: SessionState) -> list[dict[str, Any]]:
    """What the last activation's actor saw of each piece it looked at, and the obstacles the
    engine found on each blocked line (none when the table answered, or by the any-line
    test, which keeps none); [] before any activation."""
    if not state.activations:
        return []
    activation = state.activations[-1][1]
    return [{"target": s.target, "visible": s.visible, "blockers": list(s.blockers)}
            for s in (*activation.visible, *activation.hidden)]


def hits_view(state: SessionState) -> dict[str, Any]:
    """What a hero's hit may be, for the page's buttons: the shots `hit` resolves (their
    kind, base damage, whether they land on one chosen piece) and its modifiers, the pieces it
    may strike now and the heroes who may have dealt it (session/apply.py)."""
    from automa.session.apply import hit_dealers, hit_modifiers, hit_shots, hit_targets

    return {
        "shots": [{"name": s.name, "kind": s.kind, "damage": s.damage, "one_piece": s.one_piece}
                  for s in hit_shots()],
        "modifiers": list(hit_modifiers()),
        "targets": hit_targets(state.battle),
        "by": hit_dealers(state),
    }


def build_view(session: Session) -> dict[str, Any]:
    """The `/api/view` object (docs/serve.md) of the battle; `campaign` is None here (the
    board adds the campaign's status, read from its own log: web/following.py)."""
    from automa.render.canvas import MARGIN, SCALE
    from automa.render.json_out import activation_json
    from automa.render.measured import unmeasured_steps
    from automa.render.session_out import latest_activation_text, session_status_json
    from automa.session.replay import replay_steps

    state = session.state
    asked = session.geometry_mode == GeometryMode.ASKED
    steps = list(replay_steps(session)) if state.activations else []
    # asked geometry: what each step left unmeasured, worked out once for the mat and overlay
    by_step = unmeasured_steps(steps) if asked else []
    unmeasured: dict[str, Any] = dict(by_step[-1].after) if by_step else {}
    status = session_status_json(session, frozenset(unmeasured) if asked else None)
    done, undone = session.effective()
    last_input = max((n for n, c in enumerate(done, start=1) if isinstance(c, NextActivation)),
                     default=None)
    mat = state.scenario.playmat
    return {
        "version": version(session),
        "session": session.folder.name,
        "state": status,
        "mat": mat_svg(session, unmeasured),
        "mat_size": [mat.width, mat.length],
        "mat_frame": {"scale": SCALE, "margin": MARGIN, "length": mat.length},
        "playmat": playmat_view(mat),
        "pieces": pieces_view(session, unmeasured),
        "phase": phase(state),
        "round": state.round,
        "turn": turn_order(state),
        "cards": cards_view(state, steps),
        "acting": acting_view(state, steps),
        "last": activation_json(state.activations[-1][1], asked=asked)
        if state.activations else None,
        "last_input": last_input,
        "last_overlay": last_overlay(session, steps, by_step),
        "printout": latest_activation_text(state, session.geometry_mode != GeometryMode.ASKED)
        if state.activations else "",
        "bags": bags_view(state),
        "odds": odds_view(state),
        "sight": sight_view(state),
        "hits": hits_view(state),
        "boards": status["boards"],
        "log": log_view(session),
        "redo": len(undone),
        "dice": DiceMode.PHYSICAL if session.physical else DiceMode.VIRTUAL,
        "geometry": GEOMETRY_NAMES[session.geometry_mode],
        "asks": session.physical or session.geometry_mode != GeometryMode.TRACKED,
        "campaign": None,
        # logged figures this machine computes otherwise: the log's stand until the players
        # go on with this machine's (POST /api/accept-recomputed)
        "contradictions": [c.text(Path(LOG)) for c in session.contradictions],
    }
