/* Talking to the server over HTTP: api() fetches JSON with the session cookie and turns an error
   answer into a thrown Error (with its status and body); absUrl() makes an address absolute. */

/** ``path``'s JSON answer; ``opts``: {method, body} (a body that is not a string is sent as JSON). */
export function api(path, opts) {
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

export function absUrl(url) {
  return new URL(url, location.origin).href;
}
