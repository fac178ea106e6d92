"""Benchmark: the photo capture on generated 12-megapixel hand-held photos (issue 29, point 6).

Run: python bench/bench_capture.py [N] [--size WxH] [--mat-lift H]  (N photos, 40 by default;
     4000x3000; the mat H cm thick where the data says 0.2: what a wrong guess costs)
     python bench/bench_capture.py --measure N [--size WxH]  (N layouts for calibrate --photo)
Prints how many photos had all four markers found, the share of the discs standing apart
that were found and named right, the position error's median and 95th percentile (mm, over
the pieces named right that moved), and the seconds per photo on one core (OpenCV held to
one thread; decoding, markers, camera, top view, discs and naming: all of `read_capture`).
The target is 3 s per 12 MP photo. The photos come from tests/photo_synth.py; one empty photo
per mat side, each from its own pose, as a player keeps one per side.

With --measure: N layouts of calibrate's five discs (tests/photo_synth.py `layout`; every other
one with the radii perturbed up to 10 %), each measured by `measure_discs` as
`automa calibrate --photo` does; prints the discs found, the regions measured that are no
disc, the layouts calibrate would accept (five discs, no more), and the diameter error's
median, 90th percentile and maximum (mm), and how many are within 0.5 mm.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from automa.catalog.capture import load_capture_settings
from automa.photo.pipeline import empty_top_view, measure_discs, read_capture
from tests import photo_synth as ps

W, L = 60.0, 90.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", nargs="?", type=int, default=40)
    parser.add_argument("--size", default="4000x3000", help="the photos' size, WxH")
    parser.add_argument("--seed", type=int, default=0, help="the first trial's seed")
    parser.add_argument("--mat-lift", type=float, default=None,
                        help="the generated mat's thickness, cm (default: the data's)")
    parser.add_argument("--measure", type=int, default=0,
                        help="measure this many calibrate layouts instead")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    cv2.setNumThreads(1)
    if args.measure:
        measure(args.seed, args.measure, (size[0], size[1]))
        return
    settings = load_capture_settings(None)
    kinds = ps.data_kinds()
    empties: dict[str, np.ndarray] = {}
    seconds: list[float] = []
    scores: list[ps.Score] = []
    for seed in range(args.seed, args.seed + args.photos):
        case = ps.trial(seed, settings, kinds, W, L, size=(size[0], size[1]), with_empty=False,
                        mat_lift=args.mat_lift)
        if case.side not in empties:
            blank = ps.empty(7000 + len(empties), case.side, W, L, settings,
                             ps.Options(size=(size[0], size[1]), mat_lift=args.mat_lift))
            empties[case.side] = empty_top_view(blank.jpeg, "empty.jpg", settings, W, L)
        if not seconds:  # the first call pays for importing SciPy's parts: not a photo's cost
            read_capture(case.photo.jpeg, "photo.jpg", empties[case.side], settings, W, L,
                         case.before)
        start = time.perf_counter()
        capture = read_capture(case.photo.jpeg, "photo.jpg", empties[case.side], settings, W, L,
                               case.before)
        seconds.append(time.perf_counter() - start)
        score = ps.score(case, capture.markers, [(p.id, p.at) for p in capture.pieces],
                         [u.at for u in capture.unknown])
        scores.append(score)
        print(f"photo {seed:3d}: height {case.photo.height:4.1f} cm, {score.discs:2d} discs, "
              f"found {score.found:2d}, named {score.named:2d}, "
              f"{len(capture.unknown)} unknown, {seconds[-1]:.2f} s", flush=True)
    discs = sum(s.discs for s in scores)
    found = sum(s.found for s in scores)
    named = sum(s.named for s in scores)
    errors = [e for s in scores for e in s.errors]
    print(f"photos                     {len(scores)} at {size[0]}x{size[1]}")
    print(f"markers all found          {sum(s.markers == (0, 1, 2, 3) for s in scores)}"
          f"/{len(scores)}")
    print(f"discs found                {100 * found / max(discs, 1):.1f} % of {discs}")
    print(f"named right                {100 * named / max(found, 1):.1f} % of {found}")
    print(f"position error median      {np.median(errors):.2f} mm ({len(errors)} moved)")
    print(f"position error p95         {np.percentile(errors, 95):.2f} mm")
    print(f"seconds per photo          {np.mean(seconds):.2f} (median {np.median(seconds):.2f},"
          f" max {max(seconds):.2f}) on one core")


def measure(first: int, layouts: int, size: tuple[int, int]) -> None:
    """Calibrate's five discs measured in generated layouts: found, extra, diameter errors."""
    settings = load_capture_settings(None)
    errors: list[float] = []
    extra = accepted = 0
    seconds: list[float] = []
    for seed in range(first, first + layouts):
        case = ps.layout(seed, settings, W, L, size, perturb=0.1 if seed % 2 else 0.0)
        empty = empty_top_view(case.empty.jpeg, "empty.jpg", case.settings, W, L)
        start = time.perf_counter()
        found = measure_discs(case.photo.jpeg, "photo.jpg", empty, case.settings, W, L, 1.0)
        seconds.append(time.perf_counter() - start)
        mine = []
        for piece in case.pieces:
            near = [r for a, r in found if math.dist(a, piece.at) < piece.disc.radius]
            if near:
                mine.append((near[0] - piece.disc.radius) * 20)
        errors += mine
        extra += len(found) - len(mine)
        accepted += len(found) == len(case.pieces) == len(mine)
        print(f"layout {seed:3d}: mat {case.settings.mat_thickness:.1f} cm, found "
              f"{len(mine)}/{len(case.pieces)}, extra {len(found) - len(mine)}, diameter "
              f"errors {' '.join(f'{e:+.2f}' for e in mine)} mm, {seconds[-1]:.2f} s", flush=True)
    off = np.abs(errors)
    print(f"layouts                    {layouts} at {size[0]}x{size[1]}")
    print(f"discs found                {len(off)} of {5 * layouts}")
    print(f"regions measured, no disc  {extra}")
    print(f"layouts calibrate accepts  {accepted} of {layouts}")
    print(f"diameter error median      {np.median(off):.2f} mm")
    print(f"diameter error p90 / max   {np.percentile(off, 90):.2f} / {off.max():.2f} mm")
    print(f"within 0.5 mm              {int(np.sum(off <= 0.5))} of {len(off)}")
    print(f"seconds per photo          {np.mean(seconds):.2f} on one core")


if __name__ == "__main__":
    main()
