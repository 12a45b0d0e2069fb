"""Limits (WEB.md, Security; docs/security.md): each answers its status with a message (and Retry-After
where it applies), and the server keeps serving other clients meanwhile.

Most tests run in process; a small ASGI wrapper gives each request the client
address named by its ``X-Test-Client`` header, so several "clients" can be
told apart. One test runs ``dicetable serve`` for what only a real server
shows (a chunked body, a frame the protocol layer refuses).
"""

from __future__ import annotations

import json
import logging
import time

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from dicetable.web import create_site
from dicetable.server.settings import LIMITS_OFF_WARNING, Settings, SettingsError

from .helpers import ServerProcess, auth, create

SOLO_BOT = {"game": "dice-kingdoms-of-valeria", "players": 1, "seats": [{"kind": "bot", "level": "random"}]}
TWO = {"game": "corsairs-of-valeria", "players": 2}


def by_address(app):
    """``app`` seeing the client address given in a request's ``X-Test-Client`` header (default: 10.0.0.1)."""

    async def wrapped(scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            given = dict(scope.get("headers") or ()).get(b"x-test-client", b"10.0.0.1").decode()
            scope = dict(scope, client=(given, 40000))
        await app(scope, receive, send)

    return wrapped


def client_of(url: str, **settings) -> TestClient:
    return TestClient(by_address(create_site(url, settings=Settings(**settings))))


def frm(address: str) -> dict:
    return {"X-Test-Client": address}


def test_settings_come_from_the_environment_and_bad_values_are_named():
    s = Settings.from_env({"DICETABLE_CREATE_RATE": "5", "DICETABLE_WS_PER_TABLE": "9",
                           "DICETABLE_ALLOWED_HOSTS": "Dice.Example:8443, other.example"})
    assert (s.create_rate, s.ws_per_table, s.per_client) == (5, 9, True)
    assert s.allowed_hosts == ("dice.example:8443", "other.example")
    assert Settings.from_env({}) == Settings()
    assert Settings.from_env({"DICETABLE_LIMITS": "off"}).per_client is False
    for env, words in [({"DICETABLE_LIMITS": "0"}, ["DICETABLE_LIMITS", "'off'"]),
                       ({"DICETABLE_LIMITS": "false"}, ["DICETABLE_LIMITS"]),  # only "off" turns them off
                       ({"DICETABLE_CREATE_RATE": "lots"}, ["DICETABLE_CREATE_RATE", "whole number"]),
                       ({"DICETABLE_MAX_BODY": "10"}, ["DICETABLE_MAX_BODY", "1024 or more"]),
                       ({"DICETABLE_API_DOCS": "maybe"}, ["DICETABLE_API_DOCS", "'on' or 'off'"])]:
        with pytest.raises(SettingsError) as err:
            Settings.from_env(env)
        for word in words:
            assert word in str(err.value)


def test_creation_rate_per_address_answers_429_with_retry_after_and_others_go_on(sqlite_url):
    with client_of(sqlite_url, create_rate=3) as c:
        for _ in range(3):
            assert c.post("/api/tables", json=TWO, headers=frm("10.0.0.1")).status_code == 201
        r = c.post("/api/tables", json=TWO, headers=frm("10.0.0.1"))
        assert r.status_code == 429, r.text
        assert "at most 3 a minute" in r.json()["detail"]
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        # another client is not held up, and the limited one can still play and read
        other = c.post("/api/tables", json=TWO, headers=frm("10.0.0.2"))
        assert other.status_code == 201
        assert c.get("/api/health", headers=frm("10.0.0.1")).status_code == 200
        assert c.get(f"/api/tables/{other.json()['table_id']}", headers=frm("10.0.0.1")).status_code == 200
        assert len(c.get("/api/tables").json()["tables"]) == 4  # the refused creation stored nothing


def test_a_failed_creation_does_not_count_against_the_rate(sqlite_url):
    with client_of(sqlite_url, create_rate=2) as c:
        for _ in range(5):
            assert c.post("/api/tables", json={**TWO, "players": 9}).status_code == 422
        assert c.post("/api/tables", json=TWO).status_code == 201
        assert c.post("/api/tables", json=TWO).status_code == 201
        assert c.post("/api/tables", json=TWO).status_code == 429


def test_running_tables_per_address_are_capped_until_one_ends(sqlite_url):
    with client_of(sqlite_url, running_tables=2) as c:
        running = c.post("/api/tables", json=TWO).json()
        solo = c.post("/api/tables", json=SOLO_BOT).json()
        r = c.post("/api/tables", json=TWO)
        assert r.status_code == 429 and "2 running tables" in r.json()["detail"], r.text
        assert int(r.headers["Retry-After"]) >= 1
        assert c.post("/api/tables", json=TWO, headers=frm("10.0.0.9")).status_code == 201
        deadline = time.monotonic() + 60
        while not c.get(f"/api/tables/{solo['table_id']}").json()["over"]:  # the bot plays it to the end
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert c.post("/api/tables", json=TWO).status_code == 201  # the finished table no longer counts
        assert c.post("/api/tables", json=TWO).status_code == 429
        assert c.get(f"/api/tables/{running['table_id']}").status_code == 200


def test_limits_off_lifts_the_per_client_limits_and_warns(sqlite_url, caplog):
    caplog.set_level(logging.WARNING, logger="dicetable.server")
    with client_of(sqlite_url, per_client=False, create_rate=1, running_tables=1, ws_per_address=1) as c:
        for _ in range(4):
            assert c.post("/api/tables", json=TWO).status_code == 201
        tid = c.get("/api/tables").json()["tables"][0]["table_id"]
        with c.websocket_connect(f"/api/tables/{tid}/live") as a, c.websocket_connect(f"/api/tables/{tid}/live") as b:
            assert json.loads(a.receive_text())["type"] == json.loads(b.receive_text())["type"] == "view"
    assert LIMITS_OFF_WARNING in caplog.text
    caplog.clear()
    with client_of(sqlite_url, create_rate=1) as c:
        assert c.post("/api/tables", json=TWO).status_code == 201
        assert c.post("/api/tables", json=TWO).status_code == 429
    assert "DICETABLE_LIMITS" not in caplog.text


# ------------------------------------------------------------------ WebSocket
def _refused(ws) -> dict:
    message = json.loads(ws.receive_text())
    assert message["type"] == "error"
    return message


def test_websocket_connections_are_capped_per_address_and_per_table(sqlite_url):
    with client_of(sqlite_url, ws_per_address=2, ws_per_table=3) as c:
        tid = c.post("/api/tables", json=TWO).json()["table_id"]
        tid2 = c.post("/api/tables", json=TWO).json()["table_id"]
        path = f"/api/tables/{tid}/live"
        with c.websocket_connect(path, headers=frm("10.0.0.1")) as a1, \
                c.websocket_connect(path, headers=frm("10.0.0.1")) as a2:
            for ws in (a1, a2):
                assert json.loads(ws.receive_text())["type"] == "view"
            with c.websocket_connect(f"/api/tables/{tid2}/live", headers=frm("10.0.0.1")) as a3:
                refused = _refused(a3)
                assert refused["status"] == 429 and "2 live connections" in refused["detail"]
                assert refused["retry_after"] >= 1
                with pytest.raises(WebSocketDisconnect) as closed:
                    a3.receive_text()
                assert closed.value.code == 4429
            # another address still connects, until the table itself is full
            with c.websocket_connect(path, headers=frm("10.0.0.2")) as b1:
                assert json.loads(b1.receive_text())["type"] == "view"
                with c.websocket_connect(path, headers=frm("10.0.0.3")) as b2:
                    refused = _refused(b2)
                    assert refused["status"] == 429 and f"table {tid} has 3 live connections" in refused["detail"]
                with c.websocket_connect(f"/api/tables/{tid2}/live", headers=frm("10.0.0.3")) as b3:
                    assert json.loads(b3.receive_text())["type"] == "view"
        # closed connections no longer count
        with c.websocket_connect(path, headers=frm("10.0.0.1")) as again:
            assert json.loads(again.receive_text())["type"] == "view"


def test_websocket_refuses_a_foreign_origin_and_takes_its_own(sqlite_url):
    with client_of(sqlite_url, allowed_hosts=("dice.example",)) as c:
        tid = c.post("/api/tables", json=TWO).json()["table_id"]
        path = f"/api/tables/{tid}/live"
        for origin in ("http://evil.example", "null", "http://testserver:8080", "https://testserver.evil.example"):
            with pytest.raises(WebSocketDisconnect) as refused:
                with c.websocket_connect(path, headers={"Origin": origin}) as ws:
                    ws.receive_text()
            assert refused.value.code == 4403, origin
        for origin in ("http://testserver", "https://dice.example", None):
            headers = {"Origin": origin} if origin else {}
            with c.websocket_connect(path, headers=headers) as ws:
                assert json.loads(ws.receive_text())["type"] == "view", origin


def test_websocket_closes_on_a_large_inbound_message(sqlite_url):
    with client_of(sqlite_url, max_frame=4096) as c:
        tid = c.post("/api/tables", json=TWO).json()["table_id"]
        with c.websocket_connect(f"/api/tables/{tid}/live") as ws:
            assert json.loads(ws.receive_text())["type"] == "view"
            ws.send_text("x" * 100)  # small messages are ignored
            ws.send_text("x" * 100_000)
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
            assert closed.value.code == 1009


# ------------------------------------------------------------------ a real server
def test_real_server_refuses_chunked_oversize_bodies_forms_foreign_origins_and_big_frames(sqlite_url):
    server = ServerProcess(sqlite_url).start()
    try:
        with server.client() as c:
            def chunks():
                yield b'{"game": "corsairs-of-valeria", "players": 2, "pad": "'
                for _ in range(40):
                    yield b"x" * 1024
                yield b'"}'

            r = c.post("/api/tables", content=chunks(), headers={"Content-Type": "application/json"})
            assert r.status_code == 413 and "larger than 16384 bytes" in r.json()["detail"], r.text
            r = c.post("/api/tables", content=b"game=corsairs-of-valeria&players=2",
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
            assert r.status_code == 415
            assert c.get("/api/tables").json()["tables"] == []
            made = create(c, "corsairs-of-valeria", ["human", "human"])
            tid = made["table_id"]
        url = server.ws_url(tid)
        with pytest.raises(InvalidStatus) as refused:
            with connect(url, origin="http://evil.example"):
                pass
        assert refused.value.response.status_code == 403
        with connect(url, origin=f"http://127.0.0.1:{server.port}", max_size=None) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "view"
            ws.send("x" * 100_000)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
            assert closed.value.rcvd.code == 1009
        with httpx.Client(base_url=server.base, timeout=10) as c:
            assert c.get("/api/health").status_code == 200  # still serving
    finally:
        server.stop()
    assert "DICETABLE_LIMITS" not in server.log()


def test_real_server_with_limits_off_warns_at_start(sqlite_url, monkeypatch):
    monkeypatch.setenv("DICETABLE_LIMITS", "off")
    monkeypatch.setenv("DICETABLE_CREATE_RATE", "1")
    server = ServerProcess(sqlite_url).start()
    try:
        with server.client() as c:
            for _ in range(3):
                create(c, "corsairs-of-valeria", ["human", "human"])
    finally:
        server.stop()
    assert "DICETABLE_LIMITS=off" in server.log() and "OFF" in server.log()
