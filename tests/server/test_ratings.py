"""Results of finished tables, OpenSkill ratings, the bots' fixed ratings, profiles and leaderboards.

Players are inserted as rows (``players`` + ``player_tokens``) and tables marked rated in the
database, as the accounts work will do through ``POST /api/tables`` (docs/ratings.md).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from sqlalchemy import func, insert, select, update

from dicetable.engine import places, run_replay
from dicetable.server import ratings
from dicetable.web import create_site
from dicetable.server import store as store_mod
from dicetable.server.bots import LEVELS
from dicetable.server.ids import hash_token
from dicetable.server.models import PlayerRow, PlayerTokenRow, RatingRow, ResultRow, SeatRow, TableRow

from .helpers import create, drive, tokens_of

GAMES = ["biblios-dice", "corsairs-of-valeria", "dice-kingdoms-of-valeria", "kingdom-of-dice",
         "valeria-card-kingdoms"]


def add_player(engine, name: str, token: str | None = None) -> int:
    """Insert an account named ``name`` (and a session token for it); its id."""
    with engine.begin() as conn:
        pid = conn.execute(insert(PlayerRow).values(name=name, name_key=name.casefold(), password_hash="x",
                                                    created=store_mod.now())).inserted_primary_key[0]
        if token:
            conn.execute(insert(PlayerTokenRow).values(token_hash=hash_token(token), player_id=pid, kind="session",
                                                       created=store_mod.now()))
    return pid


def add_table(engine, table_id: str, game: str, seats: list, rated: bool = True, options: str = "{}",
              absent: tuple[int, ...] = ()) -> None:
    """Insert a table whose seats are ``("human", player id or None)`` or ``("bot", level)``; every
    account's seat joined (its player opened the table) but those in ``absent``."""
    with engine.begin() as conn:
        conn.execute(insert(TableRow).values(id=table_id, game=game, players=len(seats), options=options, seed=1,
                                             created=store_mod.now(), status="running", rated=rated))
        for n, (kind, who) in enumerate(seats):
            conn.execute(insert(SeatRow).values(table_id=table_id, seat=n, kind=kind,
                                                level=who if kind == "bot" else "greedy", name=f"P{n}",
                                                player_id=who if kind == "human" else None,
                                                joined=kind == "human" and who is not None and n not in absent))


def finish(engine, table_id, game, places, scores=None):
    with engine.begin() as conn:
        ratings.finish_table(conn, table_id, game, places, scores or [0] * len(places))


@pytest.fixture
def store(db_url):
    """A store on SQLite and on PostgreSQL (the rating rows are created with ON CONFLICT and locked FOR UPDATE)."""
    s = store_mod.Store(db_url)
    yield s
    s.close()


# ------------------------------------------------------------------ the model's own numbers
MATCHES = [  # (number of accounts, places): 2 to 5 players, ties included
    (2, [1, 2]),
    (2, [1, 1]),
    (3, [2, 1, 3]),
    (3, [1, 1, 3]),
    (4, [4, 2, 2, 1]),
    (5, [1, 2, 3, 4, 5]),
    (5, [3, 1, 3, 1, 5]),
    (4, [1, 1, 1, 1]),
]


def test_rating_updates_equal_the_openskill_package_for_2_to_5_players_with_ties(store):
    model = PlackettLuce()  # the package's defaults: mu 25, sigma 25/3
    ids = [add_player(store.engine, f"p{i}") for i in range(5)]
    expected = {pid: model.rating() for pid in ids}
    for m, (n, places) in enumerate(MATCHES):
        seated = ids[m % 5:] + ids[:m % 5]  # different accounts at different seats each time
        seated = seated[:n]
        add_table(store.engine, f"t{m}", "corsairs-of-valeria", [("human", pid) for pid in seated])
        finish(store.engine, f"t{m}", "corsairs-of-valeria", places)
        teams = model.rate([[expected[pid]] for pid in seated], ranks=places)
        for pid, team in zip(seated, teams):
            expected[pid] = team[0]
        with store.engine.connect() as conn:
            got = {r.player_id: r for r in conn.execute(select(RatingRow))}
            results = {r.seat: r for r in conn.execute(select(ResultRow).where(ResultRow.table_id == f"t{m}"))}
        for pid in seated:
            assert got[pid].mu == pytest.approx(expected[pid].mu, abs=1e-9)
            assert got[pid].sigma == pytest.approx(expected[pid].sigma, abs=1e-9)
        for seat, pid in enumerate(seated):
            assert results[seat].place == places[seat] and results[seat].rated
            assert results[seat].mu_after == pytest.approx(expected[pid].mu, abs=1e-9)
    with store.engine.connect() as conn:
        counts = {r.player_id: (r.games, r.wins) for r in conn.execute(select(RatingRow))}
    played = {pid: 0 for pid in ids}
    won = {pid: 0 for pid in ids}
    for m, (n, places) in enumerate(MATCHES):
        for pid, place in zip((ids[m % 5:] + ids[:m % 5])[:n], places):
            played[pid] += 1
            won[pid] += place == 1
    assert counts == {pid: (played[pid], won[pid]) for pid in ids}


