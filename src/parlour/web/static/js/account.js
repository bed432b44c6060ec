/* Accounts in the top bar: "Sign in" and "Register" for a guest, each opening a small panel under the
   bar (a username and a password, the server's refusal shown in its own words), and "Signed in as bea ·
   Sign out" once signed in. Registering keeps this browser's identity (its games become the account's);
   signing in and out change it, so the page is loaded again as the new identity. */
import { fill, h, toast } from "./dom.js";
import { Me } from "./me.js";
import { api } from "./net.js";

const USERNAME_HINT = "3 to 24 characters: letters a to z, digits, . _ or -";
const PASSWORD_HINT = "8 to 128 characters";

/** Draw the account part of the top bar now and whenever who this browser is changes. */
export function accountBar() {
  Me.listeners.push(function () { renderBar(); });
  renderBar();
}

function renderBar() {
  const box = document.getElementById("account");
  if (!box) return;
  if (!Me.loaded) { box.hidden = true; return; }
  box.hidden = false;
  if (Me.account) {
    fill(box, h("span.account-label", "Signed in as "), h("b.account-who#account-who", Me.account), " · ",
      h("button.btn.tiny#signout", { type: "button", onclick: signOut }, "Sign out"));
  } else {
    fill(box,
      h("button.btn.tiny#signin-open", { type: "button", onclick: function () { openPanel("signin"); } }, "Sign in"),
      h("button.btn.tiny#register-open", { type: "button", onclick: function () { openPanel("register"); } }, "Register"));
  }
}

function signOut() {
  api("/api/account/signout", { method: "POST" }).then(function () {
    location.reload();  // a new guest: everything on the page was the account's
  }, function (err) { toast(err.message, "error"); });
}

function closePanel() {
  const old = document.getElementById("account-panel");
  if (old) old.remove();
}

/** The sign-in or register panel (``mode``: "signin" or "register"), under the top bar. */
function openPanel(mode) {
  closePanel();
  const registering = mode === "register";
  const username = h("input#account-username", { type: "text", name: "username", required: true, minlength: "3",
    maxlength: "24", autocomplete: "username", autocapitalize: "none", spellcheck: "false",
    "aria-describedby": registering ? "account-username-hint" : null });
  const password = h("input#account-password", { type: "password", name: "password", required: true,
    minlength: registering ? "8" : null, maxlength: "128",
    autocomplete: registering ? "new-password" : "current-password",
    "aria-describedby": registering ? "account-password-hint" : null });
  const error = h("p.error.account-error#account-error", { role: "alert", hidden: true });
  const submit = h("button.btn.primary#account-submit", { type: "submit" }, registering ? "Register" : "Sign in");
  // novalidate: the server says what is wrong, in the same words for every client
  const form = h("form.account-form", { novalidate: true, onsubmit: function (ev) {
    ev.preventDefault();
    submit.disabled = true;
    error.hidden = true;
    const body = { username: username.value.trim(), password: password.value };
    api(registering ? "/api/account/register" : "/api/account/signin", { method: "POST", body: body })
      .then(function (res) {
        if (!registering) { location.reload(); return; }  // the account's identity, seats and games
        closePanel();
        Me.account = res.account;
        Me.set(res.name);
        toast("Registered as " + res.account + ": sign in with it on any browser.");
      }, function (err) {
        submit.disabled = false;
        fill(error, err.message);
        error.hidden = false;
        (err.status === 409 || (err.status === 400 && /username/i.test(err.message)) ? username : password).focus();
      });
  } },
  h("label.account-field", h("span", "Username"), username),
  registering ? h("small.muted#account-username-hint", USERNAME_HINT) : null,
  h("label.account-field", h("span", "Password"), password),
  registering ? h("small.muted#account-password-hint", PASSWORD_HINT) : null,
  error,
  h("div.btn-row", submit, h("button.btn#account-cancel", { type: "button", onclick: closePanel }, "Cancel")));
  const other = registering
    ? h("p.account-switch", "Have an account? ", h("button.linkish#account-switch", { type: "button",
      onclick: function () { openPanel("signin"); } }, "Sign in"))
    : h("p.account-switch", "No account yet? ", h("button.linkish#account-switch", { type: "button",
      onclick: function () { openPanel("register"); } }, "Register"));
  const panel = h("section.panel.account-panel#account-panel", { role: "dialog", "aria-labelledby": "account-title" },
    h("h2#account-title", registering ? "Register" : "Sign in"),
    h("p.muted.account-why", registering
      ? "Keep your name and games on every browser and device. The games you played here become your account's."
      : "Play as your account here: its name, seats and games. This browser's guest games stay with the guest."),
    form, other);
  panel.addEventListener("keydown", function (ev) { if (ev.key === "Escape") closePanel(); });
  document.querySelector(".topbar").after(panel);
  username.focus();
}
