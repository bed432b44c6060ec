/* The host's tools at a table: the invitations nobody has accepted yet (each with Copy), re-opening
   the seat of a player who left, and telling the host who joined. Invitation links are fetched from
   the server each time they change, never kept. */
import { copyButton, fill, h, toast } from "./dom.js";
import { absUrl, api } from "./net.js";

/** The statuses of a table still being played (its invitations still matter). */
export const LIVE = { playing: true, round_over: true };

/** The host's panel of table ``T``: {el, render(), seatsChanged(before, after)}. */
export function hostTools(T) {
  const box = h("div.host-slot#host-slot");

  function render() {
    const st = T.state;
    const table = T.table;
    if (!st || !table || !table.you || !table.you.host || !LIVE[st.status]) { fill(box); box.hidden = true; return; }
    const seats = st.seats || [];
    const rows = [];
    for (const inv of table.invites || []) {
      const seat = seats[inv.seat] || {};
      if (seat.taken) continue;
      const url = absUrl(inv.url);
      rows.push(h("div.invite", { dataset: { seat: String(inv.seat) } },
        h("label", { for: "invite-" + inv.seat }, "Seat " + (inv.seat + 1) + ": send this link to the friend who plays it (it works once)"),
        h("div.copy-row",
          h("input.invite-url#invite-" + inv.seat, { type: "text", readonly: true, value: url, dataset: { seat: String(inv.seat) },
            onfocus: function (e) { e.target.select(); } }),
          copyButton(function () { return url; }))));
    }
    const pending = {};
    (table.invites || []).forEach(function (inv) { pending[inv.seat] = true; });
    seats.forEach(function (s, i) {
      if (s.kind === "bot" || i === T.seat || !s.taken || s.connected || pending[i]) return;
      rows.push(h("div.reopen", { dataset: { seat: String(i) } },
        h("span", s.name + " (seat " + (i + 1) + ") is not at the table."),
        h("button.btn.small.reopen-btn", { type: "button", dataset: { seat: String(i) },
          title: "Take the seat back from " + s.name + " and get a new invitation link for it",
          onclick: function (ev) { reopen(i, ev.currentTarget); } }, "Re-open seat")));
    });
    seats.forEach(function (s, i) {
      if (s.kind === "open" && !s.taken) rows.push(h("p.muted.open-seat", "Seat " + (i + 1) + " is open: anyone can take it from the lobby."));
    });
    if (!rows.length) { fill(box); box.hidden = true; return; }
    box.hidden = false;
    fill(box, h("section.panel.invites#invites", h("h2", "Your table: invitations"), rows));
  }

  function reopen(seat, button) {
    const name = ((T.state.seats || [])[seat] || {}).name || "the player";
    button.disabled = true;
    api("/api/tables/" + encodeURIComponent(T.id) + "/seats/" + seat + "/reopen", { method: "POST" }).then(function (res) {
      T.table.invites = (T.table.invites || []).filter(function (i) { return i.seat !== res.seat; })
        .concat([{ seat: res.seat, url: res.url }]);
      toast("Seat " + (seat + 1) + " is open again: send the new link.");
      render();
      refreshSummary();
    }).catch(function (err) {
      button.disabled = false;
      toast(err.status === 409 ? name + " cannot be replaced now: " + err.message : err.message, "error");
    });
  }

  function refreshSummary() {
    api("/api/tables/" + encodeURIComponent(T.id)).then(function (summary) {
      T.table = summary;
      render();
    }).catch(function () { /* shown again next time */ });
  }

  /** A seat was taken or freed: the host's invitations change (fetched again, never kept). */
  function seatsChanged(before, after) {
    if (!T.table || !T.table.you || !T.table.you.host || !after) return;
    const key = function (seats) { return (seats || []).map(function (s) { return s.kind + ":" + s.taken + ":" + s.name; }).join("|"); };
    if (before && key(before) === key(after)) { render(); return; }
    if (before) {
      after.forEach(function (s, i) {
        const b = before[i];
        if (b && !b.taken && s.taken && s.kind !== "bot") toast(s.name + " joined");
      });
    }
    // Drop the invitation of a seat that is taken now at once; the server's list follows.
    T.table.invites = (T.table.invites || []).filter(function (inv) { return !(after[inv.seat] || {}).taken; });
    render();
    refreshSummary();
  }

  return { el: box, render: render, seatsChanged: seatsChanged };
}
