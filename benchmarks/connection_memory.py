"""Server memory per live connection, apart from memory per table (issue 26, item 4): one run, one server.

    .venv/bin/python benchmarks/connection_memory.py [--connections 400] [--steps 4] [--actions 6]

Starts ``dicetable serve`` as the load benchmark does (benchmarks/load/run.py: a fresh temporary
folder and its SQLite file, ``DICETABLE_LIMITS=off``), creates tables of every title in turn (two
human seats, at most 48 spectators a table; the tables exist before the first measurement, so
their cost is not counted) and then, in
``--steps`` equal steps, opens spectator WebSockets to them in turn up to ``--connections``: after
each step every table takes ``--actions`` actions (its seat to move posts the first legal action),
every connection reads every message the actions pushed, and the server's resident memory
(``VmRSS`` of ``/proc/<pid>/status``) is read. The slope of RSS over connections (least squares
over the steps, leaving out the first, whose pushes also warm the new tables' caches and the
process's allocator) is the memory one more live connection costs, in KiB. This is done twice, each
time on a server of its own: connections that offer permessage-deflate, as browsers do (the
server then keeps a zlib compressor and decompressor per connection), and connections that do
not.

Prints one table and appends one JSON line to benchmarks/results/connection-memory.jsonl
(``--out``). Exit status 1 when the server fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent / "load"))
from run import LoadError, free_port, serve_command, stop, wait_healthy  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "connection-memory.jsonl"
TITLES = ("kingdom-of-dice", "corsairs-of-valeria", "biblios-dice", "dice-kingdoms-of-valeria",
          "valeria-card-kingdoms")


def rss_kib(pid: int) -> int:
    """The resident set size of process ``pid`` in KiB (``VmRSS``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise LoadError(f"no VmRSS for process {pid}")


def call(base: str, method: str, path: str, body: dict | None = None, token: str | None = None) -> Any:
    """One JSON request to the server; its JSON answer (LoadError naming the request when not 2xx)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        raise LoadError(f"{method} {path}: {exc.code} {exc.read()[:300]!r}") from None


def new_tables(base: str, connections: int) -> list[dict]:
    """Tables of every title in turn, two human seats each, enough for ``connections`` spectators within
    the server's cap per table (48 a table, under ``DICETABLE_WS_PER_TABLE``'s default 64):
    ``[{"id", "tokens"}]``."""
    tables = []
    count = len(TITLES) * max(1, -(-connections // (48 * len(TITLES))))
    for game in (TITLES * count)[:count]:
        made = call(base, "POST", "/api/tables",
                    {"game": game, "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
        tables.append({"id": made["table_id"], "tokens": {s["seat"]: s["token"] for s in made["seats"]}})
    return tables


def act(base: str, table: dict) -> bool:
    """The table's seat to move posts its first legal action; False when the game is over."""
    for seat, token in table["tokens"].items():
        view = call(base, "GET", f"/api/tables/{table['id']}", token=token)
        if view["over"]:
            return False
        if view["legal_actions"]:
            call(base, "POST", f"/api/tables/{table['id']}/actions",
                 {"action": view["legal_actions"][0]["id"], "version": view["version"]}, token=token)
            return True
    return False


async def drain(sockets: list, quiet_s: float = 0.5) -> int:
    """Read every socket until none has received anything for ``quiet_s``; the messages read."""
    async def one(ws: Any) -> int:
        n = 0
        while True:
            try:
                await asyncio.wait_for(ws.recv(), quiet_s)
            except asyncio.TimeoutError:
                return n
            n += 1
    return sum(await asyncio.gather(*(one(ws) for ws in sockets)))


async def measure(base: str, pid: int, tables: list[dict], total: int, steps: int, actions: int,
                  deflate: bool) -> list[tuple[int, int]]:
    """``[(connections open, server RSS KiB)]`` after each step (the first with none of these open)."""
    from websockets.asyncio.client import connect

    ws_base = base.replace("http://", "ws://", 1)
    sockets: list = []
    points = [(0, rss_kib(pid))]
    try:
        for step in range(1, steps + 1):
            goal = total * step // steps
            while len(sockets) < goal:
                table = tables[len(sockets) % len(tables)]
                ws = await connect(f"{ws_base}/api/tables/{table['id']}/live", max_size=2**24,
                                   compression="deflate" if deflate else None)
                await ws.recv()  # the full view
                sockets.append(ws)
            for _ in range(actions):
                for table in tables:
                    await asyncio.to_thread(act, base, table)
            await drain(sockets)
            points.append((len(sockets), rss_kib(pid)))
    finally:
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    return points


def slope(points: list[tuple[int, int]]) -> float:
    """The least-squares slope of ``points`` ``[(x, y)]``."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx


def one_server(args: argparse.Namespace, deflate: bool) -> list[tuple[int, int]]:
    """Start a server, measure one kind of connection on it, stop it: :func:`measure`'s points."""
    folder = Path(tempfile.mkdtemp(prefix="dicetable-conn-"))
    server = None
    try:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        log = folder / "server.log"
        env = dict(os.environ, DICETABLE_LIMITS="off", PYTHONUNBUFFERED="1")
        with log.open("wb") as out:
            server = subprocess.Popen(serve_command(port, None, 1), cwd=folder, env=env, stdout=out,
                                      stderr=subprocess.STDOUT, start_new_session=True)
        wait_healthy(server, base, log)
        tables = new_tables(base, args.connections)
        for table in tables:  # warm: the table in memory, its first snapshots built
            act(base, table)
        points = asyncio.run(measure(base, server.pid, tables, args.connections, args.steps, args.actions,
                                     deflate))
        if server.poll() is not None:
            raise LoadError(f"the server exited with status {server.returncode}:\n{log.read_text()[-2000:]}")
        return points
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)


def run(args: argparse.Namespace) -> dict:
    """Both kinds of connection, each on a server of its own (so that neither reuses the other's freed
    memory); the result (one JSON line)."""
    result: dict[str, Any] = {"when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                              "command": " ".join(sys.argv), "connections": args.connections}
    for deflate in (True, False):
        points = one_server(args, deflate)
        result["deflate" if deflate else "plain"] = {"points": points,
                                                     "kib_per_connection": round(slope(points[1:]), 1)}
    return result


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run, append the JSON line, print the table; 1 on failure."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--connections", type=int, default=400, help="connections of each kind (default 400)")
    ap.add_argument("--steps", type=int, default=4, help="measurements along the way (default 4, at least 3)")
    ap.add_argument("--actions", type=int, default=6, help="actions per table after each step (default 6)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="JSON lines file the result is appended to")
    args = ap.parse_args(argv)
    if args.steps < 3:
        ap.error("--steps must be at least 3 (the slope leaves out the first step)")
    try:
        result = run(args)
    except LoadError as exc:
        print(f"connection_memory: {exc}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as out:
        out.write(json.dumps(result) + "\n")
    print("| connections | KiB per connection | RSS KiB at each step |\n|---|---|---|")
    for key in ("deflate", "plain"):
        got = result[key]
        rss = " / ".join(f"{n}: {kib:,}" for n, kib in got["points"])
        print(f"| {key} | {got['kib_per_connection']} | {rss} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
