/* The board: a table drawn from the layout the server sends (docs/web-protocol.md) — the seats with
   their hands and columns, and the middle of the table. It knows no game: it only draws the layout,
   and a click on a card, a column, a pile or a button names a legal move to ``ctx.onMove``.

   ``ctx``: {view, layout, offers (offerMap), me (the seat drawn at the bottom), isSeat, legal, selected,
   names, seats, onMove, onSelect, live (a table being played, not a replay), dock (the table page: on a
   narrow screen the seat's own area, with its hand and move buttons, stays at the bottom of the window)}. */
import * as C from "./cards.js";
import { dots, h } from "./dom.js";
import { cardOf, movesFor, offerText } from "./moves.js";
import { num, signed } from "./numbers.js";
import { ratingBadge } from "./ratings.js";

/** A text of the layout, with the seat it names (its "{name}") in this page's words. */
function say(ctx, item) {
  return item.seat === null || item.seat === undefined ? item.text : item.text.replace("{name}", ctx.names[item.seat]);
}

/** The seats' names as the page prints them: the seat's name, else the view's, else "Seat n". */
export function seatNames(st, view) {
  const n = (view.names || []).length || (st.seats || []).length;
  const out = [];
  for (let i = 0; i < n; i++) {
    const s = (st.seats || [])[i];
    out.push((s && s.name) || (view.names || [])[i] || "Seat " + (i + 1));
  }
  // Two bots of one level have one name: tell them apart by seat.
  return out.map(function (name, i) {
    return out.indexOf(name) !== out.lastIndexOf(name) ? name + " " + (i + 1) : name;
  });
}

/** ``seat``'s hand in the order it is shown (the keys 1–9 pick from it). */
export function handOrder(st, seat) {
  const mine = st.layout && st.layout.seats[seat];
  return mine ? mine.hand.cards : [];
}

/** A face-up card, with what it is in the game (its role, from the layout). */
function cardEl(ctx, code, opts) {
  return C.cardEl(code, ctx.layout.roles[code] || null, opts);
}

/** The whole board of ``ctx`` (the other seats at the top, the middle, ``ctx.me`` at the bottom). */
export function renderBoard(ctx) {
  const v = ctx.view;
  const n = (v.names || []).length || 2;
  const order = [];
  for (let k = 1; k < n; k++) order.push((ctx.me + k) % n);
  const board = h("div.board.game-" + v.game);
  const opponents = h("div.opponents" + (order.length > 1 ? ".many" : ""));
  for (const s of order) opponents.append(seatArea(ctx, s, false));
  board.append(opponents, middle(ctx), seatArea(ctx, ctx.me, true));
  return board;
}

function seatHeader(ctx, seat, mine) {
  const v = ctx.view;
  const info = ctx.seats[seat] || {};
  const layout = ctx.layout.seats[seat];
  const toMove = v.to_move === seat && !v.round_over;
  const total = (v.totals || [])[seat] || 0;
  const round = (v.scores || [])[seat] || 0;
  const live = !v.round_over && !v.match_over;
  // What the seat's melds, stacks or locked vaults add up to now (none where the round's score is live).
  const board = live ? layout.score : null;
  let score;
  if (board) {
    score = [h("span.seat-score.round-value", { title: board.title }, board.label + " " + (board.plain ? String(board.value) : signed(board.value))),
      (v.history || []).length ? h("span.badge.match-total", { title: "match total before this round" }, "total " + num(total)) : null];
  } else if (live) {
    score = h("span.seat-score", { title: "points this round; match total " + num(total + round) },
      (v.history || []).length ? "round " + signed(round) + " · total " + num(total + round) : num(round) + " pts");
  } else {
    score = h("span.seat-score", { title: "match total" }, "total " + num(v.round_over ? total : total + round));
  }
  return h("div.seat-head" + (toMove ? ".to-move" : ""),
    h("span.seat-name", (toMove ? "▶ " : "") + ctx.names[seat] + (mine && ctx.isSeat && ctx.names[seat] !== "You" ? " (you)" : "")),
    info.kind === "bot" ? h("span.badge", "bot · " + (info.level || "")) : null,
    ratingBadge(info),
    info.kind && info.kind !== "bot" && ctx.live ? h("span.dot" + (info.connected ? ".on" : ".off"), { title: info.connected ? "connected" : "not connected" }) : null,
    score,
    layout.badges.map(function (b) { return h("span.badge" + dots(b.cls), { title: b.title }, b.text); }));
}

