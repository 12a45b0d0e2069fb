// The board area shared by the table page and the replay viewer: keyed parts filled into their
// slots, the generic board of a game that draws none, fitting a board to its place, and the words
// that say where in the game the board is (the round and turn, or the game's stage).

import { $, escapeHtml } from "./dom.js";

// The root HTML of a view's board: its part "board" (a board string of an HTTP view or the replay
// is that part), or, for a game without a board, the observation shown readably.
export function boardFor(view) {
  if (view.parts && typeof view.parts.board === "string" && view.parts.board) return view.parts.board;
  if (typeof view.board === "string" && view.board) return view.board;
  return `<div class="board board-${escapeHtml(view.game || "")} board-generic">${genericHtml(view.observation || {}, 0)}</div>`;
}

// Where in the game a view is, as the players count it: "Round 2 · Turn 5" from the game's own
// observation (never the table's version, which counts every sub-step); a step that no round or
// turn counts (Card Kingdoms' Duke choice) is named by the game in the view's ``stage``
// ("Choosing Dukes"); "game over" or "setting up" when nothing is counted yet. The table page's top
// line and the replay viewer's step line show it.
export function counterText(view) {
  const obs = view.observation || {};
  if (typeof view.stage === "string" && view.stage) return view.stage;
  const words = [];
  if (typeof obs.round === "number" && obs.round > 0) words.push(`Round ${obs.round}`);
  if (typeof obs.turn === "number" && obs.turn > 0) words.push(`Turn ${obs.turn}`);
  return words.length ? words.join(" · ") : (view.over ? "game over" : "setting up");
}

// Fill every empty slot (an element with data-part) under ``root`` with its part's HTML,
// and the slots inside those, down to ``depth`` levels (a part holding its own slot stops there).
export function fillSlots(root, parts, depth = 0) {
  if (depth > 40) return;
  for (const slot of root.querySelectorAll("[data-part]")) {
    if (slot.firstChild) continue;
    const html = parts[slot.getAttribute("data-part")];
    if (typeof html !== "string" || !html) continue;
    slot.innerHTML = html;
    fillSlots(slot, parts, depth + 1);
  }
}

// Swap the ``changed`` parts into their slots under ``root``, keeping each slot element. A part
// inside another swapped part is filled with it. Returns the slot elements swapped.
export function swapParts(root, parts, changed) {
  const done = [];
  for (const id of changed) {
    const slot = root.querySelector(`[data-part="${CSS.escape(id)}"]`);
    if (!slot || done.some((d) => d.contains(slot))) continue;
    slot.innerHTML = typeof parts[id] === "string" ? parts[id] : "";
    fillSlots(slot, parts, 1);
    done.push(slot);
  }
  return done;
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

// On a wide screen a board wider (or taller) than its place is scaled down to fit, down to 70%,
// so the main area needs no scrolling at 1366x768. On a narrow screen (a phone) the board keeps
// its size and reflows to the width (its own CSS), so tap targets stay large; what is still
// wider scrolls inside the board area, never the page.
// A board to be read at leisure (the final table) keeps its full size and scrolls in its place.
let fullSize = false;
export function keepFullSize(on) { fullSize = Boolean(on); }

export function fitBoard() {
  const wrap = $("#board-wrap");
  const board = $("#board");
  if (!wrap || !board) return;
  board.style.zoom = "";
  if (fullSize || matchMedia("(max-width: 760px), (max-height: 500px)").matches) return;
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

export function watchFit() {
  let pending = false;
  window.addEventListener("resize", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; fitBoard(); });
  });
}
