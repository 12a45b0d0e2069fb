"""The players' pages: a profile (``/players/{name}``) and a game's leaderboard (``/leaderboard/{game}``).

Both are drawn on the server from :mod:`dicetable.server.ratings` (no script needed): the
profile shows games played and won per title, the current rating per game with its history as
a small SVG chart made here (no JS library, nothing from another site), solo best and average
scores, and the recent tables with links to their replays. Every name goes through the
template's escaping, so a name with markup shows as text.
"""

from __future__ import annotations

from datetime import datetime
from html import escape
from pathlib import Path
from typing import Any, Sequence

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from dicetable.engine import list_games
from dicetable.server import ratings

router = APIRouter()
templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))

#: The chart's size in SVG user units (it scales to the page's width).
WIDTH, HEIGHT, PAD = 320, 120, 28


def _names() -> dict[str, str]:
    return {g.id: g.name for g in list_games()}


def chart(points: Sequence[tuple[datetime, int]], label: str) -> str:
    """An SVG line chart of a rating history (one point per rated table, in order; y: the displayed
    rating, its lowest and highest marked) as SVG markup, every value in it a number made here
    and ``label`` escaped. ``label`` names it for screen readers. "" for no points."""
    if not points:
        return ""
    values = [v for _, v in points]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (WIDTH - 2 * PAD) / max(len(values) - 1, 1)

    def xy(i: int, v: int) -> tuple[float, float]:
        return PAD + i * step, HEIGHT - PAD / 2 - (v - low) / span * (HEIGHT - 1.5 * PAD)

    coords = [xy(i, v) for i, v in enumerate(values)]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5"><title>{v} after {when:%Y-%m-%d}</title></circle>'
                   for (x, y), (when, v) in zip(coords, points))
    y_high, y_low = xy(0, high)[1], xy(0, low)[1]
    return (
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">'
        f'<line class="axis" x1="{PAD}" y1="{y_low:.1f}" x2="{WIDTH - PAD / 2}" y2="{y_low:.1f}"/>'
        f'<text x="{PAD - 4}" y="{y_high + 4:.1f}" text-anchor="end">{high}</text>'
        + (f'<text x="{PAD - 4}" y="{y_low + 4:.1f}" text-anchor="end">{low}</text>' if low != high else "")
        + f'<polyline points="{line}" fill="none"/>{dots}</svg>')


def _page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, template, context, status_code=status)


@router.get("/players/{name}", response_class=HTMLResponse, include_in_schema=False)
def player_page(request: Request, name: str) -> HTMLResponse:
    """A player's profile; a 404 page naming the name when there is no such player."""
    engine = request.app.state.manager.store.engine
    row = ratings.find_player(engine, name)
    if row is None:
        return _page(request, "missing.html", 404, title="no such player",
                     message=f"There is no player named {name}.")
    titles = _names()
    prof = ratings.profile(engine, row.id, row.name)
    hist = ratings.history(engine, row.id)
    rated = [{"game": g, "title": titles.get(g, g), **r,
              "chart": chart(hist.get(g, []), f"{row.name}'s rating in {titles.get(g, g)}, game by game")}
             for g, r in prof["ratings"].items()]
    return _page(request, "player.html", title=f"{row.name} - dicetable", name=row.name, deleted=row.deleted,
                 played=[{"title": titles.get(g, g), **c} for g, c in ratings.played(engine, row.id).items()],
                 rated=rated, solo=[{**s, "title": titles.get(s["game"], s["game"])}
                                    for s in ratings.solo_scores(engine, row.id)],
                 recent=[{**r, "title": titles.get(r["game"], r["game"]), "over": r["over"][:16].replace("T", " ")}
                         for r in prof["recent"]], games=titles)


@router.get("/leaderboard/{game}", response_class=HTMLResponse, include_in_schema=False)
def leaderboard_page(request: Request, game: str) -> HTMLResponse:
    """A game's leaderboard (top 100, at least the minimum of rated games); 404 page for an unknown game."""
    titles = _names()
    if game not in titles:
        return _page(request, "missing.html", 404, title="no such game",
                     message=f"There is no game {game}; games: {', '.join(titles)}.")
    board = ratings.leaderboard(request.app.state.manager.store.engine, game)
    return _page(request, "leaderboard.html", title=f"{titles[game]} leaderboard - dicetable", game=game,
                 game_title=titles[game], board=board, games=titles, min_games=ratings.MIN_GAMES)
