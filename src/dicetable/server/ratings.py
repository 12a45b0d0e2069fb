"""Results of finished tables, OpenSkill ratings, the bots' published ratings, profiles and leaderboards.

docs/ratings.md explains the choices; in short:

* **Results.** When a table ends (its last action makes the game over), one ``results`` row per
  seat is written in the same transaction that stores that action and sets ``tables.status`` to
  ``over`` (:func:`finish_table`, called by the store's committer). Only the writer whose action
  was stored runs it (the ``UNIQUE(table_id, seq)`` race has one winner), so a table replayed,
  reloaded or served by several processes never writes its results twice. ``place`` comes from
  :func:`dicetable.engine.places` (the rulebook's winners and tie-breaks; shared places repeat).
* **Ratings.** A rated table (``tables.rated``) with two or more seats updates the rating of
  every seat held by an account for that game with openskill's Plackett-Luce model (its default
  ``mu`` 25 and ``sigma`` 25/3 for a first game): every seat is a one-player team, ``ranks`` are
  the places (equal places are ties). Bots take part with their fixed published rating
  (:func:`bot_ratings`, measured by ``benchmarks/bot_ratings.py``) and are never updated; a bot
  level without a published rating for that game, and a guest seat, take part with the model's
  default rating and are not stored.
* **Displayed rating.** :func:`display` = ``round(1500 + 20 * (mu - 3 * sigma))``: a new account
  shows 1500 and a point of openskill's ordinal is 20 displayed points.
* **Solo** tables get results (place, score) but no rating; profiles show the best and average
  score per game and level (the table's option named ``*_level``, e.g. Kingdom of Dice's
  ``cat_level``; games without one have a single level, ``standard``).
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Iterable, Sequence

from openskill.models import PlackettLuce
from sqlalchemy import case, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from dicetable.engine import places

from .banks import places_with_forfeits
from .models import PlayerRow, RatingRow, ResultRow, SeatRow, TableRow
from .store import iso_utc, now

log = logging.getLogger("dicetable.server")

#: The rating model: openskill's Plackett-Luce with the package's defaults (mu 25, sigma 25/3).
MODEL = PlackettLuce()

#: Displayed rating = BASE + SCALE * ordinal, where ordinal = mu - 3 sigma (docs/ratings.md).
BASE, SCALE = 1500, 20

#: The fewest rated games a player needs to be on a game's leaderboard.
MIN_GAMES = 5

#: How many players a leaderboard lists.
TOP = 100

#: How many finished tables a profile lists.
RECENT = 20

#: The data file of the bots' published ratings (written by ``benchmarks/bot_ratings.py``).
BOT_RATINGS_FILE = "bot_ratings.json"


def display(mu: float, sigma: float) -> int:
    """The displayed rating of ``(mu, sigma)``: ``round(BASE + SCALE * (mu - 3 * sigma))`` (an int)."""
    return round(BASE + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class BotRating:
    """A bot level's fixed rating for one game: ``mu``, ``sigma`` and the rated games it was measured in."""

    mu: float
    sigma: float
    games: int


