"""`automa calibrate`: measuring your own components into a data folder, and the 1:1 sheet.

Rules checked: each measurement is asked once, with the value in force as the default (Enter
keeps it); a bad answer (not a plain ASCII number, not positive, implausible, zones that meet)
is asked again with one line; `back` reopens the previous question; the folder gets only the
records measured, provenance house with a note, merged with what it holds, and passes
`automa data check`; every value can be given by option or answers file. The check sheet
draws each length at true size in mm and fits its paper.
"""

from __future__ import annotations

import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from automa.catalog.load import check_catalog, load_catalog
from automa.catalog.measure import MEASURED
from automa.cli.main import cli
from automa.render.check_sheet import PAPERS

QUESTIONS = 28  # 3 rulers, 2 templates, 8 disc sizes, mat width/length/rune, 6 sides x 2 zones
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str, answers: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=answers, env={"AUTOMA_DATA_DIR": None})


def lines(*typed: str) -> str:
    """The typed answers, then Enter for every question left."""
    return "\n".join(typed) + "\n" * (QUESTIONS + 10)


def test_keys_list_every_size_the_engine_uses() -> None:
    result = run("calibrate", "--keys")
    keys = [line.split()[0] for line in result.output.splitlines()]
    assert result.exit_code == 0
    assert len(keys) == QUESTIONS
    assert keys[:5] == ["ruler.1", "ruler.2", "ruler.3", "attack-template", "clock-template"]
    assert {f"disc.{s}" for s in load_catalog().components.disc_radius} <= set(keys)
    assert "mat.mausoleum.hero-zone" in keys and "mat.altar.monster-zone" in keys


def test_the_walk_rejects_bad_answers_goes_back_and_writes_only_what_was_measured(
        tmp_path: Path) -> None:
    out = tmp_path / "my-data"
    result = run("calibrate", "--out", str(out), answers=lines(
        "back",  # nothing before the first question
        "6.1",  # ruler 1
        "abc", "\uff11\uff12", "\u00b2", "6,2", "0", "-3", "99", "nan", "1e3",  # all refused
        "11",  # ruler 2
        "back",  # reopens ruler 2
        "12",  # ruler 2 again
        "", "",  # ruler 3, attack template kept
        "13.4 cm",  # clock template
    ))
    assert result.exit_code == 0, result.output
    assert "nothing to go back to" in result.stderr
    for bad in ("'abc'", "'\uff11\uff12'", "'\u00b2'", "'-3'", "'nan'", "'1e3'"):
        assert f"{bad} is not a length" in result.stderr
    assert "write the decimal point as '.', e.g. 6.2" in result.stderr
    assert "0 cm: a length must be more than 0" in result.stderr
    assert "99 cm is outside 1-40 cm" in result.stderr
    assert result.stderr.count("(2/28) Ruler 2") == 2  # asked, then reopened by `back`
    assert "Ruler 2 length, cm [11]: " in result.stderr  # reopened, showing the answer given
    written = tomllib.loads((out / "components.toml").read_text())
    assert set(written) == {"ruler", "clock-template"}
    assert set(written["ruler"]) == {"1", "2"}
    assert written["ruler"]["1"] == {"length": 6.1, "provenance": "house",
                                     "note": f"{MEASURED}: 6.1 cm end to end"}
    assert written["clock-template"]["radius"] == 6.7
    assert len(written["clock-template"]["front"]) == 12  # the rest of the record kept
    assert not (out / "playmats.toml").exists()
    assert check_catalog(out) == []
    components = load_catalog(out).components
    assert components.rulers == {1: 6.1, 2: 12.0, 3: 15.0}
    assert components.clock.radius == 6.7


def test_back_then_enter_keeps_the_answer_given(tmp_path: Path) -> None:
    result = run("calibrate", "--out", str(tmp_path / "d"), answers=lines("6.3", "back", ""))
    assert result.exit_code == 0, result.output
    assert "Ruler 1 length, cm [6.3]: " in result.stderr
    assert load_catalog(tmp_path / "d").components.rulers[1] == 6.3


