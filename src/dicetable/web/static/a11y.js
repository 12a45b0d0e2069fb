// What the table page and the replay viewer add for keyboard and screen-reader users, whatever
// the game: the boards' tabs, the pieces' tooltips on focus and the clock's low-time announcement.
// Nothing here knows a game: it reads the roles and attributes the server's board views carry.

import { $, $$, tabKey } from "./dom.js";

// ---------------------------------------------------------------- board tabs
// A board's tabs are labels with role=tab for a radio input (a pure-CSS tab, e.g. the Dice Kingdoms
// sheets): the checked radio is the selected tab. Kept in step here: aria-selected, only the
// selected tab in the Tab order, arrows/Home/End move and select, Enter and Space select.
function radioOf(tab) {
  const id = tab.getAttribute("for");
  const radio = id ? document.getElementById(id) : null;
  return radio instanceof HTMLInputElement ? radio : null;
}

export function syncBoardTabs(root) {
  for (const tab of $$('[role="tab"][for]', root)) {
    const radio = radioOf(tab);
    if (!radio) continue;
    tab.setAttribute("aria-selected", String(radio.checked));
    tab.tabIndex = radio.checked ? 0 : -1;
  }
}

function wireBoardTabs(board) {
  board.addEventListener("change", () => syncBoardTabs(board));
  board.addEventListener("keydown", (ev) => {
    const tab = ev.target instanceof Element ? ev.target.closest('[role="tab"][for]') : null;
    if (!tab) return;
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      ev.stopPropagation();
      tab.click();
      return;
    }
    const list = tab.closest('[role="tablist"]') || board;
    const next = tabKey(ev, $$('[role="tab"][for]', list).filter((t) => t.getClientRects().length > 0));
    if (next) { next.click(); next.focus(); }
  });
}

// ---------------------------------------------------------------- tooltips
// A piece's tooltip (its title, or an SVG <title>) is shown while the piece has the keyboard focus
// (:focus-visible; not the focus a click or a tap leaves, nor the page's after one),
// in one tooltip element. Pieces that are not actions are reached with the arrow keys: with the
// focus in the board, Down and Up move to the next and previous piece that has a tooltip or an
// action (each focusable then, out of the Tab order), so every tooltip can be read without a mouse.
//
// Keyboard focus means the last thing the user did on the page was a key press: a focus the page
// moves before the user did anything (a decision's first action, on load) matches :focus-visible
// too, and its tooltip would cover the board for someone who has not touched the keyboard. The
// focus ring stays (a keyboard user sees where they are); the tooltip comes with the first key.
const GENERIC = new Set(["div", "span", "b", "small", "p", "g", "rect", "circle", "path", "polygon", "text", "ellipse"]);
const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock", "OS"]);

// "key" once a key other than a lone modifier was pressed, "pointer" once a mouse button, a pen or
// a finger went down, whichever came last; null before either.
let lastInput = null;
function watchInput() {
  document.addEventListener("keydown", (ev) => { if (!MODIFIERS.has(ev.key)) lastInput = "key"; }, true);
  document.addEventListener("pointerdown", () => { lastInput = "pointer"; }, true);
}

export function tipOf(piece) {
  const own = piece.getAttribute("title") || [...piece.children].find((c) => c.tagName.toLowerCase() === "title")?.textContent;
  return (own || "").trim();
}

function pieces(board) {
  const out = [];
  for (const e of board.querySelectorAll("[title], [data-action], svg title")) {
    const p = e.tagName.toLowerCase() === "title" ? e.parentElement : e;
    if (p && p !== out[out.length - 1] && p.tagName.toLowerCase() !== "svg" && p.getClientRects().length > 0) out.push(p);
  }
  return out;
}

