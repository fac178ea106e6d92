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
