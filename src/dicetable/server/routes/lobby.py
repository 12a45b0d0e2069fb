"""The open lobby and My tables (docs/lobby.md; the work is in ``dicetable.server.lobby``).

=========================================  ====================================================
``GET  /api/lobby``                         listed tables with open seats (``?game=``, ``?players=``,
                                            ``?clock=`` a preset id or none/live/turn-based, ``?rated=``)
``POST /api/lobby/{id}/join``               ``{"seat": optional}``: take an open seat (a fresh token)
``POST /api/lobby/{id}/start``              the host puts bots in the open seats (``{"level": optional}``)
``GET  /api/my-tables``                     the signed-in account's tables, theirs to move first
``POST /api/my-tables``                     ``{"tokens": [...]}``: the same for the seat tokens a guest holds
=========================================  ====================================================
"""

from __future__ import annotations

from typing import Annotated, Optional

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from starlette.concurrency import run_in_threadpool

from .. import lobby
from ..identity import request_player
from .common import CHANGE, CLAIM, LIST, Auth, bearer_token, errors, manager_of

router = APIRouter()

#: The refusals of ``POST /api/my-tables`` (a body, no table named).
MINE = (400, 413, 415, 422)


class JoinIn(BaseModel):
    """``POST /api/lobby/{id}/join``: the seat to take (None: the first open one)."""

    model_config = ConfigDict(extra="forbid")
    seat: Optional[StrictInt] = Field(None, ge=0, le=16)


class StartIn(BaseModel):
    """``POST /api/lobby/{id}/start``: the level of the bots put in the open seats (None: each seat's stand-in)."""

    model_config = ConfigDict(extra="forbid")
    level: Optional[StrictStr] = Field(None, max_length=16)


class MineIn(BaseModel):
    """``POST /api/my-tables``: the seat tokens this browser holds."""

    model_config = ConfigDict(extra="forbid")
    tokens: list[Annotated[StrictStr, Field(min_length=1, max_length=64)]] = Field(default_factory=list,
                                                                                  max_length=lobby.MAX_LIST)


@router.get("/api/lobby", responses=errors(LIST))
def get_lobby(request: Request, game: Optional[str] = None,
              players: Annotated[Optional[int], Query(ge=1, le=16)] = None,
              clock: Optional[str] = None, rated: Optional[bool] = None) -> dict:
    """The listed running tables with an open seat, longest waiting first: ``{"tables": [...]}``."""
    return {"tables": lobby.open_tables(manager_of(request), game=game, players=players, clock=clock,
                                        rated=rated)}


@router.post("/api/lobby/{table_id}/join", responses=errors(CLAIM))
async def post_join(table_id: str, request: Request, body: Optional[JoinIn] = None) -> dict:
    """Take an open seat of a listed table: ``{"seat", "token", "link"}`` (signed in: the seat is the account's)."""
    player = await run_in_threadpool(request_player, request)
    return await run_in_threadpool(lobby.take_seat, manager_of(request), table_id,
                                   body.seat if body else None, player)


@router.post("/api/lobby/{table_id}/start", responses=errors(CHANGE))
def post_start(table_id: str, request: Request, authorization: Auth = None, body: Optional[StartIn] = None) -> dict:
    """The host (their seat's token) puts bots in every open seat: ``{"table_id", "bots": [seats]}``."""
    m = manager_of(request)
    seat = m.need_seat(m.get(table_id), bearer_token(authorization))
    return lobby.start_with_bots(m, table_id, seat, body.level if body else None)


@router.get("/api/my-tables", responses=errors(LIST))
def get_my_tables(request: Request) -> dict:
    """The signed-in account's tables (session cookie or ``Bearer`` account token): ``{"tables", "player"}``."""
    player = request_player(request)
    return {"player": player.name if player else None, "tables": lobby.my_tables(manager_of(request), player, [])}


@router.post("/api/my-tables", responses=errors(MINE))
def post_my_tables(body: MineIn, request: Request) -> dict:
    """The tables of the seat tokens sent (a guest's browser holds them) and of the signed-in account."""
    player = request_player(request)
    return {"player": player.name if player else None,
            "tables": lobby.my_tables(manager_of(request), player, body.tokens)}
