"""The store: a table's record in SQLite or PostgreSQL (SQLAlchemy 2, Alembic migrations).

Every write is committed before the caller goes on, so an acknowledged
action is on disk (SQLite: WAL journal, ``synchronous=FULL``).
Appending an action inserts row ``seq = version + 1``; the unique constraint
``(table_id, seq)`` makes two writers race safely: the second one's insert
finds the row there and :class:`Conflict` is raised, nothing is stored for it.

Appends take the cheap path (SQLAlchemy Core, no ORM objects): one
committer thread per store takes every append waiting and writes them in
one transaction (group commit), so tables acting within the same few
milliseconds share one commit (one flush to disk); each caller returns only
once the commit holding its action is done. :meth:`Store.append_then` is the
same append for a caller on an event loop: it returns at once, and the
committer has the caller's callback run on that loop (``loop.call_soon_threadsafe``)
once the commit is done, so no thread waits for it.

With PostgreSQL each append also sends ``NOTIFY dicetable, '<table id> <seq>
<origin>'`` inside the same transaction (delivered at commit), which other
server processes hear through :class:`Listener`. A chat message sends
``'<table id> c<message id> <origin>'`` the same way (:meth:`Store.notify_chat`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Any, Callable, NamedTuple

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import bindparam, create_engine, delete, event, func, insert, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, OperationalError, ProgrammingError

from .models import ActionRow, SeatRow, TableRow

log = logging.getLogger("dicetable.server")

#: PostgreSQL channel on which processes announce new actions.
CHANNEL = "dicetable"

#: The most appends one commit holds (group commit); more waiting go into the next one.
MAX_BATCH = 256

#: The database used when ``--database`` is not given: a file in the working directory.
DEFAULT_DATABASE = "sqlite:///dicetable.db"


class StoreError(Exception):
    """The database cannot be used (bad URL, unreachable server); the message says why."""


class Conflict(Exception):
    """Another writer appended first (the ``(table_id, seq)`` row exists); nothing was stored."""


class StoredAction(NamedTuple):
    """One stored action (a row of ``actions``, read without the ORM): the ``seq``-th of its table."""

    table_id: str
    seq: int
    seat: int
    action: str
    by: str
    undoable: bool
    created: datetime


#: The names of a :class:`StoredAction`'s fields, in its order (the columns of ``actions`` it holds).
ACTION_FIELDS: tuple[str, ...] = tuple(StoredAction.__annotations__)
_ACTION_COLUMNS = [getattr(ActionRow, name) for name in ACTION_FIELDS]


@dataclass
class Record:
    """A table as stored: its row, its seats (by seat number) and its actions in ``seq`` order."""

    table: TableRow
    seats: list[SeatRow]
    actions: list[StoredAction]


#: What :meth:`Store.append_then` calls on the loop once the append is written: ``then(action,
#: failure)``, ``failure`` None when ``action`` is committed, else :class:`Conflict` for a lost race
#: or the database's error.
Committed = Callable[[StoredAction, BaseException | None], None]


@dataclass(eq=False)
class _Pending:
    """One append waiting for the committer: the row, the status to set, how it ended, and who waits.

    :meth:`Store.append` waits on ``done``; :meth:`Store.append_then` gives ``loop`` and ``then``,
    which :meth:`wake` has called on that loop. Nothing here refers back to the pending append (no
    closure over it, no raised exception kept), so once settled it is freed by its reference count
    alone: an action in flight leaves no garbage cycle for the collector (docs/load.md, "Cycles and the
    collector's thresholds").
    """

    row: dict[str, Any]
    status: str | None
    action: StoredAction
    finish: Callable[[Connection], None] | None = None  # run in the append's transaction once it is stored
    stored: bool = False
    error: BaseException | None = None
    done: threading.Event | None = None  # append(): set by the committer once it is written
    loop: asyncio.AbstractEventLoop | None = None  # append_then(): the loop that runs ``then``
    then: Committed | None = None

    def failure(self) -> BaseException | None:
        """The error of this append once written: its own, :class:`Conflict` for a lost race, else None."""
        if self.error is not None:
            return self.error
        if not self.stored:
            action = self.action
            return Conflict(f"action {action.seq} of table {action.table_id} exists already")
        return None

    def outcome(self) -> StoredAction:
        """The stored action once this append was committed; raises its :meth:`failure`."""
        failure = self.failure()
        if failure is not None:
            raise failure
        return self.action

    def wake(self) -> None:
        """Tell whoever waits that this append is written (in the committer thread)."""
        if self.done is not None:
            self.done.set()
        if self.loop is not None:
            try:
                self.loop.call_soon_threadsafe(self.settle)
            except RuntimeError:  # the loop is closed: nobody waits any more
                pass

    def settle(self) -> None:
        """Call ``then`` with the stored action and its failure (None once committed), on its loop."""
        if self.then is not None:
            self.then(self.action, self.failure())


def now() -> datetime:
    """The current time in UTC (timezone-aware)."""
    return datetime.now(timezone.utc)


def as_utc(when: datetime) -> datetime:
    """A stored time with its zone: SQLite gives times back without one, and every time is stored in
    UTC (:func:`now`), so a naive one is UTC."""
    return when.replace(tzinfo=timezone.utc) if when.tzinfo is None else when


def iso_utc(when: datetime | None) -> str | None:
    """A stored time as ISO 8601 with its zone (``+00:00``, :func:`as_utc`); None stays None."""
    return None if when is None else as_utc(when).isoformat()


def normalize_url(url: str, *, create: bool = True) -> str:
    """A database URL as SQLAlchemy wants it; StoreError naming the accepted forms otherwise.

    ``sqlite:///path`` (a file; with ``create`` its parents are created, without it a file
    that does not exist is a StoreError naming it), ``postgresql+psycopg://...``;
    a bare ``postgresql://`` or ``postgres://`` is read as psycopg.
    """
    allowed = "use sqlite:///path/to/file.db or postgresql+psycopg://user@host/dbname"
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StoreError(f"cannot read the database URL {url!r}; {allowed}") from None
    if parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    elif parsed.drivername == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise StoreError(f"an in-memory SQLite database cannot hold tables across requests; {allowed}")
        path = Path(parsed.database).expanduser().resolve()
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        elif not path.is_file():
            raise StoreError(f"no database at {path}: the file does not exist; check the path "
                             "(`dicetable serve --database URL` creates a new one)")
    else:
        raise StoreError(f"unsupported database {parsed.drivername!r}; {allowed}")
    return parsed.render_as_string(hide_password=False)


#: SQLite's ``synchronous`` setting: FULL (default) flushes every commit to disk before the answer, so an
#: acknowledged action survives a killed process, an OS crash and a power cut; group commit (one flush
#: for every append waiting) keeps that affordable. ``DICETABLE_SQLITE_SYNC=NORMAL`` flushes only at
#: checkpoints: still nothing lost when the server process is killed (the commit is in the WAL file,
#: in the OS's cache), only possibly the last commits on a power cut or an OS crash.
SQLITE_SYNC = os.environ.get("DICETABLE_SQLITE_SYNC", "FULL").upper()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:  # a DB-API connection (sqlite3)
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")  # written into the file: only for a database the server keeps
    cur.close()
    _sqlite_session(dbapi_conn, _record)


def _sqlite_session(dbapi_conn: Any, _record: Any) -> None:  # a connection's own settings, not the file's
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA synchronous={'NORMAL' if SQLITE_SYNC == 'NORMAL' else 'FULL'}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def make_engine(url: str, *, create: bool = True) -> Engine:
    """An SQLAlchemy engine for ``url`` (see :func:`normalize_url`); StoreError if unusable. A SQLite
    file is put in WAL mode (written into the file) only with ``create`` (the server's own database)."""
    url = normalize_url(url, create=create)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10},
                               pool_size=8, max_overflow=16)
        event.listen(engine, "connect", _sqlite_pragmas if create else _sqlite_session)
    else:
        engine = create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
    return engine


