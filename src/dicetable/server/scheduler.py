"""Fair shares of the search processes: one queue per client and table, served round robin (docs/security.md).

Search bot moves and hints are CPU-heavy and run in a few worker processes
(``TableManager._procs``). Handing them to a process pool in arrival order
lets one client's many tables of strong bots fill the queue, so everybody
else's easy-bot move waits behind all of it. Instead each process gets one
job at a time from a :class:`FairQueue`: the next job comes from the client
(a table's creator address, or whoever asked for a hint) started least
recently, and within that client from its table started least recently
(ties: the oldest waiting job first). A client with twenty busy tables thus
gets the same share of a process as a client with one, and the job of a
client that had nothing running is the next to start.

A table stays pinned to its process (its bots keep what they know of the
turn there), so fairness is per process; the wait of a job is at most the
running job plus one job per other client queued on that process.
"""

from __future__ import annotations

import threading
import functools
from collections import OrderedDict, deque
from concurrent.futures import Future
from typing import Any, Callable

#: Starts a job in a process: ``start(fn, *args)`` returns the process's future.
Starter = Callable[..., Future]


class QueueFull(Exception):
    """A client already has ``per_client`` jobs waiting on this process."""


class FairQueue:
    """One worker process's jobs: at most one running, the waiting ones round robin by client, then table.

    ``start`` hands a job to the process (called with no lock held, from
    the thread that submitted or from the thread that finished the previous
    job); ``per_client`` bounds how many jobs one client may have waiting.
    Thread-safe.
    """

    def __init__(self, start: Starter, per_client: int = 256) -> None:
        self._start = start
        self.per_client = per_client
        self._lock = threading.Lock()
        # client -> table -> waiting jobs (submission number, fn, args, outer future)
        self._waiting: dict[str, dict[str, deque[tuple[int, Callable[..., Any], tuple, Future]]]] = {}
        self._last: dict[Any, int] = {}  # client, or (client, table): number of its latest start
        self._submitted = 0
        self._starts = 0
        self._busy = False
        self._running: str | None = None  # the client whose job runs now
        self.started: list[tuple[str, str]] = []  # (client, table) of the latest 1,000 jobs started, oldest first

    def waiting(self, client: str | None = None) -> int:
        """How many jobs wait (of ``client`` only, when given)."""
        with self._lock:
            clients = [self._waiting.get(client, {})] if client is not None else list(self._waiting.values())
            return sum(len(jobs) for tables in clients for jobs in tables.values())

    def load(self, client: str) -> tuple[int, int]:
        """``(other clients with a job waiting or running here, client's own jobs waiting or running here)``."""
        with self._lock:
            others = {c for c in self._waiting if c != client}
            if self._running is not None and self._running != client:
                others.add(self._running)
            own = sum(len(q) for q in self._waiting.get(client, {}).values()) + (self._running == client)
            return len(others), own

    def submit(self, client: str, table: str, fn: Callable[..., Any], *args: Any) -> Future:
        """Queue ``fn(*args)`` for ``client``'s table ``table``; its future (cancel it to drop a waiting job).

        Raises :class:`QueueFull` when ``client`` already has ``per_client`` jobs waiting.
        """
        outer: Future = Future()
        with self._lock:
            tables = self._waiting.get(client, {})
            if sum(len(jobs) for jobs in tables.values()) >= self.per_client:
                raise QueueFull(client)
            self._waiting[client] = tables
            self._submitted += 1
            tables.setdefault(table, deque()).append((self._submitted, fn, args, outer))
        self._next()
        return outer

    def _turn(self, keys: Any, prefix: tuple = ()) -> Any:
        """Whose turn it is among ``keys``: the one started least recently (never: first), ties by the
        oldest waiting job."""
        def oldest(value: dict | deque) -> int:
            return min(q[0][0] for q in value.values()) if isinstance(value, dict) else value[0][0]

        return min(keys, key=lambda k: (self._last.get(prefix + (k,) if prefix else k, -1), oldest(keys[k])))

    def _take(self) -> tuple[str, str, Callable[..., Any], tuple, Future] | None:
        """The next waiting job, removed (lock held): the client whose turn it is, then its table's; None if none."""
        while self._waiting:
            client = self._turn(self._waiting)
            tables = self._waiting[client]
            table = self._turn(tables, (client,))
            jobs = tables[table]
            _, fn, args, outer = jobs.popleft()
            if not jobs:
                del tables[table]
            if not tables:
                del self._waiting[client]
            if outer.set_running_or_notify_cancel():
                self._starts += 1
                self._last[client] = self._last[(client, table)] = self._starts
                if len(self._last) > 8192:  # forget who has nothing waiting: they rejoin as newcomers
                    self._last = {k: v for k, v in self._last.items()
                                  if (k[0] if isinstance(k, tuple) else k) in self._waiting}
                return client, table, fn, args, outer
        return None

    def _next(self) -> None:
        """Start the next job if the process is free."""
        with self._lock:
            if self._busy:
                return
            job = self._take()
            if job is None:
                return
            self._busy = True
            client, table, fn, args, outer = job
            self._running = client
            self.started.append((client, table))
            del self.started[:-1000]
        try:
            inner = self._start(fn, *args)
        except BaseException as exc:  # the pool is shut down: fail this job, free the slot
            outer.set_exception(exc)
            self._done()
            return
        inner.add_done_callback(lambda f: self._finished(f, outer))

    def _finished(self, inner: Future, outer: Future) -> None:
        if inner.cancelled():
            outer.set_exception(RuntimeError("the search was cancelled (the server is stopping)"))
        elif inner.exception() is not None:
            outer.set_exception(inner.exception())
        else:
            outer.set_result(inner.result())
        self._done()

    def _done(self) -> None:
        with self._lock:
            self._busy = False
            self._running = None
        self._next()

    def cancel_all(self) -> None:
        """Drop every waiting job (their futures are cancelled); a running one is left to the pool's shutdown."""
        with self._lock:
            jobs = [job for tables in self._waiting.values() for q in tables.values() for job in q]
            self._waiting.clear()
        for _, _, _, outer in jobs:
            outer.cancel()


