"""QR codes of this server's table links, drawn as SVG with segno (the route is in ``routes.qr``).

``POST /api/qr`` with ``{"text": "<link>"}`` answers ``image/svg+xml``. The
link goes in the body, never in the address, so a seat's invite or token is
never written to a request log. Only links to this server's own tables are
drawn: ``http(s)://<this host>/tables/<id>`` (or ``.../replay``), with at
most a fragment ``#invite=<seat>.<code>`` or ``#token=<token>``, at most
:data:`MAX_LINK` characters, of a table that exists. Anything else is refused
with 422 (404 for an unknown table), so the server cannot be used to draw
codes pointing elsewhere.
"""

from __future__ import annotations

import io
import re
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from .errors import ApiError
from .security import origin_allowed

#: Longest link drawn, in characters.
MAX_LINK = 200
#: What the path and the fragment of a drawable link look like.
PATH = re.compile(r"/tables/[A-Za-z0-9_-]{1,32}(/replay)?")
FRAGMENT = re.compile(r"(invite=\d{1,2}\.[A-Za-z0-9_-]{1,64}|token=[A-Za-z0-9_-]{1,64})?")


class QrIn(BaseModel):
    """``POST /api/qr``: the table link to draw (an absolute address of this server)."""

    model_config = ConfigDict(extra="forbid")
    text: StrictStr = Field(min_length=1, max_length=MAX_LINK,
                            description="a link to one of this server's tables, e.g. "
                                        "http://host:8000/tables/<id>#invite=<seat>.<code>")


def check_link(text: str, scope: dict, allowed_hosts: tuple[str, ...] = ()) -> str:
    """The table id of ``text`` when it is a link to a table of the server ``scope`` was sent to (same
    host and port as the request's ``Host``, or one of ``allowed_hosts``); ApiError 422 naming what is
    wrong otherwise (another host, another path, a query, another fragment)."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ApiError(422, "the QR code's text must be an absolute http(s) link to a table of this server")
    headers = [(k, v) for k, v in scope.get("headers", ()) if k != b"origin"]
    probe = {**scope, "headers": [*headers, (b"origin", f"{parts.scheme}://{parts.netloc}".encode())]}
    if not origin_allowed(probe, allowed_hosts):
        raise ApiError(422, "QR codes are drawn only for links to this server's own tables "
                            f"(the link names the host {parts.netloc!r})")
    if not PATH.fullmatch(parts.path) or parts.query:
        raise ApiError(422, "QR codes are drawn only for table links: /tables/<id> or /tables/<id>/replay, "
                            "without a query")
    if not FRAGMENT.fullmatch(parts.fragment):
        raise ApiError(422, "a table link's fragment may only be #invite=<seat>.<code> or #token=<token>")
    return parts.path.split("/")[2]


def svg(text: str) -> str:
    """The QR code of ``text`` as a standalone SVG document (dark modules on white, a 4-module quiet zone)."""
    import segno  # a base dependency, imported when first drawn: a server without it still serves the rest

    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(out, kind="svg", scale=4, border=4, xmldecl=False,
                                                  dark="#1d140d", light="#ffffff", title="QR code of the link")
    return out.getvalue().decode()
