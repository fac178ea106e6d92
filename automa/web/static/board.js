// The live board: draws /api/view, polls /api/version, and sends the table's reports.
// Plain JavaScript, no framework, nothing from the internet. Every string from the session is
// put into the page with textContent or as an SVG attribute, never as markup; the mat SVG comes
// escaped from the server's renderer and is parsed as XML (DOMParser), which runs no script.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 500;
const STEP_MS = 600; // one activation step appears after another
const SNAP_CM = 0.5; // dropped this close to a piece or obstacle: it touches it
const GAP_CM = 0.01; // "touching" leaves a tenth of a millimetre, so rounding never overlaps
const CONDITIONS = ["frozen", "stunned", "teleported", "devoured", "aloft"];

const board = {
  view: null,        // the latest /api/view
  version: null,
  chosen: null,      // the piece the panel is for
  shown: null,       // {act, count, key}: the activation on screen and how many steps show
  timer: null,
  answers: null,     // the answers given to the open question, or null
  pinned: null,      // the log version the open question's activation started from
  readOnly: false,   // watching only: another machine (no --remote-control) or ?watch
  drag: null,
  busy: false,
  threat: null,      // {hero, data, asked}: the hero whose threat map is on, its latest map
};

function $(id) { return document.getElementById(id); }

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}

function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

function say(text, ok) {
  const box = $("message");
  box.textContent = text || "";
  box.hidden = !text;
  box.classList.toggle("ok", !!ok);
}

// ---- talking to the server ------------------------------------------------------------------

async function getJSON(path) {
  const answer = await fetch(path, { cache: "no-store" });
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error || `${path}: HTTP ${answer.status}`);
  return data;
}

