"""The store: a table's record in SQLite or PostgreSQL (SQLAlchemy 2, Alembic migrations).

Every write is one short transaction committed before the caller goes on, so
an acknowledged action is on disk (SQLite: WAL journal, ``synchronous=FULL``).
Appending an action inserts row ``seq = version + 1``; the unique constraint
``(table_id, seq)`` makes two writers race safely: the second one's insert
fails and :class:`Conflict` is raised, nothing is stored for it.

With PostgreSQL each append also sends ``NOTIFY dicetable, '<table id> <seq>
<origin>'`` inside the same transaction (delivered at commit), which other
server processes hear through :class:`Listener`.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, delete, event, func, insert, select, text, update
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError, ProgrammingError

from .models import ActionRow, SeatRow, TableRow

#: PostgreSQL channel on which processes announce new actions.
CHANNEL = "dicetable"

#: The database used when ``--database`` is not given: a file in the working directory.
DEFAULT_DATABASE = "sqlite:///dicetable.db"


class StoreError(Exception):
    """The database cannot be used (bad URL, unreachable server); the message says why."""


class Conflict(Exception):
    """Another writer appended first (the ``(table_id, seq)`` row exists); nothing was stored."""


@dataclass
class Record:
    """A table as stored: its row, its seats (by seat number) and its actions in ``seq`` order."""

    table: TableRow
    seats: list[SeatRow]
    actions: list[ActionRow]


def now() -> datetime:
    """The current time in UTC (timezone-aware)."""
    return datetime.now(timezone.utc)


def normalize_url(url: str) -> str:
    """A database URL as SQLAlchemy wants it; StoreError naming the accepted forms otherwise.

    ``sqlite:///path`` (a file; parents are created), ``postgresql+psycopg://...``;
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
        Path(parsed.database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
    else:
        raise StoreError(f"unsupported database {parsed.drivername!r}; {allowed}")
    return parsed.render_as_string(hide_password=False)


#: SQLite's ``synchronous`` setting: FULL (default) flushes every commit to disk before the answer;
#: ``DICETABLE_SQLITE_SYNC=NORMAL`` is about 10x cheaper per commit and still loses nothing when the
#: server process is killed, only possibly the last commits on a power cut or an OS crash.
SQLITE_SYNC = os.environ.get("DICETABLE_SQLITE_SYNC", "FULL").upper()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:  # a DB-API connection (sqlite3)
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute(f"PRAGMA synchronous={'NORMAL' if SQLITE_SYNC == 'NORMAL' else 'FULL'}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def make_engine(url: str) -> Engine:
    """An SQLAlchemy engine for ``url`` (see :func:`normalize_url`); StoreError if unusable."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10},
                               pool_size=8, max_overflow=16)
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        engine = create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
    return engine


def migrate(engine: Engine) -> None:
    """Apply the Alembic migrations shipped in ``dicetable.server.migrations`` (to the newest).

    On PostgreSQL an advisory lock keeps two starting processes from
    migrating at once. Raises StoreError when the database cannot be reached.
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("dicetable.server") / "migrations"))
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
    so a process can ignore its own.
    """

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self.url = self.engine.url
        self.is_postgres = self.engine.dialect.name == "postgresql"
        self.origin = os.urandom(6).hex()
        migrate(self.engine)

    def close(self) -> None:
        """Release the pooled connections."""
        self.engine.dispose()

    # ------------------------------------------------------------------ reads
    def load(self, table_id: str) -> Record | None:
        """The record of ``table_id`` (None if there is no such table)."""
        with self.engine.connect() as conn:
            from sqlalchemy.orm import Session

            with Session(bind=conn, expire_on_commit=False) as s:
                table = s.get(TableRow, table_id)
                if table is None:
                    return None
                seats = list(s.scalars(select(SeatRow).where(SeatRow.table_id == table_id)
                                       .order_by(SeatRow.seat)))
                actions = list(s.scalars(select(ActionRow).where(ActionRow.table_id == table_id)
                                         .order_by(ActionRow.seq)))
                s.expunge_all()
                return Record(table, seats, actions)

    def actions_after(self, table_id: str, seq: int) -> list[ActionRow]:
        """The actions of ``table_id`` with a ``seq`` above ``seq``, in order."""
        from sqlalchemy.orm import Session

        with Session(self.engine, expire_on_commit=False) as s:
            rows = list(s.scalars(select(ActionRow).where(ActionRow.table_id == table_id,
                                                          ActionRow.seq > seq).order_by(ActionRow.seq)))
            s.expunge_all()
            return rows

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
                 "created": t.created.isoformat() if t.created else None, "clock": t.clock,
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
               status: str | None = None) -> ActionRow:
        """Append action ``seq`` and commit (and set the table's ``status`` when given).

        Raises :class:`Conflict` when row ``seq`` exists already (another writer
        won); nothing is stored then.
        """
        row = {"table_id": table_id, "seq": seq, "seat": seat, "action": action, "by": by,
               "undoable": undoable, "created": now()}
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(ActionRow).values(**row))
                if status is not None:
                    conn.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))
                self._notify(conn, table_id, seq)
        except IntegrityError:
            raise Conflict(f"action {seq} of table {table_id} exists already") from None
        return ActionRow(**row)

    def abandon_idle(self, cutoff: datetime) -> list[str]:
        """Mark ``abandoned`` every running table created before ``cutoff`` with no action since; their ids."""
        recent = select(ActionRow.table_id).where(ActionRow.created >= cutoff)
        idle = (TableRow.status == "running") & (TableRow.created < cutoff) & TableRow.id.not_in(recent)
        with self.engine.begin() as conn:
            ids = list(conn.execute(select(TableRow.id).where(idle)).scalars())
            if ids:
                conn.execute(update(TableRow).where(TableRow.id.in_(ids), TableRow.status == "running")
                             .values(status="abandoned"))
        return ids

    def claim(self, table_id: str, seat: int, invite_hash: str, token_hash: str) -> bool:
        """Claim ``seat`` with the invite whose hash is ``invite_hash``: the seat's token hash becomes
        ``token_hash`` (revoking the earlier token) and its invite is used up, in one transaction. False
        (nothing changed) when the invite is not, or no longer, the seat's: of two claims one wins."""
        with self.engine.begin() as conn:
            done = conn.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                                                      SeatRow.invite_hash == invite_hash)
                                .values(invite_hash=None, claimed=True, joined=True, token_hash=token_hash))
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

    def update_seat(self, table_id: str, seat: int, **values: bool | str) -> None:
        """Change fields of one seat (``autoplay``, ``joined``: bool; ``level``: a bot level) and commit."""
        with self.engine.begin() as conn:
            conn.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                         .values(**values))
            self._notify(conn, table_id, -1)

    def _notify(self, conn: Connection, table_id: str, seq: int) -> None:
        if self.is_postgres:
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": CHANNEL, "payload": f"{table_id} {seq} {self.origin}"})


