"""Accounts (WEB.md, "Players" contract and "Security"): sign-up, sign-in, sign-out, CSRF, the throttle,
acting for an account's seats, rated tables, a guest keeping seats, deleting an account, an old database.

The contract's codes: ``POST /api/accounts`` 201 ``{"name"}`` / 409 name taken (case-insensitive) / 422;
``POST /api/session`` 200 ``{"name", "token"}`` and a session cookie / 401 / 429; ``DELETE /api/session``
clears the cookie and revokes that sign-in's token.
"""

from __future__ import annotations

import pytest
from alembic import command
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from hypothesis import given, settings, strategies as st
from sqlalchemy import select

from dicetable.server import accounts, store
from dicetable.web import create_site
from dicetable.server.accounts import (
    ADDRESS_FAILURES, DELETED_NAME, PAIR_FAILURES, THROTTLE_WINDOW, SignInThrottle, check_name, csrf_token,
)
from dicetable.server.csrf import csrf_refusal
from dicetable.server.errors import ApiError
from dicetable.server.identity import SESSION_COOKIE
from dicetable.server.models import PlayerRow, PlayerTokenRow, SeatRow, SignInFailureRow

from .helpers import auth, create, drive, tokens_of
from .test_migrations import BEFORE_PLAYERS, _run

PASSWORD = "correct horse battery"
GAME = "biblios-dice"


@pytest.fixture(autouse=True)
def quick_hashes(monkeypatch):
    """argon2id with small costs in these tests (the server's defaults take ~0.3 s per hash on this machine)."""
    fast = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    monkeypatch.setattr(accounts, "_hasher", fast)
    monkeypatch.setattr(accounts, "_DUMMY_HASH", fast.hash("nobody's password"))


def sign_up(client, name: str, password: str = PASSWORD) -> None:
    r = client.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    assert r.json() == {"name": name}


def sign_in(client, name: str, password: str = PASSWORD) -> dict:
    """Sign ``client`` in; the headers its cookie-authenticated changes need (the CSRF token)."""
    r = client.post("/api/session", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    csrf = client.get("/api/session").json()["csrf"]
    assert csrf == csrf_token(r.json()["token"])
    return {"X-CSRF-Token": csrf}


def engine_of(client):
    return client.app.state.manager.store.engine


# ---------------------------------------------------------------- names and passwords
@pytest.mark.parametrize("name", ["alice", "Bob_2", "zoë", "Dmitri.K", "漢字かな", "Олег", "a-b-c"])
def test_names_that_are_allowed(name):
    assert check_name(name) == name


@pytest.mark.parametrize("name, why", [
    ("ab", "3 to 24"), ("x" * 25, "3 to 24"), ("a b", "a space"), ("ali\u200bce", "invisible"),
    ("ali\u0007ce", "control"), ("\u3164\u3164\u3164", "compatibility"), ("Ａlice", "compatibility"),
    ("\u0430lice", "several scripts"), ("<b>bold</b>", "'<'"), ("_alice", "starts and ends"),
    ("al..ice", "one separator"), ("Player 2".replace(" ", ""), "kept"), ("deleted-player", "kept"),
    ("Deleted.Player", "kept"), ("hardbot", "kept"), ("greedy", "kept"), ("guest", "kept"),
])
def test_names_that_are_refused_say_why_and_what_is_allowed(name, why):
    with pytest.raises(ApiError) as caught:
        check_name(name)
    assert caught.value.status == 422
    assert why in caught.value.detail


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=30))
def test_an_allowed_name_is_plain_visible_text(name):
    """Whatever passes shows no markup, space, control or invisible character, and names one key."""
    try:
        check_name(name)
    except ApiError as exc:
        assert exc.status == 422 and "name" in exc.detail
        return
    assert 3 <= len(name) <= 24
    assert not set(name) & set("<>&\"' \t\r\n\u200b\u200c\u200d\u2060\ufeff")
    assert name.casefold() == accounts.name_key(name) and len(accounts.name_key(name)) <= 24  # fits name_key


