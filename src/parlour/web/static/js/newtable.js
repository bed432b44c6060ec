/* The new-table form: the game, its options (as the server describes them; those the server marks
   for designers behind a closed "Options for designers"), who sits in each seat, a turn timer; it
   creates the table and goes to it. playAgainstComputer() does all that in one click. */
import { fill, h } from "./dom.js";
import { Me } from "./me.js";
import { absUrl, api } from "./net.js";
import { rememberTable, store } from "./prefs.js";

/** The computer's level a new table offers first, and the one-click game is played against. */
export const DEFAULT_LEVEL = "medium";

/** Create a table of game ``g`` (from /api/games) with its real rules, you against the computer at
 *  DEFAULT_LEVEL in every other seat, and open it. Returns the request's promise (it fails with the
 *  server's words). */
export function playAgainstComputer(g) {
  const seats = [{ kind: "me" }];
  for (let i = 1; i < g.players; i++) seats.push({ kind: "bot", level: DEFAULT_LEVEL });
  store("parlour.lastGame", g.id);
  return api("/api/tables", { method: "POST", body: { game: g.id, options: {}, seats: seats, turn_seconds: null } })
    .then(function (res) {
      rememberTable(res.table_id, g.id, g.name);
      location.assign(absUrl(res.url || "/table/" + encodeURIComponent(res.table_id)));
      return res;
    });
}

