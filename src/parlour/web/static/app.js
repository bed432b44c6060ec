/* parlour in the browser: the home page (games, rules, new table, lobby), the
   table page (live play over a WebSocket) and the replay page.
   Plain DOM, no framework; app.js routes on location.pathname. */
"use strict";

(function () {
  const C = window.Cards;
  const GAME_NAMES = {
    "minus-twenty": "Minus Twenty", progression: "Progression", twenty: "Twenty", "silver-bars": "100 Silver Bars",
  };
  const TWO_STEP = { "minus-twenty": true, progression: true };

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

  function api(path, opts) {
    opts = opts || {};
    const headers = Object.assign({ Accept: "application/json" }, opts.headers || {});
    let body = opts.body;
    if (body !== undefined && typeof body !== "string") {
      body = JSON.stringify(body);
      headers["Content-Type"] = "application/json";
    }
    return fetch(path, { method: opts.method || "GET", headers: headers, body: body }).then(function (res) {
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

  function store(key, value) {
    try {
      if (value === undefined) return JSON.parse(localStorage.getItem(key) || "null");
      localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* private mode: nothing kept */ }
    return value;
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

  function copyButton(getText) {
    return h("button.btn.small", {
      type: "button",
      onclick: function (ev) {
        const text = getText();
        const done = function () { ev.target.textContent = "Copied"; setTimeout(function () { ev.target.textContent = "Copy"; }, 1500); };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
        } else { fallbackCopy(text); done(); }
      },
    }, "Copy");
  }

  function fallbackCopy(text) {
    const ta = h("textarea", { style: "position:fixed;left:-1000px" });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    try { document.execCommand("copy"); } catch (e) { /* ignore */ }
    ta.remove();
  }

  function myName() {
    return store("parlour.name") || "";
  }

  /* ------------------------------------------------------------- routing */

  const app = document.getElementById("app");
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const tableMatch = path.match(/^\/table\/([^/]+)$/);
  if (tableMatch) tablePage(decodeURIComponent(tableMatch[1]));
  else if (path === "/replay") replayPage();
  else homePage();

  /* ------------------------------------------------------------ home page */

  function homePage() {
    document.title = "Parlour — card games of the Lost Cities family";
    app.className = "home";
    app.innerHTML = "";
    const gamesBox = h("section.games", { "aria-label": "Games" }, h("p.loading", "Loading the games…"));
    const formBox = h("section.panel.newtable#new", h("h2", "New table"), h("p.loading", "…"));
    const lobbyBox = h("section.panel.lobby#lobby", h("h2", "Lobby"), h("div.lobby-list", h("p.muted", "Looking for open tables…")));
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
    })]).then(function (res) {
      renderGames(gamesBox, res[0]);
      renderNewTable(formBox, res[0], res[1]);
      if (location.hash === "#lobby") lobbyBox.scrollIntoView();
    }).catch(function (err) {
      gamesBox.innerHTML = "";
      gamesBox.append(h("p.error", "Could not load the games: " + err.message));
    });
    renderMine(mineBox);
    refreshLobby(lobbyBox);
    setInterval(function () { if (!document.hidden) refreshLobby(lobbyBox); }, 4000);
  }

  function renderGames(box, games) {
    box.innerHTML = "";
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
          h("h2", g.name || GAME_NAMES[g.id] || g.id),
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
    box.innerHTML = "";
    box.append(h("h2", "New table"));
    const byId = {};
    for (const g of games) byId[g.id] = g;
    const gameSel = h("select#nt-game", { name: "game" },
      games.map(function (g) { return h("option", { value: g.id }, g.name || g.id); }));
    const last = store("parlour.lastGame");
    if (last && byId[last]) gameSel.value = last;
    const nameIn = h("input#nt-name", { type: "text", maxlength: "40", placeholder: "Your name", value: myName(), autocomplete: "nickname" });
    const optsBox = h("fieldset.options", h("legend", "Options"));
    const seatsBox = h("fieldset.seats", h("legend", "Seats"));
    const timerIn = h("input#nt-timer", { type: "number", min: "5", max: "3600", step: "1", placeholder: "none", inputmode: "numeric" });
    const submit = h("button.btn.primary.big#nt-start", { type: "submit" }, "Start the table");
    const form = h("form.nt-form", { novalidate: true },
      h("div.row", h("label", { for: "nt-game" }, "Game"), gameSel),
      h("div.row", h("label", { for: "nt-name" }, "Your name"), nameIn),
      seatsBox, optsBox,
      h("div.row", h("label", { for: "nt-timer" }, "Turn timer"), h("span.inline", timerIn, " seconds"),
        h("small.help", "Optional: a person who lets the timer run out has a move made for them.")),
      h("div.row.submit", submit));
    box.append(form);

    function seatRow(i, kind) {
      const sel = h("select.seat-kind", { "aria-label": "Seat " + (i + 1), dataset: { seat: String(i) } },
        h("option", { value: "me" }, "Me"),
        h("option", { value: "friend" }, "A friend (invite link)"),
        h("option", { value: "open" }, "Open (anyone from the lobby)"),
        levels.map(function (l) {
          return h("option", { value: "bot:" + l.name, title: l.description || "" }, "Computer — " + l.name);
        }));
      sel.value = kind;
      return h("div.seat-row", h("span.seat-no", "Seat " + (i + 1)), sel);
    }

    function fill() {
      const g = byId[gameSel.value];
      store("parlour.lastGame", g.id);
      optsBox.innerHTML = "";
      optsBox.append(h("legend", "Options"));
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
      seatsBox.innerHTML = "";
      seatsBox.append(h("legend", "Seats"));
      for (let i = 0; i < g.players; i++) seatsBox.append(seatRow(i, i === 0 ? "me" : "bot:medium"));
    }
    gameSel.addEventListener("change", fill);
    fill();

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      const g = byId[gameSel.value];
      const name = nameIn.value.trim();
      store("parlour.name", name);
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
        else if (v === "me") seats.push(name ? { kind: "me", name: name } : { kind: "me" });
        else seats.push({ kind: v });
      }
      const timer = timerIn.value.trim() ? parseInt(timerIn.value, 10) : null;
      submit.disabled = true;
      api("/api/tables", { method: "POST", body: { game: g.id, options: options, seats: seats, turn_seconds: timer } })
        .then(function (res) {
          const invites = res.seats.filter(function (s) { return s.kind === "friend" && s.url; })
            .map(function (s) { return { seat: s.seat, url: absUrl(s.url) }; });
          store("parlour.invites." + res.table_id, { invites: invites, spectate: res.spectate_url ? absUrl(res.spectate_url) : null });
          const mine = res.seats.find(function (s) { return s.kind === "me" && s.url; });
          const target = mine ? mine.url : res.spectate_url || res.url;
          rememberTable(res.table_id, g.id, mine ? absUrl(mine.url) : absUrl(target));
          location.assign(absUrl(target));
        })
        .catch(function (err) { toast(err.message, "error"); submit.disabled = false; });
    });
  }

  function rememberTable(id, game, url) {
    const list = (store("parlour.mine") || []).filter(function (t) { return t.id !== id; });
    list.unshift({ id: id, game: game, url: url, at: Date.now() });
    store("parlour.mine", list.slice(0, 8));
  }

  function renderMine(box) {
    const list = store("parlour.mine") || [];
    box.innerHTML = "";
    if (!list.length) { box.hidden = true; return; }
    box.append(h("h2", "Your recent tables"),
      h("ul.plain", list.map(function (t) {
        return h("li", h("a", { href: t.url }, GAME_NAMES[t.game] || t.game),
          h("span.muted", " · " + new Date(t.at).toLocaleString()));
      })));
  }

  function refreshLobby(box) {
    const list = box.querySelector(".lobby-list");
    api("/api/tables").then(function (tables) {
      list.innerHTML = "";
      if (!tables.length) {
        list.append(h("p.muted", "No open tables right now. Start one with an open seat and it shows up here."));
        return;
      }
      for (const t of tables) {
        const free = t.seats.filter(function (s) { return s.kind === "open" && !s.taken; });
        list.append(h("div.lobby-row", { dataset: { table: t.table_id } },
          h("div.lobby-info",
            h("strong", GAME_NAMES[t.game] || t.game),
            h("span.muted", " · " + (t.status || "") + when(t.created)),
            h("div.lobby-seats", t.seats.map(function (s) {
              return h("span.seat-chip" + (s.kind === "open" && !s.taken ? ".free" : ""),
                s.kind === "open" && !s.taken ? "free seat" : (s.name || s.kind) + (s.kind === "bot" && s.level ? " (" + s.level + ")" : ""));
            }))),
          h("div.lobby-actions", free.map(function (s) {
            return h("button.btn.primary.small", {
              type: "button",
              onclick: function () { joinTable(t, s.seat); },
            }, free.length > 1 ? "Join seat " + (s.seat + 1) : "Join");
          }),
          h("a.btn.small", { href: "/table/" + encodeURIComponent(t.table_id) }, "Watch"))));
      }
    }).catch(function () {
      list.innerHTML = "";
      list.append(h("p.muted", "The lobby is not available."));
    });
  }

  function when(created) {
    if (created === null || created === undefined) return "";
    const d = typeof created === "number" ? new Date(created < 1e12 ? created * 1000 : created) : new Date(created);
    return isNaN(d.getTime()) ? "" : " · opened " + d.toLocaleTimeString();
  }

  function joinTable(t, seat) {
    let name = (document.getElementById("nt-name") || {}).value || myName();
    name = (name || "").trim();
    if (name) store("parlour.name", name);
    api("/api/tables/" + encodeURIComponent(t.table_id) + "/join", { method: "POST", body: name ? { seat: seat, name: name } : { seat: seat } })
      .then(function (res) {
        rememberTable(t.table_id, t.game, absUrl(res.url));
        location.assign(absUrl(res.url));
      })
      .catch(function (err) { toast(err.status === 409 ? "That seat was just taken." : err.message, "error"); });
  }

  /* ----------------------------------------------------------- table page */

  function tablePage(tableId) {
    const T = {
      id: tableId, token: null, ws: null, seat: null, role: null, table: null, state: null,
      selected: null, retry: 0, hint: null, closed: false, pingTimer: null, connectTimer: null,
      replay: null, received: 0,
    };
    window.parlour = T;
    const hashToken = (location.hash.match(/token=([^&]+)/) || [])[1];
    T.token = hashToken ? decodeURIComponent(hashToken) : null;
    document.title = "Table — Parlour";
    app.className = "table-page";
    app.innerHTML = "";
    app.append(h("p.loading", "Connecting to the table…"));
    const conn = document.getElementById("conn");

    function send(msg) {
      if (!T.ws || T.ws.readyState !== 1) { toast("Not connected — trying again…", "warn"); return false; }
      if (msg.type !== "hello" && msg.type !== "ping" && T.state) msg.version = T.state.version;
      T.ws.send(JSON.stringify(msg));
      return true;
    }
    T.send = send;

    function connect() {
      clearTimeout(T.connectTimer);
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      let ws;
      try { ws = new WebSocket(proto + "//" + location.host + "/ws/tables/" + encodeURIComponent(tableId)); } catch (e) { scheduleReconnect(); return; }
      T.ws = ws;
      ws.onopen = function () {
        ws.send(JSON.stringify({ type: "hello", token: T.token }));
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
      conn.hidden = false;
      conn.textContent = "Reconnecting…";
      document.body.classList.add("offline");
      const delay = Math.min(8000, 400 * Math.pow(2, T.retry)) * (0.75 + Math.random() * 0.5);
      T.retry++;
      T.connectTimer = setTimeout(connect, delay);
    }

    function onMessage(msg) {
      T.received++;
      if (msg.type === "welcome") {
        T.seat = msg.seat === undefined ? null : msg.seat;
        T.role = msg.role;
        T.table = msg.table;
        if (T.role === "player" && T.table) rememberTable(tableId, T.table.game, location.href);
      } else if (msg.type === "state") {
        const prev = T.state;
        T.retry = 0;
        conn.hidden = true;
        document.body.classList.remove("offline");
        if (prev && prev.version !== msg.version) T.hint = null;
        T.state = msg;
        if (T.selected && !(msg.view.hand || []).includes(T.selected)) T.selected = null;
        renderTable();
      } else if (msg.type === "hint") {
        if (T.state && msg.version === T.state.version) { T.hint = msg.moves || []; renderTable(); }
      } else if (msg.type === "error") {
        if (msg.code === "unauthorized" && !T.state) {
          toast("This seat's link is not valid — watching instead.", "error");
        }
        toast(errorText(msg), "error");
      }
    }

    function errorText(msg) {
      const words = {
        stale: "The table moved on — try again.", not_your_turn: "It is not your turn.",
        not_allowed: "That is not offered here.", unauthorized: "You cannot do that from here.",
      };
      return msg.message || words[msg.code] || msg.code || "Error";
    }

    /* keyboard */
    document.addEventListener("keydown", function (ev) {
      if (ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (T.replay) { replayKeys(T.replay, ev); return; }
      const st = T.state;
      if (!st || !st.view) return;
      const hand = handOrder(st.view);
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
        const legal = st.legal || [];
        const forCard = T.selected ? movesFor(legal, T.selected) : [];
        const free = legal.filter(function (m) { return !moveCard(m); });
        const pick = forCard[0] || free[0] || (legal.length === 1 ? legal[0] : null);
        if (pick) { playMove(pick); ev.preventDefault(); }
        else if (st.status === "round_over" && T.seat !== null) { send({ type: "next_round" }); ev.preventDefault(); }
      } else if (ev.key === "Escape") {
        T.selected = null;
        renderTable();
      }
    });

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

    function renderTable() {
      const st = T.state;
      if (!st) return;
      const view = st.view;
      const game = view.game;
      document.title = (GAME_NAMES[game] || game) + " — Parlour";
      const me = T.seat;
      const legal = st.legal || [];
      const myTurn = me !== null && view.to_move === me && legal.length > 0 && st.status === "playing";
      const names = seatNames(st, view);
      app.innerHTML = "";
      app.dataset.version = String(st.version);
      app.dataset.status = st.status;
      app.dataset.game = game;
      app.dataset.myTurn = myTurn ? "1" : "0";

      // The banner: whose turn, round, timer.
      let banner;
      if (st.status === "finished") {
        const w = (st.summary && st.summary.winners) || [];
        banner = "Match over — " + (w.length === 1 ? (w[0] === me ? "you win!" : names[w[0]] + " wins") : w.length ? "a draw" : "finished");
      } else if (st.status === "round_over") {
        banner = "Round " + view.round + " is over";
      } else if (myTurn) {
        banner = "Your turn — " + turnPrompt(game, view, legal);
      } else if (view.to_move !== null && view.to_move !== undefined) {
        const seat = (st.seats || [])[view.to_move] || {};
        banner = (seat.kind === "bot" ? names[view.to_move] + " is thinking…" : "Waiting for " + names[view.to_move] + "…");
      } else banner = "";
      const head = h("div.table-head",
        h("div.title",
          h("h1", GAME_NAMES[game] || game),
          h("span.round", "Round " + view.round + roundOf(view)),
          T.seat === null ? h("span.badge.spect", "watching") : null),
        h("div.turn#turn" + (myTurn ? ".mine" : "") + (st.status !== "playing" ? ".over" : ""), { role: "status" }, banner),
        h("span.timer#timer", { hidden: true }));

      const ctx = {
        game: game, view: view, me: me === null ? 0 : me, isSeat: me !== null, legal: myTurn ? legal : [],
        selected: T.selected, values: st.values || view.values || computeValues(view), names: names,
        seats: st.seats || [], last: st.last, onMove: playMove,
        onSelect: function (card) { T.selected = T.selected === card ? null : card; renderTable(); },
        live: true,
      };
      const board = renderBoard(ctx);

      const side = h("aside.side");
      side.append(scorePanel(view, st, names, me));
      if (st.can_hint || st.can_undo) {
        side.append(h("section.panel.assist",
          h("div.btn-row",
            st.can_hint ? h("button.btn#hint-btn", { type: "button", disabled: !myTurn, onclick: function () { send({ type: "hint" }); } }, "? Hint") : null,
            st.can_undo ? h("button.btn#undo-btn", { type: "button", onclick: function () { send({ type: "undo" }); } }, "↶ Undo") : null),
          T.hint ? hintList(T.hint, myTurn) : null));
      }
      if (me !== null && st.status === "playing") side.append(notationBox(legal, myTurn));
      side.append(logPanel(view, st, names));
      append(side, [invitePanel()]);
      append(side, [h("section.panel.tools",
        h("div.btn-row",
          h("button.btn.small#replay-btn", {
            type: "button",
            disabled: st.status !== "finished" && me === null,
            title: st.status !== "finished" && me === null ? "Spectators can replay once the match is over" : "",
            onclick: openLiveReplay,
          }, "▶ Replay"),
          st.status === "finished" ? h("a.btn.small#download", { href: "/api/tables/" + encodeURIComponent(tableId) + "/record", download: "parlour-" + tableId + ".json" }, "↓ Download record") : null),
        h("p.keys.muted", "Keys: 1–9 or ←/→ pick a card, Enter plays, Esc clears."))]);

      const result = (st.status === "round_over" || st.status === "finished") ? resultPanel(st, names, me) : null;
      app.append(head, h("div.table-grid", h("section.board-wrap", result, board), side));
      updateTimer();
      const log = app.querySelector(".log-scroll");
      if (log) log.scrollTop = log.scrollHeight;
    }

    function turnPrompt(game, view, legal) {
      if (legal.length === 1 && legal[0] === "resolve") return "resolve the strike";
      if (TWO_STEP[game] && legal.some(function (m) { return m === "draw" || m.startsWith("take "); })) return "now draw a card";
      if (game === "silver-bars") return "play, discard or lock";
      return "play a card";
    }

    function resultPanel(st, names, me) {
      const view = st.view;
      const sum = st.summary || {};
      const finished = st.status === "finished";
      const rounds = sum.rounds || (view.history || []).concat([view.scores]);
      const last = rounds[rounds.length - 1] || view.scores;
      const box = h("section.panel.result#result" + (finished ? ".final" : ""));
      if (finished) {
        const w = sum.winners || [];
        box.append(h("h2", w.length === 1 ? "★ " + (w[0] === me ? "You win the match!" : names[w[0]] + " wins the match") : "The match is a draw"));
      } else {
        box.append(h("h2", "Round " + view.round + " is over"));
      }
      box.append(h("p.round-scores", names.map(function (n, i) {
        return h("span.chip", h("b", n), " " + signed(last[i]) + " this round");
      })));
      box.append(scoreSheet(rounds, sum.totals || view.totals, names, true, finished ? sum.winners || [] : []));
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
      return h("ol.hints", moves.map(function (m) {
        return h("li", h("button.btn.small.hint-move", {
          type: "button", disabled: !myTurn, onclick: function () { playMove(m.move); },
        }, moveWords(T.state.view.game, m.move)),
        h("span.hint-text", " " + (m.text || [m.value !== undefined ? "value " + fmtNum(m.value) : "", m.share !== undefined ? Math.round(m.share * 100) + "% of visits" : ""].filter(Boolean).join(", "))));
      }));
    }

    function notationBox(legal, myTurn) {
      const input = h("input#notation", {
        type: "text", autocomplete: "off", spellcheck: "false", autocapitalize: "off",
        placeholder: myTurn ? "type a move: " + (legal[0] || "play 7H") : "type a move",
        "aria-label": "Move in notation",
      });
      const form = h("form.notation", {
        onsubmit: function (ev) {
          ev.preventDefault();
          const text = input.value.trim();
          if (!text) return;
          playMove(resolveNotation(text, legal));
          input.value = "";
        },
      }, input, h("button.btn.small", { type: "submit" }, "Send"));
      return h("section.panel", form);
    }

    function invitePanel() {
      const inv = store("parlour.invites." + tableId);
      if (!inv || T.seat === null) return null;
      const st = T.state;
      const rows = (inv.invites || []).map(function (i) {
        const seat = (st.seats || [])[i.seat] || {};
        const input = h("input.invite-url", { type: "text", readonly: true, value: i.url, dataset: { seat: String(i.seat) }, onfocus: function (e) { e.target.select(); } });
        return h("div.invite", h("label", "Seat " + (i.seat + 1) + (seat.connected ? " — joined ✓" : " — invite link")), h("div.copy-row", input, copyButton(function () { return i.url; })));
      });
      if (inv.spectate) {
        rows.push(h("div.invite", h("label", "Link for spectators"), h("div.copy-row",
          h("input.invite-url", { type: "text", readonly: true, value: inv.spectate }), copyButton(function () { return inv.spectate; }))));
      }
      if (!rows.length) return null;
      return h("details.panel.invites", { open: (inv.invites || []).some(function (i) { return !((st.seats || [])[i.seat] || {}).connected; }) },
        h("summary", (inv.invites || []).length ? "Invite links" : "Link for spectators"), rows);
    }

    function openLiveReplay() {
      const headers = T.token ? { "X-Parlour-Token": T.token } : {};
      api("/api/tables/" + encodeURIComponent(tableId) + "/replay", { headers: headers }).then(function (res) {
        T.replay = replayViewer(res.steps, res.full, {
          seat: T.seat === null ? 0 : T.seat,
          names: T.state ? seatNames(T.state, T.state.view) : null,
          onClose: function () { T.replay = null; overlay.remove(); },
        });
        const overlay = h("div.overlay#replay-overlay", { role: "dialog", "aria-label": "Replay" },
          h("div.overlay-box", T.replay.el));
        document.body.append(overlay);
        T.replay.go(res.steps.length - 1);
      }).catch(function (err) { toast("No replay: " + err.message, "error"); });
    }

    connect();
  }

  function roundOf(view) {
    const o = view.options || {};
    if (view.game === "twenty") return " of 2";
    if (o.target_score && view.game !== "silver-bars") return " · to " + o.target_score;
    if (o.best_of) return " · best of " + o.best_of;
    if (view.game === "silver-bars") return " · to " + (o.target_score || 100);
    if (o.rounds) return " of " + o.rounds;
    return "";
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

  function fmtNum(x) {
    if (typeof x !== "number") return String(x);
    return Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2);
  }

  /** The card a move uses, if any. */
  function moveCard(move) {
    const p = move.split(" ");
    if ((p[0] === "play" || p[0] === "discard" || p[0] === "public") && p[1] && C.isCard(p[1])) return p[1];
    return null;
  }

  function movesFor(legal, card) {
    return legal.filter(function (m) { return moveCard(m) === card; });
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

  /* ------------------------------------------------------- move in words */

  function moveWords(game, move, view) {
    const p = move.split(" ");
    const verb = p[0];
    const card = p[1] && C.isCard(p[1]) ? C.cardShort(p[1]) : "";
    const sym = function (s) { return C.SUIT_SYMBOL[s] || s; };
    if (verb === "draw") return "Draw from the pile" + (view && view.stock_count !== undefined ? " (" + view.stock_count + " left)" : "");
    if (verb === "take") {
      let top = "";
      if (view) {
        const pile = game === "progression" ? (view.public_stacks || {})[p[1]] : (view.discard_piles || {})[p[1]];
        if (pile && pile.length) top = " " + C.cardShort(pile[pile.length - 1]);
      }
      return "Take" + top + " from the " + sym(p[1]) + (game === "progression" ? " public stack" : " pile");
    }
    if (verb === "lock") return "Lock vault " + p[1];
    if (verb === "resolve") return "Resolve the strike";
    if (verb === "discard") return game === "minus-twenty" ? "Discard " + card + " on the " + sym(p[1][1]) + " pile" : "Discard " + card;
    if (verb === "public") return "Put " + card + " on the public " + sym(p[1][1]) + " stack";
    if (verb === "play") {
      if (game === "minus-twenty") return "Play " + card + " on your " + sym(p[1][1]) + " meld";
      if (game === "progression") return "Play " + card + " on your " + sym(p[1][1]) + " stack";
      if (game === "twenty") {
        if (view && typeof view.tally_value === "number") {
          const total = view.tally_value + C.twentyValue(p[1]);
          return "Play " + card + " → " + total + (total === 20 ? " (exact!)" : total > 20 ? " (beyond: +" + (total - 20) + ")" : "");
        }
        return "Play " + card;
      }
      if (game === "silver-bars") {
        const r = C.role(game, p[1]).cls;
        if (p.length === 2) return "Call a strike with " + card;
        if (r === "rubble") return "Rubble " + card + " on their vault " + p[2];
        if (r === "shovel") return "Shovel vault " + p[2] + " clear";
        if (r === "thief") return "Steal from their vault " + p[2] + " into vault " + p[3];
        return card + " into vault " + p[2];
      }
    }
    return move;
  }

  /** A short button label for a card's move (the card is already selected). */
  function moveShort(game, move, view) {
    const p = move.split(" ");
    const sym = function (s) { return C.SUIT_SYMBOL[s] || s; };
    if (p[0] === "discard") return game === "minus-twenty" ? "Discard on " + sym(p[1][1]) + " pile" : "Discard";
    if (p[0] === "public") return "Public " + sym(p[1][1]) + " stack";
    if (p[0] === "play") {
      if (game === "minus-twenty") return "Play on " + sym(p[1][1]) + " meld";
      if (game === "progression") return "My " + sym(p[1][1]) + " stack";
      if (game === "twenty") return moveWords(game, move, view).replace(/^Play \S+ /, "Play ");
      if (game === "silver-bars") {
        const r = C.role(game, p[1]).cls;
        if (p.length === 2) return "Strike!";
        if (r === "rubble") return "Rubble → their vault " + p[2];
        if (r === "shovel") return "Shovel vault " + p[2];
        if (r === "thief") return "Their " + p[2] + " → my vault " + p[3];
        return "Vault " + p[2];
      }
    }
    return moveWords(game, move, view);
  }

  /* --------------------------------------------------------------- boards */

  function handOrder(view) {
    return view.hand ? C.sortCards(view.hand) : [];
  }

  /** The cards of a seat's hand that ctx may show face up, and how many stay hidden. */
  function handOf(ctx, seat) {
    const v = ctx.view;
    if (ctx.allHands && ctx.allHands[seat]) return { shown: C.sortCards(ctx.allHands[seat]), hidden: 0, open: true };
    if (seat === v.seat && v.hand) return { shown: C.sortCards(v.hand), hidden: 0, open: true };
    if (v.game === "twenty" && v.hands && v.hands[seat]) return { shown: C.sortCards(v.hands[seat]), hidden: 0, open: true };
    const size = (v.hand_sizes || [])[seat] || 0;
    const known = (v.known && v.known[seat]) || [];
    return { shown: C.sortCards(known), hidden: Math.max(0, size - known.length), open: false, known: true };
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
    const toMove = v.to_move === seat && !v.round_over;
    const total = (v.totals || [])[seat];
    const running = v.round_over ? total : (total || 0) + ((v.scores || [])[seat] || 0);
    return h("div.seat-head" + (toMove ? ".to-move" : ""),
      h("span.seat-name", (toMove ? "▶ " : "") + ctx.names[seat] + (mine && ctx.isSeat ? " (you)" : "")),
      info.kind === "bot" ? h("span.badge", "bot · " + (info.level || "")) : null,
      info.kind && info.kind !== "bot" && ctx.live ? h("span.dot" + (info.connected ? ".on" : ".off"), { title: info.connected ? "connected" : "not connected" }) : null,
      h("span.seat-score", { title: "match total (this round included)" }, num(running) + " pts"),
      v.game === "silver-bars" && v.locks_left ? h("span.badge.locks", { title: "locks left" }, "locks " + v.locks_left[seat]) : null,
      v.game === "twenty" && v.hands_dealt ? h("span.badge", { title: "hands dealt this round" }, "hand " + v.hands_dealt[seat] + "/5") : null,
      v.game === "minus-twenty" && v.rounds_won && v.options && v.options.best_of ? h("span.badge", "rounds won " + v.rounds_won[seat]) : null);
  }

  function seatArea(ctx, seat, mine) {
    const v = ctx.view;
    const area = h("section.seat-area" + (mine ? ".mine" : ".theirs") + (v.to_move === seat && !v.round_over ? ".active" : ""), { dataset: { seat: String(seat) } });
    area.append(seatHeader(ctx, seat, mine));
    const tableau = tableauOf(ctx, seat, mine);
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
    const hand = handOf(ctx, seat);
    const live = ctx.live && seat === v.seat && ctx.isSeat;
    const row = h("div.hand" + (live ? ".my-hand" : ".other-hand") + (hand.open ? ".open" : ""), { "aria-label": ctx.names[seat] + "'s hand" });
    const knownSet = (v.known && v.known[seat]) || [];
    hand.shown.forEach(function (card, i) {
      const moves = live ? movesFor(ctx.legal, card) : [];
      const el = C.cardEl(card, v.game, { button: live, cls: "in-hand" });
      if (live) {
        if (moves.length) el.classList.add("playable");
        if (ctx.selected === card) el.classList.add("selected");
        el.dataset.index = String(i + 1);
        el.addEventListener("click", function () { ctx.onSelect(card); });
        if (!moves.length && ctx.legal.length) el.setAttribute("aria-disabled", "true");
      }
      if (knownSet.indexOf(card) >= 0 && (hand.known || live)) {
        el.classList.add("known");
        el.title += " — seen by everyone (taken from a pile)";
      }
      row.append(el);
    });
    for (let i = 0; i < hand.hidden; i++) row.append(C.backEl({ cls: "in-hand" }));
    if (!hand.shown.length && !hand.hidden) row.append(h("span.muted.empty-hand", "no cards"));
    const wrap = h("div.hand-wrap", row);
    if (!hand.open && hand.hidden + hand.shown.length) {
      wrap.append(h("span.hand-count", (hand.hidden + hand.shown.length) + " cards" + (hand.shown.length ? ", " + hand.shown.length + " known" : "")));
    }
    if (live) wrap.append(actionBar(ctx));
    return wrap;
  }

  /** Under my hand: the selected card's moves, and moves that use no card. */
  function actionBar(ctx) {
    const v = ctx.view;
    const bar = h("div.actions#actions");
    if (ctx.selected) {
      const moves = movesFor(ctx.legal, ctx.selected);
      if (moves.length) {
        bar.append(h("span.action-label", C.cardShort(ctx.selected) + ":"));
        for (const m of moves) {
          bar.append(h("button.btn.move.primary", { type: "button", dataset: { move: m }, title: m, onclick: function () { ctx.onMove(m); } }, moveShort(v.game, m, v)));
        }
      } else if (ctx.legal.length) {
        bar.append(h("span.muted", C.cardShort(ctx.selected) + " cannot be played now."));
      }
    }
    const free = ctx.legal.filter(function (m) { return !moveCard(m); });
    for (const m of free) {
      bar.append(h("button.btn.move" + (m === "draw" || m === "resolve" ? ".primary" : ""), { type: "button", dataset: { move: m }, title: m, onclick: function () { ctx.onMove(m); } }, moveWords(v.game, m, v)));
    }
    if (!ctx.selected && ctx.legal.some(function (m) { return moveCard(m); })) {
      bar.append(h("span.muted.tip", "Pick a raised card to see its moves."));
    }
    return bar;
  }

  function tableauOf(ctx, seat, mine) {
    const v = ctx.view;
    if (v.game === "minus-twenty") return suitColumns(ctx, v.melds[seat], (ctx.values.melds || [])[seat], "meld", mine, seat);
    if (v.game === "progression") return suitColumns(ctx, v.private_stacks[seat], (ctx.values.stacks || [])[seat], "stack", mine, seat);
    if (v.game === "silver-bars") return vaultRow(ctx, seat, mine);
    return null;
  }

  function fan(cards, game, opts) {
    opts = opts || {};
    const el = h("div.fan" + (opts.vertical ? ".vertical" : ".horizontal"));
    cards.forEach(function (c, i) {
      const card = C.cardEl(c, game, { cls: "small" + (i === cards.length - 1 ? " top" : "") + (opts.highlight === i ? " last-played" : "") });
      el.append(card);
    });
    return el;
  }

  function lastPlayedCard(ctx) {
    return ctx.last && ctx.last.move ? moveCard(ctx.last.move) || (ctx.last.move.split(" ")[1] || null) : null;
  }

  function suitColumns(ctx, piles, values, what, mine, seat) {
    const v = ctx.view;
    const row = h("div.columns.suits");
    for (const s of C.SUITS) {
      const cards = piles[s] || [];
      const val = values ? values[s] : null;
      const target = ctx.selected && mine && ctx.legal.indexOf("play " + ctx.selected) >= 0 && ctx.selected[1] === s;
      const col = h("div.column" + (target ? ".target" : ""), { dataset: { suit: s, seat: String(seat) } },
        h("div.col-head.suit-" + s, h("span.sym", C.SUIT_SYMBOL[s]),
          h("span.col-value" + (val > 0 ? ".pos" : val < 0 ? ".neg" : ""), { title: what + " score if the round ended now" }, cards.length ? signed(val) : "")),
        cards.length ? fan(cards, v.game, { vertical: true }) : h("div.slot", "—"));
      if (target) col.addEventListener("click", function () { ctx.onMove("play " + ctx.selected); });
      row.append(col);
    }
    return row;
  }

  function vaultRow(ctx, seat, mine) {
    const v = ctx.view;
    const vaults = v.vaults[seat];
    const values = (ctx.values.vaults || [])[seat] || [];
    const row = h("div.columns.vaults");
    vaults.forEach(function (vault, i) {
      const n = i + 1;
      let cls = "";
      if (vault.locked) cls += ".locked";
      if (vault.rubble) cls += ".rubbled";
      const moveHere = ctx.selected ? movesFor(ctx.legal, ctx.selected).filter(function (m) {
        const p = m.split(" ");
        const r = C.role(v.game, p[1]).cls;
        if (mine) return (r === "thief" ? p[3] : p[2]) === String(n) && r !== "rubble";
        return (r === "rubble" || r === "thief") && p[2] === String(n);
      }) : [];
      const lockHere = mine && ctx.legal.indexOf("lock " + n) >= 0;
      if (moveHere.length) cls += ".target";
      const col = h("div.column.vault" + cls, { dataset: { vault: String(n), seat: String(seat) } },
        h("div.col-head", h("span.vault-no", "Vault " + n),
          h("span.col-value" + (vault.locked ? ".pos" : ""), { title: vault.locked ? "bars locked in (they score)" : "bars in the vault (score only once locked)" },
            (vault.locked ? "locked · " : "") + (values[i] !== undefined && values[i] !== null ? values[i] : ""))),
        vault.cards.length ? fan(vault.cards, v.game, { vertical: true }) : null,
        vault.rubble ? h("div.rubble", C.cardEl(vault.rubble, v.game, { cls: "small" })) : null,
        !vault.cards.length && !vault.rubble ? h("div.slot", "—") : null,
        vaultHint(vault, v.game));
      if (moveHere.length === 1) col.addEventListener("click", function () { ctx.onMove(moveHere[0]); });
      if (lockHere) {
        col.append(h("button.btn.tiny.lock-btn", { type: "button", dataset: { move: "lock " + n }, onclick: function (e) { e.stopPropagation(); ctx.onMove("lock " + n); } }, "Lock"));
      }
      row.append(col);
    });
    return row;
  }

  function vaultHint(vault, game) {
    if (vault.locked) return h("div.vault-state.locked", "locked");
    if (vault.rubble) return h("div.vault-state.warn", "needs a shovel");
    if (!vault.cards.length) return h("div.vault-state", "any bar");
    const top = vault.cards[vault.cards.length - 1];
    const r = C.role(game, top).cls;
    if (r === "miner" && vault.cards.length >= 2) {
      const under = vault.cards[vault.cards.length - 2];
      const val = under[0] === "A" ? 1 : parseInt(under[0], 10);
      return h("div.vault-state", "bar > " + val);
    }
    return h("div.vault-state", "miner / lock");
  }

  function pileEl(ctx, cards, label, takeMove, opts) {
    opts = opts || {};
    const v = ctx.view;
    const can = takeMove && ctx.legal.indexOf(takeMove) >= 0;
    const el = h("div.pile" + (can ? ".takeable" : ""), { dataset: opts.data || {} },
      h("div.pile-label", label),
      cards.length ? fan(cards, v.game, { vertical: opts.vertical !== false }) : h("div.slot", "—"));
    if (can) {
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.title = moveWords(v.game, takeMove, v);
      el.dataset.move = takeMove;
      el.addEventListener("click", function () { ctx.onMove(takeMove); });
    }
    return el;
  }

  function stockEl(ctx, count, label) {
    const can = ctx.legal.indexOf("draw") >= 0;
    const el = h("div.stock" + (can ? ".takeable" : ""), { title: count + " cards in the draw pile" },
      h("div.stock-cards", count > 0 ? C.backEl({ cls: "small" }) : h("div.slot", "—"), count > 1 ? C.backEl({ cls: "small under" }) : null),
      h("div.pile-label", (label || "Draw pile") + ": " + count));
    if (can) {
      el.setAttribute("role", "button");
      el.dataset.move = "draw";
      el.addEventListener("click", function () { ctx.onMove("draw"); });
    }
    return el;
  }

  function middle(ctx) {
    const v = ctx.view;
    const mid = h("section.middle");
    if (v.game === "minus-twenty") {
      const piles = h("div.columns.suits.piles");
      for (const s of C.SUITS) {
        const pile = v.discard_piles[s] || [];
        piles.append(pileEl(ctx, pile, h("span.suit-" + s, C.SUIT_SYMBOL[s] + " pile"), "take " + s, { data: { suit: s } }));
      }
      append(mid, [stockEl(ctx, v.stock_count), piles,
        v.options && v.options.stall_limit && v.stall_count ? h("div.note", "stall count " + v.stall_count + "/" + v.options.stall_limit) : null]);
    } else if (v.game === "progression") {
      const piles = h("div.columns.suits.piles");
      for (const s of C.SUITS) {
        piles.append(pileEl(ctx, v.public_stacks[s] || [], h("span.suit-" + s, "public " + C.SUIT_SYMBOL[s]), "take " + s, { data: { suit: s } }));
      }
      append(mid, [stockEl(ctx, v.stock_count), piles,
        v.options && v.options.stall_limit && v.stall ? h("div.note", "stall count " + v.stall + "/" + v.options.stall_limit) : null]);
    } else if (v.game === "twenty") {
      const tv = typeof v.tally_value === "number" ? v.tally_value : (ctx.values.tally || 0);
      append(mid, [
        h("div.twenty-side",
          h("div.pile-label", "End of round bonus"),
          h("div.revealed", (v.revealed || []).map(function (c) { return C.cardEl(c, v.game, { cls: "small dim" }); })),
          h("div.bonus", "+" + v.bonus + " to the last scorer" + (v.last_scorer !== null && v.last_scorer !== undefined ? " (now: " + ctx.names[v.last_scorer] + ")" : ""))),
        h("div.tally-box",
          h("div.tally-head", h("span", "Tally"), h("span.tally-value" + (tv >= 15 ? ".hot" : ""), { id: "tally-value" }, String(tv)), h("span.muted", "/ 20"),
            (v.tally || []).length >= 3 && tv < 20 ? h("span.badge", (v.tally || []).length + " cards") : null),
          h("div.meter", h("div.meter-fill", { style: "width:" + Math.min(100, tv * 5) + "%" })),
          (v.tally || []).length ? fan(v.tally, v.game, { vertical: false }) : h("div.slot.wide", "empty — any card starts it")),
        h("div.twenty-side",
          stockEl(ctx, v.stock_count, "Stock"),
          h("div.pile-label", "Set aside: " + (v.set_aside || []).length))]);
    } else if (v.game === "silver-bars") {
      const pile = v.discard_pile || [];
      append(mid, [stockEl(ctx, v.stock_count),
        h("div.pile.discard", h("div.pile-label", "Discard pile (" + pile.length + ")"),
          pile.length ? fan(pile.slice(-6), v.game, { vertical: false }) : h("div.slot", "—")),
        v.strike ? h("div.strike-banner", "Strike against " + ctx.names[v.strike.against] + " — their next turn is spent resolving it") : null]);
    }
    return mid;
  }

  /* ------------------------------------------------------------- panels */

  function scoreSheet(rounds, totals, names, finalTotals, winners) {
    winners = winners || [];
    return h("div.table-wrap", h("table.scores",
      h("thead", h("tr", h("th", "Round"), names.map(function (n, i) { return h("th" + (winners.indexOf(i) >= 0 ? ".winner" : ""), n); }))),
      h("tbody", rounds.map(function (r, k) {
        return h("tr", h("td", String(k + 1)), r.map(function (x) { return h("td" + (x < 0 ? ".neg" : ""), num(x)); }));
      })),
      h("tfoot", h("tr", h("th", finalTotals ? "Total" : "Total so far"), (totals || []).map(function (x, i) {
        return h("th" + (winners.indexOf(i) >= 0 ? ".winner" : ""), num(x));
      })))));
  }

  function scorePanel(view, st, names, me) {
    const rounds = (view.history || []).slice();
    let totals = view.totals || [];
    if (!view.round_over && view.scores) {
      rounds.push(view.scores);
      totals = totals.map(function (t, i) { return t + (view.scores[i] || 0); });
    } else if (view.round_over && view.scores && rounds.length < view.round) rounds.push(view.scores);
    return h("section.panel.score-panel", h("h2", "Scores"), scoreSheet(rounds, totals, names, view.round_over,
      st && st.status === "finished" && st.summary ? st.summary.winners : []));
  }

  function whoMoved(view, count) {
    // Seat of each of the round's moves, from the seat to move next.
    const n = (view.names || []).length;
    const two = TWO_STEP[view.game];
    const turn = function (i) { return two ? Math.floor(i / 2) : i; };
    const moves = view.moves || [];
    if (view.to_move === null || view.to_move === undefined) return null;
    const out = [];
    for (let i = 0; i < count; i++) out.push(((view.to_move - (turn(moves.length) - turn(i))) % n + n) % n);
    return out;
  }

  function logPanel(view, st, names) {
    const moves = view.moves || [];
    const seats = whoMoved(view, moves.length) || (st.last ? moves.map(function (_, i) {
      const two = TWO_STEP[view.game];
      const n = names.length;
      const t = function (k) { return two ? Math.floor(k / 2) : k; };
      return ((st.last.seat - (t(moves.length - 1) - t(i))) % n + n) % n;
    }) : null);
    const items = moves.slice(-40).map(function (m, k) {
      const i = moves.length - Math.min(40, moves.length) + k;
      const who = seats ? names[seats[i]] : "";
      return h("li.move-line", h("span.who", who ? who + ": " : ""), moveWords(view.game, m));
    });
    const events = (st.log || []).map(function (line) { return h("li.event", line); });
    return h("section.panel.log-panel", h("h2", "This round"), h("div.log-scroll",
      events.length ? h("ul.events", events) : null,
      h("ol.log-list", { start: String(Math.max(1, moves.length - 39)) }, items.length ? items : h("li.muted", "No moves yet."))));
  }

  /* ------------------------------------------------------------ values */

  function computeValues(view) {
    // For replays of older servers: the same figures as the server's `values`.
    const face = function (c) { return "JQK".indexOf(c[0]) >= 0; };
    const pip = function (c) { return c[0] === "T" ? 10 : c[0] === "A" ? 1 : parseInt(c[0], 10); };
    if (view.game === "minus-twenty") {
      return { melds: view.melds.map(function (m) {
        const o = {};
        for (const s of C.SUITS) {
          const cards = m[s] || [];
          if (!cards.length) { o[s] = null; continue; }
          const inv = cards.filter(face).length;
          const sum = cards.filter(function (c) { return !face(c); }).reduce(function (a, c) { return a + pip(c); }, 0);
          o[s] = (sum - 20) * (1 + inv) + (cards.length >= 8 ? 20 : 0);
        }
        return o;
      }) };
    }
    if (view.game === "progression") {
      const isFace = function (c) { return "AJQK".indexOf(c[0]) >= 0; };
      return { stacks: view.private_stacks.map(function (p) {
        const o = {};
        for (const s of C.SUITS) {
          const cards = p[s] || [];
          if (!cards.length) { o[s] = null; continue; }
          const f = cards.filter(isFace).length;
          const total = cards.filter(function (c) { return !isFace(c); }).reduce(function (a, c) { return a + pip(c); }, 0);
          o[s] = f === cards.length ? -10 * (f + 1) : total > 12 ? (total - 12) * (f + 1) : 0;
        }
        return o;
      }) };
    }
    if (view.game === "silver-bars") {
      return { vaults: view.vaults.map(function (seat) {
        return seat.map(function (v) {
          return v.cards.filter(function (c) { return "A2346".indexOf(c[0]) >= 0 && c !== "JK"; }).reduce(function (a, c) { return a + pip(c); }, 0);
        });
      }) };
    }
    return { tally: view.tally_value };
  }

  /* ------------------------------------------------------------- replays */

  /** A step-by-step viewer over replay steps (views); returns {el, go, close}. */
  function replayViewer(steps, full, opts) {
    opts = opts || {};
    const R = { i: 0, steps: steps };
    const stage = h("div.replay-stage");
    const counter = h("span.replay-counter#replay-counter");
    const change = h("span.replay-change");
    const slider = h("input.replay-slider", { type: "range", min: "0", max: String(Math.max(0, steps.length - 1)), value: "0", "aria-label": "Step" });
    slider.addEventListener("input", function () { go(parseInt(slider.value, 10)); });
    const btn = function (label, title, fn, id) { return h("button.btn.small" + (id ? "#" + id : ""), { type: "button", title: title, onclick: fn }, label); };
    const controls = h("div.replay-controls",
      btn("|◀", "First step (Home)", function () { go(0); }),
      btn("◀", "Previous step (←)", function () { go(R.i - 1); }, "replay-prev"),
      slider,
      btn("▶", "Next step (→)", function () { go(R.i + 1); }, "replay-next"),
      btn("▶|", "Last step (End)", function () { go(steps.length - 1); }),
      opts.onClose ? btn("✕ Close", "Back to the table (Esc)", function () { opts.onClose(); }, "replay-close") : null);
    const el = h("div.replay",
      h("div.replay-head", h("h2", "Replay"), h("span.muted", full ? "all cards shown" : "as seen from your seat"), counter, change),
      controls, stage);
    function go(i) {
      if (!steps.length) { stage.textContent = "No steps."; return; }
      R.i = Math.max(0, Math.min(steps.length - 1, i));
      slider.value = String(R.i);
      const view = steps[R.i];
      counter.textContent = "step " + R.i + " / " + (steps.length - 1);
      change.textContent = view.change ? "· " + (view.change === "next round" ? "new round dealt" : moveWords(view.game, view.change)) : "· the deal";
      const names = opts.names || view.names || [];
      const ctx = {
        game: view.game, view: view, me: view.seat !== null && view.seat !== undefined && !full ? view.seat : (opts.seat || 0),
        isSeat: false, legal: [], selected: null, values: view.values || computeValues(view), names: names,
        seats: [], last: null, allHands: view.all_hands || null, onMove: function () {}, onSelect: function () {}, live: false,
      };
      stage.innerHTML = "";
      stage.append(h("div.replay-round", "Round " + view.round + " · " + names.map(function (n, k) {
        return n + " " + num((view.totals || [])[k] + (view.round_over ? 0 : (view.scores || [])[k] || 0));
      }).join(" · ")), renderBoard(ctx));
    }
    R.el = el;
    R.go = go;
    R.close = opts.onClose || null;
    return R;
  }

  function replayKeys(R, ev) {
    if (ev.key === "ArrowRight") { R.go(R.i + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft") { R.go(R.i - 1); ev.preventDefault(); }
    else if (ev.key === "Home") { R.go(0); ev.preventDefault(); }
    else if (ev.key === "End") { R.go(R.steps.length - 1); ev.preventDefault(); }
    else if (ev.key === "Escape" && R.close) { R.close(); }
  }

  function replayPage() {
    document.title = "Replay a record — Parlour";
    app.className = "replay-page";
    app.innerHTML = "";
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
        let data;
        try { data = JSON.parse(text); } catch (e) { throw new Error("This file is not JSON."); }
        return api("/api/replay", { method: "POST", body: data });
      }).then(function (res) {
        out.innerHTML = "";
        current = replayViewer(res.steps, res.full, {});
        out.append(current.el);
        current.go(0);
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
