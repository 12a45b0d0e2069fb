"""What every API router shares: the token header, the table manager, the client's address, and the
OpenAPI description of refusals.

Shared state is reached through the request's app (``request.app.state``:
``manager``, ``limits``, ``settings``, ``hints``, set by ``create_app``), so
each router is a plain module that can be read, included and tested alone.
"""

from __future__ import annotations

from typing import Annotated, Any, Optional, Sequence

from fastapi import Header, Request
from pydantic import BaseModel, Field
from starlette.responses import Response

from ..errors import ApiError
from ..identity import SESSION_COOKIE
from ..jsonio import JSONAnswer
from ..live import LiveTable
from ..tables import TableManager

#: The ``Authorization`` header of a request (a seat's ``Bearer`` token), if any.
Auth = Annotated[Optional[str], Header(alias="Authorization")]


class ErrorOut(BaseModel):
    """The body of every refused request: one sentence naming what was wrong and what is allowed."""

    detail: str = Field(description="what was wrong and what is allowed")


#: What each refusal means, as the API description lists it.
ERRORS = {
    400: "a token in the address of an HTTP API call, a Content-Length that is not a number, or a body "
         "that is not JSON text",
    401: "a token is needed (send 'Authorization: Bearer <token>'), or the Authorization header is malformed; "
         "naming players at seats needs a sign-in",
    403: "the token holds no seat at this table, or that seat may not do this; a call with the sign-in cookie "
         "lacks the X-CSRF-Token header or comes from another site",
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
CREATE = (400, 401, 403, 413, 415, 422, 429)
VIEW = (400, 401, 403, 404, 422)
RECORD = (400, 403, 404, 422)
CHANGE = (400, 401, 403, 404, 409, 413, 415, 422)
CLAIM = (400, 403, 404, 409, 413, 415, 422)
AGAIN = (400, 401, 403, 404, 409, 413, 415, 422, 429)
HINT = (400, 401, 403, 404, 422, 429, 503)


def errors(codes: Sequence[int]) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that may refuse with ``codes`` (each a :class:`ErrorOut`)."""
    return {code: {"model": ErrorOut, "description": ERRORS[code]} for code in codes}


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None without one); ApiError 401 otherwise."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "the Authorization header must read 'Bearer <token>' with your seat's token")
    return token.strip()


def caller_seat(request: Request, authorization: str | None, lt: LiveTable) -> int | None:
    """The seat the caller sees ``lt`` as: the ``Bearer`` token's (a seat's, or an account's; ApiError 403 for
    a token holding no seat here), else the seat the session cookie's account holds there, else None (a
    spectator: a signed-in player watches the tables where they hold no seat)."""
    m = manager_of(request)
    token = bearer_token(authorization)
    cookie = request.cookies.get(SESSION_COOKIE) if token is None else None
    return m.account_seat(lt, cookie) if cookie else m.seat_of(lt, token)


def acting_seat(request: Request, authorization: str | None, lt: LiveTable) -> int:
    """The seat the caller acts for at ``lt`` (as :func:`caller_seat`); ApiError 401 without a token or
    sign-in, 403 when the caller holds no seat here."""
    seat = caller_seat(request, authorization, lt)
    if seat is not None:
        return seat
    if authorization is None and request.cookies.get(SESSION_COOKIE) or bearer_token(authorization) is not None:
        raise ApiError(403, f"you hold no seat at table {lt.id} (signed in, or not any more); use your seat's "
                            "link, or sign in with the account that holds it")
    return manager_of(request).need_seat(lt, None)


def manager_of(request: Request) -> TableManager:
    """The app's :class:`TableManager` (made when the app starts)."""
    return request.app.state.manager


def client_address(client: Any) -> str:
    """The client address a request or connection comes from (the TCP peer; ``unknown`` without one)."""
    return client.host if client is not None and client.host else "unknown"


def wants_minimal(prefer: str | None) -> bool:
    """True when a ``Prefer`` header (RFC 7240) asks for ``return=minimal``."""
    if not prefer:
        return False
    return any(p.split(";")[0].strip().replace(" ", "").lower() == "return=minimal" for p in prefer.split(","))


def view_answer(view: dict) -> JSONAnswer:
    """A view (or any answer of plain JSON values) as the 200 answer, encoded once by orjson.

    The bytes are those the app's default answer class sends for the same
    dict; returning the response skips FastAPI's ``jsonable_encoder`` walk
    over the whole view first. The route keeps ``response_model=dict``, so
    the API description does not change.
    """
    return JSONAnswer(view)


def minimal_answer(version: int, undos: int) -> Response:
    """The ``Prefer: return=minimal`` answer ``{"version": ..., "undos": ...}``, written without a JSON encoder."""
    return Response(b'{"version":%d,"undos":%d}' % (version, undos), media_type="application/json")