async function post(path, body) {
  const answer = await fetch(path, {
    method: "POST", cache: "no-store",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  let data;
  try { data = await answer.json(); } catch (e) { data = { error: `HTTP ${answer.status}` }; }
  if (!answer.ok) throw new Error(data.error || `${path}: HTTP ${answer.status}`);
  return data;
}

// One action at a time; the answer of an action (the new view) is drawn at once.
async function act(path, body, okText) {
  if (board.busy || board.readOnly) return null;
  board.busy = true;
  try {
    const data = await post(path, body);
    say(okText || "", true);
    if (data && data.state && data.mat) setView(data);
    else await refresh();
    return data;
  } catch (err) {
    say(err.message);
    return null;
  } finally {
    board.busy = false;
  }
}

async function refresh() {
  try {
    setView(await getJSON("/api/view"));
    $("live").classList.remove("stale");
  } catch (err) {
    $("live").classList.add("stale");
    say(err.message);
  }
}

async function poll() {
  try {
    const { version, asking } = await getJSON("/api/version");
    $("live").classList.remove("stale");
    $("live").textContent = board.readOnly ? "watching" : "live";
    showAskedElsewhere(asking);
    if (version !== board.version && !board.drag) await refresh();
  } catch (err) {
    $("live").classList.add("stale");
    $("live").textContent = "no connection";
  }
}

// ---- drawing the view -----------------------------------------------------------------------

function setView(view) {
  board.view = view;
  board.version = view.version;
  document.body.dataset.version = view.version;
  document.body.dataset.phase = view.phase;
  if (view.battle === false) { // a campaign between rooms: campaign.js draws it
    document.dispatchEvent(new CustomEvent("board:between-rooms", { detail: view }));
    return;
  }
  drawMat(view);
  drawThreat();
  drawHeader(view);
  drawTurn(view);
  drawPieces(view);
  drawPiecePanel(view);
  drawBoards(view);
  drawBags(view);
  drawContradictions(view);
  drawLog(view);
  $("printout").textContent = view.printout || "";
  const key = view.last ? JSON.stringify(view.last) : null;
  if (!board.shown || board.shown.key !== key) {
    // another window ran it, or the page was just opened: show it whole
    showActivation(view.last, view.last ? view.last.steps.length : 0, key);
  } else {
    drawActivation();
  }
  document.dispatchEvent(new CustomEvent("board:view", { detail: view })); // hit-buttons.js, odds.js, campaign.js
}

function drawHeader(view) {
  const phase = { heroes: "the heroes' turn", ai: "the AI turn", over: "the battle is over" };
  $("where").textContent = `Round ${view.round} · ${phase[view.phase] || view.phase}`;
  $("modes").textContent = `${view.dice} dice · ${view.geometry} geometry`;
  // Next only in the AI turn: a stray tap or N in the heroes' turn must not end it (Done does)
  $("next").disabled = view.phase !== "ai";
  $("done").disabled = view.phase !== "heroes";
  $("undo").disabled = view.log.length === 0;
  $("redo").disabled = view.redo === 0; // the view says how many undone inputs wait
}

function matSvg() { return $("mat").querySelector("svg"); }

function drawMat(view) {
  const doc = new DOMParser().parseFromString(view.mat, "image/svg+xml");
  const root = doc.documentElement;
  if (root.nodeName !== "svg" || doc.getElementsByTagName("parsererror").length) {
    say("the mat picture could not be read");
    return;
  }
  const svg = document.importNode(root, true);
  svg.removeAttribute("width");  // the viewBox keeps the proportions; CSS fits it to the window
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  fitToScreen(svg, view);
  svg.setAttribute("role", "img");
  if (!svg.querySelector("#overlays")) svg.appendChild(svgEl("g", { id: "overlays" }));
  const byId = new Map(view.pieces.map((p) => [p.id, p]));
  for (const g of svg.querySelectorAll("g.piece")) {
    const piece = byId.get(g.dataset.piece);
    if (!piece) continue;
    g.setAttribute("tabindex", "0");
    g.classList.toggle("chosen", piece.id === board.chosen);
    const label = g.querySelector("text");
    if (label && piece.measured && piece.health !== null && piece.max_health) {
      label.textContent = `${piece.health}/${piece.max_health}`;
      label.setAttribute("font-size", "9");
    }
    badges(g, piece);
    const title = svgEl("title");
    title.textContent = pieceWords(piece);
    g.appendChild(title);
  }
  const box = $("mat");
  clear(box);
  box.appendChild(svg);
}

// On a narrow screen (a phone) the legend panel right of the mat is left out of the view box,
// so the mat itself gets the width; the picture's scale and proportions are unchanged.
const NARROW = window.matchMedia("(max-width: 800px)");

function fitToScreen(svg, view) {
  const box = (svg.getAttribute("viewBox") || "").split(/\s+/).map(Number);
  const scale = Number(svg.getAttribute("data-scale")) || 10;
  const margin = Number(svg.getAttribute("data-margin")) || 60;
  if (box.length !== 4 || !NARROW.matches) return;
  const width = view.mat_size[0] * scale + 2 * margin;
  if (width >= box[2]) return;
  svg.setAttribute("viewBox", `0 0 ${width} ${box[3]}`);
  for (const legend of svg.querySelectorAll("g.legend")) legend.setAttribute("display", "none");
}

function pieceWords(piece) {
  const health = piece.health === null ? "" :
    ` ${piece.health}${piece.max_health ? "/" + piece.max_health : ""} health`;
  const cond = piece.conditions.length ? `, ${piece.conditions.join(", ")}` : "";
  return `${piece.id} (${piece.side})${health}${cond}`;
}

// A small lettered square per condition beside the piece: F frozen, S stunned, ...
function badges(g, piece) {
  const m = geometry();
  if (!m) return;
  let i = 0;
  for (const condition of piece.conditions) {
    const [x, y] = toSvg(Number(g.dataset.x), Number(g.dataset.y)); // on the mat, or its tray
    const r = piece.radius * m.scale;
    const badge = svgEl("g", { class: "badge", "data-condition": condition });
    const bx = x + r + 1 + i * 11, by = y - 5.5; // right of the disc, clear of its label
    badge.appendChild(svgEl("rect", { x: bx, y: by, width: 10, height: 11, rx: 2 }));
    const t = svgEl("text", { x: bx + 5, y: by + 9, "text-anchor": "middle" });
    t.textContent = condition.charAt(0).toUpperCase();
    badge.appendChild(t);
    g.appendChild(badge);
    i += 1;
  }
}

// The mat's own scale: SVG units per cm, the margin, the mat's length (cm), from the view
function geometry() {
  const view = board.view;
  if (!view) return null;
  const svg = matSvg();
  const scale = svg ? Number(svg.getAttribute("data-scale")) : NaN;
  const margin = svg ? Number(svg.getAttribute("data-margin")) : NaN;
  return {
    scale: Number.isFinite(scale) && scale > 0 ? scale : 10,
    margin: Number.isFinite(margin) ? margin : 60,
    length: view.mat_size[1],
    width: view.mat_size[0],
  };
}

function toSvg(x, y) {
  const m = geometry();
  return [m.margin + x * m.scale, m.margin + (m.length - y) * m.scale];
}

function toCm(sx, sy) {
  const m = geometry();
  return [(sx - m.margin) / m.scale, m.length - (sy - m.margin) / m.scale];
}

function clientToSvg(clientX, clientY) {
  const svg = matSvg();
  const point = svg.createSVGPoint();
  point.x = clientX;
  point.y = clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  return [p.x, p.y];
}

function drawTurn(view) {
  const list = $("order");
  clear(list);
  const items = [
    ...view.turn.done.map((id) => [id, "done"]),
    ...(view.turn.next ? [[view.turn.next, "next"]] : []),
    ...view.turn.pending.map((id) => [id, "pending"]),
  ];
  for (const [id, cls] of items) {
    const li = el("li", id, cls);
    li.dataset.piece = id;
    li.title = { done: "has acted", next: "acts next", pending: "still to act" }[cls];
    list.appendChild(li);
  }
  if (!items.length) list.appendChild(el("li", view.phase === "heroes" ?
    "the heroes act; press Done when they are finished" : "—", "none"));
}

function drawPieces(view) {
  const body = $("piece-table").querySelector("tbody");
  clear(body);
  for (const piece of view.pieces) {
    const tr = el("tr");
    tr.dataset.piece = piece.id;
    tr.dataset.side = piece.side;
    if (piece.id === board.chosen) tr.classList.add("chosen");
    tr.appendChild(el("td", piece.id));
    tr.appendChild(el("td", piece.side));
    tr.appendChild(el("td", piece.health === null ? "—" :
      `${piece.health}${piece.max_health ? " / " + piece.max_health : ""}`));
    tr.appendChild(el("td", piece.conditions.join(", ") + (piece.measured ? "" : " (not measured)")));
    const cell = el("td");
    if (piece.side === "heroes") {
      const on = !!board.threat && board.threat.hero === piece.id;
      const toggle = el("button", "Threat", "threat-toggle");
      toggle.type = "button";
      toggle.dataset.hero = piece.id;
      toggle.setAttribute("aria-pressed", String(on));
      toggle.title = on ? `Hide ${piece.id}'s threat map` :
        `Shade the mat by how many AI pieces would choose ${piece.id} there`;
      toggle.addEventListener("click", (event) => { event.stopPropagation(); toggleThreat(piece.id); });
      cell.appendChild(toggle);
    }
    tr.appendChild(cell);
    tr.addEventListener("click", () => choose(piece.id));
    body.appendChild(tr);
  }
}

function heroIds(view) { return view.pieces.filter((p) => p.side === "heroes").map((p) => p.id); }

function fillSelect(select, ids, blank) {
  const keep = select.value;
  clear(select);
  if (blank !== undefined) { const o = el("option", blank); o.value = ""; select.appendChild(o); }
  for (const id of ids) { const o = el("option", id); o.value = id; select.appendChild(o); }
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}

function drawPiecePanel(view) {
  const piece = view.pieces.find((p) => p.id === board.chosen);
  $("piece").hidden = !piece;
  if (!piece) return;
  $("piece-id").textContent = piece.id;
  $("piece-facts").textContent = pieceWords(piece) +
    (piece.measured ? ` · at ${piece.x.toFixed(1)}, ${piece.y.toFixed(1)} cm` :
      " · place unknown: drag it where it stands, or type move"); // asked geometry: in the tray
  fillSelect($("by"), heroIds(view).filter((id) => id !== piece.id), "(nobody)");
  const box = $("conditions");
  clear(box);
  for (const condition of CONDITIONS) {
    const on = piece.conditions.includes(condition);
    const b = el("button", `${on ? "☑" : "☐"} ${condition}`);
    b.type = "button";
    b.dataset.condition = condition;
    b.setAttribute("aria-pressed", String(on));
    b.addEventListener("click", () => act("/api/condition",
      { piece: piece.id, condition, on: !on }, `${piece.id}: ${condition} ${on ? "off" : "on"}`));
    box.appendChild(b);
  }
}

function drawBoards(view) {
  const box = $("board-list");
  clear(box);
  for (const [id, b] of Object.entries(view.boards || {})) {
    const div = el("div", null, "board");
    div.dataset.hero = id;
    div.appendChild(el("b", id));
    const start = b.starting_health === null || b.starting_health === undefined ? "" :
      ` / ${b.starting_health}`;
    const parts = [`health ${b.health}${start}`, `gold ${b.gold}`, `poison ${b.poison}`,
      `items ${b.items}`];
    if (b.kills && b.kills.length) parts.push(`kills ${b.kills.join(", ")}`);
    if (b.used && b.used.length) parts.push(`used ${b.used.join(", ")}`);
    div.appendChild(document.createTextNode(" " + parts.join(" · ")));
    box.appendChild(div);
  }
}

function drawBags(view) {
  const box = $("bag-list");
  clear(box);
  for (const [level, bag] of Object.entries(view.bags || {})) {
    const div = el("div", null, "board");
    div.dataset.level = level;
    div.appendChild(el("b", `level ${level}`));
    const left = el("div", null, "tokens");
    left.appendChild(el("span", `left (${bag.left.length}):`));
    for (const t of bag.left) left.appendChild(el("span", t, "token"));
    const gone = el("div", null, "tokens");
    gone.appendChild(el("span", `discard (${bag.discard.length}):`));
    for (const t of bag.discard) gone.appendChild(el("span", t, "token discard"));
    div.appendChild(left);
    div.appendChild(gone);
    box.appendChild(div);
  }
}

// Logged figures this machine computes otherwise: the log's stand until the players choose to go
// on with this machine's
function drawContradictions(view) {
  const found = view.contradictions || [];
  $("contradictions").hidden = found.length === 0;
  const list = $("contradiction-list");
  clear(list);
  for (const line of found) list.appendChild(el("li", line));
}

function drawLog(view) {
  const list = $("log");
  clear(list);
  for (const entry of view.log) {
    const li = el("li", entry.text);
    li.value = entry.n;
    li.dataset.n = entry.n;
    li.title = "click: roll back to keep up to here";
    li.addEventListener("click", () => { $("keep").value = entry.n; });
    list.appendChild(li);
  }
  $("keep").max = view.log.length;
  list.scrollTop = list.scrollHeight;
}

// ---- the threat map: one hero's squares shaded under the pieces ------------------------------
// Fetched again whenever the log's version moves while it is on; hidden while an activation's
// steps still appear (the pieces then stand where the steps put them, not where the map has
// them), shown again with the last step.

function toggleThreat(id) {
  board.threat = board.threat && board.threat.hero === id ? null : { hero: id, data: null, asked: null };
  drawPieces(board.view);
  drawThreat();
}

async function drawThreat() {
  const t = board.threat;
  $("threat-panel").hidden = !t;
  if (!t) { paintThreat(null); return; }
  if (t.data && t.data.version === board.version) { paintThreat(t.data); return; }
  paintThreat(null); // never an old map over pieces that have moved
  if (t.asked === board.version) return; // asked already; drawn when it comes
  t.asked = board.version;
  try {
    // a phone gets 2 cm squares: a quarter of the answer (about 120 KB, not 520) over wifi
    const step = NARROW.matches ? 2 : 1;
    const data = await getJSON(`/api/threat?hero=${encodeURIComponent(t.hero)}&step=${step}`);
    if (board.threat !== t) return;
    if (!t.data || t.data.version !== board.version) t.data = data;
    // drawn only over the battle it is of: an answer overtaken by a newer log waits for its view
    if (data.version === board.version) paintThreat(data);
  } catch (err) {
    if (board.threat === t) {
      board.threat = null;
      $("threat-panel").hidden = true;
      drawPieces(board.view);
    }
    say(err.message);
  }
}

function paintThreat(data) {
  const svg = matSvg();
  if (!svg) return;
  const old = svg.querySelector("#threat");
  if (old) old.remove();
  if (!data) return;
  const m = geometry();
  const g = svgEl("g", { id: "threat", "data-hero": data.hero, "data-version": data.version,
    "fill-opacity": data.opacity });
  const half = data.step / 2, side = data.step * m.scale;
  for (const cell of data.cells) {
    const [x, y] = toSvg(cell.at[0] - half, cell.at[1] + half);
    g.appendChild(svgEl("rect", { class: "threat-square", x: x.toFixed(2), y: y.toFixed(2),
      width: side.toFixed(2), height: side.toFixed(2), fill: data.legend[cell.band].colour,
      "data-band": cell.band }));
  }
  const first = svg.querySelector("g.piece");
  if (first) first.parentNode.insertBefore(g, first);
  else svg.insertBefore(g, svg.querySelector("#overlays"));
  revealThreat();
  drawThreatLegend(data);
}

function revealThreat() {
  const g = matSvg() && matSvg().querySelector("#threat");
  const shown = board.shown;
  const revealing = !!(shown && shown.act && shown.count < shown.act.steps.length);
  if (g) g.setAttribute("display", revealing ? "none" : "inline");
}

function drawThreatLegend(data) {
  $("threat-hero").textContent = `· ${data.hero}`;
  const unmapped = data.unmapped.map((u) => `${u.id} (${u.why})`);
  $("threat-words").textContent = `Each ${data.step} cm square: how many AI pieces would choose ` +
    `${data.hero} as their target with ${data.hero} there, at the start of the coming AI turn` +
    (data.by.length ? `, counting only ${data.by.join(", ")}` : "") + ". Unshaded: no room." +
    (unmapped.length ? ` Not mapped: ${unmapped.join("; ")}.` : "");
  const legend = $("threat-legend");
  clear(legend);
  data.legend.forEach((band, i) => {
    const y = 2 + i * 20;
    legend.appendChild(svgEl("rect", { x: 2, y, width: 26, height: 16, fill: band.colour,
      "fill-opacity": data.opacity, stroke: "#666" }));
    const t = svgEl("text", { x: 36, y: y + 12, "font-size": 12 });
    t.textContent = band.text === "none" ? "none of them" : `${band.text} AI piece${band.text === "1" ? "" : "s"}`;
    legend.appendChild(t);
  });
  legend.setAttribute("height", String(4 + data.legend.length * 20));
}

// ---- the activation, step by step, with its overlays ----------------------------------------

function showActivation(act, count, key) {
  if (board.timer) { clearInterval(board.timer); board.timer = null; }
  board.shown = act ? { act, count, key } : { act: null, count: 0, key };
  drawActivation();
  if (act && count < act.steps.length) {
    board.timer = setInterval(() => {
      board.shown.count += 1;
      drawActivation();
      if (board.shown.count >= board.shown.act.steps.length) finishSteps();
    }, STEP_MS);
  }
}

function finishSteps() {
  if (board.timer) { clearInterval(board.timer); board.timer = null; }
  if (board.shown && board.shown.act) board.shown.count = board.shown.act.steps.length;
  drawActivation();
}

function stepWords(step) {
  const to = (p) => `${p[0].toFixed(1)}, ${p[1].toFixed(1)}`;
  switch (step.kind) {
    case "shot": return `shot ${step.shot}${step.as !== step.shot ? ` as ${step.as}` : ""}` +
      (step.note ? ` (${step.note})` : "");
    case "roll": return `${step.die}: ${step.value} (${step.why})${step.result ? " → " + step.result : ""}`;
    case "move": return `${step.piece} moves ` + // asked geometry: no ends (nobody measured)
      (step.to ? `${to(step.from)} → ${to(step.to)}` : "along the ruler") + `: ${step.why}, ` +
      `${step.tool}${step.clock ? `, clock face ${step.clock}` : ""}` +
      (step.toward ? `, toward ${step.toward}` : "") +
      (step.stopped_by ? `, stopped by ${step.stopped_by}` : "");
    case "attack": return `Attack template on ${step.piece}: ${step.target} ` +
      `${step.covers ? "covered" : "not covered"}` +
      (step.margin === null ? "" : ` (by ${Math.abs(step.margin).toFixed(2)} cm)`);
    case "token": return `token level ${step.level}: ${step.value}${step.reset ? " (reset)" : ""}` +
      (step.of > 1 ? ` (${step.draw} of ${step.of})` : "");
    case "discard": return `discard level ${step.level}: ${step.tokens.join(", ")}`;
    case "damage": return `${step.piece} -${step.amount} health` +
      (step.health === null ? "" : ` (now ${step.health})`) + (step.died ? ", dies" : "");
    case "effect": return `${step.piece}: ${step.effect} — ${step.text}` +
      (step.health === undefined ? "" : ` (now ${step.health})`);
    case "note": return step.text;
    default: return JSON.stringify(step);
  }
}

function drawActivation() {
  const shown = board.shown;
  const list = $("steps");
  clear(list);
  clear($("calls"));
  const overlays = matSvg() && matSvg().querySelector("#overlays");
  if (overlays) clear(overlays);
  revealThreat();
  $("actor").textContent = shown && shown.act ? `· ${shown.act.character}` : "";
  if (!shown || !shown.act) { list.dataset.complete = "true"; return; }
  const { act, count } = shown;
  const head = el("li", `${act.character} (${act.row}): target ${act.target || "none"} — ${act.reason}`);
  head.value = 0;
  list.appendChild(head);
  act.steps.slice(0, count).forEach((step, i) => {
    const li = el("li", stepWords(step));
    li.value = i + 1;
    li.dataset.kind = step.kind;
    if (step.close_call) li.classList.add("close");
    list.appendChild(li);
  });
  list.dataset.complete = String(count >= act.steps.length);
  if (count >= act.steps.length) {
    for (const call of act.close_calls) $("calls").appendChild(el("li", `close call: ${call}`));
    for (const rule of act.house_rules) $("calls").appendChild(el("li", rule, "ruling"));
  }
  if (!overlays) return;
  const last = board.view.last;
  const groups = last && board.view.last_overlay &&
    JSON.stringify(last.steps) === JSON.stringify(act.steps) ? serverOverlay() : null;
  for (const g of groups || []) { // drawn once the view of this activation has come
    const step = g.getAttribute("data-step");
    if (step !== null && step !== "sight" && Number(step) >= count) g.setAttribute("display", "none");
    // a piece the activation took out of play stands until the step that took it is shown
    if (g.classList.contains("overlay-gone") && count > Number(g.dataset.until)) {
      g.setAttribute("display", "none");
    }
    overlays.appendChild(g);
  }
  if (board.view.geometry !== "asked") placePieces(act, count);
}

// The last activation as the server's picture renderer draws it (the real Clock faces and
// Attack template, nothing from an unmeasured spot): one group a step, parsed as XML, which
// runs no script.
function serverOverlay() {
  const doc = new DOMParser().parseFromString(
    `<svg xmlns="${SVG}">${board.view.last_overlay}</svg>`, "image/svg+xml");
  if (doc.getElementsByTagName("parsererror").length) return null;
  return [...doc.documentElement.children]
    .filter((g) => g.classList.contains("overlay-step") || g.classList.contains("overlay-gone"))
    .map((g) => document.importNode(g, true));
}

// While the steps still appear, a piece the activation moves stands where the steps shown so
// far put it (the mat draws where it ends), its name label beside it, and a piece it damages
// or heals (regeneration) shows the health those steps leave it: the health after the last
// such step shown, or before the first one still to show. Once all are shown, every piece is
// as the model says.
function placePieces(act, count) {
  const all = count >= act.steps.length;
  const first = new Map(), moved = new Map(), health = new Map();
  act.steps.forEach((step, i) => {
    const before = healthBefore(step);
    if (before !== null) {
      if (i < count) health.set(step.piece, step.health);
      else if (!health.has(step.piece)) health.set(step.piece, before);
    }
    if (step.kind !== "move") return;
    if (!first.has(step.piece)) first.set(step.piece, step.from);
    if (i < count) moved.set(step.piece, step.to);
  });
  const svg = matSvg();
  // a piece the activation took out of play: moved and hurt along the steps, like the rest
  for (const g of svg.querySelectorAll("#overlays g.overlay-gone")) {
    const spot = moved.get(g.dataset.piece);
    showHealth(g, health.get(g.dataset.piece));
    if (spot) g.setAttribute("transform", shiftTo(g, spot));
  }
  for (const g of svg.querySelectorAll("g.piece")) {
    if (board.drag && board.drag.g === g) continue;
    showHealth(g, all ? undefined : health.get(g.dataset.piece));
    const label = svg.querySelector(`g.label[data-for="${CSS.escape(g.dataset.piece)}"]`);
    const spot = all ? null : (moved.get(g.dataset.piece) || first.get(g.dataset.piece));
    if (!spot) {
      for (const shape of [g, label]) if (shape) shape.removeAttribute("transform");
      continue;
    }
    const shift = shiftTo(g, spot);
    for (const shape of [g, label]) if (shape) shape.setAttribute("transform", shift);
  }
}

// The health of a step's piece just before it, when the step changes it and the piece stays
// in play: a damage step's health after plus its amount, a heal's (regeneration) less its
// amount; null for any other step.
function healthBefore(step) {
  if (step.health === undefined || step.health === null) return null;
  if (step.kind === "damage") return step.died ? null : step.health + step.amount;
  return step.kind === "effect" ? step.health - step.amount : null;
}

// The transform that draws a group made at its data-x, data-y (cm) at `spot` instead.
function shiftTo(g, spot) {
  const [x1, y1] = toSvg(Number(g.dataset.x), Number(g.dataset.y));
  const [x2, y2] = toSvg(...spot);
  return `translate(${(x2 - x1).toFixed(2)} ${(y2 - y1).toFixed(2)})`;
}

// The number on a piece's disc: `health` while steps still appear, else what the mat drew.
function showHealth(g, health) {
  const text = g.querySelector("text");
  if (!text) return;
  if (text.dataset.drawn === undefined) text.dataset.drawn = text.textContent;
  const piece = board.view.pieces.find((p) => p.id === g.dataset.piece); // none: out of play
  text.textContent = health === undefined ? text.dataset.drawn :
    piece && piece.measured && piece.max_health ? `${health}/${piece.max_health}` :
      String(health);
}

// ---- Next and the questions -----------------------------------------------------------------

async function next(answers) {
  if (board.busy || board.readOnly) return;
  if (board.timer) { finishSteps(); return; } // N while steps still appear: show them all
  board.busy = true;
  try {
    // The version the page showed when Next was pressed, kept for every answer of this
    // activation: a double tap, or a write by another window meanwhile, is refused (409)
    // rather than run on a log the players have not seen.
    if (board.answers === null || !board.pinned) board.pinned = board.version;
    const body = { version: board.pinned };
    if (answers && answers.length) body.answers = answers;
    const data = await post("/api/next", body);
    if (data.question) {
      askQuestion(data.question, data.answers || []);
      return;
    }
    closeQuestion();
    say("");
    const key = JSON.stringify(data);
    showActivation(data, 0, key);
    await refresh(); // still busy: a second N waits for the view of this activation
  } catch (err) {
    say(err.message);
    closeQuestion(); // the questions start again from Next, on the log as it now is
    await refresh();
  } finally {
    board.busy = false;
  }
}

function askQuestion(question, answers) {
  board.answers = answers;
  showAskedElsewhere(null); // this page is the one asked
  $("question").hidden = false;
  $("question").dataset.kind = question.kind;
  $("prompt").textContent = question.prompt;
  const brief = $("briefing");
  clear(brief);
  for (const line of question.briefing || []) brief.appendChild(el("li", line));
  const box = $("options");
  clear(box);
  for (const option of question.options || []) {
    const b = el("button", option);
    b.type = "button";
    b.dataset.answer = option;
    b.addEventListener("click", () => next([...board.answers, option]));
    box.appendChild(b);
  }
  const elsewhere = Object.entries(question.elsewhere || {});
  $("elsewhere").textContent = elsewhere.length ?
    "not in the bag: " + elsewhere.map(([t, where]) => `${t} (${where})`).join(", ") : "";
  $("back").disabled = false;
  $("question").scrollIntoView({ block: "nearest" });
  box.querySelector("button")?.focus({ preventScroll: true });
}

// A question Next put to another device (the one answering it shows the question itself):
// this page says what the table was asked there, until the log moves on. While this page's own
// Next is on its way (busy), the question the server reports is this page's own.
function showAskedElsewhere(prompt) {
  const note = $("asked-elsewhere");
  const shown = !!prompt && board.answers === null && !board.busy;
  note.hidden = !shown;
  note.textContent = shown ? `Asked on another device: ${prompt}` : "";
}

function closeQuestion() {
  board.answers = null;
  board.pinned = null;
  $("question").hidden = true;
}

function back() {
  if (!board.answers) return;
  if (!board.answers.length) { closeQuestion(); say("the activation was not run"); return; }
  next(board.answers.slice(0, -1));
}

// ---- choosing and dragging pieces -----------------------------------------------------------

function choose(id) {
  board.chosen = id;
  if (board.view) {
    drawPieces(board.view);
    drawPiecePanel(board.view);
    for (const g of matSvg().querySelectorAll("g.piece")) {
      g.classList.toggle("chosen", g.dataset.piece === id);
    }
  }
}

// A piece tapped (or chosen by the keyboard) on the mat, at a point of the window:
// hit-buttons.js opens its damage and heal buttons there.
function tapped(id, x, y) {
  document.dispatchEvent(new CustomEvent("board:tap", { detail: { piece: id, x, y } }));
}

function pieceGroup(target) {
  const g = target instanceof Element ? target.closest("g.piece") : null;
  return g && matSvg() && matSvg().contains(g) ? g : null;
}

function onPointerDown(event) {
  const g = pieceGroup(event.target);
  if (!g || !board.view || event.button > 0 || board.readOnly) return;
  const piece = board.view.pieces.find((p) => p.id === g.dataset.piece);
  if (!piece) return;
  event.preventDefault();
  const [sx, sy] = clientToSvg(event.clientX, event.clientY);
  const [px, py] = toSvg(Number(g.dataset.x), Number(g.dataset.y));
  board.drag = { g, piece, start: [sx, sy], offset: [px - sx, py - sy], moved: false,
    pointer: event.pointerId };
  try { g.setPointerCapture(event.pointerId); } catch (e) { /* the page keeps the drag */ }
}

function onPointerMove(event) {
  const drag = board.drag;
  if (!drag || event.pointerId !== drag.pointer) return;
  const [sx, sy] = clientToSvg(event.clientX, event.clientY);
  const dx = sx - drag.start[0], dy = sy - drag.start[1];
  if (!drag.moved && Math.hypot(dx, dy) < 3) return;
  drag.moved = true;
  drag.g.classList.add("dragging");
  drag.g.setAttribute("transform", `translate(${dx.toFixed(2)} ${dy.toFixed(2)})`);
}

async function onPointerUp(event) {
  const drag = board.drag;
  if (!drag || event.pointerId !== drag.pointer) return;
  board.drag = null;
  drag.g.classList.remove("dragging");
  if (!drag.moved) {
    drag.g.removeAttribute("transform");
    choose(drag.piece.id);
    tapped(drag.piece.id, event.clientX, event.clientY);
    return;
  }
  const [sx, sy] = clientToSvg(event.clientX, event.clientY);
  const dropped = toCm(sx + drag.offset[0], sy + drag.offset[1]);
  const at = snap(drag.piece, dropped);
  choose(drag.piece.id);
  const done = await act("/api/move", { piece: drag.piece.id, at: at.spot },
    `${drag.piece.id} moved to ${at.spot[0].toFixed(2)}, ${at.spot[1].toFixed(2)}${at.why}`);
  if (!done) drag.g.removeAttribute("transform"); // refused: the piece goes back
}

function onPointerCancel() {
  if (!board.drag) return;
  board.drag.g.removeAttribute("transform");
  board.drag.g.classList.remove("dragging");
  board.drag = null;
}

// Obstacles and runes as drawn on the mat, in cm
function matShapes() {
  const svg = matSvg();
  const shapes = [];
  for (const node of svg.querySelectorAll(".obstacle")) {
    const id = node.getAttribute("data-obstacle");
    if (node.tagName === "circle") {
      const [x, y] = toCm(Number(node.getAttribute("cx")), Number(node.getAttribute("cy")));
      shapes.push({ id, kind: "circle", x, y, r: Number(node.getAttribute("r")) / geometry().scale });
    } else {
      const pts = node.getAttribute("points").trim().split(/\s+/).map((p) => {
        const [a, b] = p.split(",").map(Number);
        return toCm(a, b);
      });
      shapes.push({ id, kind: "polygon", points: pts });
    }
  }
  const runes = [...svg.querySelectorAll("circle.rune")].map((node) => {
    const [x, y] = toCm(Number(node.getAttribute("cx")), Number(node.getAttribute("cy")));
    return { id: node.getAttribute("data-rune"), x, y,
      r: Number(node.getAttribute("r")) / geometry().scale };
  });
  return { shapes, runes };
}

function closestOnSegment(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len = dx * dx + dy * dy;
  const t = len ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len)) : 0;
  return [a[0] + t * dx, a[1] + t * dy];
}

