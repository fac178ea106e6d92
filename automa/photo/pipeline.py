"""The photo capture's public surface: an empty mat side kept as a top view, a photo of the mat
read into the pieces' positions, and discs measured for `automa calibrate --photo`.

Each step is in its own module (image, markers, camera, topview, discs, naming); this one
strings them together and turns what cannot be read into one PhotoError line."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from automa.model.capture import CaptureSettings, Point
from automa.photo.camera import CameraFix, locate_camera
from automa.photo.discs import (
    Fit,
    Outline,
    Parallax,
    coverage,
    difference,
    edge_map,
    fit_disc,
    foreground,
    free_fit,
    mat_area,
    outlines,
    overlap,
    resample,
)
from automa.photo.image import Floats, Pixels, read_photo
from automa.photo.markers import find_markers, grey
from automa.photo.model import Capture, PhotoError, PieceBefore
from automa.photo.naming import Candidate, Kind, name_discs
from automa.photo.topview import TopFrame, rectify, top_frame

Progress = Callable[[str, float], None]
MARGIN = 3.0  # cm beyond the mat's edges searched (a disc's top leans out over the edge)
OTHER_SIDE = 0.3  # a share of the mat this large differing from the empty photo: another side
RADIUS_RANGE = (0.5, 3.0)  # cm: what `measure_discs` reports
FIRST_FIT = 0.25  # cm: a region whose edges fit no disc better than this holds none
SETTLE_REACH = (8.0, 4.0)  # top-view px: how far from the model each refinement looks
MEASURE_FIT = 0.08  # cm: an outline fitting a disc worse than this is not measured
MARKERS_HELP = "lay all four cards of `automa markers` beside the mat's corners, all in the photo"


@dataclass(frozen=True)
class Located:
    """A photo read as far as its top view."""

    markers: tuple[int, ...]
    camera: CameraFix
    frame: TopFrame
    top: Pixels
    covered: np.ndarray


def locate(photo: bytes, where: str, settings: CaptureSettings, width: float, length: float,
           progress: Progress | None = None) -> Located:
    """Decode, find the markers (3 of the 4 at least), fix the camera, rectify."""
    report = progress or (lambda _stage, _done: None)
    report("reading the photo", 0.0)
    image = read_photo(photo, where)
    report("finding the marker cards", 0.15)
    wanted = tuple(card.id for card in settings.cards)
    seen = find_markers(grey(image.pixels), settings.dictionary, wanted)
    if not seen:
        raise PhotoError(f"{where}: no marker cards in the photo; {MARKERS_HELP}")
    if len(seen) < 3:
        raise PhotoError(f"{where}: markers seen: {', '.join(str(m) for m in seen)}; "
                         f"{MARKERS_HELP}")
    report("placing the camera", 0.3)
    camera = locate_camera(settings, width, length, seen, image.size, image.focal_px, where)
    report("seeing the mat from above", 0.4)
    frame = top_frame(settings, width, length)
    top = rectify(image.pixels, camera.homography, frame)
    covered = coverage(camera.homography, frame, image.size)
    return Located(tuple(sorted(seen)), camera, frame, top, covered)


def empty_top_view(photo: bytes, where: str, settings: CaptureSettings,
                   width: float, length: float) -> Pixels:
    """The empty mat side's photo rectified to the top view (BGR uint8; black where the photo
    did not reach), as kept on disk (PNG) for later captures."""
    located = locate(photo, where, settings, width, length)
    top = located.top.copy()
    top[~located.covered] = 0
    return top


def check_empty(empty_top: Floats | Pixels, frame: TopFrame, where: str) -> Pixels:
    shape = (frame.size[1], frame.size[0], 3)
    if empty_top.shape != shape or empty_top.dtype != np.uint8:
        raise PhotoError(f"{where}: the empty-mat photo was kept for another mat size or card "
                         f"layout; take it again (automa capture --empty PHOTO --playmat ID)")
    return np.asarray(empty_top, np.uint8)


def disc_outlines(located: Located, empty_top: Pixels, width: float, length: float,
                  where: str) -> tuple[list[Outline], Floats]:
    """The outlines of what stands on the mat and the map of its edges, or PhotoError if the
    empty photo is of another mat side (most of the mat differs)."""
    frame = located.frame
    empty = check_empty(empty_top, frame, where)
    valid = located.covered & np.any(empty > 0, axis=2)
    plain, robust = difference(located.top, empty, valid, frame)
    on_mat = mat_area(frame, width, length) & valid
    region = mat_area(frame, width, length, -MARGIN) & valid
    mask, _ = foreground(robust, region, frame)
    if on_mat.any() and float(mask[on_mat].mean()) > OTHER_SIDE:
        raise PhotoError(f"{where}: the empty-mat photo is not of this mat side (most of the "
                         f"mat differs from it); photograph this side without pieces and keep "
                         f"it with automa capture --empty PHOTO --playmat ID")
    edges = edge_map(plain)
    return outlines(mask, edges, frame), edges


def on_the_mat(at: Point, width: float, length: float) -> bool:
    return -1.0 <= at[0] <= width + 1.0 and -1.0 <= at[1] <= length + 1.0


def read_capture(photo: bytes, where: str, empty_top: Pixels, settings: CaptureSettings,
                 width: float, length: float, pieces: Sequence[PieceBefore],
                 progress: Progress | None = None) -> Capture:
    """Where every piece on the mat stands in this photo: the pieces found (with how far each
    moved and how sure the naming is), the pieces not found, and the discs no piece fits."""
    report = progress or (lambda _stage, _done: None)
    located = locate(photo, where, settings, width, length, report)
    report("finding the discs", 0.55)
    found, edges = disc_outlines(located, empty_top, width, length, where)
    camera = Parallax(located.camera.foot, located.camera.height)
    kinds: list[Kind] = sorted({(p.disc.radius, p.disc.thickness) for p in pieces})
    usual = float(np.median([t for _, t in kinds])) if kinds else 1.0
    report("measuring the discs", 0.7)
    candidates = [c for c in (candidate(first, kinds, usual, camera, edges, located.frame)
                              for first in found) if c is not None]
    candidates = [c for c in candidates if on_the_mat(c.free.at, width, length)]
    report("naming the pieces", 0.9)
    naming = name_discs(pieces, candidates, settings.still)
    report("done", 1.0)
    return Capture(located.markers, naming.found, naming.missing, naming.unknown)


def settle(first: Outline, thickness: float, camera: Parallax, edges: Floats,
           frame: TopFrame) -> tuple[Fit, Outline]:
    """A disc of free radius fitted to a region, then twice again to the edges found along
    its own silhouette (the region's outline is only where the difference crossed a
    threshold, and part of a disc can be as dark as the mat; the model's outline finds the
    rim itself, from a few millimetres off)."""
    fit = free_fit(first, thickness, camera)
    outline = first
    for reach in SETTLE_REACH:
        outline = resample(fit, camera, edges, frame, reach)
        fit = fit_disc(outline, fit.radius, thickness, camera, free_radius=True)
    return fit, outline


def candidate(first: Outline, kinds: Sequence[Kind], usual: float, camera: Parallax,
              edges: Floats, frame: TopFrame) -> Candidate | None:
    """A region's best disc of free radius (for each thickness the battle's discs have),
    then every size the battle has fitted to that disc's edges, so the sizes compete on the
    same evidence; None when nothing round is there."""
    thicknesses = sorted({t for _, t in kinds}) or [usual]
    settled = [settle(first, t, camera, edges, frame) for t in thicknesses]
    free, outline = min(settled, key=lambda s: s[0].error)
    if free.error > FIRST_FIT:
        return None
    fits = {kind: fit_disc(outline, kind[0], kind[1], camera) for kind in kinds}
    best = min([*fits.values(), free], key=lambda f: f.error)
    return Candidate(fits, free, overlap(first, best, camera, frame))


def measure_discs(photo: bytes, where: str, empty_top: Pixels, settings: CaptureSettings,
                  width: float, length: float, thickness: float) -> list[tuple[Point, float]]:
    """Every disc on the mat in this photo, of any size from 0.5 to 3 cm radius: its centre
    and its radius (cm), for `automa calibrate --photo`."""
    located = locate(photo, where, settings, width, length)
    found, edges = disc_outlines(located, empty_top, width, length, where)
    camera = Parallax(located.camera.foot, located.camera.height)
    measured = []
    for first in found:
        fit, _ = settle(first, thickness, camera, edges, located.frame)
        if (fit.error <= MEASURE_FIT and RADIUS_RANGE[0] <= fit.radius <= RADIUS_RANGE[1]
                and on_the_mat(fit.at, width, length)):
            measured.append(((round(fit.at[0], 2), round(fit.at[1], 2)), round(fit.radius, 3)))
    return sorted(measured)
