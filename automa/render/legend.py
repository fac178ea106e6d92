"""The legend panel right of the mat: the picture's title, what it shows, and what every
colour, shape and dash means."""

from __future__ import annotations

from automa.render.canvas import MARGIN, Canvas
from automa.render.markup import esc
from automa.render.palette import (
    AI,
    BLOCKED,
    BLOCKER,
    HEROES,
    NEUTRAL,
    PATH,
    PUSH,
    SEEN,
    TEMPLATE,
    UNKNOWN,
    ZONE,
)

ROW = 22.0  # px per legend row
WRAP = 40  # characters per line of the title and notes


def _wrap(text: str, width: int = WRAP) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _disc(fill: str, stroke: str = "#000", dash: str = "") -> str:
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<circle cx="15" cy="0" r="8" fill="{fill}" stroke="{stroke}" stroke-width="1.5"'
            f'{dashes}/>')


def _line(colour: str, dash: str = "", arrow: str = "", width: float = 2.0) -> str:
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    head = f' marker-end="url(#arrow-{arrow})"' if arrow else ""
    return (f'<line x1="2" y1="0" x2="28" y2="0" stroke="{colour}" stroke-width="{width}"'
            f'{dashes}{head}/>')


def entries(asked: bool) -> list[tuple[str, str, str]]:
    """(key, sample drawing, meaning), in the order shown."""
    rows = [
        ("heroes", _disc(HEROES), "heroes' side (number: health)"),
        ("ai", _disc(AI, dash="3,2"), "AI's side: dashed ring"),
        ("neutral", _disc(NEUTRAL), "neutral piece"),
    ]
    if asked:
        rows.append(("unmeasured", _disc("#fff", UNKNOWN, "3,3") +
                     f'<text x="15" y="4" font-size="10" fill="{UNKNOWN}" text-anchor="middle" '
                     f'font-weight="bold">?</text>',
                     "place unknown: in the tray below the mat"))
    rows += [
        ("seen", _line(SEEN), "line of sight: seen"),
        ("blocked", _line(BLOCKED, "6,4", width=1.5), "line of sight: blocked"),
        ("blocker", f'<rect x="6" y="-8" width="18" height="16" fill="#444" stroke="{BLOCKER}" '
                    f'stroke-width="4"/><rect x="6" y="-8" width="18" height="16" fill="none" '
                    f'stroke="#000" stroke-width="1.5" stroke-dasharray="4,2"/>',
         "obstacle that blocked a line of sight"),
        ("move", _line(PATH, arrow="path"), "move along a ruler"),
        ("push", _line(PUSH, arrow="push"), "push or retreat: Clock template + ruler"),
        ("summon", _line(PATH, "2,3", "path"), "placed by a summon"),
        ("attack", f'<circle cx="15" cy="0" r="9" fill="{TEMPLATE}" fill-opacity="0.18" '
                   f'stroke="{TEMPLATE}" stroke-width="2"/>', "Attack template on the attacker"),
        ("clock", f'<circle cx="15" cy="0" r="9" fill="{PUSH}" fill-opacity="0.08" '
                  f'stroke="{PUSH}"/><line x1="15" y1="6" x2="15" y2="9" stroke="{PUSH}" '
                  f'stroke-width="2.5"/>', "Clock template: faces 1-12, bold 12"),
        ("rolled", f'<circle cx="15" cy="0" r="7.5" fill="#fff" stroke="{PUSH}" '
                   f'stroke-width="1.5"/><text x="15" y="3.5" font-size="9" fill="#7d2e5d" '
                   f'text-anchor="middle" font-weight="bold">7</text>', "the face the D12 rolled"),
        ("obstacle", '<rect x="6" y="-8" width="18" height="16" fill="#444"/>'
                     '<text x="15" y="4" font-size="10" fill="#fff" text-anchor="middle">A'
                     '</text>', "obstacle"),
        ("rune", '<circle cx="15" cy="0" r="8" fill="none" stroke="#7a5c00" '
                 'stroke-dasharray="2,2"/><text x="15" y="3.5" font-size="9" fill="#7a5c00" '
                 'text-anchor="middle">3</text>', "printed rune"),
        ("hero-zone", f'<rect x="4" y="-7" width="22" height="14" fill="{ZONE["hero"]}" '
                      f'fill-opacity="0.35" stroke="#999"/>', "Hero Start Zone"),
        ("monster-zone", f'<rect x="4" y="-7" width="22" height="14" fill="{ZONE["monster"]}" '
                         f'fill-opacity="0.35" stroke="#999"/>', "Monster Start Zone"),
        ("grid", '<path d="M4 -7V7M14 -7V7M24 -7V7M4 -7H26M4 0H26M4 7H26" stroke="#000" '
                 'stroke-opacity="0.25" stroke-width="0.6" fill="none"/>',
         "grid: 1 cm squares, numbered every 10 cm"),
    ]
    return rows


def legend(canvas: Canvas, title: str, asked: bool) -> None:
    left = canvas.x(canvas.mat.width) + MARGIN * 0.6
    y = MARGIN
    canvas.add(f'<g class="legend" transform="translate({left:.1f} 0)">')
    for line in _wrap(title, 30):
        canvas.add(f'<text x="0" y="{y:.1f}" font-size="15" font-weight="bold" fill="#111">'
                   f'{esc(line)}</text>')
        y += 19
    notes = []
    if asked:
        notes.append("Asked geometry: the table measured no distances. Pieces stand where the "
                     "scenario put them or where the players last said; a piece the AI moved "
                     "since is a dashed ring with ? in the tray below the mat (place unknown), "
                     "and no line or template is drawn from it.")
    for note in notes:
        y += 4
        for line in _wrap(note):
            canvas.add(f'<text class="note" x="0" y="{y:.1f}" font-size="11" fill="#333">'
                       f'{esc(line)}</text>')
            y += 14
    y += 14
    for key, sample, meaning in entries(asked):
        canvas.add(f'<g class="legend-entry" data-key="{key}" transform="translate(0 {y:.1f})">'
                   f'{sample}<text x="38" y="4" font-size="11" fill="#111">{esc(meaning)}</text>'
                   f'</g>')
        y += ROW
    canvas.add("</g>")
