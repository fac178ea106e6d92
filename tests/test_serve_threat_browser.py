"""The threat map on the live board in a real browser (issue 14): a hero's Threat toggle shades
one square per cell `/api/threat` gives, under the pieces; a report by the CLI while it is on
redraws it for the new battle; the same toggle takes it away."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from tests import test_serve_browser as shown
from tests.test_serve_browser import (
    FAILURES,
    api,
    environment,
    new_session,
    open_page,
    press_next,
    serving,
    settled,
)

pytestmark = shown.pytestmark  # skipped where Debian's chromium is missing


def play(folder: Path, line: str, cwd: Path) -> None:
    """A line typed at `automa play` in a terminal beside the board."""
    done = subprocess.run([sys.executable, "-m", "automa", "play", "--session", str(folder)],
                          input=f"{line}\nquit\n", capture_output=True, text=True, timeout=120,
                          cwd=cwd, env=environment(None))
    assert done.returncode == 0, done.stderr


def squares(page: Page) -> dict[str, Any]:
    return page.evaluate("""() => {
        const g = document.querySelector('#mat svg #threat');
        if (!g) return null;
        const pieces = [...g.parentNode.children].filter((n) => n.matches('g.piece'));
        const after = pieces.every((p) => g.compareDocumentPosition(p) & 4);
        return {count: g.querySelectorAll('rect.threat-square').length,
                version: g.dataset.version, hero: g.dataset.hero,
                display: g.getAttribute('display'),
                under_pieces: pieces.length > 0 && after,
                bands: [...g.querySelectorAll('rect.threat-square')]
                        .map((r) => Number(r.dataset.band))};
    }""")


def drawn_for(page: Page, version: str) -> dict[str, Any]:
    page.wait_for_function(
        "v => { const g = document.querySelector('#mat svg #threat');"
        " return g && g.dataset.version === v; }", arg=version, timeout=15000)
    found = squares(page)
    assert found is not None
    return found


def test_the_threat_toggle_draws_redraws_and_hides_the_map(browser: Browser,
                                                          tmp_path: Path) -> None:
    folder = new_session(tmp_path, "threat")
    with serving(folder, tmp_path) as url:
        page = open_page(browser, url)
        view = settled(page, url)
        assert squares(page) is None
        assert page.locator("#threat-panel").is_hidden()

        page.click("#piece-table button.threat-toggle[data-hero=elf]")
        expected = api(url, "api/threat?hero=elf")
        assert expected["version"] == view["version"]
        found = drawn_for(page, view["version"])
        assert found["count"] == len(expected["cells"]) > 0
        assert found["hero"] == "elf" and found["display"] == "inline"
        assert found["under_pieces"]
        assert found["bands"] == [c["band"] for c in expected["cells"]]
        assert page.get_attribute("#piece-table button[data-hero=elf]", "aria-pressed") == "true"
        assert page.locator("#threat-panel").is_visible()
        assert page.locator("#threat-legend rect").count() == len(expected["legend"])

        play(folder, "damage elf 2", tmp_path)
        after_damage = settled(page, url)
        assert after_damage["version"] != view["version"]
        found = drawn_for(page, after_damage["version"])
        assert found["count"] == len(api(url, "api/threat?hero=elf")["cells"])
        before_move = found["bands"]

        play(folder, "move rat-1 20,60", tmp_path)
        moved = settled(page, url)
        assert moved["version"] != after_damage["version"]
        found = drawn_for(page, moved["version"])
        again = api(url, "api/threat?hero=elf")
        assert again["version"] == moved["version"]
        assert found["count"] == len(again["cells"])
        assert found["bands"] == [c["band"] for c in again["cells"]] != before_move

        page.click("#piece-table button.threat-toggle[data-hero=elf]")
        page.wait_for_function("() => !document.querySelector('#mat svg #threat')")
        assert page.locator("#threat-panel").is_hidden()
        assert page.get_attribute("#piece-table button[data-hero=elf]", "aria-pressed") == "false"
        assert FAILURES[id(page)] == []


def test_the_map_steps_aside_while_an_activations_steps_appear(browser: Browser,
                                                              tmp_path: Path) -> None:
    """The map is of the battle after the activation; while its steps still appear the pieces
    stand where the steps put them, so the map is hidden until the last step shows."""
    folder = new_session(tmp_path, "threat-next")
    with serving(folder, tmp_path) as url:
        page = open_page(browser, url)
        settled(page, url)
        page.click("#piece-table button.threat-toggle[data-hero=wizard]")
        with page.expect_response("**/api/done"):
            page.click("#done")
        view = settled(page, url)
        drawn_for(page, view["version"])
        page.evaluate("""() => {  // every change of the mat while steps appear
            window.shownDuringSteps = [];
            window.seenDuringSteps = 0;
            new MutationObserver(() => {
                const g = document.querySelector('#mat svg #threat');
                const revealing = document.querySelector('#steps').dataset.complete === 'false';
                if (g && revealing) window.seenDuringSteps += 1;
                if (g && revealing && g.getAttribute('display') !== 'none')
                    window.shownDuringSteps.push(g.dataset.version);
            }).observe(document.body, {subtree: true, childList: true, attributes: true});
        }""")
        activation = press_next(page)
        assert len(activation["steps"]) >= 2, activation
        after = settled(page, url)
        found = drawn_for(page, after["version"])
        assert found["display"] == "inline" and found["hero"] == "wizard"
        assert found["count"] == len(api(url, "api/threat?hero=wizard")["cells"])
        assert page.evaluate("window.shownDuringSteps") == []
        assert page.evaluate("window.seenDuringSteps") > 0  # the map came while steps appeared
        assert FAILURES[id(page)] == []


def test_a_phone_gets_the_map_in_two_centimetre_squares(browser: Browser,
                                                         tmp_path: Path) -> None:
    """On a narrow screen the map asks 2 cm squares: a quarter of the cells over wifi."""
    folder = new_session(tmp_path, "phone-threat")
    with serving(folder, tmp_path) as url:
        page = open_page(browser, url, phone=True)
        view = settled(page, url)
        page.click("#piece-table button.threat-toggle[data-hero=elf]")
        found = drawn_for(page, view["version"])
        coarse = api(url, "api/threat?hero=elf&step=2")
        assert found["count"] == len(coarse["cells"]) > 0
        assert len(coarse["cells"]) < len(api(url, "api/threat?hero=elf")["cells"]) / 3
        assert FAILURES[id(page)] == []
