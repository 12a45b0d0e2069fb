"""The action lane: ``POST /api/tables/{id}/actions`` (and ``GET /api/tables/{id}``) answered without
FastAPI's routing and parameters.

An action is the request a table sends most, so :class:`ActionLane` (ASGI
middleware, the innermost: every guard and limit before it has run) answers
the common case itself: a JSON body that is an ``ActionIn`` (``{"action":
<1 to 200 characters>, "version": <int >= 0>}``, nothing else), an
``Authorization: Bearer`` token of a joined seat of a table in memory. The
action is applied on the event loop (:meth:`TableManager.act_soon`: only the
commit is awaited), and the answer is the route's, byte for byte: the
pre-encoded ``{"version", "undos"}`` with ``Prefer: return=minimal``, else
the seat's view, and a refusal (:class:`ApiError`) as the app's handler
writes it.

Every other request, and every action request the lane cannot answer alone
(a body it does not accept, no token, a cookie's or an account's seat, a
token not seen before, a table not in memory or whose lock is held, a chess
clock, PostgreSQL: see ``act_soon``), goes on to the app unchanged (its body
replayed), where the route ``routes.tables.post_action`` answers it as it
always did: the route stays the one description of the call in the API
document, and the one place where a bad body or header is refused.

The view a seat fetches before it acts, ``GET /api/tables/{id}``, takes the
same lane when its caller is a joined seat's token or a spectator (no token,
no cookie) and the table's lock is free: the view is built on the loop
(:meth:`TableManager.view_soon`) instead of in a worker thread.
"""

from __future__ import annotations

import orjson
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import ApiError
from ..tables import TableManager
from .common import minimal_answer, view_answer, wants_minimal
from .handlers import api_error

#: The longest action id an ``ActionIn`` takes (its ``action`` field's ``max_length``).
MAX_ACTION = 200

_PREFIX, _SUFFIX = "/api/tables/", "/actions"


def action_table(path: str) -> str | None:
    """The table id of an action's path ``/api/tables/{id}/actions`` (None for any other path)."""
    if not (path.startswith(_PREFIX) and path.endswith(_SUFFIX)):
        return None
    table_id = path[len(_PREFIX):-len(_SUFFIX)]
    return table_id if table_id and "/" not in table_id else None


def action_body(body: bytes) -> tuple[str, int] | None:
    """``(action, version)`` of a body the route's ``ActionIn`` takes as it is (a JSON object of exactly
    those two fields, ``action`` a string of 1 to 200 characters, ``version`` an integer 0 or more);
    None for anything else (the route answers it, with its own words for what is wrong)."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if type(data) is not dict or len(data) != 2:
        return None
    action, version = data.get("action"), data.get("version")
    if type(action) is not str or not 1 <= len(action) <= MAX_ACTION or type(version) is not int or version < 0:
        return None
    return action, version


class ActionLane:
    """ASGI middleware: answer a table's common action request on the event loop (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if scope["method"] == "GET":
            return await self.view(scope, receive, send)
        table_id = action_table(scope["path"]) if scope["method"] == "POST" else None
        if table_id is None:
            return await self.app(scope, receive, send)
        headers = _first_headers(scope["headers"])
        content_type = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        authorization = headers.get(b"authorization")
        manager = _manager(scope)
        lt = manager.tables.get(table_id) if manager is not None else None
        if manager is None or lt is None or content_type != b"application/json" or authorization is None:
            return await self.app(scope, receive, send)
        body, gone = await _read_body(receive)
        if gone is not None:  # the client went away while sending: the app is told the same
            return await self.app(scope, _replay(gone, receive), send)
        token = _bearer(authorization)
        fields = action_body(body)
        seat = manager.known_seat(lt, token) if token is not None and fields is not None else None
        if seat is not None and fields is not None:
            prefer = headers.get(b"prefer")
            minimal = wants_minimal(prefer.decode("latin-1") if prefer is not None else None)
            try:
                answer = await manager.act_soon(table_id, seat, fields[0], fields[1], minimal=minimal)
            except ApiError as exc:
                refusal = await api_error(Request(scope), exc)
                return await refusal(scope, receive, send)
            if answer is not None:
                response = minimal_answer(answer["version"], answer["undos"]) if minimal else view_answer(answer)
                return await response(scope, receive, send)
        await self.app(scope, _replay({"type": "http.request", "body": body, "more_body": False}, receive), send)

    async def view(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``GET /api/tables/{id}`` of a joined seat's token, or of a spectator (no token, no sign-in
        cookie), at a table in memory whose lock is free: the view built on the loop (no thread
        hand-over), as the route answers it; anything else goes on to the app."""
        table_id = view_table(scope["path"])
        manager = _manager(scope)
        lt = manager.tables.get(table_id) if manager is not None and table_id is not None else None
        if manager is None or lt is None:
            return await self.app(scope, receive, send)
        headers = _first_headers(scope["headers"])
        authorization = headers.get(b"authorization")
        if authorization is None:
            if b"cookie" in headers:  # a signed-in player's seat is looked up in the store: the route's job
                return await self.app(scope, receive, send)
            seat = None
        else:
            token = _bearer(authorization)
            seat = manager.known_seat(lt, token) if token is not None else None
            if seat is None:
                return await self.app(scope, receive, send)
        view = manager.view_soon(lt, seat)
        if view is None:
            return await self.app(scope, receive, send)
        await view_answer(view)(scope, receive, send)


def view_table(path: str) -> str | None:
    """The table id of a view's path ``/api/tables/{id}`` (None for any other path)."""
    if not path.startswith(_PREFIX):
        return None
    table_id = path[len(_PREFIX):]
    return table_id if table_id and "/" not in table_id else None


def _manager(scope: Scope) -> TableManager | None:
    """The app's table manager (None before the app has started, or outside an app)."""
    app = scope.get("app")
    return getattr(app.state, "manager", None) if app is not None else None


def _first_headers(raw: list[tuple[bytes, bytes]]) -> dict[bytes, bytes]:
    """The first value of each header name (lower case, as ASGI gives them), as Starlette's ``get``."""
    out: dict[bytes, bytes] = {}
    for key, value in raw:
        out.setdefault(key, value)
    return out


def _bearer(value: bytes) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None for any other form."""
    scheme, _, token = value.decode("latin-1").strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


async def _read_body(receive: Receive) -> tuple[bytes, Message | None]:
    """The whole request body and None; or what was read and the message saying the client went away."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), message
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), None


def _replay(first: Message, receive: Receive) -> Receive:
    """A ``receive`` that gives the app ``first`` (a message already read), then what ``receive`` gives."""
    delivered = False

    async def replay() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return first
        return await receive()

    return replay
