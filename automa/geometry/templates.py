"""The Attack template and the Clock template (front, reverse and half sides)."""

from __future__ import annotations

import math

from msgspec import Struct
from shapely.affinity import translate
from shapely.geometry import Point, Polygon

from automa.geometry.table import TableGeometry, centre_distance
from automa.model.components import AttackTemplate, ClockTemplate
from automa.model.pieces import Piece

Vec = tuple[float, float]
TOWARD_HERO_ZONE: Vec = (0.0, -1.0)
TOWARD_MONSTER_ZONE: Vec = (0.0, 1.0)


class Cover(Struct, frozen=True):
    """Whether a template covers a piece, and by how much."""

    covers: bool
    margin: float  # how far the target would have to move to flip the answer


def attack_cover(template: AttackTemplate, radius: float, attacker: Piece, target: Piece) -> Cover:
    """Does the Attack template centred on the attacker cover the target, partly or wholly?"""
    if template.polygon:
        shape = translate(Polygon(template.polygon), attacker.at[0], attacker.at[1])
        centre = Point(target.at)
        if shape.contains(centre):
            return Cover(True, float(target.radius + shape.exterior.distance(centre)))
        overlap = target.radius - float(shape.distance(centre))
        return Cover(overlap > 0, abs(overlap))
    overlap = radius + target.radius - centre_distance(attacker.at, target.at)
    return Cover(overlap > 0, abs(overlap))


def rotate_clockwise(vector: Vec, degrees: float) -> Vec:
    """Rotate a direction clockwise as seen from above (x right, y away from the Hero Zone)."""
    theta = math.radians(degrees)
    x, y = vector
    return (x * math.cos(theta) + y * math.sin(theta), -x * math.sin(theta) + y * math.cos(theta))


def clock_overhangs(table: TableGeometry, centre: Vec, clock_radius: float) -> bool:
    """At the edge: the Clock template placed on this centre would hang over the mat edge."""
    return _edge_gap(table, centre) < clock_radius


def _edge_gap(table: TableGeometry, centre: Vec) -> float:
    x, y = centre
    mat = table.playmat
    return min(x, y, mat.width - x, mat.length - y)


EDGE_TOUCH = 0.01  # cm: a disc this close to the mat edge touches it
EDGE_RULES = ("overhang", "touching")  # ruling 9's readings of "at the edge"


class ClockReading(Struct, frozen=True):
    """The Clock template's side up and the face a piece is pushed toward."""

    side: str  # "front" or "reverse"
    face: int
    direction: Vec
    disputed: bool = False  # the two readings of "at the edge" (ruling 9) disagree here


def clock_direction(table: TableGeometry, clock: ClockTemplate, clock_radius: float, centre: Vec,
                    face: int, piece_radius: float = 0.0, edge_rule: str = "overhang"
                    ) -> ClockReading:
    """Direction of a D12 face: 12 toward the Hero Start Zone, or toward the mat centre on the
    reverse side when the piece is at the edge: the template would overhang the mat
    (`overhang`), or the piece itself touches the edge (`touching`)."""
    overhang = clock_overhangs(table, centre, clock_radius)
    touching = _edge_gap(table, centre) <= piece_radius + EDGE_TOUCH
    at_edge = overhang if edge_rule == "overhang" else touching
    if at_edge:
        mid = table.playmat.centre
        dx, dy = mid[0] - centre[0], mid[1] - centre[1]
        norm = math.hypot(dx, dy)
        twelve = (dx / norm, dy / norm) if norm > 1e-9 else TOWARD_HERO_ZONE
        return ClockReading("reverse", face, rotate_clockwise(twelve, clock.reverse[face - 1]),
                            overhang != touching)
    return ClockReading("front", face, rotate_clockwise(TOWARD_HERO_ZONE, clock.front[face - 1]),
                        overhang != touching)


def half_clock_direction(clock: ClockTemplate, toward: Vec, face: int) -> Vec:
    """The half Clock template: its faces spread over the half circle facing `toward`."""
    return rotate_clockwise(toward, clock.half[face - 1])
