"""The photo capture's public surface: an empty mat side kept as a top view, a photo of the mat
read into the pieces' positions, and discs measured for `automa calibrate --photo`.

Each step is in its own module (image, markers, camera, topview, discs, naming); this one
strings them together and turns what cannot be read into one PhotoError line."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from automa.model.capture import CaptureSettings, Point
from automa.photo.camera import CameraFix, locate_camera
from automa.photo.discs import (
    Fit,
    Mask,
    Outline,
    Parallax,
    coverage,
    edge_map,
    fit_disc,
    foreground,
    free_fit,
    light_matched,
    mat_area,
    outlines,
    overlap,
    pixel_size,
    plain_difference,
    resample,
    robust_difference,
    shaded_difference,
    sides,
    smoothed,
    split,
    support,
)
from automa.photo.image import Floats, Pixels, read_photo
from automa.photo.markers import find_markers, grey
from automa.photo.model import Capture, PhotoError, PieceBefore
from automa.photo.naming import DISC_LIKE, EDGED, Candidate, Kind, name_discs
from automa.photo.register import lined_up
from automa.photo.topview import TopFrame, rectify, top_frame

Progress = Callable[[str, float], None]
EDGE_INSET = 0.2  # cm: regions are looked for on the mat only (the table beside it is no
# evidence, its grain differs between two photos); a disc near the edge is found by its edges
SAME_SIDE = 0.15  # the empty photo's art correlates less than this with the photo's: another side
# (another side scored at most 0.1 on 16 generated pairs; the same side at least 0.26, even
# with a 3 mm mat taken as no thickness)
RADIUS_RANGE = (0.5, 3.0)  # cm: what `measure_discs` reports
FIRST_FIT = 0.25  # cm: a region whose edges fit no disc better than this holds none
EDGE_FLOOR = 0.15  # a real edge falls at least this share of the foreground threshold per px
MEASURE_EDGED = 0.7  # a disc measured has edges along this share of its outline at least
ONE_DISC = 0.8  # a disc explaining this share of its region is alone in it
MEASURE_STEP = 0.25  # cm: measuring a disc of no known size, a rim is tried every this far
OUTER_SLACK = 0.1  # a larger rim's edge share may be this much less than the first's
MOSTLY = 0.5  # a disc measured has the mat outside it and itself inside along most of its outline
OUTER_STEP = 0.15  # cm: a larger size is tried when it is this much larger than the rim found
ON_EDGE = 2.5  # grains: an edge this near a model's outline is on it
KEEP_OUT = 1.0  # cm around what stands on the mat left out when lining up the empty view
MARKERS_HELP = "lay all four cards of `automa markers` beside the mat's corners, all in the photo"


@dataclass(frozen=True)
class Located:
    """A photo read as far as its top view."""

    markers: tuple[int, ...]
    camera: CameraFix
    frame: TopFrame
    top: Pixels
    covered: np.ndarray
    homography: Floats  # the mat's surface (cm) to photo px
    parallax: Parallax  # the camera over the mat's surface


def locate(photo: bytes, where: str, settings: CaptureSettings, width: float, length: float,
           progress: Progress | None = None) -> Located:
    """Decode, find the markers (3 of the 4 at least), fix the camera, rectify the mat's
    surface (the settings' `mat_thickness` cm above the table the cards lie on)."""
    report = progress or (lambda _stage, _done: None)
    report("reading the photo", 0.0)
    image = read_photo(photo, where)
    report("finding the marker cards", 0.15)
    wanted = tuple(card.id for card in settings.cards)
    seen = find_markers(grey(image.pixels), settings.dictionary, wanted)
    if not seen:
        raise PhotoError(f"{where}: no marker cards in the photo; {MARKERS_HELP}")
    if len(seen) < 3:
        raise PhotoError(f"{where}: markers seen: {', '.join(str(m) for m in seen)}; "
                         f"{MARKERS_HELP}")
    report("placing the camera", 0.3)
    camera = locate_camera(settings, width, length, seen, image.size, image.focal_px, where)
    report("seeing the mat from above", 0.4)
    frame = top_frame(settings, width, length)
    mat_thickness = settings.mat_thickness
    surface = camera.plane(mat_thickness)
    top = rectify(image.pixels, surface, frame)
    covered = coverage(surface, frame, image.size)
    parallax = Parallax(camera.foot, camera.height - mat_thickness)
    return Located(tuple(sorted(seen)), camera, frame, top, covered, surface, parallax)


def empty_top_view(photo: bytes, where: str, settings: CaptureSettings,
                   width: float, length: float) -> Pixels:
    """The empty mat side's photo rectified to the top view (BGR uint8; black where the photo
    did not reach), as kept on disk (PNG) for later captures, its surface the settings'
    `mat_thickness` above the table the cards lie on."""
    located = locate(photo, where, settings, width, length)
    top = located.top.copy()
    top[~located.covered] = 0
    return top


def write_empty(top: Pixels) -> bytes:
    """An empty top view as PNG bytes, to keep on disk (lossless: the capture compares it
    with later photos pixel by pixel)."""
    ok, data = cv2.imencode(".png", top)
    if not ok:  # pragma: no cover - OpenCV encodes any uint8 picture as PNG
        raise PhotoError("the empty-mat view could not be encoded as PNG")
    return bytes(data.tobytes())


def read_empty(data: bytes, where: str) -> Pixels:
    """An empty top view kept by `write_empty`, or PhotoError naming `where` (the mat size
    and the cards it was kept for are checked by the capture itself)."""
    picture = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if picture is None:
        raise PhotoError(f"{where}: not an empty-mat view kept by automa capture --empty; "
                         f"take the empty mat's photo again")
    return np.asarray(picture, np.uint8)


def check_empty(empty_top: Floats | Pixels, frame: TopFrame, where: str) -> Pixels:
    shape = (frame.size[1], frame.size[0], 3)
    if empty_top.shape != shape or empty_top.dtype != np.uint8:
        raise PhotoError(f"{where}: the empty-mat photo was kept for another mat size or card "
                         f"layout; take it again (automa capture --empty PHOTO --playmat ID)")
    return np.asarray(empty_top, np.uint8)


@dataclass(frozen=True)
class Comparison:
    """A photo's top view against the empty mat's: where both are seen, the two smoothed and
    under one light, how much each pixel differs (robust: `robust_difference`), and what
    stands on the mat."""

    valid: Mask
    photo: Floats
    base: Floats
    robust: Floats
    region: Mask  # the mat within EDGE_INSET, seen in both
    mask: Mask  # what stands on it
    threshold: float

    def mismatch(self, bare: Mask) -> float:
        """The typical difference on `bare` mat: how well the two views line up there."""
        seen = bare & self.valid
        return float(np.median(self.robust[seen])) if seen.any() else math.inf


def compare(located: Located, photo: Floats, empty: Pixels, width: float,
            length: float) -> Comparison:
    """The photo's top view (`photo`: smoothed) against `empty`."""
    frame = located.frame
    valid = located.covered & np.any(empty > 0, axis=2)
    base = light_matched(photo, empty, valid, frame)
    robust = robust_difference(photo, base, valid, frame)
    region = mat_area(frame, width, length, EDGE_INSET) & valid
    mask, threshold = foreground(robust, region, frame)
    return Comparison(valid, photo, base, robust, region, mask, threshold)


def registered(located: Located, empty: Pixels, width: float, length: float) -> Comparison:
    """The photo compared with the empty view, the latter first lined up on it by the mat's
    art (register.py) where that makes the bare mat match better: a mat thinner or thicker
    than the data says, or a card nudged since the empty photo."""
    photo = smoothed(located.top)
    first = compare(located, photo, empty, width, length)
    keep_out = round(KEEP_OUT * located.frame.scale)
    near_pieces = cv2.dilate(first.mask.astype(np.uint8), cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (2 * keep_out + 1, 2 * keep_out + 1))) > 0
    bare = first.region & ~near_pieces
    moved = lined_up(located.top, empty, bare, located.frame)
    if moved is None:
        return first
    second = compare(located, photo, moved, width, length)
    return second if second.mismatch(bare) < first.mismatch(bare) else first


