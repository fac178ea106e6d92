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
const MIN_TEXT_PX = 14; // a disc's label and health are never drawn smaller (CSS px) ...
const LARGE_TEXT_PX = 20; // ... or this with Large type on
const ZOOMS = [1, 1.5, 2, 3, 4];
// A badge per condition beside a disc: a shape and a letter as well as a colour (Okabe-Ito),
// so no one needs to tell the colours apart. Poisoned carries its count.
const BADGES = {
  stunned: { letter: "S", shape: "star", fill: "#F0E442", ink: "#000", words: "stunned" },
  frozen: { letter: "F", shape: "hexagon", fill: "#56B4E9", ink: "#000", words: "frozen" },
  poisoned: { letter: "P", shape: "drop", fill: "#009E73", ink: "#fff", words: "poisoned" },
  teleported: { letter: "T", shape: "triangle", fill: "#CC79A7", ink: "#000", words: "teleported" },
  devoured: { letter: "D", shape: "square", fill: "#000", ink: "#fff", words: "devoured" },
  ridden: { letter: "R", shape: "pentagon", fill: "#E69F00", ink: "#000", words: "ridden" },
  riding: { letter: "r", shape: "pentagon", fill: "#fff", ink: "#000", words: "riding" },
  aloft: { letter: "A", shape: "chevron", fill: "#fff", ink: "#000", words: "aloft" },
};

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
  question: null,    // the open question (its actor and target are drawn), or null
  elsewhere: null,   // the question open on another device: {prompt, actor, target, ...names}
  zoom: 1,           // the mat's zoom (1: fit to the screen)
  dressedAt: null,   // the screen scale the mat's text and badges were last sized for
  held: false,       // photo.js drags a proposed ring: the mat is not drawn again meanwhile
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
    const { version, asking, asking_about: about } = await getJSON("/api/version");
    $("live").classList.remove("stale");
    $("live").textContent = board.readOnly ? "watching" : "live";
    showAskedElsewhere(asking, about);
    if (version !== board.version && !board.drag && !board.held) await refresh();
  } catch (err) {
    $("live").classList.add("stale");
    $("live").textContent = "no connection";
  }
}

// ---- drawing the view -----------------------------------------------------------------------

function setView(view) {
  board.version = view.version;
  document.body.dataset.version = view.version;
  document.body.dataset.phase = view.phase;
  if (view.battle === false) { // a campaign between rooms: campaign.js draws it, no battle is
    board.view = null;         // drawn (every drawing function asks for board.view first)
    board.shown = null;
    document.dispatchEvent(new CustomEvent("board:between-rooms", { detail: view }));
    return;
  }
  board.view = view;
  drawMat(view);
  drawThreat();
  drawHeader(view);
  drawPieces(view);
  drawPiecePanel(view);
  drawBoards(view);
  drawBags(view);
  drawContradictions(view);
  drawLog(view);
  $("printout").textContent = view.printout || "";
  stayAwake(view.phase !== "over");
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
  // nor while this page's question is open: its buttons answer it (Back leaves it)
  $("next").disabled = view.phase !== "ai" || board.answers !== null;
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
  svg.dataset.fullBox = svg.getAttribute("viewBox") || "";
  foldLegend(svg, view);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", `The mat, ${view.mat_size[0]} by ${view.mat_size[1]} cm`);
  if (!svg.querySelector("#overlays")) svg.appendChild(svgEl("g", { id: "overlays" }));
  const byId = new Map(view.pieces.map((p) => [p.id, p]));
  for (const g of svg.querySelectorAll("g.piece")) {
    const piece = byId.get(g.dataset.piece);
    if (!piece) continue;
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", pieceWords(piece));
    g.classList.toggle("chosen", piece.id === board.chosen);
    const label = g.querySelector("text");
    if (label) label.classList.add("health");
    if (label && piece.measured && piece.health !== null && piece.max_health) {
      label.textContent = `${piece.health}/${piece.max_health}`;
    }
    const title = svgEl("title");
    title.textContent = pieceWords(piece);
    g.appendChild(title);
  }
  const box = $("mat");
  clear(box);
  box.appendChild(svg);
  board.dressedAt = null;
  dressMat();
}

