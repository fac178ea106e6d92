"""The board as the table's main screen (issue 28, points 1-4), measured in the DOM of Debian's
headless Chromium: at 1280x800 and 1024x768 the mat takes at least 60 % of the window's height
and the page does not scroll; the legend and the panels fold away and stay folded on that
device; a disc's health and every label are drawn at 14 CSS px at least while the discs keep
true scale; every condition has its badge, a shape as well as a colour; the acting monster's
card and the turn order say who acts, with which sequence, at whom and why; with physical dice
the question names the actor and its target before the first draw and the mat rings them; a
phone shows the card, the question and the order first with 44 px touch targets, a large-type
switch, and the screen kept awake while the battle is live."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests import test_serve_browser as shown
from tests.test_serve_browser import (
    FAILURES,
    LAPTOP,
    PHONE,
    SMALL_LAPTOP,
    api,
    check_centres,
    new_session,
    press_next,
    serving,
    settled,
    shot,
    watched,
)

pytestmark = shown.pytestmark  # skipped where Debian's chromium is missing

TABLE_SCREENS = [LAPTOP, SMALL_LAPTOP]
MIN_TEXT = 14.0  # CSS px: a disc's health and a piece's label, at the least
LARGE_TEXT = 20.0  # the same with Large type on
TOUCH = 44.0  # CSS px: the least side of a touch target on a phone
MAT_SHARE = 0.6  # of the window's height, at the least, on a table's screen
EPSILON = 0.05  # px: rounding of the drawn sizes

def open_at(browser: Browser, url: str, viewport: dict[str, int], phone: bool = False,
            script: str | None = None) -> Page:
    """A fresh context (its own storage: another device) at `viewport`, on the board."""
    page = watched(browser, url, viewport, phone=phone, script=script)
    page.wait_for_selector("#mat svg g.piece")
    return page


def post(url: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url + path, json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


LAYOUT = """() => {
  const svg = document.querySelector('#mat svg');
  const k = svg.getScreenCTM().a;
  const px = (t) => parseFloat(getComputedStyle(t).fontSize) * k;
  const box = (e) => { const b = e.getBoundingClientRect();
                       return [b.left, b.top, b.right, b.bottom]; };
  const mat = svg.querySelector('rect.mat').getBoundingClientRect();
  return {
    height: innerHeight, width: innerWidth,
    scroll: document.scrollingElement.scrollHeight,
    scrollWidth: document.scrollingElement.scrollWidth,
    mat: [mat.width, mat.height],
    health: Object.fromEntries([...svg.querySelectorAll('g.piece')].map(
      (g) => [g.dataset.piece, px(g.querySelector('text.health'))])),
    labels: [...svg.querySelectorAll('g.label')].map((g) => ({
      piece: g.dataset.for, px: px(g.querySelector('text')), box: box(g.querySelector('rect'))})),
    legend: [...svg.querySelectorAll('g.legend')].map((g) => g.getAttribute('display')),
  };
}"""


def layout(page: Page) -> dict[str, Any]:
    page.wait_for_timeout(150)  # a resize or a switch: the text is sized again on the next frame
    found: dict[str, Any] = page.evaluate(LAYOUT)
    return found


def overlapping(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - EPSILON and b[0] < a[2] - EPSILON and a[1] < b[3] - EPSILON \
        and b[1] < a[3] - EPSILON


def check_table_screen(page: Page, view: dict[str, Any], least: float = MIN_TEXT) -> None:
    """The mat fills the height without a scroll; every disc's health and every label at
    `least` CSS px, the labels clear of each other; the discs where the model has them, at
    true scale."""
    drawn = layout(page)
    assert drawn["mat"][1] >= MAT_SHARE * drawn["height"], drawn["mat"]
    assert drawn["scroll"] <= drawn["height"], "the page scrolls"
    assert drawn["scrollWidth"] <= drawn["width"], "the page scrolls sideways"
    check_text(drawn, view, least)
    check_centres(page, view)


def check_text(drawn: dict[str, Any], view: dict[str, Any], least: float) -> None:
    ids = {p["id"] for p in view["pieces"]}
    assert set(drawn["health"]) == ids
    assert all(size >= least - EPSILON for size in drawn["health"].values()), drawn["health"]
    assert sorted(label["piece"] for label in drawn["labels"]) == sorted(ids)
    assert all(label["px"] >= least - EPSILON for label in drawn["labels"]), drawn["labels"]
    boxes = [label["box"] for label in drawn["labels"]]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not overlapping(a, b), (a, b)


def check_card(page: Page, view: dict[str, Any]) -> None:
    """The acting card shows the last activation's monster as the view has it, in large type;
    the turn strip who has acted, who is next and who is still to act."""
    last = view["last"]
    card = view["cards"][last["character"]]
    box = page.locator("#acting")
    assert box.get_attribute("data-piece") == last["character"]
    assert page.inner_text("#acting-name") == card["name"]
    facts = page.inner_text("#acting-facts")
    assert card["family"] in facts and f"level {card['level']}" in facts
    assert f"health {card['health']}/{card['max_health']}" in facts
    listed = page.locator("#acting-sequences li").all_inner_texts()
    assert [text.split("chosen: ")[-1] for text in listed[:len(card["sequences"])]] == \
        card["sequences"]
    chosen = page.locator("#acting-sequences li.chosen").all_inner_texts()
    assert [text.split("chosen: ")[-1] for text in chosen] == [" then ".join(last["sequence"])]
    target = next(p["name"] for p in view["pieces"] if p["id"] == last["target"])
    assert f"Target: {target}" in page.inner_text("#acting-target")
    assert last["reason"] in page.inner_text("#acting-target")
    step = page.inner_text("#acting-step")
    assert step.strip()
    sizes = page.evaluate("""() => ['#acting-name', '#acting-step', '#acting-target b'].map(
      (css) => parseFloat(getComputedStyle(document.querySelector(css)).fontSize))""")
    assert min(sizes) >= 20.0, sizes
    strip = page.evaluate("""() => [...document.querySelectorAll('#order li[data-piece]')].map(
      (li) => [li.className, li.dataset.piece, li.getAttribute('aria-label')])""")
    turn = view["turn"]
    assert [p for cls, p, _ in strip if cls == "done"] == turn["done"]
    assert [p for cls, p, _ in strip if cls == "next"] == [turn["next"]]
    assert [p for cls, p, _ in strip if cls == "pending"] == turn["pending"]
    assert all(piece in label for _, piece, label in strip)


NAMELESS = """() => {
  const shown = (e) => e.getClientRects().length > 0;
  const name = (e) => (e.getAttribute('aria-label') || e.textContent || '').trim();
  return [
    ...[...document.querySelectorAll('button')].filter(shown).filter((b) => !name(b))
      .map((b) => b.outerHTML),
    ...[...document.querySelectorAll('#mat g.piece')].filter((g) => g.getAttribute('role')
      !== 'button' || !name(g).includes(g.dataset.piece)).map((g) => g.dataset.piece),
  ];
}"""


@pytest.mark.parametrize("screen", TABLE_SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_mat_fills_a_table_screen(browser: Browser, tmp_path: Path,
                                      screen: dict[str, int]) -> None:
    folder = new_session(tmp_path, "table")
    with serving(folder, tmp_path) as url:
        page = open_at(browser, url, screen)
        view = settled(page, url)
        check_table_screen(page, view)
        assert layout(page)["legend"] and all(d == "none" for d in layout(page)["legend"])
        page.click("#done")
        page.wait_for_function("() => document.body.dataset.phase === 'ai'")
        for _ in range(2):
            press_next(page)
            view = settled(page, url)
        check_table_screen(page, view)
        check_card(page, view)
        assert page.evaluate(NAMELESS) == []
        shot(page, f"ai-turn-{screen['width']}x{screen['height']}")

        # the legend shown, then the panels folded: each stays so on this device
        page.click("#toggle-legend")
        assert all(d is None for d in layout(page)["legend"])
        check_table_screen(page, view)
        page.reload()
        page.wait_for_selector("#mat svg g.piece")
        view = settled(page, url)
        assert page.get_attribute("#toggle-legend", "aria-pressed") == "true"
        assert all(d is None for d in layout(page)["legend"])
        check_table_screen(page, view)
        page.click("#toggle-legend")
        assert all(d == "none" for d in layout(page)["legend"])
        assert page.locator("#side").is_visible()
        page.click("#toggle-panels")
        assert page.locator("#side").is_hidden()
        check_table_screen(page, view)
        page.reload()
        page.wait_for_selector("#mat svg g.piece")
        view = settled(page, url)
        assert page.locator("#side").is_hidden()
        assert page.get_attribute("#toggle-panels", "aria-pressed") == "false"
        check_table_screen(page, view)
        check_card(page, view)
        shot(page, f"panels-folded-{screen['width']}x{screen['height']}")
        page.click("#toggle-panels")
        assert page.locator("#side").is_visible()
        assert FAILURES[id(page)] == []


CONDITIONS = {"rat-1": "stunned", "rat-2": "frozen", "centaur-1": "teleported",
              "skeleton-1": "devoured", "wraith-1": "aloft", "barbarian": "ridden",
              "wizard": "riding"}

BADGES = """() => [...document.querySelectorAll('#mat g.badge')].map((b) => {
  const shape = b.querySelector('.badge-shape').getBoundingClientRect();
  return {piece: b.closest('g.piece').dataset.piece, condition: b.dataset.condition,
          shape: b.dataset.shape, element: b.querySelector('.badge-shape').tagName,
          fill: b.querySelector('.badge-shape').getAttribute('fill'),
          letter: b.querySelector('text').textContent, name: b.getAttribute('aria-label'),
          size: [shape.width, shape.height]};
})"""


def test_a_badge_for_every_condition_in_a_shape_of_its_own(browser: Browser,
                                                           tmp_path: Path) -> None:
    """Stunned, frozen, teleported, devoured, aloft, ridden, riding, and a hero's Poison cards
    with their count: one badge each on the piece, each in a shape no other condition has
    (told apart without colour), with a letter and an accessible name."""
    folder = new_session(tmp_path, "badges")
    with serving(folder, tmp_path) as url:
        for piece, condition in CONDITIONS.items():
            post(url, "api/condition", {"piece": piece, "condition": condition, "on": True})
        post(url, "api/command", {"line": "poison elf +2"})
        page = open_at(browser, url, TABLE_SCREENS[0])
        view = settled(page, url)
        poison = next(p["poison"] for p in view["pieces"] if p["id"] == "elf")
        assert poison == 3
        badges = page.evaluate(BADGES)
        by_piece = {b["piece"]: b for b in badges}
        assert len(badges) == len(CONDITIONS) + 1 == len(by_piece)
        for piece, condition in CONDITIONS.items():
            assert by_piece[piece]["condition"] == condition
            assert by_piece[piece]["name"] == condition
        elf = by_piece["elf"]
        assert (elf["condition"], elf["letter"], elf["name"]) == ("poisoned", "P3", "poisoned 3")
        shapes = {b["shape"] for b in badges if b["condition"] not in ("ridden", "riding")}
        assert len(shapes) == len(badges) - 2  # ridden and riding: one shape, R and r
        assert len({b["letter"][0] for b in badges}) == len(badges)
        assert all(min(b["size"]) >= MIN_TEXT for b in badges), badges
        check_table_screen(page, view)
        assert FAILURES[id(page)] == []


QUESTION_MAT = """() => {
  const svg = document.querySelector('#mat svg');
  const ringed = (css) => [...svg.querySelectorAll(css)].map((c) => c.closest('g.piece')
    .dataset.piece);
  return {acting: svg.dataset.acting, target: svg.dataset.target,
          actingRings: ringed('circle.acting-ring'), targetRings: ringed('circle.target-ring'),
          overlays: svg.querySelectorAll('#overlays > *').length,
          card: document.querySelector('#acting').dataset.piece,
          cardState: document.querySelector('#acting').dataset.state,
          now: [...document.querySelectorAll('#order li.now')].map((li) => li.dataset.piece)};
}"""


def answer_through(page: Page, first: dict[str, Any]) -> dict[str, Any]:
    """Answer every question by its first button until the activation is logged."""
    reply: dict[str, Any] = {"question": first}
    for _ in range(60):
        if "question" not in reply:
            return reply
        with page.expect_response("**/api/next") as answer:
            page.locator("#options button").first.click()
        reply = answer.value.json()
    raise AssertionError("more than 60 questions")


def test_with_physical_dice_the_target_is_named_before_any_draw(browser: Browser,
                                                                tmp_path: Path) -> None:
    """Physical dice: after one activation, Next asks for the next one's first draw. Before it
    is answered the question box names the piece acting and its target (and why), the mat
    rings that piece and its target and no longer draws the activation before, the card is
    that piece's and the strip says it acts now; the activation then logged is that piece's,
    at that target. A phone watching (?watch) shows the same piece, target and rings."""
    folder = new_session(tmp_path, "physical", "--dice", "physical")
    with serving(folder, tmp_path) as url:
        page = open_at(browser, url, TABLE_SCREENS[0])
        watcher = open_at(browser, url + "?watch", PHONE, phone=True)
        settled(page, url)
        page.click("#done")
        page.wait_for_function("() => document.body.dataset.phase === 'ai'")
        with page.expect_response("**/api/next") as answer:
            page.click("#next")
        before = answer_through(page, answer.value.json()["question"])
        settled(page, url)
        assert page.evaluate("() => document.querySelectorAll('#overlays > *').length") > 0
        for _ in range(5):  # up to the next activation that asks (a stunned one may not)
            with page.expect_response("**/api/next") as answer:
                page.click("#next")
            reply = answer.value.json()
            if "question" in reply:
                break
            before = reply
            settled(page, url)
        question = reply["question"]
        assert question["kind"] in ("number", "token")  # a draw: a die or a token
        assert question["actor"] != before["character"] and question["target"]
        page.wait_for_selector("#question:not([hidden])")
        assert page.is_disabled("#next")  # the question's buttons answer it, not a new Next
        named = page.inner_text("#question-actor")
        assert named.startswith(f"{question['actor_name']} acts — at {question['target_name']}")
        assert question["target_reason"] in named
        assert page.get_attribute("#question", "data-actor") == question["actor"]
        assert page.evaluate(QUESTION_MAT) == {
            "acting": question["actor"], "target": question["target"],
            "actingRings": [question["actor"]], "targetRings": [question["target"]],
            "overlays": 0, "card": question["actor"], "cardState": "asked",
            "now": [question["actor"]]}
        assert question["target_name"] in page.inner_text("#acting-target")
        assert page.inner_text("#acting-step") == question["prompt"]
        check_table_screen(page, api(url))
        shot(page, "asked-dice-1280x800")
        watcher.wait_for_function("a => document.querySelector('#mat svg').dataset.acting === a",
                                  arg=question["actor"], timeout=3000)
        shot(watcher, "asked-dice-watching-390x844", full_page=True)
        assert watcher.evaluate(QUESTION_MAT) == {
            "acting": question["actor"], "target": question["target"],
            "actingRings": [question["actor"]], "targetRings": [question["target"]],
            "overlays": 0, "card": question["actor"], "cardState": "asked",
            "now": [question["actor"]]}
        assert f"{question['actor_name']} acts — at {question['target_name']}" in \
            watcher.inner_text("#asked-elsewhere")
        logged = answer_through(page, question)
        assert (logged["character"], logged["target"]) == (question["actor"], question["target"])
        view = settled(page, url)
        check_card(page, view)
        watcher.wait_for_selector("#asked-elsewhere", state="hidden", timeout=3000)
        settled(watcher, url)
        assert watcher.get_attribute("#acting", "data-piece") == logged["character"]
        assert FAILURES[id(page)] == [] and FAILURES[id(watcher)] == []


TOUCH_TARGETS = """() => {
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const small = [];
  for (const e of document.querySelectorAll('button, select, summary, input')) {
    if (!shown(e)) continue;
    const target = e.type === 'checkbox' ? e.closest('label') || e : e;
    const b = target.getBoundingClientRect();
    const wide = e.tagName === 'BUTTON' || e.tagName === 'SUMMARY' ? b.width : 44;
    if (b.height < 44 - 0.05 || wide < 44 - 0.05) small.push([e.id || e.outerHTML.slice(0, 60),
                                                          b.width, b.height]);
  }
  return small;
}"""

ORDER = """() => ['#acting', '#question', '#turn', '#board', '#side'].map(
  (css) => document.querySelector(css).getBoundingClientRect().top)"""


def test_a_phone_shows_the_card_the_question_and_the_order_first(browser: Browser,
                                                                tmp_path: Path) -> None:
    """390x844, touch: the acting card, the question's buttons and the turn order come first,
    the mat beneath (zoomed by buttons, its text still at 14 px), the panels last; every
    control a 44 px touch target; Large type makes the mat's text 20 px and is remembered."""
    folder = new_session(tmp_path, "phone", "--dice", "physical")
    with serving(folder, tmp_path) as url:
        page = open_at(browser, url, PHONE, phone=True)
        settled(page, url)
        page.click("#done")
        page.wait_for_function("() => document.body.dataset.phase === 'ai'")
        with page.expect_response("**/api/next") as answer:
            page.click("#next")
        question = answer.value.json()["question"]
        page.wait_for_selector("#question:not([hidden])")
        tops = page.evaluate(ORDER)
        assert tops == sorted(tops), tops
        assert tops[2] < PHONE["height"], "the turn order is not on the first screen"
        assert page.get_attribute("#acting", "data-piece") == question["actor"]
        assert page.evaluate(TOUCH_TARGETS) == []
        view = api(url)
        check_text(layout(page), view, MIN_TEXT)
        check_centres(page, view)
        assert page.evaluate(NAMELESS) == []

        width = page.evaluate("() => document.querySelector('#mat svg')"
                              ".getBoundingClientRect().width")
        page.click("#zoom-in")
        zoomed = page.evaluate("() => document.querySelector('#mat svg')"
                               ".getBoundingClientRect().width")
        assert zoomed == pytest.approx(1.5 * width, rel=0.01)
        check_text(layout(page), view, MIN_TEXT)
        page.click("#zoom-fit")
        assert page.evaluate("() => document.querySelector('#mat svg')"
                             ".getBoundingClientRect().width") == pytest.approx(width, rel=0.01)

        page.click("#toggle-large")
        assert page.evaluate("() => document.body.hasAttribute('data-large')")
        check_text(layout(page), view, LARGE_TEXT)
        page.reload()
        page.wait_for_selector("#mat svg g.piece")
        settled(page, url)
        assert page.evaluate("() => document.body.hasAttribute('data-large')")
        check_text(layout(page), view, LARGE_TEXT)
        assert page.evaluate(TOUCH_TARGETS) == []
        shot(page, "large-type-390x844", full_page=True)
        assert FAILURES[id(page)] == []


