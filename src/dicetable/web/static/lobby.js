// The lobby: a new table (game, options, seats, clock, seed) and the open tables to rejoin,
// watch or replay. Options are shown in the rulebook's words with a line on what each changes,
// each bot level with what it does, each game with its "how to play" card. A table with seats
// for friends elsewhere opens the invite panel: one link per human seat (copy, QR code),
// the spectator link and who has joined. Also creates tables for the table page's "play again".

import { $, $$, el, params, sameJSON, seatName, store } from "./dom.js";
import { api, session } from "./api.js";
import { drawHowto, rememberHowto } from "./howto.js";
import { openLobby, refreshMine } from "./openlobby.js";

const BOT_LEVELS = ["random", "greedy", "easy", "medium", "hard"];
let gameNames = {};  // game id -> name, for the table list

export async function lobbyPage() {
  const [res, guideRes] = await Promise.all([api("GET", "/api/games"), api("GET", "/web/guide")]);
  const guide = guideRes.status === 200 && guideRes.data ? guideRes.data : { bots: {}, howto: {} };
  rememberHowto(guide.howto);
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
    $("#howto-game").textContent = g.name || g.id;
    $("#howto-game-link").textContent = g.name || g.id;
    drawHowto($("#howto-card"), guide.howto[g.id] || null);
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
      // the values allowed at this player count (a first player: only seats that exist), else the fixed ones
      const choices = (o.choices_by_players && o.choices_by_players[String(n)]) || o.choices;
      if (Array.isArray(choices) && choices.length) {
        input = el("select", { id, "data-option": o.name });
        choices.forEach((c, i) => input.append(el("option", { value: i, text: String(c), selected: sameJSON(c, o.default) })));
        input._choices = choices;
      } else if (typeof o.default === "boolean") {
        input = el("select", { id, "data-option": o.name });
        [false, true].forEach((c, i) => input.append(el("option", { value: i, text: String(c), selected: c === o.default })));
        input._choices = [false, true];
      } else {
        input = el("input", { id, "data-option": o.name, value: o.default ?? "", size: 14 });
        input._number = typeof o.default === "number";
      }
      // The rulebook's words for the option, and one line on what it changes in play.
      box.append(el("label", { class: "row", for: id, title: o.description || "" }, `${o.label || o.name.replaceAll("_", " ")} `, input));
      const help = o.explanation || o.description;
      if (help) box.append(el("p", { class: "muted small opt-help", id: `${id}-help`, text: help }));
      if (help) input.setAttribute("aria-describedby", `${id}-help`);
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
      for (const lv of levels) sel.append(el("option", { value: `bot:${lv}`, text: `bot (${lv})`, title: (guide.bots[lv] || {}).what }));
      sel.value = s === 0 ? "human" : "bot:greedy";
      box.append(el("label", { class: "row", for: `seat-${s}` }, `${seatName(s)} `, sel));
    }
  };
  const levelList = $("#bot-level-list");
  for (const lv of levels) {
    const b = guide.bots[lv];
    if (b) levelList.append(el("dt", { text: lv }), el("dd", { text: `${b.what}; ${b.strength}.` }));
  }
  $("#bot-levels").hidden = !levelList.children.length;
  const presets = drawClocks((res.data && res.data.clock_presets) || []);
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
    // signed in, the first human seat is the host's account's (My tables finds it from any browser);
    // rated: listed, and the other human seats go to signed-in players
    const rated = $("#rated").checked;
    const me = await session();
    if (rated && !me.name) { err.textContent = "sign in to create a rated table"; return; }
    const listed = rated || $("#listed").checked;  // listed: every human seat but the first (the host's) is open to anyone
    for (const sel of $$("[data-seat]")) {
      const host = sel.value.startsWith("human") && !body.seats.some((x) => x.kind === "human");
      const open = listed && sel.value.startsWith("human") && !host;
      if (sel.value === "human:away" || open) away.push(Number(sel.dataset.seat));
      const seat = sel.value.startsWith("human") ? { kind: "human" } : { kind: "bot", level: sel.value.slice(4) };
      if (host && me.name) seat.player = me.name;
      body.seats.push(seat);
    }
    const seed = $("#seed").value.trim();
    if (seed) {
      // The largest seed the server takes comes with the page (the field's data-max: its MAX_SEED, 2**64-1);
      // a seed past 2**53 stays a BigInt, as a JS Number would lose its last digits.
      const max = $("#seed").dataset.max;
      if (!/^\d+$/.test(seed) || BigInt(seed) > BigInt(max)) {
        err.textContent = `the seed is a whole number from 0 to ${max} (or leave it empty for a random one)`;
        return;
      }
      body.seed = BigInt(seed) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seed) : BigInt(seed);
    }
    if (listed) body.listed = true;
    if (rated) body.rated = true;
    const preset = presets[$("#clock").value];
    for (const key of CLOCK_FIELDS) if (preset && preset[key] != null) body[key] = preset[key];
    $("#create").disabled = true;
    const made = await createTable(body, away);
    $("#create").disabled = false;
    if (made.error) { err.textContent = made.error; return; }
    if (away.length) { showInvites(made, away); return; }
    location.assign(made.url);
  });
  // the Rated box is for signed-in players only
  session().then((me) => { $("#rated").disabled = !me.name; });
  gameNames = Object.fromEntries(list.map((g) => [g.id, g.name]));
  drawOpenTables();
  openLobby(list, (res.data && res.data.clock_presets) || []);
}

