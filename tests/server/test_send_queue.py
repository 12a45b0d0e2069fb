"""Bounded memory for pushes (issue 26 item 4): a live connection is owed at most ``send_queue``
messages and ``send_queue_bytes`` bytes; a client that falls behind loses its backlog and gets one
full view when it has caught up, then changes again; no push is handed over while a table's lock
is held, a seat that connects included."""

from __future__ import annotations

import asyncio
import json
import queue
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import uvicorn
from hypothesis import given, settings as hsettings, strategies as st
from websockets.sync.client import connect

from dicetable.web import create_site
from dicetable.server.sendqueue import SendQueue
from dicetable.server.settings import Settings
from dicetable.server.store import Store
from dicetable.server.tables import Subscriber, TableManager

from .helpers import auth, create, in_fresh_loop, tokens_of

VIEW = '{"type":"view","version":%d}'
CHANGE = '{"type":"change","version":%d,"pad":"%s"}'


def _ready(q: SendQueue) -> str | None:
    """What ``q.get()`` answers now (it must not wait: something is held, or it is behind and not asked)."""
    assert q.items or (q.behind and not q.asked)
    # a loop of its own, in a thread of its own: this worker's thread may already run one (Playwright's)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, q.get()).result(timeout=10)


def test_an_overflow_drops_the_backlog_and_later_changes_until_a_full_view():
    q = SendQueue(max_messages=4, max_bytes=10_000)
    for n in range(4):
        q.put_nowait(CHANGE % (n, ""))
    assert len(q) == 4 and not q.behind
    q.put_nowait(CHANGE % (4, ""))  # the fifth would pass 4 messages: all five are dropped
    assert (len(q), q.bytes, q.behind, q.dropped, q.overflows) == (0, 0, True, 5, 1)
    q.put_nowait(CHANGE % (5, ""))  # behind: a change cannot be applied by the client, it is dropped
    assert (len(q), q.dropped) == (0, 6)
    assert _ready(q) is None  # caught up: it needs the current full view, said once
    assert not q.items and q.asked
    q.put_nowait(VIEW % 6)
    q.put_nowait(CHANGE % (7, ""))
    assert not q.behind and [_ready(q), _ready(q)] == [VIEW % 6, CHANGE % (7, "")]
    assert q.peak == 4


def test_the_byte_bound_counts_utf8_bytes_and_one_large_view_still_goes_through():
    q = SendQueue(max_messages=64, max_bytes=100)
    q.put_nowait(CHANGE % (0, "é" * 30))  # 60 bytes of é, 30 characters
    assert q.bytes == len((CHANGE % (0, "é" * 30)).encode())
    q.put_nowait(CHANGE % (1, "x" * 40))  # past 100 bytes: dropped with the backlog
    assert q.behind and q.bytes == 0
    big = VIEW % 2 + " " * 500  # a full view larger than the bound alone is held
    q.put_nowait(big)
    assert not q.behind and len(q) == 1 and q.bytes == len(big) and _ready(q) == big


def test_a_bound_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1 message"):
        SendQueue(max_messages=0)


def test_closing_wakes_a_waiting_get_and_every_later_one_with_none():
    async def main():
        q = SendQueue()
        waiting = asyncio.ensure_future(q.get())
        await asyncio.sleep(0)
        assert not waiting.done()  # nothing to send yet
        q.close()
        assert await asyncio.wait_for(waiting, 5) is None and q.closed
        q.put_nowait(VIEW % 1)  # a push that came after the client left is never sent
        assert await asyncio.wait_for(q.get(), 5) is None

    in_fresh_loop(main)


#: One step of a connection: put a change (pad length), put a full view, or send what is ready.
STEPS = st.lists(st.one_of(st.tuples(st.just("change"), st.integers(0, 120)), st.just(("view", 0)),
                           st.just(("send", 0))), max_size=80)


@hsettings(max_examples=200, deadline=None)
@given(steps=STEPS, max_messages=st.integers(1, 6), max_bytes=st.integers(60, 400))
def test_the_queue_never_passes_its_bounds_and_never_sends_a_change_the_client_cannot_apply(
        steps, max_messages, max_bytes):
    q = SendQueue(max_messages, max_bytes)
    sent, seq, gap = [], 0, False  # gap: a change was dropped and no full view was sent since
    nones = 0
    for kind, pad in steps:
        if kind == "send":
            if q.items or (q.behind and not q.asked):
                message = _ready(q)
                if message is None:
                    nones += 1
                    assert gap and not q.items  # said only after a loss, with nothing left to send
                else:
                    sent.append(message)
                    gap = gap and not message.startswith('{"type":"view"')
                    assert not (gap and message.startswith('{"type":"change"')), "a change after a loss"
            continue
        seq += 1
        before = q.dropped
        q.put_nowait(VIEW % seq if kind == "view" else CHANGE % (seq, "x" * pad))
        if q.dropped > before and q.behind:
            gap = True
        assert len(q) <= max_messages
        assert q.bytes <= max_bytes or len(q) == 1
        assert q.bytes == sum(len(m.encode()) for m, _ in q.items)
    versions = [json.loads(m)["version"] for m in sent]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)  # in order, none twice
    assert nones <= q.overflows


