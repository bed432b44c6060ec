/* The moves a seat can make, as the server words them: the layout's offers ({move, card, text, short,
   main}) looked up by notation. The page reads moves; the server alone parses what a person types. */
import * as C from "./cards.js";

/** The moves ``seat`` may make now in table state ``st`` (none while it watches or the round is over). */
export function seatLegal(st, seat) {
  return st && st.status === "playing" && seat !== null ? st.legal || [] : [];
}

/** The layout's legal moves by notation: {move, card, text, short, main}. */
export function offerMap(layout) {
  const by = {};
  ((layout && layout.moves) || []).forEach(function (o) { by[o.move] = o; });
  return by;
}

/** The card a legal move uses, if any. */
export function cardOf(offers, move) {
  return (offers[move] || {}).card || null;
}

/** The legal moves that use ``card``. */
export function movesFor(offers, legal, card) {
  return legal.filter(function (m) { return cardOf(offers, m) === card; });
}

/** A legal move in the server's words ("Play 9♣ on your ♣ meld"); the notation if it has none. */
export function offerText(offers, move) {
  return (offers[move] || {}).text || notationText(move);
}

/** A move in notation with its cards printed: "play 7♥". */
export function notationText(move) {
  return move.split(" ").map(function (w) { return C.isCard(w) ? C.cardShort(w) : w; }).join(" ");
}