// The legend panel right of the mat folds away (the Legend switch): the view box then ends at
// the mat's margin, so the mat itself gets the width; its scale and proportions are unchanged.
function foldLegend(svg, view) {
  const full = (svg.dataset.fullBox || "").split(/\s+/).map(Number);
  const margin = Number(svg.getAttribute("data-margin")) || 60;
  const scale = Number(svg.getAttribute("data-scale")) || 10;
  if (full.length !== 4) return;
  const shown = document.body.dataset.legend === "shown";
  const width = shown ? full[2] : Math.min(full[2], view.mat_size[0] * scale + 2 * margin);
  svg.setAttribute("viewBox", `0 0 ${width} ${full[3]}`);
  for (const legend of svg.querySelectorAll("g.legend")) {
    if (shown) legend.removeAttribute("display");
    else legend.setAttribute("display", "none");
  }
}

// SVG units per CSS pixel as the mat is drawn now (null while it is not laid out)
function unitsPerPixel(svg) {
  const m = svg && svg.getScreenCTM();
  return m && m.a > 0 ? 1 / m.a : null;
}

function minTextPx() {
  return document.body.dataset.large !== undefined ? LARGE_TEXT_PX : MIN_TEXT_PX;
}

// The discs keep their true scale; their health, their badges and the pieces' labels are sized
// for the screen, never under minTextPx() CSS px, and the labels laid out again at that size
// clear of each other, the discs, the badges, obstacles and runes. Done again when the mat's
// scale on the screen changes (a resize, a zoom, Large type).
function dressMat() {
  const svg = matSvg();
  const per = unitsPerPixel(svg);
  if (!svg || !per || !board.view) return;
  const key = `${per.toFixed(4)}:${minTextPx()}`;
  if (board.dressedAt === key) return;
  board.dressedAt = key;
  const font = Math.max(11, minTextPx() * per * 1.01);
  svg.dataset.font = font.toFixed(2);
  const byId = new Map(board.view.pieces.map((p) => [p.id, p]));
  const badgeBoxes = [];
  for (const g of svg.querySelectorAll("g.piece")) {
    const disc = g.querySelector("circle");
    const text = g.querySelector("text");
    if (!disc) continue;
    const cx = Number(disc.getAttribute("cx")), cy = Number(disc.getAttribute("cy"));
    const r = Number(disc.getAttribute("r"));
    if (text) {
      // on the disc when it fits there, else just under it, so the disc's fill and ring (its
      // side) still show; the labels keep clear of it
      const width = textWidth(text.textContent || "", font);
      const inside = width <= 1.9 * r;
      text.setAttribute("font-size", font.toFixed(2));
      text.setAttribute("y", (inside ? cy + font * 0.36 : cy + r + font * 0.95).toFixed(2));
      text.setAttribute("stroke-width", (font * 0.22).toFixed(2));
      if (!inside) badgeBoxes.push([cx - width / 2 - 1, cy + r, cx + width / 2 + 1, cy + r + font * 1.2]);
    }
    for (const old of g.querySelectorAll("g.badge")) old.remove();
    const piece = byId.get(g.dataset.piece);
    if (piece) badgeBoxes.push(...badges(g, piece, cx, cy, r, font));
  }
  dressTray(svg, font);
  relabel(svg, font, badgeBoxes);
  markActors();
}

// Asked geometry's tray under the mat: each unplaced piece's name under its disc at the labels'
// size, kept inside the tray (the title keeps the size the server drew it at, above the discs)
function dressTray(svg, font) {
  const tray = svg.querySelector("g.tray rect");
  if (!tray) return;
  const left = Number(tray.getAttribute("x")) + 4;
  const right = left + Number(tray.getAttribute("width")) - 8;
  for (const name of svg.querySelectorAll("text.tray-name")) {
    const disc = name.parentNode.querySelector("circle");
    const cx = Number(disc.getAttribute("cx")), cy = Number(disc.getAttribute("cy"));
    const r = Number(disc.getAttribute("r"));
    const width = textWidth(name.textContent || "", font);
    name.setAttribute("font-size", font.toFixed(2));
    name.setAttribute("text-anchor", "start");
    name.setAttribute("x", Math.max(left, Math.min(cx - width / 2, right - width)).toFixed(2));
    name.setAttribute("y", (cy + r + font).toFixed(2));
  }
}

// A narrow screen (a phone): the threat map asks for coarser squares
const NARROW = window.matchMedia("(max-width: 800px)");

function pieceWords(piece) {
  const health = piece.health === null ? "" :
    ` ${piece.health}${piece.max_health ? "/" + piece.max_health : ""} health`;
  const conditions = [...piece.conditions];
  if (piece.poison) conditions.push(`poisoned ${piece.poison}`);
  const cond = conditions.length ? `, ${conditions.join(", ")}` : "";
  const name = piece.name && piece.name !== piece.id ? `${piece.name} ` : "";
  return `${name}${piece.id} (${piece.side})${health}${cond}` +
    (piece.measured === false ? ", not measured" : "");
}

