"""The load benchmark's clients (locust): every human seat a user, every seat and a spectator on the socket.

Run by ``run.py`` (``python benchmarks/load/run.py --profile evening``), which
starts the server and hands this file its settings as JSON in the environment
variable ``DICETABLE_LOAD`` (``tables``, ``think``, ``think_spread``, ``seconds``, ``grace``,
``server_pid``, ``out``). Each table slot of ``plan.mix`` plays one table
after another: its first human seat creates the table (and opens the
spectator's socket), every human seat is a locust user that keeps the
table's live WebSocket open (``/api/tables/{id}/live``, reading every
message: the full view, then changes applied to it by their ``base``), waits
the think time once a decision of its own is in the view, then posts one of
its legal actions with ``Prefer: return=minimal``. When the game ends the
slot's first seat creates the next table and the others join it.

Measured over a window that opens once every user has its first table and
socket and lasts ``seconds``: the client actions accepted, their round trip,
when the first and the last subscriber of the table (the seats' sockets and
the spectator's) held each action's version (``run.py`` turns that into the
push delay with the server's stamp of the action), the actions applied
(versions the spectators saw, bots included), how late this process runs
what is ready (``watch_lag``), the server's and this process's CPU time
(``/proc/<pid>/stat``) and the server's memory. The
users wait until the server answers ``/api/health`` (it starts while locust
does). After the window nobody posts; the sockets are read ``grace`` seconds
more, then the raw record is written to ``out`` and locust stops.
"""

from __future__ import annotations

import bisect
import itertools
import json
import os
import random
import sys
import time
import urllib.request
from pathlib import Path

import gevent
from gevent.event import Event
from gevent.monkey import get_original
from geventhttpclient import connectionpool
from locust import FastHttpUser, events, task
from locust.env import Environment
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plan import mix, seat_users  # noqa: E402

CONFIG = json.loads(os.environ.get("DICETABLE_LOAD", "{}"))
MIX = mix(CONFIG.get("tables", 1))
USERS = seat_users(MIX)
NEXT_USER = itertools.count()
#: The users started so far (the conductor opens the window once all of them hold a table).
SEATS: list["Seat"] = []
#: Seconds without any message on a seat's socket after which the seat gives its table up (a failure).
STALL = 60.0
#: How often a dropped socket is opened again.
RECONNECTS = 3
#: The sleep of the greenlet that measures how late this process runs what is ready (seconds).
LAG_TICK = 0.01
#: The unpatched ``select.poll`` and its flags (gevent's monkey-patching removes ``poll`` from ``select``).
_poll = get_original("select", "poll")
_POLLIN, _POLLERR, _POLLHUP = get_original("select", ["POLLIN", "POLLERR", "POLLHUP"])


class PollSelect:
    """What locust's connection pool (geventhttpclient 2.6) sees as its ``select`` module: ``select`` by ``poll``.

    The pool checks that a kept connection is still idle before it reuses
    it, by ``select.select([sock], [], [], 0.0)``: a connection it can read
    from (a hang-up, or stray bytes) is dropped. ``select`` refuses any
    descriptor at or above 1024 with ValueError, which the check takes for a
    dead connection. With a thousand sockets open (300 tables' seats,
    spectators and WebSockets) nearly every kept connection was thrown away
    and a new one opened for each action, so the benchmark measured a
    connection set-up per move that a browser never makes (docs/load.md,
    "The clients' lost connections"). ``poll`` takes any descriptor.
    """

    @staticmethod
    def select(rlist: list, wlist: list, xlist: list, timeout: float | None = None) -> tuple[list, list, list]:
        """``select.select`` for the pool's one use, a check that does not wait: the ``rlist`` entries that
        are readable or hung up now (``wlist`` and ``xlist`` are not watched; ``timeout`` is not waited)."""
        poller = _poll()
        for item in rlist:
            poller.register(item, _POLLIN | _POLLERR | _POLLHUP)
        ready = {fd for fd, _events in poller.poll(0)}
        return [item for item in rlist if item.fileno() in ready], [], []


connectionpool.select = PollSelect  # the pool's only use of select is that check


class Run:
    """The window and the run's shared record (one locust process: plain module state)."""

    start: float | None = None  # when the window opened (time.time(), the server's clock too)
    end: float | None = None  # when it closed
    stopping = False  # the window closed: nobody posts any more
    tables: list["Table"] = []
    rtt_ms: list[float] = []
    conflicts = 0
    resent = 0  # posts sent again after the server had closed their kept-alive connection
    failures: list[str] = []
    cpu: list[float] = []  # the server's CPU seconds at the window's start and end
    own_cpu: list[float] = []  # this (locust) process's, to tell whether the clients kept up
    rss: list[int] = []  # the server's resident memory in KiB once it answers and after the window
    lag_ms: list[float] = []  # how late this process woke a greenlet that slept LAG_TICK, in the window

    @classmethod
    def inside(cls, t: float) -> bool:
        """True when ``t`` (time.time()) lies in the window."""
        return cls.start is not None and t >= cls.start and (cls.end is None or t <= cls.end)

    @classmethod
    def fail(cls, what: str) -> None:
        """Record a failure (a request or a socket that went wrong)."""
        cls.failures.append(what[:300])


