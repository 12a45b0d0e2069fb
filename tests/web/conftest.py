"""Browser tests: a real uvicorn on 127.0.0.1 (temp SQLite) driven by Playwright with Debian's chromium.

``make test`` installs chromium with apt-get when /usr/bin/chromium is
missing; Playwright's own browser download is not used. Tables are created
with small settings and random/greedy bots so the whole file stays short.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: F401 - the one browser fixture is in tests/conftest.py



def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A running ``dicetable`` server: ``url``, its ``database`` (a SQLAlchemy URL: a test may write rows a
    page needs, such as finished rated tables, as the server's own code does) and small JSON helpers for
    the HTTP contract."""

    def __init__(self, url: str, database: str) -> None:
        self.url = url
        self.database = database

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None):
        """``(status, json)`` of one request to the API."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def create(self, game: str, seats: list[dict], options: dict | None = None, seed: int | None = None) -> dict:
        """Create a table; the API's answer (table_id, seats with tokens)."""
        body = {"game": game, "players": len(seats), "options": options or {}, "seats": seats}
        if seed is not None:
            body["seed"] = seed
        status, data = self.call("POST", "/api/tables", body)
        assert status in (200, 201), data
        return data


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """``dicetable serve`` (a real uvicorn) on a free 127.0.0.1 port with a temp SQLite file."""
    pytest.importorskip("dicetable.server", reason="the server package (issue 11) is not installed")
    db = tmp_path_factory.mktemp("db") / "tables.sqlite"
    port = _free_port()
    database = f"sqlite:///{db}"
    cmd = [sys.executable, "-c", "from dicetable.cli.main import app; app()", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--database", database, "--log-level", "warning"]
    log = tmp_path_factory.mktemp("log") / "server.log"
    # one address (this test process) makes every table here, more in a minute than a person would:
    # the per-address creation limit is raised for it (tests/server/test_limits.py tests the limit)
    env = dict(os.environ, DICETABLE_CREATE_RATE="600")
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while True:
        try:
            with urllib.request.urlopen(url + "/api/games", timeout=2) as resp:
                if resp.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            raise RuntimeError("the server did not start:\n" + log.read_text())
        time.sleep(0.2)
    yield Server(url, database)
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture
def context(browser):
    """A fresh browser context (own localStorage) at 1366x768; closed after the test."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()
