"""Players' public pages as data (WEB.md, Players; the logic is in :mod:`dicetable.server.ratings`).

==================================  ==============================================================
``GET /api/players/{name}``          ``{"name", "ratings": {game id: {"mu", "sigma", "rating",
                                     "games", "wins"}}, "recent": [{"table_id", "game", "place",
                                     "over"}]}``; 404 for an unknown name
``GET /api/leaderboard/{game}``      ``[{"name", "rating", "games"}]`` best first: the top 100 with
                                     at least ``ratings.MIN_GAMES`` rated games; 404 unknown game
==================================  ==============================================================
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from dicetable.engine import list_games

from .. import ratings
from ..errors import ApiError, quoted
from .common import errors

router = APIRouter()

#: Statuses the players' routes may refuse with.
REFUSALS = (400, 404, 422)


class GameRating(BaseModel):
    """A player's current rating for one game."""

    mu: float = Field(description="openskill mean skill")
    sigma: float = Field(description="openskill uncertainty")
    rating: int = Field(description="the displayed rating: round(1500 + 20 * (mu - 3 * sigma))")
    games: int = Field(description="rated tables of this game finished")
    wins: int = Field(description="of those, tables where the player placed 1st (a shared 1st counts)")


class RecentTable(BaseModel):
    """One finished table of the player."""

    table_id: str
    game: str
    place: int = Field(description="1 = won; shared places repeat")
    over: str = Field(description="when the table ended, ISO 8601 UTC")


class PlayerOut(BaseModel):
    """``GET /api/players/{name}``."""

    name: str
    ratings: dict[str, GameRating]
    recent: list[RecentTable]


class LeaderboardEntry(BaseModel):
    """One line of ``GET /api/leaderboard/{game}``."""

    name: str
    rating: int
    games: int


def known_game(game: str) -> None:
    """ApiError 404 naming the games when ``game`` is not a registered game id."""
    ids = [g.id for g in list_games()]
    if game not in ids:
        raise ApiError(404, f"unknown game {quoted(game)}; games: {', '.join(ids)}")


def player_named(request: Request, name: str) -> Any:
    """The ``players`` row named ``name`` (case-insensitive); ApiError 404 when there is none."""
    row = ratings.find_player(request.app.state.manager.store.engine, name)
    if row is None:
        raise ApiError(404, f"there is no player named {quoted(name)}")
    return row


@router.get("/api/players/{name}", response_model=PlayerOut, responses=errors(REFUSALS))
def player(request: Request, name: str) -> dict:
    """A player's ratings per game and their most recent finished tables (newest first)."""
    row = player_named(request, name)
    return ratings.profile(request.app.state.manager.store.engine, row.id, row.name)


@router.get("/api/leaderboard/{game}", response_model=list[LeaderboardEntry], responses=errors(REFUSALS))
def leaderboard(request: Request, game: str) -> list[dict]:
    """A game's leaderboard: the best 100 accounts with at least the minimum of rated games, best first."""
    known_game(game)
    return ratings.leaderboard(request.app.state.manager.store.engine, game)
