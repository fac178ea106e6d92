"""Building AI pieces from monster and Catacomb Lord records."""

from __future__ import annotations

from automa.catalog.load import Catalog
from automa.model.monsters import LordSpec, MonsterSpec
from automa.model.pieces import Kind, Piece, Side

DEFAULT_SIZE = "medium"


def lookup(catalog: Catalog, monster_id: str) -> MonsterSpec | LordSpec | None:
    return catalog.monsters.get(monster_id) or catalog.lords.get(monster_id)


def disc_radius(catalog: Catalog, size: str | None) -> float:
    radii = catalog.components.disc_radius
    return radii.get(size or DEFAULT_SIZE, radii.get(DEFAULT_SIZE, 1.25))


def monster_piece(catalog: Catalog, spec: MonsterSpec | LordSpec, piece_id: str,
                  at: tuple[float, float], name: str = "") -> Piece:
    """A fresh AI piece of a monster or Lord at full health."""
    if isinstance(spec, LordSpec):
        return Piece(id=piece_id, side=Side.AI, kind=Kind.CATACOMB_LORD, at=at,
                     radius=disc_radius(catalog, spec.size), health=spec.health,
                     monster=spec.id, name=name or spec.name, sequences=spec.sequences,
                     starting_health=spec.health)
    return Piece(id=piece_id, side=Side.AI, kind=spec.kind, at=at,
                 radius=disc_radius(catalog, spec.size), health=spec.health, monster=spec.id,
                 name=name or spec.name, family=spec.family, level=spec.level,
                 sequences=spec.sequences, starting_health=spec.health)
