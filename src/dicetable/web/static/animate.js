// Animation of what a version did (docs/web.md, "The live table"). Effects name board
// elements by data-key (dicetable.engine.effects): before a version's parts are swapped in,
// note the rectangles of every key its effects name; after the swap, animate with the Web
// Animations API: dice tumble and land, pieces glide from the old place (FLIP), counters
// count with a +n/-n badge, revealed things flip, a new turn or round is highlighted.
// With reduced motion (or no time to animate) the same elements are only highlighted.

import { clipBox } from "./dom.js";

const reduced = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
export const motionAllowed = () => !reduced.matches;

// The effects of a list of events (Event JSON: effects under data.effects).
export function effectsOf(events) {
  const out = [];
  for (const ev of events || []) {
    const list = ev && ev.data && Array.isArray(ev.data.effects) ? ev.data.effects : [];
    for (const fx of list) if (fx && typeof fx.type === "string") out.push(fx);
  }
  return out;
}

const byKey = (key) => (key ? document.querySelector(`[data-key="${CSS.escape(String(key))}"]`) : null);
const keyOfScore = (seat) => `score-${seat}`;
const keysOf = (fx) => [fx.key, fx.from, fx.to, fx.at, fx.type === "score" ? keyOfScore(fx.seat) : null].filter(Boolean);

// {key: DOMRect} of every element the effects name, as they are now (before the swap).
export function noteRects(effects) {
  const rects = new Map();
  for (const fx of effects) {
    for (const k of keysOf(fx)) {
      if (rects.has(k)) continue;
      const e = byKey(k);
      if (e) rects.set(k, e.getBoundingClientRect());
    }
  }
  return rects;
}

// Mark an element as touched by this version (stays until clearMarks at the next version).
function mark(e) { if (e) e.setAttribute("data-hit", ""); }

export function clearMarks(root = document) {
  for (const e of root.querySelectorAll("[data-hit]")) e.removeAttribute("data-hit");
}

// Where a badge goes, off the element's words: just after its text when its box leaves room there
// (a score line, "score now 22 = ..."), level with the text's first line; else over the box's top-right
// corner (a die, a counter whose text fills its box). ``r`` the element's box, ``w``/``h`` the badge's size.
function badgeSpot(e, r, w, h) {
  const range = document.createRange();
  range.selectNodeContents(e);
  const t = range.getBoundingClientRect();
  const first = range.getClientRects()[0];
  if (t.width && first && r.right - t.right >= w + 8) {
    return { left: t.right + 4, top: first.top + first.height / 2 - h / 2 };
  }
  return { left: r.right - w + 4, top: r.top - h + 4 };
}

// A +n/-n badge beside an element (badgeSpot), floating up and fading out (removed when done). It stays
// inside what shows of the element's boxes (the board area, the phone's column, the players panel),
// its whole float included, so it never covers the top line; none for an element scrolled out of sight.
const FLOAT = 18;  // px the badge rises (its keyframes below)
function badge(e, delta, ms) {
  const r = e.getBoundingClientRect();
  if (!r.width && !r.height) return;
  const c = clipBox(e);
  if (r.bottom <= c.top || r.top >= c.bottom || r.right <= c.left || r.left >= c.right) return;
  const b = document.createElement("span");
  b.className = `fx-badge ${delta < 0 ? "minus" : "plus"}`;
  b.textContent = `${delta > 0 ? "+" : "−"}${Math.abs(delta)}`;
  b.setAttribute("aria-hidden", "true");
  document.body.append(b);
  const w = b.offsetWidth;
  const h = b.offsetHeight;
  const within = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
  const at = badgeSpot(e, r, w, h);
  b.style.left = `${within(at.left, c.left, c.right - w)}px`;
  b.style.top = `${within(at.top, c.top + FLOAT, c.bottom - h - 4)}px`;
  const a = b.animate([{ transform: "translateY(4px)", opacity: 0 }, { transform: "translateY(-6px)", opacity: 1, offset: 0.25 },
    { transform: `translateY(-${FLOAT}px)`, opacity: 0 }], { duration: Math.max(ms, 600) * 1.4, easing: "ease-out" });
  a.onfinish = () => b.remove();
  a.oncancel = () => b.remove();
}

