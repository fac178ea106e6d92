"""`automa markers`: the capture's four marker cards, printed at true size.

The PDF itself is read back: its filled rectangles are painted into an image at 8 px/mm (each
pixel the share of it a rectangle covers) and OpenCV's own ArUco detector must find markers
0-3 in it, each 5.0 cm a side and upright, where the layout says the card lies. The cards'
words come from the data in force, so a player's own offsets print on them.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from itertools import combinations
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from click.testing import CliRunner, Result

from automa.catalog.capture import load_capture_settings
from automa.catalog.locate import shipped_data_dir
from automa.cli.main import cli
from automa.model.capture import Corner, MarkerCard
from automa.photo.model import PhotoError
from automa.render.check_sheet import CHAR, PAPERS, Circle, Line, Rect, Text
from automa.render.marker_cards import marker_card_pages, offset_words

cv2 = pytest.importorskip("cv2")

from automa.photo.cards import marker_bits  # noqa: E402 (after the check that cv2 is here)

PX = 8  # pixels per mm of the painted page
MM = 25.4 / 72  # mm per point
INSTALL = "pip install 'catacombs-automa[photo]'"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env={"AUTOMA_DATA_DIR": None})


def pdf_pages(data: bytes) -> list[tuple[list[float], str]]:
    """Each page's MediaBox (points) and content stream, in page order."""
    assert data.startswith(b"%PDF-1.4\n") and data.endswith(b"%%EOF\n")
    objects = dict(re.findall(rb"(?m)^(\d+) 0 obj\n(.*?)\nendobj\n", data, re.DOTALL))
    kids = re.search(rb"/Kids \[([^\]]*)\]", data)
    assert kids is not None
    pages = []
    for number in re.findall(rb"(\d+) 0 R", kids[1]):
        body = objects[number]
        box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", body)
        contents = re.search(rb"/Contents (\d+) 0 R", body)
        assert box is not None and contents is not None
        stream = objects[contents[1]].split(b"stream\n", 1)[1].rsplit(b"endstream", 1)[0]
        pages.append(([float(box[1]), float(box[2])], stream.decode("cp1252")))
    return pages


def coverage(start: float, end: float, count: int) -> npt.NDArray[np.float64]:
    """How much of each pixel [i, i + 1) the span [start, end) covers."""
    edges = np.arange(count, dtype=np.float64)
    share: npt.NDArray[np.float64] = np.clip(
        np.minimum(edges + 1, end) - np.maximum(edges, start), 0.0, 1.0)
    return share


def paint(box: list[float], stream: str) -> npt.NDArray[np.uint8]:
    """The page's filled rectangles ("g ... re f", in drawing order) painted on white paper,
    8 px/mm, row 0 at the page's top."""
    width, height = (round(v * MM * PX) for v in box)
    page = np.ones((height, width))
    for grey, x, y, w, h in re.findall(
            r"([\d.]+) g (-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re f", stream):
        left, right = float(x) * MM * PX, (float(x) + float(w)) * MM * PX
        top = (box[1] - float(y) - float(h)) * MM * PX
        bottom = (box[1] - float(y)) * MM * PX
        cover = np.outer(coverage(top, bottom, height), coverage(left, right, width))
        page = page * (1 - cover) + float(grey) * cover
    return np.round(255 * page).astype(np.uint8)