class Subscriber:
    """One live connection: the view it holds and when each version reached it (time.time())."""

    def __init__(self, url: str, label: str) -> None:
        self.url = url
        self.label = label
        self.view: dict | None = None
        self.versions: list[int] = []  # the versions held, in the order they came (never lower)
        self.times: list[float] = []
        self.changed = Event()
        self.closed = False
        self.ws = connect(url, open_timeout=60, max_size=2**24)
        self.reader = gevent.spawn(self._read)

    def _read(self) -> None:
        """Read every message until the game is over; a socket the server drops is a failure and is
        opened again (as the page does: its first message, the full view, brings it up to date)."""
        try:
            for _attempt in range(1 + RECONNECTS):
                try:
                    with self.ws:  # closes the socket when reading ends
                        self._follow()
                    return
                except ConnectionClosed as exc:
                    if self.closed:
                        return
                    Run.fail(f"{self.label}: socket closed by the server ({exc})")
                except (WebSocketException, OSError, ValueError) as exc:
                    Run.fail(f"{self.label}: {exc!r}")
                gevent.sleep(0.5)
                if self.closed:
                    return
                try:
                    self.ws = connect(self.url, open_timeout=60, max_size=2**24)
                except (WebSocketException, OSError, TimeoutError) as exc:
                    Run.fail(f"{self.label}: connect again: {exc!r}")
                    return
        finally:
            self.closed = True
            self.changed.set()

    def _follow(self) -> None:
        """Hold the view: apply each change to it by its base, ask for a resync on a gap; stop once over."""
        resyncing = False
        while True:
            text = self.ws.recv()
            now = time.time()
            message = json.loads(text)
            kind = message.get("type")
            if kind == "view":
                self.view, resyncing = message, False
            elif kind == "change":
                view = self.view
                if resyncing:
                    continue  # changes are ignored until the full view comes
                if view is None or message["base"] != [view["undos"], view["version"]]:
                    resyncing = True
                    self.ws.send(json.dumps({"type": "resync"}))
                    continue
                view.update(message["set"])
                view["undos"], view["version"] = message["undos"], message["version"]
            else:
                Run.fail(f"{self.label}: unexpected message {text[:200]}")
                continue
            self.versions.append(self.view["version"])
            self.times.append(now)
            self.changed.set()
            if self.view["over"]:
                return

    def reached(self, version: int) -> float | None:
        """When this connection first held ``version`` or a later one (None: never)."""
        i = bisect.bisect_left(self.versions, version)
        return self.times[i] if i < len(self.times) else None

    def close(self) -> None:
        """Close the socket (the table is over or the run ends)."""
        self.closed = True
        self.ws.close()


