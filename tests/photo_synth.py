"""Synthetic hand-held phone photos of the mat where the truth is known (issue 29, point 6).

A pinhole camera 55-95 cm above the table and beside the mat looks at the mat's centre; the
table (wood), the mat (its art seeded from the side's name, so a side's empty photo and its
photo with pieces show the same art), the four ArUco cards at the settings' places and the
discs (cylinders of the data's thickness: a top face, a sticker on some, a shaded side wall)
are rendered at the photo's final size, then lit unevenly, vignetted, blurred, noised and
saved as a JPEG with phone-like EXIF (orientation, focal length in 35 mm terms, sometimes
absent). Everything random comes from a numpy Generator seeded by the caller.

What it does not model (real photos may still do it): glare on a glossy mat, hands or phones
in frame, hard shadows of a lamp, a curled or creased mat, cards laid far from their places,
lens distortion left uncorrected by the phone, rolling-shutter or motion blur, discs touching
or stacked, a mat that is thicker than the cards lie high.

Conventions. World = mat centimetres, z up, the table and the cards at z 0 (the mat's own
thickness is `mat_lift`). A pixel's index is its centre (OpenCV's convention): texture texel
(u, v) covers the world point origin + (u + 0.5, v + 0.5) / scale, so every warp adds the half
texel explicitly."""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from PIL import Image

from automa.model.capture import CaptureSettings, Point
from automa.photo.model import DiscKind, PieceBefore

FloatArray = np.ndarray
SENSOR_DIAGONAL_35MM = math.hypot(36.0, 24.0)  # mm: "equivalent focal" is by the diagonal
SMALL = (1600, 1200)
TWELVE_MP = (4000, 3000)
EXIF_ORIENTATION = 0x0112
EXIF_IFD = 0x8769
EXIF_FOCAL_35MM = 0xA405
EXIF_FOCAL = 0x920A


