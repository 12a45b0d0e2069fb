"""The live wire (LIVE.md section 4): full views, change messages, resync, sharing, and the patch function.

A client that applies every change message to its copy of the full view
(``helpers.follow``: set the ``set`` fields, append the ``log`` lines, apply
the observation ``patch``, swap in the ``parts``) must hold, after every
version, exactly the full view the server would build from scratch for it
now. The games are played in process on a :class:`TableManager` with
connections whose queues are read directly (no event loop), by greedy bots
choosing for every seat, at each title's smallest player count (benchmarks/live_push.py plays the
largest).
"""

from __future__ import annotations

import json
import queue
import threading
from copy import deepcopy

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.bots import make_bot
from dicetable.engine.testing import shipped_games
from dicetable.web import create_site
from dicetable.server.delta import PatchError, apply_patch, diff, same
from dicetable.server.store import Store
from dicetable.server.tables import Subscriber, TableManager

from .helpers import Behind, auth, create, follow, mover_view, tokens_of

GAMES = [(spec.id, spec.min_players) for spec in shipped_games()]


class Inline:
    """An event loop stand-in that runs what is handed to it at once (the manager's pushes)."""

    def call_soon_threadsafe(self, fn, *args):
        fn(*args)


def connect(m: TableManager, lt, seat):
    """A connection of ``seat`` (None: a spectator) whose messages land in a plain queue."""
    sub = Subscriber(seat, Inline(), queue.SimpleQueue())
    m.subscribe(lt, sub)
    return sub


def drain(sub) -> list[str]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


@pytest.fixture
def manager(tmp_path):
    m = TableManager(Store(f"sqlite:///{tmp_path / 'live.db'}"), bot_threads=1)
    yield m
    m.close()
    m.store.close()


@pytest.fixture
def client(sqlite_url):
    """An in-process client of a server on SQLite (the wire does not depend on the database)."""
    with TestClient(create_site(sqlite_url)) as c:
        yield c


