"""What a new players' test found in accounts and names (docs/accounts.md, 2026-12-07):

1. seats a guest's browser holds follow the account it signs in to (not only one it signs up), with the
   rules of taking a seat signed in: one seat per player per table, never at a rated table, never another
   account's seat;
2. the sign-in throttle slows password guessing without letting a stranger lock a named player out;
3. seat names cannot pose as accounts or as the names the tables give (look-alike letters, reserved
   names), and account names cannot be confusable with another account's.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from dicetable.server import accounts, store
from dicetable.server.accounts import NAME_FAILURES, PAIR_FAILURES, THROTTLE_WINDOW, SignInThrottle
from dicetable.server.models import TableRow

from .helpers import auth, create, tokens_of
from .test_accounts import PASSWORD, engine_of, quick_hashes, sign_in, sign_up  # noqa: F401 - quick_hashes: autouse here too

KOD = "kingdom-of-dice"
GAME = "biblios-dice"


def _claim(client, made: dict, seat: int) -> str:
    """Claim ``seat`` of ``made`` by its invite link, as a guest's table page does; the fresh seat token."""
    invite = made["seats"][seat]["link"].split("#invite=")[1]
    r = client.post(f"/api/tables/{made['table_id']}/claim", json={"invite": invite})
    assert r.status_code == 200, r.text
    return r.json()["token"]


# ---------------------------------------------------------------- 1. signing in keeps the browser's seats
def test_a_guest_who_joined_by_link_and_signs_in_keeps_the_seat_on_every_device(client):
    carol_phone = TestClient(client.app)
    sign_up(carol_phone, "carol_t25")
    sign_in(carol_phone, "carol_t25")
    host = TestClient(client.app)
    made = create(host, KOD, ["human", "human", "human"])
    table = made["table_id"]
    browser = TestClient(client.app)  # a guest opens the invite link of seat 1 ...
    token = _claim(browser, made, 1)
    headers = sign_in(browser, "carol_t25")  # ... then signs in to the account carol_t25 had
    r = browser.post("/api/account/seats", json={"tokens": [token]}, headers=headers)
    assert r.status_code == 200 and r.json()["seats"] == [{"table_id": table, "seat": 1}]
    mine = carol_phone.get("/api/my-tables").json()["tables"]
    assert table in {t["table_id"] for t in mine}, "carol's phone lists the table"
    view = carol_phone.get(f"/api/tables/{table}").json()
    assert view["seat"] == 1 and view["seats"][1]["name"] == "carol_t25"  # the seat shows the account's name
    assert view["seats"][1].get("account") is True
    assert browser.get(f"/api/tables/{table}", headers=auth(token)).json()["seat"] == 1  # the token still plays


def test_keeping_seats_takes_one_seat_per_table_never_a_rated_one_nor_anothers(client):
    sign_up(client, "Alice")
    h_alice = sign_in(client, "Alice")
    guest = TestClient(client.app)
    hot = create(guest, GAME, ["human", "human"])  # a hot-seat table: this browser holds both seats
    named = client.post("/api/tables", headers=h_alice, json={"game": GAME, "players": 2, "seats": [
        {"kind": "human", "player": "Alice"}, {"kind": "human"}]}).json()  # Alice sits at seat 0 already
    seat1 = _claim(guest, named, 1)
    rated = create(guest, GAME, ["human", "random"])
    with engine_of(client).begin() as conn:  # a rated table's seat held by a token alone
        conn.execute(update(TableRow).where(TableRow.id == rated["table_id"]).values(rated=True))
    taken = create(guest, GAME, ["human", "random"])
    bob = TestClient(client.app)
    sign_up(bob, "Bob")
    assert bob.post("/api/account/seats", json={"tokens": [taken["seats"][0]["token"]]},
                    headers=sign_in(bob, "Bob")).json()["seats"] == [{"table_id": taken["table_id"], "seat": 0}]
    tokens = [*tokens_of(hot).values(), seat1, rated["seats"][0]["token"], taken["seats"][0]["token"]]
    r = client.post("/api/account/seats", json={"tokens": tokens}, headers=h_alice)
    assert r.status_code == 200
    assert r.json()["seats"] == [{"table_id": hot["table_id"], "seat": 0}]  # one seat of the hot-seat table
    seats = client.get(f"/api/tables/{hot['table_id']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Alice", "Player 2"]
    assert client.get(f"/api/tables/{named['table_id']}").json()["seat"] == 0  # still her one seat there
    assert guest.get(f"/api/tables/{named['table_id']}", headers=auth(seat1)).json()["seat"] == 1