FAKE_WAKE_LOCK = """
window.__wake = {requests: 0, held: []};
Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
  request: async (type) => {
    window.__wake.requests += 1;
    const held = new EventTarget();
    held.type = type;
    held.released = false;
    held.release = async () => {
      if (held.released) return;
      held.released = true;
      held.dispatchEvent(new Event('release'));
    };
    window.__wake.held.push(held);
    return held;
  }}});
let hidden = false;
Object.defineProperty(document, 'visibilityState', {configurable: true,
                                                    get: () => hidden ? 'hidden' : 'visible'});
window.__tab = (away) => {  // the tab hidden: the browser drops the lock; then shown again
  hidden = away;
  if (away) window.__wake.held.forEach((held) => held.release());
  document.dispatchEvent(new Event('visibilitychange'));
};
"""


def test_the_screen_stays_awake_while_the_battle_is_live(browser: Browser,
                                                         tmp_path: Path) -> None:
    """A Screen Wake Lock is taken once while the battle is live (not again at every poll),
    dropped by the browser when the tab is hidden, and taken again when it comes back; a
    browser without the API shows the board all the same."""
    folder = new_session(tmp_path, "awake")
    with serving(folder, tmp_path) as url:
        page = open_at(browser, url, TABLE_SCREENS[0], script=FAKE_WAKE_LOCK)
        settled(page, url)
        page.wait_for_function("() => document.body.dataset.wake === 'on'")
        page.wait_for_timeout(1200)  # two polls and more
        assert page.evaluate("() => window.__wake.requests") == 1
        page.evaluate("() => window.__tab(true)")
        page.wait_for_function("() => document.body.dataset.wake === 'released'")
        assert page.evaluate("() => window.__wake.requests") == 1  # not while hidden
        page.evaluate("() => window.__tab(false)")
        page.wait_for_function("() => document.body.dataset.wake === 'on'")
        assert page.evaluate("() => window.__wake.requests") == 2
        assert FAILURES[id(page)] == []
        plain = open_at(browser, url, TABLE_SCREENS[0], script="Object.defineProperty("
                        "navigator, 'wakeLock', {configurable: true, value: undefined});")
        settled(plain, url)
        plain.wait_for_function("() => document.body.dataset.wake === 'unsupported'")
        assert FAILURES[id(plain)] == []
