"""Asked geometry: the table measures nothing, so a picture never draws a spot the engine
computed as if it were known. A piece the AI moved (or summoned) is a hollow dashed disc in the
tray below the mat, "place unknown", not on the mat; no sight line, move, template or Clock
template is drawn from an unmeasured spot."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.scenario.load import load_scenario
from tests.conftest import EXAMPLES

LAIR = EXAMPLES / "lair-hmotha"
SVG = "{http://www.w3.org/2000/svg}"


def asked_copy(tmp_path: Path) -> Path:
    """The shipped battle as if played with asked geometry (same inputs, same answers)."""
    folder = tmp_path / "asked-lair"
    shutil.copytree(LAIR, folder)
    log = folder / "log.jsonl"
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["geometry"] = "asked"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return folder


def draw(tmp_path: Path, folder: Path, step: int) -> ET.Element:
    out = tmp_path / f"step{step}.svg"
    result = CliRunner().invoke(cli, ["picture", str(folder), "--step", str(step), "-o",
                                      str(out)])
    assert result.exit_code == 0, result.output
    return ET.parse(out).getroot()


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def pieces(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-piece", ""): g for g in by_class(root, "piece")}


def spot(root: ET.Element, g: ET.Element) -> tuple[float, float]:
    circle = g.find(f"{SVG}circle")
    assert circle is not None
    scale, margin = float(root.get("data-scale", 0)), float(root.get("data-margin", 0))
    length = float(root.get("data-length", 0))
    return (round((float(circle.get("cx", 0)) - margin) / scale, 2),
            round(length - (float(circle.get("cy", 0)) - margin) / scale, 2))


def notes(root: ET.Element) -> str:
    return " ".join(e.text or "" for e in by_class(root, "note"))


def in_tray(root: ET.Element, g: ET.Element) -> bool:
    """Drawn apart, below the mat's Hero Start Zone edge: on no spot of the mat."""
    return g.get("data-measured") == "false" and g.get("data-tray") == "true" and \
        spot(root, g)[1] < 0


def test_a_pushed_piece_is_drawn_in_the_tray(tmp_path: Path) -> None:
    root = draw(tmp_path, asked_copy(tmp_path), 7)  # skeleton-archer-2 pushes the barbarian
    drawn = pieces(root)
    barbarian = drawn["barbarian"]
    assert in_tray(root, barbarian)  # not at (20, 30), where the players put it (input 1)
    assert drawn["elf"].get("data-measured") == "true" and spot(root, drawn["elf"]) == (36, 36)
    assert by_class(root, "move") == []  # where the push stopped was never measured
    (clock,) = by_class(root, "clock")  # laid on the barbarian's measured spot
    assert clock.get("data-face") == "10"
    assert {e.get("data-target") for e in by_class(root, "sight")} >= {"barbarian"}
    keys = {e.get("data-key") for e in by_class(root, "legend-entry")}
    assert "unmeasured" in keys and "Asked geometry" in notes(root)


def test_nothing_is_drawn_from_an_unmeasured_spot(tmp_path: Path) -> None:
    root = draw(tmp_path, asked_copy(tmp_path), 23)  # ghoul-3, summoned at 22, attacks the elf
    drawn = pieces(root)
    assert in_tray(root, drawn["ghoul-3"])  # placed by the model only
    assert in_tray(root, drawn["elf"]) and in_tray(root, drawn["barbarian"])
    assert by_class(root, "sight") == [] and by_class(root, "attack-template") == []
    assert by_class(root, "move") == []
    (clock,) = by_class(root, "clock")  # the first push starts at the elf's measured spot
    centre = next(c for c in clock.iter() if c.tag == f"{SVG}circle")
    scale, margin = float(root.get("data-scale", 0)), float(root.get("data-margin", 0))
    assert float(centre.get("cx", 0)) == pytest.approx(margin + 36 * scale)


def test_a_report_makes_a_piece_measured_again(tmp_path: Path) -> None:
    folder = asked_copy(tmp_path)
    before = pieces(draw(tmp_path, folder, 15))["elf"]
    assert before.get("data-measured") == "true"
    root = draw(tmp_path, folder, 16)  # move elf to (36, 26)
    assert pieces(root)["elf"].get("data-measured") == "true"
    assert spot(root, pieces(root)["elf"]) == (36.0, 26.0)
    assert pieces(root)["hmotha"].get("data-measured") == "false"


def test_every_step_draws_sight_lines_only_between_measured_spots(tmp_path: Path,
                                                                  catalog: Catalog) -> None:
    folder = asked_copy(tmp_path)
    start = {p.id: p.at for p in load_scenario(folder / "scenario.toml", catalog).pieces}
    for step in range(1, 29):
        root = draw(tmp_path, folder, step)
        given = {(round(x, 2), round(y, 2)) for x, y in start.values()} | {
            (20.0, 30.0), (36.0, 36.0), (36.0, 26.0), (50.0, 20.0)}  # scenario or reports
        measured = {spot(root, g) for g in pieces(root).values()
                    if g.get("data-measured") == "true"}
        assert measured <= given
        assert all(in_tray(root, g) for g in pieces(root).values()
                   if g.get("data-measured") == "false")
        assert by_class(root, "move") == []
        scale, margin = float(root.get("data-scale", 0)), float(root.get("data-margin", 0))
        length = float(root.get("data-length", 0))
        for line in by_class(root, "sight"):  # from and to spots the players gave
            for x, y in (("x1", "y1"), ("x2", "y2")):
                end = (round((float(line.get(x, 0)) - margin) / scale, 2),
                       round(length - (float(line.get(y, 0)) - margin) / scale, 2))
                assert end in given


def test_a_tracked_picture_marks_nothing_unmeasured(tmp_path: Path) -> None:
    root = draw(tmp_path, LAIR, 23)
    assert all(g.get("data-measured") == "true" for g in pieces(root).values())
    assert "unmeasured" not in {e.get("data-key") for e in by_class(root, "legend-entry")}
    assert by_class(root, "move") and notes(root) == ""


def test_the_asked_replay_page_shows_the_same(tmp_path: Path) -> None:
    page = tmp_path / "replay.html"
    result = CliRunner().invoke(cli, ["replay", str(asked_copy(tmp_path)), "--html", str(page)])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    body = html.split('<script id="steps" type="application/json">', 1)[1]
    frames = json.loads(body.split("</script>", 1)[0])
    roots = [ET.fromstring(f["svg"]) for f in frames]
    assert all("unmeasured" in {e.get("data-key") for e in by_class(r, "legend-entry")}
               for r in roots)
    assert pieces(roots[23])["elf"].get("data-measured") == "false"
    assert all(by_class(r, "move") == [] for r in roots)
