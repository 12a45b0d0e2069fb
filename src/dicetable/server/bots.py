"""Bots at live tables: whose bot moves when, where it thinks (threads or search processes), and hints.

Bots (bot seats, and human seats handed to their bot) move as soon as they
are to move, off the event loop: ``random`` and ``greedy`` in a thread pool,
the search levels (``easy``, ``medium``, ``hard``, ``mcts``) in a process pool
(each level's own iteration and time budget, see ``dicetable.bots.mcts``).
A table's searches go to the search process it is pinned to, in its
client's share of the processes (``dicetable.server.scheduler``). A bot's
move is made by the ``act`` it is given, like anyone's (``by = "bot"``, or
``"clock"`` when a seat's clock ran out).
"""

from __future__ import annotations

import logging
import signal
import threading
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Callable

from dicetable.bots import BOT_NAMES, make_bot
from dicetable.engine import GameState, load_state, seat_name

from .errors import ApiError
#: The remainder that keeps a bot's seed in range: the 63-bit table seed bound of before tables took 64-bit
#: seeds, kept so a table with a given seed has its bots play the moves they always played there.
BOT_SEED_MODULUS = (1 << 63) - 1
from .live import LiveTable
from .scheduler import Lanes, QueueFull
from .workers import stop_process_pool

log = logging.getLogger("dicetable.server")

#: Bot levels a seat may have: every name ``make_bot`` knows.
LEVELS = tuple(BOT_NAMES)
#: Levels that search (run in a process pool, never on a server thread).
SEARCH_LEVELS = frozenset({"easy", "medium", "hard", "expert", "mcts"})
#: How many searches one client may have waiting on one search process.
FAIR_QUEUE_PER_CLIENT = 256
#: The bot that stands in for a human seat unless the creator names another.
DEFAULT_STAND_IN = "greedy"
#: Seconds a hint may take before its caller gives up on it.
HINT_TIMEOUT = 60
#: The Retry-After (seconds) of a hint asked while the seat's previous one is being worked out.
HINT_RETRY = 2


def _choose(state: GameState, seat: int, level: str, seed: int) -> str:
    """The action id a ``level`` bot picks for ``seat`` (runs in a worker thread)."""
    return make_bot(level, seed=seed).choose(state, seat).id


#: A search process's bots, per (table id, seat, level), most recently used last: a bot
#: keeps what it knows of the turn it plays (the time spent against its level's turn cap,
#: the rest of a whole choice, a turn planner's tables), so each of its decisions goes to
#: the process its table is pinned to (``Bots.procs``) and finds it there.
_WORKER_BOTS: OrderedDict[tuple[str, int, str], Any] = OrderedDict()
_WORKER_BOTS_MAX = 256


def _choose_remote(saved: dict, seat: int, level: str, seed: int, table_id: str = "") -> str:
    """The action id a search ``level`` bot picks for ``seat`` in a worker process, from the
    state's ``to_dict``, by the process's bot for (``table_id``, ``seat``, ``level``): made with
    ``seed`` when the process has none (the least recently used of more than
    ``_WORKER_BOTS_MAX`` is dropped). A bot starts its turn afresh when the position is not
    the one its last move led to, so an undo or another process's move costs nothing but
    what it knew."""
    key = (table_id, seat, level)
    bot = _WORKER_BOTS.pop(key, None)
    if bot is None:
        bot = make_bot(level, seed=seed)
    _WORKER_BOTS[key] = bot
    while len(_WORKER_BOTS) > _WORKER_BOTS_MAX:
        _WORKER_BOTS.popitem(last=False)
    return bot.choose(load_state(saved, verify=False), seat).id  # our own state: trusted


def _warm_up() -> int:
    """Run in a new search process so that it starts (and imports the engine) before it is needed."""
    from dicetable.engine import list_games

    return len(list_games())


def _hint_remote(saved: dict, seat: int) -> list:
    from dicetable.bots.mcts import hint_rows

    return [(r.action.id, r.action.label, r.share, r.value, r.kind)
            for r in hint_rows(load_state(saved, verify=False), seat)]


def hint_answer(version: int, seat: int, rows: list) -> dict:
    """The hint answer of ``seat`` at ``version`` from a search's rows (see :meth:`TableManager.hint`);
    a row's ``value`` is null for a choice the search never tried (``HintRow.value`` None)."""
    return {"version": version, "seat": seat,
            "hints": [{"id": i, "label": label, "share": round(share, 4), "value": None if value is None else round(value, 4), "kind": kind}
                      for i, label, share, value, kind in rows]}


