"""Rematches (docs/web.md, "Play again with the same seats"): any seat of a finished table starts the
rematch from any browser where it holds the seat (its token, or its account), and every other seat's
holder joins their own seat there. An account's seat goes to that account (it is in their My tables,
nobody else can take it); a guest's seat waits for whoever held it; the new table is not listed.

Found by the new players' test (web25a, finding 1): "Play again (same seats)" on a rated table made a
listed table with the opponent's seat open to anyone, from the creator's browser only.
"""

from __future__ import annotations

from .helpers import auth, create, drive, tokens_of
from .test_accounts import quick_hashes, sign_in, sign_up  # noqa: F401  (quick_hashes is an autouse fixture)
from .test_rated_lobby import PASSWORD, api_token

GAME = "biblios-dice"


def _rated_table_played_out(client) -> tuple[str, dict]:
    for name in ("Alice", "Bob", "Stranger"):
        sign_up(client, name, PASSWORD)
    token = {name: api_token(client, name) for name in ("Alice", "Bob", "Stranger")}
    body = {"game": GAME, "players": 2, "rated": True, "listed": True,
            "seats": [{"kind": "human", "player": "Alice"}, {"kind": "human"}]}
    r = client.post("/api/tables", json=body, headers=auth(token["Alice"]))
    assert r.status_code == 201, r.text
    tid = r.json()["table_id"]
    assert client.post(f"/api/lobby/{tid}/join", json={}, headers=auth(token["Bob"])).status_code == 200
    view, _ = drive(client, tid, {0: token["Alice"], 1: token["Bob"]}, seed=3)
    assert view["over"]
    return tid, token


def test_a_rated_rematch_reseats_both_accounts_and_is_not_open_to_strangers(client):
    tid, token = _rated_table_played_out(client)
    # Bob, the joiner, starts it (from a browser that only has his sign-in)
    r = client.post(f"/api/tables/{tid}/again", headers=auth(token["Bob"]))
    assert r.status_code == 200, r.text
    made = r.json()
    new = made["table_id"]
    assert new != tid and made["seat"] == 1 and made["created"] is True
    assert "token" not in made and made["link"] == f"/tables/{new}"  # his account holds the seat
    # the finished table tells everyone, with who started it
    old = client.get(f"/api/tables/{tid}").json()
    assert old["rematch"] == {"table_id": new, "by": "Bob"}
    # the same people at the same seats, rated, both accounts' seats: each sees the table as theirs
    assert client.get(f"/api/tables/{new}", headers=auth(token["Alice"])).json()["seat"] == 0
    assert client.get(f"/api/tables/{new}", headers=auth(token["Bob"])).json()["seat"] == 1
    assert [s["name"] for s in client.get(f"/api/tables/{new}").json()["seats"]] == ["Alice", "Bob"]
    assert client.app.state.manager.store.is_rated(new)
    mine = client.get("/api/my-tables", headers=auth(token["Alice"])).json()
    assert new in [t["table_id"] for t in mine["tables"]]
    # not in the open lobby, and a stranger cannot take a seat there
    assert new not in [t["table_id"] for t in client.get("/api/lobby").json()["tables"]]
    assert client.post(f"/api/lobby/{new}/join", json={}, headers=auth(token["Stranger"])).status_code != 200
    assert client.post(f"/api/tables/{tid}/again", headers=auth(token["Stranger"])).status_code == 403
    # Alice joins: the same table, her seat, no second rematch
    again = client.post(f"/api/tables/{tid}/again", headers=auth(token["Alice"])).json()
    assert again["table_id"] == new and again["seat"] == 0 and again["created"] is False


def test_a_signed_in_seat_starts_the_rematch_with_its_cookie(client):
    tid, _ = _rated_table_played_out(client)
    headers = sign_in(client, "Alice")
    r = client.post(f"/api/tables/{tid}/again", headers=headers)
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 0 and "token" not in r.json()


def test_guest_seats_each_get_their_own_seat_at_the_rematch(client):
    made = create(client, "kingdom-of-dice", ["human", "human", "greedy"])
    tid, tokens = made["table_id"], tokens_of(made)
    assert client.post(f"/api/tables/{tid}/again", headers=auth(tokens[0])).status_code == 409  # still running
    view, _ = drive(client, tid, tokens, seed=5)
    assert view["over"]
    first = client.post(f"/api/tables/{tid}/again", headers=auth(tokens[1])).json()
    new = first["table_id"]
    assert first["seat"] == 1 and first["link"] == f"/tables/{new}#token={first['token']}"
    second = client.post(f"/api/tables/{tid}/again", headers=auth(tokens[0])).json()
    assert second["table_id"] == new and second["seat"] == 0
    assert client.get(f"/api/tables/{new}", headers=auth(second["token"])).json()["seat"] == 0
    assert client.get(f"/api/tables/{new}", headers=auth(first["token"])).json()["seat"] == 1
    # the finished table's tokens hold no seat at the new one; the bot seat is a bot again
    assert client.get(f"/api/tables/{new}", headers=auth(tokens[0])).status_code == 403
    seats = client.get(f"/api/tables/{new}").json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "human", "bot"] and seats[2]["level"] == "greedy"
    # a spectator is told, but cannot join
    assert client.get(f"/api/tables/{tid}").json()["rematch"]["table_id"] == new
    assert client.post(f"/api/tables/{tid}/again").status_code == 401
