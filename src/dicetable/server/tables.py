"""The table manager: every live table of this process, its cache, writes, undo, seats and clock.

The engine is the only rules authority. A :class:`LiveTable` holds the state
rebuilt from the table's record (``new_game`` with the stored set-up, then
``state.apply`` for each stored action in ``seq`` order); an action is tried on
a clone, committed to the store, and only then becomes the cached state, so a
refused action (illegal, stale, lost race) changes nothing anywhere.

:class:`TableManager` composes the parts, each in its own module: ``live``
(the in-memory table, its seats, connections and snapshots), ``views`` (what
each viewer may see, and what changed), ``pushes`` (connections and the
messages sent to them), ``bots`` (bot moves, search processes, hints),
``clock`` (the timer heap), ``ids`` (table ids, seat tokens) and ``errors``.
It keeps the cache and its eviction, creation, writes and undo, seats, and
the turn clock. The names the server used to define here (``ApiError``,
``Subscriber``, ``LEVELS``, ...) are still importable from this module.

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
import hmac
import json
import logging
import os
import secrets
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import AbstractContextManager
from datetime import datetime, timedelta, timezone
from functools import partial
from typing import Any, Callable, NamedTuple

from dicetable.engine import (
    DicetableError, GameConfigError, GameState, IllegalActionError, get_game, new_game, seat_name,
)

from .accounts import seats_of_player
from .banks import ON_EMPTY, TimeBank, check as check_bank
from .bots import (
    _WORKER_BOTS, DEFAULT_STAND_IN, FAIR_QUEUE_PER_CLIENT, HINT_RETRY, HINT_TIMEOUT, LEVELS,
    SEARCH_LEVELS, Bots, _choose, _choose_remote, _hint_remote, _warm_up, hint_answer,
)
from .clock import Timers
from .errors import ApiError, quoted
from .identity import Player, player_for_token
from .ids import MAX_SEED, TABLE_ID_ALPHABET, TABLE_ID_SHAPE, hash_token, new_table_id, new_token
from .leases import ADOPT_EVERY, Leases, to_drive
from .live import LiveTable, Seat, Snapshot, Subscriber, apply_on, record_of
from .models import SeatRow, TableRow
from .pushes import Pushes
from .ratings import results_writer
from .scheduler import Lanes
from .store import Conflict, Record, Store, now, options_text
from .views import Views

__all__ = [
    "DEFAULT_STAND_IN", "FAIR_QUEUE_PER_CLIENT", "HINT_RETRY", "HINT_TIMEOUT", "LEVELS", "MAX_SEED", "SEARCH_LEVELS",
    "TABLE_ID_ALPHABET", "TABLE_ID_SHAPE", "ApiError", "Bots", "LiveTable", "Pushes", "Seat", "Snapshot",
    "Subscriber", "TableManager", "Views", "hash_token", "hint_answer", "new_table_id", "new_token", "record_of",
    "utc_iso", "_WORKER_BOTS", "_choose", "_choose_remote", "_hint_remote", "_warm_up",
]

log = logging.getLogger("dicetable.server")

#: Why an action that lost the race to the store is refused (409).
LOST_RACE = ("another move was stored first (the table changed since your view); fetch the view and try "
             "again")


#: The ``(seat, by, undoable)`` rows of ``LiveTable.actions``, one object each (a few dozen in all).
_ACTION_ROWS: dict[tuple[int, str, bool], tuple[int, str, bool]] = {}


class Tried(NamedTuple):
    """An action tried on a clone of a table's state, before it is stored: the new ``state``, who acted
    (``seat``, ``by``), what :func:`apply_on` gave, the table's new ``status`` (None: unchanged), the
    results ``finish`` writer of a game it ends, and ``row``: the store's append arguments."""

    state: GameState
    seat: int
    by: str
    events: list
    undoable: bool
    label: str
    status: str | None
    finish: Callable[[Any], None] | None
    row: tuple[str, int, int, str, str, bool]


#: Default seconds a table with no connection and no action stays in memory (``DICETABLE_IDLE_EVICT``).
IDLE_EVICT = 600.0


def idle_evict_from_env() -> float:
    """``DICETABLE_IDLE_EVICT`` in seconds (default :data:`IDLE_EVICT`; 0: never). ValueError naming the
    variable and what is allowed for anything but a number of seconds, 0 or more."""
    text = os.environ.get("DICETABLE_IDLE_EVICT", "").strip()
    if not text:
        return IDLE_EVICT
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise ValueError(f"DICETABLE_IDLE_EVICT={text!r} is not usable: give the seconds an idle table stays "
                         "in memory, a number 0 or more (0: tables stay)")
    return value


def _answer_after_reload(answer: asyncio.Future[dict | None], reloading: asyncio.Future[None]) -> None:
    """Settle a lost race's ``answer`` (None: :meth:`TableManager.act_soon` answers 409) once its table
    is reloaded, or with the reload's error; a caller that went away is left alone."""
    if answer.done():
        return
    error = None if reloading.cancelled() else reloading.exception()
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(None)


