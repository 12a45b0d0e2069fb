"""The FastAPI application: the HTTP contract of WEB.md, the live WebSocket, error handling.

``create_app(database_url)`` builds the app (the store is opened and migrated
when the app starts). Endpoints (all JSON; a seat's token goes in
``Authorization: Bearer <token>``, no token = a spectator; seats count from 0):

=========================================  ====================================================
``GET  /api/games``                         the registry: ids, names, player ranges, options, bot levels
``POST /api/tables``                        create a table (WEB.md body, plus optional ``clock``
                                            seconds per decision and per-seat ``name``)
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
``GET  /api/health``                        ``{"ok": true, "database": "sqlite"|"postgresql"}``
=========================================  ====================================================

HTTP answers of :data:`GZIP_MINIMUM` bytes or more are gzipped for clients
that send ``Accept-Encoding: gzip``. Every refused request gets a 4xx with ``{"detail": "<what was wrong and what is
allowed>"}`` and changes nothing; a server fault answers 500 with a short
message, never a traceback. Request bodies are limited to
:data:`MAX_BODY` bytes unless ``DICETABLE_MAX_BODY`` says otherwise; every
limit and protection is in ``settings``, ``limits``, ``security`` and
``tokens`` (docs/security.md). The pages (``GET /``, ``GET /tables/{id}``, static
files) come from ``dicetable.web`` when it is installed: its ``router`` (a
FastAPI ``APIRouter``) is included, and its ``mount(app)`` is called if it
has one (e.g. for static files).
"""

from __future__ import annotations

import asyncio
import json
import logging
import unicodedata
from concurrent.futures import BrokenExecutor, Future
from contextlib import asynccontextmanager
from typing import Annotated, Any, AsyncIterator, Callable, Literal, Optional, Sequence

import anyio
from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from dicetable.engine import list_games

from .hints import BUSY, HintGate, PendingHints
from .limits import BodyLimit, ClientLimits, LimitError
from .security import BrowserGuard, origin_allowed
from .settings import LIMITS_OFF_WARNING, Settings
from .store import DEFAULT_DATABASE, Listener, Store
from .tables import (
    HINT_RETRY, HINT_TIMEOUT, LEVELS, MAX_SEED, ApiError, Subscriber, TableManager, hint_answer,
)
from .tokens import TokenInAddress, hide_tokens_in_logs

log = logging.getLogger("dicetable.server")

#: The ``Authorization`` header of a request (a seat's ``Bearer`` token), if any.
Auth = Annotated[Optional[str], Header(alias="Authorization")]

#: Tables in one page of ``GET /api/tables`` unless ``?limit=`` says otherwise, and the most it may say.
PAGE, MAX_PAGE = 50, 200

#: HTTP answers this many bytes or larger are sent gzipped (to clients that accept gzip), at this level.
GZIP_MINIMUM, GZIP_LEVEL = 500, 6

#: Largest request body accepted by default, in bytes (413 above it; ``DICETABLE_MAX_BODY``).
MAX_BODY = Settings.max_body


#: Letters and symbols that draw nothing: Hangul fillers, the blank Braille pattern, a blank notehead.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159")


# ---------------------------------------------------------------- bodies
class SeatIn(BaseModel):
    """One seat of a new table: a person, or a bot with its level."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"]
    level: Optional[StrictStr] = Field(None, max_length=16)
    name: Optional[StrictStr] = Field(None, min_length=1, max_length=40)

    @field_validator("name")
    @classmethod
    def _printable_name(cls, name: Optional[str]) -> Optional[str]:
        """A seat's name is shown on every page and log: printable text, not blank (ValueError otherwise)."""
        if name is None:
            return name
        if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn") for ch in name):
            raise ValueError("a name may not hold control or invisible format characters (nor unassigned "
                             "or private-use ones); give printable text of 1 to 40 characters")
        if not name.strip():
            raise ValueError("a name may not be blank; give printable text of 1 to 40 characters")
        if not any(unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_LOOKING for ch in name):
            raise ValueError("a name may not look blank (it shows no visible letter, digit or sign: only "
                             "fillers, blank patterns or marks); give printable text of 1 to 40 characters")
        return name