def _exact(a, b) -> bool:
    """Equal as JSON texts (types told apart, key order ignored)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("game,players", GAMES)
def test_a_client_following_changes_holds_the_full_view_after_every_version(manager, game, players):
    m = manager
    made = m.create(game, players, {}, 1234, [{"kind": "human"}] * players, None)
    lt = m.get(made["table_id"])
    viewers = [0, players - 1, None]
    subs = {v: connect(m, lt, v) for v in viewers}
    copies = {v: None for v in viewers}
    events = {v: [] for v in viewers}
    bot = make_bot("greedy", seed=5)
    sizes = []
    for step in range(5000):
        for v in viewers:
            for text in drain(subs[v]):
                message = json.loads(text)
                sizes.append(len(text))
                copies[v] = follow(copies[v], message)
                if message["type"] == "change":
                    events[v].extend(message["events"])
            fresh = m.live_view(lt, v)
            assert _exact(copies[v], fresh), f"{game} step {step}: viewer {v}'s copy is not the full view"
            http = m.view(lt, v)
            assert http["log"] == fresh["log"] and http["observation"] == fresh["observation"]
        if lt.state.is_over:
            break
        seat = lt.state.to_move[0]
        action = bot.choose(lt.state, seat).id
        m.act(lt.id, seat, action, lt.version, minimal=True)
    assert lt.state.is_over, f"{game}: the game did not end"
    for v in viewers:  # the events sent are every event the viewer may see since the first view
        seen = [e.to_json() for e in lt.state.log_for(v)]
        for e in seen:
            e.pop("visible", None)
        assert seen[len(seen) - len(events[v]):] == events[v] and len(events[v]) > 0
        assert copies[v]["last"] == {str(s): next(e.text for e in reversed(lt.state.log_for(v)) if e.seat == s)
                                     for s in range(players) if any(e.seat == s for e in lt.state.log_for(v))}
    assert max(sizes) > 0


def test_two_connections_of_a_seat_share_one_build_and_get_the_same_bytes(manager):
    m = manager
    made = m.create("corsairs-of-valeria", 3, {}, 8, [{"kind": "human"}] * 3, None)
    lt = m.get(made["table_id"])
    a, b, spectator = connect(m, lt, 1), connect(m, lt, 1), connect(m, lt, None)
    others = [connect(m, lt, None) for _ in range(3)]
    assert drain(a)[0] == drain(b)[0]
    for sub in [spectator] + others:
        drain(sub)
    bot = make_bot("greedy", seed=1)
    for _ in range(12):
        before = m.builds
        seat = lt.state.to_move[0]
        m.act(lt.id, seat, bot.choose(lt.state, seat).id, lt.version)
        assert m.builds - before == 2  # seat 1's snapshot and the spectators': once each, not per connection
        got_a, got_b = drain(a), drain(b)
        assert got_a == got_b and len(got_a) == 1 and json.loads(got_a[0])["type"] == "change"
        assert got_a[0] is got_b[0]  # one message object, queued twice
        watched = [drain(s) for s in [spectator] + others]
        assert all(w == watched[0] for w in watched) and len(watched[0]) == 1  # a seat not to move may see
        # exactly what a spectator sees (Corsairs hides nothing): equal bytes, from the two snapshots counted above
    # a second connection of a seat already connected changes nothing anyone sees: no push, no build
    before = m.builds
    c = connect(m, lt, 1)
    assert m.builds == before and drain(a) == [] and drain(spectator) == []
    assert json.loads(drain(c)[0]) == m.live_view(lt, 1) | {"type": "view"}


def test_a_seat_connecting_is_a_change_at_the_same_version(manager):
    m = manager
    made = m.create("kingdom-of-dice", 2, {}, 3, [{"kind": "human"}] * 2, None)
    lt = m.get(made["table_id"])
    spectator = connect(m, lt, None)
    view = follow(None, json.loads(drain(spectator)[0]))
    assert [s["connected"] for s in view["seats"]] == [False, False]
    connect(m, lt, 1)
    change = json.loads(drain(spectator)[0])
    assert change["type"] == "change" and change["base"] == [0, view["version"]] == [0, change["version"]]
    assert change["events"] == [] and change["log"] == [] and change["patch"] == [] and change["parts"] == {}
    assert [s["connected"] for s in follow(view, change)["seats"]] == [False, True]


def test_undo_sends_every_connection_a_full_view(manager):
    m = manager
    made = m.create("corsairs-of-valeria", 2, {}, 9, [{"kind": "human"}] * 2, None)
    lt = m.get(made["table_id"])
    seat0 = connect(m, lt, 0)
    drain(seat0)
    for _ in range(40):  # find an action that may be taken back
        seat = lt.state.to_move[0]
        actions = lt.state.legal_actions(seat)
        m.act(lt.id, seat, actions[-1].id, lt.version)
        if lt.actions[-1][2]:
            break
    else:
        pytest.skip("no undoable action in 40 steps")
    drain(seat0)
    m.undo(lt.id, seat, lt.version)
    got = [json.loads(t) for t in drain(seat0)]
    assert got[-1]["type"] == "view" and got[-1]["undos"] == 1 and got[-1] == m.live_view(lt, 0) | {"type": "view"}


def test_resync_after_a_missed_change_gets_the_full_view(client):
    made = create(client, "corsairs-of-valeria", ["human", "human"], seed=21)
    tid, toks = made["table_id"], tokens_of(made)
    with client.websocket_connect(f"/api/tables/{tid}/live?token={toks[1]}") as ws:
        copy = follow(None, json.loads(ws.receive_text()))
        missed = False
        for step in range(6):
            seat, view = mover_view(client, tid, toks)
            r = client.post(f"/api/tables/{tid}/actions", headers={**auth(toks[seat]), "Prefer": "return=minimal"},
                            json={"action": view["legal_actions"][-1]["id"], "version": view["version"]})
            assert r.status_code == 200 and r.json() == {"version": view["version"] + 1, "undos": 0}
            message = json.loads(ws.receive_text())
            if step == 2:  # this change is lost: the copy stays behind
                missed = True
                continue
            if missed:
                with pytest.raises(Behind):
                    follow(copy, message)
                ws.send_text(json.dumps({"type": "resync"}))
                ws.send_text(json.dumps({"type": "something else"}))  # ignored
                message = json.loads(ws.receive_text())
                assert message["type"] == "view"
                missed = False
            copy = follow(copy, message)
            now = client.get(f"/api/tables/{tid}", headers=auth(toks[1])).json()
            assert {k: v for k, v in copy.items() if k not in ("parts", "last")} == \
                {k: v for k, v in now.items() if k != "board"}
        # the full view is the same as the one a new connection gets
        with client.websocket_connect(f"/api/tables/{tid}/live?token={toks[1]}") as again:
            assert json.loads(again.receive_text()) == {"type": "view", **copy}


def test_prefer_return_minimal_answers_version_and_undos_only(client):
    made = create(client, "kingdom-of-dice", ["human", "human"], seed=2)
    tid, toks = made["table_id"], tokens_of(made)
    seat, view = mover_view(client, tid, toks)
    r = client.post(f"/api/tables/{tid}/actions", headers={**auth(toks[seat]), "Prefer": "return=minimal"},
                    json={"action": view["legal_actions"][0]["id"], "version": view["version"]})
    assert r.status_code == 200 and r.json() == {"version": 1, "undos": 0}
    view = client.get(f"/api/tables/{tid}", headers=auth(toks[seat])).json()
    r = client.post(f"/api/tables/{tid}/actions", headers=auth(toks[seat]),
                    json={"action": view["legal_actions"][0]["id"], "version": view["version"]})
    assert r.status_code == 200 and r.json()["version"] == 2 and "observation" in r.json()  # the full view


# ------------------------------------------------------------------ patches
KEYS = st.sampled_from(["a", "b", "c", "d", "seat", "dice"])
SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False, allow_infinity=False) | \
    st.text(max_size=3)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=5),
                    max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(JSON, JSON)
def test_apply_of_diff_turns_a_into_b_exactly(a, b):
    kept = deepcopy(a)
    ops = diff(a, b)
    assert _exact(a, kept)  # diff changes neither argument
    wire = json.loads(json.dumps(ops))  # as the page receives it
    got = apply_patch(json.loads(json.dumps(a)), wire)
    assert got == b
    assert (ops == []) == same(a, b)
    if _exact(a, b):
        assert ops == []


@settings(max_examples=100, deadline=None)
@given(st.lists(JSON, max_size=6), st.lists(JSON, min_size=1, max_size=4))
def test_a_list_that_grew_at_its_end_is_one_append(items, more):
    assert diff({"log": items}, {"log": items + more}) == [["a", ["log"], more]]


def test_json_types_are_told_apart_where_values_are_compared():
    assert diff({"x": 1, "y": 0}, {"x": True, "y": 1}) == [["s", ["x"], True], ["s", ["y"], 1]]
    assert diff({"x": [0, 1]}, {"x": [1, 1.0]}) == [["s", ["x", 0], 1], ["s", ["x", 1], 1.0]]
    assert diff(1, 1.0) == [["s", [], 1.0]]
    assert diff({"x": 1}, {"x": 1}) == [] and diff({"a": 1, "b": 2}, {"b": 2, "a": 1}) == []
    assert diff({"a": 1, "b": 2}, {"a": 1}) == [["d", ["b"]]]


def test_a_patch_that_does_not_fit_is_refused_with_its_operation():
    with pytest.raises(PatchError, match="operation 0"):
        apply_patch({"a": 1}, [["s", ["b", "c"], 2]])
    with pytest.raises(PatchError, match="not a list"):
        apply_patch({"a": 1}, [["a", ["a"], [2]]])
    with pytest.raises(PatchError, match="is not"):
        apply_patch({}, [["x", []]])
    with pytest.raises(PatchError, match="whole document"):
        apply_patch({}, [["d", []]])
    assert apply_patch([1], [["a", [], [2]]]) == [1, 2]


class Watching:
    """An event loop stand-in that notes, for each hand-over, whether the table's lock was free then."""

    def __init__(self, lt):
        self.lt = lt
        self.calls = []

    def call_soon_threadsafe(self, fn, *args):
        free = []

        def try_lock() -> None:  # in another thread: the table's lock is reentrant for its holder
            got = self.lt.lock.acquire(blocking=False)
            if got:
                self.lt.lock.release()  # by the thread that holds it
            free.append(got)

        probe = threading.Thread(target=try_lock)
        probe.start()
        probe.join()
        self.calls.append(free[0])
        fn(*args)


def test_pushes_are_handed_over_once_per_loop_after_the_lock_is_released(manager):
    m = manager
    made = m.create("kingdom-of-dice", 2, {}, 6, [{"kind": "human"}] * 2, None)
    lt = m.get(made["table_id"])
    loop = Watching(lt)
    subs = [Subscriber(v, loop, queue.SimpleQueue()) for v in (0, 1, None, None, None)]
    for sub in subs:
        m.subscribe(lt, sub)
    assert all(not sub.queue.empty() for sub in subs)
    loop.calls.clear()
    seat = lt.state.to_move[0]
    m.act(lt.id, seat, lt.state.legal_actions(seat)[0].id, lt.version)
    # five connections on one loop: one hand-over for the change, made with the table's lock free
    assert loop.calls == [True]
