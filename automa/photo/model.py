"""The photo capture's typed values: what goes into reading a photo of the mat, and what comes
out. Lengths are mat centimetres in the scenario's frame (origin at the corner of the Hero
Start Zone's edge, x along that edge, y toward the Monster Start Zone)."""

from __future__ import annotations

from dataclasses import dataclass

from automa.errors import InputError
from automa.model.capture import Point


class PhotoError(InputError):
    """A photo that cannot be read as the mat: one line, exit 2, nothing recorded."""


@dataclass(frozen=True)
class DiscKind:
    """A disc size as the photo looks for it: radius and thickness (cm)."""

    size: str
    radius: float
    thickness: float


@dataclass(frozen=True)
class PieceBefore:
    """A piece on the mat before the photo: its id, its disc, and where it stood (None when
    nobody measured it, in an asked battle)."""

    id: str
    disc: DiscKind
    at: Point | None


@dataclass(frozen=True)
class FoundPiece:
    """A piece found: where it stands, how far it moved (None when its place before was not
    known), and how sure the naming and the fit are, in [0, 1]."""

    id: str
    at: Point
    moved: float | None
    confidence: float


@dataclass(frozen=True)
class UnknownDisc:
    """A disc found that no piece fits."""

    at: Point
    radius: float


@dataclass(frozen=True)
class Capture:
    """What one photo says: the marker ids seen, the pieces found, the pieces on the mat not
    found, and the discs no piece fits."""

    markers: tuple[int, ...]
    pieces: tuple[FoundPiece, ...]
    missing: tuple[str, ...]
    unknown: tuple[UnknownDisc, ...]
