"""The mat at true scale as SVG: a light cm grid, zones, obstacles, runes, pieces with ids and
health, a legend, and for an activation its lines of sight, ruler paths, the Attack template,
the Clock template with its numbered faces, and pushes.

Colour-blind safe (the Okabe-Ito palette) and never colour alone: heroes are solid discs, the
AI's have a dashed ring, blocked sight lines are dashed. Labels never overlap each other or a
piece (automa/render/labels.py). Every drawn piece carries its model coordinates as data
attributes, so tests (and tools) can read the picture back. Every user string goes through
`esc` (automa/render/markup.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from automa.engine.activation import Activation
from automa.model.components import Components
from automa.model.pieces import Piece, Side
from automa.model.scenario import Scenario
from automa.render.canvas import MARGIN, SCALE, Canvas, Point
from automa.render.labels import FONT, PAD, Box, Disc, place_labels
from automa.render.legend import legend
from automa.render.markup import esc
from automa.render.measured import Unmeasured
from automa.render.overlays import activation_overlay, arrow_defs
from automa.render.palette import UNKNOWN, ZONE, side_colour
from automa.render.tray import GAP_PX, TITLE_PX, largest_radius, tray_height, tray_spots
from automa.render.tray import TITLE as TRAY_TITLE


def _mat(canvas: Canvas) -> None:
    mat = canvas.mat
    canvas.add(f'<rect class="mat" x="{canvas.x(0)}" y="{canvas.y(mat.length)}" '
               f'width="{mat.width * SCALE}" height="{mat.length * SCALE}" fill="#F7F3EA"/>')
    for zone, low, high in (("hero", 0.0, mat.hero_zone), ("monster", mat.monster_zone,
                                                           mat.length)):
        canvas.add(f'<rect class="zone" data-zone="{zone}" x="{canvas.x(0)}" y="{canvas.y(high)}"'
                   f' width="{mat.width * SCALE}" height="{(high - low) * SCALE}" '
                   f'fill="{ZONE[zone]}" fill-opacity="0.25"/>')
    _grid(canvas)
    canvas.add(f'<rect x="{canvas.x(0)}" y="{canvas.y(mat.length)}" width="{mat.width * SCALE}"'
               f' height="{mat.length * SCALE}" fill="none" stroke="#333" stroke-width="2"/>')
    for zone, low, high in (("hero", 0.0, mat.hero_zone), ("monster", mat.monster_zone,
                                                           mat.length)):
        label = "Hero Start Zone" if zone == "hero" else "Monster Start Zone"
        canvas.text(canvas.x(0.6), canvas.y((low + high) / 2) + 4, label, 11, "#555")
    for obstacle in mat.obstacles:
        if obstacle.circle is not None:
            cx, cy, r = obstacle.circle
            shape = f'<circle cx="{canvas.x(cx)}" cy="{canvas.y(cy)}" r="{r * SCALE}" '
            centre = (cx, cy)
            box = Box(canvas.x(cx - r), canvas.y(cy + r), canvas.x(cx + r), canvas.y(cy - r))
        else:
            points = " ".join(f"{canvas.x(px)},{canvas.y(py)}" for px, py in obstacle.polygon)
            shape = f'<polygon points="{points}" '
            xs, ys = [p[0] for p in obstacle.polygon], [p[1] for p in obstacle.polygon]
            centre = (sum(xs) / len(xs), sum(ys) / len(ys))
            box = Box(canvas.x(min(xs)), canvas.y(max(ys)), canvas.x(max(xs)), canvas.y(min(ys)))
        canvas.blocked.append(box)
        canvas.add(shape + f'class="obstacle" data-obstacle="{esc(obstacle.id)}" '
                           f'fill="#444" stroke="#000"/>')
        canvas.text(canvas.x(centre[0]), canvas.y(centre[1]) + 4, obstacle.id, 12, "#fff",
                    "middle")
    for number, (rx, ry) in sorted(mat.runes.items()):
        r = mat.rune_radius
        canvas.blocked.append(Box(canvas.x(rx - r), canvas.y(ry + r), canvas.x(rx + r),
                                  canvas.y(ry - r)))
        canvas.add(f'<circle class="rune" data-rune="{number}" cx="{canvas.x(rx)}" '
                   f'cy="{canvas.y(ry)}" r="{r * SCALE}" fill="none" '
                   f'stroke="#7a5c00" stroke-dasharray="2,2"/>')
        canvas.text(canvas.x(rx), canvas.y(ry) + 4, str(number), 10, "#7a5c00", "middle")


def _grid(canvas: Canvas) -> None:
    """1 cm squares at true scale, a darker line and a label every 10 cm."""
    mat = canvas.mat
    light: list[str] = []
    strong: list[str] = []
    for cm in range(1, int(mat.width) + 1):
        if cm < mat.width:
            (strong if cm % 10 == 0 else light).append(
                f"M{canvas.x(cm)} {canvas.y(0)}V{canvas.y(mat.length)}")
    for cm in range(1, int(mat.length) + 1):
        if cm < mat.length:
            (strong if cm % 10 == 0 else light).append(
                f"M{canvas.x(0)} {canvas.y(cm)}H{canvas.x(mat.width)}")
    canvas.add(f'<path class="grid" d="{"".join(light)}" stroke="#000" stroke-opacity="0.07" '
               f'stroke-width="0.6"/>')
    canvas.add(f'<path class="grid grid-10" d="{"".join(strong)}" stroke="#000" '
               f'stroke-opacity="0.18" stroke-width="0.8"/>')
    for cm in range(0, int(mat.width) + 1, 10):
        canvas.text(canvas.x(cm), canvas.y(0) + 16, f"{cm}", 10, "#666", "middle",
                    ' class="grid-label"', block=False)
    for cm in range(0, int(mat.length) + 1, 10):
        canvas.text(canvas.x(0) - 6, canvas.y(cm) + 4, f"{cm}", 10, "#666", "end",
                    ' class="grid-label"', block=False)
    canvas.text(canvas.x(0) - 6, canvas.y(0) + 16, "cm", 10, "#666", "end",
                ' class="grid-label"', block=False)


def _pieces(canvas: Canvas, pieces: Iterable[Piece], tray: Mapping[str, Point]
            ) -> list[tuple[Piece, Disc]]:
    """Each piece at its spot, or (asked geometry) in the tray below the mat when nobody
    measured its place; the mat's pieces are returned for their labels."""
    pieces = list(pieces)
    name_below = largest_radius([p for p in pieces if p.id in tray]) if tray else 0.0
    drawn = []
    for piece in pieces:
        known = piece.id not in tray
        at = piece.at if known else tray[piece.id]
        x, y, r = canvas.x(at[0]), canvas.y(at[1]), piece.radius * SCALE
        health = "" if piece.health is None else str(piece.health)
        where = "" if known else ' data-tray="true"'
        canvas.add(f'<g class="piece" data-piece="{esc(piece.id)}" data-side="{esc(piece.side)}" '
                   f'data-x="{at[0]:.3f}" data-y="{at[1]:.3f}" data-health="{esc(health)}" '
                   f'data-measured="{str(known).lower()}"{where}>')
        colour = side_colour(piece.side)
        if known:
            dash = ' stroke-dasharray="4,2"' if piece.side == Side.AI else ""
            canvas.add(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}" fill-opacity="0.9" '
                       f'stroke="#000" stroke-width="1.5"{dash}/>')
            canvas.add(f'<text x="{x}" y="{y + 4}" font-size="11" fill="#fff" '
                       f'text-anchor="middle" font-weight="bold">{esc(health)}</text>')
        else:
            canvas.add(f'<circle cx="{x}" cy="{y}" r="{r}" fill="#fff" fill-opacity="0.6" '
                       f'stroke="{colour}" stroke-width="2" stroke-dasharray="3,3"/>')
            canvas.add(f'<text x="{x}" y="{y + 4}" font-size="12" fill="{UNKNOWN}" '
                       f'text-anchor="middle" font-weight="bold">?</text>')
            canvas.add(f'<text class="tray-name" x="{x}" y="{y + name_below + NAME_BASELINE:.1f}" '
                       f'font-size="{FONT:g}" fill="#000" text-anchor="middle">'
                       f'{esc(piece.id)}</text>')
        canvas.add("</g>")
        if known:
            drawn.append((piece, Disc(x, y, r)))
    return drawn


