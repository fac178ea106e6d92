"""The kept empty view lined up on a photo's top view, where the two are out of register.

Two top views of one mat line up pixel by pixel only when both were rectified on the mat's true
surface from cards that did not move. A mat a millimetre thinner or thicker than the data says
shifts each view about its own camera's foot point (two poses, two shifts), and a card nudged
between the empty photo and this one shifts the whole frame: a millimetre or two, enough to
turn the mat's art into false foreground and hide discs (a flat mat read as a 2 mm one lost one
disc in seven). What is left is close to an affine map between the two views, which the mat's
own art measures: OpenCV's ECC fit (`findTransformECC`, an intensity alignment robust to a
change of light) at a quarter of the top view's scale, the pieces left out."""

from __future__ import annotations

import cv2
import numpy as np

from automa.photo.discs import Mask
from automa.photo.image import Floats, Pixels
from automa.photo.topview import TopFrame

FACTOR = 4  # the fit runs on views this many times smaller (5 px/cm): fast, and fine enough
ITERATIONS = 30  # the two views start within a few pixels of each other
EPSILON = 1e-5
LARGEST_SHIFT = 1.0  # cm: a fit moving any point of the view farther is no fit (art mistaken)
IN_REGISTER = 0.5  # top-view px: a fit moving no point farther leaves the views as they are
FEWEST = 2000  # small-view pixels of bare mat the fit needs at least


def small_grey(pixels: Pixels) -> Floats:
    grey = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY).astype(np.float32)
    size = (pixels.shape[1] // FACTOR, pixels.shape[0] // FACTOR)
    out: Floats = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return out


def to_full_scale(warp: Floats) -> Floats:
    """An affine map between small views as one between the full views: a small pixel i is
    the full-size point FACTOR i + (FACTOR - 1) / 2 (pixel indices are centres)."""
    linear = warp[:, :2].astype(np.float64)
    centre = np.full(2, (FACTOR - 1) / 2)
    shift = FACTOR * warp[:, 2].astype(np.float64) + (np.eye(2) - linear) @ centre
    return np.column_stack([linear, shift])


def farthest_shift(warp: Floats, size: tuple[int, int]) -> float:
    """How far (px) the map moves the view's farthest corner."""
    w, h = size
    corners = np.array([[0, 0, 1], [w - 1, 0, 1], [w - 1, h - 1, 1], [0, h - 1, 1]], float)
    moved = corners @ warp.T
    return float(np.max(np.hypot(*(moved - corners[:, :2]).T)))


def lined_up(top: Pixels, empty: Pixels, bare: Mask, frame: TopFrame) -> Pixels | None:
    """`empty` warped onto `top` by the affine map that best lines up their art on the `bare`
    mat (no piece, both views seen): None when the fit fails, has too little mat to go on,
    finds them in register already, or moves the view implausibly far."""
    h, w = top.shape[:2]
    small_mask = cv2.resize(bare.astype(np.uint8), (w // FACTOR, h // FACTOR),
                            interpolation=cv2.INTER_NEAREST)
    small_mask = cv2.erode(small_mask, np.ones((3, 3), np.uint8))
    if int(np.count_nonzero(small_mask)) < FEWEST:
        return None
    start = np.eye(2, 3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ITERATIONS, EPSILON)
    try:
        _, warp = cv2.findTransformECC(small_grey(top), small_grey(empty), start,
                                       cv2.MOTION_AFFINE, criteria, small_mask, 5)
    except cv2.error:  # no convergence: the views stay as they were
        return None
    full = to_full_scale(np.asarray(warp, np.float64))
    moved = farthest_shift(full, (w, h))
    if moved > LARGEST_SHIFT * frame.scale or moved < IN_REGISTER:
        return None
    out: Pixels = cv2.warpAffine(empty, full, (w, h),
                                 flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    return out
