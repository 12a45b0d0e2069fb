"""``dicetable serve`` as a real process on 127.0.0.1: crash safety, concurrent writers, several processes.

Each test starts the server command in a child process (a free port, the
test's own database), talks to it over HTTP and WebSocket, and kills it with
SIGKILL where the test says so.
"""

from __future__ import annotations

import json
import threading

import pytest
from websockets.sync.client import connect

from dicetable.server.store import Store

from .helpers import ServerProcess, auth, create, drive, follow, tokens_of


def _stored(url: str, table_id: str) -> list[tuple[int, int, str]]:
    store = Store(url)
    try:
        return [(a.seq, a.seat, a.action) for a in store.load(table_id).actions]
    finally:
        store.close()


def _act(client, tid: str, token: str) -> dict | None:
    """Post this seat's first legal action if it is to move; the new view (None if not its turn)."""
    view = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    if not view["legal_actions"]:
        return None
    r = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                    json={"action": view["legal_actions"][-1]["id"], "version": view["version"]})
    assert r.status_code == 200, r.text
    return r.json()


def test_sigkill_loses_no_acknowledged_action_and_games_go_on(db_url):
    """Killed mid-game (bots thinking) and right after acknowledging an action: all acknowledged actions stay."""
    server = ServerProcess(db_url).start()
    try:
        with server.client() as c:
            humans = create(c, "corsairs-of-valeria", ["human", "human"], seed=31)
            vs_bot = create(c, "kingdom-of-dice", ["human", "greedy"], seed=32)
            tid, toks = humans["table_id"], tokens_of(humans)
            acked = []
            for _ in range(12):
                for seat, tok in toks.items():
                    view = _act(c, tid, tok)
                    if view:
                        acked.append(view["version"])
            # acknowledge one more action and kill the server the moment the answer is in
            seat = c.get(f"/api/tables/{tid}").json()["to_move"][0]
            view = _act(c, tid, toks[seat])
            acked.append(view["version"])
            server.kill()
        stored = _stored(db_url, tid)
        assert [s for s, _, _ in stored] == list(range(1, len(stored) + 1))  # no gap, no duplicate
        assert len(stored) >= max(acked)
        server = ServerProcess(db_url, port=server.port).start()
        with server.client() as c:
            again = c.get(f"/api/tables/{tid}", headers=auth(toks[0])).json()
            assert again["version"] == len(stored) == max(acked)
            # the game goes on, bots included, to its end
            last, _ = drive(c, tid, toks, seed=1)
            assert last["over"]
            bot_last, _ = drive(c, vs_bot["table_id"], tokens_of(vs_bot), seed=2)
            assert bot_last["over"]
            record = c.get(f"/api/tables/{tid}/record").json()
            assert [list(x[1:]) for x in stored] == record["actions"][: len(stored)]
    finally:
        server.kill()


