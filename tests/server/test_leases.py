"""Which process drives a table's bots and clock (dicetable.server.leases): one holder per table on
PostgreSQL, taken over when the holder lets go or its connection ends; every table on SQLite."""

from __future__ import annotations

import time

from dicetable.server import leases
from dicetable.server.leases import Leases
from dicetable.server.store import Store


def eventually(check, within: float = 5.0) -> bool:
    """True as soon as ``check()`` is, asking every 0.05 s; False after ``within`` seconds."""
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_on_postgresql_one_process_at_a_time_drives_a_table(pg, monkeypatch):
    monkeypatch.setattr(leases, "RETRY_AFTER", 0.2)
    store = Store(pg.create_database())
    a, b = Leases(store), Leases(store)  # two processes' leases: each its own database session
    try:
        assert a.shared and b.shared
        assert a.holds("t1") and a.holds("t1")
        assert not b.holds("t1")
        assert b.holds("t2") and not a.holds("t2")  # another table has its own holder
        a.release("t1")
        time.sleep(0.25)  # b asks again RETRY_AFTER after its last try
        assert b.holds("t1") and not a.holds("t1")
        time.sleep(0.25)
        b.close()  # the holder's connection ends (as when its process is killed): its tables are free
        assert eventually(lambda: a.holds("t1") and a.holds("t2"))  # once PostgreSQL has ended b's session
        assert not b.holds("t1")  # closed leases take nothing
    finally:
        a.close()
        b.close()
        store.close()


def test_on_sqlite_the_one_process_drives_every_table(sqlite_url):
    store = Store(sqlite_url)
    try:
        a = Leases(store)
        assert not a.shared and a.holds("t1") and a.holds("t2")
        a.release("t1")
        assert a.holds("t1")
    finally:
        store.close()
