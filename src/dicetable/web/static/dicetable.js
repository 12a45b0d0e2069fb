// dicetable's one page module: lobby, table and replay viewer.
// It holds no rule and no secret: it draws what the server's HTTP contract
// (/api/...) answers for the seat's token and sends clicks on elements with
// data-action back as actions. See docs/web.md.

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const el = (tag, attrs = {}, ...kids) => {
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
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const seatName = (s) => `Player ${s + 1}`;
const params = new URLSearchParams(location.search);

// ---------------------------------------------------------------- storage
// The lobby keeps every human seat token of a table it created, so one
// browser can play several seats (hot-seat) and "play again" knows the seats.
const store = {
  tokens(tableId) {
    try { return JSON.parse(localStorage.getItem(`dicetable.tokens.${tableId}`)) || {}; } catch { return {}; }
  },
  setTokens(tableId, map) { localStorage.setItem(`dicetable.tokens.${tableId}`, JSON.stringify(map)); },
  setup(tableId) {
    try { return JSON.parse(localStorage.getItem(`dicetable.setup.${tableId}`)); } catch { return null; }
  },
  setSetup(tableId, body) { localStorage.setItem(`dicetable.setup.${tableId}`, JSON.stringify(body)); },
  // Held seats played on another screen (a friend's): this page never plays them.
  away(tableId) {
    try { return new Set(JSON.parse(localStorage.getItem(`dicetable.away.${tableId}`)) || []); } catch { return new Set(); }
  },
  setAway(tableId, seats) { localStorage.setItem(`dicetable.away.${tableId}`, JSON.stringify([...seats].sort((a, b) => a - b))); },
};

// ---------------------------------------------------------------- HTTP
// JSON text of a request body; a BigInt (a 63-bit seed) is written as its exact digits.
function toJSON(body) {
  return JSON.stringify(body, (k, v) => (typeof v === "bigint" ? `\u0000big:${v}` : v)).replace(/"\\u0000big:(\d+)"/g, "$1");
}

async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
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

function errorText(data, status) {
  if (!data) return `the server answered ${status}`;
  const d = data.detail ?? data.message ?? data.error;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((x) => (x.loc ? `${x.loc.join(".")}: ${x.msg}` : x.msg || JSON.stringify(x))).join("; ");
  if (d && typeof d === "object") return d.message || JSON.stringify(d);
  return `the server answered ${status}`;
}

const unwrapView = (data) => (data && data.view && typeof data.view === "object" ? data.view : data);
const logText = (line) => (typeof line === "string" ? line : (line && (line.text || line.line)) || "");

// The hand-over rule (docs/web.md; Python twin: dicetable.web.render.needs_hand_over):
// hasSecrets(a, b) is true when observation a differs from b in a field both
// have, the top-level "seat" field aside (a seat-only field is a convenience;
// games hide secrets behind placeholders in the shared structure).
function sameJSON(a, b) { return JSON.stringify(canon(a)) === JSON.stringify(canon(b)); }
function canon(v) {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = canon(v[k]);
    return out;
  }
  return v;
}
export function hasSecrets(seatObs, otherObs) {
  if (!seatObs || !otherObs || typeof seatObs !== "object") return !sameJSON(seatObs, otherObs);
  for (const k of Object.keys(otherObs)) {
    if (k !== "seat" && k in seatObs && !sameJSON(seatObs[k], otherObs[k])) return true;
  }
  return false;
}

// ---------------------------------------------------------------- lobby
const BOT_LEVELS = ["random", "greedy", "easy", "medium", "hard"];