def test_bots_take_part_with_their_published_rating_and_never_change(store):
    fixed = ratings.bot_ratings()["dice-kingdoms-of-valeria"]["hard"]
    pid = add_player(store.engine, "solo-human")
    add_table(store.engine, "tb", "dice-kingdoms-of-valeria", [("human", pid), ("bot", "hard")])
    finish(store.engine, "tb", "dice-kingdoms-of-valeria", [1, 2])
    model = PlackettLuce()
    [[me], [_]] = model.rate([[model.rating()], [model.rating(mu=fixed.mu, sigma=fixed.sigma)]], ranks=[1, 2])
    with store.engine.connect() as conn:
        rows = conn.execute(select(RatingRow)).all()
    assert len(rows) == 1 and rows[0].player_id == pid  # nothing stored for the bot
    assert rows[0].mu == pytest.approx(me.mu) and rows[0].sigma == pytest.approx(me.sigma)
    assert ratings.bot_ratings()["dice-kingdoms-of-valeria"]["hard"] == fixed


def test_results_are_written_once(store):
    pid = add_player(store.engine, "once")
    add_table(store.engine, "t1", "kingdom-of-dice", [("human", pid), ("human", add_player(store.engine, "twice"))])
    finish(store.engine, "t1", "kingdom-of-dice", [2, 1], [10, 20])
    finish(store.engine, "t1", "kingdom-of-dice", [1, 2], [20, 10])  # a second call changes nothing
    with store.engine.connect() as conn:
        rows = conn.execute(select(ResultRow.seat, ResultRow.place, ResultRow.score)
                            .where(ResultRow.table_id == "t1").order_by(ResultRow.seat)).all()
        games = conn.execute(select(RatingRow.games)).scalars().all()
    assert [tuple(r) for r in rows] == [(0, 2, 10), (1, 1, 20)]
    assert games == [1, 1]


def test_a_rated_table_is_rated_only_when_every_human_seat_was_joined_by_its_player(store):
    """Nobody is rated in a game they did not join (a named player who never opened the table, their
    time run out by their bot), nor against a seat no account held: the results are kept, unrated."""
    ada, bo = add_player(store.engine, "ada"), add_player(store.engine, "bo")
    add_table(store.engine, "t2", "kingdom-of-dice", [("human", ada), ("human", None)])
    add_table(store.engine, "t3", "kingdom-of-dice", [("human", ada), ("human", bo)], absent=(1,))
    add_table(store.engine, "t4", "kingdom-of-dice", [("human", ada), ("human", bo)])
    for table in ("t2", "t3", "t4"):
        finish(store.engine, table, "kingdom-of-dice", [1, 2], [20, 10])
    with store.engine.connect() as conn:
        rated = dict(conn.execute(select(ResultRow.table_id, ResultRow.rated).where(ResultRow.seat == 0)).all())
        assert rated == {"t2": False, "t3": False, "t4": True}
        assert conn.execute(select(RatingRow.player_id, RatingRow.games).order_by(RatingRow.player_id)
                            ).all() == [(ada, 1), (bo, 1)], "only the game both joined counts"


