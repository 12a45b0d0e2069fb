"""Browser protections: security headers, JSON-only state changes, safe redirects, the WebSocket Origin check.

:class:`BrowserGuard` is an ASGI middleware (outermost, so every answer,
errors included, carries the headers):

* every HTTP answer gets ``Content-Security-Policy`` (:data:`CSP`: scripts
  and styles only from this server, no inline script, no framing),
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` and
  ``X-Frame-Options: DENY`` (for browsers without ``frame-ancestors``);
* a state-changing call under ``/api/`` (POST, PUT, PATCH, DELETE) with a
  body must declare ``Content-Type: application/json``: anything else gets
  415 (a cross-site form or ``no-cors`` fetch can only send "simple" content
  types, so no other site can make a visitor's browser create a table);
* a ``Location`` header never names a host taken from the request: a
  redirect to this server is made relative, unless its host is one of the
  configured ``DICETABLE_ALLOWED_HOSTS``.

:func:`origin_allowed` decides whether a WebSocket handshake's ``Origin`` is
this server's own (same host and port as the ``Host`` the browser asked for)
or a configured one.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from starlette.datastructures import MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The Content-Security-Policy of every answer: nothing from elsewhere, no inline script or style,
#: images from this server or ``data:`` (the page's icon), never framed.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")

#: The policy of the Swagger UI page (only when ``DICETABLE_API_DOCS=on``): it loads from a CDN and
#: starts with an inline script, so it cannot live under :data:`CSP`.
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")

#: Headers every HTTP answer carries besides the Content-Security-Policy.
HEADERS = {"x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "x-frame-options": "DENY"}

#: The raw (encoded) headers added to every answer, with :data:`CSP` or :data:`DOCS_CSP`, made once.
_RAW = [(b"content-security-policy", CSP.encode())] + [(k.encode(), v.encode()) for k, v in HEADERS.items()]
_RAW_DOCS = [(b"content-security-policy", DOCS_CSP.encode())] + _RAW[1:]
_OWN_NAMES = frozenset(k for k, _ in _RAW)

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})

DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _has_body(scope: Scope) -> bool:
    """True when the request announces a body (a non-zero Content-Length, or any Transfer-Encoding)."""
    length = _header(scope, b"content-length")
    return _header(scope, b"transfer-encoding") is not None or (length is not None and length.strip() != "0")


def host_port(netloc: str, scheme: str) -> tuple[str, int | None]:
    """``(host, port)`` of ``host[:port]`` (IPv6 in brackets), lower case; the scheme's port when none is given."""
    parts = urlsplit(f"//{netloc}")
    try:
        port = parts.port
    except ValueError:
        return netloc.lower(), None
    return (parts.hostname or "").lower(), port if port is not None else DEFAULT_PORTS.get(scheme)


def _allowed(netloc: str, scheme: str, allowed_hosts: tuple[str, ...]) -> bool:
    """True when ``netloc`` is one of ``allowed_hosts`` (``host`` allows every port, ``host:port`` one)."""
    host, port = host_port(netloc, scheme)
    for entry in allowed_hosts:
        a_host, a_port = host_port(entry, "")
        if a_host == host and (a_port is None or a_port == port):
            return True
    return False


def origin_allowed(scope: Scope, allowed_hosts: tuple[str, ...] = ()) -> bool:
    """Whether a WebSocket handshake may go on: no ``Origin`` (not a browser), this server's own, or a configured one.

    "Own" means the Origin's host and port equal those of the ``Host``
    header the browser sent (a page of another site has another Origin).
    ``null`` and unreadable Origins are refused.
    """
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    host = _header(scope, b"host")
    if host is not None:
        server_scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        if host_port(parts.netloc, parts.scheme) == host_port(host, server_scheme):
            return True
    return _allowed(parts.netloc, parts.scheme, allowed_hosts)


def safe_location(location: str, allowed_hosts: tuple[str, ...] = ()) -> str:
    """``location`` made relative (path, query, fragment) unless it names one of ``allowed_hosts``."""
    parts = urlsplit(location)
    if not parts.netloc or _allowed(parts.netloc, parts.scheme, allowed_hosts):
        return location
    return urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))


class BrowserGuard:
    """ASGI middleware: security headers on every answer, JSON-only state changes (415), safe redirects.

    ``docs_path``: the Swagger UI page, which gets :data:`DOCS_CSP` (None:
    no such page).
    """

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] = (), docs_path: str | None = None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.docs_path = docs_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        ours = _RAW_DOCS if self.docs_path is not None and scope["path"] == self.docs_path else _RAW

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                raw = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in _OWN_NAMES]
                raw.extend(ours)
                message["headers"] = raw
                headers = MutableHeaders(raw=raw)
                if "location" in headers:
                    headers["location"] = safe_location(headers["location"], self.allowed_hosts)
            await send(message)

        if scope["method"] in STATE_CHANGING and scope["path"].startswith("/api/"):
            declared = _header(scope, b"content-type")
            kind = declared.split(";")[0].strip().lower() if declared is not None else None
            if kind != "application/json" and (kind is not None or _has_body(scope)):
                got = f"'{declared}'" if declared is not None else "no Content-Type"
                answer = JSONResponse({"detail": f"this call takes a JSON body with the header 'Content-Type: "
                                                 f"application/json' (got {got}); with curl: --json '{{...}}' "
                                                 "or -H 'Content-Type: application/json'"}, 415)
                return await answer(scope, receive, guarded)
        await self.app(scope, receive, guarded)
