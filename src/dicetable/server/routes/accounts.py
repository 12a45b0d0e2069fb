"""Accounts: sign up, sign in and out, who am I, API tokens, keeping a guest's seats, deleting an account.

=========================================  ====================================================
``POST   /api/accounts``                    ``{"name", "password"}``: 201 ``{"name"}``; 409 name taken; 422 not
                                            allowed (the message says what is)
``POST   /api/session``                     ``{"name", "password"}``: 200 ``{"name", "token"}`` and the session
                                            cookie; 401 wrong name or password; 429 throttled (Retry-After)
``DELETE /api/session``                     sign out: the cookie cleared, that sign-in's token revoked
``GET    /api/session``                     who am I: ``{"name", "kind", "csrf"}`` (``name`` None: a guest)
``POST   /api/account/tokens``              a new personal API token ``{"token"}`` (shown once)
``DELETE /api/account/tokens``              revoke every API token of the account
``POST   /api/account/seats``               ``{"tokens": [seat tokens]}``: the account takes those seats
``GET    /api/account/notices``             ``{"email", "notify_email", "mail_on"}``: move notices by e-mail
``PUT    /api/account/notices``             ``{"email", "notify_email"}``: set them (422: an address not allowed)
``DELETE /api/account``                     ``{"password"}``: delete the account (docs/accounts.md)
=========================================  ====================================================

A state-changing call made with the session cookie needs the ``X-CSRF-Token``
header (``csrf.CsrfGuard``); programs send their token as ``Authorization:
Bearer`` instead.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr
from starlette.responses import Response

from ..accounts import (
    DELETED_NAME, EMAIL_MAX, NAME_MAX, PASSWORD_MAX, THROTTLE_WHY, Accounts, SignInThrottle, csrf_token, wait_words,
)
from ..errors import ApiError
from ..identity import SESSION_COOKIE, Player, request_player, request_token
from ..jsonio import JSONAnswer
from .common import ErrorOut, client_address, manager_of

router = APIRouter()

#: How long a browser keeps the session cookie, in seconds (the sign-in itself lasts until signed out).
COOKIE_MAX_AGE = 30 * 24 * 3600
#: What each refusal of the account calls means, as the API description lists them.
REFUSALS = {
    400: "a token in the address, a Content-Length that is not a number, or a body that is not JSON text",
    401: "wrong name or password, or the call needs a sign-in (the session cookie, or 'Authorization: Bearer' "
         "with an account's token)",
    403: "a call with the sign-in cookie lacks the X-CSRF-Token header or comes from another site, a wrong "
         "password confirming a deletion, or an API token where a browser sign-in is needed",
    409: "the name is taken (names count as one whatever their letter case)",
    413: "the request body is larger than the server's limit",
    415: "the body was not sent as Content-Type: application/json",
    422: "a name, password or e-mail address that is not allowed, or a bad field; 'detail' says what is allowed",
    429: "too many wrong passwords for this name from this address, from this address, or (from an address that "
         "sent a wrong one) for this name from everywhere; Retry-After says when to try again",
}


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of an account call that may refuse with ``codes``."""
    return {code: {"model": ErrorOut, "description": REFUSALS[code]} for code in codes}


class Credentials(BaseModel):
    """A name and a password (sign-up, sign-in)."""

    model_config = ConfigDict(extra="forbid")
    name: StrictStr = Field(max_length=4 * NAME_MAX)
    password: StrictStr = Field(max_length=PASSWORD_MAX * 4)


class PasswordIn(BaseModel):
    """The account's password, to confirm deleting it."""

    model_config = ConfigDict(extra="forbid")
    password: StrictStr = Field(max_length=PASSWORD_MAX * 4)


class SeatTokensIn(BaseModel):
    """Seat tokens a guest held, to be kept by their account."""

    model_config = ConfigDict(extra="forbid")
    tokens: list[StrictStr] = Field(max_length=200)


class NoticesIn(BaseModel):
    """Move notices by e-mail: the address (None or blank: none) and whether to send them."""

    model_config = ConfigDict(extra="forbid")
    email: StrictStr | None = Field(max_length=EMAIL_MAX * 4)
    notify_email: StrictBool


def accounts_of(request: Request) -> Accounts:
    """The accounts of the app's store."""
    return Accounts(manager_of(request).store.engine)


def signed_in(request: Request, kinds: tuple[str, ...] = ("session", "api")) -> Player:
    """The caller's account; ApiError 401 for a guest, 403 when its token is not of ``kinds``."""
    player = request_player(request)
    if player is None:
        raise ApiError(401, "sign in first (POST /api/session), or send your API token as "
                            "'Authorization: Bearer <token>'")
    if player.kind not in kinds:
        raise ApiError(403, "this needs a browser sign-in, not an API token")
    return player


def _set_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")


def _clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


@router.post("/api/accounts", status_code=201, responses=refusals(400, 403, 409, 413, 415, 422))
def sign_up(body: Credentials, request: Request) -> dict:
    """Make an account (it does not sign in: ``POST /api/session`` does)."""
    return {"name": accounts_of(request).create(body.name, body.password)}


