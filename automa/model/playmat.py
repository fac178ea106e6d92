"""A playmat side: size, start zones, obstacle positions and printed runes, in the mat frame (cm).

Frame: origin at the corner on the Hero Start Zone edge, x across the width, y along the length
toward the Monster Start Zone.
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import Struct

from automa.model.provenance import Provenance


class Obstacle(Struct, frozen=True):
    """An obstacle printed on a playmat: a polygon or a circle, in cm on the mat."""

    id: str
    polygon: tuple[tuple[float, float], ...] = ()
    circle: tuple[float, float, float] | None = None  # x, y, radius
    rune: int | None = None  # the Red Box sticker on it


class Playmat(Struct, frozen=True):
    """A playmat: its size, start zones, obstacles and runes, in cm."""

    id: str
    name: str
    width: float
    length: float
    hero_zone: float  # Hero Start Zone: 0 <= y <= hero_zone
    monster_zone: float  # Monster Start Zone: monster_zone <= y <= length
    obstacles: tuple[Obstacle, ...]
    runes: Mapping[int, tuple[float, float]]
    rune_radius: float
    provenance: Provenance
    swappable_zones: bool = False
    sticker_runes: bool = True

    @property
    def centre(self) -> tuple[float, float]:
        return (self.width / 2, self.length / 2)

    @property
    def prints_all_runes(self) -> bool:
        """All twelve runes printed on the mat: the Cave of the Keystone."""
        return len(self.runes) >= 12
