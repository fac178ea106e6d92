"""The mat at true scale as SVG: zones, obstacles, runes, pieces with ids and health, and for an
activation its lines of sight, ruler paths, the Attack template, the Clock template and pushes.

Colour-blind safe (the Okabe-Ito palette) and never colour alone: heroes are solid discs, the
AI's have a dashed ring, hidden sight lines are dashed. Every drawn piece carries its model
coordinates as data attributes, so tests (and tools) can read the picture back.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from automa.engine.activation import Activation
from automa.engine.steps import AttackStep, MoveStep
from automa.model.pieces import Piece
from automa.model.playmat import Playmat
from automa.model.scenario import Scenario
from automa.render.markup import esc

SCALE = 10.0  # px per cm
MARGIN = 30.0
HEROES, AI, NEUTRAL = "#0072B2", "#D55E00", "#999999"  # blue, vermilion, grey
SEEN, HIDDEN, PATH, TEMPLATE, PUSH = "#009E73", "#999999", "#000000", "#E69F00", "#CC79A7"
ZONE = {"hero": "#56B4E9", "monster": "#F0E442"}


class Canvas:
    """Mat coordinates (cm, y toward the Monster Start Zone) to SVG pixels (y down)."""

    def __init__(self, playmat: Playmat) -> None:
        self.mat = playmat
        self.width = playmat.width * SCALE + 2 * MARGIN
        self.height = playmat.length * SCALE + 2 * MARGIN
        self.parts: list[str] = []

    def x(self, value: float) -> float:
        return round(MARGIN + value * SCALE, 2)

    def y(self, value: float) -> float:
        return round(MARGIN + (self.mat.length - value) * SCALE, 2)

    def add(self, text: str) -> None:
        self.parts.append(text)

    def svg(self, title: str) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:.0f}" '
                f'height="{self.height:.0f}" viewBox="0 0 {self.width:.0f} {self.height:.0f}" '
                f'font-family="sans-serif" data-scale="{SCALE}" data-margin="{MARGIN}" '
                f'data-length="{self.mat.length}">')
        return "\n".join([head, f"<title>{esc(title)}</title>", *self.parts, "</svg>"]) + "\n"


def _mat(canvas: Canvas) -> None:
    mat = canvas.mat
    canvas.add(f'<rect x="{canvas.x(0)}" y="{canvas.y(mat.length)}" '
               f'width="{mat.width * SCALE}" height="{mat.length * SCALE}" fill="#F7F3EA" '
               f'stroke="#333" stroke-width="2"/>')
    for zone, low, high in (("hero", 0.0, mat.hero_zone), ("monster", mat.monster_zone,
                                                           mat.length)):
        canvas.add(f'<rect class="zone" data-zone="{zone}" x="{canvas.x(0)}" y="{canvas.y(high)}"'
                   f' width="{mat.width * SCALE}" height="{(high - low) * SCALE}" '
                   f'fill="{ZONE[zone]}" fill-opacity="0.25"/>')
        label = "Hero Start Zone" if zone == "hero" else "Monster Start Zone"
        canvas.add(f'<text x="{canvas.x(1)}" y="{canvas.y((low + high) / 2)}" font-size="12" '
                   f'fill="#333">{label}</text>')
    for obstacle in mat.obstacles:
        if obstacle.circle is not None:
            cx, cy, r = obstacle.circle
            shape = (f'<circle cx="{canvas.x(cx)}" cy="{canvas.y(cy)}" r="{r * SCALE}" ')
            centre = (cx, cy)
        else:
            points = " ".join(f"{canvas.x(px)},{canvas.y(py)}" for px, py in obstacle.polygon)
            shape = f'<polygon points="{points}" '
            centre = (sum(p[0] for p in obstacle.polygon) / len(obstacle.polygon),
                      sum(p[1] for p in obstacle.polygon) / len(obstacle.polygon))
        canvas.add(shape + f'class="obstacle" data-obstacle="{esc(obstacle.id)}" '
                           f'fill="#444" stroke="#000"/>')
        canvas.add(f'<text x="{canvas.x(centre[0])}" y="{canvas.y(centre[1]) + 4}" '
                   f'font-size="12" fill="#fff" text-anchor="middle">{esc(obstacle.id)}</text>')
    for number, (rx, ry) in sorted(mat.runes.items()):
        canvas.add(f'<circle class="rune" data-rune="{number}" cx="{canvas.x(rx)}" '
                   f'cy="{canvas.y(ry)}" r="{mat.rune_radius * SCALE}" fill="none" '
                   f'stroke="#7a5c00" stroke-dasharray="2,2"/>')
        canvas.add(f'<text x="{canvas.x(rx)}" y="{canvas.y(ry) + 4}" font-size="10" '
                   f'fill="#7a5c00" text-anchor="middle">{number}</text>')


def _pieces(canvas: Canvas, pieces: Iterable[Piece]) -> None:
    for piece in pieces:
        colour = {"heroes": HEROES, "ai": AI}.get(piece.side, NEUTRAL)
        dash = ' stroke-dasharray="4,2"' if piece.side == "ai" else ""
        x, y = canvas.x(piece.at[0]), canvas.y(piece.at[1])
        health = "" if piece.health is None else str(piece.health)
        canvas.add(f'<g class="piece" data-piece="{esc(piece.id)}" data-side="{esc(piece.side)}" '
                   f'data-x="{piece.at[0]:.3f}" data-y="{piece.at[1]:.3f}" '
                   f'data-health="{health}">')
        canvas.add(f'<circle cx="{x}" cy="{y}" r="{piece.radius * SCALE}" fill="{colour}" '
                   f'fill-opacity="0.85" stroke="#000" stroke-width="1.5"{dash}/>')
        canvas.add(f'<text x="{x}" y="{y + 4}" font-size="11" fill="#fff" text-anchor="middle" '
                   f'font-weight="bold">{esc(health)}</text>')
        canvas.add(f'<text x="{x}" y="{y - piece.radius * SCALE - 4}" font-size="11" '
                   f'fill="#000" text-anchor="middle">{esc(piece.id)}</text>')
        canvas.add("</g>")


def _arrow_defs(canvas: Canvas) -> None:
    canvas.add('<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
               'markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
               'fill="context-stroke"/></marker></defs>')


def _activation(canvas: Canvas, activation: Activation, before: dict[str, Piece]) -> None:
    actor = before.get(activation.character)
    if actor is not None:
        for sighting in (*activation.visible, *activation.hidden):
            other = before.get(sighting.via or sighting.target)  # the piece measured to
            if other is None:
                continue
            style = (f'stroke="{SEEN}" stroke-width="2"' if sighting.visible else
                     f'stroke="{HIDDEN}" stroke-width="1.5" stroke-dasharray="6,4"')
            canvas.add(f'<line class="sight" data-target="{esc(sighting.target)}" '
                       f'data-visible="{str(sighting.visible).lower()}" '
                       f'x1="{canvas.x(actor.at[0])}" y1="{canvas.y(actor.at[1])}" '
                       f'x2="{canvas.x(other.at[0])}" y2="{canvas.y(other.at[1])}" {style}/>')
    positions = {k: p.at for k, p in before.items()}
    for step in activation.steps:
        if isinstance(step, MoveStep):
            colour = PUSH if step.clock is not None and step.why != "summoned" else PATH
            if step.clock is not None and step.why != "summoned":
                _clock(canvas, step.start)
            canvas.add(f'<line class="move" data-piece="{esc(step.piece)}" '
                       f'data-why="{esc(step.why)}" x1="{canvas.x(step.start[0])}" '
                       f'y1="{canvas.y(step.start[1])}" x2="{canvas.x(step.end[0])}" '
                       f'y2="{canvas.y(step.end[1])}" stroke="{colour}" stroke-width="2.5" '
                       f'marker-end="url(#arrow)"/>')
            positions[step.piece] = step.end
        elif isinstance(step, AttackStep) and step.piece in positions:
            ax, ay = positions[step.piece]
            radius = before[step.piece].radius if step.piece in before else 1.25
            canvas.add(f'<circle class="attack-template" cx="{canvas.x(ax)}" cy="{canvas.y(ay)}"'
                       f' r="{(radius + step.margin if step.covers else radius) * SCALE}" '
                       f'fill="{TEMPLATE}" fill-opacity="0.2" stroke="{TEMPLATE}" '
                       f'stroke-width="2"/>')


def _clock(canvas: Canvas, start: tuple[float, float]) -> None:
    """A small clock face on the pushed piece: its twelve ticks and the direction taken."""
    cx, cy = canvas.x(start[0]), canvas.y(start[1])
    canvas.add(f'<circle class="clock" cx="{cx}" cy="{cy}" r="30" fill="none" stroke="{PUSH}" '
               f'stroke-dasharray="3,3"/>')
    for hour in range(12):
        dx, dy = math.sin(math.radians(hour * 30)), math.cos(math.radians(hour * 30))
        canvas.add(f'<line x1="{cx + 26 * dx:.1f}" y1="{cy - 26 * dy:.1f}" '
                   f'x2="{cx + 30 * dx:.1f}" y2="{cy - 30 * dy:.1f}" stroke="{PUSH}"/>')


def picture(scenario: Scenario, pieces: Iterable[Piece], title: str,
            activation: Activation | None = None,
            before: Iterable[Piece] | None = None) -> str:
    canvas = Canvas(scenario.playmat)
    _arrow_defs(canvas)
    _mat(canvas)
    if activation is not None:
        _activation(canvas, activation, {p.id: p for p in (before or pieces)})
    _pieces(canvas, pieces)
    return canvas.svg(title)