const CLOCK_FIELDS = ["bank", "increment", "bank_max", "clock"];
const DAY = 24 * 3600;

// A duration in words: "45 s", "10 min", "1 h", "3 days".
function spoken(secs) {
  if (secs >= DAY && secs % DAY === 0) return secs === DAY ? "1 day" : `${secs / DAY} days`;
  if (secs >= 3600 && secs % 3600 === 0) return `${secs / 3600} h`;
  if (secs >= 60 && secs % 60 === 0) return `${secs / 60} min`;
  return `${secs} s`;
}

// One line on what a clock preset means for the players: live (everyone at the table together)
// or turn-based (no need to be online together), and how the time is counted.
function clockHelp(p) {
  if (!p) return "no clock: take as long as you like over every turn";
  if (p.clock != null) return `live: each decision has ${spoken(p.clock)}, fresh every time; play together at the table`;
  const keep = p.bank_max != null ? `, keeping at most ${spoken(p.bank_max)}` : "";
  if (p.increment >= 12 * 3600) {
    return `turn-based: ${spoken(p.bank)} for your first turn and ${spoken(p.increment)} more after each${keep}; ` +
      "no need to be online together, come back when it is your turn";
  }
  return `live: ${spoken(p.bank)} in your bank for the whole game, ${spoken(p.increment)} added after each turn${keep}; ` +
    "play together at the table";
}

// Fills the clock menu with the server's presets (``clock_presets`` of GET /api/games) after
// "no clock", with the line explaining the chosen one; answers {preset id: preset}.
function drawClocks(list) {
  const sel = $("#clock");
  const byId = {};
  for (const p of list) {
    if (!p || !p.id) continue;
    byId[p.id] = p;
    sel.append(el("option", { value: p.id, text: p.name || p.id }));
  }
  const explain = () => { $("#clock-help").textContent = clockHelp(byId[sel.value]); };
  sel.addEventListener("change", explain);
  explain();
  return byId;
}

// Creates a table, keeps its human seat tokens, the seats played elsewhere (``away``: their
// links go to friends) and the set-up; answers the page to open (the first seat played here).
export async function createTable(body, away = []) {
  const res = await api("POST", "/api/tables", { body });
  if (res.status !== 200 && res.status !== 201) return { error: res.message };
  const id = res.data.table_id;
  const tokens = {};
  const invites = {};
  for (const s of res.data.seats || []) {
    if (s.token) tokens[s.seat] = s.token;
    if (s.token && s.link && s.link.includes("#invite=")) invites[s.seat] = s.link;
  }
  store.setTokens(id, tokens);
  store.setInvites(id, invites);
  const setup = { ...body };
  delete setup.seed;
  setup.away = away;
  store.setSetup(id, setup);
  store.setAway(id, away);
  const held = Object.keys(tokens).map(Number).sort((a, b) => a - b);
  const first = held.find((s) => !away.includes(s)) ?? held[0];
  const pace = params.get("pace");
  const query = pace !== null ? `?pace=${encodeURIComponent(pace)}` : "";
  const url = first === undefined || away.includes(first) ? `/tables/${id}${query}` : `/tables/${id}${query}#token=${tokens[first]}`;
  return { url, id, seats: res.data.seats || [] };
}