# ------------------------------------------------------------------- a real server, a stalled client
class _Server:
    """``app`` served by uvicorn in a thread on 127.0.0.1, its sockets' send buffers small, so a client
    that stops reading holds the server's sender at once (as a slow phone would after a while)."""

    def __init__(self, app) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)  # accepted sockets inherit it
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, ws="websockets-sansio", log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> "_Server":
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


def _stalled(port: int, table_id: str):
    """A spectator's live connection that reads nothing until told: a small receive buffer, no
    compression, and the client library stops reading the socket after one waiting frame."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", port))
    return connect(f"ws://127.0.0.1:{port}/api/tables/{table_id}/live", sock=raw, compression=None,
                   max_queue=1, open_timeout=30)


def _spectator_queue(app, table_id: str) -> SendQueue:
    lt = app.state.manager.tables[table_id]
    (sub,) = [s for s in lt.subscribers if s.key is None]
    return sub.queue


def _move(c: httpx.Client, table_id: str, token: str) -> dict | None:
    """Post seat 0's first legal action when it is to move (None when a bot is); the new view."""
    view = c.get(f"/api/tables/{table_id}", headers=auth(token)).json()
    if not view["legal_actions"]:
        return None
    r = c.post(f"/api/tables/{table_id}/actions", headers=auth(token),
               json={"action": view["legal_actions"][0]["id"], "version": view["version"]})
    assert r.status_code in (200, 409), r.text
    return r.json() if r.status_code == 200 else None


def _quiet(c: httpx.Client, table_id: str, token: str) -> dict:
    """Seat 0's view once it is to move (the bots have played); fails after 60 s."""
    deadline = time.monotonic() + 60
    while True:
        view = c.get(f"/api/tables/{table_id}", headers=auth(token)).json()
        if view["legal_actions"] or view["over"]:
            return view
        assert time.monotonic() < deadline, "the bots did not move"
        time.sleep(0.01)


def test_a_client_that_stops_reading_is_owed_at_most_the_bound_then_gets_a_full_view_and_changes(tmp_path):
    limits = Settings(send_queue=16, send_queue_bytes=64 * 1024)
    app = create_site(f"sqlite:///{tmp_path / 'tables.db'}", settings=limits, bot_threads=2)
    with _Server(app) as server, httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=60) as c:
        made = create(c, "kingdom-of-dice", ["human", "greedy", "greedy", "greedy"], seed=11)
        tid, token = made["table_id"], tokens_of(made)[0]
        with _stalled(server.port, tid) as ws:
            first = json.loads(ws.recv(timeout=30))  # the full view on connecting; then nothing is read
            assert first["type"] == "view"
            q = _spectator_queue(app, tid)
            held, moves = [], 0
            # a minute of table time, compressed: seat 0 moves as soon as it may, three bots in between
            while moves < 400 and not (q.overflows and q.dropped > 3 * limits.send_queue):
                _move(c, tid, token)
                view = _quiet(c, tid, token)
                assert not view["over"], "the game ended before the client fell behind"
                held.append((len(q), q.bytes))
                moves += 1
            assert q.overflows >= 1 and q.dropped > 3 * limits.send_queue, (moves, q.dropped)
            assert max(n for n, _ in held) <= limits.send_queue and q.peak <= limits.send_queue
            assert q.peak_bytes <= limits.send_queue_bytes
            assert q.behind  # still not reading: what it is owed stays dropped
            now = _quiet(c, tid, token)

            # it reads again: whatever was already in flight, then one full view of the table now
            got = []
            while True:
                message = json.loads(ws.recv(timeout=30))
                got.append(message)
                if message["type"] == "view" and message["version"] == now["version"]:
                    break
            fresh = got[-1]
            assert (fresh["undos"], fresh["version"]) == (now["undos"], now["version"])
            assert fresh["legal_actions"] == [] and fresh["seat"] is None  # a spectator's view
            # what was in flight is the start of the stall, each change on the one before; the rest is gone
            at = (first["undos"], first["version"])
            for change in got[:-1]:
                assert change["type"] == "change" and change["base"] == list(at)
                at = (change["undos"], change["version"])
            assert len(got) - 1 < now["version"] - first["version"] - 3 * limits.send_queue
            assert not q.behind and len(q) == 0

            # and then changes again, each on the one before
            after = _move(c, tid, token)
            assert after is not None
            change = json.loads(ws.recv(timeout=30))
            assert change["type"] == "change"
            assert change["base"] == [fresh["undos"], fresh["version"]]
            assert change["version"] == fresh["version"] + 1


