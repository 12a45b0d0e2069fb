// Talking to the server: the HTTP contract (/api/..., docs/web.md) and the table's
// live WebSocket (/api/tables/{id}/live). No drawing here.

// JSON text of a request body; a BigInt (a seed past 2**53, up to 2**64-1) is written as its exact digits.
export function toJSON(body) {
  return JSON.stringify(body, (k, v) => (typeof v === "bigint" ? `\u0000big:${v}` : v)).replace(/"\\u0000big:(\d+)"/g, "$1");
}

// Who is signed in here: GET /api/session's {name, kind, csrf} (name null: a guest), asked once per
// page and again after signing in or out (session(true)). ``csrf`` goes with every change made with
// the sign-in cookie (the X-CSRF-Token header, docs/accounts.md).
let sessionAsked = null;
export function session(again = false) {
  if (again || !sessionAsked) {
    sessionAsked = fetch("/api/session", { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null)).catch(() => null)
      .then((d) => d || { name: null, kind: null, csrf: null });
  }
  return sessionAsked;
}

// One request: {status, data, message}; status 0 when the server cannot be reached.
// ``minimal``: ask for a short answer (Prefer: return=minimal) when the socket brings the rest.
export async function api(method, path, { body, token, minimal = false } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  else if (method !== "GET") {
    const { csrf } = await session();
    if (csrf) headers["X-CSRF-Token"] = csrf;
  }
  if (minimal) headers.Prefer = "return=minimal";
  let resp;
  try {
    resp = await fetch(path, { method, headers, body: body === undefined ? undefined : toJSON(body) });
  } catch (err) {
    return { status: 0, data: null, message: "the server cannot be reached; is `dicetable serve` running?" };
  }
  let data = null;
  try { data = await resp.json(); } catch { data = null; }
  return { status: resp.status, data, message: errorText(data, resp.status) };
}

// The sentence of an error answer (FastAPI's detail, a validation list, or the status).
export function errorText(data, status) {
  if (!data) return `the server answered ${status}`;
  const d = data.detail ?? data.message ?? data.error;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((x) => (x.loc ? `${x.loc.join(".")}: ${x.msg}` : x.msg || JSON.stringify(x))).join("; ");
  if (d && typeof d === "object") return d.message || JSON.stringify(d);
  return `the server answered ${status}`;
}

// A full view from an HTTP answer ({view: {...}} or the view itself); null when it is none.
export function unwrapView(data) {
  const v = data && data.view && typeof data.view === "object" ? data.view : data;
  return v && typeof v === "object" && typeof v.version === "number" && ("observation" in v || "board" in v || "parts" in v) ? v : null;
}

// The live connection of one viewer (a seat's token, or none: a spectator) to a table.
// ``onMessage(msg)`` gets each parsed message; ``onClose(delivered)`` once, with
// whether any message had come (false: the socket could not open or brought nothing, and the
// caller falls back to HTTP).
// Nothing is delivered after close().
export class Live {
  constructor(tableId, token, { onMessage, onClose }) {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = token ? `?token=${encodeURIComponent(token)}` : "";
    this.closed = false;
    this.delivered = false;
    this.ws = new WebSocket(`${proto}://${location.host}/api/tables/${encodeURIComponent(tableId)}/live${q}`);
    this.ws.onmessage = (ev) => {
      if (this.closed) return;
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg && typeof msg === "object") { this.delivered = true; onMessage(msg); }
    };
    this.ws.onclose = () => {
      if (this.closed) return;
      this.closed = true;
      onClose && onClose(this.delivered);
    };
  }

  get isOpen() { return !this.closed && this.ws.readyState === WebSocket.OPEN; }

  // Send a message (e.g. {"type": "resync"}); false when the socket is not open.
  send(obj) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  close() {
    this.closed = true;
    try { this.ws.close(); } catch { /* already closed */ }
  }
}
