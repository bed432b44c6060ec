/* The panels beside the board: the score sheet, the round's log in the server's words, and the
   breakdown of a round's scores at its end. */
import { dots, h } from "./dom.js";
import { num, signed } from "./numbers.js";

/** Who won a finished match, for the reader at seat ``me`` (null: a spectator): "You win the match!",
 *  "Ann wins the match", "You and Bo share the win", "The match is a draw" (every seat shares it).
 *  ``heading`` false: the banner's short form ("you win!", "Ann and Bo share the win"). */
export function winnersText(st, names, me, heading) {
  const w = (st.summary && st.summary.winners) || [];
  if (!w.length) return heading ? "The match is over" : "finished";
  if (w.length === names.length && w.length > 1) return heading ? "The match is a draw" : "a draw";
  if (w.length === 1) {
    if (w[0] === me) return heading ? "★ You win the match!" : "you win!";
    return (heading ? "★ " : "") + names[w[0]] + " wins" + (heading ? " the match" : "");
  }
  const who = w.indexOf(me) >= 0
    ? ["You"].concat(w.filter(function (s) { return s !== me; }).map(function (s) { return names[s]; }))
    : w.map(function (s) { return names[s]; });
  return (heading ? "★ " : "") + who.slice(0, -1).join(", ") + " and " + who[who.length - 1] + " share the win";
}

/** Who leads (made the first move of) the round, for the reader at seat ``me``: "You lead this round",
 *  "Ann leads this round"; before the first move, the seat to move leads. */
export function leadText(st, names, me) {
  const moves = Array.isArray(st.moves) ? st.moves : [];
  const first = moves.length && moves[0].seat !== null && moves[0].seat !== undefined ? moves[0].seat : st.view.to_move;
  if (first === null || first === undefined) return "";
  return first === me ? "You lead this round" : names[first] + " leads this round";
}

/** The round's score of each seat, with the scoring sentences of the round's log and each part's value
 *  (melds, stacks, vaults: as the server sums them up). */
export function roundBreakdown(st, names, last) {
  const general = [];
  const bySeat = names.map(function () { return []; });
  const end = Array.isArray(st.moves) ? st.moves.length : -1;
  for (const event of logEvents(st)) {
    // What scored, and everything of the round's end (a meld that scores 0, how the round ended).
    if (!event.points && event.move !== end) continue;
    if (event.seat !== null && bySeat[event.seat]) bySeat[event.seat].push(event.text); else general.push(event.text);
  }
  const seatBoxes = names.map(function (n, i) {
    return h("div.seat-result", { dataset: { seat: String(i) } },
      h("div.seat-result-head", h("b", n), h("span.round-score" + ((last || [])[i] < 0 ? ".neg" : ""), signed((last || [])[i]) + " this round")),
      partValues((st.layout.seats[i] || {}).summary),
      bySeat[i].length ? h("ul.score-lines", bySeat[i].map(function (l) { return h("li", l); })) : null);
  });
  return h("div.breakdown#breakdown", seatBoxes,
    general.length ? h("ul.score-lines.general", general.map(function (l) { return h("li", l); })) : null);
}

/** "melds: ♣ −11 · ♦ −6 · …", "vaults: 1: 5 locked · …": a seat's parts, from the layout's summary. */
function partValues(summary) {
  if (!summary) return null;
  const items = summary.items.map(function (item) {
    return h("span.part" + dots(item.cls), item.suit ? [h("span.suit-sym.suit-" + item.suit, item.sym), " " + item.text] : item.text);
  });
  return h("div.parts", h("span.muted", summary.label), items.length ? items : "none");
}

/** The score sheet; ``running``: the last row is the round being played, as it stands now. */
export function scoreSheet(rounds, totals, names, finalTotals, winners, running) {
  winners = winners || [];
  return h("div.table-wrap", h("table.scores",
    h("thead", h("tr", h("th", { scope: "col" }, "Round"), names.map(function (n, i) {
      return h("th" + (winners.indexOf(i) >= 0 ? ".winner" : ""), { scope: "col", title: n }, n);
    }))),
    h("tbody", rounds.map(function (r, k) {
      const now = running && k === rounds.length - 1;
      return h("tr" + (now ? ".running" : ""), { title: now ? "this round as it stands now" : null },
        h("td", String(k + 1) + (now ? " · now" : "")),
        r.map(function (x) { return h("td" + (x < 0 ? ".neg" : ""), num(x)); }));
    })),
    h("tfoot", h("tr", h("th", { title: finalTotals ? null : "so far" }, "Total"), (totals || []).map(function (x, i) {
      return h("th" + (winners.indexOf(i) >= 0 ? ".winner" : ""), num(x));
    })))));
}

/** The "Scores" panel: the score sheet as the table stands. */
export function scorePanel(view, st, names) {
  return h("section.panel.score-panel", h("h2", "Scores"), sheetNow(view, st, names));
}

/** The score sheet as the table stands: past rounds, and the round being played as it is now. */
export function sheetNow(view, st, names) {
  const rounds = (view.history || []).slice();
  let totals = view.totals || [];
  const playing = !view.round_over && !!view.scores;
  if (playing) {
    // Meld, stack and vault games score at the round's end: the round's row shows what they are worth now.
    const now = view.scores.map(function (x, i) {
      const b = (st.layout.seats[i] || {}).score;
      return b ? b.value : x;
    });
    rounds.push(now);
    totals = totals.map(function (t, i) { return t + (now[i] || 0); });
  } else if (view.round_over && view.scores && rounds.length < view.round) rounds.push(view.scores);
  return scoreSheet(rounds, totals, names, view.round_over,
    st && st.status === "finished" && st.summary ? st.summary.winners : [], playing);
}

/** The round's events as the server words them for this viewer: [{seat, move, kind, points, text}]
 *  (an older server sent sentences only). */
function logEvents(st) {
  return (st.log || []).map(function (e) {
    return typeof e === "string" ? { seat: null, move: null, kind: "", points: 0, text: e } : e;
  });
}

/** The round's moves as the server words them for this viewer, and the round's events. */
export function logPanel(st) {
  const view = st.view;
  let moves = st.moves;
  if (!Array.isArray(moves)) {
    // An older server: the notation.
    moves = (view.moves || []).map(function (m) { return { seat: null, move: m, text: m }; });
  }
  const shown = moves.slice(-60);
  const first = moves.length - shown.length + 1;
  const items = shown.map(function (m) {
    return h("li.move-line", { dataset: { seat: m.seat === null || m.seat === undefined ? "" : String(m.seat), move: m.move } }, m.text || m.move);
  });
  const events = logEvents(st).map(function (e) { return h("li.event", e.text); });
  return h("section.panel.log-panel#log", h("h2", "This round"), h("div.log-scroll",
    events.length ? h("ul.events", events) : null,
    h("ol.log-list", { start: String(first) }, items.length ? items : h("li.muted", "No moves yet."))));
}
