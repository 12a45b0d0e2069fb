"""Table chat (``POST/GET /api/tables/{id}/chat``, the ``chat`` live message) and the QR codes of
table links (``POST /api/qr``): issue 25 items 1 and 3."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from fastapi.testclient import TestClient

from dicetable.web import create_site
from dicetable.server.chat import MAX_CHARS, RATE, WINDOW, Rate, clean_text
from dicetable.server.store import Store
from dicetable.server.tables import ApiError

from .helpers import auth, create, tokens_of


@pytest.fixture
def client(db_url):
    with TestClient(create_site(db_url)) as c:
        yield c


@pytest.fixture
def lite(sqlite_url):
    with TestClient(create_site(sqlite_url)) as c:
        yield c


def _table(client) -> tuple[str, dict]:
    made = create(client, "kingdom-of-dice", ["human", "human"], seed=3)
    return made["table_id"], tokens_of(made)


def test_a_seat_and_a_spectator_chat_and_the_messages_are_stored_in_order(client):
    tid, toks = _table(client)
    r = client.post(f"/api/tables/{tid}/chat", json={"text": "  hello from seat two "}, headers=auth(toks[1]))
    assert r.status_code == 200, r.text
    mine = r.json()
    assert (mine["seat"], mine["name"], mine["spectator"], mine["text"]) == (1, "Player 2", False, "hello from seat two")
    r = client.post(f"/api/tables/{tid}/chat", json={"text": "<img src=x onerror=alert(1)>"})
    assert r.status_code == 200, r.text
    theirs = r.json()
    assert theirs["seat"] is None and theirs["spectator"] is True and theirs["name"] == "Spectator"
    assert theirs["text"] == "<img src=x onerror=alert(1)>"  # stored as typed: pages show it as text
    page = client.get(f"/api/tables/{tid}/chat").json()
    assert [m["id"] for m in page["messages"]] == [mine["id"], theirs["id"]] and theirs["id"] > mine["id"]
    assert page["max_chars"] == 300
    assert client.get(f"/api/tables/{tid}/chat", params={"after": mine["id"]}).json()["messages"] == [theirs]


def test_chat_is_stored_with_the_table_and_survives_a_restart(sqlite_url):
    with TestClient(create_site(sqlite_url)) as c:
        tid, toks = _table(c)
        assert c.post(f"/api/tables/{tid}/chat", json={"text": "gg"}, headers=auth(toks[0])).status_code == 200
    with TestClient(create_site(sqlite_url)) as c:
        texts = [m["text"] for m in c.get(f"/api/tables/{tid}/chat").json()["messages"]]
    assert texts == ["gg"]


def test_a_message_over_300_characters_is_refused_with_422_and_not_stored(lite):
    tid, toks = _table(lite)
    for length in (MAX_CHARS + 1, 4 * MAX_CHARS + 1):  # however long, the message names the one limit
        r = lite.post(f"/api/tables/{tid}/chat", json={"text": "x" * length}, headers=auth(toks[0]))
        assert r.status_code == 422
        assert "at most 300 characters" in r.json()["detail"] and str(length) in r.json()["detail"], r.text
    assert lite.post(f"/api/tables/{tid}/chat", json={"text": "x" * MAX_CHARS}, headers=auth(toks[0])).status_code == 200
    for bad, why in (("   ", "empty"), ("two\nlines", "U+000A"), ("zero\u200bwidth", "U+200B")):
        r = lite.post(f"/api/tables/{tid}/chat", json={"text": bad}, headers=auth(toks[0]))
        assert r.status_code == 422 and why in r.json()["detail"], (bad, r.text)
    assert [len(m["text"]) for m in lite.get(f"/api/tables/{tid}/chat").json()["messages"]] == [MAX_CHARS]


def test_the_sixth_message_within_ten_seconds_is_refused_with_429_and_retry_after(lite):
    tid, toks = _table(lite)
    for n in range(RATE):
        assert lite.post(f"/api/tables/{tid}/chat", json={"text": f"m{n}"}, headers=auth(toks[0])).status_code == 200
    r = lite.post(f"/api/tables/{tid}/chat", json={"text": "one too many"}, headers=auth(toks[0]))
    assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= WINDOW
    assert "5 chat messages per 10 seconds" in r.json()["detail"]
    # the limit is per poster: the other seat and the spectators still talk
    assert lite.post(f"/api/tables/{tid}/chat", json={"text": "me too"}, headers=auth(toks[1])).status_code == 200
    assert lite.post(f"/api/tables/{tid}/chat", json={"text": "watching"}).status_code == 200
    assert len(lite.get(f"/api/tables/{tid}/chat").json()["messages"]) == RATE + 2


def test_the_rate_window_slides():
    now = [100.0]
    rate = Rate(2, 10.0, clock=lambda: now[0])
    rate.take(("t", 0))
    now[0] = 105.0
    rate.take(("t", 0))
    with pytest.raises(ApiError) as refused:
        rate.take(("t", 0))
    assert refused.value.status == 429 and refused.value.retry_after == 5
    now[0] = 110.5  # the first post left the window
    rate.take(("t", 0))


def test_chat_refusals_name_the_problem(lite):
    tid, _ = _table(lite)
    assert lite.post("/api/tables/nosuchtable/chat", json={"text": "hi"}).status_code == 404
    assert lite.get("/api/tables/nosuchtable/chat").status_code == 404
    r = lite.post(f"/api/tables/{tid}/chat", json={"text": "hi"}, headers=auth("not-a-token"))
    assert r.status_code == 403
    assert lite.post(f"/api/tables/{tid}/chat", content="hi", headers={"Content-Type": "text/plain"}).status_code == 415
    assert clean_text(" a b ") == "a b"


def test_every_live_connection_gets_the_message_as_a_chat_message(lite):
    tid, toks = _table(lite)
    with lite.websocket_connect(f"/api/tables/{tid}/live?token={toks[0]}") as seat, \
            lite.websocket_connect(f"/api/tables/{tid}/live") as watcher:
        assert json.loads(seat.receive_text())["type"] == "view"
        assert json.loads(watcher.receive_text())["type"] == "view"
        posted = lite.post(f"/api/tables/{tid}/chat", json={"text": "<b>hi</b>"}).json()
        for ws in (seat, watcher):
            while True:  # a seat's connection may bring a change first (the other seat connected)
                msg = json.loads(ws.receive_text())
                if msg["type"] == "chat":
                    break
                assert msg["type"] in ("change", "view")
            assert msg["message"] == posted and msg["message"]["spectator"] is True


def _svg_ok(answer) -> ET.Element:
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(answer.text)
    assert root.tag.endswith("svg")
    assert not [el for el in root.iter() if el.tag.endswith("script") or any(k.startswith("on") for k in el.attrib)]
    return root


def test_a_qr_code_is_drawn_for_this_servers_table_links_only(lite):
    made = create(lite, "kingdom-of-dice", ["human", "human"])
    tid = made["table_id"]
    invite = made["seats"][1]["link"]
    assert "#invite=" in invite
    base = "http://testserver"
    _svg_ok(lite.post("/api/qr", json={"text": base + invite}))
    _svg_ok(lite.post("/api/qr", json={"text": f"{base}/tables/{tid}"}))
    refusals = {
        "https://evil.example/tables/" + tid: "this server's own tables",
        f"{base}/api/tables/{tid}": "table links",
        f"{base}/tables/{tid}?token=abc": "without a query",
        f"{base}/tables/{tid}#x=<script>": "fragment",
        f"/tables/{tid}": "absolute",
        "javascript:alert(1)": "absolute",
    }
    for text, why in refusals.items():
        r = lite.post("/api/qr", json={"text": text})
        assert r.status_code == 422 and why in r.json()["detail"], (text, r.text)
    assert lite.post("/api/qr", json={"text": base + "/tables/nosuchtable"}).status_code == 404
    assert lite.post("/api/qr", json={"text": base + "/tables/" + tid + "#" + "a" * 200}).status_code == 422


def test_the_qr_svg_has_the_size_of_the_links_symbol_and_a_quiet_zone():
    """4 px per module and a 4-module quiet zone (what phone cameras need), nothing but drawing."""
    import segno

    from dicetable.server.qr import svg

    link = "http://192.168.1.20:8000/tables/abc123def45678#invite=1.AbCdEfGhIjKlMnOpQrStUv"
    root = ET.fromstring(svg(link))
    modules = segno.make(link, error="m", micro=False).symbol_size(scale=1, border=0)[0]
    assert 25 <= modules <= 41  # version 2 to 6: a small, easily read code
    assert int(float(root.attrib["width"])) == (modules + 8) * 4
    assert root.find("{http://www.w3.org/2000/svg}title").text == "QR code of the link"


def test_the_chat_table_is_made_by_the_migrations(sqlite_url):
    store = Store(sqlite_url)
    try:
        from sqlalchemy import inspect

        assert {"id", "table_id", "seat", "name", "text", "created"} <= {
            c["name"] for c in inspect(store.engine).get_columns("chat")}
    finally:
        store.close()
