"""The load benchmark (not a test): a server as ``make run`` starts it, driven by locust, one JSON line of figures.

    python benchmarks/load/run.py --profile evening --tables 300 --seconds 60
    python benchmarks/load/run.py --profile saturation --tables 50 --seconds 60

Starts ``dicetable serve --port P`` in a fresh temporary folder (so its
database is that folder's ``dicetable.db``, as ``make run`` makes it; with
``--database URL`` that database instead; ``--workers N`` is passed on when N
is above 1) with ``DICETABLE_LIMITS=off`` (every client of the benchmark comes
from 127.0.0.1) and, meanwhile, locust headless on ``locustfile.py`` in its
own process (its gevent monkey-patching stays there; its users wait until
``/api/health`` answers, and so does this runner), then stops both, also on Ctrl-C. The figures (docs/load.md says what
each one means) are appended as one JSON line to
``benchmarks/results/load.jsonl`` (``--out``) and printed as a table.
``--probe`` has the server load ``probe/sitecustomize.py``: the result then holds its
collector's work in the window and its action requests' time in the app, and a census of
its cyclic garbage is printed (docs/load.md, "Cycles and the collector's thresholds").
Exit status 1 when the server or locust failed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plan import THINK, figures, mix, percentile, push_delays, render, seat_users  # noqa: E402

HERE = Path(__file__).resolve().parent
#: The folder of the probe the server loads with --probe (its sitecustomize.py).
PROBE = HERE / "probe"
RESULTS = HERE.parent / "results" / "load.jsonl"
#: Seconds to wait for the server's /api/health before giving up.
START_PATIENCE = 60.0


class LoadError(RuntimeError):
    """The server or locust did not run as it should; the message says what happened."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop(proc: subprocess.Popen | None) -> None:
    """SIGTERM the process group of ``proc`` (started in a session of its own), SIGKILL after 10 s."""
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
    except ProcessLookupError:
        pass


def serve_command(port: int, database: str | None, workers: int, access_log: bool = False,
                  keep_alive: int | None = None) -> list[str]:
    """The server's command line: ``dicetable serve --port P`` (the console script beside this Python),
    with ``--access-log`` when asked (a line per request, as the server wrote before it was opt-in) and
    ``--keep-alive`` when given (else the server's default)."""
    script = Path(sys.executable).with_name("dicetable")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "dicetable.cli.main"]
    command += ["serve", "--port", str(port)]
    if database:
        command += ["--database", database]
    if workers != 1:
        command += ["--workers", str(workers)]
    if access_log:
        command += ["--access-log"]
    if keep_alive is not None:
        command += ["--keep-alive", str(keep_alive)]
    return command