def _alembic_config() -> Config:
    """Alembic's configuration for the migrations shipped in ``dicetable.server.migrations``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("dicetable.server") / "migrations"))
    return cfg


def check_schema(engine: Engine) -> None:
    """Check, changing nothing, that the database at ``engine`` has this version's schema (the newest
    migration shipped), for the commands that only read. StoreError naming what to do when it is not a
    dicetable database, or one an older or newer dicetable made; also when it cannot be reached."""
    shown = engine.url.render_as_string()
    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    try:
        with engine.connect() as conn:
            current = MigrationContext.configure(conn).get_current_revision()
    except (OperationalError, ProgrammingError) as exc:
        raise StoreError(f"cannot open the database {shown}: "
                         f"{str(exc.orig).strip().splitlines()[0] if exc.orig else exc}") from None
    if current is None:
        raise StoreError(f"the database {shown} holds no dicetable tables: check --database "
                         "(`dicetable serve --database URL` makes a new one)")
    if current != head:
        raise StoreError(f"the database {shown} has schema {current}, not this dicetable's {head}: "
                         f"this command only reads and changes nothing. A newer server upgrades it when "
                         f"it starts on it (`dicetable serve --database ...`); a database a newer "
                         f"dicetable made needs that version")


def migrate(engine: Engine) -> None:
    """Apply the Alembic migrations shipped in ``dicetable.server.migrations`` (to the newest).

    On PostgreSQL an advisory lock keeps two starting processes from
    migrating at once. Raises StoreError when the database cannot be reached.
    """
    cfg = _alembic_config()
    try:
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(8427101)"))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    except (OperationalError, ProgrammingError) as exc:
        raise StoreError(f"cannot open the database {engine.url.render_as_string()}: "
                         f"{str(exc.orig).strip().splitlines()[0] if exc.orig else exc}") from None


class Store:
    """All reads and writes of tables, seats and actions (thread-safe; one short transaction each).

    ``origin`` is a random id of this process, sent with every notification
    so a process can ignore its own. ``create=False`` (for the commands that only read) opens only
    a database that exists and has this version's schema, and changes nothing: a SQLite file that
    does not exist, or a schema an older or newer dicetable made, is a StoreError saying so
    (:func:`check_schema`); with ``create=True`` (the server) the schema is created or upgraded.
    """

    def __init__(self, url: str, *, create: bool = True) -> None:
        self.engine = make_engine(url, create=create)
        self.url = self.engine.url
        self.is_postgres = self.engine.dialect.name == "postgresql"
        self.origin = os.urandom(6).hex()
        if create:
            migrate(self.engine)
        else:
            check_schema(self.engine)
        dialect_insert = postgresql.insert if self.is_postgres else sqlite.insert
        # statements built once (SQLAlchemy caches their compiled form): the action path's SQL
        self._insert_action = (dialect_insert(ActionRow).on_conflict_do_nothing()  # a lost race: no row back
                               .returning(ActionRow.table_id, ActionRow.seq))
        self._set_status = (update(TableRow).where(TableRow.id == bindparam("tid"))
                            .values(status=bindparam("new_status")))
        self._select_actions = (select(*_ACTION_COLUMNS)
                                .where(ActionRow.table_id == bindparam("table_id"),
                                       ActionRow.seq > bindparam("after")).order_by(ActionRow.seq))
        self._raw: _RawAppender | None = None  # the committer's own SQLite connection (_write); None: not yet
        self._waiting: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._committer: threading.Thread | None = None
        self._committer_lock = threading.Lock()
        self.commits = 0  # transactions the committer ran (batches of appends), for benchmarks

    def close(self) -> None:
        """Finish the appends already waiting, stop the committer and release the pooled connections."""
        with self._committer_lock:
            committer, self._committer = self._committer, None
        if committer is not None:
            self._waiting.put(None)
            committer.join(10)
        if self._raw is not None:
            self._raw.close()
            self._raw = None
        self.engine.dispose()

    # ------------------------------------------------------------------ reads
    def load(self, table_id: str) -> Record | None:
        """The record of ``table_id`` (None if there is no such table)."""
        with self.engine.connect() as conn:
            table = conn.execute(select(TableRow.__table__).where(TableRow.id == table_id)).mappings().first()
            if table is None:
                return None
            seats = conn.execute(select(SeatRow.__table__).where(SeatRow.table_id == table_id)
                                 .order_by(SeatRow.seat)).mappings().all()
            actions = self._actions(conn, table_id, 0)
        return Record(TableRow(**table), [SeatRow(**seat) for seat in seats], actions)

    def actions_after(self, table_id: str, seq: int) -> list[StoredAction]:
        """The actions of ``table_id`` with a ``seq`` above ``seq``, in order."""
        with self.engine.connect() as conn:
            return self._actions(conn, table_id, seq)

    def _actions(self, conn: Connection, table_id: str, seq: int) -> list[StoredAction]:
        rows = conn.execute(self._select_actions, {"table_id": table_id, "after": seq})
        return [StoredAction(*row) for row in rows]

    def count_actions(self, table_id: str) -> int:
        """How many actions ``table_id`` has (its version)."""
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(ActionRow)
                                .where(ActionRow.table_id == table_id)).scalar_one()

    def list_tables(self, statuses: tuple[str, ...] | None = None, limit: int | None = None,
                    offset: int = 0) -> list[dict]:
        """Every table (or those with a status in ``statuses``), newest first, without secrets.

        ``limit``/``offset`` give one page of that order (None: every table).
        Each is ``{"table_id", "game", "players", "status", "created", "version",
        "seats": [{"seat", "kind", "level", "name", "joined"}]}``.
        """
        with self.engine.connect() as conn:
            q = select(TableRow.id, TableRow.game, TableRow.players, TableRow.status,
                       TableRow.created, TableRow.clock).order_by(TableRow.created.desc(), TableRow.id)
            if statuses:
                q = q.where(TableRow.status.in_(statuses))
            if limit is not None:
                q = q.limit(limit).offset(offset)
            tables = conn.execute(q).all()
            ids = [t.id for t in tables]
            counts_q = select(ActionRow.table_id, func.count()).group_by(ActionRow.table_id)
            seats_q = select(SeatRow.table_id, SeatRow.seat, SeatRow.kind, SeatRow.level,
                             SeatRow.name, SeatRow.joined).order_by(SeatRow.seat)
            if limit is not None:  # one page: only its tables' seats and counts
                counts_q = counts_q.where(ActionRow.table_id.in_(ids))
                seats_q = seats_q.where(SeatRow.table_id.in_(ids))
            counts = dict(conn.execute(counts_q).all())
            seats: dict[str, list] = {}
            for row in conn.execute(seats_q):
                seats.setdefault(row.table_id, []).append(
                    {"seat": row.seat, "kind": row.kind, "level": row.level if row.kind == "bot" else None,
                     "name": row.name, "joined": bool(row.joined)})
        return [{"table_id": t.id, "game": t.game, "players": t.players, "status": t.status,
                 "created": iso_utc(t.created), "clock": t.clock,
                 "version": counts.get(t.id, 0), "seats": seats.get(t.id, [])} for t in tables]

    def count_tables(self, statuses: tuple[str, ...] | None = None) -> int:
        """How many tables there are (with a status in ``statuses``, if given)."""
        with self.engine.connect() as conn:
            q = select(func.count()).select_from(TableRow)
            if statuses:
                q = q.where(TableRow.status.in_(statuses))
            return conn.execute(q).scalar_one()

    def status(self, table_id: str) -> str | None:
        """The status of ``table_id`` (``running`` or ``over``); None for an unknown table."""
        with self.engine.connect() as conn:
            return conn.execute(select(TableRow.status).where(TableRow.id == table_id)).scalar_one_or_none()

    def is_rated(self, table_id: str) -> bool:
        """True when ``table_id`` is a rated table (False for an unknown one)."""
        with self.engine.connect() as conn:
            return bool(conn.execute(select(TableRow.rated).where(TableRow.id == table_id)).scalar_one_or_none())

    def running_table_ids(self) -> list[str]:
        """Ids of the tables whose game is not over."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(TableRow.id).where(TableRow.status == "running")).scalars())

    # ----------------------------------------------------------------- writes
    def create(self, table: TableRow, seats: list[SeatRow]) -> None:
        """Store a new table and its seats in one transaction (nothing is stored if either insert fails)."""

        def row(obj: TableRow | SeatRow) -> dict[str, Any]:
            # an unset attribute is None before a flush: give it the column's default, as the ORM would
            return {c.key: c.default.arg if (value := getattr(obj, c.key)) is None and c.default is not None
                    and c.default.is_scalar else value for c in obj.__table__.columns}

        with self.engine.begin() as conn:
            conn.execute(insert(TableRow), [row(table)])
            conn.execute(insert(SeatRow), [row(seat) for seat in seats])

    def append(self, table_id: str, seq: int, seat: int, action: str, by: str, undoable: bool,
               status: str | None = None, finish: Callable[[Connection], None] | None = None) -> StoredAction:
        """Append action ``seq`` and commit (and set the table's ``status`` when given); the stored action.

        ``finish`` (when given) is called with the connection inside the same transaction, only
        if this action is the one stored (a lost race never calls it): the results of a table
        that this action ends are written with it (``dicetable.server.ratings``), exactly once.

        Returns once the transaction holding it is committed (it may hold other
        tables' appends too: group commit). Raises :class:`Conflict` when row
        ``seq`` exists already (another writer won); nothing is stored then.
        Database errors (``sqlalchemy.exc.DBAPIError``) reach the caller as they are.
        """
        stored = StoredAction(table_id, seq, seat, action, by, undoable, now())
        done = threading.Event()
        pending = _Pending(dict(zip(ACTION_FIELDS, stored)), status, stored, finish, done=done)
        self._start_committer()
        self._waiting.put(pending)
        done.wait()
        return pending.outcome()

    def append_then(self, table_id: str, seq: int, seat: int, action: str, by: str, undoable: bool,
                    then: Committed, status: str | None = None,
                    finish: Callable[[Connection], None] | None = None) -> None:
        """:meth:`append` for a caller on a running event loop (RuntimeError without one): queue the append
        and return at once; ``then(action, failure)`` is called on that loop once the transaction holding
        it is committed, ``failure`` None, or once it failed, ``failure`` the exception :meth:`append`
        would raise (:class:`Conflict` for a lost race, a database error as it is).

        ``then`` runs in the loop turn that learns of the commit, so whatever it does first (an
        action's answer, its pushes) waits for no further turn of the loop, as an awaited future's
        waiter would (docs/load.md, "An action's turns of the loop"). ``then`` must not raise; it
        should not refer to anything that refers back to it (a closure over its own caller's frame),
        so that a settled append leaves no garbage cycle.
        """
        loop = asyncio.get_running_loop()
        stored = StoredAction(table_id, seq, seat, action, by, undoable, now())
        self._start_committer()
        self._waiting.put(_Pending(dict(zip(ACTION_FIELDS, stored)), status, stored, finish,
                                   loop=loop, then=then))

    def _start_committer(self) -> None:
        if self._committer is None:
            with self._committer_lock:
                if self._committer is None:
                    self._committer = threading.Thread(target=self._commit_loop, name="dicetable-commit",
                                                       daemon=True)
                    self._committer.start()

    def _commit_loop(self) -> None:
        """The committer thread: take every append waiting (at most ``MAX_BATCH``), commit them as one."""
        while True:
            first = self._waiting.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    nxt = self._waiting.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._commit_batch(batch)
            if stop:
                return

    def _commit_batch(self, batch: list[_Pending]) -> None:
        """Write ``batch`` in one transaction and wake its callers; when that transaction fails, each
        append is tried again in its own, so one bad append (its table deleted) fails only its caller."""
        batch.sort(key=lambda p: (p.row["table_id"], p.row["seq"]))  # one lock order across processes
        try:
            self._write(batch)
        except Exception:
            for pending in batch:
                pending.stored = False
                try:
                    self._write_alone(pending)  # through SQLAlchemy, whose errors the callers know
                except IntegrityError:  # its table is gone (deleted): nothing stored, as a lost race
                    pending.stored = False
                except Exception as exc:
                    pending.error = exc
        finally:
            for pending in batch:
                pending.wake()

    def _write_alone(self, pending: _Pending) -> None:
        """Write one append in its own transaction; if that fails while it carries results to write
        (``finish``), the append is tried once more without them (logged): a table's results never
        cost the move that ended it."""
        try:
            self._write_core([pending])
        except Exception:
            if pending.finish is None:
                raise
            log.exception("writing the results of table %s failed; its last move is stored without them",
                          pending.row["table_id"])
            pending.finish, pending.stored = None, False
            self._write_core([pending])

    def _write(self, batch: list[_Pending]) -> None:
        """Write ``batch`` in one transaction (:meth:`_write_core`). On SQLite a batch of plain appends
        (no status to set, no results to write) takes the committer's own connection instead, without
        SQLAlchemy's work per statement (:class:`_RawAppender`): the same rows, the same commit."""
        if self.is_postgres or any(p.status is not None or p.finish is not None for p in batch):
            return self._write_core(batch)
        if self._raw is None:
            self._raw = _RawAppender(self.engine)
        try:
            self._raw.write(batch)
        except BaseException:
            self._raw = None  # write() let its connection go
            raise
        self.commits += 1

    def _write_core(self, batch: list[_Pending]) -> None:
        """Insert ``batch`` (one statement, many rows), set the statuses, notify, commit; lost races
        (an existing ``(table_id, seq)``, or the same one twice in the batch) are left ``stored = False``."""
        rows, keys = [], set()
        for pending in batch:
            key = (pending.row["table_id"], pending.row["seq"])
            pending.stored = False
            if key not in keys:
                keys.add(key)
                rows.append(pending.row)
        with self.engine.begin() as conn:
            # ON CONFLICT DO NOTHING: a lost race stores nothing and the rest go on; RETURNING names the stored
            stored_keys = {(r.table_id, r.seq) for r in conn.execute(self._insert_action, rows)}
            for pending in batch:
                key = (pending.row["table_id"], pending.row["seq"])
                if key in stored_keys:
                    pending.stored = True
                    stored_keys.discard(key)  # a duplicate in the batch stays a lost race
            changes = [{"tid": p.row["table_id"], "new_status": p.status} for p in batch
                       if p.stored and p.status is not None]
            if changes:
                conn.execute(self._set_status, changes)
            for pending in batch:
                if pending.stored and pending.finish is not None:
                    try:
                        pending.finish(conn)
                    except DBAPIError:  # the database refused: the transaction is lost, as for the appends
                        raise
                    except Exception:  # a bug in the results' code must not cost the players their last move
                        log.exception("writing the results of table %s failed", pending.row["table_id"])
            stored = [f"{p.row['table_id']} {p.row['seq']} {self.origin}" for p in batch if p.stored]
            if self.is_postgres and stored:
                conn.execute(text("SELECT pg_notify(:channel, payload) FROM unnest(CAST(:payloads AS text[])) "
                                  "AS payload"), {"channel": CHANNEL, "payloads": stored})
        self.commits += 1

    def abandon_idle(self, cutoff: datetime) -> list[str]:
        """Mark ``abandoned`` every running table created before ``cutoff`` with no action since; their ids."""
        recent = select(ActionRow.table_id).where(ActionRow.created >= cutoff)
        idle = (TableRow.status == "running") & (TableRow.created < cutoff) & TableRow.id.not_in(recent)
        with self.engine.begin() as conn:
            ids = list(conn.execute(select(TableRow.id).where(idle)).scalars())
            if ids:
                conn.execute(update(TableRow).where(TableRow.id.in_(ids), TableRow.status == "running")
                             .values(status="abandoned"))
            for table_id in ids:  # other processes holding the table reload it: it takes no more actions
                self._notify(conn, table_id, -1)
        return ids

    def claim(self, table_id: str, seat: int, invite_hash: str, token_hash: str,
              player_id: int | None = None, name: str | None = None) -> bool:
        """Claim ``seat`` with the invite whose hash is ``invite_hash``: the seat's token hash becomes
        ``token_hash`` (revoking the earlier token), its invite is used up and, given a ``player_id``,
        the seat becomes that account's (and is shown as ``name``), in one transaction. False (nothing
        changed) when the invite is not, or no longer, the seat's: of two claims one wins."""
        values: dict[str, Any] = {"invite_hash": None, "claimed": True, "joined": True, "token_hash": token_hash}
        if player_id is not None:
            values["player_id"] = player_id
        if name is not None:
            values["name"] = name
        with self.engine.begin() as conn:
            done = conn.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                                                      SeatRow.invite_hash == invite_hash).values(**values))
            if done.rowcount == 1:
                self._notify(conn, table_id, -1)
            return done.rowcount == 1

    def delete_table(self, table_id: str) -> None:
        """Remove ``table_id`` with its seats and actions in one transaction (a creation that failed)."""
        with self.engine.begin() as conn:
            conn.execute(delete(ActionRow).where(ActionRow.table_id == table_id))
            conn.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            conn.execute(delete(TableRow).where(TableRow.id == table_id))

    def drop_last(self, table_id: str, seq: int) -> bool:
        """Delete action ``seq`` if it is the table's last one (an undo) and count it in the table's
        ``undos``, in one transaction; False (nothing changed) if it is not the last."""
        with self.engine.begin() as conn:
            last = conn.execute(select(func.max(ActionRow.seq)).where(ActionRow.table_id == table_id)).scalar()
            if last != seq:
                return False
            conn.execute(delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.seq == seq))
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(undos=TableRow.undos + 1))
            self._notify(conn, table_id, -2)
        return True

    def set_time_bank(self, table_id: str, text: str) -> None:
        """Keep the table's chess-style clock (``tables.time_bank``, JSON) and commit."""
        with self.engine.begin() as conn:
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(time_bank=text))

    def set_rematch(self, table_id: str, rematch: str, by: str) -> bool:
        """Record ``rematch`` (a table id) as ``table_id``'s rematch, started by the seat named ``by``, unless
        it has one already (then False, nothing changed: of two rematches started at once one wins)."""
        with self.engine.begin() as conn:
            done = conn.execute(update(TableRow).where(TableRow.id == table_id, TableRow.rematch.is_(None))
                                .values(rematch=rematch, rematch_by=by))
            if done.rowcount == 1:
                self._notify(conn, table_id, -1)
            return done.rowcount == 1

    def update_seat(self, table_id: str, seat: int, **values: bool | str) -> None:
        """Change fields of one seat (``autoplay``, ``joined``: bool; ``level``: a bot level) and commit."""
        with self.engine.begin() as conn:
            conn.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                         .values(**values))
            self._notify(conn, table_id, -1)

    def _notify(self, conn: Connection, table_id: str, seq: int | str) -> None:
        if self.is_postgres:
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": CHANNEL, "payload": f"{table_id} {seq} {self.origin}"})

    def notify_seats(self, conn: Connection, table_id: str) -> None:
        """Tell the other server processes (PostgreSQL) that ``table_id``'s seats changed in ``conn``'s
        transaction: they reload it when it commits."""
        self._notify(conn, table_id, -1)

    def notify_chat(self, conn: Connection, table_id: str, message_id: int) -> None:
        """Tell the other processes (PostgreSQL only; delivered when ``conn``'s transaction commits) that
        chat message ``message_id`` was stored at ``table_id``, so each pushes it to its own connections."""
        self._notify(conn, table_id, f"c{message_id}")


