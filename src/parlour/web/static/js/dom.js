/* Building the page: h() makes an element, fill() replaces an element's children, toast() says a
   short word in the corner, copyButton() copies a text. Plain DOM; the page's Content-Security-Policy
   refuses inline styles, so nothing here sets a style attribute. */

/** h("div.cls#id", {attrs}, children…): build a DOM element. */
export function h(spec, attrs) {
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
export function fill(el) {
  // A kept element put back (a button drawn again with the rest) keeps the keyboard focus it had.
  const focused = document.activeElement;
  el.textContent = "";
  append(el, Array.prototype.slice.call(arguments, 1));
  if (focused && focused !== document.body && focused !== document.activeElement && el.contains(focused)) focused.focus();
  return el;
}

/** "a b" → ".a.b": classes from the layout, for h(). */
export function dots(cls) {
  return cls ? "." + cls.trim().split(/\s+/).join(".") : "";
}

/** A short message in the corner for a few seconds; ``kind``: "info", "warn" or "error". */
export function toast(message, kind) {
  const box = document.getElementById("toasts");
  const el = h("div.toast", { role: "status" }, message);
  if (kind) el.classList.add(kind);
  box.append(el);
  setTimeout(function () { el.classList.add("leaving"); }, 3600);
  setTimeout(function () { el.remove(); }, 4200);
}

/** A "Copy" button that puts ``getText()`` on the clipboard. */
export function copyButton(getText, id) {
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