async function lobbyPage() {
  const res = await api("GET", "/api/games");
  const list = Array.isArray(res.data) ? res.data : (res.data && res.data.games) || [];
  const levels = (res.data && res.data.bot_levels) || BOT_LEVELS;
  const gameSel = $("#game");
  if (!list.length) { $("#create-error").textContent = `no games: ${res.message}`; }
  for (const g of list) gameSel.append(el("option", { value: g.id, text: g.name || g.id }));
  const byId = Object.fromEntries(list.map((g) => [g.id, g]));
  const wanted = params.get("game");
  if (wanted && byId[wanted]) gameSel.value = wanted;
  const minP = (g) => g.min_players ?? (g.players && g.players[0]) ?? 1;
  const maxP = (g) => g.max_players ?? (g.players && g.players[g.players.length - 1]) ?? 5;

  const drawPlayers = () => {
    const g = byId[gameSel.value];
    $("#game-summary").textContent = g.summary || "";
    const sel = $("#players");
    const old = Number(sel.value) || Math.min(Math.max(2, minP(g)), maxP(g));
    sel.replaceChildren();
    for (let n = minP(g); n <= maxP(g); n++) sel.append(el("option", { value: n, text: n === 1 ? "1 (solo)" : String(n) }));
    sel.value = String(Math.min(Math.max(old, minP(g)), maxP(g)));
    drawOptions(); drawSeats();
  };
  const drawOptions = () => {
    const g = byId[gameSel.value];
    const n = Number($("#players").value);
    const box = $("#options");
    box.replaceChildren(el("legend", { text: "Options" }));
    const opts = (g.options || []).filter((o) => !o.players || o.players.includes(n));
    if (!opts.length) box.append(el("p", { class: "muted", text: "none for this game and player count" }));
    for (const o of opts) {
      const id = `opt-${o.name}`;
      let input;
      if (Array.isArray(o.choices) && o.choices.length) {
        input = el("select", { id, "data-option": o.name });
        o.choices.forEach((c, i) => input.append(el("option", { value: i, text: String(c), selected: sameJSON(c, o.default) })));
        input._choices = o.choices;
      } else if (typeof o.default === "boolean") {
        input = el("select", { id, "data-option": o.name });
        [false, true].forEach((c, i) => input.append(el("option", { value: i, text: String(c), selected: c === o.default })));
        input._choices = [false, true];
      } else {
        input = el("input", { id, "data-option": o.name, value: o.default ?? "", size: 14 });
        input._number = typeof o.default === "number";
      }
      box.append(el("label", { class: "row", for: id, title: o.description || "" }, `${o.name.replaceAll("_", " ")} `, input));
      if (o.description) box.append(el("p", { class: "muted small", text: o.description }));
    }
  };
  const drawSeats = () => {
    const n = Number($("#players").value);
    const box = $("#seats");
    box.replaceChildren(el("legend", { text: "Seats" }));
    for (let s = 0; s < n; s++) {
      const sel = el("select", { id: `seat-${s}`, "data-seat": s });
      sel.append(el("option", { value: "human", text: "human: this screen (hot-seat)" }));
      sel.append(el("option", { value: "human:away", text: "human: a friend elsewhere (link)", title: "played on another screen: send its seat link" }));
      for (const lv of levels) sel.append(el("option", { value: `bot:${lv}`, text: `bot (${lv})` }));
      sel.value = s === 0 ? "human" : "bot:greedy";
      box.append(el("label", { class: "row", for: `seat-${s}` }, `${seatName(s)} `, sel));
    }
  };
  gameSel.addEventListener("change", drawPlayers);
  $("#players").addEventListener("change", () => { drawOptions(); drawSeats(); });
  if (list.length) drawPlayers();

  $("#new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = $("#create-error");
    err.textContent = "";
    const body = { game: gameSel.value, players: Number($("#players").value), options: {}, seats: [] };
    for (const input of $$("[data-option]")) {
      if (input._choices) body.options[input.dataset.option] = input._choices[Number(input.value)];
      else if (input.value.trim() !== "") body.options[input.dataset.option] = input._number ? Number(input.value) : input.value.trim();
    }
    const away = [];
    for (const sel of $$("[data-seat]")) {
      if (sel.value === "human:away") away.push(Number(sel.dataset.seat));
      body.seats.push(sel.value.startsWith("human") ? { kind: "human" } : { kind: "bot", level: sel.value.slice(4) });
    }
    const seed = $("#seed").value.trim();
    if (seed) {
      // Seeds are 63-bit (the server's limit); a larger number would also lose digits in a JS Number.
      if (!/^\d+$/.test(seed) || BigInt(seed) > 2n ** 63n - 1n) {
        err.textContent = "the seed is a whole number from 0 to 9223372036854775807 (or leave it empty for a random one)";
        return;
      }
      body.seed = BigInt(seed) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seed) : BigInt(seed);
    }
    if ($("#clock").value) body.clock = Number($("#clock").value);
    $("#create").disabled = true;
    const made = await createTable(body, away);
    $("#create").disabled = false;
    if (made.error) { err.textContent = made.error; return; }
    location.assign(made.url);
  });
  drawOpenTables(Object.fromEntries(list.map((g) => [g.id, g.name])));
}

// Creates a table, keeps its human seat tokens, the seats played elsewhere (``away``: their
// links go to friends) and the set-up; answers the page to open (the first seat played here).
async function createTable(body, away = []) {
  const res = await api("POST", "/api/tables", { body });
  if (res.status !== 200 && res.status !== 201) return { error: res.message };
  const id = res.data.table_id;
  const tokens = {};
  for (const s of res.data.seats || []) if (s.token) tokens[s.seat] = s.token;
  store.setTokens(id, tokens);
  const setup = { ...body };
  delete setup.seed;
  setup.away = away;
  store.setSetup(id, setup);
  store.setAway(id, away);
  const held = Object.keys(tokens).map(Number).sort((a, b) => a - b);
  const first = held.find((s) => !away.includes(s)) ?? held[0];
  const pace = params.get("pace");
  const extra = pace !== null ? `&pace=${encodeURIComponent(pace)}` : "";
  return { url: first === undefined ? `/tables/${id}?${extra.slice(1)}` : `/tables/${id}?token=${tokens[first]}${extra}` };
}

async function drawOpenTables(names = {}) {
  const body = $("#open-tables");
  const res = await api("GET", "/api/tables?all=true");
  const rows = (Array.isArray(res.data) ? res.data : (res.data && res.data.tables) || []).slice(0, 40);
  body.replaceChildren();
  if (res.status !== 200) { body.append(el("tr", {}, el("td", { colspan: 5, class: "error", text: res.message }))); return; }
  if (!rows.length) { body.append(el("tr", {}, el("td", { colspan: 5, class: "muted", text: "no open tables yet" }))); return; }
  for (const t of rows) {
    const id = t.table_id ?? t.id;
    const tokens = store.tokens(id);
    const mine = Object.keys(tokens).map(Number).sort((a, b) => a - b);
    const links = el("td", { class: "links" });
    if (mine.length) links.append(el("a", { href: `/tables/${id}?token=${tokens[mine[0]]}`, class: "button", text: "Rejoin" }), " ");
    links.append(el("a", { href: `/tables/${id}`, class: "button", text: "Watch" }));
    const status = t.status || (t.over ? "over" : "running");
    if (status === "over" || t.over) links.append(" ", el("a", { href: `/tables/${id}/replay`, class: "button", text: "Replay" }));
    const seats = (t.seats || []).map((x) => (x.kind === "bot" ? `${x.level} bot` : x.name || "human")).join(", ");
    const state = status === "running" ? `running, move ${t.version ?? 0}${t.open ? ", seats free" : ""}` : status;
    body.append(el("tr", { "data-table-row": id }, el("td", { text: String(id).slice(0, 8) }),
      el("td", { text: names[t.game] || t.game }), el("td", { text: seats || String(t.players ?? "") }),
      el("td", { text: state }), links));
  }
}

// ---------------------------------------------------------------- table
const T = {
  id: null, token: null, seat: null, tokens: {}, away: new Set(), leaving: new Set(), view: null, shown: -1, queue: [], pumping: false,
  ws: null, wsGen: 0, busy: false, help: null, pace: 700, switching: false, lastLog: [], canHint: null,
  finalShown: false, clockTimer: null, hintFor: null,
};