def test_a_name_that_folds_longer_than_the_limit_is_refused_not_stored(client):
    r = client.post("/api/accounts", json={"name": "ß" * 13, "password": PASSWORD})  # folds to 26 letters
    assert r.status_code == 422 and "folded" in r.json()["detail"]
    assert client.post("/api/accounts", json={"name": "ß" * 12, "password": PASSWORD}).status_code == 201
    r = client.post("/api/accounts", json={"name": "SS" * 12, "password": PASSWORD})
    assert r.status_code == 409  # "ßß…" and "SSSS…" are one name


def test_sign_up_answers_the_contract(client):
    sign_up(client, "Alice")
    r = client.post("/api/accounts", json={"name": "ALICE", "password": PASSWORD})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    r = client.post("/api/accounts", json={"name": "Bob", "password": "short"})
    assert r.status_code == 422 and "10 to 200 characters" in r.json()["detail"]
    r = client.post("/api/accounts", json={"name": "Bob", "password": "bob" * 0 + "BOBBOBBOBB"})
    assert r.status_code == 201  # a password merely containing the name is allowed
    r = client.post("/api/accounts", json={"name": "carolcarol", "password": "CarolCarol"})
    assert r.status_code == 422 and "may not be the account's name" in r.json()["detail"]
    r = client.post("/api/accounts", json={"name": "a<b>", "password": PASSWORD})
    assert r.status_code == 422 and "letters and digits" in r.json()["detail"]
    with engine_of(client).connect() as conn:
        row = conn.execute(select(PlayerRow).where(PlayerRow.name_key == "alice")).one()
    assert row.name == "Alice" and row.password_hash.startswith("$argon2id$")
    assert PASSWORD not in row.password_hash


# ---------------------------------------------------------------- sign-in, the cookie, sign-out
def test_sign_in_sets_the_session_cookie_and_sign_out_revokes_it(client):
    sign_up(client, "Alice")
    assert client.post("/api/session", json={"name": "alice", "password": "wrong password"}).status_code == 401
    assert client.post("/api/session", json={"name": "nobody", "password": PASSWORD}).status_code == 401
    r = client.post("/api/session", json={"name": "aLiCe", "password": PASSWORD})
    assert r.status_code == 200 and set(r.json()) == {"name", "token"} and r.json()["name"] == "Alice"
    token = r.json()["token"]
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}={token};")
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Secure" not in cookie
    assert client.get("/api/session").json()["name"] == "Alice"
    # the token also works as a Bearer token for programs
    fresh = TestClient(client.app)
    assert fresh.get("/api/session", headers=auth(token)).json() == {"name": "Alice", "kind": "session",
                                                                    "csrf": None}
    headers = {"X-CSRF-Token": csrf_token(token)}
    r = client.delete("/api/session", headers=headers)
    assert r.status_code == 200 and 'dicetable_session=""' in r.headers["set-cookie"]
    assert client.get("/api/session").json()["name"] is None
    assert fresh.get("/api/session", headers=auth(token)).json()["name"] is None  # revoked, not only forgotten
    with engine_of(client).connect() as conn:
        assert conn.execute(select(PlayerTokenRow)).all() == []


def test_the_cookie_is_secure_over_https(sqlite_url):
    with TestClient(create_site(sqlite_url), base_url="https://testserver") as c:
        sign_up(c, "Alice")
        r = c.post("/api/session", json={"name": "Alice", "password": PASSWORD})
        assert r.status_code == 200 and "Secure" in r.headers["set-cookie"]


def test_twenty_wrong_passwords_are_throttled(client):
    sign_up(client, "Alice")
    codes = [client.post("/api/session", json={"name": "Alice", "password": f"wrong guess {n}"}).status_code
             for n in range(20)]
    assert codes[:PAIR_FAILURES] == [401] * PAIR_FAILURES
    assert set(codes[PAIR_FAILURES:]) == {429}
    r = client.post("/api/session", json={"name": "ALICE", "password": PASSWORD})  # even the right one waits
    assert r.status_code == 429 and 0 < int(r.headers["Retry-After"]) <= THROTTLE_WINDOW + 1
    assert "try again in about 15 minutes" in r.json()["detail"]