def options_text(options: dict) -> str:
    """The options as stored: canonical JSON (sorted keys)."""
    return json.dumps(options, sort_keys=True)


class Listener(threading.Thread):
    """Listens on the PostgreSQL channel and calls ``on_change(table_id, seq)`` for other processes' writes.

    ``seq`` is the appended action's number (-1: a seat changed; -2: an
    action was taken back). After each (re)connection it calls
    ``on_change(None, None)``: anything may have changed meanwhile.

    Runs in its own daemon thread with its own autocommit psycopg connection;
    reconnects after a lost connection. ``stop()`` ends it.
    """

    def __init__(self, store: Store, on_change: Callable[[str | None, int | None], None]) -> None:
        super().__init__(daemon=True, name="dicetable-listen")
        self.store = store
        self.on_change = on_change
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
                    self.on_change(None, None)  # (re)connected: writes may have been missed
                    while not self.stopping.is_set():
                        for note in conn.notifies(timeout=0.5):
                            parts = note.payload.split()
                            if len(parts) == 3 and parts[2] != self.store.origin:
                                try:
                                    self.on_change(parts[0], int(parts[1]))
                                except Exception:  # a bad table must not stop the listener
                                    pass
            except psycopg.Error:
                self.stopping.wait(0.5)

    def stop(self) -> None:
        """Ask the thread to finish (within about half a second)."""
        self.stopping.set()
