"""The FastAPI application: the HTTP contract of WEB.md, the live WebSocket, error handling.

``create_app(database_url)`` builds the app (the store is opened and migrated
when the app starts). Endpoints (all JSON; a seat's token goes in
``Authorization: Bearer <token>``, no token = a spectator; seats count from 0):

=========================================  ====================================================
``GET  /api/games``                         the registry: ids, names, player ranges, options, bot levels
``POST /api/tables``                        create a table (WEB.md body, plus optional ``clock``
                                            seconds per decision or a chess clock ``bank``,
                                            ``increment``, ``bank_max``, and per-seat ``name``)
``GET  /api/tables``                        a page of open and running tables (``?all=true``: finished
                                            ones too; ``?limit=`` at most 200, default 50; ``?offset=``)
``GET  /api/tables/{id}``                   the caller's view
``POST /api/tables/{id}/actions``           ``{"action", "version"}``: act for the token's seat (the new
                                            view; ``Prefer: return=minimal``: ``{"version", "undos"}``)
``GET  /api/tables/{id}/record``            the replay record once over (403 while it runs)
``WS   /api/tables/{id}/live?token=...``    the caller's full view, then what changed (LIVE.md 4)
``POST /api/tables/{id}/undo``              ``{"version"}``: take back your last move where allowed
``POST /api/tables/{id}/claim``             ``{"invite"}``: claim a seat with its link's invite (fresh token)
``POST /api/tables/{id}/seats/{n}/bot``     ``{"level": optional}``: hand seat n to its bot
``POST /api/tables/{id}/seats/{n}/take``    seat n's holder takes it back from its bot
``GET  /api/tables/{id}/hint``              the hard bot's top three for your decision
``POST /api/tables/{id}/chat``              ``{"text"}``: a chat message, as a seat or a spectator (``routes.chat``)
``GET  /api/tables/{id}/chat``              the chat messages (``?after=`` an id)
``POST /api/qr``                            ``{"text"}``: the QR code (SVG) of one of this server's table links
``GET  /api/health``                        ``{"ok": true, "database": "sqlite"|"postgresql"}``
``GET  /api/lobby``, ``/api/my-tables``     the open lobby, join, start with bots, My tables (``routes.lobby``,
                                            docs/lobby.md)
``POST /api/accounts``, ``/api/session``    accounts: sign up, sign in (``DELETE``: out, ``GET``: who am I),
``/api/account/...``                        API tokens, a guest's seats, deleting the account
                                            (``routes.accounts``, docs/accounts.md; changes made with the
                                            sign-in cookie need ``X-CSRF-Token``: ``csrf``)
=========================================  ====================================================

HTTP answers of :data:`GZIP_MINIMUM` bytes or more are gzipped for clients
that send ``Accept-Encoding: gzip``. Every refused request gets a 4xx with ``{"detail": "<what was wrong and what is
allowed>"}`` and changes nothing; a server fault answers 500 with a short
message, never a traceback. Request bodies are limited to
:data:`MAX_BODY` bytes unless ``DICETABLE_MAX_BODY`` says otherwise; every
limit and protection is in ``settings``, ``limits``, ``security`` and
``tokens`` (docs/security.md). The routes are in ``routes``, one router
per job (``meta``, ``tables``, ``seats``, ``live``, ``chat``, ``qr``), the error answers in
``routes.handlers``. The pages (``GET /``, ``GET /tables/{id}``, static
files) are not the server's: :func:`dicetable.web.create_site`, which stands
above the server, builds this app and includes them.
"""

from __future__ import annotations

import importlib.util
import logging
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from .accounts import SignInThrottle
from .chat import Chat
from .csrf import CsrfGuard
from .gzipping import SmallFirstGZip
from .hints import HintGate, PendingHints
from .jsonio import JSONAnswer
from .limits import BodyLimit, ClientLimits
from .lobby import attach as attach_lobby
from .routes import ROUTERS
from .routes import accounts as account_routes
from .routes.handlers import install as install_handlers
from .routes.lane import ActionLane
from .routes import players as players_routes
from .routes.tables import MAX_PAGE, PAGE
from .security import BrowserGuard
from .settings import LIMITS_OFF_WARNING, Settings
from .store import DEFAULT_DATABASE, Listener, Store
from .tables import TableManager
from .tokens import TokenInAddress, hide_tokens_in_logs

__all__ = ["GZIP_LEVEL", "GZIP_MINIMUM", "MAX_BODY", "MAX_PAGE", "PAGE", "create_app"]