def disc_outlines(located: Located, empty_top: Pixels, width: float, length: float,
                  where: str) -> tuple[list[Outline], Evidence, Comparison]:
    """The outlines of what stands on the mat, the evidence discs are fitted to, and the
    comparison they come from; or PhotoError if the empty photo is of another mat side (most
    of the mat differs)."""
    frame = located.frame
    empty = check_empty(empty_top, frame, where)
    on_mat = mat_area(frame, width, length) & located.covered & np.any(empty > 0, axis=2)
    if on_mat.any() and likeness(located.top, empty, on_mat) < SAME_SIDE:
        raise PhotoError(f"{where}: the empty-mat photo is not of this mat side (most of the "
                         f"mat differs from it); photograph this side without pieces and keep "
                         f"it with automa capture --empty PHOTO --playmat ID")
    seen = registered(located, empty, width, length)
    edges = edge_map(plain_difference(seen.photo, seen.base, seen.valid))
    evidence = Evidence(edges, frame, located.parallax, EDGE_FLOOR * seen.threshold,
                        located.homography)
    return outlines(seen.mask, edges, frame), evidence, seen


def either_side(seen: Comparison) -> tuple[Mask, Mask]:
    """What `rim` reads either side of a circle: the mat (what does not differ from the empty
    mat, or only as a shadow does) and a disc (what differs from it, and not as a shadow
    does). Only measuring reads them, so only measuring pays for the shaded difference."""
    shaded = shaded_difference(seen.photo, seen.base, seen.valid)
    return ~seen.mask | (shaded < seen.threshold), seen.mask & (shaded >= seen.threshold)


