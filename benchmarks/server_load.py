"""Load benchmark of the game server (not a test): many tables played at once over HTTP + WebSocket.

Starts ``dicetable serve`` (one process on SQLite, or N processes sharing a
throwaway PostgreSQL with fsync on) on 127.0.0.1, creates ``--tables`` tables
of Corsairs of Valeria with two human seats and a greedy bot, and runs two
scripted clients per table: each keeps the table's live WebSocket open and
posts a (seeded random) legal action as soon as its seat may act. It measures,
for every accepted action, the time from sending the POST to receiving the
pushed view of that version on the same client's WebSocket. Each client stops
after ``--moves`` accepted actions or at the end of its game; the whole run is
capped at ``--seconds``. Prints JSON: actions/s, p50/p90/p99/max latency in
ms, the server processes' resident memory before and after the tables were
loaded and the difference per cached table.

    .venv/bin/python benchmarks/server_load.py --database sqlite
    .venv/bin/python benchmarks/server_load.py --database postgresql --processes 2

Measured 2026-12-01 on the shared 2-core VM while other jobs ran (load average
7 to 13), client and servers on the same two cores, ``--tables 50 --moves 30``:

==========================  =========  ======  ======  ==================
run                         actions/s  p50 ms  p99 ms  KiB / cached table
==========================  =========  ======  ======  ==================
SQLite, 1 process (FULL)    177        161     723     407
PostgreSQL, 2 processes     78         346     878     369 (both processes)
==========================  =========  ======  ======  ==================

(actions/s counts the clients' actions only; the bots add about one more for
every two.) The 100 ms p99 target is not met here: the VM's two cores were
shared by the client, the server and other work, and each action costs a
disk flush (SQLite ``synchronous=FULL``: about 8 ms a commit on this disk,
serialised; ``DICETABLE_SQLITE_SYNC=NORMAL`` brings it under 1 ms) plus one
view per connected seat.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.server.helpers import ServerProcess  # noqa: E402

from dicetable.server.pgtemp import TempPostgres  # noqa: E402


#: Tables whose client lost its WebSocket during the run (reported; should stay empty).
DROPPED: list = []
#: HTTP errors met by clients (reported; should stay empty).
FAILED: list = []
#: When the last action was accepted (clients whose partner stopped wait until the cap; not counted).
LAST = [0.0]


def rss_kib(pid: int) -> int:
    """Resident memory of a process and its children's sum is not needed: VmRSS of ``pid`` in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def human(base: str, ws_base: str, tid: str, token: str, seed: int, moves: int, latencies: list,
                deadline: float) -> int:
    """One scripted seat: act as soon as the pushed view offers actions; record post->push latency."""
    rng = random.Random(seed)
    done = 0
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base, timeout=30) as client, \
            websockets.connect(f"{ws_base}/api/tables/{tid}/live?token={token}", max_size=2**24, open_timeout=60) as ws:
        waiting: dict[int, float] = {}
        acted_at = -1
        while done < moves and time.monotonic() < deadline:
            try:
                view = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic())))
            except asyncio.TimeoutError:
                break
            except websockets.ConnectionClosed:
                DROPPED.append(tid)
                break
            if view.get("type") != "view":
                break
            sent = waiting.pop(view["version"], None)
            if sent is not None:
                latencies.append((time.perf_counter() - sent) * 1000)
            if view["over"]:
                break
            if view["legal_actions"] and view["version"] > acted_at:
                acted_at = view["version"]
                action = rng.choice(view["legal_actions"])["id"]
                waiting[view["version"] + 1] = time.perf_counter()
                try:
                    r = await client.post(f"/api/tables/{tid}/actions", headers=headers,
                                          json={"action": action, "version": view["version"]})
                except httpx.HTTPError as exc:
                    FAILED.append(repr(exc))
                    waiting.pop(view["version"] + 1, None)
                    acted_at = -1  # try again on the next view
                    continue
                if r.status_code == 200:
                    done += 1
                    LAST[0] = max(LAST[0], time.monotonic())
                else:
                    waiting.pop(view["version"] + 1, None)
    return done


async def run(servers: list, tables: int, moves: int, seconds: float) -> dict:
    """Create the tables, play them, return the figures."""
    bases = [s.base for s in servers]
    ws_bases = [s.base.replace("http://", "ws://") for s in servers]
    before = sum(rss_kib(s.proc.pid) for s in servers)
    made = []
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as c:
        for n in range(tables):
            r = await c.post("/api/tables", json={
                "game": "corsairs-of-valeria", "players": 3, "seed": 1000 + n,
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "greedy"}]})
            r.raise_for_status()
            made.append(r.json())
    latencies: list[float] = []
    start = time.monotonic()
    deadline = start + seconds
    jobs = []
    for n, t in enumerate(made):
        for seat in (0, 1):
            k = (n + seat) % len(servers)  # with two processes the two seats of a table use different ones
            jobs.append(human(bases[k], ws_bases[k], t["table_id"], t["seats"][seat]["token"], n * 2 + seat,
                              moves, latencies, deadline))
    counts = await asyncio.gather(*jobs)
    elapsed = max(LAST[0], start + 1e-9) - start
    after = sum(rss_kib(s.proc.pid) for s in servers)
    lat = sorted(latencies)

    def pct(p: float) -> float:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else float("nan")

    return {
        "tables": tables, "clients": 2 * tables, "processes": len(servers),
        "human_actions": sum(counts), "seconds": round(elapsed, 2),
        "human_actions_per_s": round(sum(counts) / elapsed, 1),
        "latency_ms": {"p50": pct(0.50), "p90": pct(0.90), "p99": pct(0.99), "max": round(lat[-1], 2) if lat else None,
                       "mean": round(statistics.fmean(lat), 2) if lat else None, "samples": len(lat)},
        "rss_kib_before": before, "rss_kib_after": after,
        "kib_per_cached_table": round((after - before) / tables, 1),
        "dropped_connections": len(DROPPED),
        "http_errors": len(FAILED),
    }


def main() -> None:
    """Parse the arguments, start the server(s), run, print JSON."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--processes", type=int, default=1, help="server processes (PostgreSQL only above 1)")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--moves", type=int, default=40, help="actions per human client at most")
    ap.add_argument("--seconds", type=float, default=120.0, help="cap on the whole run")
    args = ap.parse_args()
    if args.database == "sqlite" and args.processes != 1:
        ap.error("SQLite is served by one process; use --database postgresql for several")
    pg = None
    servers = []
    tmp = tempfile.mkdtemp(prefix="dicetable-load-")
    try:
        if args.database == "postgresql":
            pg = TempPostgres(fsync=True).start()
            url = pg.create_database("load")
        else:
            url = f"sqlite:///{os.path.join(tmp, 'load.db')}"
        servers = [ServerProcess(url).start() for _ in range(args.processes)]
        try:
            result = asyncio.run(run(servers, args.tables, args.moves, args.seconds))
            result["database"] = args.database
            print(json.dumps(result, indent=1))
        finally:
            report_errors(servers)
    finally:
        for s in servers:
            s.stop()
        if pg:
            pg.stop()


def report_errors(servers: list) -> None:
    """Print what the servers logged as errors (nothing, normally)."""
    for s in servers:
        errors = [line for line in s.log().splitlines() if "Error" in line or "Traceback" in line]
        if errors:
            print(f"server on port {s.port} logged {len(errors)} error line(s):")
            print("\n".join(s.log().splitlines()[-30:]))


if __name__ == "__main__":
    main()
