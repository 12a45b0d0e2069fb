"""``dicetable serve --workers N``: several processes on one port and one PostgreSQL database (WEB.md,
"Several processes"; docs/deploy.md).

The tests start the real command with two workers and find out which
worker accepted each of their connections (the kernel hands a connection to
whichever worker accepts first): the worker whose open sockets include the
server end of that connection (``/proc/net/tcp`` and ``/proc/<pid>/fd``).
So "posted to one process, seen by the other" is checked, not hoped for.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from websockets.sync.client import connect

from dicetable.server.leases import driver_query
from dicetable.server.processes import check_workers
from dicetable.server.store import Store

from .helpers import ServerProcess, auth, create, drive, follow, tokens_of

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc")


def worker_pids(server: ServerProcess) -> list[int]:
    """The server's worker processes: its children started by multiprocessing's spawn (not its resource tracker)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        if ppid == server.proc.pid and "spawn_main" in cmdline:
            pids.append(int(entry.name))
    return sorted(pids)


def _socket_inode(server_port: int, client_port: int) -> int | None:
    """The inode of the server end of the TCP connection from ``client_port`` to ``server_port`` (127.0.0.1)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], int(fields[9])
        if int(local.split(":")[1], 16) == server_port and int(remote.split(":")[1], 16) == client_port and inode:
            return inode
    return None


def worker_of(server: ServerProcess, client_port: int, timeout: float = 10.0) -> int:
    """The pid of the worker that accepted the connection from local port ``client_port``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        inode = _socket_inode(server.port, client_port)
        if inode is not None:
            for pid in worker_pids(server):
                try:
                    fds = list(Path(f"/proc/{pid}/fd").iterdir())
                except OSError:
                    continue
                for fd in fds:
                    try:
                        if os.readlink(fd) == f"socket:[{inode}]":
                            return pid
                    except OSError:
                        continue
        time.sleep(0.02)
    raise AssertionError(f"no worker holds the connection from port {client_port}")


class Pinned:
    """An HTTP/1.1 keep-alive connection to the server, so every request goes to one worker (``pid``)."""

    def __init__(self, server: ServerProcess) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        self.conn.connect()
        self.pid = worker_of(server, self.conn.sock.getsockname()[1])

    def call(self, method: str, path: str, token: str | None = None, body: dict | None = None) -> tuple[int, dict]:
        """``(status, JSON answer)`` of one request."""
        headers = {"Content-Type": "application/json", **auth(token)}
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        answer = self.conn.getresponse()
        return answer.status, json.loads(answer.read())

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()


def one_per_worker(server: ServerProcess, make, tries: int = 60) -> dict[int, object]:
    """``{worker pid: connection}`` with one connection made by ``make()`` on each worker (others closed)."""
    got: dict[int, object] = {}
    for _ in range(tries):
        conn = make()
        if conn.pid in got:
            conn.close()
        else:
            got[conn.pid] = conn
        if len(got) == server.workers:
            return got
    raise AssertionError(f"{tries} connections reached only workers {sorted(got)}")


class Live:
    """A live WebSocket connection and the worker (``pid``) serving it; ``view`` the view it follows."""

    def __init__(self, server: ServerProcess, table_id: str, token: str | None, stack: ExitStack) -> None:
        self.ws = stack.enter_context(connect(server.ws_url(table_id, token)))  # closed by ``stack`` too
        self.pid = worker_of(server, self.ws.socket.getsockname()[1])
        self.view = follow(None, json.loads(self.ws.recv(timeout=10)))

    def until(self, version: int, timeout: float) -> float:
        """Follow the pushes until the view is at ``version``; the seconds that took (fails after ``timeout``)."""
        t0 = time.monotonic()
        while self.view["version"] < version:
            left = timeout - (time.monotonic() - t0)
            assert left > 0, f"version {version} not pushed within {timeout} s (at {self.view['version']})"
            self.view = follow(self.view, json.loads(self.ws.recv(timeout=left)))
        return time.monotonic() - t0

    def chat_until(self, text: str, timeout: float) -> tuple[dict, float]:
        """Follow the pushes until a ``chat`` message with ``text`` comes: that message and the seconds it
        took (fails after ``timeout``); table changes on the way are followed as usual."""
        t0 = time.monotonic()
        while True:
            left = timeout - (time.monotonic() - t0)
            assert left > 0, f"chat message {text!r} not pushed within {timeout} s"
            message = json.loads(self.ws.recv(timeout=left))
            if message["type"] != "chat":
                self.view = follow(self.view, message)
            elif message["message"]["text"] == text:
                return message["message"], time.monotonic() - t0

    def close(self) -> None:
        """Close the connection."""
        self.ws.close()