class _RawAppender:
    """The SQLite committer's own DB-API connection (taken from the engine's pool, with its pragmas:
    WAL, ``synchronous``, ``busy_timeout``) and the append statement, for batches of plain appends.

    Writes exactly what :meth:`Store._write_core` writes for such a batch (each value through its
    column type's SQLAlchemy bind processor, so a ``created`` time is stored in the same form), in one
    transaction: one multi-row ``INSERT ... ON CONFLICT DO NOTHING RETURNING`` and one commit.
    Used by the committer thread only.
    """

    def __init__(self, engine: Engine) -> None:
        self.fairy = engine.raw_connection()
        self.conn: Any = self.fairy.driver_connection  # the sqlite3.Connection
        dialect = engine.dialect
        table = ActionRow.__table__
        self.columns = list(ACTION_FIELDS)
        self.process = [table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in self.columns]
        quote = dialect.identifier_preparer.quote
        self.head = f"INSERT INTO {quote(ActionRow.__tablename__)} ({', '.join(quote(c) for c in self.columns)}) VALUES "
        self.tail = f" ON CONFLICT DO NOTHING RETURNING {quote('table_id')}, {quote('seq')}"
        self.one = "(" + ", ".join("?" for _ in self.columns) + ")"
        self.sql: dict[int, str] = {}

    def write(self, batch: list[_Pending]) -> None:
        """Insert and commit ``batch`` (``stored`` set on each append that was stored); on any error
        the transaction is rolled back, the connection closed (the store takes a new one next time), and
        the error raised (the committer then writes each append alone through SQLAlchemy)."""
        values: list[Any] = []
        keys = set()
        for pending in batch:
            pending.stored = False
            row = pending.row
            key = (row["table_id"], row["seq"])
            if key in keys:
                continue  # the same (table, seq) twice in the batch: the second is a lost race
            keys.add(key)
            for name, process in zip(self.columns, self.process):
                value = row[name]
                values.append(process(value) if process is not None else value)
        n = len(keys)
        sql = self.sql.get(n)
        if sql is None:
            sql = self.sql[n] = self.head + ", ".join([self.one] * n) + self.tail
        try:
            cursor = self.conn.cursor()
            stored = set(cursor.execute(sql, values).fetchall())
            cursor.close()
            self.conn.commit()
        except BaseException:
            try:
                self.conn.rollback()
            finally:
                self.fairy.invalidate()
            raise
        for pending in batch:
            key = (pending.row["table_id"], pending.row["seq"])
            if key in stored:
                pending.stored = True
                stored.discard(key)

    def close(self) -> None:
        """Give the connection back to the engine's pool."""
        self.fairy.close()


