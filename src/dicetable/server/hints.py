"""One hint per seat at a time, refused cheaply: :class:`HintGate`.

A hint is a search of about a second in a worker process. While a seat's
hint is being worked out, every further ``GET /api/tables/{id}/hint`` with
the same seat token is answered 429 (with ``Retry-After``) by this ASGI
middleware, before routing, validation or any thread: a client firing
hundreds of hint requests at once costs the server little more than reading
them, and other clients' requests are not queued behind them. The route
registers the hint it awaits with :meth:`PendingHints.begin` and clears it
with :meth:`PendingHints.end` (the table manager refuses a second hint of a seat
too, for callers that come another way).
"""

from __future__ import annotations

import re

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .bots import HINT_RETRY
from .ids import hash_token

_HINT_PATH = re.compile(r"^/api/tables/([^/]+)/hint$")

#: What a refused hint says.
BUSY = "this seat already has a hint being worked out; wait for its answer before asking again"


def _key(table_id: str, authorization: str | None) -> tuple[str, str]:
    """The pending-hint key of a table id and an ``Authorization`` header value."""
    token = (authorization or "").strip().partition(" ")[2].strip()
    return table_id, hash_token(token) if token else ""


class PendingHints:
    """The hints being worked out, by (table id, digest of the asking token); used on the event loop only."""

    def __init__(self) -> None:
        self.keys: set[tuple[str, str]] = set()

    def begin(self, table_id: str, authorization: str | None) -> tuple[str, str] | None:
        """Mark the hint of (``table_id``, the header's token) pending; its key, or None when it already was."""
        key = _key(table_id, authorization)
        if key in self.keys:
            return None
        self.keys.add(key)
        return key

    def end(self, key: tuple[str, str]) -> None:
        """The hint of ``key`` is answered (or failed): the seat may ask again."""
        self.keys.discard(key)


class HintGate:
    """ASGI middleware: 429 for a hint asked by a seat token whose previous hint is in ``pending``."""

    def __init__(self, app: ASGIApp, pending: PendingHints) -> None:
        self.app = app
        self.pending = pending

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.pending.keys and scope["method"] == "GET":
            match = _HINT_PATH.match(scope["path"])
            if match:
                auth = dict(scope.get("headers") or ()).get(b"authorization")
                if _key(match.group(1), auth.decode("latin-1") if auth else None) in self.pending.keys:
                    answer = JSONResponse({"detail": BUSY}, 429, headers={"Retry-After": str(HINT_RETRY)})
                    return await answer(scope, receive, send)
        await self.app(scope, receive, send)