class TableManager:
    """Every table this process serves: create, load (replay), act, view, bots, clocks, undo, live pushes.

    Thread-safe: HTTP handlers call it from worker threads; pushes reach
    WebSocket tasks through their event loop (:class:`Pushes`). Raises
    :class:`ApiError` for every refused request. Its parts: ``views``
    (:class:`Views`), ``pushes`` (:class:`Pushes`), ``bots`` (:class:`Bots`)
    and ``timers`` (the clock's :class:`Timers`).
    """

    def __init__(self, store: Store, *, id_factory: Callable[[], str] | None = None, bot_threads: int = 4,
                 search_processes: int = 2,
                 max_cached: int = 5000, abandon_after: float | None = None,
                 now: Callable[[], float] = time.time, idle_evict: float | None = None,
                 stand_in_pace: float = 0.0) -> None:
        from dicetable.engine import list_games

        list_games()  # discover every game now, in one thread: the registry's first discovery is not thread-safe
        self.store = store
        self.id_factory = id_factory or new_table_id
        self.tables: dict[str, LiveTable] = {}
        self.guard = threading.Lock()
        self.load_locks: dict[str, threading.Lock] = {}
        self.committing: set[str] = set()  # tables whose action waits for its commit on the loop (act_soon)
        self.views = Views()
        self.pushes = Pushes(self.views)
        self.bots = Bots(lambda table_id: self.tables.get(table_id), lambda *a, **kw: self.act(*a, **kw),
                         lambda: self.closed, bot_threads=bot_threads, search_processes=search_processes)
        self.timers = Timers(self.bots.threads.submit)  # every table's clock on one timer heap
        self.leases = Leases(store)  # which tables this process drives (bots, clock): leases.py
        self.max_cached = max_cached
        # seconds a person's seat handed to its bot waits before each of its moves (0: at once)
        self.stand_in_pace = stand_in_pace
        self.abandon_after = abandon_after  # seconds without an action after which a table is abandoned
        self.closed = False
        self.now = now  # POSIX seconds of the chess clocks (injected in tests)
        # seconds a table stays in memory with no connection and no action (DICETABLE_IDLE_EVICT; 0: forever)
        self.idle_evict = idle_evict if idle_evict is not None else idle_evict_from_env()
        # called (lock held) with a table and the human seats whose chess-clock turn just began
        # (turn-based notices: dicetable.server.lobby); each must be quick and must not raise
        self.turn_hooks: list[Callable[[LiveTable, list[int]], None]] = []
        # a table whose only timer is a chess clock's flag further away than this may leave memory when
        # idle (set by dicetable.server.lobby, whose waker brings it back in time); None: never
        self.evict_far_flags: float | None = None

    @property
    def builds(self) -> int:
        """Snapshots built (each viewer's live view, once per table revision)."""
        return self.views.builds

    @property
    def lanes(self) -> Lanes:
        """The search processes' fair queues (:class:`dicetable.server.scheduler.Lanes`)."""
        return self.bots.lanes

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Start serving. Nothing is replayed now: after a restart each table is rebuilt from its
        record when it is first used (a view, a live connection, an action), and its bots and clock go
        on from then, so a server with many stored tables starts at once. With ``abandon_after``, a
        sweep runs now and then (:meth:`sweep`)."""
        if self.abandon_after:
            self.timers.schedule(min(60.0, self._sweep_every()), self._sweep_and_again)  # not in the start's rush
        if self.leases.shared:
            self.timers.schedule(ADOPT_EVERY, self.adopt)
        if self.idle_evict > 0:
            self.timers.schedule(self._idle_every(), self._evict_idle_and_again)

    def _idle_every(self) -> float:
        """Seconds between looks for idle tables: a tenth of ``idle_evict``, between 1 s and a minute."""
        return min(60.0, max(1.0, self.idle_evict / 10))

    def _evict_idle_and_again(self) -> None:
        try:
            self.evict_idle()
        except Exception:  # one failed look must not stop the next ones
            log.exception("evicting idle tables failed")
        if not self.closed:
            self.timers.schedule(self._idle_every(), self._evict_idle_and_again)

    def evict_idle(self, older: float | None = None) -> list[str]:
        """Drop from memory every table with no connection, no bot thinking, no clock running and no
        use (a view, an action, a connection) for ``older`` seconds (default ``idle_evict``); each is
        rebuilt from the store when next used (:meth:`get`). The ids dropped."""
        cutoff = time.monotonic() - (self.idle_evict if older is None else older)
        dropped = []
        for tid, lt in list(self.tables.items()):
            if lt.used > cutoff or lt.subscribers or lt.thinking or self._timer_keeps(lt):
                continue
            with lt.lock:  # not while a change or a view of it runs; it stays if it was used meanwhile
                if lt.used > cutoff or lt.subscribers or lt.thinking or self._timer_keeps(lt):
                    continue
                if self.tables.get(tid) is lt:
                    if lt.timer is not None:
                        lt.timer.cancel()
                        lt.timer = None
                    del self.tables[tid]
                    self.leases.release(tid)
                    dropped.append(tid)
        return dropped

    def _timer_keeps(self, lt: LiveTable) -> bool:
        """True when ``lt``'s timer keeps it in memory: any timer, unless it is a chess clock's flag
        more than :attr:`evict_far_flags` seconds away (the lobby's waker reloads such a table in time)."""
        if lt.timer is None:
            return False
        far = self.evict_far_flags
        return far is None or lt.bank is None or lt.clock is not None or lt.deadline is None \
            or lt.deadline - self.now() <= far

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
                self.pushes.publish(lt)
        return ids

    def close(self) -> None:
        """Stop timers, threads and search processes (running searches are abandoned and their worker
        processes stopped; pending bot moves are recomputed when their table is next used)."""
        self.closed = True
        self.timers.close()
        self.leases.close()
        self.bots.close()

    # -------------------------------------------------------------- loading
    def get(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, rebuilt from the store on a cache miss; ApiError 404 if unknown."""
        lt = self.tables.get(table_id)
        if lt is not None:
            lt.used = time.monotonic()
            return lt
        if not isinstance(table_id, str) or not TABLE_ID_SHAPE.fullmatch(table_id):
            raise ApiError(404, f"there is no table {quoted(table_id)}; table ids are letters, digits, - and _")
        with self.guard:
            lock = self.load_locks.setdefault(table_id, threading.Lock())
        with lock:
            lt = self.tables.get(table_id)
            if lt is None:
                record = self.store.load(table_id)
                if record is None:
                    raise ApiError(404, f"there is no table {quoted(table_id)}; the lobby lists the open ones")
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
                       seed_chosen=bool(t.seed_chosen),
                       bank=TimeBank.from_text(t.time_bank) if t.time_bank else None,
                       rematch=(t.rematch, t.rematch_by or "") if t.rematch else None)
        state.compact_log()  # the set-up's events, packed as apply_on packs each action's
        lt.events = state.event_log()
        lt.log_len = len(lt.events)  # the set-up's events: notes are placed by log position
        for row in record.actions:
            self._replay_row(lt, row.seq, row.seat, row.action, row.by)
        return lt

    def _replay_row(self, lt: LiveTable, seq: int, seat: int, action_id: str, by: str) -> None:
        if seq != lt.version + 1:
            raise DicetableError(f"table {lt.id}: action {seq} follows action {lt.version} (a gap)")
        events, undoable, label = apply_on(lt.state, seat, action_id)
        self._book(lt, seat, by, events, undoable, label)

    def _book(self, lt: LiveTable, seat: int, by: str, events: list, undoable: bool, label: str) -> None:
        if by == "clock" and lt.bank is not None and seat in lt.bank.forfeited:
            lt.notes.setdefault(lt.log_len, []).append(
                f"{seat_name(seat)}'s time ran out: {seat_name(seat)} forfeits (placed last) and the "
                f"{lt.seats[seat].level} bot plays the seat on: {label}")
        elif by == "clock":
            lt.notes.setdefault(lt.log_len, []).append(
                f"{seat_name(seat)}'s clock ran out: the {lt.seats[seat].level} bot chose for them: {label}")
        lt.log_len += len(events)
        lt.events.extend(lt.state.event_log(len(events)))  # shares the state's cells
        row = (seat, by, undoable)
        lt.actions.append(_ACTION_ROWS.setdefault(row, row))  # one tuple per kind of row, shared by tables
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
            self.leases.release(tid)

    def refresh(self, table_id: str | None, seq: int | None = None) -> None:
        """Catch up with writes of other processes (PostgreSQL notifications); None: every cached table."""
        if table_id is None:
            for tid in list(self.tables):
                try:
                    self.refresh(tid)
                except ApiError:  # that table is gone from the database (it left the cache): the others go on
                    pass
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
                        self.pushes.publish(lt)
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
            raise ApiError(404, f"table {lt.id!r} is no longer in the database; the lobby lists the open ones")
        fresh = self._rebuild(record)
        for name in ("seats", "state", "status", "version", "undos", "log_len", "events", "actions", "notes",
                     "rematch"):
            setattr(lt, name, getattr(fresh, name))
        lt.epoch += 1
        lt.thinking = {k for k in lt.thinking if k[1] == lt.version}
        self._kick(lt)  # first: a chess clock's turn changes are in the view
        self.pushes.publish(lt)

    # ------------------------------------------------------------- creation
    def create(self, game: str, players: int, options: dict[str, Any], seed: int | None,
               seats: list[dict[str, Any]] | None, clock: int | None, client: str | None = None, *,
               bank: int | None = None, increment: int | None = None,
               bank_max: int | None = None, listed: bool = False, on_time_out: str | None = None,
               rated: bool = False) -> dict[str, Any]:
        """Create a table; return ``{"table_id", "seats": [{"seat", "kind", "level", "name", "token", "link"}]}``.

        ``client`` (the creator's address) is whose share of the search processes the table's
        bots use (:mod:`dicetable.server.scheduler`); None: the table is a client of its own.

        ``seats`` is one ``{"kind": "human"|"bot", "level", "name"}`` per player
        (a human seat's ``level`` is its stand-in bot); None: every seat human. ApiError 422 naming the
        problem for an unknown game, a player count outside the game's range,
        a bad option, a seat list of the wrong length or an unknown bot level.

        The clock: ``clock`` seconds per decision, or a chess-style ``bank`` of seconds per player
        with ``increment`` seconds added after each turn, never above ``bank_max``
        (:mod:`dicetable.server.banks`); ApiError 422 for both, or for values out of range.
        ``on_time_out`` is what happens when a bank runs out (``bot`` or ``forfeit``; None: forfeit at
        a rated table, else bot); ApiError 422 without a bank.

        ``listed``: the table is shown in the open lobby, where anyone may take its human seats not
        used yet but the first (the host's, taken from the start) (:mod:`dicetable.server.lobby`);
        ApiError 422 with a chosen ``seed``.

        Accounts: a human seat's ``player_id`` (with its ``player`` name) gives the seat to that account
        (it acts with its session cookie or API token); ``token_too`` False leaves such a seat without a
        token or invite in the answer (it is someone else's). ``rated``: every human seat must name an
        account (at a listed table only the host's: its open seats have an invite and no token, and go
        to signed-in players only: :meth:`claim`, the lobby), the options must be the game's standard
        ones and the seed not chosen (ApiError 422). Its results rate the players only if every human
        seat's player joined it (:func:`~dicetable.server.ratings.finish_table`).
        """
        wrong = check_bank(bank, increment, bank_max, clock)
        if wrong:
            raise ApiError(422, wrong)
        if on_time_out is not None and (bank is None or on_time_out not in ON_EMPTY):
            raise ApiError(422, f"on_time_out is {' or '.join(ON_EMPTY)} and goes with a bank (a chess clock), "
                                f"not {on_time_out!r}" + ("" if bank is not None else " without a bank"))
        if listed and seed is not None:
            raise ApiError(422, "a listed table cannot have a chosen seed (whoever chose it could know every "
                                "hidden card and future die); leave seed out, or do not list the table")
        try:
            spec = get_game(game)
        except GameConfigError as exc:
            raise ApiError(422, str(exc)) from None
        game = spec.id  # the canonical id, whatever case or '_' the request used: stored and shown
        if not spec.min_players <= players <= spec.max_players:
            raise ApiError(422, f"{spec.name} is for {spec.min_players} to {spec.max_players} players, "
                                f"not {players}")
        if seats is None:
            seats = [{"kind": "human"} for _ in range(players)]
        if len(seats) != players:
            raise ApiError(422, f"seats lists {len(seats)} seat(s) for {players} players: give one per player")
        chosen = seed is not None
        if rated:
            # a listed table's human seats after the host's are open: whoever takes one must be signed in
            # (lobby.take_seat, claim), so only the host's seat must name a player now
            humans = [n for n, s in enumerate(seats) if s["kind"] == "human"]
            named_now = humans[:1] if listed else humans
            unnamed = [n for n in named_now if seats[n].get("player_id") is None]
            if unnamed:
                raise ApiError(422, "a rated table needs every human seat to name a signed-in player "
                                    "({\"kind\": \"human\", \"player\": \"<name>\"}); seat(s) "
                                    + ", ".join(map(str, unnamed)) + " name none")
            if chosen:
                raise ApiError(422, "a rated table's seed cannot be chosen (it would reveal every die and card); "
                                    "leave 'seed' out")
        if seed is None:
            seed = secrets.randbits(64)
        try:
            state = new_game(game, players, seed=seed, options=options)
        except GameConfigError as exc:
            raise ApiError(422, str(exc)) from None
        if rated and dict(state.options) != dict(new_game(game, players, seed=seed).options):
            raise ApiError(422, "a rated table plays the game's standard options; leave 'options' out (or give "
                                "the defaults GET /api/games lists)")
        table_id = self.id_factory()
        out, rows = [], []
        # a listed table's first human seat is its host's (the creator's): taken from the start, never open
        host = next((n for n, seat in enumerate(seats) if seat["kind"] == "human"), None) if listed else None
        for n, seat in enumerate(seats):
            kind = seat["kind"]
            level = seat.get("level") or (DEFAULT_STAND_IN if kind == "human" else None)
            if kind == "bot" and level is None:
                raise ApiError(422, f"seat {n} is a bot without a level; levels: {', '.join(LEVELS)}")
            if level not in LEVELS:
                raise ApiError(422, f"seat {n}: unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
            name = seat.get("name") or seat_name(n)  # a bot seat says what it is in its own fields (kind, level)
            player_id = seat.get("player_id") if kind == "human" else None
            # a rematch's human seat waits for its holder at the finished table (:meth:`rematch`)
            handed = kind == "human" and (player_id is None or seat.get("token_too", True)) and not seat.get("waiting")
            # an account's seat is not given away; a rated table's open seat is, only by its invite
            invite = new_token() if handed and player_id is None else None
            token = new_token() if handed and not (rated and player_id is None) else None
            rows.append(SeatRow(table_id=table_id, seat=n, kind=kind, level=level,
                                token_hash=hash_token(token) if token else None, name=name,
                                autoplay=False, joined=n == host, claimed=False,
                                invite_hash=hash_token(invite) if invite else None, player_id=player_id))
            entry = {"seat": n, "kind": kind, "level": level if kind == "bot" else None, "name": name,
                     "link": f"/tables/{table_id}" + (f"#invite={n}.{invite}" if invite else "")}
            if token:
                entry["token"] = token
            if player_id is not None:
                entry["player"] = seat.get("player")
            out.append(entry)
        # the rule when a bank runs out, as the table will apply it: the default is decided now
        rule = on_time_out or ("forfeit" if rated else "bot")
        banks = TimeBank.new(players, bank, increment or 0, bank_max, rule) if bank is not None else None
        row = TableRow(id=table_id, game=spec.id, players=players, options=options_text(state.options),
                       seed=seed, created=now(), status="over" if state.is_over else "running", clock=clock,
                       seed_chosen=chosen, time_bank=banks.to_text() if banks is not None else None,
                       listed=listed, rated=rated)
        self.store.create(row, rows)
        lt = LiveTable(table_id, spec.id, players, dict(state.options), seed, clock,
                       [Seat.from_row(r) for r in rows], state, status=row.status, seed_chosen=chosen, bank=banks)
        state.compact_log()  # the set-up's events, packed as apply_on packs each action's
        lt.events = state.event_log()
        lt.log_len = len(lt.events)
        if client is not None:
            self.bots.owners[table_id] = client
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
        """The seat ``token`` holds at ``lt``; None for no token, or an account's token holding no seat
        here (a spectator, as with the account's sign-in cookie); ApiError 403 for any other token."""
        if token is None:
            return None
        return self._holder(lt, token, watch=True)

    def known_seat(self, lt: LiveTable, token: str) -> int | None:
        """The seat ``token`` holds at ``lt`` when that is known without the store: a joined seat's own
        token (as :meth:`seat_of` finds it). None otherwise (ask :meth:`seat_of`, which may read or write
        the store: an account's token, a first use, or a token holding no seat)."""
        digest = hash_token(token)
        for seat in lt.seats:
            if seat.joined and seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def _holder(self, lt: LiveTable, token: str, watch: bool = False) -> int | None:
        """The seat ``token`` holds at ``lt`` (marked joined). An account's token holding no seat here gives
        None with ``watch`` (a spectator); otherwise ApiError 403 when it holds none."""
        digest = hash_token(token)
        for seat in lt.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                if not seat.joined:
                    seat.joined = True
                    self.store.update_seat(lt.id, seat.seat, joined=True)
                return seat.seat
        held = self.account_seat(lt, token)
        if held is not None:
            return held
        if watch and player_for_token(self.store.engine, token) is not None:
            return None
        raise ApiError(403, f"this token holds no seat at table {lt.id} (or it was revoked, or signed out); use "
                            "the link of your seat, or no token to watch as a spectator")

    def account_seat(self, lt: LiveTable, token: str) -> int | None:
        """The seat the account of ``token`` (a session or API token) acts for at ``lt``: of the seats it
        holds, the first one to move, else its first (None: no account has the token, or it holds no seat)."""
        player = player_for_token(self.store.engine, token)
        if player is None:
            return None
        held = [s.seat for s in lt.seats if s.player_id == player.id]
        if not held:  # a seat taken since this process loaded the table (a guest who signed up elsewhere)
            held = [n for n in seats_of_player(self.store.engine, lt.id, player.id) if 0 <= n < len(lt.seats)]
            for n in held:
                lt.seats[n].player_id = player.id
        if not held:
            return None
        to_move = set(lt.state.to_move)
        seat = lt.seats[next((n for n in held if n in to_move), held[0])]
        if not seat.joined:
            seat.joined = True
            self.store.update_seat(lt.id, seat.seat, joined=True)
        return seat.seat

    def claim(self, table_id: str, invite: str, player: Player | None = None) -> dict[str, Any]:
        """Claim a seat with its invite (the ``link`` of the creation answer, ``#invite=<seat>.<code>``).

        The claimer gets a fresh token, the invite is used up, and the seat's earlier token (the
        creator's copy) stops working, so the creator can neither act for the seat nor see its secrets.
        A signed-in claimer (``player``) also makes the seat their account's, shown by their name.
        Returns ``{"seat", "token", "link"}`` (``link`` opens the seat's page with the new token in
        the address's fragment, which servers never see). ApiError 403 for an invite that is not, or
        no longer, valid, or a guest at a rated table; 409 when the table's seed was chosen by its
        creator (who could then know every hidden card and future die), or the player sits there already.
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
            if player is None and self.store.is_rated(lt.id):
                raise ApiError(403, "this table is rated: sign in (or sign up) to take this seat, then open "
                                    "the link again; tables that are not rated take guests")
            if player is not None and any(s.player_id == player.id for s in lt.seats):
                raise ApiError(409, f"{player.name} sits at this table already; one seat per player")
            token = new_token()
            if not self.store.claim(lt.id, seat, digest, hash_token(token),
                                    player_id=None if player is None else player.id,
                                    name=None if player is None else player.name):
                self._reload(lt)
                raise ApiError(403, "this invite was used already: the seat is claimed")
            info.token_hash, info.invite_hash, info.claimed, info.joined = hash_token(token), None, True, True
            if player is not None:
                info.player_id, info.name = player.id, player.name
            self.pushes.publish(lt)
        return {"seat": seat, "token": token, "link": f"/tables/{lt.id}#token={token}"}

    def rematch(self, table_id: str, seat: int, player_id: int | None, client: str | None = None) -> dict[str, Any]:
        """Start, or join, the rematch of the finished table ``table_id`` for ``seat`` (the caller's seat there).

        The first call makes a new table of the same game, players, options, clock and rating with the same
        seats (a bot seat's bot, an account's seat for that account: it is in their "My tables"; a guest's
        seat waits for whoever holds that seat here), not listed in the open lobby, with a fresh seed; the
        finished table's view shows it (``rematch``) to everyone there. Every call (the first, and each
        seat's later "join") gives the caller their seat at the new table: when ``player_id`` (the caller's
        account; None for a guest or a seat's token) holds the seat, no token is needed; otherwise a fresh token for the
        seat is made (an earlier one for it stops working). Returns ``{"table_id", "seat", "link",
        "created"}`` plus ``token`` when one was made. ApiError 409 while the game runs, or for a rated
        table with a seat no signed-in player held.
        """
        lt = self.get(table_id)
        with lt.lock:
            if not lt.state.is_over:
                raise ApiError(409, "this game is still being played: a rematch can start once it is over")
            old = lt.seats[seat]
            started = lt.rematch
        created = False
        if started is None:
            rated = self.store.is_rated(lt.id)
            with lt.lock:
                seats = [{"kind": s.kind, "level": s.level, "name": s.name, "player_id": s.player_id,
                          "player": s.name, "token_too": False, "waiting": True} for s in lt.seats]
                bank = lt.bank
                game, players, options, clock = lt.game, lt.players, dict(lt.options), lt.clock
            if rated and any(s["kind"] == "human" and s["player_id"] is None for s in seats):
                raise ApiError(409, "a seat of this rated table was never taken by a signed-in player, so it "
                                    "cannot be replayed as it was; start a new table from the lobby instead")
            made = self.create(game, players, options, None, seats, clock, client=client,
                               bank=bank.bank if bank is not None else None,
                               increment=bank.increment if bank is not None else None,
                               bank_max=bank.bank_max if bank is not None else None,
                               on_time_out=bank.on_empty if bank is not None else None, rated=rated)
            if self.store.set_rematch(lt.id, made["table_id"], old.name):
                created = True
            else:  # someone else's rematch was recorded first: that one is played, this one is dropped
                self.tables.pop(made["table_id"], None)
                self.store.delete_table(made["table_id"])
            with self.changing(lt):
                self._reload(lt)
                started = lt.rematch
            assert started is not None
        new_id = started[0]
        fresh = self.get(new_id)
        answer: dict[str, Any] = {"table_id": new_id, "seat": seat, "link": f"/tables/{new_id}", "created": created}
        with self.changing(fresh):
            target = fresh.seats[seat] if seat < len(fresh.seats) else None
            if target is None or target.kind != "human":
                raise ApiError(409, f"{seat_name(seat)} is a bot's seat at the rematch; watch it, or start a "
                                    "new table from the lobby")
            if player_id is not None and target.player_id == player_id:
                if not target.joined:
                    target.joined = True
                    self.store.update_seat(fresh.id, seat, joined=True)
            else:
                token = new_token()
                target.token_hash, target.joined = hash_token(token), True
                self.store.update_seat(fresh.id, seat, token_hash=target.token_hash, joined=True)
                answer["token"] = token
                answer["link"] = f"/tables/{new_id}#token={token}"
            self.pushes.publish(fresh)
        return answer

    def need_seat(self, lt: LiveTable, token: str | None) -> int:
        """Like :meth:`seat_of` but a seat is required (ApiError 401 without a token, 403 when it holds none)."""
        if token is None:
            raise ApiError(401, "this needs your seat's token: send the header 'Authorization: Bearer <token>' "
                                "(the token is in your seat's link)")
        seat = self._holder(lt, token)
        assert seat is not None  # without watch, a token holding no seat raised
        return seat

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
            tried = self._try_action(lt, seat, action_id, version, by)
            try:
                self.store.append(*tried.row, status=tried.status, finish=tried.finish)
            except Conflict:
                self._reload(lt)
                raise ApiError(409, LOST_RACE) from None
            return self._acted(lt, tried, minimal)

    async def act_soon(self, table_id: str, seat: int, action_id: str, version: int,
                       minimal: bool = False) -> dict | None:
        """:meth:`act` for ``seat``'s holder, run on the calling event loop: only the commit is awaited
        (:meth:`Store.append_then`), no thread waits for it. The same answer and errors as :meth:`act`.

        None (nothing done: call :meth:`act` in a worker thread instead) when it cannot run on the
        loop without waiting: the table is not in memory, its lock is held (by a thread, or by
        another action of this loop waiting for its commit), it has a chess clock (whose turn
        changes are written at once), or the tables are shared with other processes (PostgreSQL:
        their leases are asked for at once). While the commit is awaited the table's lock stays held
        by the loop's thread, so threads wait for it as they wait for :meth:`act`. The action is
        cached and pushed in the loop turn that learns of its commit (:meth:`_committed`), whether
        or not its caller still waits; the caller's answer is the next turn's.
        """
        lt = self.tables.get(table_id)
        if lt is None or lt.bank is not None or self.leases.shared or table_id in self.committing:
            return None
        if not lt.lock.acquire(blocking=False):
            return None
        if table_id in self.committing:  # the loop's thread holds it (an action waiting for its commit)
            lt.lock.release()
            return None
        lt.used = time.monotonic()
        answer: asyncio.Future[dict | None] = asyncio.get_running_loop().create_future()
        try:
            tried = self._try_action(lt, seat, action_id, version, "seat")
            self.store.append_then(*tried.row, partial(self._committed, lt, tried, minimal, answer),
                                   status=tried.status, finish=tried.finish)
        except BaseException:
            lt.lock.release()
            self.pushes.deliver(lt)
            raise
        self.committing.add(table_id)
        got = await answer
        if got is None:  # a lost race: the table was reloaded in a worker thread
            raise ApiError(409, LOST_RACE)
        return got

    def _committed(self, lt: LiveTable, tried: Tried, minimal: bool, answer: asyncio.Future[dict | None],
                   _action: object, failure: BaseException | None) -> None:
        """The store's ``then`` for :meth:`act_soon`'s action, in the loop turn that learns of its commit.

        Makes the committed action the table's state and pushes it, or after a lost race has the
        table reloaded in a worker thread; releases the table's lock; settles ``answer`` (the seat's
        answer, None for a lost race once reloaded, or the error) unless its caller went away.
        Raises nothing. It is called through a ``partial`` that refers to none of the store's pending
        append, so neither is left in a garbage cycle.
        """
        got: dict | None = None
        lost = isinstance(failure, Conflict)
        error = None if lost else failure
        try:
            if failure is None:
                got = self._acted(lt, tried, minimal)
        except Exception as exc:  # a fault of ours: the caller's 500, the table's lock released all the same
            error = exc
        finally:
            self.committing.discard(lt.id)
            lt.lock.release()
            self.pushes.deliver(lt)
        if lost:
            reloading = asyncio.get_running_loop().run_in_executor(None, self.reload, lt)
            reloading.add_done_callback(partial(_answer_after_reload, answer))
        elif answer.done():  # the caller went away: the action is stored, cached and pushed all the same
            pass
        elif error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(got)

    def reload(self, lt: LiveTable) -> None:
        """Rebuild ``lt`` from the store under its lock (after a lost race), pushing the result."""
        with self.changing(lt):
            self._reload(lt)

    def _try_action(self, lt: LiveTable, seat: int, action_id: str, version: int, by: str) -> Tried:
        """Check ``seat``'s action at ``version`` and try it on a clone of ``lt``'s state (lock held);
        nothing of ``lt`` changes. ApiError as :meth:`act` says."""
        if version != lt.version:
            raise ApiError(409, f"version {version} is not the table's version {lt.version}: the table "
                                "changed since your view (someone moved first); fetch the view and try again")
        self._refuse_if_finished(lt)  # first: a finished game's seats have nothing to take back
        if by == "seat" and lt.seats[seat].autoplay:
            raise ApiError(409, f"{seat_name(seat)} is played by its bot now; take the seat back first "
                                "(\"take my seat back\" in the players panel)")
        if by == "bot" and not lt.seats[seat].by_bot:  # taken back while its bot was thinking
            raise ApiError(409, f"{seat_name(seat)} is played by a person again; its bot's move was not made")
        state = lt.state.clone()
        try:
            events, undoable, label = apply_on(state, seat, action_id)
        except IllegalActionError as exc:
            raise ApiError(422, str(exc)) from None
        if by != "seat":
            undoable = False
        over = state.is_over
        finish = results_writer(lt.id, state, lt.bank.forfeited if lt.bank else ()) if over else None
        return Tried(state, seat, by, events, undoable, label, "over" if over else None, finish,
                     (lt.id, lt.version + 1, seat, action_id, by, undoable))

    def _acted(self, lt: LiveTable, tried: Tried, minimal: bool) -> dict:
        """Make the stored action ``tried`` the table's state, start what comes next, push it (lock
        held); the seat's new view (``minimal``: ``{"version", "undos"}``)."""
        lt.state = tried.state
        self._book(lt, tried.seat, tried.by, tried.events, tried.undoable, tried.label)
        if tried.by == "seat":
            lt.timed_out.discard(tried.seat)
        self._kick(lt)  # first: a chess clock's turn changes are in the view
        self.pushes.publish(lt)
        if minimal:
            return {"version": lt.version, "undos": lt.undos}
        return self.view(lt, tried.seat)

    def _refuse_if_finished(self, lt: LiveTable) -> None:
        """ApiError 422 when the game is over, 409 when the table was abandoned (lock held)."""
        if lt.status == "abandoned":
            days = f"{self.abandon_after / 86400:g} days" if self.abandon_after else "a long time"
            raise ApiError(409, f"this table was abandoned (no move for {days}): no seat may act; it is kept "
                                "for its replay")
        if lt.status == "over" or lt.state.is_over:
            raise ApiError(422, "the game is over: no seat may act; its replay shows every move")

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
            self._kick(lt)  # first: a chess clock's turn changes are in the view
            self.pushes.publish(lt)
            return self.view(lt, caller)

    def account_left(self, table_id: str, player_id: int, name: str) -> list[int]:
        """A deleted account's seats at ``table_id``: shown as ``name`` and, while the game runs, handed to
        their bots, which play them to the end (the account can no longer take them back); the seats.

        Nothing else changes: the moves stay, and a rated table is rated as it ends. ApiError 404 for an
        unknown table."""
        lt = self.get(table_id)
        with self.changing(lt):
            seats = [s for s in lt.seats if s.player_id == player_id]
            running = lt.status == "running" and not lt.state.is_over
            for seat in seats:
                seat.name = name
                if running and seat.kind == "human" and not seat.autoplay:
                    self.store.update_seat(lt.id, seat.seat, autoplay=True)
                    seat.autoplay = True
            if running:
                self._kick(lt)
            if self.store.is_postgres:  # the other server processes reload the seats' new names
                with self.store.engine.begin() as conn:
                    self.store.notify_seats(conn, lt.id)
            self.pushes.publish(lt)
        return [s.seat for s in seats]

    def take_back(self, table_id: str, seat: int, caller: int) -> dict:
        """``seat``'s holder takes it back from its bot. ApiError 403 for another seat's token."""
        lt = self.get(table_id)
        with self.changing(lt):
            target = self._seat(lt, seat)
            if caller != seat:
                raise ApiError(403, f"only {seat_name(seat)}'s own token can take it back")
            if not target.autoplay:
                raise ApiError(422, f"{seat_name(seat)} is not played by a bot; nothing to take back")
            if lt.bank is not None and seat in lt.bank.forfeited:
                raise ApiError(409, f"{seat_name(seat)} forfeited when its time ran out: its bot plays it to "
                                    "the end and the seat is placed last")
            self.store.update_seat(lt.id, seat, autoplay=False)
            target.autoplay = False
            lt.timed_out.discard(seat)
            self._kick(lt)  # first: a chess clock's turn changes are in the view
            self.pushes.publish(lt)
            return self.view(lt, seat)

    def _seat(self, lt: LiveTable, seat: int) -> Seat:
        if not 0 <= seat < lt.players:
            raise ApiError(404, f"table {lt.id} has seats 0 to {lt.players - 1}, not {seat}")
        return lt.seats[seat]

    def hint(self, table_id: str, seat: int) -> dict:
        """The hard bot's top three actions for ``seat`` (runs about a second).

        Each hint: ``id``, ``label``, ``share`` of the search's visits, ``value`` (the
        estimated win chance 0-1, or solo the expected final score with a learned value, or
        the hand evaluation's 0-1; null for a choice the search never tried: no estimate) and
        ``kind`` (``win``, ``score`` or ``hand``).
        """
        version, fut = self.start_hint(table_id, seat)
        return hint_answer(version, seat, fut.result(timeout=HINT_TIMEOUT))

    def start_hint(self, table_id: str, seat: int, client: str | None = None) -> tuple[int, Future]:
        """Start the search for ``seat``'s hint at ``table_id`` without waiting (:meth:`Bots.start_hint`):
        ``(version, future of its rows)``; ApiError 404 for no such table, 422 or 429 as there."""
        return self.bots.start_hint(self.get(table_id), seat, client)

    # ---------------------------------------------------------------- views
    def view(self, lt: LiveTable, seat: int | None) -> dict:
        """What ``seat`` (None: a spectator) may see of ``lt`` now (:meth:`Views.view`)."""
        return self.views.view(lt, seat)

    def view_soon(self, lt: LiveTable, seat: int | None) -> dict | None:
        """:meth:`view` when ``lt``'s lock is free at once (for a caller on the event loop, which must not
        wait for it); None when it is held (by a thread, or by an action of this loop waiting for its
        commit): ask :meth:`view` in a worker thread instead."""
        if lt.id in self.committing or not lt.lock.acquire(blocking=False):
            return None
        try:
            if lt.id in self.committing:
                return None
            lt.used = time.monotonic()
            return self.view(lt, seat)
        finally:
            lt.lock.release()

    def live_view(self, lt: LiveTable, seat: int | None) -> dict:
        """``seat``'s full view of the wire, built from scratch now (:meth:`Views.live_view`)."""
        return self.views.live_view(lt, seat)

    def snapshot(self, lt: LiveTable, seat: int | None) -> Snapshot:
        """``seat``'s :class:`Snapshot` of ``lt`` now, built once per revision (:meth:`Views.snapshot`)."""
        return self.views.snapshot(lt, seat)

    def record(self, table_id: str) -> dict:
        """The replay record of a finished table (``dicetable replay`` plays it); ApiError 403 while it runs."""
        lt = self.get(table_id)
        with lt.lock:
            if not lt.state.is_over and lt.status != "abandoned":
                raise ApiError(403, "the record of a running table is secret (its seed would reveal every "
                                    "future die and card); it is available once the game is over")
            return record_of(lt)

    # --------------------------------------------------------------- pushes
    def changing(self, lt: LiveTable) -> AbstractContextManager[None]:
        """Hold ``lt``'s lock for a change; send the messages it queued once it is released (:meth:`Pushes.changing`)."""
        return self.pushes.changing(lt)

    def subscribe(self, lt: LiveTable, sub: Subscriber) -> None:
        """Add a connection and queue it the current full view at once (:meth:`Pushes.subscribe`)."""
        self.pushes.subscribe(lt, sub)

    def resync(self, lt: LiveTable, sub: Subscriber) -> None:
        """Queue ``sub`` the current full view (it asked: it missed a change)."""
        self.pushes.resync(lt, sub)

    def unsubscribe(self, lt: LiveTable, sub: Subscriber) -> None:
        """Remove a connection; the others see the seat's new connected state."""
        self.pushes.unsubscribe(lt, sub)

    # ----------------------------------------------------------- bots, clock
    def _kick(self, lt: LiveTable) -> None:
        """Start the bots that are to move and the clock of the humans who are (lock held).

        A chess clock (``lt.bank``) first ends the turns of the seats no longer to move and starts
        those of the seats now to move (kept in the store when anything changed); then the timer is
        set for the first running bank to reach zero."""
        if lt.timer is not None:
            lt.timer.cancel()
            lt.timer = None
            lt.deadline = None
        if self.closed:
            return
        if lt.bank is not None:
            self._settle_bank(lt)
        if lt.state.is_over or lt.status == "abandoned":
            self.leases.release(lt.id)
            return
        drives = to_drive(lt) and self.leases.holds(lt.id)  # one process drives a table (leases.py)
        humans = [seat for seat in lt.state.to_move if not lt.seats[seat].by_bot]
        bots = sorted(seat for seat in lt.state.to_move if lt.seats[seat].by_bot)
        if bots and drives:
            # One bot at a time, the first in seat order; its move kicks the next. Bots started together on
            # a simultaneous decision (Biblios's bids, the Dice Kingdoms Harvest) raced: whichever thread
            # finished first moved, the others were refused (a stale version) and chose again at the next
            # version with another seed, so a table of bots with a fixed seed played different games.
            seat = bots[0]
            if lt.seats[seat].kind == "human" and self.stand_in_pace > 0:
                # A person's seat played by its bot while the person is away moves at a person's pace,
                # so a table of bots does not finish the game before the person can take the seat back.
                self.timers.schedule(self.stand_in_pace, self._stand_in_moves, lt.id, lt.version, seat)
            else:
                self.bots.start(lt, seat, lt.seats[seat].level, "bot")
        if humans and lt.clock:
            lt.deadline = time.time() + lt.clock
            if drives:
                lt.timer = self.timers.schedule(lt.clock, self._clock_ran_out, lt.id, lt.version)
        flag = lt.bank.next_flag() if humans and lt.bank is not None else None
        if flag is not None:
            lt.deadline = flag[0]
            if drives:
                lt.timer = self.timers.schedule(max(0.0, flag[0] - self.now()), self._bank_ran_out, lt.id, lt.version)

    def _settle_bank(self, lt: LiveTable) -> None:
        """Bring ``lt``'s chess clock to who is to move now, and keep it in the store if it changed."""
        assert lt.bank is not None
        running = not lt.state.is_over and lt.status == "running"
        on_clock = [s for s in lt.state.to_move if not lt.seats[s].by_bot] if running else []
        waiting = {s for s, since in enumerate(lt.bank.since) if since is None}
        if lt.bank.settle(on_clock, self.now()):
            self.store.set_time_bank(lt.id, lt.bank.to_text())
            began = [s for s in on_clock if s in waiting]
            for hook in self.turn_hooks if began else ():
                hook(lt, began)

    def adopt(self) -> None:
        """Drive the tables in memory that have a bot or a clock to run and no process driving them
        (their driver ended or let them go), then look again in ``ADOPT_EVERY`` seconds (PostgreSQL)."""
        if self.closed:
            return
        for lt in list(self.tables.values()):
            if lt.id not in self.leases.held and lt.status == "running" and to_drive(lt):
                try:
                    if self.leases.holds(lt.id):
                        with self.changing(lt):
                            self._kick(lt)
                except Exception:  # one table must not stop the others' adoption
                    log.exception("adopting table %s failed", lt.id)
        self.timers.schedule(ADOPT_EVERY, self.adopt)

    def _stand_in_moves(self, table_id: str, version: int, seat: int) -> None:
        """Start the bot of a person's ``seat`` on its decision at ``version`` (the stand-in's pace is
        over), unless the table moved on or the person took the seat back meanwhile."""
        lt = self.tables.get(table_id)
        if lt is None or self.closed:
            return
        with lt.lock:
            if lt.version == version and lt.seats[seat].autoplay and seat in lt.state.to_move:
                self.bots.start(lt, seat, lt.seats[seat].level, "bot")

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
                    self.bots.start(lt, seat, lt.seats[seat].level, "clock")
            self.pushes.publish(lt)

    def check_clock(self, table_id: str) -> list[int]:
        """Let the bot play for every seat whose chess-clock bank is empty at :attr:`now` (the timer
        calls this on time; a test with an injected ``now`` calls it after moving time on). The
        seats it played for (they count as timed out until their holder acts); ApiError 404 for no
        such table."""
        lt = self.get(table_id)
        return self._bank_ran_out(table_id, lt.version)

    def _bank_ran_out(self, table_id: str, version: int) -> list[int]:
        lt = self.tables.get(table_id)
        if lt is None or self.closed or lt.bank is None:
            return []
        with self.changing(lt):
            if lt.version != version or lt.state.is_over or lt.status != "running":
                return []
            at = self.now()
            empty = [seat for seat in lt.state.to_move if not lt.seats[seat].by_bot
                     and lt.bank.since[seat] is not None and lt.bank.remaining(seat, at) <= 0]
            if not empty:  # woke before the bank ran out (the timer's clock is not ours): set it again
                self._kick(lt)
                return []
            if lt.timer is not None:  # asked before the timer came (check_clock): it has nothing left to do
                lt.timer.cancel()
            lt.timer = None
            if self._forfeits(lt):
                for seat in empty:  # the seat forfeits: placed last, its bot plays on (no taking it back)
                    lt.bank.forfeited.append(seat)
                    lt.seats[seat].autoplay = True
                    self.store.update_seat(lt.id, seat, autoplay=True)
                self.store.set_time_bank(lt.id, lt.bank.to_text())
            for seat in empty:
                lt.timed_out.add(seat)
                self.bots.start(lt, seat, lt.seats[seat].level, "clock")
            self.pushes.publish(lt)
            return empty

    def _forfeits(self, lt: LiveTable) -> bool:
        """True when a seat whose bank runs out at ``lt`` forfeits: the table's ``on_time_out`` rule,
        or when it gave none, whether the table is rated."""
        assert lt.bank is not None
        if lt.bank.on_empty is not None:
            return lt.bank.on_empty == "forfeit"
        return self.store.is_rated(lt.id)

    def _procs(self, index: int) -> ProcessPoolExecutor:
        """Search process ``index`` (:meth:`Bots.procs_at`)."""
        return self.bots.procs_at(index)

    def _search(self, table_id: str, fn: Callable[..., Any], *args: Any, client: str | None = None) -> Future:
        """Queue ``fn(*args)`` for ``table_id``'s search process (:meth:`Bots.search`)."""
        return self.bots.search(table_id, fn, *args, client=client)


def utc_iso(ts: float) -> str:
    """A POSIX time as ISO 8601 UTC text."""
    return datetime.fromtimestamp(ts, timezone.utc).isoformat()