def test_a_closed_live_connection_leaves_nothing_for_the_collector_of_its_own(tmp_path):
    """A live connection that ends (client closes) is freed by reference counting: its subscriber, send
    queue, tasks and WebSocket protocol (deflate contexts included) are in no reference cycle. A
    cancelled sender task used to keep its CancelledError, whose traceback held the task's frames:
    the whole connection waited for a collection. (uvicorn's HTTP protocol object of the handshake
    still makes a cycle of its own, about 28 objects a connection; that is the library's.)"""
    from dicetable.server.wsdeflate import PROTOCOL

    from ..cycles import cyclic_garbage

    app = create_site(f"sqlite:///{tmp_path / 'tables.db'}")
    server = _Server(app)
    server.server = uvicorn.Server(uvicorn.Config(app, ws=PROTOCOL, log_level="warning"))
    server.thread = threading.Thread(target=server.server.run, kwargs={"sockets": [server.sock]}, daemon=True)
    with server, httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=60) as c:
        made = create(c, "kingdom-of-dice", ["human", "human"], seed=3)
        tid, token = made["table_id"], tokens_of(made)[0]

        def visit() -> None:
            with connect(f"ws://127.0.0.1:{server.port}/api/tables/{tid}/live?token={token}") as ws:
                assert json.loads(ws.recv(timeout=30))["type"] == "view"

        visit()  # the first connection builds the seat's snapshot, kept while the table lives
        deadline = time.monotonic() + 30
        with cyclic_garbage() as left:
            for _ in range(4):
                visit()
            table = app.state.manager.get(tid)
            while table.subscribers:  # the server has seen each close and unsubscribed it
                assert time.monotonic() < deadline, "a closed connection is still subscribed"
                time.sleep(0.05)
            del table
        kinds = {type(o).__name__ for o in left}
        assert not kinds & {"Subscriber", "SendQueue", "Task", "CancelledError", "WebSocket", "PerMessageDeflate",
                            "LeveledDeflateProtocol", "ServerProtocol", "frame"}, sorted(kinds)
        assert len(left) < 4 * 60  # what is left is uvicorn's own, per connection


# ------------------------------------------------------------------- no hand-over under the lock
class _Probe:
    """An event loop stand-in that records, at each hand-over, whether the table's lock was free:
    tried from another thread, as the lock is reentrant (the calling thread would always get it)."""

    def __init__(self) -> None:
        self.lock = None
        self.free: list[bool] = []

    def _try(self) -> None:
        got = self.lock.acquire(blocking=False)
        if got:
            self.lock.release()
        self.free.append(got)

    def call_soon_threadsafe(self, fn, *args):
        t = threading.Thread(target=self._try)
        t.start()
        t.join()
        fn(*args)


def test_a_seat_that_connects_hands_every_push_over_after_the_lock_is_released(tmp_path):
    m = TableManager(Store(f"sqlite:///{tmp_path / 'tables.db'}"), bot_threads=1)
    try:
        made = m.create("corsairs-of-valeria", 2, {}, 3, None, None)
        lt = m.get(made["table_id"])
        probes = [_Probe() for _ in range(40)]
        queues = [queue.SimpleQueue() for _ in probes]
        for probe, q in zip(probes, queues):
            probe.lock = lt.lock
            m.subscribe(lt, Subscriber(None, probe, q))  # spectators
        before = [q.qsize() for q in queues]
        seat = Subscriber(0, _Probe(), queue.SimpleQueue())
        seat.loop.lock = lt.lock
        m.subscribe(lt, seat)  # seat 0 connects: every spectator sees its 'connected' change
        assert [q.qsize() for q in queues] == [n + 1 for n in before]
        for q in queues:
            *_, last = [q.get() for _ in range(q.qsize())]
            change = json.loads(last)
            assert change["type"] == "change" and change["set"]["seats"][0]["connected"] is True
        assert all(all(p.free) and p.free for p in probes) and all(seat.loop.free) and seat.loop.free
        # an action too: built under the lock, handed over after it
        m.act(lt.id, lt.state.to_move[0], lt.state.legal_actions(lt.state.to_move[0])[0].id, lt.version)
        # each spectator: its own view, seat 0's connection, the action: three hand-overs, all after the lock
        assert all(p.free == [True, True, True] for p in probes)
    finally:
        m.close()
