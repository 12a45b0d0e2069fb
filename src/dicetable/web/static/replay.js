// The replay viewer of a finished table: one step per request (start, back, forward, end,
// a slider, the arrow keys), each the spectator's board and log as they were.

import { $, el, params, seatName } from "./dom.js";
import { api } from "./api.js";
import { boardFor, fitBoard, watchFit } from "./board.js";

const R = { id: null, step: 0, total: 0, busy: false, want: null, cssSet: false };

export async function replayPage() {
  R.id = document.body.dataset.table;
  watchFit();
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

