"""The photo capture measured on generated hand-held photos (issue 29, point 6).

Forty photos of random battles (3-16 discs of the data's sizes, 0.3-2 cm apart at the least),
each from its own hand-held pose, light, blur, noise and JPEG quality, with the pieces' places
before the photo moved up to 15 cm (some not at all), read against an empty photo of the same
mat side taken from another pose. The bars are the issue's: every marker found, 95 % of the
discs standing apart found and named right, position error median 3 mm and 95th percentile
8 mm. Twenty more layouts of calibrate's five discs are measured (point 5): the figures they
reach today are held as floors, since the issue's bar for them is not met yet. Synthetic
success is not real success (docs/capture.md says what real photos add); the generator is
tests/photo_synth.py."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest

from automa.catalog.capture import load_capture_settings
from automa.model.capture import CaptureSettings
from automa.photo.pipeline import empty_top_view, measure_discs, read_capture
from tests import photo_synth as ps

W, L = 60.0, 90.0
PHOTOS = 40


@pytest.fixture(scope="module")
def settings() -> CaptureSettings:
    return load_capture_settings(None)


@pytest.fixture(scope="module")
def empties(settings: CaptureSettings) -> dict[str, np.ndarray]:
    """One empty photo per mat side, each from its own pose and light, as kept top views."""
    return {side: empty_top_view(ps.empty(7000 + i, side, W, L, settings).jpeg, "empty.jpg",
                                 settings, W, L) for i, side in enumerate(ps.SIDES)}


@pytest.fixture(scope="module")
def read(settings: CaptureSettings,
         empties: dict[str, np.ndarray]) -> list[tuple[ps.SynthPhoto, ps.Score]]:
    """Every photo read once: the photo (its truth and pose) and how the capture scored."""
    kinds = ps.data_kinds()
    out = []
    for seed in range(PHOTOS):
        case = ps.trial(seed, settings, kinds, W, L, with_empty=False)
        capture = read_capture(case.photo.jpeg, "photo.jpg", empties[case.side], settings, W, L,
                               case.before)
        out.append((case.photo, ps.score(case, capture.markers,
                                         [(p.id, p.at) for p in capture.pieces],
                                         [u.at for u in capture.unknown])))
    return out


@pytest.fixture(scope="module")
def scores(read: list[tuple[ps.SynthPhoto, ps.Score]]) -> list[ps.Score]:
    return [score for _, score in read]


def test_the_generated_photos_vary_what_a_hand_held_phone_varies(
        read: list[tuple[ps.SynthPhoto, ps.Score]]) -> None:
    """The bars mean something only if the photos differ: heights over the 55-95 cm range,
    the phone on every side of the mat, the focal sometimes unknown."""
    photos = [photo for photo, _ in read]
    heights = [p.height for p in photos]
    assert min(heights) < 65 and max(heights) > 88
    sides = {(p.foot[0] < 0, p.foot[0] > W, p.foot[1] < 0, p.foot[1] > L) for p in photos}
    assert len(sides) >= 4
    assert 0 < sum(p.focal_guess is None for p in photos) < PHOTOS / 2


def test_every_marker_is_found_in_every_photo(scores: list[ps.Score]) -> None:
    assert [s.markers for s in scores] == [(0, 1, 2, 3)] * PHOTOS


def test_discs_standing_apart_are_found(scores: list[ps.Score]) -> None:
    discs = sum(s.discs for s in scores)
    assert discs >= 200
    assert sum(s.found for s in scores) / discs >= 0.95


def test_found_discs_are_named_right(scores: list[ps.Score]) -> None:
    assert sum(s.named for s in scores) / sum(s.found for s in scores) >= 0.95


def test_positions_are_within_millimetres(scores: list[ps.Score]) -> None:
    errors = [e for s in scores for e in s.errors]
    assert len(errors) >= 100
    assert float(np.median(errors)) <= 3.0
    assert float(np.percentile(errors, 95)) <= 8.0


def test_a_disc_no_piece_fits_is_reported_unknown(settings: CaptureSettings,
                                                 empties: dict[str, np.ndarray]) -> None:
    """A stray disc of a size no piece has is listed among the unknown discs, not named."""
    kinds = ps.data_kinds()
    hits = 0
    for seed in range(3):
        case = ps.trial(100 + seed, settings, kinds, W, L, stray=True, with_empty=False)
        assert case.photo.stray is not None
        capture = read_capture(case.photo.jpeg, "photo.jpg", empties[case.side], settings, W, L,
                               case.before)
        (at, radius) = case.photo.stray
        assert all(math.dist(p.at, at) > radius for p in capture.pieces)
        hits += any(math.dist(u.at, at) < radius for u in capture.unknown)
    assert hits >= 2


def measured_errors(settings: CaptureSettings) -> Iterator[float]:
    """Diameter errors (mm) of every disc measured in one 12-megapixel photo of one disc of
    each thickness-1 size laid out between the cards."""
    kinds = [k for k in ps.data_kinds() if k.thickness == 1.0]
    rng = np.random.default_rng(5)
    pieces = ps.scatter(rng, kinds, W, L, gap=4.0)
    options = ps.Options(size=ps.TWELVE_MP)
    photo = ps.render(11, "altar", W, L, settings, pieces, options)
    blank = ps.empty(12, "altar", W, L, settings, options)
    empty = empty_top_view(blank.jpeg, "empty.jpg", settings, W, L)
    found = measure_discs(photo.jpeg, "photo.jpg", empty, settings, W, L, 1.0)
    for piece in pieces:
        (radius,) = [r for a, r in found if math.dist(a, piece.at) < piece.disc.radius]
        yield (radius - piece.disc.radius) * 20


def test_measured_diameters_are_within_half_a_millimetre(settings: CaptureSettings) -> None:
    errors = list(measured_errors(settings))
    assert len(errors) == 6
    assert max(abs(e) for e in errors) <= 0.5


LAYOUTS = 20  # the bench measures more: bench/bench_capture.py --measure 40


@pytest.fixture(scope="module")
def measured(settings: CaptureSettings) -> list[tuple[int, list[float]]]:
    """Twenty layouts of calibrate's five discs at 1600x1200 (every other one with the radii
    perturbed up to 10 %), each measured: the discs no measured disc lies on, and each found
    disc's diameter error (mm); measured discs on no true one count as extra (-1 each)."""
    out = []
    for seed in range(LAYOUTS):
        case = ps.layout(seed, settings, W, L, ps.SMALL, perturb=0.1 if seed % 2 else 0.0)
        empty = empty_top_view(case.empty.jpeg, "empty.jpg", case.settings, W, L)
        found = measure_discs(case.photo.jpeg, "photo.jpg", empty, case.settings, W, L, 1.0)
        errors = []
        for piece in case.pieces:
            near = [r for a, r in found if math.dist(a, piece.at) < piece.disc.radius]
            if near:
                errors.append((near[0] - piece.disc.radius) * 20)
        out.append((len(found) - len(errors), errors))
    return out


