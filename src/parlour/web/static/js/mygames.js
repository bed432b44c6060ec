/* My games (/me/games): the matches of this browser's identity (a guest's, or the account's it is
   signed in to), newest first, a page at a time from GET /api/me/games: the game, the opponents (bots
   with their level), the result for you, the date, rated or not, and links to the table, its replay,
   its review and its record. Names are the players' own text: always shown as text. */
import { fill, h } from "./dom.js";
import { Me } from "./me.js";
import { api } from "./net.js";
import { num } from "./numbers.js";

const PER_PAGE = 20;
const RESULT_WORDS = {
  won: "You won", lost: "You lost", shared: "You shared the win", drawn: "Drawn",
  abandoned: "Abandoned", playing: "Being played", finished: "Finished",
};

/** The page in ``app``, at page ``page`` (from 1). */
export function myGamesPage(app, page) {
  document.title = "My games — Parlour";
  app.className = "mygames-page";
  const list = h("div.mygames-list#mygames-list", h("p.loading", "Loading your games…"));
  const who = h("p.muted.mygames-who#mygames-who");
  fill(app, h("section.panel.mygames", h("h1", "My games"), who, list));
  const sayWho = function () {
    fill(who, Me.account
      ? ["The matches of your account ", h("b", Me.account), ", on every browser you sign in to."]
      : ["The matches of this browser. Register (at the top) to keep them on every browser and device."],
    Me.page ? [" ", h("a#mygames-page", { href: Me.page }, "Your ratings and player's page")] : null);
  };
  (Me.ready || Promise.resolve()).then(sayWho);
  show(list, page || 1);
}

function show(list, page) {
  api("/api/me/games?page=" + page + "&per_page=" + PER_PAGE).then(function (res) {
    if (!res.total) {
      fill(list, h("p.mygames-empty#mygames-empty", "No games yet. ", h("a", { href: "/" }, "Start a table"),
        " or ", h("a", { href: "/#lobby" }, "join one in the lobby"), "."));
      return;
    }
    const pager = res.pages > 1 ? h("nav.btn-row.mygames-pager", { "aria-label": "Pages" },
      h("button.btn.small#mygames-newer", { type: "button", disabled: res.page <= 1,
        onclick: function () { show(list, res.page - 1); } }, "← Newer"),
      h("span.muted", "Page " + res.page + " of " + res.pages),
      h("button.btn.small#mygames-older", { type: "button", disabled: res.page >= res.pages,
        onclick: function () { show(list, res.page + 1); } }, "Older →")) : null;
    fill(list, h("p.muted", res.total === 1 ? "1 match" : res.total + " matches"),
      h("ol.mygames-lines", res.matches.map(matchLine)), pager);
  }, function (err) {
    fill(list, h("p.error", err.message));
  });
}

function opponent(o, i) {
  return [i ? ", " : "", h("span.mygames-opponent", o.name), o.bot ? h("span.badge.bot", "bot · " + o.bot) : null];
}

function scoreText(m) {
  if (m.total === null || m.total === undefined) return null;
  return [num(m.total)].concat(m.opponents.map(function (o) { return num(o.total); })).join(" – ");
}

function matchLine(m) {
  const date = new Date(m.created);
  const links = m.links;
  const score = scoreText(m);
  return h("li.mygames-line", { dataset: { table: m.table_id, result: m.result } },
    h("div.mygames-game", h("b", m.game_name), m.rated ? h("span.badge.rated", "rated") : h("span.badge.unrated", "unrated")),
    h("div.mygames-opponents", "against ", m.opponents.map(opponent)),
    h("div.mygames-result.result-" + m.result, RESULT_WORDS[m.result] || m.result, score ? h("span.muted", " · " + score) : null),
    h("time.mygames-date.muted", { datetime: m.created }, date.toLocaleString(undefined,
      { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })),
    h("div.mygames-links.btn-row",
      h("a.btn.small", { href: links.table }, m.result === "playing" ? "Go to the table" : "Table"),
      links.replay ? h("a.btn.small.mygames-replay", { href: links.replay }, "▶ Replay") : null,
      links.review ? h("a.btn.small.mygames-review", { href: links.review }, "★ Review") : null,
      links.record ? h("a.btn.small.mygames-record", { href: links.record, download: "" }, "Download record") : null));
}
