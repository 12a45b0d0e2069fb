"""The live connection: ``WS /api/tables/{id}/live?token=...`` (the caller's full view, then what changed)."""

from __future__ import annotations

import asyncio
import json

import anyio
from fastapi import APIRouter, Query, WebSocket
from starlette.concurrency import run_in_threadpool

from ..errors import ApiError
from ..identity import SESSION_COOKIE
from ..limits import ClientLimits, LimitError
from ..live import Subscriber
from ..security import origin_allowed
from ..sendqueue import SendQueue
from ..settings import Settings
from ..tables import TableManager
from .common import client_address

router = APIRouter()


@router.websocket("/api/tables/{table_id}/live")
async def live(websocket: WebSocket, table_id: str, token: str | None = Query(None)) -> None:
    """Push the caller's full view now, then a change message after every change (LIVE.md section 4).

    Messages: ``{"type": "view", ...}`` (the full view, with the board as
    keyed ``parts`` and each seat's ``last`` event), then ``{"type":
    "change", "undos", "version", "base", "events", "log", "set",
    "patch", "parts"}`` per change; a client whose (undos, version) is not
    a change's ``base`` sends ``{"type": "resync"}`` and gets the full view
    again. Any other message is ignored.

    A handshake from a foreign ``Origin`` (another site's page) is refused
    (HTTP 403). A refused connection gets one ``{"type": "error",
    "status", "detail"}`` message and is closed with code 4000 + status
    (4403, 4404, 4429 over a connection cap, with ``retry_after``). A
    message larger than ``DICETABLE_MAX_FRAME`` bytes closes the
    connection (code 1009).
    """
    settings: Settings = websocket.app.state.settings
    if not origin_allowed(websocket.scope, settings.allowed_hosts):
        await websocket.close(code=4403)  # before accept: the handshake is answered 403
        return
    await websocket.accept()
    m: TableManager = websocket.app.state.manager
    limits: ClientLimits = websocket.app.state.limits
    address = client_address(websocket.client)
    try:
        limits.open_connection(address, table_id)
    except LimitError as exc:
        await websocket.send_text(json.dumps({"type": "error", "status": exc.status, "detail": exc.detail,
                                              "retry_after": exc.retry_after}))
        await websocket.close(code=4000 + exc.status)
        return
    try:
        await serve_connection(websocket, m, table_id, token, settings)
    finally:
        limits.close_connection(address, table_id)


def is_resync(text: str | None) -> bool:
    """True when a live connection's text message is ``{"type": "resync"}`` (other keys are ignored)."""
    if text is None:
        return False
    try:
        message = json.loads(text)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("type") == "resync"


async def serve_connection(websocket: WebSocket, m: TableManager, table_id: str, token: str | None,
                           settings: Settings) -> None:
    """The accepted live connection of ``token`` to ``table_id``, until either side closes (no token: the seat
    the signed-in account of the session cookie holds there, else a spectator).

    Its messages wait in a bounded :class:`SendQueue` (``settings.send_queue`` messages,
    ``settings.send_queue_bytes`` bytes): a client that falls behind loses its backlog and is sent
    the current full view once it has read what it was sent before."""
    max_frame = settings.max_frame
    try:
        lt = await run_in_threadpool(m.get, table_id)
        cookie = websocket.cookies.get(SESSION_COOKIE) if token is None else None  # a signed-in player's seat
        seat = await run_in_threadpool(m.account_seat, lt, cookie) if cookie else await run_in_threadpool(
            m.seat_of, lt, token)
    except ApiError as exc:
        await websocket.send_text(json.dumps({"type": "error", "status": exc.status, "detail": exc.detail}))
        await websocket.close(code=4000 + exc.status)
        return
    queue = SendQueue(settings.send_queue, settings.send_queue_bytes)
    sub = Subscriber(seat, asyncio.get_running_loop(), queue)
    await run_in_threadpool(m.subscribe, lt, sub)

    async def sender() -> None:
        try:
            while True:
                message = await queue.get()
                if message is None:
                    if queue.closed:  # the client left: nothing more to send
                        return
                    await run_in_threadpool(m.resync, lt, sub)  # it fell behind and has caught up
                    continue
                await websocket.send_text(message)
        except Exception:  # the client went away while a view was being sent
            pass

    async def receiver() -> None:
        try:
            while True:  # {"type": "resync"} is the one message expected; this also notices the close
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if len(message.get("bytes") or b"") + len((text or "").encode()) > max_frame:
                    await websocket.close(code=1009, reason=f"messages are limited to {max_frame} bytes")
                    break
                if is_resync(text):  # anything else is ignored
                    await run_in_threadpool(m.resync, lt, sub)
        except Exception:  # a close while sending
            pass

    # Both end without being cancelled when the client leaves (the receiver sees the close, the closed
    # queue ends the sender): a cancelled task keeps its CancelledError, whose traceback holds the
    # task's frames, a reference cycle that kept the whole connection (its deflate contexts
    # included) until a collection. Only a sender that failed first cancels the receiver.
    receiving = asyncio.ensure_future(receiver())
    sending = asyncio.ensure_future(sender())
    try:
        await asyncio.wait((receiving, sending), return_when=asyncio.FIRST_COMPLETED)
    finally:
        queue.close()
        if not receiving.done():
            receiving.cancel()
        with anyio.CancelScope(shield=True):
            await asyncio.wait((receiving, sending))
            await run_in_threadpool(m.unsubscribe, lt, sub)