def test_the_throttle_counts_per_address_too_and_forgets_after_its_window(sqlite_url):
    t = [0.0]
    engine = store.Store(sqlite_url).engine
    throttle = SignInThrottle(engine, clock=lambda: t[0])
    for n in range(ADDRESS_FAILURES):  # one address trying many names
        assert throttle.retry_after(f"name{n}", "10.0.0.1") == (0, None)
        throttle.failed(f"name{n}", "10.0.0.1")
    assert throttle.retry_after("someone", "10.0.0.1") == (THROTTLE_WINDOW + 1, "address")
    assert throttle.retry_after("someone", "10.0.0.2") == (0, None)
    t[0] = THROTTLE_WINDOW + 1
    assert throttle.retry_after("someone", "10.0.0.1") == (0, None)
    quiet = SignInThrottle(engine, per_address=False, clock=lambda: t[0])  # DICETABLE_LIMITS=off: pairs count
    for _ in range(PAIR_FAILURES):
        quiet.failed("alice", "x")
    assert quiet.retry_after("Alice", "x")[1] == "pair"
    assert quiet.retry_after("Alice", "y") == (0, None)  # from elsewhere the player still signs in
    with engine.connect() as conn:
        keys = conn.execute(select(SignInFailureRow.key)).scalars().all()
    assert len(keys) == 2 * PAIR_FAILURES, "the failures past the window were deleted (a pair and a name row each)"
    assert not any("alice" in k or "10.0.0" in k for k in keys), "names and addresses tried are stored hashed"


def test_two_server_processes_share_the_throttle(db_url):
    """Two apps on one database (two worker processes): wrong passwords sent to either count together."""
    with TestClient(create_site(db_url)) as one, TestClient(create_site(db_url)) as two:
        sign_up(one, "Alice")
        codes = [(one if n % 2 else two).post("/api/session", json={"name": "Alice", "password": f"wrong {n}"})
                 .status_code for n in range(PAIR_FAILURES + 2)]
    assert codes == [401] * PAIR_FAILURES + [429, 429]


