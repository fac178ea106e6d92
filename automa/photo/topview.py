"""The photo rectified to a top view of the mat: a picture in which one pixel is a fixed square
of mat (1/20 cm by default), so two photos of the same mat from any two poses line up pixel by
pixel wherever the mat is flat. Only things that stand above the mat (the discs) do not."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from automa.model.capture import CaptureSettings, Point
from automa.photo.image import Floats, Pixels

SCALE = 20.0  # top-view pixels per cm: 0.5 mm, finer than a phone resolves at the far edge
CARD_MARGIN = 1.0  # cm of white card kept around each marker


@dataclass(frozen=True)
class TopFrame:
    """Which mat rectangle a top view shows: pixel (u, v) is the mat point
    (x0 + u / scale, y0 + v / scale), a pixel's index being its centre; `size` is
    (width, height) in pixels. Rows run toward +y (the Monster Start Zone)."""

    x0: float
    y0: float
    scale: float
    size: tuple[int, int]

    def to_mat(self, u: Floats, v: Floats) -> tuple[Floats, Floats]:
        return self.x0 + u / self.scale, self.y0 + v / self.scale

    def to_pixel(self, at: Point) -> Point:
        return ((at[0] - self.x0) * self.scale, (at[1] - self.y0) * self.scale)

    def matrix(self) -> Floats:
        """Top-view pixel (u, v, 1) -> mat cm (x, y, 1)."""
        s = 1 / self.scale
        return np.array([[s, 0, self.x0], [0, s, self.y0], [0, 0, 1.0]])


def top_frame(settings: CaptureSettings, width: float, length: float,
              scale: float = SCALE) -> TopFrame:
    """The mat and the four cards, with their white margins."""
    corners = np.array([p for quad in settings.corners(width, length).values() for p in quad])
    low = np.minimum(corners.min(axis=0), (0.0, 0.0)) - CARD_MARGIN
    high = np.maximum(corners.max(axis=0), (width, length)) + CARD_MARGIN
    size = (int(np.ceil((high[0] - low[0]) * scale)) + 1,
            int(np.ceil((high[1] - low[1]) * scale)) + 1)
    return TopFrame(float(low[0]), float(low[1]), scale, size)


def rectify(pixels: Pixels, homography: Floats, frame: TopFrame) -> Pixels:
    """The photo seen from straight above: `homography` maps mat cm to photo px. A photo much
    finer than the top view is first halved (by area), so bilinear sampling does not alias."""
    to_photo = homography @ frame.matrix()
    # photo pixels per top-view pixel, at the finest place (the mat's nearest corner)
    u = np.array([0, frame.size[0] - 1, frame.size[0] - 1, 0], np.float64)
    v = np.array([0, 0, frame.size[1] - 1, frame.size[1] - 1], np.float64)
    step = max(local_step(to_photo, a, b) for a, b in zip(u, v, strict=True))
    source = pixels
    while step > 2.5 and min(source.shape[:2]) > 800:
        source = cv2.resize(source, (source.shape[1] // 2, source.shape[0] // 2),
                            interpolation=cv2.INTER_AREA)
        # a half-size pixel i is the full-size point 2i + 0.5
        to_photo = np.array([[0.5, 0, -0.25], [0, 0.5, -0.25], [0, 0, 1.0]]) @ to_photo
        step /= 2
    out: Pixels = cv2.warpPerspective(source, to_photo, frame.size,
                                      flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                      borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    return out


def local_step(matrix: Floats, u: float, v: float) -> float:
    """How many photo pixels one top-view pixel spans at (u, v)."""
    def at(a: float, b: float) -> Floats:
        p = matrix @ np.array([a, b, 1.0])
        return np.asarray(p[:2] / p[2])

    return float(max(np.linalg.norm(at(u + 1, v) - at(u, v)),
                     np.linalg.norm(at(u, v + 1) - at(u, v))))
