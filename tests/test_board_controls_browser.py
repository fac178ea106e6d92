"""The board's buttons for the heroes' reports and its odds (issue 28, points 5 and 8), in Debian's
headless Chromium driven by Playwright: a hero's hit made with buttons only (the pieces struck,
the shot and its modifier, the hero, the Poison card and the Portal Trap's D12s of physical
dice), damage and heal by tapping a piece, the odds switch (off by default, remembered) with
each bag's numbers against the state, and the obstacle that blocked the last activation's sight
outlined on the mat. Every button is a touch target of at least 44 CSS px, on a laptop and on a
phone. With AUTOMA_SHOTS=FOLDER set, screenshots of each layout are saved there to be looked
at."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from tests import test_serve_browser as shown
from tests.test_serve_browser import (
    FAILURES,
    LAPTOP,
    PHONE,
    SMALL_LAPTOP,
    api,
    new_session,
    piece,
    serving,
    settled,
    shot,
    watched,
)

pytestmark = shown.pytestmark  # skipped where Debian's chromium is missing
TOUCH_PX = 44  # the least width and height of a touch target, CSS px


def open_board(browser: Browser, url: str, viewport: dict[str, int]) -> Page:
    page = watched(browser, url, viewport, phone=viewport["width"] < 600)
    page.wait_for_selector("#mat svg g.piece")
    page.wait_for_selector("#hit-buttons button[data-shot]", state="attached")
    return page


def tap(page: Page, pid: str) -> None:
    """A tap (press and release without moving) on a piece's disc."""
    disc = page.locator(f"#mat g.piece[data-piece='{pid}'] circle").first
    disc.scroll_into_view_if_needed()
    box = disc.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector(f"#tap-menu[data-piece='{pid}']:not([hidden])")


SMALL_BUTTONS = """([css, least]) => [...document.querySelectorAll(css)]
  .filter((b) => b.offsetParent !== null)
  .map((b) => [b.textContent, b.getBoundingClientRect().width, b.getBoundingClientRect().height])
  .filter(([, w, h]) => w < least || h < least)"""


def small_buttons(page: Page, css: str) -> list[Any]:
    """The buttons shown under `css` smaller than a touch target; and that there are some."""
    assert page.locator(css).count() > 0, css
    found: list[Any] = page.evaluate(SMALL_BUTTONS, [css, TOUCH_PX])
    return found


def test_a_hit_with_buttons_only_and_physical_dice(browser: Browser, tmp_path: Path) -> None:
    """melee+poison by the Barbarian on the Centaur (1 damage and the Poison card's value, by
    the rules) with the card given by a button; then the Portal Trap on both rats, a D12 each
    by buttons, after going Back over one answer."""
    folder = new_session(tmp_path, "physical", "--dice", "physical")
    with serving(folder, tmp_path) as url:
        page = open_board(browser, url, LAPTOP)
        view = settled(page, url)
        assert page.locator("#hit-go").is_disabled()  # nothing chosen yet
        centaur = piece(view, "centaur-1")["health"]
        tap(page, "centaur-1")  # a piece tapped on the mat: "struck by the hit" in its menu
        page.click("#tap-menu button[data-menu-target='centaur-1']")
        page.keyboard.press("Escape")
        assert page.locator("#tap-menu").is_hidden()
        assert page.get_attribute("#hit-buttons button[data-target='centaur-1']",
                                  "aria-pressed") == "true"
        page.click("#hit-buttons button[data-shot=melee]")
        page.click("#hit-buttons button[data-modifier=poison]")
        page.click("#hit-buttons button[data-by=barbarian]")
        assert page.inner_text("#hit-line") == "hit centaur-1 melee+poison by barbarian"
        with page.expect_response("**/api/hit-questions"):
            page.click("#hit-go")
        assert "Poison card" in page.inner_text("#hit-prompt")
        assert page.locator("#hit-question button[data-die]").count() == 9
        shot(page, "hit-poison-card-laptop")
        assert small_buttons(page, "#hit-buttons button") == []
        card = 2
        with page.expect_response("**/api/hit") as answer:
            page.click(f"#hit-question button[data-die='{card}']")
        assert answer.value.ok, answer.value.text()
        view = settled(page, url)
        logged = view["log"][-1]["text"]
        assert logged == "hit centaur-1 melee+poison by barbarian", logged
        expected = centaur - (1 + card)  # melee 1, and the Poison card's value
        if expected > 0:
            assert piece(view, "centaur-1")["health"] == expected
        else:
            assert "centaur-1" not in {p["id"] for p in view["pieces"]}
        # the panel is cleared for the next hit; the hero stays chosen
        assert page.get_attribute("#hit-buttons button[data-shot=melee]", "aria-pressed") == \
            "false"
        assert page.get_attribute("#hit-buttons button[data-by=barbarian]", "aria-pressed") == \
            "true"

        page.click("#hit-buttons button[data-target=rat-1]")
        page.click("#hit-buttons button[data-target=rat-2]")
        page.click("#hit-buttons button[data-shot=portal-trap]")
        page.click("#hit-buttons button[data-by=wizard]")
        page.click("#hit-go")
        page.wait_for_selector("#hit-prompt")
        assert "rat-1" in page.inner_text("#hit-prompt")
        assert page.locator("#hit-question button[data-die]").count() == 12
        page.click("#hit-question button[data-die='7']")
        assert "rat-2" in page.inner_text("#hit-prompt")
        page.click("#hit-back")  # the D12 for rat-1 again
        assert "rat-1" in page.inner_text("#hit-prompt")
        page.click("#hit-question button[data-die='4']")
        shot(page, "hit-portal-d12-laptop")
        with page.expect_response("**/api/hit") as answer:
            page.click("#hit-question button[data-die='12']")
        assert answer.value.ok, answer.value.text()
        view = settled(page, url)
        assert view["log"][-1]["text"] == "hit rat-1, rat-2 portal-trap by wizard"
        record = json.loads((folder / "log.jsonl").read_text().splitlines()[-1])
        assert (record["type"], record["portal"]) == ("hit", [4, 12])
        # D12 4 and 12: no damage to either (the Portal Trap's table)
        assert [piece(view, r)["health"] for r in ("rat-1", "rat-2")] == [1, 1]
        assert FAILURES[id(page)] == []


