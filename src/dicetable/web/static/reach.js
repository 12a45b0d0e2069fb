// The decision's controls in reach. On a phone the board is taller than the screen: the status line
// docked at the bottom says what to do while the dice, cards or pips to tap may be below the fold.
// When a new decision comes to this viewer and none of its controls is in sight, the boxes that
// scroll them (the phone's column, the board area, a sheet that scrolls sideways) are scrolled to
// the nearest one, once per decision: smoothly, or at once with prefers-reduced-motion. Never while
// the user is scrolling, nor while they read the log, the rules or the chat, nor when a control is in
// sight already (a laptop's board, fitted to its place, is not moved). Generic: it reads only
// data-action elements and the page's boxes.

import { $, $$, clipBox } from "./dom.js";
import { motionAllowed } from "./animate.js";

// ms after the user's last scrolling gesture during which the page does not scroll for them.
export const QUIET_MS = 1200;
const MARGIN = 12;
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

let lastKey = null;   // the decision on screen (null: none for this viewer)
let armed = false;    // that decision has not been brought in sight yet
let lastGesture = -Infinity;

// Note the user's scrolling (wheel, a finger moving, the scroll keys); a scroll soon after one
// (a fling's momentum) counts as theirs too. A tap on a control is not scrolling.
export function watchGestures() {
  const note = () => { lastGesture = performance.now(); };
  const opts = { capture: true, passive: true };
  addEventListener("wheel", note, opts);
  addEventListener("touchmove", note, opts);
  addEventListener("keydown", (ev) => {
    const t = ev.target;
    const typing = t instanceof Element && t.closest("input, textarea, select, button, [role='button'], [contenteditable]");
    if (SCROLL_KEYS.has(ev.key) && !typing) note();
  }, opts);
  addEventListener("scroll", () => { if (performance.now() - lastGesture < QUIET_MS) note(); }, opts);
}

// The page drew a view: ``key`` names this viewer's decision in it (null when it has none). A
// decision other than the one on screen is to be brought in sight, after layout.
export function decisionShown(key) {
  if (key === null) { lastKey = null; armed = false; return; }
  if (key !== lastKey) { lastKey = key; armed = true; }
  if (armed) requestAnimationFrame(() => requestAnimationFrame(bringInSight));
}

// Scroll the armed decision's nearest control into sight, if it is time: later when the board's
// styles are loading or a hand-over or the final scores cover the table; dropped when the user is
// scrolling or reading the side tabs, or a control is in sight.
export function bringInSight() {
  if (!armed) return;
  const body = document.body;
  if (body.dataset.styling !== undefined || body.dataset.handover !== undefined) return;
  if (!$("#handover").hidden || !$("#final").hidden) return;
  armed = false;
  if (performance.now() - lastGesture < QUIET_MS) return;
  const controls = $$("#board [data-action], #actionbar [data-action]").filter((e) => e.getClientRects().length > 0);
  if (!controls.length || controls.some(inSight) || readingSide(controls[0])) return;
  const target = nearest(controls);
  if (target) scrollTo(target, controls);
}

const area = (b) => Math.max(0, b.right - b.left) * Math.max(0, b.bottom - b.top);

function cut(r, c) {
  return { left: Math.max(r.left, c.left), top: Math.max(r.top, c.top), right: Math.min(r.right, c.right), bottom: Math.min(r.bottom, c.bottom) };
}

// At least half of it shows: inside the window and every box that clips it.
function inSight(e) {
  const r = e.getBoundingClientRect();
  return area(r) > 0 && area(cut(r, clipBox(e))) >= 0.5 * area(r);
}

// The control nearest to what is in sight (the smallest scroll).
function nearest(controls) {
  let best = null;
  let bestGap = Infinity;
  for (const e of controls) {
    const r = e.getBoundingClientRect();
    const c = clipBox(e);
    const gap = Math.max(0, c.top - r.bottom, r.top - c.bottom) + Math.max(0, c.left - r.right, r.left - c.right);
    if (gap < bestGap) { best = e; bestGap = gap; }
  }
  return best;
}

// A box that scrolls on that axis: overflow auto or scroll, with more content than room.
function scrolls(a, axis) {
  const cs = getComputedStyle(a);
  const o = axis === "y" ? cs.overflowY : cs.overflowX;
  if (o !== "auto" && o !== "scroll") return false;
  return axis === "y" ? a.scrollHeight > a.clientHeight + 1 : a.scrollWidth > a.clientWidth + 1;
}

function innerBox(a) {
  const b = a.getBoundingClientRect();
  const left = b.left + a.clientLeft;
  const top = b.top + a.clientTop;
  return { left, top, right: left + a.clientWidth, bottom: top + a.clientHeight };
}

// The log, the rules or the chat fill the view (the side tabs under the board on a phone, scrolled
// by the same box as the control), or the user is in them (the chat's field, a focused pane).
function readingSide(control) {
  const side = $(".side");
  if (!side) return false;
  const active = document.activeElement;
  if (active && active !== document.body && side.contains(active)) return true;
  for (let a = control.parentElement; a && a !== document.body; a = a.parentElement) {
    if (!(a instanceof HTMLElement) || !scrolls(a, "y")) continue;
    if (!a.contains(side)) return false;
    const c = innerBox(a);
    return side.getBoundingClientRect().top < (c.top + c.bottom) / 2;
  }
  return false;
}

// How far a box must scroll on one axis to show [lo, hi] (the target) inside [from, to]: with the
// whole group [glo, ghi] of the decision's controls when it fits, else the target alone, in the
// middle (its start first when it is larger than the box).
function shift(lo, hi, glo, ghi, from, to) {
  const a = from + MARGIN;
  const b = to - MARGIN;
  if (ghi - glo <= b - a) { lo = glo; hi = ghi; }
  else if (hi - lo <= b - a) return lo >= a && hi <= b ? 0 : (lo + hi) / 2 - (from + to) / 2;
  if (lo < a || hi - lo > b - a) return lo - a;
  if (hi > b) return hi - b;
  return 0;
}

// Scroll every box that hides ``target`` (innermost first, each by what it can), bringing the
// decision's other controls in the same box along when they fit.
function scrollTo(target, controls) {
  const behavior = motionAllowed() ? "smooth" : "instant";
  let r = target.getBoundingClientRect();
  for (let a = target.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
    if (!(a instanceof HTMLElement)) continue;
    const sx = scrolls(a, "x");
    const sy = scrolls(a, "y");
    if (!sx && !sy) continue;
    const c = innerBox(a);
    const group = controls.filter((e) => a.contains(e)).map((e) => e.getBoundingClientRect());
    const g = group.reduce((u, b) => ({ left: Math.min(u.left, b.left), top: Math.min(u.top, b.top),
      right: Math.max(u.right, b.right), bottom: Math.max(u.bottom, b.bottom) }), r);
    let dx = sx ? shift(r.left, r.right, g.left, g.right, c.left, c.right) : 0;
    let dy = sy ? shift(r.top, r.bottom, g.top, g.bottom, c.top, c.bottom) : 0;
    dx = Math.max(-a.scrollLeft, Math.min(a.scrollWidth - a.clientWidth - a.scrollLeft, dx));
    dy = Math.max(-a.scrollTop, Math.min(a.scrollHeight - a.clientHeight - a.scrollTop, dy));
    dx = Math.round(dx);
    dy = Math.round(dy);
    if (dx || dy) a.scrollBy({ left: dx, top: dy, behavior });
    // where the target will be for the boxes around this one
    r = { left: r.left - dx, right: r.right - dx, top: r.top - dy, bottom: r.bottom - dy };
  }
}
