// The odds, a spoiler shown only when asked for: for each level's token bag, the tokens left
// and the chance of each face on the next draw (the view's `odds`, worked out by the server
// from the bags in the session's state), and the obstacles that blocked the last activation's
// sight, outlined on the mat (the server draws them as `g.blocker` in the overlay; the page
// shows them only while the odds are on) and named in words (the view's `sight`). Off by
// default; the switch is remembered in this browser (localStorage). Plain JavaScript; every
// string from the session goes in as textContent.
"use strict";

(() => {
  const KEY = "automa.odds"; // "on" or "off"
  let latest = null; // the latest view

  function remembered() {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }

  function remember(on) {
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* kept for this page */ }
  }

  let on = false;

  function node(tag, text, cls) {
    const n = document.createElement(tag);
    if (text !== undefined && text !== null) n.textContent = String(text);
    if (cls) n.className = cls;
    return n;
  }

  function setOn(value) {
    on = value;
    document.body.dataset.odds = on ? "on" : "off"; // board.css/controls.css show g.blocker
    const button = document.getElementById("odds-switch");
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "Hide the odds" : "Show the odds (spoiler)";
    draw(latest);
  }

  function bagTable(level, bag) {
    const table = node("table", null, "odds-bag");
    table.dataset.level = level;
    const caption = bag.faces.length === 0 ? `Level ${level}: no token left anywhere` :
      `Level ${level}: ${bag.left} token${bag.left === 1 ? "" : "s"} in the bag` +
      (bag.refilled ? " (empty: the discard pile goes back in before the next draw)" : "");
    table.appendChild(node("caption", caption));
    const head = node("tr");
    for (const words of ["face", "tokens", "chance", ""]) head.appendChild(node("th", words));
    table.appendChild(node("thead")).appendChild(head);
    const body = table.appendChild(node("tbody"));
    for (const face of bag.faces) {
      const tr = node("tr");
      tr.dataset.face = face.face;
      tr.appendChild(node("td", face.face, "odds-face"));
      tr.appendChild(node("td", `${face.count}/${face.of}`, "odds-fraction"));
      tr.appendChild(node("td", `${face.percent.toFixed(1)} %`, "odds-percent"));
      const cell = node("td");
      const meter = node("meter");
      meter.min = 0;
      meter.max = face.of;
      meter.value = face.count;
      meter.setAttribute("aria-label", `${face.face}: ${face.count} of ${face.of}`);
      cell.appendChild(meter);
      tr.appendChild(cell);
      body.appendChild(tr);
    }
    return table;
  }

  function sightList(view) {
    const list = node("ul", null, "odds-sight");
    list.id = "odds-sight";
    const actor = view.last ? view.last.character : null;
    for (const s of view.sight || []) {
      const li = node("li");
      li.dataset.target = s.target;
      li.dataset.visible = String(s.visible);
      li.textContent = s.visible ? `${actor} sees ${s.target}` :
        `${actor} does not see ${s.target}: ` + (s.blockers.length ?
          (s.blockers.length === 1 ? `obstacle ${s.blockers[0]} blocks` :
            `obstacles ${s.blockers.join(", ")} block`) + " the line (outlined on the mat)" :
          "blocked, as the table answered or by a test that names no single obstacle");
      list.appendChild(li);
    }
    return list;
  }

  function draw(view) {
    const box = document.getElementById("odds-body");
    if (!box) return;
    box.hidden = !on;
    box.replaceChildren();
    if (!on || !view) return;
    for (const [level, bag] of Object.entries(view.odds || {})) box.appendChild(bagTable(level, bag));
    if ((view.sight || []).length) {
      box.appendChild(node("h3", `Sight of the last activation (${view.last.character})`));
      box.appendChild(sightList(view));
    }
  }

  document.addEventListener("board:view", (event) => { latest = event.detail; draw(latest); });
  document.addEventListener("DOMContentLoaded", () => {
    document.getElementById("odds-switch").addEventListener("click", () => {
      remember(!on);
      setOn(!on);
    });
    setOn(remembered());
  });
})();