function wireTips(board) {
  const tip = ($("main") || document.body).appendChild(Object.assign(document.createElement("div"), { id: "piece-tip", className: "piece-tip", hidden: true }));
  tip.setAttribute("role", "tooltip");
  let owner = null;
  const hide = () => {
    tip.hidden = true;
    if (owner) { owner.removeAttribute("aria-describedby"); owner = null; }
  };
  board.addEventListener("focusin", (ev) => {
    hide();
    const piece = ev.target instanceof Element ? ev.target : null;
    // keyboard focus only: after a click or a tap, or before the user did anything, the page moves the
    // focus to the decision's first action, and its tooltip would cover the board for someone who is
    // not using the keyboard
    if (!piece || lastInput !== "key" || !piece.matches(":focus-visible")) return;
    const text = tipOf(piece);
    if (!text) return;
    // A piece reached with the arrows that has no role of its own is a named group (its tooltip names it).
    if (!piece.getAttribute("role") && GENERIC.has(piece.tagName.toLowerCase())) piece.setAttribute("role", "group");
    const name = (piece.getAttribute("aria-label") || "").trim();
    if (name && name !== text) { owner = piece; piece.setAttribute("aria-describedby", tip.id); }
    tip.textContent = text;
    tip.hidden = false;
    place(piece);
  });
  // Below the piece, or above it near the bottom of the window; it follows the piece when the board scrolls.
  const place = (piece) => {
    const r = piece.getBoundingClientRect();
    tip.style.left = `${Math.max(4, Math.min(innerWidth - tip.offsetWidth - 4, r.left))}px`;
    tip.style.top = `${r.bottom + tip.offsetHeight + 8 < innerHeight ? r.bottom + 6 : Math.max(4, r.top - tip.offsetHeight - 6)}px`;
  };
  board.addEventListener("focusout", hide);
  window.addEventListener("scroll", () => { if (!tip.hidden && board.contains(document.activeElement)) place(document.activeElement); }, true);
  const wrap = board.closest("#board-wrap") || board;
  wrap.addEventListener("keydown", (ev) => {
    if ((ev.key !== "ArrowDown" && ev.key !== "ArrowUp") || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.target instanceof Element && ev.target.closest('[role="tab"], input, select, textarea')) return;
    const all = pieces(board);
    if (!all.length) return;
    let at = all.indexOf(ev.target);
    if (at < 0) at = all.findLastIndex((p) => p.contains(ev.target));
    const next = all[at < 0 ? (ev.key === "ArrowDown" ? 0 : all.length - 1) : (at + (ev.key === "ArrowDown" ? 1 : -1) + all.length) % all.length];
    ev.preventDefault();
    if (next.tabIndex < 0 && !next.hasAttribute("tabindex")) next.setAttribute("tabindex", "-1");
    next.focus();
  });
}

// ---------------------------------------------------------------- the clock
// Seconds left at which the clock is announced (politely: after what the screen reader is saying).
export const LOW_TIME = [30, 10];

function secondsIn(text) {
  const m = /(\d+):(\d\d)/.exec(text || "");
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

// Watches the clock's text (whoever draws it) and says "30 seconds left" in the live region when
// it crosses a LOW_TIME threshold downwards.
function wireClock(clock, region) {
  let before = null;
  const look = () => {
    const now = clock.hidden ? null : secondsIn(clock.textContent);
    const crossed = now !== null && before !== null ? LOW_TIME.find((t) => before > t && now <= t) : undefined;
    if (crossed !== undefined) region.textContent = `${crossed} seconds left on the clock`;
    else if (now === null) region.textContent = "";
    before = now;
  };
  new MutationObserver(look).observe(clock, { childList: true, characterData: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });
}

// Starts all of the above on the page's board (and clock, when it has one).
export function wireAccess() {
  const board = $("#board");
  if (board) {
    wireBoardTabs(board);
    watchInput();
    wireTips(board);
    let pending = false;
    new MutationObserver(() => {
      if (pending) return;
      pending = true;
      queueMicrotask(() => { pending = false; syncBoardTabs(board); });
    }).observe(board, { childList: true, subtree: true });
  }
  const clock = $("#clock");
  const region = $("#clock-alert");
  if (clock && region) wireClock(clock, region);
}