// ---------------------------------------------------------------- the invite panel
// After creating a table with seats for friends elsewhere: one link per human seat (the
// creation answer's invite, claimed once), a copy button and a QR code each, the spectator
// link, and who has joined so far (the table's public view, asked every few seconds while the
// panel is in sight).
function showInvites(made, away) {
  $("#new-table").hidden = true;
  $("#created").hidden = false;
  const list = $("#seat-links");
  list.replaceChildren();
  for (const s of made.seats) {
    if (s.kind !== "human" || !s.link) continue;
    const name = s.name || seatName(s.seat);
    const url = new URL(s.link, location.origin).href;
    const here = !away.includes(s.seat);
    // a signed-in host's own seat is their account's: its "link" is the table's bare address, no invite
    const own = !s.link.includes("#invite=") && !s.link.includes("#token=");
    const input = el("input", { readonly: true, value: url, "aria-label": `${name}'s link`, "data-invite-link": s.seat });
    const copy = el("button", { type: "button", class: "copy", text: "Copy" });
    copy.addEventListener("click", () => copyText(input, copy));
    const state = el("span", { class: "state", "data-seat-state": s.seat,
      text: own ? "your seat (your account's)" : here ? "this screen (hot-seat)" : "waiting for a friend" });
    const li = el("li", { class: "invite", "data-invite": s.seat },
      el("div", {}, el("span", { class: "who", text: name }), " · ", state),
      el("div", { class: "link-row" }, input, copy));
    if (own) li.append(el("p", { class: "muted small", text: "Your own seat: you play it wherever you are signed in. This link is the table's address: whoever opens it only watches (it gives no seat away)." }));
    else if (here) li.append(el("p", { class: "muted small", text: "Played on this screen; send its link only to give the seat away." }));
    list.append(li);
    qrImage(url, name).then((img) => { if (img) li.append(img); });
  }
  const watch = $("#watch-link");
  watch.value = new URL(`/tables/${made.id}`, location.origin).href;
  const watchCopy = $("#watch-copy");
  watchCopy.addEventListener("click", () => copyText(watch, watchCopy));
  const open = $("#open-table");
  open.href = made.url;
  open.textContent = made.url.includes("#token=") ? "Open my table" : "Watch the table";
  $("#created-h").focus();
  watchJoins(made.id, away);
  drawOpenTables();
  refreshMine();  // the new table is the host's: My tables lists it at once, not after a reload
}

// The QR code of ``url`` as an <img> (the server draws it; the link goes in the request's body,
// never its address, so no server log holds an invite); null when it cannot be drawn.
async function qrImage(url, name) {
  try {
    const resp = await fetch("/api/qr", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: url }) });
    if (!resp.ok) return null;
    const svg = await resp.text();
    return el("img", { class: "qr", src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, alt: `QR code of ${name}'s link`, "data-qr": "" });
  } catch { return null; }
}

async function copyText(input, button) {
  let done = false;
  try { await navigator.clipboard.writeText(input.value); done = true; } catch { /* not a secure context */ }
  if (!done) { input.select(); try { done = document.execCommand("copy"); } catch { done = false; } }
  button.textContent = done ? "Copied" : "Select and copy";
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
}

// Who has joined: each invited seat's ``claimed`` (and ``connected``) from the table's public view,
// asked every 3 s while the panel is shown and the page visible, until every friend has joined
// (at most for 30 minutes).
function watchJoins(id, away) {
  const until = Date.now() + 30 * 60 * 1000;
  const tick = async () => {
    if ($("#created").hidden || Date.now() > until) return;
    if (document.visibilityState === "visible") {
      const res = await api("GET", `/api/tables/${id}`);
      const seats = res.status === 200 && res.data && Array.isArray(res.data.seats) ? res.data.seats : [];
      let joined = 0;
      const before = $("#joined").textContent;
      for (const k of seats) {
        const state = document.querySelector(`[data-seat-state="${k.seat}"]`);
        if (!state || !away.includes(k.seat)) continue;
        if (k.claimed) joined += 1;
        state.textContent = k.claimed ? (k.connected ? "joined, at the table" : "joined") : "waiting for a friend";
        state.classList.toggle("joined", Boolean(k.claimed));
      }
      if (seats.length) $("#joined").textContent = `${joined} of ${away.length} invited ${away.length === 1 ? "seat" : "seats"} taken`;
      if (joined && $("#joined").textContent !== before) refreshMine();  // who the host now plays against
      if (seats.length && joined === away.length) return;
    }
    setTimeout(tick, 3000);
  };
  tick();
}

async function drawOpenTables(names = gameNames) {
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
    if (mine.length) links.append(el("a", { href: `/tables/${id}#token=${tokens[mine[0]]}`, class: "button", text: "Rejoin" }), " ");
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