def detect(image: npt.NDArray[np.uint8]) -> dict[int, npt.NDArray[np.float64]]:
    """OpenCV's detector on the painted page: each id's four corners in mm from the page's
    top left corner, in OpenCV's order (top-left, top-right, bottom-right, bottom-left)."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)
    corners, ids, _ = detector.detectMarkers(image)
    assert ids is not None
    # OpenCV puts a pixel's centre at its index; ours spans [i, i + 1): add half a pixel
    return {int(i): (np.asarray(c, dtype=np.float64).reshape(4, 2) + 0.5) / PX
            for c, i in zip(corners, ids.ravel(), strict=True)}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_pdf_prints_markers_0_to_3_at_true_size_and_upright(tmp_path: Path,
                                                                paper: str) -> None:
    target = tmp_path / "markers.pdf"
    result = run("markers", "-o", str(target), "--paper", paper)
    assert result.exit_code == 0, result.output
    settings = load_capture_settings(None)
    _, places = marker_card_pages(
        settings, {c.id: marker_bits(settings.dictionary, c.id).tolist() for c in settings.cards},
        paper, "our shipped data")
    pages = pdf_pages(target.read_bytes())
    assert len(pages) == max(p.page for p in places) + 1
    width, height = PAPERS[paper]
    found: dict[int, tuple[int, npt.NDArray[np.float64]]] = {}
    for number, (box, stream) in enumerate(pages):
        assert box == pytest.approx([width / MM, height / MM], abs=0.001)
        assert "Print at 100 % / actual size" in stream
        for ident, corners in detect(paint(box, stream)).items():
            assert ident not in found
            found[ident] = (number, corners)
    assert sorted(found) == [0, 1, 2, 3]
    side = 10 * settings.marker_size
    for place in places:
        number, corners = found[place.id]
        assert number == place.page
        sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
        assert sides == pytest.approx([side] * 4, abs=0.1)
        # upright: corner 0 is the printed square's top left, the others clockwise
        expected = np.array([(place.marker_left, place.marker_top),
                             (place.marker_left + side, place.marker_top),
                             (place.marker_left + side, place.marker_top + side),
                             (place.marker_left, place.marker_top + side)])
        assert np.abs(corners - expected).max() < 0.1


def extent(shape: Line | Rect | Text) -> tuple[float, float, float, float]:
    """A shape's box (left, top, right, bottom) in mm; text by a generous width estimate."""
    if isinstance(shape, Line):
        return (min(shape.x1, shape.x2), min(shape.y1, shape.y2), max(shape.x1, shape.x2),
                max(shape.y1, shape.y2))
    if isinstance(shape, Rect):
        return shape.left, shape.top, shape.left + shape.width, shape.top + shape.height
    return (shape.x, shape.y - shape.size, shape.x + len(shape.text) * shape.size * CHAR,
            shape.y + 0.3 * shape.size)


def apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float],
          gap: float) -> bool:
    return (a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1]
            or b[3] + gap <= a[1])


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("mat", [None, "mausoleum"])
def test_cards_lie_apart_on_the_printable_page_with_white_round_each_marker(
        paper: str, mat: str | None) -> None:
    from automa.catalog.load import load_catalog
    from automa.render.marker_cards import Mat

    settings = load_capture_settings(None)
    found = load_catalog().playmats[mat] if mat else None
    named = Mat(found.name, found.width, found.length) if found else None
    bits = {c.id: marker_bits(settings.dictionary, c.id).tolist() for c in settings.cards}
    pages, places = marker_card_pages(settings, bits, paper, "our shipped data", named)
    width, height = PAPERS[paper]
    if paper == "a4" or mat is None:
        assert len(pages) == 1  # four cards on one page whenever they fit
    assert sorted(p.id for p in places) == [0, 1, 2, 3]
    for a, b in combinations(places, 2):
        if a.page == b.page:
            assert apart((a.left, a.top, a.left + a.width, a.top + a.height),
                         (b.left, b.top, b.left + b.width, b.top + b.height), 0.0)
    for number, shapes in enumerate(pages):
        squares = [p for p in places if p.page == number]
        for shape in shapes:
            assert not isinstance(shape, Circle)
            assert not isinstance(shape, Text) or shape.text.isprintable()
            left, top, right, bottom = box = extent(shape)
            assert left >= 5 and top >= 5 and right <= width - 5 and bottom <= height - 5
            for place in squares:
                inside = (place.marker_left, place.marker_top,
                          place.marker_left + place.marker_side,
                          place.marker_top + place.marker_side)
                if isinstance(shape, Rect) and all(
                        abs(u - v) < 1e-6 or (u > v if i < 2 else u < v)
                        for i, (u, v) in enumerate(zip(box, inside, strict=True))):
                    continue  # the marker's own cells
                assert apart(box, inside, 10.0 - 0.01), (shape, place)  # >= 1 cm white
            # every card's shapes lie on its card, or above the cards (the page's header)
            assert top < min(p.top for p in squares) or any(
                left >= p.left - 0.01 and right <= p.left + p.width + 0.01
                and bottom <= p.top + p.height + 0.01 for p in squares), shape


