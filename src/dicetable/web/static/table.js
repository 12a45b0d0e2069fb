// The table page: one seat's (or a spectator's) live table. Its first view and every
// later version come over the table's WebSocket (api.js Live) into the version queue
// (queue.js), which shows them in order and at the table's pace; this module draws them.
// HTTP is the fallback when the socket cannot open. It holds no rule and no secret.

import { $, $$, el, fmtSecs, hasSecrets, logText, morph, params, sameJSON, seatName, store, wireTabs } from "./dom.js";
import { Live, api, errorText, unwrapView } from "./api.js";
import { VersionQueue, keyOf, keyText } from "./queue.js";
import { clearMarks, effectsOf, motionAllowed, noteRects, play } from "./animate.js";
import { boardFor, counterText, fillSlots, fitBoard, keepFullSize, swapParts, watchFit } from "./board.js";
import { catchUp, chatMessage, startChat } from "./chat.js";
import { drawHowto, howtoOf } from "./howto.js";
import { turnNotice } from "./notify.js";
import { bringInSight, decisionShown, watchGestures } from "./reach.js";

const T = {
  id: null, token: null, seat: null, tokens: {}, away: new Set(), leaving: new Set(), view: null,
  live: null, busy: false, help: null, pace: 700, fast: false, switching: false, logCount: 0, logLast: null, canHint: null,
  finalShown: false, clockTimer: null, bankWarned: new Set(), hintFor: null, own: new Set(), retry: 0, game: null, rulesKey: null,
  firstView: null, queue: null, gameName: null, claimRefused: null,
};

const currentKey = () => (T.view ? keyOf(T.view) : [0, -1]);
const shownVersion = () => (T.view ? T.view.version : -1);
// The viewer's seat is to move in ``view`` (a game not over).
const isMine = (view) => T.seat !== null && (view.to_move || []).includes(T.seat) && !view.over;

export async function tablePage() {
  T.id = document.body.dataset.table;
  T.token = params.get("token") || null;
  T.tokens = store.tokens(T.id);
  if (params.get("invite")) await claimInvite(params.get("invite"));
  T.away = store.away(T.id);
  const pace = params.get("pace");
  if (pace !== null && /^\d+$/.test(pace)) T.pace = Number(pace);
  T.fast = store.fast();
  T.queue = new VersionQueue({
    show,
    send: (msg) => Boolean(T.live && T.live.send(msg)),
    isOwn: (key) => T.own.has(keyText(key)),
    pace: () => (T.fast ? 0 : T.pace),
    fast: () => T.fast,
  });
  wireTable();
  watchGestures();
  startChat(T.id, () => T.token);
  connect();
  // A seat link or invite of this table followed from this page (the panel's "seat link" or "invite
  // link", or one pasted in the address bar) only changes the address's fragment: the browser does
  // not load the page again, so do it, and the page plays (or claims) that seat as on a fresh visit.
  window.addEventListener("hashchange", () => {
    const next = new URLSearchParams(location.hash.slice(1));
    if (next.get("invite") || (next.get("token") && next.get("token") !== T.token)) location.reload();
  });
}

// ---------------------------------------------------------------- the live connection
// Opens the socket of the page's viewer; its first message is the whole view. A socket that
// cannot open falls back to one HTTP view and tries again later; one that drops reconnects
// (the new socket's first view brings the page up to date).
function connect() {
  if (T.live) T.live.close();
  let refused = null;
  let subscribed = false;
  const live = new Live(T.id, T.token, {
    onMessage: (msg) => {
      if (msg.type === "error" || (msg.error && msg.version === undefined)) { refused = msg; return; }
      if (!subscribed) {
        // The server sends a socket's first view once it has joined the table's pushes: only then
        // is the socket "open" for the page, and the chat fetched (one posted between the socket's
        // handshake and its joining would come neither way).
        subscribed = true;
        document.body.dataset.live = "open";
        catchUp();
      }
      if (msg.type === "chat") { chatMessage(msg.message); return; }  // not a version: beside the queue
      if (msg.type === "view" && (typeof msg.seat === "number" ? msg.seat : null) !== T.seat) {
        // The first view tells which seat a token is (a seat link opened here), or, without a token,
        // which seat the signed-in account holds here (the server reads its sign-in cookie).
        if (T.view === null && T.seat === null) adoptSeat(msg.seat);
        else return;
      }
      T.retry = 0;
      T.queue.receive(msg);
    },
    onClose: (delivered) => {
      if (T.live !== live) return;
      document.body.dataset.live = "closed";
      if (refused) { liveRefused(refused); return; }
      T.retry = Math.min(T.retry + 1, 6);
      if (!delivered) refresh();  // the socket cannot open (or brings nothing): the table over HTTP meanwhile
      setTimeout(() => { if (T.live === live) connect(); }, delivered ? 1000 : 1000 * T.retry);
    },
  });
  T.live = live;
}

function liveRefused(msg) {
  const status = msg.status || 0;
  if ((status === 401 || status === 403) && T.token) {
    // the page's own words: the API's answer names the table and the token's cases, too long for a phone
    showError("This seat link holds no seat here (it may have been revoked): you are watching as a spectator. "
      + "Open your seat's own link to play.");
    T.token = null;
    T.seat = null;
    connect();
  } else if (status === 404 || !T.view) {
    // A person reads this, not an API client: no endpoint names, and a way back to the lobby.
    const why = status === 404 ? `There is no table ${T.id} here: check the link, or pick a table in the lobby.`
      : `This table cannot be shown now (${errorText(msg, status)}).`;
    $("#status").replaceChildren(why, " ", el("a", { href: "/", text: "Go to the lobby" }));
    if (status === 404) document.body.dataset.missing = "";  // no board, tabs, chat or tools for no table
    if (status !== 404) setTimeout(connect, 1000 * Math.max(2, Number(msg.retry_after) || 5));
  } else {
    showError(errorText(msg, status));
    setTimeout(connect, 1000 * Math.max(2, Number(msg.retry_after) || 5));
  }
}

// A seat link opened here is an invite: claim the seat (a fresh token for this screen; the link and
// the creator's copy of the token stop working), and keep the token in the address's fragment.
async function claimInvite(invite) {
  const res = await api("POST", `/api/tables/${T.id}/claim`, { body: { invite } });
  const url = new URL(location.href);
  const rest = new URLSearchParams(url.hash.slice(1));
  rest.delete("invite");
  if (res.status === 200) {
    T.token = res.data.token;
    rest.set("token", T.token);
    // kept at once, not only with the first view: a player who leaves the page before it comes
    // (to sign in, say) still holds the seat in this browser
    if (typeof res.data.seat === "number") {
      T.tokens[res.data.seat] = T.token;
      store.setTokens(T.id, T.tokens);
    }
  } else {
    // what the page does next is known only with its first view (a signed-in player's own seat here, or
    // a spectator's table): the banner is written then (explainClaim)
    T.claimRefused = res.message;
  }
  url.hash = rest.toString();
  history.replaceState(null, "", url);
}

// An invite this page could not claim, said with what the page does instead (its first view): a
// signed-in player who sits here already plays their own seat; anyone else watches.
function explainClaim(view) {
  const why = T.claimRefused;
  T.claimRefused = null;
  if (typeof view.seat === "number") {
    showError(`That invite gives you no other seat: you sit at this table already, and this page plays your own seat (${seatName(view.seat)}).`);
  } else {
    showError(`This seat link cannot be used (${why}); you are watching as a spectator.`);
  }
}

// The seat of the page's token, learnt from its first view: kept, and played here again.
function adoptSeat(seat) {
  if (typeof seat !== "number") return;
  T.seat = seat;
  if (!T.token) return;  // an account's seat: the sign-in acts for it, there is no token to keep
  T.tokens[seat] = T.token;
  store.setTokens(T.id, T.tokens);
  if (T.away.delete(seat)) store.setAway(T.id, T.away);
}

// The view over HTTP: the fallback without a socket, and the hot-seat's look at other seats.
async function refresh() {
  catchUp();  // the chat too: no socket brings it meanwhile
  const res = await api("GET", `/api/tables/${T.id}`, { token: T.token });
  const view = res.status === 200 ? unwrapView(res.data) : null;
  if (view) {
    if (T.view === null && T.seat === null) adoptSeat(view.seat);
    if ((typeof view.seat === "number" ? view.seat : null) === T.seat) T.queue.offer(view);
  } else if (res.status === 401 || res.status === 403 || res.status === 404) {
    liveRefused({ status: res.status, detail: res.message });
  }
}

const socketOpen = () => Boolean(T.live && T.live.isOpen);

// An HTTP answer that carries a whole view (an older server, or no socket): shown through the queue.
function offerAnswer(data) {
  const view = unwrapView(data);
  if (view && !socketOpen() && (typeof view.seat === "number" ? view.seat : null) === T.seat) T.queue.offer(view);
}

// ---------------------------------------------------------------- page wiring
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
  wireTabs($("#side-tabs"));
  $("#hint-btn").addEventListener("click", hint);
  $("#undo-btn").addEventListener("click", undo);
  const fast = $("#fast-btn");
  const drawFast = () => fast.setAttribute("aria-pressed", String(T.fast));
  drawFast();
  fast.addEventListener("click", () => {
    T.fast = !T.fast;
    store.setFast(T.fast);
    drawFast();
    if (T.fast) T.queue.hurry();
  });
  $("#final-close").addEventListener("click", () => { $("#final").hidden = true; });
  $("#final .sheet-wrap").addEventListener("scroll", sheetCue, { passive: true });
  window.addEventListener("resize", sheetCue);
  $("#again-btn").addEventListener("click", playAgain);
  $("#handover-btn").addEventListener("click", () => T.handoverGo && T.handoverGo());
  $("#handover-undo").addEventListener("click", undoAtHandOver);
  $("#players").addEventListener("click", async (ev) => {
    const b = ev.target.closest("[data-seat-bot], [data-seat-take], [data-seat-fill]");
    if (!b) return;
    const seat = Number(b.dataset.seatBot ?? b.dataset.seatTake ?? b.dataset.seatFill);
    const what = b.dataset.seatTake !== undefined ? "take" : "bot";
    // an unclaimed invite's seat is handed over with its own token (the host's copy, held here)
    const token = b.dataset.seatFill !== undefined ? T.tokens[seat] : T.token;
    const res = await api("POST", `/api/tables/${T.id}/seats/${seat}/${what}`, { token, body: what === "bot" ? {} : undefined });
    if (res.status === 200) {
      hideError();
      offerAnswer(res.data);
      // the seat's new state is shown at once, not after the versions still waiting their turn (its
      // bot may have played many moves, or the whole game, meanwhile)
      T.queue.rush();
    } else showError(res.message);
  });
  watchFit();
}

// ---------------------------------------------------------------- actions
async function act(actionId) {
  if (T.busy || !T.view) return;
  T.busy = true;
  document.body.dataset.busy = "1";
  hideError();
  try {
    // A choice the game flags (Kingdom of Dice's stop that scores nothing) is sent only once the
    // player says so; a view that changed meanwhile must still ask the same decision and offer it.
    const offer = (T.view.legal_actions || []).find((a) => a.id === actionId);
    if (offer && offer.confirm) {
      const askedIn = T.view;
      if (!(await askFirst(offer.confirm))) return;
      if (T.view !== askedIn && !stillOffered(askedIn, T.view, actionId)) {
        showError(MOVED_ON);
        return;
      }
    }
    // A newer version may be here already, waiting its turn on screen (the table's pace): another
    // seat moved while this one chose (a simultaneous decision, a bot). Show it now, and make the
    // move in it when the same decision still offers this action; posting the shown version would
    // only be refused as stale.
    if (T.queue.behind()) {
      const chosenIn = T.view;
      await T.queue.rush();
      if (!stillOffered(chosenIn, T.view, actionId)) {
        showError(MOVED_ON);
        return;
      }
    }
    await post(actionId);
  } finally {
    T.busy = false;
    delete document.body.dataset.busy;
  }
}

const MOVED_ON = "The table moved on while you chose, so nothing was played: look at it and choose again.";

// Shows ``warning`` in the confirmation dialog; resolves true for "Do it anyway", false for "Choose
// again" or Escape. The safe answer has the focus; the focus goes back where it was.
function askFirst(warning) {
  const box = $("#confirm");
  const back = document.activeElement;
  $("#confirm-text").textContent = warning;
  box.hidden = false;
  $("#confirm-back").focus();
  return new Promise((resolve) => {
    const done = (yes) => {
      box.hidden = true;
      box.removeEventListener("click", onClick);
      box.removeEventListener("keydown", onKey);
      if (back instanceof HTMLElement && back.isConnected) back.focus({ preventScroll: true });
      resolve(yes);
    };
    const onClick = (ev) => {
      if (ev.target.closest("#confirm-go")) done(true);
      else if (ev.target.closest("#confirm-back") || ev.target === box) done(false);
    };
    const onKey = (ev) => {
      if (ev.key === "Escape") { ev.preventDefault(); done(false); }
    };
    box.addEventListener("click", onClick);
    box.addEventListener("keydown", onKey);
  });
}

// True when ``now`` (the newest view) asks this viewer the same decision as ``then`` (the view the
// choice was made in) and still offers ``actionId``.
function stillOffered(then, now, actionId) {
  return Boolean(then && now && isMine(now) && sameJSON(then.decision, now.decision)
    && (now.legal_actions || []).some((a) => a.id === actionId));
}

// Posts ``actionId`` for the version on screen and shows the answer (or says why it was refused).
async function post(actionId) {
  const [undos, version] = currentKey();
  T.own.add(keyText([undos, version + 1]));  // the version this action makes is the page's own
  const res = await api("POST", `/api/tables/${T.id}/actions`,
    { token: T.token, body: { action: actionId, version }, minimal: socketOpen() });
  if (res.status === 200) {
    if (res.data && typeof res.data.version === "number") T.own.add(keyText(keyOf(res.data)));
    if (unwrapView(res.data)) offerAnswer(res.data);
    else if (!socketOpen()) await refresh();
  } else if (res.status === 409) {
    // Someone moved first: the socket brings (or has brought) that; without one, ask again. Say so,
    // or the tap looks ignored (the next action hides the line).
    T.own.delete(keyText([undos, version + 1]));
    showError("Another move reached the table first, so yours was not made: look at the table and choose again.");
    if (!socketOpen()) await refresh();
  } else {
    showError(res.message);
  }
}

// The seat whose last move this page may take back: its own seat's (``can_undo``), or in hot-seat
// play the seat that just moved (``undo_seat``) when this browser holds its token and plays it here.
function undoSeat(view) {
  if (!view || view.over) return null;
  if (T.seat !== null && view.can_undo) return T.seat;
  const s = view.undo_seat;
  return typeof s === "number" && T.tokens[s] !== undefined && !T.away.has(s) ? s : null;
}

async function undo() {
  const seat = undoSeat(T.view);
  if (seat === null) return;
  const [undos, version] = currentKey();
  T.own.add(keyText([undos + 1, version - 1]));
  const res = await api("POST", `/api/tables/${T.id}/undo`, { token: seat === T.seat ? T.token : T.tokens[seat], body: { version }, minimal: socketOpen() });
  if (res.status === 200) {
    if (res.data && typeof res.data.version === "number") T.own.add(keyText(keyOf(res.data)));
    offerAnswer(res.data);
  } else showError(res.message);
}

// ---------------------------------------------------------------- drawing a version
// Draws one queued version (the queue calls it, in order). ``advanced``: a newer version than
// the one on screen (not the same version again). True when it was drawn.
async function show(entry, advanced) {
  const view = entry.view;
  if ((typeof view.seat === "number" ? view.seat : null) !== T.seat) return false;
  if (!advanced && T.view && sameJSON(view, T.view)) return false;
  noteAway(view);
  const first = T.view === null || T.game !== view.game;
  if (first) startGame(view);
  if (T.claimRefused) explainClaim(view);
  const focusedAction = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.action : null;
  const hadFocus = document.activeElement && document.activeElement !== document.body;
  const animateOn = advanced && !T.fast && !first;
  const effects = animateOn ? effectsOf(entry.events) : [];
  const rects = effects.length ? noteRects(effects) : new Map();
  const previous = T.view;
  T.view = view;
  drawBoard(view, entry.changed, previous, advanced);
  drawMoveCounter(view);
  drawActionBar(view);
  drawStatus(view);
  drawPlayers(view);
  drawLog(view);
  drawRules(view);
  drawTools(view);
  drawFinal(view);
  drawRematch(view);
  if (advanced) {
    const ms = Math.min(650, Math.round(T.pace * 0.8));
    play(effects, rects, { ms, motion: motionAllowed() && !T.fast });
  }
  // Keep keyboard users where they were, or on the first action of a new decision.
  const again = focusedAction && document.querySelector(`[data-action="${CSS.escape(focusedAction)}"]`);
  if (again) again.focus({ preventScroll: true });
  else if (!hadFocus || !document.activeElement || document.activeElement === document.body) focusFirstAction();
  // A new decision for this viewer: its controls brought in sight when none is (reach.js).
  decisionShown(isMine(view) && (view.legal_actions || []).length
    ? `${T.seat}:${keyOf(view)[0]}:${(view.decision && view.decision.kind) || ""}` : null);
  if (T.firstView && view.seat === T.firstView.seat) { T.firstView.resolve(); T.firstView = null; }
  if (!T.queue.items.length) setTimeout(maybeHandOver, 0);
  return true;
}

// The focus on the decision's first action (its first control on the page), unless a hand-over,
// the final scores or a confirmation cover the table. A control on the board cannot take the focus while the board is
// hidden for its styles (the first view): the board's styles call this again once it shows.
function focusFirstAction() {
  const firstAction = document.querySelector("#board [data-action], #actionbar [data-action]");
  if (firstAction && $("#handover").hidden && $("#final").hidden && $("#confirm").hidden) firstAction.focus({ preventScroll: true });
}

// The first view of a game: its board styles and rules help.
function startGame(view) {
  T.game = view.game;
  howtoOf(view.game).then((card) => drawHowto($("#howto-card"), card));
  const css = $("#board-css");
  // The board stays hidden until its styles apply (no unstyled flash; nothing measured or tapped too early).
  const href = `/static/games/${encodeURIComponent(view.game)}/board.css`;
  if (css.getAttribute("href") !== href) {
    document.body.dataset.styling = "1";
    const styled = () => {
      delete document.body.dataset.styling;
      fitBoard();
      // the decision that came with the page: its first action takes the focus now that it can, unless
      // the user has put the focus somewhere already
      if (!document.activeElement || document.activeElement === document.body) focusFirstAction();
      bringInSight();
    };
    css.addEventListener("load", styled, { once: true });
    css.addEventListener("error", styled, { once: true });
    css.href = href;
  }
  // the game's name for the tab's title (the view names the game by its id)
  api("GET", "/api/games").then((res) => {
    const spec = res.status === 200 && res.data && Array.isArray(res.data.games)
      ? res.data.games.find((g) => g.id === view.game) : null;
    if (spec && typeof spec.name === "string") {
      T.gameName = spec.name;
      if (T.view) drawStatus(T.view);
    }
  });
  // only the rules that apply to this table's player count and options (no Solo section at 2 players)
  api("GET", `/web/help/${encodeURIComponent(view.game)}?table=${encodeURIComponent(T.id)}`).then((help) => {
    T.help = help.status === 200 ? help.data : { sections: [], components: [] };
    T.rulesKey = null;
    drawComponents();
    if (T.view) drawRules(T.view);
  });
}

// The board: the changed parts swapped into their slots (all of it for a whole view), what the
// viewer chose to look at kept (a sheet tab, an open detail), the changed parts highlighted.
function drawBoard(view, changed, previous, advanced) {
  const board = $("#board");
  // Not when a decision comes to this seat: the board then opens where the seat must act.
  const keepView = !(view.legal_actions || []).length;
  const checked = keepView ? $$("input:checked[id]", board).map((e) => e.id) : [];
  const opened = $$("details[open][id]", board).map((e) => e.id);
  const whole = changed === null || !previous || !view.parts || changed.includes("board") || !board.firstChild;
  let swapped = [];
  if (whole) {
    board.innerHTML = boardFor(view);
    fillSlots(board, view.parts || {});
  } else {
    swapped = swapParts(board, view.parts, changed);
  }
  for (const id of checked) { const e = document.getElementById(id); if (e && board.contains(e)) e.checked = true; }
  for (const id of opened) { const e = document.getElementById(id); if (e && board.contains(e)) e.open = true; }
  if (advanced) {
    clearMarks(board);
    for (const e of $$("[data-changed]", board)) e.removeAttribute("data-changed");
    for (const slot of swapped) slot.setAttribute("data-changed", "");
    if (whole && previous) { board.classList.remove("flash"); void board.offsetWidth; board.classList.add("flash"); }
  }
  fitBoard();
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
  document.body.toggleAttribute("data-deciding", Boolean((view.legal_actions || []).length));
}

function nameOf(seat) {
  // The log and the boards say "Player N": a chosen name is shown beside it, never instead of it, and
  // the seat is never named twice: a name that already starts with "Player N" (a bot seat of an older
  // table, "Player 2 (greedy bot)"; the panel says what kind of seat it is) is shown as "Player N".
  const own = seatName(seat);
  const info = T.view && Array.isArray(T.view.seats) ? T.view.seats.find((x) => x.seat === seat) : null;
  const name = info && typeof info.name === "string" ? info.name.trim() : "";
  if (!name || name === own || name.startsWith(`${own} `)) return own;
  return `${own} · ${name}`;
}

// A seat held by an account says so, linking to the player's profile: a free seat name (any text)
// never carries this mark, so it cannot pass for a registered player (docs/accounts.md).
function accountMark(info) {
  if (!info || !info.account || typeof info.name !== "string") return null;
  return el("a", { class: "acct", href: `/players/${encodeURIComponent(info.name)}`, "data-account": info.name,
    title: `${info.name} is a registered player: open their profile`, text: "✓ account" });
}

// The header's counter: the round and turn, or the game's stage (board.js counterText), never the
// table's version, which counts every sub-step; the version stays in ``data-version`` for tests
// and tools.
function drawMoveCounter(view) {
  const ver = $("#version");
  ver.dataset.version = String(view.version);
  ver.textContent = counterText(view);
  ver.title = `table version ${view.version} (every step of every decision counts one)`;
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
  const game = T.gameName && T.game === view.game ? T.gameName : view.game;
  document.title = `${mine ? "▶ your move · " : ""}${game} · ${T.seat === null ? "watching" : seatName(T.seat)} · dicetable`;
  if (T.seat !== null) turnNotice(`${T.id}:${T.seat}`, mine, game);
  if (view.over) {
    const w = (view.winners || []).map(whoIs);
    // No winner (a solo game lost to the Cat, the Dark Lord...): say so rather than leave "Game over." bare.
    const none = playerCount(view) === 1 ? `${whoIs(0)} did not win (see how it ended)` : "No winner (see how it ended)";
    // a seat whose time bank ran out under the forfeit rule is placed last whatever its score (the view's
    // winners count that already): say so, or the scores would seem to contradict the winner
    const lost = (view.time_bank?.forfeited || []).map(whoIs);
    const forfeits = lost.length ? ` ${lost.join(", ")} forfeited (time ran out; placed last).` : "";
    st.textContent = `Game over.${forfeits} ${w.length ? `Winner${w.length > 1 ? "s" : ""}: ${w.join(", ")}` : none}`;
    return;
  }
  if (mine && view.decision) {
    st.replaceChildren(el("strong", { text: `${whoIs(T.seat)}: ` }), view.decision.prompt || "your decision");
    return;
  }
  const parts = toMove.map((s) => {
    const k = seatKind(view, s);
    if (k && (k.kind === "bot" || k.autoplay)) return `${seatName(s)} (${k.level || "?"} bot) is thinking…`;
    return `${nameOf(s)} must decide`;
  });
  // the server sends a decision only to the seat it is asked of (handled above), so others read who decides
  const who = parts.join("; ") || "waiting…";
  // a spectator is told so in the prompt itself: in sight on a phone (its docked prompt), where the players
  // panel's "You are watching (spectator)." is far below the board, and taking no room of the board's
  if (T.seat === null) {
    st.replaceChildren(el("span", { class: "watching", title: "you see what anyone watching sees, no seat's hidden cards" },
      "You are watching", el("span", { class: "sr-only", text: ":" })), " ", who);
  } else {
    st.textContent = who;
  }
}

function playerCount(view) {
  const obs = view.observation || {};
  if (typeof view.players === "number") return view.players;
  if (Array.isArray(view.scores)) return view.scores.length;
  if (Array.isArray(obs.players)) return obs.players.length;
  return 0;
}

// Each seat's latest move this viewer may see (the view's ``last``); an older server sends none.
function lastMoveOf(view, s) {
  const last = view.last || {};
  const text = last[String(s)] ?? last[s];
  return typeof text === "string" && text ? text : "";
}

function drawPlayers(view) {
  const box = $("#players");
  const panels = [];
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
    const panel = el("section", { class: `player${s === T.seat ? " me" : ""}${toMove.includes(s) ? " to-move" : ""}${winners.includes(s) ? " winner" : ""}`, "data-seat": s, "data-key": `seat-${s}`, "aria-label": seatName(s) },
      el("h3", {}, toMove.includes(s) ? el("span", { class: "turn-dot", title: "to decide now", text: "▶ " }) : null, el("span", { class: "pname", text: s === T.seat ? `${nameOf(s)} (you)` : nameOf(s) }), accountMark(k), winners.includes(s) ? el("span", { class: "crown", title: "winner", text: " ♛" }) : null),
      el("p", { class: "meta", text: [kind, connected].filter(Boolean).join(" · ") }),
      scoreLine(view, s, score));
    const last = s !== T.seat ? lastMoveOf(view, s) : "";
    if (last) panel.append(el("p", { class: "last", title: "this player's last move", text: `last: ${last}` }));
    if (view.clock && toMove.includes(s) && k && k.kind === "human" && !k.autoplay) panel.append(el("p", { class: "meta clock-line", "data-clock-seat": s }));
    if (view.time_bank && k && k.kind === "human") panel.append(el("p", { class: "meta bank-line", "data-bank-seat": s }));
    const forfeited = (view.time_bank?.forfeited || []).includes(s);
    // a forfeited seat's one line is its bank line's (drawBanks): "forfeited: its time ran out (placed last...)"
    if (k && k.timed_out && !forfeited) panel.append(el("p", { class: "meta error", text: "clock ran out: its bot chose" }));
    // a seat that forfeited is its bot's to the end: nothing to hand over or take back
    if (k && k.kind === "human" && !view.over && T.seat !== null && !forfeited) {
      // A seat's holder may let its bot play it and take it back; a seat whose clock ran out may be handed to its bot by anyone seated.
      if (s === T.seat) {
        panel.append(k.autoplay
          ? el("button", { type: "button", class: "small seat-btn", "data-seat-take": s, text: "take my seat back" })
          : el("button", { type: "button", class: "small seat-btn", "data-seat-bot": s, title: "its stand-in bot plays your decisions until you take the seat back", text: "let a bot play for me" }));
      } else if (k.timed_out && !k.autoplay) {
        panel.append(el("button", { type: "button", class: "small seat-btn", "data-seat-bot": s, text: "hand this seat to its bot" }));
      }
    }
    if (T.tokens[s] !== undefined && s !== T.seat && k && k.kind === "human" && !k.claimed) {
      // an unclaimed seat's invite goes to a friend (claimed once); else the held token, for hot-seat play;
      // once someone claimed the seat, the token kept here was revoked: no link
      const invite = store.invites(T.id)[s];
      panel.append(el("a", invite
        ? { class: "small invite", href: invite, title: "this seat's invite: send it to a friend (it works once; then only they hold the seat)", text: "invite link" }
        : { class: "small invite", href: `/tables/${T.id}#token=${T.tokens[s]}`, title: "this seat's link: keep playing it here (hot-seat)", text: "seat link" }));
      // An invite nobody claimed yet: this page (the host's, which made it) may let the seat's bot play it
      // rather than wait; the invite keeps working, and a friend who opens it takes the seat from the bot.
      if (invite && !view.over && !T.away.has(s) && k.connected !== true) {
        panel.append(k.autoplay
          ? el("p", { class: "meta filled", text: "Its bot plays this seat now. The invite still works: a friend who opens it takes the seat over." })
          : el("button", { type: "button", class: "small seat-btn", "data-seat-fill": s, title: "its bot plays this seat until a friend opens its invite", text: "let a bot play this seat" }));
      }
    }
    panels.push(panel);
  }
  if (T.seat === null) panels.unshift(el("p", { class: "spectator", text: "You are watching (spectator)." }));
  // redrawn in place: a seat button stays the same element while bots move (a tap is not lost)
  morph(box, panels);
}

// A panel's score: the public one (the same on every screen, so the panels compare); on the
// viewer's own panel, what only it sees on top (a secret objective, hidden VP, a Duke).
function scoreLine(view, s, score) {
  const known = !(score === null || score === undefined);
  const line = el("p", { class: "score" }, "score ",
    el("strong", { text: known ? String(score) : "?", "data-key": `score-${s}`, "data-count": known ? String(score) : null }));
  const own = view.own_score;
  if (own && own.seat === s && s === T.seat && typeof own.hidden === "number" && own.hidden !== 0) {
    line.append(el("span", { class: "hidden-score", title: `your total as only you can count it: ${own.total}`,
      text: ` · ${own.hidden > 0 ? "+" : "−"}${Math.abs(own.hidden)} hidden (only you see this)` }));
  }
  return line;
}

