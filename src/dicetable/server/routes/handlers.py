"""The error answers of the API: every refusal as ``{"detail": "<what was wrong and what is allowed>"}``.

:func:`install` adds the app's exception handlers: :class:`ApiError` (its
status and ``Retry-After``), a body that does not validate (422, one
sentence, recalling the body's shape), Starlette's own refusals (404 naming
the route, 405 listing the allowed methods) and any other fault (500 with a
short sentence, never a traceback).
"""

from __future__ import annotations

import json
import logging
from typing import Any, Iterable, Iterator, Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..bots import LEVELS
from ..errors import QUOTED_MAX, ApiError

log = logging.getLogger("dicetable.server")

#: The shape of a POST's body, recalled after a body that does not validate (by path, or ``actions``).
HINTS = {
    "/api/tables": 'a table is {"game": id, "players": n, "options": {}, "seed": optional, '
                   '"seats": [{"kind": "human"} or {"kind": "bot", "level": one of ' + "/".join(LEVELS) + "}]}",
    "actions": 'an action is {"action": "<action id>", "version": <the version of your view>}',
}


#: The members of a union field as pydantic tags their errors (the last part of ``loc``), in words.
_MEMBERS = {"str": "text", "bool": "true or false", "int": "a whole number", "float": "a number"}


def _unions_merged(errors: Sequence[Any]) -> list[Any]:
    """``errors`` with the errors of one union field (one per member: ``options.x.str``, ``options.x.bool``,
    ...) merged into one error at the field, saying what the field may be."""
    out: list[Any] = []
    for err in errors:
        loc = tuple(err.get("loc", ()))
        last = out[-1] if out else None
        if loc and loc[-1] in _MEMBERS and last is not None and last.get("members") \
                and tuple(last["loc"]) == loc[:-1]:
            members = last["members"]
            members.append(_MEMBERS[loc[-1]])
            listed = ", ".join(members[:-1]) + ", or " + members[-1] if len(members) > 2 else " or ".join(members)
            last["msg"] = "must be " + listed
            continue
        if len(loc) > 1 and loc[-1] in _MEMBERS:
            err = {**err, "loc": loc[:-1], "members": [_MEMBERS[loc[-1]]]}
        out.append(err)
    return out


def readable(errors: Sequence[Any]) -> str:
    """Pydantic's errors as one sentence: where, what was wrong, and what is allowed."""
    parts = []
    for err in _unions_merged(errors)[:5]:
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
            shown = json.dumps(got)[:QUOTED_MAX]  # the most of a client's value an error repeats
        else:
            shown = {dict: "an object", list: "a list", type(None): "null"}.get(type(got), "something else")
        parts.append(f"{where}: {msg} (got {shown})")
    return "; ".join(parts)


def routes_of(routes: Iterable[Any]) -> Iterator[Any]:
    """Every route of ``routes``, the routes of included routers too (FastAPI keeps an included
    router as one entry holding its ``original_router``; no router here is included with a prefix)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from routes_of(inner.routes)
        else:
            yield route


async def api_error(request: Request, exc: ApiError) -> JSONResponse:
    """A refused request: its status, its detail, and ``Retry-After`` when it says when to try again."""
    retry = getattr(exc, "retry_after", None)
    return JSONResponse({"detail": exc.detail}, exc.status,
                        headers={"Retry-After": str(retry)} if retry is not None else None)


async def bad_body(request: Request, exc: RequestValidationError) -> JSONResponse:
    """422: what did not validate, as one sentence, and for a POST the shape its body should have."""
    path = request.url.path
    # The body's shape is recalled only for the POST it belongs to (not e.g. GET /api/tables?all=...).
    hint = "" if request.method != "POST" else (
        HINTS["actions"] if path.endswith("/actions") else HINTS.get(path, ""))
    text = readable(exc.errors())
    return JSONResponse({"detail": text + (f"; {hint}" if hint else "")}, 422)


async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    """Starlette's refusals in the API's words (404 names the route, 405 lists every allowed method)."""
    detail = exc.detail
    if exc.status_code == 404 and detail == "Not Found":
        detail = f"there is no {request.method} {request.url.path}; the API is described at /api/openapi.json"
    elif detail == "There was an error parsing the body":
        detail = ("the body is not JSON text (UTF-8), or it nests arrays and objects deeper than the server "
                  "reads; send a JSON object")
    headers = getattr(exc, "headers", None)
    if exc.status_code == 405:  # every method of the path (routing names only the first route's)
        allowed = sorted({method for route in routes_of(request.app.router.routes)
                          if getattr(route, "methods", None) and route.path_regex.match(request.url.path)
                          for method in route.methods})
        detail = f"{request.method} is not allowed on {request.url.path}; allowed: {', '.join(allowed)}"
        headers = {**(headers or {}), "Allow": ", ".join(allowed)}
    return JSONResponse({"detail": detail}, exc.status_code, headers=headers)


async def fault(request: Request, exc: Exception) -> JSONResponse:
    """500 with a short sentence (the traceback goes to the server's log only)."""
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return JSONResponse({"detail": "the server met an unexpected error; nothing was changed by it"}, 500)


def install(app: FastAPI) -> None:
    """Add the API's exception handlers to ``app``."""
    app.add_exception_handler(ApiError, api_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, bad_body)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, fault)
