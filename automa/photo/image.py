"""A phone photo read into pixels: JPEG or PNG (anything Pillow reads), the EXIF orientation
applied, and the focal length the EXIF gives, in pixels of the picture as it is seen."""

from __future__ import annotations

import io
import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from automa.photo.model import PhotoError

# OpenCV's stubs type every array it returns as "integer or floating", so arrays that pass
# through it are typed by what they hold in words, not by dtype
Pixels = npt.NDArray[Any]  # uint8 pixels: BGR (h x w x 3) or grey (h x w)
Floats = npt.NDArray[Any]  # float32 or float64 values

SENSOR_DIAGONAL_35MM = math.hypot(36.0, 24.0)  # mm: a 35 mm equivalent focal is by the diagonal
SMALLEST_SIDE = 320  # px: smaller and four 5 cm cards cannot be told apart
LARGEST_PIXELS = 80_000_000  # a phone's photo is at most ~50 MP; more is no photo of a mat
EXIF_ORIENTATION = 0x0112
EXIF_IFD = 0x8769
EXIF_FOCAL = 0x920A  # FocalLength, mm (a rational)
EXIF_FOCAL_35MM = 0xA405  # FocalLengthIn35mmFilm, mm (an integer)
EXIF_PLANE_X = 0xA20E  # FocalPlaneXResolution: sensor pixels per unit
EXIF_PLANE_UNIT = 0xA210  # FocalPlaneResolutionUnit: 2 inch, 3 cm, 4 mm, 5 um
PLANE_UNIT_MM = {2: 25.4, 3: 10.0, 4: 1.0, 5: 0.001}
FOCAL_RANGE = (0.3, 4.0)  # a focal, in image diagonals, outside this is an EXIF typo


@dataclass(frozen=True)
class Photo:
    """A photo's pixels (BGR, upright as the EXIF orientation says) and the focal length in
    pixels the EXIF implies (None when it says nothing usable)."""

    pixels: Pixels
    focal_px: float | None

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return (int(self.pixels.shape[1]), int(self.pixels.shape[0]))


def read_photo(data: bytes, where: str) -> Photo:
    """Decode a photo. Not an image, an empty or truncated file, or a picture too small or too
    large to be a phone's photo of the mat -> PhotoError naming `where`."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    if not data:
        raise PhotoError(f"{where}: the file is empty, not a photo")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            width, height = image.size
            if width * height > LARGEST_PIXELS:
                raise PhotoError(f"{where}: {width} x {height} pixels is too large for a photo "
                                 f"of the mat (at most {LARGEST_PIXELS // 1_000_000} MP)")
            if min(width, height) < SMALLEST_SIDE:
                raise PhotoError(f"{where}: {width} x {height} pixels is too small to find the "
                                 f"marker cards (at least {SMALLEST_SIDE} px a side)")
            image.load()
            focal = exif_focal(image)
            upright = ImageOps.exif_transpose(image)
            rgb = np.asarray(upright.convert("RGB"), dtype=np.uint8)
    except PhotoError:
        raise
    except UnidentifiedImageError:
        raise PhotoError(f"{where}: not an image (a photo is a JPEG or PNG file)") from None
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise PhotoError(f"{where}: too large for a photo of the mat (at most "
                         f"{LARGEST_PIXELS // 1_000_000} MP)") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise PhotoError(f"{where}: the image is damaged or cut short: {exc}") from None
    pixels = np.ascontiguousarray(rgb[:, :, ::-1])
    return Photo(pixels, focal)


def exif_focal(image: object) -> float | None:
    """The focal length in pixels from the EXIF: the 35 mm equivalent (by the diagonal, which
    the orientation does not change), else the focal in mm times the sensor's pixels per mm.
    Anything missing or implausible -> None (the markers estimate the focal anyway)."""
    getexif = getattr(image, "getexif", None)
    size = getattr(image, "size", None)
    if getexif is None or size is None:
        return None
    try:
        exif = getexif()
        sub = exif.get_ifd(EXIF_IFD)
    except (OSError, ValueError, KeyError, TypeError, SyntaxError):
        return None
    diagonal = math.hypot(*size)
    focal: float | None = None
    f35 = number(sub.get(EXIF_FOCAL_35MM))
    if f35 is not None and f35 > 0:
        focal = f35 / SENSOR_DIAGONAL_35MM * diagonal
    else:
        mm = number(sub.get(EXIF_FOCAL))
        per_unit = number(sub.get(EXIF_PLANE_X))
        unit = PLANE_UNIT_MM.get(int(number(sub.get(EXIF_PLANE_UNIT)) or 2))
        if mm is not None and per_unit is not None and unit is not None and mm > 0:
            focal = mm * per_unit / unit
    if focal is None or not FOCAL_RANGE[0] <= focal / diagonal <= FOCAL_RANGE[1]:
        return None
    return focal


def number(value: object) -> float | None:
    """An EXIF value (int, float or a rational) as a float, None if it is not a number."""
    if value is None or isinstance(value, (str, bytes, tuple, list)):
        return None
    try:
        result = float(value)  # type: ignore[arg-type]  # Pillow's IFDRational is a Real
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return result if math.isfinite(result) else None
