"""Live tables: the cached state of each table, actions, views, bots, clocks and undo.

The engine is the only rules authority. A :class:`LiveTable` holds the state
rebuilt from the table's record (``new_game`` with the stored set-up, then
``state.apply`` for each stored action in ``seq`` order); an action is tried on
a clone, committed to the store, and only then becomes the cached state, so a
refused action (illegal, stale, lost race) changes nothing anywhere.

Views come only from the State protocol: ``observation(seat)``,
``decision(seat)``, ``legal_actions(seat)``, the log filtered with
``Event.visible_to(seat)`` (what ``log_for`` does), ``visible_scores(seat)``
and the game's ``board_view(obs, actions, seat)``; ``seat`` None is a
spectator. Nothing else of the state reaches a client; the seed and the
record stay on the server until the game is over.

Bots (bot seats, and human seats handed to their bot) move as soon as they
are to move, off the event loop: ``random`` and ``greedy`` in a thread pool,
the search levels (``easy``, ``medium``, ``hard``, ``mcts``) in a process pool
(each level's own iteration and time budget, see ``dicetable.bots.mcts``).
A bot's move is stored like anyone's (``by = "bot"``).

Turn clock (optional, ``clock`` seconds per decision): each time a human
seat gets a decision its clock starts (every table's clock lives on one timer
heap, ``dicetable.server.clock``: no thread per table); when it runs out the seat's bot plays
that decision (``by = "clock"``) and the log says so. The seat then counts as
*timed out* until its holder acts again, and while it is timed out any other
human seat of the table may hand it to its bot for good (its holder takes it
back with its token).

Undo: a seat may take back its last action (repeatedly: its last actions)
when that action is the table's last, was chosen by the seat's holder, and
was *undoable*: it drew no randomness (the state's ``chance_mark`` is the same
before and after), it was not part of a simultaneous step (no secret choice
is involved), every event it produced is public (no private information was
revealed), and it did not end the game. "No other seat acted since" holds
because only the table's last action can be taken back. The action's row is
deleted, so the record no longer holds it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import secrets
import signal
import threading
import time
from collections import OrderedDict, deque
from contextlib import contextmanager
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterator

from dicetable.bots import BOT_NAMES, make_bot
from dicetable.engine.markup import as_parts, assemble
from dicetable.engine import (
    DicetableError, GameConfigError, GameState, IllegalActionError, get_game, load_state, new_game, seat_name,
)

from .clock import Handle, Timers
from .delta import diff, same
from .models import SeatRow, TableRow
from .scheduler import Lanes, QueueFull
from .store import Conflict, Record, Store, now, options_text
from .workers import stop_process_pool

log = logging.getLogger("dicetable.server")

#: Bot levels a seat may have: every name ``make_bot`` knows.
LEVELS = tuple(BOT_NAMES)
#: Levels that search (run in a process pool, never on a server thread).
#: How many searches one client may have waiting on one search process.
FAIR_QUEUE_PER_CLIENT = 256

SEARCH_LEVELS = frozenset({"easy", "medium", "hard", "expert", "mcts"})
#: The bot that stands in for a human seat unless the creator names another.
DEFAULT_STAND_IN = "greedy"
#: Largest seed a table accepts (seeds are 63-bit).
MAX_SEED = 2**63 - 1
#: Seconds a hint may take before its caller gives up on it.
HINT_TIMEOUT = 60
#: The Retry-After (seconds) of a hint asked while the seat's previous one is being worked out.
HINT_RETRY = 2


class ApiError(Exception):
    """A refused request: HTTP ``status`` and a ``detail`` naming what was wrong and what is allowed.

    ``retry_after``: whole seconds after which the request may succeed (sent as ``Retry-After``), or None.
    """

    def __init__(self, status: int, detail: str, retry_after: int | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.retry_after = retry_after


def hash_token(token: str) -> str:
    """The hex SHA-256 of a seat token (what the store keeps)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh seat token: 128 random bits from ``secrets``, URL-safe text (22 characters)."""
    return secrets.token_urlsafe(16)


TABLE_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"
#: What any table id looks like (older servers made URL-safe base64 ids): anything else is no table.
TABLE_ID_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,32}")


def new_table_id() -> str:
    """A fresh table id: 14 characters from ``TABLE_ID_ALPHABET`` (about 72 random bits).

    Letters and digits only, so an id is safe wherever it is typed: a URL-safe base64 id could
    start with ``-`` and then read as an option on the command line (``dicetable export -W...``).
    """
    return "".join(secrets.choice(TABLE_ID_ALPHABET) for _ in range(14))


@dataclass
class Seat:
    """A seat as the live table knows it (a :class:`SeatRow` without the session)."""

    seat: int
    kind: str
    level: str
    token_hash: str | None
    name: str
    autoplay: bool = False
    joined: bool = False
    invite_hash: str | None = None
    claimed: bool = False

    @classmethod
    def from_row(cls, row: SeatRow) -> "Seat":
        """Copy a stored seat."""
        return cls(row.seat, row.kind, row.level, row.token_hash, row.name, bool(row.autoplay), bool(row.joined),
                   row.invite_hash, bool(row.claimed))

    @property
    def by_bot(self) -> bool:
        """True when a bot chooses for this seat (a bot seat, or a human seat handed to its bot)."""
        return self.kind == "bot" or self.autoplay


class Subscriber:
    """One WebSocket connection: its viewer (a seat or None) and the queue its task sends from.

    ``rev`` is the revision of the table (``LiveTable.rev``) whose view this
    connection was last sent (None: nothing yet); ``gone`` is set when its
    event loop is closed (the table drops it at its next change).
    """

    __slots__ = ("key", "loop", "queue", "rev", "gone")

    def __init__(self, key: int | None, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str]) -> None:
        self.key = key
        self.loop = loop
        self.queue = queue
        self.rev: int | None = None
        self.gone = False


def _put_all(items: list) -> None:
    """Put each ``(queue, message)`` of ``items`` (runs on the connections' event loop)."""
    for queue, message in items:
        queue.put_nowait(message)


@dataclass
class Snapshot:
    """One viewer's live view of a table at one revision, and the messages made from it.

    ``view`` is the full view of the wire (LIVE.md section 4: WEB.md's fields,
    ``parts`` and ``last``); it is shared by every connection of the viewer and
    never changed. ``log_len`` and ``tail`` say how far the log it shows goes
    (events, and server notes at position ``log_len``); ``change`` is the
    change message from the snapshot of revision ``base`` (None: there is
    none, a connection at ``base`` gets the full view; ``""``: nothing this
    viewer sees changed); ``text`` the full view message, made when first needed.
    """

    rev: int
    epoch: int
    view: dict
    log_len: int
    tail: int
    base: int | None = None
    change: str | None = None
    text: str | None = None

    def full(self) -> str:
        """The ``{"type": "view", ...}`` message of this snapshot (compact JSON, made once)."""
        if self.text is None:
            self.text = _json({"type": "view", **self.view})
        return self.text


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


#: View fields a change message carries in their own entries rather than in ``set``.
_NOT_SET = frozenset({"log", "parts", "observation"})


@dataclass
class LiveTable:
    """A table in memory: set-up, seats, the state after ``version`` actions, and its live machinery.

    ``actions`` is ``[(seat, by, undoable)]`` per applied action; ``notes``
    maps a log position to server lines shown before the event there (a
    clock that ran out); ``undos`` counts the actions taken back (stored with
    the table), so ``(undos, version)`` orders the table's views even across
    an undo; ``lock`` serialises every change and every view.

    Live pushes: ``events`` is the whole log as a list (``log_len`` long);
    ``rev`` counts the changes any viewer could see (actions, seats, clocks,
    connections) and ``epoch`` the rebuilds (a reload: the log may differ,
    so every connection gets a full view); ``live`` holds the current
    :class:`Snapshot` of each viewer with a connection; ``outbox`` the
    messages built under ``lock`` and sent after it is released, in order,
    under ``send_lock``.
    """

    id: str
    game: str
    players: int
    options: dict
    seed: int
    clock: int | None
    seats: list[Seat]
    state: GameState
    status: str = "running"
    seed_chosen: bool = False
    version: int = 0
    undos: int = 0
    log_len: int = 0
    actions: list = field(default_factory=list)
    notes: dict = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)
    subscribers: set = field(default_factory=set)
    events: list = field(default_factory=list)
    rev: int = 0
    epoch: int = 0
    live: dict = field(default_factory=dict)
    outbox: deque = field(default_factory=deque)
    send_lock: threading.Lock = field(default_factory=threading.Lock)
    seats_view: tuple | None = None
    thinking: set = field(default_factory=set)
    timed_out: set = field(default_factory=set)
    timer: Handle | None = None
    deadline: float | None = None
    used: float = field(default_factory=time.monotonic)