@pytest.fixture
def two_workers(pg):
    """``dicetable serve --workers 2`` on a fresh PostgreSQL database, both workers accepting."""
    url = pg.create_database()
    server = ServerProcess(url, workers=2).start()
    try:
        deadline = time.monotonic() + 60
        while len(worker_pids(server)) < 2:
            assert time.monotonic() < deadline, "the second worker did not start"
            time.sleep(0.1)
        yield server, url
    finally:
        server.kill()


def _stored(url: str, table_id: str) -> list[int]:
    store = Store(url)
    try:
        return [a.seq for a in store.load(table_id).actions]
    finally:
        store.close()


def _two_humans(server: ServerProcess, seed: int) -> tuple[str, dict]:
    """A new Corsairs table of two human seats: its id and ``{seat: token}``."""
    with server.client() as c:
        made = create(c, "corsairs-of-valeria", ["human", "human"], seed=seed)
    return made["table_id"], tokens_of(made)


def test_a_seat_on_one_worker_sees_an_action_posted_to_the_other_within_a_second(two_workers):
    server, _ = two_workers
    tid, toks = _two_humans(server, 61)
    stack = ExitStack()
    posters = one_per_worker(server, lambda: Pinned(server))
    watchers = one_per_worker(server, lambda: Live(server, tid, toks[1], stack))
    try:
        for step in range(6):
            poster = posters[sorted(posters)[step % 2]]  # each worker in turn
            status, view = poster.call("GET", f"/api/tables/{tid}")
            seat = view["to_move"][0]
            status, mine = poster.call("GET", f"/api/tables/{tid}", toks[seat])
            status, new = poster.call("POST", f"/api/tables/{tid}/actions", toks[seat],
                                      {"action": mine["legal_actions"][0]["id"], "version": mine["version"]})
            assert status == 200, new
            for pid, watcher in watchers.items():
                took = watcher.until(new["version"], timeout=1.0)  # the contract: within a second
                assert took <= 1.0, (pid, poster.pid, took)
            # the seat's view on the other worker is the one its own worker answers
            other = next(w for pid, w in watchers.items() if pid != poster.pid)
            status, there = posters[other.pid].call("GET", f"/api/tables/{tid}", toks[1])
            assert other.view["observation"] == there["observation"]
            assert other.view["version"] == there["version"] == new["version"]
    finally:
        for conn in [*posters.values(), *watchers.values()]:
            conn.close()
        stack.close()


def test_a_chat_message_posted_to_one_worker_is_pushed_by_every_worker_within_a_second(two_workers):
    # docs/web.md, "Table chat": every connection of the table gets each new message live,
    # whichever process took it (the message goes through PostgreSQL's NOTIFY)
    server, _ = two_workers
    tid, toks = _two_humans(server, 63)
    stack = ExitStack()
    posters = one_per_worker(server, lambda: Pinned(server))
    watchers = one_per_worker(server, lambda: Live(server, tid, None, stack))  # spectators on each worker
    try:
        for step, pid in enumerate(sorted(posters)):
            text = f"hello from worker {step}: <b>as typed</b>"
            status, posted = posters[pid].call("POST", f"/api/tables/{tid}/chat", toks[step], {"text": text})
            assert status == 200, posted
            for wpid, watcher in watchers.items():
                got, took = watcher.chat_until(text, timeout=1.0)
                assert took <= 1.0, (wpid, pid, took)
                assert got == posted  # the same message (id, seat, name, text, at) on every worker
                assert got["seat"] == step and not got["spectator"]
        # nothing is pushed twice: the next message each watcher gets is the next one posted
        status, last = posters[sorted(posters)[0]].call("POST", f"/api/tables/{tid}/chat", None, {"text": "last"})
        assert status == 200 and last["spectator"], last
        for watcher in watchers.values():
            message = json.loads(watcher.ws.recv(timeout=1.0))
            assert message == {"type": "chat", "message": last}
    finally:
        for conn in [*posters.values(), *watchers.values()]:
            conn.close()
        stack.close()