# ---------------------------------------------------------------- CSRF
def test_a_cross_site_form_post_is_refused(client):
    sign_up(client, "Alice")
    sign_in(client, "Alice")
    before = client.get("/api/tables").json()["total"]
    form = {"game": GAME, "players": "2"}
    r = client.post("/api/tables", data=form, headers={"Origin": "https://evil.example",
                                                       "Sec-Fetch-Site": "cross-site"})
    assert r.status_code in (403, 415)  # the JSON-only rule answers first (415); the CSRF guard is under it
    # the CSRF guard alone refuses it too: a form post carrying the sign-in cookie and no CSRF token
    scope = {"type": "http", "method": "POST", "path": "/api/tables", "headers": [
        (b"content-type", b"application/x-www-form-urlencoded"), (b"host", b"testserver"),
        (b"cookie", f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}".encode())]}
    assert "X-CSRF-Token" in csrf_refusal(scope)
    scope["headers"].append((b"origin", b"https://evil.example"))
    assert "another site" in csrf_refusal(scope)
    # and a JSON post from another site's page, even one that knew the token, is refused
    r = client.post("/api/tables", json={"game": GAME, "players": 2},
                    headers={"Origin": "https://evil.example", "X-CSRF-Token": csrf_token(client.cookies[SESSION_COOKIE])})
    assert r.status_code == 403 and "another site" in r.json()["detail"]
    r = client.delete("/api/session", headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    assert client.get("/api/session").json()["name"] == "Alice"  # still signed in
    assert client.get("/api/tables").json()["total"] == before


def test_cookie_changes_need_the_csrf_token(client):
    sign_up(client, "Alice")
    headers = sign_in(client, "Alice")
    body = {"game": GAME, "players": 2, "seats": [{"kind": "human", "player": "Alice"}, {"kind": "bot",
                                                                                          "level": "random"}]}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"]
    assert client.post("/api/tables", json=body, headers={"X-CSRF-Token": "0" * 32}).status_code == 403
    assert client.post("/api/tables", json=body, headers=headers).status_code == 201
    # a guest (no cookie) is not asked for one
    assert TestClient(client.app).post("/api/tables", json={"game": GAME, "players": 2}).status_code == 201


# ---------------------------------------------------------------- seats of accounts
def _two_player_table(client, headers, seats):
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "seats": seats}, headers=headers)
    assert r.status_code == 201, r.text
    return r.json()


def test_a_signed_in_player_acts_for_their_seat_and_never_for_anothers(client):
    alice, bob, carol = client, TestClient(client.app), TestClient(client.app)
    for c, name in ((alice, "Alice"), (bob, "Bob"), (carol, "Carol")):
        sign_up(c, name)
    h_alice, h_bob, h_carol = sign_in(alice, "Alice"), sign_in(bob, "Bob"), sign_in(carol, "Carol")
    made = _two_player_table(alice, h_alice, [{"kind": "human", "player": "alice"},
                                              {"kind": "human", "player": "Bob"}])
    table = made["table_id"]
    mine, bobs = made["seats"]
    assert mine["player"] == "Alice" and "token" in mine and "#invite" not in mine["link"]
    assert bobs["player"] == "Bob" and "token" not in bobs  # Bob's seat is his: its creator gets no token
    views = {name: c.get(f"/api/tables/{table}").json() for name, c in (("a", alice), ("b", bob), ("c", carol))}
    assert (views["a"]["seat"], views["b"]["seat"], views["c"]["seat"]) == (0, 1, None)
    # Carol holds no seat here: she may watch (over HTTP and live), not act
    with carol.websocket_connect(f"/api/tables/{table}/live",
                                 headers={"cookie": f"{SESSION_COOKIE}={carol.cookies[SESSION_COOKIE]}"}) as ws:
        assert ws.receive_json()["seat"] is None
    act = {"action": views["a"]["legal_actions"][0]["id"] if views["a"]["legal_actions"] else "x",
           "version": views["a"]["version"]}
    r = carol.post(f"/api/tables/{table}/actions", json=act, headers=h_carol)
    assert r.status_code == 403 and "no seat" in r.json()["detail"]
    # Alice may not take Bob's seat, nor hand it to a bot
    assert alice.post(f"/api/tables/{table}/seats/1/bot", json={}, headers=h_alice).status_code == 403
    # each acts for their own seat (with the cookie, or an API token as Bearer) until the game ends
    api = bob.post("/api/account/tokens", headers=h_bob)
    assert api.status_code == 201 and api.json()["kind"] == "api"
    callers = {0: (alice, h_alice), 1: (TestClient(client.app), auth(api.json()["token"]))}
    refused = 0
    for _ in range(400):
        view = alice.get(f"/api/tables/{table}").json()
        if view["over"]:
            break
        seat = view["to_move"][0]
        c, h = callers[seat]
        mover = c.get(f"/api/tables/{table}", headers=h).json()
        assert mover["seat"] == seat
        if 1 - seat not in view["to_move"]:  # the other account acts for its own seat only: not its move
            other, oh = callers[1 - seat]
            r = other.post(f"/api/tables/{table}/actions", headers=oh,
                           json={"action": mover["legal_actions"][0]["id"], "version": mover["version"]})
            assert r.status_code in (403, 409, 422), r.text
            refused += 1
        r = c.post(f"/api/tables/{table}/actions", headers=h,
                   json={"action": mover["legal_actions"][0]["id"], "version": mover["version"]})
        assert r.status_code == 200, r.text
    assert view["over"] and refused > 0
    record = alice.get(f"/api/tables/{table}/record").json()
    assert {seat for seat, _action in record["actions"]} == {0, 1}  # [seat, action id] pairs


def test_rated_tables_need_named_seats_and_their_open_seats_go_to_signed_in_players(client):
    sign_up(client, "Alice")
    headers = sign_in(client, "Alice")
    bob, guest = TestClient(client.app), TestClient(client.app)
    sign_up(bob, "Bob")
    me, anon = {"kind": "human", "player": "Alice"}, {"kind": "human"}
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "rated": True, "seats": [me, anon]},
                    headers=headers)
    assert r.status_code == 422 and "every human seat" in r.json()["detail"] and "1" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "rated": True,
                                         "seats": [me, {"kind": "human", "player": "Bob"}]}, headers=headers)
    assert r.status_code == 201, "WEB.md: every human seat names a player (rated only once Bob joins it)"
    # a listed rated table: the open seat has an invite, no token for the creator, and goes to a signed-in player
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "rated": True, "listed": True,
                                         "seats": [me, anon]}, headers=headers)
    assert r.status_code == 201
    table, open_seat = r.json()["table_id"], r.json()["seats"][1]
    assert "token" not in open_seat, "the creator cannot play the open seat of a rated table"
    invite = open_seat["link"].split("#invite=")[1]
    r = guest.post(f"/api/tables/{table}/claim", json={"invite": invite})
    assert r.status_code == 403 and "sign in" in r.json()["detail"]
    h_bob = sign_in(bob, "Bob")
    r = bob.post(f"/api/tables/{table}/claim", json={"invite": invite}, headers=h_bob)
    assert r.status_code == 200 and r.json()["seat"] == 1
    seats = guest.get(f"/api/tables/{table}").json()["seats"]
    assert [s["name"] for s in seats] == ["Alice", "Bob"], "the player who took the seat is shown by name"
    assert bob.get(f"/api/tables/{table}").json()["seat"] == 1, "Bob's sign-in acts for it"
    bot = {"kind": "bot", "level": "random"}
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "rated": True, "seats": [me, bot],
                                         "seed": 5}, headers=headers)
    assert r.status_code == 422 and "seed" in r.json()["detail"]
    # Biblios Dice's Hidden Objective Variant is an option (default off): not the standard game
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "rated": True, "seats": [me, bot],
                                         "options": {"hidden_objectives": True}}, headers=headers)
    assert r.status_code == 422 and "standard options" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "rated": True, "seats": [me, bot],
                                         "options": {"hidden_objectives": False}}, headers=headers)
    assert r.status_code == 201  # the defaults spelled out are the standard game
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "rated": True, "seats": [me, bot]},
                    headers=headers)
    assert r.status_code == 201
    with engine_of(client).connect() as conn:
        from dicetable.server.models import TableRow
        assert conn.execute(select(TableRow.rated).where(TableRow.id == r.json()["table_id"])).scalar_one()
    r = client.post("/api/tables", json={"game": GAME, "players": 2, "seats": [me, {"kind": "human",
                                                                                    "player": "nobody1"}]},
                    headers=headers)
    assert r.status_code == 422 and "no player 'nobody1'" in r.json()["detail"]
    guest = TestClient(client.app)
    r = guest.post("/api/tables", json={"game": GAME, "players": 2, "seats": [me, bot]})
    assert r.status_code == 401 and "signed in" in r.json()["detail"]
    r = guest.post("/api/tables", json={"game": GAME, "players": 2, "seats": [me, bot], "rated": "yes"})
    assert r.status_code == 422


