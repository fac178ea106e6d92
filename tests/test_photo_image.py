"""A phone photo read into pixels (automa/photo/image.py): the EXIF orientation turns the
pixels upright, and the focal length comes from the EXIF in pixels of the upright picture."""

from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image

from automa.photo.image import EXIF_FOCAL_35MM, EXIF_IFD, EXIF_ORIENTATION, read_photo


def jpeg(pixels: np.ndarray, orientation: int | None = None, f35: int | None = None) -> bytes:
    exif = Image.Exif()
    if orientation is not None:
        exif[EXIF_ORIENTATION] = orientation
    if f35 is not None:
        exif.get_ifd(EXIF_IFD)[EXIF_FOCAL_35MM] = f35
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="JPEG", quality=95, exif=exif.tobytes())
    return out.getvalue()


def marked() -> np.ndarray:
    """An RGB picture 640 wide, 480 high, whose top-left quarter is red."""
    pixels = np.full((480, 640, 3), 40, np.uint8)
    pixels[:240, :320] = (230, 20, 20)
    return pixels


def test_pixels_without_exif_are_kept_as_they_are_in_bgr() -> None:
    photo = read_photo(jpeg(marked()), "a.jpg")
    assert photo.size == (640, 480)
    assert photo.pixels[10, 10, 2] > 200 and photo.pixels[10, 10, 0] < 60  # red, as BGR
    assert photo.pixels[400, 600, 2] < 60
    assert photo.focal_px is None


def test_orientation_six_turns_the_stored_pixels_clockwise() -> None:
    """A phone held upright stores the sensor's pixels and says 'turn 90 degrees clockwise':
    the stored top-left corner is seen at the top-right."""
    photo = read_photo(jpeg(marked(), orientation=6), "b.jpg")
    assert photo.size == (480, 640)
    assert photo.pixels[10, 470, 2] > 200  # top-right is red
    assert photo.pixels[10, 10, 2] < 60


def test_the_35mm_equivalent_focal_is_read_by_the_diagonal() -> None:
    for orientation in (None, 6):
        photo = read_photo(jpeg(marked(), orientation, f35=26), "c.jpg")
        diagonal = math.hypot(640, 480)
        assert photo.focal_px is not None
        assert abs(photo.focal_px - 26 / math.hypot(36, 24) * diagonal) < 1e-6


def test_an_absurd_focal_is_ignored() -> None:
    assert read_photo(jpeg(marked(), f35=2000), "d.jpg").focal_px is None
