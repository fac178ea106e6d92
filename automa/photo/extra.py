"""The photo extra: OpenCV (with its ArUco markers), Pillow and SciPy, installed apart."""

from __future__ import annotations

from automa.errors import InputError

INSTALL = "pip install 'catacombs-automa[photo]'"


class PhotoExtraMissing(InputError):
    """The photo commands need the photo extra, which is not installed."""


def require_photo_extra() -> None:
    """Import the extra's libraries once, or say in one line how to install them."""
    try:
        import cv2  # noqa: F401
        import PIL  # noqa: F401
        import scipy.optimize  # noqa: F401
    except ImportError as error:
        missing = error.name or "opencv-python-headless"
        raise PhotoExtraMissing(f"the photo commands need the photo extra ({missing} is not "
                                f"installed): {INSTALL}") from None