async function tablePage() {
  T.id = document.body.dataset.table;
  T.token = params.get("token") || null;
  T.tokens = store.tokens(T.id);
  T.away = store.away(T.id);
  const pace = params.get("pace");
  if (pace !== null && /^\d+$/.test(pace)) T.pace = Number(pace);
  wireTable();
  let res = await api("GET", `/api/tables/${T.id}`, { token: T.token });
  if (res.status === 401 || res.status === 403) {
    showError(`This seat link is not valid for table ${T.id} (${res.message}); you are watching as a spectator.`);
    T.token = null;
    res = await api("GET", `/api/tables/${T.id}`);
  }
  if (res.status !== 200) {
    // A person reads this, not an API client: no endpoint names, and a way back to the lobby.
    const why = res.status === 404 ? `There is no table ${T.id} here: check the link, or pick a table in the lobby.`
      : `This table cannot be shown now (${res.message}).`;
    $("#status").replaceChildren(why, " ", el("a", { href: "/", text: "Go to the lobby" }));
    return;
  }
  const view = unwrapView(res.data);
  T.seat = seatOf(view);
  if (T.seat !== null && T.token) {
    T.tokens[T.seat] = T.token;
    store.setTokens(T.id, T.tokens);
    // Opening a seat's own link here means it is played here (again).
    if (T.away.delete(T.seat)) store.setAway(T.id, T.away);
  }
  $("#board-css").href = `/static/games/${view.game}/board.css`;
  const help = await api("GET", `/web/help/${view.game}`);
  T.help = help.status === 200 ? help.data : { sections: [], components: [] };
  drawComponents();
  await accept(view);
  connect();
}

function seatOf(view) {
  if (!T.token) return null;
  const obs = view.observation || {};
  if (typeof view.seat === "number") return view.seat;
  if (typeof obs.seat === "number") return obs.seat;
  for (const [s, t] of Object.entries(T.tokens)) if (t === T.token) return Number(s);
  return null;
}

function wireTable() {
  document.addEventListener("click", (ev) => {
    const target = ev.target.closest("[data-action]");
    if (!target || target.closest("#handover")) return;
    if (target.getAttribute("aria-disabled") === "true" || target.disabled) return;
    ev.preventDefault();
    act(target.dataset.action);
  });
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if ((ev.key === "Enter" || ev.key === " ") && t instanceof Element && t.getAttribute("role") === "button" && t.tagName !== "BUTTON") {
      ev.preventDefault();
      t.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
  });
  $("#tab-log").addEventListener("click", () => tab("log"));
  $("#tab-rules").addEventListener("click", () => tab("rules"));
  $("#hint-btn").addEventListener("click", hint);
  $("#undo-btn").addEventListener("click", undo);
  $("#final-close").addEventListener("click", () => { $("#final").hidden = true; });
  $("#again-btn").addEventListener("click", playAgain);
  $("#handover-btn").addEventListener("click", () => T.handoverGo && T.handoverGo());
  $("#players").addEventListener("click", async (ev) => {
    const b = ev.target.closest("[data-seat-bot], [data-seat-take]");
    if (!b) return;
    const seat = Number(b.dataset.seatBot ?? b.dataset.seatTake);
    const what = b.dataset.seatBot !== undefined ? "bot" : "take";
    const res = await api("POST", `/api/tables/${T.id}/seats/${seat}/${what}`, { token: T.token, body: what === "bot" ? {} : undefined });
    if (res.status === 200) { hideError(); await accept(unwrapView(res.data)); } else showError(res.message);
  });
}

function tab(which) {
  $("#tab-log").setAttribute("aria-selected", String(which === "log"));
  $("#tab-rules").setAttribute("aria-selected", String(which === "rules"));
  $("#log-pane").hidden = which !== "log";
  $("#rules-pane").hidden = which !== "rules";
}

function connect() {
  if (T.ws) { try { T.ws.close(); } catch { /* already closed */ } }
  const gen = ++T.wsGen;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = T.token ? `?token=${encodeURIComponent(T.token)}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/api/tables/${T.id}/live${q}`);
  T.ws = ws;
  ws.onmessage = (msg) => {
    if (gen !== T.wsGen) return;
    let data;
    try { data = JSON.parse(msg.data); } catch { return; }
    if (data && (data.type === "error" || data.error) && !data.version && data.version !== 0) { showError(errorText(data, 0)); return; }
    const view = unwrapView(data);
    if (!view || typeof view.version !== "number") return;
    T.queue.push(view);
    pump();
  };
  ws.onclose = () => {
    if (gen !== T.wsGen) return;
    document.body.dataset.live = "closed";
    setTimeout(() => { if (gen === T.wsGen) { refresh(); connect(); } }, 1500);
  };
  ws.onopen = () => { if (gen === T.wsGen) document.body.dataset.live = "open"; };
}

// The order of a table's views: (undos, version). An undo lowers the version but
// raises undos (the server counts every action taken back), so of two views the
// one with the larger key is the newer, whichever way it came.
function viewKey(v) { return [typeof v.undos === "number" ? v.undos : 0, v.version]; }
function compareViews(a, b) {
  const [ka, kb] = [viewKey(a), viewKey(b)];
  return ka[0] - kb[0] || ka[1] - kb[1];
}

// Every view the page draws comes through here: HTTP answers, WebSocket pushes,
// reloads and refreshes alike. A view for another viewer than the page's seat now
// is dropped (a late answer for the seat it played before a hot-seat switch); one
// older than the view on screen is dropped (a late answer or push: the table has
// moved on); one equal to it is drawn only when something in it changed (a seat
// connected, a bot took over, another seat's view of the same version after a
// hot-seat switch). True when it was drawn.
async function accept(view) {
  if (!view || typeof view.version !== "number") return false;
  if ((typeof view.seat === "number" ? view.seat : null) !== T.seat) return false;
  if (T.view) {
    const order = compareViews(view, T.view);
    if (order < 0 || (order === 0 && sameJSON(view, T.view))) return false;
  }
  noteAway(view);
  await show(view);
  return true;
}

