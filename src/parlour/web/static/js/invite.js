/* An invitation brought to a table's page (#invite=… in the address, read once): "Alice invited you
   to play Minus Twenty (seat 2). Your name: [___] [Take the seat] [Just watch]", and accepting it. */
import { fill, h, toast } from "./dom.js";
import { Me } from "./me.js";
import { api } from "./net.js";
import { rememberTable } from "./prefs.js";

/** Offer table ``T`` (its summary in T.table) to the bearer of invitation ``code``, in ``app``;
 *  ``act``: {connect() (go to the table), notice(text) (a line above it)}. */
export function inviteScreen(app, T, code, act) {
  const summary = T.table;
  const seats = summary.seats || [];
  const host = seats.find(function (s) { return s.kind === "me"; });
  const freeFriends = seats.filter(function (s) { return s.kind === "friend" && !s.taken; });
  const game = summary.name || summary.game;
  document.title = "Invitation to " + game + " — Parlour";
  if (!freeFriends.length) {
    // Every invitation of this table is taken: asking tells by whom (or gives back this player's own seat).
    accept(T, code, null, act);
    return;
  }
  const seatText = freeFriends.length === 1 ? " (seat " + (freeFriends[0].seat + 1) + ")" : "";
  const others = seats.filter(function (s) { return s.kind !== "friend" || s.taken; })
    .map(function (s) { return s.name + (s.kind === "bot" ? " (computer)" : ""); });
  const nameIn = h("input#invite-name", { type: "text", maxlength: "40", placeholder: "Your name", value: Me.name || "",
    autocomplete: "nickname", required: true });
  const take = h("button.btn.primary.big#take-seat", { type: "submit" }, "Take the seat");
  const error = h("p.error#invite-error", { role: "alert", hidden: true });
  const form = h("form.invite-form", {
    onsubmit: function (ev) {
      ev.preventDefault();
      const name = nameIn.value.trim();
      if (!name) { error.textContent = "Write your name: the other players see it."; error.hidden = false; nameIn.focus(); return; }
      take.disabled = true;
      accept(T, code, name, act, function (err) { error.textContent = err.message; error.hidden = false; take.disabled = false; });
    },
  },
  h("label", { for: "invite-name" }, "Your name"),
  h("div.invite-row", nameIn, take,
    h("button.btn#just-watch", { type: "button", onclick: function () { act.connect(); } }, "Just watch")),
  error);
  fill(app, h("section.panel.invitation#invitation",
    h("h1", (host ? host.name + " invited you" : "You are invited") + " to play " + game + seatText + "."),
    others.length ? h("p.muted", "At the table: " + others.join(", ") + ".") : null,
    form));
  Me.ready.then(function () { if (!nameIn.value && Me.name) nameIn.value = Me.name; });
  nameIn.focus();
}

/** Accept invitation ``code`` (as ``name``, or with no name to learn who took it), then go to the table. */
function accept(T, code, name, act, onError) {
  api("/api/tables/" + encodeURIComponent(T.id) + "/accept", { method: "POST", body: name ? { invite: code, name: name } : { invite: code } })
    .then(function () {
      rememberTable(T.id, T.table && T.table.game, T.table && T.table.name);
      Me.refresh();
      act.connect();
    })
    .catch(function (err) {
      if (err.status === 409 || err.status === 404) {
        const by = (err.message.match(/accepted by (.+?)(?::|$)/) || [])[1];
        if (by) act.notice("This invitation was already accepted by " + by + " — you are watching as a spectator.");
        else if (/already have seat/.test(err.message)) act.notice(null);
        else if (err.status === 404) act.notice("This invitation is not valid any more (the host may have replaced it) — you are watching as a spectator.");
        else act.notice(err.message.replace(/^./, function (c) { return c.toUpperCase(); }));
        act.connect();
      } else if (onError) onError(err);
      else { toast(err.message, "error"); act.connect(); }
    });
}