def check_bot_ratings(data: Any, games: Sequence[str], levels: Sequence[str]) -> dict[str, dict[str, BotRating]]:
    """Validate the bots' ratings file's content; ``{game id: {level: BotRating}}``.

    The file is ``{"source": str, "model": "PlackettLuce", "ratings": {game id: {level: {"mu",
    "sigma", "games"}}}}``: ``source`` says how the figures were measured (command, games, seed),
    each game id one of ``games``, each level one of ``levels``, ``mu`` a finite number,
    ``sigma`` a finite number above 0, ``games`` an int of at least 1. ValueError naming the
    first thing wrong and what is allowed.
    """
    if not isinstance(data, dict):
        raise ValueError("the bots' ratings file must hold a JSON object with source, model and ratings")
    if not isinstance(data.get("source"), str) or not data["source"].strip():
        raise ValueError("the bots' ratings file needs a 'source': how the figures were measured")
    if data.get("model") != "PlackettLuce":
        raise ValueError(f"the bots' ratings file's model is {data.get('model')!r}; only 'PlackettLuce' is used")
    ratings = data.get("ratings")
    if not isinstance(ratings, dict):
        raise ValueError("the bots' ratings file needs 'ratings': {game id: {level: {mu, sigma, games}}}")
    out: dict[str, dict[str, BotRating]] = {}
    for game, per_level in ratings.items():
        if game not in games:
            raise ValueError(f"the bots' ratings file names an unknown game {game!r}; games: {', '.join(games)}")
        if not isinstance(per_level, dict):
            raise ValueError(f"the bots' ratings of {game} must be an object {{level: {{mu, sigma, games}}}}")
        out[game] = {}
        for level, entry in per_level.items():
            where = f"the bots' rating of {level!r} in {game}"
            if level not in levels:
                raise ValueError(f"{where}: unknown bot level; levels: {', '.join(levels)}")
            if not isinstance(entry, dict) or set(entry) != {"mu", "sigma", "games"}:
                raise ValueError(f"{where} must be an object with exactly mu, sigma and games")
            mu, sigma, n = entry["mu"], entry["sigma"], entry["games"]
            if isinstance(mu, bool) or not isinstance(mu, (int, float)) or not math.isfinite(mu):
                raise ValueError(f"{where}: mu must be a finite number, not {mu!r}")
            if isinstance(sigma, bool) or not isinstance(sigma, (int, float)) or not math.isfinite(sigma) \
                    or sigma <= 0:
                raise ValueError(f"{where}: sigma must be a finite number above 0, not {sigma!r}")
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise ValueError(f"{where}: games must be a whole number of at least 1, not {n!r}")
            out[game][level] = BotRating(float(mu), float(sigma), n)
    return out


@lru_cache(maxsize=1)
def bot_ratings() -> dict[str, dict[str, BotRating]]:
    """The bots' published ratings, ``{game id: {level: BotRating}}``, read and checked once.

    ValueError (from :func:`check_bot_ratings`) when the shipped file is wrong.
    """
    from dicetable.engine import list_games

    from .bots import LEVELS

    text = (resources.files("dicetable.server") / "data" / BOT_RATINGS_FILE).read_text(encoding="utf-8")
    return check_bot_ratings(json.loads(text), [g.id for g in list_games()], LEVELS)


def solo_level(options: dict[str, Any]) -> str:
    """A solo table's level: the value of its option named ``*_level`` (``"standard"`` when it has none)."""
    for name in sorted(options):
        if name.endswith("_level"):
            return str(options[name])
    return "standard"


# ------------------------------------------------------------------ writing results
def results_writer(table_id: str, state: Any, forfeited: Iterable[int] = ()) -> Callable[[Connection], None] | None:
    """What the store runs in the transaction of the action that ends ``state``'s game (a finished
    :class:`~dicetable.engine.GameState`): :func:`finish_table` with its places and final scores,
    worked out now (before the transaction), so nothing but database work runs inside it. None
    (logged) when they cannot be worked out: the move is stored all the same, without results.

    ``forfeited`` lists the seats that forfeited when their time bank ran out: they are placed after
    every other seat (:func:`~.banks.places_with_forfeits`), whatever their score."""
    try:
        game, scores = state.game_id, list(state.scores)
        ranks = places_with_forfeits(places(state), forfeited)
    except Exception:
        log.exception("the results of table %s cannot be worked out", table_id)
        return None
    return lambda conn: finish_table(conn, table_id, game, ranks, scores)


def _insert(conn: Connection) -> Any:
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(RatingRow)