function seatArea(ctx, seat, mine) {
  const v = ctx.view;
  const docked = mine && ctx.dock && ctx.live && ctx.isSeat;
  const area = h("section.seat-area" + (mine ? ".mine" : ".theirs") + (v.to_move === seat && !v.round_over ? ".active" : "") +
    (docked ? ".docked" : ""), { dataset: { seat: String(seat) } });
  area.append(seatHeader(ctx, seat, mine));
  const tableau = tableauOf(ctx, seat);
  if (mine) {
    if (tableau) area.append(tableau);
    area.append(handArea(ctx, seat));
  } else {
    area.append(handArea(ctx, seat));
    if (tableau) area.append(tableau);
  }
  return area;
}

function handArea(ctx, seat) {
  const v = ctx.view;
  const hand = ctx.layout.seats[seat].hand;
  const live = ctx.live && seat === v.seat && ctx.isSeat;
  const row = h("div.hand" + (live ? ".my-hand" : ".other-hand") + (hand.open ? ".open" : ""), { "aria-label": ctx.names[seat] + "'s hand" });
  hand.cards.forEach(function (card, i) {
    const moves = live ? movesFor(ctx.offers, ctx.legal, card) : [];
    const el = cardEl(ctx, card, { button: live, cls: "in-hand" });
    if (live) {
      if (moves.length) el.classList.add("playable");
      if (ctx.selected === card) el.classList.add("selected");
      el.dataset.index = String(i + 1);
      el.addEventListener("click", function () { ctx.onSelect(card); });
      if (!moves.length && ctx.legal.length) el.setAttribute("aria-disabled", "true");
    }
    if (hand.known.indexOf(card) >= 0) {
      el.classList.add("known");
      el.title += " — seen by everyone (taken from a pile)";
    }
    row.append(el);
  });
  for (let i = 0; i < hand.hidden; i++) row.append(C.backEl({ cls: "in-hand" }));
  if (!hand.cards.length && !hand.hidden) {
    row.classList.add("empty");
    row.append(h("span.muted.empty-hand", "no cards"));
  }
  const wrap = h("div.hand-wrap", row);
  if (!hand.open && hand.hidden + hand.cards.length) {
    wrap.append(h("span.hand-count", (hand.hidden + hand.cards.length) + " cards" + (hand.cards.length ? ", " + hand.cards.length + " known" : "")));
  }
  if (live) wrap.append(actionBar(ctx));
  return wrap;
}

/** Under my hand: the selected card's moves, and moves that use no card. */
function actionBar(ctx) {
  const bar = h("div.actions#actions");
  const button = function (m, cls, words) {
    return h("button.btn.move" + cls, { type: "button", dataset: { move: m }, title: m, onclick: function () { ctx.onMove(m); } }, words);
  };
  if (ctx.selected) {
    const moves = movesFor(ctx.offers, ctx.legal, ctx.selected);
    if (moves.length) {
      bar.append(h("span.action-label", C.cardShort(ctx.selected) + ":"));
      for (const m of moves) bar.append(button(m, ".primary", ctx.offers[m].short));
    } else if (ctx.legal.length) {
      bar.append(h("span.muted", C.cardShort(ctx.selected) + " cannot be played now."));
    }
  }
  for (const m of ctx.legal.filter(function (m) { return !cardOf(ctx.offers, m); })) {
    bar.append(button(m, ctx.offers[m].main ? ".primary" : "", ctx.offers[m].text));
  }
  if (!ctx.selected && ctx.legal.some(function (m) { return cardOf(ctx.offers, m); })) {
    bar.append(h("span.muted.tip", "Pick a raised card to see its moves."));
  }
  return bar;
}

/** A seat's melds, stacks or vaults: a row of columns. */
function tableauOf(ctx, seat) {
  const parts = ctx.layout.seats[seat].parts;
  if (!parts) return null;
  return h("div.columns" + dots(parts.cls), parts.columns.map(function (col) { return columnEl(ctx, col, seat); }));
}

/** One column: its head and value, its cards, what lies apart under them, a note and a button of its own.
 *  It is a target while a move of the card picked lands on it (a click makes the move, if it is the only one). */
