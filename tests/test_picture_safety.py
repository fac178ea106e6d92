"""User strings in pictures and the replay page stay text: a hostile piece id or name can
neither add an attribute or element to the SVG nor close the page's script."""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from automa.cli.main import cli
from automa.render.markup import esc, script_json
from tests.conftest import EXAMPLES

# Each would add a live handler or element if pasted into markup unescaped.
RAT = 'rat"onload="alert(1)'
ELF = "elf'><img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">"
NAME = "</script><script>document.body.setAttribute('data-pwned','2')</script><!--"
FOLDER = "battle<b onmouseover=alert(3)>"


def hostile_scenario(tmp_path: Path) -> Path:
    text = (EXAMPLES / "demo-battle.toml").read_text()
    text = text.replace('id = "rat-1"', f"id = {json.dumps(RAT)}")
    text = text.replace('id = "elf"', f"id = {json.dumps(ELF)}")
    text = text.replace("elf = 2", f"{json.dumps(ELF)} = 2")
    text = text.replace('name = "Barbarian"', f"name = {json.dumps(NAME)}")
    path = tmp_path / "hostile.toml"
    path.write_text(text)
    return path


def hostile_session(tmp_path: Path) -> Path:
    folder = tmp_path / FOLDER
    runner = CliRunner()
    result = runner.invoke(cli, ["new", str(hostile_scenario(tmp_path)), "--session",
                                 str(folder), "--seed", "3"])
    assert result.exit_code == 0, result.output
    for _ in range(4):
        result = runner.invoke(cli, ["next", "--session", str(folder)])
        assert result.exit_code == 0, result.output
    return folder


def no_handlers(root: ET.Element) -> None:
    for element in root.iter():
        assert element.tag.split("}")[-1] not in {"script", "img", "foreignObject"}
        assert not any(name.lower().startswith("on") for name in element.attrib), element.attrib


def test_esc_and_script_json() -> None:
    assert esc('a"b\'c<d>&') == "a&quot;b&#x27;c&lt;d&gt;&amp;"
    assert esc("bell\x07 esc\x1b") == "bell\ufffd esc\ufffd"
    embedded = script_json({"s": NAME})
    assert not any(c in embedded for c in "<>&")
    assert json.loads(embedded) == {"s": NAME}


def test_a_hostile_id_stays_text_in_the_svg(tmp_path: Path) -> None:
    out = tmp_path / "p.svg"
    result = CliRunner().invoke(cli, ["picture", str(hostile_scenario(tmp_path)), "-o", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    no_handlers(root)
    ids = {g.get("data-piece") for g in root.iter() if g.get("class") == "piece"}
    assert {RAT, ELF} <= ids  # read back exactly as given


def test_a_hostile_session_stays_text_in_pictures_and_the_page(tmp_path: Path) -> None:
    folder = hostile_session(tmp_path)
    runner = CliRunner()
    out = tmp_path / "step.svg"
    result = runner.invoke(cli, ["picture", str(folder), "-o", str(out)])
    assert result.exit_code == 0, result.output
    no_handlers(ET.parse(out).getroot())
    page = tmp_path / "replay.html"
    result = runner.invoke(cli, ["replay", str(folder), "--html", str(page)])
    assert result.exit_code == 0, result.output
    tags = parse_page(page.read_text(encoding="utf-8"))
    assert [t for t, _ in tags if t == "script"] == ["script", "script"]
    assert {t for t, _ in tags} <= {"html", "head", "meta", "title", "style", "body", "h1",
                                    "div", "button", "input", "span", "main", "pre", "script"}
    assert not any(name.startswith("on") for _, attrs in tags for name, _ in attrs)
    frames = json.loads(steps_json(page.read_text(encoding="utf-8")))
    assert len(frames) == 5
    for frame in frames:
        root = ET.fromstring(frame["svg"])
        no_handlers(root)
        assert RAT in {g.get("data-piece") for g in root.iter() if g.get("class") == "piece"}


def parse_page(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            tags.append((tag, attrs))

    parser = Tags()
    parser.feed(html)
    parser.close()
    return tags


def steps_json(html: str) -> str:
    start = html.index('<script id="steps" type="application/json">')
    body = html[start:].split(">", 1)[1]
    return body[:body.index("</script>")]


@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed")
def test_a_hostile_page_runs_no_injected_code_in_chromium(tmp_path: Path) -> None:
    folder = hostile_session(tmp_path)
    page = tmp_path / "replay.html"
    assert CliRunner().invoke(cli, ["replay", str(folder), "--html", str(page)]).exit_code == 0
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--virtual-time-budget=3000", f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(["chromium", *flags, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120).stdout
    assert 'class="piece"' in dom  # the page's own script ran and drew the first step
    assert 'data-pwned="' not in dom  # no handler or script of the payload ran
    assert "<img" not in dom
