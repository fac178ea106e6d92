"""What `picture -o` and `replay --html` write: a real PNG, an SVG, a page, or one line."""

from __future__ import annotations

import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from automa.cli.main import cli
from automa.render.png import PNG_SCALE
from tests.conftest import EXAMPLES

DEMO = EXAMPLES / "demo-battle.toml"
LAIR = EXAMPLES / "lair-hmotha"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize("source", [DEMO, LAIR])
def test_a_png_is_a_png_of_the_picture(tmp_path: Path, source: Path) -> None:
    runner = CliRunner()
    for name in ("p.svg", "p.PNG"):
        result = runner.invoke(cli, ["picture", str(source), "-o", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
    root = ET.parse(tmp_path / "p.svg").getroot()
    data = (tmp_path / "p.PNG").read_bytes()
    expected = (round(float(root.get("width", 0)) * PNG_SCALE),
                round(float(root.get("height", 0)) * PNG_SCALE))
    assert png_size(data) == expected
    assert len(data) > 20_000  # drawn, not blank


def test_a_png_without_cairosvg_is_refused_naming_the_extra(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import fails as if not installed
    out = tmp_path / "p.png"
    result = CliRunner().invoke(cli, ["picture", str(DEMO), "-o", str(out)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "catacombs-automa[png]" in result.stderr
    assert not out.exists()


@pytest.mark.parametrize("name", ["p.pdf", "p.svg.txt", "p", "p.jpg"])
def test_another_picture_suffix_is_refused_in_one_line(tmp_path: Path, name: str) -> None:
    result = CliRunner().invoke(cli, ["picture", str(DEMO), "-o", str(tmp_path / name)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert ".svg or .png" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["r.svg", "r.png", "r"])
def test_a_replay_page_needs_an_html_name(tmp_path: Path, name: str) -> None:
    result = CliRunner().invoke(cli, ["replay", str(LAIR), "--html", str(tmp_path / name)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert ".html" in result.stderr
    assert list(tmp_path.iterdir()) == []