NAME_BASELINE = 13.0  # px from a tray disc's bottom to its name's baseline


def _tray(canvas: Canvas, pieces: list[Piece]) -> dict[str, Point]:
    """Asked geometry: the strip below the mat for the pieces nobody measured (render/tray.py),
    its title, and each one's spot there."""
    if not pieces:
        return {}
    canvas.below = tray_height(canvas.mat, pieces)
    top = canvas.y(0) + MARGIN
    canvas.add(f'<g class="tray"><rect x="{canvas.x(0)}" y="{top:.1f}" '
               f'width="{canvas.mat.width * SCALE}" height="{canvas.below - GAP_PX / 2:.1f}" '
               f'rx="6" fill="#f2f2f2" stroke="{UNKNOWN}" stroke-dasharray="6,4"/>')
    canvas.text(canvas.x(0) + 8, top + TITLE_PX - 8, TRAY_TITLE, 12, "#111", block=False,
                extra=' class="tray-title" font-weight="bold"')
    canvas.add("</g>")
    return tray_spots(canvas.mat, pieces)


def _labels(canvas: Canvas, drawn: list[tuple[Piece, Disc]]) -> None:
    discs = [disc for _, disc in drawn]
    boxes = place_labels([(disc, piece.id) for piece, disc in drawn], discs, canvas.blocked,
                         canvas.mat_box)
    for (piece, disc), placed in zip(drawn, boxes, strict=True):
        box = placed.box
        canvas.add(f'<g class="label" data-for="{esc(piece.id)}" '
                   f'data-box="{box.x0:.1f} {box.y0:.1f} {box.x1:.1f} {box.y1:.1f}">')
        if placed.leader:
            end = (min(max(disc.x, box.x0), box.x1), min(max(disc.y, box.y0), box.y1))
            length = math.hypot(end[0] - disc.x, end[1] - disc.y) or 1.0
            start = (disc.x + (end[0] - disc.x) * disc.r / length,
                     disc.y + (end[1] - disc.y) * disc.r / length)  # from the disc's edge
            canvas.add(f'<line class="leader" x1="{start[0]:.1f}" y1="{start[1]:.1f}" '
                       f'x2="{end[0]:.1f}" y2="{end[1]:.1f}" stroke="#555" '
                       f'stroke-width="0.8"/>')
        canvas.add(f'<rect x="{box.x0:.1f}" y="{box.y0:.1f}" width="{box.x1 - box.x0:.1f}" '
                   f'height="{box.y1 - box.y0:.1f}" rx="2" fill="#fff" fill-opacity="0.85"/>')
        canvas.add(f'<text x="{box.x0 + PAD:.1f}" y="{box.y1 - PAD - FONT * 0.3:.1f}" '
                   f'font-size="{FONT:g}" fill="#000">{esc(piece.id)}</text>')
        canvas.add("</g>")


def picture(scenario: Scenario, pieces: Iterable[Piece], title: str,
            activation: Activation | None = None, before: Iterable[Piece] | None = None,
            components: Components | None = None, unmeasured: Unmeasured | None = None) -> str:
    """The mat with `pieces`; with `activation`, what it did from the table `before` it.
    `components` gives the real Clock faces and Attack template shape (else plain ones).
    `unmeasured` (asked geometry): pieces whose spot the table never gave are drawn hollow in
    a tray below the mat, marked "place unknown" (render/tray.py), and no line or template is
    drawn from them."""
    canvas = Canvas(scenario.playmat)
    arrow_defs(canvas)
    _mat(canvas)
    asked = unmeasured is not None
    if activation is not None:
        activation_overlay(canvas, scenario, activation, {p.id: p for p in (before or pieces)},
                           components, unmeasured.before if unmeasured else {}, asked)
    pieces = list(pieces)
    after = unmeasured.after if unmeasured else {}
    tray = _tray(canvas, [p for p in pieces if p.id in after])
    drawn = _pieces(canvas, pieces, tray)
    _labels(canvas, drawn)
    legend(canvas, title, asked)
    return canvas.svg(title)
