"""The store's write path on SQLite and PostgreSQL: group commit, never an answer before the commit,
each append's own outcome (stored, or :class:`Conflict` for a lost race) within a shared commit.

To make appends meet in one commit for sure, a test holds the database's write lock from a second
connection (SQLite ``BEGIN IMMEDIATE``; PostgreSQL ``LOCK TABLE actions``): the committer's first
transaction waits on it while the other appends queue up behind.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import contextmanager

import pytest
from sqlalchemy import text

from dicetable.server.models import SeatRow, TableRow
from dicetable.server.store import Conflict, Store, now


def _table(store: Store, table_id: str) -> None:
    store.create(TableRow(id=table_id, game="kingdom-of-dice", players=2, options="{}", seed=1, created=now(),
                          status="running", clock=None),
                 [SeatRow(table_id=table_id, seat=s, kind="human", level="greedy", name=f"P{s}") for s in (0, 1)])


@contextmanager
def write_lock(store: Store):
    """Hold the write lock of ``store``'s database from another connection until the block ends."""
    if store.is_postgres:
        with store.engine.begin() as conn:
            conn.execute(text("LOCK TABLE actions IN EXCLUSIVE MODE"))
            yield
        return
    conn = sqlite3.connect(store.engine.url.database, isolation_level=None, timeout=10)
    try:
        conn.execute("BEGIN IMMEDIATE")
        yield
        conn.execute("COMMIT")
    finally:
        conn.close()


class Appender(threading.Thread):
    """One append in a thread of its own; ``outcome`` is ``"stored"``, ``"conflict"`` or the exception."""

    def __init__(self, store: Store, table_id: str, seq: int, status: str | None = None) -> None:
        super().__init__()
        self.args_ = (store, table_id, seq, status)
        self.outcome: object = None
        self.at: float | None = None

    def run(self) -> None:
        store, table_id, seq, status = self.args_
        try:
            stored = store.append(table_id, seq, 0, f"a{seq}", "seat", False, status=status)
            assert (stored.table_id, stored.seq) == (table_id, seq)
            self.outcome = "stored"
        except Conflict:
            self.outcome = "conflict"
        except Exception as exc:  # reported by the test
            self.outcome = exc
        self.at = time.monotonic()


@pytest.fixture
def store(db_url):
    s = Store(db_url)
    yield s
    s.close()


def _seqs(store: Store, table_id: str) -> list[int]:
    return [a.seq for a in store.load(table_id).actions]


def test_appends_waiting_together_share_one_commit_and_none_is_answered_before_it(store):
    ids = [f"t{i}" for i in range(12)]
    for tid in ids:
        _table(store, tid)
    store.append("t0", 1, 0, "warm", "seat", False)  # the committer runs
    before = store.commits
    with write_lock(store):
        first = Appender(store, "t0", 2)
        first.start()
        time.sleep(0.3)  # the committer is now waiting for the lock with t0's append
        rest = [Appender(store, tid, 1) for tid in ids[1:]]
        for a in rest:
            a.start()
        time.sleep(0.5)
        released = time.monotonic()
        assert all(a.at is None for a in [first, *rest]), "an append was answered before its commit"
    for a in [first, *rest]:
        a.join(30)
    assert [a.outcome for a in [first, *rest]] == ["stored"] * 12
    assert all(a.at >= released for a in [first, *rest])
    assert store.commits - before == 2  # t0's, then the eleven that queued meanwhile in one
    assert _seqs(store, "t0") == [1, 2]
    assert all(_seqs(store, tid) == [1] for tid in ids[1:])


def test_in_a_shared_commit_a_lost_race_or_a_missing_table_fails_only_its_own_append(store):
    for tid in ("won", "fresh", "ends"):
        _table(store, tid)
    store.append("won", 1, 0, "first", "seat", False)
    with write_lock(store):
        blocker = Appender(store, "fresh", 1)
        blocker.start()
        time.sleep(0.3)
        racing = [Appender(store, "won", 1), Appender(store, "gone", 1), Appender(store, "won", 2),
                  Appender(store, "ends", 1, status="over")]
        for a in racing:
            a.start()
        time.sleep(0.5)
    for a in [blocker, *racing]:
        a.join(30)
    assert blocker.outcome == "stored"
    # "won" has action 1 already: its second action 1 is refused, its action 2 is stored; no table "gone"
    assert [a.outcome for a in racing] == ["conflict", "conflict", "stored", "stored"]
    assert [(a.seq, a.action) for a in store.load("won").actions] == [(1, "first"), (2, "a2")]
    assert store.load("gone") is None
    assert store.status("ends") == "over" and store.status("won") == "running"


def test_many_threads_appending_store_every_action_once_in_order(store):
    ids = [f"c{i}" for i in range(20)]
    for tid in ids:
        _table(store, tid)
    threads = [threading.Thread(target=lambda t=tid: [store.append(t, q, q % 2, "x", "seat", False)
                                                       for q in range(1, 11)]) for tid in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(_seqs(store, tid) == list(range(1, 11)) for tid in ids)