def test_two_posts_for_one_version_one_wins_the_other_409(db_url):
    """Two clients post at the same moment for the same version (with PostgreSQL: through two processes)."""
    servers = [ServerProcess(db_url).start()]
    if db_url.startswith("postgresql"):
        servers.append(ServerProcess(db_url).start())
    try:
        clients = [s.client() for s in servers]
        made = create(clients[0], "corsairs-of-valeria", ["human", "human"], seed=41)
        tid, toks = made["table_id"], tokens_of(made)
        for round_no in range(5):
            view = clients[0].get(f"/api/tables/{tid}").json()
            seat = view["to_move"][0]
            mine = clients[-1].get(f"/api/tables/{tid}", headers=auth(toks[seat])).json()
            assert mine["version"] == view["version"]
            actions = [a["id"] for a in mine["legal_actions"]]
            barrier = threading.Barrier(2)
            answers = [None, None]

            def post(i):
                barrier.wait()
                answers[i] = clients[i % len(clients)].post(
                    f"/api/tables/{tid}/actions", headers=auth(toks[seat]),
                    json={"action": actions[i % len(actions)], "version": view["version"]})

            threads = [threading.Thread(target=post, args=(i,)) for i in (0, 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            codes = sorted(a.status_code for a in answers)
            assert codes == [200, 409], [a.text for a in answers]
            stored = _stored(db_url, tid)
            assert [s for s, _, _ in stored] == list(range(1, view["version"] + 2))
            winner = next(a for a in answers if a.status_code == 200).json()
            assert winner["version"] == view["version"] + 1
        for c in clients:
            c.close()
    finally:
        for s in servers:
            s.kill()


def test_two_processes_share_a_postgresql_table_live(pg):
    """Seat 1 watches through process B while seat 0 acts through process A, and the other way round."""
    url = pg.create_database()
    a, b = ServerProcess(url).start(), ServerProcess(url).start()
    try:
        with a.client() as ca, b.client() as cb:
            made = create(ca, "corsairs-of-valeria", ["human", "human"], seed=51)
            tid, toks = made["table_id"], tokens_of(made)
            with connect(a.ws_url(tid, toks[0])) as wa, connect(b.ws_url(tid, toks[1])) as wb, \
                    connect(b.ws_url(tid)) as spectator:
                views = {0: json.loads(wa.recv(timeout=10)), 1: json.loads(wb.recv(timeout=10))}
                seen = json.loads(spectator.recv(timeout=10))
                for step in range(6):
                    seat = views[0]["to_move"][0]
                    client, ws_other = (ca, wb) if seat == 0 else (cb, wa)
                    new = _act(client, tid, toks[seat])
                    assert new is not None
                    # the other seat, connected to the other process, sees this move live
                    other = 1 - seat
                    while True:
                        views[other] = follow(views[other], json.loads(ws_other.recv(timeout=10)))
                        if views[other]["version"] == new["version"]:
                            break
                        assert views[other]["version"] < new["version"]
                    there = (ca if other == 0 else cb).get(f"/api/tables/{tid}", headers=auth(toks[other])).json()
                    assert views[other]["observation"] == there["observation"]
                    while True:
                        seen = follow(seen, json.loads(spectator.recv(timeout=10)))
                        if seen["version"] == new["version"]:
                            break
                    assert seen["seat"] is None and seen["legal_actions"] == []
                    while views[seat]["version"] < new["version"]:
                        views[seat] = follow(views[seat], json.loads((wa if seat == 0 else wb).recv(timeout=10)))
                    assert views[seat]["legal_actions"] == new["legal_actions"]
    finally:
        a.kill()
        b.kill()


def _asks_twice(base: str, pause: float) -> tuple[int, int | None]:
    """Two GET /api/health on one HTTP/1.1 connection, ``pause`` seconds apart: the first answer's status and
    the second's (None when the server had closed the connection in between)."""
    import http.client
    import time

    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        conn.request("GET", "/api/health")
        first = conn.getresponse()
        first.read()
        time.sleep(pause)
        try:
            conn.request("GET", "/api/health")
            second = conn.getresponse()
            second.read()
        except (http.client.RemoteDisconnected, ConnectionError):
            return first.status, None
        return first.status, second.status
    finally:
        conn.close()


def test_an_idle_connection_is_kept_for_the_seats_next_move(sqlite_url):
    """A seat posts its moves on one connection, often more than uvicorn's 5 seconds apart: `make run`'s
    server keeps it open (65 s), and --keep-alive is what decides (1 s: closed after 2)."""
    server = ServerProcess(sqlite_url).start()
    try:
        assert _asks_twice(server.base, 6.0) == (200, 200)
    finally:
        server.kill()
    short = ServerProcess(sqlite_url, options=("--keep-alive", "1")).start()
    try:
        assert _asks_twice(short.base, 2.5) == (200, None)
    finally:
        short.kill()


def test_the_server_logs_no_request_line_unless_asked(sqlite_url):
    """`make run`'s server (--log-level info, no --access-log) says it started but writes no line per
    request: at a live table that would be a line per move."""
    server = ServerProcess(sqlite_url, log_level="info").start()
    try:
        with server.client() as c:
            made = create(c, "kingdom-of-dice", ["human", "greedy"], seed=3)
            assert c.get(f"/api/tables/{made['table_id']}").status_code == 200
        log = server.log()
    finally:
        server.kill()
    assert "Uvicorn running on" in log, log
    assert "/api/tables" not in log and '" 200' not in log, log


def test_the_access_log_never_shows_a_seat_token(sqlite_url):
    """With --access-log uvicorn logs every request line: the seat link's page, the API and the live
    WebSocket are logged with the token masked, since the token alone takes the seat."""
    server = ServerProcess(sqlite_url, log_level="info", access_log=True).start()
    try:
        with server.client() as c:
            made = create(c, "kingdom-of-dice", ["human", "greedy"], seed=3)
            tid, token = made["table_id"], made["seats"][0]["token"]
            assert c.get(f"/tables/{tid}?token={token}").status_code == 200
            assert c.get(f"/api/tables/{tid}?token={token}&x=1").status_code == 400  # refused, yet logged
            with connect(server.ws_url(tid, token)) as ws:
                assert json.loads(ws.recv())["type"] == "view"
        log = server.log()
    finally:
        server.kill()
    assert f"/tables/{tid}?token=***" in log and "WebSocket" in log, log
    assert token not in log, log