def test_an_unrated_or_solo_table_gets_results_but_no_rating(store):
    pid = add_player(store.engine, "casual")
    add_table(store.engine, "u", "kingdom-of-dice", [("human", pid), ("bot", "greedy")], rated=False)
    finish(store.engine, "u", "kingdom-of-dice", [1, 2], [30, 20])
    for n, score in enumerate([40, 50, 60]):
        add_table(store.engine, f"s{n}", "kingdom-of-dice", [("human", pid)], rated=True,
                  options=json.dumps({"cat_level": 2 if n else 1}))
        finish(store.engine, f"s{n}", "kingdom-of-dice", [1], [score])
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(RatingRow)).scalar() == 0
        assert conn.execute(select(func.count()).select_from(ResultRow)).scalar() == 5
        assert not any(conn.execute(select(ResultRow.rated)).scalars())
    assert ratings.solo_scores(store.engine, pid) == [
        {"game": "kingdom-of-dice", "level": "1", "tables": 1, "best": 40, "average": 40.0},
        {"game": "kingdom-of-dice", "level": "2", "tables": 2, "best": 60, "average": 55.0}]
    assert ratings.played(store.engine, pid) == {"kingdom-of-dice": {"played": 4, "won": 4}}


def test_two_writers_of_the_last_action_write_the_results_once(store):
    """Two processes appending the same last action: one wins the (table, seq) race, only it writes."""
    pid = add_player(store.engine, "racer")
    add_table(store.engine, "r", "kingdom-of-dice", [("human", pid), ("human", None)])
    calls = []

    def writer(conn):
        calls.append(1)
        ratings.finish_table(conn, "r", "kingdom-of-dice", [1, 2], [5, 4])

    store.append("r", 1, 0, "x", "seat", False, status="over", finish=writer)
    with pytest.raises(store_mod.Conflict):
        store.append("r", 1, 1, "y", "seat", False, status="over", finish=writer)
    assert calls == [1]
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(ResultRow)).scalar() == 2


# ------------------------------------------------------------------ the bots' data file
def test_the_shipped_bot_ratings_are_valid_and_say_how_they_were_measured():
    data = json.loads((ratings.resources.files("dicetable.server") / "data" / ratings.BOT_RATINGS_FILE)
                      .read_text())
    assert "benchmarks/bot_ratings.py" in data["source"]
    table = ratings.bot_ratings()
    assert set(table) == set(GAMES)
    for game in GAMES:
        assert {"random", "greedy"} <= set(table[game])
        assert table[game]["greedy"].mu > table[game]["random"].mu  # greedy beats random in every game


@pytest.mark.parametrize("change, words", [
    (lambda d: d.pop("source"), "source"),
    (lambda d: d.update(model="TrueSkill"), "PlackettLuce"),
    (lambda d: d["ratings"].update({"chess": {}}), "unknown game 'chess'"),
    (lambda d: d["ratings"]["kingdom-of-dice"].update({"grandmaster": {"mu": 1, "sigma": 1, "games": 1}}),
     "unknown bot level"),
    (lambda d: d["ratings"]["kingdom-of-dice"]["greedy"].update(sigma=0), "sigma must be"),
    (lambda d: d["ratings"]["kingdom-of-dice"]["greedy"].update(mu=float("nan")), "mu must be"),
    (lambda d: d["ratings"]["kingdom-of-dice"]["greedy"].update(games=0), "games must be"),
])
def test_a_wrong_bot_ratings_file_is_refused_naming_the_problem(change, words):
    data = {"source": "a test", "model": "PlackettLuce",
            "ratings": {"kingdom-of-dice": {"greedy": {"mu": 30.0, "sigma": 2.0, "games": 10}}}}
    assert ratings.check_bot_ratings(data, GAMES, LEVELS)["kingdom-of-dice"]["greedy"].mu == 30.0
    change(data)
    with pytest.raises(ValueError, match=words):
        ratings.check_bot_ratings(data, GAMES, LEVELS)


def test_displayed_rating_is_the_scaled_ordinal():
    assert ratings.display(25, 25 / 3) == 1500  # a new account
    assert ratings.display(30, 2) == 1500 + 20 * 24