def test_calibrate_layouts_measure_most_diameters_within_a_millimetre(
        measured: list[tuple[int, list[float]]]) -> None:
    """What measuring discs of no known size reaches at 1600x1200 (docs/capture.md says it
    is not yet dependable): nearly every disc found, its rim rather than a sticker's circle
    or a shadow's ring (few errors over 2 mm), the median diameter within 0.5 mm, most
    within 1 mm, and most layouts counted right (five discs, nothing else). The issue's bar
    (every disc, every diameter within 0.5 mm) is not met: a disc whose top darkens toward
    its rim, or is the mat's colour under it, shows its rim up to a pixel inside, and art
    beside a disc can pass for one."""
    errors = np.abs([e for _, found in measured for e in found])
    discs = 5 * LAYOUTS
    assert len(errors) >= 0.95 * discs
    assert float(np.median(errors)) <= 0.5
    assert float(np.mean(errors <= 1.0)) >= 0.8
    assert int(np.sum(errors > 2.0)) <= 0.05 * discs
    counted = sum(extra == 0 and len(found) == 5 for extra, found in measured)
    assert counted >= 0.7 * LAYOUTS


def test_progress_is_reported_stage_by_stage(settings: CaptureSettings,
                                             empties: dict[str, np.ndarray]) -> None:
    case = ps.trial(200, settings, ps.data_kinds(), W, L, with_empty=False)
    stages: list[tuple[str, float]] = []
    read_capture(case.photo.jpeg, "photo.jpg", empties[case.side], settings, W, L, case.before,
                 lambda stage, done: stages.append((stage, done)))
    fractions = [done for _, done in stages]
    assert len(stages) >= 5 and fractions == sorted(fractions)
    assert fractions[0] == 0.0 and stages[-1] == ("done", 1.0)


def test_an_empty_mat_reads_as_no_pieces(settings: CaptureSettings,
                                         empties: dict[str, np.ndarray]) -> None:
    """The empty side photographed again from another pose: nothing found, nothing unknown,
    every piece said to be missing."""
    blank = ps.empty(300, "altar", W, L, settings)
    pieces = ps.before(np.random.default_rng(1), ps.scatter(
        np.random.default_rng(2), ps.data_kinds()[:3], W, L), W, L)
    capture = read_capture(blank.jpeg, "again.jpg", empties["altar"], settings, W, L, pieces)
    assert capture.pieces == () and capture.unknown == ()
    assert capture.missing == tuple(p.id for p in pieces)


def test_a_mat_thicker_than_the_cards_is_read_at_its_surface(settings: CaptureSettings) -> None:
    """A 2.5 mm mat: the cards lie on the table, the mat's surface and its discs stand 2.5 mm
    higher. Told so, the capture rectifies that surface and reads the discs as well as on a
    thin mat."""
    kinds = ps.data_kinds()
    rng = np.random.default_rng(31)
    pieces = ps.scatter(rng, [kinds[int(i)] for i in rng.integers(0, len(kinds), 10)], W, L)
    thick = replace(settings, mat_thickness=0.25)  # as a data folder's capture.toml says
    photo = ps.render(32, "campfire", W, L, thick, pieces)
    blank = ps.empty(33, "campfire", W, L, thick)
    empty = empty_top_view(blank.jpeg, "empty.jpg", thick, W, L)
    before = ps.before(rng, pieces, W, L)
    capture = read_capture(photo.jpeg, "photo.jpg", empty, thick, W, L, before)
    truth = {p.id: p.at for p in pieces}
    moved = {p.id for p in before if p.at != truth[p.id]}  # the still ones are reported as before
    assert len(capture.pieces) >= 9
    errors = [math.dist(p.at, truth[p.id]) * 10 for p in capture.pieces if p.id in moved]
    assert len(errors) >= 4 and float(np.median(errors)) <= 3.0