# ---------------------------------------------------------------- 2. no lock-out by strangers
def test_a_rivals_wrong_passwords_do_not_keep_the_player_out(client):
    """The tester's case: 12 wrong passwords for a name from one browser, then the player signs in."""
    sign_up(client, "alice_t25")
    rival = TestClient(client.app, client=("198.51.100.7", 40000))
    codes = [rival.post("/api/session", json={"name": "alice_t25", "password": f"guess {n}"}).status_code
             for n in range(12)]
    assert codes == [401] * PAIR_FAILURES + [429] * (12 - PAIR_FAILURES)  # the guesser is slowed down
    r = rival.post("/api/session", json={"name": "alice_t25", "password": "guess 12"})
    assert r.json()["detail"] == ("too many wrong passwords for this name from here; try again in about 15 "
                                  "minutes")  # a player's time, not "880 seconds"
    assert 14 * 60 < int(r.headers["Retry-After"]) <= THROTTLE_WINDOW + 1
    player = TestClient(client.app, client=("203.0.113.9", 40000))
    assert player.post("/api/session", json={"name": "alice_t25", "password": PASSWORD}).status_code == 200


def test_guesses_spread_over_many_addresses_get_one_guess_each_once_the_name_is_under_attack(sqlite_url):
    t = [0.0]
    throttle = SignInThrottle(store.Store(sqlite_url).engine, clock=lambda: t[0])
    for n in range(NAME_FAILURES):  # three addresses at ten guesses each put the name over its count
        address = f"10.0.{n // PAIR_FAILURES}.1"
        assert throttle.retry_after("Alice", address) == (0, None)
        throttle.failed("Alice", address)
        t[0] += 1
    assert throttle.retry_after("Alice", "10.0.9.9") == (0, None)  # the player, elsewhere, may still try
    throttle.failed("alice", "10.0.9.9")  # a fresh address gets one guess, then waits
    wait, why = throttle.retry_after("ALICE", "10.0.9.9")
    assert why == "name" and 0 < wait <= THROTTLE_WINDOW + 1
    assert throttle.retry_after("Bob", "10.0.9.9") == (0, None)  # other names are not touched
    t[0] += THROTTLE_WINDOW
    assert throttle.retry_after("Alice", "10.0.9.9") == (0, None)  # the window passed


@pytest.mark.parametrize("seconds, words", [(1, "under a minute"), (59, "under a minute"), (60, "about a minute"),
                                            (61, "about 2 minutes"), (880, "about 15 minutes"),
                                            (901, "about 16 minutes")])
def test_waits_are_said_in_a_players_words(seconds, words):
    assert accounts.wait_words(seconds) == words


