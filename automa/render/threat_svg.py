"""The threat map drawn over the mat: each grid square shaded by how many AI pieces would
choose the hero as their Active Target with the hero's centre there.

The mat, obstacles, runes, pieces and labels are render/svg.py's. The shading is a sequential
scale (viridis-like steps, computed here, safe for colour-blind eyes): a square no AI piece
targets is the lightest step, the more pieces the darker, and a square where the
disc does not fit is left unshaded. One path per step keeps the file small;
each carries its step as data attributes, so tests can read the picture back.
"""

from __future__ import annotations

import numpy as np

from automa.engine.threat import ThreatMap
from automa.model.pieces import Piece
from automa.model.scenario import Scenario
from automa.render.canvas import MARGIN, SCALE, Canvas
from automa.render.markup import esc
from automa.render.svg import _labels, _mat, _pieces

# viridis, light to dark: the fewest pieces the lightest (yellow), the most the darkest
ANCHORS = ((0xFD, 0xE7, 0x25), (0x5E, 0xC9, 0x62), (0x21, 0x91, 0x8C), (0x3B, 0x52, 0x8B),
           (0x44, 0x01, 0x54))
MAX_STEPS = 8  # colour steps in the legend; beyond that several counts share a step
OPACITY = 0.72
MARK = "#000000"


def scale(steps: int) -> list[str]:
    """`steps` colours from light to dark along the viridis anchors (one step: the middle)."""
    if steps <= 1:
        return [_mix(0.5)]
    return [_mix(i / (steps - 1)) for i in range(steps)]


def _mix(t: float) -> str:
    spot = t * (len(ANCHORS) - 1)
    i = min(int(spot), len(ANCHORS) - 2)
    f = spot - i
    rgb = [round(a + (b - a) * f) for a, b in zip(ANCHORS[i], ANCHORS[i + 1], strict=True)]
    return "#" + "".join(f"{c:02X}" for c in rgb)


def levels(threat: ThreatMap) -> tuple[list[tuple[float, float]], list[str]]:
    """The legend's bands of expected pieces and their colours: first exactly none (the
    lightest), then (low, high] up to the most any spot draws."""
    top = float(threat.expected.max()) if len(threat.spots) else 0.0
    count = max(1, min(MAX_STEPS, int(np.ceil(top - 1e-9))))
    width = max(top, 1.0) / count
    bands = [(0.0, 0.0), *((i * width, (i + 1) * width) for i in range(count))]
    return bands, scale(count + 1)


def threat_picture(scenario: Scenario, pieces: list[Piece], threat: ThreatMap,
                   title: str) -> str:
    hero = next(p for p in pieces if p.id == threat.hero)
    canvas = Canvas(scenario.playmat)
    _mat(canvas)
    _squares(canvas, threat)
    drawn = _pieces(canvas, pieces, {})
    _mark(canvas, hero)
    _labels(canvas, drawn)
    _legend(canvas, threat, hero, title)
    return canvas.svg(title)


def _squares(canvas: Canvas, threat: ThreatMap) -> None:
    bands, colours = levels(threat)
    expected = threat.expected
    half = threat.step / 2
    side = threat.step * SCALE
    for (low, high), colour in zip(bands, colours, strict=True):
        last = (low, high) == bands[-1]
        inside = expected <= 1e-9 if high == 0 else \
            (expected > low + 1e-9) & ((expected <= high + 1e-9) | last)
        if not inside.any():
            continue
        d = "".join(f"M{canvas.x(x - half)} {canvas.y(y + half)}h{side:g}v{side:g}h{-side:g}z"
                    for x, y in threat.spots[inside].tolist())
        canvas.add(f'<path class="threat" data-low="{low:g}" data-high="{high:g}" '
                   f'data-spots="{int(inside.sum())}" d="{d}" fill="{colour}" '
                   f'fill-opacity="{OPACITY}" stroke="none"/>')