def test_zone_answers_that_would_meet_are_asked_again(tmp_path: Path) -> None:
    out = tmp_path / "d"
    typed = [""] * 13 + ["58", "50", "2.8", "20", "35", "30", "25"]
    result = run("calibrate", "--out", str(out), answers=lines(*typed))
    assert result.exit_code == 0, result.output
    assert "with the Hero Start Zone 20 cm deep the zones would meet on a 50 cm mat" \
        in result.stderr
    mat = load_catalog(out).playmats["mausoleum"]
    assert (mat.width, mat.length, mat.hero_zone, mat.monster_zone) == (58.0, 50.0, 20.0, 25.0)
    assert mat.rune_radius == 1.4
    # kept zones (12 and 15 cm) still fit the shorter mat; positions moved onto it
    throne = load_catalog(out).playmats["throne-room"]
    assert (throne.hero_zone, throne.monster_zone) == (12.0, 35.0)
    for x, y in throne.runes.values():
        assert 0 <= x <= 58 and 0 <= y <= 50
    assert check_catalog(out) == []


def test_a_kept_zone_that_no_longer_fits_is_asked_for(tmp_path: Path) -> None:
    typed = [""] * 13 + ["", "25", "", "", "", "10"] + ["", "9"] * 5
    result = run("calibrate", "--out", str(tmp_path / "d"), answers=lines(*typed))
    assert result.exit_code == 0, result.output
    assert result.stderr.count("the value in force no longer fits: with the Hero Start Zone "
                               "12 cm deep the zones would meet on a 25 cm mat") == 1
    catalog = load_catalog(tmp_path / "d")
    mat, altar = catalog.playmats["mausoleum"], catalog.playmats["altar"]
    assert (mat.length, mat.hero_zone, mat.monster_zone) == (25.0, 12.0, 15.0)
    assert (altar.length, altar.hero_zone, altar.monster_zone) == (25.0, 12.0, 16.0)


def test_options_and_answers_file_ask_nothing(tmp_path: Path) -> None:
    out = tmp_path / "d"
    answers = tmp_path / "answers.toml"
    answers.write_text('ruler.3 = 14.2\ndisc.medium = 2.6\nattack-template = "8.4"\n'
                       '[mat]\nwidth = 61\nlength = 91.5\nmausoleum.hero-zone = 11\n')
    result = run("calibrate", "--out", str(out), "--answers", str(answers), "--set",
                 "disc.medium=2.4", "--set", "disc.hero=2.7", "--no-ask")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    catalog = load_catalog(out)
    assert catalog.components.rulers[3] == 14.2
    assert catalog.components.disc_radius["medium"] == 1.2  # --set wins over the file
    assert catalog.components.disc_radius["hero"] == 1.35
    assert catalog.components.attack.radius == 4.2
    assert catalog.components.disc_radius["small"] == load_catalog().components.disc_radius[
        "small"]
    mats = tomllib.loads((out / "playmats.toml").read_text())
    assert set(mats) == {"mausoleum", "throne-room", "lava-tube", "root-cellar", "campfire",
                         "altar"}
    assert mats["mausoleum"]["size"] == [61.0, 91.5] and mats["mausoleum"]["hero_zone"] == 11.0
    assert mats["mausoleum"]["monster_zone"] == 76.5  # the 15 cm zone kept, from the far edge
    assert mats["mausoleum"]["provenance"] == "house"
    assert "placeholders" in mats["mausoleum"]["notes"]
    assert check_catalog(out) == []
    checked = run("data", "check", str(out)).output
    assert checked.splitlines()[0] == "data ok"
    sizes = next(line for line in checked.split("\n* ") if line.startswith("ruling 5:"))
    assert "ruler.1" in sizes and "disc.small" in sizes  # not measured: still ours
    assert not {"ruler.3", "disc.medium", "disc.hero", "attack-template"} & set(
        re.findall(r"[\w.-]+", sizes))  # measured: the players' own now


