"""The browser pages of dicetable: lobby, table, replay viewer, and their static files.

A FastAPI :class:`APIRouter` the server's app factory includes
(``app.include_router(dicetable.web.router)``). Routes:

| route | what |
|---|---|
| ``GET /`` | the lobby |
| ``GET /tables/{id}?token=...`` | the table page for a seat (no token: a spectator) |
| ``GET /tables/{id}/replay`` | the replay viewer of a finished table |
| ``GET /account`` | sign in or up; signed in: API tokens, sign out, delete the account |
| ``GET /web/help/{game}`` | a game's rules sections and component reference |
| ``GET /web/howto/{game}`` | a game's "how to play" card (goal, a turn in five lines, the end) |
| ``GET /web/guide`` | the lobby's explanations: every game's card and what each bot level does |
| ``GET /web/tables/{id}/replay/{step}`` | one step of a finished table (:mod:`.replays`) |
| ``GET /web/tables/{id}/replay-index`` | its round and turn starts (:mod:`.replays`) |
| ``GET /web/tables/{id}/final`` | its score sheet (:mod:`.replays`) |
| ``GET /static/web/{file}`` | the page's JS modules and its CSS (content-hash ETag: 304 when unchanged) |
| ``GET /static/games/{game-id}/board.css`` | a game's board styles (``games/<pkg>/static/board.css``) |

The pages hold no rule and no secret: they talk to the HTTP contract of
WEB.md (``/api/...``) with the seat's token and draw what it answers. The
replay routes turn a finished table's public record (what ``GET
/api/tables/{id}/record`` answers) into the board as it was at each step.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from dicetable.engine import DicetableError, GameSpec, list_games
from dicetable.server.errors import quoted
from dicetable.server.ids import MAX_SEED

from . import howto, players, render, replays
from .gamefiles import game_file

_HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(_HERE / "templates"))
router = APIRouter()
router.include_router(replays.router)  # the replay steps and the final score sheet
router.include_router(players.router)  # the player and leaderboard pages

_STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".svg": "image/svg+xml"}


def _game_css(game_id: str) -> bytes | None:
    """The bytes of ``games/<pkg>/static/board.css`` for a registered game id, or None."""
    return game_file(game_id, "static", "board.css")


def _static(request: Request, body: bytes, media_type: str) -> Response:
    """A static file with a content-hash ``ETag`` and ``Cache-Control: no-cache`` (the browser keeps it and
    asks again each time): 304 without a body when the request's ``If-None-Match`` names that ETag.

    The ETag is weak (``W/"..."``) because the server may send the file gzipped (``Vary: Accept-Encoding``).
    """
    etag = 'W/"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    asked = request.headers.get("if-none-match")
    if asked is not None:
        tags = {t.strip().removeprefix("W/") for t in asked.split(",")}
        if "*" in tags or etag.removeprefix("W/") in tags:
            return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


def _known_game(game_id: str) -> GameSpec:
    """The registered game ``game_id``; HTTPException 404 naming the known games otherwise."""
    games = list_games()
    spec = next((g for g in games if g.id == game_id), None)
    if spec is None:
        raise HTTPException(404, f"unknown game {quoted(game_id)}; known games: " + ", ".join(g.id for g in games))
    return spec


def _page(request: Request, name: str, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context)


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def lobby(request: Request) -> HTMLResponse:
    """The lobby: new table (game, options, seats, clock) and the open tables. Its seed field carries the
    largest seed ``POST /api/tables`` takes (``data-max``: the server's ``MAX_SEED``), which its script
    checks a typed seed against."""
    return _page(request, "lobby.html", title="dicetable", seed_max=MAX_SEED)


def _table_page(request: Request, name: str, title: str, table_id: str) -> HTMLResponse:
    """Page ``name`` of table ``table_id``; status 404 when this server's store has no such table (the
    page is the same: its script asks the API, which says there is no such table)."""
    response = _page(request, name, title=title, table_id=table_id)
    manager = getattr(request.app.state, "manager", None)
    if manager is not None and manager.store.status(table_id) is None:
        response.status_code = 404
    return response


@router.get("/tables/{table_id}", response_class=HTMLResponse, include_in_schema=False)
def table_page(request: Request, table_id: str) -> HTMLResponse:
    """The table page; the JS reads ``token`` from the address and talks to ``/api/tables/{id}``."""
    return _table_page(request, "table.html", "dicetable table", table_id)


@router.get("/tables/{table_id}/replay", response_class=HTMLResponse, include_in_schema=False)
def replay_page(request: Request, table_id: str) -> HTMLResponse:
    """The replay viewer of a finished table (its record is public once the table is over)."""
    return _table_page(request, "replay.html", "dicetable replay", table_id)


@router.get("/account", response_class=HTMLResponse, include_in_schema=False)
def account_page(request: Request) -> HTMLResponse:
    """The account page: sign in or up; signed in: API tokens, sign out, delete the account (accounts.js)."""
    return _page(request, "account.html", title="dicetable account")


@router.get("/static/web/{name}", include_in_schema=False)
def web_static(request: Request, name: str) -> Response:
    """The page's JS modules and stylesheet (only the files shipped in ``web/static``)."""
    path = _HERE / "static" / name
    if "/" in name or name.startswith(".") or path.suffix not in _STATIC_TYPES or not path.is_file():
        raise HTTPException(404, f"no static file {name!r}")
    return _static(request, path.read_bytes(), _STATIC_TYPES[path.suffix])