class Bots:
    """The bots of every table this process serves: their threads, search processes and hints.

    ``table_of(table_id)`` is the live table (None once it left the cache),
    ``act(table_id, seat, action_id, version, by=...)`` makes a chosen move
    (raising :class:`ApiError` when it is refused, e.g. someone moved first),
    ``stopping()`` says whether the server is stopping (no move is made then).
    """

    def __init__(self, table_of: Callable[[str], LiveTable | None], act: Callable[..., Any],
                 stopping: Callable[[], bool], *, bot_threads: int = 4, search_processes: int = 2) -> None:
        self.table_of = table_of
        self.act = act
        self.stopping = stopping
        self.guard = threading.Lock()
        self.threads = ThreadPoolExecutor(bot_threads, thread_name_prefix="dicetable-bot")
        self.hinting: set[tuple[str, int]] = set()  # (table id, seat) of the hints being worked out
        self.search_processes = max(1, search_processes)
        # a client alone uses search_processes processes; twice as many exist (started when first used)
        # so another client's bots get a process of their own (scheduler.py)
        self.procs: list[ProcessPoolExecutor | None] = [None] * (2 * self.search_processes)
        self.lanes = Lanes(self._start_in, lambda i: self.procs[i] is not None, len(self.procs),
                           per_client=self.search_processes, queue_bound=FAIR_QUEUE_PER_CLIENT)
        self.owners: dict[str, str] = {}  # table id -> the client address that created it (this process's run)

    def start(self, lt: LiveTable, seat: int, level: str, by: str) -> None:
        """Start ``seat``'s ``level`` bot on its decision at ``lt``'s version, unless it is thinking on it
        already (lock held); its move is made with ``by`` once it chose."""
        key = (seat, lt.version)
        if key in lt.thinking:
            return
        lt.thinking.add(key)
        seed = (lt.seed * 1_000_003 + lt.version * 101 + seat) % BOT_SEED_MODULUS
        try:
            if level in SEARCH_LEVELS:
                fut = self.search(lt.id, _choose_remote, lt.state.to_dict(), seat, level, seed, lt.id)
            else:
                fut = self.threads.submit(_choose, lt.state.clone(), seat, level, seed)
        except (RuntimeError, QueueFull):  # shutting down, or the client's share is full: the next kick retries
            lt.thinking.discard(key)
            return
        fut.add_done_callback(lambda f: self._chose(lt.id, seat, key[1], by, f))

    def _chose(self, table_id: str, seat: int, version: int, by: str, fut: Future) -> None:
        if self.stopping() or fut.cancelled():
            return
        try:
            self.threads.submit(self._move, table_id, seat, version, by, fut)
        except RuntimeError:
            pass

    def _move(self, table_id: str, seat: int, version: int, by: str, fut: Future) -> None:
        lt = self.table_of(table_id)
        try:
            action_id = fut.result()
            self.act(table_id, seat, action_id, version, by=by, minimal=True)  # nobody reads a bot's view
        except ApiError:
            pass  # someone moved first (or the table ended): the new state kicked its own bots
        except Exception:
            log.exception("bot of %s seat %s failed", table_id, seat)
        finally:
            if lt is not None:
                with lt.lock:
                    lt.thinking.discard((seat, version))

    def procs_at(self, index: int) -> ProcessPoolExecutor:
        """Search process ``index`` (of ``2 * search_processes``), started on first use."""
        procs = self.procs[index]
        if procs is None:
            import multiprocessing

            with self.guard:
                procs = self.procs[index]
                if procs is None:
                    procs = self.procs[index] = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return procs

    def search(self, table_id: str, fn: Callable[..., Any], *args: Any, client: str | None = None) -> Future:
        """Queue ``fn(*args)`` for the search process ``table_id`` is pinned to (so its bots keep their
        turn there, ``_WORKER_BOTS``), in ``client``'s share (default: the table's creator; :class:`Lanes`).
        Its future; raises :class:`QueueFull` when the client's share is full."""
        who = client if client is not None else self.owners.get(table_id, table_id)
        return self.lanes.submit(who, table_id, fn, *args)

    def _start_in(self, index: int, fn: Callable[..., Any], *args: Any) -> Future:
        """Hand ``fn(*args)`` to search process ``index`` now (its :class:`FairQueue` calls this); its future.

        SIGINT is blocked in this thread while submitting, because submitting is what starts a
        search process, and a started process inherits the thread's signal mask: Ctrl-C at
        ``make run`` reaches the whole process group, and a worker caught by it, even while it
        is still starting up, would print a KeyboardInterrupt traceback to the user. Workers
        keep SIGINT blocked for life; the server stops them itself (:meth:`close`).
        """
        spare = (index + 1) % len(self.procs)
        warm = self.procs[spare] is None  # keep the next process started: a newcomer's bots go there
        pool = self.procs_at(index)  # first: making a pool starts multiprocessing's resource
        # tracker, which unblocks SIGINT in this thread once the tracker runs
        spare_pool = self.procs_at(spare) if warm else None
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            if spare_pool is not None:
                spare_pool.submit(_warm_up)
            return pool.submit(fn, *args)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)

    def start_hint(self, lt: LiveTable, seat: int, client: str | None = None) -> tuple[int, Future]:
        """Start the search for ``seat``'s hint at ``lt`` without waiting: ``(version, future of its rows)``.

        One hint per seat at a time: ApiError 429 (``retry_after`` seconds)
        while the seat's previous one is still being worked out, or when the
        asking ``client`` (an address; None: the table's creator) has too many
        searches waiting; 422 when the seat has no decision. :func:`hint_answer`
        turns the rows into the answer.
        """
        key = (lt.id, seat)
        with lt.lock:
            if seat not in lt.state.to_move:
                raise ApiError(422, f"{seat_name(seat)} has no decision now: there is nothing to hint")
            with self.guard:
                if key in self.hinting:
                    raise ApiError(429, f"{seat_name(seat)} already has a hint being worked out; wait for its "
                                        "answer before asking again", retry_after=HINT_RETRY)
                self.hinting.add(key)
            saved, version = lt.state.to_dict(), lt.version

        def done(_: Future) -> None:
            with self.guard:
                self.hinting.discard(key)

        try:
            fut = self.search(lt.id, _hint_remote, saved, seat, client=client)
        except QueueFull:
            done(Future())
            raise ApiError(429, "too many searches of yours are waiting for the server; ask again in a "
                                "moment", retry_after=HINT_RETRY) from None
        except BaseException:
            done(Future())
            raise
        fut.add_done_callback(done)
        return version, fut

    def close(self) -> None:
        """Stop the threads and search processes (running searches are abandoned and their worker
        processes stopped)."""
        self.lanes.cancel_all()
        self.threads.shutdown(wait=False, cancel_futures=True)
        for procs in self.procs:
            if procs is not None:
                stop_process_pool(procs)
