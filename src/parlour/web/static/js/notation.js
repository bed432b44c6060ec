/* The move box: a move typed in notation or shorthand ("play 7H", "7h"). The page does not read what
   is typed: it sends it to the server as a ``resolve`` message, and the server, which knows the
   position, answers ``resolved`` with the move in full (then played here) or an error (shown as every
   error is). The box is made once and kept, so a new state never wipes what is being typed. */
import { h, toast } from "./dom.js";
import { notationText, seatLegal } from "./moves.js";

/** The box of table ``T``; ``act``: {send(msg) (false when not connected), playMove(move)}.
 *  Returns {panel, input, update(legal, myTurn, shown), resolved(msg)}. */
export function notationBox(T, act) {
  const input = h("input#notation", {
    type: "text", autocomplete: "off", spellcheck: "false", autocapitalize: "off", maxlength: "60",
    placeholder: "type a move", "aria-label": "Move in notation",
  });
  let asked = null;  // the text sent to be resolved, until the server's answer
  const form = h("form.notation", {
    onsubmit: function (ev) {
      ev.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      if (!seatLegal(T.state, T.seat).length) { toast("It is not your turn.", "warn"); return; }
      if (act.send({ type: "resolve", text: text })) asked = text;
    },
  }, input, h("button.btn.small#notation-send", { type: "submit" }, "Send"));
  const panel = h("section.panel.notation-panel", { hidden: true }, form);

  /** The server's reading of what was typed: play it, but first ask the question the server sends with it
   *  (a face card typed alone is not thrown away without a word). */
  function resolved(msg) {
    if (asked === null || msg.text !== asked) return;
    const text = asked;
    asked = null;
    const move = msg.move;
    if (msg.confirm && !window.confirm(msg.confirm)) {
      toast("Kept: " + notationText(move) + " not played.", "info");
      return;
    }
    act.playMove(move);
    if (input.value.trim() === text) input.value = "";
  }

  return {
    panel: panel, input: input, resolved: resolved,
    update: function (legal, myTurn, shown) {
      panel.hidden = !shown;
      const ph = myTurn ? "type a move: " + (legal[0] || "play 7H") : "type a move";
      if (input.placeholder !== ph) input.placeholder = ph;
    },
  };
}
