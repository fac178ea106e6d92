"""Start zones, runes (printed and the Red Box stickers on obstacles) and the setup spots.

The setup spots come in the mat's order: the rules scan them along the Direction tiles
(`rules.tiles.in_tile_order`, called by engine/setup.py), a rule this layer does not know."""

from __future__ import annotations

from msgspec import Struct
from shapely.geometry import LineString, Point, Polygon

from automa.geometry.moves import rune_occupant
from automa.geometry.table import TableGeometry
from automa.model.pieces import Piece
from automa.model.playmat import Playmat

Vec = tuple[float, float]


class Rune(Struct, frozen=True):
    """A rune of the mat: printed, or a sticker on an obstacle."""

    number: int
    at: Vec
    on_obstacle: str | None = None  # a sticker rune sits on top of this obstacle


def runes_of(table: TableGeometry) -> dict[int, Rune]:
    """Printed runes, plus the sticker runes on obstacles when the stickers are face up."""
    mat = table.playmat
    runes = {n: Rune(n, at) for n, at in mat.runes.items()}
    if mat.sticker_runes:
        for obstacle, shape in zip(mat.obstacles, table.obstacles, strict=True):
            if obstacle.rune is not None and obstacle.rune not in runes:
                centre = shape.polygon.representative_point()
                runes[obstacle.rune] = Rune(obstacle.rune, (centre.x, centre.y), obstacle.id)
    return runes


def vacant(rune: Rune, pieces: list[Piece], rune_radius: float) -> bool:
    return rune_occupant(pieces, rune.at, rune_radius) is None


def zone_of(mat: Playmat, at: Vec) -> str | None:
    """The start zone a centre lies in: "hero", "monster" or None (the middle of the mat)."""
    if at[1] <= mat.hero_zone:
        return "hero"
    if at[1] >= mat.monster_zone:
        return "monster"
    return None


def within_triangle(corners: tuple[Vec, Vec, Vec], piece: Piece) -> tuple[bool, float]:
    """Scorched Earth: is the disc completely within the triangle? With the margin in cm."""
    triangle = Polygon(corners)
    centre = Point(piece.at)
    inside_by = triangle.exterior.distance(centre)
    if not triangle.contains(centre):
        return False, float(inside_by + piece.radius)
    return bool(inside_by >= piece.radius), float(abs(inside_by - piece.radius))


class Spot(Struct, frozen=True):
    """A setup spot, in table words and as a point."""

    where: str  # table words: "rune 2", "behind obstacle C", "corner (left, back)"
    at: Vec


def monster_zone_runes(table: TableGeometry, pieces: list[Piece]) -> list[Spot]:
    """Vacant runes inside the Monster Start Zone."""
    mat = table.playmat
    found = [(f"rune {r.number}", r.at) for r in runes_of(table).values()
             if r.on_obstacle is None and r.at[1] >= mat.monster_zone
             and vacant(r, pieces, mat.rune_radius)]
    return [Spot(w, at) for w, at in found]


def behind_obstacles(table: TableGeometry, piece: Piece) -> list[Spot]:
    """Directly behind each obstacle, on the side away from the Hero Start Zone, touching it."""
    spots = []
    for shape in table.obstacles:
        centre_x = float(shape.polygon.centroid.x)
        upright = LineString([(centre_x, 0.0), (centre_x, table.playmat.length)])
        top = float(upright.intersection(shape.polygon).bounds[3])
        spots.append((f"behind obstacle {shape.id}", (centre_x, top + piece.radius + 1e-3)))
    return [Spot(w, at) for w, at in spots]


def zone_corners(mat: Playmat, piece: Piece) -> list[Spot]:
    """The Monster Start Zone's corners (inset by the disc)."""
    r = piece.radius
    corners = [
        ("corner (high x, back edge)", (mat.width - r, mat.length - r)),
        ("corner (low x, back edge)", (r, mat.length - r)),
        ("corner (high x, zone line)", (mat.width - r, mat.monster_zone + r)),
        ("corner (low x, zone line)", (r, mat.monster_zone + r)),
    ]
    return [Spot(w, at) for w, at in corners]


def back_edge_centre(mat: Playmat, piece: Piece) -> Spot:
    return Spot("centre of the back edge", (mat.width / 2, mat.length - piece.radius))


def quadrant_problems(table: TableGeometry) -> list[str]:
    """Catacombs & Castles obstacle rule: at most two obstacles in a quadrant, and none gets a
    second while another quadrant is empty."""
    mat = table.playmat
    counts = [0, 0, 0, 0]
    for shape in table.obstacles:
        c = shape.polygon.centroid
        counts[(2 if c.y >= mat.length / 2 else 0) + (1 if c.x >= mat.width / 2 else 0)] += 1
    problems = [f"quadrant {i + 1} holds {n} obstacles (at most two)"
                for i, n in enumerate(counts) if n > 2]
    if any(n >= 2 for n in counts) and 0 in counts:
        problems.append("a quadrant has two obstacles while another has none")
    return problems