def test_damage_and_heal_by_tapping_a_piece(browser: Browser, tmp_path: Path) -> None:
    folder = new_session(tmp_path, "taps")
    with serving(folder, tmp_path) as url:
        for viewport, name in ((LAPTOP, "laptop"), (SMALL_LAPTOP, "tablet"), (PHONE, "phone")):
            page = open_board(browser, url, viewport)
            view = settled(page, url)
            assert small_buttons(page, "#hit-buttons button") == [], name
            page.locator("#hit").scroll_into_view_if_needed()
            shot(page, f"hit-panel-{name}")
            elf = piece(view, "elf")["health"]
            tap(page, "elf")
            shot(page, f"tap-menu-{name}")
            assert small_buttons(page, "#tap-menu button") == [], name
            menu = page.locator("#tap-menu").bounding_box()
            assert menu is not None and menu["x"] >= 0 and menu["y"] >= 0
            assert menu["x"] + menu["width"] <= viewport["width"]  # inside the window
            assert menu["y"] + menu["height"] <= viewport["height"]
            with page.expect_response("**/api/damage"):
                page.click("#tap-menu button[data-damage='2']")
            view = settled(page, url)
            assert piece(view, "elf")["health"] == elf - 2
            assert f"{elf - 2}/" in page.inner_text("#tap-menu .tap-health")  # still open
            with page.expect_response("**/api/heal"):
                page.click("#tap-menu button[data-heal='1']")
            view = settled(page, url)
            assert piece(view, "elf")["health"] == elf - 1
            page.click("#tap-menu .tap-close")
            assert page.locator("#tap-menu").is_hidden()
            page.context.close()
        # a monster's damage said to be dealt by a hero (`damage rat-2 1 by elf`)
        page = open_board(browser, url, LAPTOP)
        settled(page, url)
        tap(page, "rat-2")
        page.click("#tap-menu button[data-menu-by=elf]")
        with page.expect_response("**/api/damage"):
            page.click("#tap-menu button[data-damage='1']")
        view = settled(page, url)
        assert "rat-2" not in {p["id"] for p in view["pieces"]}  # 1 health: dead
        record = json.loads((folder / "log.jsonl").read_text().splitlines()[-1])
        assert (record["type"], record["piece"], record["amount"], record["by"]) == \
            ("damage", "rat-2", 1, "elf")
        assert page.locator("#tap-menu").is_hidden()  # its piece left play
        assert FAILURES[id(page)] == []


ODDS_TABLE = """() => Object.fromEntries([...document.querySelectorAll('#odds-body table')].map(
  (t) => [t.dataset.level, Object.fromEntries([...t.querySelectorAll('tbody tr')].map(
    (r) => [r.dataset.face, [r.querySelector('.odds-fraction').textContent,
                             r.querySelector('.odds-percent').textContent]]))]))"""