// The conditions a piece's badges show: its own, and a hero's Poison cards with their count
function badgeList(piece) {
  const list = piece.conditions.filter((c) => BADGES[c]).map((c) => ({ key: c, count: null }));
  if (piece.poison) list.push({ key: "poisoned", count: piece.poison });
  return list;
}

// One badge per condition, in a row above the disc: a shape, a letter (and the poison count),
// a colour. Returns the boxes they take, for the labels to keep clear of.
function badges(g, piece, cx, cy, r, font) {
  const list = badgeList(piece);
  const size = font * 1.25;
  const gap = font * 0.12;
  const width = list.reduce((w, b) => w + (b.count ? size * 1.7 : size) + gap, -gap);
  let x = cx - width / 2;
  const y = cy - r - size - gap;
  const boxes = [];
  for (const { key, count } of list) {
    const kind = BADGES[key];
    const w = count ? size * 1.7 : size;
    const badge = svgEl("g", { class: "badge", "data-condition": key, "data-shape": kind.shape,
      role: "img", "aria-label": count ? `${kind.words} ${count}` : kind.words });
    badge.appendChild(badgeShape(kind.shape, x, y, w, size, kind.fill, font));
    const t = svgEl("text", { x: (x + w / 2).toFixed(2), y: (y + size * 0.72).toFixed(2),
      "text-anchor": "middle", "font-size": (font * 0.8).toFixed(2), fill: kind.ink });
    t.textContent = count ? `${kind.letter}${count}` : kind.letter;
    badge.appendChild(t);
    const title = svgEl("title");
    title.textContent = count ? `${kind.words} (${count})` : kind.words;
    badge.appendChild(title);
    g.appendChild(badge);
    boxes.push([x, y, x + w, y + size]);
    x += w + gap;
  }
  return boxes;
}

function badgeShape(shape, x, y, w, h, fill, font) {
  const cx = x + w / 2, cy = y + h / 2, rx = w / 2, ry = h / 2;
  const polygon = (points) => svgEl("polygon", { class: "badge-shape", fill,
    "stroke-width": (font * 0.08).toFixed(2),
    points: points.map(([px, py]) => `${px.toFixed(2)},${py.toFixed(2)}`).join(" ") });
  const around = (n, turn, inner) => {
    const pts = [];
    for (let i = 0; i < n * (inner ? 2 : 1); i += 1) {
      const k = inner && i % 2 ? inner : 1;
      const a = turn + (i * Math.PI * 2) / (n * (inner ? 2 : 1));
      pts.push([cx + Math.sin(a) * rx * k, cy - Math.cos(a) * ry * k]);
    }
    return pts;
  };
  switch (shape) {
    case "star": return polygon(around(6, 0, 0.72));
    case "hexagon": return polygon(around(6, Math.PI / 6));
    case "triangle": return polygon([[cx, y], [x + w, y + h], [x, y + h]]);
    case "pentagon": return polygon(around(5, 0));
    case "chevron": return polygon([[cx, y], [x + w, y + h * 0.55], [x + w, y + h], [cx, y + h * 0.5],
      [x, y + h], [x, y + h * 0.55]]);
    case "drop": return svgEl("path", { class: "badge-shape", fill,
      "stroke-width": (font * 0.08).toFixed(2),
      d: `M${cx} ${y} C${x + w} ${y + h * 0.45} ${x + w} ${y + h} ${cx} ${y + h} ` +
         `C${x} ${y + h} ${x} ${y + h * 0.45} ${cx} ${y}Z` });
    default: return svgEl("rect", { class: "badge-shape", fill, x, y, width: w, height: h,
      "stroke-width": (font * 0.08).toFixed(2) });
  }
}

// ---- the pieces' labels, laid out again at the screen's size ---------------------------------
// As the mat picture lays them (automa/render/labels.py): rings of spots round the disc,
// nearest first, then the nearest free spot of the mat; a thin leader back to a label set away.

const NARROW_CHARS = new Set("ijlIJ.,:;'!|()[]ftr- "), MIDDLING_CHARS = new Set("cksvxyz");
const PLAIN_CAPITALS = new Set("EFLPSTY"), WIDE_CHARS = new Set("mwMW@%");
const LABEL_GAPS = [2, 8, 16, 28, 44, 64, 90, 120, 160, 210];

