"""SIGTERM stops ``dicetable serve`` cleanly: it stops accepting, stops every search process it started, and
exits within a few seconds, leaving no child process behind (issue "A server that strangers cannot take
down", item 6). Only the server's own PID gets the signal, as a service manager would send it."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import httpx

from .helpers import ServerProcess, auth, create


def _children(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (read from /proc; zombies count as gone)."""
    found: set[int] = set()
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids = (task / "children").read_text().split()
            except OSError:
                continue
            for kid in map(int, kids):
                if kid not in found and _alive(kid):
                    found.add(kid)
                    frontier.append(kid)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_sigterm_mid_search_stops_the_workers_and_exits_within_seconds(sqlite_url):
    server = ServerProcess(sqlite_url).start()
    pid = server.proc.pid
    try:
        with server.client() as c:
            # five hard bots search turn after turn; one seat asks for a hint in the meantime
            bots = create(c, "dice-kingdoms-of-valeria", ["hard"] * 5)
            other = create(c, "kingdom-of-dice", ["human", "human"], seed=3)
            mover = c.get(f"/api/tables/{other['table_id']}").json()["to_move"][0]
            token = other["seats"][mover]["token"]
        def ask_hint() -> None:
            try:
                httpx.get(f"{server.base}/api/tables/{other['table_id']}/hint", headers=auth(token), timeout=120)
            except httpx.HTTPError:  # the server may close the connection as it stops
                pass

        hint = threading.Thread(target=ask_hint, daemon=True)
        hint.start()
        deadline = time.monotonic() + 60
        while len(_children(pid)) < 2:  # the search processes are up (and computing)
            assert time.monotonic() < deadline, "no search process started"
            time.sleep(0.2)
        time.sleep(1.0)
        assert httpx.get(f"{server.base}/api/tables/{bots['table_id']}").status_code == 200
        children = _children(pid)
        t0 = time.monotonic()
        os.kill(pid, signal.SIGTERM)
        server.proc.wait(15)
        took = time.monotonic() - t0
        deadline = time.monotonic() + 5
        while any(_alive(k) for k in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [k for k in children if _alive(k)]
    finally:
        server.kill()
    print(f"SIGTERM: exited in {took:.1f} s; children before: {sorted(children)}, left: {left}")
    assert left == [], server.log()
    assert took < 8, took