def test_two_simultaneous_posts_through_two_workers_one_200_one_409(two_workers):
    server, url = two_workers
    tid, toks = _two_humans(server, 62)
    posters = list(one_per_worker(server, lambda: Pinned(server)).values())
    assert posters[0].pid != posters[1].pid
    try:
        for _ in range(5):
            status, view = posters[0].call("GET", f"/api/tables/{tid}")
            seat = view["to_move"][0]
            status, mine = posters[1].call("GET", f"/api/tables/{tid}", toks[seat])
            assert mine["version"] == view["version"]
            actions = [a["id"] for a in mine["legal_actions"]]
            barrier = threading.Barrier(2)
            answers: list = [None, None]

            def post(i: int) -> None:
                barrier.wait()
                answers[i] = posters[i].call("POST", f"/api/tables/{tid}/actions", toks[seat],
                                             {"action": actions[i % len(actions)], "version": view["version"]})

            threads = [threading.Thread(target=post, args=(i,)) for i in (0, 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert sorted(a[0] for a in answers) == [200, 409], answers
            winner = next(a[1] for a in answers if a[0] == 200)
            assert winner["version"] == view["version"] + 1
            assert _stored(url, tid) == list(range(1, view["version"] + 2))  # one stored, no gap
    finally:
        for p in posters:
            p.close()


def driver_of(url: str, table_id: str) -> int | None:
    """The pid of the process driving ``table_id``'s bots and clock (holding its lock), None if none does."""
    import psycopg

    sql, params = driver_query(table_id)
    with psycopg.connect(url.replace("postgresql+psycopg", "postgresql"), autocommit=True) as conn:
        row = conn.execute(sql, params).fetchone()
    return int(row[0].split()[-1]) if row else None


def _human_moves(client, table_id: str, token: str, n: int) -> None:
    """Play ``n`` moves of the human seat 0 (its first legal action), waiting for the bot in between."""
    deadline = time.monotonic() + 60
    while n > 0:
        assert time.monotonic() < deadline, "the bot did not move"
        view = client.get(f"/api/tables/{table_id}", headers=auth(token)).json()
        if view["legal_actions"]:
            r = client.post(f"/api/tables/{table_id}/actions", headers=auth(token),
                            json={"action": view["legal_actions"][0]["id"], "version": view["version"]})
            n -= r.status_code == 200
        else:
            time.sleep(0.05)


def test_sigkill_of_one_worker_loses_no_acknowledged_action_and_bots_go_on(two_workers):
    """Actions acknowledged by either worker stay after one is killed; another worker takes over the
    bots of the tables the killed one drove."""
    server, url = two_workers
    with server.client() as c:
        humans = create(c, "corsairs-of-valeria", ["human", "human"], seed=63)
        vs_bot = create(c, "kingdom-of-dice", ["human", "greedy"], seed=64)
        _human_moves(c, vs_bot["table_id"], tokens_of(vs_bot)[0], 3)
    tid, toks = humans["table_id"], tokens_of(humans)
    victim = driver_of(url, vs_bot["table_id"])  # the worker driving the bot's table
    assert victim in worker_pids(server)
    posters = one_per_worker(server, lambda: Pinned(server))
    survivor = next(pid for pid in posters if pid != victim)
    acked: list[int] = []
    try:
        while len(acked) < 16:
            poster = posters[victim if len(acked) % 2 else survivor]
            status, view = poster.call("GET", f"/api/tables/{tid}")
            seat = view["to_move"][0]
            status, mine = poster.call("GET", f"/api/tables/{tid}", toks[seat])
            if not mine["legal_actions"]:  # this worker heard of the other's last action in between
                continue
            status, new = poster.call("POST", f"/api/tables/{tid}/actions", toks[seat],
                                      {"action": mine["legal_actions"][-1]["id"], "version": mine["version"]})
            if status == 409:  # this worker had not heard of the other's last action yet: fetch again
                time.sleep(0.05)
                continue
            assert status == 200, new
            acked.append(new["version"])
        assert poster.pid == victim
        os.kill(victim, signal.SIGKILL)  # the moment its last answer is in
        stored = _stored(url, tid)
        assert stored == list(range(1, len(stored) + 1)) and len(stored) >= max(acked)
        status, after = posters[survivor].call("GET", f"/api/tables/{tid}", toks[0])
        assert status == 200 and after["version"] == max(acked) == len(stored)
        # the table against a bot plays to its end without its driver (a new connection may also
        # reach the worker uvicorn starts in the killed one's place: it serves the same tables)
        with server.client() as c:
            last, _ = drive(c, vs_bot["table_id"], tokens_of(vs_bot), seed=3, patience=30)
        assert last["over"]
    finally:
        for p in posters.values():
            p.close()


def test_more_than_one_worker_needs_postgresql(sqlite_url):
    """On SQLite, ``--workers 2`` is refused at once with a message naming PostgreSQL (no traceback)."""
    out = subprocess.run([sys.executable, "-m", "dicetable.cli.main", "serve", "--workers", "2",
                          "--database", sqlite_url, "--port", "1"], capture_output=True, text=True, timeout=60)
    text = out.stdout + out.stderr
    assert out.returncode != 0
    assert "--workers 2 needs PostgreSQL" in text and "Traceback" not in text, text
    assert check_workers(1, sqlite_url) is None
    assert "1 or more" in check_workers(0, sqlite_url)
