/* The rules drawer of the table page: a "Rules" button for the table's header opens a drawer at the
   side of the page with the game's "how a turn works" first (GET /api/games/{id}/turn), then its full
   rules (GET /api/games/{id}/rules), both Markdown from the server. The close button or Esc closes
   it; the table stays usable beside it (on a phone it covers the page until closed). */
import { fill, h } from "./dom.js";
import { markdown } from "./markdown.js";
import { api } from "./net.js";

/** The drawer: {button (for the header), setGame(id, name) (what the button opens), open(id, name),
 *  close(), isOpen()}. One per page. */
export function rulesDrawer() {
  const texts = {};  // game id → {turn, rules} once loaded
  let gameId = null;
  let gameName = "";
  const title = h("h2#rules-title", "Rules");
  const closeBtn = h("button.btn.small#rules-close", { type: "button", "aria-label": "Close the rules", onclick: close }, "✕ Close");
  const body = h("div.drawer-body");
  const drawer = h("aside.rules-drawer#rules-drawer", { role: "dialog", "aria-labelledby": "rules-title", hidden: true },
    h("div.drawer-head", title, closeBtn), body);
  const button = h("button.btn.small#rules-btn", {
    type: "button", "aria-controls": "rules-drawer", "aria-expanded": "false",
    onclick: function () { if (isOpen()) close(); else open(gameId, gameName); },
  }, "Rules");
  document.body.append(drawer);

  // Esc closes the drawer before anything else on the page hears it (the table's Esc clears a card).
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && isOpen()) { close(); ev.stopPropagation(); ev.preventDefault(); }
  }, true);

  function isOpen() { return !drawer.hidden; }

  /** Open the drawer on game ``id`` (its name ``name`` in the title), loading its texts the first time. */
  function open(id, name) {
    if (!id) return;
    gameId = id;
    gameName = name || id;
    fill(title, "Rules of " + gameName);
    drawer.hidden = false;
    document.body.classList.add("drawer-open");
    button.setAttribute("aria-expanded", "true");
    closeBtn.focus();
    show();
  }

  function close() {
    if (!isOpen()) return;
    drawer.hidden = true;
    document.body.classList.remove("drawer-open");
    button.setAttribute("aria-expanded", "false");
    if (button.isConnected) button.focus();
  }

  function show() {
    const id = gameId;
    const have = texts[id];
    if (have) { render(have); return; }
    fill(body, h("p.muted", "Loading the rules…"));
    Promise.all([api("/api/games/" + encodeURIComponent(id) + "/turn"),
      api("/api/games/" + encodeURIComponent(id) + "/rules").catch(function () { return null; })])
      .then(function (res) {
        texts[id] = { turn: res[0].markdown, rules: res[1] && res[1].markdown };
        if (gameId === id) render(texts[id]);
      }).catch(function (err) {
        if (gameId === id) fill(body, h("p.error", "Could not load the rules: " + err.message));
      });
  }

  function render(text) {
    const turn = h("section.md.turn-md#rules-turn");
    turn.innerHTML = markdown(text.turn, 2);
    const full = h("section.md.full-md#rules-full");
    if (text.rules) {
      full.innerHTML = markdown(text.rules, 2);
      // The rules' first heading repeats the game's name: the drawer's own heading says it.
      const first = full.querySelector("h3");
      if (first && first === full.firstElementChild) first.remove();
    }
    fill(body, turn, text.rules ? h("h3.full-rules-head", "The full rules") : null, text.rules ? full : null);
    body.scrollTop = 0;
  }

  /** Say which game the button opens (the table's game, once its first state came). */
  function setGame(id, name) { gameId = id; gameName = name || id; }

  return { button: button, open: open, close: close, isOpen: isOpen, setGame: setGame };
}
