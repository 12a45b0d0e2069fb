"""Move notices by e-mail (WEB.md, Players; docs/accounts.md "Move notices"): the address an account gives,
what it may be, who may set it, and that the turn notices of turn-based tables go to it and stop when
turned off."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from dicetable.bots import make_bot
from dicetable.web import create_site
from dicetable.server.accounts import EMAIL_MAX, check_email
from dicetable.server.banks import PRESETS
from dicetable.server.errors import ApiError
from dicetable.server.models import PlayerRow

from .test_accounts import PASSWORD, engine_of, quick_hashes, sign_in, sign_up  # noqa: F401 (fixture)
from .test_turn_based import smtp  # noqa: F401 (fixture)

NOTICES = "/api/account/notices"
DAILY = next(p for p in PRESETS if p["id"] == "daily")


@pytest.mark.parametrize("email", ["ada@example.org", "a.b+dice@mail.example.co.uk", "zoë@exämple.de",
                                   "x@a-b.io", "  ada@example.org  "])
def test_addresses_that_are_allowed(email):
    assert check_email(email) == email.strip()


@pytest.mark.parametrize("email, why", [
    ("", "0 characters"), ("a" * 250 + "@x.io", f"at most {EMAIL_MAX}"), ("ada example.org", "a space"),
    ("ada@example.org\r\nBcc: all@example.org", "control"), ("ada@example.org, bo@example.org", "','"),
    ("<ada@example.org>", "'<'"), ("ada.example.org", "exactly one @"), ("@example.org", "exactly one @"),
    ("a@b@example.org", "exactly one @"), ("ada@localhost", "not a mail domain"), ("ada@-x.org", "not a mail domain"),
    ("ada@x..org", "not a mail domain"), (".ada@example.org", "one dot at a time"), ("a" * 65 + "@x.io", "at most 64"),
])
def test_addresses_that_are_refused_say_why(email, why):
    with pytest.raises(ApiError) as caught:
        check_email(email)
    assert caught.value.status == 422 and why in caught.value.detail
    assert "name@domain.example" in caught.value.detail, "the refusal says what is allowed"


def test_an_account_sets_reads_and_clears_its_notices(client):
    assert client.get(NOTICES).status_code == 401, "a guest has no notices"
    sign_up(client, "Ada")
    headers = sign_in(client, "Ada")
    assert client.get(NOTICES).json() == {"email": None, "notify_email": False, "mail_on": False}
    r = client.put(NOTICES, json={"email": " ada@example.org ", "notify_email": True}, headers=headers)
    assert r.status_code == 200, r.text
    assert r.json() == {"email": "ada@example.org", "notify_email": True, "mail_on": False}
    assert client.get(NOTICES).json()["email"] == "ada@example.org"
    with engine_of(client).connect() as conn:
        assert conn.execute(select(PlayerRow.email, PlayerRow.notify_email)).one() == ("ada@example.org", True)
    r = client.put(NOTICES, json={"email": "", "notify_email": False}, headers=headers)
    assert r.json() == {"email": None, "notify_email": False, "mail_on": False}


@pytest.mark.parametrize("body, why", [
    ({"email": None, "notify_email": True}, "need an e-mail address"),
    ({"email": "ada@localhost", "notify_email": True}, "not a mail domain"),
    ({"email": "ada@example.org", "notify_email": "yes"}, "notify_email"),
    ({"email": 5, "notify_email": False}, "email"),
    ({"email": "ada@example.org"}, "notify_email"),
    ({"email": "ada@example.org", "notify_email": True, "sms": "123"}, "sms"),
])
def test_bad_notices_are_refused_and_keep_what_was_stored(client, body, why):
    sign_up(client, "Ada")
    headers = sign_in(client, "Ada")
    assert client.put(NOTICES, json={"email": "ada@example.org", "notify_email": True}, headers=headers).status_code == 200
    r = client.put(NOTICES, json=body, headers=headers)
    assert r.status_code == 422 and why in r.text
    assert client.get(NOTICES).json()["email"] == "ada@example.org", "nothing lost"


def test_notices_need_the_csrf_token_and_a_browser_sign_in(client):
    sign_up(client, "Ada")
    headers = sign_in(client, "Ada")
    body = {"email": "ada@example.org", "notify_email": True}
    assert client.put(NOTICES, json=body).status_code == 403, "a cookie change without X-CSRF-Token"
    api_token = client.post("/api/account/tokens", json={}, headers=headers).json()["token"]
    anonymous = TestClient(client.app)
    r = anonymous.put(NOTICES, json=body, headers={"Authorization": f"Bearer {api_token}"})
    assert r.status_code == 403 and "browser sign-in" in r.text, "a program's token cannot read or move the address"
    assert client.get(NOTICES).json()["email"] is None


def test_turn_notices_go_to_the_address_set_and_stop_when_turned_off(sqlite_url, smtp, monkeypatch):  # noqa: F811
    monkeypatch.setenv("DICETABLE_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("DICETABLE_SMTP_PORT", str(smtp.server_address[1]))
    with TestClient(create_site(sqlite_url)) as ada, TestClient(ada.app) as bo:
        sign_up(ada, "Ada")
        sign_up(bo, "Bob")
        ada_headers = sign_in(ada, "Ada")
        sign_in(bo, "Bob")
        r = ada.put(NOTICES, json={"email": "ada@example.org", "notify_email": True}, headers=ada_headers)
        assert r.json()["mail_on"] is True
        m = ada.app.state.manager
        notices = ada.app.state.lobby.notices
        r = ada.post("/api/tables", headers=ada_headers, json={
            "game": "kingdom-of-dice", "players": 2, "bank": DAILY["bank"], "increment": DAILY["increment"],
            "bank_max": DAILY["bank_max"], "seats": [{"kind": "human", "player": "Ada"},
                                                     {"kind": "human", "player": "Bob"}]})
        assert r.status_code == 201, r.text
        tid = r.json()["table_id"]

        def play(actions: int) -> int:
            """Play ``actions`` actions as the greedy bot would; how many of Ada's turns began."""
            lt = m.get(tid)
            began = 0
            for _ in range(actions):
                seat = lt.state.to_move[0]
                before = 0 in lt.state.to_move
                m.act(tid, seat, make_bot("greedy", seed=lt.version).choose(lt.state, seat).id, lt.version)
                began += not before and 0 in lt.state.to_move and not lt.state.is_over
            notices.flush()
            return began

        at_creation = int(m.get(tid).state.to_move == (0,))
        began = at_creation + play(40)
        assert began >= 2
        assert [rcpt for rcpt, _ in smtp.messages] == [["ada@example.org"]] * began, \
            "one notice each time her turn began, to the address she set; none to Bob, who asked for none"
        assert "Your move" in smtp.messages[0][1] and f"/tables/{tid}" in smtp.messages[0][1]
        ada.put(NOTICES, json={"email": "ada@example.org", "notify_email": False}, headers=ada_headers)
        assert play(40) >= 2
        assert len(smtp.messages) == began, "turned off: no more notices"
