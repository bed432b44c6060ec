/* A guided first match (/learn/GAME): the lesson page. The server walks the lesson — each request
   (POST /api/learn/GAME) brings every answer so far — and sends what has been said, the step waiting
   and the learner's view of the table with its layout; this page draws the table with board.js as a
   real table is drawn, shows the lesson's words, and sends what the learner clicks or types. It holds
   no rule: a wrong move is explained by the server, in the words of the rule.

   L (window.parlour): {game, answers (accepted so far), page (the server's last answer), fresh (what
   was said since the last accepted answer), selected (a card of the hand), busy}. */
import { renderBoard } from "./board.js";
import { fill, h, toast } from "./dom.js";
import { offerMap } from "./moves.js";
import { api } from "./net.js";

/** The lesson of ``gameId`` in ``app``. */
export function learnPage(app, gameId) {
  const L = { game: gameId, answers: [], page: null, fresh: [], selected: null, busy: false };
  window.parlour = L;
  document.title = "Learn — Parlour";
  app.className = "table-page learn-page";
  fill(app, h("p.loading#lesson-loading", "Loading the lesson…"));

  /** Send the answers so far and ``answer`` (null: none, the page's first request). */
  function send(answer) {
    if (L.busy) return;
    L.busy = true;
    const answers = answer === null ? L.answers : L.answers.concat([answer]);
    api("/api/learn/" + encodeURIComponent(gameId), { method: "POST", body: { answers: answers } }).then(function (page) {
      L.busy = false;
      const before = L.page ? L.page.said.length : 0;
      L.answers = answers.slice(0, page.accepted);
      if (page.ok) L.fresh = page.said.slice(before);
      L.page = page;
      L.selected = null;
      draw();
    }).catch(function (err) {
      L.busy = false;
      if (!L.page) fill(app, h("p.error", "Could not load the lesson: " + err.message), h("p", h("a", { href: "/" }, "Back to the games")));
      else toast(err.message, "error");
    });
  }
  L.send = send;

  function draw() {
    const p = L.page;
    document.title = p.title + " — Parlour";
    const step = p.step;
    const ctx = {
      view: p.view, layout: p.layout, offers: offerMap(p.layout), me: p.seat, isSeat: true,
      legal: p.layout.moves.map(function (m) { return m.move; }), selected: L.selected, names: p.names,
      seats: [], live: true, onMove: send, dock: true,  // on a phone the hand and its moves stay in sight
      onSelect: function (card) { L.selected = L.selected === card ? null : card; draw(); },
    };
    fill(app,
      h("div.table-head#lesson-head",
        h("div.title", h("h1", p.title),
          h("span.muted#lesson-progress", p.done ? "finished" : "step " + (step.index + 1) + " of " + step.count)),
        h("a.btn.small", { href: "/" }, "All games")),
      h("div.table-grid",
        h("section.board-wrap#board-wrap", coach(p), renderBoard(ctx)),
        h("aside.side", logPanel(p))));
    const focus = document.getElementById(p.done ? "lesson-play" : step.kind === "say" ? "lesson-next" : null);
    if (focus) focus.focus({ preventScroll: true });
  }

  /** The lesson's words now: what was said since the last answer, why a move was refused, and the way on. */
  function coach(p) {
    const box = h("section.panel.coach#coach", { "aria-live": "polite" });
    const lines = L.fresh.length ? L.fresh : [p.step.text];
    lines.forEach(function (line, i) {
      const isStep = i === lines.length - 1 && !p.done && line === p.step.text;
      box.append(h("p" + (isStep ? ".coach-step" : ""), line));
    });
    if (!p.ok && p.message) box.append(h("p.coach-wrong#lesson-message", { role: "alert" }, p.message));
    if (p.done) {
      box.append(h("div.btn-row",
        h("a.btn.primary#lesson-play", { href: "/#new" }, "Play a whole match"),
        h("a.btn", { href: "/" }, "Back to the games")));
    } else if (p.step.kind === "say") {
      box.append(h("div.btn-row", h("button.btn.primary#lesson-next", { type: "button", onclick: function () { send("next"); } }, "Next")));
    } else {
      const input = h("input#lesson-move", { type: "text", autocomplete: "off", spellcheck: "false",
        "aria-label": "Type a move", placeholder: "click the table, or type a move" });
      box.append(h("form.btn-row.lesson-type", {
        onsubmit: function (ev) { ev.preventDefault(); if (input.value.trim()) send(input.value.trim()); },
      }, input, h("button.btn#lesson-send", { type: "submit" }, "Play")));
    }
    return box;
  }

  /** Everything the lesson has said, the newest last. */
  function logPanel(p) {
    const list = h("ol.log-list#lesson-log", p.said.map(function (line) { return h("li", line); }));
    const panel = h("section.panel.log", h("h2", "The lesson so far"), h("div.log-scroll", list));
    requestAnimationFrame(function () { const s = panel.querySelector(".log-scroll"); if (s) s.scrollTop = s.scrollHeight; });
    return panel;
  }

  send(null);
}