@dataclass(frozen=True)
class SynthPiece:
    """A piece in the scene: its id, its disc and its true centre on the mat (cm)."""

    id: str
    disc: DiscKind
    at: Point


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: centre (cm), world-to-camera rotation (rows: right, down, forward)
    and intrinsics (focal and principal point, px) for an image of `size` (width, height)."""

    centre: tuple[float, float, float]
    rotation: tuple[tuple[float, ...], ...]
    focal: float
    principal: Point
    size: tuple[int, int]

    @property
    def k(self) -> FloatArray:
        return np.array([[self.focal, 0.0, self.principal[0]], [0.0, self.focal, self.principal[1]],
                         [0.0, 0.0, 1.0]])

    @property
    def r(self) -> FloatArray:
        return np.array(self.rotation, dtype=np.float64)

    def project(self, points: FloatArray) -> FloatArray:
        """Image points (px) of world points (n x 3), and NaN for points behind the camera."""
        cam = (np.asarray(points, dtype=np.float64) - np.array(self.centre)) @ self.r.T
        z = cam[:, 2:3]
        uv = cam[:, :2] / np.where(z > 1e-6, z, np.nan) * self.focal + np.array(self.principal)
        return np.asarray(uv)

    def plane(self, z: float) -> FloatArray:
        """The homography from the plane at height z (world x, y) to the image."""
        r = self.r
        t = -r @ np.array(self.centre)
        m = np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z + t])
        return np.asarray(self.k @ m)

    def rays(self, us: FloatArray, vs: FloatArray) -> FloatArray:
        """World directions (... x 3) of the rays through image points (px)."""
        x = (us - self.principal[0]) / self.focal
        y = (vs - self.principal[1]) / self.focal
        cam = np.stack([x, y, np.ones_like(x)], axis=-1)
        return np.asarray(cam @ self.r)


@dataclass(frozen=True)
class SynthPhoto:
    """One rendered photo: the JPEG, the truth and the camera that took it."""

    jpeg: bytes
    truth: dict[str, Point]  # piece id -> true centre (cm)
    foot: Point  # the camera centre's foot on the mat (cm)
    height: float  # the camera centre's height above the mat (cm)
    focal_px: float  # the true focal length (px, in the photo as EXIF orientation turns it)
    focal_guess: float | None  # what the EXIF says, in px (+-5 %), or None without EXIF focal
    size: tuple[int, int]  # (width, height) of the photo as seen (EXIF orientation applied)
    markers: tuple[int, ...]  # the cards whose whole marker is in the picture
    stray: tuple[Point, float] | None = None  # the disc no piece fits: centre, radius
    camera: Camera | None = field(default=None, repr=False)


# --- randomness that is stable per name ---------------------------------------------------

def named_rng(name: str) -> np.random.Generator:
    """A generator seeded by a name (crc32, stable across runs and machines, unlike hash())."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> FloatArray:
    """Low-frequency noise in [-1, 1]: a coarse random grid resized smoothly."""
    h, w = shape
    coarse = rng.uniform(-1, 1, (max(2, h * cells // max(h, w)), max(2, w * cells // max(h, w))))
    return np.asarray(cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)).clip(-1, 1)


# --- textures -------------------------------------------------------------------------------

def wood_texture(rng: np.random.Generator, shape: tuple[int, int], scale: float) -> FloatArray:
    """A table top: brown planks with grain along x (BGR float 0-255)."""
    h, w = shape
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    warp = smooth_noise(rng, shape, 12) * 6 * scale
    grain = np.sin((ys + warp) / (scale * rng.uniform(0.25, 0.6)) * 2 * math.pi)
    plank = np.floor((ys + 0.3 * warp) / (scale * rng.uniform(9, 16)))
    tone = rng.uniform(0.75, 1.15, int(plank.max()) + 2)[plank.astype(int)]
    base = np.array([rng.uniform(40, 80), rng.uniform(80, 120), rng.uniform(120, 170)])
    fine = smooth_noise(rng, shape, 200) * 0.06
    light = (1 + 0.12 * grain + fine) * tone
    del xs
    return np.asarray(light[..., None] * base).clip(0, 255)


def mat_art(side: str, width: float, length: float, scale: float) -> FloatArray:
    """A mat side's printed art (BGR float 0-255), the same every time for the same name:
    colour regions, flagstones, circles and polygons of disc-like sizes, text-like strokes."""
    rng = named_rng(f"mat-art:{side}")
    h, w = round(length * scale), round(width * scale)
    base = rng.uniform(50, 170, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    for _ in range(3):  # large colour regions
        weight = (smooth_noise(rng, (h, w), 6) > rng.uniform(0.0, 0.5)).astype(np.float32)
        weight = cv2.GaussianBlur(weight, (0, 0), scale * 0.8)
        img += weight[..., None] * (rng.uniform(20, 220, 3) - img) * rng.uniform(0.4, 0.9)
    stone = rng.uniform(5, 12) * scale  # flagstone joints
    for y in np.arange(rng.uniform(0, stone), h, stone):
        cv2.line(img, (0, int(y)), (w, int(y)), tuple(float(c) for c in rng.uniform(20, 90, 3)),
                 max(1, int(scale * 0.15)), cv2.LINE_AA)
        off = rng.uniform(0, stone)
        for x in np.arange(off, w, stone * rng.uniform(1.2, 2.0)):
            cv2.line(img, (int(x), int(y)), (int(x), int(y + stone)),
                     tuple(float(c) for c in rng.uniform(20, 90, 3)), max(1, int(scale * 0.15)),
                     cv2.LINE_AA)
    for _ in range(int(rng.integers(25, 50))):  # circles and shapes, some of disc sizes
        colour = tuple(float(c) for c in rng.uniform(0, 255, 3))
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        radius = int(rng.uniform(0.8, 4.0) * scale)
        if rng.random() < 0.5:
            cv2.circle(img, centre, radius, colour, -1 if rng.random() < 0.5 else
                       max(1, int(scale * rng.uniform(0.1, 0.4))), cv2.LINE_AA)
        else:
            pts = (np.array(centre) + rng.uniform(-1, 1, (int(rng.integers(3, 7)), 2)) * radius * 2)
            cv2.fillPoly(img, [pts.astype(np.int32)], colour, cv2.LINE_AA)
    for _ in range(int(rng.integers(4, 10))):  # text-like lines of strokes
        x0, y0 = rng.uniform(0, w * 0.7), rng.uniform(0, h)
        size = rng.uniform(0.4, 1.2) * scale
        colour = tuple(float(c) for c in rng.uniform(0, 255, 3))
        for i in range(int(rng.integers(5, 25))):
            x = x0 + i * size * 0.8
            pts = np.array([[x, y0], [x + rng.uniform(-0.4, 0.4) * size, y0 - size],
                            [x + rng.uniform(0, 0.6) * size, y0 - rng.uniform(0, 1) * size]])
            cv2.polylines(img, [pts.astype(np.int32)], False, colour, max(1, int(size * 0.12)),
                          cv2.LINE_AA)
    border = max(1, int(scale * rng.uniform(0.3, 1.2)))
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), tuple(float(c) for c in rng.uniform(0, 80, 3)),
                  border)
    img *= 1 + smooth_noise(rng, (h, w), 150)[..., None] * 0.05
    return np.asarray(img).clip(0, 255)


def card_texture(settings: CaptureSettings, marker: int, margin: float,
                 scale: float) -> FloatArray:
    """A printed card: the marker (its black border included, settings.marker_size a side)
    centred on white paper `margin` cm wide on every side."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, settings.dictionary))
    side = round(settings.marker_size * scale)
    bits = cv2.aruco.generateImageMarker(dictionary, marker, side, borderBits=1)
    pad = round(margin * scale)
    card = np.full((side + 2 * pad, side + 2 * pad), 245, np.float32)
    card[pad:pad + side, pad:pad + side] = np.where(bits > 127, 245, 25)
    return np.repeat(card[..., None], 3, axis=2)


# --- the camera -----------------------------------------------------------------------------

def look_at(centre: FloatArray, target: FloatArray, roll: float) -> FloatArray:
    """World-to-camera rotation (rows right, down, forward) looking from centre at target."""
    fwd = target - centre
    fwd /= np.linalg.norm(fwd)
    right = np.cross(fwd, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    base = np.array([right, down, fwd])
    c, s = math.cos(roll), math.sin(roll)
    spin = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    return np.asarray(spin @ base)


def card_outline(settings: CaptureSettings, width: float, length: float, marker: int,
                 margin: float) -> FloatArray:
    """The four corners of a card (world, z 0)."""
    (x, y) = next(c for c in settings.cards if c.id == marker).centre(width, length)
    half = settings.marker_size / 2 + margin
    return np.array([[x - half, y - half, 0], [x + half, y - half, 0], [x + half, y + half, 0],
                     [x - half, y + half, 0]], dtype=np.float64)


def in_frame(camera: Camera, points: FloatArray, margin: float) -> bool:
    uv = camera.project(points)
    w, h = camera.size
    return bool(np.all(np.isfinite(uv)) and np.all(uv[:, 0] >= margin) and
                np.all(uv[:, 0] <= w - 1 - margin) and np.all(uv[:, 1] >= margin) and
                np.all(uv[:, 1] <= h - 1 - margin))


def hand_held(rng: np.random.Generator, settings: CaptureSettings, width: float, length: float,
              size: tuple[int, int], drop: int | None = None) -> Camera:
    """A pose a player holds a phone in: 55-95 cm above the mat, its foot anywhere from over
    the mat to 40 cm outside an edge, looking at the mat's centre (give or take a few cm) with
    some roll, 24-28 mm equivalent; the cards all in frame, or all but `drop`."""
    w, h = size
    cards = {c.id: card_outline(settings, width, length, c.id, 0.0) for c in settings.cards}
    height = rng.uniform(55, 95)
    for attempt in range(6000):
        if attempt % 400 == 399:  # nothing fits this low: the player lifts the phone a little
            height = min(95.0, height + 3)
        edge = int(rng.integers(4))
        along = rng.uniform(-10, (width if edge % 2 == 0 else length) + 10)
        out = rng.uniform(-15, 40)
        foot = {0: (along, -out), 1: (width + out, along), 2: (along, length + out),
                3: (-out, along)}[edge]
        target = np.array([width / 2 + rng.normal(0, 4), length / 2 + rng.normal(0, 4), 0.0])
        if drop is not None:  # aim away from the card to drop, so it falls out of frame
            away = np.array([*target[:2]]) - np.array(cards[drop][:, :2].mean(axis=0))
            target[:2] += away / np.linalg.norm(away) * rng.uniform(15, 35)
        centre = np.array([foot[0], foot[1], height])
        if np.hypot(*(centre[:2] - target[:2])) < 1.0:
            continue
        portrait = rng.random() < 0.5
        roll = rng.normal(0, math.radians(6)) + (math.pi / 2 if portrait else 0.0)
        f35 = rng.uniform(24, 28)
        focal = f35 / SENSOR_DIAGONAL_35MM * math.hypot(w, h)
        principal = ((w - 1) / 2 + rng.normal(0, w * 0.004), (h - 1) / 2 + rng.normal(0, h * 0.004))
        camera = Camera(tuple(centre), tuple(tuple(row) for row in look_at(centre, target, roll)),
                        focal, principal, size)
        keep = [m for m in cards if m != drop]
        if not all(in_frame(camera, cards[m], 0.02 * w) for m in keep):
            continue
        if drop is not None and in_frame(camera, cards[drop], -0.01 * w):
            continue
        return camera
    raise AssertionError("no hand-held pose sees the cards")  # pragma: no cover


# --- rendering ------------------------------------------------------------------------------

def texel_to_world(origin: Point, scale: float) -> FloatArray:
    """Texture pixel (u, v) -> world (x, y): texel index = its centre (half-texel offset)."""
    step = 1 / scale
    return np.array([[step, 0, origin[0] + 0.5 * step], [0, step, origin[1] + 0.5 * step],
                     [0, 0, 1.0]])


def paste_plane(img: FloatArray, texture: FloatArray, to_image: FloatArray,
                valid: FloatArray) -> None:
    """Warp a texture lying on a plane into the image (where it lands, in front of the
    camera), in place. `to_image` maps texture pixels to image pixels. A texture wholly in
    front of the camera is drawn in its bounding box only (the cards are small)."""
    h, w = img.shape[:2]
    th, tw = texture.shape[:2]
    corners = np.array([[-0.5, -0.5, 1], [tw - 0.5, -0.5, 1], [tw - 0.5, th - 0.5, 1],
                        [-0.5, th - 0.5, 1]]) @ to_image.T
    u0, v0, u1, v1 = 0, 0, w - 1, h - 1
    if np.all(corners[:, 2] > 0):
        uv = corners[:, :2] / corners[:, 2:]
        u0, v0 = (max(0, int(np.floor(a)) - 2) for a in uv.min(axis=0))
        high = uv.max(axis=0)
        u1, v1 = min(w - 1, int(np.ceil(high[0])) + 2), min(h - 1, int(np.ceil(high[1])) + 2)
        if u1 < u0 or v1 < v0:
            return
    shift = np.array([[1.0, 0, -u0], [0, 1.0, -v0], [0, 0, 1]]) @ to_image
    size = (u1 - u0 + 1, v1 - v0 + 1)
    out = cv2.warpPerspective(texture.astype(np.float32), shift, size, flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(0.0, 0.0, 0.0))
    cover = cv2.warpPerspective(np.ones(texture.shape[:2], np.float32), shift, size,
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                borderValue=0.0)
    alpha = (cover * valid[v0:v1 + 1, u0:u1 + 1])[..., None]
    patch = img[v0:v1 + 1, u0:u1 + 1]
    patch *= 1 - alpha
    patch += alpha * out


def ground_visible(camera: Camera) -> FloatArray:
    """1 where a pixel's ray goes down to the table, 0 where it looks up or nearly level (the
    homography would fold the sky onto the table there)."""
    w, h = camera.size
    vs, us = np.mgrid[0:h:8, 0:w:8].astype(np.float64)
    dz = camera.rays(us, vs)[..., 2]
    small = (dz < -0.05).astype(np.float32)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR))


@dataclass(frozen=True)
class Disc:
    """A disc as drawn: centre, radius, thickness, colours and top art."""

    at: Point
    radius: float
    thickness: float
    colour: tuple[float, float, float]
    sticker: tuple[float, float, float] | None
    sticker_radius: float
    strokes: tuple[tuple[float, float, float, float], ...]  # segments in units of the sticker


def draw_disc(img: FloatArray, camera: Camera, disc: Disc, light: FloatArray,
              lift: float, supersample: int = 3) -> None:
    """Ray-cast one cylinder into its patch of the image, supersampled for smooth rims: the top
    face at the disc's thickness (with its sticker and a slightly darker bevel), the side wall
    shaded by the light, nothing else (what lies behind stays)."""
    cx, cy = disc.at
    r, t = disc.radius, disc.thickness
    box = np.array([[cx + a * r, cy + b * r, lift + z] for a in (-1, 1) for b in (-1, 1)
                    for z in (0, t)])
    uv = camera.project(box)
    if not np.all(np.isfinite(uv)):
        return
    w, h = camera.size
    u0, v0 = np.floor(uv.min(axis=0)).astype(int) - 2
    u1, v1 = np.ceil(uv.max(axis=0)).astype(int) + 2
    u0, v0, u1, v1 = max(u0, 0), max(v0, 0), min(u1, w - 1), min(v1, h - 1)
    if u1 <= u0 or v1 <= v0:
        return
    ss = supersample
    sub = (np.arange(ss) + 0.5) / ss - 0.5
    us = (np.arange(u0, u1 + 1)[:, None] + sub[None, :]).ravel()
    vs = (np.arange(v0, v1 + 1)[:, None] + sub[None, :]).ravel()
    uu, vv = np.meshgrid(us, vs)
    d = camera.rays(uu, vv)
    c = np.array(camera.centre)
    top_z = lift + t
    s_top = (top_z - c[2]) / d[..., 2]
    tx = c[0] + s_top * d[..., 0] - cx
    ty = c[1] + s_top * d[..., 1] - cy
    rho = np.hypot(tx, ty)
    top = (rho <= r) & (s_top > 0)
    ox, oy = c[0] - cx, c[1] - cy
    a = d[..., 0] ** 2 + d[..., 1] ** 2
    b = 2 * (d[..., 0] * ox + d[..., 1] * oy)
    q = ox * ox + oy * oy - r * r
    disc_ = b * b - 4 * a * q
    s_wall = (-b - np.sqrt(np.maximum(disc_, 0))) / (2 * np.maximum(a, 1e-12))
    wz = c[2] + s_wall * d[..., 2]
    wall = (disc_ >= 0) & (s_wall > 0) & (wz >= lift) & (wz <= top_z) & ~top
    colour = np.zeros((*uu.shape, 3), np.float32)
    base = np.array(disc.colour, np.float32)
    bevel = np.clip((rho / r - 0.93) / 0.07, 0, 1)[..., None] * 0.25
    top_col = base * (1 - bevel)
    if disc.sticker is not None:
        rs = disc.sticker_radius
        on = rho <= rs
        sx, sy = tx / rs, ty / rs
        ink = np.zeros(rho.shape, bool)
        for x0, y0, x1, y1 in disc.strokes:
            ex, ey = x1 - x0, y1 - y0
            f = np.clip(((sx - x0) * ex + (sy - y0) * ey) / (ex * ex + ey * ey + 1e-9), 0, 1)
            ink |= np.hypot(sx - x0 - f * ex, sy - y0 - f * ey) < 0.09
        ring = np.abs(rho / rs - 0.86) < 0.05
        paper = np.array(disc.sticker, np.float32)
        art = np.where((ink | ring)[..., None], np.float32(0.25) * paper, paper)
        top_col = np.where(on[..., None], art, top_col)
    colour[top] = top_col[top]
    nx = (c[0] + s_wall * d[..., 0] - cx) / r
    ny = (c[1] + s_wall * d[..., 1] - cy) / r
    shade = 0.32 + 0.3 * np.maximum(0, nx * light[0] + ny * light[1])
    colour[wall] = (base * shade[..., None])[wall]
    hit = (top | wall).astype(np.float32)
    ph, pw = v1 - v0 + 1, u1 - u0 + 1
    alpha = hit.reshape(ph, ss, pw, ss).mean(axis=(1, 3))
    summed = (colour * hit[..., None]).reshape(ph, ss, pw, ss, 3).mean(axis=(1, 3))
    patch = img[v0:v1 + 1, u0:u1 + 1]
    patch *= 1 - alpha[..., None]
    patch += summed


def disc_look(rng: np.random.Generator, kind: DiscKind, stickers: float = 0.7) -> Disc:
    """How one disc looks: painted wood or a monster's colour, a sticker on a `stickers`
    share of them."""
    r, g, b = (float(v) for v in rng.uniform(20, 235, 3))
    colour = (r, g, b)
    sticker: tuple[float, float, float] | None = None
    if rng.random() < stickers:
        r, g, b = (float(v) for v in rng.uniform(60, 250, 3))
        sticker = (r, g, b)
    strokes = []
    for _ in range(int(rng.integers(0, 4))):
        x0, y0, x1, y1 = (float(v) for v in rng.uniform(-0.6, 0.6, 4))
        strokes.append((x0, y0, x1, y1))
    return Disc((0.0, 0.0), kind.radius, kind.thickness, colour, sticker, 0.0, tuple(strokes))


def lighting(rng: np.random.Generator, size: tuple[int, int]) -> FloatArray:
    """Light over the picture (h x w x 3 gain): a gradient, a lamp's broad pool, the colour of
    the light, and the lens's vignetting (all smooth: computed coarse, then resized)."""
    w, h = size
    ys, xs = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    xs /= w
    ys /= h
    angle = rng.uniform(0, 2 * math.pi)
    slope = rng.uniform(0.1, 0.45)
    grad = 1 + slope * ((xs - 0.5) * math.cos(angle) + (ys - 0.5) * math.sin(angle))
    lx, ly = rng.uniform(-0.3, 1.3, 2)
    pool = 1 + rng.uniform(0.0, 0.35) * np.exp(-((xs - lx) ** 2 + (ys - ly) ** 2) /
                                               (2 * rng.uniform(0.2, 0.5) ** 2))
    vig = 1 - rng.uniform(0.1, 0.35) * (((xs - 0.5) ** 2 + (ys - 0.5) ** 2) / 0.5)
    tint = rng.uniform(0.88, 1.12, 3).astype(np.float32)
    gain = (grad * pool * vig * rng.uniform(0.75, 1.05)).astype(np.float32)
    return np.asarray(cv2.resize(gain[..., None] * tint, (w, h), interpolation=cv2.INTER_LINEAR))