function textWidth(text, size) {
  let em = 0;
  for (const c of text) {
    if (NARROW_CHARS.has(c)) em += 0.42;
    else if (MIDDLING_CHARS.has(c)) em += 0.6;
    else if (WIDE_CHARS.has(c) || c.charCodeAt(0) > 127) em += 1;
    else if (c !== c.toLowerCase() && !PLAIN_CAPITALS.has(c)) em += 0.8;
    else em += 0.64;
  }
  return em * size;
}

function boxesOverlap(a, b) { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]; }

function discHitsBox(d, b) {
  const nx = Math.min(Math.max(d[0], b[0]), b[2]), ny = Math.min(Math.max(d[1], b[1]), b[3]);
  return Math.hypot(d[0] - nx, d[1] - ny) < d[2];
}

function relabel(svg, font, blocked) {
  const pad = font * 0.2;
  const kept = new Map();
  for (const old of svg.querySelectorAll("g.label")) {
    kept.set(old.dataset.for, old.getAttribute("transform"));
    old.remove();
  }
  const mat = svg.querySelector("rect.mat");
  if (!mat) return;
  const bx = Number(mat.getAttribute("x")), by = Number(mat.getAttribute("y"));
  const bounds = [bx, by, bx + Number(mat.getAttribute("width")),
    by + Number(mat.getAttribute("height"))];
  const discs = [], taken = blocked.map((b) => b.slice());
  const pieces = [...svg.querySelectorAll("g.piece")];
  for (const g of pieces) {
    const c = g.querySelector("circle");
    discs.push([Number(c.getAttribute("cx")), Number(c.getAttribute("cy")), Number(c.getAttribute("r"))]);
  }
  for (const node of svg.querySelectorAll(".obstacle, circle.rune")) {
    const b = node.getBBox();
    taken.push([b.x, b.y, b.x + b.width, b.y + b.height]);
  }
  const free = (b) => {
    const g = [b[0] - 0.5, b[1] - 0.5, b[2] + 0.5, b[3] + 0.5];
    return taken.every((t) => !boxesOverlap(g, t)) && discs.every((d) => !discHitsBox(d, g));
  };
  const inside = (b) => b[0] >= bounds[0] && b[1] >= bounds[1] && b[2] <= bounds[2] && b[3] <= bounds[3];
  const layer = svg.querySelector("#overlays");
  // a piece whose place nobody measured stands in the tray under the mat with its name there
  const unplaced = new Set((board.view ? board.view.pieces : [])
    .filter((p) => p.measured === false).map((p) => p.id));
  pieces.forEach((g, index) => {
    const [x, y, r] = discs[index];
    const text = g.dataset.piece;
    if (unplaced.has(text)) return;
    const w = textWidth(text, font) + 2 * pad, h = font * 1.25 + 2 * pad;
    let chosen = null, leader = false, first = true;
    for (const gap of LABEL_GAPS.map((v) => (v * font) / 11)) {
      for (let deg = 0; deg < 360 && !chosen; deg += 30) {
        const ux = Math.sin((deg * Math.PI) / 180), uy = -Math.cos((deg * Math.PI) / 180);
        const reach = r + gap;
        let cx = x + ux * (reach + w / 2), cy = y + uy * (reach + h / 2);
        if (deg % 90) {
          cx = x + ux * reach + Math.sign(ux) * (w / 2);
          cy = y + uy * reach + Math.sign(uy) * (h / 2);
        }
        const b = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
        if (inside(b) && free(b)) { chosen = b; leader = !first; }
      }
      if (chosen) break;
      first = false;
    }
    if (!chosen) {
      let best = null, bestD = Infinity;
      for (let sy = bounds[1]; sy + h <= bounds[3]; sy += font) {
        for (let sx = bounds[0]; sx + w <= bounds[2]; sx += font) {
          const b = [sx, sy, sx + w, sy + h];
          const d = Math.hypot(sx + w / 2 - x, sy + h / 2 - y);
          if (d < bestD && free(b)) { best = b; bestD = d; }
        }
      }
      chosen = best || [Math.min(Math.max(bounds[0], x - w / 2), bounds[2] - w),
        Math.max(bounds[1], y - r - h), 0, 0];
      if (!best) { chosen[2] = chosen[0] + w; chosen[3] = chosen[1] + h; }
      leader = !!best;
    }
    taken.push(chosen);
    const label = svgEl("g", { class: "label", "data-for": text,
      "data-box": chosen.map((v) => v.toFixed(1)).join(" ") });
    if (kept.get(text)) label.setAttribute("transform", kept.get(text));
    if (leader) {
      const ex = Math.min(Math.max(x, chosen[0]), chosen[2]), ey = Math.min(Math.max(y, chosen[1]), chosen[3]);
      const len = Math.hypot(ex - x, ey - y) || 1;
      label.appendChild(svgEl("line", { class: "leader", x1: (x + ((ex - x) * r) / len).toFixed(1),
        y1: (y + ((ey - y) * r) / len).toFixed(1), x2: ex.toFixed(1), y2: ey.toFixed(1),
        stroke: "#333", "stroke-width": (font * 0.08).toFixed(2) }));
    }
    label.appendChild(svgEl("rect", { x: chosen[0].toFixed(1), y: chosen[1].toFixed(1),
      width: w.toFixed(1), height: h.toFixed(1), rx: 2, fill: "#fff", "fill-opacity": 0.9,
      stroke: "#000", "stroke-width": (font * 0.05).toFixed(2) }));
    const t = svgEl("text", { x: (chosen[0] + pad).toFixed(1), y: (chosen[3] - pad - font * 0.3).toFixed(1),
      "font-size": font.toFixed(2) });
    t.textContent = text;
    label.appendChild(t);
    svg.insertBefore(label, layer);
  });
}

