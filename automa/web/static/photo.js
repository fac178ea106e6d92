// Positions from a photo (docs/serve.md): the Photo button uploads a phone photo of the mat to
// this board's own server (never anywhere else), which reads it against the battle and answers
// the pieces it found. Each found piece is drawn over the mat as a ring where the photo puts
// it, with an arrow from where it stood; a piece named with less confidence than the bar is
// marked "check"; pieces not found and discs no piece fits are listed in words. Any ring can be
// dragged (mouse or finger) to correct it; Confirm records the moves (one `move` input each,
// undone one by one), Cancel drops them. "Empty mat" keeps a photo of the mat side without
// pieces, which every later photo is compared with. Plain JavaScript; every string from the
// server goes in as textContent or an SVG attribute.
"use strict";

(() => {
  const LIMIT = 40 * 1024 * 1024; // bytes: the server refuses a larger photo (web/photo.py)
  const PROGRESS_MS = 300; // how often the reading's step is asked while it goes on
  const DRAG_PX = 3; // a press that moves less than this is a tap, not a drag
  const TOUCH_PX = 44; // a ring takes a press this wide (CSS px) however small its disc is drawn

  const photo = {
    proposal: null, // the server's answer to the latest photo, or null
    rings: new Map(), // piece id -> {at: [x, y], dragged: bool}: where Confirm puts it
    reading: false,
    run: 0, // counts the readings: a reading's progress loop stops when another begins
    drag: null,
    ticket: 0, // moves on when the players drop a photo: a reading still going on is then ignored
  };

  const NARROW = window.matchMedia("(max-width: 800px)"); // the phone layout (board.css)
  const B = () => window.automaBoard;
  const $ = (id) => document.getElementById(id);

  function pieceOf(id) {
    const view = B().view();
    return view ? view.pieces.find((p) => p.id === id) : null;
  }

  function nameOf(id) {
    const piece = pieceOf(id);
    return piece ? `${piece.name} (${id})` : id;
  }

  // the piece stands there already (a ring dragged back onto it is no move)
  function standsAt(id, at) {
    const piece = pieceOf(id);
    return !!piece && piece.measured && Math.hypot(piece.x - at[0], piece.y - at[1]) < 0.01;
  }

  function cm(value) { return `${Number(value).toFixed(1)} cm`; }

  // ---- uploading ------------------------------------------------------------------------------

  async function upload(path, file) {
    const answer = await fetch(path, {
      method: "POST", cache: "no-store",
      headers: { "Content-Type": file.type && file.type.startsWith("image/") ? file.type : "image/unknown" },
      body: file,
    });
    let data;
    try { data = await answer.json(); } catch (e) { data = { error: `HTTP ${answer.status}` }; }
    if (!answer.ok) throw new Error(data.error || `${path}: HTTP ${answer.status}`);
    return data;
  }

  // While a photo is read (seconds), its step as the server reports it
  async function followProgress(what, run) {
    const mine = () => photo.reading && photo.run === run;
    while (mine()) {
      await new Promise((done) => setTimeout(done, PROGRESS_MS));
      if (!mine()) return;
      try {
        const now = await B().getJSON("/api/photo/progress");
        if (mine() && now.reading) {
          // the vision names its steps in words ("finding the marker cards", ...)
          const step = now.step === "starting" ? "" : ` ${now.step}`;
          showState(`Reading ${what}…${step} (${Math.round(now.fraction * 100)} %)`, "reading");
        }
      } catch (e) { /* the answer to the photo itself says what went wrong */ }
    }
  }

  async function read(path, file, what) {
    if (photo.reading || B().readOnly()) return null;
    if (file.size > LIMIT) {
      fail(`the photo is ${(file.size / 1048576).toFixed(0)} MB; the board takes photos up to ` +
        `${LIMIT / 1048576} MB (a phone's own camera app makes smaller ones)`);
      return null;
    }
    const ticket = photo.ticket;
    photo.reading = true;
    document.body.dataset.photo = "reading";
    $("photo").hidden = false;
    showState(`Reading ${what}…`, "reading");
    $("photo-confirm").hidden = true;
    $("photo-cancel").textContent = "Cancel";
    clear();
    $("photo").scrollIntoView({ block: "nearest" });
    photo.run += 1;
    followProgress(what, photo.run);
    try {
      return await upload(path, file);
    } catch (err) {
      if (ticket === photo.ticket) fail(err.message); // else the players dropped it meanwhile
      return null;
    } finally {
      photo.reading = false;
      if (document.body.dataset.photo === "reading") delete document.body.dataset.photo;
    }
  }

  async function onPhoto(file) {
    if (photo.reading) return;
    drop(false);
    const ticket = photo.ticket;
    const found = await read("/api/photo", file, "the photo");
    if (found && ticket === photo.ticket) propose(found);
  }

  async function onEmpty(file) {
    if (photo.reading) return;
    drop(false);
    const kept = await read("/api/photo/empty", file, "the empty mat");
    if (!kept) return;
    $("photo").hidden = true;
    B().say(`The empty mat is kept: the photos to come are compared with it (${kept.kept})`, true);
  }

  function fail(message) {
    $("photo").hidden = false;
    showState(message, "error");
    $("photo-confirm").hidden = true;
    $("photo-cancel").textContent = "Close";
    B().say(message);
  }

  function showState(text, kind) {
    const line = $("photo-state");
    line.textContent = text;
    line.dataset.kind = kind;
  }

  // ---- the proposal ---------------------------------------------------------------------------

  function propose(found) {
    photo.proposal = found;
    photo.rings = new Map(found.pieces.map((p) => [p.id, { at: p.at.slice(), dragged: false }]));
    document.body.dataset.photo = "proposed";
    $("photo").hidden = false;
    $("photo-cancel").textContent = "Cancel";
    B().say("");
    list();
    draw();
    // a phone: the mat (the rings to check and drag) with Confirm right under it
    if (NARROW.matches) $("board").scrollIntoView({ block: "start" });
  }

  // Confirm moves it: the photo says it moved, or its ring was dragged off where it stands
  function moving(p) {
    const ring = photo.rings.get(p.id);
    return ring.dragged ? !standsAt(p.id, ring.at) : p.move;
  }

  // The moves Confirm records: each piece the photo says moved, and each ring dragged
  function moves() {
    const found = photo.proposal ? photo.proposal.pieces : [];
    return found.filter((p) => moving(p))
      .map((p) => ({ piece: p.id, at: photo.rings.get(p.id).at.map((v) => Math.round(v * 100) / 100) }));
  }

  function list() {
    const found = photo.proposal;
    const box = $("photo-found");
    B().clear(box);
    B().clear($("photo-missing"));
    const count = moves().length;
    showState(count ? `${count} piece${count === 1 ? "" : "s"} moved: drag a ring to correct it, ` +
      "then Confirm" : "No piece moved since the last positions", "proposed");
    const still = [];
    for (const p of found.pieces) {
      const ring = photo.rings.get(p.id);
      const goes = moving(p);
      if (!goes && !p.check) { still.push(p.id); continue; }
      const li = B().el("li");
      li.dataset.piece = p.id;
      li.dataset.move = String(goes);
      li.appendChild(B().el("b", nameOf(p.id)));
      const how = ring.dragged ? (goes ? `placed by hand at ${ring.at[0].toFixed(1)}, ${ring.at[1].toFixed(1)}`
        : "put back where it stands: not moved")
        : p.from === null ? `found at ${p.at[0].toFixed(1)}, ${p.at[1].toFixed(1)} (its place was not known)`
          : goes ? `moved ${cm(p.moved)}` : "not moved";
      li.appendChild(document.createTextNode(`: ${how}`));
      if (p.check && !ring.dragged) {
        li.classList.add("check");
        li.appendChild(B().el("span", ` check it: named with ${Math.round(p.confidence * 100)} % ` +
          `confidence (the bar is ${Math.round(found.confident * 100)} %)`, "photo-check"));
      }
      box.appendChild(li);
    }
    if (still.length) {
      const li = B().el("li", `Not moved: ${still.map(nameOf).join(", ")}`, "still");
      li.dataset.move = "false";
      box.appendChild(li);
    }
    for (const id of found.missing) {
      $("photo-missing").appendChild(B().el("li", `Not found: ${nameOf(id)}; it stays where it was ` +
        "(drag it on the mat if it moved)", "missing"));
    }
    for (const u of found.unknown) {
      $("photo-missing").appendChild(B().el("li", `A disc no piece fits at ${u.at[0].toFixed(1)}, ` +
        `${u.at[1].toFixed(1)} (radius ${cm(u.radius)})`, "unknown"));
    }
    const confirm = $("photo-confirm");
    confirm.hidden = false;
    confirm.disabled = count === 0;
    confirm.textContent = count ? `Confirm ${count} move${count === 1 ? "" : "s"}` : "Confirm";
  }

  function clear() {
    B().clear($("photo-found"));
    B().clear($("photo-missing"));
    const svg = B().matSvg();
    const layer = svg && svg.querySelector("#photo-layer");
    if (layer) layer.remove();
  }

  // Dropped: nothing recorded, the rings gone (hide: the panel too)
  function drop(hide) {
    photo.ticket += 1;
    photo.proposal = null;
    photo.rings = new Map();
    photo.drag = null;
    B().hold(false);
    delete document.body.dataset.photo;
    clear();
    if (hide) $("photo").hidden = true;
  }

  async function confirm() {
    // no `version`: a piece the players dragged meanwhile (one the photo missed) moves the
    // log on, and the places confirmed are still what they say; each move is checked anew
    const body = { moves: moves() };
    if (!body.moves.length) return;
    const count = body.moves.length;
    const done = await B().act("/api/photo/confirm", body,
      `${count} move${count === 1 ? "" : "s"} recorded from the photo (Undo takes back one at a time)`);
    if (done) drop(true);
  }

  // ---- drawing over the mat -------------------------------------------------------------------

  // SVG units per CSS pixel as the mat is drawn now
  function perPixel(svg) {
    const m = svg.getScreenCTM();
    return m && m.a > 0 ? 1 / m.a : 0.1;
  }

  function arrow(layer, id, from, to, r, per, moving) {
    const [x1, y1] = B().toSvg(from[0], from[1]);
    const [x2, y2] = B().toSvg(to[0], to[1]);
    const length = Math.hypot(x2 - x1, y2 - y1);
    if (length <= r + 1e-6) return; // it stands (nearly) where it stood: no arrow
    const ux = (x2 - x1) / length, uy = (y2 - y1) / length;
    const ex = x2 - ux * r, ey = y2 - uy * r; // the arrow ends on the ring
    const head = Math.min(14 * per, Math.max(6 * per, (length - r) / 2));
    const g = B().svgEl("g", { class: `photo-arrow${moving ? "" : " still"}`, "data-piece": id });
    g.appendChild(B().svgEl("line", { x1, y1, x2: ex - ux * head * 0.8, y2: ey - uy * head * 0.8,
      "vector-effect": "non-scaling-stroke" }));
    const side = head * 0.55;
    const points = [[ex, ey], [ex - ux * head - uy * side, ey - uy * head + ux * side],
      [ex - ux * head + uy * side, ey - uy * head - ux * side]];
    g.appendChild(B().svgEl("polygon", { points: points.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" ") }));
    layer.appendChild(g);
  }

  function draw() {
    const svg = B().matSvg();
    if (!svg) return;
    const old = svg.querySelector("#photo-layer");
    if (old) old.remove();
    const found = photo.proposal;
    if (!found || !B().view()) return;
    const scale = Number(svg.getAttribute("data-scale")) || 10;
    const per = perPixel(svg);
    const font = Math.max(Number(svg.dataset.font) || 0, 14 * per);
    const layer = B().svgEl("g", { id: "photo-layer" });
    for (const u of found.unknown) {
      const [x, y] = B().toSvg(u.at[0], u.at[1]);
      const g = B().svgEl("g", { class: "photo-unknown" });
      g.appendChild(B().svgEl("circle", { cx: x, cy: y, r: u.radius * scale, "vector-effect": "non-scaling-stroke" }));
      const t = B().svgEl("text", { x, y: y + font * 0.35, "text-anchor": "middle", "font-size": font.toFixed(2) });
      t.textContent = "?";
      g.appendChild(t);
      layer.appendChild(g);
    }
    // the rings that stay first: a moved ring, drawn over them, takes a press where they meet
    const order = [...found.pieces].sort((a, b) => Number(moving(a)) - Number(moving(b)));
    for (const p of order) {
      const piece = pieceOf(p.id);
      const ring = photo.rings.get(p.id);
      const goes = moving(p);
      const r = (piece ? piece.radius : 1.5) * scale;
      if (p.from) arrow(layer, p.id, p.from, ring.at, r, per, goes);
      const [x, y] = B().toSvg(ring.at[0], ring.at[1]);
      const g = B().svgEl("g", {
        class: `photo-ring${goes ? " moving" : " still"}${p.check && !ring.dragged ? " check" : ""}${ring.dragged ? " dragged" : ""}`,
        "data-piece": p.id, tabindex: "0", role: "button",
        "aria-label": `${nameOf(p.id)} in the photo, at ${ring.at[0].toFixed(1)}, ${ring.at[1].toFixed(1)}` +
          (p.check && !ring.dragged ? ": check it" : "") + "; drag to correct",
      });
      // a finger's reach around a small disc on a phone: at least TOUCH_PX across
      g.appendChild(B().svgEl("circle", { class: "photo-hit", cx: x, cy: y, r: Math.max(r, TOUCH_PX / 2 * per) }));
      g.appendChild(B().svgEl("circle", { class: "photo-disc", cx: x, cy: y, r, "vector-effect": "non-scaling-stroke" }));
      const label = B().svgEl("text", { x, y: y - r - font * 0.3, "text-anchor": "middle",
        "font-size": font.toFixed(2) });
      label.textContent = p.check && !ring.dragged ? `${p.id} ?` : p.id;
      g.appendChild(label);
      layer.appendChild(g);
    }
    svg.appendChild(layer);
  }

  // ---- dragging a ring ------------------------------------------------------------------------

  function ringOf(target) {
    const g = target instanceof Element ? target.closest("g.photo-ring") : null;
    return g && B().matSvg() && B().matSvg().contains(g) ? g : null;
  }

  function onDown(event) {
    const g = ringOf(event.target);
    if (!g || !photo.proposal || event.button > 0) return;
    event.preventDefault();
    event.stopPropagation();
    const ring = photo.rings.get(g.dataset.piece);
    const [sx, sy] = B().clientToSvg(event.clientX, event.clientY);
    const [px, py] = B().toSvg(ring.at[0], ring.at[1]);
    photo.drag = { g, id: g.dataset.piece, start: [sx, sy], offset: [px - sx, py - sy],
      moved: false, pointer: event.pointerId, client: [event.clientX, event.clientY] };
    B().hold(true);
    try { g.setPointerCapture(event.pointerId); } catch (e) { /* the mat keeps the drag */ }
  }

  function onMove(event) {
    const drag = photo.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    event.stopPropagation();
    if (!drag.moved && Math.hypot(event.clientX - drag.client[0], event.clientY - drag.client[1]) < DRAG_PX) return;
    drag.moved = true;
    const [sx, sy] = B().clientToSvg(event.clientX, event.clientY);
    drag.g.classList.add("dragging");
    drag.g.setAttribute("transform", `translate(${(sx - drag.start[0]).toFixed(2)} ${(sy - drag.start[1]).toFixed(2)})`);
  }

  function onUp(event) {
    const drag = photo.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    event.stopPropagation();
    photo.drag = null;
    B().hold(false);
    if (drag.moved && photo.proposal) {
      const [sx, sy] = B().clientToSvg(event.clientX, event.clientY);
      const at = B().toCm(sx + drag.offset[0], sy + drag.offset[1]);
      photo.rings.set(drag.id, { at: at.map((v) => Math.round(v * 100) / 100), dragged: true });
      list();
    }
    draw();
  }

  function onCancel() {
    if (!photo.drag) return;
    photo.drag = null;
    B().hold(false);
    draw();
  }

  // The keyboard: arrows move a focused ring by a millimetre (with Shift, a centimetre)
  function onKey(event) {
    const g = ringOf(event.target);
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key];
    if (!g || !step || !photo.proposal) return;
    event.preventDefault();
    const by = event.shiftKey ? 1 : 0.1;
    const ring = photo.rings.get(g.dataset.piece);
    const at = [ring.at[0] + step[0] * by, ring.at[1] + step[1] * by].map((v) => Math.round(v * 100) / 100);
    photo.rings.set(g.dataset.piece, { at, dragged: true });
    list();
    draw();
    const again = B().matSvg().querySelector(`g.photo-ring[data-piece="${CSS.escape(g.dataset.piece)}"]`);
    if (again) again.focus();
  }

  function fileInput(id, handle) {
    const input = $(id);
    input.addEventListener("change", () => {
      const file = input.files && input.files[0];
      input.value = ""; // the same photo chosen again is read again
      if (file) handle(file);
    });
  }

  function start() {
    fileInput("photo-file", onPhoto);
    fileInput("empty-file", onEmpty);
    fileInput("panel-empty-file", onEmpty); // the panel's own (a phone's bar has no room for it)
    $("photo-confirm").addEventListener("click", confirm);
    $("photo-cancel").addEventListener("click", () => {
      const had = photo.proposal !== null;
      drop(true);
      if (had) B().say("the photo's moves are dropped: nothing was recorded", true);
    });
    const mat = $("mat");
    // capture: a ring over a piece takes the press before board.js's piece dragging sees it
    mat.addEventListener("pointerdown", onDown, true);
    mat.addEventListener("pointermove", onMove, true);
    mat.addEventListener("pointerup", onUp, true);
    mat.addEventListener("pointercancel", onCancel, true);
    mat.addEventListener("keydown", onKey, true);
    document.addEventListener("board:view", () => { if (photo.proposal) draw(); });
  }

  document.addEventListener("DOMContentLoaded", start);
})();
