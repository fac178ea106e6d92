"""The discs found, named: which piece of the battle each one is.

One assignment for all pieces at once (the Hungarian method): a piece's cost for a disc is how
badly the disc's outline fits that piece's size, plus how far the piece would have moved from
where it stood before. A piece may also be `missing` and a disc `unknown`, each at a fixed
price, so a disc no piece fits is left unnamed rather than forced onto one. The confidence of
each name is how much worse the best assignment without it would be: two pieces of one size
that swapped places score near 0 and are asked about."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from automa.photo.discs import Fit
from automa.photo.image import Floats
from automa.photo.model import FoundPiece, PieceBefore, UnknownDisc

Kind = tuple[float, float]  # (radius, thickness), cm
# tolerances in grains: half a photo pixel where the disc stands (the top view's own pixel at
# the least), since how well an outline fits depends on how fine the photo is there
FIT_SCALE = 1.2  # an outline this far off its model on average costs 1
WORST_FIT = 5.0  # a disc this far off a size is not of that size
MOVE_SCALE = 6.0  # cm of movement cost 1 (linear: the fewest centimetres moved wins) ...
MOVE_START = 1.0  # ... after this for moving at all (most pieces stand still in a turn) ...
STILL = 0.3  # ... farther than this (cm)
MISSING = 7.0  # the cost of calling a piece not found
UNKNOWN = 5.0  # the cost of calling a disc no piece's
MARGIN_SCALE = 1.5  # a name whose best alternative costs this much more is 63 % sure
DISC_LIKE = 2.0  # an outline fitting a free disc this well is a disc (else art, crumbs)
EDGED = 0.35  # ... an edge along this share of its outline at least
COVERED = 0.4  # ... the region found covering this share of its silhouette at least
LIKE = 1.3  # ... and those two shares adding up to this at least
IMPOSSIBLE = 1e6


@dataclass(frozen=True)
class Candidate:
    """A disc found: its fit for every size the battle's pieces have, and with its radius
    free (what an unknown disc reports)."""

    fits: dict[Kind, Fit]
    free: Fit
    overlap: tuple[float, float]  # the best fit's silhouette covered, the region explained
    edged: float  # the share of the free fit's outline lying on an edge
    grain: float  # cm: the tolerance of a fit where it stands (half a photo pixel, or more)

    def disc_like(self) -> bool:
        """A disc: its outline fits one well, lies on edges most of the way round, and the
        region found covers its silhouette (art residue fails one of the three)."""
        best = min([f.error for f in self.fits.values()] + [self.free.error])
        covered = self.overlap[0]
        return (best <= DISC_LIKE * self.grain and covered >= COVERED and self.edged >= EDGED
                and covered + self.edged >= LIKE)


@dataclass(frozen=True)
class Naming:
    """The assignment's result (Capture's pieces, missing and unknown)."""

    found: tuple[FoundPiece, ...]
    missing: tuple[str, ...]
    unknown: tuple[UnknownDisc, ...]


def kind_of(piece: PieceBefore) -> Kind:
    return (piece.disc.radius, piece.disc.thickness)


def pair_cost(piece: PieceBefore, candidate: Candidate) -> float:
    """How unlikely it is that this disc is this piece."""
    fit = candidate.fits[kind_of(piece)]
    if fit.error > WORST_FIT * candidate.grain:
        return IMPOSSIBLE
    cost = (fit.error / (FIT_SCALE * candidate.grain)) ** 2
    if piece.at is not None:
        moved = math.dist(fit.at, piece.at)
        if moved > STILL:
            cost += MOVE_START + moved / MOVE_SCALE
    return cost


def cost_matrix(pieces: Sequence[PieceBefore], candidates: Sequence[Candidate]) -> Floats:
    """Pieces and 'unknown' slots (rows) against discs and 'missing' slots (columns)."""
    p, c = len(pieces), len(candidates)
    matrix = np.full((p + c, c + p), IMPOSSIBLE)
    for i, piece in enumerate(pieces):
        for j, candidate in enumerate(candidates):
            matrix[i, j] = pair_cost(piece, candidate)
        matrix[i, c + i] = MISSING
    for j in range(c):
        matrix[p + j, j] = UNKNOWN
    matrix[p:, c:] = 0.0  # an unused unknown slot meets an unused missing slot for free
    return matrix


def solve(matrix: Floats) -> tuple[float, list[tuple[int, int]]]:
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(matrix)
    return float(matrix[rows, cols].sum()), list(zip(rows.tolist(), cols.tolist(), strict=True))


def name_discs(pieces: Sequence[PieceBefore], candidates: Sequence[Candidate],
               still: float) -> Naming:
    """Name every disc: the cheapest assignment, and each name's confidence in [0, 1] from
    its fit and from what the best assignment without it would cost. A piece found closer
    than `still` cm to where it stood is reported where it stood (not moved)."""
    candidates = [c for c in candidates if c.disc_like()]
    p, c = len(pieces), len(candidates)
    matrix = cost_matrix(pieces, candidates)
    total, pairs = solve(matrix)
    found: list[FoundPiece] = []
    missing: list[str] = []
    named: set[int] = set()
    for row, col in pairs:
        if row >= p:
            continue
        piece = pieces[row]
        if col >= c or matrix[row, col] >= IMPOSSIBLE:
            missing.append(piece.id)
            continue
        named.add(col)
        fit = candidates[col].fits[kind_of(piece)]
        other = matrix.copy()
        other[row, col] = IMPOSSIBLE
        alternative, _ = solve(other)
        margin = 1 - math.exp(-max(0.0, alternative - total) / MARGIN_SCALE)
        quality = math.exp(-((fit.error / (2.5 * FIT_SCALE * candidates[col].grain)) ** 2))
        at = fit.at
        moved = None if piece.at is None else math.dist(at, piece.at)
        if piece.at is not None and moved is not None and moved < still:
            at, moved = piece.at, 0.0
        found.append(FoundPiece(piece.id, (round(at[0], 2), round(at[1], 2)),
                                None if moved is None else round(moved, 2),
                                round(max(0.0, min(1.0, margin * quality)), 3)))
    unknown = [UnknownDisc((round(cand.free.at[0], 2), round(cand.free.at[1], 2)),
                           round(cand.free.radius, 2))
               for j, cand in enumerate(candidates) if j not in named]
    order = {piece.id: i for i, piece in enumerate(pieces)}
    found.sort(key=lambda f: order[f.id])
    return Naming(tuple(found), tuple(missing), tuple(unknown))
