// A hero's hit by buttons, and damage and heal by tapping a piece. Plain JavaScript, nothing
// from the internet; every string from the session goes in as textContent.
//
// The hit: the pieces struck (buttons, or "Target" in a tapped piece's menu), the shot and its
// modifiers, the hero who shot and whether the shot went through the Trilithon, all built from
// the view's `hits` (the shots and modifiers `hit` resolves, the pieces it may strike, the
// heroes); then the numbers the table must give for it (POST /api/hit-questions: the Poison
// card drawn, the Portal Trap's D12 with physical dice), one button per value; then POST
// /api/hit. Tapping a piece on the mat opens a small menu by it: damage -1/-2/-3 (by a hero,
// for the kill), heal +1/+2. board.js says when a view comes ("board:view") and when a piece
// is tapped ("board:tap"), and lends `act`, `post`, `say`, `el` (window.automaBoard).
"use strict";

(() => {
  const B = () => window.automaBoard;
  const DAMAGES = [1, 2, 3];
  const HEALS = [1, 2];
  // how a shot strikes (the view's `kind` of each shot): the label of its row of buttons
  const SHOT_KINDS = { character: "Contact", ranged: "Ranged", other: "Other" };

  const hit = {
    targets: [],          // piece ids, in the order tapped (the modifiers go to the first)
    shot: null,           // a shot's name, from view.hits.shots
    modifiers: new Set(), // from view.hits.modifiers
    by: "",               // a hero's id, or "" for nobody named
    trilithon: false,
    asking: null,         // {body, questions, dice}: the numbers the table is giving
  };
  const menu = { piece: null, by: "" }; // the tapped piece's menu, and its "by" hero

  const node = (tag, text, cls) => B().el(tag, text, cls); // board.js's el

  function button(text, attrs, onClick) {
    const b = node("button", text);
    b.type = "button";
    for (const [k, v] of Object.entries(attrs || {})) b.setAttribute(k, String(v));
    b.addEventListener("click", onClick);
    return b;
  }

  function toggle(text, on, attrs, onClick) {
    return button(text, { ...attrs, "aria-pressed": String(!!on) }, onClick);
  }

  function row(label, children, cls) {
    const div = node("div", null, `hit-row ${cls || ""}`.trim());
    if (label) {
      div.setAttribute("role", "group");
      div.setAttribute("aria-label", label);
      div.appendChild(node("span", label, "hit-label"));
    }
    for (const child of children) div.appendChild(child);
    return div;
  }

  function pieceName(view, id) {
    const piece = view.pieces.find((p) => p.id === id);
    return piece ? piece.name : id;
  }

  // "melee+poison+stun": the shot and its modifiers in the vocabulary's order
  function shotWords(view) {
    if (!hit.shot) return "";
    return [hit.shot, ...view.hits.modifiers.filter((m) => hit.modifiers.has(m))].join("+");
  }

  function hitBody(view) {
    const body = { targets: [...hit.targets], shot: shotWords(view), trilithon: hit.trilithon };
    if (hit.by) body.by = hit.by;
    return body;
  }

  // `play`'s words for the hit, as the log will name it
  function hitLine(view) {
    if (!hit.targets.length && !hit.shot) return "choose the pieces struck and the shot";
    return `hit ${hit.targets.join(", ") || "…"} ${shotWords(view) || "…"}` +
      (hit.by ? ` by ${hit.by}` : "") + (hit.trilithon ? " trilithon" : "");
  }

  // ---- the hit panel -------------------------------------------------------------------------

  function drawHit(view) {
    const box = document.getElementById("hit-buttons");
    if (!box || !view || !view.hits) return;
    const hits = view.hits;
    // a piece struck down or gone meanwhile is no longer offered, nor kept chosen
    hit.targets = hit.targets.filter((id) => hits.targets.includes(id));
    if (hit.by && !hits.by.includes(hit.by)) hit.by = "";
    const focused = focusKey(box);
    box.replaceChildren();
    if (hit.asking) { drawQuestion(box, view); return; }
    const heroesTurn = view.phase === "heroes";

    box.appendChild(row("Struck", hits.targets.length ? hits.targets.map((id) => toggle(
      pieceName(view, id), hit.targets.includes(id),
      { "data-target": id, "aria-label": `struck: ${id}` }, () => {
        hit.targets = hit.targets.includes(id) ? hit.targets.filter((t) => t !== id)
          : [...hit.targets, id];
        drawHit(view);
      })) : [node("span", "no piece a hit may strike", "hit-none")], "targets"));

    // the shots in rows by how they strike, in the server's order
    for (const kind of new Set(hits.shots.map((s) => s.kind))) {
      const label = SHOT_KINDS[kind] || kind;
      const shots = hits.shots.filter((s) => s.kind === kind).map((s) => {
        const b = toggle(s.name, hit.shot === s.name, {
          "data-shot": s.name, "data-kind": s.kind, "aria-label": `shot: ${s.name}`,
          title: `${label.toLowerCase()}, ${s.damage} damage` + (s.one_piece ?
            "; of several pieces hit, it lands on the one the shooter chooses" : ""),
        }, () => { hit.shot = hit.shot === s.name ? null : s.name; drawHit(view); });
        b.classList.add(`shot-${s.kind}`);
        return b;
      });
      box.appendChild(row(label, shots, "shots"));
    }

    box.appendChild(row("With", hits.modifiers.map((m) => toggle(`+${m}`, hit.modifiers.has(m),
      { "data-modifier": m, "aria-label": `modifier: ${m}` }, () => {
        if (hit.modifiers.has(m)) hit.modifiers.delete(m); else hit.modifiers.add(m);
        drawHit(view);
      })), "modifiers"));

    box.appendChild(row("By", [
      toggle("nobody", hit.by === "", { "data-by": "", "aria-label": "by: nobody named" },
        () => { hit.by = ""; drawHit(view); }),
      ...hits.by.map((id) => toggle(pieceName(view, id), hit.by === id,
        { "data-by": id, "aria-label": `by: ${id}` }, () => { hit.by = id; drawHit(view); })),
    ], "by"));

    const line = node("output", hitLine(view), "hit-line");
    line.id = "hit-line";
    const go = button("Hit", { id: "hit-go", class: "hit-go" }, () => start(view));
    go.disabled = !heroesTurn || !hit.targets.length || !hit.shot;
    go.title = heroesTurn ? "Resolve the hit by the rules" : "A hit is reported in the heroes' turn";
    box.appendChild(row("", [
      toggle("through the Trilithon", hit.trilithon, { "data-trilithon": "" },
        () => { hit.trilithon = !hit.trilithon; drawHit(view); }),
      button("Clear", { id: "hit-clear" }, () => { reset(); drawHit(view); }),
      go,
    ], "go"));
    box.appendChild(line);
    if (focused) box.querySelector(focused)?.focus({ preventScroll: true });
  }

  // The button under `box` that has the focus, as a selector that finds it again once the
  // panel is drawn anew (a keyboard keeps its place)
  function focusKey(box) {
    const active = document.activeElement;
    if (!(active instanceof HTMLButtonElement) || !box.contains(active)) return null;
    if (active.id) return `#${CSS.escape(active.id)}`;
    const data = [...active.attributes].find((a) => a.name.startsWith("data-"));
    return data ? `button[${data.name}="${CSS.escape(data.value)}"]` : null;
  }

  function reset() {
    hit.targets = [];
    hit.shot = null;
    hit.modifiers = new Set();
    hit.trilithon = false;
    hit.asking = null;
  }

  // The numbers this hit needs from the table, asked by the server, one question at a time
  async function start(view) {
    const body = hitBody(view);
    let questions;
    try {
      questions = (await B().post("/api/hit-questions", body)).questions;
    } catch (err) {
      B().say(err.message);
      return;
    }
    if (!questions.length) { send(body, [], hitLine(view)); return; }
    hit.asking = { body, questions, dice: [], line: hitLine(view) };
    drawHit(view);
  }

  function drawQuestion(box, view) {
    const { questions, dice, line } = hit.asking;
    const question = questions[dice.length];
    const panel = node("div", null, "hit-question");
    panel.id = "hit-question";
    panel.setAttribute("role", "group");
    panel.setAttribute("aria-label", "The table is asked for the hit");
    panel.appendChild(node("p", line, "hit-line"));
    const prompt = node("p", question.prompt + (questions.length > 1 ?
      ` — ${dice.length + 1} of ${questions.length}` : ""), "hit-prompt");
    prompt.id = "hit-prompt";
    panel.appendChild(prompt);
    const options = node("div", null, "hit-options");
    for (const value of question.options) {
      options.appendChild(button(value, { "data-die": value, "aria-label": `${question.name}: ${value}` },
        () => answer(view, Number(value))));
    }
    panel.appendChild(options);
    panel.appendChild(button("Back", { id: "hit-back" }, () => {
      if (hit.asking.dice.length) hit.asking.dice.pop(); else hit.asking = null;
      drawHit(view);
    }));
    box.appendChild(panel);
    panel.scrollIntoView({ block: "nearest" });
    options.querySelector("button")?.focus({ preventScroll: true });
  }

  function answer(view, value) {
    const asking = hit.asking;
    asking.dice.push(value);
    if (asking.dice.length < asking.questions.length) { drawHit(view); return; }
    hit.asking = null; // every number given: the panel shows the hit again while it is sent
    send(asking.body, asking.dice, asking.line);
  }

  // The hit with its numbers; done, the panel is cleared for the next (the hero stays chosen);
  // refused, it keeps what was chosen, and the refusal shows in the message line
  async function send(body, dice, line) {
    const data = await B().act("/api/hit", { ...body, dice },
      dice.length ? `${line} (${dice.join(", ")})` : line);
    if (data) reset();
    drawHit(B().view());
  }

  // ---- the tapped piece's menu ---------------------------------------------------------------

  function menuBox() {
    let box = document.getElementById("tap-menu");
    if (box) return box;
    box = node("div", null, "tap-menu");
    box.id = "tap-menu";
    box.setAttribute("role", "dialog");
    box.hidden = true;
    document.body.appendChild(box);
    return box;
  }

  function openMenu(detail) {
    if (B().readOnly()) return;
    const view = B().view();
    if (!view || !view.pieces.some((p) => p.id === detail.piece)) return;
    if (menu.piece !== detail.piece) menu.by = "";
    menu.piece = detail.piece;
    drawMenu(view);
    place(menuBox(), detail.x, detail.y);
    menuBox().querySelector("button[data-damage]")?.focus({ preventScroll: true });
  }

  function closeMenu() {
    menu.piece = null;
    const box = document.getElementById("tap-menu");
    if (box) box.hidden = true;
  }

  // Beside the tap, inside the window
  function place(box, x, y) {
    const gap = 12;
    const { width, height } = box.getBoundingClientRect();
    const left = x + gap + width <= innerWidth ? x + gap : Math.max(4, x - gap - width);
    const top = Math.min(Math.max(4, y - height / 2), Math.max(4, innerHeight - height - 4));
    box.style.left = `${Math.round(left)}px`;
    box.style.top = `${Math.round(top)}px`;
  }

  function drawMenu(view) {
    const box = menuBox();
    const piece = view && view.pieces.find((p) => p.id === menu.piece);
    if (!piece) { closeMenu(); return; }
    const focused = focusKey(box);
    box.replaceChildren();
    box.hidden = false;
    box.dataset.piece = piece.id;
    box.setAttribute("aria-label", `${piece.id}: damage and heal`);
    const head = node("div", null, "tap-head");
    const health = piece.health === null ? "no health track" :
      `${piece.health}${piece.max_health ? "/" + piece.max_health : ""} health`;
    head.appendChild(node("b", piece.name));
    head.appendChild(node("span", ` ${piece.id} · ${health}`, "tap-health"));
    head.appendChild(button("×", { class: "tap-close", "aria-label": "close" }, closeMenu));
    box.appendChild(head);
    const dealt = menu.by ? ` by ${menu.by}` : "";
    box.appendChild(row("Damage", DAMAGES.map((n) => button(`−${n}`,
      { "data-damage": n, "aria-label": `${piece.id}: ${n} damage${dealt}` }, () => {
        const body = { piece: piece.id, amount: n };
        if (menu.by) body.by = menu.by;
        B().act("/api/damage", body, `${piece.id} -${n} health${dealt}`);
      })), "damage"));
    box.appendChild(row("Heal", HEALS.map((n) => button(`+${n}`,
      { "data-heal": n, "aria-label": `${piece.id}: heal ${n}` },
      () => B().act("/api/heal", { piece: piece.id, amount: n }, `${piece.id} +${n} health`))),
    "heal"));
    if (piece.side !== "heroes" && view.hits) {
      const heroes = view.hits.by;
      box.appendChild(row("By", [
        toggle("nobody", menu.by === "", { "data-menu-by": "" }, () => { menu.by = ""; drawMenu(view); }),
        ...heroes.map((id) => toggle(pieceName(view, id), menu.by === id,
          { "data-menu-by": id, "aria-label": `damage dealt by ${id}` },
          () => { menu.by = id; drawMenu(view); })),
      ], "by"));
    }
    if (view.hits && view.hits.targets.includes(piece.id)) {
      const on = hit.targets.includes(piece.id);
      box.appendChild(row("", [toggle(on ? "struck by the hit ✓" : "struck by the hit",
        on, { "data-menu-target": piece.id, "aria-label": `${piece.id}: struck by the hit` }, () => {
          hit.targets = on ? hit.targets.filter((t) => t !== piece.id) : [...hit.targets, piece.id];
          drawHit(view);
          drawMenu(view);
        })], "target"));
    }
    if (focused) box.querySelector(focused)?.focus({ preventScroll: true });
  }

  // ---- wiring --------------------------------------------------------------------------------

  document.addEventListener("board:view", (event) => {
    drawHit(event.detail);
    if (menu.piece) drawMenu(event.detail);
  });
  document.addEventListener("board:tap", (event) => openMenu(event.detail));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.piece) closeMenu();
  });
  document.addEventListener("pointerdown", (event) => {
    const box = document.getElementById("tap-menu");
    if (!menu.piece || !box || box.contains(event.target)) return;
    if (event.target instanceof Element && event.target.closest("#mat g.piece")) return;
    closeMenu();
  });
})();
