/* The table page as a person sees it: built once, then each part redrawn in place when a state
   comes (the move box is never replaced): the banner, the board, the result of a round, the scores,
   the hint and undo buttons, the log and the tools. What the page does lives in table.js. */
import { againPanel, showAgain } from "./again.js";
import { renderBoard, seatNames } from "./board.js";
import { fill, h } from "./dom.js";
import { hostTools } from "./host.js";
import { offerMap, offerText, seatLegal } from "./moves.js";
import { notationBox } from "./notation.js";
import { leadText, logPanel, roundBreakdown, scorePanel, scoreSheet, sheetNow, winnersText } from "./panels.js";
import { rulesDrawer } from "./rules.js";

/** The view of table ``T`` in ``app``; ``act``: {send(msg), playMove(move), openReplay(), chat (the chat
 *  panel's element, chat.js)}.
 *  Returns {render, renderAssist, updatePresence, seatsChanged, resolved, notice, noticeEl, showAgain}. */
export function tableView(app, T, act) {
  const slots = {};
  const host = hostTools(T);
  const rules = rulesDrawer();

  /** Say ``text`` above the table (null: nothing). */
  function notice(text) {
    T.notice = text;
    const el = document.getElementById("notice");
    if (el) { if (text) fill(el, text); el.hidden = !text; }
  }

  function noticeEl() {
    const el = h("p.notice#notice", { role: "status" });
    if (T.notice) el.textContent = T.notice; else el.hidden = true;
    return el;
  }

  function updateTimer() {
    const el = document.getElementById("timer");
    if (!el) return;
    const st = T.state;
    if (!st || !st.deadline || st.status !== "playing") { el.hidden = true; return; }
    const left = Math.max(0, Math.round(st.deadline - Date.now() / 1000));
    el.hidden = false;
    el.textContent = "time left " + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    el.classList.toggle("urgent", left <= 10);
  }

  /** The page's parts, made once: each is redrawn in place. */
  function build() {
    slots.notice = noticeEl();
    slots.head = h("div.table-head#table-head");
    slots.host = host.el;
    slots.board = h("section.board-wrap#board-wrap");
    slots.score = h("div.slot-score");
    slots.assist = h("div.slot-assist");
    slots.notation = notationBox(T, act);
    slots.log = h("div.slot-log");
    slots.tools = h("div.slot-tools");
    fill(app, slots.notice, slots.head, slots.host,
      h("div.table-grid", slots.board,
        h("aside.side", slots.score, slots.assist, slots.notation.panel, act.chat, slots.log, slots.tools)));
    T.built = true;
  }

  /** Redraw the table from T.state. */
  function renderTable() {
    const st = T.state;
    if (!st || T.gone) return;
    if (!T.built) build();
    const view = st.view;
    const layout = st.layout;
    document.title = layout.name + " — Parlour";
    rules.setGame(view.game, layout.name);
    const me = T.seat;
    const legal = seatLegal(T.state, T.seat);
    const myTurn = me !== null && view.to_move === me && legal.length > 0;
    const names = seatNames(st, view);
    app.dataset.version = String(st.version);
    app.dataset.status = st.status;
    app.dataset.game = view.game;
    app.dataset.myTurn = myTurn ? "1" : "0";

    // The banner: whose turn, round, timer.
    let banner;
    if (st.status === "abandoned") {
      banner = "This table was abandoned";
    } else if (st.status === "finished") {
      banner = "Match over — " + winnersText(st, names, me, false);
    } else if (st.status === "round_over") {
      banner = "Round " + view.round + " is over";
    } else if (myTurn) {
      banner = "Your turn — " + layout.prompt;
    } else if (view.to_move !== null && view.to_move !== undefined) {
      const seat = (st.seats || [])[view.to_move] || {};
      banner = (seat.kind === "bot" ? names[view.to_move] + " is thinking…" : "Waiting for " + names[view.to_move] + "…");
    } else banner = "";
    // The Rules button is the same element at every state: re-placed, it would lose the keyboard's focus
    // (a person who has just closed the drawer with Esc, when a bot moves).
    const rulesFocused = document.activeElement === rules.button;
    fill(slots.head,
      h("div.title",
        h("h1", layout.name),
        h("span.round", "Round " + view.round + layout.target),
        st.status === "playing" ? h("span.lead#lead", leadText(st, names, me)) : null,
        me === null ? h("span.badge.spect#watching", "watching") : null,
        T.table && T.table.rated ? h("span.badge.rated#rated", { title: "This match updates the players' ratings: no undo, no hints" }, "Rated match") : null,
        rules.button),
      h("div.turn#turn" + (myTurn ? ".mine" : "") + (st.status !== "playing" ? ".over" : ""), { role: "status" }, banner),
      h("span.timer#timer", { hidden: true }),
      st.status === "playing" ? recentMoves(st, me) : null);
    if (rulesFocused) rules.button.focus({ preventScroll: true });

    const ctx = {
      view: view, layout: layout, offers: offerMap(layout), me: me === null ? 0 : me, isSeat: me !== null,
      legal: myTurn ? legal : [], selected: T.selected, names: names, seats: st.seats || [], onMove: act.playMove,
      onSelect: function (card) { T.selected = T.selected === card ? null : card; renderTable(); },
      live: true, dock: st.status === "playing",
    };
    const result = st.status !== "playing" ? resultPanel(st, names, me) : null;
    fill(slots.board, result, renderBoard(ctx));

    fill(slots.score, scorePanel(view, st, names));
    renderAssist();
    slots.notation.update(legal, myTurn, me !== null && st.status === "playing");
    const oldLog = slots.log.querySelector(".log-scroll");
    const atEnd = !oldLog || oldLog.scrollTop + oldLog.clientHeight >= oldLog.scrollHeight - 8;
    fill(slots.log, logPanel(st));
    const log = slots.log.querySelector(".log-scroll");
    if (log) log.scrollTop = atEnd ? log.scrollHeight : oldLog.scrollTop;
    host.render();
    fill(slots.tools, h("section.panel.tools",
      h("div.btn-row",
        h("button.btn.small#replay-btn", {
          type: "button",
          disabled: st.status !== "finished" && me === null,
          title: st.status !== "finished" && me === null ? "Spectators can replay once the match is over" : "",
          onclick: act.openReplay,
        }, "▶ Replay"),
        st.status === "finished" ? h("a.btn.small#download", { href: "/api/tables/" + encodeURIComponent(T.id) + "/record", download: "parlour-" + T.id + ".json" }, "↓ Download record") : null),
      me !== null ? h("p.keys.muted", "Keys: 1–9 or ←/→ pick a card, Enter plays, Esc clears.") : null));
    updateTimer();
  }

  /** The connected dots of the seats, from a `seats` message: nothing else is redrawn. */
  function updatePresence() {
    const seats = T.state.seats || [];
    seats.forEach(function (s, i) {
      app.querySelectorAll(".seat-area[data-seat='" + i + "'] .dot").forEach(function (dot) {
        dot.classList.toggle("on", !!s.connected);
        dot.classList.toggle("off", !s.connected);
        dot.title = s.connected ? "connected" : "not connected";
      });
    });
    host.render();
  }

  /** The hint and undo buttons, and the hint's moves once it came. */
  function renderAssist() {
    const st = T.state;
    if (!st || !slots.assist) return;
    const me = T.seat;
    const myTurn = me !== null && seatLegal(T.state, T.seat).length > 0 && st.view.to_move === me;
    if (!(st.can_hint || st.can_undo || st.undo_note) || st.status === "abandoned") { fill(slots.assist); return; }
    fill(slots.assist, h("section.panel.assist",
      h("div.btn-row",
        st.can_hint ? h("button.btn#hint-btn", { type: "button", disabled: !myTurn, onclick: function () { act.send({ type: "hint" }); } }, "? Hint") : null,
        st.can_undo ? h("button.btn#undo-btn", { type: "button", onclick: function () { act.send({ type: "undo" }); } }, "↶ Undo") : null),
      // Why undo is gone (the server's words: a card drawn from the draw pile was seen), not just a vanished button.
      st.undo_note ? h("p.muted#undo-note", st.undo_note + ".") : null,
      T.hint ? hintList(T.hint, myTurn) : null));
  }

  /** The end of a round, of the match, or of an abandoned table: its scores and what comes next. */
  function resultPanel(st, names, me) {
    const view = st.view;
    const sum = st.summary || {};
    const finished = st.status === "finished";
    const abandoned = st.status === "abandoned";
    const rounds = sum.rounds || (view.history || []).concat([view.scores]);
    const totals = sum.totals || view.totals;
    const box = h("section.panel.result#result" + (finished ? ".final" : "") + (abandoned ? ".abandoned" : ""));
    if (abandoned) {
      box.append(h("h2", "This table was abandoned: nobody played at it for a long time."),
        h("p.muted", "The scores so far:"));
      box.append(sheetNow(view, st, names));
      box.append(h("div.btn-row", h("a.btn.primary", { href: "/" }, "Start a new table")));
      return box;
    }
    if (finished) {
      box.append(h("h2", winnersText(st, names, me, true)));
    } else {
      box.append(h("h2", "Round " + view.round + " is over"));
    }
    box.append(roundBreakdown(st, names, rounds[rounds.length - 1] || view.scores));
    box.append(scoreSheet(rounds, totals, names, true, finished ? sum.winners || [] : []));
    const btns = h("div.btn-row");
    if (!finished && T.seat !== null) {
      btns.append(h("button.btn.primary.big#next-round", { type: "button", onclick: function () { act.send({ type: "next_round" }); } }, "Next round ▸"));
    } else if (!finished) {
      btns.append(h("p.muted", "Waiting for the players to deal the next round…"));
    }
    if (finished) {
      btns.append(
        h("a.btn.primary#download-record", { href: "/api/tables/" + encodeURIComponent(T.id) + "/record", download: "parlour-" + T.id + ".json" }, "↓ Download record"),
        h("button.btn#replay-match", { type: "button", onclick: act.openReplay }, "▶ Replay the match"),
        T.seat !== null ? h("button.btn#review-match", { type: "button", onclick: function () { act.openReplay(true); } }, "★ Review") : null,
        h("a.btn", { href: "/" }, "New table"));
    }
    if (finished) box.append(againPanel(T, names, act.send));
    box.append(btns);
    return box;
  }

  /** The other seats' moves since ``me`` last moved (the last four), in the log's words. Shown on narrow
   *  screens only (style.css), where the log is far below the board. */
  function recentMoves(st, me) {
    if (me === null || !Array.isArray(st.moves)) return null;
    let since = st.moves.length;
    while (since > 0 && st.moves[since - 1].seat !== me) since--;
    const moves = st.moves.slice(since).slice(-4);
    if (!moves.length) return null;
    return h("ul.recent#recent", { "aria-label": "since your last move" },
      moves.map(function (m) { return h("li", { title: m.text || m.move }, m.text || m.move); }));
  }

  function hintList(moves, myTurn) {
    if (!moves.length) return h("p.muted", "No hint.");
    const offers = offerMap(T.state.layout);
    return h("ol.hints#hints", moves.map(function (m) {
      return h("li", h("span.hint-line", h("button.btn.small.hint-move", {
        type: "button", disabled: !myTurn, dataset: { move: m.move }, onclick: function () { act.playMove(m.move); },
      }, offerText(offers, m.move)),
      h("span.hint-text.muted", "— " + m.outlook)));
    }));
  }

  setInterval(updateTimer, 250);

  return {
    render: renderTable, renderAssist: renderAssist, updatePresence: updatePresence, seatsChanged: host.seatsChanged,
    resolved: function (msg) { if (slots.notation) slots.notation.resolved(msg); },
    notice: notice, noticeEl: noticeEl,
    showAgain: function () { if (T.state) showAgain(T, seatNames(T.state, T.state.view), act.send); },
  };
}