def _apply_on(state: GameState, seat: int, action_id: str) -> tuple[list, bool, str]:
    """Apply on ``state`` (raises IllegalActionError, state unchanged); return (events, undoable, label)."""
    before = state.to_move
    mark = state.chance_mark
    label = next((a.label for a in state.legal_actions(seat) if a.id == action_id), action_id)
    events = state.apply(action_id, seat)
    undoable = (len(before) == 1 and state.chance_mark == mark and not state.is_over
                and all(e.visible is None for e in events))
    return events, undoable, label


def _choose(state: GameState, seat: int, level: str, seed: int) -> str:
    """The action id a ``level`` bot picks for ``seat`` (runs in a worker thread)."""
    return make_bot(level, seed=seed).choose(state, seat).id


#: A search process's bots, per (table id, seat, level), most recently used last: a bot
#: keeps what it knows of the turn it plays (the time spent against its level's turn cap,
#: the rest of a whole choice, a turn planner's tables), so each of its decisions goes to
#: the process its table is pinned to (``TableManager._procs``) and finds it there.
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


class TableManager:
    """Every table this process serves: create, load (replay), act, view, bots, clocks, undo, live pushes.

    Thread-safe: HTTP handlers call it from worker threads; pushes reach
    WebSocket tasks through their event loop (``Subscriber.push``). Raises
    :class:`ApiError` for every refused request.
    """

    def __init__(self, store: Store, *, id_factory: Callable[[], str] | None = None, bot_threads: int = 4,
                 search_processes: int = 2,
                 max_cached: int = 5000, abandon_after: float | None = None) -> None:
        from dicetable.engine import list_games

        list_games()  # discover every game now, in one thread: the registry's first discovery is not thread-safe
        self.store = store
        self.id_factory = id_factory or new_table_id
        self.tables: dict[str, LiveTable] = {}
        self.guard = threading.Lock()
        self.load_locks: dict[str, threading.Lock] = {}
        self.threads = ThreadPoolExecutor(bot_threads, thread_name_prefix="dicetable-bot")
        self.timers = Timers(self.threads.submit)  # every table's clock on one timer heap
        self.hinting: set[tuple[str, int]] = set()  # (table id, seat) of the hints being worked out
        self.search_processes = max(1, search_processes)
        # a client alone uses search_processes processes; twice as many exist (started when first used)
        # so another client's bots get a process of their own (scheduler.py)
        self.procs: list[ProcessPoolExecutor | None] = [None] * (2 * self.search_processes)
        self.lanes = Lanes(self._start_in, lambda i: self.procs[i] is not None, len(self.procs),
                           per_client=self.search_processes, queue_bound=FAIR_QUEUE_PER_CLIENT)
        self.owners: dict[str, str] = {}  # table id -> the client address that created it (this process's run)
        self.max_cached = max_cached
        self.abandon_after = abandon_after  # seconds without an action after which a table is abandoned
        self.closed = False
        self.builds = 0  # snapshots built (each viewer's live view, once per table revision)

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Start serving. Nothing is replayed now: after a restart each table is rebuilt from its
        record when it is first used (a view, a live connection, an action), and its bots and clock go
        on from then, so a server with many stored tables starts at once. With ``abandon_after``, a
        sweep runs now and then (:meth:`sweep`)."""
        if self.abandon_after:
            self.timers.schedule(min(60.0, self._sweep_every()), self._sweep_and_again)  # not in the start's rush

    def _sweep_every(self) -> float:
        """Seconds between sweeps: a tenth of ``abandon_after``, between 1 s and an hour."""
        return min(3600.0, max(1.0, (self.abandon_after or 0) / 10))

    def _sweep_and_again(self) -> None:
        try:
            self.sweep()
        except Exception:  # a failed sweep (the database away) is tried again at the next one
            log.exception("sweeping abandoned tables failed")
        if not self.closed and self.abandon_after:
            self.timers.schedule(self._sweep_every(), self._sweep_and_again)

    def sweep(self, at: datetime | None = None) -> list[str]:
        """Finish as abandoned every running table without an action for ``abandon_after`` seconds
        before ``at`` (default now): stored as ``abandoned``, bots and clock stopped, its connections
        told. Abandoned tables take no more actions (409) and their record is public. Their ids."""
        if not self.abandon_after:
            return []
        cutoff = (at or datetime.now(timezone.utc)) - timedelta(seconds=self.abandon_after)
        ids = self.store.abandon_idle(cutoff)
        for table_id in ids:
            lt = self.tables.get(table_id)
            if lt is None:
                continue
            with self.changing(lt):
                lt.status = "abandoned"
                self._kick(lt)  # stops the clock; starts nothing on an abandoned table
                self._publish(lt)
        return ids

    def close(self) -> None:
        """Stop timers, threads and search processes (running searches are abandoned and their worker
        processes stopped; pending bot moves are recomputed when their table is next used)."""
        self.closed = True
        self.timers.close()
        self.lanes.cancel_all()
        self.threads.shutdown(wait=False, cancel_futures=True)
        for procs in self.procs:
            if procs is not None:
                stop_process_pool(procs)

    # -------------------------------------------------------------- loading
    def get(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, rebuilt from the store on a cache miss; ApiError 404 if unknown."""
        lt = self.tables.get(table_id)
        if lt is not None:
            lt.used = time.monotonic()
            return lt
        if not isinstance(table_id, str) or not TABLE_ID_SHAPE.fullmatch(table_id):
            raise ApiError(404, f"there is no table {table_id!r}; table ids are letters, digits, - and _")
        with self.guard:
            lock = self.load_locks.setdefault(table_id, threading.Lock())
        with lock:
            lt = self.tables.get(table_id)
            if lt is None:
                record = self.store.load(table_id)
                if record is None:
                    raise ApiError(404, f"there is no table {table_id!r}; GET /api/tables lists the open ones")
                lt = self._rebuild(record)
                self._evict()
                self.tables[table_id] = lt
                with lt.lock:
                    self._kick(lt)
        return lt

    def _rebuild(self, record: Record) -> LiveTable:
        t = record.table
        state = new_game(t.game, t.players, seed=t.seed, options=json.loads(t.options))
        lt = LiveTable(t.id, t.game, t.players, dict(state.options), t.seed, t.clock,
                       [Seat.from_row(r) for r in record.seats], state, status=t.status, undos=t.undos or 0,
                       seed_chosen=bool(t.seed_chosen))
        lt.events = state.log
        lt.log_len = len(lt.events)  # the set-up's events: notes are placed by log position
        for row in record.actions:
            self._replay_row(lt, row.seq, row.seat, row.action, row.by)
        return lt

    def _replay_row(self, lt: LiveTable, seq: int, seat: int, action_id: str, by: str) -> None:
        if seq != lt.version + 1:
            raise DicetableError(f"table {lt.id}: action {seq} follows action {lt.version} (a gap)")
        events, undoable, label = _apply_on(lt.state, seat, action_id)
        self._book(lt, seat, by, events, undoable, label)

    def _book(self, lt: LiveTable, seat: int, by: str, events: list, undoable: bool, label: str) -> None:
        if by == "clock":
            lt.notes.setdefault(lt.log_len, []).append(
                f"{seat_name(seat)}'s clock ran out: the {lt.seats[seat].level} bot chose for them: {label}")
        lt.log_len += len(events)
        lt.events.extend(events)
        lt.actions.append((seat, by, undoable))
        lt.version += 1
        if lt.state.is_over:
            lt.status = "over"

    def _evict(self) -> None:
        """Drop the least recently used tables without live connections when the cache is full."""
        if len(self.tables) < self.max_cached:
            return
        idle = sorted((lt.used, tid) for tid, lt in self.tables.items()
                      if not lt.subscribers and not lt.thinking and lt.timer is None)
        for _, tid in idle[: max(1, len(idle) // 10)]:
            self.tables.pop(tid, None)

    def refresh(self, table_id: str | None, seq: int | None = None) -> None:
        """Catch up with writes of other processes (PostgreSQL notifications); None: every cached table."""
        if table_id is None:
            for tid in list(self.tables):
                self.refresh(tid)
            return
        lt = self.tables.get(table_id)
        if lt is None:
            return
        with self.changing(lt):
            if seq is not None and seq >= 0 and seq <= lt.version:
                return  # already known (this process's own write reached us first)
            if seq is not None and seq >= lt.version:
                rows = self.store.actions_after(table_id, lt.version)
                if all(r.seq == lt.version + 1 + i for i, r in enumerate(rows)):
                    for row in rows:
                        self._replay_row(lt, row.seq, row.seat, row.action, row.by)
                        self._publish(lt)
                    self._kick(lt)
                    return
            self._reload(lt)

    def _reload(self, lt: LiveTable) -> None:
        """Rebuild ``lt`` in place from the store (an undo, seat changes, or a missed write); lock held.

        A table whose row is gone from the database (removed by hand) leaves the cache: ApiError 404.
        """
        record = self.store.load(lt.id)
        if record is None:
            self.tables.pop(lt.id, None)
            raise ApiError(404, f"table {lt.id!r} is no longer in the database; GET /api/tables lists the open ones")
        fresh = self._rebuild(record)
        for name in ("seats", "state", "status", "version", "undos", "log_len", "events", "actions", "notes"):
            setattr(lt, name, getattr(fresh, name))
        lt.epoch += 1
        lt.thinking = {k for k in lt.thinking if k[1] == lt.version}
        self._publish(lt)
        self._kick(lt)

    # ------------------------------------------------------------- creation
    def create(self, game: str, players: int, options: dict[str, Any], seed: int | None,
               seats: list[dict[str, Any]] | None, clock: int | None, client: str | None = None) -> dict[str, Any]:
        """Create a table; return ``{"table_id", "seats": [{"seat", "kind", "level", "name", "token", "link"}]}``.

        ``client`` (the creator's address) is whose share of the search processes the table's
        bots use (:mod:`dicetable.server.scheduler`); None: the table is a client of its own.

        ``seats`` is one ``{"kind": "human"|"bot", "level", "name"}`` per player
        (a human seat's ``level`` is its stand-in bot); None: every seat human. ApiError 422 naming the
        problem for an unknown game, a player count outside the game's range,
        a bad option, a seat list of the wrong length or an unknown bot level.
        """
        try:
            spec = get_game(game)
        except GameConfigError as exc:
            raise ApiError(422, str(exc)) from None
        if not spec.min_players <= players <= spec.max_players:
            raise ApiError(422, f"{spec.name} is for {spec.min_players} to {spec.max_players} players, "
                                f"not {players}")
        if seats is None:
            seats = [{"kind": "human"} for _ in range(players)]
        if len(seats) != players:
            raise ApiError(422, f"seats lists {len(seats)} seat(s) for {players} players: give one per player")
        chosen = seed is not None
        if seed is None:
            seed = secrets.randbits(63)
        try:
            state = new_game(game, players, seed=seed, options=options)
        except GameConfigError as exc:
            raise ApiError(422, str(exc)) from None
        table_id = self.id_factory()
        out, rows = [], []
        for n, seat in enumerate(seats):
            kind = seat["kind"]
            level = seat.get("level") or (DEFAULT_STAND_IN if kind == "human" else None)
            if kind == "bot" and level is None:
                raise ApiError(422, f"seat {n} is a bot without a level; levels: {', '.join(LEVELS)}")
            if level not in LEVELS:
                raise ApiError(422, f"seat {n}: unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
            name = seat.get("name") or (seat_name(n) if kind == "human" else f"{seat_name(n)} ({level} bot)")
            token = new_token() if kind == "human" else None
            invite = new_token() if kind == "human" else None
            rows.append(SeatRow(table_id=table_id, seat=n, kind=kind, level=level,
                                token_hash=hash_token(token) if token else None, name=name,
                                autoplay=False, joined=False, claimed=False,
                                invite_hash=hash_token(invite) if invite else None))
            entry = {"seat": n, "kind": kind, "level": level if kind == "bot" else None, "name": name,
                     "link": f"/tables/{table_id}" + (f"#invite={n}.{invite}" if invite else "")}
            if token:
                entry["token"] = token
            out.append(entry)
        row = TableRow(id=table_id, game=spec.id, players=players, options=options_text(state.options),
                       seed=seed, created=now(), status="over" if state.is_over else "running", clock=clock,
                       seed_chosen=chosen)
        self.store.create(row, rows)
        lt = LiveTable(table_id, spec.id, players, dict(state.options), seed, clock,
                       [Seat.from_row(r) for r in rows], state, status=row.status, seed_chosen=chosen)
        lt.events = state.log
        lt.log_len = len(lt.events)
        if client is not None:
            self.owners[table_id] = client
        try:
            self.tables[table_id] = lt
            with lt.lock:
                self._kick(lt)
        except BaseException:  # a table that cannot start is not kept: a failed creation stores nothing
            self.tables.pop(table_id, None)
            if lt.timer is not None:
                lt.timer.cancel()
            self.store.delete_table(table_id)
            raise
        return {"table_id": table_id, "seats": out}

    # -------------------------------------------------------------- seats
    def seat_of(self, lt: LiveTable, token: str | None) -> int | None:
        """The seat ``token`` holds at ``lt`` (None for no token: a spectator); ApiError 403 for a wrong token."""
        if token is None:
            return None
        return self._holder(lt, token)

    def _holder(self, lt: LiveTable, token: str) -> int:
        """The seat ``token`` holds at ``lt`` (marked joined); ApiError 403 when it holds none."""
        digest = hash_token(token)
        for seat in lt.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                if not seat.joined:
                    seat.joined = True
                    self.store.update_seat(lt.id, seat.seat, joined=True)
                return seat.seat
        raise ApiError(403, f"this token holds no seat at table {lt.id}; use the link of your seat, "
                            "or no token to watch as a spectator")

    def claim(self, table_id: str, invite: str) -> dict[str, Any]:
        """Claim a seat with its invite (the ``link`` of the creation answer, ``#invite=<seat>.<code>``).

        The claimer gets a fresh token, the invite is used up, and the seat's earlier token (the
        creator's copy) stops working, so the creator can neither act for the seat nor see its secrets.
        Returns ``{"seat", "token", "link"}`` (``link`` opens the seat's page with the new token in
        the address's fragment, which servers never see). ApiError 403 for an invite that is not, or
        no longer, valid; 409 when the table's seed was chosen by its creator (who could then know
        every hidden card and future die).
        """
        lt = self.get(table_id)
        number, _, code = invite.partition(".")
        seat = int(number) if number.isdigit() and len(number) < 3 else -1
        with self.changing(lt):
            info = lt.seats[seat] if 0 <= seat < len(lt.seats) else None
            digest = hash_token(code)
            if info is None or info.invite_hash is None or not hmac.compare_digest(info.invite_hash, digest):
                raise ApiError(403, "this invite is not valid at this table, or it was used already (each "
                                    "seat's invite is claimed once); ask the table's host for a seat")
            if lt.seed_chosen:
                raise ApiError(409, "this table's seed was chosen by whoever created it, so they could know "
                                    "every hidden card and future die: its invites cannot be claimed; play it "
                                    "at one screen, or create a table without a seed")
            token = new_token()
            if not self.store.claim(lt.id, seat, digest, hash_token(token)):
                self._reload(lt)
                raise ApiError(403, "this invite was used already: the seat is claimed")
            info.token_hash, info.invite_hash, info.claimed, info.joined = hash_token(token), None, True, True
            self._publish(lt)
        return {"seat": seat, "token": token, "link": f"/tables/{lt.id}#token={token}"}

    def need_seat(self, lt: LiveTable, token: str | None) -> int:
        """Like :meth:`seat_of` but a token is required (ApiError 401 without one)."""
        if token is None:
            raise ApiError(401, "this needs your seat's token: send the header 'Authorization: Bearer <token>' "
                                "(the token is in your seat's link)")
        return self._holder(lt, token)

    # -------------------------------------------------------------- actions
    def act(self, table_id: str, seat: int, action_id: str, version: int, by: str = "seat",
            minimal: bool = False) -> dict:
        """Apply ``action_id`` for ``seat`` if the table is at ``version``; return the seat's new view
        (``minimal``: only ``{"version", "undos"}``, the live connection brings the rest).

        The action is tried on a clone, appended to the store (committed) and
        only then cached and pushed. ApiError 409 for a stale version or a
        lost race, 409 when the seat is played by its bot, 422 with the
        engine's message for an illegal action.
        """
        lt = self.get(table_id)
        with self.changing(lt):
            if version != lt.version:
                raise ApiError(409, f"version {version} is not the table's version {lt.version}: the table "
                                    "changed since your view (someone moved first); fetch the view and try again")
            if by == "seat" and lt.seats[seat].autoplay:
                raise ApiError(409, f"{seat_name(seat)} is played by its bot now; take the seat back first "
                                    f"(POST /api/tables/{lt.id}/seats/{seat}/take)")
            self._refuse_if_finished(lt)
            state = lt.state.clone()
            try:
                events, undoable, label = _apply_on(state, seat, action_id)
            except IllegalActionError as exc:
                raise ApiError(422, str(exc)) from None
            if by != "seat":
                undoable = False
            try:
                self.store.append(lt.id, lt.version + 1, seat, action_id, by, undoable,
                                  status="over" if state.is_over else None)
            except Conflict:
                self._reload(lt)
                raise ApiError(409, "another move was stored first (the table changed since your view); "
                                    "fetch the view and try again") from None
            lt.state = state
            self._book(lt, seat, by, events, undoable, label)
            if by == "seat":
                lt.timed_out.discard(seat)
            self._publish(lt)
            self._kick(lt)
            if minimal:
                return {"version": lt.version, "undos": lt.undos}
            return self.view(lt, seat)

    def _refuse_if_finished(self, lt: LiveTable) -> None:
        """ApiError 422 when the game is over, 409 when the table was abandoned (lock held)."""
        if lt.status == "abandoned":
            days = f"{self.abandon_after / 86400:g} days" if self.abandon_after else "a long time"
            raise ApiError(409, f"this table was abandoned (no move for {days}): no seat may act; it is kept "
                                f"for its replay at GET /api/tables/{lt.id}/record")
        if lt.status == "over" or lt.state.is_over:
            raise ApiError(422, "the game is over: no seat may act; its record is at "
                                f"GET /api/tables/{lt.id}/record")

    def undo(self, table_id: str, seat: int, version: int) -> dict:
        """Take back ``seat``'s action ``version`` (the table's last); return the seat's view.

        ApiError 409 for a stale version; 422 saying why when the last action
        cannot be taken back (another seat's, a bot's, chance or a secret
        involved, or no action at all).
        """
        lt = self.get(table_id)
        with self.changing(lt):
            if version != lt.version:
                raise ApiError(409, f"version {version} is not the table's version {lt.version}: the table "
                                    "changed since your view; fetch the view and try again")
            if lt.status == "abandoned":
                self._refuse_if_finished(lt)
            if not lt.actions:
                raise ApiError(422, "there is no action to take back")
            last_seat, by, undoable = lt.actions[-1]
            if last_seat != seat or by != "seat":
                raise ApiError(422, "only your own last move can be taken back, and the table's last move "
                                    f"was not yours (it was {seat_name(last_seat)}'s"
                                    + (", chosen by a bot)" if by != "seat" else ")"))
            if not undoable:
                raise ApiError(422, "that move cannot be taken back: it rolled dice, drew or revealed "
                                    "something, was a secret choice, or ended the game")
            if not self.store.drop_last(lt.id, version):
                self._reload(lt)
                raise ApiError(409, "the table changed meanwhile; fetch the view and try again")
            self._reload(lt)
            return self.view(lt, seat)

    def hand_to_bot(self, table_id: str, caller: int, seat: int, level: str | None) -> dict:
        """Let ``seat``'s bot play it from now on (by its holder, or another human seat once its clock ran out).

        ApiError 404 for no such seat, 422 for a bot seat or an unknown level,
        403 when the caller may not.
        """
        lt = self.get(table_id)
        with self.changing(lt):
            target = self._seat(lt, seat)
            if target.kind != "human":
                raise ApiError(422, f"{seat_name(seat)} is a bot seat already")
            if level is not None and level not in LEVELS:
                raise ApiError(422, f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
            if caller != seat and seat not in lt.timed_out:
                raise ApiError(403, f"only {seat_name(seat)}'s holder may hand it to a bot, unless its clock "
                                    "ran out on its current decision")
            values: dict[str, bool | str] = {"autoplay": True}
            if level is not None:
                values["level"] = level
            self.store.update_seat(lt.id, seat, **values)
            target.autoplay = True
            if level is not None:
                target.level = level
            self._publish(lt)
            self._kick(lt)
            return self.view(lt, caller)

    def take_back(self, table_id: str, seat: int, caller: int) -> dict:
        """``seat``'s holder takes it back from its bot. ApiError 403 for another seat's token."""
        lt = self.get(table_id)
        with self.changing(lt):
            target = self._seat(lt, seat)
            if caller != seat:
                raise ApiError(403, f"only {seat_name(seat)}'s own token can take it back")
            if not target.autoplay:
                raise ApiError(422, f"{seat_name(seat)} is not played by a bot; nothing to take back")
            self.store.update_seat(lt.id, seat, autoplay=False)
            target.autoplay = False
            lt.timed_out.discard(seat)
            self._publish(lt)
            self._kick(lt)
            return self.view(lt, seat)

    def _seat(self, lt: LiveTable, seat: int) -> Seat:
        if not 0 <= seat < lt.players:
            raise ApiError(404, f"table {lt.id} has seats 0 to {lt.players - 1}, not {seat}")
        return lt.seats[seat]

    def hint(self, table_id: str, seat: int) -> dict:
        """The hard bot's top three actions for ``seat`` (runs about a second).

        Each hint: ``id``, ``label``, ``share`` of the search's visits, ``value`` (the
        estimated win chance 0-1, or solo the expected final score with a learned value, or
        the hand evaluation's 0-1) and ``kind`` (``win``, ``score`` or ``hand``).
        """
        version, fut = self.start_hint(table_id, seat)
        return hint_answer(version, seat, fut.result(timeout=HINT_TIMEOUT))

    def start_hint(self, table_id: str, seat: int, client: str | None = None) -> tuple[int, Future]:
        """Start the search for ``seat``'s hint without waiting: ``(version, future of its rows)``.

        One hint per seat at a time: ApiError 429 (``retry_after`` seconds)
        while the seat's previous one is still being worked out, or when the
        asking ``client`` (an address; None: the table's creator) has too many
        searches waiting; 422 when the seat has no decision. :func:`hint_answer`
        turns the rows into the answer.
        """
        lt = self.get(table_id)
        key = (table_id, seat)
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
            fut = self._search(table_id, _hint_remote, saved, seat, client=client)
        except QueueFull:
            done(Future())
            raise ApiError(429, "too many searches of yours are waiting for the server; ask again in a "
                                "moment", retry_after=HINT_RETRY) from None
        except BaseException:
            done(Future())
            raise
        fut.add_done_callback(done)
        return version, fut

    # ---------------------------------------------------------------- views
    def view(self, lt: LiveTable, seat: int | None) -> dict:
        """What ``seat`` (None: a spectator) may see of ``lt`` now (WEB.md's view, plus seats and board).

        Beside WEB.md's fields: ``status`` (``running``, ``over`` or ``abandoned``), ``undos`` (actions taken back at this table; views are ordered
        by ``(undos, version)``), ``own_score`` (``GameState.own_score``; ``scores`` is the public
        ``visible_scores(None)``, the final scores once over), ``seats``, ``clock``, ``can_undo``
        and ``board`` (the board's HTML, its keyed parts assembled; None without a board).
        """
        with lt.lock:
            snap = lt.live.get(seat)
            if snap is not None and snap.rev == lt.rev and snap.epoch == lt.epoch:
                view = {k: v for k, v in snap.view.items() if k not in ("parts", "last")}
                parts = snap.view["parts"]
            else:
                view, parts = self._fields(lt, seat)
                view["log"] = self._log_lines(lt, seat)
            view["board"] = _assembled(lt.game, parts)
            return view

    def _fields(self, lt: LiveTable, seat: int | None) -> tuple[dict, dict | None]:
        """The view's fields but the log (set to None, in its place) and the board's parts (lock held)."""
        state = lt.state
        over = state.is_over
        actions = []
        decision = None
        if seat is not None and not over and seat in state.to_move and not lt.seats[seat].autoplay:
            actions = [a.to_json() for a in state.legal_actions(seat)]
            decision = state.decision(seat)  # never None for a seat to move (the engine's promise)
        obs = state.observation(seat)
        view = {
            "table_id": lt.id,
            "game": lt.game,
            "version": lt.version,
            "undos": lt.undos,
            "over": over,
            "status": lt.status,
            "to_move": list(state.to_move),
            "decision": decision.to_json() if decision is not None else None,
            "legal_actions": actions,
            "observation": obs,
            "log": None,
            "scores": list(state.visible_scores(None)),
            "own_score": state.own_score(seat),
            "winners": list(state.winners) if over else [],
            "seat": seat,
            "players": lt.players,
            "seats": self._seats_view(lt),
            "clock": lt.clock,
            "can_undo": bool(seat is not None and lt.actions and lt.actions[-1] == (seat, "seat", True)
                             and not over),
        }
        return view, self._parts(lt, obs, actions, seat)

    def _seats_view(self, lt: LiveTable) -> list[dict]:
        """The ``seats`` field, the same for every viewer: made once per revision (every change of a seat,
        its connections or its clock is published, which starts a revision) and shared."""
        stamp = (lt.rev, lt.epoch, len(lt.subscribers))
        if lt.seats_view is not None and lt.seats_view[0] == stamp:
            return lt.seats_view[1]
        connected = {sub.key for sub in lt.subscribers}
        out = [{"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.level if s.by_bot else None,
                "autoplay": s.autoplay, "connected": s.seat in connected if s.kind == "human" else True,
                "timed_out": s.seat in lt.timed_out, "claimed": s.claimed} for s in lt.seats]
        lt.seats_view = (stamp, out)
        return out

    def _parts(self, lt: LiveTable, obs: dict, actions: list, seat: int | None) -> dict | None:
        """The board as keyed parts ``{part id: html}`` (None without a board, or when drawing fails)."""
        board_view = get_game(lt.game).board_view
        if board_view is None:
            return None
        try:
            return as_parts(board_view(obs, actions, seat))
        except Exception:  # a drawing bug must not take the table down: the page falls back to buttons
            log.exception("board_view of %s failed", lt.game)
            return None

    def _log_lines(self, lt: LiveTable, seat: int | None, start: int = 0, skip: int = 0) -> list[str]:
        """The log lines ``seat`` may see from log position ``start`` on (server notes included), leaving
        out the first ``skip`` notes at ``start`` (those a view up to ``start`` showed already)."""
        if not lt.notes:
            return [e.text for e in lt.events[start:] if e.visible_to(seat)]
        out: list[str] = []
        for i in range(start, lt.log_len):
            out.extend(lt.notes.get(i, ())[skip if i == start else 0:])
            event = lt.events[i]
            if event.visible_to(seat):
                out.append(event.text)
        out.extend(lt.notes.get(lt.log_len, ())[skip if start == lt.log_len else 0:])
        return out

    def _last(self, lt: LiveTable, seat: int | None, start: int = 0, last: dict | None = None) -> dict:
        """``{"<seat>": text}``: each seat's latest event ``seat`` may see, from ``last`` (up to log
        position ``start``) and the events after it."""
        out = dict(last or {})
        if start == 0 and not out:  # from scratch: look back until every seat is found
            for event in reversed(lt.events):
                if event.seat is not None and str(event.seat) not in out and event.visible_to(seat):
                    out[str(event.seat)] = event.text
                    if len(out) == lt.players:
                        break
            return {str(s): out[str(s)] for s in range(lt.players) if str(s) in out}
        for event in lt.events[start:]:
            if event.seat is not None and event.visible_to(seat):
                out[str(event.seat)] = event.text
        return {str(s): out[str(s)] for s in range(lt.players) if str(s) in out}

    def record(self, table_id: str) -> dict:
        """The replay record of a finished table (``dicetable replay`` plays it); ApiError 403 while it runs."""
        lt = self.get(table_id)
        with lt.lock:
            if not lt.state.is_over and lt.status != "abandoned":
                raise ApiError(403, "the record of a running table is secret (its seed would reveal every "
                                    "future die and card); it is available once the game is over")
            return record_of(lt)

    # --------------------------------------------------------------- pushes
    def snapshot(self, lt: LiveTable, seat: int | None) -> Snapshot:
        """``seat``'s (None: the spectators') :class:`Snapshot` of ``lt`` now, built once per revision.

        A new snapshot is built from the previous one of the same viewer
        when there is one of this epoch: its log lines and ``last`` are
        carried on, and its ``change`` message (LIVE.md section 4) is made
        here, once, for every connection of the viewer.
        """
        with lt.lock:
            prev = lt.live.get(seat)
            if prev is not None and prev.rev == lt.rev and prev.epoch == lt.epoch:
                return prev
            if prev is not None and (prev.epoch != lt.epoch or prev.log_len > lt.log_len):
                prev = None
            tail = len(lt.notes.get(lt.log_len, ()))
            if prev is None:
                snap = Snapshot(lt.rev, lt.epoch, self.live_view(lt, seat), lt.log_len, tail)
            else:
                view, parts = self._fields(lt, seat)
                old = prev.view
                lines = self._log_lines(lt, seat, prev.log_len, prev.tail)
                view["log"] = old["log"] + lines if lines else old["log"]
                view["parts"] = parts
                view["last"] = self._last(lt, seat, prev.log_len, old["last"])
                snap = Snapshot(lt.rev, lt.epoch, view, lt.log_len, tail, base=prev.rev)
                snap.change = self._change(lt, seat, prev, view, lines)
            lt.live[seat] = snap
            self.builds += 1
            return snap

    def _change(self, lt: LiveTable, seat: int | None, prev: Snapshot, view: dict, lines: list[str]) -> str:
        """The change message from ``prev`` to ``view`` ("" when nothing ``seat`` sees changed)."""
        old = prev.view
        events = []
        for event in lt.events[prev.log_len:lt.log_len]:
            if event.visible_to(seat):
                shown = event.to_json()
                shown.pop("visible", None)
                events.append(shown)
        changed = {k: v for k, v in view.items() if k not in _NOT_SET and not same(old.get(k), v)}
        patch = diff(old["observation"], view["observation"])
        new_parts, old_parts = view["parts"] or {}, old["parts"] or {}
        parts: dict[str, str | None] = {k: html for k, html in new_parts.items() if old_parts.get(k) != html}
        parts.update((k, None) for k in old_parts if k not in new_parts)  # a part no longer drawn
        if not (events or lines or changed or patch or parts):
            return ""
        return _json({"type": "change", "undos": view["undos"], "version": view["version"],
                      "base": [old["undos"], old["version"]], "events": events, "log": lines,
                      "set": changed, "patch": patch, "parts": parts})

    def live_view(self, lt: LiveTable, seat: int | None) -> dict:
        """``seat``'s full view of the wire, built from scratch now: :meth:`view`'s fields with the board
        as keyed ``parts`` (``{part id: html}``, None without a board) instead of ``board``, and ``last``
        (``{"<seat>": text of that seat's latest event ``seat`` may see}``)."""
        with lt.lock:
            view, parts = self._fields(lt, seat)
            view["log"] = self._log_lines(lt, seat)
            view["parts"] = parts
            view["last"] = self._last(lt, seat)
            return view

    @contextmanager
    def changing(self, lt: LiveTable) -> Iterator[None]:
        """Hold ``lt``'s lock for a change; send the messages it queued once the lock is released."""
        try:
            with lt.lock:
                yield
        finally:
            self._deliver(lt)

    def subscribe(self, lt: LiveTable, sub: Subscriber) -> None:
        """Add a connection and queue it the current full view at once.

        When a seat connects that was not connected, the other connections get
        a change (its ``connected`` flag; same version).
        """
        with self.changing(lt):
            was = any(s.key == sub.key for s in lt.subscribers)
            lt.subscribers.add(sub)
            if sub.key is not None and not was:
                self._publish(lt)
            else:
                self._send_view(lt, sub)

    def resync(self, lt: LiveTable, sub: Subscriber) -> None:
        """Queue ``sub`` the current full view (it asked: it missed a change)."""
        with self.changing(lt):
            if sub in lt.subscribers:
                self._send_view(lt, sub)

    def _send_view(self, lt: LiveTable, sub: Subscriber) -> None:
        snap = self.snapshot(lt, sub.key)
        sub.rev = snap.rev
        lt.outbox.append([(sub, snap.full())])

    def unsubscribe(self, lt: LiveTable, sub: Subscriber) -> None:
        """Remove a connection; the others see the seat's new connected state."""
        with self.changing(lt):
            lt.subscribers.discard(sub)
            if sub.key is not None and not any(s.key == sub.key for s in lt.subscribers):
                self._publish(lt)

    def _publish(self, lt: LiveTable) -> None:
        """Something a viewer may see changed: build each connected viewer's snapshot once and queue each
        connection its change, or its full view when it is not at the change's base (lock held).

        The messages are sent by :meth:`_deliver` once the lock is released
        (:meth:`changing`), in the order they were queued.
        """
        lt.rev += 1
        lt.subscribers -= {sub for sub in lt.subscribers if sub.gone}
        keys = {sub.key for sub in lt.subscribers}
        for key in [k for k in lt.live if k not in keys]:
            del lt.live[key]
        snaps = {key: self.snapshot(lt, key) for key in keys}
        batch = []
        for sub in lt.subscribers:
            snap = snaps[sub.key]
            if sub.rev == snap.rev:
                continue
            if snap.change is not None and sub.rev == snap.base:
                if snap.change:
                    batch.append((sub, snap.change))
            else:
                batch.append((sub, snap.full()))
            sub.rev = snap.rev
        if batch:
            lt.outbox.append(batch)

    def _deliver(self, lt: LiveTable) -> None:
        """Send every queued message, oldest first (one hand-over to each event loop per batch)."""
        with lt.send_lock:
            while lt.outbox:
                batch = lt.outbox.popleft()
                loops: dict = {}
                for sub, message in batch:
                    loops.setdefault(sub.loop, []).append((sub, message))
                for loop, items in loops.items():
                    try:
                        loop.call_soon_threadsafe(_put_all, [(sub.queue, message) for sub, message in items])
                    except RuntimeError:  # the loop is closed: those connections are gone
                        for sub, _ in items:
                            sub.gone = True

    # ----------------------------------------------------------- bots, clock
    def _kick(self, lt: LiveTable) -> None:
        """Start the bots that are to move and the clock of the humans who are (lock held)."""
        if lt.timer is not None:
            lt.timer.cancel()
            lt.timer = None
            lt.deadline = None
        if self.closed or lt.state.is_over or lt.status == "abandoned":
            return
        humans = []
        for seat in lt.state.to_move:
            info = lt.seats[seat]
            if info.by_bot:
                self._start_bot(lt, seat, info.level, "bot")
            else:
                humans.append(seat)
        if humans and lt.clock:
            lt.deadline = time.time() + lt.clock
            lt.timer = self.timers.schedule(lt.clock, self._clock_ran_out, lt.id, lt.version)

    def _clock_ran_out(self, table_id: str, version: int) -> None:
        lt = self.tables.get(table_id)
        if lt is None or self.closed:
            return
        with self.changing(lt):
            if lt.version != version:
                return
            lt.timer = None
            for seat in lt.state.to_move:
                if not lt.seats[seat].by_bot:
                    lt.timed_out.add(seat)
                    self._start_bot(lt, seat, lt.seats[seat].level, "clock")
            self._publish(lt)

    def _start_bot(self, lt: LiveTable, seat: int, level: str, by: str) -> None:
        key = (seat, lt.version)
        if key in lt.thinking:
            return
        lt.thinking.add(key)
        seed = (lt.seed * 1_000_003 + lt.version * 101 + seat) % MAX_SEED
        try:
            if level in SEARCH_LEVELS:
                fut = self._search(lt.id, _choose_remote, lt.state.to_dict(), seat, level, seed, lt.id)
            else:
                fut = self.threads.submit(_choose, lt.state.clone(), seat, level, seed)
        except (RuntimeError, QueueFull):  # shutting down, or the client's share is full: the next kick retries
            lt.thinking.discard(key)
            return
        fut.add_done_callback(lambda f: self._bot_chose(lt.id, seat, key[1], by, f))

    def _bot_chose(self, table_id: str, seat: int, version: int, by: str, fut: Future) -> None:
        if self.closed or fut.cancelled():
            return
        try:
            self.threads.submit(self._bot_move, table_id, seat, version, by, fut)
        except RuntimeError:
            pass

    def _bot_move(self, table_id: str, seat: int, version: int, by: str, fut: Future) -> None:
        lt = self.tables.get(table_id)
        try:
            action_id = fut.result()
            self.act(table_id, seat, action_id, version, by=by)
        except ApiError:
            pass  # someone moved first (or the table ended): the new state kicked its own bots
        except Exception:
            log.exception("bot of %s seat %s failed", table_id, seat)
        finally:
            if lt is not None:
                with lt.lock:
                    lt.thinking.discard((seat, version))

    def _procs(self, index: int) -> ProcessPoolExecutor:
        """Search process ``index`` (of ``2 * search_processes``), started on first use."""
        procs = self.procs[index]
        if procs is None:
            import multiprocessing

            with self.guard:
                procs = self.procs[index]
                if procs is None:
                    procs = self.procs[index] = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return procs

    def _search(self, table_id: str, fn: Callable[..., Any], *args: Any, client: str | None = None) -> Future:
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
        pool = self._procs(index)  # first: making a pool starts multiprocessing's resource
        # tracker, which unblocks SIGINT in this thread once the tracker runs
        spare_pool = self._procs(spare) if warm else None
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            if spare_pool is not None:
                spare_pool.submit(_warm_up)
            return pool.submit(fn, *args)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _assembled(game: str, parts: dict | None) -> str | None:
    """The board's parts assembled into one HTML string (None without parts, or when they do not fit)."""
    if parts is None:
        return None
    try:
        return assemble(parts)
    except ValueError:  # a drawing bug must not take the table down: the page falls back to buttons
        log.exception("the board parts of %s do not assemble", game)
        return None


def hint_answer(version: int, seat: int, rows: list) -> dict:
    """The hint answer of ``seat`` at ``version`` from a search's rows (see :meth:`TableManager.hint`)."""
    return {"version": version, "seat": seat,
            "hints": [{"id": i, "label": label, "share": round(share, 4), "value": round(value, 4), "kind": kind}
                      for i, label, share, value, kind in rows]}


def record_of(lt: LiveTable) -> dict:
    """The replay record of ``lt`` (``run_replay`` plays it) plus its table id and seats (no tokens)."""
    record = lt.state.replay_record()
    record["table_id"] = lt.id
    record["seats"] = [{"seat": s.seat, "kind": s.kind, "level": s.level if s.kind == "bot" else None,
                        "name": s.name} for s in lt.seats]
    return record


def utc_iso(ts: float) -> str:
    """A POSIX time as ISO 8601 UTC text."""
    return datetime.fromtimestamp(ts, timezone.utc).isoformat()
