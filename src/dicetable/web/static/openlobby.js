// The open lobby and My tables on the lobby page. The open lobby lists the listed tables with open
// seats (GET /api/lobby, filtered by game, players, clock and rated); "Take a seat" claims one in
// one click (POST /api/lobby/{id}/join: a fresh token kept in this browser) and opens the table.
// My tables lists every table this browser (its seat tokens) or the signed-in account sits at,
// theirs to move first (POST /api/my-tables); the page title counts them, and a browser
// notification tells of a new one when the player allowed it. The host of a listed table can
// start it with bots in the seats still open.

import { $, el, seatName, store } from "./dom.js";
import { api, session } from "./api.js";
import { notify, wireNotifyButton } from "./notify.js";

const TOKENS = "dicetable.tokens.";
const EVERY = 30000;  // My tables is asked again every 30 s while the page is in sight

let names = {};
const PHONE = matchMedia("(max-width: 760px)");  // the lobby's one column (dicetable.css)
let listed = false;  // My tables lists a table

// On a phone (one column) My tables, when it lists a table, comes before the New table form: a
// returning player's "your move" on the first screen, not 1,500 px down. It is moved in the page
// itself, so a screen reader and the Tab key meet it in the order seen; a wide screen keeps it at the
// top of the right-hand column.
function placeMine() {
  const panel = $("#my-tables-panel");
  const form = $(".new-table");
  const side = $(".lobby-side");
  if (!panel || !form || !side) return;
  if (PHONE.matches && listed) {
    if (panel.nextElementSibling !== form) form.before(panel);
  } else if (panel.parentElement !== side) {
    side.prepend(panel);
  }
}

// Starts both panels: ``games`` the registry's list, ``presets`` the clock presets.
export function openLobby(games, presets) {
  names = Object.fromEntries(games.map((g) => [g.id, g.name || g.id]));
  const game = $("#lobby-game");
  for (const g of games) game.append(el("option", { value: g.id, text: g.name || g.id }));
  const clock = $("#lobby-clock");
  for (const p of presets) if (p && p.id) clock.append(el("option", { value: p.id, text: p.name || p.id }));
  for (const sel of ["#lobby-game", "#lobby-players", "#lobby-clock", "#lobby-rated"]) $(sel).addEventListener("change", drawLobby);
  $("#lobby-refresh").addEventListener("click", () => { drawLobby(); drawMine(); });
  wireNotifyButton($("#notify-me"), $("#notify-state"));
  listed = Object.keys(heldTokens()).length > 0;  // the likely answer, placed before the list comes
  placeMine();
  PHONE.addEventListener("change", placeMine);
  drawLobby();
  drawMine();
  setInterval(() => { if (document.visibilityState === "visible") drawMine(); }, EVERY);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") drawMine(); });
  // back to the lobby from a table (the browser's page cache keeps the old list): asked again
  addEventListener("pageshow", (ev) => { if (ev.persisted) drawMine(); });
}

// My tables asked again now: the lobby has just created a table (its seats' tokens are kept), or a
// friend has taken an invited seat. The list is otherwise asked every 30 s.
export function refreshMine() {
  return drawMine();
}

// Every seat token this browser keeps for a seat it plays: {table id: {seat: token}} (not the seats
// whose links went to friends or to the open lobby).
function heldTokens() {
  const out = {};
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(TOKENS)) continue;
    const id = key.slice(TOKENS.length);
    const away = store.away(id);
    out[id] = Object.fromEntries(Object.entries(store.tokens(id)).filter(([seat]) => !away.has(Number(seat))));
  }
  return out;
}

// A duration in words, for "waiting 3 h" and "2 days left".
function ago(secs) {
  secs = Math.max(0, secs);
  if (secs >= 2 * 86400) return `${Math.floor(secs / 86400)} days`;
  if (secs >= 3600) return `${Math.floor(secs / 3600)} h`;
  if (secs >= 60) return `${Math.floor(secs / 60)} min`;
  return "a moment";
}

