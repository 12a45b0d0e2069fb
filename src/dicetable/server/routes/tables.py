"""Tables: create, list, view, act, undo, and the replay record.

=========================================  ====================================================
``POST /api/tables``                        create a table (WEB.md body, plus optional ``clock``
                                            seconds per decision or a chess clock ``bank``,
                                            ``increment``, ``bank_max``, and per-seat ``name``)
``GET  /api/tables``                        a page of open and running tables
``GET  /api/tables/{id}``                   the caller's view
``POST /api/tables/{id}/actions``           act for the token's seat
``GET  /api/tables/{id}/record``            the replay record once over (403 while it runs)
``POST /api/tables/{id}/undo``              take back your last move where allowed
=========================================  ====================================================
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal, Optional

from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator
from starlette.responses import Response

from dicetable.engine.rng import seed_problem

from ..accounts import Accounts, check_seat_name
from ..banks import MAX_BANK, MAX_INCREMENT, MIN_BANK
from ..errors import ApiError
from ..identity import request_player
from ..ids import MAX_SEED
from ..limits import ClientLimits
from .common import CHANGE, CREATE, LIST, RECORD, VIEW, Auth, client_address, errors, manager_of
from .common import acting_seat, caller_seat, minimal_answer, view_answer, wants_minimal

router = APIRouter()

#: Tables in one page of ``GET /api/tables`` unless ``?limit=`` says otherwise, and the most it may say.
PAGE, MAX_PAGE = 50, 200

#: Letters and symbols that draw nothing: Hangul fillers, the blank Braille pattern, a blank notehead.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159")


# ---------------------------------------------------------------- bodies
class SeatIn(BaseModel):
    """One seat of a new table: a person, or a bot with its level."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"]
    level: Optional[StrictStr] = Field(None, max_length=16)
    name: Optional[StrictStr] = Field(None, min_length=1, max_length=40)
    player: Optional[StrictStr] = Field(None, min_length=1, max_length=40,
                                        description="a human seat for this signed-in player (an account name)")

    @field_validator("name")
    @classmethod
    def _printable_name(cls, name: Optional[str]) -> Optional[str]:
        """A seat's name is shown on every page and log: printable text, not blank (ValueError otherwise)."""
        if name is None:
            return name
        if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn") for ch in name):
            raise ValueError("a name may not hold control or invisible format characters (nor unassigned "
                             "or private-use ones); give printable text of 1 to 40 characters")
        if not name.strip():
            raise ValueError("a name may not be blank; give printable text of 1 to 40 characters")
        if not any(unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_LOOKING for ch in name):
            raise ValueError("a name may not look blank (it shows no visible letter, digit or sign: only "
                             "fillers, blank patterns or marks); give printable text of 1 to 40 characters")
        return name


class NewTable(BaseModel):
    """``POST /api/tables``: the game, the player count, options, an optional seed, the seats, a clock
    (``clock`` seconds per decision, or a chess clock: ``bank``, ``increment``, ``bank_max``)."""

    model_config = ConfigDict(extra="forbid")
    game: StrictStr = Field(max_length=64)
    players: StrictInt
    options: dict[StrictStr, StrictStr | StrictBool | StrictInt] = Field(default_factory=dict, max_length=32)
    seed: Optional[StrictInt] = Field(None, description=f"a game seed, 0..{MAX_SEED}; omitted: a random one")
    seats: Optional[list[SeatIn]] = Field(None, max_length=8)
    clock: Optional[StrictInt] = Field(None, ge=5, le=7 * 24 * 3600, description="seconds per decision")
    bank: Optional[StrictInt] = Field(None, ge=MIN_BANK, le=MAX_BANK,
                                      description="a chess clock: seconds each player starts with")
    increment: Optional[StrictInt] = Field(None, ge=0, le=MAX_INCREMENT,
                                           description="seconds added to a player's bank after each turn")
    bank_max: Optional[StrictInt] = Field(None, ge=MIN_BANK, le=MAX_BANK,
                                          description="the most seconds a bank may hold (turn-based play)")
    listed: StrictBool = Field(False, description="shown in the open lobby: anyone may take its unused human seats")
    on_time_out: Optional[Literal["bot", "forfeit"]] = Field(
        None, description="when a bank runs out: its bot plays the turn, or the seat forfeits (default: forfeit "
                          "at a rated table, else bot)")
    rated: StrictBool = Field(False, description="ratings change when it is over: every human seat names a player")


class ActionIn(BaseModel):
    """``POST /api/tables/{id}/actions``: an action id and the version the caller saw."""

    model_config = ConfigDict(extra="forbid")
    action: StrictStr = Field(min_length=1, max_length=200)
    version: StrictInt = Field(ge=0)


class UndoIn(BaseModel):
    """``POST /api/tables/{id}/undo``: the version the caller saw."""

    model_config = ConfigDict(extra="forbid")
    version: StrictInt = Field(ge=0)