class NewTable(BaseModel):
    """``POST /api/tables``: the game, the player count, options, an optional seed, the seats, a clock."""

    model_config = ConfigDict(extra="forbid")
    game: StrictStr = Field(max_length=64)
    players: StrictInt
    options: dict[StrictStr, StrictStr | StrictBool | StrictInt] = Field(default_factory=dict, max_length=32)
    seed: Optional[StrictInt] = Field(None, ge=0, le=MAX_SEED)
    seats: Optional[list[SeatIn]] = Field(None, max_length=8)
    clock: Optional[StrictInt] = Field(None, ge=5, le=7 * 24 * 3600)


class ActionIn(BaseModel):
    """``POST /api/tables/{id}/actions``: an action id and the version the caller saw."""

    model_config = ConfigDict(extra="forbid")
    action: StrictStr = Field(min_length=1, max_length=200)
    version: StrictInt = Field(ge=0)


class UndoIn(BaseModel):
    """``POST /api/tables/{id}/undo``: the version the caller saw."""

    model_config = ConfigDict(extra="forbid")
    version: StrictInt = Field(ge=0)


class ClaimIn(BaseModel):
    """``POST /api/tables/{id}/claim``: the invite of a seat link (``#invite=...``), as ``<seat>.<code>``."""

    model_config = ConfigDict(extra="forbid")
    invite: str = Field(min_length=3, max_length=64, description="the part after '#invite=' of a seat's link")


class BotIn(BaseModel):
    """``POST /api/tables/{id}/seats/{n}/bot``: optionally the level of the bot that takes over."""

    model_config = ConfigDict(extra="forbid")
    level: Optional[StrictStr] = Field(None, max_length=16)


class ErrorOut(BaseModel):
    """The body of every refused request: one sentence naming what was wrong and what is allowed."""

    detail: str = Field(description="what was wrong and what is allowed")


#: What each refusal means, as the API description lists it.
ERRORS = {
    400: "a token in the address of an HTTP API call, a Content-Length that is not a number, or a body "
         "that is not JSON text",
    401: "a token is needed (send 'Authorization: Bearer <token>'), or the Authorization header is malformed",
    403: "the token holds no seat at this table, or that seat may not do this",
    404: "no such table, seat or route",
    409: "the table changed since the version sent (someone moved first), the seat is played by its bot, "
         "or the table was abandoned",
    413: "the request body is larger than the server's limit",
    415: "the body was not sent as Content-Type: application/json",
    422: "the request is well formed but not allowed (a bad field, an illegal action, nothing to take back); "
         "'detail' is one sentence, not a list",
    429: "a limit was reached (table creations per minute, running tables per address, one pending hint per "
         "seat); the Retry-After header says when to try again",
    503: "the server cannot do it now (a hint took too long, or the server is stopping); see Retry-After",
}
READ = (400,)
LIST = (400, 422)
CREATE = (400, 413, 415, 422, 429)
VIEW = (400, 401, 403, 404, 422)
RECORD = (400, 403, 404, 422)
CHANGE = (400, 401, 403, 404, 409, 413, 415, 422)
CLAIM = (400, 403, 404, 409, 413, 415, 422)
HINT = (400, 401, 403, 404, 422, 429, 503)