/** Fill ``box`` with the form for ``games`` (from /api/games), bots of ``levels`` (from /api/levels). */
export function renderNewTable(box, games, levels) {
  fill(box, h("h2", "New table"));
  const byId = {};
  for (const g of games) byId[g.id] = g;
  const gameSel = h("select#nt-game", { name: "game" },
    games.map(function (g) { return h("option", { value: g.id }, g.name || g.id); }));
  const last = store("parlour.lastGame");
  if (last && byId[last]) gameSel.value = last;
  const nameIn = h("input#nt-name", { type: "text", maxlength: "40", placeholder: "Your name", autocomplete: "nickname" });
  const nameRow = h("div.row#nt-name-row", h("label", { for: "nt-name" }, "Your name"), nameIn,
    h("small.help", "Your seat takes this name. Friends you invite choose their own."));
  const optsBox = h("fieldset.options", h("legend", "Options"));
  const seatsBox = h("fieldset.seats", h("legend", "Seats"));
  const timerIn = h("input#nt-timer", { type: "number", min: "5", max: "3600", step: "1", placeholder: "none", inputmode: "numeric" });
  const ratedIn = h("input#nt-rated", { type: "checkbox", name: "rated" });
  const submit = h("button.btn.primary.big#nt-start", { type: "submit" }, "Start the table");
  const formError = h("p.error#nt-error", { role: "alert", hidden: true });
  const form = h("form.nt-form", { novalidate: true },
    h("div.row", h("label", { for: "nt-game" }, "Game"), gameSel),
    nameRow,
    seatsBox, optsBox,
    h("div.row", h("label", { for: "nt-timer" }, "Turn timer"), h("span.inline", timerIn, " seconds"),
      h("small.help", "Optional: a person who lets the timer run out has a move made for them.")),
    h("div.row.rated-row", h("label", { for: "nt-rated" }, "Rated"), ratedIn,
      h("small.help", "The match updates the players' ratings (no undo, no hints). Bots play at fixed ratings.")),
    formError,
    h("div.row.submit", submit));
  box.append(form);

  function hasMe() {
    return Array.prototype.some.call(seatsBox.querySelectorAll("select"), function (s) { return s.value === "me"; });
  }
  function showName() { nameRow.hidden = !!Me.name || !hasMe(); }
  Me.listeners.push(showName);

  /** At most one seat is "me": the option is offered in the other seats only while no seat has it. */
  function oneMe() {
    const sels = seatsBox.querySelectorAll("select");
    const taken = Array.prototype.find.call(sels, function (s) { return s.value === "me"; });
    sels.forEach(function (s) {
      const opt = s.querySelector("option[value=me]");
      opt.disabled = !!taken && taken !== s;
    });
    showName();
  }

  function seatRow(i, kind) {
    const sel = h("select.seat-kind", { "aria-label": "Seat " + (i + 1), dataset: { seat: String(i) }, onchange: oneMe },
      h("option", { value: "me" }, "Me"),
      h("option", { value: "friend" }, "A friend (invite link)"),
      h("option", { value: "open" }, "Open (anyone from the lobby)"),
      levels.map(function (l) {
        return h("option", { value: "bot:" + l.name, title: l.description || "" }, "Computer — " + l.name);
      }));
    sel.value = kind;
    return h("div.seat-row", h("span.seat-no", "Seat " + (i + 1)), sel);
  }

  function fillForm() {
    const g = byId[gameSel.value];
    store("parlour.lastGame", g.id);
    fill(optsBox, h("legend", "Options"));
    const designer = h("details.designer#nt-designer", h("summary", "Options for designers"),
      h("p.help.muted", "Smaller decks, other readings of the rules and safety limits, for studying the game: not the game as published."));
    for (const o of g.options || []) {
      const id = "opt-" + o.name;
      let input;
      if (o.kind === "bool") {
        input = h("input", { type: "checkbox", id: id, name: o.name, checked: !!o.default });
      } else if (o.kind === "int") {
        input = h("input", {
          type: "number", id: id, name: o.name, step: "1", inputmode: "numeric",
          min: o.minimum !== null && o.minimum !== undefined ? String(o.minimum) : null,
          max: o.maximum !== null && o.maximum !== undefined ? String(o.maximum) : null,
          value: o.default === null || o.default === undefined ? "" : String(o.default),
          placeholder: o.nullable ? "none" : "",
        });
      } else {
        input = h("input", { type: "text", id: id, name: o.name, value: o.default === null || o.default === undefined ? "" : String(o.default) });
      }
      input.dataset.kind = o.kind;
      input.dataset.default = JSON.stringify(o.default);
      if (o.nullable) input.dataset.nullable = "1";
      (o.designer ? designer : optsBox).append(h("div.row.opt", h("label", { for: id }, o.name.replace(/_/g, " ")), input,
        o.help ? h("small.help", o.help) : null));
    }
    if (!(g.options || []).length) optsBox.append(h("p.muted", "This game has no options."));
    if ((g.options || []).some(function (o) { return o.designer; })) optsBox.append(designer);
    fill(seatsBox, h("legend", "Seats"));
    for (let i = 0; i < g.players; i++) seatsBox.append(seatRow(i, i === 0 ? "me" : "bot:" + DEFAULT_LEVEL));
    oneMe();
  }
  gameSel.addEventListener("change", fillForm);
  fillForm();

  function fail(message) {
    formError.textContent = message;
    formError.hidden = false;
    submit.disabled = false;
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    formError.hidden = true;
    const g = byId[gameSel.value];
    const options = {};
    for (const input of optsBox.querySelectorAll("input")) {
      const dflt = JSON.parse(input.dataset.default);
      let value;
      if (input.dataset.kind === "bool") value = input.checked;
      else if (input.dataset.kind === "int") {
        if (input.value.trim() === "") {
          if (input.dataset.nullable) value = null; else continue;
        } else value = parseInt(input.value, 10);
      } else value = input.value;
      if (JSON.stringify(value) !== JSON.stringify(dflt)) options[input.name] = value;
    }
    const seats = [];
    for (const sel of seatsBox.querySelectorAll("select")) {
      const v = sel.value;
      if (v.startsWith("bot:")) seats.push({ kind: "bot", level: v.slice(4) });
      else seats.push({ kind: v });
    }
    const timer = timerIn.value.trim() ? parseInt(timerIn.value, 10) : null;
    const name = nameIn.value.trim();
    if (hasMe() && !Me.name && !name) { fail("Write your name: your seat takes it."); nameIn.focus(); return; }
    submit.disabled = true;
    const named = hasMe() && !Me.name ? Me.save(name) : Promise.resolve(Me.name);
    named.then(function () {
      return api("/api/tables", { method: "POST", body: { game: g.id, options: options, seats: seats, turn_seconds: timer, rated: ratedIn.checked } });
    }).then(function (res) {
      rememberTable(res.table_id, g.id, g.name);
      location.assign(absUrl(res.url || "/table/" + encodeURIComponent(res.table_id)));
    }).catch(function (err) { fail(err.message); });
  });
}
