/* parlour in the browser: the home page (games, rules, new table, lobby), the
   table page (live play over a WebSocket) and the replay page.
   Plain DOM, no framework; app.js routes on location.pathname.

   Who you are is the server's session cookie: the page keeps no secret of any
   seat. An invitation arrives once in the address's fragment (#invite=…),
   which is removed from the address bar at once and never stored. */
"use strict";

(function () {
  const C = window.Cards;
  const LIVE = { playing: true, round_over: true };

  /* ------------------------------------------------------------------ utils */

  /** h("div.cls#id", {attrs}, children…): build a DOM element. */
  function h(spec, attrs) {
    const m = spec.match(/^([a-z0-9]+)?((?:[.#][\w-]+)*)$/i);
    const el = document.createElement((m && m[1]) || "div");
    if (m && m[2]) {
      m[2].replace(/([.#])([\w-]+)/g, function (_, kind, name) {
        if (kind === ".") el.classList.add(name); else el.id = name;
        return "";
      });
    }
    let rest = Array.prototype.slice.call(arguments, 1);
    if (attrs && typeof attrs === "object" && !(attrs instanceof Node) && !Array.isArray(attrs)) {
      rest = rest.slice(1);
      for (const key in attrs) {
        const v = attrs[key];
        if (v === undefined || v === null || v === false) continue;
        if (key === "style") throw new Error("no style attributes (the page's CSP refuses them): use a class");
        if (key.startsWith("on") && typeof v === "function") el.addEventListener(key.slice(2), v);
        else if (key === "dataset") Object.assign(el.dataset, v);
        else if (key === "text") el.textContent = v;
        else if (key === "html") el.innerHTML = v;
        else if (key === "value") el.value = v;
        else if (v === true) el.setAttribute(key, "");
        else el.setAttribute(key, v);
      }
    }
    append(el, rest);
    return el;
  }

  function append(el, kids) {
    for (const k of kids) {
      if (k === null || k === undefined || k === false) continue;
      if (Array.isArray(k)) append(el, k);
      else el.append(k instanceof Node ? k : document.createTextNode(String(k)));
    }
  }

  /** Replace an element's children. */
  function fill(el) {
    el.textContent = "";
    append(el, Array.prototype.slice.call(arguments, 1));
    return el;
  }

  function api(path, opts) {
    opts = opts || {};
    const headers = { Accept: "application/json" };
    let body = opts.body;
    if (body !== undefined && typeof body !== "string") {
      body = JSON.stringify(body);
      headers["Content-Type"] = "application/json";
    }
    return fetch(path, { method: opts.method || "GET", headers: headers, body: body, credentials: "same-origin" })
      .then(function (res) {
        return res.text().then(function (text) {
          let data = null;
          try { data = text ? JSON.parse(text) : null; } catch (e) { data = { error: text }; }
          if (!res.ok) {
            const err = new Error((data && data.error) || res.status + " " + res.statusText);
            err.status = res.status;
            err.data = data;
            throw err;
          }
          return data;
        });
      });
  }

  function toast(message, kind) {
    const box = document.getElementById("toasts");
    const el = h("div.toast", { role: "status" }, message);
    if (kind) el.classList.add(kind);
    box.append(el);
    setTimeout(function () { el.classList.add("leaving"); }, 3600);
    setTimeout(function () { el.remove(); }, 4200);
  }

  /** localStorage for harmless preferences only (the last game chosen, tables visited). */
  function store(key, value) {
    try {
      if (value === undefined) return JSON.parse(localStorage.getItem(key) || "null");
      localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* private mode: nothing kept */ }
    return value;
  }

  /** Forget what the first release kept: seat links, invite links, the name (the server knows it now). */
  function forgetOldSecrets() {
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

  function absUrl(url) {
    return new URL(url, location.origin).href;
  }

  function signed(n) {
    if (n === null || n === undefined) return "–";
    return n > 0 ? "+" + n : n < 0 ? "−" + -n : "0";
  }

  function num(n) {
    if (n === null || n === undefined) return "–";
    return n < 0 ? "−" + -n : String(n);
  }

  function copyButton(getText, id) {
    return h("button.btn.small.copy" + (id ? "#" + id : ""), {
      type: "button",
      onclick: function (ev) {
        const btn = ev.currentTarget;
        const text = getText();
        const done = function () { btn.textContent = "Copied"; setTimeout(function () { btn.textContent = "Copy"; }, 1500); };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
        } else { fallbackCopy(text); done(); }
      },
    }, "Copy");
  }

  function fallbackCopy(text) {
    const ta = h("textarea.offscreen", { "aria-hidden": "true" });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    try { document.execCommand("copy"); } catch (e) { /* ignore */ }
    ta.remove();
  }

  /* ------------------------------------------------------------- identity */

  /** Who this browser plays as: the name kept by the server (GET/PUT /api/me). */
  const Me = {
    name: null, loaded: false, listeners: [],
    ready: null,
    set: function (name) {
      Me.name = name || null;
      Me.loaded = true;
      renderMe();
      Me.listeners.forEach(function (fn) { fn(Me.name); });
    },
    save: function (name) {
      return api("/api/me", { method: "PUT", body: { name: name } }).then(function (res) {
        Me.set(res.name);
        return res.name;
      });
    },
    refresh: function () {
      return api("/api/me").then(function (res) { Me.set(res && res.name); return Me.name; },
        function () { Me.set(Me.name); return Me.name; });
    },
  };
  let meWaiters = [];

  function renderMe(editing) {
    const box = document.getElementById("me");
    if (!box) return;
    box.hidden = false;
    if (editing) {
      const input = h("input#me-name", { type: "text", maxlength: "40", value: Me.name || "", placeholder: "Your name",
        autocomplete: "nickname", "aria-label": "Your name" });
      const form = h("form.me-form", {
        onsubmit: function (ev) {
          ev.preventDefault();
          const name = input.value.trim();
          if (!name) { input.focus(); toast("Write a name (1 to 40 characters).", "warn"); return; }
          Me.save(name).then(function (saved) {
            toast("You play as " + saved + ".");
            const waiting = meWaiters;
            meWaiters = [];
            waiting.forEach(function (fn) { fn(saved); });
          }, function (err) { toast(err.message, "error"); });
        },
      }, input, h("button.btn.tiny.primary#me-save", { type: "submit" }, "Save"),
        h("button.btn.tiny#me-cancel", { type: "button", onclick: function () { meWaiters = []; renderMe(); } }, "Cancel"));
      fill(box, form);
      input.focus();
      input.select();
      return;
    }
    if (!Me.loaded) { fill(box); return; }
    const change = h("button.btn.tiny.me-change#me-change", { type: "button", onclick: function () { renderMe(true); } },
      Me.name ? "Change" : "Choose your name");
    fill(box, Me.name ? [h("span.me-label", "Playing as "), h("b.me-who", Me.name), " ", change] : change);
  }

  /** The player's name, asking for it in the top bar first if none is chosen. */
  function ensureName() {
    if (Me.name) return Promise.resolve(Me.name);
    return new Promise(function (resolve) {
      meWaiters.push(resolve);
      renderMe(true);
      toast("First choose the name the other players see.");
    });
  }

  /* ------------------------------------------------------------- routing */

  const app = document.getElementById("app");
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const tableMatch = path.match(/^\/table\/([^/]+)$/);
  // An invitation comes once, in the fragment: take it out of the address bar (and history) at once.
  let inviteCode = null;
  // A seat link of the first release (#token=…) is brought once, in the first hello: the server gives
  // its seat to this browser's identity for good; it leaves the address bar too.
  let legacyToken = null;
  if (location.hash) {
    const m = location.hash.match(/[#&]invite=([^&]+)/);
    if (m && tableMatch) inviteCode = decodeURIComponent(m[1]);
    const t = location.hash.match(/[#&]token=([^&]+)/);
    if (t && tableMatch) legacyToken = decodeURIComponent(t[1]);
    if (/[#&](invite|token)=/.test(location.hash)) history.replaceState(null, "", location.pathname + location.search);
  }
  forgetOldSecrets();
  Me.ready = Me.refresh();
  if (tableMatch) tablePage(decodeURIComponent(tableMatch[1]), inviteCode);
  else if (path === "/replay") replayPage();
  else homePage();
  inviteCode = null;

  /* ------------------------------------------------------------ home page */

  function homePage() {
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
    }), Me.ready]).then(function (res) {
      renderGames(gamesBox, res[0]);
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

  function renderGames(box, games) {
    fill(box);
    for (const g of games) {
      const rules = h("div.rules.md", h("p.muted", "Loading the rules…"));
      const details = h("details.rules-box", h("summary", "Full rules"), rules);
      let loaded = false;
      details.addEventListener("toggle", function () {
        if (!details.open || loaded) return;
        loaded = true;
        api("/api/games/" + encodeURIComponent(g.id) + "/rules").then(function (r) {
          rules.innerHTML = window.markdown(r.markdown, 2);
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
          h("button.btn.primary.small", {
            type: "button",
            onclick: function () {
              const sel = document.getElementById("nt-game");
              if (sel) { sel.value = g.id; sel.dispatchEvent(new Event("change")); }
              document.getElementById("new").scrollIntoView({ behavior: "smooth" });
            },
          }, "Play " + (g.name || g.id))),
        details));
    }
  }

  function renderNewTable(box, games, levels) {
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
    const submit = h("button.btn.primary.big#nt-start", { type: "submit" }, "Start the table");
    const formError = h("p.error#nt-error", { role: "alert", hidden: true });
    const form = h("form.nt-form", { novalidate: true },
      h("div.row", h("label", { for: "nt-game" }, "Game"), gameSel),
      nameRow,
      seatsBox, optsBox,
      h("div.row", h("label", { for: "nt-timer" }, "Turn timer"), h("span.inline", timerIn, " seconds"),
        h("small.help", "Optional: a person who lets the timer run out has a move made for them.")),
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
        optsBox.append(h("div.row.opt", h("label", { for: id }, o.name.replace(/_/g, " ")), input,
          o.help ? h("small.help", o.help) : null));
      }
      if (!(g.options || []).length) optsBox.append(h("p.muted", "This game has no options."));
      fill(seatsBox, h("legend", "Seats"));
      for (let i = 0; i < g.players; i++) seatsBox.append(seatRow(i, i === 0 ? "me" : "bot:medium"));
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
        return api("/api/tables", { method: "POST", body: { game: g.id, options: options, seats: seats, turn_seconds: timer } });
      }).then(function (res) {
        rememberTable(res.table_id, g.id, g.name);
        location.assign(absUrl(res.url || "/table/" + encodeURIComponent(res.table_id)));
      }).catch(function (err) { fail(err.message); });
    });
  }

  function rememberTable(id, game, name) {
    const list = (store("parlour.mine") || []).filter(function (t) { return t.id !== id; });
    list.unshift({ id: id, game: game, name: name, at: Date.now() });
    store("parlour.mine", list.slice(0, 8));
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

  function refreshLobby(lobby) {
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
            h("span.muted", " · " + (t.status === "round_over" ? "between rounds" : "playing") + when(t.created)),
            h("div.lobby-seats", t.seats.map(function (s) {
              const isFree = s.kind === "open" && !s.taken;
              return h("span.seat-chip" + (isFree ? ".free" : ""),
                isFree ? "free seat" : (s.name || s.kind) + (s.kind === "bot" && s.level ? " (" + s.level + ")" : ""));
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

  /* ----------------------------------------------------------- table page */

  function tablePage(tableId, invite) {
    const T = {
      id: tableId, ws: null, seat: null, role: null, table: null, state: null,
      selected: null, retry: 0, hint: null, closed: false, pingTimer: null, connectTimer: null,
      replay: null, received: 0, built: false, notice: null, gone: null,
    };
    window.parlour = T;
    document.title = "Table — Parlour";
    app.className = "table-page";
    fill(app, h("p.loading#table-loading", "Loading the table…"));
    const conn = document.getElementById("conn");
    const slots = {};

    function send(msg) {
      if (!T.ws || T.ws.readyState !== 1) { toast("Not connected — trying again…", "warn"); return false; }
      if (msg.type !== "hello" && msg.type !== "ping" && T.state) msg.version = T.state.version;
      T.ws.send(JSON.stringify(msg));
      return true;
    }
    T.send = send;

    /* -- first: is there a table here, and does this visitor bring an invitation? */

    function start() {
      api("/api/tables/" + encodeURIComponent(tableId)).then(function (summary) {
        T.table = summary;
        T.retry = 0;
        offline(false);
        if (invite && summary.you && summary.you.seat === null && LIVE[summary.status]) {
          const code = invite;
          invite = null;
          inviteScreen(summary, code);
          return;
        }
        invite = null;
        connect();
      }).catch(function (err) {
        if (err.status === 404) { noTable(); return; }
        // The server is not answering: try again as the WebSocket does.
        offline(true);
        T.connectTimer = setTimeout(start, backoff());
      });
    }

    function noTable() {
      T.closed = true;
      T.gone = "missing";
      clearTimeout(T.connectTimer);
      clearInterval(T.pingTimer);
      if (T.ws) { try { T.ws.close(); } catch (e) { /* closed */ } }
      offline(false);
      document.title = "No table — Parlour";
      app.className = "table-page";
      T.built = false;
      fill(app, h("section.panel.gone#no-table",
        h("h1", "There is no table at this address."),
        h("p", "The link may be mistyped, or the table was removed."),
        h("p.btn-row", h("a.btn.primary", { href: "/" }, "Start a table"), h("a.btn", { href: "/#lobby" }, "Find one in the lobby"))));
    }

    /** "Alice invited you to play Minus Twenty (seat 2). Your name: [___] [Take the seat] [Just watch]" */
    function inviteScreen(summary, code) {
      const seats = summary.seats || [];
      const host = seats.find(function (s) { return s.kind === "me"; });
      const freeFriends = seats.filter(function (s) { return s.kind === "friend" && !s.taken; });
      const game = summary.name || summary.game;
      document.title = "Invitation to " + game + " — Parlour";
      if (!freeFriends.length) {
        // Every invitation of this table is taken: asking tells by whom (or gives back this player's own seat).
        accept(code, null);
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
          accept(code, name, function (err) { error.textContent = err.message; error.hidden = false; take.disabled = false; });
        },
      },
      h("label", { for: "invite-name" }, "Your name"),
      h("div.invite-row", nameIn, take,
        h("button.btn#just-watch", { type: "button", onclick: function () { connect(); } }, "Just watch")),
      error);
      fill(app, h("section.panel.invitation#invitation",
        h("h1", (host ? host.name + " invited you" : "You are invited") + " to play " + game + seatText + "."),
        others.length ? h("p.muted", "At the table: " + others.join(", ") + ".") : null,
        form));
      Me.ready.then(function () { if (!nameIn.value && Me.name) nameIn.value = Me.name; });
      nameIn.focus();
    }

    function accept(code, name, onError) {
      api("/api/tables/" + encodeURIComponent(tableId) + "/accept", { method: "POST", body: name ? { invite: code, name: name } : { invite: code } })
        .then(function () {
          rememberTable(tableId, T.table && T.table.game, T.table && T.table.name);
          Me.refresh();
          connect();
        })
        .catch(function (err) {
          if (err.status === 409 || err.status === 404) {
            const by = (err.message.match(/accepted by (.+?)(?::|$)/) || [])[1];
            if (by) notice("This invitation was already accepted by " + by + " — you are watching as a spectator.");
            else if (/already have seat/.test(err.message)) notice(null);
            else if (err.status === 404) notice("This invitation is not valid any more (the host may have replaced it) — you are watching as a spectator.");
            else notice(err.message.replace(/^./, function (c) { return c.toUpperCase(); }));
            connect();
          } else if (onError) onError(err);
          else { toast(err.message, "error"); connect(); }
        });
    }

    /* -- the WebSocket */

    function backoff() {
      const delay = Math.min(8000, 400 * Math.pow(2, T.retry)) * (0.75 + Math.random() * 0.5);
      T.retry++;
      return delay;
    }

    function offline(on) {
      conn.hidden = !on;
      if (on) conn.textContent = "Reconnecting…";
      document.body.classList.toggle("offline", on);
    }

    function connect() {
      clearTimeout(T.connectTimer);
      if (T.closed) return;
      if (!T.built && !T.state) fill(app, h("p.loading#table-loading", "Connecting to the table…"), T.notice ? noticeEl() : null);
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      let ws;
      try { ws = new WebSocket(proto + "//" + location.host + "/ws/tables/" + encodeURIComponent(tableId)); } catch (e) { scheduleReconnect(); return; }
      T.ws = ws;
      ws.onopen = function () {
        ws.send(JSON.stringify(legacyToken ? { type: "hello", token: legacyToken } : { type: "hello" }));
        legacyToken = null;
        clearInterval(T.pingTimer);
        T.pingTimer = setInterval(function () { if (ws.readyState === 1) ws.send(JSON.stringify({ type: "ping" })); }, 20000);
      };
      ws.onmessage = function (ev) {
        let msg;
        try { msg = JSON.parse(ev.data); } catch (e) { return; }
        onMessage(msg);
      };
      ws.onclose = function () {
        if (T.ws !== ws) return;
        clearInterval(T.pingTimer);
        if (!T.closed) scheduleReconnect();
      };
      ws.onerror = function () { /* onclose follows */ };
    }

    function scheduleReconnect() {
      offline(true);
      T.connectTimer = setTimeout(connect, backoff());
    }

    function onMessage(msg) {
      T.received++;
      if (msg.type === "error" && msg.code === "unauthorized" && T.role === null && T.ws && T.ws.readyState === 1) {
        // an old seat link that holds no free seat: watch instead
        T.ws.send(JSON.stringify({ type: "hello" }));
        toast("That link no longer holds a seat: you are watching the table.");
        return;
      }
      if (msg.type === "welcome") {
        T.seat = msg.seat === undefined ? null : msg.seat;
        T.role = msg.role;
        if (msg.table) T.table = msg.table;
        if (T.role === "player" && T.table) rememberTable(tableId, T.table.game, T.table.name);
      } else if (msg.type === "state") {
        const prev = T.state;
        T.retry = 0;
        offline(false);
        if (prev && prev.version !== msg.version) T.hint = null;
        if (T.seat !== null && msg.view && msg.view.seat === null) {
          // The host re-opened this seat for someone else.
          T.seat = null;
          T.role = "spectator";
          notice("The host gave your seat to someone else — you are watching as a spectator.");
        }
        T.state = msg;
        if (T.selected && !(msg.view.hand || []).includes(T.selected)) T.selected = null;
        seatsChanged(prev ? prev.seats : null, msg.seats);
        renderTable();
        if (msg.status === "abandoned") stopAbandoned();
      } else if (msg.type === "seats") {
        if (!T.state) return;
        const before = T.state.seats;
        T.state.seats = msg.seats;
        updatePresence();
        seatsChanged(before, msg.seats);
      } else if (msg.type === "hint") {
        if (T.state && msg.version === T.state.version) { T.hint = msg.moves || []; renderAssist(); }
      } else if (msg.type === "error") {
        if (msg.code === "not_found") { noTable(); return; }
        if (msg.code === "rate_limited") { toast("Slow down", "warn"); return; }
        toast(errorText(msg), "error");
      }
    }

    function stopAbandoned() {
      T.closed = true;
      clearInterval(T.pingTimer);
      clearTimeout(T.connectTimer);
      if (T.ws) { try { T.ws.close(); } catch (e) { /* closed */ } }
      offline(false);
    }

    /** A seat was taken or freed: the host's invitations change (fetched again, never kept). */
    function seatsChanged(before, after) {
      if (!T.table || !T.table.you || !T.table.you.host || !after) return;
      const key = function (seats) { return (seats || []).map(function (s) { return s.kind + ":" + s.taken + ":" + s.name; }).join("|"); };
      if (before && key(before) === key(after)) { renderHost(); return; }
      if (before) {
        after.forEach(function (s, i) {
          const b = before[i];
          if (b && !b.taken && s.taken && s.kind !== "bot") toast(s.name + " joined");
        });
      }
      // Drop the invitation of a seat that is taken now at once; the server's list follows.
      T.table.invites = (T.table.invites || []).filter(function (inv) { return !(after[inv.seat] || {}).taken; });
      renderHost();
      refreshSummary();
    }

    function refreshSummary() {
      api("/api/tables/" + encodeURIComponent(tableId)).then(function (summary) {
        T.table = summary;
        renderHost();
      }).catch(function () { /* shown again next time */ });
    }

    function errorText(msg) {
      const words = {
        stale: "The table moved on — try again.", not_your_turn: "It is not your turn.",
        not_allowed: "That is not offered here.", unauthorized: "You cannot do that from here.",
      };
      return msg.message || words[msg.code] || msg.code || "Error";
    }

    function notice(text) {
      T.notice = text;
      const el = document.getElementById("notice");
      if (el) { if (text) fill(el, text); el.hidden = !text; }
    }

    function noticeEl() {
      const el = h("p.notice#notice", { role: "status" });
      if (T.notice) el.textContent = T.notice; else el.hidden = true;
      return el;
    }

    /* keyboard */
    document.addEventListener("keydown", function (ev) {
      if (ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (T.replay) { replayKeys(T.replay, ev); return; }
      const st = T.state;
      if (!st || !st.view || T.seat === null) return;
      const hand = handOrder(st, T.seat);
      if (/^[0-9]$/.test(ev.key) && hand.length) {
        const n = ev.key === "0" ? 9 : parseInt(ev.key, 10) - 1;
        if (n < hand.length) { T.selected = hand[n]; renderTable(); ev.preventDefault(); }
      } else if ((ev.key === "ArrowRight" || ev.key === "ArrowLeft") && hand.length) {
        const i = hand.indexOf(T.selected);
        const d = ev.key === "ArrowRight" ? 1 : -1;
        T.selected = hand[i < 0 ? (d > 0 ? 0 : hand.length - 1) : (i + d + hand.length) % hand.length];
        renderTable();
        ev.preventDefault();
      } else if (ev.key === "Enter") {
        const legal = myLegal();
        const offers = offerMap(st.layout);
        const forCard = T.selected ? movesFor(offers, legal, T.selected) : [];
        const free = legal.filter(function (m) { return !cardOf(offers, m); });
        const pick = forCard[0] || free[0] || (legal.length === 1 ? legal[0] : null);
        if (pick) { playMove(pick); ev.preventDefault(); }
        else if (st.status === "round_over") { send({ type: "next_round" }); ev.preventDefault(); }
      } else if (ev.key === "Escape") {
        T.selected = null;
        renderTable();
      }
    });

    function myLegal() {
      const st = T.state;
      return st && st.status === "playing" && T.seat !== null ? st.legal || [] : [];
    }

    function playMove(move) {
      T.selected = null;
      T.hint = null;
      send({ type: "move", move: move });
    }

    setInterval(updateTimer, 250);

    function updateTimer() {
      const el = document.getElementById("timer");
      if (!el) return;
      const st = T.state;
      if (!st || !st.deadline || st.status !== "playing") { el.hidden = true; return; }
      const left = Math.max(0, Math.round(st.deadline - Date.now() / 1000));
      el.hidden = false;
      el.textContent = "time left " + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      el.classList.toggle("urgent", left <= 10);
    }

    /* -- the page: built once, then each part is redrawn in place (the move box is never replaced) */

    function build() {
      slots.notice = noticeEl();
      slots.head = h("div.table-head#table-head");
      slots.host = h("div.host-slot#host-slot");
      slots.board = h("section.board-wrap#board-wrap");
      slots.score = h("div.slot-score");
      slots.assist = h("div.slot-assist");
      slots.notation = notationBox();
      slots.log = h("div.slot-log");
      slots.tools = h("div.slot-tools");
      fill(app, slots.notice, slots.head, slots.host,
        h("div.table-grid", slots.board,
          h("aside.side", slots.score, slots.assist, slots.notation.panel, slots.log, slots.tools)));
      T.built = true;
    }

    function renderTable() {
      const st = T.state;
      if (!st || T.gone) return;
      if (!T.built) build();
      const view = st.view;
      const layout = st.layout;
      document.title = layout.name + " — Parlour";
      const me = T.seat;
      const legal = myLegal();
      const myTurn = me !== null && view.to_move === me && legal.length > 0;
      const names = seatNames(st, view);
      app.dataset.version = String(st.version);
      app.dataset.status = st.status;
      app.dataset.game = view.game;
      app.dataset.myTurn = myTurn ? "1" : "0";

      // The banner: whose turn, round, timer.
      let banner;
      if (st.status === "abandoned") {
        banner = "This table was abandoned";
      } else if (st.status === "finished") {
        const w = (st.summary && st.summary.winners) || [];
        banner = "Match over — " + (w.length === 1 ? (w[0] === me ? "you win!" : names[w[0]] + " wins") : w.length ? "a draw" : "finished");
      } else if (st.status === "round_over") {
        banner = "Round " + view.round + " is over";
      } else if (myTurn) {
        banner = "Your turn — " + layout.prompt;
      } else if (view.to_move !== null && view.to_move !== undefined) {
        const seat = (st.seats || [])[view.to_move] || {};
        banner = (seat.kind === "bot" ? names[view.to_move] + " is thinking…" : "Waiting for " + names[view.to_move] + "…");
      } else banner = "";
      fill(slots.head,
        h("div.title",
          h("h1", layout.name),
          h("span.round", "Round " + view.round + layout.target),
          me === null ? h("span.badge.spect#watching", "watching") : null),
        h("div.turn#turn" + (myTurn ? ".mine" : "") + (st.status !== "playing" ? ".over" : ""), { role: "status" }, banner),
        h("span.timer#timer", { hidden: true }));

      const ctx = {
        view: view, layout: layout, offers: offerMap(layout), me: me === null ? 0 : me, isSeat: me !== null,
        legal: myTurn ? legal : [], selected: T.selected, names: names, seats: st.seats || [], onMove: playMove,
        onSelect: function (card) { T.selected = T.selected === card ? null : card; renderTable(); },
        live: true,
      };
      const result = st.status !== "playing" ? resultPanel(st, names, me) : null;
      fill(slots.board, result, renderBoard(ctx));

      fill(slots.score, scorePanel(view, st, names));
      renderAssist();
      slots.notation.update(legal, myTurn, me !== null && st.status === "playing");
      const oldLog = slots.log.querySelector(".log-scroll");
      const atEnd = !oldLog || oldLog.scrollTop + oldLog.clientHeight >= oldLog.scrollHeight - 8;
      fill(slots.log, logPanel(st));
      const log = slots.log.querySelector(".log-scroll");
      if (log) log.scrollTop = atEnd ? log.scrollHeight : oldLog.scrollTop;
      renderHost();
      fill(slots.tools, h("section.panel.tools",
        h("div.btn-row",
          h("button.btn.small#replay-btn", {
            type: "button",
            disabled: st.status !== "finished" && me === null,
            title: st.status !== "finished" && me === null ? "Spectators can replay once the match is over" : "",
            onclick: openLiveReplay,
          }, "▶ Replay"),
          st.status === "finished" ? h("a.btn.small#download", { href: "/api/tables/" + encodeURIComponent(tableId) + "/record", download: "parlour-" + tableId + ".json" }, "↓ Download record") : null),
        me !== null ? h("p.keys.muted", "Keys: 1–9 or ←/→ pick a card, Enter plays, Esc clears.") : null));
      updateTimer();
    }

    /** The connected dots of the seats, from a `seats` message: nothing else is redrawn. */
    function updatePresence() {
      const seats = T.state.seats || [];
      seats.forEach(function (s, i) {
        app.querySelectorAll(".seat-area[data-seat='" + i + "'] .dot").forEach(function (dot) {
          dot.classList.toggle("on", !!s.connected);
          dot.classList.toggle("off", !s.connected);
          dot.title = s.connected ? "connected" : "not connected";
        });
      });
      renderHost();
    }

    function renderAssist() {
      const st = T.state;
      if (!st || !slots.assist) return;
      const me = T.seat;
      const myTurn = me !== null && myLegal().length > 0 && st.view.to_move === me;
      if (!(st.can_hint || st.can_undo) || st.status === "abandoned") { fill(slots.assist); return; }
      fill(slots.assist, h("section.panel.assist",
        h("div.btn-row",
          st.can_hint ? h("button.btn#hint-btn", { type: "button", disabled: !myTurn, onclick: function () { send({ type: "hint" }); } }, "? Hint") : null,
          st.can_undo ? h("button.btn#undo-btn", { type: "button", onclick: function () { send({ type: "undo" }); } }, "↶ Undo") : null),
        T.hint ? hintList(T.hint, myTurn) : null));
    }

    /** The host's tools: invitations not yet accepted (with Copy), and re-opening a seat whose player left. */
    function renderHost() {
      const box = slots.host;
      if (!box) return;
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
      api("/api/tables/" + encodeURIComponent(tableId) + "/seats/" + seat + "/reopen", { method: "POST" }).then(function (res) {
        T.table.invites = (T.table.invites || []).filter(function (i) { return i.seat !== res.seat; })
          .concat([{ seat: res.seat, url: res.url }]);
        toast("Seat " + (seat + 1) + " is open again: send the new link.");
        renderHost();
        refreshSummary();
      }).catch(function (err) {
        button.disabled = false;
        toast(err.status === 409 ? name + " cannot be replaced now: " + err.message : err.message, "error");
      });
    }

    function resultPanel(st, names, me) {
      const view = st.view;
      const sum = st.summary || {};
      const finished = st.status === "finished";
      const abandoned = st.status === "abandoned";
      const rounds = sum.rounds || (view.history || []).concat([view.scores]);
      const totals = sum.totals || view.totals;
      const box = h("section.panel.result#result" + (finished ? ".final" : "") + (abandoned ? ".abandoned" : ""));
      if (abandoned) {
        box.append(h("h2", "This table was abandoned: nobody played at it for a long time."),
          h("p.muted", "The scores so far:"));
        box.append(sheetNow(view, st, names));
        box.append(h("div.btn-row", h("a.btn.primary", { href: "/" }, "Start a new table")));
        return box;
      }
      if (finished) {
        const w = sum.winners || [];
        box.append(h("h2", w.length === 1 ? "★ " + (w[0] === me ? "You win the match!" : names[w[0]] + " wins the match") : "The match is a draw"));
      } else {
        box.append(h("h2", "Round " + view.round + " is over"));
      }
      box.append(roundBreakdown(st, names, rounds[rounds.length - 1] || view.scores));
      box.append(scoreSheet(rounds, totals, names, true, finished ? sum.winners || [] : []));
      const btns = h("div.btn-row");
      if (!finished && T.seat !== null) {
        btns.append(h("button.btn.primary.big#next-round", { type: "button", onclick: function () { send({ type: "next_round" }); } }, "Next round ▸"));
      } else if (!finished) {
        btns.append(h("p.muted", "Waiting for the players to deal the next round…"));
      }
      if (finished) {
        btns.append(
          h("a.btn.primary#download-record", { href: "/api/tables/" + encodeURIComponent(tableId) + "/record", download: "parlour-" + tableId + ".json" }, "↓ Download record"),
          h("button.btn#replay-match", { type: "button", onclick: openLiveReplay }, "▶ Replay the match"),
          h("a.btn", { href: "/" }, "New table"));
      }
      box.append(btns);
      return box;
    }

    function hintList(moves, myTurn) {
      if (!moves.length) return h("p.muted", "No hint.");
      const offers = offerMap(T.state.layout);
      return h("ol.hints#hints", moves.map(function (m) {
        return h("li", h("span.hint-line", h("button.btn.small.hint-move", {
          type: "button", disabled: !myTurn, dataset: { move: m.move }, onclick: function () { playMove(m.move); },
        }, offerText(offers, m.move)),
        h("span.hint-text.muted", "— " + hintFigures(m))));
      }));
    }

    /** The move box: made once and kept, so a new state never wipes what is being typed. */
    function notationBox() {
      const input = h("input#notation", {
        type: "text", autocomplete: "off", spellcheck: "false", autocapitalize: "off",
        placeholder: "type a move", "aria-label": "Move in notation",
      });
      const form = h("form.notation", {
        onsubmit: function (ev) {
          ev.preventDefault();
          const text = input.value.trim();
          if (!text) return;
          if (!myLegal().length) { toast("It is not your turn.", "warn"); return; }
          const move = resolveNotation(text, myLegal());
          // A card typed alone that can only be discarded: a face card is not thrown away without a word.
          const face = text.trim().split(/\s+/).length === 1 && /^discard [JQK][CDHS]$/.test(move) ? move.split(" ")[1] : null;
          if (face && !window.confirm(C.cardShort(face) + " can only be discarded now: discard it?")) {
            toast("Kept " + C.cardShort(face) + ".", "info");
            return;
          }
          playMove(move);
          input.value = "";
        },
      }, input, h("button.btn.small#notation-send", { type: "submit" }, "Send"));
      const panel = h("section.panel.notation-panel", { hidden: true }, form);
      return {
        panel: panel, input: input,
        update: function (legal, myTurn, shown) {
          panel.hidden = !shown;
          const ph = myTurn ? "type a move: " + (legal[0] || "play 7H") : "type a move";
          if (input.placeholder !== ph) input.placeholder = ph;
        },
      };
    }

    function openLiveReplay() {
      const path = "/api/tables/" + encodeURIComponent(tableId) + "/replay";
      // Open at the last step: the last page first (a negative offset counts from the end).
      replayFetch(path, -REPLAY_PAGE, REPLAY_PAGE).then(function (page) {
        T.replay = replayViewer(page, function (offset, count) { return replayFetch(path, offset, count); }, {
          seat: T.seat === null ? 0 : T.seat,
          names: T.state ? seatNames(T.state, T.state.view) : null,
          onClose: function () { T.replay = null; overlay.remove(); },
        });
        const overlay = h("div.overlay#replay-overlay", { role: "dialog", "aria-label": "Replay" },
          h("div.overlay-box", T.replay.el));
        document.body.append(overlay);
        T.replay.go(T.replay.total - 1);
      }).catch(function (err) { toast("No replay: " + err.message, "error"); });
    }

    start();
  }

  /** "+2.7 ± 1.3 points, 34% of the search" */
  function hintFigures(m) {
    const parts = [];
    if (typeof m.value === "number") {
      const v = (m.value > 0 ? "+" : m.value < 0 ? "−" : "") + Math.abs(m.value).toFixed(1);
      parts.push(v + (typeof m.margin === "number" ? " ± " + m.margin.toFixed(1) : "") + " points");
    }
    if (typeof m.share === "number") parts.push(Math.round(m.share * 100) + "% of the search");
    return parts.join(", ");
  }

  /** The round's score of each seat, with the scoring sentences of the round's log and each part's value
   *  (melds, stacks, vaults: as the server sums them up). */
  function roundBreakdown(st, names, last) {
    const general = [];
    const bySeat = names.map(function () { return []; });
    const end = Array.isArray(st.moves) ? st.moves.length : -1;
    for (const event of logEvents(st)) {
      // What scored, and everything of the round's end (a meld that scores 0, how the round ended).
      if (!event.points && event.move !== end) continue;
      if (event.seat !== null && bySeat[event.seat]) bySeat[event.seat].push(event.text); else general.push(event.text);
    }
    const seatBoxes = names.map(function (n, i) {
      return h("div.seat-result", { dataset: { seat: String(i) } },
        h("div.seat-result-head", h("b", n), h("span.round-score" + ((last || [])[i] < 0 ? ".neg" : ""), signed((last || [])[i]) + " this round")),
        partValues((st.layout.seats[i] || {}).summary),
        bySeat[i].length ? h("ul.score-lines", bySeat[i].map(function (l) { return h("li", l); })) : null);
    });
    return h("div.breakdown#breakdown", seatBoxes,
      general.length ? h("ul.score-lines.general", general.map(function (l) { return h("li", l); })) : null);
  }

  /** "melds: ♣ −11 · ♦ −6 · …", "vaults: 1: 5 locked · …": a seat's parts, from the layout's summary. */
  function partValues(summary) {
    if (!summary) return null;
    const items = summary.items.map(function (item) {
      return h("span.part" + dots(item.cls), item.suit ? [h("span.suit-sym.suit-" + item.suit, item.sym), " " + item.text] : item.text);
    });
    return h("div.parts", h("span.muted", summary.label), items.length ? items : "none");
  }

  /** "a b" → ".a.b": classes from the layout, for h(). */
  function dots(cls) {
    return cls ? "." + cls.trim().split(/\s+/).join(".") : "";
  }

  /** A text of the layout, with the seat it names (its "{name}") in this page's words. */
  function say(ctx, item) {
    return item.seat === null || item.seat === undefined ? item.text : item.text.replace("{name}", ctx.names[item.seat]);
  }

  function seatNames(st, view) {
    const n = (view.names || []).length || (st.seats || []).length;
    const out = [];
    for (let i = 0; i < n; i++) {
      const s = (st.seats || [])[i];
      out.push((s && s.name) || (view.names || [])[i] || "Seat " + (i + 1));
    }
    // Two bots of one level have one name: tell them apart by seat.
    return out.map(function (name, i) {
      return out.indexOf(name) !== out.lastIndexOf(name) ? name + " " + (i + 1) : name;
    });
  }

  /* -------------------------------- the moves you can make, as the server words them */

  /** The layout's legal moves by notation: {move, card, text, short, main}. */
  function offerMap(layout) {
    const by = {};
    ((layout && layout.moves) || []).forEach(function (o) { by[o.move] = o; });
    return by;
  }

  /** The card a legal move uses, if any. */
  function cardOf(offers, move) {
    return (offers[move] || {}).card || null;
  }

  function movesFor(offers, legal, card) {
    return legal.filter(function (m) { return cardOf(offers, m) === card; });
  }

  /** A legal move in the server's words ("Play 9♣ on your ♣ meld"); the notation if it has none. */
  function offerText(offers, move) {
    return (offers[move] || {}).text || notationText(move);
  }

  /** Turn what a person typed into a move: exact notation, or a card/suit that names one legal move. */
  function resolveNotation(text, legal) {
    let t = text.trim().replace(/\s+/g, " ").toLowerCase();
    t = t.replace(/\b10([cdhs])\b/g, "t$1");
    const parts = t.split(" ");
    const norm = parts.map(function (p, i) {
      if (i === 0 && /^[a-z]+$/.test(p) && parts.length > 1) return p;
      if (/^(jk|[a2-9tjqk][cdhs])$/.test(p)) return p.toUpperCase();
      if (/^[cdhs]$/.test(p)) return p.toUpperCase();
      return p;
    }).join(" ");
    for (const m of legal) if (m.toLowerCase() === norm.toLowerCase()) return m;
    const hits = legal.filter(function (m) {
      const rest = m.split(" ").slice(1).join(" ");
      return rest === norm || (parts.length === 1 && rest.split(" ")[0] === norm);
    });
    if (hits.length === 1) return hits[0];
    return norm;
  }

  /* --------------------------------------------------------------- boards */
  /* Everything a game adds to the table comes in the state's layout (docs/web-protocol.md): this only draws it. */

  /** ``seat``'s hand in the order it is shown (the keys 1–9 pick from it). */
  function handOrder(st, seat) {
    const mine = st.layout && st.layout.seats[seat];
    return mine ? mine.hand.cards : [];
  }

  /** A face-up card, with what it is in the game (its role, from the layout). */
  function cardEl(ctx, code, opts) {
    return C.cardEl(code, ctx.layout.roles[code] || null, opts);
  }

  function renderBoard(ctx) {
    const v = ctx.view;
    const n = (v.names || []).length || 2;
    const order = [];
    for (let k = 1; k < n; k++) order.push((ctx.me + k) % n);
    const board = h("div.board.game-" + v.game);
    const opponents = h("div.opponents" + (order.length > 1 ? ".many" : ""));
    for (const s of order) opponents.append(seatArea(ctx, s, false));
    board.append(opponents, middle(ctx), seatArea(ctx, ctx.me, true));
    return board;
  }

  function seatHeader(ctx, seat, mine) {
    const v = ctx.view;
    const info = ctx.seats[seat] || {};
    const layout = ctx.layout.seats[seat];
    const toMove = v.to_move === seat && !v.round_over;
    const total = (v.totals || [])[seat] || 0;
    const round = (v.scores || [])[seat] || 0;
    const live = !v.round_over && !v.match_over;
    // What the seat's melds, stacks or locked vaults add up to now (none where the round's score is live).
    const board = live ? layout.score : null;
    let score;
    if (board) {
      score = [h("span.seat-score.round-value", { title: board.title }, board.label + " " + (board.plain ? String(board.value) : signed(board.value))),
        (v.history || []).length ? h("span.badge.match-total", { title: "match total before this round" }, "total " + num(total)) : null];
    } else if (live) {
      score = h("span.seat-score", { title: "points this round; match total " + num(total + round) },
        (v.history || []).length ? "round " + signed(round) + " · total " + num(total + round) : num(round) + " pts");
    } else {
      score = h("span.seat-score", { title: "match total" }, "total " + num(v.round_over ? total : total + round));
    }
    return h("div.seat-head" + (toMove ? ".to-move" : ""),
      h("span.seat-name", (toMove ? "▶ " : "") + ctx.names[seat] + (mine && ctx.isSeat ? " (you)" : "")),
      info.kind === "bot" ? h("span.badge", "bot · " + (info.level || "")) : null,
      info.kind && info.kind !== "bot" && ctx.live ? h("span.dot" + (info.connected ? ".on" : ".off"), { title: info.connected ? "connected" : "not connected" }) : null,
      score,
      layout.badges.map(function (b) { return h("span.badge" + dots(b.cls), { title: b.title }, b.text); }));
  }

  function seatArea(ctx, seat, mine) {
    const v = ctx.view;
    const area = h("section.seat-area" + (mine ? ".mine" : ".theirs") + (v.to_move === seat && !v.round_over ? ".active" : ""), { dataset: { seat: String(seat) } });
    area.append(seatHeader(ctx, seat, mine));
    const tableau = tableauOf(ctx, seat);
    if (mine) {
      if (tableau) area.append(tableau);
      area.append(handArea(ctx, seat));
    } else {
      area.append(handArea(ctx, seat));
      if (tableau) area.append(tableau);
    }
    return area;
  }

  function handArea(ctx, seat) {
    const v = ctx.view;
    const hand = ctx.layout.seats[seat].hand;
    const live = ctx.live && seat === v.seat && ctx.isSeat;
    const row = h("div.hand" + (live ? ".my-hand" : ".other-hand") + (hand.open ? ".open" : ""), { "aria-label": ctx.names[seat] + "'s hand" });
    hand.cards.forEach(function (card, i) {
      const moves = live ? movesFor(ctx.offers, ctx.legal, card) : [];
      const el = cardEl(ctx, card, { button: live, cls: "in-hand" });
      if (live) {
        if (moves.length) el.classList.add("playable");
        if (ctx.selected === card) el.classList.add("selected");
        el.dataset.index = String(i + 1);
        el.addEventListener("click", function () { ctx.onSelect(card); });
        if (!moves.length && ctx.legal.length) el.setAttribute("aria-disabled", "true");
      }
      if (hand.known.indexOf(card) >= 0) {
        el.classList.add("known");
        el.title += " — seen by everyone (taken from a pile)";
      }
      row.append(el);
    });
    for (let i = 0; i < hand.hidden; i++) row.append(C.backEl({ cls: "in-hand" }));
    if (!hand.cards.length && !hand.hidden) {
      row.classList.add("empty");
      row.append(h("span.muted.empty-hand", "no cards"));
    }
    const wrap = h("div.hand-wrap", row);
    if (!hand.open && hand.hidden + hand.cards.length) {
      wrap.append(h("span.hand-count", (hand.hidden + hand.cards.length) + " cards" + (hand.cards.length ? ", " + hand.cards.length + " known" : "")));
    }
    if (live) wrap.append(actionBar(ctx));
    return wrap;
  }

  /** Under my hand: the selected card's moves, and moves that use no card. */
  function actionBar(ctx) {
    const bar = h("div.actions#actions");
    const button = function (m, cls, words) {
      return h("button.btn.move" + cls, { type: "button", dataset: { move: m }, title: m, onclick: function () { ctx.onMove(m); } }, words);
    };
    if (ctx.selected) {
      const moves = movesFor(ctx.offers, ctx.legal, ctx.selected);
      if (moves.length) {
        bar.append(h("span.action-label", C.cardShort(ctx.selected) + ":"));
        for (const m of moves) bar.append(button(m, ".primary", ctx.offers[m].short));
      } else if (ctx.legal.length) {
        bar.append(h("span.muted", C.cardShort(ctx.selected) + " cannot be played now."));
      }
    }
    for (const m of ctx.legal.filter(function (m) { return !cardOf(ctx.offers, m); })) {
      bar.append(button(m, ctx.offers[m].main ? ".primary" : "", ctx.offers[m].text));
    }
    if (!ctx.selected && ctx.legal.some(function (m) { return cardOf(ctx.offers, m); })) {
      bar.append(h("span.muted.tip", "Pick a raised card to see its moves."));
    }
    return bar;
  }

  /** A seat's melds, stacks or vaults: a row of columns. */
  function tableauOf(ctx, seat) {
    const parts = ctx.layout.seats[seat].parts;
    if (!parts) return null;
    return h("div.columns" + dots(parts.cls), parts.columns.map(function (col) { return columnEl(ctx, col, seat); }));
  }

  /** One column: its head and value, its cards, what lies apart under them, a note and a button of its own.
   *  It is a target while a move of the card picked lands on it (a click makes the move, if it is the only one). */
  function columnEl(ctx, col, seat) {
    const picked = ctx.selected ? movesFor(ctx.offers, ctx.legal, ctx.selected) : [];
    const here = picked.filter(function (m) { return col.drop.indexOf(m) >= 0; });
    const el = h("div.column" + dots(col.cls) + (here.length ? ".target" : ""), { dataset: Object.assign({}, col.data, { seat: String(seat) }) },
      h("div.col-head" + (col.head.suit ? ".suit-" + col.head.suit : ""), h("span" + dots(col.head.cls), col.head.text),
        h("span.col-value" + dots(col.value.cls), { title: col.value.title }, col.value.text)),
      col.cards.length ? fan(ctx, col.cards, { vertical: true }) : null,
      col.under.length ? h("div.rubble", col.under.map(function (c) { return cardEl(ctx, c, { cls: "small" }); })) : null,
      !col.cards.length && !col.under.length ? h("div.slot", "—") : null,
      col.note ? h("div" + dots(col.note.cls), col.note.text) : null);
    if (here.length === 1) el.addEventListener("click", function () { ctx.onMove(here[0]); });
    const action = col.action;
    if (action && ctx.legal.indexOf(action.move) >= 0) {
      el.append(h("button.btn.tiny" + dots(action.cls), { type: "button", dataset: { move: action.move },
        onclick: function (e) { e.stopPropagation(); ctx.onMove(action.move); } }, action.text));
    }
    return el;
  }

  function fan(ctx, cards, opts) {
    opts = opts || {};
    const el = h("div.fan" + (opts.vertical ? ".vertical" : ".horizontal"));
    cards.forEach(function (c, i) {
      el.append(cardEl(ctx, c, { cls: "small" + (i === cards.length - 1 ? " top" : "") }));
    });
    return el;
  }

  /** A face-up pile; a click takes from it when its move is legal. */
  function pileEl(ctx, pile) {
    const can = pile.move && ctx.legal.indexOf(pile.move) >= 0;
    const el = h("div.pile" + dots(pile.cls) + (can ? ".takeable" : ""), { dataset: pile.data || {} },
      h("div.pile-label", pile.suit ? h("span.suit-" + pile.suit, pile.label) : pile.label),
      pile.cards.length ? fan(ctx, pile.cards, { vertical: pile.fan !== "horizontal" }) : h("div.slot", "—"));
    if (can) {
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.title = offerText(ctx.offers, pile.move);
      el.dataset.move = pile.move;
      el.addEventListener("click", function () { ctx.onMove(pile.move); });
    }
    return el;
  }

  function stockEl(ctx, stock) {
    const count = stock.count;
    const can = stock.move && ctx.legal.indexOf(stock.move) >= 0;
    const el = h("div.stock" + (can ? ".takeable" : ""), { title: count + " cards in the draw pile" },
      h("div.stock-cards", count > 0 ? C.backEl({ cls: "small" }) : h("div.slot", "—"), count > 1 ? C.backEl({ cls: "small under" }) : null),
      h("div.pile-label", stock.label + ": " + count));
    if (can) {
      el.setAttribute("role", "button");
      el.dataset.move = stock.move;
      el.addEventListener("click", function () { ctx.onMove(stock.move); });
    }
    return el;
  }

  /** A count towards a goal (Twenty's tally): its value, a bar, and the cards that make it. */
  function meterEl(ctx, item) {
    const fillEl = h("div.meter-fill");
    fillEl.style.width = Math.min(100, item.value / item.max * 100) + "%"; // CSSOM, allowed by the page's CSP
    return h("div.tally-box",
      h("div.tally-head", h("span", item.label), h("span.tally-value" + (item.hot ? ".hot" : ""), { id: item.id }, String(item.value)),
        h("span.muted", "/ " + item.max), item.badge ? h("span.badge", item.badge) : null),
      h("div.meter", fillEl),
      item.cards.length ? fan(ctx, item.cards, { vertical: false }) : h("div.slot.wide", item.empty));
  }

  /** One item of the middle of the table (its ``kind`` says which). */
  function centreItem(ctx, item) {
    switch (item.kind) {
      case "stock": return stockEl(ctx, item);
      case "pile": return pileEl(ctx, item);
      case "piles": return h("div.columns" + dots(item.cls), item.piles.map(function (p) { return pileEl(ctx, p); }));
      case "meter": return meterEl(ctx, item);
      case "group": return h("div" + dots(item.cls), item.items.map(function (i) { return centreItem(ctx, i); }));
      case "label": return h("div.pile-label", say(ctx, item));
      case "cards": return h("div" + dots(item.cls), item.cards.map(function (c) { return cardEl(ctx, c, { cls: item.card_cls }); }));
      case "note": case "text": return h("div" + dots(item.cls), say(ctx, item));
      default: return null;
    }
  }

  function middle(ctx) {
    return h("section.middle", ctx.layout.centre.map(function (item) { return centreItem(ctx, item); }));
  }

  /* ------------------------------------------------------------- panels */

  /** The score sheet; ``running``: the last row is the round being played, as it stands now. */
  function scoreSheet(rounds, totals, names, finalTotals, winners, running) {
    winners = winners || [];
    return h("div.table-wrap", h("table.scores",
      h("thead", h("tr", h("th", { scope: "col" }, "Round"), names.map(function (n, i) {
        return h("th" + (winners.indexOf(i) >= 0 ? ".winner" : ""), { scope: "col", title: n }, n);
      }))),
      h("tbody", rounds.map(function (r, k) {
        const now = running && k === rounds.length - 1;
        return h("tr" + (now ? ".running" : ""), { title: now ? "this round as it stands now" : null },
          h("td", String(k + 1) + (now ? " · now" : "")),
          r.map(function (x) { return h("td" + (x < 0 ? ".neg" : ""), num(x)); }));
      })),
      h("tfoot", h("tr", h("th", { title: finalTotals ? null : "so far" }, "Total"), (totals || []).map(function (x, i) {
        return h("th" + (winners.indexOf(i) >= 0 ? ".winner" : ""), num(x));
      })))));
  }

  function scorePanel(view, st, names) {
    return h("section.panel.score-panel", h("h2", "Scores"), sheetNow(view, st, names));
  }

  /** The score sheet as the table stands: past rounds, and the round being played as it is now. */
  function sheetNow(view, st, names) {
    const rounds = (view.history || []).slice();
    let totals = view.totals || [];
    const playing = !view.round_over && !!view.scores;
    if (playing) {
      // Meld, stack and vault games score at the round's end: the round's row shows what they are worth now.
      const now = view.scores.map(function (x, i) {
        const b = (st.layout.seats[i] || {}).score;
        return b ? b.value : x;
      });
      rounds.push(now);
      totals = totals.map(function (t, i) { return t + (now[i] || 0); });
    } else if (view.round_over && view.scores && rounds.length < view.round) rounds.push(view.scores);
    return scoreSheet(rounds, totals, names, view.round_over,
      st && st.status === "finished" && st.summary ? st.summary.winners : [], playing);
  }

  /** The round's events as the server words them for this viewer: [{seat, move, kind, points, text}]
   *  (an older server sent sentences only). */
  function logEvents(st) {
    return (st.log || []).map(function (e) {
      return typeof e === "string" ? { seat: null, move: null, kind: "", points: 0, text: e } : e;
    });
  }

  /** The round's moves as the server words them for this viewer, and the round's events. */
  function logPanel(st) {
    const view = st.view;
    let moves = st.moves;
    if (!Array.isArray(moves)) {
      // An older server: the notation.
      moves = (view.moves || []).map(function (m) { return { seat: null, move: m, text: m }; });
    }
    const shown = moves.slice(-60);
    const first = moves.length - shown.length + 1;
    const items = shown.map(function (m) {
      return h("li.move-line", { dataset: { seat: m.seat === null || m.seat === undefined ? "" : String(m.seat), move: m.move } }, m.text || m.move);
    });
    const events = logEvents(st).map(function (e) { return h("li.event", e.text); });
    return h("section.panel.log-panel#log", h("h2", "This round"), h("div.log-scroll",
      events.length ? h("ul.events", events) : null,
      h("ol.log-list", { start: String(first) }, items.length ? items : h("li.muted", "No moves yet."))));
  }
  /* ------------------------------------------------------------- replays */

  /** Steps asked for at once; the server sends a page at a time. */
  const REPLAY_PAGE = 100;

  /** A page of a replay: GET ``path`` or, with ``body``, POST it again (an uploaded record). */
  function replayFetch(path, offset, count, body) {
    const url = path + "?offset=" + offset + "&count=" + count;
    return api(url, body === undefined ? {} : { method: "POST", body: body }).then(asReplayPage);
  }

  /** A page as {steps, full, offset, total} (a server answering the whole replay at once: all of it). */
  function asReplayPage(res) {
    if (res.total === undefined) return { steps: res.steps, full: res.full, offset: 0, total: res.steps.length };
    return res;
  }

  /** A step-by-step viewer over a replay fetched a page at a time: ``first`` is a page
      ({steps, full, offset, total}), ``fetchPage(offset, count)`` a promise of another.
      Returns {el, go, close, i, total}. */
  function replayViewer(first, fetchPage, opts) {
    opts = opts || {};
    const full = first.full;
    const R = { i: 0, shown: 0, total: 0, known: {}, loading: null };
    const stage = h("div.replay-stage");
    const counter = h("span.replay-counter#replay-counter");
    const change = h("span.replay-change");
    const loading = h("span.muted.replay-loading#replay-loading", { hidden: true }, "loading…");
    const slider = h("input.replay-slider", { type: "range", min: "0", max: "0", value: "0", "aria-label": "Step" });
    slider.addEventListener("input", function () { go(parseInt(slider.value, 10)); });
    const btn = function (label, title, fn, id) { return h("button.btn.small" + (id ? "#" + id : ""), { type: "button", title: title, onclick: fn }, label); };
    const controls = h("div.replay-controls",
      btn("|◀", "First step (Home)", function () { go(0); }, "replay-first"),
      btn("◀", "Previous step (←)", function () { go(R.i - 1); }, "replay-prev"),
      slider,
      btn("▶", "Next step (→)", function () { go(R.i + 1); }, "replay-next"),
      btn("▶|", "Last step (End)", function () { go(R.total - 1); }, "replay-last"),
      opts.onClose ? btn("✕ Close", "Back to the table (Esc)", function () { opts.onClose(); }, "replay-close") : null);
    const el = h("div.replay",
      h("div.replay-head", h("h2", "Replay"), h("span.muted", full ? "all cards shown" : "as seen from your seat"), counter, change, loading),
      controls, stage);
    /** Keep a page's steps; a replay that grew or shrank since (a table being played) starts afresh. */
    function keep(page) {
      if (page.total !== R.total) {
        R.known = {};
        R.total = page.total;
        slider.max = String(Math.max(0, R.total - 1));
      }
      page.steps.forEach(function (step, k) { R.known[page.offset + k] = step; });
    }
    /** Fetch the page holding step R.i, one page at a time; then show whatever step is wanted by then. */
    function load() {
      if (R.loading !== null) return;
      const offset = Math.floor(R.i / REPLAY_PAGE) * REPLAY_PAGE;
      R.loading = offset;
      loading.hidden = false;
      fetchPage(offset, REPLAY_PAGE).then(function (page) {
        R.loading = null;
        keep(page);
        go(R.i);
      }).catch(function (err) {
        R.loading = null;
        loading.hidden = true;
        toast("Replay: " + err.message, "error");
        if (R.known[R.shown]) go(R.shown);  // back to the step on the board
      });
    }
    function go(i) {
      if (!R.total) { stage.textContent = "No steps."; return; }
      R.i = Math.max(0, Math.min(R.total - 1, i));
      slider.value = String(R.i);
      counter.textContent = "step " + R.i + " / " + (R.total - 1);
      const view = R.known[R.i];
      if (!view) { load(); return; }
      R.shown = R.i;
      loading.hidden = R.loading === null;
      change.textContent = view.change ? "· " + (view.change === "next round" ? "new round dealt" : notationText(view.change)) : "· the deal";
      const names = opts.names || view.names || [];
      const ctx = {
        view: view, layout: view.layout, offers: {}, me: view.seat !== null && view.seat !== undefined && !full ? view.seat : (opts.seat || 0),
        isSeat: false, legal: [], selected: null, names: names,
        seats: [], onMove: function () {}, onSelect: function () {}, live: false,
      };
      stage.innerHTML = "";
      stage.append(h("div.replay-round", "Round " + view.round + " · " + names.map(function (n, k) {
        return n + " " + num((view.totals || [])[k] + (view.round_over ? 0 : (view.scores || [])[k] || 0));
      }).join(" · ")), renderBoard(ctx));
    }
    keep(first);
    R.el = el;
    R.go = go;
    R.close = opts.onClose || null;
    return R;
  }

  /** A move in notation with its cards printed: "play 7♥". */
  function notationText(move) {
    return move.split(" ").map(function (w) { return C.isCard(w) ? C.cardShort(w) : w; }).join(" ");
  }

  function replayKeys(R, ev) {
    if (ev.key === "ArrowRight") { R.go(R.i + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft") { R.go(R.i - 1); ev.preventDefault(); }
    else if (ev.key === "Home") { R.go(0); ev.preventDefault(); }
    else if (ev.key === "End") { R.go(R.total - 1); ev.preventDefault(); }
    else if (ev.key === "Escape" && R.close) { R.close(); }
  }

  function replayPage() {
    document.title = "Replay a record — Parlour";
    app.className = "replay-page";
    app.textContent = "";
    const file = h("input#record-file", { type: "file", accept: ".json,application/json" });
    const out = h("div.replay-out");
    let current = null;
    document.addEventListener("keydown", function (ev) {
      if (current && !(ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName) && ev.target.type !== "range")) replayKeys(current, ev);
    });
    file.addEventListener("change", function () {
      const f = file.files[0];
      if (!f) return;
      f.text().then(function (text) {
        try { JSON.parse(text); } catch (e) { throw new Error("This file is not JSON."); }
        // Every page sends the same record again: the server keeps nothing of an upload.
        const fetchPage = function (offset, count) { return replayFetch("/api/replay", offset, count, text); };
        return fetchPage(0, REPLAY_PAGE).then(function (page) {
          out.innerHTML = "";
          current = replayViewer(page, fetchPage, {});
          out.append(current.el);
          current.go(0);
        });
      }).catch(function (err) {
        out.innerHTML = "";
        const d = err.data || {};
        out.append(h("p.error", "This record does not replay: " + err.message +
          (d.round !== undefined ? " (round " + d.round + ", move " + d.move + ")" : "")));
      });
    });
    app.append(h("section.panel.upload",
      h("h1", "Replay a record"),
      h("p", "Choose a ", h("code", "parlour-record/1"), " file (from “Download record” at the end of a match, or ",
        h("code", "parlour play --save"), ") and step through it move by move with the buttons or the ← → keys."),
      h("label.file-label", { for: "record-file" }, "Record file: ", file)), out);
  }
})();
