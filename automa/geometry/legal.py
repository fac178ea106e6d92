"""Which of many candidate centres a piece may stand on, in one vectorised pass.

Both the nearest legal spot (spots.py) and the moves (moves.py) check candidates here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from automa.geometry.table import EPSILON, TableGeometry, point_gaps
from automa.model.pieces import Piece


def legal_mask(table: TableGeometry, pieces: Sequence[Piece], mover: Piece,
               centres: NDArray[np.float64], tolerance: float = EPSILON) -> NDArray[np.bool_]:
    """Which of many candidate centres (n, 2) are legal for the mover, in one vectorised pass
    (overlaps under `tolerance` count as touching)."""
    r = mover.radius
    mat = table.playmat
    x, y = centres[:, 0], centres[:, 1]
    ok = (x >= r - tolerance) & (x <= mat.width - r + tolerance)
    ok &= (y >= r - tolerance) & (y <= mat.length - r + tolerance)
    at, radii = _other_discs(pieces, mover.id)
    if len(at):
        reach = radii + r - tolerance
        gaps = np.hypot(x[:, None] - at[None, :, 0], y[:, None] - at[None, :, 1])
        ok &= (gaps >= reach[None, :]).all(axis=1)
    if table.obstacles and ok.any():
        rows = np.flatnonzero(ok)
        spot, _, distances = point_gaps(table, centres[rows], r - tolerance)
        ok[rows[spot[distances < r - tolerance]]] = False
    return ok


_DISCS_KEPT: list[tuple[Sequence[Piece], str, NDArray[np.float64], NDArray[np.float64]]] = []


def _other_discs(pieces: Sequence[Piece], mover_id: str
                 ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The centres (n, 2) and radii (n,) of the pieces other than the mover, in their order.
    A search for a legal spot asks about the same pieces chunk after chunk: the arrays for the
    last tuple of pieces (immutable, and kept alive here, so never mistaken) are kept."""
    for kept_pieces, kept_id, at, radii in _DISCS_KEPT:
        if kept_pieces is pieces and kept_id == mover_id:
            return at, radii
    others = [p for p in pieces if p.id != mover_id]
    at = np.array([p.at for p in others], dtype=float).reshape(-1, 2)
    radii = np.array([p.radius for p in others], dtype=float)
    if isinstance(pieces, tuple):
        _DISCS_KEPT[:] = [(pieces, mover_id, at, radii)]
    return at, radii
