"""Helpers of the server tests: API clients that play, and a real ``dicetable serve`` process."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time

import httpx

from dicetable.server.delta import apply_patch
from dicetable.server.pgtemp import free_port

#: How long a test waits for bots or another client before failing, in seconds.
PATIENCE = 60.0


def auth(token: str | None) -> dict:
    """The Authorization header of a seat token (none for a spectator)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(client, game: str, seats: list, seed: int | None = None, **extra) -> dict:
    """POST /api/tables with ``seats`` given as ``"human"`` or a bot level; assert 201; return the answer."""
    body = {"game": game, "players": len(seats),
            "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "level": s} for s in seats]}
    if seed is not None:
        body["seed"] = seed
    body.update(extra)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def tokens_of(created: dict) -> dict:
    """``{seat: token}`` of a created table's human seats."""
    return {s["seat"]: s["token"] for s in created["seats"] if s["kind"] == "human"}


def mover_view(client, table_id: str, tokens: dict) -> tuple[int, dict]:
    """``(seat, view)`` of the first seat to move, its view fetched with its token (``tokens``: {seat: token})."""
    seat = client.get(f"/api/tables/{table_id}", headers=auth(tokens[0])).json()["to_move"][0]
    return seat, client.get(f"/api/tables/{table_id}", headers=auth(tokens[seat])).json()


def drive(client, table_id: str, tokens: dict, seed: int = 0, max_actions: int = 3000,
          patience: float = PATIENCE) -> tuple[dict, int]:
    """Play the human ``tokens`` ({seat: token}) with seeded random choices until the game ends.

    Bots move on the server meanwhile; a 409 (someone moved first) is
    retried from a fresh view. Returns (the last view of the first seat, the
    number of actions this client had accepted). Fails on any other error,
    or when nothing moves for ``patience`` seconds.
    """
    rng = random.Random(seed)
    done = 0
    last_change = time.monotonic()
    last_version = -1
    while True:
        moved = False
        for seat, token in tokens.items():
            r = client.get(f"/api/tables/{table_id}", headers=auth(token))
            assert r.status_code == 200, r.text
            view = r.json()
            assert view["seat"] == seat
            if view["over"]:
                first = client.get(f"/api/tables/{table_id}", headers=auth(next(iter(tokens.values()))))
                return first.json(), done
            if view["version"] != last_version:
                last_version, last_change = view["version"], time.monotonic()
            if view["legal_actions"]:
                assert seat in view["to_move"] and view["decision"]["seat"] == seat
                action = rng.choice(view["legal_actions"])["id"]
                r = client.post(f"/api/tables/{table_id}/actions", headers=auth(token),
                                json={"action": action, "version": view["version"]})
                assert r.status_code in (200, 409), r.text
                if r.status_code == 200:
                    done += 1
                    moved = True
                    assert r.json()["version"] == view["version"] + 1
                    assert done <= max_actions, "the game does not end"
        if not moved:
            assert time.monotonic() - last_change < patience, "nothing moved: bots or seats are stuck"
            time.sleep(0.005)


class Behind(AssertionError):
    """A change message whose base is not the (undos, version) of the copy it was applied to."""


def follow(view: dict | None, message: dict) -> dict:
    """The live view a client holds after ``message`` (LIVE.md section 4), from the one it held (``view``).

    A ``view`` message replaces the copy; a ``change`` message must apply to
    the copy's ``[undos, version]`` (its ``base``; :class:`Behind` otherwise)
    and sets its ``set`` fields, appends its ``log`` lines, applies its
    observation ``patch`` and swaps in its ``parts`` (None: a part no longer
    drawn). ``view`` is changed in place; the result is returned.
    """
    if message["type"] == "view":
        return {k: v for k, v in message.items() if k != "type"}
    assert message["type"] == "change", message
    if view is None or message["base"] != [view["undos"], view["version"]]:
        raise Behind(f"change from {message['base']} to a copy at "
                     f"{None if view is None else [view['undos'], view['version']]}")
    view.update(message["set"])
    view["undos"], view["version"] = message["undos"], message["version"]
    view["log"] = view["log"] + message["log"]
    view["observation"] = apply_patch(view["observation"], message["patch"])
    parts = dict(view["parts"] or {})
    for key, html in message["parts"].items():
        if html is None:
            parts.pop(key, None)
        else:
            parts[key] = html
    view["parts"] = parts if view["parts"] is not None or parts else None
    return view


class ServerProcess:
    """``dicetable serve`` in a child process on 127.0.0.1 and a free port; ``kill()`` sends SIGKILL."""

    def __init__(self, database: str, port: int | None = None, log_level: str = "warning", workers: int = 1,
                 access_log: bool = False, options: tuple[str, ...] = ()) -> None:
        self.database = database
        self.options = options  # more of serve's options, as on its command line
        self.log_level = log_level
        self.access_log = access_log
        self.workers = workers
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self) -> "ServerProcess":
        """Start the server and wait until /api/health answers (fails after 30 s, 30 s more per extra worker:
        each imports everything, on a machine shared by the test workers)."""
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.output = tempfile.TemporaryFile()  # a file, not a pipe: a full pipe would stall the server
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "dicetable.cli.main", "serve", "--port", str(self.port),
             "--database", self.database, "--log-level", self.log_level, "--workers", str(self.workers)]
            + (["--access-log"] if self.access_log else []) + list(self.options),
            stdout=self.output, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 30 * self.workers
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("server exited: " + self.log())
            try:
                if httpx.get(self.base + "/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise AssertionError(f"server did not start within {30 * self.workers} s: " + self.log())

    def log(self) -> str:
        """What the server printed so far."""
        self.output.seek(0)
        return self.output.read().decode(errors="replace")

    def client(self) -> httpx.Client:
        """An HTTP client for this server."""
        return httpx.Client(base_url=self.base, timeout=30)

    def ws_url(self, table_id: str, token: str | None = None) -> str:
        """The live WebSocket URL of a table for a seat token (none: a spectator)."""
        return f"ws://127.0.0.1:{self.port}/api/tables/{table_id}/live" + (f"?token={token}" if token else "")

    def kill(self) -> None:
        """SIGKILL the server (no clean shutdown) and reap it."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """Stop the server with SIGTERM (SIGKILL after 10 s)."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def in_fresh_loop(main):
    """``asyncio.run(main())`` in a thread of its own, its result or its exception: the test worker's own
    thread may hold a running event loop already (Playwright's sync API, from an earlier browser test)."""
    out: dict = {}

    def target() -> None:
        try:
            out["value"] = asyncio.run(main())
        except BaseException as exc:  # handed to the test's thread
            out["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out.get("value")
