"""What a picture shows a person: a legend, a true-scale cm grid, Clock templates with their
faces numbered and 12 where the engine laid it, and labels that never overlap."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.engine.steps import MoveStep
from automa.model.pieces import Piece
from automa.render.labels import Box, Disc, disc_hits_box
from automa.render.svg import picture
from automa.scenario.load import load_scenario
from automa.session.commands import NextActivation
from automa.session.replay import open_recorded, replay_steps
from tests.conftest import EXAMPLES

DEMO = EXAMPLES / "demo-battle.toml"
SESSIONS = [EXAMPLES / "lair-hmotha", EXAMPLES / "battle-chagnars-lair",
            EXAMPLES / "special-summoners"]
KEYS = {"heroes", "ai", "neutral", "seen", "blocked", "blocker", "move", "push", "summon", "attack",
        "clock", "rolled", "obstacle", "rune", "hero-zone", "monster-zone", "grid"}


def draw(tmp_path: Path, *args: str) -> ET.Element:
    out = tmp_path / "picture.svg"
    result = CliRunner().invoke(cli, ["picture", *args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return ET.parse(out).getroot()


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def frame(root: ET.Element) -> tuple[float, float, float]:
    return (float(root.get("data-scale", 0)), float(root.get("data-margin", 0)),
            float(root.get("data-length", 0)))


def test_the_legend_names_every_mark(tmp_path: Path) -> None:
    root = draw(tmp_path, str(DEMO))
    keys = {e.get("data-key") for e in by_class(root, "legend-entry")}
    assert keys == KEYS  # "position not measured" only in an asked session
    texts = " ".join("".join(e.itertext()) for e in by_class(root, "legend-entry"))
    for words in ("heroes' side", "AI's side", "seen", "blocked", "Attack template",
                  "Clock template", "push", "obstacle", "rune", "Hero Start Zone", "1 cm"):
        assert words in texts


def test_the_grid_is_in_true_cm(tmp_path: Path, catalog: Catalog) -> None:
    mat = load_scenario(DEMO, catalog).playmat
    root = draw(tmp_path, str(DEMO))
    scale, margin, length = frame(root)
    light, strong = (by_class(root, "grid")[0], by_class(root, "grid-10")[0])
    lines = light.get("d", "").count("M") + strong.get("d", "").count("M")
    assert lines == (int(mat.width) - 1) + (int(mat.length) - 1)  # one per inner cm
    tens = int(mat.width) // 10 - 1 + int(mat.length) // 10 - 1
    assert strong.get("d", "").count("M") == tens
    x_labels = {"".join(e.itertext()): e for e in by_class(root, "grid-label")
                if e.get("text-anchor") == "middle"}
    assert float(x_labels["30"].get("x", 0)) == pytest.approx(margin + 30 * scale)  # across
    y_labels = [e for e in by_class(root, "grid-label") if e.get("text-anchor") == "end"]
    seventy = next(e for e in y_labels if "".join(e.itertext()) == "70")
    assert float(seventy.get("y", 0)) - 4 == pytest.approx(margin + (length - 70) * scale)
    assert {"".join(e.itertext()) for e in y_labels} >= {str(cm) for cm in range(0, 91, 10)}


def clock_faces(clock: ET.Element) -> dict[int, tuple[float, float]]:
    return {int(t.get("data-face", 0)): (float(t.get("x", 0)), float(t.get("y", 0)) - 3.5)
            for t in clock.iter() if t.get("class") == "clock-face"}


def angle(a: tuple[float, float], b: tuple[float, float]) -> float:
    turn = math.atan2(a[0] * b[1] - a[1] * b[0], a[0] * b[0] + a[1] * b[1])
    return abs(math.degrees(turn))


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: p.name)
def test_each_clock_template_points_where_the_engine_laid_it(tmp_path: Path, catalog: Catalog,
                                                              session: Path) -> None:
    checked = 0
    for step in replay_steps(open_recorded(str(session), catalog)):
        assert step.activation is not None or not isinstance(step.command, NextActivation)
        pushes = [s for s in (step.activation.steps if step.activation else ())
                  if isinstance(s, MoveStep) and s.clock is not None]
        if not pushes:
            continue
        root = draw(tmp_path, str(session), "--step", str(step.number))
        clocks = by_class(root, "clock")
        assert len(clocks) == len(pushes)
        moves = {(m.get("x1"), m.get("y1"), m.get("x2"), m.get("y2"))
                 for m in by_class(root, "move")}
        for clock, push in zip(clocks, pushes, strict=True):
            faces = clock_faces(clock)
            assert sorted(faces) == list(range(1, 13))
            assert clock.get("data-face") == str(push.clock)
            centre = next(c for c in clock.iter() if c.tag.endswith("circle"))
            cx, cy = float(centre.get("cx", 0)), float(centre.get("cy", 0))
            twelve = (faces[12][0] - cx, faces[12][1] - cy)
            if "(front)" in push.tool:  # face 12 toward the Hero Start Zone: straight down
                assert twelve[0] == pytest.approx(0, abs=0.2) and twelve[1] > 0
            else:  # the reverse side: face 12 toward the middle of the mat
                mid = (float(root.get("data-margin", 0)) + 30 * 10, 60 + 45 * 10)
                assert angle(twelve, (mid[0] - cx, mid[1] - cy)) < 1
            travel = math.dist(push.start, push.end)
            if travel > 1 and not push.adjusted:  # the rolled face lies along the move
                rolled = faces[push.clock]
                way = (push.end[0] - push.start[0], push.start[1] - push.end[1])
                assert angle((rolled[0] - cx, rolled[1] - cy), way) < 2
                checked += 1
        assert len(moves) >= len(pushes)
    assert checked >= 3


def test_a_half_clock_spreads_its_faces_toward_the_monster_zone(catalog: Catalog) -> None:
    session = open_recorded(str(SESSIONS[0]), catalog)
    step = next(s for s in replay_steps(session) if s.activation is not None)
    assert step.activation is not None
    piece = step.before.battle.pieces[0]
    retreat = MoveStep(piece.id, piece.at, (piece.at[0], piece.at[1] + 5), "retreat",
                       "half Clock template + Ruler 2", clock=4)
    activation = replace(step.activation, steps=(retreat,), visible=(), hidden=())
    root = ET.fromstring(picture(session.state.scenario, step.after.battle.pieces, "t",
                                 activation, step.before.battle.pieces, catalog.components))
    (clock,) = by_class(root, "clock")
    faces = clock_faces(clock)
    centre_y = float(root.get("data-margin", 0)) + (90 - piece.at[1]) * 10
    assert sorted(faces) == list(range(1, 13))
    assert all(y < centre_y for _, y in faces.values())  # all above: toward the MSZ
    assert faces[1][0] < faces[6][0] < faces[7][0] < faces[12][0]  # left to right


def label_boxes(root: ET.Element) -> list[tuple[str, Box]]:
    boxes = []
    for label in by_class(root, "label"):
        x0, y0, x1, y1 = (float(v) for v in label.get("data-box", "").split())
        boxes.append((label.get("data-for", ""), Box(x0, y0, x1, y1)))
    return boxes


def discs(root: ET.Element) -> list[Disc]:
    out = []
    for g in by_class(root, "piece"):
        circle = g.find("{http://www.w3.org/2000/svg}circle")
        assert circle is not None
        out.append(Disc(float(circle.get("cx", 0)), float(circle.get("cy", 0)),
                        float(circle.get("r", 0))))
    return out


def check_labels(root: ET.Element) -> None:
    boxes = label_boxes(root)
    scale, margin, length = frame(root)
    mat = Box(margin, margin, margin + 60 * scale, margin + length * scale)
    assert len(boxes) == len(by_class(root, "piece"))
    for index, (name, box) in enumerate(boxes):
        assert box.inside(mat), name
        for other_name, other in boxes[index + 1:]:
            assert not box.overlaps(other), (name, other_name)
        for disc in discs(root):
            assert not disc_hits_box(disc, box), name
    texts = {g.get("data-for"): g.findtext("{http://www.w3.org/2000/svg}text")
             for g in by_class(root, "label")}
    assert all(texts[name] == name for name, _ in boxes)


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: p.name)
def test_labels_clear_of_each_other_and_of_pieces_on_the_shipped_battles(
        tmp_path: Path, session: Path) -> None:
    check_labels(draw(tmp_path, str(session)))


NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-0123456789WM", min_size=1, max_size=22)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.floats(3, 27), st.floats(20, 45), NAMES, st.booleans()),
                min_size=2, max_size=26, unique_by=lambda t: t[2]))
@example([(11.1796875, 40.34375, "0", False), (11.69921875, 39.21875, "00", False)])  # rounding
def test_labels_never_overlap_on_a_crowded_table(catalog: Catalog,
                                                 crowd: list[tuple[float, float, str, bool]]
                                                 ) -> None:
    scenario = load_scenario(DEMO, catalog)
    pieces = [Piece(name, "heroes" if hero else "ai", "hero" if hero else "monster", (x, y),
                    1.25, 3) for x, y, name, hero in crowd]
    check_labels(ET.fromstring(picture(scenario, pieces, "crowd")))


@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed")
def test_each_label_is_drawn_inside_the_box_it_reserved(tmp_path: Path, catalog: Catalog) -> None:
    """The width estimate holds in a real browser: drawn text stays in its box."""
    scenario = load_scenario(DEMO, catalog)
    names = ["skeleton-warrior-12", "WWWWMMMM", "illillill", "Catacomb-Lord", "x", "émile",
             "ogre_9", "rat.(1)", "ABCDEFGHIJKLMNOP", "mmmmmmmmmm", "skeleton-archer-2",
             "ckkssvvxxyyzz", "EFLPSTYEFLPSTY", "QOGDHNUQOGDHNU", "0123456789", "rrrrrrtttt"]
    pieces = [Piece(n, "ai", "monster", (5 + 3 * (i % 10), 30 + (i % 3) * 3 + i), 1.25, 2)
              for i, n in enumerate(names)]
    page = tmp_path / "labels.html"
    page.write_text("<!doctype html><html><body>" + picture(scenario, pieces, "t") +
                    """<pre id="out"></pre><script>
const bad = [];
for (const g of document.querySelectorAll("g.label")) {
  const [x0, y0, x1, y1] = g.dataset.box.split(" ").map(Number);
  const b = g.querySelector("text").getBBox();
  if (b.x < x0 - 0.5 || b.x + b.width > x1 + 0.5 || b.y < y0 - 0.5 || b.y + b.height > y1 + 0.5)
    bad.push([g.dataset.for, x0, x1, b.x, b.x + b.width, y0, y1, b.y, b.y + b.height]);
}
const n = document.querySelectorAll("g.label").length;
document.getElementById("out").textContent = "RESULT" + JSON.stringify({n, bad}) + "END";
</script></body></html>""")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(["chromium", *flags, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120).stdout
    result = dom.split("RESULT", 1)[1].split("END", 1)[0]
    assert json.loads(result) == {"n": len(names), "bad": []}
