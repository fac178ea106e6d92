"""The four printed marker cards of the photo capture (`automa markers`), drawn at true size.

Shapes in millimetres from each page's top left corner, the same shapes the check sheet draws
(render/check_sheet.py), so one PDF writer (render/pdf_sheet.py) and one SVG writer serve both.
The markers' bit patterns come in from the caller (automa/photo/cards.py reads them from
OpenCV): nothing here needs OpenCV.

Each card: the marker's black square (its border included) at the data's size, a white margin
of at least `QUIET` mm around it that nothing is printed in, the marker's number, the mat
corner it lies beside, where its centre goes from that corner, an arrow from the marker's top
edge toward the Monster Start Zone, and a grey cut line around the card.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from automa.model.capture import CaptureSettings, Corner, MarkerCard
from automa.render.check_sheet import CHAR, MARGIN, PAPERS, Line, Rect, Shape, Text

QUIET = 10.0  # mm of white around each marker: the detector needs it, the contract asks >= 1 cm
SIDE_ROOM = 20.5  # mm left and right of a 5 cm marker: room for the arrow's words above it
PAD = 3.5  # mm between the cut line and the card's words
GAP = 4.0  # mm between two cards' cut lines
TITLE_FONT = 5.0
FONT = 3.0
LINE = 4.2  # mm between two baselines of the card's words
ARROW_TOP, ARROW_FOOT = 4.0, 16.0  # mm below the card's top
HEADER = 23.0  # mm of the page's own words above the cards


@dataclass(frozen=True)
class Mat:
    """A playmat named on the cards: each card then gives its centre in that mat's cm too."""

    name: str
    width: float
    length: float


@dataclass(frozen=True)
class CardPlace:
    """Where one card lies: its page (from 0), its cut line's box and its marker's square, mm
    from the page's top left corner."""

    id: int
    page: int
    left: float
    top: float
    width: float
    height: float
    marker_left: float
    marker_top: float
    marker_side: float


def _cm(value: float) -> str:
    return f"{value:g}"


def _edges(corner: Corner) -> tuple[str, str]:
    """The two mat edges that meet at `corner`: the side edge (x) and the end edge (y)."""
    side = "left" if corner.value.endswith("left") else "right"
    end = "heroes'" if corner.value.startswith("hero") else "monsters'"
    return f"the {side} edge", f"the {end} edge"


def offset_words(card: MarkerCard) -> str:
    """Where the marker's centre goes from its corner, in words a player can lay it by, e.g.
    "4 cm outside both edges" or "4 cm outside the left edge, 2 cm inside the heroes' edge"."""
    side, end = _edges(card.corner)
    outward_x = -card.offset[0] if card.corner.value.endswith("left") else card.offset[0]
    outward_y = -card.offset[1] if card.corner.value.startswith("hero") else card.offset[1]

    def along(outward: float, edge: str) -> str:
        if abs(outward) < 1e-9:
            return f"on the line of {edge}"
        return f"{_cm(abs(outward))} cm {'outside' if outward > 0 else 'inside'} {edge}"

    if abs(outward_x - outward_y) < 1e-9 and abs(outward_x) > 1e-9:
        return along(outward_x, "both edges")
    return f"{along(outward_x, side)}, {along(outward_y, end)}"


def card_words(card: MarkerCard, mat: Mat | None) -> tuple[str, ...]:
    """The card's words under its marker, before wrapping."""
    words = [f"Lay it beside {card.corner.words}.", f"Its centre: {offset_words(card)}.",
             "Its sides parallel to the mat's edges."]
    if mat is not None:
        x, y = card.centre(mat.width, mat.length)
        words.append(f"On {mat.name} ({_cm(mat.width)} x {_cm(mat.length)} cm): centre at "
                     f"({_cm(round(x, 2))}, {_cm(round(y, 2))}) cm.")
    return tuple(words)


def _wrapped(words: tuple[str, ...], width: float) -> list[str]:
    room = int((width - 2 * PAD) / (FONT * CHAR))
    return [line for text in words
            for line in textwrap.wrap(text, room, break_on_hyphens=False)]


def card_size(side: float, lines: int) -> tuple[float, float]:
    """A card's width and height (mm) for a marker of `side` mm and `lines` lines of words."""
    width = side + 2 * max(SIDE_ROOM, QUIET)
    marker_top = ARROW_FOOT + QUIET
    first = marker_top + side + QUIET + FONT
    return width, first + LINE * (lines - 1) + PAD