def shown(url: str) -> str:
    """A database URL as it may be written down: without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def logged_errors(log: str) -> int:
    """How many tracebacks the server logged (an exception raised while handling another counts once)."""
    chained = ("The above exception was the direct cause", "During handling of the above exception")
    lines = log.splitlines()
    return (sum(line.startswith("Traceback (most recent call last)") for line in lines)
            - sum(line.startswith(chained) for line in lines))


def wait_healthy(proc: subprocess.Popen, base: str, log: Path) -> None:
    """Return once ``base``/api/health answers 200; LoadError if the server exits or takes too long."""
    deadline = time.monotonic() + START_PATIENCE
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise LoadError(f"the server exited with status {proc.returncode}:\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    raise LoadError(f"the server did not answer /api/health within {START_PATIENCE:.0f} s")


def stamps(url: str, table_ids: set[str]) -> dict[tuple[str, int], float]:
    """When the server stamped each action of ``table_ids`` (its row's ``created``, just before the
    commit): ``{(table id, version made): seconds since the epoch}``."""
    from sqlalchemy import create_engine, select

    from dicetable.server.models import ActionRow

    engine = create_engine(url)
    out = {}
    ids = sorted(table_ids)
    try:
        with engine.connect() as conn:
            for at in range(0, len(ids), 500):
                rows = conn.execute(select(ActionRow.table_id, ActionRow.seq, ActionRow.created)
                                    .where(ActionRow.table_id.in_(ids[at:at + 500])))
                for table_id, seq, created in rows:
                    if created.tzinfo is None:  # SQLite keeps the UTC time without its zone
                        created = created.replace(tzinfo=timezone.utc)
                    out[(table_id, seq)] = created.timestamp()
    finally:
        engine.dispose()
    return out


def probe_figures(folder: Path, window: list[float], server_cpu_s: float, thresholds: str | None) -> dict:
    """What ``probe/sitecustomize.py`` wrote in ``folder`` during ``window`` (``[start, end]``, time.time()):
    per generation the collections, their CPU ms in all and the longest one's wall ms; the collector's
    share of the server's CPU; the HTTP connections opened (WebSockets included); the ms from a
    ``POST .../actions`` reaching the app to its answer (p50/p99, answers 200 only); the ms from an append
    queued on the event loop to its commit (p50/p99)."""
    start, end = window
    per: dict[str, dict] = {}
    for line in (folder / "gc.txt").read_text().splitlines():
        at, generation, wall, cpu, _freed = line.split()
        if start <= float(at) <= end:
            g = per.setdefault(f"gen{generation}", {"collections": 0, "cpu_ms": 0.0, "longest_ms": 0.0})
            g["collections"] += 1
            g["cpu_ms"] += float(cpu)
            g["longest_ms"] = max(g["longest_ms"], float(wall))
    for g in per.values():
        g["cpu_ms"], g["longest_ms"] = round(g["cpu_ms"]), round(g["longest_ms"], 1)
    rows = (line.split() for line in (folder / "app.txt").read_text().splitlines())
    app = sorted(float(ms) for at, ms, status in rows if status == "200" and start <= float(at) <= end)
    commits = sorted(float(ms) for at, ms in (line.split() for line in (folder / "commits.txt").read_text().splitlines())
                     if start <= float(at) <= end)
    gc_cpu = sum(g["cpu_ms"] for g in per.values()) / 1000
    opened = sum(start <= float(at) <= end for at in (folder / "connections.txt").read_text().split())
    return {"thresholds": thresholds or "the server's", "collections": per, "http_connections_opened": opened,
            "gc_cpu_share": round(gc_cpu / server_cpu_s, 3) if server_cpu_s else None,
            "app_ms": {"p50": percentile(app, 50), "p99": percentile(app, 99)},
            "commit_ms": {"p50": percentile(commits, 50), "p99": percentile(commits, 99)}}


def run(args: argparse.Namespace) -> dict:
    """Start the server, run locust, stop both; the result (one line of load.jsonl)."""
    think = THINK[args.profile] if args.think is None else args.think
    users = len(seat_users(mix(args.tables)))
    folder = Path(tempfile.mkdtemp(prefix="dicetable-load-"))
    server = locust = None
    try:
        port = args.port or free_port()
        base = f"http://127.0.0.1:{port}"
        log = folder / "server.log"
        env = dict(os.environ, DICETABLE_LIMITS="off", PYTHONUNBUFFERED="1")
        server_env = dict(env)
        if args.probe:  # the server imports probe/sitecustomize.py at start-up
            server_env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PROBE), env.get("PYTHONPATH")) if p)
            server_env["DICETABLE_PROBE"] = str(folder / "probe")
            if args.probe_gc:
                server_env["DICETABLE_PROBE_GC"] = args.probe_gc
            if args.probe_switch is not None:
                server_env["DICETABLE_PROBE_SWITCH"] = str(args.probe_switch)
        with log.open("wb") as out:
            server = subprocess.Popen(serve_command(port, args.database, args.workers, args.access_log,
                                                    args.keep_alive), cwd=folder,
                                      env=server_env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        raw_path = folder / "raw.json"
        config = {"tables": args.tables, "think": think, "think_spread": args.think_spread,
                  "seconds": args.seconds, "grace": args.grace,
                  "server_pid": server.pid, "out": str(raw_path)}
        spawn_rate = args.spawn_rate or max(10.0, users / 20)
        cap = args.seconds + args.grace + users / spawn_rate + 180
        command = [sys.executable, "-m", "locust", "-f", str(HERE / "locustfile.py"), "--headless",
                   "--host", base, "-u", str(users), "-r", str(spawn_rate), "--run-time", f"{int(cap)}s",
                   "--only-summary", "--loglevel", "WARNING", "--exit-code-on-error", "0"]
        locust_log = folder / "locust.log"
        with locust_log.open("wb") as out:
            locust = subprocess.Popen(command, env=dict(env, DICETABLE_LOAD=json.dumps(config)), cwd=folder,
                                      stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        wait_healthy(server, base, log)  # locust starts meanwhile; its users wait for the same answer
        print(f"server pid {server.pid} on {base}; {users} seat users on {args.tables} tables", file=sys.stderr)
        try:
            locust.wait(cap + 60)
        except subprocess.TimeoutExpired:
            raise LoadError("locust did not stop in time") from None
        if not raw_path.exists():
            raise LoadError(f"locust ended (status {locust.returncode}) without its record:\n"
                            f"{locust_log.read_text()[-3000:]}")
        raw = json.loads(raw_path.read_text())
        if args.probe and server.poll() is None:
            server.send_signal(signal.SIGUSR2)  # the probe's census of what only the collector would free
            time.sleep(3)
        url = args.database or f"sqlite:///{folder / 'dicetable.db'}"
        raw["push_ms"], stamped = push_delays(raw["pushed"], stamps(url, {row[0] for row in raw["pushed"]}))
        result = {"when": datetime.now(timezone.utc).isoformat(timespec="seconds"), "profile": args.profile,
                  "tables": args.tables, "seat_users": users, "think_s": think,
                  "think_spread": args.think_spread, "workers": args.workers,
                  "database": shown(args.database) if args.database else "sqlite (make run's default, a temp folder)",
                  "command": " ".join(sys.argv), "access_log": args.access_log, "keep_alive": args.keep_alive,
                  "settings": {k: v for k, v in os.environ.items() if k.startswith("DICETABLE_")}}
        result.update(figures(raw, args.tables))
        result["push_stamped"] = stamped
        result["server_errors"] = logged_errors(log.read_text(errors="replace"))
        if args.probe:
            result["probe"] = probe_figures(folder / "probe", raw["window"], raw["server_cpu_s"], args.probe_gc)
            census = folder / "probe" / "garbage.txt"
            if census.exists():
                print(census.read_text(), file=sys.stderr)
        return result
    finally:
        stop(locust)
        stop(server)
        if args.keep:
            print(f"logs kept in {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run, append the JSON line, print the table; 1 on failure."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keep-alive", type=int, metavar="SECONDS",
                    help="passed on to dicetable serve (default: the server's own)")
    ap.add_argument("--probe", action="store_true",
                    help="load probe/sitecustomize.py in the server: its collections, its action requests' time in "
                         "the app, and a census of its cyclic garbage after the run (in the result's 'probe')")
    ap.add_argument("--probe-switch", type=float, metavar="MS",
                    help="with --probe: the server's switch interval in milliseconds (CPython's: 5)")
    ap.add_argument("--probe-gc", metavar="off|YOUNG,MIDDLE,OLD",
                    help="with --probe: the collector's thresholds once the server settled it ('off': none run)")
    ap.add_argument("--profile", choices=sorted(THINK), required=True,
                    help="evening: think time 1 s; saturation: think time 0")
    ap.add_argument("--tables", type=int, default=50, help="tables live at once (default 50)")
    ap.add_argument("--seconds", type=float, default=60.0, help="length of the measured window (default 60)")
    ap.add_argument("--workers", type=int, default=1, help="server processes (passed to dicetable serve above 1)")
    ap.add_argument("--database", default=None, help="database URL (default: a fresh SQLite file, as make run)")
    ap.add_argument("--think", type=float, default=None, help="think time in seconds (default: the profile's)")
    ap.add_argument("--think-spread", type=float, default=0.0, metavar="F",
                    help="each think drawn uniformly from think x (1-F .. 1+F), the same mean (default 0: always "
                         "the think time; people do not all think exactly a second)")
    ap.add_argument("--grace", type=float, default=10.0, help="seconds the sockets are read after the window")
    ap.add_argument("--spawn-rate", type=float, default=None, help="users started per second")
    ap.add_argument("--port", type=int, default=None, help="the server's port (default: a free one)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="JSON lines file the result is appended to")
    ap.add_argument("--keep", action="store_true", help="keep the server's and locust's logs")
    ap.add_argument("--access-log", action="store_true",
                    help="start the server with --access-log (a line per request; off in make run)")
    args = ap.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.workers < 1:
        ap.error("--tables and --workers take 1 or more, --seconds a positive number")
    if args.probe_switch is not None and (not args.probe or not 0 < args.probe_switch <= 100):
        ap.error(f"--probe-switch needs --probe and takes milliseconds above 0 and at most 100, got {args.probe_switch}")
    if args.probe_gc is not None:
        parts = args.probe_gc.split(",")
        if not args.probe:
            ap.error("--probe-gc needs --probe (the probe sets the thresholds in the server)")
        if args.probe_gc != "off" and (len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts)):
            ap.error(f"--probe-gc takes 'off' or three positive whole numbers YOUNG,MIDDLE,OLD, got {args.probe_gc!r}")
    try:
        result = run(args)
    except LoadError as exc:
        print(f"load benchmark failed: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: the server and locust were stopped", file=sys.stderr)
        return 130
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as out:
        out.write(json.dumps(result) + "\n")
    print(render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