class Lanes:
    """Several search processes ("lanes"), each with its :class:`FairQueue`; which lane a table's jobs go to.

    A table is pinned to one lane (its bots keep what they know of the turn
    there). A client's new table goes to the lane with the fewest other
    clients at work, then the fewest of its own jobs, preferring a lane
    whose process is running; a client spreads over at most ``per_client``
    lanes. So a client alone uses ``per_client`` processes, and another
    client's table gets a lane of its own while there is one: its bot's
    search runs beside the others' (the operating system shares the cores;
    searches are capped by time, so it is as quick, with fewer iterations)
    instead of waiting for them. ``start_in(lane, fn, *args)`` hands a job to
    lane ``lane``'s process; ``started(lane)`` says whether that process runs.
    """

    def __init__(self, start_in: Callable[..., Future], started: Callable[[int], bool], lanes: int,
                 per_client: int, queue_bound: int = 256, pins: int = 10_000) -> None:
        self.queues = [FairQueue(functools.partial(start_in, i), per_client=queue_bound) for i in range(lanes)]
        self.per_client = max(1, per_client)
        self._started = started
        self._pins: OrderedDict[str, int] = OrderedDict()  # table -> lane, least recently used first
        self._max_pins = pins
        self._lock = threading.Lock()

    def lane(self, client: str, table: str) -> int:
        """The lane of ``client``'s table ``table`` (pinned on first use, see the class docstring)."""
        with self._lock:
            lane = self._pins.get(table)
            if lane is not None:
                self._pins.move_to_end(table)
                return lane
            loads = [q.load(client) for q in self.queues]
            mine = {i for i, (_, own) in enumerate(loads) if own}
            candidates = sorted(mine) if len(mine) >= self.per_client else range(len(self.queues))
            lane = min(candidates, key=lambda i: (loads[i][0], loads[i][1], not self._started(i), i))
            self._pins[table] = lane
            while len(self._pins) > self._max_pins:
                self._pins.popitem(last=False)
            return lane

    def submit(self, client: str, table: str, fn: Callable[..., Any], *args: Any) -> Future:
        """Queue ``fn(*args)`` on ``table``'s lane in ``client``'s share; raises :class:`QueueFull` as FairQueue does."""
        return self.queues[self.lane(client, table)].submit(client, table, fn, *args)

    def cancel_all(self) -> None:
        """Drop every waiting job of every lane."""
        for queue in self.queues:
            queue.cancel_all()
