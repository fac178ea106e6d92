"""The printed marker cards' bit patterns, taken from OpenCV's own dictionary.

The pattern is read from cv2 rather than copied into our code so that the cards we print are,
by construction, the markers the capture's detector looks for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from automa.photo.model import PhotoError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


def marker_bits(dictionary: str, marker_id: int) -> npt.NDArray[np.bool_]:
    """Marker `marker_id` of OpenCV's predefined `dictionary` (e.g. "DICT_4X4_50") as a square
    of cells, True where the print is black, its one-cell black border included (6 x 6 for a
    4 x 4 marker). Row 0 is the printed image's top row."""
    import cv2

    number = getattr(cv2.aruco, dictionary, None) if dictionary.startswith("DICT_") else None
    if not isinstance(number, int):
        raise PhotoError(f"{dictionary}: not one of OpenCV's predefined ArUco dictionaries")
    chosen = cv2.aruco.getPredefinedDictionary(number)
    count = len(chosen.bytesList)
    if not 0 <= marker_id < count:
        raise PhotoError(f"marker {marker_id}: {dictionary} has markers 0 to {count - 1}")
    cells = int(chosen.markerSize) + 2  # the pattern and its border, one pixel per cell
    image = cv2.aruco.generateImageMarker(chosen, marker_id, cells, borderBits=1)
    black: npt.NDArray[np.bool_] = image == 0
    return black
