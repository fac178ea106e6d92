"""A photo read against a battle: which pieces stand on the mat and as what discs, the kept
photo of the empty mat side, and the moves a capture proposes.

The vision itself (automa/photo/pipeline.py) knows nothing of battles; this module turns a
battle's pieces into the discs it looks for, and its answer into the session's own `Move`
commands, one per piece, so a capture is recorded, replayed and undone like typed moves."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from automa.catalog.capture import load_capture_settings
from automa.catalog.load import Catalog
from automa.catalog.locate import default_data_folder
from automa.model.capture import CaptureSettings, Point
from automa.model.pieces import HERO_KINDS, Condition, Piece
from automa.model.playmat import Playmat
from automa.photo.model import Capture, DiscKind, FoundPiece, PhotoError, PieceBefore
from automa.session.commands import Move
from automa.session.game import Game

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

# A piece on another or off the mat surface is not looked for: a rider's disc sits on its
# mount's (both move together, by hand), a devoured piece is inside its devourer, a piece aloft
# is held above the mat.
NOT_LOOKED_FOR = frozenset({Condition.RIDING, Condition.RIDDEN, Condition.DEVOURED,
                            Condition.ALOFT})
HERO_DISC = "hero"  # the disc size class of heroes and their helpers (components.toml)
KEPT_FOLDER = "capture"  # in the data folder: the empty mat sides' top views
PLACES = 2  # a captured place is recorded to 0.1 mm: finer than any photo measures


def disc_size(piece: Piece, catalog: Catalog) -> str:
    """The disc size class a piece is made of: its monster's or Lord's card, a hero's disc,
    else the size whose radius is nearest the piece's own."""
    spec = catalog.monsters.get(piece.monster or "") or catalog.lords.get(piece.monster or "")
    if spec is not None and spec.size is not None:
        return spec.size
    radii = catalog.components.disc_radius
    if piece.kind in HERO_KINDS and HERO_DISC in radii:
        return HERO_DISC
    return min(radii, key=lambda size: (abs(radii[size] - piece.radius), size))


def battle_pieces(pieces: Sequence[Piece], catalog: Catalog,
                  unmeasured: Mapping[str, Point | None] | None = None) -> list[PieceBefore]:
    """The pieces the photo should show, each as the disc it is made of (its own radius, its
    size's thickness) and where it stood: None where the table never measured it (an asked
    battle's `unmeasured`)."""
    thickness = catalog.components.disc_thickness
    looked_for = []
    for piece in pieces:
        if piece.conditions & NOT_LOOKED_FOR:
            continue
        size = disc_size(piece, catalog)
        at = None if unmeasured is not None and piece.id in unmeasured else piece.at
        looked_for.append(PieceBefore(piece.id, DiscKind(size, piece.radius,
                                                         thickness.get(size, 1.0)), at))
    return looked_for


def empty_view(playmat: Playmat, settings: CaptureSettings, catalog: Catalog,
               empty: bytes | None = None, where: str = "the empty-mat photo") -> np.ndarray:
    """The top view of `playmat`'s side without pieces that photos are read against: `empty`,
    a photo of it (`where`: its name, for messages), rectified; None, the one kept for the
    side (`keep_empty`)."""
    from automa.photo.extra import require_photo_extra

    require_photo_extra()
    if empty is None:
        return kept_empty(playmat, settings, catalog)
    from automa.photo.pipeline import empty_top_view

    return empty_top_view(empty, where, settings, playmat.width, playmat.length)


def capture_pieces(photo: bytes, where: str, pieces: Sequence[Piece], catalog: Catalog,
                   playmat: Playmat, settings: CaptureSettings, empty_top: np.ndarray,
                   unmeasured: Mapping[str, Point | None] | None = None,
                   progress: Callable[[str, float], None] | None = None) -> Capture:
    """Read `photo` (its file name or source `where`, for messages) as `playmat` with these
    pieces on it, against the side's empty view (`empty_view`); the unknown discs no piece
    could be are set aside (`on_obstacles`)."""
    from automa.photo.extra import require_photo_extra

    require_photo_extra()
    from automa.photo.pipeline import read_capture

    found = read_capture(photo, where, empty_top, settings, playmat.width, playmat.length,
                         battle_pieces(pieces, catalog, unmeasured), progress)
    return on_obstacles(found, playmat)


def capture_battle(photo: bytes, where: str, game: Game, settings: CaptureSettings,
                   empty_top: np.ndarray,
                   progress: Callable[[str, float], None] | None = None) -> Capture:
    """Read `photo` against a live battle: its pieces as they stand now, those an asked battle
    never measured looked for by size alone."""
    from automa.render.measured import unmeasured_now

    return capture_pieces(photo, where, game.state.battle.pieces, game.catalog,
                          game.scenario.playmat, settings, empty_top, unmeasured_now(game),
                          progress)