def test_a_guest_who_signs_up_keeps_their_seats(client):
    made = create(client, GAME, ["human", "human"])
    tokens = tokens_of(made)
    sign_up(client, "Alice")
    headers = sign_in(client, "Alice")
    r = client.post("/api/account/seats", json={"tokens": list(tokens.values())}, headers=headers)
    assert r.status_code == 200
    # one seat per player per table: of this hot-seat table's two seats, the account takes the first
    assert r.json()["seats"] == [{"table_id": made["table_id"], "seat": 0}]
    view = client.get(f"/api/tables/{made['table_id']}").json()  # the cookie alone now finds the seat
    assert view["seat"] == 0 and view["to_move"] == [0]
    assert client.post(f"/api/tables/{made['table_id']}/actions", headers=headers,
                       json={"action": view["legal_actions"][0]["id"], "version": view["version"]}).status_code == 200
    with client.websocket_connect(f"/api/tables/{made['table_id']}/live",
                                  headers={"cookie": f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"}) as ws:
        first = ws.receive_json()
        assert first["type"] == "view" and first["seat"] in (0, 1)  # the live view is the account's seat's too
    # the seat tokens keep working for the page and API clients
    assert client.get(f"/api/tables/{made['table_id']}", headers=auth(tokens[1])).json()["seat"] == 1
    # a seat taken in the database behind this process's back (another server process) is found too
    later = create(TestClient(client.app), GAME, ["human", "random"])  # made by a guest
    assert client.get(f"/api/tables/{later['table_id']}").json()["seat"] is None  # loaded, not held yet
    me = accounts.Accounts(engine_of(client)).player_id("alice")
    assert accounts.Accounts(engine_of(client)).attach(me, [later["seats"][0]["token"]]) == [(later["table_id"], 0)]
    assert client.get(f"/api/tables/{later['table_id']}").json()["seat"] == 0
    # someone else's account cannot take seats already held: of the two, Bob gets only seat 1, still free
    other = TestClient(client.app)
    sign_up(other, "Bob")
    h_bob = sign_in(other, "Bob")
    assert other.post("/api/account/seats", json={"tokens": list(tokens.values())},
                      headers=h_bob).json()["seats"] == [{"table_id": made["table_id"], "seat": 1}]


def test_deleting_an_account_keeps_its_finished_games_replayable(client):
    sign_up(client, "Alice")
    headers = sign_in(client, "Alice")
    made = _two_player_table(client, headers, [{"kind": "human", "player": "Alice"}, {"kind": "bot",
                                                                                       "level": "random"}])
    table = made["table_id"]
    drive(client, table, {0: made["seats"][0]["token"]})
    api = client.post("/api/account/tokens", headers=headers).json()["token"]
    r = client.request("DELETE", "/api/account", json={"password": "not my password"}, headers=headers)
    assert r.status_code == 403 and "nothing was deleted" in r.json()["detail"]
    r = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=headers)
    assert r.status_code == 200 and r.json() == {"deleted": "Alice"}
    assert client.get("/api/session").json()["name"] is None
    fresh = TestClient(client.app)
    assert fresh.get("/api/session", headers=auth(api)).json()["name"] is None
    assert fresh.post("/api/session", json={"name": "Alice", "password": PASSWORD}).status_code == 401
    with engine_of(client).connect() as conn:
        row = conn.execute(select(PlayerRow)).one()
        assert (row.name, row.password_hash, row.email, row.deleted) == (DELETED_NAME, None, None, True)
        assert conn.execute(select(PlayerTokenRow)).all() == []
        assert conn.execute(select(SeatRow.name).where(SeatRow.table_id == table, SeatRow.seat == 0)
                            ).scalar_one() == DELETED_NAME
    record = fresh.get(f"/api/tables/{table}/record")
    assert record.status_code == 200
    assert fresh.get(f"/tables/{table}/replay").status_code == 200
    assert fresh.get(f"/web/tables/{table}/replay/{len(record.json()['actions'])}").status_code == 200
    assert fresh.get(f"/api/tables/{table}").json()["seats"][0]["name"] == DELETED_NAME
    sign_up(fresh, "Alice")  # the name is free again


def test_a_seat_name_cannot_pass_for_a_registered_player(client):
    sign_up(client, "Alice")
    guest = TestClient(client.app)
    for name in ("Alice", "alice", " ALICE "):
        r = guest.post("/api/tables", json={"game": GAME, "players": 2, "seats": [
            {"kind": "human", "name": name}, {"kind": "bot", "level": "random"}]})
        assert r.status_code == 422 and "looks like, the registered player 'Alice'" in r.json()["detail"], name
    r = guest.post("/api/tables", json={"game": GAME, "players": 2, "seats": [
        {"kind": "human", "name": "Alice's friend"}, {"kind": "bot", "level": "random"}]})
    assert r.status_code == 201 and r.json()["seats"][0]["name"] == "Alice's friend"


def test_an_accounts_token_watches_a_table_where_it_holds_no_seat(client):
    """docs/accounts.md: a table where the account holds no seat is shown as a spectator's view, with
    the API token as with the sign-in cookie; acting there is refused."""
    sign_up(client, "Carol")
    token = client.post("/api/account/tokens", headers=sign_in(client, "Carol")).json()["token"]
    made = create(TestClient(client.app), GAME, ["human", "human"])
    table = made["table_id"]
    program = TestClient(client.app)
    r = program.get(f"/api/tables/{table}", headers=auth(token))
    assert r.status_code == 200 and r.json()["seat"] is None and r.json()["legal_actions"] == []
    assert client.get(f"/api/tables/{table}").json()["seat"] is None, "the same with the cookie"
    r = program.post(f"/api/tables/{table}/actions", json={"action": "x", "version": 0}, headers=auth(token))
    assert r.status_code == 403 and "no seat" in r.json()["detail"]
    assert program.get(f"/api/tables/{table}", headers=auth("not-a-token-of-anyone")).status_code == 403


@pytest.mark.parametrize("evicted", [False, True], ids=["in-memory", "evicted"])
def test_a_deleted_accounts_seat_at_a_running_table_is_played_by_its_bot(client, evicted):
    alice, bob = client, TestClient(client.app)
    sign_up(alice, "Alice")
    sign_up(bob, "Bob")
    h_alice = sign_in(alice, "Alice")
    bobs_token = bob.post("/api/account/tokens", headers=sign_in(bob, "Bob")).json()["token"]
    made = _two_player_table(alice, h_alice, [{"kind": "human", "player": "Alice"},
                                              {"kind": "human", "player": "Bob"}])
    table = made["table_id"]
    m = client.app.state.manager
    view = alice.get(f"/api/tables/{table}").json()
    assert view["seat"] == 0 and view["legal_actions"], "Alice is to move"
    if evicted:
        assert m.evict_idle(older=-1.0) == [table]
    r = alice.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=h_alice)
    assert r.status_code == 200
    last, bobs_actions = drive(TestClient(client.app), table, {1: bobs_token})
    assert last["over"] and bobs_actions > 0, "her bot played her seat to the end while Bob played his"
    seats = bob.get(f"/api/tables/{table}").json()["seats"]
    assert seats[0]["name"] == DELETED_NAME and seats[0]["level"] is not None, "shown as a bot-played seat"
    assert seats[1]["name"] == "Bob"
    with engine_of(client).connect() as conn:
        assert conn.execute(select(SeatRow.autoplay).where(SeatRow.table_id == table, SeatRow.seat == 0)
                            ).scalar_one() is True


