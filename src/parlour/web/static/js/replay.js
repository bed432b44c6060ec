/* Replays: a step-by-step viewer over a replay fetched a page at a time (the table's "Replay" overlay
   and the replay page), its keys, and the page that replays an uploaded record. */
import { renderBoard } from "./board.js";
import { h, toast } from "./dom.js";
import { notationText } from "./moves.js";
import { api } from "./net.js";
import { num } from "./numbers.js";
import { recordReview, reviewBar } from "./review.js";

/** Steps asked for at once; the server sends a page at a time. */
export const REPLAY_PAGE = 100;

/** A page of a replay: GET ``path`` or, with ``body``, POST it again (an uploaded record). */
export function replayFetch(path, offset, count, body) {
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
    ``opts.below(R)``, if given, makes a part shown between the controls and the board (a review).
    Returns {el, go, close, i, total}. */
export function replayViewer(first, fetchPage, opts) {
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
    controls, opts.below ? opts.below(R) : null, stage);
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

/** The keys of a replay: ← → a step, Home and End the first and last, Esc closes it. */
export function replayKeys(R, ev) {
  if (ev.key === "ArrowRight") { R.go(R.i + 1); ev.preventDefault(); }
  else if (ev.key === "ArrowLeft") { R.go(R.i - 1); ev.preventDefault(); }
  else if (ev.key === "Home") { R.go(0); ev.preventDefault(); }
  else if (ev.key === "End") { R.go(R.total - 1); ev.preventDefault(); }
  else if (ev.key === "Escape" && R.close) { R.close(); }
}

/** Under an uploaded record's replay: which seat was yours, and the review of it (see review.js). */
function recordReviewPicker(R, text, names) {
  const slot = h("div.review-slot");
  const choice = h("select#review-seat", { "aria-label": "Your seat in this match" },
    names.map(function (name, seat) { return h("option", { value: String(seat) }, name); }));
  function pick() { slot.replaceChildren(reviewBar(R, recordReview(text, parseInt(choice.value, 10)), false)); }
  choice.addEventListener("change", pick);
  pick();
  return h("div.review-picker",
    h("label.muted", { for: "review-seat" }, "Your seat in this match: "), choice, slot);
}

/** The replay page: choose a record file, step through it, and have your moves reviewed. */
export function replayPage(app) {
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
        const names = (page.steps[0] && page.steps[0].names) || [];
        current = replayViewer(page, fetchPage, { below: function (R) { return recordReviewPicker(R, text, names); } });
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
      h("code", "parlour play --save"), ") and step through it move by move with the buttons or the ← → keys. Pick your seat to have the computer ",
      "review your moves: where you lost points, and your accuracy."),
    h("label.file-label", { for: "record-file" }, "Record file: ", file)), out);
}
