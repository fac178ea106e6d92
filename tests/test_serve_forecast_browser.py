"""The board's long work in a real browser (issue 30): while a threat map or the forecast is
worked out the page says "Working... N %" (the progress endpoints' share), then shows the
result; the forecast is a spoiler, off until asked for, and shows each hero's chances with
their intervals as /api/forecast gives them. The answer of each long request is held back by
the browser until the test has seen the progress (no timing), and the progress endpoint's
answer is the server's own or, to see a share move, a fixed one."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Route

from tests import test_serve_browser as shown
from tests.test_serve_browser import (
    FAILURES,
    PHONE,
    VIEWPORT,
    api,
    new_session,
    serving,
    settled,
    shot,
    watched,
)
from tests.test_serve_threat_browser import drawn_for, play

pytestmark = shown.pytestmark  # skipped where Debian's chromium is missing


def held(page: Page, pattern: str) -> list[Route]:
    """Requests to `pattern` (a regular expression) held in the browser, unanswered, until
    the test lets each go on (`route.continue_()`)."""
    routes: list[Route] = []
    page.route(re.compile(pattern), lambda route: routes.append(route))
    return routes


def progress_at(page: Page, pattern: str, body: dict[str, Any]) -> Callable[[], None]:
    """The progress endpoint answers `body` for a while; the returned call lets the server
    answer again."""
    def answer(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(re.compile(pattern), answer)
    return lambda: page.unroute(re.compile(pattern), answer)


def let_go(page: Page, routes: list[Route], pattern: str) -> None:
    """The held requests go on, and later ones are no longer held."""
    assert routes, "the page asked nothing"
    for route in routes:
        route.continue_()
    page.unroute(re.compile(pattern))


def forecast_rows(page: Page) -> dict[str, list[str]]:
    return page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#forecast-body tbody tr')].map((tr) => [tr.dataset.hero,
          [...tr.querySelectorAll('td .forecast-value')].map((s) => s.textContent)]))""")


def test_the_threat_map_and_the_forecast_show_progress_then_the_result(
        browser: Browser, tmp_path: Path) -> None:
    folder = new_session(tmp_path, "forecast")
    with serving(folder, tmp_path) as url:
        page = watched(browser, url, VIEWPORT)
        page.wait_for_selector("#mat svg g.piece")
        view = settled(page, url)

        # the threat map: "Working... 0 %" at once, the server's share as it comes, the map
        threat = held(page, r"/api/threat\?")
        page.click("#piece-table button.threat-toggle[data-hero=elf]")
        page.wait_for_selector("#threat-progress:not([hidden])")
        assert page.inner_text("#threat-progress") == "Working... 0 %"
        release = progress_at(page, r"/api/threat/progress$",
                              {"working": True, "done": 6, "of": 12, "fraction": 0.5})
        page.wait_for_function(
            "() => document.querySelector('#threat-progress').textContent === 'Working... 50 %'")
        assert page.locator("#mat svg #threat").count() == 0  # no map before its answer
        shot(page, "threat-working")
        release()
        let_go(page, threat, r"/api/threat\?")
        found = drawn_for(page, view["version"])
        assert found["count"] == len(api(url, "api/threat?hero=elf")["cells"]) > 0
        page.wait_for_selector("#threat-progress", state="hidden")

        # the forecast: off by default, a spoiler; on, progress then each hero's figures
        button = page.locator("#forecast-switch")
        assert button.inner_text() == "Show the forecast (spoiler)"
        assert button.get_attribute("aria-pressed") == "false"
        assert page.locator("#forecast-body").is_hidden()
        forecast = held(page, r"/api/forecast$")
        button.click()
        page.wait_for_selector("#forecast-progress:not([hidden])")
        assert page.inner_text("#forecast-progress") == "Working... 0 %"
        release = progress_at(page, r"/api/forecast/progress$",
                              {"working": True, "turns": 2500, "cap": 10000, "fraction": 0.25})
        page.wait_for_function("() => document.querySelector('#forecast-progress')"
                               ".textContent === 'Working... 25 %'")
        page.locator("#forecast").scroll_into_view_if_needed()
        shot(page, "forecast-working")
        release()
        let_go(page, forecast, r"/api/forecast$")
        page.wait_for_selector("#forecast-body table.forecast-table", timeout=60000)
        page.wait_for_selector("#forecast-progress", state="hidden")
        figures = api(url, "api/forecast")  # the kept one: at once
        assert figures["version"] == view["version"]
        rows = forecast_rows(page)
        assert sorted(rows) == sorted(figures["heroes"])
        for hero, values in rows.items():
            f = figures["heroes"][hero]
            assert values[1] == f"{f['expected_damage']:.2f}"
            assert values[0].endswith(" %") and values[2].endswith(" %")
        caption = page.inner_text("#forecast-body caption")
        assert f"{figures['n']:,} simulated turns" in caption and "±2 points" in caption
        assert button.get_attribute("aria-pressed") == "true"
        shot(page, "forecast-laptop")

        # off and on again: the kept forecast, shown without asking the server
        button.click()
        assert page.locator("#forecast-body").is_hidden()
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if "/api/forecast" in r.url else None)
        button.click()
        page.wait_for_selector("#forecast-body table.forecast-table")
        assert asked == []

        # the battle moves on: the old figures go, the new ones come
        play(folder, "damage elf 3", tmp_path)
        moved = settled(page, url)
        page.wait_for_function("v => document.querySelector('#forecast-body')"
                               ".dataset.version === v", arg=moved["version"], timeout=60000)
        assert forecast_rows(page) and FAILURES[id(page)] == []


def test_the_forecast_on_a_phone(browser: Browser, tmp_path: Path) -> None:
    """The panel on a narrow screen: the figures fit, the switch is a touch target."""
    folder = new_session(tmp_path, "phone-forecast")
    with serving(folder, tmp_path) as url:
        page = watched(browser, url, PHONE, phone=True)
        page.wait_for_selector("#mat svg g.piece")
        settled(page, url)
        page.locator("#forecast-switch").scroll_into_view_if_needed()
        page.tap("#forecast-switch")
        page.wait_for_selector("#forecast-body table.forecast-table", timeout=60000)
        box = page.locator("#forecast-switch").bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
        table = page.locator("#forecast-body table").bounding_box()
        assert table is not None and table["x"] >= 0 and table["x"] + table["width"] <= PHONE[
            "width"]
        page.locator("#forecast").scroll_into_view_if_needed()
        shot(page, "forecast-phone", mat=False)
        assert FAILURES[id(page)] == []
