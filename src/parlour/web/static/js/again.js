/* Play again, at the end of a match: the "Play again" and "No, thanks" buttons of a seated person, and
   what the others have answered (the server's `play_again` message, kept in T.again). When everyone
   has accepted, the server sends `new_table` and the page goes to the new table (table.js). Names are
   shown as text only (h() sets textContent). */
import { fill, h } from "./dom.js";

/** The play-again part of the result panel of table ``T`` (``names``: the seats' names); ``send``
 *  sends a message. Redrawn in place by showAgain() when an answer comes. */
export function againPanel(T, names, send) {
  const box = h("div.again#play-again", { role: "status" });
  drawAgain(box, T, names, send);
  return box;
}

/** Draw the play-again part again (a `play_again` message came). */
export function showAgain(T, names, send) {
  const box = document.getElementById("play-again");
  if (box) drawAgain(box, T, names, send);
}

function drawAgain(box, T, names, send) {
  const votes = T.again || { accepted: [], declined: [], left: [], waiting: [], table: null };
  const me = T.seat;
  const mine = me === null ? null : votes.accepted.includes(me) ? "yes" : votes.declined.includes(me) ? "no" : null;
  const others = function (seats) {
    return seats.filter(function (s) { return s !== me; }).map(function (s) { return names[s] || "Seat " + (s + 1); });
  };
  const lines = [];
  if (votes.table) {
    lines.push(h("p", "A new table has started: ", h("a#again-link", { href: "/table/" + encodeURIComponent(votes.table) }, "go to it")));
  } else {
    const yes = others(votes.accepted);
    const no = others(votes.declined);
    const gone = others(votes.left);
    const waiting = others(votes.waiting);
    if (yes.length) lines.push(h("p.again-yes", listed(yes) + (yes.length > 1 ? " want" : " wants") + " to play again."));
    if (no.length) lines.push(h("p.again-no", listed(no) + " would rather not play again."));
    if (gone.length) lines.push(h("p.again-no", listed(gone) + " left the table."));
    if (mine === "yes" && !no.length && !gone.length && waiting.length) lines.push(h("p.muted", "Waiting for " + listed(waiting) + "…"));
    if (mine === "no") lines.push(h("p.muted", "You said no. You can still change your mind."));
  }
  const buttons = me === null || votes.table ? null : h("div.btn-row",
    h("button.btn.primary#play-again-btn", {
      type: "button", disabled: mine === "yes",
      onclick: function () { send({ type: "play_again", accept: true }); },
    }, mine === "yes" ? "✓ You are in" : "↻ Play again"),
    mine === "yes" ? null : h("button.btn#decline-again", {
      type: "button", disabled: mine === "no",
      onclick: function () { send({ type: "play_again", accept: false }); },
    }, "No, thanks"));
  fill(box, me === null ? null : h("h3", "Play again with the same players? Seats move one place on."), buttons, lines);
}

/** "Ada", "Ada and Bea", "Ada, Bea and Cy". */
function listed(names) {
  return names.length > 1 ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1] : names[0];
}