def shadows(img: FloatArray, camera: Camera, discs: Sequence[Disc], light: FloatArray,
            strength: float, lift: float) -> None:
    """Soft contact shadows of the discs on the mat, thrown away from the light."""
    if strength <= 0:
        return
    w, h = camera.size
    mask = np.zeros((h, w), np.float32)
    for disc in discs:
        angles = np.linspace(0, 2 * math.pi, 48, endpoint=False)
        off = -light[:2] * disc.thickness * 0.5
        ring = np.column_stack([disc.at[0] + off[0] + disc.radius * 1.05 * np.cos(angles),
                                disc.at[1] + off[1] + disc.radius * 1.05 * np.sin(angles),
                                np.full(angles.shape, lift)])
        uv = camera.project(ring)
        if np.all(np.isfinite(uv)):
            cv2.fillPoly(mask, [np.round(uv * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
    size = max(1.0, w / 400)
    mask = cv2.GaussianBlur(mask, (0, 0), size)
    img *= (1 - strength * mask)[..., None]


def room(rng: np.random.Generator, size: tuple[int, int]) -> FloatArray:
    """What lies beyond the table: a dim, blurred room."""
    w, h = size
    base = rng.uniform(30, 110, 3).astype(np.float32)
    coarse = base * (1 + 0.4 * smooth_noise(rng, (h // 8, w // 8), 8)[..., None])
    return np.asarray(cv2.resize(coarse.astype(np.float32), (w, h)), np.float32)


@dataclass(frozen=True)
class Options:
    """What may vary beyond the seed's own choices."""

    size: tuple[int, int] = SMALL  # the sensor's (width, height), landscape
    drop: int | None = None  # this card out of frame
    hidden: tuple[int, ...] = ()  # these cards not laid at all
    stray: DiscKind | None = None  # a disc of a size no piece has, somewhere free on the mat
    art_side: str | None = None  # draw another mat side's art (a wrong empty photo)
    exif: bool | None = None  # write the EXIF focal length (None: the seed decides, 75 %)
    turned: bool | None = None  # store the pixels turned with an EXIF orientation (None: seed)
    shadow: float | None = None  # contact shadows' strength (None: the seed, 0 to 0.3)
    card_error: float = 0.05  # cm: how far off their places the cards lie (sd)
    mat_lift: float | None = None  # cm: the mat's surface above the table the cards lie on
    # (None: the settings' mat_thickness, as the capture reads it)
    stickers: float = 0.7  # the share of the discs with a sticker on top


def render(seed: int, side: str, width: float, length: float, settings: CaptureSettings,
           pieces: Sequence[SynthPiece], options: Options = Options()) -> SynthPhoto:
    """One photo of `side` with `pieces` on it, taken by a hand-held phone."""
    rng = np.random.default_rng(seed)
    camera = hand_held(rng, settings, width, length, options.size, options.drop)
    w, h = options.size
    img = room(rng, options.size)
    valid = ground_visible(camera)
    # the table, 70 cm beyond the mat every way
    tscale = 6.0
    origin = (-70.0, -70.0)
    shape = (round((length + 140) * tscale), round((width + 140) * tscale))
    table = wood_texture(rng, shape, tscale)
    paste_plane(img, table, camera.plane(0.0) @ texel_to_world(origin, tscale), valid)
    mscale = 14.0
    art = mat_art(options.art_side or side, width, length, mscale)
    lift = settings.mat_thickness if options.mat_lift is None else options.mat_lift
    mat_plane = camera.plane(lift) @ texel_to_world((0.0, 0.0), mscale)
    paste_plane(img, art, mat_plane, valid)
    for card in settings.cards:
        if options.drop == card.id or card.id in options.hidden:
            continue
        margin = rng.uniform(1.0, 1.6)
        cscale = 40.0
        tex = card_texture(settings, card.id, margin, cscale)
        x, y = card.centre(width, length)
        x += rng.normal(0, options.card_error)
        y += rng.normal(0, options.card_error)
        spin = rng.normal(0, math.radians(0.4))
        half = settings.marker_size / 2 + margin
        # texel (u, v) -> card frame: u right (+x), v down the printed image (-y), centre 0
        px = 1 / cscale
        local = np.array([[px, 0, -half + 0.5 * px], [0, -px, half - 0.5 * px], [0, 0, 1]])
        c, s = math.cos(spin), math.sin(spin)
        place = np.array([[c, -s, x], [s, c, y], [0, 0, 1]])
        paste_plane(img, tex, camera.plane(0.0) @ place @ local, valid)
    light = rng.normal(0, 1, 3)
    light[2] = abs(light[2]) + 1
    light /= np.linalg.norm(light[:2]) or 1.0
    discs: list[tuple[Disc, str | None]] = []
    for piece in pieces:
        look = disc_look(rng, piece.disc, options.stickers)
        discs.append((Disc(piece.at, piece.disc.radius, piece.disc.thickness, look.colour,
                           look.sticker, piece.disc.radius * rng.uniform(0.6, 0.85), look.strokes),
                      piece.id))
    stray: tuple[Point, float] | None = None
    if options.stray is not None:
        spot = free_spot(rng, width, length, [(p.at, p.disc.radius) for p in pieces],
                         options.stray.radius)
        look = disc_look(rng, options.stray, options.stickers)
        discs.append((Disc(spot, options.stray.radius, options.stray.thickness, look.colour,
                           look.sticker, options.stray.radius * 0.7, look.strokes), None))
        stray = (spot, options.stray.radius)
    strength = options.shadow if options.shadow is not None else rng.uniform(0.0, 0.3)
    shadows(img, camera, [d for d, _ in discs], light, strength, lift)
    centre = np.array(camera.centre)
    order = sorted(discs, key=lambda d: -math.hypot(d[0].at[0] - centre[0], d[0].at[1] - centre[1]))
    for disc, _ in order:
        draw_disc(img, camera, disc, light, lift)
    img *= lighting(rng, options.size)
    sigma = rng.uniform(0.35, 1.0) * w / 1600
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    noise = rng.uniform(1.0, 4.0)
    grain = rng.standard_normal(img.shape, dtype=np.float32)
    img += grain * (noise + 0.12 * np.sqrt(np.maximum(img, 0)))
    pixels = np.clip(img, 0, 255).astype(np.uint8)
    exif = options.exif if options.exif is not None else rng.random() < 0.75
    turned = options.turned if options.turned is not None else rng.random() < 0.4
    f35_true = camera.focal / math.hypot(w, h) * SENSOR_DIAGONAL_35MM
    f35_said = round(f35_true * rng.uniform(0.95, 1.05))
    guess = f35_said / SENSOR_DIAGONAL_35MM * math.hypot(w, h) if exif else None
    jpeg = encode(pixels, int(rng.integers(70, 91)), f35_said if exif else None, turned)
    markers = tuple(c.id for c in settings.cards if c.id != options.drop
                    and c.id not in options.hidden and in_frame(
        camera, card_outline(settings, width, length, c.id, 0.0), 0.0))
    return SynthPhoto(jpeg, {p.id: p.at for p in pieces}, (float(centre[0]), float(centre[1])),
                      float(centre[2]) - lift, camera.focal, guess, (w, h), markers,
                      stray, camera)


def encode(pixels: FloatArray, quality: int, f35: int | None, turned: bool) -> bytes:
    """The JPEG as a phone writes it: the sensor's pixels, and where the phone was held
    upright, the pixels stored as the sensor gave them with EXIF orientation 6 (turn 90
    degrees clockwise to view); the 35 mm focal length in the EXIF sub-directory."""
    rgb = cv2.cvtColor(pixels, cv2.COLOR_BGR2RGB)
    if turned:  # the viewer turns it clockwise: store it turned counter-clockwise
        rgb = cv2.rotate(rgb, cv2.ROTATE_90_COUNTERCLOCKWISE)
    image = Image.fromarray(rgb)
    exif = Image.Exif()
    if turned:
        exif[EXIF_ORIENTATION] = 6
    if f35 is not None:
        exif.get_ifd(EXIF_IFD)[EXIF_FOCAL_35MM] = f35
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=quality, exif=exif.tobytes())
    return out.getvalue()


def free_spot(rng: np.random.Generator, width: float, length: float,
              taken: Sequence[tuple[Point, float]], radius: float, gap: float = 0.5) -> Point:
    """A place on the mat where a disc of `radius` touches no other (and keeps `gap` cm)."""
    for _ in range(10000):
        x = rng.uniform(radius + 1, width - radius - 1)
        y = rng.uniform(radius + 1, length - radius - 1)
        if all(math.hypot(x - a[0], y - a[1]) >= radius + r + gap for a, r in taken):
            return (float(x), float(y))
    raise AssertionError("the mat is full")  # pragma: no cover


def scatter(rng: np.random.Generator, kinds: Sequence[DiscKind], width: float, length: float,
            gap: float = 0.5, prefix: str = "p") -> list[SynthPiece]:
    """Pieces of the given kinds at random places on the mat, none touching another."""
    placed: list[SynthPiece] = []
    for i, kind in enumerate(kinds):
        at = free_spot(rng, width, length, [(p.at, p.disc.radius) for p in placed], kind.radius,
                       gap)
        placed.append(SynthPiece(f"{prefix}{i}", kind, at))
    return placed


def before(rng: np.random.Generator, pieces: Sequence[SynthPiece], width: float, length: float,
           most: float = 15.0, still: float = 0.3) -> list[PieceBefore]:
    """Where each piece stood before the photo: moved 0 to `most` cm from its true place in a
    random direction (kept on the mat), or not moved at all (a `still` share)."""
    out = []
    for piece in pieces:
        if rng.random() < still:
            out.append(PieceBefore(piece.id, piece.disc, piece.at))
            continue
        dist = rng.uniform(0, most)
        angle = rng.uniform(0, 2 * math.pi)
        x = min(max(piece.at[0] + dist * math.cos(angle), 0.0), width)
        y = min(max(piece.at[1] + dist * math.sin(angle), 0.0), length)
        out.append(PieceBefore(piece.id, piece.disc, (float(x), float(y))))
    return out


def empty(seed: int, side: str, width: float, length: float, settings: CaptureSettings,
          options: Options = Options()) -> SynthPhoto:
    """The empty mat side from another pose and light than any photo with pieces (its own
    seed stream), the same art."""
    return render(seed + 1_000_003, side, width, length, settings, (), options)


# --- trials: a scene, its photos, and how well a capture read them ----------------------------

SIDES = ("mausoleum", "throne-room", "lava-tube", "root-cellar", "campfire", "altar")


def data_kinds() -> list[DiscKind]:
    """The disc sizes of the shipped data (radius and thickness from data/components.toml)."""
    from automa.catalog.load import load_catalog

    components = load_catalog().components
    return [DiscKind(size, radius, components.disc_thickness[size])
            for size, radius in sorted(components.disc_radius.items())]


@dataclass(frozen=True)
class Trial:
    """A scene photographed: the pieces (truth), where they stood before, the photo, and the
    empty mat side's photo from another pose."""

    side: str
    pieces: tuple[SynthPiece, ...]
    before: tuple[PieceBefore, ...]
    photo: SynthPhoto
    empty: SynthPhoto | None


def trial(seed: int, settings: CaptureSettings, kinds: Sequence[DiscKind],
          width: float = 60.0, length: float = 90.0, size: tuple[int, int] = SMALL,
          stray: bool = False, with_empty: bool = True, mat_lift: float | None = None) -> Trial:
    """A random battle's worth of pieces (3-16 discs of the data's sizes, 0.3-2 cm apart at
    the least), photographed, and its empty side too unless the caller keeps one per side,
    everything varied by the seed (the mat `mat_lift` cm thick, else as the settings say)."""
    rng = np.random.default_rng([seed, 29])
    side = SIDES[int(rng.integers(len(SIDES)))]
    count = int(rng.integers(3, 17))
    chosen = [kinds[int(i)] for i in rng.integers(0, len(kinds), count)]
    pieces = scatter(rng, chosen, width, length, gap=float(rng.uniform(0.3, 2.0)))
    places = before(rng, pieces, width, length)
    unused = DiscKind("stray", float(rng.choice([0.7, 2.4])), float(rng.uniform(0.5, 1.2)))
    photo = render(int(rng.integers(1 << 31)), side, width, length, settings, pieces,
                   Options(size=size, stray=unused if stray else None, mat_lift=mat_lift))
    blank = (empty(int(rng.integers(1 << 31)), side, width, length, settings,
                   Options(size=size, mat_lift=mat_lift)) if with_empty else None)
    return Trial(side, tuple(pieces), tuple(places), photo, blank)


@dataclass(frozen=True)
class Score:
    """How one capture read one trial. Discs touching another are left out of every count
    (the issue's bars are for discs standing apart); position errors (mm) are counted for
    pieces named right that moved, so a piece reported where it stood does not flatter
    them."""

    markers: tuple[int, ...]
    discs: int  # discs standing apart
    found: int  # ... of which a reported disc (named or not) lies within its radius
    named: int  # ... of those found, named right
    errors: tuple[float, ...]  # mm, the moved pieces named right


def touching(piece: SynthPiece, pieces: Sequence[SynthPiece]) -> bool:
    return any(other.id != piece.id and math.dist(piece.at, other.at) <=
               piece.disc.radius + other.disc.radius + 0.05 for other in pieces)


def score(case: Trial, markers: Sequence[int], found: Sequence[tuple[str, Point]],
          unknown: Sequence[Point]) -> Score:
    """Compare what a capture reported (named pieces' places, unknown discs' places) with the
    truth."""
    reported = [(name, at) for name, at in found] + [(None, at) for at in unknown]
    start = {p.id: p.at for p in case.before}
    apart = [p for p in case.pieces if not touching(p, case.pieces)]
    hits = named = 0
    errors = []
    for piece in apart:
        near = [(math.dist(at, piece.at), name, at) for name, at in reported]
        near = [n for n in near if n[0] <= piece.disc.radius]
        if not near:
            continue
        hits += 1
        _, name, at = min(near, key=lambda n: n[0])
        if name == piece.id:
            named += 1
            if start[piece.id] != piece.at:
                errors.append(math.dist(at, piece.at) * 10)
    return Score(tuple(markers), len(apart), hits, named, tuple(errors))


# --- discs laid out to be measured (automa calibrate --photo) ---------------------------------

MEASURED_SIZES = ("extra-small", "small", "medium", "large", "extra-large")  # calibrate's five


@dataclass(frozen=True)
class Layout:
    """One disc of each size laid apart between the cards to be measured: the discs (their
    true radii), the photo, the empty side's photo from another pose, and the settings the
    photos were taken with (the mat's thickness varies)."""

    pieces: tuple[SynthPiece, ...]
    photo: SynthPhoto
    empty: SynthPhoto
    settings: CaptureSettings


def layout(seed: int, settings: CaptureSettings, width: float = 60.0, length: float = 90.0,
           size: tuple[int, int] = SMALL, perturb: float = 0.0) -> Layout:
    """The discs of `automa calibrate --photo`'s five sizes (the data's radii, each scaled by
    up to `perturb` either way, so a measure cannot pass by snapping to the data's sizes) laid
    3-8 cm apart and 4 cm or more from the mat's edges, photographed by a hand-held phone over
    a mat 0-3 mm thick, their tops bare, all with stickers or some, in any light."""
    from dataclasses import replace

    rng = np.random.default_rng([seed, 2905])
    by_size = {k.size: k for k in data_kinds()}
    kinds = [DiscKind(s, by_size[s].radius * (1 + float(rng.uniform(-perturb, perturb))),
                      by_size[s].thickness) for s in MEASURED_SIZES]
    placed: list[SynthPiece] = []
    gap = float(rng.uniform(3.0, 8.0))
    for kind in kinds:
        at = free_spot(rng, width - 6, length - 6, [((x - 3, y - 3), r) for (x, y), r in
                                                    ((p.at, p.disc.radius) for p in placed)],
                       kind.radius, gap)
        placed.append(SynthPiece(kind.size, kind, (at[0] + 3, at[1] + 3)))
    thick = replace(settings, mat_thickness=float(rng.choice([0.0, 0.1, 0.2, 0.3])))
    side = SIDES[int(rng.integers(len(SIDES)))]
    stickers = float(rng.choice([0.0, 0.7, 1.0]))
    options = Options(size=size, stickers=stickers)
    photo = render(int(rng.integers(1 << 31)), side, width, length, thick, placed, options)
    blank = empty(int(rng.integers(1 << 31)), side, width, length, thick, Options(size=size))
    return Layout(tuple(placed), photo, blank, thick)