def errors(codes: Sequence[int]) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that may refuse with ``codes`` (each a :class:`ErrorOut`)."""
    return {code: {"model": ErrorOut, "description": ERRORS[code]} for code in codes}


def _token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None without one); ApiError 401 otherwise."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "the Authorization header must read 'Bearer <token>' with your seat's token")
    return token.strip()


def _games() -> list[dict]:
    out = []
    for spec in list_games():
        out.append({
            "id": spec.id, "name": spec.name, "summary": spec.summary,
            "min_players": spec.min_players, "max_players": spec.max_players,
            "options": [{"name": o.name, "default": o.default, "description": o.description,
                         "choices": list(o.choices) if o.choices is not None else None,
                         "type": {bool: "bool", int: "int"}.get(o.type, "str"),
                         "players": list(o.players) if o.players is not None else None}
                        for o in spec.options],
            "has_board": spec.board_view is not None,
        })
    return out


def _readable(errors: Sequence[Any]) -> str:
    """Pydantic's errors as one sentence: where, what was wrong, and what is allowed."""
    parts = []
    for err in errors[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        msg = err.get("msg", "invalid")
        if err.get("type") == "json_invalid":
            parts.append("the body is not valid JSON (" + str(err.get("ctx", {}).get("error", msg)) + ")")
            continue
        if err.get("type") == "missing":
            parts.append(f"{where} is missing")
            continue
        if err.get("type") == "extra_forbidden":
            parts.append(f"{where} is not a known field")
            continue
        got = err.get("input")
        if isinstance(got, (str, int, float, bool)):
            shown = json.dumps(got)[:60]
        else:
            shown = {dict: "an object", list: "a list", type(None): "null"}.get(type(got), "something else")
        parts.append(f"{where}: {msg} (got {shown})")
    return "; ".join(parts)


_HINTS = {
    "/api/tables": 'a table is {"game": id, "players": n, "options": {}, "seed": optional, '
                   '"seats": [{"kind": "human"} or {"kind": "bot", "level": one of ' + "/".join(LEVELS) + "}]}",
    "actions": 'an action is {"action": "<action id>", "version": <the version of your view>}',
}


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
                               abandon_after=settings.abandon_after)
        app.state.store = store
        app.state.manager = manager

        def still_running(table_id: str) -> bool:
            lt = manager.tables.get(table_id)
            return lt.status == "running" if lt is not None else store.status(table_id) == "running"

        app.state.limits = ClientLimits(settings, still_running)
        if not settings.per_client:
            log.warning(LIMITS_OFF_WARNING)
        listener = None
        if listen if listen is not None else store.is_postgres:
            listener = Listener(store, manager.refresh)
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
    app = FastAPI(title="dicetable", lifespan=lifespan, docs_url=docs, redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.state.settings = settings
    app.state.hints = PendingHints()
    # HTTP answers of 500 bytes or more are gzipped for clients that accept it (the WebSocket is not
    # touched: it keeps permessage-deflate); level 6 costs a third of level 9's time for ~1% more bytes
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL)
    app.add_middleware(HintGate, pending=app.state.hints)
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(TokenInAddress)
    app.add_middleware(BrowserGuard, allowed_hosts=settings.allowed_hosts, docs_path=docs)

    def manager(request: Request) -> TableManager:
        return request.app.state.manager

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        retry = getattr(exc, "retry_after", None)
        return JSONResponse({"detail": exc.detail}, exc.status,
                            headers={"Retry-After": str(retry)} if retry is not None else None)

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, exc: RequestValidationError) -> JSONResponse:
        path = request.url.path
        # The body's shape is recalled only for the POST it belongs to (not e.g. GET /api/tables?all=...).
        hint = "" if request.method != "POST" else (
            _HINTS["actions"] if path.endswith("/actions") else _HINTS.get(path, ""))
        text = _readable(exc.errors())
        return JSONResponse({"detail": text + (f"; {hint}" if hint else "")}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"there is no {request.method} {request.url.path}; the API is described at /api/openapi.json"
        elif detail == "There was an error parsing the body":
            detail = "the body is not JSON text (UTF-8); send a JSON object"
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:  # every method of the path (routing names only the first route's)
            allowed = sorted({method for route in request.app.router.routes
                              if getattr(route, "methods", None) and route.path_regex.match(request.url.path)
                              for method in route.methods})
            detail = f"{request.method} is not allowed on {request.url.path}; allowed: {', '.join(allowed)}"
            headers = {**(headers or {}), "Allow": ", ".join(allowed)}
        return JSONResponse({"detail": detail}, exc.status_code, headers=headers)

    @app.exception_handler(Exception)
    async def fault(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse({"detail": "the server met an unexpected error; nothing was changed by it"}, 500)

    @app.get("/api/health", responses=errors(READ))
    async def health(request: Request) -> dict:
        """Liveness: ``{"ok": true, "database": dialect}``."""
        return {"ok": True, "database": request.app.state.store.engine.dialect.name}

    @app.get("/api/games", responses=errors(READ))
    def list_games() -> dict:
        """The registry: every game's id, name, player range and options; the bot levels."""
        # "mcts" is accepted as another name of "medium"; offering both would show one bot twice.
        return {"games": _games(), "bot_levels": [level for level in LEVELS if level != "mcts"]}

    @app.post("/api/tables", status_code=201, responses=errors(CREATE))
    def create_table(body: NewTable, request: Request) -> dict:
        """Create a table; the answer holds each human seat's token and link (shown once)."""
        seats = [s.model_dump() for s in body.seats] if body.seats is not None else None
        limits: ClientLimits = request.app.state.limits
        address = _address(request.client)
        reserved = limits.reserve_creation(address)
        try:
            made = manager(request).create(body.game, body.players, body.options, body.seed, seats, body.clock,
                                           client=address)
        except BaseException:
            limits.release_creation(address, reserved)
            raise
        limits.created(address, made["table_id"])
        return made

    @app.get("/api/tables", responses=errors(LIST))
    def list_tables(request: Request, all: bool = False,
                    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
                    offset: Annotated[int, Query(ge=0, le=2**31)] = 0) -> dict:
        """One page of the open and running tables (``?all=true``: finished ones too), newest first,
        without tokens: ``{"tables", "total", "limit", "offset", "next"}`` (``next``: the offset of the
        following page, None on the last)."""
        store = manager(request).store
        statuses = None if all else ("running",)
        rows = store.list_tables(statuses, limit=limit, offset=offset)
        for row in rows:
            row["open"] = row["status"] == "running" and any(
                s["kind"] == "human" and not s["joined"] for s in row["seats"])
        total = store.count_tables(statuses)
        return {"tables": rows, "total": total, "limit": limit, "offset": offset,
                "next": offset + limit if offset + limit < total else None}

    @app.get("/api/tables/{table_id}", responses=errors(VIEW))
    def get_view(table_id: str, request: Request, authorization: Auth = None) -> dict:
        """The caller's view of the table."""
        m = manager(request)
        lt = m.get(table_id)
        return m.view(lt, m.seat_of(lt, _token(authorization)))

    @app.post("/api/tables/{table_id}/actions", responses=errors(CHANGE))
    def post_action(table_id: str, body: ActionIn, request: Request, authorization: Auth = None,
                    prefer: Annotated[Optional[str], Header()] = None) -> dict:
        """Apply an action for the token's seat at the given version; the new view (with the header
        ``Prefer: return=minimal`` only ``{"version", "undos"}``: the live connection brings the change)."""
        m = manager(request)
        lt = m.get(table_id)
        seat = m.need_seat(lt, _token(authorization))
        return m.act(table_id, seat, body.action, body.version, minimal=_minimal(prefer))

    @app.get("/api/tables/{table_id}/record", responses=errors(RECORD))
    def get_record(table_id: str, request: Request) -> dict:
        """The replay record once the game is over; 403 while it runs."""
        return manager(request).record(table_id)

    @app.post("/api/tables/{table_id}/undo", responses=errors(CHANGE))
    def post_undo(table_id: str, body: UndoIn, request: Request, authorization: Auth = None) -> dict:
        """Take back the caller's last move where the rules allow it; the new view."""
        m = manager(request)
        lt = m.get(table_id)
        seat = m.need_seat(lt, _token(authorization))
        return m.undo(table_id, seat, body.version)

    @app.post("/api/tables/{table_id}/claim", responses=errors(CLAIM))
    def post_claim(table_id: str, body: ClaimIn, request: Request) -> dict:
        """Claim a seat with its invite: a fresh token for the claimer, the creator's copy revoked."""
        return manager(request).claim(table_id, body.invite)

    @app.post("/api/tables/{table_id}/seats/{seat}/bot", responses=errors(CHANGE))
    def post_hand_to_bot(table_id: str, seat: int, request: Request, authorization: Auth = None,
                         body: Optional[BotIn] = None) -> dict:
        """Hand seat ``seat`` to its bot (its holder; or another seat once its clock ran out)."""
        m = manager(request)
        lt = m.get(table_id)
        caller = m.need_seat(lt, _token(authorization))
        return m.hand_to_bot(table_id, caller, seat, body.level if body else None)

    @app.post("/api/tables/{table_id}/seats/{seat}/take", responses=errors(CHANGE))
    def post_take(table_id: str, seat: int, request: Request, authorization: Auth = None) -> dict:
        """Seat ``seat``'s holder takes it back from its bot."""
        m = manager(request)
        lt = m.get(table_id)
        caller = m.need_seat(lt, _token(authorization))
        return m.take_back(table_id, seat, caller)

    @app.get("/api/tables/{table_id}/hint", responses=errors(HINT))
    async def get_hint(table_id: str, request: Request, authorization: Auth = None) -> dict:
        """The hard search bot's top three actions for the caller's decision, with visit shares.

        One hint per seat at a time (429 with Retry-After meanwhile, see
        ``hints.HintGate``); the search runs in a worker process and no server
        thread waits for it.
        """
        m = manager(request)
        gate: PendingHints = request.app.state.hints
        key = gate.begin(table_id, authorization)
        if key is None:
            raise ApiError(429, BUSY, retry_after=HINT_RETRY)
        try:
            def begin() -> tuple[int, int, Future]:
                lt = m.get(table_id)
                seat = m.need_seat(lt, _token(authorization))
                return (seat, *m.start_hint(table_id, seat, client=_address(request.client)))

            seat, version, fut = await run_in_threadpool(begin)
            rows = await asyncio.wait_for(asyncio.wrap_future(fut), HINT_TIMEOUT)
        except asyncio.TimeoutError:
            raise ApiError(503, f"the hint took more than {HINT_TIMEOUT} s (the server is busy); "
                                "try again later", retry_after=HINT_TIMEOUT) from None
        except BrokenExecutor:  # the server is stopping (its search processes were stopped)
            raise ApiError(503, "the server stopped the search (it is shutting down); try again in a "
                                "moment", retry_after=5) from None
        finally:
            gate.end(key)
        return hint_answer(version, seat, rows)

    @app.websocket("/api/tables/{table_id}/live")
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
        if not origin_allowed(websocket.scope, settings.allowed_hosts):
            await websocket.close(code=4403)  # before accept: the handshake is answered 403
            return
        await websocket.accept()
        m: TableManager = websocket.app.state.manager
        limits: ClientLimits = websocket.app.state.limits
        address = _address(websocket.client)
        try:
            limits.open_connection(address, table_id)
        except LimitError as exc:
            await websocket.send_text(json.dumps({"type": "error", "status": exc.status, "detail": exc.detail,
                                                  "retry_after": exc.retry_after}))
            await websocket.close(code=4000 + exc.status)
            return
        try:
            await _live(websocket, m, table_id, token, settings.max_frame)
        finally:
            limits.close_connection(address, table_id)

    _include_web(app)
    return app


def _is_resync(text: str | None) -> bool:
    """True when a live connection's text message is ``{"type": "resync"}`` (other keys are ignored)."""
    if text is None:
        return False
    try:
        message = json.loads(text)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("type") == "resync"


async def _live(websocket: WebSocket, m: TableManager, table_id: str, token: str | None, max_frame: int) -> None:
    """The accepted live connection of ``token`` (None: a spectator) to ``table_id``, until either side closes."""
    try:
        lt = await run_in_threadpool(m.get, table_id)
        seat = await run_in_threadpool(m.seat_of, lt, token)
    except ApiError as exc:
        await websocket.send_text(json.dumps({"type": "error", "status": exc.status, "detail": exc.detail}))
        await websocket.close(code=4000 + exc.status)
        return
    queue: asyncio.Queue[str] = asyncio.Queue()
    sub = Subscriber(seat, asyncio.get_running_loop(), queue)
    await run_in_threadpool(m.subscribe, lt, sub)

    async def sender(scope: anyio.CancelScope) -> None:
        try:
            while True:
                await websocket.send_text(await queue.get())
        except Exception:  # the client went away while a view was being sent
            pass
        scope.cancel()

    async def receiver(scope: anyio.CancelScope) -> None:
        try:
            while True:  # {"type": "resync"} is the one message expected; this also notices the close
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if len(message.get("bytes") or b"") + len((text or "").encode()) > max_frame:
                    await websocket.close(code=1009, reason=f"messages are limited to {max_frame} bytes")
                    break
                if _is_resync(text):  # anything else is ignored
                    await run_in_threadpool(m.resync, lt, sub)
        except Exception:  # a close while sending
            pass
        scope.cancel()

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(sender, group.cancel_scope)
            group.start_soon(receiver, group.cancel_scope)
    finally:
        with anyio.CancelScope(shield=True):
            await run_in_threadpool(m.unsubscribe, lt, sub)


def _minimal(prefer: str | None) -> bool:
    """True when a ``Prefer`` header (RFC 7240) asks for ``return=minimal``."""
    if not prefer:
        return False
    return any(p.split(";")[0].strip().replace(" ", "").lower() == "return=minimal" for p in prefer.split(","))


def _address(client: Any) -> str:
    """The client address a request or connection comes from (the TCP peer; ``unknown`` without one)."""
    return client.host if client is not None and client.host else "unknown"


def _include_web(app: FastAPI) -> None:
    """Add the pages of ``dicetable.web`` (its ``router`` and ``mount(app)``) when that package exists."""
    import importlib
    import importlib.util

    if importlib.util.find_spec("dicetable.web") is None:
        return
    web = importlib.import_module("dicetable.web")
    router = getattr(web, "router", None)
    if router is not None:
        app.include_router(router)
    mount = getattr(web, "mount", None)
    if callable(mount):
        mount(app)