def test_writing_merges_with_the_folder_and_keeps_other_records(tmp_path: Path) -> None:
    out = tmp_path / "d"
    out.mkdir()
    (out / "components.toml").write_text(
        '[ruler.2]\nlength = 9.5\nprovenance = "house"\n\n'
        '[disc.large]\nradius = 1.7\nprovenance = "house"\n')
    first = run("calibrate", "--out", str(out), "--set", "ruler.1=4.9", "--no-ask")
    again = run("calibrate", "--out", str(out), "--set", "ruler.1=5.1", "--no-ask")
    assert first.exit_code == 0 and again.exit_code == 0, again.output
    assert "ruler.1                      4.9 -> 5.1 cm" in again.output  # the default is yours
    components = load_catalog(out).components
    assert components.rulers == {1: 5.1, 2: 9.5, 3: 15.0}
    assert components.disc_radius["large"] == 1.7
    note = tomllib.loads((out / "components.toml").read_text())["ruler"]["1"]["note"]
    assert note == f"{MEASURED}: 5.1 cm end to end"  # the earlier note replaced, not stacked


@pytest.mark.parametrize(("args", "message"), [
    (["--set", "ruler.4=5"],
     "--set: ruler.4: no such measurement; did you mean 'ruler.3'? `automa calibrate --keys`"),
    (["--set", "ruler.1"], "--set: write KEY=CM"),
    (["--set", "disc.small=\u0662"], "--set: disc.small: '\u0662' is not a length"),
    (["--set", "mat.length=30", "--set", "mat.altar.monster-zone=20"],
     "--set: mat.altar.monster-zone: with the Hero Start Zone 12 cm deep the zones would meet"),
    (["--playmat", "moon"], "--playmat moon: no such playmat"),
])
def test_bad_options_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = run("calibrate", "--out", str(tmp_path / "d"), "--no-ask", *args)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"automa: {message}"), result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "d").exists()


def test_a_bad_answers_file_names_file_and_key(tmp_path: Path) -> None:
    answers = tmp_path / "a.toml"
    answers.write_text("ruler.1 = true\n")
    result = run("calibrate", "--out", str(tmp_path / "d"), "--answers", str(answers))
    assert result.exit_code == 2
    assert result.stderr == f"automa: {answers}: ruler.1: expected a number of cm, got True\n"
    answers.write_text("ruler.1 = inf\n")
    result = run("calibrate", "--out", str(tmp_path / "d"), "--answers", str(answers))
    assert "ruler.1: inf cm is outside 1-40 cm" in result.stderr


def test_input_ending_early_writes_nothing(tmp_path: Path) -> None:
    result = run("calibrate", "--out", str(tmp_path / "d"), answers="6\n7\n")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1].startswith("automa: the input ended before every "
                                                      "measurement was given; nothing was written")
    assert not (tmp_path / "d").exists()


def test_an_unwritable_folder_is_exit_5_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    result = run("calibrate", "--out", str(tmp_path / "file" / "d"), "--set", "ruler.1=6",
                 "--no-ask")
    assert result.exit_code == 5
    assert result.stderr.startswith("automa: ") and "cannot be written" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_nothing_measured_writes_nothing(tmp_path: Path) -> None:
    result = run("calibrate", "--out", str(tmp_path / "d"), answers=lines())
    assert result.exit_code == 0
    assert "nothing was written" in result.output
    assert not (tmp_path / "d").exists()


# The check sheet


def sheet(tmp_path: Path, *args: str, data: Path | None = None) -> list[ET.Element]:
    target = tmp_path / "sheet.svg"
    head = ["--data-dir", str(data)] if data else []
    result = run(*head, "calibrate", "--sheet", str(target), *args)
    assert result.exit_code == 0, result.output
    assert "print at 100 % / actual size, no fit-to-page" in result.output.lower()
    pages = [target, *sorted(tmp_path.glob("sheet-*.svg"))]
    return [ET.parse(p).getroot() for p in pages]


