/* The post-game review in a replay: the server works out the review of a seat in the background (a
   progress bar meanwhile), then its mistakes are listed, each one click away in the replay ("Round 2,
   move 5: you played X; the computer preferred Y (−4.2 points)"), with the match's accuracy. At a
   finished table only a seat's own player gets its review (for anyone else the bar stays hidden); on
   the replay page, whoever uploaded the record picks the seat. */
import { fill, h, toast } from "./dom.js";
import { api } from "./net.js";

/** How often the progress of a review under way is asked for (ms). */
const POLL_MS = 400;

/** "Round 2, move 5: you played “Discard 7♣”; the computer preferred “Play 6♥ on your ♥ meld” (−4.2 points)" */
function mistakeText(j) {
  return "Round " + j.round + ", move " + j.move + ": you played “" + j.played_text + "”; the computer preferred “" +
    j.preferred_text + "” (−" + j.loss.toFixed(1) + " points)";
}

/** "12 of 14 decisions without a mistake; 1.3 points lost a decision on average" */
function accuracyText(review) {
  const judged = review.judgements.length;
  const good = review.judgements.filter(function (j) { return !j.mistake; }).length;
  return good + " of " + judged + " decision" + (judged === 1 ? "" : "s") + " without a mistake; " +
    review.mean_loss.toFixed(1) + " points lost a decision on average (expected points over your opponents)";
}

/** Where the review of your seat at finished table ``tableId`` is asked for: ``status()`` and ``start()``,
 *  each a promise of the review's status. */
export function tableReview(tableId) {
  const path = "/api/tables/" + encodeURIComponent(tableId) + "/review";
  return {
    status: function () { return api(path); },
    start: function () { return api(path, { method: "POST" }); },
  };
}

/** Where the review of seat ``seat`` of an uploaded record (its text ``text``) is asked for: the server keeps
 *  it by the record's digest, which the first answer names. */
export function recordReview(text, seat) {
  let id = null;
  function known(status) { id = status.review_id; return status; }
  return {
    status: function () {
      return id === null ? Promise.resolve({ status: "none" })
        : api("/api/reviews/" + id + "?seat=" + seat);
    },
    start: function () { return api("/api/reviews?seat=" + seat, { method: "POST", body: text }).then(known); },
  };
}

/** The review bar under replay ``R`` (see replay.js) of ``source`` (:func:`tableReview`, :func:`recordReview`);
 *  ``start``: ask for the review at once and jump to the first mistake when it is ready. */
export function reviewBar(R, source, start) {
  const bar = h("section.panel.review#review", { hidden: true });

  function fail(err) {
    toast("Review: " + err.message, "error");
    if (err.status === 429 || err.status === 503) show({ status: "none" });
  }
  function ask() { source.start().then(show).catch(fail); }
  function poll() { if (bar.isConnected) source.status().then(show).catch(fail); }

  function show(status) {
    bar.hidden = false;
    if (status.status === "running") {
      const total = status.total || 0;
      fill(bar, h("p#review-progress", "Reviewing your moves… ",
        h("progress", { max: String(total || 1), value: String(status.done), "aria-label": "Decisions reviewed" }),
        total ? " " + status.done + " of " + total + " decisions" : ""));
      setTimeout(poll, POLL_MS);
    } else if (status.status === "done") {
      done(status);
    } else {
      fill(bar, h("div.btn-row",
        h("button.btn.primary#review-start", { type: "button", onclick: ask }, "★ Review my moves"),
        h("span.muted", status.status === "failed" ? "The review could not be worked out: ask again."
          : "The computer judges each of your decisions from what you knew then.")));
    }
  }

  function done(status) {
    const review = status.review;
    const mistakes = [];
    review.judgements.forEach(function (j, k) { if (j.mistake) mistakes.push({ judgement: j, step: status.steps[k] }); });
    const line = h("p.review-line#review-line",
      mistakes.length ? "" : "No mistakes: the computer found no move clearly better than yours.");
    function jump(k) {
      const m = mistakes[(k + mistakes.length) % mistakes.length];
      R.mistake = mistakes.indexOf(m);
      line.textContent = "Mistake " + (R.mistake + 1) + " of " + mistakes.length + " · " + mistakeText(m.judgement);
      if (typeof m.step === "number") R.go(m.step);
    }
    const btn = function (label, id, fn) { return h("button.btn.small#" + id, { type: "button", onclick: fn }, label); };
    fill(bar,
      h("h3#review-accuracy", "Review: accuracy " + Math.round(review.accuracy) + "%"),
      h("p.muted", accuracyText(review)),
      mistakes.length ? h("div.btn-row",
        btn("◀ Previous mistake", "review-prev", function () { jump((R.mistake || 0) - 1); }),
        btn("Next mistake ▶", "review-next", function () { jump(R.mistake === undefined ? 0 : R.mistake + 1); })) : null,
      line,
      // The whole list folded away, so that the board stays in sight under the bar.
      mistakes.length ? h("details.review-all", h("summary", "All " + mistakes.length + " mistake" + (mistakes.length === 1 ? "" : "s")),
        h("ol.hints.review-mistakes", mistakes.map(function (m, k) {
          return h("li", h("button.btn.small.review-mistake", { type: "button", onclick: function () { jump(k); } },
            mistakeText(m.judgement)));
        }))) : null);
    if (start && mistakes.length) jump(0);
  }

  source.status().then(function (status) {
    if (start && (status.status === "none" || status.status === "failed")) ask(); else show(status);
  }).catch(function () { /* not yours to review (a spectator), or the match is not over: no bar */ });
  return bar;
}
