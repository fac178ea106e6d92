"""What an activation did, drawn over the mat: lines of sight (seen or blocked), ruler moves,
pushes and retreats with the Clock template that gave their direction, summon placements, and
the Attack template. Nothing is drawn from a spot the table never measured."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from automa.engine.activation import Activation
from automa.engine.steps import AttackStep, MoveStep
from automa.geometry.templates import TOWARD_HERO_ZONE, TOWARD_MONSTER_ZONE, rotate_clockwise
from automa.model.components import Components
from automa.model.pieces import Piece
from automa.model.playmat import Obstacle
from automa.model.scenario import Scenario
from automa.render.canvas import SCALE, Canvas, Point
from automa.render.markup import esc
from automa.render.palette import BLOCKED, BLOCKER, PATH, PUSH, SEEN, TEMPLATE, side_colour

FULL = tuple(30.0 * face for face in range(1, 13))  # a plain clock, when no components are given
HALF = tuple(-82.5 + 15.0 * face for face in range(12))
MARKERS = {"path": PATH, "push": PUSH}


def arrow_defs(canvas: Canvas) -> None:
    """Arrowheads in each move colour (no context-stroke: PNG renderers lack it)."""
    marks = "".join(f'<marker id="arrow-{name}" viewBox="0 0 10 10" refX="9" refY="5" '
                    f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
                    f'<path d="M 0 0 L 10 5 L 0 10 z" fill="{colour}"/></marker>'
                    for name, colour in MARKERS.items())
    canvas.add(f"<defs>{marks}</defs>")


def activation_overlay(canvas: Canvas, scenario: Scenario, activation: Activation,
                       before: Mapping[str, Piece], components: Components | None,
                       unmeasured: Mapping[str, Point | None], asked: bool) -> None:
    known = {pid: p.at for pid, p in before.items() if pid not in unmeasured}
    _sight_lines(canvas, scenario, activation, known)
    drawn_templates = set()
    for step in activation.steps:
        if isinstance(step, MoveStep):
            start_known = any(at == step.start for at in known.values())  # who stands there
            if step.clock is not None and start_known:
                _clock(canvas, scenario, step, components)
            if asked:  # the table slid the real ruler: where it stopped was never measured
                known.pop(step.piece, None)
                continue
            kind = "push" if step.clock is not None and step.why != "summoned" else "path"
            dots = ' stroke-dasharray="2,3"' if step.why == "summoned" else ""
            canvas.add(f'<line class="move" data-piece="{esc(step.piece)}" '
                       f'data-why="{esc(step.why)}" x1="{canvas.x(step.start[0])}" '
                       f'y1="{canvas.y(step.start[1])}" x2="{canvas.x(step.end[0])}" '
                       f'y2="{canvas.y(step.end[1])}" stroke="{MARKERS[kind]}" '
                       f'stroke-width="2.5"{dots} marker-end="url(#arrow-{kind})"/>')
            known[step.piece] = step.end
        elif isinstance(step, AttackStep) and step.piece in known:
            at = known[step.piece]
            if (step.piece, at) not in drawn_templates:
                drawn_templates.add((step.piece, at))
                _attack_template(canvas, scenario, at, components, step)


def gone_pieces(canvas: Canvas, activation: Activation, before: Mapping[str, Piece],
                after: Iterable[str]) -> None:
    """Each piece the activation took out of play, drawn faded where it stood before it
    (`data-x`, `data-y`: that spot in cm, for a page to move it along the steps as it moves the
    pieces) until the step that took it (`data-until`: that step's number, from 0)."""
    staying = set(after)
    for piece_id, piece in before.items():
        until = None if piece_id in staying else _leaving_step(activation, before, piece)
        if until is None:
            continue
        x, y = canvas.x(piece.at[0]), canvas.y(piece.at[1])
        colour = side_colour(piece.side)
        health = "" if piece.health is None else str(piece.health)
        radius = piece.radius * SCALE
        canvas.add(f'<g class="overlay-gone" data-piece="{esc(piece_id)}" data-until="{until}" '
                   f'data-x="{piece.at[0]:.3f}" data-y="{piece.at[1]:.3f}" opacity="0.55">'
                   f'<circle cx="{x}" cy="{y}" r="{radius}" fill="{colour}" stroke="#000" '
                   f'stroke-width="1.5" stroke-dasharray="2,2"/>'
                   f'<text x="{x}" y="{y + 4}" font-size="11" fill="#fff" text-anchor="middle" '
                   f'font-weight="bold">{esc(health)}</text>'
                   f'<text x="{x}" y="{y - radius - 4:.1f}" font-size="11" fill="#000" '
                   f'text-anchor="middle">{esc(piece_id)}</text></g>')


def _leaving_step(activation: Activation, before: Mapping[str, Piece], piece: Piece,
                  depth: int = 0) -> int | None:
    """The step at which `piece` left play: its death (damage that killed it, a petrifying
    effect), else the last step naming it; a part of another piece (Ulom's claw) leaves with
    its owner. None when no step tells."""
    owner = before.get(piece.part_of) if piece.part_of is not None else None
    if owner is not None and depth < len(before):
        return _leaving_step(activation, before, owner, depth + 1)
    named = [i for i, step in enumerate(activation.steps)
             if getattr(step, "piece", None) == piece.id]
    deaths = [i for i in named if getattr(activation.steps[i], "died", False)
              or getattr(activation.steps[i], "effect", None) == "petrify"]
    return deaths[0] if deaths else (named[-1] if named else None)


def _sight_lines(canvas: Canvas, scenario: Scenario, activation: Activation,
                 known: Mapping[str, Point]) -> None:
    """A line from the actor to each piece it looked at: solid where it sees it, dashed where
    an obstacle blocks the line (`data-blockers`: the obstacles the engine found on it, none
    when the table answered), then each blocking obstacle outlined (`g.blocker`)."""
    actor = known.get(activation.character)
    if actor is None:
        return
    blocking: dict[str, list[str]] = {}  # obstacle id -> the pieces it hides
    for sighting in (*activation.visible, *activation.hidden):
        other = known.get(sighting.via or sighting.target)  # the piece measured to
        if other is None:
            continue
        style = (f'stroke="{SEEN}" stroke-width="2"' if sighting.visible else
                 f'stroke="{BLOCKED}" stroke-width="1.5" stroke-dasharray="6,4"')
        blockers = "" if sighting.visible else \
            f' data-blockers="{esc(" ".join(sighting.blockers))}"'
        canvas.add(f'<line class="sight" data-target="{esc(sighting.target)}" '
                   f'data-visible="{str(sighting.visible).lower()}"{blockers} '
                   f'x1="{canvas.x(actor[0])}" y1="{canvas.y(actor[1])}" '
                   f'x2="{canvas.x(other[0])}" y2="{canvas.y(other[1])}" {style}/>')
        if not sighting.visible:
            for obstacle in sighting.blockers:
                blocking.setdefault(obstacle, []).append(sighting.target)
    obstacles = {o.id: o for o in scenario.playmat.obstacles}
    for obstacle_id, hidden in blocking.items():
        if obstacle_id in obstacles:
            _blocker(canvas, obstacles[obstacle_id], activation.character, hidden)


def _blocker(canvas: Canvas, obstacle: Obstacle, viewer: str, hidden: list[str]) -> None:
    """An obstacle that blocks the actor's sight, outlined: a wide yellow band under a dashed
    black line (a shape as well as a colour), named for a screen reader."""
    if obstacle.circle is not None:
        cx, cy, r = obstacle.circle
        shape = f'<circle cx="{canvas.x(cx)}" cy="{canvas.y(cy)}" r="{r * SCALE}" '
    else:
        points = " ".join(f"{canvas.x(px)},{canvas.y(py)}" for px, py in obstacle.polygon)
        shape = f'<polygon points="{points}" '
    canvas.add(f'<g class="blocker" data-obstacle="{esc(obstacle.id)}" '
               f'data-hides="{esc(" ".join(hidden))}"><title>{esc(obstacle.id)} blocks '
               f'{esc(viewer)}\'s sight of {esc(", ".join(hidden))}</title>'
               f'{shape}fill="none" stroke="{BLOCKER}" stroke-width="7" '
               f'stroke-linejoin="round"/>'
               f'{shape}fill="none" stroke="#000" stroke-width="2.5" stroke-dasharray="7,4" '
               f'stroke-linejoin="round"/></g>')


def _attack_template(canvas: Canvas, scenario: Scenario, at: Point,
                     components: Components | None, step: AttackStep) -> None:
    common = (f'class="attack-template" data-piece="{esc(step.piece)}" '
              f'data-covers="{str(step.covers).lower()}" fill="{TEMPLATE}" fill-opacity="0.18" '
              f'stroke="{TEMPLATE}" stroke-width="2"')
    if components is not None and components.attack.polygon:
        points = " ".join(f"{canvas.x(at[0] + px)},{canvas.y(at[1] + py)}"
                          for px, py in components.attack.polygon)
        canvas.add(f'<polygon points="{points}" {common}/>')
        return
    radius = scenario.templates.attack_radius * SCALE
    canvas.add(f'<circle cx="{canvas.x(at[0])}" cy="{canvas.y(at[1])}" r="{radius}" {common}/>')


def _clock(canvas: Canvas, scenario: Scenario, step: MoveStep,
           components: Components | None) -> None:
    """The Clock template on the piece as the engine laid it: its faces numbered, face 12 where
    it pointed (toward the Hero Start Zone, or the mat centre on the reverse side), the rolled
    face ringed. The half Clock template spreads its twelve faces over the half circle."""
    assert step.clock is not None
    half = step.tool.startswith("half Clock")
    clock = components.clock if components is not None else None
    if half:
        base, angles = TOWARD_MONSTER_ZONE, clock.half if clock else HALF
        side = "half"
    elif "(reverse)" in step.tool:
        mid = scenario.playmat.centre
        dx, dy = mid[0] - step.start[0], mid[1] - step.start[1]
        norm = math.hypot(dx, dy)
        base = (dx / norm, dy / norm) if norm > 1e-9 else TOWARD_HERO_ZONE
        angles, side = (clock.reverse if clock else FULL), "reverse"
    else:
        base, angles, side = TOWARD_HERO_ZONE, (clock.front if clock else FULL), "front"
    cx, cy = canvas.x(step.start[0]), canvas.y(step.start[1])
    radius = scenario.templates.clock_radius * SCALE
    twelve = rotate_clockwise(base, angles[11])
    canvas.add(f'<g class="clock" data-side="{side}" data-face="{step.clock}" '
               f'data-twelve="{twelve[0]:.4f} {twelve[1]:.4f}">')
    if half:
        start, end = rotate_clockwise(base, -90.0), rotate_clockwise(base, 90.0)
        canvas.add(f'<path d="M{cx + radius * start[0]:.1f} {cy - radius * start[1]:.1f} '
                   f'A{radius} {radius} 0 0 1 {cx + radius * end[0]:.1f} '
                   f'{cy - radius * end[1]:.1f}Z" fill="{PUSH}" fill-opacity="0.08" '
                   f'stroke="{PUSH}" stroke-width="1.5"/>')
    else:
        canvas.add(f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{PUSH}" fill-opacity="0.08" '
                   f'stroke="{PUSH}" stroke-width="1.5"/>')
    for face in range(1, 13):
        ux, uy = rotate_clockwise(base, angles[face - 1])
        sx, sy = ux, -uy  # screen y runs down
        canvas.add(f'<line x1="{cx + sx * radius * 0.86:.1f}" y1="{cy + sy * radius * 0.86:.1f}" '
                   f'x2="{cx + sx * radius:.1f}" y2="{cy + sy * radius:.1f}" stroke="{PUSH}" '
                   f'stroke-width="{2.5 if face == 12 and not half else 1}"/>')
        nx, ny = cx + sx * radius * 0.7, cy + sy * radius * 0.7
        rolled = face == step.clock
        if rolled:
            canvas.add(f'<circle cx="{nx:.1f}" cy="{ny:.1f}" r="7.5" fill="#fff" '
                       f'stroke="{PUSH}" stroke-width="1.5"/>')
        weight = ' font-weight="bold"' if rolled or (face == 12 and not half) else ""
        canvas.text(nx, ny + 3.5, str(face), 9, "#7d2e5d", "middle",
                    f' class="clock-face" data-face="{face}"{weight}')
    canvas.add("</g>")
