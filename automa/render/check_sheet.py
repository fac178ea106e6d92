"""A 1:1 check sheet: the rulers, templates and discs of the data in force, drawn at true size.

One SVG per page, in millimetres (width="210mm", viewBox in mm: one user unit is one mm), so a
player prints it at 100 % and lays the real ruler, template or disc on its drawing. Every page
carries a 10 cm scale bar to check the printer did not scale it.
"""

from __future__ import annotations

import itertools
import math
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

from automa.model.components import Components

PAPERS: Mapping[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 12.0  # mm: inside what most printers can print
GAP = 7.0
FONT = 3.5  # mm
HEADER = 44.0  # mm: title, print instructions, scale bar
LABEL = FONT + 3.0
NOTE_LINE = 5.0
NOTE_FONT = 3.0
CHAR = 0.55  # a character's width, as a share of the font size (sans-serif, generous)
PRINT_NOTE = ("Print at 100 % / actual size: no fit-to-page, no scaling.",
              "Lay a ruler on the 10 cm bar: if it is not 10 cm long, the printer scaled the page.")


@dataclass(frozen=True)
class Item:
    """One drawing: `kind` "length" (a straight measure) or "circle"; sizes in mm."""

    id: str
    label: str
    kind: str
    size: float  # the length, or the diameter
    ticks: tuple[float, ...] = ()  # clock faces: degrees clockwise from face 12

    @property
    def lines(self) -> list[str]:
        return self.label.split("\n")

    @property
    def width(self) -> float:
        return max(self.size, max(len(line) for line in self.lines) * FONT * CHAR)

    @property
    def height(self) -> float:
        return LABEL * len(self.lines) + (self.size if self.kind == "circle" else 8.0)


def _fmt(value: float) -> str:
    return f"{value:g}"


def _num(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def items(components: Components, yours: frozenset[str]) -> tuple[Item, ...]:
    """What to draw, from the data in force; `yours` names the records the player's folder
    gives (the rest are our placeholders)."""
    def whose(name: str) -> str:
        return "yours" if name in yours else "our placeholder"

    found = [Item(f"ruler-{n}", f"Ruler {n}: {_fmt(length)} cm end to end ({whose(f'ruler.{n}')})",
                  "length", 10 * length) for n, length in sorted(components.rulers.items())]
    d = 2 * components.clock.radius
    found.append(Item("clock-template", f"Clock template: {_fmt(d)} cm across, front faces\n"
                      f"({whose('clock-template')})", "circle", 10 * d, components.clock.front))
    if not components.attack.polygon:
        d = 2 * components.attack.radius
        found.append(Item("attack-template", f"Attack template: {_fmt(d)} cm across\n"
                          f"({whose('attack-template')})", "circle", 10 * d))
    for size, radius in components.disc_radius.items():
        found.append(Item(f"disc-{size}", f"{size} disc: {_fmt(2 * radius)} cm\n"
                          f"({whose(f'disc.{size}')})", "circle", 20 * radius))
    return tuple(found)


def _split(item: Item, room: float) -> list[Item]:
    """A drawing wider than the page becomes its length in parts of whole centimetres, one
    under the other, each saying where on the real piece it starts and ends."""
    if item.size <= room:
        return [item]
    step = 10 * math.floor(room / 10)
    cuts = [*range(0, math.ceil(item.size), int(step)), item.size]
    if cuts[-2] >= item.size:
        cuts.pop(-2)
    parts = len(cuts) - 1
    return [Item(f"{item.id}-part-{i + 1}",
                 f"{item.label.split(':')[0]}, part {i + 1} of {parts}: {_fmt(start / 10)} "
                 f"to {_fmt(end / 10)} cm of {_fmt(item.size / 10)}", "length", end - start)
            for i, (start, end) in enumerate(itertools.pairwise(cuts))]


def _free(placed: list[tuple[Item, float, float]], item: Item, x: float, y: float,
          right: float, bottom: float) -> bool:
    if x + item.width > right + 1e-9 or y + item.height > bottom + 1e-9:
        return False
    return all(x + item.width + GAP <= px or px + other.width + GAP <= x
               or y + item.height + GAP <= py or py + other.height + GAP <= y
               for other, px, py in placed)


def layout(drawn: tuple[Item, ...], paper: str, reserve: float = 0.0,
           ) -> list[list[tuple[Item, float, float]]]:
    """Pages of (item, left, top) in mm. Each item goes to the highest, then leftmost, free
    spot on the first page with room (beside or below what is placed); `reserve` mm at the
    foot of each page stay free for notes."""
    width, height = PAPERS[paper]
    right, bottom, top = width - MARGIN, height - MARGIN - reserve, MARGIN + HEADER
    pages: list[list[tuple[Item, float, float]]] = []
    for item in (part for whole in drawn for part in _split(whole, right - MARGIN)):
        for page in pages:
            spots = sorted({(MARGIN, top)} | {(px + o.width + GAP, py) for o, px, py in page}
                           | {(px, py + o.height + GAP) for o, px, py in page},
                           key=lambda s: (s[1], s[0]))
            spot = next((s for s in spots if _free(page, item, *s, right, bottom)), None)
            if spot is not None:
                page.append((item, *spot))
                break
        else:
            pages.append([(item, MARGIN, top)])
    return pages


def _text(x: float, y: float, text: str, size: float = FONT, anchor: str = "start") -> str:
    return (f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
            f'text-anchor="{anchor}">{escape(text)}</text>')


def _scale_bar(x: float, y: float) -> list[str]:
    out = [f'<line id="scale-bar" x1="{_num(x)}" y1="{_num(y)}" x2="{_num(x + 100)}" '
           f'y2="{_num(y)}" stroke="black" stroke-width="0.4"/>']
    for cm in range(11):
        tall = 4.0 if cm in (0, 5, 10) else 2.5
        out.append(f'<line x1="{_num(x + 10 * cm)}" y1="{_num(y - tall)}" '
                   f'x2="{_num(x + 10 * cm)}" y2="{_num(y)}" stroke="black" stroke-width="0.3"/>')
        out.append(_text(x + 10 * cm, y + 4.5, str(cm), 3.0, "middle"))
    out.append(_text(x + 104, y + 1, "10 cm scale bar", FONT))
    return out


def _drawing(item: Item, x: float, y: float) -> list[str]:
    out = [_text(x, y + FONT + LABEL * i, line) for i, line in enumerate(item.lines)]
    top = y + LABEL * len(item.lines)
    if item.kind == "length":
        mid = top + 4.0
        out.append(f'<line id="{item.id}" x1="{_num(x)}" y1="{_num(mid)}" '
                   f'x2="{_num(x + item.size)}" y2="{_num(mid)}" stroke="black" '
                   f'stroke-width="0.3"/>')
        for end in (x, x + item.size):
            out.append(f'<line x1="{_num(end)}" y1="{_num(top)}" x2="{_num(end)}" '
                       f'y2="{_num(top + 8)}" stroke="black" stroke-width="0.3"/>')
        return out
    r = item.size / 2
    cx, cy = x + r, top + r
    out.append(f'<circle id="{item.id}" cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" '
               f'fill="none" stroke="black" stroke-width="0.3"/>')
    out.append(f'<line id="{item.id}-across" x1="{_num(cx - r)}" y1="{_num(cy)}" '
               f'x2="{_num(cx + r)}" y2="{_num(cy)}" stroke="#888" stroke-width="0.2" '
               f'stroke-dasharray="1 1"/>')
    out.append(f'<line x1="{_num(cx)}" y1="{_num(cy - 1.5)}" x2="{_num(cx)}" '
               f'y2="{_num(cy + 1.5)}" stroke="black" stroke-width="0.2"/>')
    for face, angle in enumerate(item.ticks, start=1):
        a = math.radians(angle)
        dx, dy = math.sin(a), -math.cos(a)
        out.append(f'<line x1="{_num(cx + dx * (r - 3))}" y1="{_num(cy + dy * (r - 3))}" '
                   f'x2="{_num(cx + dx * r)}" y2="{_num(cy + dy * r)}" stroke="black" '
                   f'stroke-width="0.3"/>')
        out.append(_text(cx + dx * (r - 6), cy + dy * (r - 6) + 1.2, str(face), 3.0, "middle"))
    return out


def page_svg(page: list[tuple[Item, float, float]], paper: str, number: int, pages: int,
             source: str, notes: tuple[str, ...] = ()) -> str:
    width, height = PAPERS[paper]
    body = [
        _text(MARGIN, MARGIN + 5, f"Catacombs automa check sheet, page {number} of {pages} "
              f"({paper.upper()})", 5.0),
        _text(MARGIN, MARGIN + 11, PRINT_NOTE[0], FONT),
        _text(MARGIN, MARGIN + 16, PRINT_NOTE[1], 3.0),
        _text(MARGIN, MARGIN + 21, f"Sizes from {source}; lay each real piece on its drawing.",
              3.0),
        *_scale_bar(MARGIN, MARGIN + 31),
    ]
    for item, x, y in page:
        body += _drawing(item, x, y)
    if number == pages:
        top = height - MARGIN - NOTE_LINE * len(notes) + 3.0
        body += [_text(MARGIN, top + NOTE_LINE * i, note, NOTE_FONT)
                 for i, note in enumerate(notes)]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}mm" '
            f'height="{_num(height)}mm" viewBox="0 0 {_num(width)} {_num(height)}" '
            f'font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(body) + "\n</svg>\n")


def check_sheet(components: Components, paper: str, source: str, yours: frozenset[str],
                notes: tuple[str, ...] = ()) -> list[str]:
    """The sheet as one SVG text per page; `notes` are wrapped at the foot of the last page."""
    room = (PAPERS[paper][0] - 2 * MARGIN) / (NOTE_FONT * CHAR)
    notes = tuple(line for note in notes for line in textwrap.wrap(note, int(room)))
    pages = layout(items(components, yours), paper, NOTE_LINE * len(notes) + GAP)
    return [page_svg(page, paper, i, len(pages), source, notes)
            for i, page in enumerate(pages, start=1)]