def places(ids: Sequence[int], width: float, height: float, side: float, paper: str,
           ) -> tuple[CardPlace, ...]:
    """The cards in a grid, as many to a page as fit inside the page's margins below its
    header, the grid centred across the page."""
    page_w, page_h = PAPERS[paper]
    cols = max(1, math.floor((page_w - 2 * MARGIN + GAP) / (width + GAP)))
    rows = max(1, math.floor((page_h - 2 * MARGIN - HEADER + GAP) / (height + GAP)))
    left0 = (page_w - (cols * width + (cols - 1) * GAP)) / 2
    found = []
    for n, ident in enumerate(ids):
        page, at = divmod(n, cols * rows)
        row, col = divmod(at, cols)
        left = left0 + col * (width + GAP)
        top = MARGIN + HEADER + row * (height + GAP)
        found.append(CardPlace(ident, page, left, top, width, height, left + (width - side) / 2,
                               top + ARROW_FOOT + QUIET, side))
    return tuple(found)


def marker_shapes(bits: Sequence[Sequence[bool]], left: float, top: float, side: float,
                  ident: str) -> list[Shape]:
    """A marker as one black square with its white cells painted over it, each row's run of
    white cells as one rectangle (fewer edges for a viewer to leave hairlines between)."""
    cells = len(bits)
    cell = side / cells
    out: list[Shape] = [Rect(left, top, side, side, 0.0, id=ident)]
    for r, row in enumerate(bits):
        c = 0
        while c < cells:
            if row[c]:
                c += 1
                continue
            start = c
            while c < cells and not row[c]:
                c += 1
            out.append(Rect(left + start * cell, top + r * cell, (c - start) * cell, cell, 1.0))
    return out


def _card_shapes(card: MarkerCard, place: CardPlace, bits: Sequence[Sequence[bool]],
                 lines: list[str]) -> list[Shape]:
    x, y, w, h = place.left, place.top, place.width, place.height
    mid = x + w / 2
    out: list[Shape] = [
        Line(x, y, x + w, y, 0.2, grey=True, id=f"card-{card.id}-cut"),
        Line(x + w, y, x + w, y + h, 0.2, grey=True),
        Line(x + w, y + h, x, y + h, 0.2, grey=True),
        Line(x, y + h, x, y, 0.2, grey=True),
        Text(x + PAD, y + ARROW_TOP + TITLE_FONT, f"Marker {card.id}", TITLE_FONT),
        # the arrow: from the marker's top edge toward the Monster Start Zone
        Line(mid, y + ARROW_FOOT, mid, y + ARROW_TOP, 0.5, id=f"card-{card.id}-arrow"),
        Line(mid, y + ARROW_TOP, mid - 2.5, y + ARROW_TOP + 3.5, 0.5),
        Line(mid, y + ARROW_TOP, mid + 2.5, y + ARROW_TOP + 3.5, 0.5),
        Text(mid + 4, y + ARROW_TOP + 4.5, "this edge toward the", FONT),
        Text(mid + 4, y + ARROW_TOP + 4.5 + LINE, "Monster Start Zone", FONT),
        *marker_shapes(bits, place.marker_left, place.marker_top, place.marker_side,
                       f"marker-{card.id}"),
    ]
    first = place.marker_top + place.marker_side + QUIET + FONT
    out += [Text(x + PAD, first + LINE * i, line, FONT) for i, line in enumerate(lines)]
    return out


def marker_card_pages(settings: CaptureSettings, bits: Mapping[int, Sequence[Sequence[bool]]],
                      paper: str, source: str, mat: Mat | None = None,
                      ) -> tuple[list[list[Shape]], tuple[CardPlace, ...]]:
    """The cards' pages (each a list of shapes) and where each card lies. `bits[id]` is the
    marker's pattern, True for black, its border included; `source` names the data in force
    for the page's header."""
    side = 10 * settings.marker_size
    width, _ = card_size(side, 1)
    texts = {card.id: _wrapped(card_words(card, mat), width) for card in settings.cards}
    _, height = card_size(side, max(len(lines) for lines in texts.values()))
    where = places([card.id for card in settings.cards], width, height, side, paper)
    count = max(place.page for place in where) + 1
    pages: list[list[Shape]] = []
    for number in range(count):
        pages.append([
            Text(MARGIN, MARGIN + 5, f"Catacombs automa marker cards, page {number + 1} of "
                 f"{count} ({paper.upper()})", 5.0),
            Text(MARGIN, MARGIN + 10.5, "Print at 100 % / actual size: no fit-to-page, no "
                 "scaling.", 3.5),
            Text(MARGIN, MARGIN + 15, f"Each black square must measure {settings.marker_size:.1f}"
                 f" cm a side: check it with a ruler. Cut along the grey lines.", 3.0),
            Text(MARGIN, MARGIN + 19.5, f"Places from {source}; keep the cards flat and the "
                 f"white around each square clean.", 3.0),
        ])
    by_id = {card.id: card for card in settings.cards}
    for place in where:
        pages[place.page] += _card_shapes(by_id[place.id], place, bits[place.id],
                                          texts[place.id])
    return pages, where