function inside(p, pts) {
  let hit = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i, i += 1) {
    const [xi, yi] = pts[i], [xj, yj] = pts[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

// Dropped on a rune: on the rune. Dropped within SNAP_CM of touching a piece or an obstacle
// (a little apart, or a little overlapping): touching it. Else where it was dropped.
function snap(piece, at) {
  const round = (v) => [Math.round(v[0] * 100) / 100, Math.round(v[1] * 100) / 100];
  const { shapes, runes } = matShapes();
  for (const rune of runes) {
    if (Math.hypot(at[0] - rune.x, at[1] - rune.y) <= rune.r) {
      return { spot: round([rune.x, rune.y]), why: ` (on rune ${rune.id})` };
    }
  }
  let best = null;
  const consider = (id, near, gap, away) => {
    if (Math.abs(gap) <= SNAP_CM && (!best || Math.abs(gap) < Math.abs(best.gap))) {
      best = { id, near, gap, away };
    }
  };
  for (const other of board.view.pieces) {
    if (other.id === piece.id || !other.measured) continue;
    const d = Math.hypot(at[0] - other.x, at[1] - other.y);
    consider(other.id, [other.x, other.y], d - other.radius - piece.radius, other.radius);
  }
  for (const shape of shapes) {
    if (shape.kind === "circle") {
      const d = Math.hypot(at[0] - shape.x, at[1] - shape.y);
      consider(shape.id, [shape.x, shape.y], d - shape.r - piece.radius, shape.r);
    } else if (!inside(at, shape.points)) {
      let near = null, d = Infinity;
      shape.points.forEach((a, i) => {
        const q = closestOnSegment(at, a, shape.points[(i + 1) % shape.points.length]);
        const dq = Math.hypot(at[0] - q[0], at[1] - q[1]);
        if (dq < d) { d = dq; near = q; }
      });
      consider(shape.id, near, d - piece.radius, 0);
    }
  }
  if (!best) return { spot: round(at), why: "" };
  const dx = at[0] - best.near[0], dy = at[1] - best.near[1];
  const n = Math.hypot(dx, dy) || 1;
  const reach = best.away + piece.radius + GAP_CM;
  const spot = [best.near[0] + (dx / n) * reach, best.near[1] + (dy / n) * reach];
  return { spot: round(spot), why: ` (touching ${best.id})` };
}

// ---- wiring ---------------------------------------------------------------------------------

function amount() {
  const n = Number($("amount").value);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

// Watching: a device that may not write (the server says so), or any page opened with ?watch
// (a screen beside the table). The controls are hidden; the mat, the turn and the log follow.
async function watchOnly() {
  let write = true;
  try { write = (await getJSON("/api/access")).write; } catch (e) { /* the board decides */ }
  board.readOnly = !write || new URLSearchParams(location.search).has("watch");
  if (board.readOnly) {
    document.body.dataset.readonly = "true";
    $("live").textContent = "watching";
    $("live").title = write ? "Opened with ?watch: the controls are hidden"
      : "Another machine: this page shows the battle; the table's own screen drives it";
  }
}

function start() {
  watchOnly();
  $("next").addEventListener("click", () => next([]));
  $("done").addEventListener("click", () => act("/api/done", {}, "the heroes' turn is done"));
  $("undo").addEventListener("click", () => act("/api/undo", {}, "undone"));
  $("redo").addEventListener("click", () => act("/api/redo", {}, "redone"));
  $("back").addEventListener("click", back);
  $("accept-recomputed").addEventListener("click", () =>
    act("/api/accept-recomputed", {}, "going on with this machine's figures"));
  $("rollback").addEventListener("click", () => {
    const keep = Number($("keep").value);
    act("/api/rollback", { keep }, `rolled back: the first ${keep} inputs kept`);
  });
  $("damage").addEventListener("click", () => {
    const body = { piece: board.chosen, amount: amount() };
    if ($("by").value) body.by = $("by").value;
    act("/api/damage", body, `${board.chosen} -${body.amount} health`);
  });
  $("heal").addEventListener("click", () =>
    act("/api/heal", { piece: board.chosen, amount: amount() }, `${board.chosen} healed`));
  $("words-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act("/api/move", { piece: board.chosen, words: $("words").value }, `${board.chosen} moved`);
  });
  $("command-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act("/api/command", { line: $("command").value }, `done: ${$("command").value}`)
      .then((ok) => { if (ok) $("command").value = ""; });
  });
  const mat = $("mat");
  mat.addEventListener("pointerdown", onPointerDown);
  mat.addEventListener("pointermove", onPointerMove);
  mat.addEventListener("pointerup", onPointerUp);
  mat.addEventListener("pointercancel", onPointerCancel);
  mat.addEventListener("keydown", (event) => {
    const g = pieceGroup(event.target);
    if (g && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      choose(g.dataset.piece);
      const box = g.getBoundingClientRect();
      tapped(g.dataset.piece, box.right, box.top + box.height / 2);
    }
  });
  document.addEventListener("keydown", (event) => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement
      || event.target instanceof HTMLTextAreaElement;
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "n" || event.key === "N") {
      if (!$("next").disabled && !board.answers) { event.preventDefault(); next([]); }
    } else if (event.key === "Escape" && board.answers) {
      back();
    }
  });
  NARROW.addEventListener("change", () => { if (board.view) setView(board.view); });
  refresh();
  setInterval(poll, POLL_MS);
}

// What the page's other scripts (hit-buttons.js, odds.js, campaign.js) use of this one.
window.automaBoard = {
  act, post, say, getJSON, refresh, next,
  view: () => board.view,
  readOnly: () => board.readOnly,
  answering: () => board.answers !== null,
};

document.addEventListener("DOMContentLoaded", start);
