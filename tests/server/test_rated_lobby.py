"""A rated table from the open lobby, end to end through the API (issue 28: accounts, lobby, ratings).

Three players sign up; the host lists a rated three-player table naming only their own seat; a guest
may not take a seat at a rated table (403), two signed-in players may; the game is played out with
the accounts' API tokens, and each of the three ratings changes, as the openskill model computes them
from the rulebook's places (WEB.md, Players: "Ratings change only when a rated table is over").
"""

from __future__ import annotations

from openskill.models import PlackettLuce
from sqlalchemy import select

from dicetable.engine import places, run_replay
from dicetable.server.models import RatingRow, SeatRow

from .helpers import auth, drive
from .test_accounts import quick_hashes, sign_up  # noqa: F401  (quick_hashes is an autouse fixture)

GAME = "biblios-dice"
PASSWORD = "correct horse battery"


def api_token(client, name: str) -> str:
    r = client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    client.cookies.clear()  # act with the token only, as a program would
    return r.json()["token"]


def test_a_rated_listed_table_takes_only_signed_in_players_and_rates_all_three(client):
    names = ["Hostess", "Bram", "Cleo"]
    for name in names:
        sign_up(client, name, PASSWORD)
    token = {name: api_token(client, name) for name in names}
    body = {"game": GAME, "players": 3, "rated": True, "listed": True,
            "seats": [{"kind": "human", "player": "Hostess"}, {"kind": "human"}, {"kind": "human"}]}
    r = client.post("/api/tables", json=body, headers=auth(token["Hostess"]))
    assert r.status_code == 201, r.text
    tid = r.json()["table_id"]
    listed = {t["table_id"]: t for t in client.get("/api/lobby", params={"rated": "true"}).json()["tables"]}
    assert tid in listed and listed[tid]["rated"] is True

    guest = client.post(f"/api/lobby/{tid}/join", json={})
    assert guest.status_code == 403 and "sign in" in guest.json()["detail"]
    for name in ("Bram", "Cleo"):
        r = client.post(f"/api/lobby/{tid}/join", json={}, headers=auth(token[name]))
        assert r.status_code == 200, r.text
    engine = client.app.state.manager.store.engine
    with engine.connect() as conn:
        holders = conn.execute(select(SeatRow.seat, SeatRow.player_id).where(SeatRow.table_id == tid)
                               .order_by(SeatRow.seat)).all()
    assert all(pid is not None for _, pid in holders) and len({pid for _, pid in holders}) == 3

    view, _ = drive(client, tid, {0: token["Hostess"], 1: token["Bram"], 2: token["Cleo"]}, seed=4)
    assert view["over"]
    record = client.get(f"/api/tables/{tid}/record").json()
    ranks = places(run_replay(record))
    model = PlackettLuce()
    fresh = [[model.rating()] for _ in range(3)]
    expected = model.rate(fresh, ranks=list(ranks))
    with engine.connect() as conn:
        got = {row.player_id: (row.mu, row.sigma, row.games)
               for row in conn.execute(select(RatingRow).where(RatingRow.game == GAME))}
    for seat, pid in holders:
        mu, sigma, games = got[pid]
        assert games == 1
        assert abs(mu - expected[seat][0].mu) < 1e-9 and abs(sigma - expected[seat][0].sigma) < 1e-9