@router.get("/static/games/{game_id}/board.css", include_in_schema=False)
def game_css(request: Request, game_id: str) -> Response:
    """A game's board stylesheet; an empty sheet when the game ships none yet; 404 for unknown games."""
    _known_game(game_id)
    css = _game_css(game_id) or b"/* this game ships no board.css */\n"
    return _static(request, css, _STATIC_TYPES[".css"])


@router.get("/web/help/{game_id}", include_in_schema=False)
def web_help(request: Request, game_id: str, table: str | None = None, players: int | None = None) -> dict:
    """A game's rules sections (with the Decision kinds each explains) and component reference; with
    ``?table=ID`` only those that apply to that table's player count and options, with ``?players=N``
    those for N players with the default options. 404 for an unknown game or table, 422 for a bad count."""
    spec = _known_game(game_id)
    options = None
    if table is not None:
        manager = getattr(request.app.state, "manager", None)
        if manager is None:
            raise HTTPException(404, f"no tables here to look up {table!r} in")
        live = manager.get(table)  # ApiError 404 (answered by the app) when unknown
        if live.game != game_id:
            raise HTTPException(404, f"table {table!r} plays {live.game}, not {game_id}")
        players, options = live.players, live.options
    if players is not None and not spec.min_players <= players <= spec.max_players:
        raise HTTPException(422, f"{game_id} is played by {spec.min_players} to {spec.max_players} players, "
                                 f"not {players}")
    return render.components_of(game_id, players, options)


@router.get("/web/howto/{game_id}", include_in_schema=False)
def web_howto(game_id: str) -> dict:
    """A game's "how to play" card: ``{"goal", "turn": [lines], "end", "source"}`` and its solo or
    two-player line when it has one (``games/<pkg>/data/howto.toml``, checked on load). 404 for an unknown
    game, naming the known ones."""
    _known_game(game_id)
    try:
        return howto.card(game_id)
    except DicetableError as exc:
        raise HTTPException(404, str(exc)) from None


@router.get("/web/guide", include_in_schema=False)
def web_guide() -> dict:
    """What the lobby explains: ``{"bots": {level: {"what", "strength"}}, "howto": {game id: card}}``."""
    return {"bots": howto.BOT_LEVELS, "howto": howto.cards(game_ids())}


def game_ids() -> list[str]:
    """Ids of the registered games (for templates and tests)."""
    return [g.id for g in list_games()]


__all__ = ["router", "game_ids"]