@router.post("/api/session", responses=refusals(400, 401, 403, 413, 415, 422, 429))
def sign_in(body: Credentials, request: Request) -> Response:
    """Sign in: ``{"name", "token"}`` and the session cookie (the token also works as ``Bearer``)."""
    throttle: SignInThrottle = request.app.state.sign_ins
    address = client_address(request.client)
    wait, why = throttle.retry_after(body.name, address)
    if why is not None:
        raise ApiError(429, f"{THROTTLE_WHY[why]}; try again in {wait_words(wait)}", retry_after=wait)
    accounts = accounts_of(request)
    player = accounts.verify(body.name, body.password)
    if player is None:
        throttle.failed(body.name, address)
        raise ApiError(401, "wrong name or password (names count as one whatever their letter case)")
    token = accounts.issue(player.id, "session")
    response = JSONAnswer({"name": player.name, "token": token})
    _set_cookie(request, response, token)
    return response


@router.delete("/api/session", responses=refusals(400, 403))
def sign_out(request: Request) -> Response:
    """Sign out: the session cookie is cleared and the token of that sign-in revoked (a guest: nothing to do)."""
    token = request_token(request)
    player = request_player(request)
    if token is not None and player is not None and player.kind == "session":
        accounts_of(request).revoke(token)
    response = JSONAnswer({"name": None})
    _clear_cookie(request, response)
    return response


@router.get("/api/session", responses=refusals(400))
def who_am_i(request: Request) -> dict:
    """``{"name", "kind", "csrf"}``: the signed-in account (``name`` None for a guest), how it signed in
    (``session`` or ``api``), and the value of the ``X-CSRF-Token`` header its cookie needs (None without one)."""
    player = request_player(request)
    cookie = request.cookies.get(SESSION_COOKIE)
    return {"name": player.name if player else None, "kind": player.kind if player else None,
            "csrf": csrf_token(cookie) if cookie else None}


@router.post("/api/account/tokens", status_code=201, responses=refusals(400, 401, 403, 413, 415))
def new_api_token(request: Request) -> dict:
    """A new personal API token for programs (``Authorization: Bearer``), shown once; needs a browser sign-in."""
    player = signed_in(request, ("session",))
    return {"name": player.name, "token": accounts_of(request).issue(player.id, "api"), "kind": "api"}


@router.delete("/api/account/tokens", responses=refusals(400, 401, 403))
def revoke_api_tokens(request: Request) -> dict:
    """Revoke every personal API token of the account; ``{"revoked": count}``."""
    player = signed_in(request, ("session",))
    return {"revoked": accounts_of(request).revoke_kind(player.id, "api")}


@router.post("/api/account/seats", responses=refusals(400, 401, 403, 413, 415, 422))
def keep_seats(body: SeatTokensIn, request: Request) -> dict:
    """The account takes the seats these seat tokens hold (a guest who signs up or signs in keeps their
    seats, one per table, never at a rated table: ``Accounts.attach``); ``{"seats": [{"table_id", "seat"}]}``:
    those now held (seats of other accounts are left alone). The seats show the account's name at once."""
    player = signed_in(request)
    m = manager_of(request)
    kept = accounts_of(request).attach(player.id, body.tokens)
    for table_id, seat in kept:
        lt = m.tables.get(table_id)
        if lt is not None:
            with m.changing(lt):
                lt.seats[seat].player_id, lt.seats[seat].name = player.id, player.name
                m.pushes.publish(lt)
        if m.store.is_postgres:  # the other server processes reload the seat's holder and name
            with m.store.engine.begin() as conn:
                m.store.notify_seats(conn, table_id)
    return {"seats": [{"table_id": t, "seat": s} for t, s in kept]}


def _notices_out(request: Request, email: str | None, notify_email: bool) -> dict:
    lobby = getattr(request.app.state, "lobby", None)
    mail_on = lobby is not None and lobby.notices.mail.host is not None
    return {"email": email, "notify_email": notify_email, "mail_on": mail_on}


@router.get("/api/account/notices", responses=refusals(400, 401, 403))
def get_notices(request: Request) -> dict:
    """``{"email", "notify_email", "mail_on"}``: the account's address for move notices (None: none), whether
    it wants them at turn-based tables, and whether this server sends e-mail at all; needs a browser sign-in."""
    player = signed_in(request, ("session",))
    return _notices_out(request, *accounts_of(request).notices(player.id))


@router.put("/api/account/notices", responses=refusals(400, 401, 403, 413, 415, 422))
def set_notices(body: NoticesIn, request: Request) -> dict:
    """Set the account's e-mail for move notices and whether it wants them; answers as the GET does.
    422 for an address that is not allowed or notices asked without one; needs a browser sign-in."""
    player = signed_in(request, ("session",))
    return _notices_out(request, *accounts_of(request).set_notices(player.id, body.email, body.notify_email))


@router.delete("/api/account", responses=refusals(400, 401, 403, 413, 415, 422))
def delete_account(body: PasswordIn, request: Request) -> Response:
    """Delete the caller's account after checking its password (403 for a wrong one): password, tokens and
    e-mail removed, its seats shown as "deleted player", those of running tables handed to their bots;
    finished tables still replay."""
    player = signed_in(request, ("session",))
    accounts = accounts_of(request)
    if accounts.verify(player.name, body.password) is None:
        raise ApiError(403, "that is not this account's password; nothing was deleted")
    m = manager_of(request)
    for table_id, running in accounts.delete(player.id):
        if running or table_id in m.tables:  # a finished table out of memory has nothing live to change
            m.account_left(table_id, player.id, DELETED_NAME)
    response = JSONAnswer({"deleted": player.name})
    _clear_cookie(request, response)
    return response
