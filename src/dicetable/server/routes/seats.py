"""Seats: claim one with its invite, hand one to its bot and take it back, ask for a hint.

=========================================  ====================================================
``POST /api/tables/{id}/claim``             ``{"invite"}``: claim a seat with its link's invite (fresh token)
``POST /api/tables/{id}/seats/{n}/bot``     ``{"level": optional}``: hand seat n to its bot
``POST /api/tables/{id}/seats/{n}/take``    seat n's holder takes it back from its bot
``GET  /api/tables/{id}/hint``              the hard bot's top three for your decision
``POST /api/tables/{id}/again``             start (or join) the finished table's rematch, same seats
=========================================  ====================================================
"""

from __future__ import annotations

import asyncio
from concurrent.futures import BrokenExecutor, Future
from typing import Optional

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from starlette.concurrency import run_in_threadpool

from ..bots import HINT_RETRY, HINT_TIMEOUT, hint_answer
from ..errors import ApiError
from ..hints import BUSY, PendingHints
from ..identity import request_player
from ..limits import ClientLimits
from .common import AGAIN, CHANGE, CLAIM, HINT, Auth, acting_seat, client_address, errors, manager_of

router = APIRouter()


class ClaimIn(BaseModel):
    """``POST /api/tables/{id}/claim``: the invite of a seat link (``#invite=...``), as ``<seat>.<code>``."""

    model_config = ConfigDict(extra="forbid")
    invite: str = Field(min_length=3, max_length=64, description="the part after '#invite=' of a seat's link")


class BotIn(BaseModel):
    """``POST /api/tables/{id}/seats/{n}/bot``: optionally the level of the bot that takes over."""

    model_config = ConfigDict(extra="forbid")
    level: Optional[StrictStr] = Field(None, max_length=16)


@router.post("/api/tables/{table_id}/claim", responses=errors(CLAIM))
def post_claim(table_id: str, body: ClaimIn, request: Request) -> dict:
    """Claim a seat with its invite: a fresh token for the claimer, the creator's copy revoked; signed in,
    the seat becomes the account's (a rated table's seats go only to signed-in players: 403 for a guest)."""
    return manager_of(request).claim(table_id, body.invite, request_player(request))


@router.post("/api/tables/{table_id}/seats/{seat}/bot", responses=errors(CHANGE))
def post_hand_to_bot(table_id: str, seat: int, request: Request, authorization: Auth = None,
                     body: Optional[BotIn] = None) -> dict:
    """Hand seat ``seat`` to its bot (its holder; or another seat once its clock ran out)."""
    m = manager_of(request)
    lt = m.get(table_id)
    caller = acting_seat(request, authorization, lt)
    return m.hand_to_bot(table_id, caller, seat, body.level if body else None)


@router.post("/api/tables/{table_id}/seats/{seat}/take", responses=errors(CHANGE))
def post_take(table_id: str, seat: int, request: Request, authorization: Auth = None) -> dict:
    """Seat ``seat``'s holder takes it back from its bot."""
    m = manager_of(request)
    lt = m.get(table_id)
    caller = acting_seat(request, authorization, lt)
    return m.take_back(table_id, seat, caller)


@router.post("/api/tables/{table_id}/again", responses=errors(AGAIN))
def post_again(table_id: str, request: Request, authorization: Auth = None) -> dict:
    """Start the rematch of a finished table (the same game, options, clock, rating and seats), or join the
    one a seated player started: the caller's seat there (``{"table_id", "seat", "link", "created"}``, with
    a fresh ``token`` unless the caller's account holds the seat). Any seat's holder may (token or sign-in)."""
    m = manager_of(request)
    lt = m.get(table_id)
    seat = acting_seat(request, authorization, lt)
    player = request_player(request)
    address = client_address(request.client)
    if lt.rematch is not None:
        return m.rematch(table_id, seat, player.id if player is not None else None, client=address)
    limits: ClientLimits = request.app.state.limits
    reserved = limits.reserve_creation(address)
    try:
        made = m.rematch(table_id, seat, player.id if player is not None else None, client=address)
    except BaseException:
        limits.release_creation(address, reserved)
        raise
    if made["created"]:
        limits.created(address, made["table_id"])
    else:
        limits.release_creation(address, reserved)
    return made


@router.get("/api/tables/{table_id}/hint", responses=errors(HINT))
async def get_hint(table_id: str, request: Request, authorization: Auth = None) -> dict:
    """The hard search bot's top three actions for the caller's decision, with visit shares.

    One hint per seat at a time (429 with Retry-After meanwhile, see
    ``hints.HintGate``); the search runs in a worker process and no server
    thread waits for it.
    """
    m = manager_of(request)
    gate: PendingHints = request.app.state.hints
    key = gate.begin(table_id, authorization)
    if key is None:
        raise ApiError(429, BUSY, retry_after=HINT_RETRY)
    try:
        def begin() -> tuple[int, int, Future]:
            lt = m.get(table_id)
            seat = acting_seat(request, authorization, lt)
            return (seat, *m.start_hint(table_id, seat, client=client_address(request.client)))

        seat, version, fut = await run_in_threadpool(begin)
        rows = await asyncio.wait_for(asyncio.wrap_future(fut), HINT_TIMEOUT)
    except asyncio.TimeoutError:
        raise ApiError(503, f"the hint took more than {HINT_TIMEOUT} s (the server is busy); "
                            "try again later", retry_after=HINT_TIMEOUT) from None
    except BrokenExecutor:  # the server is stopping (its search processes were stopped)
        raise ApiError(503, "the server stopped the search (it is shutting down); try again in a "
                            "moment", retry_after=5) from None
    finally:
        gate.end(key)
    return hint_answer(version, seat, rows)
