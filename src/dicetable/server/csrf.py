"""CSRF protection for requests authenticated by the session cookie (WEB.md, Security; docs/accounts.md).

:class:`CsrfGuard` is an ASGI middleware. A state-changing API call (POST,
PUT, PATCH, DELETE under ``/api/``) that carries the session cookie
(:data:`~.identity.SESSION_COOKIE`) and no ``Authorization`` header is
refused with 403 unless

* its ``X-CSRF-Token`` header equals :func:`~.accounts.csrf_token` of the
  cookie's value (the double-submit pattern without a second cookie: the
  value is derived from the HttpOnly cookie, which no other site can read,
  and ``GET /api/session`` tells it only to this server's own pages); and
* the browser did not mark it as cross-site (``Sec-Fetch-Site: cross-site``)
  and its ``Origin``, when sent, is this server's own or a configured host.

A cross-site HTML form can send neither header, so its post is refused even
before the JSON-only rule of ``security.BrowserGuard`` would refuse it.
Requests with ``Authorization`` are not the browser's ambient credentials
(another site cannot add that header without this server agreeing through
CORS, which it never does) and are not checked here.
"""

from __future__ import annotations

import hmac

from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .accounts import csrf_token
from .identity import SESSION_COOKIE
from .security import STATE_CHANGING, origin_allowed

#: The request header that must carry the CSRF token.
CSRF_HEADER = "X-CSRF-Token"
#: POST calls that change nothing (``POST /api/qr`` draws the QR code of the text it is given): not checked.
UNCHANGING = frozenset({"/api/qr"})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def csrf_refusal(scope: Scope, allowed_hosts: tuple[str, ...] = ()) -> str | None:
    """Why a request must be refused as a possible cross-site forgery (None: it may go on)."""
    if scope["type"] != "http" or scope["method"] not in STATE_CHANGING or not scope["path"].startswith("/api/") \
            or scope["path"] in UNCHANGING:
        return None
    if _header(scope, b"authorization") is not None:
        return None
    session = cookie_parser(_header(scope, b"cookie") or "").get(SESSION_COOKIE)
    if not session:
        return None
    if (_header(scope, b"sec-fetch-site") or "").strip().lower() == "cross-site" \
            or not origin_allowed(scope, allowed_hosts):
        return "a request from another site may not act with your sign-in (cross-site request refused)"
    sent = _header(scope, CSRF_HEADER.lower().encode()) or ""
    if not hmac.compare_digest(sent.strip().encode(), csrf_token(session).encode()):
        return (f"a call made with the sign-in cookie needs the header '{CSRF_HEADER}' with the value "
                "GET /api/session answers as 'csrf' (programs: send your token as 'Authorization: Bearer' "
                "instead of the cookie)")
    return None


class CsrfGuard:
    """ASGI middleware refusing (403) cookie-authenticated state changes without the CSRF token."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        why = csrf_refusal(scope, self.allowed_hosts)
        if why is not None:
            return await JSONResponse({"detail": why}, 403)(scope, receive, send)
        await self.app(scope, receive, send)
