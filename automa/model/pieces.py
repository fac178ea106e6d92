"""Pieces on the table: heroes and their helpers, monsters, Catacomb Lords and Antients."""

from __future__ import annotations

from dataclasses import dataclass

from automa.model.shots import Sequence

HERO_KINDS = ("hero", "ally", "familiar", "mount", "assistant")
AI_KINDS = ("monster", "catacomb-lord", "antient")
SIDES = ("heroes", "ai", "neutral")
NEUTRAL_KINDS = ("wild-wyvern",)
CONDITIONS = ("frozen", "stunned", "teleported", "devoured", "aloft", "riding", "ridden")

Point = tuple[float, float]


@dataclass(frozen=True)
class Piece:
    id: str
    side: str
    kind: str
    at: Point
    radius: float
    health: int | None = None  # None: shadow monster or Antient (no health track)
    gold: int = 0
    poison: int = 0
    items: int = 0
    monster: str | None = None
    name: str = ""
    family: str | None = None
    level: int | None = None
    sequences: tuple[Sequence, ...] = ()
    starting_health: int | None = None
    conditions: frozenset[str] = frozenset()  # frozen, stunned, teleported, devoured, aloft
    flying: bool = False
    invulnerable: bool = False  # e.g. Yilleph's white pieces: hit and pushed, never damaged
    part_of: str | None = None  # e.g. Ulom's claw: targeted as part of Ulom
    used: tuple[str, ...] = ()  # a hero's cards used in this room: "elven-arrow (room)"

    @property
    def label(self) -> str:
        """How the printout names the piece: "Skeleton Warrior #2", "Elf"."""
        return self.name or self.id

    def moved(self, to: Point) -> Piece:
        """The same piece at another place (a plain copy: `replace` re-runs the whole
        constructor, a tenth of a millisecond for a piece's twenty fields)."""
        copy = object.__new__(Piece)
        copy.__dict__.update(self.__dict__)
        copy.__dict__["at"] = to
        return copy

    def altered(self, **changes: object) -> Piece:
        """`dataclasses.replace(self, **changes)` as a plain copy, as `moved`; a name that is
        not a field is refused, as `replace` refuses it."""
        unknown = changes.keys() - self.__dataclass_fields__.keys()
        if unknown:
            raise TypeError(f"Piece has no field {', '.join(sorted(unknown))}")
        copy = object.__new__(Piece)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy
