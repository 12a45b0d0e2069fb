// The replay viewer of a finished table: one step per request (start, back, forward, end, a
// slider, the arrow keys), auto-play at a chosen speed, a jump to the start of any round or turn,
// and the address's #step=N (a link to a step opens it). Each step is the spectator's board and
// log as they were; the server keeps the game's state between steps, so every step costs the same.

import { $, el, params, seatName } from "./dom.js";
import { api } from "./api.js";
import { boardFor, counterText, fitBoard, watchFit } from "./board.js";

const R = { id: null, step: 0, total: 0, busy: false, want: null, cssSet: false, marks: [], timer: null };

// The step the address asks for: #step=N (shared links), else ?step=N; null when neither.
function askedStep() {
  const m = /(?:^#|&)step=(\d+)/.exec(location.hash);
  const raw = m ? m[1] : params.get("step");
  const n = raw === null || raw === "" ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

export async function replayPage() {
  R.id = document.body.dataset.table;
  watchFit();
  $("#step-first").addEventListener("click", () => { stop(); go(0); });
  $("#step-back").addEventListener("click", () => { stop(); go(R.step - 1); });
  $("#step-fwd").addEventListener("click", () => { stop(); go(R.step + 1); });
  $("#step-last").addEventListener("click", () => { stop(); go(R.total); });
  $("#step-range").addEventListener("change", (e) => { stop(); go(Number(e.target.value)); });
  $("#play").addEventListener("click", () => (R.timer === null ? play() : stop()));
  $("#jump").addEventListener("change", (e) => {
    if (e.target.value === "") return;
    stop(); go(Number(e.target.value));
  });
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === "ArrowRight") { e.preventDefault(); stop(); go(R.step + 1); }
    if (e.key === "ArrowLeft") { e.preventDefault(); stop(); go(R.step - 1); }
  });
  window.addEventListener("hashchange", () => {
    const s = askedStep();
    if (s !== null && s !== R.step) { stop(); go(s); }
  });
  await go(askedStep() ?? 0, true);
  if (R.total) loadIndex();
}

// Auto-play: one step forward each `speed` ms until the end (from the start when at the end).
async function play() {
  const b = $("#play");
  playLabel(b, "pause"); b.setAttribute("aria-pressed", "true");
  const tick = async () => {
    if (R.timer === null) return;
    await go(R.step + 1);
    if (R.step >= R.total) { stop(); return; }
    if (R.timer !== null) R.timer = setTimeout(tick, Number($("#speed").value) || 800);
  };
  R.timer = -1;  // playing (no step scheduled yet)
  if (R.step >= R.total) await go(0);
  if (R.timer === -1) R.timer = setTimeout(tick, Number($("#speed").value) || 800);
}

function stop() {
  if (R.timer !== null) clearTimeout(R.timer);
  R.timer = null;
  const b = $("#play");
  playLabel(b, R.step >= R.total && R.total ? "play again" : "play");
  b.setAttribute("aria-pressed", "false");
}

// The play button says what a press does ("play", "play again" or "pause"): its name, its word (a
// wide screen shows it beside the icon) and its icon (data-state: the pause icon while playing).
function playLabel(b, word) {
  b.setAttribute("aria-label", word);
  b.querySelector(".word").textContent = word;
  b.dataset.state = word === "pause" ? "pause" : "play";
}

// The round and turn starts of the record, as a select: each named as the counter names that step
// (counterText: the table page's words, its round and turn or its stage) with whose turn begins, and
// grouped by round when the game counts rounds (Card Kingdoms and Corsairs count turns only).
async function loadIndex() {
  const res = await api("GET", `/web/tables/${R.id}/replay-index`);
  if (res.status !== 200 || !Array.isArray(res.data.marks)) return;
  R.marks = res.data.marks;
  const sel = $("#jump");
  const roundOf = (m) => (typeof m.round === "number" && m.round > 0 ? m.round : 0);
  const grouped = R.marks.some(roundOf);
  let group = null;
  for (const m of R.marks) {
    if (grouped && (group === null || roundOf(m) !== group.round)) {
      group = el("optgroup", { label: roundOf(m) ? counterText({ observation: { round: roundOf(m) } }) : "Before the first round" });
      group.round = roundOf(m);
      sel.append(group);
    }
    const where = counterText({ observation: { round: m.round, turn: m.turn }, stage: m.stage });
    const what = typeof m.seat === "number" ? `${where}: ${seatName(m.seat)}` : `${where} begins`;
    (group || sel).append(el("option", { value: String(m.step), text: `${what} (step ${m.step})` }));
  }
  syncJump();
}

// The jump list shows the latest round or turn start at or before the step on screen.
function syncJump() {
  const sel = $("#jump");
  if (sel.value !== "" && Number(sel.value) === R.step) return;  // the start picked (a round and its first turn share a step)
  let best = 0;
  sel.querySelectorAll("option").forEach((o, i) => { if (o.value !== "" && Number(o.value) <= R.step) best = i; });
  sel.selectedIndex = best;
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
      draw(res.data);
    }
  } finally { R.busy = false; }
}

function draw(v) {
  if (!R.cssSet) { $("#board-css").href = `/static/games/${v.game}/board.css`; R.cssSet = true; }
  R.step = v.step; R.total = v.total;
  $("#total").textContent = String(v.total);
  $("#step-range").max = String(v.total);
  $("#board").innerHTML = boardFor(v);
  fitBoard();
  const st = $("#step");
  st.textContent = String(v.step); st.dataset.version = String(v.step);
  $("#counter").textContent = counterText(v);  // the round and turn, or the game's stage, as the table page says them
  $("#step-range").value = String(v.step);
  $("#last-move").textContent = v.last ? `Step ${v.step}: ${v.last.player} — ${v.last.label}` : "The table as set up.";
  $("#status").textContent = v.over ? `Game over. Scores: ${v.scores.map((x, i) => `${seatName(i)} ${x}`).join(", ")}` : (v.prompt || "");
  // The log as it was at this step (its latest lines, numbered as in the whole log).
  const ol = $("#log");
  ol.start = (v.log_from || 0) + 1;
  ol.replaceChildren(...v.log.map((l) => el("li", { text: l })));
  const pane = ol.parentElement; pane.scrollTop = pane.scrollHeight;
  const link = `#step=${v.step}`;
  $("#step-link").href = link;
  const url = new URL(location.href); url.searchParams.delete("step"); url.hash = link;
  history.replaceState(null, "", url);
  if (R.marks.length) syncJump();
  if (R.timer === null) stop();
}
