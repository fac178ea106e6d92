"""The discs in a top view: what differs from the empty mat, and the cylinders that explain it.

Foreground. The photo and the empty-mat photo are lit differently, so the empty mat is first
scaled by the local gain between them (their ratio, median-filtered over a span several discs
wide, so the discs themselves do not move it), and only then subtracted: mat art, JPEG and
noise mostly cancel, the discs stay.

Discs. A disc is a cylinder of radius r and thickness t. Rectified onto the mat's plane from a
camera whose centre stands H above the foot N, its bottom rim stays the circle (c, r) and its
top rim becomes the circle (c', r k) with k = H / (H - t) and c' = N + (c - N) k: the top face
is magnified and pushed away from the camera, and the silhouette is the hull of the two
circles. Fitting that hull to the foreground's outline gives the true centre c directly
(without the correction centres shift 5-17 mm beside a hand-held camera), and fitting it for
every disc size at once tells the sizes apart: the darker side wall makes a second, lower rim
and a sticker on the top face an inner one, and neither is the silhouette's outline."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from automa.model.capture import Point
from automa.photo.image import Floats, Pixels
from automa.photo.topview import TopFrame

Mask = npt.NDArray[np.bool_]
PRE_BLUR = 1.0  # top-view px: both views smoothed alike, as they come from different poses
GAIN_STEP = 8  # the gain is estimated on a grid this many top-view px apart
GAIN_SPAN = 12.0  # cm: the median filter's width (several discs: the discs do not move it)
THRESHOLD = 4.0  # foreground: a difference this many times the mat's typical one
FLOOR = 18.0  # ... and at least this (0-255 colour distance) in any light
SMALLEST = 0.45  # cm: a radius below this is no disc (a crumb, a fleck of glare)
LARGEST = 3.2  # cm: a radius above this is no disc
ENVELOPE = 0.1  # cm: how far out of register two views of the mat may be
EDGE_SEARCH = 6.0  # top-view px along each outline normal to look for the sharpest edge
MAX_ITERATIONS = 10
SOFT = 0.03  # cm: residuals beyond this count less and less (soft L1)
PEAK_APART = 1.0  # cm: two discs' middles in one region lie at least this far apart
LONGEST = 2.5  # a region longer than this many times its width is no disc's silhouette
CONVEX = 0.85  # a region filling this share of its convex hull is one disc (else several)
# a contact shadow darkens the mat by at most half (the room's light still reaches under it)
DARKEST_SHADE = 0.5
BAND = (0.15, 0.35)  # cm: the bands either side of a disc's outline where its evidence is read


@dataclass(frozen=True)
class Parallax:
    """The camera's centre over the mat: its foot N (cm) and height H (cm)."""

    foot: Point
    height: float


@dataclass(frozen=True)
class Outline:
    """One foreground region's outline, refined to the sharpest edge: points in mat cm (n x 2)
    with each point's edge strength as a weight; `area` in cm^2."""

    points: Floats
    weights: Floats
    area: float
    centroid: Point
    region: Pixels | None = None  # the region's pixels (1) in its box ...
    corner: tuple[int, int] = (0, 0)  # ... whose top-left is this top-view pixel
    raw: Floats | None = None  # the region's own outline (not its hull), sharpened (cm) ...
    raw_weights: Floats | None = None  # ... and its edge strengths


@dataclass(frozen=True)
class Fit:
    """A cylinder fitted to an outline: the true centre (bottom rim, cm), the radius and
    thickness it was fitted with, and how well (`error`: robust RMS distance of the outline
    from the model's silhouette, cm)."""

    at: Point
    radius: float
    thickness: float
    error: float


def coverage(homography: Floats, frame: TopFrame, size: tuple[int, int]) -> Mask:
    """The top-view pixels the photo covers (outside it, the rectified view is black)."""
    w, h = size
    corners = np.array([[-0.5, -0.5, 1], [w - 0.5, -0.5, 1], [w - 0.5, h - 0.5, 1],
                        [-0.5, h - 0.5, 1]]) @ np.linalg.inv(homography @ frame.matrix()).T
    mask = np.zeros((frame.size[1], frame.size[0]), np.uint8)
    if np.all(corners[:, 2] > 0):
        quad = corners[:, :2] / corners[:, 2:]
        cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    else:  # the horizon is in the photo: the mat's side of it is what was seen
        mask[:] = 1
    out: Mask = cv2.erode(mask, np.ones((5, 5), np.uint8)).astype(bool)
    return out


