"""The printed ArUco cards found in a photo: each marker's four corners, to a tenth of a pixel.

The detector runs on a half-size grey picture when the photo is large (a 5 cm marker is still
dozens of pixels there, and the search is four times cheaper), then each corner is refined on
the full-size picture with a window smaller than one of the marker's cells, so the refinement
cannot slide onto a corner of the marker's inner bits."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np
import numpy.typing as npt

from automa.photo.image import Floats, Pixels

HALF_SIZE_ABOVE = 2200  # px: photos wider than this are searched at half size first
CELLS = 6  # a 4x4 marker with its one-cell black border is 6 cells a side


def grey(pixels: Pixels) -> Pixels:
    """The photo in grey levels (the markers are black on white)."""
    out: Pixels = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    return out


def find_markers(gray: Pixels, dictionary: str, wanted: tuple[int, ...]) -> dict[int, Floats]:
    """The markers of `wanted` ids seen: id -> 4 x 2 corners (image px, a pixel's index is its
    centre), in OpenCV's order (the printed image's top-left, top-right, bottom-right,
    bottom-left). A marker seen twice keeps its larger sighting (the other is a mistake)."""
    parameters = cv2.aruco.DetectorParameters()
    # OpenCV drops a candidate lying close to another one; the nested outlines of one card
    # (its black square seen at several thresholds) then sometimes lose the one that decodes
    # (a card in plain view went unseen in 1 photo in 10): keep all, the largest per id wins
    parameters.minMarkerDistanceRate = 0.0
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(
        getattr(cv2.aruco, dictionary)), parameters)
    found: dict[int, Floats] = {}
    for scale, picture in views(gray):
        for marker, corners in sightings(detector, picture, scale, wanted).items():
            found.setdefault(marker, corners)
        if len(found) == len(wanted):
            break
    return {marker: refine(gray, corners) for marker, corners in sorted(found.items())}


def views(gray: Pixels) -> Iterator[tuple[float, Pixels]]:
    """The pictures the detector looks at, cheapest first, each with its scale (full-size
    px per its px): a large photo halved; a smaller one slightly smoothed (sensor noise and
    JPEG make a card's outline ragged enough for the detector to drop it, 1 photo in 10);
    then, for the cards still missing, the photo as it is and, if small, doubled."""
    if max(gray.shape) > HALF_SIZE_ABOVE:
        yield 2.0, cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                              interpolation=cv2.INTER_AREA)
    else:
        yield 1.0, cv2.GaussianBlur(gray, (0, 0), 1.0)
    yield 1.0, gray
    if max(gray.shape) <= HALF_SIZE_ABOVE:
        yield 0.5, cv2.resize(gray, (gray.shape[1] * 2, gray.shape[0] * 2),
                              interpolation=cv2.INTER_LINEAR)


def sightings(detector: object, gray: Pixels, factor: float,
              wanted: tuple[int, ...]) -> dict[int, Floats]:
    """What the detector sees at one scale, mapped to full-size pixel coordinates."""
    corners, ids, _ = detector.detectMarkers(gray)  # type: ignore[attr-defined]
    found: dict[int, Floats] = {}
    if ids is None:
        return found
    for quad, marker in zip(corners, np.asarray(ids).ravel(), strict=True):
        if int(marker) not in wanted:
            continue
        # a pixel's index is its centre: pixel i of a picture scaled by 1/f covers the
        # full-size span starting at f i - 0.5, whose centre is f (i + 0.5) - 0.5
        full = (np.asarray(quad, np.float64).reshape(4, 2) + 0.5) * factor - 0.5
        if int(marker) not in found or perimeter(full) > perimeter(found[int(marker)]):
            found[int(marker)] = full
    return found


def perimeter(corners: Floats) -> float:
    return float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).sum())


def refine(gray: Pixels, corners: Floats) -> Floats:
    """The corners refined to sub-pixel on the full-size picture, the search window kept
    inside half a cell of the marker so no inner bit's corner can attract it."""
    cell = perimeter(corners) / 4 / CELLS
    half = int(max(2, min(12, cell * 0.45)))
    points: npt.NDArray[np.float32] = corners.astype(np.float32).reshape(-1, 1, 2)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 0.01)
    refined = cv2.cornerSubPix(gray, points, (half, half), (-1, -1), criteria)
    out = np.asarray(refined, np.float64).reshape(4, 2)
    # a refinement that wandered more than a cell is worse than the detector's corner
    moved = np.linalg.norm(out - corners, axis=1) > cell * 0.5
    out[moved] = corners[moved]
    return out
