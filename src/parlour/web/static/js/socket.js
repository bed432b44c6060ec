/* The table's WebSocket: it connects, says hello, pings, and while the server is away tries again
   after a growing, jittered delay, with "reconnecting…" in the top bar. The table page's state ``T``
   holds the socket and its timers (T.ws, T.retry, T.pingTimer, T.connectTimer, T.closed). */

/** The connection of table ``T``; ``opts``: {hello() → the hello message, onMessage(msg),
 *  beforeConnect() (what to show while connecting)}. Returns {connect, retry, offline, close}. */
export function tableSocket(T, opts) {
  const conn = document.getElementById("conn");

  function backoff() {
    const delay = Math.min(8000, 400 * Math.pow(2, T.retry)) * (0.75 + Math.random() * 0.5);
    T.retry++;
    return delay;
  }

  /** Show (or hide) that the server is not answering. */
  function offline(on) {
    conn.hidden = !on;
    if (on) conn.textContent = "Reconnecting…";
    document.body.classList.toggle("offline", on);
  }

  /** Call ``fn`` again after the next delay, the page marked offline meanwhile. */
  function retry(fn) {
    offline(true);
    T.connectTimer = setTimeout(fn, backoff());
  }

  function connect() {
    clearTimeout(T.connectTimer);
    if (T.closed) return;
    opts.beforeConnect();
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try { ws = new WebSocket(proto + "//" + location.host + "/ws/tables/" + encodeURIComponent(T.id)); } catch (e) { retry(connect); return; }
    T.ws = ws;
    ws.onopen = function () {
      ws.send(JSON.stringify(opts.hello()));
      clearInterval(T.pingTimer);
      T.pingTimer = setInterval(function () { if (ws.readyState === 1) ws.send(JSON.stringify({ type: "ping" })); }, 20000);
    };
    ws.onmessage = function (ev) {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      opts.onMessage(msg);
    };
    ws.onclose = function () {
      if (T.ws !== ws) return;
      clearInterval(T.pingTimer);
      if (!T.closed) retry(connect);
    };
    ws.onerror = function () { /* onclose follows */ };
  }

  /** Stop for good: no socket, no timer, no "reconnecting…". */
  function close() {
    T.closed = true;
    clearTimeout(T.connectTimer);
    clearInterval(T.pingTimer);
    if (T.ws) { try { T.ws.close(); } catch (e) { /* closed */ } }
    offline(false);
  }

  return { connect: connect, retry: retry, offline: offline, close: close };
}