class Table:
    """One table of a slot: its tokens, its subscribers and the client actions accepted on it."""

    def __init__(self, created: dict, base: str) -> None:
        self.id = created["table_id"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"] if s["kind"] == "human"}
        self.ws_base = base.replace("http://", "ws://", 1) + f"/api/tables/{self.id}/live"
        self.subs: list[Subscriber] = []
        self.actions: list[tuple[int, float]] = []  # (version made, time.time() of the POST's answer)
        self.spectator = self.subscribe(None, "spectator")
        Run.tables.append(self)

    def subscribe(self, seat: int | None, label: str) -> Subscriber:
        """Open a live connection for ``seat`` (None: the spectator)."""
        url = self.ws_base + ("" if seat is None else f"?token={self.tokens[seat]}")
        sub = Subscriber(url, f"table {self.id} {label}")
        self.subs.append(sub)
        return sub


class Slot:
    """A place for one table at a time: its set-up and the table being played there."""

    def __init__(self, setup: dict) -> None:
        self.setup = setup
        self.table: Table | None = None
        self.generation = 0
        self.new_table = Event()

    def publish(self, table: Table) -> None:
        """Hand a new table to the slot's other seats."""
        self.table = table
        self.generation += 1
        self.new_table.set()
        self.new_table = Event()


SLOTS = [Slot(s) for s in MIX]


class Seat(FastHttpUser):
    """One human seat of a slot's tables (the slot's first human seat also creates them)."""

    network_timeout = 60.0
    connection_timeout = 60.0

    def on_start(self) -> None:
        """Take the next seat of the mix (once the server answers)."""
        SERVER_UP.wait()
        n = next(NEXT_USER)
        if n >= len(USERS):
            raise RuntimeError(f"more users than human seats ({len(USERS)}): start locust with -u {len(USERS)}")
        slot_no, self.seat = USERS[n]
        self.slot = SLOTS[slot_no]
        self.lead = self.seat == self.slot.setup["seats"].index("human")
        self.rng = random.Random(n)
        self.think = float(CONFIG.get("think", 0.0))
        self.spread = float(CONFIG.get("think_spread", 0.0))  # each think uniform in think x (1 +- spread)
        self.seen = 0  # the slot generation this seat played last
        self.ready = False
        SEATS.append(self)

    @task
    def play_a_table(self) -> None:
        """Join (or create) the slot's next table and play this seat until the game ends."""
        if Run.stopping:  # no new table once the window closed
            gevent.sleep(1)
            return
        table = self._next_table()
        if table is None:
            return
        self.seen = self.slot.generation
        try:
            sub = table.subscribe(self.seat, f"seat {self.seat}")
        except (WebSocketException, OSError, TimeoutError) as exc:
            Run.fail(f"table {table.id} seat {self.seat}: connect: {exc!r}")
            gevent.sleep(1)
            return
        self.ready = True
        try:
            self._play(table, sub)
        finally:
            sub.close()

    def _next_table(self) -> Table | None:
        """The slot's first seat creates a table and publishes it; the others wait for it (None: failed)."""
        if self.lead:
            setup = self.slot.setup
            body = {"game": setup["game"], "players": setup["players"],
                    "seats": [{"kind": "human"} if k == "human" else {"kind": "bot", "level": k}
                              for k in setup["seats"]]}
            with self.client.post("/api/tables", json=body, name="POST /api/tables", catch_response=True) as r:
                if r.status_code != 201:
                    r.failure(f"{r.status_code}: {(r.text or repr(r.error))[:200]}")
                    gevent.sleep(1)
                    return None
                created = r.json()
            try:
                table = Table(created, self.host)
            except (WebSocketException, OSError, TimeoutError) as exc:
                Run.fail(f"table {created['table_id']} spectator: connect: {exc!r}")
                gevent.sleep(1)
                return None
            self.slot.publish(table)
            return table
        while self.slot.generation <= self.seen:
            self.slot.new_table.wait(STALL)
        return self.slot.table

    def _play(self, table: Table, sub: Subscriber) -> None:
        """Post one legal action per decision of this seat (after the think time) until the game ends."""
        headers = {"Authorization": f"Bearer {table.tokens[self.seat]}", "Prefer": "return=minimal"}
        acted = -1  # the version this seat last posted at
        while True:
            sub.changed.clear()
            view = sub.view
            if sub.closed and (view is None or not view["over"]):
                return  # the socket failed (recorded)
            if view is not None and view["over"]:
                return
            if view is None or Run.stopping or not view["legal_actions"] or view["version"] <= acted:
                if not sub.changed.wait(STALL) and not Run.stopping:
                    Run.fail(f"table {table.id} seat {self.seat}: nothing came for {STALL} s")
                    return
                continue
            if self.think:
                gevent.sleep(self.think * (1 + self.spread * (2 * self.rng.random() - 1)) if self.spread else self.think)
                view = sub.view
                if view is None or view["over"] or not view["legal_actions"] or Run.stopping:
                    continue
            acted = view["version"]
            action = self.rng.choice(view["legal_actions"])["id"]
            sent, started = time.time(), time.perf_counter()
            status, answer = self._post(f"/api/tables/{table.id}/actions", headers,
                                        {"action": action, "version": view["version"]})
            answered, took = time.time(), time.perf_counter() - started
            if status == 409:  # someone moved first (a simultaneous decision): not an error
                Run.conflicts += Run.inside(sent)
                continue
            if answer is None:
                acted = -1  # try again (after a pause): this seat may be the one the table waits for
                gevent.sleep(1)
                continue
            if Run.inside(sent) and Run.inside(answered):
                Run.rtt_ms.append(1000 * took)
                table.actions.append((answer["version"], answered))

    def _post(self, path: str, headers: dict, body: dict) -> tuple[int, dict | None]:
        """POST an action: ``(status, answer)``, the answer None unless 200 (a failure unless 409).

        A request on a kept-alive connection that the server had closed meanwhile
        (status 0) is sent once more on a new one: safe, since the version in the
        body turns a repeat of an applied action into a 409.
        """
        for attempt in range(2):
            with self.client.post(path, headers=headers, json=body, name="POST /actions",
                                  catch_response=True) as r:
                if r.status_code == 0 and attempt == 0:
                    r.success()
                    Run.resent += 1
                    continue
                if r.status_code == 409:
                    r.success()
                    return 409, None
                if r.status_code != 200:
                    r.failure(f"{r.status_code}: {(r.text or repr(r.error))[:200]}")
                    return r.status_code, None
                return 200, r.json()
        raise AssertionError("unreachable: the second attempt returns")


def cpu_s(pid: int) -> float:
    """Process ``pid``'s user + system CPU time in seconds (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def dump(path: str) -> None:
    """Write the raw record of the window as JSON to ``path`` (``plan.figures`` turns it into figures).

    ``pushed`` holds, per client action, ``[table id, version, answered, first, last]``: when its
    POST was answered and when the first and the last subscriber of the table held that version
    (time.time()); ``run.py`` adds when the server stamped the action, from the database.
    """
    pushed: list[list] = []
    missing = pushes = applied = 0
    for table in Run.tables:
        subs = table.subs
        pushes += sum(len(s.versions) for s in subs)
        for version, answered in table.actions:
            reached = [s.reached(version) for s in subs]
            times = [t for t in reached if t is not None]
            if len(times) < len(reached):
                missing += 1
                continue
            pushed.append([table.id, version, answered, min(times), max(times)])
        spec = table.spectator
        before = [v for v, t in zip(spec.versions, spec.times) if t < Run.start]
        during = [v for v, t in zip(spec.versions, spec.times) if Run.inside(t)]
        if during:
            applied += during[-1] - (before[-1] if before else 0)
    raw = {"window_s": Run.end - Run.start, "window": [Run.start, Run.end], "client_actions": len(Run.rtt_ms),
           "applied_actions": applied, "rtt_ms": Run.rtt_ms, "client_lag_ms": Run.lag_ms, "pushed": pushed,
           "missing_pushes": missing, "pushes": pushes,
           "conflicts": Run.conflicts, "resent": Run.resent, "failures": Run.failures,
           "tables_created": len(Run.tables),
           "server_cpu_s": Run.cpu[1] - Run.cpu[0], "client_cpu_s": Run.own_cpu[1] - Run.own_cpu[0],
           "rss_kib": [Run.rss[0], rss_kib(int(CONFIG["server_pid"]))]}
    Path(path).write_text(json.dumps(raw))


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` in KiB (``VmRSS`` of ``/proc/<pid>/status``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def await_server(environment: Environment) -> None:
    """Poll /api/health (the server starts while locust does); note the server's memory, let the users in."""
    url = environment.host + "/api/health"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    break
        except OSError:
            pass
        gevent.sleep(0.1)
    Run.rss.append(rss_kib(int(CONFIG["server_pid"])))
    SERVER_UP.set()


def watch_lag() -> None:
    """Sleep ``LAG_TICK`` again and again, noting in the window how much later than asked each sleep ended.

    Every greenlet of this process waits its turn on one thread: when a post's answer has arrived but
    the greenlet that sent it is not run yet, its round trip is counted late by about this much. A
    client lag near the round trip's percentiles says the clients, not the server, set them.
    """
    while not Run.stopping:
        asked = time.perf_counter()
        gevent.sleep(LAG_TICK)
        late = time.perf_counter() - asked - LAG_TICK
        if Run.inside(time.time()):
            Run.lag_ms.append(1000 * max(0.0, late))


def conduct(environment: Environment) -> None:
    """Open the window once every seat plays its first table, close it after ``seconds``, then stop."""
    pid = int(CONFIG["server_pid"])
    await_server(environment)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if len(SEATS) >= len(USERS) and all(u.ready for u in SEATS):
            break
        gevent.sleep(0.2)
    Run.cpu.append(cpu_s(pid))
    Run.own_cpu.append(cpu_s(os.getpid()))
    Run.start = time.time()
    gevent.spawn(watch_lag)
    gevent.sleep(float(CONFIG["seconds"]))
    Run.end = time.time()
    Run.cpu.append(cpu_s(pid))
    Run.own_cpu.append(cpu_s(os.getpid()))
    Run.stopping = True
    gevent.sleep(float(CONFIG.get("grace", 3.0)))
    dump(CONFIG["out"])
    for table in Run.tables:
        for sub in table.subs:
            if not sub.closed:
                sub.close()
    environment.runner.quit()


@events.request.add_listener
def _count_failed_requests(request_type: str, name: str, exception: BaseException | None = None,
                           **_kw: object) -> None:
    if exception is not None:
        Run.fail(f"{request_type} {name}: {exception}")


@events.test_start.add_listener
def _start_conductor(environment: Environment, **_kw: object) -> None:
    gevent.spawn(conduct, environment)


#: Set once the server answers /api/health: the users wait for it in on_start.
SERVER_UP = Event()