def likeness(top: Pixels, empty: Pixels, on_mat: np.ndarray) -> float:
    """How alike the mat's art is in two top views: the correlation of their fine detail
    (grey levels less their 1.2 cm blur, at an eighth of the size, so the two photos need
    not line up to within a few millimetres: a mat thicker than the cards shifts one against
    the other). The same side scores 0.7-0.9 with a dozen discs on it, another side about 0
    (measured on generated photos), whatever the light."""
    h, w = top.shape[:2]
    small = (w // 8, h // 8)

    def detail(pixels: Pixels) -> Floats:
        grey = cv2.resize(cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY).astype(np.float32), small,
                          interpolation=cv2.INTER_AREA)
        out: Floats = grey - cv2.GaussianBlur(grey, (0, 0), 3.0)
        return out

    inside = cv2.resize(on_mat.astype(np.uint8), small, interpolation=cv2.INTER_NEAREST) > 0
    a, b = detail(top)[inside], detail(empty)[inside]
    if a.size < 100 or float(a.std()) == 0 or float(b.std()) == 0:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def on_the_mat(at: Point, width: float, length: float) -> bool:
    return -1.0 <= at[0] <= width + 1.0 and -1.0 <= at[1] <= length + 1.0


def read_capture(photo: bytes, where: str, empty_top: Pixels, settings: CaptureSettings,
                 width: float, length: float, pieces: Sequence[PieceBefore],
                 progress: Progress | None = None) -> Capture:
    """Where every piece on the mat stands in this photo: the pieces found (with how far each
    moved and how sure the naming is), the pieces not found, and the discs no piece fits.
    The mat's thickness matters: a 2.5 mm mat taken as 0 loses 1 disc in 8."""
    report = progress or (lambda _stage, _done: None)
    located = locate(photo, where, settings, width, length, report)
    report("finding the discs", 0.55)
    found, seen, _ = disc_outlines(located, empty_top, width, length, where)
    kinds: list[Kind] = sorted({(p.disc.radius, p.disc.thickness) for p in pieces})
    usual = float(np.median([t for _, t in kinds])) if kinds else 1.0
    report("measuring the discs", 0.7)
    candidates = [c for first in found for c in candidates_in(first, kinds, usual, seen)
                  if on_the_mat(c.free.at, width, length)]
    report("naming the pieces", 0.9)
    naming = name_discs(pieces, candidates, settings.still)
    report("done", 1.0)
    return Capture(located.markers, naming.found, naming.missing, naming.unknown)


@dataclass(frozen=True)
class Evidence:
    """What the discs are fitted to: the top view's edge map and frame, the camera over the
    mat, and the steepness a real edge has at least."""

    edges: Floats
    frame: TopFrame
    camera: Parallax
    floor: float
    homography: Floats  # mat cm -> photo px

    def grain(self, at: Point) -> float:
        """The tolerance a fit is judged by at a mat point (cm): half a photo pixel there,
        and no finer than the top view resolves."""
        return max(0.5 * pixel_size(self.homography, at), 1.0 / self.frame.scale)


def settle(first: Outline, thickness: float, seen: Evidence,
           reaches: Sequence[float] = (8.0, 4.0),
           fit: Fit | None = None) -> tuple[Fit, Outline, float]:
    """A disc of free radius fitted to a region (or starting from `fit`), then again to the
    edges found along its own silhouette, `reaches` top-view px from it (the region's outline
    is only where the difference crossed a threshold, and part of a disc can be as dark as
    the mat; the model's outline finds the rim itself, from a few millimetres off). Also the
    share of its outline on an edge."""
    if fit is None:
        fit = free_fit(first, thickness, seen.camera)
    outline = first
    for reach in reaches:
        outline = resample(fit, seen.camera, seen.edges, seen.frame, reach)
        fit = fit_disc(outline, fit.radius, thickness, seen.camera, free_radius=True)
    near = ON_EDGE * seen.grain(fit.at)
    return fit, outline, support(outline, fit, seen.camera, seen.floor, near)


