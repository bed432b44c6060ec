/* Ratings in the browser: the leaderboard of each game (/leaderboard, /leaderboard/GAME), a player's
   page (/player/HANDLE: name, ratings per game with the plot of their history, newest matches), and
   the small rating badge shown beside a seat's name at the table and in the lobby. The numbers are the
   server's (rating = μ − 3σ of openskill, as `parlour lab ladder` prints it); names are always text. */
import { fill, h } from "./dom.js";
import { api } from "./net.js";

/** The rating shown beside a seat (from a public seat: {rating, player}), or null: a link to the
 *  person's page once they have one. */
export function ratingBadge(seat) {
  if (!seat || seat.rating === null || seat.rating === undefined) return null;
  const text = "★ " + seat.rating.toFixed(1);
  const title = "rating (μ − 3σ)" + (seat.kind === "bot" ? ": this level's fixed rating" : "");
  if (seat.player) {
    return h("a.badge.rating", { href: "/player/" + encodeURIComponent(seat.player), title: title }, text);
  }
  return h("span.badge.rating", { title: title }, text);
}

function when(iso) {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? "" : d.toLocaleDateString() + " " + d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function gameTabs(games, current) {
  return h("nav.rating-tabs", { "aria-label": "Games" }, games.map(function (g) {
    return h("a.btn.small" + (g.id === current ? ".primary" : ""),
      { href: "/leaderboard/" + encodeURIComponent(g.id), "aria-current": g.id === current ? "page" : null }, g.name || g.id);
  }));
}

/** The leaderboard page of ``gameId`` (the first game when null) in ``app``. */
export function leaderboardPage(app, gameId) {
  app.className = "ratings-page";
  document.title = "Leaderboard — Parlour";
  fill(app, h("p.loading", "Loading the leaderboard…"));
  api("/api/games").then(function (games) {
    const game = gameId || (games[0] && games[0].id);
    return api("/api/ratings/" + encodeURIComponent(game)).then(function (board) {
      document.title = board.name + " leaderboard — Parlour";
      const rows = board.players.map(function (p) {
        return h("tr.leader", { dataset: { player: p.player } },
          h("td.num", String(p.rank)),
          h("td", h("a.player-link", { href: "/player/" + encodeURIComponent(p.player) }, p.name)),
          h("td.num.rating-value", p.rating.toFixed(1)),
          h("td.num.muted", p.mu.toFixed(1) + " ± " + p.sigma.toFixed(1)),
          h("td.num", String(p.matches)));
      });
      fill(app,
        h("h1", board.name + " leaderboard"),
        gameTabs(games, board.game),
        h("section.panel",
          rows.length ? h("div.table-scroll", h("table.leaderboard#leaderboard",
            h("thead", h("tr", h("th", "#"), h("th", "Player"), h("th.num", "Rating"), h("th.num", "μ ± σ"), h("th.num", "Rated matches"))),
            h("tbody", rows)))
            : h("p.muted#leaderboard-empty", "Nobody has played a rated match of " + board.name + " yet. Tick \u201cRated\u201d when you start a table."),
          h("p.help.muted", "Rating: μ − 3σ of an openskill (Plackett–Luce) rating, so it rises as your results make it surer. " +
            "Only rated matches count; bots play at the fixed ratings below.")),
        h("section.panel",
          h("h2", "The computer's levels"),
          h("table.leaderboard.bots#bot-ratings",
            h("thead", h("tr", h("th", "Level"), h("th.num", "Rating"), h("th.num", "μ ± σ"))),
            h("tbody", board.bots.map(function (b) {
              return h("tr", h("td", b.name), h("td.num", b.rating.toFixed(1)), h("td.num.muted", b.mu.toFixed(1) + " ± " + b.sigma.toFixed(1)));
            }))),
          board.anchors ? h("p.help.muted", "Measured by the bots' own ladder (" + board.anchors.made + "): ", h("code", board.anchors.command))
            : h("p.help.muted", "The computer's levels have no measured rating in " + board.name + " yet: a rated match of it is between people only.")));
    });
  }).catch(function (err) {
    fill(app, h("h1", "Leaderboard"), h("p.error", err.message));
  });
}

/** The page of the player whose handle is ``handle``, in ``app``. */
export function playerPage(app, handle) {
  app.className = "ratings-page";
  document.title = "Player — Parlour";
  fill(app, h("p.loading", "Loading the player…"));
  api("/api/players/" + encodeURIComponent(handle)).then(function (p) {
    document.title = p.name + " — Parlour";
    const ratings = p.ratings.length ? h("div.table-scroll", h("table.leaderboard#player-ratings",
      h("thead", h("tr", h("th", "Game"), h("th.num", "Rating"), h("th.num", "μ ± σ"), h("th.num", "Rated matches"))),
      h("tbody", p.ratings.map(function (r) {
        const first = r.history.length ? r.history[0].before.rating : null;
        const moved = first === null ? "" : " (from " + first.toFixed(1) + ")";
        return h("tr", { dataset: { game: r.game } },
          h("td", h("a", { href: "/leaderboard/" + encodeURIComponent(r.game) }, r.name)),
          h("td.num.rating-value", r.rating.toFixed(1), h("span.muted", moved)),
          h("td.num.muted", r.mu.toFixed(1) + " ± " + r.sigma.toFixed(1)),
          h("td.num", String(r.matches)));
      })))) : h("p.muted", "No rated match yet.");
    const matches = p.matches.length ? h("ul.plain.match-list#player-matches", p.matches.map(function (m) {
      const against = m.opponents.map(function (o) {
        const label = o.name + (o.kind === "bot" && o.level ? " (" + o.level + ")" : "");
        return o.player ? h("a", { href: "/player/" + encodeURIComponent(o.player) }, label) : h("span", label);
      });
      const vs = [];
      against.forEach(function (a, i) { if (i) vs.push(", "); vs.push(a); });
      const change = m.rating ? " · rating " + m.rating.before.rating.toFixed(1) + " → " + m.rating.after.rating.toFixed(1) : "";
      return h("li.match-row", { dataset: { table: m.table_id } },
        h("strong", m.name), " against ", vs, " — ",
        h("span.match-result.result-" + m.result.replace(/ /g, "-"), m.result), " (" + m.totals.join(" – ") + ")",
        h("span.muted", " · " + when(m.date) + (m.rated ? " · rated" : "") + change), " ",
        h("a.small", { href: "/table/" + encodeURIComponent(m.table_id) }, "the table"));
    })) : h("p.muted", "No finished match yet.");
    fill(app,
      h("h1#player-name", p.name),
      h("section.panel", h("h2", "Ratings"), ratings,
        p.ratings.length ? h("img.rating-plot#rating-plot", {
          src: "/api/players/" + encodeURIComponent(handle) + "/ratings.png",
          alt: "The rating after each rated match, a line per game", width: "640", height: "320",
        }) : null),
      h("section.panel", h("h2", "Recent matches"), matches),
      h("p", h("a", { href: "/leaderboard" }, "The leaderboards")));
  }).catch(function (err) {
    fill(app, h("h1", "Player"), h("p.error#player-error", err.message));
  });
}
