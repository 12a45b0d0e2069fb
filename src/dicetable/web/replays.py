"""The replay viewer's JSON routes and the end-of-game score sheet, on the server's table manager.

| route | what |
|---|---|
| ``GET /web/tables/{id}/replay/{step}`` | the table as a spectator saw it after ``step`` actions (log: its last 200 lines) |
| ``GET /web/tables/{id}/replay-index`` | the record's round and turn starts, to jump to |
| ``GET /web/tables/{id}/final`` | the score sheet of a finished table (``GameState.score_sheet``) |

The record comes straight from the app's table manager (``app.state.manager.record``,
the same call as ``GET /api/tables/{id}/record``: 403 while the table runs, 404
for an unknown table). Each table's :class:`~dicetable.web.stepper.ReplayCursor`
is kept between requests (the last :data:`CURSORS_KEPT` tables per app), so a
step costs one action, a jump at most :data:`~dicetable.web.stepper.CHECKPOINT_EVERY`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from starlette.concurrency import run_in_threadpool

from dicetable.engine import DicetableError

from .stepper import ReplayCursor

router = APIRouter()

#: Finished tables whose cursors an app keeps (their records never change).
CURSORS_KEPT = 16
#: Log lines a replay step answers (the latest; the page shows them).
LOG_TAIL = 200


class ReplayCursors:
    """The cursors of one app, by table id, the least recently used dropped beyond ``kept``.

    :meth:`get` builds a table's cursor from ``manager.record(table_id)`` on
    first use. ``built`` counts the cursors built (a public counter for tests).
    """

    def __init__(self, kept: int = CURSORS_KEPT) -> None:
        self.kept = kept
        self.built = 0
        self._cursors: OrderedDict[str, ReplayCursor] = OrderedDict()
        self._lock = threading.Lock()

    def peek(self, table_id: str) -> ReplayCursor | None:
        """The kept cursor of ``table_id``, or None (nothing is built)."""
        with self._lock:
            return self._cursors.get(table_id)

    def get(self, manager: Any, table_id: str) -> ReplayCursor:
        """``table_id``'s cursor; HTTPException with the manager's status (403 running, 404 unknown) or 422."""
        with self._lock:
            cursor = self._cursors.get(table_id)
            if cursor is not None:
                self._cursors.move_to_end(table_id)
                return cursor
        try:
            record = manager.record(table_id)
        except Exception as exc:  # the manager's ApiError: a status and a detail for the person
            status = getattr(exc, "status", None)
            if not isinstance(status, int):
                raise
            raise HTTPException(status, getattr(exc, "detail", str(exc))) from None
        try:
            cursor = ReplayCursor(record)
        except DicetableError as exc:
            raise HTTPException(422, f"the record of table {table_id!r} does not replay: {exc}") from None
        with self._lock:
            self.built += 1
            self._cursors[table_id] = cursor
            while len(self._cursors) > self.kept:
                self._cursors.popitem(last=False)
        return cursor


def cursors_of(request: Request) -> ReplayCursors:
    """The app's :class:`ReplayCursors` (made on first use, kept in ``app.state.replays``)."""
    state = request.app.state
    found = getattr(state, "replays", None)
    if not isinstance(found, ReplayCursors):
        found = state.replays = ReplayCursors()
    return found


async def _cursor(request: Request, table_id: str) -> ReplayCursor:
    return await run_in_threadpool(cursors_of(request).get, request.app.state.manager, table_id)


@router.get("/web/tables/{table_id}/replay/{step}", include_in_schema=False)
async def replay_step_route(request: Request, table_id: str, step: int) -> dict:
    """Step ``step`` (0 = as set up) of a finished table (``ReplayCursor.view``, the log's last 200 lines).

    403 while the table runs (its record would reveal the dice to come), 404
    for an unknown table, 422 for a negative step or a record that no longer replays.
    """
    if step < 0:
        raise HTTPException(422, f"step must be 0 or more, got {step}")
    cursor = await _cursor(request, table_id)
    try:
        return await run_in_threadpool(cursor.view, step, LOG_TAIL)
    except DicetableError as exc:
        raise HTTPException(422, str(exc)) from None


@router.get("/web/tables/{table_id}/replay-index", include_in_schema=False)
async def replay_index_route(request: Request, table_id: str) -> dict:
    """``{"total", "marks"}``: the record's round and turn starts (``ReplayCursor.index``); errors as a step's."""
    cursor = await _cursor(request, table_id)
    try:
        return await run_in_threadpool(cursor.index)
    except DicetableError as exc:
        raise HTTPException(422, str(exc)) from None


@router.get("/web/tables/{table_id}/final", include_in_schema=False)
async def final_route(request: Request, table_id: str) -> dict:
    """``{"sheet"}``: the score sheet of a finished table (``GameState.score_sheet().to_json()``).

    403 while it runs, 404 for an unknown table, 409 for a table abandoned
    before its end (no final scores), 422 for a record that no longer replays.
    """
    cursor = await _cursor(request, table_id)
    try:
        sheet = await run_in_threadpool(cursor.score_sheet)
    except DicetableError as exc:
        raise HTTPException(422, str(exc)) from None
    if sheet is None:
        raise HTTPException(409, f"table {table_id!r} was abandoned before the end: it has no final scores")
    return {"sheet": sheet}


__all__ = ["CURSORS_KEPT", "LOG_TAIL", "ReplayCursors", "cursors_of", "router"]