log = logging.getLogger("dicetable.server")

#: HTTP answers this many bytes or larger are sent gzipped (to clients that accept gzip), at this level.
GZIP_MINIMUM, GZIP_LEVEL = 500, 6

#: FastAPI's telemetry settings unless ``DICETABLE_TELEMETRY=on``: no spans, metrics, logs or exports.
NO_TELEMETRY: dict[str, bool] = {"tracing": False, "metrics": False, "logs": False, "operation_spans": False,
                                 "auto_configure": False}

#: Largest request body accepted by default, in bytes (413 above it; ``DICETABLE_MAX_BODY``).
MAX_BODY = Settings.max_body


def create_app(database_url: str = DEFAULT_DATABASE, *, id_factory: Callable[[], str] | None = None,
               listen: bool | None = None, bot_threads: int = 4, settings: Settings | None = None) -> FastAPI:
    """Build the server app for ``database_url`` (SQLite file or ``postgresql+psycopg://``).

    The store is opened (and migrated) when the app starts (its lifespan);
    ``id_factory`` makes table ids (tests); ``listen`` turns the PostgreSQL
    LISTEN/NOTIFY listener on or off (default: on with PostgreSQL);
    ``settings`` the limits and protections (default: read from the
    environment, :meth:`Settings.from_env`, which raises SettingsError for an
    unusable value). Raises :class:`dicetable.server.store.StoreError` at
    start-up for an unusable database.
    """
    settings = settings if settings is not None else Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await run_in_threadpool(Store, database_url)
        manager = TableManager(store, id_factory=id_factory, bot_threads=bot_threads,
                               abandon_after=settings.abandon_after,
                               stand_in_pace=settings.stand_in_pace_ms / 1000)
        app.state.store = store
        app.state.manager = manager
        app.state.lobby = attach_lobby(manager)  # turn-based notices and the waker (server/lobby.py)
        app.state.sign_ins = SignInThrottle(store.engine, per_address=settings.per_client)  # (routes.accounts)

        def still_running(table_id: str) -> bool:
            lt = manager.tables.get(table_id)
            return lt.status == "running" if lt is not None else store.status(table_id) == "running"

        app.state.limits = ClientLimits(settings, still_running)
        if not settings.per_client:
            log.warning(LIMITS_OFF_WARNING)
        listener = None
        if listen if listen is not None else store.is_postgres:
            app.state.chat = Chat(manager)  # the routes' chat (routes.chat.chat_of), told of other processes' messages
            listener = Listener(store, manager.refresh, on_chat=app.state.chat.relay)
            listener.start()
            await run_in_threadpool(listener.ready.wait, 10)
        await run_in_threadpool(manager.start)
        try:
            yield
        finally:
            if listener:
                listener.stop()
            manager.close()
            store.close()

    hide_tokens_in_logs()
    docs = "/api/docs" if settings.api_docs else None
    # FastAPI's OpenTelemetry hook (FastAPI versions that have one) asks for the global providers, reading
    # os.environ, on every request unless every signal is switched off here; DICETABLE_TELEMETRY=on keeps it
    off = not settings.telemetry and importlib.util.find_spec("fastapi.telemetry") is not None
    telemetry: dict[str, Any] = {"telemetry": NO_TELEMETRY} if off else {}
    app = FastAPI(title="dicetable", lifespan=lifespan, docs_url=docs, redoc_url=None,
                  openapi_url="/api/openapi.json", default_response_class=JSONAnswer,
                  **telemetry)
    app.state.settings = settings
    app.state.hints = PendingHints()
    # HTTP answers of 500 bytes or more are gzipped for clients that accept it (the WebSocket is not
    # touched: it keeps permessage-deflate); level 6 costs a third of level 9's time for ~1% more bytes
    app.add_middleware(ActionLane)  # the innermost: a table's common action answered on the loop (routes/lane.py)
    app.add_middleware(SmallFirstGZip, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL)  # gzipping.py
    app.add_middleware(HintGate, pending=app.state.hints)
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(TokenInAddress)
    app.add_middleware(CsrfGuard, allowed_hosts=settings.allowed_hosts)  # cookie-authenticated changes (csrf.py)
    app.add_middleware(BrowserGuard, allowed_hosts=settings.allowed_hosts, docs_path=docs)

    install_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(players_routes.router)  # results, ratings, leaderboards (server/ratings.py)
    app.include_router(account_routes.router)  # sign-up, sign-in, tokens, account deletion
    return app

