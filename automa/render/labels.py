"""Where each piece's label goes: beside its disc, clear of every disc, obstacle, rune, other
label and template numbers. A small deterministic layout: rings of candidate spots around the
disc, nearest first, then a scan of the whole mat; the first free spot wins.

Text widths are estimated per character, on the wide side of common sans-serif fonts, so the
box a label reserves holds its drawn text (tests check this in a browser).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from msgspec import Struct

FONT = 11.0  # px
PAD = 2.0  # px around the text inside its box
# DejaVu Sans widths, rounded up: narrow <= 0.42 em, middling <= 0.6 em, plain <= 0.64 em
# (lowercase, digits, EFLPSTY), other capitals <= 0.8 em, wide ~ 1 em
NARROW, MIDDLING = set("ijlIJ.,:;'!|()[]ftr- "), set("cksvxyz")
PLAIN_CAPITALS, WIDE = set("EFLPSTY"), set("mwMW@%")


class Box(Struct, frozen=True):
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 \
            and other.y0 < self.y1

    def inside(self, other: Box) -> bool:
        return other.x0 <= self.x0 and self.x1 <= other.x1 and other.y0 <= self.y0 \
            and self.y1 <= other.y1

    def grown(self, by: float) -> Box:
        return Box(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)


class Disc(Struct, frozen=True):
    x: float
    y: float
    r: float

    @property
    def box(self) -> Box:
        return Box(self.x - self.r, self.y - self.r, self.x + self.r, self.y + self.r)


class Placed(Struct, frozen=True):
    box: Box
    leader: bool  # away from its disc: draw a thin line back to it


def text_width(text: str, size: float = FONT) -> float:
    """An upper estimate of the drawn width of `text` at `size` px."""
    em = 0.0
    for char in text:
        if char in NARROW:
            em += 0.42
        elif char in MIDDLING:
            em += 0.6
        elif char in WIDE or not char.isascii():
            em += 1.0  # a CJK character is a full em
        elif char.isupper() and char not in PLAIN_CAPITALS:
            em += 0.8
        else:
            em += 0.64
    return em * size


def label_size(text: str, size: float = FONT) -> tuple[float, float]:
    return text_width(text, size) + 2 * PAD, size * 1.25 + 2 * PAD


def disc_hits_box(disc: Disc, box: Box) -> bool:
    nearest_x = min(max(disc.x, box.x0), box.x1)
    nearest_y = min(max(disc.y, box.y0), box.y1)
    return math.hypot(disc.x - nearest_x, disc.y - nearest_y) < disc.r


GAPS = (2.0, 8.0, 16.0, 28.0, 44.0, 64.0, 90.0, 120.0, 160.0, 210.0, 270.0, 340.0)
ANGLES = tuple(range(0, 360, 30))  # 0 = above, clockwise on the screen


def _candidates(disc: Disc, width: float, height: float) -> list[Box]:
    boxes = []
    for gap in GAPS:
        for degrees in ANGLES:
            ux, uy = math.sin(math.radians(degrees)), -math.cos(math.radians(degrees))
            reach = disc.r + gap
            cx = disc.x + ux * (reach + width / 2)
            cy = disc.y + uy * (reach + height / 2)
            if degrees % 90:  # a diagonal: the box's near corner sits on the ring
                cx = disc.x + ux * reach + math.copysign(width / 2, ux)
                cy = disc.y + uy * reach + math.copysign(height / 2, uy)
            boxes.append(Box(cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2))
    return boxes


def _scan(disc: Disc, width: float, height: float, bounds: Box) -> list[Box]:
    """Every spot of the mat on a 10 px grid, nearest the disc first."""
    spots = []
    y = bounds.y0
    while y + height <= bounds.y1:
        x = bounds.x0
        while x + width <= bounds.x1:
            spots.append(Box(x, y, x + width, y + height))
            x += 10.0
        y += 10.0
    return sorted(spots, key=lambda b: math.hypot(b.centre[0] - disc.x, b.centre[1] - disc.y))


CELL = 40.0  # px: the side of one bucket of the occupancy index
CLEARANCE = 0.5  # px kept free around every label


class Occupancy:
    """Boxes and discs already on the picture, bucketed so a check looks only nearby."""

    def __init__(self, boxes: Sequence[Box], discs: Sequence[Disc]) -> None:
        self.cells: dict[tuple[int, int], list[Box | Disc]] = {}
        for box in boxes:
            self.add(box)
        for disc in discs:
            self._put(disc.box, disc)

    def _keys(self, box: Box) -> list[tuple[int, int]]:
        return [(i, j) for i in range(math.floor(box.x0 / CELL), math.floor(box.x1 / CELL) + 1)
                for j in range(math.floor(box.y0 / CELL), math.floor(box.y1 / CELL) + 1)]

    def _put(self, box: Box, item: Box | Disc) -> None:
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(item)

    def add(self, box: Box) -> None:
        self._put(box, box)

    def free(self, box: Box) -> bool:
        box = box.grown(CLEARANCE)  # also covers the 0.1 px rounding of the written SVG
        for key in self._keys(box):
            for item in self.cells.get(key, ()):
                if isinstance(item, Disc):
                    if disc_hits_box(item, box):
                        return False
                elif box.overlaps(item):
                    return False
        return True


def place_labels(labels: Sequence[tuple[Disc, str]], discs: Sequence[Disc],
                 blocked: Sequence[Box], bounds: Box) -> list[Placed]:
    """One box per (disc, text), in order, each clear of all `discs`, `blocked` and the boxes
    placed before it, inside `bounds` (the last resort, with no room anywhere: overlapping)."""
    taken = Occupancy(blocked, discs)
    placed = []
    for disc, text in labels:
        width, height = label_size(text)
        chosen, leader = None, False
        for index, box in enumerate(_candidates(disc, width, height)):
            if box.inside(bounds) and taken.free(box):
                chosen, leader = box, index >= len(ANGLES)
                break
        if chosen is None:
            chosen = next((b for b in _scan(disc, width, height, bounds) if taken.free(b)),
                          None)
            leader = True
        if chosen is None:  # a mat too full to label: above the disc, clipped to the mat
            top = max(bounds.y0, disc.y - disc.r - height)
            left = min(max(bounds.x0, disc.x - width / 2), bounds.x1 - width)
            chosen, leader = Box(left, top, left + width, top + height), False
        taken.add(chosen)
        placed.append(Placed(chosen, leader))
    return placed
