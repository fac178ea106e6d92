"""Where the phone was: the mat-to-photo homography from the marker corners, the focal length,
and the camera's centre (its foot on the mat and its height), which the discs' parallax needs.

The focal comes from the homography itself (two constraints of a rotation on its first two
columns, the principal point at the picture's centre), or from the EXIF where the homography
cannot tell (a view nearly straight down); OpenCV's single-view calibration then refines it
with every corner, and the pose follows."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from automa.model.capture import CaptureSettings, Point
from automa.photo.image import SENSOR_DIAGONAL_35MM, Floats
from automa.photo.model import PhotoError

DEFAULT_FOCAL_35MM = 26.0  # a phone's main camera when neither EXIF nor the markers tell
PLAUSIBLE_FOCAL = (0.35, 3.5)  # in image diagonals: a phone's main camera is ~0.9-1.2
CALIBRATION_FLAGS = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT |
                     cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST |
                     cv2.CALIB_FIX_K1 | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)


@dataclass(frozen=True)
class CameraFix:
    """The photo's geometry: `homography` maps the cards' plane (mat cm x, y, 1) to photo
    pixels; the camera's centre stands `height` cm above that plane over `foot`; `error` is
    the corners' RMS reprojection error in px; `rotation`, `translation` and `principal` are
    the pose and intrinsics it came from."""

    homography: Floats
    focal: float
    foot: Point
    height: float
    error: float
    rotation: Floats
    translation: Floats
    principal: Point

    def plane(self, z: float) -> Floats:
        """The homography of the plane `z` cm above the cards' (the mat's surface, when the
        mat is thicker than a card): the pose's, corrected by how the cards' own homography
        differs from the pose's at z 0."""
        if z == 0:
            return self.homography
        k = np.array([[self.focal, 0, self.principal[0]], [0, self.focal, self.principal[1]],
                      [0, 0, 1.0]])
        r, t = self.rotation, self.translation

        def posed(height: float) -> Floats:
            return np.asarray(k @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * height + t]))

        out: Floats = self.homography @ np.linalg.inv(posed(0.0)) @ posed(z)
        return out


def marker_points(settings: CaptureSettings, width: float, length: float,
                  seen: dict[int, Floats]) -> tuple[Floats, Floats]:
    """Matching corners: mat cm (n x 2) and photo px (n x 2), for the markers seen."""
    places = settings.corners(width, length)
    mat = np.array([p for marker in seen for p in places[marker]], np.float64)
    photo = np.concatenate([seen[marker] for marker in seen]).astype(np.float64)
    return mat, photo


def focal_from_homography(homography: Floats, principal: Point) -> float | None:
    """Zhang's constraints with square pixels and a known principal point: the first two
    columns of K^-1 H are orthogonal and of equal length. Least squares in 1/f^2; None when
    the view is too near straight-down to say (both constraints vanish)."""
    shift = np.array([[1.0, 0, -principal[0]], [0, 1.0, -principal[1]], [0, 0, 1]])
    h = shift @ homography
    h = h / np.linalg.norm(h[:, :2])
    (a1, a2), (b1, b2), (c1, c2) = h[0, :2], h[1, :2], h[2, :2]
    rows = np.array([[a1 * a2 + b1 * b2, c1 * c2],
                     [a1 * a1 + b1 * b1 - a2 * a2 - b2 * b2, c1 * c1 - c2 * c2]])
    coef, rhs = rows[:, 0], -rows[:, 1]
    if float(coef @ coef) < 1e-18:
        return None
    inverse_square = float(coef @ rhs) / float(coef @ coef)
    if inverse_square <= 0:
        return None
    return 1 / math.sqrt(inverse_square)


def locate_camera(settings: CaptureSettings, width: float, length: float,
                  seen: dict[int, Floats], size: tuple[int, int],
                  exif_focal: float | None, where: str) -> CameraFix:
    """The camera fixed from the markers seen (at least 3: 12 corners)."""
    mat, photo = marker_points(settings, width, length, seen)
    homography, _ = cv2.findHomography(mat, photo, 0)
    if homography is None:
        raise PhotoError(f"{where}: the marker cards' corners do not fit a flat mat; lay all "
                         f"four cards flat on the table beside the mat's corners")
    homography = np.asarray(homography, np.float64)
    diagonal = math.hypot(*size)
    principal = ((size[0] - 1) / 2, (size[1] - 1) / 2)
    guesses = []
    own = focal_from_homography(homography, principal)
    if own is not None and PLAUSIBLE_FOCAL[0] <= own / diagonal <= PLAUSIBLE_FOCAL[1]:
        guesses.append(own)
    if exif_focal is not None:
        guesses.append(exif_focal)
    if not guesses:
        guesses.append(DEFAULT_FOCAL_35MM / SENSOR_DIAGONAL_35MM * diagonal)
    fixes = [fit_pose(mat, photo, guess, principal, size, refine=True) for guess in guesses]
    fixes = [f for f in fixes if PLAUSIBLE_FOCAL[0] <= f[0] / diagonal <= PLAUSIBLE_FOCAL[1]]
    if not fixes:  # the refinement ran off: keep the best guess as it is
        fixes = [fit_pose(mat, photo, guesses[-1], principal, size, refine=False)]
    focal, rotation, translation, error = min(fixes, key=lambda f: f[3])
    centre = -rotation.T @ translation
    if centre[2] <= 0:
        raise PhotoError(f"{where}: the marker cards are seen from below or mirrored; use the "
                         f"phone's main camera, not a mirrored selfie")
    return CameraFix(homography, focal, (float(centre[0]), float(centre[1])), float(centre[2]),
                     error, rotation, translation, principal)


def fit_pose(mat: Floats, photo: Floats, focal: float, principal: Point, size: tuple[int, int],
             refine: bool) -> tuple[float, Floats, Floats, float]:
    """Focal (refined by a single-view calibration, or kept), rotation, translation and the
    RMS reprojection error (px) of the corners."""
    k = np.array([[focal, 0, principal[0]], [0, focal, principal[1]], [0, 0, 1]], np.float64)
    objects = np.column_stack([mat, np.zeros(len(mat))]).astype(np.float32)
    images = photo.astype(np.float32)
    if refine:
        _, refined, _, rvecs, tvecs = cv2.calibrateCamera(
            [objects], [images], size, k, np.zeros(5), flags=CALIBRATION_FLAGS,
            criteria=(cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 60, 1e-9))
        k = np.asarray(refined, np.float64)
        rvec, tvec = rvecs[0], tvecs[0]
    else:
        _, rvec, tvec = cv2.solvePnP(objects, images, k, np.zeros(5),
                                     flags=cv2.SOLVEPNP_ITERATIVE)
    rotation, _ = cv2.Rodrigues(np.asarray(rvec, np.float64))
    projected, _ = cv2.projectPoints(objects, rvec, tvec, k, np.zeros(5))
    error = float(np.sqrt(np.mean(np.sum((projected.reshape(-1, 2) - photo) ** 2, axis=1))))
    return (float(k[0, 0]), np.asarray(rotation, np.float64),
            np.asarray(tvec, np.float64).reshape(3), error)
