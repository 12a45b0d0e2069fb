"""The page's version queue (static/queue.js) under Node, without a browser: the observation patch
ops, applying a change message, and the queue's order, resync and pace (docs/web.md, LIVE wire)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from dicetable.web import render

QUEUE = Path(render.__file__).parent / "static" / "queue.js"


def _node(tmp_path: Path, script: str):
    """Run ``script`` (an ES module that imports ./queue.mjs and prints JSON) under Node; its JSON."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    shutil.copy(QUEUE, tmp_path / "queue.mjs")
    (tmp_path / "t.mjs").write_text(script)
    out = subprocess.run([node, str(tmp_path / "t.mjs")], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_patch_ops_set_delete_and_append_without_touching_the_old_observation(tmp_path):
    got = _node(tmp_path, """
import { patchObservation } from "./queue.mjs";
const obs = {players: [{gold: 1, cards: ["a"]}, {gold: 2}], round: 1, tmp: true};
const before = JSON.stringify(obs);
const out = patchObservation(obs, [["s", ["players", 0, "gold"], 4], ["a", ["players", 0, "cards"], ["b", "c"]],
  ["d", ["tmp"]], ["s", ["round"], 2], ["d", ["players", 1]], ["s", ["new", "deep"], 1]]);
let bad = null; try { patchObservation(obs, [["x", []]]); } catch (e) { bad = e.message; }
console.log(JSON.stringify({out, same: JSON.stringify(obs) === before, bad}));
""")
    assert got["out"] == {"players": [{"gold": 4, "cards": ["a", "b", "c"]}], "round": 2, "new": {"deep": 1}}
    assert got["same"] is True
    assert "unknown patch op" in got["bad"]


def test_a_change_sets_fields_appends_the_log_and_replaces_only_the_changed_parts(tmp_path):
    got = _node(tmp_path, """
import { applyChange, normalizeView } from "./queue.mjs";
const view = normalizeView({type: "view", version: 4, undos: 0, seat: 1, log: ["a"], observation: {x: 1},
  parts: {board: "<div data-part='p-0'></div>", "p-0": "old", dice: "d"}, to_move: [0], last: {}});
const next = applyChange(view, {type: "change", version: 5, undos: 0, base: [0, 4], events: [], log: ["b"],
  set: {to_move: [1], last: {"0": "rolled"}}, patch: [["s", ["x"], 2]], parts: {"p-0": "new"}});
const old = normalizeView({type: "view", version: 1, board: "<b>whole</b>"});
console.log(JSON.stringify({next, view, old}));
""")
    nxt = got["next"]
    assert (nxt["version"], nxt["undos"], nxt["seat"]) == (5, 0, 1)
    assert nxt["log"] == ["a", "b"] and nxt["to_move"] == [1] and nxt["last"] == {"0": "rolled"}
    assert nxt["observation"] == {"x": 2}
    assert nxt["parts"] == {"board": "<div data-part='p-0'></div>", "p-0": "new", "dice": "d"}
    assert got["view"]["version"] == 4 and got["view"]["parts"]["p-0"] == "old"  # the old view is kept
    assert got["old"]["parts"] == {"board": "<b>whole</b>"} and "board" not in got["old"]


QUEUE_RUN = """
import { VersionQueue } from "./queue.mjs";
const shown = [], sent = [];
const own = new Set(%(own)s);
const q = new VersionQueue({
  show: async (e, advanced) => { shown.push([e.view.version, e.changed, Math.round(performance.now())]); return true; },
  send: (m) => { sent.push(m); return true; },
  isOwn: (k) => own.has(`${k[0]}:${k[1]}`),
  pace: () => %(pace)d,
  fast: () => %(fast)s,
});
const view = (v) => ({type: "view", version: v, undos: 0, parts: {board: "b"}, log: []});
const change = (base, v, parts = {}) => ({type: "change", version: v, undos: 0, base: [0, base], parts, log: [], events: []});
const t0 = Math.round(performance.now());
%(steps)s
await q.settled();
console.log(JSON.stringify({shown: shown.map(([v, c, t]) => [v, c, t - t0]), sent}));
"""


def test_the_queue_shows_versions_in_order_and_asks_for_a_view_after_a_gap(tmp_path):
    steps = """
q.receive(view(3));
q.receive(change(3, 4, {"p-1": "x"}));
q.receive(change(5, 6));       // a gap: version 5 never came -> resync, ignored
q.receive(change(6, 7));       // ignored until the next view
q.receive(view(7));
q.receive(change(7, 8, {dice: "y"}));
q.receive(view(2));            // older than the view on screen: never drawn
"""
    got = _node(tmp_path, QUEUE_RUN % {"own": "[]", "pace": 0, "fast": "false", "steps": steps})
    assert [v for v, _, _ in got["shown"]] == [3, 4, 7, 8]
    assert [c for _, c, _ in got["shown"]] == [None, ["p-1"], None, ["dice"]]
    assert got["sent"] == [{"type": "resync"}]


def test_fast_skips_a_backlog_to_its_newest_view_drawn_whole(tmp_path):
    """"Fast": versions 4 to 6 arrive while 3 is being drawn; only 6 is drawn next, whole
    (its board from all its parts, since the skipped changes' parts were never swapped in)."""
    steps = """
q.receive(view(3));
q.receive(change(3, 4, {"p-1": "x"})); q.receive(change(4, 5, {dice: "y"})); q.receive(change(5, 6, {"p-2": "z"}));
"""
    got = _node(tmp_path, QUEUE_RUN % {"own": "[]", "pace": 0, "fast": "true", "steps": steps})
    assert [(v, c) for v, c, _ in got["shown"]] == [(3, None), (6, None)]


def test_each_version_not_the_viewers_own_stays_the_pace(tmp_path):
    """Pace 200 ms: versions 1 and 2 (others' moves) stay at least 200 ms each; version 4 (the
    viewer's own move) is not held back by version 3 (the viewer acted on what it showed), nor does
    it hold back version 5."""
    steps = """
q.receive(view(1));
q.receive(change(1, 2)); q.receive(change(2, 3)); q.receive(change(3, 4)); q.receive(change(4, 5));
"""
    got = _node(tmp_path, QUEUE_RUN % {"own": '["0:4"]', "pace": 200, "fast": "false", "steps": steps})
    times = {v: t for v, _, t in got["shown"]}
    assert sorted(times) == [1, 2, 3, 4, 5]
    assert times[2] - times[1] >= 195 and times[3] - times[2] >= 195
    assert times[4] - times[3] < 100   # version 4 is the viewer's own: drawn at once
    assert times[5] - times[4] < 100   # version 4 is the viewer's own: version 5 follows at once


def test_rush_shows_the_newest_view_at_once_whatever_the_pace(tmp_path):
    """Pace 5 s: versions 2 to 4 (others' moves) arrive while 1 is on screen; the viewer acts, the page
    rushes: the queue was behind, and version 4 alone is drawn next, whole, long before the pace, and
    the queue is no longer behind."""
    steps = """
q.receive(view(1));
await new Promise((r) => setTimeout(r, 50));
q.receive(change(1, 2, {"p-1": "x"})); q.receive(change(2, 3)); q.receive(change(3, 4));
await new Promise((r) => setTimeout(r, 50));
const before = q.behind();
await q.rush();
shown.push([before ? "behind" : "level", q.behind() ? "behind" : "level", 0]);
"""
    got = _node(tmp_path, QUEUE_RUN % {"own": "[]", "pace": 5000, "fast": "false", "steps": steps})
    drawn = [(v, c) for v, c, _ in got["shown"][:-1]]
    assert drawn == [(1, None), (4, None)]
    assert got["shown"][-1][:2] == ["behind", "level"]
    times = {v: t for v, _, t in got["shown"][:-1]}
    assert times[4] - times[1] < 1000  # not the 5 s pace
