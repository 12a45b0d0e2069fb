"""The API's routers, one module per job, included by ``create_app`` in this order.

``meta`` (health, the games), ``tables`` (create, list, view, act, undo,
record), ``seats`` (claim, bot, take back, hint), ``live`` (the WebSocket),
``chat`` (the table's chat), ``qr`` (QR codes of table links), ``lobby`` (the open lobby, My tables);
``common`` holds what they share (the token header, the manager, the
OpenAPI description of refusals) and ``handlers`` the error answers. Each
router reaches the app's state through ``request.app.state`` only.
"""

from __future__ import annotations

from fastapi import APIRouter

from . import chat, live, lobby, meta, qr, seats, tables

#: Every API router, in the order their routes are listed (the OpenAPI document follows it).
ROUTERS: tuple[APIRouter, ...] = (meta.router, tables.router, seats.router, live.router, chat.router, qr.router,
                                  lobby.router)

__all__ = ["ROUTERS"]