def finish_table(conn: Connection, table_id: str, game: str, places: Sequence[int], scores: Sequence[Any]) -> None:
    """Write the results of ``table_id``, just over, inside the caller's transaction ``conn``.

    One ``results`` row per seat (``places``/``scores`` in seat order: the engine's
    :func:`~dicetable.engine.places` and final ``scores``); for a rated table of two or more
    seats whose every human seat an account held and its player joined (opened the table or acted),
    the accounts' ratings for ``game`` are updated (before/after kept in the rows). Does
    nothing when the table has results already. Bots' ratings are never changed.
    """
    if conn.execute(select(ResultRow.seat).where(ResultRow.table_id == table_id).limit(1)).first() is not None:
        return
    rated = bool(conn.execute(select(TableRow.rated).where(TableRow.id == table_id)).scalar())
    seats = conn.execute(select(SeatRow.seat, SeatRow.kind, SeatRow.level, SeatRow.player_id, SeatRow.joined)
                         .where(SeatRow.table_id == table_id).order_by(SeatRow.seat)).all()
    # nobody is rated in a game they did not join, nor against a seat nobody held: a human seat whose
    # named player never opened the table, or that no account took, makes the game unrated for all
    rated = rated and all(s.kind != "human" or (s.player_id is not None and s.joined) for s in seats)
    at = now()
    rows: list[dict[str, Any]] = []
    for s in seats:
        score = scores[s.seat] if s.seat < len(scores) else None
        rows.append({"table_id": table_id, "seat": s.seat, "player_id": s.player_id, "game": game,
                     "place": int(places[s.seat]), "score": int(score) if isinstance(score, (int, float)) else None,
                     "rated": rated and len(seats) > 1, "mu_before": None, "sigma_before": None,
                     "mu_after": None, "sigma_after": None, "finished": at})
    if rated and len(seats) > 1:
        _rate(conn, game, seats, rows, at)
    if rows:
        conn.execute(insert(ResultRow), rows)


def _rate(conn: Connection, game: str, seats: Sequence[Any], rows: list[dict[str, Any]], at: datetime) -> None:
    """Update the accounts' ratings of a rated table's ``rows`` (each seat a one-player team)."""
    try:
        fixed = bot_ratings().get(game, {})
    except (OSError, ValueError):  # a missing or wrong data file: bots count at the default rating
        log.exception("the bots' ratings cannot be read; bots count at the default rating")
        fixed = {}
    accounts = sorted({s.player_id for s in seats if s.kind == "human" and s.player_id is not None})
    if accounts:  # first games: the model's default rating; then lock the rows (PostgreSQL) in id order
        conn.execute(_insert(conn).values([{"player_id": p, "game": game, "mu": MODEL.mu, "sigma": MODEL.sigma,
                                            "games": 0, "wins": 0, "updated": at} for p in accounts])
                     .on_conflict_do_nothing())
    current = {r.player_id: r for r in conn.execute(
        select(RatingRow.player_id, RatingRow.mu, RatingRow.sigma).where(
            RatingRow.game == game, RatingRow.player_id.in_(accounts)).order_by(RatingRow.player_id)
        .with_for_update())}
    teams = []
    for s in seats:
        if s.kind == "human" and s.player_id is not None:
            r = current[s.player_id]
            teams.append([MODEL.rating(mu=r.mu, sigma=r.sigma)])
        elif s.kind == "bot" and s.level in fixed:
            teams.append([MODEL.rating(mu=fixed[s.level].mu, sigma=fixed[s.level].sigma)])
        else:
            teams.append([MODEL.rating()])
    after = MODEL.rate(teams, ranks=[row["place"] for row in rows])
    for s, row, before, new in zip(seats, rows, teams, after):
        if s.kind != "human" or s.player_id is None:
            continue
        row.update(mu_before=before[0].mu, sigma_before=before[0].sigma, mu_after=new[0].mu, sigma_after=new[0].sigma)
        conn.execute(update(RatingRow).where(RatingRow.player_id == s.player_id, RatingRow.game == game)
                     .values(mu=new[0].mu, sigma=new[0].sigma, games=RatingRow.games + 1,
                             wins=RatingRow.wins + (1 if row["place"] == 1 else 0), updated=at))


# ------------------------------------------------------------------ reading
def find_player(engine: Engine, name: str) -> Any | None:
    """The ``players`` row (id, name, deleted) whose name is ``name`` (case-insensitive); None if none."""
    with engine.connect() as conn:
        return conn.execute(select(PlayerRow.id, PlayerRow.name, PlayerRow.deleted)
                            .where(PlayerRow.name_key == name.casefold())).first()


