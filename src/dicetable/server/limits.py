"""Limits that keep one client from taking the server from the others (docs/security.md).

* :class:`BodyLimit` (ASGI middleware): a request body larger than the limit
  gets 413 however it is sent: a too large ``Content-Length`` is refused
  before anything is read, a chunked body is read up to the limit and no
  further.
* :class:`ClientLimits`: per client address, table creations per minute, the
  running tables it created, and its live connections; per table, its live
  connections. A refusal is a :class:`LimitError` (429 with a ``Retry-After``
  in seconds). With ``Settings.per_client`` False (``DICETABLE_LIMITS=off``)
  only the per-table cap holds.

Counts live in the server process: a restart forgets which address created
which running table (the creation rate starts afresh too).
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from typing import Callable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ApiError
from .settings import Settings

#: Seconds of the creation-rate window.
WINDOW = 60.0


class LimitError(ApiError):
    """A refusal by a limit: ``status`` (429 or 503), ``detail``, and ``retry_after`` seconds (an int >= 1)."""

    def __init__(self, status: int, detail: str, retry_after: float) -> None:
        super().__init__(status, detail, max(1, math.ceil(retry_after)))


class _TooBig(Exception):
    pass


class BodyLimit:
    """ASGI middleware: 413 with a message for an HTTP request body over ``limit`` bytes (never read past it).

    The body is read here, up to the limit, before the app sees it (so the
    app's own body parsing can never turn an oversize body into a 400). A
    ``Content-Length`` that is not a number gets 400.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = None
        for key, value in scope["headers"]:
            if key == b"content-length":
                declared = value
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                return await JSONResponse({"detail": "the Content-Length header is not a number"}, 400)(
                    scope, receive, send)
            if size > self.limit:
                return await self._too_big()(scope, receive, send)
        try:
            body = await self._read(receive)
        except _TooBig:
            return await self._too_big()(scope, receive, send)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _too_big(self) -> JSONResponse:
        return JSONResponse({"detail": f"the request body is larger than {self.limit} bytes; send at most that much"},
                            413)

    async def _read(self, receive: Receive) -> bytes:
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return b"".join(chunks)
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                raise _TooBig()
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


class ClientLimits:
    """Per-address and per-table counters (thread-safe); every ``check``/``open`` raises LimitError when over.

    ``still_running(table_id)`` tells whether a table counted against its
    creator is still running (finished tables stop counting).
    """

    def __init__(self, settings: Settings, still_running: Callable[[str], bool],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.still_running = still_running
        self.clock = clock
        self.lock = threading.Lock()
        self.creations: dict[str, deque[float]] = {}
        self.running: dict[str, set[str]] = {}
        self.ws_address: dict[str, int] = {}
        self.ws_table: dict[str, int] = {}

    # ------------------------------------------------------------ tables
    def reserve_creation(self, address: str) -> float:
        """Count a creation by ``address`` now (undo it with :meth:`release_creation` if it fails).

        Returns the reservation's time. LimitError 429 when the address
        created ``create_rate`` tables in the last minute or has
        ``running_tables`` running tables.
        """
        s = self.settings
        now = self.clock()
        if not s.per_client:
            return now
        with self.lock:
            window = self.creations.setdefault(address, deque())
            while window and window[0] <= now - WINDOW:
                window.popleft()
            if len(window) >= s.create_rate:
                raise LimitError(429, f"too many new tables from your address: at most {s.create_rate} a "
                                      "minute; try again in a little while", window[0] + WINDOW - now)
            mine = self.running.get(address, set())
            if len(mine) >= s.running_tables:
                mine -= {t for t in list(mine) if not self.still_running(t)}
            if len(mine) >= s.running_tables:
                raise LimitError(429, f"your address has {len(mine)} running tables, the most one address may "
                                      "have; finish or leave one (it ends when its game is over) first", WINDOW)
            window.append(now)
        return now

    def release_creation(self, address: str, reserved: float) -> None:
        """Forget the creation reserved at ``reserved`` (it failed: nothing was stored)."""
        with self.lock:
            window = self.creations.get(address)
            if window is not None and reserved in window:
                window.remove(reserved)

    def created(self, address: str, table_id: str) -> None:
        """Count ``table_id`` as a running table of ``address``."""
        if self.settings.per_client:
            with self.lock:
                self.running.setdefault(address, set()).add(table_id)

    # ------------------------------------------------------- connections
    def open_connection(self, address: str, table_id: str) -> None:
        """Count a live connection of ``address`` to ``table_id``; LimitError 429 over either cap."""
        s = self.settings
        with self.lock:
            if self.ws_table.get(table_id, 0) >= s.ws_per_table:
                raise LimitError(429, f"table {table_id} has {s.ws_per_table} live connections, the most it "
                                      "may have; try again later", 30)
            if s.per_client and self.ws_address.get(address, 0) >= s.ws_per_address:
                raise LimitError(429, f"your address holds {s.ws_per_address} live connections, the most one "
                                      "address may hold; close one first", 30)
            self.ws_table[table_id] = self.ws_table.get(table_id, 0) + 1
            self.ws_address[address] = self.ws_address.get(address, 0) + 1

    def close_connection(self, address: str, table_id: str) -> None:
        """Forget one live connection counted by :meth:`open_connection`."""
        with self.lock:
            for counts, key in ((self.ws_table, table_id), (self.ws_address, address)):
                left = counts.get(key, 0) - 1
                if left > 0:
                    counts[key] = left
                else:
                    counts.pop(key, None)
