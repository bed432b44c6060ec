/* The post-game review in a finished table's replay: the server works out the review of your seat in
   the background (a progress bar meanwhile), then your mistakes are listed, each one click away in
   the replay ("Round 2, move 5: you played X; the computer preferred Y (−4.2 points)"), with the
   match's accuracy. Only a seat's own player gets its review: for anyone else the bar stays hidden. */
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

/** The review bar under replay ``R`` (see replay.js) of table ``tableId``; ``start``: ask for the review
 *  at once and jump to the first mistake when it is ready. */
export function reviewBar(R, tableId, start) {
  const path = "/api/tables/" + encodeURIComponent(tableId) + "/review";
  const bar = h("section.panel.review#review", { hidden: true });

  function fail(err) { toast("Review: " + err.message, "error"); }
  function ask() { api(path, { method: "POST" }).then(show).catch(fail); }
  function poll() { if (bar.isConnected) api(path).then(show).catch(fail); }

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

  api(path).then(function (status) {
    if (start && (status.status === "none" || status.status === "failed")) ask(); else show(status);
  }).catch(function () { /* not yours to review (a spectator), or the match is not over: no bar */ });
  return bar;
}