// The log: new lines appended (flashing a moment) when the view's log goes on from the lines
// drawn, else drawn again; the latest 250 lines are kept, each numbered as in the whole log (its
// own ``value``, so the numbers go on past 250 and survive the oldest lines being dropped).
function drawLog(view) {
  const log = view.log || [];
  const n = log.length;
  const ol = $("#log");
  const goesOn = T.logCount > 0 && T.logCount <= n && logText(log[T.logCount - 1]) === T.logLast;
  if (!goesOn) ol.replaceChildren();
  const from = goesOn ? T.logCount : 0;
  const keep = 250;
  const fresh = [];
  for (let i = Math.max(from, n - keep); i < n; i++) fresh.push(el("li", { class: goesOn ? "new" : "", value: i + 1, text: logText(log[i]) }));
  T.logCount = n;
  T.logLast = n ? logText(log[n - 1]) : null;
  if (!fresh.length) return;
  ol.append(...fresh);
  while (ol.childElementCount > keep) ol.firstElementChild.remove();
  ol.start = n - ol.childElementCount + 1;
  ol.style.paddingLeft = `${String(n).length + 2}ch`;  // room for the widest number, never clipped
  if (goesOn) setTimeout(() => { for (const li of fresh) li.classList.remove("new"); }, 1500);
  const pane = $("#log-pane");
  if (!pane.hidden) pane.scrollTop = pane.scrollHeight;
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

function ruleParas(box, s) {
  for (const para of String(s.text).split(/\n\s*\n/)) box.append(el("p", { text: para.trim() }));
  box.append(el("p", { class: "source", text: s.source }));
}

// The Rules tab, drawn again only when the decision changes (an opened section stays open).
function drawRules(view) {
  const kind = view.decision && view.decision.kind;
  const key = `${T.help ? "h" : "-"}:${kind || ""}:${(view.decision && view.decision.help) || ""}`;
  if (key === T.rulesKey) return;
  T.rulesKey = key;
  const box = $("#rules-now");
  const secs = kind ? sectionsFor(kind) : [];
  box.replaceChildren();
  if (view.decision && view.decision.help) box.append(el("p", { class: "decision-help", text: view.decision.help }));
  for (const s of secs) {
    const art = el("article", { class: "rule" }, el("h4", { text: s.title }));
    ruleParas(art, s);
    box.append(art);
  }
  if (!kind) {
    // Nothing to decide: the whole rules summary, one folded section each, to read while others play.
    box.append(el("p", { class: "muted", text: "Nothing to decide for you now. The rules, section by section:" }));
    for (const s of (T.help && T.help.sections) || []) {
      const art = el("details", { class: "rule" }, el("summary", { text: s.title }));
      ruleParas(art, s);
      box.append(art);
    }
  }
  if (!box.children.length) box.append(el("p", { class: "muted", text: "No rules section is linked to this decision yet." }));
  // What the number beside each player is, where a newcomer could misread it (Biblios Dice starts below zero).
  if (T.help && T.help.score) box.append(el("p", { class: "score-note" }, el("strong", { text: "The score beside each player: " }), T.help.score));
}

function drawTools(view) {
  const mine = T.seat !== null && (view.to_move || []).includes(T.seat) && !view.over;
  $("#hint-btn").hidden = !(mine && T.canHint !== false);
  const undoer = undoSeat(view);
  const undoBtn = $("#undo-btn");
  undoBtn.hidden = undoer === null;
  undoBtn.textContent = undoer === null || undoer === T.seat ? "Undo" : `Undo ${nameOf(undoer)}'s move`;
  undoBtn.title = undoer === null ? "" : `take back ${undoer === T.seat ? "your" : `${nameOf(undoer)}'s`} last move`;
  // A hint answers one decision: it stays while the view is redrawn at the same (undos, version)
  // (a seat connects, a reconnect), and goes when the table moves on.
  if (T.hintFor !== keyText(keyOf(view))) { $("#hints").hidden = true; T.hintFor = null; }
  // The table's clock is seconds per decision; a human's clock starts when a
  // decision comes to them (a new version), so the page counts down from there.
  const clockEl = $("#clock");
  clearInterval(T.clockTimer);
  const humans = (view.to_move || []).filter((s) => { const k = seatKind(view, s); return k && k.kind === "human" && !k.autoplay; });
  if (typeof view.clock === "number" && view.clock > 0 && !view.over && humans.length) {
    if (T.clockVersion !== view.version) { T.clockVersion = view.version; T.clockEnd = typeof view.deadline === "number" ? view.deadline * 1000 : Date.now() + view.clock * 1000; }
    const tick = () => {
      const left = fmtSecs((T.clockEnd - Date.now()) / 1000);
      clockEl.textContent = left;  // the stopwatch is the page's own icon (dicetable.css: .clock::before)
      for (const line of $$("[data-clock-seat]")) line.textContent = `clock ${left} left`;
    };
    clockEl.hidden = false; tick(); T.clockTimer = setInterval(tick, 1000);
  } else if (view.time_bank && !view.over) {
    const tick = () => drawBanks(view);
    tick(); T.clockTimer = setInterval(tick, 1000);
  } else { clockEl.hidden = true; clockEl.classList.remove("low"); }
}

// A chess clock (view.time_bank): each seat's bank in seconds as of its running turn's start
// (`left`), and when that turn started (`since`, POSIX seconds; null when it is not to move), so a
// running bank shows `left - (now - since)`. A bank below 20% of the start or 30 s is low: red,
// and said once per turn in a polite live region.
function bankLeft(bank, s, now) {
  const since = bank.since[s];
  return Math.max(0, bank.left[s] - (since == null ? 0 : now - since));
}

function isLow(bank, left) { return left < 30 || left < 0.2 * bank.bank; }

function fmtBank(secs) {
  const s = Math.max(0, Math.round(secs));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}:${fmtSecs(s % 3600).padStart(5, "0")}`;
  return fmtSecs(s);
}

function drawBanks(view) {
  const bank = view.time_bank;
  const now = Date.now() / 1000;
  for (const line of $$("[data-bank-seat]")) {
    const s = Number(line.dataset.bankSeat);
    const running = bank.since[s] != null;
    const left = bankLeft(bank, s, now);
    const low = running && isLow(bank, left);
    const lost = (bank.forfeited || []).includes(s);  // the forfeit rule: the seat is placed last
    line.textContent = lost ? "forfeited: its time ran out (placed last; its bot plays on)"
      : `bank ${fmtBank(left)}${running ? " (running)" : ""}`;
    line.classList.toggle("running", running && !lost);  // the stopwatch icon (CSS)
    line.classList.toggle("low", low);
    if (low) announceLow(s, bank.since[s], left);
  }
  // the bar shows the bank that runs now: this seat's when it is, else the first running one
  const running = [...bank.since.keys()].filter((s) => bank.since[s] != null);
  const shown = running.includes(T.seat) ? T.seat : running[0];
  const clockEl = $("#clock");
  if (shown === undefined) { clockEl.hidden = true; return; }
  const left = bankLeft(bank, shown, now);
  // whose bank runs, then how much is left: a phone cuts a long name short ("…"), never the time
  clockEl.replaceChildren(el("span", { class: "clock-who", text: `${shown === T.seat ? "you" : nameOf(shown)}:` }), " ",
    el("span", { class: "clock-left", text: fmtBank(left) }));
  clockEl.classList.toggle("low", isLow(bank, left));
  clockEl.hidden = false;
}

function announceLow(s, since, left) {
  const key = `${s}@${since}`;
  if (T.bankWarned.has(key)) return;
  T.bankWarned.add(key);
  let live = $("#bank-live");
  if (!live) {
    live = el("p", { id: "bank-live", class: "visually-hidden", "aria-live": "polite" });
    $("#clock").after(live);
  }
  live.textContent = `${s === T.seat ? "Your" : `${nameOf(s)}'s`} clock is low: ${fmtBank(left)} left`;
}

async function hint() {
  const box = $("#hints");
  const asked = keyText(keyOf(T.view));
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
    } else if (h.value === null) {
      estimate = ", not searched";  // the search never tried it: no estimate (not "0% to win")
    }
    ol.append(el("li", { text: `${h.label || h.id}${share}${share ? estimate + ")" : ""}` }));
  }
  box.append(ol);
}

function drawFinal(view) {
  if (!view.over) { $("#final").hidden = true; T.finalShown = false; keepFullSize(false); return; }
  if (T.finalShown) return;
  keepFullSize(true);  // the final board at full size (it scrolls), readable
  fitBoard();
  const n = playerCount(view);
  const rows = $("#final-scores");
  rows.replaceChildren();
  const order = [...Array(n).keys()].sort((a, b) => (view.scores?.[b] ?? 0) - (view.scores?.[a] ?? 0));
  for (const s of order) {
    const won = (view.winners || []).includes(s);
    const lost = (view.time_bank?.forfeited || []).includes(s);
    rows.append(el("tr", { class: won ? "winner" : "", "data-seat": String(s) }, el("th", { scope: "row", text: whoIs(s) }),
      el("td", { "data-total": "", text: String(view.scores?.[s] ?? "?") }),
      el("td", { text: won ? "wins" : lost ? "forfeited" : "" })));
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
  const endRule = /(end|ending) of (the )?game|game end|ending the game|tie|winner|scoring/i;
  const tieSecs = ((T.help && T.help.sections) || []).filter((s) => (s.decisions || []).includes("game-over") || endRule.test(s.title));
  for (const s of tieSecs.slice(0, 2)) {
    const d = el("details", {}, el("summary", { text: `Rulebook: ${s.title}` }));
    for (const para of String(s.text).split(/\n\s*\n/)) d.append(el("p", { text: para.trim() }));
    why.append(d);
  }
  drawRematch(view);
  $("#replay-link").href = `/tables/${T.id}/replay`;
  T.finalShown = true;
  $("#final").hidden = false;
  drawSheet();
}

// The score sheet of the rulebook (every category per seat and solo opponent, the tie-break and
// why), from the server's /web/tables/{id}/final; the totals above stay if it cannot be had.
async function drawSheet() {
  const res = await api("GET", `/web/tables/${T.id}/final`);
  const sheet = res.status === 200 && res.data && res.data.sheet;
  if (!sheet || !T.finalShown) return;
  const shown = sheet.measures.map((m, i) => [m, i]).filter(([m]) => m.shown);
  const col = (text) => el("th", { scope: "col", text });
  $("#final-head").replaceChildren(el("tr", {}, col("player"), col("score"), ...sheet.categories.map(col),
    ...shown.map(([m]) => col(`tie-break: ${m.name}`)), el("th", { scope: "col" }, el("span", { class: "sr-only", text: "result" }))));
  const lines = [...sheet.lines].sort((a, b) => b.total - a.total || Number(b.won) - Number(a.won));
  $("#final-scores").replaceChildren(...lines.map((ln) => el("tr",
    { class: ln.won ? "winner" : "", ...(ln.seat === null ? { "data-opponent": "" } : { "data-seat": String(ln.seat) }) },
    el("th", { scope: "row", text: ln.seat === null ? ln.name.charAt(0).toUpperCase() + ln.name.slice(1) : whoIs(ln.seat) }),
    el("td", { "data-total": "", text: String(ln.total) }),
    ...ln.points.map((p, i) => el("td", { "data-category": sheet.categories[i], text: String(p) })),
    ...shown.map(([, i]) => el("td", { text: ln.ties[i] === null || ln.ties[i] === undefined ? "–" : String(ln.ties[i]) })),
    el("td", { text: ln.won ? "wins" : "" }))));
  // titled as the terminal titles it (cli/play.py): "Score sheet (rulebook: Scoring)", the section named once
  $("#final-source").textContent = `Score sheet (${sheet.source})`;
  const out = $("#final-outcome");
  out.textContent = sheet.outcome; out.hidden = false;
  $("#final-sheet").dataset.ready = "1";
  sheetCue();
}

// A sheet wider than its box (Biblios Dice's on a phone) scrolls sideways under its player column, which
// stays put: the fades at its edges start after that column (--cue-skip), and a line above the sheet
// says how many columns are out of sight on each side, so a cut column is never taken for the end.
function sheetCue() {
  const wrap = $("#final .sheet-wrap");
  const note = $("#sheet-more");
  const heads = $$("#final-head th");
  if ($("#final").hidden || !heads.length) return;
  const skip = heads[0].offsetWidth;
  wrap.style.setProperty("--cue-skip", `${skip}px`);
  const box = wrap.getBoundingClientRect();
  const rest = heads.slice(1).map((h) => h.getBoundingClientRect());
  const right = rest.filter((r) => r.right > box.right + 1).length;
  const left = rest.filter((r) => r.left < box.left + skip - 1).length;
  const cols = (n) => `${n} more column${n === 1 ? "" : "s"}`;
  note.hidden = !right && !left;
  if (note.hidden) return;
  note.textContent = right && left ? `← ${cols(left)} · ${cols(right)} →`
    : right ? `Scroll the sheet sideways: ${cols(right)} →` : `← ${cols(left)}: scroll back`;
}

// The rematch of a finished table (its view's ``rematch``, once a seat started one): a notice for
// everyone at the table, with a button for a seat's holder (a link to watch for a spectator), and
// the final panel's button says "join" instead of "play again".
function drawRematch(view) {
  const started = view.over ? view.rematch : null;
  const seated = T.seat !== null;
  const btn = $("#again-btn");
  btn.hidden = !(view.over && seated);
  btn.textContent = started ? "Join the rematch" : "Play again (same seats)";
  const note = $("#rematch");
  if (!started) { note.hidden = true; return; }
  const text = `${started.by} started a rematch (the same seats):`;
  if (note.dataset.table === started.table_id && note.dataset.seated === String(seated)) { note.hidden = false; return; }
  note.dataset.table = started.table_id;
  note.dataset.seated = String(seated);
  const go = seated ? el("button", { type: "button", class: "primary", text: "join" })
    : el("a", { href: `/tables/${started.table_id}`, text: "watch it" });
  if (seated) go.addEventListener("click", playAgain);
  note.replaceChildren(text, " ", go);
  note.hidden = false;
}

// Play again with the same seats: the server's rematch of this finished table (POST .../again). The
// first seat to ask starts it; every other seat's holder joins their own seat there (an account's seat
// is already theirs). A page holding several seats (hot-seat) takes each of them along, except the
// seats a friend plays elsewhere (T.away); then it goes to its own seat's page.
async function playAgain() {
  if (T.seat === null) return;
  const res = await api("POST", `/api/tables/${T.id}/again`, { token: T.token });
  if (res.status !== 200) { showError(res.message); return; }
  const made = res.data;
  const tokens = {};
  if (made.token) tokens[made.seat] = made.token;
  for (const [k, token] of Object.entries(T.tokens)) {
    const s = Number(k);
    if (s === T.seat || T.away.has(s)) continue;
    const more = await api("POST", `/api/tables/${T.id}/again`, { token });
    if (more.status === 200 && more.data.token) tokens[more.data.seat] = more.data.token;
  }
  if (Object.keys(tokens).length) store.setTokens(made.table_id, tokens);
  location.assign(made.link);
}

// ---------------------------------------------------------------- held seats, hot-seat
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

// Hot-seat: when the seat to move is another seat this browser holds, switch
// to it; with a hand-over screen first when that seat has secrets to see.
async function maybeHandOver() {
  const view = T.view;
  if (!view || view.over || T.seat === null || T.switching || T.queue.items.length) return;
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
    if (!secret) { await switchTo(next); return; }
    // Hide this seat's view before the next player looks at the screen: no more pushes for it,
    // and a spectator's table behind the (opaque) hand-over screen.
    if (T.live) { T.live.close(); T.live = null; }
    T.queue.reset();
    leaveSeat();
    const leaving = T.seat;
    T.seat = null;
    T.token = null;
    $("#board").classList.add("covered");
    if (!(specView && T.queue.offer(specView))) {
      // The page showed a newer version than that spectator's view: ask again (newer still).
      const again = await api("GET", `/api/tables/${T.id}`);
      const v = again.status === 200 ? unwrapView(again.data) : null;
      if (v) T.queue.offer(v);
    }
    await T.queue.settled();
    $("#handover-text").textContent = `${seatName(next)}, it is your turn. Everyone else, look away: ${seatName(next)} has cards or secrets on the screen.`;
    $("#handover-btn").textContent = `I am ${seatName(next)}: show my table`;
    $("#handover").hidden = false;
    document.body.dataset.handover = String(next);
    // The player who just moved may still take that move back (when the rules allow it) before
    // handing the screen over.
    const back = $("#handover-undo");
    back.hidden = !(T.view && T.view.undo_seat === leaving && !T.view.over);
    back.dataset.seat = String(leaving);
    back.textContent = `${seatName(leaving)}: take back my move`;
    $("#handover-btn").focus();
    await new Promise((resolve) => { T.handoverGo = resolve; });
    const target = T.handoverTarget ?? next;
    T.handoverTarget = null;
    back.hidden = true;
    await switchTo(target);
    $("#handover").hidden = true;
    delete document.body.dataset.handover;
    $("#board").classList.remove("covered");
    bringInSight();
  } finally { T.switching = false; }
}

// The hand-over screen's "take back my move": the seat that just moved undoes it with its own
// token, and the screen goes back to that seat instead of the next one.
async function undoAtHandOver() {
  const seat = Number($("#handover-undo").dataset.seat);
  const res = await api("POST", `/api/tables/${T.id}/undo`, { token: T.tokens[seat], body: { version: shownVersion() } });
  if (res.status !== 200) { $("#handover-text").textContent = res.message; $("#handover-undo").hidden = true; return; }
  T.handoverTarget = seat;
  if (T.handoverGo) T.handoverGo();
}

// Play ``seat`` (a held token) from now on: its own socket, whose first view is drawn before this
// resolves (over HTTP if the socket does not bring it within a few seconds).
async function switchTo(seat) {
  if (seat !== T.seat) leaveSeat();
  T.seat = seat;
  T.token = T.tokens[seat];
  const url = new URL(location.href);
  url.searchParams.delete("token");
  const rest = new URLSearchParams(url.hash.slice(1));
  rest.set("token", T.token);
  url.hash = rest.toString();
  history.replaceState(null, "", url);
  T.queue.reset();
  T.logCount = 0;
  $("#log").replaceChildren();
  const drawn = new Promise((resolve) => { T.firstView = { seat, resolve }; });
  connect();
  const late = setTimeout(refresh, 4000);
  await drawn;
  clearTimeout(late);
}

function showError(msg) { const e = $("#error"); e.textContent = msg; e.hidden = false; }
function hideError() { const e = $("#error"); e.hidden = true; e.textContent = ""; }