def lengths(pages: list[ET.Element]) -> dict[str, float]:
    """Every measured element by id: a line's length, or a circle's diameter, in mm."""
    found: dict[str, float] = {}
    for root in pages:
        for line in root.iter(f"{SVG}line"):
            if "id" in line.attrib:
                x1, y1, x2, y2 = (float(line.attrib[k]) for k in ("x1", "y1", "x2", "y2"))
                found[line.attrib["id"]] = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
        for circle in root.iter(f"{SVG}circle"):
            found[circle.attrib["id"]] = 2 * float(circle.attrib["r"])
    return found


def assert_fits(root: ET.Element, paper: str) -> None:
    width, height = PAPERS[paper]
    assert root.attrib["width"] == f"{width:g}mm" and root.attrib["height"] == f"{height:g}mm"
    assert root.attrib["viewBox"] == f"0 0 {width:g} {height:g}"  # one unit is one mm
    for el in root.iter():
        tag = el.tag.removeprefix(SVG)
        if tag == "line":
            xs = [float(el.attrib["x1"]), float(el.attrib["x2"])]
            ys = [float(el.attrib["y1"]), float(el.attrib["y2"])]
        elif tag == "circle":
            cx, cy, r = (float(el.attrib[k]) for k in ("cx", "cy", "r"))
            xs, ys = [cx - r, cx + r], [cy - r, cy + r]
        elif tag == "text":
            size = float(el.attrib["font-size"])
            x, y = float(el.attrib["x"]), float(el.attrib["y"])
            half = el.attrib["text-anchor"] == "middle"
            span = len(el.text or "") * size * 0.6
            xs = [x - span / 2, x + span / 2] if half else [x, x + span]
            ys = [y - size, y]
        else:
            continue
        assert min(xs) >= 5 and max(xs) <= width - 5, (tag, el.attrib, el.text)
        assert min(ys) >= 5 and max(ys) <= height - 5, (tag, el.attrib, el.text)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_sheet_draws_the_shipped_sizes_at_true_size(tmp_path: Path, paper: str) -> None:
    pages = sheet(tmp_path, "--paper", paper)
    components = load_catalog().components
    drawn = lengths(pages)
    assert [round(drawn.pop("scale-bar"), 6) for _ in range(1)] == [100.0]
    for number, length in components.rulers.items():
        assert drawn[f"ruler-{number}"] == pytest.approx(10 * length)
    assert drawn["attack-template"] == pytest.approx(20 * components.attack.radius)
    assert drawn["clock-template"] == pytest.approx(20 * components.clock.radius)
    assert drawn["clock-template-across"] == pytest.approx(20 * components.clock.radius)
    for size, radius in components.disc_radius.items():
        assert drawn[f"disc-{size}"] == pytest.approx(20 * radius)
    for root in pages:
        assert_fits(root, paper)
        assert len([el for el in root.iter(f"{SVG}line") if el.get("id") == "scale-bar"]) == 1
    text = " ".join(t.text or "" for root in pages for t in root.iter(f"{SVG}text"))
    assert "Print at 100 % / actual size" in text and "our placeholder" in text


def test_the_sheet_draws_your_folder_and_splits_what_is_wider_than_the_page(
        tmp_path: Path) -> None:
    data = tmp_path / "d"
    result = run("calibrate", "--out", str(data), "--set", "ruler.3=38.5", "--set",
                 "clock-template=17", "--set", "disc.small=2.05", "--no-ask")
    assert result.exit_code == 0, result.output
    pages = sheet(tmp_path, data=data)
    drawn = lengths(pages)
    parts = {k: v for k, v in drawn.items() if k.startswith("ruler-3-part-")}
    assert len(parts) == 3 and "ruler-3" not in drawn
    assert sum(parts.values()) == pytest.approx(385.0, abs=0.01)
    assert drawn["clock-template"] == pytest.approx(170.0)
    assert drawn["disc-small"] == pytest.approx(20.5)
    for root in pages:
        assert_fits(root, "a4")
    labels = [t.text or "" for root in pages for t in root.iter(f"{SVG}text")]
    assert "small disc: 2.05 cm" in labels
    assert labels[labels.index("small disc: 2.05 cm") + 1] == "(yours)"
    assert "Ruler 3, part 1 of 3: 0 to 18 cm of 38.5" in labels  # whole cm on A4's 186 mm
    assert "Ruler 3, part 3 of 3: 36 to 38.5 cm of 38.5" in labels
    assert parts["ruler-3-part-3"] == pytest.approx(25.0)