// The piece acting now (a thick ring) and its target (a dashed ring): the question's actor
// while the table is asked, else the activation on screen in the AI turn.
function markActors() {
  const svg = matSvg();
  if (!svg) return;
  for (const ring of svg.querySelectorAll("circle.acting-ring, circle.target-ring")) ring.remove();
  for (const g of svg.querySelectorAll("g.piece.acting, g.piece.targeted")) {
    g.classList.remove("acting", "targeted");
  }
  const who = subject();
  svg.dataset.acting = who && who.actor ? who.actor : "";
  svg.dataset.target = who && who.target ? who.target : "";
  const per = unitsPerPixel(svg) || 1;
  const ring = (id, cls, width, dash) => {
    const g = id ? svg.querySelector(`g.piece[data-piece="${CSS.escape(id)}"]`) : null;
    const disc = g && g.querySelector("circle");
    if (!disc) return;
    g.classList.add(cls === "acting-ring" ? "acting" : "targeted");
    const attrs = { class: cls, cx: disc.getAttribute("cx"), cy: disc.getAttribute("cy"),
      r: (Number(disc.getAttribute("r")) + (width / 2 + 2) * per).toFixed(2),
      "stroke-width": (width * per).toFixed(2) };
    if (dash) attrs["stroke-dasharray"] = `${(6 * per).toFixed(2)} ${(4 * per).toFixed(2)}`;
    g.insertBefore(svgEl("circle", attrs), disc.nextSibling);
  };
  if (!who) return;
  ring(who.actor, "acting-ring", 5, false);
  if (who.target && who.target !== who.actor) ring(who.target, "target-ring", 3, true);
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

// Who the card and the rings are about: the question's actor while the table is asked; else the
// activation on screen (in the AI turn: acting now, or the last to act); else, in the AI turn,
// whoever acts next.
function subject() {
  const view = board.view;
  const q = board.question || board.elsewhere;
  if (q && q.actor) {
    return { actor: q.actor, name: q.actor_name, target: q.target, targetName: q.target_name,
      why: q.target_reason, state: "asked" };
  }
  const shown = board.shown && board.shown.act ? board.shown : null;
  if (shown && view && view.phase === "ai") {
    const act = shown.act;
    return { actor: act.character, target: act.target, why: act.reason, act, count: shown.count,
      state: shown.count < act.steps.length ? "acting" : "acted" };
  }
  if (view && view.phase === "ai" && view.turn.next) {
    return { actor: view.turn.next, target: null, state: "next" };
  }
  return null;
}

function pieceName(id) {
  const view = board.view;
  const card = view && view.cards && view.cards[id];
  if (card) return card.name;
  const piece = view && view.pieces.find((p) => p.id === id);
  return piece ? piece.name || id : id;
}

// The turn order as a strip: who has acted, who acts now, who is next, who is still to act
function drawTurn(view) {
  const list = $("order");
  clear(list);
  const who = subject();
  const now = who && (who.state === "asked" || who.state === "acting") ? who.actor : null;
  const items = [
    ...view.turn.done.filter((id) => id !== now).map((id) => [id, "done"]),
    ...(now ? [[now, "now"]] : []),
    ...(view.turn.next && view.turn.next !== now ? [[view.turn.next, "next"]] : []),
    ...view.turn.pending.filter((id) => id !== now).map((id) => [id, "pending"]),
  ];
  const words = { done: "has acted", now: "acts now", next: "acts next", pending: "still to act" };
  for (const [id, cls] of items) {
    const li = el("li", pieceName(id), cls);
    li.dataset.piece = id;
    li.title = `${id}: ${words[cls]}`;
    li.setAttribute("aria-label", `${pieceName(id)} (${id}): ${words[cls]}`);
    list.appendChild(li);
  }
  if (!items.length) list.appendChild(el("li", view.phase === "heroes" ?
    "the heroes act; press Done when they are finished" :
    view.phase === "over" ? "the battle is over" : "—", "none"));
}

// The acting monster's card, in large type: name, family, level, health, its sequences with the
// one chosen, its target and why, and the step on screen now.
function drawActing() {
  const view = board.view;
  if (!view) return;
  const who = subject();
  const box = $("acting");
  const last = board.shown && board.shown.act;
  const show = who || (last ? { actor: last.character, target: last.target, why: last.reason,
    act: last, count: board.shown.count, state: "last" } : null);
  box.classList.toggle("waiting", !show);
  box.dataset.piece = show ? show.actor : "";
  box.dataset.target = show && show.target ? show.target : "";
  box.dataset.state = show ? show.state : "none";
  const sequences = $("acting-sequences");
  clear(sequences);
  if (!show) {
    $("acting-state").textContent = view.phase === "over" ? "The battle is over" : "";
    $("acting-name").textContent = view.phase === "heroes" ? "The heroes' turn" : "No activation yet";
    $("acting-facts").textContent = view.phase === "heroes" ? "Press Done when the heroes are finished." : "";
    for (const id of ["acting-target", "acting-step", "acting-next"]) $(id).textContent = "";
    return;
  }
  const card = (view.cards || {})[show.actor];
  const states = { asked: board.question ? "Acting now · the table is asked" :
    "Acting now · asked on another device", acting: "Acting now",
    acted: "Has acted", next: "Acts next", last: `Acted last · round ${view.acting ? view.acting.round : view.round}` };
  $("acting-state").textContent = states[show.state];
  $("acting-name").textContent = card ? card.name : show.name || show.actor;
  const facts = [];
  if (card) {
    if (card.family) facts.push(card.family);
    if (card.level !== null && card.level !== undefined) facts.push(`level ${card.level}`);
    facts.push(card.in_play ? (card.health === null ? "no health track" :
      `health ${card.health}${card.max_health ? "/" + card.max_health : ""}`) : "out of play");
    if (card.conditions.length) facts.push(card.conditions.join(", "));
  }
  $("acting-facts").textContent = facts.join(" · ");
  const chosenText = show.act && show.act.sequence.length ? show.act.sequence.join(" then ") : null;
  const listed = card ? card.sequences : [];
  listed.forEach((text) => {
    const li = el("li", text, text === chosenText ? "chosen" : "");
    sequences.appendChild(li);
  });
  if (chosenText && !listed.includes(chosenText)) {
    sequences.appendChild(el("li", chosenText, "chosen"));
  }
  const target = $("acting-target");
  clear(target);
  if (show.state === "next") {
    target.textContent = "";
  } else if (show.target) {
    target.appendChild(document.createTextNode("Target: "));
    target.appendChild(el("b", show.targetName || pieceName(show.target)));
    if (show.why) target.appendChild(el("span", ` — ${show.why}`, "why"));
  } else if (show.state === "asked") {
    target.textContent = "Target: not chosen yet";
  } else {
    target.textContent = `No target${show.why ? " — " + show.why : ""}`;
  }
  let step = "";
  if (show.state === "asked") step = (board.question || board.elsewhere).prompt;
  else if (show.act && show.count > 0) step = stepWords(show.act.steps[show.count - 1]);
  $("acting-step").textContent = step;
  const next = view.phase === "ai" && view.turn.next && show.state !== "next" && show.state !== "asked" &&
    !(show.act && show.count < show.act.steps.length) ? `Next: ${pieceName(view.turn.next)} (press Next)` : "";
  $("acting-next").textContent = next;
}

// What follows the activation on screen: the turn strip, the card, the rings on the mat
function drawLive() {
  if (!board.view) return;
  drawTurn(board.view);
  drawActing();
  markActors();
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
  const working = threatWorking(t);
  try {
    // a phone gets 2 cm squares: a quarter of the answer (about 120 KB, not 520) over wifi
    const step = NARROW.matches ? 2 : 1;
    const data = await getJSON(`/api/threat?hero=${encodeURIComponent(t.hero)}&step=${step}`);
    working();
    if (board.threat !== t) return;
    if (!t.data || t.data.version !== board.version) t.data = data;
    // drawn only over the battle it is of: an answer overtaken by a newer log waits for its view
    if (data.version === board.version) paintThreat(data);
  } catch (err) {
    working();
    if (board.threat === t) {
      board.threat = null;
      $("threat-panel").hidden = true;
      drawPieces(board.view);
    }
    say(err.message);
  }
}

// While a map is worked out, the panel says how far it has got ("Working... N %", the AI
// pieces mapped of those in all, from /api/threat/progress), not a frozen page; the call
// returned stops the polling and hides the line.
const PROGRESS_MS = 250;

function threatWorking(t) {
  const line = $("threat-progress");
  const show = (fraction) => {
    if (board.threat !== t) return;
    line.hidden = false;
    line.textContent = `Working... ${Math.round(100 * fraction)} %`;
  };
  show(0);
  $("threat-hero").textContent = `· ${t.hero}`;
  $("threat-words").textContent = "";
  clear($("threat-legend"));
  let done = false;
  const timer = setInterval(async () => {
    try {
      const now = await getJSON("/api/threat/progress");
      if (!done && now.working) show(now.fraction);
    } catch (e) { /* the map's own answer says what went wrong */ }
  }, PROGRESS_MS);
  return () => {
    done = true;
    clearInterval(timer);
    if (board.threat === t || !board.threat) line.hidden = true;
  };
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

// A length as a player with a ruler reads it: a millimetre where it is a close call
function cm(length) {
  const size = Math.abs(length);
  return `${size.toFixed(size < 1 ? 2 : 1)} cm`;
}

// One step of an activation in words; a move says how far, not between which coordinates (the
// mat shows where; a player with a real ruler measures a length, not a place)
function stepWords(step) {
  const far = (a, b) => cm(Math.hypot(b[0] - a[0], b[1] - a[1]));
  switch (step.kind) {
    case "shot": return `shot ${step.shot}${step.as !== step.shot ? ` as ${step.as}` : ""}` +
      (step.note ? ` (${step.note})` : "");
    case "roll": return `${step.die}: ${step.value} (${step.why})${step.result ? " → " + step.result : ""}`;
    case "move": return `${step.piece} moves ` + // asked geometry: no ends (nobody measured)
      (step.to && step.from ? far(step.from, step.to) : "along the ruler") + `: ${step.why}, ` +
      `${step.tool}${step.clock ? `, clock face ${step.clock}` : ""}` +
      (step.toward ? `, toward ${step.toward}` : "") +
      (step.stopped_by ? `, stopped by ${step.stopped_by}` : "");
    case "attack": return `Attack template on ${step.piece}: ${step.target} ` +
      `${step.covers ? "covered" : "not covered"}` +
      (step.margin === null || step.margin === undefined ? "" : ` (by ${cm(step.margin)})`);
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
  drawSteps();
  drawLive();
}

// The activation on screen, its steps so far listed and drawn over the mat; none of it while a
// question is open (the mat then shows the piece asked about, not the one before it)
function drawSteps() {
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
  if (!overlays || board.question || board.elsewhere) return;
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
  board.question = question;
  showAskedElsewhere(null); // this page is the one asked
  $("question").hidden = false;
  $("question").dataset.kind = question.kind;
  $("question").dataset.actor = question.actor || "";
  $("question").dataset.target = question.target || "";
  const actor = $("question-actor");
  clear(actor);
  if (question.actor) {
    actor.appendChild(document.createTextNode(`${question.actor_name || question.actor} acts` +
      (question.target ? ` — at ${question.target_name || question.target}` :
        " — its target is not chosen yet")));
    if (question.target && question.target_reason) {
      actor.appendChild(el("span", ` (${question.target_reason})`, "why"));
    }
  }
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
  $("next").disabled = true;
  drawActivation(); // the previous activation's lines leave the mat; this actor is ringed
  $("question").scrollIntoView({ block: "nearest" });
  box.querySelector("button")?.focus({ preventScroll: true });
}

// A question Next put to another device (the one answering it shows the question itself):
// this page says what the table was asked there, until the log moves on. While this page's own
// Next is on its way (busy), the question the server reports is this page's own.
// The card and the mat follow that question too: its actor and target, not the activation before.
function showAskedElsewhere(prompt, about) {
  const note = $("asked-elsewhere");
  const shown = !!prompt && board.answers === null && !board.busy;
  note.hidden = !shown;
  const who = shown && about && about.actor ? ` (${about.actor_name || about.actor} acts` +
    (about.target ? ` — at ${about.target_name || about.target})` : ")") : "";
  note.textContent = shown ? `Asked on another device${who}: ${prompt}` : "";
  const elsewhere = shown && about && about.actor ? { ...about, prompt } : null;
  if (JSON.stringify(elsewhere) !== JSON.stringify(board.elsewhere)) {
    board.elsewhere = elsewhere;
    if (board.view && board.shown) drawActivation();
  }
}

function closeQuestion() {
  const open = board.question !== null;
  board.answers = null;
  board.pinned = null;
  board.question = null;
  $("question").hidden = true;
  if (board.view) drawHeader(board.view);
  if (open && board.view) drawActivation();
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

// ---- the page's own switches: the legend, the panels, Large type; the zoom; staying awake ----

const PREFERENCES = { legend: ["automa.board.legend", false], panels: ["automa.board.panels", true],
  large: ["automa.board.large", false] };

// A switch as this device last left it (localStorage; its default when there is none, or when
// the browser keeps no storage)
function preference(name) {
  const [key, fallback] = PREFERENCES[name];
  try {
    const kept = window.localStorage.getItem(key);
    return kept === null ? fallback : kept === "true";
  } catch (e) {
    return fallback;
  }
}

function flip(name) {
  const on = !preference(name);
  try { window.localStorage.setItem(PREFERENCES[name][0], String(on)); } catch (e) { /* kept for now */ }
  applyPreferences(name === "legend");
}

function applyPreferences(legendChanged) {
  const body = document.body;
  body.dataset.legend = preference("legend") ? "shown" : "folded";
  body.dataset.panels = preference("panels") ? "shown" : "folded";
  if (preference("large")) body.dataset.large = "true";
  else delete body.dataset.large;
  for (const name of Object.keys(PREFERENCES)) {
    $(`toggle-${name}`).setAttribute("aria-pressed", String(preference(name)));
  }
  const svg = matSvg();
  if (svg && board.view && legendChanged) foldLegend(svg, board.view);
  board.dressedAt = null;
  requestAnimationFrame(dressMat); // once the new layout has its sizes
}

function zoom(by) {
  const at = ZOOMS.indexOf(board.zoom);
  board.zoom = by === 0 ? 1 : ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, at + by))];
  $("mat").style.setProperty("--zoom", String(board.zoom));
  $("mat").dataset.zoom = String(board.zoom);
  $("zoom-out").disabled = board.zoom === ZOOMS[0];
  $("zoom-in").disabled = board.zoom === ZOOMS[ZOOMS.length - 1];
  requestAnimationFrame(dressMat);
}

// The screen stays awake while the battle is live (Screen Wake Lock), and the lock is taken
// again when the tab comes back (the browser drops it when the tab is hidden). A browser
// without it, or one that refuses, simply lets the screen sleep.
const awake = { want: false, sentinel: null, asking: false };

async function stayAwake(want) {
  awake.want = want;
  const lock = navigator.wakeLock;
  if (!lock || typeof lock.request !== "function") { document.body.dataset.wake = "unsupported"; return; }
  if (!want) {
    const held = awake.sentinel;
    awake.sentinel = null;
    document.body.dataset.wake = "off";
    if (held) { try { await held.release(); } catch (e) { /* gone already */ } }
    return;
  }
  if ((awake.sentinel && !awake.sentinel.released) || awake.asking) return;
  if (document.visibilityState !== "visible") return;
  awake.asking = true;
  try {
    const held = await lock.request("screen");
    awake.sentinel = held;
    document.body.dataset.wake = "on";
    held.addEventListener("release", () => {
      if (awake.sentinel !== held) return;
      awake.sentinel = null;
      document.body.dataset.wake = "released";
    });
    if (!awake.want) stayAwake(false); // the battle ended while it was asked for
  } catch (e) {
    document.body.dataset.wake = "refused";
  } finally {
    awake.asking = false;
  }
}

function start() {
  applyPreferences(false);
  watchOnly();
  $("toggle-legend").addEventListener("click", () => flip("legend"));
  $("toggle-panels").addEventListener("click", () => flip("panels"));
  $("toggle-large").addEventListener("click", () => flip("large"));
  $("zoom-in").addEventListener("click", () => zoom(1));
  $("zoom-out").addEventListener("click", () => zoom(-1));
  $("zoom-fit").addEventListener("click", () => zoom(0));
  zoom(0);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && awake.want) stayAwake(true);
  });
  new ResizeObserver(() => dressMat()).observe($("mat"));
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
  act, post, say, getJSON, refresh, next, el, clear, svgEl, matSvg, toSvg, toCm, clientToSvg,
  hold: (on) => { board.held = !!on; },
  view: () => board.view,
  readOnly: () => board.readOnly,
  answering: () => board.answers !== null,
};

document.addEventListener("DOMContentLoaded", start);
