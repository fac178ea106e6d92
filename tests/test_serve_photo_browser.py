"""The board's Photo button in a real browser (issue 29): Debian's headless Chromium driven by
Playwright through `automa serve`. A whole heroes' turn recorded from a photo: the empty mat
kept by the Empty mat button, a synthetic photo with the heroes moved uploaded by the Photo
button, the arrows seen, a ring dragged, Confirm, and the session's log holding one move per
hero at the right place; on a laptop and on a phone (a finger drags the ring there)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.conftest import CHROMIUM
from tests.test_serve_browser import (
    LAPTOP,
    PHONE,
    api,
    new_session,
    serving,
    settled,
    shot,
    watched,
)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium): "
                             "the live board's browser test drives it through Playwright")


@pytest.fixture(autouse=True)
def own_data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's default data folder (where a kept empty mat is also looked for) inside the
    test's folder: `automa serve` inherits this environment."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "my-data"
    folder.mkdir()
    return folder


def a_png(folder: Path, name: str = "plain.png") -> Path:
    """A small image that is no photo of a mat."""
    from PIL import Image

    path = folder / name
    Image.new("RGB", (64, 48), (180, 120, 60)).save(path)
    return path


def log_of(url: str) -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = api(url)["log"]
    return log


RING = """id => {
  const g = document.querySelector(`#photo-layer g.photo-ring[data-piece="${CSS.escape(id)}"]`);
  const c = g.querySelector('circle.photo-disc').getBoundingClientRect();
  return [c.left + c.width / 2, c.top + c.height / 2];
}"""

MAT = """() => { const m = document.querySelector('#mat svg rect.mat').getBoundingClientRect();
  return [m.left, m.top, m.width, m.height]; }"""


def on_screen(page: Page, size: list[float], x: float, y: float) -> tuple[float, float]:
    """Where the mat point (x, y) cm is drawn on the screen now."""
    left, top, width, height = page.evaluate(MAT)
    return left + x / size[0] * width, top + (size[1] - y) / size[1] * height


def test_a_photo_before_the_empty_mat_is_kept_says_to_press_empty_mat(
        browser: Browser, tmp_path: Path, data: Path) -> None:
    folder = new_session(tmp_path, "no-empty")
    with serving(folder, tmp_path, data) as url:
        page = watched(browser, url, LAPTOP, refusals=True)
        page.wait_for_selector("#mat svg g.piece")
        before = log_of(url)
        assert page.locator("#photo-button").is_visible()
        assert page.locator("#photo-file").get_attribute("capture") == "environment"
        assert page.locator("#photo-file").get_attribute("accept") == "image/*"
        box = page.locator("#photo-button").bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
        with page.expect_response("**/api/photo") as answer:
            page.set_input_files("#photo-file", str(a_png(tmp_path)))
        assert answer.value.status == 400
        page.wait_for_selector("#photo-state[data-kind=error]")
        words = page.inner_text("#photo-state")
        assert "no usable photo of the empty" in words and "press Empty mat" in words
        assert "press Empty mat" in page.inner_text("#message")
        assert page.locator("#photo-confirm").is_hidden()
        shot(page, "photo-no-empty-laptop")
        page.click("#photo-cancel")
        assert page.locator("#photo").is_hidden()
        assert log_of(url) == before
        assert not page.evaluate("document.querySelector('#photo-layer')")


def test_a_picture_of_something_else_as_the_empty_mat_is_one_line(
        browser: Browser, tmp_path: Path, data: Path) -> None:
    folder = new_session(tmp_path, "not-a-mat")
    with serving(folder, tmp_path, data) as url:
        page = watched(browser, url, PHONE, phone=True, refusals=True)
        page.wait_for_selector("#mat svg g.piece")
        with page.expect_response("**/api/photo/empty") as answer:
            page.set_input_files("#empty-file", str(a_png(tmp_path)))
        assert answer.value.status == 400
        page.wait_for_selector("#photo-state[data-kind=error]")
        message = page.inner_text("#message")
        assert message and "\n" not in message.strip()
        assert not any(data.rglob("*.png"))  # nothing kept
        for button in ("#photo-button", "#empty-button"):
            box = page.locator(button).bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        shot(page, "photo-not-a-mat-phone")


def test_a_watching_page_has_no_photo_buttons(browser: Browser, tmp_path: Path) -> None:
    folder = new_session(tmp_path, "watch")
    with serving(folder, tmp_path) as url:
        page = watched(browser, url + "?watch", LAPTOP)
        page.wait_for_selector("#mat svg g.piece")
        page.wait_for_selector("body[data-readonly]", state="attached")
        assert page.locator("#photo-button").is_hidden()
        assert page.locator("#empty-button").is_hidden()


# --- a whole heroes' turn from a photo ------------------------------------------------------

def drag_ring(page: Page, pid: str, to: tuple[float, float], size: list[float],
              touch: bool) -> None:
    """Drag a proposed ring by mouse (or by a finger: touch events as Chromium gets them from
    a touch screen) so its centre lands on the mat point `to` (cm)."""
    page.locator(f'#photo-layer g.photo-ring[data-piece="{pid}"]').scroll_into_view_if_needed()
    start = page.evaluate(RING, pid)
    end = on_screen(page, size, *to)
    if not touch:
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(*end, steps=8)
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                          "touchPoints": [{"x": start[0], "y": start[1]}]})
    for i in range(1, 9):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{
            "x": start[0] + (end[0] - start[0]) * i / 8,
            "y": start[1] + (end[1] - start[1]) * i / 8}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.fixture
def synth() -> Iterator[Any]:
    """The synthetic photo generator (tests/photo_synth.py) and the vision (automa.photo
    .pipeline), or a skip naming which is not there yet."""
    yield pytest.importorskip("tests.photo_synth")
