"""The photo capture's settings (data/capture.toml): where the printed marker cards lie beside
the mat, and the bars a capture judges by."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

Point = tuple[float, float]


class Corner(StrEnum):
    """A corner of the mat, named as the players see it from the Hero Start Zone's edge."""

    HERO_LEFT = "hero-left"  # x 0, y 0
    HERO_RIGHT = "hero-right"  # x W, y 0
    MONSTER_RIGHT = "monster-right"  # x W, y L
    MONSTER_LEFT = "monster-left"  # x 0, y L

    def at(self, width: float, length: float) -> Point:
        return {Corner.HERO_LEFT: (0.0, 0.0), Corner.HERO_RIGHT: (width, 0.0),
                Corner.MONSTER_RIGHT: (width, length), Corner.MONSTER_LEFT: (0.0, length)}[self]

    @property
    def words(self) -> str:
        end = "Hero" if self.value.startswith("hero") else "Monster"
        side = "left" if self.value.endswith("left") else "right"
        return f"the {end} Start Zone's {side} corner (seen from the heroes' edge)"


@dataclass(frozen=True)
class MarkerCard:
    """One printed marker: its ArUco id, the mat corner it lies beside, and where its centre
    lies relative to that corner (cm)."""

    id: int
    corner: Corner
    offset: Point

    def centre(self, width: float, length: float) -> Point:
        x, y = self.corner.at(width, length)
        return (x + self.offset[0], y + self.offset[1])


@dataclass(frozen=True)
class CaptureSettings:
    """data/capture.toml: the marker cards and the bars the capture judges by."""

    dictionary: str  # OpenCV's predefined ArUco dictionary, e.g. "DICT_4X4_50"
    marker_size: float  # cm: each marker's black square, its border included
    cards: tuple[MarkerCard, ...]
    still: float  # cm: a piece found closer than this to where it stood has not moved
    confident: float  # a piece named with less confidence is asked about
    mat_thickness: float = 0.0  # cm: the mat's surface above the table the cards lie on

    def corners(self, width: float, length: float) -> dict[int, tuple[Point, Point, Point, Point]]:
        """Each marker's four corners on a mat of `width` x `length`, in mat cm and in OpenCV's
        order (the printed image's top-left, top-right, bottom-right, bottom-left; its top row
        toward +y, so seen from above with the heroes' edge nearest it reads upright)."""
        half = self.marker_size / 2
        found = {}
        for card in self.cards:
            x, y = card.centre(width, length)
            found[card.id] = ((x - half, y + half), (x + half, y + half), (x + half, y - half),
                              (x - half, y - half))
        return found
