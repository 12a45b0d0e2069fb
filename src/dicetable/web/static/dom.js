// Shared DOM helpers and browser storage of the three pages (lobby, table, replay).
// Nothing here talks to the server or knows a game.

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

// An element: attributes (text, class, on<event> handlers, others as attributes) and children.
export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

// Make ``box``'s children equal to ``kids`` (fresh nodes, e.g. from el()) while keeping every
// existing node whose tag matches in place: only changed attributes and text are written, so a
// button the user is about to press survives a redraw that does not change it. Event handlers on
// the fresh nodes are not copied (delegate them to a container that is not redrawn).
export function morph(box, kids) {
  const old = Array.from(box.childNodes);
  kids.forEach((k, i) => {
    const o = old[i];
    if (o && o.nodeType === k.nodeType && o.nodeName === k.nodeName) {
      if (k.nodeType === Node.ELEMENT_NODE) {
        for (const a of Array.from(o.attributes)) if (!k.hasAttribute(a.name)) o.removeAttribute(a.name);
        for (const a of Array.from(k.attributes)) if (o.getAttribute(a.name) !== a.value) o.setAttribute(a.name, a.value);
        morph(o, Array.from(k.childNodes));
      } else if (o.nodeValue !== k.nodeValue) o.nodeValue = k.nodeValue;
    } else if (o) box.replaceChild(k, o);
    else box.append(k);
  });
  for (const o of old.slice(kids.length)) o.remove();
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const seatName = (s) => `Player ${s + 1}`;
// The address's query and its fragment (after "#"), which browsers never send to a server: a seat's
// token and invite travel there (docs/security.md, claimed seats); the fragment wins.
export const params = new URLSearchParams(location.search);
for (const [k, v] of new URLSearchParams(location.hash.slice(1))) params.set(k, v);
export const logText = (line) => (typeof line === "string" ? line : (line && (line.text || line.line)) || "");

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

export function fmtSecs(s) {
  s = Math.max(0, Math.round(s));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// JSON with sorted keys, so two equal values compare equal whatever their key order.
export function canon(v) {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = canon(v[k]);
    return out;
  }
  return v;
}
export function sameJSON(a, b) { return JSON.stringify(canon(a)) === JSON.stringify(canon(b)); }

// The hand-over rule (docs/web.md; Python twin: dicetable.web.render.needs_hand_over):
// hasSecrets(a, b) is true when observation a differs from b in a field both
// have, the top-level "seat" field aside (a seat-only field is a convenience;
// games hide secrets behind placeholders in the shared structure).
export function hasSecrets(seatObs, otherObs) {
  if (!seatObs || !otherObs || typeof seatObs !== "object") return !sameJSON(seatObs, otherObs);
  for (const k of Object.keys(otherObs)) {
    if (k !== "seat" && k in seatObs && !sameJSON(seatObs[k], otherObs[k])) return true;
  }
  return false;
}

// Tabs: buttons with role=tab and aria-controls; a click shows its panel and hides the others.
// Keyboard (WAI-ARIA tabs): only the selected tab is in the Tab order; the arrow keys, Home and End
// move to the previous, next, first, last shown tab and select it.
export function wireTabs(list) {
  const tabs = $$('[role="tab"]', list);
  const pick = (tab) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      const pane = document.getElementById(t.getAttribute("aria-controls"));
      if (pane) pane.hidden = !on;
    }
  };
  for (const t of tabs) {
    t.tabIndex = t.getAttribute("aria-selected") === "true" ? 0 : -1;
    t.addEventListener("click", () => pick(t));
  }
  list.addEventListener("keydown", (ev) => {
    const next = tabKey(ev, tabs.filter((t) => t.getClientRects().length > 0));
    if (next) { pick(next); next.focus(); }
  });
  return pick;
}

// The tab an arrow key, Home or End moves to from the focused one among ``shown`` (null for other
// keys); the key's default (scrolling) is prevented when it moves.
export function tabKey(ev, shown) {
  const i = shown.indexOf(ev.target.closest('[role="tab"]'));
  const moves = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: shown.length - 1 };
  if (i < 0 || !(ev.key in moves) || !shown.length) return null;
  ev.preventDefault();
  ev.stopPropagation();
  return shown[(moves[ev.key] + shown.length) % shown.length];
}

// ---------------------------------------------------------------- storage
// The lobby keeps every human seat token of a table it created, so one
// browser can play several seats (hot-seat) and "play again" knows the seats.
function readJSON(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}
export const store = {
  tokens(tableId) { return readJSON(`dicetable.tokens.${tableId}`, {}) || {}; },
  setTokens(tableId, map) { localStorage.setItem(`dicetable.tokens.${tableId}`, JSON.stringify(map)); },
  // The invite links of the seats sent to friends (the creation answer's links), by seat.
  invites(tableId) { return readJSON(`dicetable.invites.${tableId}`, {}) || {}; },
  setInvites(tableId, map) { localStorage.setItem(`dicetable.invites.${tableId}`, JSON.stringify(map)); },
  setup(tableId) { return readJSON(`dicetable.setup.${tableId}`, null); },
  setSetup(tableId, body) { localStorage.setItem(`dicetable.setup.${tableId}`, JSON.stringify(body)); },
  // Held seats played on another screen (a friend's): this page never plays them.
  away(tableId) { return new Set(readJSON(`dicetable.away.${tableId}`, []) || []); },
  setAway(tableId, seats) { localStorage.setItem(`dicetable.away.${tableId}`, JSON.stringify([...seats].sort((a, b) => a - b))); },
  // The "fast" control of the table page: no animation, no pause between moves.
  fast() { return localStorage.getItem("dicetable.fast") === "1"; },
  setFast(on) { localStorage.setItem("dicetable.fast", on ? "1" : "0"); },
};

// The part of the window where ``e`` can show: the window cut by the inner box (without borders and
// scroll bars) of every element around it that clips its overflow (a scrolling panel, a board area).
export function clipBox(e) {
  let c = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  for (let a = e.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
    if (!(a instanceof HTMLElement)) continue;
    const cs = getComputedStyle(a);
    if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
    const b = a.getBoundingClientRect();
    const left = b.left + a.clientLeft;
    const top = b.top + a.clientTop;
    c = { left: Math.max(c.left, left), top: Math.max(c.top, top),
      right: Math.min(c.right, left + a.clientWidth), bottom: Math.min(c.bottom, top + a.clientHeight) };
  }
  return c;
}
