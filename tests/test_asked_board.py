"""The board in asked geometry (issue 28, point 10), in Debian's headless Chromium: a piece the
AI moved stands apart in the tray below the mat, marked "place unknown", never at a guessed
spot on it; choosing it says its place is unknown; dragging it onto the mat reports where it
stands, and it is on the mat again."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.conftest import CHROMIUM
from tests.test_serve_browser import (
    FAILURES,
    MEASURE,
    ai_turn,
    answer_questions,
    api,
    check_centres,
    drag,
    settled,
    shot,
)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")


TRAY_NAMES = """() => Object.fromEntries([...document.querySelectorAll('#mat svg text.tray-name')]
  .map((t) => { const b = t.getBoundingClientRect(); const id = t.closest('g.piece').dataset.piece;
    return [id, {left: b.left, right: b.right, top: b.top, bottom: b.bottom,
      px: parseFloat(t.getAttribute('font-size')) / (1 / t.ownerSVGElement.getScreenCTM().a),
      label: document.querySelectorAll(`#mat svg g.label[data-for='${id}']`).length}]; }))"""


def test_unknown_places_stand_apart_and_a_drag_reports_one(browser: Browser,
                                                          tmp_path: Path) -> None:
    with ai_turn(browser, tmp_path, "asked", "--geometry", "asked") as (url, page):
        answer_questions(page, url, {"yes_no": "yes"})
        view = settled(page, url)
        unknown = [p for p in view["pieces"] if not p["measured"]]
        assert unknown, "the activation moved a piece nobody measured"
        drawn = page.evaluate(MEASURE)
        mat_bottom = drawn["mat"][1] + drawn["mat"][3]
        for piece in unknown:  # below the mat, in the tray: on no spot of it
            assert piece["x"] is None and piece["y"] is None
            assert drawn["pieces"][piece["id"]][1] > mat_bottom
        check_centres(page, view)
        assert (page.locator("#mat svg .tray-title").text_content() or "").startswith(
            "Place unknown")
        names = page.evaluate(TRAY_NAMES)
        tray = page.locator("#mat svg g.tray rect").bounding_box()
        assert tray is not None and sorted(names) == sorted(p["id"] for p in unknown)
        for box in names.values():  # named in the tray, legibly; not labelled on the mat
            assert box["px"] >= 14 - 0.05 and box["label"] == 0
            assert tray["x"] <= box["left"] and box["right"] <= tray["x"] + tray["width"]
            assert tray["y"] <= box["top"] and box["bottom"] <= tray["y"] + tray["height"]
        moved = unknown[0]["id"]
        page.click(f"#mat svg g.piece[data-piece='{moved}']")
        assert "place unknown" in page.inner_text("#piece-facts")
        shot(page, "asked-tray", full_page=True)
        drag(page, view, moved, (8.0, 42.0))  # onto rune 4, where the players say it stands
        after = settled(page, url)
        reported = next(p for p in after["pieces"] if p["id"] == moved)
        assert reported["measured"] and (reported["x"], reported["y"]) == (8.0, 42.0)
        assert page.locator(f"#mat svg g.piece[data-piece='{moved}'][data-tray]").count() == 0
        assert api(url, "api/state")["pieces"][moved]["at"] == [8.0, 42.0]
        assert FAILURES[id(page)] == []
