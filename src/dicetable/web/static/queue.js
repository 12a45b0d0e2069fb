// The version queue of the table page (docs/web.md, "The live table"): the socket's
// messages become full views, one per version, shown in order and at the table's pace.
//
// A `view` message is a whole view (`parts`: {part id: HTML}; an older server sends one
// `board` string, taken as the single part "board"). A `change` message applies to the
// view whose (undos, version) is its `base`: it sets top-level fields (`set`), appends log
// lines (`log`), patches the observation (`patch`) and replaces changed parts (`parts`).
// A change whose base is not the last view received makes the queue ask for a full view
// ({"type": "resync"}) and ignore changes until it comes. Pure functions first (no DOM).

// The order of a table's views: (undos, version). An undo lowers the version but raises
// undos (every action taken back is counted), so the larger key is the newer view.
export const keyOf = (v) => [typeof v.undos === "number" ? v.undos : 0, v.version];
export const compareKeys = (a, b) => a[0] - b[0] || a[1] - b[1];
export const keyText = (k) => `${k[0]}:${k[1]}`;

// A full view message as the page keeps it: the message type dropped, the board as parts.
export function normalizeView(msg) {
  const { type, board, ...view } = msg;
  if (!view.parts || typeof view.parts !== "object") {
    view.parts = typeof board === "string" && board ? { board } : null;
  }
  if (!view.last || typeof view.last !== "object") view.last = {};
  return view;
}

// ``root`` with the value at ``path`` replaced by fn(old value); containers along the path
// are copied, so the view it came from is left as it was.
function updateIn(root, path, fn) {
  if (!path.length) return fn(root);
  const [k, ...rest] = path;
  const copy = Array.isArray(root) ? root.slice() : { ...(root && typeof root === "object" ? root : {}) };
  copy[k] = updateIn(root && typeof root === "object" ? root[k] : undefined, rest, fn);
  return copy;
}

// The observation after a patch: ops ["s", path, value] (set), ["d", path] (delete that key or
// list item), ["a", path, [items]] (append to the list at path). Throws on an unknown op.
export function patchObservation(obs, patch) {
  let out = obs;
  for (const op of patch || []) {
    const [kind, path] = op;
    if (!Array.isArray(path)) throw new Error(`a patch path is a list of keys, not ${JSON.stringify(path)}`);
    if (kind === "s") out = updateIn(out, path, () => op[2]);
    else if (kind === "a") out = updateIn(out, path, (list) => [...(Array.isArray(list) ? list : []), ...op[2]]);
    else if (kind === "d") {
      if (!path.length) throw new Error("a delete op needs a path");
      const last = path[path.length - 1];
      out = updateIn(out, path.slice(0, -1), (parent) => {
        if (Array.isArray(parent)) { const c = parent.slice(); c.splice(Number(last), 1); return c; }
        const c = { ...(parent || {}) };
        delete c[last];
        return c;
      });
    } else throw new Error(`unknown patch op ${JSON.stringify(kind)}: use "s", "d" or "a"`);
  }
  return out;
}

// The view after ``change`` (its base must be ``view``'s key): a new object, ``view`` untouched.
export function applyChange(view, change) {
  const next = { ...view, ...(change.set || {}) };
  next.version = change.version;
  next.undos = change.undos;
  if (Array.isArray(change.log) && change.log.length) next.log = [...(view.log || []), ...change.log];
  if (Array.isArray(change.patch) && change.patch.length) next.observation = patchObservation(view.observation, change.patch);
  if (change.parts && Object.keys(change.parts).length) {
    next.parts = { ...(view.parts || {}) };
    for (const [id, html] of Object.entries(change.parts)) {
      if (html === null) delete next.parts[id];  // a part no longer drawn
      else next.parts[id] = html;
    }
  }
  if (!next.last || typeof next.last !== "object") next.last = {};
  return next;
}

// One thing to show: the view, the part ids that changed (null: all of them), the events.
function entry(view, changed = null, events = []) { return { view, changed, events }; }

// Queues the views of one viewer and shows them one at a time through ``show(entry)`` (async).
// Every version is shown, in order, at most one a frame; with ``fast()`` a backlog is skipped to
// its newest view.
// ``send(msg)`` sends a message on the socket (false when it cannot); ``isOwn(key)`` tells a
// version the viewer made itself (never held back); ``pace()`` is the ms each other version
// stays on screen at least (0: no wait); ``fast()`` skips a backlog to its newest view.
export class VersionQueue {
  constructor({ show, send, isOwn, pace, fast = () => false }) {
    Object.assign(this, { show, send, isOwn, pace, fast });
    this.items = [];
    this.tail = null;      // the last view received (what the next change applies to)
    this.shown = null;     // the view on screen
    this.shownAt = 0;      // when it was drawn (performance.now())
    this.shownOwn = true;  // whether it was the viewer's own version
    this.waiting = false;  // a resync was asked: changes are ignored until a view comes
    this.pumping = false;
    this.rushing = false;  // rush(): the backlog is drawn at once, its newest view only
    this.gen = 0;
    this.wake = null;
    this.idle = [];        // resolvers waiting for the queue to empty
  }