def outermost(first: Outline, settled: tuple[Fit, Outline, float], kinds: Sequence[Kind],
              seen: Evidence) -> tuple[Fit, Outline, float]:
    """The disc's own rim rather than a circle inside it: started again from each larger
    size the battle has, the largest circle that still lies on edges all round wins (a
    sticker or the top face's art makes an inner circle, and where the disc's colour is the
    mat's the region found may be only that). A larger rim may lie on edges along OUTER_SLACK
    less of its outline than the first."""
    fit, _, edged = settled
    grain = seen.grain(fit.at)
    best = settled
    for radius in sorted({r for r, _ in kinds}):
        if radius < fit.radius + OUTER_STEP:
            continue
        start = Fit(fit.at, radius, fit.thickness, fit.error)
        other = settle(first, fit.thickness, seen, (8.0, 4.0), start)
        if (other[0].radius > best[0].radius + OUTER_STEP / 2
                and other[0].error <= DISC_LIKE * grain
                and other[2] >= max(EDGED, edged - OUTER_SLACK)):
            best = other
    return best


def candidate(first: Outline, kinds: Sequence[Kind], usual: float,
              seen: Evidence) -> Candidate | None:
    """A region's best disc of free radius (for each thickness the battle's discs have, the
    usual one first; its outermost rim), then every size the battle has fitted to that
    disc's edges, so the sizes compete on the same evidence; None when nothing round is
    there."""
    settled = settle(first, usual, seen)
    free, outline, edged = settled
    if free.error > FIRST_FIT or edged < EDGED * 0.7:
        return None
    free, outline, edged = outermost(first, settled, kinds, seen)
    for thickness in sorted({t for _, t in kinds} - {usual}):
        other = settle(outline, thickness, seen, (3.0,))
        if other[0].error < free.error:
            free, outline, edged = other
    fits = {kind: fit_disc(outline, kind[0], kind[1], seen.camera) for kind in kinds}
    best = min([*fits.values(), free], key=lambda f: f.error)
    return Candidate(fits, free, overlap(first, best, seen.camera, seen.frame), edged,
                     seen.grain(free.at))


def candidates_in(first: Outline, kinds: Sequence[Kind], usual: float,
                  seen: Evidence) -> list[Candidate]:
    """The discs in one region: one, or when one disc explains the region badly and the
    region has several middles, one per middle (discs standing close together)."""
    whole = candidate(first, kinds, usual, seen)
    if whole is not None and whole.disc_like() and whole.overlap[1] >= ONE_DISC:
        return [whole]
    parts = [candidate(part, kinds, usual, seen) for part in split(first, seen.frame)]
    found = [c for c in parts if c is not None and c.disc_like()]
    if len(found) >= 2 or whole is None:
        return found
    return [whole]


def rim(first: Outline, thickness: float, seen: Evidence, mat: Mask,
        disc: Mask) -> Fit | None:
    """A disc of no known size measured: its silhouette among the circles its edges hold.
    Settled from the region and from every radius of RADIUS_RANGE, a disc's outline yields
    circles lying on edges: its rim, a sticker's or its top art's circle inside it, a contact
    shadow's ring outside it, and art beside it may yield an arc. The rim fits its edges to
    within a grain and has the mat just outside it and the disc just inside along most of
    its outline, which rules out the circles inside and the art; of what passes, a shadow's
    ring has the softer edges (a shadow fades out over millimetres, a disc's side is cut),
    so the circle on the strongest edges wins: their typical strength times the share of
    the outline on one (of two fits of one rim, the one settled on it all round). None when
    no circle passes."""
    settled = settle(first, thickness, seen)
    circles = [settled]
    for radius in np.arange(RADIUS_RANGE[0], RADIUS_RANGE[1] + 0.01, MEASURE_STEP):
        circles.append(settle(first, thickness, seen, (8.0, 4.0),
                              Fit(settled[0].at, float(radius), thickness, settled[0].error)))
    passed = []
    for fit, outline, edged in circles:
        if (fit.error > seen.grain(fit.at) or edged < MEASURE_EDGED
                or not RADIUS_RANGE[0] <= fit.radius <= RADIUS_RANGE[1]):
            continue
        outside, inside = sides(fit, seen.camera, mat, disc, seen.frame)
        if outside > MOSTLY and inside > MOSTLY:
            passed.append((edged * float(np.median(outline.weights)), fit))
    return max(passed, key=lambda p: p[0])[1] if passed else None


def measure_discs(photo: bytes, where: str, empty_top: Pixels, settings: CaptureSettings,
                  width: float, length: float, thickness: float) -> list[tuple[Point, float]]:
    """Every disc on the mat in this photo, of any size from 0.5 to 3 cm radius: its centre
    and its radius (cm), for `automa calibrate --photo` (each region's `rim`)."""
    located = locate(photo, where, settings, width, length)
    found, seen, compared = disc_outlines(located, empty_top, width, length, where)
    mat, disc = either_side(compared)
    measured = []
    for first in found:
        fit = rim(first, thickness, seen, mat, disc)
        if fit is not None and on_the_mat(fit.at, width, length):
            measured.append(((round(fit.at[0], 2), round(fit.at[1], 2)), round(fit.radius, 3)))
    return sorted(measured)
