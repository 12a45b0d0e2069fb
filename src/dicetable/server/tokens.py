"""Seat tokens in addresses: kept out of every log line, refused on HTTP API calls.

A seat's token may travel in an address (``/tables/{id}?token=...``, the
live WebSocket's ``?token=...``), and uvicorn logs every request line. The
query is parsed and percent-decoded the way the server reads it before a
line is written, so no spelling escapes the mask: ``?token=``,
``?%74oken=``, ``?TOKEN=``, a repeated parameter, a ``+`` or ``%20`` in the
name. Every parameter whose decoded name holds ``token`` in any case has its
value replaced by ``***``.

:class:`TokenInAddress` (ASGI middleware) answers 400 to an HTTP call under
``/api/`` whose query holds a token parameter (spelled any way): the HTTP API
reads the token from the ``Authorization`` header only, and would otherwise
silently answer a spectator's view.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import parse_qsl, quote

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: What replaces a token's value in a log line.
MASK = "***"

#: An address's query inside free text: ``?`` up to the next white space.
_QUERY = re.compile(r"\?(\S*)")


def is_token_name(name: str) -> bool:
    """True when a decoded query parameter name could carry a token (it holds ``token`` in any case)."""
    return "token" in name.casefold().replace(" ", "").replace("\x00", "")


def has_token(query: str | bytes) -> bool:
    """True when the query string (raw, as sent) has a token parameter in any spelling."""
    text = query.decode("latin-1") if isinstance(query, bytes) else query
    return any(is_token_name(name) for name, _ in parse_qsl(text, keep_blank_values=True))


def _secret(name: str, value: str) -> bool:
    return is_token_name(name) or "token" in value.casefold()


def mask_query(query: str) -> str:
    """The query (raw, as sent) rebuilt from its decoded parameters with every token's value masked.

    A parameter is masked when its decoded name holds ``token`` (any case),
    or its decoded value does (``?a=1;token=...``). The others keep their
    decoded value (re-encoded); the result never contains a token's value in
    any spelling.
    """
    pairs = parse_qsl(query, keep_blank_values=True)
    if not any(_secret(name, value) for name, value in pairs):
        return query
    return "&".join(f"{quote(name, safe='')}={MASK if _secret(name, value) else quote(value, safe='')}"
                    for name, value in pairs)


def mask_text(text: str) -> str:
    """``text`` with every query masked (:func:`mask_query`): all after the first ``?`` of a request
    target (text starting with ``/``), else each ``?...`` up to white space."""
    if "?" not in text:
        return text
    if text.startswith("/"):
        path, _, query = text.partition("?")
        return f"{path}?{mask_query(query)}"
    return _QUERY.sub(lambda m: "?" + mask_query(m.group(1)), text)


class HideTokens(logging.Filter):
    """Masks tokens in a log record's message and arguments (rewritten in place; the record is always kept)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record.msg`` and its string ``args``; returns True."""
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(mask_text(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: mask_text(v) if isinstance(v, str) else v for k, v in record.args.items()}
        if isinstance(record.msg, str):
            record.msg = mask_text(record.msg)
        return True


def hide_tokens_in_logs() -> None:
    """Install :class:`HideTokens` on uvicorn's access and error loggers and on the server's own (idempotent)."""
    for name in ("uvicorn.access", "uvicorn.error", "dicetable.server"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideTokens) for f in logger.filters):
            logger.addFilter(HideTokens())


class TokenInAddress:
    """ASGI middleware: 400 for an HTTP call under ``/api/`` with a token in its query (any spelling)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        query = scope.get("query_string", b"") if scope["type"] == "http" else b""
        if query and scope["path"].startswith("/api/") and has_token(query):
            answer = JSONResponse({"detail": "the HTTP API takes a seat's token in the header "
                                             "'Authorization: Bearer <token>', not as ?token= in the address "
                                             "(that is for the page and the live WebSocket)"}, 400)
            return await answer(scope, receive, send)
        await self.app(scope, receive, send)