# ---------------------------------------------------------------- a database from before accounts
def test_a_database_from_before_accounts_upgrades_and_its_tables_play_and_replay(db_url):
    with TestClient(create_site(db_url)) as c:  # tables made by the server of that release (no account columns)
        running = create(c, GAME, ["human", "random"])
        over = create(c, GAME, ["human", "random"])
        drive(c, over["table_id"], tokens_of(over))
    engine = store.make_engine(db_url)
    try:
        _run(engine, command.downgrade, BEFORE_PLAYERS)  # the database as the release before accounts left it
    finally:
        engine.dispose()
    with TestClient(create_site(db_url)) as c:  # upgrades on start
        final, _ = drive(c, running["table_id"], tokens_of(running))
        assert final["over"]
        for made in (running, over):
            r = c.get(f"/api/tables/{made['table_id']}/record")
            assert r.status_code == 200 and r.json()["actions"]
            assert c.get(f"/web/tables/{made['table_id']}/replay/1").status_code == 200
        sign_up(c, "Alice")  # and accounts work on it
        headers = sign_in(c, "Alice")
        kept = c.post("/api/account/seats", json={"tokens": list(tokens_of(over).values())}, headers=headers)
        assert kept.json()["seats"] == [{"table_id": over["table_id"], "seat": 0}]