// The rule of held seats: a seat whose token this page holds is played here (hot-seat) unless it
// is seen connected while this page holds no connection for it. Then a friend plays it elsewhere
// and it is theirs for good (kept in localStorage), even while the friend reloads. The seat this
// page has just left shows connected until the server notices its closed socket: it stays in
// T.leaving until a view shows it not connected.
function noteAway(view) {
  let changed = false;
  for (const k of Array.isArray(view.seats) ? view.seats : []) {
    const s = k.seat;
    if (k.kind !== "human" || T.tokens[s] === undefined || s === T.seat || T.away.has(s)) continue;
    if (k.connected !== true) T.leaving.delete(s);
    else if (!T.leaving.has(s)) { T.away.add(s); changed = true; }
  }
  if (changed) store.setAway(T.id, T.away);
}

// The page stops playing its seat (a hot-seat switch or hand-over): its socket is closing.
function leaveSeat() {
  if (T.seat !== null) T.leaving.add(T.seat);
}

// Pushes are shown one at a time; a move by someone else stays on screen for
// T.pace ms before the next one, so a bot's turn reads like a turn.
async function pump() {
  if (T.pumping) return;
  T.pumping = true;
  try {
    while (T.queue.length) {
      const v = T.queue.shift();
      const advanced = !T.view || compareViews(v, T.view) > 0;
      if (!(await accept(v))) continue;
      if (advanced && T.queue.length && T.pace > 0) await sleep(T.pace);
    }
  } finally { T.pumping = false; }
  if (!T.queue.length) await maybeHandOver();
}

async function refresh() {
  const res = await api("GET", `/api/tables/${T.id}`, { token: T.token });
  if (res.status === 200) { await accept(unwrapView(res.data)); await maybeHandOver(); }
}

async function act(actionId) {
  if (T.busy || !T.view) return;
  T.busy = true;
  document.body.dataset.busy = "1";
  hideError();
  try {
    const res = await api("POST", `/api/tables/${T.id}/actions`, { token: T.token, body: { action: actionId, version: T.shown } });
    if (res.status === 200) {
      await accept(unwrapView(res.data));
      if (!T.queue.length) await maybeHandOver();
    } else if (res.status === 409) {
      await refresh();
    } else {
      showError(res.message);
    }
  } finally {
    T.busy = false;
    delete document.body.dataset.busy;
  }
}

// The game's board fragment (drawn by the server from the observation), or,
// for a game without a board yet, the observation itself shown readably;
// the action bar then carries every legal action.
function boardFor(view) {
  if (typeof view.board === "string" && view.board) return view.board;
  return `<div class="board board-${escapeHtml(view.game || "")} board-generic">${genericHtml(view.observation || {}, 0)}</div>`;
}

