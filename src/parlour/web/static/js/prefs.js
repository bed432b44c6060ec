/* What this browser keeps: harmless preferences only (the last game chosen, the tables visited, the
   chat's choices), never a secret of a seat; and the clean-up of what the first release kept. */

/** localStorage[key] as JSON: read it (no ``value``) or write ``value``. */
export function store(key, value) {
  try {
    if (value === undefined) return JSON.parse(localStorage.getItem(key) || "null");
    localStorage.setItem(key, JSON.stringify(value));
  } catch (e) { /* private mode: nothing kept */ }
  return value;
}

/** Forget what the first release kept: seat links, invite links, the name (the server knows it now). */
export function forgetOldSecrets() {
  try {
    const drop = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && (key.indexOf("parlour.invites.") === 0 || key === "parlour.name")) drop.push(key);
    }
    drop.forEach(function (key) { localStorage.removeItem(key); });
    const mine = store("parlour.mine");
    if (Array.isArray(mine) && mine.some(function (t) { return t && t.url !== undefined; })) {
      store("parlour.mine", mine.filter(function (t) { return t && typeof t.id === "string"; })
        .map(function (t) { return { id: t.id, game: t.game, at: t.at }; }));
    }
  } catch (e) { /* nothing kept */ }
}

/** Put a table first in the list of tables this browser sat at lately (eight at most). */
export function rememberTable(id, game, name) {
  const list = (store("parlour.mine") || []).filter(function (t) { return t.id !== id; });
  list.unshift({ id: id, game: game, name: name, at: Date.now() });
  store("parlour.mine", list.slice(0, 8));
}

/* -- chat -- */

/** The table chat's choices in this browser: {hideSpectators}. */
export function chatPrefs() {
  const kept = store("parlour.chat");
  return { hideSpectators: !!(kept && kept.hideSpectators) };
}

/** Keep the table chat's choices. */
export function keepChatPrefs(prefs) {
  store("parlour.chat", { hideSpectators: !!prefs.hideSpectators });
}
