// The whole evening on the board: the campaign panel (the route, the heroes' boards with the
// battle's live health), the campaign's own buttons between rooms (enter a room, buy at a
// visit, end the room, undo a step), export and import, and the question a closed tab left
// open. Plain JavaScript; it listens to board.js's "board:view" event and talks to the server
// through window.automaBoard. Every string from the server goes in with textContent.
"use strict";

(function () {
  const camp = {
    info: null,      // the latest /api/campaign
    step: null,      // {path, body, answers, question}: a campaign step being asked
    output: "",      // what the last campaign step printed (a room's setup, a purchase)
    checking: false,
  };
  const OPEN_QUESTION_MS = 1500;

  // board.js's own helpers (window.automaBoard), so the two scripts make nodes, say a line
  // and know a watching device one way.
  function api() { return window.automaBoard; }
  function $(id) { return document.getElementById(id); }
  const el = (tag, text, cls) => api().el(tag, text, cls);
  const clear = (node) => api().clear(node);
  const say = (text, ok) => api().say(text, ok);
  const readOnly = () => api().readOnly();
  function button(text, onClick, name) {
    const b = el("button", text);
    b.type = "button";
    if (name) b.setAttribute("aria-label", name);
    b.addEventListener("click", onClick);
    return b;
  }

  // ---- the panel's frame: made once, so its fold stays as the players left it ---------------

  function frame() {
    let fold = $("campaign-fold");
    if (fold) return fold;
    const section = $("campaign");
    const heading = section.querySelector("h2");
    if (heading) heading.remove();
    const body = $("campaign-body");
    fold = el("details", null, "fold");
    fold.id = "campaign-fold";
    fold.open = true;
    const summary = el("summary", "Campaign");
    summary.id = "campaign-summary";
    fold.appendChild(summary);
    section.insertBefore(fold, body);
    fold.appendChild(body);
    for (const id of ["campaign-actions", "campaign-question", "campaign-output"]) {
      const node = el(id === "campaign-output" ? "pre" : "div");
      node.id = id;
      fold.appendChild(node);
    }
    return fold;
  }

  // ---- the status: the route and the heroes ------------------------------------------------

  function describe(value) {
    if (value === null || typeof value !== "object") return el("span", String(value));
    if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) {
      return el("span", value.join(", "));
    }
    const dl = el("dl");
    for (const [k, v] of Object.entries(value)) {
      dl.appendChild(el("dt", k));
      const dd = el("dd");
      dd.appendChild(describe(v));
      dl.appendChild(dd);
    }
    return dl;
  }

  // The campaign's status (`automa campaign status --json`, each hero's health the battle's
  // during a room): the route room by room, the heroes' boards, anything else as keys and values
  function drawStatus(campaign) {
    const box = $("campaign-body");
    clear(box);
    const rest = Object.assign({}, campaign);
    $("campaign-summary").textContent = `Campaign: ${campaign.campaign || ""}`;
    box.appendChild(el("p", `${campaign.campaign} campaign` +
      (campaign.lord ? ` · Catacomb Lord: ${campaign.lord}` : "")));
    delete rest.campaign;
    delete rest.lord;
    if (Array.isArray(campaign.rooms)) {
      const list = el("ul", null, "rooms");
      for (const room of campaign.rooms) {
        const li = el("li", `${room.state}: ${room.name}` +
          (room.level === null || room.level === undefined ? "" : ` (level ${room.level})`),
          `room ${room.state}`);
        li.dataset.room = room.id;
        list.appendChild(li);
      }
      box.appendChild(list);
      delete rest.rooms;
    }
    if (campaign.heroes && typeof campaign.heroes === "object") {
      for (const [id, hero] of Object.entries(campaign.heroes)) {
        const div = el("div", null, "board");
        div.dataset.hero = id;
        div.appendChild(el("b", id));
        div.appendChild(document.createTextNode(" " + Object.entries(hero)
          .filter(([k, v]) => k !== "starting_health" && k !== "ally_boards" &&
            !(Array.isArray(v) && v.length === 0) && !(k === "alive" && v === true) &&
            !(k === "allies" && v === 0))
          .map(([k, v]) => k === "health" && hero.starting_health ?
            `health ${v}/${hero.starting_health}` : k === "alive" ? "dead" :
            `${k} ${v}`).join(" · ")));
        box.appendChild(div);
      }
      delete rest.heroes;
    }
    delete rest.rulings;
    for (const key of Object.keys(rest)) if (rest[key] === null) delete rest[key];
    if (Object.keys(rest).length) box.appendChild(describe(rest));
  }

  // ---- the campaign's buttons ----------------------------------------------------------------

  function heroes() {
    const status = camp.info && camp.info.status;
    return status ? Object.entries(status.heroes).filter(([, b]) => b.alive).map(([id]) => id) : [];
  }

  function select(id, values, label) {
    const s = el("select");
    s.id = id;
    s.setAttribute("aria-label", label);
    for (const v of values) { const o = el("option", v); o.value = v; s.appendChild(o); }
    return s;
  }

  function drawActions() {
    const box = $("campaign-actions");
    clear(box);
    const info = camp.info;
    if (!info || readOnly()) return;
    if (info.over) {
      box.appendChild(el("p", info.victory ? "The campaign is over: victory!" :
        "The campaign is over: defeat."));
    } else if (info.open.length) {
      box.appendChild(el("p", "Next: choose one of the open rooms."));
      const row = el("div", null, "row");
      const dice = select("campaign-dice", ["virtual", "physical"], "dice for the room's setup");
      const label = el("label", "dice ");
      label.appendChild(dice);
      row.appendChild(label);
      // as `campaign next --geometry`: computed from the model, or measured at the table
      const geometry = select("campaign-geometry", ["tracked", "asked", "hybrid"],
        "geometry for the room's battle: tracked (computed), asked (measured at the table), hybrid");
      const measured = el("label", "geometry ");
      measured.appendChild(geometry);
      row.appendChild(measured);
      box.appendChild(row);
      const list = el("div", null, "open-rooms");
      for (const room of info.open) {
        const b = button(`Enter ${room.name}` + (room.level ? ` (level ${room.level})` : "") +
          (room.kind === "special" ? " · visit" : room.kind === "lair" ? " · the Lair" : ""),
          () => start("/api/campaign/next",
            { room: room.id, dice: dice.value, geometry: geometry.value }),
          `Enter ${room.name}`);
        b.dataset.room = room.id;
        list.appendChild(b);
      }
      box.appendChild(list);
    } else if (info.current) {
      if (info.menu) drawMenu(box, info.menu);
      const end = button(info.kind === "special" ? "Leave the visit (end the room)" :
        "End the room", endRoom, "End the room");
      end.id = "campaign-end-room";
      box.appendChild(end);
    }
    if (info.undo) {
      const undo = button("Undo the last campaign step", () => start("/api/campaign/undo", {}),
        "Undo the last campaign step");
      undo.id = "campaign-undo";
      box.appendChild(undo);
    }
  }

  function drawMenu(box, menu) {
    box.appendChild(el("p", "What can be bought or done here:"));
    const row = el("div", null, "row");
    const forHero = select("visit-for", heroes(), "for the hero");
    const payer = select("visit-pay", heroes(), "paid by");
    const l1 = el("label", "for ");
    l1.appendChild(forHero);
    const l2 = el("label", "paid by ");
    l2.appendChild(payer);
    row.appendChild(l1);
    row.appendChild(l2);
    box.appendChild(row);
    const list = el("ul", null, "offers");
    for (const offer of menu.offers) {
      const li = el("li");
      const price = offer.price === null ? "the card's price" : `${offer.price} gold`;
      const buy = button(`${offer.id} · ${price}`, () => {
        const body = { offer: offer.id, for: forHero.value, pay: payer.value };
        if (offer.price === null) {
          const typed = window.prompt(`The price printed on the card (${offer.text})`);
          if (typed === null) return;
          body.price = Number(typed);
        }
        start("/api/campaign/visit", body);
      }, `Buy ${offer.id}`);
      buy.dataset.offer = offer.id;
      li.appendChild(buy);
      li.appendChild(document.createTextNode(` ${offer.text}` +
        (offer.limit ? ` (used ${offer.bought} of ${offer.limit})` : "")));
      list.appendChild(li);
    }
    box.appendChild(list);
  }

  function endRoom() {
    const body = {};
    start("/api/campaign/end-room", body);
  }

  // A campaign step: posted with the answers given so far; a question comes back until the last
  async function start(path, body) { camp.step = { path, body, answers: [] }; await send(); }

  async function send() {
    const step = camp.step;
    if (!step || !api()) return;
    const body = Object.assign({}, step.body);
    if (step.answers.length) body.answers = step.answers;
    try {
      const data = await api().post(step.path, body);
      if (data && data.question) {
        step.answers = data.answers || [];
        step.question = data.question;
        drawQuestion();
        return;
      }
      camp.step = null;
      camp.output = (data && data.text) || "";
      drawQuestion();
      say(path_done(step.path), true);
      await api().refresh();
    } catch (err) {
      say(err.message);
      if (step.answers.length && step.question) drawQuestion(); // the same question, again
      else { camp.step = null; drawQuestion(); }
    }
  }

  function path_done(path) {
    return { "/api/campaign/next": "entered the room", "/api/campaign/end-room": "the room is done",
      "/api/campaign/visit": "bought", "/api/campaign/undo": "the last campaign step is undone" }[path] || "";
  }

  function drawQuestion() {
    const box = $("campaign-question");
    clear(box);
    const out = $("campaign-output");
    out.textContent = camp.output;
    out.hidden = !camp.output;
    const step = camp.step;
    if (!step || !step.question) { box.hidden = true; return; }
    box.hidden = false;
    const q = step.question;
    box.appendChild(el("h3", "Asked"));
    const brief = el("ol");
    for (const line of q.briefing || []) brief.appendChild(el("li", line));
    box.appendChild(brief);
    box.appendChild(el("p", q.prompt, "prompt"));
    const answer = (value) => { step.answers = [...step.answers, value]; send(); };
    if (q.options && q.options.length) {
      const row = el("div", null, "options");
      for (const option of q.options) {
        const b = button(option, () => answer(option));
        b.dataset.answer = option;
        row.appendChild(b);
      }
      box.appendChild(row);
    } else {
      const form = el("form", null, "row");
      const input = el("input");
      input.type = "text";
      input.id = "campaign-answer";
      input.setAttribute("aria-label", q.prompt);
      form.appendChild(input);
      const ok = el("button", "Answer");
      ok.type = "submit";
      form.appendChild(ok);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        if (input.value.trim()) answer(input.value.trim());
      });
      box.appendChild(form);
      input.focus({ preventScroll: true });
    }
    box.appendChild(button("Back", () => {
      if (!step.answers.length) { camp.step = null; drawQuestion(); return; }
      step.answers = step.answers.slice(0, -1);
      send();
    }));
  }

  // ---- export and import ----------------------------------------------------------------------

  function keepPanel() {
    if ($("keep-panel")) return;
    const section = el("section", null, "panel");
    section.id = "keep-panel";
    section.setAttribute("aria-label", "Export and import");
    const fold = el("details");
    fold.appendChild(el("summary", "Export / import"));
    const row = el("div", null, "row");
    const link = el("a", "Export (download)");
    link.id = "export";
    link.href = "/api/export";
    link.setAttribute("download", "");
    link.className = "button";
    row.appendChild(link);
    const label = el("label", "Import ");
    const file = el("input");
    file.type = "file";
    file.id = "import-file";
    file.accept = ".json,application/json";
    label.appendChild(file);
    row.appendChild(label);
    fold.appendChild(row);
    const said = el("p");
    said.id = "import-result";
    fold.appendChild(said);
    section.appendChild(fold);
    file.addEventListener("change", async () => {
      const chosen = file.files && file.files[0];
      if (!chosen || !api()) return;
      let parsed;
      try { parsed = JSON.parse(await chosen.text()); } catch (e) {
        said.textContent = `${chosen.name}: not an automa export (not JSON)`;
        file.value = "";
        return;
      }
      try {
        const data = await api().post("/api/import", { export: parsed });
        said.textContent = data.text;
        say(data.text, true);
      } catch (err) {
        said.textContent = err.message;
        say(err.message);
      }
      file.value = "";
    });
    $("side").appendChild(section); // the last panel: it is not for the middle of a battle
  }

  // ---- the question a closed tab left open ----------------------------------------------------

  async function checkOpenQuestion() {
    const box = $("open-question");
    if (!api() || camp.checking) return;
    const own = api().answering();
    if (own) { box.hidden = true; return; }
    camp.checking = true;
    try {
      const found = await api().getJSON("/api/open-question");
      box.hidden = !found || readOnly();
      if (!found) return;
      $("open-question-text").textContent =
        `A question is open: ${found.question.prompt}` +
        (found.answers.length ? ` (answers given: ${found.answers.join(", ")})` : "");
      camp.open = found;
    } catch (e) {
      /* the connection note says it */
    } finally {
      camp.checking = false;
    }
  }

  function openQuestionPanel() {
    const section = el("section", null, "panel");
    section.id = "open-question";
    section.hidden = true;
    section.setAttribute("role", "status");
    section.setAttribute("aria-label", "A question left open");
    section.appendChild(el("p", "", "prompt")).id = "open-question-text";
    const row = el("div", null, "row");
    const take = button("Take over", () => {
      if (!camp.open) return;
      section.hidden = true;
      api().next(camp.open.answers);
    }, "Take over the open question");
    take.id = "take-over";
    const drop = button("Drop", async () => {
      try {
        await api().post("/api/open-question/drop", {});
        section.hidden = true;
        say("the open question's answers are dropped; Next starts the activation again", true);
      } catch (err) { say(err.message); }
    }, "Drop the open question");
    drop.id = "drop-question";
    row.appendChild(take);
    row.appendChild(drop);
    section.appendChild(row);
    // beside the question it stands for (on a phone: above the mat, with the card)
    $("now").insertBefore(section, $("asked-elsewhere"));
  }

  // ---- following the board --------------------------------------------------------------------

  async function onView(view) {
    const section = $("campaign");
    const campaign = view.campaign;
    section.hidden = campaign === null || campaign === undefined;
    document.body.dataset.campaign = section.hidden ? "" : "true";
    if (view.battle === false) {
      $("where").textContent = "Between rooms";
      $("modes").textContent = "";
    }
    if (section.hidden) return;
    frame();
    drawStatus(campaign);
    try {
      camp.info = await api().getJSON("/api/campaign"); // null: the board shows one battle
    } catch (err) {
      camp.info = null;
    }
    if (camp.info && camp.info.version !== view.version) return; // a newer view follows
    drawActions();
    drawQuestion();
  }

  function init() {
    keepPanel();
    openQuestionPanel();
    document.addEventListener("board:view", (event) => { onView(event.detail); });
    document.addEventListener("board:between-rooms", (event) => { onView(event.detail); });
    if (api() && api().view()) onView(api().view());
    setInterval(checkOpenQuestion, OPEN_QUESTION_MS);
    checkOpenQuestion();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