function genericHtml(v, depth) {
  const label = (k) => escapeHtml(String(k).replaceAll("_", " "));
  const scalar = (x) => (x === null || x === undefined ? '<span class="g-none">–</span>' : x === true ? "yes" : x === false ? "no" : escapeHtml(String(x)));
  const flat = (x) => x === null || typeof x !== "object";
  if (Array.isArray(v)) {
    if (!v.length) return '<span class="g-none">none</span>';
    if (v.every(flat)) return `<span class="g-list">${v.map(scalar).join(", ")}</span>`;
    if (v.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
      const keys = [...new Set(v.flatMap((x) => Object.keys(x)))];
      const cellOk = (x) => flat(x) || (Array.isArray(x) && x.length <= 12 && x.every(flat));
      if (v.every((x) => keys.every((k) => cellOk(x[k])))) {
        return `<table class="g-table"><thead><tr>${keys.map((k) => `<th>${label(k)}</th>`).join("")}</tr></thead><tbody>${
          v.map((x) => `<tr>${keys.map((k) => `<td>${genericHtml(x[k], depth + 1)}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
      }
    }
    return `<ol class="g-olist">${v.map((x) => `<li>${genericHtml(x, depth + 1)}</li>`).join("")}</ol>`;
  }
  if (v && typeof v === "object") {
    const items = Object.entries(v).filter(([k]) => k !== "game");
    if (!items.length) return '<span class="g-none">–</span>';
    return `<dl class="g-dict g-depth-${Math.min(depth, 3)}">${items.map(([k, x]) => `<div class="g-item"><dt>${label(k)}</dt><dd>${genericHtml(x, depth + 1)}</dd></div>`).join("")}</dl>`;
  }
  return scalar(v);
}

// A board wider (or taller) than its place is scaled down to fit, down to 70%,
// so the main area needs no scrolling on a 1366x768 screen.
function fitBoard() {
  const wrap = $("#board-wrap");
  const board = $("#board");
  if (!wrap || !board) return;
  board.style.zoom = "1";
  const cs = getComputedStyle(wrap);
  const w = wrap.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const h = wrap.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
  const bw = board.scrollWidth;
  const bh = board.scrollHeight;
  let z = Math.min(1, w / Math.max(bw, 1));
  if (bh * z > h) z = Math.min(z, Math.max(0.8, h / bh));
  z = Math.max(0.7, z);
  if (z < 0.995) board.style.zoom = String(Math.floor(z * 1000) / 1000);
}
window.addEventListener("resize", () => fitBoard());

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// Draws ``view`` (only ever called by accept, which keeps the views in order).
async function show(view) {
  const focusedAction = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.action : null;
  const hadFocus = document.activeElement && document.activeElement !== document.body;
  const html = boardFor(view);
  const advanced = view.version > T.shown;
  T.view = view;
  T.shown = view.version;
  const board = $("#board");
  // What the viewer chose to look at on the board (a sheet tab, an open detail) survives the redraw.
  // (Not when a decision comes to this seat: the board then opens where the seat must act.)
  const keepView = !(view.legal_actions || []).length;
  const checked = keepView ? $$("input:checked[id]", board).map((e) => e.id) : [];
  const opened = $$("details[open][id]", board).map((e) => e.id);
  board.innerHTML = html;
  for (const id of checked) { const e = document.getElementById(id); if (e && board.contains(e)) e.checked = true; }
  for (const id of opened) { const e = document.getElementById(id); if (e && board.contains(e)) e.open = true; }
  fitBoard();
  if (advanced) { board.classList.remove("flash"); void board.offsetWidth; board.classList.add("flash"); }
  const ver = $("#version");
  ver.dataset.version = String(view.version);
  ver.textContent = String(view.version);
  drawActionBar(view);
  drawStatus(view);
  drawPlayers(view);
  drawLog(view);
  drawRules(view);
  drawTools(view);
  drawFinal(view);
  // Keep keyboard users where they were, or on the first action of a new decision.
  const again = focusedAction && document.querySelector(`[data-action="${CSS.escape(focusedAction)}"]`);
  if (again) again.focus();
  else if (!hadFocus || !document.activeElement || document.activeElement === document.body) {
    const first = document.querySelector("#board [data-action], #actionbar [data-action]");
    if (first && $("#handover").hidden && $("#final").hidden) first.focus({ preventScroll: true });
  }
}

function drawActionBar(view) {
  const bar = $("#actionbar");
  bar.replaceChildren();
  // Actions the board places where they can be seen; a hidden one (e.g. on a sheet tab not shown) gets a button too.
  const onBoard = new Set($$("#board [data-action]").filter((e) => e.getClientRects().length > 0).map((e) => e.dataset.action));
  for (const a of view.legal_actions || []) {
    if (onBoard.has(a.id)) continue;
    bar.append(el("button", { type: "button", class: "act", "data-action": a.id, title: a.id, text: a.label || a.id }));
  }
}

function nameOf(seat) {
  // The log and the boards say "Player N": a chosen name is shown beside it, never instead of it
  // (a name that starts with it, as a bot's "Player 2 (greedy bot)", is shown as it is).
  const info = T.view && Array.isArray(T.view.seats) ? T.view.seats.find((x) => x.seat === seat) : null;
  const name = info && info.name ? info.name : seatName(seat);
  return name === seatName(seat) || name.startsWith(`${seatName(seat)} `) ? name : `${seatName(seat)} · ${name}`;
}
function whoIs(seat) { return seat === T.seat ? `${nameOf(seat)} (you)` : nameOf(seat); }

function seatKind(view, s) {
  const seats = view.seats || (T.view && T.view.seats);
  const info = Array.isArray(seats) ? seats.find((x) => x.seat === s) : null;
  if (info) return info;
  const setup = store.setup(T.id);
  return setup && setup.seats && setup.seats[s] ? setup.seats[s] : null;
}

function drawStatus(view) {
  const st = $("#status");
  const toMove = view.to_move || [];
  const mine = T.seat !== null && toMove.includes(T.seat) && !view.over;
  document.title = `${mine ? "▶ your move · " : ""}${view.game} · ${T.seat === null ? "watching" : seatName(T.seat)} · dicetable`;
  if (view.over) {
    const w = (view.winners || []).map(whoIs);
    // No winner (a solo game lost to the Cat, the Dark Lord...): say so rather than leave "Game over." bare.
    const none = playerCount(view) === 1 ? `${whoIs(0)} did not win (see how it ended)` : "No winner (see how it ended)";
    st.textContent = `Game over. ${w.length ? `Winner${w.length > 1 ? "s" : ""}: ${w.join(", ")}` : none}`;
    return;
  }
  if (T.seat !== null && toMove.includes(T.seat) && view.decision) {
    st.replaceChildren(el("strong", { text: `${whoIs(T.seat)}: ` }), view.decision.prompt || "your decision");
    return;
  }
  const parts = toMove.map((s) => {
    const k = seatKind(view, s);
    if (k && (k.kind === "bot" || k.autoplay)) return `${seatName(s)} (${k.level || "?"} bot) is thinking…`;
    return `${nameOf(s)} must decide`;
  });
  const prompt = view.decision && view.decision.prompt && !(T.seat !== null && toMove.includes(T.seat)) ? ` — ${view.decision.prompt}` : "";
  st.textContent = (parts.join("; ") || "waiting…") + prompt;
}

function playerCount(view) {
  const obs = view.observation || {};
  if (typeof view.players === "number") return view.players;
  if (Array.isArray(view.scores)) return view.scores.length;
  if (Array.isArray(obs.players)) return obs.players.length;
  return 0;
}

function drawPlayers(view) {
  const box = $("#players");
  box.replaceChildren();
  const n = playerCount(view);
  const order = [];
  if (T.seat !== null && T.seat < n) order.push(T.seat);
  for (let s = 0; s < n; s++) if (s !== T.seat) order.push(s);
  const toMove = view.to_move || [];
  const winners = view.winners || [];
  for (const s of order) {
    const k = seatKind(view, s);
    const score = Array.isArray(view.scores) ? view.scores[s] : null;
    const kind = k ? (k.kind === "bot" ? `bot (${k.level || "?"})` : k.autoplay ? `human, played by its bot` : "human") : "";
    const connected = k && k.kind === "human" && typeof k.connected === "boolean" ? (k.connected ? "connected" : "not connected") : "";
    const panel = el("section", { class: `player${s === T.seat ? " me" : ""}${toMove.includes(s) ? " to-move" : ""}${winners.includes(s) ? " winner" : ""}`, "data-seat": s, "aria-label": seatName(s) },
      el("h3", {}, toMove.includes(s) ? el("span", { class: "turn-dot", title: "to decide now", text: "▶ " }) : null, el("span", { class: "pname", text: s === T.seat ? `${nameOf(s)} (you)` : nameOf(s) }), winners.includes(s) ? el("span", { class: "crown", title: "winner", text: " ♛" }) : null),
      el("p", { class: "meta", text: [kind, connected].filter(Boolean).join(" · ") }),
      scoreLine(view, s, score));
    if (view.clock && toMove.includes(s) && k && k.kind === "human" && !k.autoplay) panel.append(el("p", { class: "meta clock-line", "data-clock-seat": s }));
    if (k && k.timed_out) panel.append(el("p", { class: "meta error", text: "clock ran out: its bot chose" }));
    if (k && k.kind === "human" && !view.over && T.seat !== null) {
      // A seat's holder may let its bot play it and take it back; a seat whose clock ran out may be handed to its bot by anyone seated.
      if (s === T.seat) {
        panel.append(k.autoplay
          ? el("button", { type: "button", class: "small seat-btn", "data-seat-take": s, text: "take my seat back" })
          : el("button", { type: "button", class: "small seat-btn", "data-seat-bot": s, title: "its stand-in bot plays your decisions until you take the seat back", text: "let a bot play for me" }));
      } else if (k.timed_out && !k.autoplay) {
        panel.append(el("button", { type: "button", class: "small seat-btn", "data-seat-bot": s, text: "hand this seat to its bot" }));
      }
    }
    if (T.tokens[s] !== undefined && s !== T.seat && k && k.kind === "human") {
      panel.append(el("a", { class: "small invite", href: `/tables/${T.id}?token=${T.tokens[s]}`, title: "this seat's link: send it to a friend, or keep playing here (hot-seat)", text: "seat link" }));
    }
    box.append(panel);
  }
  if (T.seat === null) box.prepend(el("p", { class: "spectator", text: "You are watching (spectator)." }));
}

// A panel's score: the public one (the same on every screen, so the panels compare); on the
// viewer's own panel, what only it sees on top (a secret objective, hidden VP, a Duke).
function scoreLine(view, s, score) {
  const line = el("p", { class: "score" }, "score ", el("strong", { text: score === null || score === undefined ? "?" : String(score) }));
  const own = view.own_score;
  if (own && own.seat === s && s === T.seat && typeof own.hidden === "number" && own.hidden !== 0) {
    line.append(el("span", { class: "hidden-score", title: `your total as only you can count it: ${own.total}`,
      text: ` · ${own.hidden > 0 ? "+" : "−"}${Math.abs(own.hidden)} hidden (only you see this)` }));
  }
  return line;
}

function drawLog(view) {
  const lines = (view.log || []).map(logText);
  const ol = $("#log");
  const prev = T.lastLog;
  let start = 0;
  if (lines.length >= prev.length && prev.every((l, i) => l === lines[i])) start = prev.length;
  else ol.replaceChildren();
  const keep = 250;
  for (let i = Math.max(start, lines.length - keep); i < lines.length; i++) {
    ol.append(el("li", { class: start > 0 ? "new" : "", text: lines[i] }));
  }
  while (ol.children.length > keep) ol.firstChild.remove();
  for (const li of $$("li.new", ol)) if (!li.dataset.seen) { li.dataset.seen = "1"; setTimeout(() => li.classList.remove("new"), 1500); }
  T.lastLog = lines;
  const pane = $("#log-pane");
  pane.scrollTop = pane.scrollHeight;
}

function drawComponents() {
  const dl = $("#component-list");
  dl.replaceChildren();
  for (const c of (T.help && T.help.components) || []) {
    dl.append(el("dt", { text: c.name }), el("dd", { text: c.text }, el("span", { class: "source", text: ` (${c.source})` })));
  }
  $("#components").hidden = !dl.children.length;
}

function sectionsFor(kind) {
  return ((T.help && T.help.sections) || []).filter((s) => (s.decisions || []).includes(kind));
}

function drawRules(view) {
  const box = $("#rules-now");
  const kind = view.decision && view.decision.kind;
  const secs = kind ? sectionsFor(kind) : [];
  box.replaceChildren();
  if (view.decision && view.decision.help) box.append(el("p", { class: "decision-help", text: view.decision.help }));
  for (const s of secs) {
    const art = el("article", { class: "rule" }, el("h4", { text: s.title }));
    for (const para of String(s.text).split(/\n\s*\n/)) art.append(el("p", { text: para.trim() }));
    art.append(el("p", { class: "source", text: s.source }));
    box.append(art);
  }
  if (!kind) {
    // Nothing to decide: the whole rules summary, one folded section each, to read while others play.
    box.append(el("p", { class: "muted", text: "Nothing to decide for you now. The rules, section by section:" }));
    for (const s of (T.help && T.help.sections) || []) {
      const art = el("details", { class: "rule" }, el("summary", { text: s.title }));
      for (const para of String(s.text).split(/\n\s*\n/)) art.append(el("p", { text: para.trim() }));
      art.append(el("p", { class: "source", text: s.source }));
      box.append(art);
    }
  }
  if (!box.children.length) box.append(el("p", { class: "muted", text: "No rules section is linked to this decision yet." }));
}

function fmtSecs(s) { s = Math.max(0, Math.round(s)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; }

function drawTools(view) {
  const mine = T.seat !== null && (view.to_move || []).includes(T.seat) && !view.over;
  $("#hint-btn").hidden = !(mine && T.canHint !== false);
  const canUndo = view.can_undo ?? (view.undo && view.undo.allowed);
  $("#undo-btn").hidden = !(T.seat !== null && canUndo);
  // A hint answers one decision: it stays while the view is redrawn at the same (undos, version)
  // (a seat connects, a reconnect), and goes when the table moves on.
  if (T.hintFor !== viewKey(view).join(":")) { $("#hints").hidden = true; T.hintFor = null; }
  // The table's clock is seconds per decision; a human's clock starts when a
  // decision comes to them (a new version), so the page counts down from there.
  const clockEl = $("#clock");
  clearInterval(T.clockTimer);
  const humans = (view.to_move || []).filter((s) => { const k = seatKind(view, s); return k && k.kind === "human" && !k.autoplay; });
  if (typeof view.clock === "number" && view.clock > 0 && !view.over && humans.length) {
    if (T.clockVersion !== view.version) { T.clockVersion = view.version; T.clockEnd = typeof view.deadline === "number" ? view.deadline * 1000 : Date.now() + view.clock * 1000; }
    const tick = () => {
      const left = fmtSecs((T.clockEnd - Date.now()) / 1000);
      clockEl.textContent = `⏱ ${left}`;
      for (const line of $$("[data-clock-seat]")) line.textContent = `clock ${left} left`;
    };
    clockEl.hidden = false; tick(); T.clockTimer = setInterval(tick, 1000);
  } else clockEl.hidden = true;
}

async function hint() {
  const box = $("#hints");
  const asked = viewKey(T.view).join(":");
  T.hintFor = asked;
  box.hidden = false;
  box.replaceChildren(el("p", { class: "muted", text: "the hard bot is thinking…" }));
  const res = await api("GET", `/api/tables/${T.id}/hint`, { token: T.token });
  if (T.hintFor !== asked) return;  // the table moved on while the bot thought: that hint is stale
  if (res.status === 404 || res.status === 405) { T.canHint = false; $("#hint-btn").hidden = true; box.hidden = true; return; }
  if (res.status !== 200) { box.replaceChildren(el("p", { class: "error", text: res.message })); return; }
  const list = Array.isArray(res.data) ? res.data : res.data.hints || res.data.choices || [];
  box.replaceChildren(el("h4", { text: "Hint: the hard bot's top choices" }));
  const ol = el("ol");
  for (const h of list.slice(0, 3)) {
    const share = typeof h.share === "number" ? ` (${Math.round(h.share * (h.share <= 1 ? 100 : 1))}% of the search` : "";
    let estimate = "";
    if (typeof h.value === "number") {
      if (h.kind === "win") estimate = `, about ${Math.round(h.value * 100)}% to win`;
      else if (h.kind === "score") estimate = `, about ${h.value.toFixed(1)} points expected`;
    }
    ol.append(el("li", { text: `${h.label || h.id}${share}${share ? estimate + ")" : ""}` }));
  }
  box.append(ol);
}

async function undo() {
  const res = await api("POST", `/api/tables/${T.id}/undo`, { token: T.token, body: { version: T.shown } });
  if (res.status === 200) { await accept(unwrapView(res.data)); await maybeHandOver(); } else showError(res.message);
}

function drawFinal(view) {
  if (!view.over) { $("#final").hidden = true; T.finalShown = false; return; }
  const n = playerCount(view);
  const rows = $("#final-scores");
  rows.replaceChildren();
  const order = [...Array(n).keys()].sort((a, b) => (view.scores?.[b] ?? 0) - (view.scores?.[a] ?? 0));
  for (const s of order) {
    const won = (view.winners || []).includes(s);
    rows.append(el("tr", { class: won ? "winner" : "" }, el("td", { text: whoIs(s) }), el("td", { text: String(view.scores?.[s] ?? "?") }), el("td", { text: won ? "wins" : "" })));
  }
  const why = $("#final-why");
  why.replaceChildren();
  const lines = (view.log || []).map(logText);
  let from = lines.length - 1;
  for (let i = lines.length - 1; i >= Math.max(0, lines.length - 12); i--) {
    if (/game (is )?over|game ends|ends:|wins the game|final scores|tie/i.test(lines[i])) from = i;
  }
  const ul = el("ul", { class: "final-lines" });
  for (const l of lines.slice(Math.max(0, from), lines.length)) ul.append(el("li", { text: l }));
  why.append(el("h3", { text: "How it ended" }), ul);
  // A tie on the top score: say the rulebook's tie-break decided (the rule is below).
  const scores = Array.isArray(view.scores) ? view.scores : [];
  const top = Math.max(...scores.filter((x) => typeof x === "number"));
  const tied = scores.map((x, i) => (x === top ? i : -1)).filter((i) => i >= 0);
  if (tied.length > 1) {
    const w = view.winners || [];
    why.append(el("p", { class: "tie", text: w.length === tied.length
      ? `${tied.map(whoIs).join(" and ")} tied on ${top} and the tie-break could not separate them: they share the win.`
      : `${tied.map(whoIs).join(" and ")} tied on ${top}; the rulebook's tie-break gave the win to ${w.map(whoIs).join(" and ")}.` }));
  }
  const endRule = /(end|ending) of (the )?game|game end|ending the game|tie|winner|scoring/i;
  const tieSecs = ((T.help && T.help.sections) || []).filter((s) => (s.decisions || []).includes("game-over") || endRule.test(s.title));
  for (const s of tieSecs.slice(0, 2)) {
    const d = el("details", {}, el("summary", { text: `Rulebook: ${s.title}` }));
    for (const para of String(s.text).split(/\n\s*\n/)) d.append(el("p", { text: para.trim() }));
    why.append(d);
  }
  const setup = store.setup(T.id);
  $("#again-btn").hidden = !(setup && T.seat !== null);
  $("#replay-link").href = `/tables/${T.id}/replay`;
  if (!T.finalShown) { T.finalShown = true; $("#final").hidden = false; }
}

async function playAgain() {
  const setup = store.setup(T.id);
  if (!setup) return;
  const { away, ...body } = setup;
  const made = await createTable(body, away || []);
  if (made.error) { showError(made.error); return; }
  location.assign(made.url);
}

// Hot-seat: when the seat to move is another seat this browser holds, switch
// to it; with a hand-over screen first when that seat has secrets to see.
async function maybeHandOver() {
  const view = T.view;
  if (!view || view.over || T.seat === null || T.switching) return;
  const toMove = view.to_move || [];
  if (toMove.includes(T.seat)) return;
  // A held seat marked away (see noteAway) is a friend's: this page leaves it alone, even while the
  // friend reloads. A seat that shows connected is not switched to either (this page holds one
  // connection, its current seat's: the seat is live elsewhere, or this page's socket is closing).
  const live = (s) => { const k = seatKind(view, s); return Boolean(k && k.kind === "human" && k.connected === true); };
  const next = toMove.find((s) => T.tokens[s] !== undefined && s !== T.seat && !T.away.has(s) && !live(s));
  if (next === undefined) return;
  T.switching = true;
  try {
    const [mine, spec, prev] = await Promise.all([
      api("GET", `/api/tables/${T.id}`, { token: T.tokens[next] }),
      api("GET", `/api/tables/${T.id}`),
      api("GET", `/api/tables/${T.id}`, { token: T.token }),
    ]);
    if (mine.status !== 200) { delete T.tokens[next]; store.setTokens(T.id, T.tokens); return; }
    const nextView = unwrapView(mine.data);
    const specView = spec.status === 200 ? unwrapView(spec.data) : null;
    const prevView = prev.status === 200 ? unwrapView(prev.data) : null;
    // A hand-over when the next seat sees something a spectator does not, and the player now at
    // the screen does not see it either.
    const secret = !specView || !prevView || (hasSecrets(nextView.observation, specView.observation)
      && hasSecrets(nextView.observation, prevView.observation));
    if (!secret) { await switchTo(next, nextView); return; }
    // Hide this seat's view before the next player looks at the screen: no more pushes for it,
    // and a spectator's table behind the (opaque) hand-over screen.
    T.wsGen++;
    if (T.ws) { try { T.ws.close(); } catch { /* already closed */ } }
    T.queue = [];
    leaveSeat();
    T.seat = null;
    T.token = null;
    if (!(specView && await accept(specView))) {
      // A push newer than that spectator's view came first: fetch a spectator's view again (newer still).
      const again = await api("GET", `/api/tables/${T.id}`);
      if (again.status === 200) await accept(unwrapView(again.data));
    }
    $("#board").classList.add("covered");
    $("#handover-text").textContent = `${seatName(next)}, it is your turn. Everyone else, look away: ${seatName(next)} has cards or secrets on the screen.`;
    $("#handover-btn").textContent = `I am ${seatName(next)}: show my table`;
    $("#handover").hidden = false;
    document.body.dataset.handover = String(next);
    $("#handover-btn").focus();
    await new Promise((resolve) => { T.handoverGo = resolve; });
    $("#handover").hidden = true;
    delete document.body.dataset.handover;
    $("#board").classList.remove("covered");
    const fresh = await api("GET", `/api/tables/${T.id}`, { token: T.tokens[next] });
    await switchTo(next, fresh.status === 200 ? unwrapView(fresh.data) : nextView);
  } finally { T.switching = false; }
}

async function switchTo(seat, view) {
  if (seat !== T.seat) leaveSeat();
  T.seat = seat;
  T.token = T.tokens[seat];
  const url = new URL(location.href);
  url.searchParams.set("token", T.token);
  history.replaceState(null, "", url);
  T.queue = [];
  T.lastLog = [];
  $("#log").replaceChildren();
  connect();
  await accept(view);
}

function showError(msg) { const e = $("#error"); e.textContent = msg; e.hidden = false; }
function hideError() { const e = $("#error"); e.hidden = true; e.textContent = ""; }

// ---------------------------------------------------------------- replay
const R = { id: null, step: 0, total: 0, busy: false, want: null, cssSet: false };

async function replayPage() {
  R.id = document.body.dataset.table;
  $("#step-first").addEventListener("click", () => go(0));
  $("#step-back").addEventListener("click", () => go(R.step - 1));
  $("#step-fwd").addEventListener("click", () => go(R.step + 1));
  $("#step-last").addEventListener("click", () => go(R.total));
  $("#step-range").addEventListener("change", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === "ArrowRight") { e.preventDefault(); go(R.step + 1); }
    if (e.key === "ArrowLeft") { e.preventDefault(); go(R.step - 1); }
  });
  const s = Number(params.get("step"));
  await go(Number.isInteger(s) && s >= 0 ? s : 0, true);
}

async function go(step, force = false) {
  step = Math.max(0, R.total ? Math.min(R.total, step) : step);
  if (step === R.step && !force) return;
  R.want = step;
  if (R.busy) return;
  R.busy = true;
  try {
    while (R.want !== null) {
      const target = R.want;
      R.want = null;
      const res = await api("GET", `/web/tables/${R.id}/replay/${target}`);
      if (res.status !== 200) {
        $("#status").textContent = res.status === 403
          ? "This table is still running: its record opens when the game ends (it would reveal every die to come)."
          : `No replay: ${res.message}`;
        break;
      }
      const v = res.data;
      if (!R.cssSet) { $("#board-css").href = `/static/games/${v.game}/board.css`; R.cssSet = true; }
      R.step = v.step; R.total = v.total;
      $("#total").textContent = String(v.total);
      $("#step-range").max = String(v.total);
      $("#board").innerHTML = boardFor(v);
      fitBoard();
      const st = $("#step");
      st.textContent = String(v.step); st.dataset.version = String(v.step);
      $("#step-range").value = String(v.step);
      $("#last-move").textContent = v.last ? `Step ${v.step}: ${v.last.player} — ${v.last.label}` : "The table as set up.";
      $("#status").textContent = v.over ? `Game over. Scores: ${v.scores.map((x, i) => `${seatName(i)} ${x}`).join(", ")}` : (v.prompt || "");
      const ol = $("#log");
      ol.replaceChildren(...v.log.slice(-200).map((l) => el("li", { text: l })));
      const pane = ol.parentElement; pane.scrollTop = pane.scrollHeight;
      const url = new URL(location.href); url.searchParams.set("step", String(v.step)); history.replaceState(null, "", url);
    }
  } finally { R.busy = false; }
}

// ---------------------------------------------------------------- start
const page = document.body.dataset.page;
const start = { lobby: lobbyPage, table: tablePage, replay: replayPage }[page];
if (start) start().catch((err) => { console.error(err); const e = $("#error") || $("#create-error"); if (e) { e.hidden = false; e.textContent = `page error: ${err.message}`; } });
