/* Cards: notation, and how a card is drawn (plain DOM + CSS); what a card is in a game comes from the server. */

export const SUITS = ["C", "D", "H", "S"];
export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const RANK_TEXT = { T: "10" };

export function parse(code) {
  if (code === "JK") return { rank: "JK", suit: null, joker: true };
  return { rank: code[0], suit: code[1], joker: false };
}

export function isCard(text) {
  return typeof text === "string" && /^(JK|[A2-9TJQK][CDHS])$/.test(text);
}

export function rankText(rank) {
  return RANK_TEXT[rank] || rank;
}

/** Words for a card: "10 of hearts", "joker". */
export function cardName(code) {
  const c = parse(code);
  if (c.joker) return "joker";
  const names = { A: "ace", J: "jack", Q: "queen", K: "king", T: "10" };
  return (names[c.rank] || c.rank) + " of " + SUIT_NAME[c.suit];
}

/** A card's short printed form for text: 10♥, 7♠, ★. */
export function cardShort(code) {
  const c = parse(code);
  if (c.joker) return "★";
  return rankText(c.rank) + SUIT_SYMBOL[c.suit];
}

/** The DOM element of a face-up card; ``role``: what it is in the game, as the server says
 *  ({tag, kind, note}: "bar 1" printed on it, class role-bar, "— bar 1" in its title), or null. */
export function cardEl(code, role, opts) {
  opts = opts || {};
  const c = parse(code);
  const r = role || { tag: "", kind: "", note: "" };
  const el = document.createElement(opts.button ? "button" : "div");
  if (opts.button) el.type = "button";
  el.className = "card face " + (c.joker ? "joker" : "suit-" + c.suit) +
    (c.suit === "D" || c.suit === "H" ? " red" : c.joker ? "" : " black") +
    (r.kind ? " role-" + r.kind : "") + (opts.cls ? " " + opts.cls : "");
  el.dataset.card = code;
  el.setAttribute("aria-label", cardName(code) + (r.note ? " (" + r.note + ")" : ""));
  el.title = cardName(code) + (r.note ? " — " + r.note : "");
  const corner = document.createElement("span");
  corner.className = "corner";
  if (c.joker) {
    corner.innerHTML = "<b>J</b><b>K</b>";
  } else {
    const rk = document.createElement("b");
    rk.textContent = rankText(c.rank);
    const st = document.createElement("i");
    st.textContent = SUIT_SYMBOL[c.suit];
    corner.append(rk, st);
  }
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = c.joker ? "★" : ("JQK".indexOf(c.rank) >= 0 ? c.rank : SUIT_SYMBOL[c.suit]);
  if (!c.joker && "JQK".indexOf(c.rank) >= 0) pip.classList.add("court");
  el.append(corner, pip);
  if (r.tag) {
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = r.tag;
    el.append(tag);
  }
  return el;
}

export function backEl(opts) {
  opts = opts || {};
  const el = document.createElement("div");
  el.className = "card back" + (opts.cls ? " " + opts.cls : "");
  el.setAttribute("aria-hidden", "true");
  return el;
}
