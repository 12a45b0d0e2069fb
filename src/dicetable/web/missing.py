"""The page a browser gets for an address that is no page of the site (a mistyped or cut link).

The server answers an unknown address in the API's words (a JSON ``detail``,
docs/web.md); a person following a link in a browser gets the site's own
"no such page" page instead (``missing.html``, as for a player or a game that
is not there), naming the address and linking back to the lobby. Programs and
the API (``/api/...``, ``/static/...``, or no ``text/html`` in ``Accept``)
keep the JSON answer.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from dicetable.server.errors import QUOTED_MAX
from dicetable.server.routes.handlers import http_error


def wants_page(request: Request) -> bool:
    """True for a browser's page request: a GET or HEAD accepting HTML, outside ``/api/`` and ``/static/``."""
    return (request.method in ("GET", "HEAD") and not request.url.path.startswith(("/api/", "/static/"))
            and "text/html" in request.headers.get("accept", ""))


def install(app: FastAPI, templates: Jinja2Templates) -> None:
    """Answer a browser's request for an address no route serves with the 404 page (``templates``'
    ``missing.html``); every other refusal as the server's handler answers it (:func:`http_error`)."""

    async def page_or_api_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and exc.detail == "Not Found" and wants_page(request):
            path = request.url.path
            shown = path if len(path) <= QUOTED_MAX else path[:QUOTED_MAX] + "…"
            return templates.TemplateResponse(request, "missing.html", {
                "title": "no such page", "message": f"There is no page at {shown} on this server."},
                status_code=404)
        return await http_error(request, exc)

    app.add_exception_handler(StarletteHTTPException, page_or_api_error)  # type: ignore[arg-type]