def profile(engine: Engine, player_id: int, name: str) -> dict[str, Any]:
    """A player's public profile (WEB.md, Players): ``{"name", "ratings", "recent"}``.

    ``ratings`` is ``{game id: {"mu", "sigma", "rating", "games", "wins"}}`` (rated games only);
    ``recent`` the last :data:`RECENT` finished tables ``[{"table_id", "game", "place", "over"}]``
    newest first, ``over`` the ISO 8601 time the table ended.
    """
    with engine.connect() as conn:
        ratings = {r.game: {"mu": r.mu, "sigma": r.sigma, "rating": display(r.mu, r.sigma), "games": r.games,
                            "wins": r.wins}
                   for r in conn.execute(select(RatingRow).where(RatingRow.player_id == player_id)
                                         .order_by(RatingRow.game))}
        recent = [{"table_id": r.table_id, "game": r.game, "place": r.place, "over": iso_utc(r.finished)}
                  for r in conn.execute(select(ResultRow.table_id, ResultRow.game, ResultRow.place, ResultRow.finished)
                                        .where(ResultRow.player_id == player_id)
                                        .order_by(ResultRow.finished.desc(), ResultRow.table_id).limit(RECENT))]
    return {"name": name, "ratings": ratings, "recent": recent}


def leaderboard(engine: Engine, game: str) -> list[dict[str, Any]]:
    """The best :data:`TOP` accounts of ``game`` with at least :data:`MIN_GAMES` rated games, best first.

    ``[{"name", "rating", "games"}]``; deleted accounts are left out; equal ratings by name.
    """
    with engine.connect() as conn:
        rows = conn.execute(select(PlayerRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.games)
                            .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
                            .where(RatingRow.game == game, RatingRow.games >= MIN_GAMES,
                                   PlayerRow.deleted.is_(False))
                            .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), PlayerRow.name_key)
                            .limit(TOP)).all()
    return [{"name": r.name, "rating": display(r.mu, r.sigma), "games": r.games} for r in rows]


def history(engine: Engine, player_id: int) -> dict[str, list[tuple[datetime, int]]]:
    """Each game's rating history of a player: ``{game id: [(finished, displayed rating after)]}``, oldest first."""
    out: dict[str, list[tuple[datetime, int]]] = {}
    with engine.connect() as conn:
        for r in conn.execute(select(ResultRow.game, ResultRow.finished, ResultRow.mu_after, ResultRow.sigma_after)
                              .where(ResultRow.player_id == player_id, ResultRow.rated.is_(True),
                                     ResultRow.mu_after.is_not(None))
                              .order_by(ResultRow.finished, ResultRow.table_id)):
            out.setdefault(r.game, []).append((r.finished, display(r.mu_after, r.sigma_after)))
    return out


def played(engine: Engine, player_id: int) -> dict[str, dict[str, int]]:
    """Tables played and won (place 1) per game by a player, every finished table counted:
    ``{game id: {"played", "won"}}``."""
    with engine.connect() as conn:
        rows = conn.execute(select(ResultRow.game, func.count(), func.sum(case((ResultRow.place == 1, 1), else_=0)))
                            .where(ResultRow.player_id == player_id).group_by(ResultRow.game)
                            .order_by(ResultRow.game)).all()
    return {g: {"played": int(n), "won": int(w or 0)} for g, n, w in rows}


def solo_scores(engine: Engine, player_id: int) -> list[dict[str, Any]]:
    """A player's solo scores: ``[{"game", "level", "tables", "best", "average"}]`` by game and level."""
    by: dict[tuple[str, str], list[int]] = {}
    with engine.connect() as conn:
        for r in conn.execute(select(ResultRow.game, ResultRow.score, TableRow.options)
                              .join(TableRow, TableRow.id == ResultRow.table_id)
                              .where(ResultRow.player_id == player_id, TableRow.players == 1,
                                     ResultRow.score.is_not(None))):
            by.setdefault((r.game, solo_level(json.loads(r.options))), []).append(r.score)
    return [{"game": g, "level": lv, "tables": len(s), "best": max(s), "average": round(sum(s) / len(s), 1)}
            for (g, lv), s in sorted(by.items())]