  // A message from the socket, in the order it came. Returns false for one that is ignored.
  receive(msg) {
    if (msg.type === "view") {
      const view = normalizeView(msg);
      this.waiting = false;
      this.tail = view;
      this.items.push(entry(view));
      this.pump();
      return true;
    }
    if (msg.type !== "change" || this.waiting) return false;
    const base = Array.isArray(msg.base) ? msg.base : null;
    // A view from an HTTP answer has its board in one piece: a change needs the socket's parts.
    if (!this.tail || !base || compareKeys(base, keyOf(this.tail)) !== 0 || this.tail.overHttp) {
      this.resync();
      return false;
    }
    const view = applyChange(this.tail, msg);
    this.tail = view;
    this.items.push(entry(view, Object.keys(msg.parts || {}), Array.isArray(msg.events) ? msg.events : []));
    this.pump();
    return true;
  }

  // Ask for a full view (a gap: a change for another base than the page's view).
  resync() {
    this.waiting = true;
    if (!this.send({ type: "resync" })) this.waiting = false;
  }

  // A whole view from an HTTP answer (no socket, the hot-seat's spectator view): queued unless
  // it is older than the last view received or shown. False when it is.
  offer(rawView) {
    const view = { ...normalizeView(rawView), overHttp: true };
    const ref = this.tail || this.shown;
    if (ref && compareKeys(keyOf(view), keyOf(ref)) < 0) return false;
    this.tail = view;
    this.items.push(entry(view));
    this.pump();
    return true;
  }

  // Forget what is queued (another viewer's views come next: a hot-seat switch).
  reset() {
    this.gen++;
    this.items = [];
    this.tail = null;
    this.waiting = false;
    this.hurry();
  }

  // Cut the current wait short ("fast" was switched on).
  hurry() { if (this.wake) this.wake(); }

  // True when a newer view than the one on screen has been received and waits its turn (the
  // table's pace): the table is already past what the viewer sees.
  behind() {
    return Boolean(this.tail && this.shown && compareKeys(keyOf(this.tail), keyOf(this.shown)) > 0);
  }

  // Show the newest view received at once (the viewer acted: it must act on the table as it is);
  // the backlog is skipped to it as with "fast". Resolves once it is drawn.
  rush() {
    if (!this.behind()) return Promise.resolve();
    this.rushing = true;
    this.hurry();
    this.pump();
    return this.settled();
  }

  // A promise resolved once nothing is queued or being shown.
  settled() {
    if (!this.pumping && !this.items.length) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.items.length) {
        const gen = this.gen;
        const rushing = this.rushing;
        if ((this.fast() || rushing) && this.items.length > 1) {
          // "Fast" (or a rush): only the newest of a backlog is drawn, board and all.
          const last = this.items[this.items.length - 1];
          this.items = [{ ...last, changed: null, events: [] }];
        }
        const it = this.items[0];
        const order = this.shown ? compareKeys(keyOf(it.view), keyOf(this.shown)) : 1;
        // the version on screen stays the pace unless it or the next is the viewer's own (the viewer
        // acted on what it shows: its own move is drawn at once), or the viewer rushed the queue
        if (order > 0 && !this.shownOwn && !rushing && !this.isOwn(keyOf(it.view))) {
          const left = this.shownAt + this.pace() - performance.now();
          if (left > 0) {
            await new Promise((r) => { this.wake = r; setTimeout(r, left); });
            this.wake = null;
            if (gen !== this.gen) continue;      // reset while waiting: the item went with it
            if (this.rushing) continue;          // rushed: start over, the backlog skipped to its newest view
            if (this.pace() > 0 && this.shownAt + this.pace() > performance.now() + 1) continue;  // woken early, not hurried
          }
        }
        this.items.shift();
        if (order < 0) continue;                 // older than the view on screen: the table moved on
        const drawn = await this.show(it, order > 0);
        if (gen !== this.gen || !drawn) continue;
        if (order > 0 || !this.shown) {
          this.shownAt = performance.now();
          this.shownOwn = this.isOwn(keyOf(it.view));
        }
        this.shown = it.view;
        // Let the browser handle input and paint: at most one view a frame is drawn.
        if (this.items.length || this.pace() === 0) await new Promise((r) => setTimeout(r, this.pace() === 0 ? 16 : 0));
      }
    } finally {
      this.pumping = false;
      this.rushing = false;
    }
    const idle = this.idle;
    this.idle = [];
    for (const r of idle) r();
  }
}
