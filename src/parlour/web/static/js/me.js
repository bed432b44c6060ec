/* Who this browser plays as: the name kept by the server (GET/PUT /api/me), shown and changed in the
   top bar; ensureName() asks for it there before an action that needs it. */
import { fill, h, toast } from "./dom.js";
import { api } from "./net.js";

/** The name (null until chosen), the account's username (null: a guest) and the address of the player's page
 *  (null until a rated match); ``listeners`` are told each
 *  new name; ``ready``: the first look-up. */
export const Me = {
  name: null, account: null, page: null, loaded: false, listeners: [],
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
    return api("/api/me").then(function (res) {
      Me.account = (res && res.account) || null;
      Me.page = (res && res.page) || null;  // the player's page, once a rated match was played
      Me.set(res && res.name);
      return Me.name;
    },
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
export function ensureName() {
  if (Me.name) return Promise.resolve(Me.name);
  return new Promise(function (resolve) {
    meWaiters.push(resolve);
    renderMe(true);
    toast("First choose the name the other players see.");
  });
}
