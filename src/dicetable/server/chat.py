"""Table chat: short messages from the seats and the spectators, stored with the table and pushed live.

A message is plain text of 1 to :data:`MAX_CHARS` characters (spaces at the
ends are dropped; control and invisible format characters are refused). It is
stored in the ``chat`` table (migration 0004) and sent to every live
connection of the table as ``{"type": "chat", "message": {...}}`` through the
table's outbox, so it reaches each connection in order with the table's own
changes (docs/web.md, "Table chat"). The server never turns a message into
HTML: pages put it in the page as text, so markup in a message shows as the
characters typed.

Limits (all answered 429 with ``Retry-After``, or 409): :data:`RATE` messages
per :data:`WINDOW` seconds per poster (a seat, or the spectators of one
address) at one table, whatever ``DICETABLE_LIMITS`` says; at most
:data:`MAX_MESSAGES` messages per table (409 beyond: the chat is full).

On PostgreSQL with several server processes the process that took a message
also sends a notification in the storing transaction (:meth:`Store.notify_chat`);
every other process hears it through its :class:`~.store.Listener` and pushes
the message to its own connections of the table (:meth:`Chat.relay`).
"""

from __future__ import annotations

import json
import threading
import time
import unicodedata
from collections import deque
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, insert, select

from .errors import ApiError, quoted
from .limits import LimitError
from .live import LiveTable
from .accounts import DELETED_NAME
from .models import ChatRow, SeatRow
from .store import iso_utc, now
from .tables import TableManager

#: Longest message, in characters (after dropping spaces at the ends).
MAX_CHARS = 300
#: Messages one poster may send to one table within :data:`WINDOW` seconds.
RATE, WINDOW = 5, 10.0
#: Messages a table keeps at most (a full chat refuses more with 409).
MAX_MESSAGES = 2000
#: Messages one ``GET .../chat`` answers at most (the newest ones after ``after``).
PAGE = 200
#: The name shown for a spectator's message.
SPECTATOR = "Spectator"

_REFUSED_CATEGORIES = ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn")


def clean_text(text: str) -> str:
    """``text`` as it will be stored: spaces at the ends dropped.

    Raises ApiError 422 naming what is wrong for an empty (or blank) message,
    one longer than :data:`MAX_CHARS` characters, or one holding a control,
    line-break or invisible format character.
    """
    text = text.strip()
    if not text:
        raise ApiError(422, f"a chat message may not be empty; write 1 to {MAX_CHARS} characters")
    if len(text) > MAX_CHARS:
        raise ApiError(422, f"a chat message is at most {MAX_CHARS} characters; this one has {len(text)}")
    bad = next((ch for ch in text if unicodedata.category(ch) in _REFUSED_CATEGORIES), None)
    if bad is not None:
        raise ApiError(422, f"a chat message is one line of printable text; it holds the character "
                            f"U+{ord(bad):04X} (a control, line break or invisible format character)")
    return text


class Rate:
    """A sliding window per poster: at most ``count`` posts within ``window`` seconds (thread-safe).

    ``clock`` gives the time in seconds (``time.monotonic`` unless a test injects another).
    """

    def __init__(self, count: int = RATE, window: float = WINDOW, clock: Any = time.monotonic) -> None:
        self.count, self.window, self.clock = count, window, clock
        self.posts: dict[tuple, deque[float]] = {}
        self.lock = threading.Lock()

    def take(self, key: tuple) -> None:
        """Count one post of ``key``; LimitError 429 (with the seconds until the next is allowed) when it
        had ``count`` posts within the window already (that refusal is not counted)."""
        at = self.clock()
        with self.lock:
            if len(self.posts) > 10_000:  # forget posters whose window has passed
                for old in [k for k, q in self.posts.items() if not q or q[-1] <= at - self.window]:
                    del self.posts[old]
            times = self.posts.setdefault(key, deque())
            while times and times[0] <= at - self.window:
                times.popleft()
            if len(times) >= self.count:
                wait = times[0] + self.window - at
                raise LimitError(429, f"at most {self.count} chat messages per {self.window:g} seconds; "
                                      f"wait {max(1, round(wait))} s", wait)
            times.append(at)


def message_json(row: dict[str, Any]) -> dict[str, Any]:
    """One message as the API and the live wire show it: ``{"id", "seat", "name", "spectator", "account",
    "text", "at"}`` (``seat`` None and ``spectator`` True for a spectator's; ``account`` True when ``name``
    is the name of the account holding the seat, so pages can mark it apart from free seat names; ``at``
    ISO 8601 UTC). ``row`` has the chat row's fields and, optionally, ``account``."""
    created = row["created"]
    at = iso_utc(created) if isinstance(created, datetime) else str(created)
    return {"id": row["id"], "seat": row["seat"], "name": row["name"], "spectator": row["seat"] is None,
            "account": bool(row.get("account")), "text": row["text"], "at": at}


