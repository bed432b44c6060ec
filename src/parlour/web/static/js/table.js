/* The table page: live play over a WebSocket. It finds the table (or says there is none), offers
   an invitation brought in the address, then keeps T — the page's state, window.parlour — up to
   date from the server's messages and sends what the person does: a move, the next round, a hint,
   an undo. How the table looks is tableview.js; the board, board.js.

   T: {id, ws, seat, role, table (the summary), state (the last state message), selected (a card of
   the hand), hint, replay, received (messages so far), notice, gone, built, closed, retry, timers
   and again (the answers to "Play again?", again.js)}. It holds no secret: no invitation code, no seat link. */
import { handOrder, seatNames } from "./board.js";
import { chatPanel } from "./chat.js";
import { fill, h, toast } from "./dom.js";
import { LIVE } from "./host.js";
import { inviteScreen } from "./invite.js";
import { cardOf, movesFor, offerMap, seatLegal } from "./moves.js";
import { api } from "./net.js";
import { rememberTable } from "./prefs.js";
import { REPLAY_PAGE, replayFetch, replayKeys, replayViewer } from "./replay.js";
import { reviewBar, tableReview } from "./review.js";
import { tableSocket } from "./socket.js";
import { tableView } from "./tableview.js";

/** The page of table ``tableId`` in ``app``. ``invite``: an invitation code brought in the address;
 *  ``legacyToken``: a seat link of the first release, brought once in the first hello (the server
 *  gives its seat to this browser's identity for good). */
