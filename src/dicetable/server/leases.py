"""Which server process drives a table's bots and clock when several share one PostgreSQL database.

Any process serves any table (views, actions, live pushes), but a bot's move
and a clock that runs out must be played by one process only: otherwise
every process with the table in memory would think for the same seat and
race to store the same decision. The process that drives a table is the one
holding a PostgreSQL *session advisory lock* named after the table
(``pg_try_advisory_lock``), taken on a connection of its own.

Why an advisory lock rather than a lease row: the lock belongs to the
holder's database session, so when the process dies (even by SIGKILL) its
connection closes and PostgreSQL releases the lock at once, with no
heartbeat to write and no expiry to wait for; and taking it writes nothing.
Correctness never rests on it: every append is still checked against the
table's version (``(table_id, seq)`` unique), so if two processes ever
drove one table (the lock connection lost and the lock taken elsewhere),
one move would be stored and the other refused.

A process asks for a table's lock when the table has something to drive (a
bot to move, a human seat's clock), keeps it while the table is in its
memory and running, and gives it back when the game ends or the table
leaves its cache. Tables whose driver went away are adopted by another
process within :data:`ADOPT_EVERY` seconds (:meth:`TableManager.adopt`).
Held locks use PostgreSQL's shared lock table (``max_locks_per_transaction``
times ``max_connections`` entries, 6,400 by default): one per table being
driven. Two tables whose ids hash to the same key (one chance in four billion
for a pair) share a lock: one process drives both, or the second waits until
the first's game ends. With SQLite there is one process and it drives every table.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .live import LiveTable
    from .store import Store

log = logging.getLogger("dicetable.server")

#: Seconds between a process's looks for tables nobody drives (their driver ended or let them go).
ADOPT_EVERY = 1.0
#: Seconds before a process asks again for a lock another process holds.
RETRY_AFTER = 1.0
#: The ``application_name`` of a process's lock connection, followed by its pid: ``pg_locks`` joined
#: with ``pg_stat_activity`` tells which process drives which table.
APPLICATION_NAME = "dicetable-driver"
#: The first half of every table lock's two-number key (the second is the table id's hash).
LOCK_SPACE = 8427102


def to_drive(lt: LiveTable) -> bool:
    """True when ``lt`` has something for its driving process to run: a bot to move, a clock or a time bank."""
    timed = bool(lt.clock) or lt.bank is not None
    return not lt.state.is_over and any(lt.seats[s].by_bot or timed for s in lt.state.to_move)


def driver_query(table_id: str) -> tuple[str, tuple[int, int]]:
    """SQL (and its parameters) giving the ``application_name`` of the process driving ``table_id``, if any."""
    return ("SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objid = %s AND l.objsubid = 2 AND l.granted",
            (LOCK_SPACE, lock_key(table_id) & 0xFFFFFFFF))


def lock_key(table_id: str) -> int:
    """The second number of ``table_id``'s advisory lock: 32 bits of its SHA-256, signed (PostgreSQL int4)."""
    return int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:4], "big", signed=True)


class Leases:
    """This process's share of the tables to drive (thread-safe).

    ``holds(table_id)`` is True when this process drives the table: always
    with SQLite; with PostgreSQL once it holds the table's advisory lock
    (asked for at most every :data:`RETRY_AFTER` seconds per table while
    another process holds it). A lost lock connection drops every lock; the
    next ``holds`` opens a new one and asks again.
    """

    def __init__(self, store: Store) -> None:
        self.shared = store.is_postgres
        self.url = store.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.held: set[str] = set()
        self.tried: dict[str, float] = {}
        self.lock = threading.Lock()
        self.conn: Any = None  # a psycopg connection (autocommit) holding this process's table locks
        self.closed = False

    def holds(self, table_id: str) -> bool:
        """True when this process drives ``table_id`` (takes its lock if it is free)."""
        if not self.shared:
            return True
        with self.lock:
            if table_id in self.held:
                return True
            if self.closed or time.monotonic() - self.tried.get(table_id, -RETRY_AFTER) < RETRY_AFTER:
                return False
            self.tried[table_id] = time.monotonic()
            got = self._ask("SELECT pg_try_advisory_lock(%s, %s)", table_id)
            if got:
                self.held.add(table_id)
                self.tried.pop(table_id, None)
            return bool(got)

    def release(self, table_id: str) -> None:
        """Stop driving ``table_id`` (its game ended, or it left this process's memory)."""
        if not self.shared:
            return
        with self.lock:
            self.tried.pop(table_id, None)
            if table_id in self.held:
                self.held.discard(table_id)
                self._ask("SELECT pg_advisory_unlock(%s, %s)", table_id)

    def close(self) -> None:
        """Give back every lock (closing the connection does it) and ask for none again."""
        with self.lock:
            self.closed = True
            self.held.clear()
            if self.conn is not None:
                try:
                    self.conn.close()
                except Exception:
                    pass
                self.conn = None

    def _ask(self, sql: str, table_id: str) -> Any:
        """Run ``sql`` with the table's key on the lock connection (opened when needed); None on a
        database error (the connection is dropped: its locks are gone with it). Lock held."""
        import psycopg

        try:
            if self.conn is None or self.conn.closed:
                self.held.clear()
                self.conn = psycopg.connect(self.url, autocommit=True, connect_timeout=5,
                                            application_name=f"{APPLICATION_NAME} {os.getpid()}")
            row = self.conn.execute(sql, (LOCK_SPACE, lock_key(table_id))).fetchone()
            return row[0] if row else None
        except psycopg.Error as exc:
            log.warning("table lock connection failed (%s); asking again later", exc)
            self.held.clear()
            try:
                if self.conn is not None:
                    self.conn.close()
            finally:
                self.conn = None
            return None
