"""The open lobby (issue 28 item 4): listed tables with open seats, filters, one-click seats as a
guest or signed in, the host starting early with bots; a bad filter is a clear 422."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

from sqlalchemy import insert, select

from dicetable.server.ids import hash_token
from dicetable.server.models import PlayerRow, PlayerTokenRow, SeatRow

from .helpers import auth, create, tokens_of

GAME = "kingdom-of-dice"


def add_player(store, name: str, token: str, email: str | None = None, notify: bool = False) -> int:
    """Insert an account (as the accounts work will) with an API token; its id."""
    when = datetime.now(timezone.utc)
    with store.engine.begin() as conn:
        pid = conn.execute(insert(PlayerRow).values(name=name, name_key=name.casefold(), password_hash=None,
                                                    created=when, email=email, notify_email=notify)).inserted_primary_key[0]
        conn.execute(insert(PlayerTokenRow).values(token_hash=hash_token(token), player_id=pid, kind="api",
                                                   created=when))
    return pid


def _listed(client, players=3, **extra) -> tuple[str, dict]:
    made = create(client, GAME, ["human"] * players, listed=True, **extra)
    tokens = tokens_of(made)
    assert client.get(f"/api/tables/{made['table_id']}", headers=auth(tokens[0])).status_code == 200  # host sits
    return made["table_id"], tokens


def _lobby(client, **params) -> list[dict]:
    r = client.get("/api/lobby", params=params)
    assert r.status_code == 200, r.text
    for t in r.json()["tables"]:  # a time says its zone (UTC), on SQLite too
        assert datetime.fromisoformat(t["created"]).utcoffset() == timedelta(0)
    return r.json()["tables"]


def test_a_listed_table_shows_its_open_seats_and_a_stranger_takes_one(client):
    tid, tokens = _listed(client)
    unlisted = create(client, GAME, ["human", "human"])["table_id"]
    rows = {t["table_id"]: t for t in _lobby(client)}
    assert unlisted not in rows, "a table not listed is never in the lobby"
    assert rows[tid]["open_seats"] == [1, 2], "seat 0 was used by the host: only 1 and 2 are open"
    assert [s["open"] for s in rows[tid]["seats"]] == [False, True, True]
    assert rows[tid]["clock"] == "none" and rows[tid]["rated"] is False

    r = client.post(f"/api/lobby/{tid}/join", json={})
    assert r.status_code == 200, r.text
    joined = r.json()
    assert joined["seat"] == 1 and joined["link"] == f"/tables/{tid}#token={joined['token']}"
    view = client.get(f"/api/tables/{tid}", headers=auth(joined["token"])).json()
    assert view["seat"] == 1, "the fresh token holds the seat taken"
    assert client.get(f"/api/tables/{tid}", headers=auth(tokens[1])).status_code == 403, \
        "the creator's copy of the seat's token is revoked, as when an invite is claimed"
    assert _lobby(client)[0]["open_seats"] == [2]

    assert client.post(f"/api/lobby/{tid}/join", json={"seat": 1}).status_code == 409, "seat 1 is taken"
    assert client.post(f"/api/lobby/{tid}/join", json={"seat": 2}).json()["seat"] == 2
    assert tid not in {t["table_id"] for t in _lobby(client)}, "a full table leaves the lobby"
    r = client.post(f"/api/lobby/{tid}/join", json={})
    assert r.status_code == 409 and "no seat is open" in r.json()["detail"]
    r = client.post(f"/api/lobby/{unlisted}/join", json={})
    assert r.status_code == 403 and "not in the open lobby" in r.json()["detail"]


def test_filters_by_game_players_clock_and_rated(client):
    daily, _ = _listed(client, players=2, bank=86400, increment=86400, bank_max=3 * 86400)
    live, _ = _listed(client, players=3, bank=180, increment=10)
    other = create(client, "biblios-dice", ["human", "human"], listed=True)["table_id"]
    ids = lambda **p: {t["table_id"] for t in _lobby(client, **p)}  # noqa: E731
    assert ids() == {daily, live, other}
    assert ids(game=GAME) == {daily, live}
    assert ids(players=3) == {live}
    assert ids(clock="turn-based") == {daily} and ids(clock="daily") == {daily}
    assert ids(clock="live") == {live} and ids(clock="fast") == {live}
    assert ids(clock="none") == {other}
    assert ids(rated=False) == {daily, live, other} and ids(rated=True) == set()
    assert [t["clock_kind"] for t in _lobby(client, game=GAME)] == ["turn-based", "live"], "oldest first"


def test_a_bad_filter_is_a_clear_422(client):
    r = client.get("/api/lobby", params={"clock": "hourly"})
    assert r.status_code == 422
    assert "clock='hourly'" in r.json()["detail"] and "turn-based" in r.json()["detail"] and "daily" in r.json()["detail"]
    r = client.get("/api/lobby", params={"game": "chess"})
    assert r.status_code == 422 and "kingdom-of-dice" in r.json()["detail"]
    r = client.get("/api/lobby", params={"players": "9"})
    assert r.status_code == 422 and "players" in r.json()["detail"]
    r = client.get("/api/lobby", params={"players": "two"})
    assert r.status_code == 422 and "players" in r.json()["detail"]
    r = client.get("/api/lobby", params={"rated": "maybe"})
    assert r.status_code == 422 and "rated" in r.json()["detail"]


def test_a_listed_table_may_not_have_a_chosen_seed_and_on_time_out_needs_a_bank(client):
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "seed": 5, "listed": True})
    assert r.status_code == 422 and "chosen seed" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "on_time_out": "forfeit"})
    assert r.status_code == 422 and "bank" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "bank": 600, "on_time_out": "resign"})
    assert r.status_code == 422


def test_a_signed_in_joiner_holds_the_seat_by_account_and_sees_it_in_my_tables(client):
    store = client.app.state.store
    pid = add_player(store, "Ada", "ada-api-token-0123456789")
    tid, tokens = _listed(client, players=2)
    r = client.post(f"/api/lobby/{tid}/join", json={}, headers=auth("ada-api-token-0123456789"))
    assert r.status_code == 200, r.text
    with store.engine.connect() as conn:
        assert conn.execute(select(SeatRow.player_id).where(SeatRow.table_id == tid, SeatRow.seat == 1)).scalar() == pid
    mine = client.get("/api/my-tables", headers=auth("ada-api-token-0123456789")).json()
    assert mine["player"] == "Ada" and [(t["table_id"], t["seat"]) for t in mine["tables"]] == [(tid, 1)]
    assert mine["tables"][0]["host"] is False, "a seat taken from the lobby is not the host's"
    assert mine["tables"][0]["names"] == ["Player 1", "Ada"], "the joiner's seat shows the account's name"
    assert mine["tables"][0]["rated"] is False
    # no clock: it has waited since the table was made (a moment ago), on nobody's bank
    assert abs(mine["tables"][0]["waiting_since"] - time.time()) < 120 and mine["tables"][0]["deadline"] is None
    r = client.post(f"/api/lobby/{tid}/join", json={}, headers=auth("ada-api-token-0123456789"))
    assert r.status_code == 409
    guest = client.post("/api/my-tables", json={"tokens": [tokens[0]]}).json()
    assert guest["player"] is None and guest["tables"][0]["host"] is True


def test_the_host_starts_early_with_bots_in_the_open_seats(client):
    tid, tokens = _listed(client, players=3)
    stranger = client.post(f"/api/lobby/{tid}/join", json={"seat": 2}).json()["token"]
    r = client.post(f"/api/lobby/{tid}/start", json={"level": "random"}, headers=auth(stranger))
    assert r.status_code == 403 and "host" in r.json()["detail"], "a joiner is not the host"
    r = client.post(f"/api/lobby/{tid}/start", json={"level": "random"}, headers=auth(tokens[0]))
    assert r.status_code == 200 and r.json()["bots"] == [1]
    view = client.get(f"/api/tables/{tid}", headers=auth(tokens[0])).json()
    kinds = [(s["kind"], s.get("level")) for s in view["seats"]]
    assert kinds[1] == ("bot", "random") and kinds[0][0] == kinds[2][0] == "human"
    assert tid not in {t["table_id"] for t in _lobby(client)}
    assert client.post(f"/api/lobby/{tid}/start", json={}, headers=auth(tokens[0])).status_code == 409