def mat_area(frame: TopFrame, width: float, length: float, inset: float = 0.0) -> Mask:
    """The top-view pixels on the mat (shrunk by `inset` cm)."""
    u0, v0 = frame.to_pixel((inset, inset))
    u1, v1 = frame.to_pixel((width - inset, length - inset))
    mask = np.zeros((frame.size[1], frame.size[0]), bool)
    mask[max(0, math.ceil(v0)):math.floor(v1) + 1, max(0, math.ceil(u0)):math.floor(u1) + 1] = True
    return mask


def smoothed(view: Pixels) -> Floats:
    """A top view as the comparison reads it (float32, smoothed by PRE_BLUR)."""
    out: Floats = cv2.GaussianBlur(view.astype(np.float32), (0, 0), PRE_BLUR)
    return out


def light_matched(photo: Floats, empty: Pixels, valid: Mask, frame: TopFrame) -> Floats:
    """The empty view smoothed as the photo's (`smoothed`) and under the photo's light: each
    colour scaled by the ratio of the two views' light, smoothed over GAIN_SPAN (a median, so
    the pieces do not move it)."""
    base = smoothed(empty)
    h, w = photo.shape[:2]
    small = (max(1, w // GAIN_STEP), max(1, h // GAIN_STEP))
    ratio = np.log((cv2.resize(photo, small, interpolation=cv2.INTER_AREA) + 4) /
                   (cv2.resize(base, small, interpolation=cv2.INTER_AREA) + 4))
    seen = cv2.resize(valid.astype(np.uint8), small, interpolation=cv2.INTER_NEAREST).astype(bool)
    ratio[~seen] = 0
    coded = np.clip(128 + 40 * ratio, 0, 255).astype(np.uint8)
    span = int(GAIN_SPAN * frame.scale / GAIN_STEP) | 1
    coded = cv2.medianBlur(coded, span)
    gain = np.exp((cv2.resize(coded, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
                   - 128) / 40)
    out: Floats = base * gain
    return out


def colour_sum(values: Floats) -> Floats:
    """The sum of each pixel's three channels (float32, h x w)."""
    out: Floats = cv2.transform(values, np.ones((1, 3), np.float32))
    return out


def plain_difference(photo: Floats, base: Floats, valid: Mask) -> Floats:
    diff = cv2.subtract(photo, base)
    plain: Floats = cv2.sqrt(colour_sum(cv2.multiply(diff, diff)))
    plain[~valid] = 0
    return plain


def shaded_difference(photo: Floats, base: Floats, valid: Mask) -> Floats:
    """The distance from the mat in shade: the mat's own colour darkened by up to
    DARKEST_SHADE (what a contact shadow does to it, and a disc's own colour seldom is)."""
    shade = np.clip(colour_sum(cv2.multiply(photo, base)) /
                    np.maximum(colour_sum(cv2.multiply(base, base)), 1.0), DARKEST_SHADE, 1.0)
    off_shade = photo - base * shade[..., None]
    shaded: Floats = cv2.sqrt(colour_sum(cv2.multiply(off_shade, off_shade)))
    shaded[~valid] = 0
    return shaded


def robust_difference(photo: Floats, base: Floats, valid: Mask, frame: TopFrame) -> Floats:
    """The robust difference, at half size (it only says where to look; the edges are found
    on the plain one): four times cheaper."""
    h, w = photo.shape[:2]
    half = (w // 2, h // 2)
    photo_half = cv2.resize(photo, half, interpolation=cv2.INTER_AREA)
    base_half = cv2.resize(base, half, interpolation=cv2.INTER_AREA)
    reach = max(3, 2 * round(ENVELOPE * frame.scale / 2) + 1)
    kernel = np.ones((reach, reach), np.uint8)
    robust_half = np.minimum(outside(photo_half, base_half, kernel),
                             outside(base_half, photo_half, kernel))
    robust: Floats = cv2.resize(robust_half, (w, h), interpolation=cv2.INTER_LINEAR)
    robust[~valid] = 0
    return robust


def outside(values: Floats, around: Floats, kernel: npt.NDArray[np.uint8]) -> Floats:
    """How far each colour lies outside the range `around` takes nearby (colour distance)."""
    above = cv2.subtract(values, cv2.dilate(around, kernel))
    below = cv2.subtract(cv2.erode(around, kernel), values)
    beyond = np.maximum(above, 0.0) + np.maximum(below, 0.0)
    squares = cv2.transform(cv2.multiply(beyond, beyond), np.ones((1, 3), np.float32))
    out: Floats = cv2.sqrt(squares)
    return out


def foreground(robust: Floats, region: Mask, frame: TopFrame) -> tuple[Mask, float]:
    """What stands on the mat: pixels differing well beyond the mat's typical difference,
    cleaned of thin slivers and with holes filled (a disc's top that happens to match the
    mat), then grown back by the robust difference's own reach. Also the threshold used."""
    typical = float(np.median(robust[region])) if region.any() else 0.0
    threshold = max(THRESHOLD * typical, FLOOR)
    mask: Pixels = ((robust > threshold) & region).astype(np.uint8)
    radius = max(1, round(0.12 * frame.scale))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    reach = max(1, round(ENVELOPE * frame.scale))
    mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                      (2 * reach + 1, 2 * reach + 1)))
    return fill_holes(mask).astype(bool), threshold


def fill_holes(mask: Pixels) -> Pixels:
    """The mask with every region enclosed by it filled."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 1, cv2.FILLED)
    return out


def edge_map(plain: Floats) -> Floats:
    """The plain difference lightly smoothed, for finding where it falls steepest."""
    out: Floats = cv2.GaussianBlur(plain.astype(np.float32), (0, 0), 0.8)
    return out


def outlines(mask: Mask, edges: Floats, frame: TopFrame) -> list[Outline]:
    """Each foreground region large enough to be a disc, its outline moved onto the
    sharpest fall of the difference nearby (the threshold's own place depends on the
    contrast; the steepest slope of a blurred edge does not). A region nearly convex is
    replaced by its convex hull first (a disc's silhouette is convex; a mat line as dark as
    the disc cuts a notch in it); a region far from convex is discs close together."""
    smallest = math.pi * (SMALLEST * frame.scale) ** 2
    largest = math.pi * (LARGEST * frame.scale) ** 2 * 2.5
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(
        mask.astype(np.uint8), connectivity=8)
    found = []
    for label in range(1, count):
        area = stats[label, cv2.CC_STAT_AREA]
        if not smallest <= area <= largest:
            continue
        x, y, w, h = (int(stats[label, i]) for i in range(4))
        pad = int(EDGE_SEARCH) + 3
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(mask.shape[1], x + w + pad), min(mask.shape[0], y + h + pad)
        local = (labels[y0:y1, x0:x1] == label).astype(np.uint8)
        contours, _ = cv2.findContours(local, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        contour = max(contours, key=len)
        hull = cv2.convexHull(contour)
        (_, _), (side_a, side_b), _ = cv2.minAreaRect(contour)
        if max(side_a, side_b) > LONGEST * max(min(side_a, side_b), 1.0):
            continue  # a stroke of art or a crease, not a disc
        raw = contour.reshape(-1, 2).astype(np.float64) + np.array([x0, y0], np.float64)
        if len(raw) < 12:
            continue
        raw_sharp, raw_weights = sharpen(raw, outward(raw), edges, EDGE_SEARCH)
        sharp, weights = raw_sharp, raw_weights
        if area >= CONVEX * cv2.contourArea(hull):
            cv2.fillConvexPoly(local, hull, 1)
            contours, _ = cv2.findContours(local, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            points = (max(contours, key=len).reshape(-1, 2).astype(np.float64)
                      + np.array([x0, y0], np.float64))
            sharp, weights = sharpen(points, outward(points), edges, EDGE_SEARCH)
        cx, cy = frame.to_mat(np.array(centroids[label][0]), np.array(centroids[label][1]))
        found.append(Outline(to_mat(frame, sharp), weights, area / frame.scale ** 2,
                             (float(cx), float(cy)), local, (x0, y0), to_mat(frame, raw_sharp),
                             raw_weights))
    return found


def to_mat(frame: TopFrame, pixels: Floats) -> Floats:
    """Top-view pixels (n x 2) as mat cm."""
    xs, ys = frame.to_mat(pixels[:, 0], pixels[:, 1])
    return np.column_stack([xs, ys])


def split(outline: Outline, frame: TopFrame) -> list[Outline]:
    """A region that is several discs close together, cut in one part per disc: the peaks
    of its distance to the background are the discs' middles, and each part takes the
    region's own outline points nearest its peak (the cut itself is no edge, so no part
    gets points there). Empty when the region has one middle."""
    if outline.region is None or outline.raw is None or outline.raw_weights is None:
        return []
    depth = cv2.distanceTransform(outline.region, cv2.DIST_L2, 5)
    size = 2 * int(PEAK_APART * frame.scale / 2) + 1
    crest = cv2.dilate(depth, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    peaks = ((depth >= crest - 1e-3) & (depth >= SMALLEST * 0.8 * frame.scale)).astype(np.uint8)
    count, _, _, middles = cv2.connectedComponentsWithStats(peaks, connectivity=8)
    ranked = sorted((float(depth[round(m[1]), round(m[0])]), (float(m[0]), float(m[1])))
                    for m in middles[1:count])
    kept: list[tuple[float, float]] = []
    for _, middle in reversed(ranked):
        if all(math.dist(middle, other) >= PEAK_APART * frame.scale for other in kept):
            kept.append(middle)
    if len(kept) < 2:
        return []
    centres = to_mat(frame, np.array(kept) + np.array(outline.corner, np.float64))
    nearest = np.argmin(np.linalg.norm(outline.raw[:, None, :] - centres[None, :, :], axis=2),
                        axis=1)
    h, w = outline.region.shape
    vs, us = np.mgrid[0:h, 0:w]
    xs, ys = frame.to_mat(us + outline.corner[0], vs + outline.corner[1])
    cell = np.argmin(np.stack([np.hypot(xs - cx, ys - cy) for cx, cy in centres]), axis=0)
    parts = []
    for i, centre in enumerate(centres):
        chosen = nearest == i
        if chosen.sum() < 12:
            continue
        region = (outline.region & (cell == i)).astype(np.uint8)
        parts.append(Outline(outline.raw[chosen], outline.raw_weights[chosen],
                             float(region.sum()) / frame.scale ** 2,
                             (float(centre[0]), float(centre[1])), region, outline.corner))
    return parts


def overlap(outline: Outline, fit: Fit, camera: Parallax,
            frame: TopFrame) -> tuple[float, float]:
    """How much of a fitted disc's silhouette the region it was fitted to covers, and how
    much of the region the silhouette explains: both near 1 for a disc (a shadow beside it
    lowers the second a little), low for art residue that happens to fit an arc."""
    if outline.region is None:
        return (0.0, 0.0)
    points, _ = silhouette(fit, camera, 1.0 / frame.scale)
    u, v = frame.to_pixel((points[:, 0], points[:, 1]))  # type: ignore[arg-type]
    pixels = np.column_stack([np.asarray(u) - outline.corner[0],
                              np.asarray(v) - outline.corner[1]])
    model = np.zeros_like(outline.region)
    hull = cv2.convexHull(np.round(pixels * 16).astype(np.int32))
    cv2.fillConvexPoly(model, hull, 1, cv2.LINE_8, 4)
    both = int(np.count_nonzero(model & outline.region))
    whole = max(float(np.count_nonzero(model)), math.pi * (fit.radius * frame.scale) ** 2)
    region = int(np.count_nonzero(outline.region))
    return (both / whole, both / region if region else 0.0)


def outward(contour: Floats) -> Floats:
    """Unit normals of a closed outline, pointing out of it (by the outline's turning
    direction, so they point out on its hollows too)."""
    k = 3
    tangent = np.roll(contour, -k, axis=0) - np.roll(contour, k, axis=0)
    tangent /= np.maximum(np.linalg.norm(tangent, axis=1, keepdims=True), 1e-9)
    x, y = contour[:, 0], contour[:, 1]
    turning = float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    sign = 1.0 if turning > 0 else -1.0
    return np.column_stack([tangent[:, 1], -tangent[:, 0]]) * sign


def sharpen(points: Floats, normal: Floats, edges: Floats,
            reach: float) -> tuple[Floats, Floats]:
    """Each point (top-view px) moved along its outward normal, at most `reach` px, to where
    the difference falls most steeply (to a tenth of a pixel), with that steepness as its
    weight."""
    n = len(points)
    steps = np.arange(-reach, reach + 0.01, 0.5)
    xs = (points[:, 0:1] + normal[:, 0:1] * steps[None, :]).astype(np.float32)
    ys = (points[:, 1:2] + normal[:, 1:2] * steps[None, :]).astype(np.float32)
    profile = cv2.remap(edges, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    slope = profile[:, 2:] - profile[:, :-2]  # falling outward: negative
    best = np.argmin(slope, axis=1)
    inner = np.clip(best, 1, slope.shape[1] - 2)
    rows = np.arange(n)
    a, b, c = slope[rows, inner - 1], slope[rows, inner], slope[rows, inner + 1]
    denom = a - 2 * b + c
    shift = np.where(np.abs(denom) > 1e-6, 0.5 * (a - c) / np.where(denom == 0, 1, denom), 0.0)
    shift = np.clip(shift, -0.5, 0.5)
    offset = steps[1:-1][best] + 0.5 * shift
    moved = points + normal * offset[:, None]
    weights = np.maximum(-slope[rows, best], 0.0)
    return moved, weights.astype(np.float64)


def silhouette(fit: Fit, camera: Parallax, step: float) -> tuple[Floats, Floats]:
    """Points about `step` cm apart along the outline of a fitted disc's silhouette, and
    their outward normals (mat cm)."""
    top, big = top_rim(fit.at, fit.radius, fit.thickness, camera)
    bottom, small = fit.at, fit.radius
    pieces = []
    for centre, radius in ((bottom, small), (top, big)):
        angles = np.linspace(0, 2 * math.pi, max(24, int(2 * math.pi * radius / step)),
                             endpoint=False)
        normal = np.column_stack([np.cos(angles), np.sin(angles)])
        points = np.asarray(centre) + radius * normal
        pieces.append((points, normal))
    ex, ey = top[0] - bottom[0], top[1] - bottom[1]
    h = math.hypot(ex, ey)
    if h > abs(big - small) + 1e-6:
        ex, ey = ex / h, ey / h
        ms = (small - big) / h
        mq = math.sqrt(max(0.0, 1 - ms * ms))
        for side in (1, -1):
            m = np.array([ms * ex - side * mq * ey, ms * ey + side * mq * ex])
            a = np.asarray(bottom) + small * m
            b = np.asarray(top) + big * m
            count = max(2, int(math.dist(a, b) / step))
            f = np.linspace(0, 1, count)[:, None]
            pieces.append((a + (b - a) * f, np.repeat(m[None, :], count, axis=0)))
    points = np.concatenate([p for p, _ in pieces])
    normals = np.concatenate([n for _, n in pieces])
    on_outline = np.abs(hull_distance(points, bottom, small, top, big)) < step * 0.05
    return points[on_outline], normals[on_outline]


def resample(fit: Fit, camera: Parallax, edges: Floats, frame: TopFrame,
             reach: float = 5.0) -> Outline:
    """A new outline found along a fitted model's silhouette: each point of the model's
    outline moved to the steepest fall of the difference within `reach` top-view px, its
    weight that steepness (weak where the disc is no darker or lighter than the mat)."""
    points, normals = silhouette(fit, camera, 1.0 / frame.scale)
    u, v = frame.to_pixel((points[:, 0], points[:, 1]))  # type: ignore[arg-type]
    pixels = np.column_stack([u, v])
    moved, weights = sharpen(pixels, normals, edges, reach)
    return Outline(to_mat(frame, moved), weights, math.pi * fit.radius ** 2, fit.at)


def sides(fit: Fit, camera: Parallax, mat: Mask, disc: Mask,
          frame: TopFrame) -> tuple[float, float]:
    """What lies either side of a fitted disc's outline: the share of the outline with the
    mat (or the mat in a shadow) in a band just outside it, and the share with a disc (what
    differs from the mat, and not as a shadow does) in a band just inside it. A disc's
    silhouette has both all round; a circle inside the disc (a sticker's, the top art's) has
    the disc's top outside it, and an arc of art residue has the mat inside it."""
    points, normals = silhouette(fit, camera, 1.0 / frame.scale)
    h, w = mat.shape
    offsets = np.linspace(BAND[0], BAND[1], 5)

    def share(side: float, which: Mask) -> float:
        seen = []
        for d in offsets:
            at = (points + side * d * normals - (frame.x0, frame.y0)) * frame.scale  # px
            cols = np.clip(np.round(at[:, 0]).astype(int), 0, w - 1)
            rows = np.clip(np.round(at[:, 1]).astype(int), 0, h - 1)
            seen.append(which[rows, cols])
        return float(np.mean(np.mean(seen, axis=0) > 0.5))

    return share(1.0, mat), share(-1.0, disc)


def support(outline: Outline, fit: Fit, camera: Parallax, floor: float, near: float) -> float:
    """The share of a fitted disc's outline where a real edge lies on it: a falling
    difference at least `floor` steep within `near` cm of the model. A disc has edges all
    round (but where it matches the mat); art residue has them here and there."""
    res = residuals(outline, fit.at, fit.radius, fit.thickness, camera)
    return float(np.mean((np.abs(res) <= near) & (outline.weights >= floor)))


def pixel_size(homography: Floats, at: Point) -> float:
    """How many cm of mat one photo pixel spans at a mat point (the geometric mean of the
    two directions): the finest detail the photo holds there, by which every tolerance of
    a fit is measured (a far corner of a small photo is three times coarser than a near
    one)."""
    def image(x: float, y: float) -> Floats:
        p = homography @ np.array([x, y, 1.0])
        return np.asarray(p[:2] / p[2])

    step = 0.5
    centre = image(*at)
    dx = (image(at[0] + step, at[1]) - centre) / step
    dy = (image(at[0], at[1] + step) - centre) / step
    area = abs(float(dx[0] * dy[1] - dx[1] * dy[0]))
    return 1 / math.sqrt(max(area, 1e-9))


def hull_distance(points: Floats, bottom: Point, r1: float, top: Point, r2: float) -> Floats:
    """Signed distance (cm, positive outside) from points to the hull of two circles: the
    bottom rim (bottom, r1) and the top rim (top, r2), r2 >= r1. Along the common outer
    tangents the distance is to the tangent line; beyond either tangent point, to that
    circle."""
    px = points[:, 0] - bottom[0]
    py = points[:, 1] - bottom[1]
    ex, ey = top[0] - bottom[0], top[1] - bottom[1]
    h = math.hypot(ex, ey)
    if h <= abs(r2 - r1) + 1e-9:  # one rim holds the other: the larger one is the outline
        big, radius = (top, r2) if r2 >= r1 else (bottom, r1)
        out: Floats = np.hypot(points[:, 0] - big[0], points[:, 1] - big[1]) - radius
        return out
    ex, ey = ex / h, ey / h
    s = px * ex + py * ey
    q = np.abs(-px * ey + py * ex)
    ms = (r1 - r2) / h
    mq = math.sqrt(max(0.0, 1 - ms * ms))
    along = s * mq - q * ms
    out = np.where(along < 0, np.hypot(s, q) - r1,
                   np.where(along > h * mq, np.hypot(s - h, q) - r2, s * ms + q * mq - r1))
    return out


def hull_terms(points: Floats, at: Point, radius: float, thickness: float,
               camera: Parallax) -> tuple[Floats, Floats, Floats]:
    """The signed distance of each point to a disc's silhouette, with its gradient in the
    disc's centre (n x 2) and radius (n). The silhouette is the union of the circles between
    the bottom rim and the top rim (centre and radius both grow by 1 + s (k - 1) from the
    bottom's for s from 0 to 1), so by the envelope theorem the gradient is that of the
    nearest such circle: -g u in the centre and -g in the radius, u the unit direction from
    that circle's centre and g its growth."""
    k = camera.height / max(camera.height - thickness, 1e-6)
    top, big = top_rim(at, radius, thickness, camera)
    px = points[:, 0] - at[0]
    py = points[:, 1] - at[1]
    ex, ey = top[0] - at[0], top[1] - at[1]
    h = math.hypot(ex, ey)
    tx, ty = points[:, 0] - top[0], points[:, 1] - top[1]
    to_top = np.maximum(np.hypot(tx, ty), 1e-12)
    if h <= abs(big - radius) + 1e-9:  # the top rim holds the bottom one
        growth = np.full(len(points), k)
        return to_top - big, np.column_stack([tx, ty]) / to_top[:, None] * -k, -growth
    ex, ey = ex / h, ey / h
    s = px * ex + py * ey
    perp = -px * ey + py * ex
    q = np.abs(perp)
    ms = (radius - big) / h
    mq = math.sqrt(max(0.0, 1 - ms * ms))
    along = s * mq - q * ms
    to_bottom = np.maximum(np.hypot(px, py), 1e-12)
    side = np.where(perp >= 0, 1.0, -1.0)
    line_x = ms * ex - mq * side * ey
    line_y = ms * ey + mq * side * ex
    low, high = along < 0, along > h * mq
    distance = np.where(low, to_bottom - radius,
                        np.where(high, to_top - big, s * ms + q * mq - radius))
    ux = np.where(low, px / to_bottom, np.where(high, tx / to_top, line_x))
    uy = np.where(low, py / to_bottom, np.where(high, ty / to_top, line_y))
    growth = np.where(low, 1.0, np.where(high, k, 1 + np.clip(along / (h * mq), 0, 1) * (k - 1)))
    return distance, np.column_stack([ux, uy]) * -growth[:, None], -growth


def top_rim(at: Point, radius: float, thickness: float, camera: Parallax) -> tuple[Point, float]:
    """Where the top rim of a disc standing at `at` appears on the mat's plane."""
    k = camera.height / max(camera.height - thickness, 1e-6)
    nx, ny = camera.foot
    return (nx + (at[0] - nx) * k, ny + (at[1] - ny) * k), radius * k


def residuals(outline: Outline, at: Point, radius: float, thickness: float,
              camera: Parallax) -> Floats:
    top, big = top_rim(at, radius, thickness, camera)
    return hull_distance(outline.points, at, radius, top, big)


def start(outline: Outline, thickness: float, camera: Parallax) -> Point:
    """A first guess of the true centre: the silhouette's centroid lies about halfway between
    the bottom rim's centre and the top rim's."""
    k = camera.height / max(camera.height - thickness, 1e-6)
    half = (k - 1) / 2
    nx, ny = camera.foot
    mx, my = outline.centroid
    return ((mx + nx * half) / (1 + half), (my + ny * half) / (1 + half))


def robust_error(res: Floats) -> float:
    """RMS of the residuals with the worst quarter left out (stray edge points: a shadow, a
    side wall as dark as the mat)."""
    squares = np.sort(res * res)
    keep = squares[: max(1, int(len(squares) * 0.75))]
    return float(math.sqrt(float(keep.mean())))


def fit_disc(outline: Outline, radius: float, thickness: float, camera: Parallax,
             free_radius: bool = False) -> Fit:
    """The cylinder of this radius and thickness (or of the radius that fits best) whose
    silhouette best matches the outline: robust least squares (Gauss-Newton, each point's
    weight its edge strength times a soft-L1 factor, so stray points count little)."""
    strength = np.clip(outline.weights / max(float(np.median(outline.weights)), 1e-9), 0.05, 4.0)
    params = np.array([*start(outline, thickness, camera), radius])
    count = 3 if free_radius else 2
    for _ in range(MAX_ITERATIONS):
        r0, by_centre, by_radius = hull_terms(outline.points, (float(params[0]), float(params[1])),
                                              float(params[2]), thickness, camera)
        weight = strength / np.sqrt(1 + (r0 / SOFT) ** 2)
        jac = np.column_stack([by_centre, by_radius])[:, :count]
        jw = jac * weight[:, None]
        normal = jw.T @ jac + np.eye(count) * 1e-9
        try:
            change = -np.linalg.solve(normal, jw.T @ r0)
        except np.linalg.LinAlgError:
            break
        change = np.clip(change, -0.5, 0.5)
        params[:count] += change
        if free_radius:
            params[2] = min(max(params[2], 0.2), 4.0)
        if float(np.abs(change).max()) < 2e-4:
            break
    at = (float(params[0]), float(params[1]))
    r = float(params[2])
    return Fit(at, r, thickness, robust_error(residuals(outline, at, r, thickness, camera)))


def free_fit(outline: Outline, thickness: float, camera: Parallax) -> Fit:
    """The outline fitted with its radius free (a disc of no known size, or a measurement)."""
    guess = math.sqrt(max(outline.area, 0.1) / math.pi) * 0.9
    return fit_disc(outline, guess, thickness, camera, free_radius=True)