def options_text(options: dict) -> str:
    """The options as stored: canonical JSON (sorted keys)."""
    return json.dumps(options, sort_keys=True)


class Listener(threading.Thread):
    """Listens on the PostgreSQL channel and calls ``on_change(table_id, seq)`` for other processes' writes.

    ``seq`` is the appended action's number (-1: a seat changed; -2: an
    action was taken back). After each (re)connection it calls
    ``on_change(None, None)``: anything may have changed meanwhile. A chat
    message stored by another process calls ``on_chat(table_id, message_id)``
    (when given).

    Runs in its own daemon thread with its own autocommit psycopg connection;
    reconnects after a lost connection. ``stop()`` ends it.
    """

    def __init__(self, store: Store, on_change: Callable[[str | None, int | None], None],
                 on_chat: Callable[[str, int], None] | None = None) -> None:
        super().__init__(daemon=True, name="dicetable-listen")
        self.store = store
        self.on_change = on_change
        self.on_chat = on_chat
        self.stopping = threading.Event()
        self.ready = threading.Event()

    def run(self) -> None:  # pragma: no cover - exercised by the PostgreSQL tests in subprocesses
        import psycopg

        url = self.store.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self.stopping.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    self._tell(None, None)  # (re)connected: writes may have been missed
                    while not self.stopping.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._heard(note.payload)
            except psycopg.Error:
                self.stopping.wait(0.5)

    def _heard(self, payload: str) -> None:
        """Act on one notification (``'<table id> <seq or c<message id>> <origin>'``); this process's own
        writes and anything unreadable are ignored."""
        parts = payload.split()
        if len(parts) != 3 or parts[2] == self.store.origin:
            return
        table_id, what = parts[0], parts[1]
        if what.lstrip("-").isdigit():
            self._tell(table_id, int(what))
        elif what.startswith("c") and what[1:].isdigit() and self.on_chat is not None:
            try:
                self.on_chat(table_id, int(what[1:]))
            except Exception:
                log.exception("pushing chat message %s of table %s failed", what[1:], table_id)

    def _tell(self, table_id: str | None, seq: int | None) -> None:
        """Call ``on_change``; a failure (a table gone from the database) is logged, the listener goes on."""
        try:
            self.on_change(table_id, seq)
        except Exception:
            log.exception("catching up with table %s failed", table_id)

    def stop(self) -> None:
        """Ask the thread to finish (within about half a second)."""
        self.stopping.set()