# ---------------------------------------------------------------- 3. names that pose as others
def test_seat_names_cannot_pose_as_accounts_or_as_what_the_tables_show(client):
    """The tester's table: seat names "аlice_t25" (a Cyrillic а), "Player 1" at seat 2 and "Spectator"."""
    sign_up(client, "alice_t25")
    guest = TestClient(client.app)

    def seats(*names: str):
        return guest.post("/api/tables", json={"game": KOD, "players": len(names), "seats": [
            {"kind": "human", "name": name} for name in names]})

    for names, why in [(("Ann", "\u0430lice_t25", "Bob"), "alphabets"),  # Cyrillic а among Latin letters
                       (("Ann", "Player 1", "Bob"), "tables give themselves"),
                       (("Ann", "Bob", "Spectator"), "tables give themselves"),
                       (("Ann", "Bob", "hard bot"), "tables give themselves"),
                       (("AIice_t25", "Bob", "Ann"), "looks like, the registered player 'alice_t25'"),  # capital i
                       (("alice t25", "Bob", "Ann"), "registered player"),
                       (("ALICE_T25", "Bob", "Ann"), "registered player"),
                       (("\u0430\u0435\u043e", "Bob", "Ann"), None)]:  # all-Cyrillic "аео": one alphabet, no account
        r = seats(*names)
        if why is None:
            assert r.status_code == 201, r.text
            continue
        assert r.status_code == 422 and why in r.json()["detail"], (names, r.text)
        assert "give the seat another name" in r.json()["detail"]
    r = seats("Mum", "Dad", "Zoë")  # a hot-seat table's ordinary names keep working
    assert r.status_code == 201 and [s["name"] for s in r.json()["seats"]] == ["Mum", "Dad", "Zoë"]
    # words of different alphabets are a name people have; one word mixing them is refused
    assert seats("李小龍 Bruce", "Ann").status_code == 201
    r = seats("李小龍Bruce", "Ann")
    assert r.status_code == 422 and "in the word '李小龍Bruce'" in r.json()["detail"], r.text
    assert seats("Player 1", "Player 2", "Alice's friend").status_code == 201  # a seat's own default name
    # the creator may give a free seat their own account's name; that seat is still no account's
    headers = sign_in(client, "alice_t25")
    r = client.post("/api/tables", headers=headers, json={"game": KOD, "players": 3, "seats": [
        {"kind": "human", "name": "Alice_T25"}, {"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    view = guest.get(f"/api/tables/{r.json()['table_id']}").json()
    assert [s.get("account") for s in view["seats"]] == [False, False, False]


def test_account_names_that_look_like_anothers_are_refused(client):
    sign_up(client, "alice_t25")
    sign_up(client, "olga")
    sign_up(client, "mary")
    for name in ("AIice_t25", "a1ice_t25", "alice.t25", "01ga", "rnary", "\u043e\u0455\u0430"):
        r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        if name == "\u043e\u0455\u0430":  # Cyrillic "оѕа": looks like "osa", which nobody has
            assert r.status_code == 201, r.text
            continue
        assert r.status_code == 409 and "looks like the name of the player" in r.json()["detail"], (name, r.text)
    r = client.post("/api/accounts", json={"name": "osa", "password": PASSWORD})
    assert r.status_code == 409 and "'\u043e\u0455\u0430'" in r.json()["detail"]
    assert client.post("/api/accounts", json={"name": "ALICE_T25", "password": PASSWORD}).status_code == 409


@pytest.mark.parametrize("a, b", [("AIice", "alice"), ("alice", "a1ice"), ("BOB", "b0b"), ("rnary", "mary"),
                                  ("vvendy", "wendy"), ("\u0430lice", "alice"), ("\u0391\u039d\u039d\u0391", "anna"),
                                  ("\u0421\u0410\u0420", "cap"), ("ann.b", "ann_b"), ("ann-b", "ann b")])
def test_look_alike_names_share_a_skeleton(a, b):
    assert accounts.skeleton(a) == accounts.skeleton(b)


@pytest.mark.parametrize("a, b", [("alice", "alicia"), ("Zoë", "Zoe"), ("dan", "don"), ("ian", "lan")])
def test_different_names_keep_different_skeletons(a, b):
    assert accounts.skeleton(a) != accounts.skeleton(b)


def test_chat_marks_the_lines_of_account_holders(client):
    sign_up(client, "alice_t25")
    headers = sign_in(client, "alice_t25")
    made = client.post("/api/tables", headers=headers, json={"game": KOD, "players": 2, "seats": [
        {"kind": "human", "player": "alice_t25"}, {"kind": "human", "name": "Ann"}]}).json()
    table = made["table_id"]
    assert client.post(f"/api/tables/{table}/chat", json={"text": "hello"},
                       headers=auth(made["seats"][0]["token"])).status_code == 200
    guest = TestClient(client.app)
    token = _claim(guest, made, 1)
    assert guest.post(f"/api/tables/{table}/chat", json={"text": "hi"}, headers=auth(token)).status_code == 200
    assert guest.post(f"/api/tables/{table}/chat", json={"text": "watching"}).status_code == 200
    lines = guest.get(f"/api/tables/{table}/chat").json()
    lines = lines["messages"] if isinstance(lines, dict) else lines
    assert [(m["name"], m["account"]) for m in lines] == [("alice_t25", True), ("Ann", False), ("Spectator", False)]
    seats = guest.get(f"/api/tables/{table}").json()["seats"]
    assert [(s["name"], s["account"]) for s in seats] == [("alice_t25", True), ("Ann", False)]