def on_obstacles(capture: Capture, playmat: Playmat) -> Capture:
    """The capture without the unknown discs no piece could be: those on an obstacle's
    footprint (a round obstacle, or the side of a tall one seen from another place than the
    empty mat's photo, can pass for a disc; no piece stands inside an obstacle) and those whose
    centre is off the mat (the mat's own edge against the table can pass for a rim; a piece
    that leaves the mat goes back on its edge)."""
    from shapely.geometry import Point as Spot

    from automa.geometry.table import build_table

    table = build_table(playmat)

    def could_be_a_piece(at: Point) -> bool:
        return (0.0 <= at[0] <= playmat.width and 0.0 <= at[1] <= playmat.length
                and not any(o.polygon.intersects(Spot(at)) for o in table.obstacles))

    return replace(capture, unknown=tuple(u for u in capture.unknown if could_be_a_piece(u.at)))


def capture_moves(capture: Capture, settings: CaptureSettings) -> list[Move]:
    """One `Move` per piece found that moved at least `settings.still` (or whose place before
    nobody measured), to the place found, in the capture's order."""
    return [Move(found.id, (round(found.at[0], PLACES), round(found.at[1], PLACES)))
            for found in capture.pieces if found.moved is None or found.moved >= settings.still]


def doubtful(capture: Capture, settings: CaptureSettings) -> list[FoundPiece]:
    """The pieces found with less confidence than the bar: the players check them."""
    return [found for found in capture.pieces if found.confidence < settings.confident]


def capture_json(capture: Capture) -> dict[str, Any]:
    """CONTRACT.md's object for `automa capture --json`."""
    return {
        "markers": list(capture.markers),
        "pieces": [{"id": p.id, "at": [round(p.at[0], PLACES), round(p.at[1], PLACES)],
                    "moved": None if p.moved is None else round(p.moved, PLACES),
                    "confidence": round(p.confidence, 3)} for p in capture.pieces],
        "missing": list(capture.missing),
        "unknown": [{"at": [round(u.at[0], PLACES), round(u.at[1], PLACES)],
                     "radius": round(u.radius, PLACES)} for u in capture.unknown],
    }


# ---------------------------------------------------------------------------------------------
# The empty mat sides, kept as top views in the data folder.

def kept_folder(catalog: Catalog) -> Path:
    """The data folder in force (--data-dir, $AUTOMA_DATA_DIR), else the default one."""
    return (catalog.data_dir or default_data_folder()) / KEPT_FOLDER


def _frame(playmat: Playmat, settings: CaptureSettings) -> dict[str, Any]:
    """What a kept top view depends on: the mat's size and where the cards lie."""
    return {"playmat": playmat.id, "width": playmat.width, "length": playmat.length,
            "mat_thickness": settings.mat_thickness,
            "markers": {str(k): [list(c) for c in v]
                        for k, v in settings.corners(playmat.width, playmat.length).items()}}


def keep_empty(photo: bytes, where: str, playmat: Playmat, catalog: Catalog) -> Path:
    """Rectify a photo of `playmat`'s side without pieces and keep it for later captures (a
    PNG and a note of the measures it was taken with, each written atomically); where."""
    from automa.photo.extra import require_photo_extra

    require_photo_extra()
    from automa.photo.pipeline import empty_top_view, write_empty
    from automa.storage import atomic_write_bytes, atomic_write_text

    settings = load_capture_settings(catalog.data_dir)
    png = write_empty(empty_top_view(photo, where, settings, playmat.width, playmat.length))
    folder = kept_folder(catalog)
    folder.mkdir(parents=True, exist_ok=True)
    image = folder / f"empty-{playmat.id}.png"
    atomic_write_bytes(image, png)
    atomic_write_text(folder / f"empty-{playmat.id}.json",
                      json.dumps(_frame(playmat, settings), indent=1) + "\n")
    return image


def kept_empty(playmat: Playmat, settings: CaptureSettings, catalog: Catalog) -> np.ndarray:
    """The kept top view of `playmat`'s empty side (in the data folder in force, else the
    default one); PhotoError, saying how to keep one, when there is none or it was taken with
    other measures."""
    from automa.photo.pipeline import read_empty

    folders = [kept_folder(catalog), default_data_folder() / KEPT_FOLDER]
    folder = next((f for f in folders if (f / f"empty-{playmat.id}.png").is_file()), folders[0])
    image, note = folder / f"empty-{playmat.id}.png", folder / f"empty-{playmat.id}.json"
    again = f"automa capture --empty PHOTO --playmat {playmat.id}"
    if not image.is_file() or not note.is_file():
        raise PhotoError(f"no photo of the empty {playmat.name} side is kept in {folder}: "
                         f"photograph the mat without pieces once, then `{again}` (or give "
                         f"--empty PHOTO)")
    try:
        frame = json.loads(note.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PhotoError(f"{note}: unreadable ({error}); keep it anew: `{again}`") from None
    if frame != json.loads(json.dumps(_frame(playmat, settings))):
        raise PhotoError(f"the kept empty-mat photo of {playmat.name} was taken with other mat "
                         f"or card measures; keep it anew: `{again}`")
    try:
        data = image.read_bytes()
    except OSError as error:
        raise PhotoError(f"{image}: unreadable ({error.strerror}); keep it anew: `{again}`"
                         ) from None
    return read_empty(data, str(image))