export function tablePage(app, tableId, invite, legacyToken) {
  const T = {
    id: tableId, ws: null, seat: null, role: null, table: null, state: null,
    selected: null, retry: 0, hint: null, closed: false, pingTimer: null, connectTimer: null,
    replay: null, received: 0, built: false, notice: null, gone: null, again: null,
  };
  window.parlour = T;
  // My games links to a match's replay and review as /table/ID#replay and #review: opened once it is drawn.
  let opening = /^#(replay|review)$/.exec(location.hash);
  document.title = "Table — Parlour";
  app.className = "table-page";
  fill(app, h("p.loading#table-loading", "Loading the table…"));

  function send(msg) {
    if (!T.ws || T.ws.readyState !== 1) { toast("Not connected — trying again…", "warn"); return false; }
    if (msg.type !== "hello" && msg.type !== "ping" && T.state) msg.version = T.state.version;
    T.ws.send(JSON.stringify(msg));
    return true;
  }
  T.send = send;

  function playMove(move) {
    T.selected = null;
    T.hint = null;
    send({ type: "move", move: move });
  }

  const chat = chatPanel(T, send);
  const view = tableView(app, T, { send: send, playMove: playMove, openReplay: openLiveReplay, chat: chat.el });
  const socket = tableSocket(T, {
    hello: function () {
      const hello = legacyToken ? { type: "hello", token: legacyToken } : { type: "hello" };
      legacyToken = null;
      return hello;
    },
    onMessage: onMessage,
    beforeConnect: function () {
      if (!T.built && !T.state) fill(app, h("p.loading#table-loading", "Connecting to the table…"), T.notice ? view.noticeEl() : null);
    },
  });

  /* -- first: is there a table here, and does this visitor bring an invitation? */

  function start() {
    api("/api/tables/" + encodeURIComponent(tableId)).then(function (summary) {
      T.table = summary;
      T.retry = 0;
      socket.offline(false);
      if (invite && summary.you && summary.you.seat === null && LIVE[summary.status]) {
        const code = invite;
        invite = null;
        inviteScreen(app, T, code, { connect: socket.connect, notice: view.notice });
        return;
      }
      invite = null;
      socket.connect();
    }).catch(function (err) {
      if (err.status === 404) { noTable(); return; }
      // The server is not answering: try again as the WebSocket does.
      socket.retry(start);
    });
  }

  function noTable() {
    T.gone = "missing";
    socket.close();
    document.title = "No table — Parlour";
    app.className = "table-page";
    T.built = false;
    fill(app, h("section.panel.gone#no-table",
      h("h1", "There is no table at this address."),
      h("p", "The link may be mistyped, or the table was removed."),
      h("p.btn-row", h("a.btn.primary", { href: "/" }, "Start a table"), h("a.btn", { href: "/#lobby" }, "Find one in the lobby"))));
  }

  /* -- what the server says */

  function onMessage(msg) {
    T.received++;
    if (msg.type === "error" && msg.code === "unauthorized" && T.role === null && T.ws && T.ws.readyState === 1) {
      // an old seat link that holds no free seat: watch instead
      T.ws.send(JSON.stringify({ type: "hello" }));
      toast("That link no longer holds a seat: you are watching the table.");
      return;
    }
    if (msg.type === "welcome") {
      T.seat = msg.seat === undefined ? null : msg.seat;
      T.role = msg.role;
      if (msg.table) T.table = msg.table;
      if (T.role === "player" && T.table) rememberTable(tableId, T.table.game, T.table.name);
      chat.welcome(msg);
    } else if (msg.type === "state") {
      const prev = T.state;
      T.retry = 0;
      socket.offline(false);
      if (prev && prev.version !== msg.version) T.hint = null;
      if (T.seat !== null && msg.view && msg.view.seat === null) {
        // The host re-opened this seat for someone else.
        T.seat = null;
        T.role = "spectator";
        view.notice("The host gave your seat to someone else — you are watching as a spectator.");
      }
      T.state = msg;
      if (T.selected && !(msg.view.hand || []).includes(T.selected)) T.selected = null;
      view.seatsChanged(prev ? prev.seats : null, msg.seats);
      view.render();
      if (opening && !prev && (msg.status === "finished" || msg.status === "abandoned")) {
        history.replaceState(null, "", location.pathname + location.search);
        openLiveReplay(opening[1] === "review");
        opening = null;
      }
      if (msg.status === "abandoned") socket.close();
    } else if (msg.type === "seats") {
      if (!T.state) return;
      const before = T.state.seats;
      T.state.seats = msg.seats;
      view.updatePresence();
      view.seatsChanged(before, msg.seats);
    } else if (msg.type === "hint") {
      if (T.state && msg.version === T.state.version) { T.hint = msg.moves || []; view.renderAssist(); }
    } else if (msg.type === "resolved") {
      view.resolved(msg);
    } else if (msg.type === "play_again") {
      T.again = msg;
      view.showAgain();
    } else if (msg.type === "new_table") {
      socket.close();
      window.location.assign(msg.url);
    } else if (msg.type === "chat") {
      chat.said(msg);
    } else if (msg.type === "presence") {
      chat.presence(msg);
    } else if (msg.type === "error") {
      if (msg.code === "not_found") { noTable(); return; }
      if (msg.code === "rate_limited") { toast(msg.message || "Slow down", "warn"); return; }
      toast(errorText(msg), "error");
    }
  }

  function errorText(msg) {
    const words = {
      stale: "The table moved on — try again.", not_your_turn: "It is not your turn.",
      not_allowed: "That is not offered here.", unauthorized: "You cannot do that from here.",
    };
    return msg.message || words[msg.code] || msg.code || "Error";
  }

  /* -- keys: 1–9 or ←/→ pick a card, Enter plays, Esc clears (a replay open takes its own keys) */

  document.addEventListener("keydown", function (ev) {
    if (ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (T.replay) { replayKeys(T.replay, ev); return; }
    const st = T.state;
    if (!st || !st.view || T.seat === null) return;
    const hand = handOrder(st, T.seat);
    if (/^[0-9]$/.test(ev.key) && hand.length) {
      const n = ev.key === "0" ? 9 : parseInt(ev.key, 10) - 1;
      if (n < hand.length) { T.selected = hand[n]; view.render(); ev.preventDefault(); }
    } else if ((ev.key === "ArrowRight" || ev.key === "ArrowLeft") && hand.length) {
      const i = hand.indexOf(T.selected);
      const d = ev.key === "ArrowRight" ? 1 : -1;
      T.selected = hand[i < 0 ? (d > 0 ? 0 : hand.length - 1) : (i + d + hand.length) % hand.length];
      view.render();
      ev.preventDefault();
    } else if (ev.key === "Enter") {
      const legal = seatLegal(st, T.seat);
      const offers = offerMap(st.layout);
      const forCard = T.selected ? movesFor(offers, legal, T.selected) : [];
      const free = legal.filter(function (m) { return !cardOf(offers, m); });
      const pick = forCard[0] || free[0] || (legal.length === 1 ? legal[0] : null);
      if (pick) { playMove(pick); ev.preventDefault(); }
      else if (st.status === "round_over") { send({ type: "next_round" }); ev.preventDefault(); }
    } else if (ev.key === "Escape") {
      T.selected = null;
      view.render();
    }
  });

  /** The match so far, step by step, over the table (opened at the last step); ``review === true``: with
   *  your seat's review asked for at once (a finished match's "Review" button). */
  function openLiveReplay(review) {
    const path = "/api/tables/" + encodeURIComponent(tableId) + "/replay";
    // Open at the last step: the last page first (a negative offset counts from the end).
    replayFetch(path, -REPLAY_PAGE, REPLAY_PAGE).then(function (page) {
      T.replay = replayViewer(page, function (offset, count) { return replayFetch(path, offset, count); }, {
        seat: T.seat === null ? 0 : T.seat,
        names: T.state ? seatNames(T.state, T.state.view) : null,
        onClose: function () { T.replay = null; overlay.remove(); },
        below: function (R) { return reviewBar(R, tableReview(tableId), review === true); },
      });
      const overlay = h("div.overlay#replay-overlay", { role: "dialog", "aria-label": "Replay" },
        h("div.overlay-box", T.replay.el));
      document.body.append(overlay);
      T.replay.go(T.replay.total - 1);
    }).catch(function (err) { toast("No replay: " + err.message, "error"); });
  }

  start();
}