# ------------------------------------------------------------------ through the API
def play_rated(client, names: list[str], game: str = "dice-kingdoms-of-valeria", seed: int = 3) -> str:
    """Create a table of len(names) human seats, give them to the accounts ``names``, mark it rated, play it out."""
    engine = client.app.state.manager.store.engine
    with engine.connect() as conn:
        ids = [conn.execute(select(PlayerRow.id).where(PlayerRow.name == n)).scalar_one() for n in names]
    made = create(client, game, ["human"] * len(names), seed=seed)
    tid = made["table_id"]
    with engine.begin() as conn:
        conn.execute(update(TableRow).where(TableRow.id == tid).values(rated=True))
        for seat, pid in enumerate(ids):
            conn.execute(update(SeatRow).where(SeatRow.table_id == tid, SeatRow.seat == seat).values(player_id=pid))
    view, _ = drive(client, tid, tokens_of(made), seed=seed)
    assert view["over"]
    return tid


def test_a_rated_three_player_table_updates_three_ratings_and_the_leaderboard(db_url, monkeypatch):
    monkeypatch.setattr(ratings, "MIN_GAMES", 1)
    with TestClient(create_site(db_url)) as client:
        engine = client.app.state.manager.store.engine
        for name in ("Ada", "Bea", "Cyd"):
            add_player(engine, name, token=f"tok-{name}")
        assert client.get("/api/leaderboard/dice-kingdoms-of-valeria").json() == []
        tid = play_rated(client, ["Ada", "Bea", "Cyd"])
        with engine.connect() as conn:
            results = conn.execute(select(ResultRow).where(ResultRow.table_id == tid)
                                   .order_by(ResultRow.seat)).all()
        assert [r.rated for r in results] == [True] * 3
        state = run_replay(client.get(f"/api/tables/{tid}/record").json())
        assert [r.place for r in results] == list(places(state))  # the rulebook's places
        board = client.get("/api/leaderboard/dice-kingdoms-of-valeria").json()
        assert sorted(e["name"] for e in board) == ["Ada", "Bea", "Cyd"]
        assert [e["rating"] for e in board] == sorted((e["rating"] for e in board), reverse=True)
        for name, r in zip(("Ada", "Bea", "Cyd"), results):
            me = client.get(f"/api/players/{name.lower()}").json()  # names are found case-insensitively
            assert me["name"] == name
            rating = me["ratings"]["dice-kingdoms-of-valeria"]
            assert rating["games"] == 1 and rating["wins"] == (r.place == 1)
            assert rating["mu"] == pytest.approx(r.mu_after) and rating["mu"] != 25.0
            assert rating["rating"] == ratings.display(rating["mu"], rating["sigma"])
            assert me["recent"] == [{"table_id": tid, "game": "dice-kingdoms-of-valeria", "place": r.place,
                                     "over": me["recent"][0]["over"]}]
            over = datetime.fromisoformat(me["recent"][0]["over"])
            assert over.utcoffset() == timedelta(0), "a time says its zone (UTC), on SQLite too"
            assert next(e for e in board if e["name"] == name) == {"name": name, "rating": rating["rating"],
                                                                   "games": 1}
        # a reload of the finished table (another process, a restart) writes nothing again
        manager = client.app.state.manager
        manager.tables.pop(tid)
        assert manager.get(tid).status == "over"
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(ResultRow)).scalar() == 3
            assert conn.execute(select(func.sum(RatingRow.games))).scalar() == 3
        page = client.get("/players/Ada")
        assert page.status_code == 200
        assert "<svg" in page.text and f"/tables/{tid}/replay" in page.text and "Dice Kingdoms" in page.text
        assert "Ada" in client.get("/leaderboard/dice-kingdoms-of-valeria").text


def test_unknown_players_and_games_are_404(client):
    r = client.get("/api/players/nobody")
    assert r.status_code == 404 and "nobody" in r.json()["detail"]
    r = client.get("/api/leaderboard/chess")
    assert r.status_code == 404 and "kingdom-of-dice" in r.json()["detail"]
    assert client.get("/players/nobody").status_code == 404
    assert client.get("/leaderboard/chess").status_code == 404


