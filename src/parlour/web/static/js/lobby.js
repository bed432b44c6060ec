/* The lobby: live tables with a free open seat, a page at a time, and joining one. */
import { fill, h, toast } from "./dom.js";
import { ensureName } from "./me.js";
import { api } from "./net.js";
import { rememberTable } from "./prefs.js";
import { ratingBadge } from "./ratings.js";

/** Draw page ``lobby.page`` of the open tables in ``lobby.box``. */
export function refreshLobby(lobby) {
  const list = lobby.box.querySelector(".lobby-list");
  const pager = lobby.box.querySelector(".pager");
  api("/api/tables?page=" + lobby.page).then(function (res) {
    // {tables, page, pages, total}; an older server answered a plain list.
    const page = Array.isArray(res) ? { tables: res, page: 1, pages: 1, total: res.length } : res;
    lobby.page = page.page || 1;
    fill(list);
    if (!page.tables.length) {
      list.append(h("p.muted", "No open tables right now. Start one with an open seat and it shows up here."));
    }
    for (const t of page.tables) {
      const free = t.seats.filter(function (s) { return s.kind === "open" && !s.taken; });
      list.append(h("div.lobby-row", { dataset: { table: t.table_id } },
        h("div.lobby-info",
          h("strong", t.name || t.game),
          t.rated ? h("span.badge.rated", { title: "The match updates the players' ratings" }, "rated") : null,
          h("span.muted", " · " + (t.status === "round_over" ? "between rounds" : "playing") + when(t.created)),
          h("div.lobby-seats", t.seats.map(function (s) {
            const isFree = s.kind === "open" && !s.taken;
            return h("span.seat-chip" + (isFree ? ".free" : ""),
              isFree ? "free seat" : (s.name || s.kind) + (s.kind === "bot" && s.level ? " (" + s.level + ")" : ""),
              isFree ? null : ratingBadge(s));
          }))),
        h("div.lobby-actions", free.map(function (s) {
          return h("button.btn.primary.small.join", {
            type: "button", dataset: { seat: String(s.seat) },
            onclick: function () { joinTable(t, s.seat); },
          }, free.length > 1 ? "Join seat " + (s.seat + 1) : "Join");
        }),
        h("a.btn.small", { href: "/table/" + encodeURIComponent(t.table_id) }, "Watch"))));
    }
    fill(pager);
    if (page.pages > 1) {
      pager.append(
        h("button.btn.small#lobby-prev", { type: "button", disabled: page.page <= 1,
          onclick: function () { lobby.page = page.page - 1; refreshLobby(lobby); } }, "◀ Previous"),
        h("span.muted.pager-text", "page " + page.page + " of " + page.pages + " · " + page.total + " tables"),
        h("button.btn.small#lobby-next", { type: "button", disabled: page.page >= page.pages,
          onclick: function () { lobby.page = page.page + 1; refreshLobby(lobby); } }, "Next ▶"));
    }
  }).catch(function () {
    fill(list, h("p.muted", "The lobby is not available."));
    fill(pager);
  });
}

function when(created) {
  if (created === null || created === undefined) return "";
  const d = typeof created === "number" ? new Date(created < 1e12 ? created * 1000 : created) : new Date(created);
  return isNaN(d.getTime()) ? "" : " · opened " + d.toLocaleTimeString();
}

function joinTable(t, seat) {
  ensureName().then(function (name) {
    return api("/api/tables/" + encodeURIComponent(t.table_id) + "/join", { method: "POST", body: { seat: seat, name: name } });
  }).then(function () {
    rememberTable(t.table_id, t.game, t.name);
    location.assign("/table/" + encodeURIComponent(t.table_id));
  }).catch(function (err) {
    if (err.status === 409 && /already have seat/.test(err.message)) {
      location.assign("/table/" + encodeURIComponent(t.table_id));
      return;
    }
    toast(err.status === 409 ? "That seat was just taken." : err.message, "error");
  });
}

