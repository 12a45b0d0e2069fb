"""``POST /api/qr``: the QR code (SVG) of one of this server's table links (the checks are in ``server.qr``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..errors import ApiError, quoted
from ..qr import QrIn, check_link, svg
from .common import errors, manager_of

router = APIRouter()

#: The refusals of ``POST /api/qr``.
REFUSALS = (400, 404, 413, 415, 422)


@router.post("/api/qr", response_class=Response, responses={
    200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}},
          "description": "the QR code as an SVG document"}, **errors(REFUSALS)})
def post_qr(body: QrIn, request: Request) -> Response:
    """Draw the QR code of one of this server's table links (sent in the body, so no log holds it)."""
    table_id = check_link(body.text, dict(request.scope), request.app.state.settings.allowed_hosts)
    if manager_of(request).store.status(table_id) is None:
        raise ApiError(404, f"there is no table {quoted(table_id)}")
    return Response(svg(body.text), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})