def test_a_deleted_player_shows_in_old_results_under_its_new_name(sqlite_url):
    with TestClient(create_site(sqlite_url)) as client:
        engine = client.app.state.manager.store.engine
        pid = add_player(engine, "Gone")
        add_table(engine, "old1", "kingdom-of-dice", [("human", pid), ("bot", "greedy")])
        finish(engine, "old1", "kingdom-of-dice", [1, 2], [30, 10])
        with engine.begin() as conn:  # what deleting an account does to its row
            conn.execute(update(PlayerRow).where(PlayerRow.id == pid)
                         .values(deleted=True, name="deleted player 1", name_key="deleted player 1",
                                 password_hash=None))
        assert client.get("/api/players/Gone").status_code == 404
        me = client.get("/api/players/deleted player 1").json()
        assert me["name"] == "deleted player 1"
        assert [r["table_id"] for r in me["recent"]] == ["old1"]
        assert "deleted player 1" in client.get("/players/deleted player 1").text
        with engine.begin() as conn:
            conn.execute(update(RatingRow).values(games=10))
        assert client.get("/api/leaderboard/kingdom-of-dice").json() == []  # deleted accounts are not listed


def test_a_name_with_markup_shows_as_text(sqlite_url, monkeypatch):
    monkeypatch.setattr(ratings, "MIN_GAMES", 1)
    name = '<b onmouseover="x()">Eve&co'  # no "/": a name is one segment of the page's address
    with TestClient(create_site(sqlite_url)) as client:
        engine = client.app.state.manager.store.engine
        pid = add_player(engine, name)
        add_table(engine, "m1", "kingdom-of-dice", [("human", pid), ("bot", "greedy")])
        finish(engine, "m1", "kingdom-of-dice", [1, 2], [30, 10])
        for url in (f"/players/{quote(name)}", "/leaderboard/kingdom-of-dice"):
            page = client.get(url).text
            assert "<b onmouseover" not in page
            assert "&lt;b onmouseover=&#34;x()&#34;&gt;Eve&amp;co" in page


def test_the_rating_chart_is_plain_svg_with_one_point_per_rated_table():
    import re
    from datetime import timezone

    from dicetable.web.players import chart

    day = datetime(2026, 12, 4, tzinfo=timezone.utc)
    svg = chart([(day, 1500), (day, 1560), (day, 1530)], 'Eve <script>"')
    assert svg.startswith("<svg") and svg.count("<circle") == 3
    assert "<script>" not in svg and "Eve &lt;script&gt;&quot;" in svg
    ys = [float(y) for y in re.findall(r'<circle cx="[\d.]+" cy="([\d.]+)"', svg)]
    assert ys[1] < ys[2] < ys[0]  # a higher rating is drawn higher (SVG's y grows downwards)
    assert chart([], "none") == ""


def test_results_that_the_database_refuses_never_cost_the_last_move(store):
    add_table(store.engine, "bad", "kingdom-of-dice", [("human", None), ("human", None)])

    def refused(conn):
        conn.execute(insert(ResultRow).values(table_id="no-such-table", seat=0, game="x", place=1, rated=False,
                                              finished=store_mod.now()))

    store.append("bad", 1, 0, "x", "seat", False, status="over", finish=refused)  # stored, no Conflict
    assert store.count_actions("bad") == 1 and store.status("bad") == "over"
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(ResultRow)).scalar() == 0


def test_a_seat_that_forfeited_is_placed_last_in_the_results(store):
    # docs/lobby.md, turn-based play: a seat whose time bank ran out at a forfeit table is placed after
    # every other seat whatever its score; the others keep the rulebook's order among themselves
    from dicetable.engine import Rng, new_game
    from dicetable.engine.testing import random_playout

    state = random_playout(new_game("kingdom-of-dice", 3, seed=11), Rng(5)).state
    by_rules = places(state)
    winner = by_rules.index(1)
    add_table(store.engine, "ff", "kingdom-of-dice", [("human", None)] * 3, rated=False)
    writer = ratings.results_writer("ff", state, forfeited=[winner])
    assert writer is not None
    with store.engine.begin() as conn:
        writer(conn)
    with store.engine.connect() as conn:
        got = dict(conn.execute(select(ResultRow.seat, ResultRow.place).where(ResultRow.table_id == "ff")).all())
    assert got[winner] == 3
    others = [s for s in range(3) if s != winner]
    assert sorted(got[s] for s in others) == sorted(1 + sum(by_rules[o] < by_rules[s] for o in others)
                                                   for s in others)
    assert min(got[s] for s in others) == 1
