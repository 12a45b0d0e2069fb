"""Who is calling: the account behind a request's session cookie or personal token (WEB.md, Players).

Accounts are optional; a request without an account token is a guest's (its
seat tokens still work as before). A browser that signed in sends the
session cookie :data:`SESSION_COOKIE`; a program sends its account token as
``Authorization: Bearer <token>``. Both are looked up by their SHA-256 hash
in ``player_tokens`` (the tokens themselves are never stored). A deleted
account's tokens are gone with it, so it is never found here.

State-changing requests authenticated by the cookie must also pass the CSRF
check of the accounts routes; :func:`request_player` only says whose cookie
or token it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.engine import Engine
from starlette.requests import HTTPConnection

from .ids import hash_token
from .models import PlayerRow, PlayerTokenRow

#: The name of the session cookie a browser holds after signing in (HttpOnly, SameSite=Lax).
SESSION_COOKIE = "dicetable_session"


@dataclass(frozen=True)
class Player:
    """A signed-in account: its ``id`` (``players.id``), ``name`` as registered, and the token's ``kind``.

    ``kind`` is ``session`` (a browser sign-in) or ``api`` (a personal API token).
    """

    id: int
    name: str
    kind: str


def player_for_token(engine: Engine, token: str) -> Player | None:
    """The account ``token`` acts for (None: no account has it, e.g. a seat token or a revoked sign-in)."""
    with engine.connect() as conn:
        row = conn.execute(
            select(PlayerRow.id, PlayerRow.name, PlayerTokenRow.kind)
            .join(PlayerTokenRow, PlayerTokenRow.player_id == PlayerRow.id)
            .where(PlayerTokenRow.token_hash == hash_token(token), PlayerRow.deleted.is_(False))).first()
    return None if row is None else Player(row.id, row.name, row.kind)


def request_token(conn: HTTPConnection) -> str | None:
    """The account token a request carries: the session cookie, else a ``Bearer`` header's token (None: neither)."""
    cookie = conn.cookies.get(SESSION_COOKIE)
    if cookie:
        return cookie
    scheme, _, token = (conn.headers.get("authorization") or "").strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def request_player(conn: HTTPConnection) -> Player | None:
    """The signed-in account making a request or WebSocket connection (None: a guest).

    Uses the app's store (``conn.app.state.manager.store``). A ``Bearer``
    token that is a seat's token, not an account's, gives None here.
    """
    token = request_token(conn)
    if token is None:
        return None
    return player_for_token(conn.app.state.manager.store.engine, token)
