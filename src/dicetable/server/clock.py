"""One timer heap for every turn clock of the server: a single thread, however many tables run clocks.

:class:`Timers` keeps the deadlines in a heap and sleeps until the earliest
one; when a deadline comes its call is handed to ``dispatch`` (the table
manager's worker pool), so a slow call never delays the other clocks.
:meth:`Timers.schedule` answers a :class:`Handle` whose ``cancel()`` is
cheap (the entry is dropped when it reaches the top of the heap, or when
cancelled entries are more than half the heap). A server with 5,000 clocked
tables, or one restarting with them, holds one timer thread, not 5,000.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from typing import Any, Callable


class Handle:
    """One scheduled call: ``cancel()`` it to drop it (idempotent; a no-op once it ran)."""

    __slots__ = ("when", "fn", "args", "cancelled", "_timers")

    def __init__(self, when: float, fn: Callable[..., Any], args: tuple, timers: "Timers") -> None:
        self.when = when
        self.fn = fn
        self.args = args
        self.cancelled = False
        self._timers = timers

    def cancel(self) -> None:
        """Drop this call if it has not run yet."""
        if not self.cancelled:
            self.cancelled = True
            self._timers.note_cancelled()


class Timers:
    """A timer heap served by one daemon thread (started at the first ``schedule``).

    ``dispatch(fn, *args)`` runs a due call (default: in the timer thread
    itself); an exception from it is swallowed so one bad call cannot stop
    every clock. ``clock`` is the monotonic time source (seconds).
    """

    def __init__(self, dispatch: Callable[..., Any] | None = None, *, name: str = "dicetable-clock",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.dispatch = dispatch or (lambda fn, *args: fn(*args))
        self.name = name
        self.clock = clock
        self._heap: list[tuple[float, int, Handle]] = []
        self._order = itertools.count()
        self._dead = 0
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def schedule(self, delay: float, fn: Callable[..., Any], *args: Any) -> Handle:
        """Call ``fn(*args)`` (through ``dispatch``) ``delay`` seconds from now; its handle.

        After :meth:`close` the handle comes back cancelled and nothing runs.
        """
        handle = Handle(self.clock() + delay, fn, args, self)
        with self._cond:
            if self._closed:
                handle.cancelled = True
                return handle
            heapq.heappush(self._heap, (handle.when, next(self._order), handle))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
            if self._heap[0][2] is handle:
                self._cond.notify()
        return handle

    def pending(self) -> int:
        """How many calls are scheduled and not cancelled."""
        with self._cond:
            return sum(1 for _, _, h in self._heap if not h.cancelled)

    def close(self) -> None:
        """Drop every pending call and stop the thread (it exits within its current wait)."""
        with self._cond:
            self._closed = True
            for _, _, handle in self._heap:
                handle.cancelled = True
            self._heap.clear()
            self._cond.notify()

    def note_cancelled(self) -> None:
        """A handle was cancelled (called by :meth:`Handle.cancel`): when more than 64 cancelled
        entries make up over half the heap, they are dropped and the heap rebuilt."""
        with self._cond:
            self._dead += 1
            if self._dead > 64 and self._dead * 2 > len(self._heap):
                self._heap = [entry for entry in self._heap if not entry[2].cancelled]
                heapq.heapify(self._heap)
                self._dead = 0

    def _run(self) -> None:
        with self._cond:
            while not self._closed:
                while self._heap and self._heap[0][2].cancelled:
                    heapq.heappop(self._heap)
                    self._dead = max(0, self._dead - 1)
                if not self._heap:
                    self._cond.wait()
                    continue
                wait = self._heap[0][0] - self.clock()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                handle = heapq.heappop(self._heap)[2]
                handle.cancelled = True  # it runs now: a later cancel() is a no-op
                self._cond.release()
                try:
                    self.dispatch(handle.fn, *handle.args)
                except Exception:  # a pool shutting down, or a bad call: the other clocks go on
                    pass
                finally:
                    self._cond.acquire()
