"""No thread per clock, no server thread per hint (issue "A server that strangers cannot take down", item 1).

* Every turn clock lives on one timer heap: 5,000 clocked tables, and a
  restart with them, add fewer than 20 threads.
* A seat has at most one hint being worked out (429 with Retry-After for the
  next), and hints wait without holding a server thread: during 300
  concurrent hint requests from one seat ``GET /api/health`` answers under
  200 ms (95 % of the probes; see the test for why not every single one).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from pathlib import Path

import httpx
import pytest

from dicetable.server.clock import Timers
from dicetable.server.store import Store
from dicetable.server.tables import TableManager

from .helpers import ServerProcess, auth, create


# ------------------------------------------------------------------ the timer heap
def test_timers_fire_in_deadline_order_and_cancelled_ones_never():
    fired: list[str] = []
    done = threading.Event()
    timers = Timers()
    try:
        timers.schedule(0.20, fired.append, "c")
        timers.schedule(0.05, fired.append, "a")
        dropped = timers.schedule(0.10, fired.append, "x")
        timers.schedule(0.12, fired.append, "b")
        timers.schedule(0.30, done.set)
        dropped.cancel()
        dropped.cancel()  # twice is fine
        assert done.wait(5)
        assert fired == ["a", "b", "c"]
        assert timers.pending() == 0
    finally:
        timers.close()
    late = timers.schedule(0.01, fired.append, "late")
    assert late.cancelled
    time.sleep(0.05)
    assert fired == ["a", "b", "c"]  # nothing runs after close


def test_many_cancelled_timers_are_compacted_and_one_thread_serves_them_all():
    timers = Timers()
    before = threading.active_count()
    try:
        handles = [timers.schedule(3600 + i, print, i) for i in range(5000)]
        assert threading.active_count() - before == 1
        for h in handles[:4000]:
            h.cancel()
        assert timers.pending() == 1000
        assert len(timers._heap) < 2100  # cancelled entries do not pile up
    finally:
        timers.close()


# ------------------------------------------------------------------ 5,000 clocked tables
@pytest.fixture
def fast_db(tmp_path):
    """A SQLite file in memory-backed /dev/shm when there is one (5,000 commits without disk flushes)."""
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path
    yield f"sqlite:///{folder / 'clocks.db'}"
    if folder != tmp_path:
        shutil.rmtree(folder, ignore_errors=True)


def test_five_thousand_clocked_tables_add_fewer_than_twenty_threads(fast_db):
    store = Store(fast_db)
    manager = TableManager(store, bot_threads=2, max_cached=6000)
    start = threading.active_count()
    try:
        t0 = time.monotonic()
        ids = [manager.create("kingdom-of-dice", 2, {}, i, None, 3600)["table_id"] for i in range(5000)]
        made = time.monotonic() - t0
        assert threading.active_count() - start < 20, threading.active_count() - start
        assert manager.timers.pending() == 5000  # every table's clock is running
        assert all(manager.tables[t].deadline is not None for t in ids)
    finally:
        manager.close()
    # a restart rebuilds a table when it is first used, and starts its clock again: no thread per table
    again = TableManager(store, bot_threads=2)
    before = threading.active_count()
    try:
        t0 = time.monotonic()
        again.start()
        started = time.monotonic() - t0
        assert started < 1 and not again.tables  # nothing replayed at start
        for table_id in ids[:500]:
            assert again.get(table_id).deadline is not None
        assert again.timers.pending() == 500
        assert threading.active_count() - before < 20
    finally:
        again.close()
        store.close()
    print(f"5,000 clocked tables created in {made:.1f} s; restart {started * 1000:.0f} ms")


# ------------------------------------------------------------------ hints
def test_a_second_hint_of_a_seat_is_429_while_the_first_is_worked_out(sqlite_url):
    from fastapi.testclient import TestClient

    from dicetable.server import create_app

    with TestClient(create_app(sqlite_url)) as client:
        made = create(client, "kingdom-of-dice", ["human", "human"], seed=4)
        tid = made["table_id"]
        mover = client.get(f"/api/tables/{tid}").json()["to_move"][0]
        token = made["seats"][mover]["token"]
        manager = client.app.state.manager
        version, pending = manager.start_hint(tid, mover)  # as if a request were waiting for it
        r = client.get(f"/api/tables/{tid}/hint", headers=auth(token))
        assert r.status_code == 429 and "already has a hint" in r.json()["detail"]
        assert int(r.headers["Retry-After"]) >= 1
        pending.result(timeout=60)
        time.sleep(0.05)
        r = client.get(f"/api/tables/{tid}/hint", headers=auth(token))
        assert r.status_code == 200 and r.json()["version"] == version and r.json()["hints"]


#: A client firing N concurrent hint requests (argv: base URL, table id, token, N); prints "go" as it
#: starts and the statuses as JSON at the end. It runs in its own process so that its own work does
#: not slow the health probes down.
BURST = """
import asyncio, json, sys, httpx
base, tid, token, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
async def main():
    limits = httpx.Limits(max_connections=n + 10, max_keepalive_connections=n + 10)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as c:
        async def hint():
            return (await c.get(f"/api/tables/{tid}/hint", headers={"Authorization": f"Bearer {token}"})).status_code
        print("go", flush=True)
        print(json.dumps(await asyncio.gather(*[hint() for _ in range(n)])), flush=True)
asyncio.run(main())
"""


def test_300_concurrent_hints_from_one_seat_keep_health_under_200_ms(sqlite_url):
    server = ServerProcess(sqlite_url).start()
    try:
        with server.client() as c:
            made = create(c, "kingdom-of-dice", ["human", "human"], seed=5)
            tid = made["table_id"]
            mover = c.get(f"/api/tables/{tid}").json()["to_move"][0]
            token = made["seats"][mover]["token"]
            assert c.get(f"/api/tables/{tid}/hint", headers=auth(token)).status_code == 200  # the worker is warm
        burst = subprocess.Popen([sys.executable, "-c", BURST, server.base, tid, token, "300"],
                                 stdout=subprocess.PIPE, text=True)
        assert burst.stdout.readline().strip() == "go"
        times = []
        with httpx.Client(base_url=server.base, timeout=30) as probe:
            while burst.poll() is None or len(times) < 5:
                t0 = time.perf_counter()
                assert probe.get("/api/health").status_code == 200
                times.append(time.perf_counter() - t0)
                time.sleep(0.05)
        statuses = json.loads(burst.stdout.read())
        assert burst.wait(30) == 0
    finally:
        server.stop()
    times_ms = sorted(round(t * 1000) for t in times)
    print(f"health during 300 hints: {len(times)} probes, median {times_ms[len(times) // 2]} ms, "
          f"95th percentile {times_ms[int(len(times) * 0.95)]} ms, max {times_ms[-1]} ms")
    assert statuses.count(200) >= 1 and set(statuses) <= {200, 429}, sorted(set(statuses))
    assert statuses.count(429) >= 250  # one at a time per seat: the rest are turned away at once
    # The machine running the tests is shared: an idle server's single probe sometimes takes 200+ ms
    # (the process was not scheduled). So: 95 % of the probes under 200 ms, and none near the
    # seconds that a server thread per waiting hint cost (43 s in the audit).
    assert times_ms[int(len(times) * 0.95)] < 200, times_ms
    assert times_ms[-1] < 2000, times_ms
