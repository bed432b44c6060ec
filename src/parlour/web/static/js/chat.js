/* The table's chat, in the side column: what people at the table said (a spectator's marked as
   such), who came and went ("Bea joined"), how many watch, and a box to say something (Send or
   Enter). Everything said is shown as text, never as markup: h() sets text nodes only. A player may
   choose not to see what spectators say; the choice is kept in this browser (prefs.js). The server
   decides who may speak and how often; its refusals come as errors (table.js shows them). */
import { fill, h } from "./dom.js";
import { chatPrefs, keepChatPrefs } from "./prefs.js";

/** The longest message the server takes by default (it says so if a message is longer). */
export const CHAT_LENGTH = 300;
const KEPT = 200;

/** The chat panel of table ``T``; ``send(msg)`` sends a message on the table's socket.
 *  Returns {el, welcome(msg), said(msg), presence(msg)}. */
export function chatPanel(T, send) {
  const lines = [];
  let watching = 0;
  const prefs = chatPrefs();

  const list = h("ol.chat-list#chat-list", { "aria-live": "polite", "aria-label": "Chat messages" });
  const count = h("span.chat-watching.muted#spectators", { hidden: true });
  const input = h("input#chat-input", {
    type: "text", maxlength: String(CHAT_LENGTH), placeholder: "Say something…", autocomplete: "off",
    "aria-label": "Your message",
  });
  const form = h("form.chat-form#chat-form", { onsubmit: submit }, input, h("button.btn.small#chat-send", { type: "submit" }, "Send"));
  const hide = h("input#chat-hide-spectators", { type: "checkbox", onchange: function () {
    prefs.hideSpectators = hide.checked;
    keepChatPrefs(prefs);
    render(true);
  } });
  hide.checked = !!prefs.hideSpectators;
  const hideRow = h("label.chat-hide#chat-hide", { hidden: true }, hide, " Hide spectators' messages");
  const el = h("section.panel.chat-panel#chat",
    h("div.chat-head", h("h2", "Chat"), count), hideRow, list, form);

  function submit(ev) {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) { input.focus(); return; }
    if (send({ type: "chat", text: text })) input.value = "";
    input.focus();
  }

  /** A player hides spectators' messages if they chose to (a spectator sees them all). */
  function hiding() {
    return T.seat !== null && !!prefs.hideSpectators;
  }

  function time(at) {
    const when = new Date(at);
    return isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  function lineEl(line) {
    if (line.notice) return h("li.chat-notice", line.notice);
    const mine = T.seat !== null && line.seat === T.seat;
    return h("li.chat-line" + (line.spectator ? ".spectator" : "") + (mine ? ".mine" : ""),
      h("span.chat-time.muted", time(line.at)), " ",
      h("span.chat-name", line.name),
      line.spectator ? h("span.badge.spect.chat-spect", "spectator") : null,
      h("span.chat-text", line.text));
  }

  function shown(line) {
    return !(line.spectator && hiding());
  }

  /** Draw the lines again; the list stays at its end if it was there (or ``toEnd``). */
  function render(toEnd) {
    hideRow.hidden = T.seat === null;
    count.hidden = !watching;
    count.textContent = watching === 1 ? "1 watching" : watching + " watching";
    const atEnd = toEnd || list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    const before = list.scrollTop;
    const visible = lines.filter(shown);
    const hidden = lines.length - visible.length;
    fill(list, visible.length ? visible.map(lineEl) : h("li.chat-empty.muted", "Nothing said yet."),
      hidden ? h("li.chat-hidden.muted", hidden === 1 ? "1 message from a spectator hidden." : hidden + " messages from spectators hidden.") : null);
    list.scrollTop = atEnd ? list.scrollHeight : before;
  }

  function add(line) {
    lines.push(line);
    if (lines.length > KEPT) lines.splice(0, lines.length - KEPT);
    render(false);
  }

  return {
    el: el,
    /** A (re)connection's welcome: what was said lately and how many watch, from the server. */
    welcome: function (msg) {
      lines.length = 0;
      (msg.chat || []).forEach(function (line) { lines.push(line); });
      watching = msg.spectators || 0;
      render(true);
    },
    said: add,
    /** Someone came or went, or the number watching changed. */
    presence: function (msg) {
      watching = msg.spectators || 0;
      if (msg.text) add({ notice: msg.text + "." });
      else render(false);
    },
  };
}
