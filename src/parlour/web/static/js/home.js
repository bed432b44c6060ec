/* The home page: the games (summary and rules), the new-table form, the lobby and the tables this
   browser sat at lately. */
import { fill, h, toast } from "./dom.js";
import { refreshLobby } from "./lobby.js";
import { markdown } from "./markdown.js";
import { Me } from "./me.js";
import { api } from "./net.js";
import { DEFAULT_LEVEL, playAgainstComputer, renderNewTable } from "./newtable.js";
import { store } from "./prefs.js";

/** Draw the home page in ``app``. */
export function homePage(app) {
  document.title = "Parlour — card games of the Lost Cities family";
  app.className = "home";
  app.textContent = "";
  const gamesBox = h("section.games", { "aria-label": "Games" }, h("p.loading", "Loading the games…"));
  const formBox = h("section.panel.newtable#new", h("h2", "New table"), h("p.loading", "…"));
  const lobbyBox = h("section.panel.lobby#lobby", h("h2", "Lobby"),
    h("div.lobby-list", h("p.muted", "Looking for open tables…")), h("div.pager#lobby-pager"));
  const mineBox = h("section.panel.mine#mine");
  app.append(
    h("section.hero",
      h("h1", "Four card games of the Lost Cities family"),
      h("p", "Play against the computer at four levels, invite a friend with a link, or take a free seat in the lobby.")),
    gamesBox,
    h("div.home-cols", formBox, h("div.home-side", lobbyBox, mineBox)),
  );
  Promise.all([api("/api/games"), api("/api/levels").catch(function () {
    return ["easy", "medium", "hard", "expert"].map(function (n) { return { name: n, description: "" }; });
  }), Me.ready, api("/api/learn").catch(function () { return []; })]).then(function (res) {
    renderGames(gamesBox, res[0], res[3]);
    renderNewTable(formBox, res[0], res[1]);
    renderMine(mineBox, res[0]);
    if (location.hash === "#lobby") lobbyBox.scrollIntoView();
  }).catch(function (err) {
    fill(gamesBox, h("p.error", "Could not load the games: " + err.message));
  });
  renderMine(mineBox, []);
  const lobby = { page: 1, box: lobbyBox };
  refreshLobby(lobby);
  setInterval(function () { if (!document.hidden) refreshLobby(lobby); }, 4000);
}

/** The games, each with its summary, rules and buttons; ``lessons`` (from /api/learn): those with a guided first match. */
function renderGames(box, games, lessons) {
  fill(box);
  const taught = {};
  (lessons || []).forEach(function (l) { taught[l.game] = l.title; });
  for (const g of games) {
    const rules = h("div.rules.md", h("p.muted", "Loading the rules…"));
    const details = h("details.rules-box", h("summary", "Full rules"), rules);
    let loaded = false;
    details.addEventListener("toggle", function () {
      if (!details.open || loaded) return;
      loaded = true;
      api("/api/games/" + encodeURIComponent(g.id) + "/rules").then(function (r) {
        rules.innerHTML = markdown(r.markdown, 2);
        // The first heading repeats the game's name.
        const first = rules.querySelector("h3");
        if (first && first === rules.firstElementChild) first.remove();
      }).catch(function (err) { rules.textContent = "Could not load the rules: " + err.message; loaded = false; });
    });
    box.append(h("article.game-card", { dataset: { game: g.id } },
      h("div.game-head",
        h("h2", g.name || g.id),
        h("span.players", g.players + " players")),
      h("p.summary", g.summary || ""),
      h("div.game-actions",
        h("button.btn.primary.small.play-computer", {
          type: "button", dataset: { game: g.id },
          title: "A table of the published game, you against the " + DEFAULT_LEVEL + " computer",
          onclick: function (ev) {
            const btn = ev.currentTarget;
            btn.disabled = true;
            playAgainstComputer(g).catch(function (err) { btn.disabled = false; toast(err.message, "error"); });
          },
        }, "Play " + (g.name || g.id) + " against the computer"),
        h("button.btn.small.choose-seats", {
          type: "button",
          onclick: function () {
            const sel = document.getElementById("nt-game");
            if (sel) { sel.value = g.id; sel.dispatchEvent(new Event("change")); }
            document.getElementById("new").scrollIntoView({ behavior: "smooth" });
          },
        }, "Other seats and options"),
        taught[g.id] ? h("a.btn.small.learn-link", { href: "/learn/" + encodeURIComponent(g.id), title: taught[g.id] }, "Learn to play") : null),
      details));
  }
}


/** The tables this browser sat at lately; ``games`` (from /api/games) names the games of older entries. */
function renderMine(box, games) {
  const list = store("parlour.mine") || [];
  const named = {};
  games.forEach(function (g) { named[g.id] = g.name; });
  fill(box);
  if (!list.length) { box.hidden = true; return; }
  box.append(h("h2", "Your recent tables"),
    h("ul.plain", list.map(function (t) {
      return h("li", h("a", { href: "/table/" + encodeURIComponent(t.id) }, t.name || named[t.game] || t.game),
        h("span.muted", " · " + new Date(t.at).toLocaleString()));
    })));
}