# ---------------------------------------------------------------- routes
@router.post("/api/tables", status_code=201, responses=errors(CREATE))
def create_table(body: NewTable, request: Request) -> dict:
    """Create a table; the answer holds each human seat's token and link (shown once)."""
    # Any game seed, 0..MAX_SEED (2**64-1); others are refused in the engine's own words (seed_problem).
    problem = seed_problem(body.seed) if body.seed is not None else None
    if problem is not None:
        raise ApiError(422, problem)
    seats = [s.model_dump() for s in body.seats] if body.seats is not None else None
    if seats is not None:
        seat_players(request, seats)
    limits: ClientLimits = request.app.state.limits
    address = client_address(request.client)
    reserved = limits.reserve_creation(address)
    try:
        made = manager_of(request).create(body.game, body.players, body.options, body.seed, seats, body.clock,
                                          client=address, bank=body.bank, increment=body.increment,
                                          bank_max=body.bank_max, listed=body.listed,
                                          on_time_out=body.on_time_out, rated=body.rated)
    except BaseException:
        limits.release_creation(address, reserved)
        raise
    limits.created(address, made["table_id"])
    return made


def seat_players(request: Request, seats: list[dict]) -> None:
    """Resolve the seats' ``player`` names to accounts (in place: ``player_id``, ``player``, ``name``,
    ``token_too``). Naming players needs a signed-in creator (ApiError 401); an unknown name, or a
    player on a bot seat, is refused (422), and so is a seat's free ``name`` that passes for someone
    else (``accounts.check_seat_name``: a name the tables give, letters of several alphabets, a registered
    player's name or a look-alike of one other than the creator's own). The creator's own seat gets its
    token as before; another player's seat gets none (that player acts for it with their own sign-in or
    API token)."""
    accounts = Accounts(manager_of(request).store.engine)
    named = [(n, seat) for n, seat in enumerate(seats) if seat.get("player") is None and seat.get("name")]
    if named:  # a seat's free name never passes for a registered player's, nor for what the tables show
        skeletons, me = accounts.skeletons(), request_player(request)
        for n, seat in named:
            check_seat_name(seat["name"].strip(), n, skeletons, own=me.name if me else None)
    if not any(s.get("player") is not None for s in seats):
        return
    caller = request_player(request)
    if caller is None:
        raise ApiError(401, "naming players at seats needs you signed in: sign in on the Account page (a "
                            "program sends its API token as 'Authorization: Bearer <token>')")
    for n, seat in enumerate(seats):
        name = seat.get("player")
        if name is None:
            continue
        if seat["kind"] != "human":
            raise ApiError(422, f"seat {n} is a bot's: only a human seat names a player")
        player_id = accounts.player_id(name)
        if player_id is None:
            raise ApiError(422, f"seat {n}: there is no player {name!r}; name a signed-up account")
        seat["player_id"], seat["token_too"] = player_id, player_id == caller.id
        seat["player"] = seat["name"] = caller.name if player_id == caller.id else accounts.name_of(player_id)
    held = [s["player_id"] for s in seats if s.get("player_id") is not None]
    if len(held) != len(set(held)):
        raise ApiError(422, "a player is named at more than one seat; name each player once")


@router.get("/api/tables", responses=errors(LIST))
def list_tables(request: Request, all: bool = False,
                limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
                offset: Annotated[int, Query(ge=0, le=2**31)] = 0) -> dict:
    """One page of the open and running tables (``?all=true``: finished ones too), newest first,
    without tokens: ``{"tables", "total", "limit", "offset", "next"}`` (``next``: the offset of the
    following page, None on the last)."""
    store = manager_of(request).store
    statuses = None if all else ("running",)
    rows = store.list_tables(statuses, limit=limit, offset=offset)
    for row in rows:
        row["open"] = row["status"] == "running" and any(
            s["kind"] == "human" and not s["joined"] for s in row["seats"])
    total = store.count_tables(statuses)
    return {"tables": rows, "total": total, "limit": limit, "offset": offset,
            "next": offset + limit if offset + limit < total else None}


@router.get("/api/tables/{table_id}", response_model=dict, responses=errors(VIEW))
def get_view(table_id: str, request: Request, authorization: Auth = None) -> Response:
    """The caller's view of the table."""
    m = manager_of(request)
    lt = m.get(table_id)
    return view_answer(m.view(lt, caller_seat(request, authorization, lt)))


@router.post("/api/tables/{table_id}/actions", response_model=dict, responses=errors(CHANGE))
def post_action(table_id: str, body: ActionIn, request: Request, authorization: Auth = None,
                prefer: Annotated[Optional[str], Header()] = None) -> Response:
    """Apply an action for the token's seat at the given version; the new view (with the header
    ``Prefer: return=minimal`` only ``{"version", "undos"}``: the live connection brings the change)."""
    m = manager_of(request)
    lt = m.get(table_id)
    seat = acting_seat(request, authorization, lt)
    minimal = wants_minimal(prefer)
    answer = m.act(table_id, seat, body.action, body.version, minimal=minimal)
    return minimal_answer(answer["version"], answer["undos"]) if minimal else view_answer(answer)


@router.get("/api/tables/{table_id}/record", responses=errors(RECORD))
def get_record(table_id: str, request: Request) -> dict:
    """The replay record once the game is over; 403 while it runs."""
    return manager_of(request).record(table_id)


@router.post("/api/tables/{table_id}/undo", response_model=dict, responses=errors(CHANGE))
def post_undo(table_id: str, body: UndoIn, request: Request, authorization: Auth = None) -> Response:
    """Take back the caller's last move where the rules allow it; the new view."""
    m = manager_of(request)
    lt = m.get(table_id)
    seat = acting_seat(request, authorization, lt)
    return view_answer(m.undo(table_id, seat, body.version))