function columnEl(ctx, col, seat) {
  const picked = ctx.selected ? movesFor(ctx.offers, ctx.legal, ctx.selected) : [];
  const here = picked.filter(function (m) { return col.drop.indexOf(m) >= 0; });
  const el = h("div.column" + dots(col.cls) + (here.length ? ".target" : ""), { dataset: Object.assign({}, col.data, { seat: String(seat) }) },
    h("div.col-head" + (col.head.suit ? ".suit-" + col.head.suit : ""), h("span" + dots(col.head.cls), col.head.text),
      h("span.col-value" + dots(col.value.cls), { title: col.value.title }, col.value.text)),
    col.cards.length ? fan(ctx, col.cards, { vertical: true }) : null,
    col.under.length ? h("div.rubble", col.under.map(function (c) { return cardEl(ctx, c, { cls: "small" }); })) : null,
    !col.cards.length && !col.under.length ? h("div.slot", "—") : null,
    col.note ? h("div" + dots(col.note.cls), col.note.text) : null);
  if (here.length === 1) el.addEventListener("click", function () { ctx.onMove(here[0]); });
  const action = col.action;
  if (action && ctx.legal.indexOf(action.move) >= 0) {
    el.append(h("button.btn.tiny" + dots(action.cls), { type: "button", dataset: { move: action.move },
      onclick: function (e) { e.stopPropagation(); ctx.onMove(action.move); } }, action.text));
  }
  return el;
}

function fan(ctx, cards, opts) {
  opts = opts || {};
  const el = h("div.fan" + (opts.vertical ? ".vertical" : ".horizontal"));
  cards.forEach(function (c, i) {
    el.append(cardEl(ctx, c, { cls: "small" + (i === cards.length - 1 ? " top" : "") }));
  });
  return el;
}

/** A face-up pile; a click takes from it when its move is legal. */
function pileEl(ctx, pile) {
  const can = pile.move && ctx.legal.indexOf(pile.move) >= 0;
  const el = h("div.pile" + dots(pile.cls) + (can ? ".takeable" : ""), { dataset: pile.data || {} },
    h("div.pile-label", pile.suit ? h("span.suit-" + pile.suit, pile.label) : pile.label),
    pile.cards.length ? fan(ctx, pile.cards, { vertical: pile.fan !== "horizontal" }) : h("div.slot", "—"));
  if (can) {
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", "0");
    el.title = offerText(ctx.offers, pile.move);
    el.dataset.move = pile.move;
    el.addEventListener("click", function () { ctx.onMove(pile.move); });
  }
  return el;
}

function stockEl(ctx, stock) {
  const count = stock.count;
  const can = stock.move && ctx.legal.indexOf(stock.move) >= 0;
  const el = h("div.stock" + (can ? ".takeable" : ""), { title: count + " cards in the draw pile" },
    h("div.stock-cards", count > 0 ? C.backEl({ cls: "small" }) : h("div.slot", "—"), count > 1 ? C.backEl({ cls: "small under" }) : null),
    h("div.pile-label", stock.label + ": " + count));
  if (can) {
    el.setAttribute("role", "button");
    el.dataset.move = stock.move;
    el.addEventListener("click", function () { ctx.onMove(stock.move); });
  }
  return el;
}

/** A count towards a goal (Twenty's tally): its value, a bar, and the cards that make it. */
function meterEl(ctx, item) {
  const fillEl = h("div.meter-fill");
  fillEl.style.width = Math.min(100, item.value / item.max * 100) + "%"; // CSSOM, allowed by the page's CSP
  return h("div.tally-box",
    h("div.tally-head", h("span", item.label), h("span.tally-value" + (item.hot ? ".hot" : ""), { id: item.id }, String(item.value)),
      h("span.muted", "/ " + item.max), item.badge ? h("span.badge", item.badge) : null),
    h("div.meter", fillEl),
    item.cards.length ? fan(ctx, item.cards, { vertical: false }) : h("div.slot.wide", item.empty));
}

/** One item of the middle of the table (its ``kind`` says which). */
function centreItem(ctx, item) {
  switch (item.kind) {
    case "stock": return stockEl(ctx, item);
    case "pile": return pileEl(ctx, item);
    case "piles": return h("div.columns" + dots(item.cls), item.piles.map(function (p) { return pileEl(ctx, p); }));
    case "meter": return meterEl(ctx, item);
    case "group": return h("div" + dots(item.cls), item.items.map(function (i) { return centreItem(ctx, i); }));
    case "label": return h("div.pile-label", say(ctx, item));
    case "cards": return h("div" + dots(item.cls), item.cards.map(function (c) { return cardEl(ctx, c, { cls: item.card_cls }); }));
    case "note": case "text": return h("div" + dots(item.cls), say(ctx, item));
    default: return null;
  }
}

function middle(ctx) {
  return h("section.middle", ctx.layout.centre.map(function (item) { return centreItem(ctx, item); }));
}