async function drawLobby() {
  const body = $("#lobby-tables");
  const q = new URLSearchParams();
  for (const [key, sel] of [["game", "#lobby-game"], ["players", "#lobby-players"], ["clock", "#lobby-clock"], ["rated", "#lobby-rated"]]) {
    if ($(sel).value) q.set(key, $(sel).value);
  }
  const res = await api("GET", `/api/lobby${q.toString() ? `?${q}` : ""}`);
  body.replaceChildren();
  if (res.status !== 200) { body.append(el("li", { class: "error", text: res.message })); return; }
  const rows = res.data.tables || [];
  if (!rows.length) { body.append(el("li", { class: "muted", text: "no table is waiting for players; create one and tick \"list it in the open lobby\"" })); return; }
  const mine = heldTokens();
  const guest = !(await session()).name;
  for (const t of rows) {
    const seats = t.seats.map((s) => (s.open ? "open" : s.kind === "bot" ? `${s.level} bot` : s.name)).join(", ");
    const clock = t.clock === "none" ? "no clock" : t.clock_kind === "turn-based" ? `turn-based (${t.clock})` : `live (${t.clock})`;
    const join = el("button", { type: "button", class: "primary", "data-join": t.table_id, text: "Take a seat" });
    const held = mine[t.table_id] && Object.keys(mine[t.table_id]).length;
    if (held) { join.disabled = true; join.textContent = "you sit here"; }
    join.addEventListener("click", () => takeSeat(t.table_id, join));
    // a rated table seats signed-in players only: a guest is told before clicking, and led to sign in
    const take = t.rated && guest && !held
      ? el("a", { class: "button primary", href: "/account", "data-sign-in-to-join": t.table_id, text: "Sign in to take a seat" })
      : join;
    body.append(el("li", { class: "lobby-row", "data-lobby-table": t.table_id },
      el("div", {}, el("strong", { text: names[t.game] || t.game }), ` · ${t.players} players · ${clock}${t.rated ? " · rated" : ""}`),
      el("div", { class: "muted small", text: `seats: ${seats}` }),
      el("div", { class: "links" }, take, " ", el("a", { class: "button", href: `/tables/${t.table_id}`, text: "Watch" }))));
  }
}

async function takeSeat(id, button) {
  button.disabled = true;
  const res = await api("POST", `/api/lobby/${id}/join`, { body: {} });
  if (res.status !== 200) {
    button.disabled = false;
    button.textContent = "Take a seat";
    $("#lobby-error").textContent = res.message;
    drawLobby();
    return;
  }
  store.setTokens(id, { ...store.tokens(id), [res.data.seat]: res.data.token });
  location.assign(`/tables/${id}#token=${res.data.token}`);
}

let shown = null;  // the tables last shown as "your move" (null: not asked yet)

// " vs Ada, easy bot": the other seats of a My tables entry, by name (names are put in as text)
function vs(t) {
  const others = (t.names || []).filter((_, s) => s !== t.seat);
  return others.length ? ` vs ${others.join(", ")}` : "";
}

async function drawMine() {
  const held = heldTokens();
  const tokens = [];
  for (const byId of Object.values(held)) tokens.push(...Object.values(byId));
  const res = await api("POST", "/api/my-tables", { body: { tokens: tokens.slice(-100) } });
  const list = $("#my-tables");
  if (res.status !== 200) { list.replaceChildren(el("li", { class: "error", text: res.message })); return; }
  const rows = res.data.tables || [];
  list.replaceChildren();
  if (!rows.length) list.append(el("li", { class: "muted", text: "you sit at no table yet" }));
  listed = rows.length > 0;
  placeMine();
  const now = Date.now() / 1000;
  const yours = new Set();
  for (const t of rows) {
    const token = (held[t.table_id] || {})[t.seat];
    const url = `/tables/${t.table_id}${token ? `#token=${token}` : ""}`;
    const state = t.status !== "running" ? t.status
      : t.your_move ? `your move, waiting ${ago(now - t.waiting_since)}${t.deadline ? ` · ${ago(t.deadline - now)} left` : ""}`
        : `waiting for ${t.to_move.map((s) => (t.names && t.names[s]) || seatName(s)).join(", ") || "the next move"}`;
    const links = el("div", { class: "links" }, el("a", { class: `button${t.your_move ? " primary" : ""}`, href: url, text: t.your_move ? "Play" : "Open" }));
    if (t.host && t.open_seats > 0 && token) {
      const start = el("button", { type: "button", "data-start": t.table_id, text: `Start now: bots in ${t.open_seats} open ${t.open_seats === 1 ? "seat" : "seats"}` });
      start.addEventListener("click", async () => {
        start.disabled = true;
        const r = await api("POST", `/api/lobby/${t.table_id}/start`, { token, body: {} });
        if (r.status !== 200) { start.disabled = false; $("#lobby-error").textContent = r.message; }
        drawMine(); drawLobby();
      });
      links.append(" ", start);
    }
    if (t.your_move) yours.add(t.table_id);
    list.append(el("li", { class: `mine-row${t.your_move ? " your-move" : ""}`, "data-my-table": t.table_id, "data-your-move": t.your_move ? "1" : "0" },
      el("div", {}, el("strong", { text: names[t.game] || t.game }), ` · ${t.name || seatName(t.seat)}${vs(t)}${t.rated ? " · rated" : ""}${t.turn_based ? " · turn-based" : ""}${t.forfeited ? " · forfeited" : ""}`),
      el("div", { class: "small", text: state }), links));
    if (shown !== null && t.your_move && !shown.has(t.table_id)) {
      notify("Your move", `${names[t.game] || t.game}: it is your move`, `${t.table_id}:${t.seat}`, url);
    }
  }
  shown = yours;
  $("#my-count").textContent = yours.size ? `(${yours.size} your move)` : "";
  document.title = yours.size ? `(${yours.size}) your move · dicetable` : "dicetable";
}