BLOCKERS = """() => [...document.querySelectorAll('#overlays g.blocker')].map(
  (g) => [g.dataset.obstacle, g.dataset.hides, getComputedStyle(g).display,
          g.getBoundingClientRect().width])"""


def test_the_odds_switch(browser: Browser, tmp_path: Path) -> None:
    """Off by default; on, each bag's tokens left and each face's chance as the state's bags
    make them, and the obstacles that hid a piece from the last actor outlined on the mat;
    remembered over a reload; off again, all of it hidden."""
    folder = new_session(tmp_path, "odds")
    with serving(folder, tmp_path) as url:
        page = open_board(browser, url, LAPTOP)
        settled(page, url)
        with page.expect_response("**/api/done"):
            page.click("#done")
        view = settled(page, url)
        while not any(s["blockers"] for s in view["sight"]) or not any(
                b["discard"] for b in view["bags"].values()):  # a blocked look, a token spent
            with page.expect_response("**/api/next"):
                page.keyboard.press("n")
            view = settled(page, url)
            assert view["last"] is not None
        assert page.get_attribute("#odds-switch", "aria-pressed") == "false"
        assert page.locator("#odds-body").is_hidden()
        blockers = page.evaluate(BLOCKERS)
        assert blockers and all(display == "none" for _, _, display, _ in blockers)

        page.click("#odds-switch")
        assert page.get_attribute("#odds-switch", "aria-pressed") == "true"
        check_odds(page, api(url))
        check_blockers(page, api(url))
        shot(page, "odds-on-laptop")

        page.reload()  # remembered in this browser
        page.wait_for_selector("#odds-body table")
        assert page.get_attribute("#odds-switch", "aria-pressed") == "true"
        view = settled(page, url)
        check_odds(page, view)
        check_blockers(page, view)
        assert small_buttons(page, "#odds-switch") == []

        page.click("#odds-switch")
        assert page.locator("#odds-body").is_hidden()
        assert all(display == "none" for _, _, display, _ in page.evaluate(BLOCKERS))
        assert FAILURES[id(page)] == []


def check_odds(page: Page, view: dict[str, Any]) -> None:
    """Each level's faces as counts of the tokens the session's bag holds (the view's `bags`,
    the battle state's bags as listed), out of them all."""
    shown = page.evaluate(ODDS_TABLE)
    bags = view["bags"]
    assert set(shown) == set(bags)
    for level, bag in bags.items():
        left = Counter(bag["left"])
        total = sum(left.values())
        assert shown[level] == {face: [f"{count}/{total}", f"{100 * count / total:.1f} %"]
                                for face, count in left.items()}, level


def check_blockers(page: Page, view: dict[str, Any]) -> None:
    """Each obstacle the engine found on a blocked line of the last look is outlined, shown,
    saying whom it hid; no other obstacle is."""
    hidden_by: dict[str, set[str]] = {}
    for sighting in view["sight"]:
        for obstacle in sighting["blockers"]:
            hidden_by.setdefault(obstacle, set()).add(sighting["target"])
    drawn = page.evaluate(BLOCKERS)
    assert {o: set(hides.split()) for o, hides, _, _ in drawn} == hidden_by
    assert all(display != "none" and width > 0 for _, _, display, width in drawn), drawn
    for sighting in view["sight"]:
        words = page.inner_text(f"#odds-sight li[data-target='{sighting['target']}']")
        assert ("does not see" in words) != sighting["visible"], words
        assert all(obstacle in words for obstacle in sighting["blockers"]), words


def test_a_watching_page_offers_no_hit_and_no_tap_menu(browser: Browser, tmp_path: Path) -> None:
    """A page that only watches (?watch, or another machine) shows neither the hit's buttons
    nor a tapped piece's menu: it cannot write. The odds, read-only, it may show."""
    folder = new_session(tmp_path, "watching")
    with serving(folder, tmp_path) as url:
        page = open_board(browser, url + "?watch", LAPTOP)
        settled(page, url)
        page.wait_for_selector("body[data-readonly]", state="attached")
        assert page.locator("#hit").is_hidden()
        disc = page.locator("#mat g.piece[data-piece='elf'] circle").first
        box = disc.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(300)
        assert page.locator("#tap-menu:not([hidden])").count() == 0
        page.click("#odds-switch")
        page.wait_for_selector("#odds-body table")
        check_odds(page, api(url))
        assert FAILURES[id(page)] == []
