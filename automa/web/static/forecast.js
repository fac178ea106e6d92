// The forecast, a spoiler shown only when asked for: the coming AI turn played over and over
// from the battle as it stands (GET /api/forecast: until every chance is known within +-2
// points, at most 10,000 turns), and for each hero its chance to be targeted, its expected
// damage and its chance to die, each with its 95 % interval, and how many turns it took. While
// the server works, "Working... N %" (the turns played of the most it would play, from
// /api/forecast/progress). Asked again when the battle moves on; the server keeps one forecast
// a battle version, so switching it off and on is immediate. Off by default; the switch is
// remembered in this browser (localStorage). Plain JavaScript; every string from the session
// goes in as textContent.
"use strict";

(() => {
  const KEY = "automa.forecast"; // "on" or "off"
  const PROGRESS_MS = 300;
  let on = false;
  let latest = null; // the latest view
  let shown = null; // the forecast drawn, with its version
  let asked = null; // the version a request is out for

  function remembered() {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }

  function remember(value) {
    try { localStorage.setItem(KEY, value ? "on" : "off"); } catch (e) { /* this page only */ }
  }

  function node(tag, text, cls) {
    const n = document.createElement(tag);
    if (text !== undefined && text !== null) n.textContent = String(text);
    if (cls) n.className = cls;
    return n;
  }

  const number = (share) => (100 * share).toFixed(share > 0 && share < 0.1 ? 1 : 0);
  const percent = (share) => `${number(share)} %`;
  const health = (value) => value.toFixed(2);
  // an interval in the figure's own unit, said once: "23–27 %", "1.30–1.38"
  const span = (pair, as) => as === percent ? `${number(pair[0])}–${number(pair[1])} %` :
    `${as(pair[0])}–${as(pair[1])}`;

  function table(found) {
    const t = node("table", null, "forecast-table");
    const caption = `The coming AI turn, ${found.n.toLocaleString("en")} simulated turns` +
      (found.precise ? ` (every chance within ±${100 * found.precision} points)` :
        ` (the cap: the chances are not yet within ±${100 * found.precision} points)`);
    t.appendChild(node("caption", caption));
    const head = node("tr");
    for (const words of ["hero", "targeted", "damage", "dies"]) head.appendChild(node("th", words));
    t.appendChild(node("thead")).appendChild(head);
    const body = t.appendChild(node("tbody"));
    for (const [hero, f] of Object.entries(found.heroes)) {
      const tr = node("tr");
      tr.dataset.hero = hero;
      tr.appendChild(node("th", hero, "forecast-hero"));
      for (const [value, pair, as, what] of [
        [f.targeted, f.targeted_ci95, percent, "targeted"],
        [f.expected_damage, f.expected_damage_ci95, health, "damage"],
        [f.death, f.death_ci95, percent, "death"]]) {
        const td = node("td", null, `forecast-${what}`);
        td.appendChild(node("span", as(value), "forecast-value"));
        td.appendChild(node("span", ` ${span(pair, as)}`, "forecast-interval"));
        td.title = `95 % interval ${span(pair, as)}`;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    return t;
  }

  function draw() {
    const box = document.getElementById("forecast-body");
    box.hidden = !on || !shown;
    box.replaceChildren();
    if (!on || !shown) return;
    box.dataset.version = shown.version;
    box.appendChild(table(shown));
    box.appendChild(node("p", "Brackets: the 95 % interval. Damage: health lost on average " +
      "(a death loses all it had).", "forecast-note"));
  }

  function working(version) {
    const line = document.getElementById("forecast-progress");
    const say = (fraction) => {
      if (asked !== version || !on) return;
      line.hidden = false;
      line.textContent = `Working... ${Math.round(100 * fraction)} %`;
    };
    say(0);
    let done = false;
    const timer = setInterval(async () => {
      try {
        const now = await window.automaBoard.getJSON("/api/forecast/progress");
        if (!done && now.working) say(now.fraction);
      } catch (e) { /* the forecast's own answer says what went wrong */ }
    }, PROGRESS_MS);
    return () => {
      done = true;
      clearInterval(timer);
      if (asked === version || asked === null) line.hidden = true; // no newer one is out
    };
  }

  async function ask() {
    if (!on || !latest || !latest.version || latest.battle === false) return; // between rooms
    const version = latest.version;
    if ((shown && shown.version === version) || asked === version) return;
    asked = version;
    if (shown && shown.version !== version) { shown = null; draw(); } // never an old forecast
    const stop = working(version);
    try {
      const found = await window.automaBoard.getJSON("/api/forecast");
      if (asked === version) { shown = found; draw(); }
    } catch (err) {
      window.automaBoard.say(err.message);
    } finally {
      if (asked === version) asked = null;
      stop();
    }
    if (on && latest && latest.version !== version && asked === null) ask(); // moved on meanwhile
  }

  function setOn(value) {
    on = value;
    const button = document.getElementById("forecast-switch");
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "Hide the forecast" : "Show the forecast (spoiler)";
    if (!on) document.getElementById("forecast-progress").hidden = true;
    draw();
    ask();
  }

  document.addEventListener("board:view", (event) => { latest = event.detail; if (on) ask(); });
  document.addEventListener("DOMContentLoaded", () => {
    document.getElementById("forecast-switch").addEventListener("click", () => {
      remember(!on);
      setOn(!on);
    });
    setOn(remembered());
  });
})();