#: The stored messages with, per message, the holder and the current name of the seat that posted it.
_MESSAGES = (select(ChatRow.id, ChatRow.seat, ChatRow.name, ChatRow.text, ChatRow.created,
                    SeatRow.player_id.label("holder"), SeatRow.name.label("seat_name"))
             .select_from(ChatRow)
             .outerjoin(SeatRow, and_(SeatRow.table_id == ChatRow.table_id, SeatRow.seat == ChatRow.seat)))


def _stored(row: Any) -> dict[str, Any]:
    """A row of :data:`_MESSAGES` as :func:`message_json` takes it: ``account`` True when the message was
    posted under the name of the account that holds its seat."""
    out = dict(row)
    holder, seat_name = out.pop("holder"), out.pop("seat_name")
    out["account"] = holder is not None and seat_name == out["name"] != DELETED_NAME
    return out


class Chat:
    """The chat of every table of one :class:`TableManager` (its store and its live connections)."""

    def __init__(self, manager: TableManager, rate: Rate | None = None) -> None:
        self.manager = manager
        self.store = manager.store
        self.rate = rate if rate is not None else Rate()

    def post(self, table_id: str, seat: int | None, text: str, client: str) -> dict[str, Any]:
        """Store ``text`` from ``seat`` (None: a spectator at address ``client``) at ``table_id``, push it to
        the table's live connections and return it (:func:`message_json`).

        ApiError 404 for an unknown table, 422 for a bad text (:func:`clean_text`), 429 over the rate,
        409 when the table's chat is full.
        """
        lt = self.manager.get(table_id)
        text = clean_text(text)
        self.rate.take((table_id, seat if seat is not None else f"spectator@{client}"))
        name = lt.seats[seat].name if seat is not None else SPECTATOR
        with self.manager.changing(lt):
            with self.store.engine.begin() as conn:
                count = conn.execute(select(func.count()).select_from(ChatRow)
                                     .where(ChatRow.table_id == table_id)).scalar_one()
                if count >= MAX_MESSAGES:
                    raise ApiError(409, f"this table's chat is full ({MAX_MESSAGES} messages); "
                                        "no more can be posted")
                row: dict[str, Any] = {"table_id": table_id, "seat": seat, "name": name, "text": text,
                                       "created": now()}
                message_id: int = conn.execute(insert(ChatRow).values(**row).returning(ChatRow.id)).scalar_one()
                row["id"] = message_id
                row["account"] = seat is not None and lt.seats[seat].player_id is not None and name != DELETED_NAME
                self.store.notify_chat(conn, table_id, message_id)
            shown = message_json(row)
            self._push(lt, shown)
        return shown

    def messages(self, table_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The messages of ``table_id`` with an id above ``after``, oldest first (the newest :data:`PAGE`
        of them); ApiError 404 for an unknown table."""
        if self.store.status(table_id) is None:
            raise ApiError(404, f"there is no table {quoted(table_id)}")
        with self.store.engine.connect() as conn:
            rows = conn.execute(_MESSAGES.where(ChatRow.table_id == table_id, ChatRow.id > after)
                                .order_by(ChatRow.id.desc()).limit(PAGE)).mappings().all()
        return [message_json(_stored(r)) for r in reversed(rows)]

    def relay(self, table_id: str, message_id: int) -> None:
        """Push chat message ``message_id`` of ``table_id``, stored by another server process, to this
        process's live connections of the table (called by the store's :class:`~.store.Listener`).
        Nothing happens when this process holds no connection to the table or the message is gone."""
        lt = self.manager.tables.get(table_id)
        if lt is None or not lt.subscribers:
            return
        with self.store.engine.connect() as conn:
            found = conn.execute(_MESSAGES.where(ChatRow.table_id == table_id, ChatRow.id == message_id)
                                 ).mappings().first()
        if found is None:
            return
        with self.manager.changing(lt):
            self._push(lt, message_json(_stored(found)))

    @staticmethod
    def _push(lt: LiveTable, shown: dict[str, Any]) -> None:
        """Queue ``{"type": "chat", "message"}`` to every live connection of ``lt`` (its lock held); the
        table's outbox sends it after the lock is released, in order with the table's changes."""
        text = json.dumps({"type": "chat", "message": shown}, separators=(",", ":"), ensure_ascii=False)
        batch = [(sub, text) for sub in lt.subscribers if not sub.gone]
        if batch:
            lt.outbox.append(batch)
