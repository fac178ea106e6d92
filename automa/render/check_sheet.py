"""A 1:1 check sheet: the rulers, templates and discs of the data in force, drawn at true size.

Pages of shapes in millimetres, written as one SVG per page (width="210mm", viewBox in mm: one
user unit is one mm) or as one PDF (render/pdf_sheet.py), so a player prints it at 100 % and
lays the real ruler, template or disc on its drawing. Every page carries a 10 cm scale bar to
check the printer did not scale it.
"""

from __future__ import annotations

import itertools
import math
import textwrap
from collections.abc import Mapping
from html import escape

from msgspec import Struct

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


class Item(Struct, frozen=True):
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


class Line(Struct, frozen=True):
    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 0.3
    grey: bool = False  # dashed grey: a guide, not a measure
    id: str = ""


class Circle(Struct, frozen=True):
    cx: float
    cy: float
    r: float
    width: float = 0.3
    id: str = ""


class Text(Struct, frozen=True):
    x: float
    y: float  # the baseline
    text: str
    size: float = FONT
    middle: bool = False


class Rect(Struct, frozen=True):
    """A filled rectangle, no outline: `left`, `top`, `width`, `height` in mm; `grey` its fill
    from 0 (black) to 1 (white). Later shapes paint over earlier ones (a marker's white cells
    over its black square)."""

    left: float
    top: float
    width: float
    height: float
    grey: float = 0.0
    id: str = ""


Shape = Line | Circle | Text | Rect


def _scale_bar(x: float, y: float) -> list[Shape]:
    out: list[Shape] = [Line(x, y, x + 100, y, 0.4, id="scale-bar")]
    for cm in range(11):
        tall = 4.0 if cm in (0, 5, 10) else 2.5
        out += [Line(x + 10 * cm, y - tall, x + 10 * cm, y),
                Text(x + 10 * cm, y + 4.5, str(cm), 3.0, middle=True)]
    out.append(Text(x + 104, y + 1, "10 cm scale bar"))
    return out


def _drawing(item: Item, x: float, y: float) -> list[Shape]:
    out: list[Shape] = [Text(x, y + FONT + LABEL * i, line) for i, line in enumerate(item.lines)]
    top = y + LABEL * len(item.lines)
    if item.kind == "length":
        mid = top + 4.0
        return [*out, Line(x, mid, x + item.size, mid, id=item.id),
                *(Line(end, top, end, top + 8) for end in (x, x + item.size))]
    r = item.size / 2
    cx, cy = x + r, top + r
    out += [Circle(cx, cy, r, id=item.id),
            Line(cx - r, cy, cx + r, cy, 0.2, grey=True, id=f"{item.id}-across"),
            Line(cx, cy - 1.5, cx, cy + 1.5, 0.2)]
    for face, angle in enumerate(item.ticks, start=1):
        a = math.radians(angle)
        dx, dy = math.sin(a), -math.cos(a)
        out += [Line(cx + dx * (r - 3), cy + dy * (r - 3), cx + dx * r, cy + dy * r),
                Text(cx + dx * (r - 6), cy + dy * (r - 6) + 1.2, str(face), 3.0, middle=True)]
    return out


def page_shapes(page: list[tuple[Item, float, float]], paper: str, number: int, pages: int,
                source: str, notes: tuple[str, ...] = ()) -> list[Shape]:
    """Everything on one page, in mm from its top left corner."""
    height = PAPERS[paper][1]
    shapes: list[Shape] = [
        Text(MARGIN, MARGIN + 5, f"Catacombs automa check sheet, page {number} of {pages} "
             f"({paper.upper()})", 5.0),
        Text(MARGIN, MARGIN + 11, PRINT_NOTE[0]),
        Text(MARGIN, MARGIN + 16, PRINT_NOTE[1], 3.0),
        Text(MARGIN, MARGIN + 21, f"Sizes from {source}; lay each real piece on its drawing.",
             3.0),
        *_scale_bar(MARGIN, MARGIN + 31),
    ]
    for item, x, y in page:
        shapes += _drawing(item, x, y)
    if number == pages:
        top = height - MARGIN - NOTE_LINE * len(notes) + 3.0
        shapes += [Text(MARGIN, top + NOTE_LINE * i, note, NOTE_FONT)
                   for i, note in enumerate(notes)]
    return shapes


def _svg(shape: Shape) -> str:
    if isinstance(shape, Text):
        anchor = "middle" if shape.middle else "start"
        return (f'<text x="{_num(shape.x)}" y="{_num(shape.y)}" font-size="{_num(shape.size)}" '
                f'text-anchor="{anchor}">{escape(shape.text)}</text>')
    ident = f' id="{escape(shape.id)}"' if shape.id else ""
    if isinstance(shape, Rect):
        level = round(255 * min(max(shape.grey, 0.0), 1.0))
        return (f'<rect{ident} x="{_num(shape.left)}" y="{_num(shape.top)}" '
                f'width="{_num(shape.width)}" height="{_num(shape.height)}" '
                f'fill="#{level:02x}{level:02x}{level:02x}" shape-rendering="crispEdges"/>')
    if isinstance(shape, Circle):
        return (f'<circle{ident} cx="{_num(shape.cx)}" cy="{_num(shape.cy)}" '
                f'r="{_num(shape.r)}" fill="none" stroke="black" '
                f'stroke-width="{_num(shape.width)}"/>')
    style = ' stroke="#888" stroke-dasharray="1 1"' if shape.grey else ' stroke="black"'
    return (f'<line{ident} x1="{_num(shape.x1)}" y1="{_num(shape.y1)}" x2="{_num(shape.x2)}" '
            f'y2="{_num(shape.y2)}"{style} stroke-width="{_num(shape.width)}"/>')


def page_svg(shapes: list[Shape], paper: str) -> str:
    """One page as SVG in millimetres: the viewBox unit is one mm."""
    width, height = PAPERS[paper]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}mm" '
            f'height="{_num(height)}mm" viewBox="0 0 {_num(width)} {_num(height)}" '
            f'font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(_svg(shape) for shape in shapes) + "\n</svg>\n")


def check_sheet(components: Components, paper: str, source: str, yours: frozenset[str],
                notes: tuple[str, ...] = ()) -> list[list[Shape]]:
    """The sheet's pages, each a list of shapes; `notes` are wrapped at the foot of the last."""
    room = (PAPERS[paper][0] - 2 * MARGIN) / (NOTE_FONT * CHAR)
    notes = tuple(line for note in notes for line in textwrap.wrap(note, int(room)))
    pages = layout(items(components, yours), paper, NOTE_LINE * len(notes) + GAP)
    return [page_shapes(page, paper, i, len(pages), source, notes)
            for i, page in enumerate(pages, start=1)]