// Count a number shown as an element's text from ``from`` to ``to`` over ``ms``.
function countUp(e, from, to, ms) {
  if (!Number.isFinite(from) || !Number.isFinite(to) || from === to) return;
  const text = e.textContent.trim();
  if (text !== String(to)) return;  // the element shows more than the number: leave it
  const t0 = performance.now();
  const step = (now) => {
    const f = Math.min(1, (now - t0) / ms);
    e.textContent = String(Math.round(from + (to - from) * f));
    if (f < 1 && e.isConnected) requestAnimationFrame(step);
    else e.textContent = String(to);
  };
  requestAnimationFrame(step);
}

// Glide ``e`` from the box ``was`` to where it is now (First, Last, Invert, Play).
function glide(e, was, ms) {
  const now = e.getBoundingClientRect();
  const dx = was.left + was.width / 2 - (now.left + now.width / 2);
  const dy = was.top + was.height / 2 - (now.top + now.height / 2);
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  e.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
    { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
}

function tumble(area, faces, ms) {
  const dice = area.matches("[data-die]") ? [area] : Array.from(area.querySelectorAll("[data-die]"));
  dice.forEach((d, i) => {
    const spin = (i % 2 ? -1 : 1) * (300 + 60 * (i % 3));
    d.animate([
      { transform: `translateY(-10px) rotate(${spin}deg) scale(.7)`, opacity: 0.5 },
      { transform: `translateY(2px) rotate(${spin / 12}deg) scale(1.06)`, opacity: 1, offset: 0.7 },
      { transform: "none", opacity: 1 },
    ], { duration: ms, delay: Math.min(i * 40, ms / 4), easing: "ease-out", fill: "backwards" });
  });
}

function flip(e, ms) {
  e.animate([{ transform: "perspective(400px) rotateY(90deg)" }, { transform: "none" }], { duration: ms * 0.7, easing: "ease-out" });
}

function pulse(e, ms) {
  e.animate([{ boxShadow: "0 0 0 0 rgba(240, 190, 60, .9)" }, { boxShadow: "0 0 0 8px rgba(240, 190, 60, 0)" }],
    { duration: Math.max(ms, 400), easing: "ease-out" });
}

// Animate the effects after the swap; ``rects`` from noteRects before it. ``ms`` 0 or
// ``motion`` false: only mark the elements. Never throws (a board without keys is just shown).
export function play(effects, rects, { ms = 500, motion = true } = {}) {
  const animate = motion && ms > 0 && typeof Element.prototype.animate === "function";
  for (const fx of effects) {
    try {
      playOne(fx, rects, animate, ms);
    } catch (err) {
      console.warn("effect not shown", fx, err);
    }
  }
}

function playOne(fx, rects, animate, ms) {
  switch (fx.type) {
    case "roll":
    case "set_aside": {
      const area = byKey(fx.key);
      mark(area);
      if (area && animate) {
        if (fx.type === "roll") tumble(area, fx.faces, ms);
        else if (rects.has(fx.key)) glide(area, rects.get(fx.key), ms);
      }
      break;
    }
    case "move":
    case "take": {
      const piece = byKey(fx.key) || byKey(fx.to);
      mark(piece);
      mark(byKey(fx.to));
      const was = rects.get(fx.key) || rects.get(fx.from);
      if (piece && animate && was) glide(piece, was, ms);
      break;
    }
    case "count":
    case "score": {
      const key = fx.type === "score" ? keyOfScore(fx.seat) : fx.key;
      const e = byKey(key);
      if (!e) break;
      mark(e);
      if (typeof fx.delta === "number" && fx.delta !== 0) {
        if (animate) badge(e, fx.delta, ms);
        const to = Number(e.dataset.count ?? (fx.value ?? NaN));
        if (animate && Number.isFinite(to)) countUp(e, to - fx.delta, to, ms);
      }
      break;
    }
    case "reveal": {
      const e = byKey(fx.key) || byKey(fx.at);
      mark(e);
      if (e && animate) flip(e, ms);
      break;
    }
    case "turn": {
      const row = byKey(`seat-${fx.seat}`);
      mark(row);
      if (row && animate) pulse(row, ms);
      break;
    }
    case "round":
    case "round_begins": {
      const b = document.getElementById("board");
      if (b && animate) pulse(b, ms);
      break;
    }
    default:
      break;
  }
}
