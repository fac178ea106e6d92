"""Pictures and the replay page: the SVG's coordinates match the model, and the HTML works
offline in headless Chromium."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.scenario.load import load_scenario
from automa.session.replay import open_recorded, replay_steps
from tests.conftest import EXAMPLES

SVG = "{http://www.w3.org/2000/svg}"
LAIR = EXAMPLES / "lair-hmotha"


def draw(tmp_path: Path, *args: str) -> ET.Element:
    out = tmp_path / "picture.svg"
    result = CliRunner().invoke(cli, ["picture", *args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return ET.parse(out).getroot()


def pieces_drawn(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-piece", ""): g for g in root.iter(f"{SVG}g")
            if g.get("class") == "piece"}


def check_positions(root: ET.Element, expected: dict[str, tuple[float, float]]) -> None:
    """Each piece's disc sits where the model puts it, at the drawing's scale."""
    scale, margin = float(root.get("data-scale", 0)), float(root.get("data-margin", 0))
    length = float(root.get("data-length", 0))
    drawn = pieces_drawn(root)
    assert set(drawn) == set(expected)
    for piece_id, (x, y) in expected.items():
        circle = drawn[piece_id].find(f"{SVG}circle")
        assert circle is not None
        model_x = (float(circle.get("cx", 0)) - margin) / scale
        model_y = length - (float(circle.get("cy", 0)) - margin) / scale
        assert model_x == pytest.approx(x, abs=0.01) and model_y == pytest.approx(y, abs=0.01)
        assert float(drawn[piece_id].get("data-x", 0)) == pytest.approx(x, abs=0.001)


def test_a_scenario_picture_matches_the_model(tmp_path: Path, catalog: Catalog) -> None:
    scenario = load_scenario(EXAMPLES / "demo-battle.toml", catalog)
    root = draw(tmp_path, str(EXAMPLES / "demo-battle.toml"))
    check_positions(root, {p.id: p.at for p in scenario.pieces})
    obstacles = [e for e in root.iter() if e.get("class") == "obstacle"]
    assert sorted(e.get("data-obstacle") for e in obstacles) == list("ABCDEF")


def test_a_session_step_shows_the_activation(tmp_path: Path, catalog: Catalog) -> None:
    steps = list(replay_steps(open_recorded(str(LAIR), catalog)))
    step = next(s for s in steps if s.activation is not None and any(
        st.kind == "attack" for st in s.activation.steps))
    root = draw(tmp_path, str(LAIR), "--step", str(step.number))
    check_positions(root, {p.id: p.at for p in step.after.battle.pieces})
    assert step.activation is not None
    sights = [e for e in root.iter() if e.get("class") == "sight"]
    assert {e.get("data-target") for e in sights} == {
        s.target for s in (*step.activation.visible, *step.activation.hidden)}
    moves = [e for e in root.iter() if e.get("class") == "move"]
    assert len(moves) == sum(1 for st in step.activation.steps if st.kind == "move")
    assert any(e.get("class") == "attack-template" for e in root.iter())


def test_a_bad_step_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["picture", str(LAIR), "--step", "999", "-o",
                                      str(tmp_path / "x.svg")])
    assert result.exit_code == 2 and "inputs" in result.stderr


@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed")
def test_the_replay_page_works_offline_in_chromium(tmp_path: Path) -> None:
    page = tmp_path / "replay.html"
    result = CliRunner().invoke(cli, ["replay", str(LAIR), "--html", str(page)])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in html
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(["chromium", *flags, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120).stdout
    assert 'class="piece"' in dom and "Replay of lair-hmotha" in dom  # the script drew step 0
    shot = tmp_path / "shot.png"
    subprocess.run(["chromium", *flags, "--window-size=1200,900", f"--screenshot={shot}",
                    page.as_uri()], capture_output=True, timeout=120)
    from PIL import Image

    with Image.open(shot) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is not None and len(colours) > 50  # not a blank page