def _mark(canvas: Canvas, hero: Piece) -> None:
    """The hero's current spot: a bold ring and cross hairs, over the shading."""
    x, y, r = canvas.x(hero.at[0]), canvas.y(hero.at[1]), hero.radius * SCALE
    canvas.add(f'<g class="hero-now" data-x="{hero.at[0]:.3f}" data-y="{hero.at[1]:.3f}">'
               f'<circle cx="{x}" cy="{y}" r="{r + 5:.1f}" fill="none" stroke="#fff" '
               f'stroke-width="5"/><circle cx="{x}" cy="{y}" r="{r + 5:.1f}" fill="none" '
               f'stroke="{MARK}" stroke-width="2.5"/>'
               f'<path d="M{x - r - 12:.1f} {y}h{6:g}M{x + r + 6:.1f} {y}h{6:g}'
               f'M{x} {y - r - 12:.1f}v{6:g}M{x} {y + r + 6:.1f}v{6:g}" stroke="{MARK}" '
               f'stroke-width="2.5"/></g>')


def _legend(canvas: Canvas, threat: ThreatMap, hero: Piece, title: str) -> None:
    left = canvas.x(canvas.mat.width) + MARGIN * 0.6
    y = MARGIN
    lines = [(title, 15, "bold")]
    bands, colours = levels(threat)
    canvas.add(f'<g class="legend" transform="translate({left:.1f} 0)">')
    for text, size, weight in lines:
        canvas.add(f'<text x="0" y="{y:.1f}" font-size="{size}" font-weight="{weight}" '
                   f'fill="#111">{esc(text)}</text>')
        y += 20
    for note in _notes(threat, hero):
        canvas.add(f'<text class="note" x="0" y="{y:.1f}" font-size="11" fill="#333">'
                   f'{esc(note)}</text>')
        y += 14
    y += 10
    canvas.add(f'<text x="0" y="{y:.1f}" font-size="12" font-weight="bold" fill="#111">'
               f'AI pieces choosing {esc(hero.label)}</text>')
    y += 8
    rows = [(band_text(low, high), colour, OPACITY, "none of them" if high == 0 else "")
            for (low, high), colour in zip(bands, colours, strict=True)]
    rows.append(("", "#F7F3EA", 1.0, "unshaded: no room for the disc"))
    for text, colour, opacity, meaning in rows:
        y += 20
        canvas.add(f'<g class="threat-key" data-band="{esc(text)}" '
                   f'transform="translate(0 {y:.1f})"><rect x="4" y="-9" width="26" '
                   f'height="16" fill="{colour}" fill-opacity="{opacity}" stroke="#666"/>'
                   f'<text x="38" y="4" font-size="11" fill="#111">'
                   f'{esc("  ".join(w for w in (text, meaning) if w))}</text></g>')
    y += 26
    canvas.add(f'<g class="threat-key" data-band="hero" transform="translate(0 {y:.1f})">'
               f'<circle cx="17" cy="0" r="8" fill="none" stroke="{MARK}" stroke-width="2.5"/>'
               f'<text x="38" y="4" font-size="11" fill="#111">'
               f'{esc(hero.label)} stands here now</text></g>')
    canvas.add("</g>")


def band_text(low: float, high: float, zero: str = "0") -> str:
    """A colour band's label: `zero` for no piece, `2` for exactly two, else the range."""
    if high == 0:
        return zero
    if high - low == 1 and float(low).is_integer():
        return f"{high:g}"
    return f"over {low:.2g} to {high:.2g}"


def _notes(threat: ThreatMap, hero: Piece) -> list[str]:
    notes = [f"Each square: {hero.label}'s centre there, at the start",
             "of the coming AI turn; no piece moved first.",
             f"Grid: {threat.step:g} cm squares; darker: more pieces."]
    for actor, _ in threat.unmapped:
        notes.append(f"Not mapped: {actor} (moves before it looks).")
    return notes
