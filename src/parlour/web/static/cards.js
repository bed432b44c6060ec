/* Cards: notation, sorting, and how a card is drawn (plain DOM + CSS). */
"use strict";

(function () {
  const SUITS = ["C", "D", "H", "S"];
  const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  const RANK_TEXT = { T: "10" };

  function parse(code) {
    if (code === "JK") return { rank: "JK", suit: null, joker: true };
    return { rank: code[0], suit: code[1], joker: false };
  }

  function isCard(text) {
    return typeof text === "string" && /^(JK|[A2-9TJQK][CDHS])$/.test(text);
  }

  /** Sort by suit (♣ ♦ ♥ ♠, joker last), then rank (A low). */
  function sortCards(cards) {
    return cards.slice().sort(function (a, b) {
      const pa = parse(a), pb = parse(b);
      const sa = pa.joker ? 9 : SUITS.indexOf(pa.suit), sb = pb.joker ? 9 : SUITS.indexOf(pb.suit);
      if (sa !== sb) return sa - sb;
      return RANKS.indexOf(pa.rank) - RANKS.indexOf(pb.rank);
    });
  }

  /** What a card is in a game: a short tag printed on it, and a role class. */
  function role(game, code) {
    const c = parse(code);
    if (game === "silver-bars") {
      if (c.joker) return { tag: "hi thief", cls: "thief" };
      if (c.rank === "5" || code === "KS") return { tag: "lock", cls: "lock" };
      if ("A2346".indexOf(c.rank) >= 0) return { tag: "bar " + (c.rank === "A" ? 1 : c.rank), cls: "bar" };
      if ("789T".indexOf(c.rank) >= 0) return { tag: "miner", cls: "miner" };
      if (c.rank === "K") return { tag: "rubble", cls: "rubble" };
      if (code === "QS") return { tag: "strike", cls: "strike" };
      if (c.rank === "Q") return { tag: "shovel", cls: "shovel" };
      if (c.rank === "J") return { tag: "lo thief", cls: "thief" };
    } else if (game === "minus-twenty") {
      if ("JQK".indexOf(c.rank) >= 0) return { tag: "×", cls: "invest" };
    } else if (game === "progression") {
      if ("AJQK".indexOf(c.rank) >= 0) return { tag: "×", cls: "invest" };
    } else if (game === "twenty") {
      return { tag: String(twentyValue(code)), cls: "" };
    }
    return { tag: "", cls: "" };
  }

  function twentyValue(code) {
    const r = parse(code).rank;
    if (r === "A") return 1;
    if ("TJQK".indexOf(r) >= 0) return 10;
    return parseInt(r, 10);
  }

  function rankText(rank) {
    return RANK_TEXT[rank] || rank;
  }

  /** Words for a card: "10 of hearts", "joker". */
  function cardName(code) {
    const c = parse(code);
    if (c.joker) return "joker";
    const names = { A: "ace", J: "jack", Q: "queen", K: "king", T: "10" };
    return (names[c.rank] || c.rank) + " of " + SUIT_NAME[c.suit];
  }

  /** A card's short printed form for text: 10♥, 7♠, ★. */
  function cardShort(code) {
    const c = parse(code);
    if (c.joker) return "★";
    return rankText(c.rank) + SUIT_SYMBOL[c.suit];
  }

  /** The DOM element of a face-up card. */
  function cardEl(code, game, opts) {
    opts = opts || {};
    const c = parse(code);
    const r = role(game, code);
    const el = document.createElement(opts.button ? "button" : "div");
    if (opts.button) el.type = "button";
    el.className = "card face " + (c.joker ? "joker" : "suit-" + c.suit) +
      (c.suit === "D" || c.suit === "H" ? " red" : c.joker ? "" : " black") +
      (r.cls ? " role-" + r.cls : "") + (opts.cls ? " " + opts.cls : "");
    el.dataset.card = code;
    el.setAttribute("aria-label", cardName(code) + (r.tag && r.tag !== "×" && game === "silver-bars" ? " (" + r.tag + ")" : ""));
    el.title = cardName(code) + (r.tag && game === "silver-bars" ? " — " + r.tag : r.cls === "invest" ? " — multiplier" : "");
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

  function backEl(opts) {
    opts = opts || {};
    const el = document.createElement("div");
    el.className = "card back" + (opts.cls ? " " + opts.cls : "");
    el.setAttribute("aria-hidden", "true");
    return el;
  }

  window.Cards = {
    SUITS: SUITS, SUIT_SYMBOL: SUIT_SYMBOL, SUIT_NAME: SUIT_NAME, RANKS: RANKS,
    parse: parse, isCard: isCard, sortCards: sortCards, role: role, twentyValue: twentyValue,
    cardName: cardName, cardShort: cardShort, cardEl: cardEl, backEl: backEl, rankText: rankText,
  };
})();