def card_texts(svg: Path) -> str:
    """The words of every page (FILE.svg, FILE-2.svg, ...), wrapped lines joined again."""
    pages = [svg, *sorted(svg.parent.glob(f"{svg.stem}-*.svg"))]
    return " ".join(t.text or "" for page in pages
                    for t in ET.parse(page).getroot().iter("{http://www.w3.org/2000/svg}text"))


def test_a_data_folder_with_other_offsets_prints_them(tmp_path: Path) -> None:
    shipped = (shipped_data_dir() / "capture.toml").read_text(encoding="utf-8")
    ours = tmp_path / "ours.svg"
    assert run("markers", "-o", str(ours)).exit_code == 0
    assert card_texts(ours).count("4 cm outside both edges") == 4
    folder = tmp_path / "my-data"
    folder.mkdir()
    moved = shipped.replace('corner = "hero-right"\noffset = [4.0, -4.0]',
                            'corner = "hero-right"\noffset = [2.5, -6.0]')
    assert moved != shipped
    (folder / "capture.toml").write_text(moved, encoding="utf-8")
    assert tomllib.loads(moved)["marker"]["1"]["offset"] == [2.5, -6.0]
    theirs = tmp_path / "theirs.svg"
    result = run("--data-dir", str(folder), "markers", "-o", str(theirs), "--playmat",
                 "mausoleum")
    assert result.exit_code == 0, result.output
    text = card_texts(theirs)
    assert text.count("4 cm outside both edges") == 3
    assert "2.5 cm outside the right edge, 6 cm outside the heroes' edge" in text
    assert "your data folder 'my-data'" in text
    assert "(62.5, -6) cm" in text.replace("\n", " ")  # the mausoleum is 60 cm wide


@pytest.mark.parametrize(("corner", "offset", "words"), [
    (Corner.HERO_LEFT, (-4.0, -4.0), "4 cm outside both edges"),
    (Corner.MONSTER_RIGHT, (4.0, 4.0), "4 cm outside both edges"),
    (Corner.MONSTER_LEFT, (3.0, 4.0),
     "3 cm inside the left edge, 4 cm outside the monsters' edge"),
    (Corner.HERO_RIGHT, (0.0, 5.5),
     "on the line of the right edge, 5.5 cm inside the heroes' edge"),
])
def test_the_offset_in_words(corner: Corner, offset: tuple[float, float], words: str) -> None:
    assert offset_words(MarkerCard(0, corner, offset)) == words


def test_the_bits_are_opencvs_with_their_border() -> None:
    bits = marker_bits("DICT_4X4_50", 2)
    assert bits.shape == (6, 6) and bits.dtype == np.bool_
    assert bits[0].all() and bits[-1].all() and bits[:, 0].all() and bits[:, -1].all()
    patterns = {marker_bits("DICT_4X4_50", n).tobytes() for n in range(4)}
    assert len(patterns) == 4
    with pytest.raises(PhotoError, match="DICT_NONE: not one of OpenCV's"):
        marker_bits("DICT_NONE", 0)
    with pytest.raises(PhotoError, match="has markers 0 to 49"):
        marker_bits("DICT_4X4_50", 50)


def test_bad_output_paths_are_one_line(tmp_path: Path) -> None:
    result = run("markers", "-o", str(tmp_path / "cards.png"))
    assert result.exit_code == 2 and "name it FILE.pdf" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    (tmp_path / "file").write_text("")
    result = run("markers", "-o", str(tmp_path / "file" / "cards.pdf"))
    assert result.exit_code == 5 and "cannot be written" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    result = run("markers", "-o", str(tmp_path / "cards.pdf"), "--playmat", "nowhere")
    assert result.exit_code == 2 and "--playmat nowhere: no such playmat" in result.stderr
    assert not (tmp_path / "cards.pdf").exists()


def test_without_opencv_it_says_how_to_install_it(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['cv2'] = None\n"
            "from automa.cli.main import main\n"
            f"sys.argv = ['automa', 'markers', '-o', {str(tmp_path / 'm.pdf')!r}]\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, cwd=Path(__file__).parent.parent)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and INSTALL in done.stderr
    assert not (tmp_path / "m.pdf").exists()