def test_the_sheet_is_svg_or_pdf_and_asks_nothing(tmp_path: Path) -> None:
    result = run("calibrate", "--sheet", str(tmp_path / "x.png"))
    assert result.exit_code == 2 and "name it FILE.pdf" in result.stderr
    result = run("calibrate", "--sheet", str(tmp_path / "x.svg"), "--set", "ruler.1=5")
    assert result.exit_code == 2 and "--sheet draws the sizes in force" in result.stderr
    (tmp_path / "file").write_text("")
    result = run("calibrate", "--sheet", str(tmp_path / "file" / "x.pdf"))
    assert result.exit_code == 5 and "cannot be written" in result.stderr


def pdf_pages(data: bytes) -> list[tuple[list[float], str]]:
    """Each page's MediaBox and content stream, found through the xref table (so its offsets
    are checked too)."""
    assert data.startswith(b"%PDF-1.4\n") and data.endswith(b"%%EOF\n")
    xref = int(data.rsplit(b"startxref\n", 1)[1].split()[0])
    table = data[xref:].split(b"trailer")[0].split(b"\n")[3:-1]
    objects = {}
    for number, entry in enumerate(table, start=1):
        offset = int(entry.split()[0])
        assert data[offset:].startswith(f"{number} 0 obj".encode())
        objects[number] = data[offset:data.index(b"endobj", offset)]
    pages = []
    for body in objects.values():
        if b"/Type /Page " in body:
            box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", body)
            contents = int(re.search(rb"/Contents (\d+) 0 R", body)[1])  # type: ignore[index]
            stream = objects[contents].split(b"stream\n", 1)[1].rsplit(b"endstream", 1)[0]
            length = int(re.search(rb"/Length (\d+)", objects[contents])[1])  # type: ignore[index]
            assert len(stream) == length
            assert box is not None
            pages.append(([float(box[1]), float(box[2])], stream.decode("cp1252")))
    return pages


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_pdf_sheet_is_true_size(tmp_path: Path, paper: str) -> None:
    target = tmp_path / "check.pdf"
    result = run("calibrate", "--sheet", str(target), "--paper", paper)
    assert result.exit_code == 0, result.output
    pages = pdf_pages(target.read_bytes())
    mm = 25.4 / 72
    width, height = PAPERS[paper]
    components = load_catalog().components
    assert len(pages) == 2
    segments, diameters = [], []
    for box, stream in pages:
        assert box == pytest.approx([width / mm, height / mm], abs=0.001)
        for x1, y1, x2, y2 in re.findall(r"([\d.]+) ([\d.]+) m ([\d.]+) ([\d.]+) l S", stream):
            segments.append(((float(x2) - float(x1)) ** 2 + (float(y2) - float(y1)) ** 2)
                            ** 0.5 * mm)
        for path in re.findall(r"([\d.]+) [\d.]+ m ((?:[\d. ]+ c )+)S", stream):
            xs = [float(path[0]), *map(float, path[1].replace("c", "").split()[0::2])]
            diameters.append((max(xs) - min(xs)) * mm)
        drawing = re.sub(r"\((?:\\.|[^\\)])*\)", "", stream)  # the text strings left out
        for number in map(float, re.findall(r"-?\d+(?:\.\d+)?", drawing)):
            assert -0.001 <= number <= max(width, height) / mm + 0.001
    assert "Print at 100 % / actual size" in pages[0][1]
    tens = sum(1 for length in components.rulers.values() if length == 10)
    assert sum(1 for s in segments if abs(s - 100) < 0.01) == 2 + tens  # a 10 cm bar a page
    for length in components.rulers.values():
        assert any(abs(s - 10 * length) < 0.01 for s in segments)
    for radius in [*components.disc_radius.values(), components.attack.radius,
                   components.clock.radius]:
        assert any(abs(d - 20 * radius) < 0.01 for d in diameters)
    assert len(diameters) == len(components.disc_radius) + 2
