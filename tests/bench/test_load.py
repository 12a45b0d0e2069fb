"""The load benchmark (benchmarks/load): its table mix, and a short smoke run of the whole thing.

The smoke starts the server as ``make run`` does and locust with three tables
at a think time of 0.2 s for a 5-second window (15 to 20 s in all); it checks
that the benchmark works, not how fast the server is (docs/load.md has the
figures).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load"
sys.path.insert(0, str(LOAD))
from plan import GAMES, figures, mix, percentile, push_delays, seat_users  # noqa: E402
from profile_split import split  # noqa: E402
from run import logged_errors  # noqa: E402

#: Player range every title of GAMES takes (GET /api/games: Kingdom of Dice 1-4, the others 1 or 2 to 5).
PLAYERS = range(2, 5)


def test_the_mix_deals_every_title_and_player_count_with_mostly_human_seats():
    tables = mix(30)
    assert {t["game"] for t in tables} == set(GAMES)
    assert {(t["game"], t["players"]) for t in tables} == {(g, p) for g in GAMES for p in PLAYERS}
    for t in tables:
        assert len(t["seats"]) == t["players"] and t["seats"].count("human") >= 2
        assert set(t["seats"]) <= {"human", "greedy"}
    seats = [kind for t in tables for kind in t["seats"]]
    assert 0 < seats.count("greedy") < seats.count("human")
    users = seat_users(tables)
    assert len(users) == seats.count("human")
    assert all(tables[slot]["seats"][seat] == "human" for slot, seat in users)
    with pytest.raises(ValueError, match="at least 1 table, got 0"):
        mix(0)


def test_percentiles_are_nearest_rank():
    values = list(range(1, 101))  # 1..100: the p-th percentile by nearest rank is p itself
    assert [percentile(values, p) for p in (1, 50, 95, 99, 100)] == [1, 50, 95, 99, 100]
    assert percentile([7.0], 99) == 7.0 and percentile([], 50) is None


def test_figures_divide_by_the_window_the_actions_and_the_tables():
    raw = {"window_s": 10.0, "client_actions": 40, "applied_actions": 50, "rtt_ms": [10.0] * 40,
           "push_ms": [2.0] * 40, "missing_pushes": 0, "pushes": 160, "conflicts": 1, "failures": [],
           "tables_created": 5, "server_cpu_s": 0.25, "client_cpu_s": 1.0, "rss_kib": [100_000, 102_000],
           "client_lag_ms": [0.5] * 98 + [30.0, 40.0]}
    got = figures(raw, tables=4)
    assert got["client_lag_ms"] == {"p50": 0.5, "p99": 30.0}  # nearest rank: the 99th of 100 values
    assert got["actions_per_s"] == 4.0 and got["applied_per_s"] == 5.0
    assert got["cpu_ms_per_action"] == 5.0  # 250 ms of CPU over 50 applied actions
    assert got["kib_per_table"] == 500.0  # 2,000 KiB grown over 4 live tables
    assert got["rtt_ms"] == {"p50": 10.0, "p95": 10.0, "p99": 10.0} and got["push_ms"]["p99"] == 2.0
    assert got["failures"] == 0 and got["push_samples"] == 40


def test_push_delay_runs_from_the_server_stamp_to_the_last_subscriber():
    pushed = [["t1", 5, 100.020, 100.010, 100.050],  # stamped at 100.000: 50 ms to the last subscriber
              ["t1", 6, 101.030, 101.040, 101.060]]  # no stamp: from the answer (before the first push)
    delays, stamped = push_delays(pushed, {("t1", 5): 100.000, ("t2", 6): 0.0})
    assert stamped == 1
    assert [round(d, 3) for d in delays] == [50.0, 30.0]


def test_server_errors_count_each_logged_traceback_once():
    log = ("INFO: ok\nTraceback (most recent call last):\n  x\nValueError\n\n"
           "The above exception was the direct cause of the following exception:\n\n"
           "Traceback (most recent call last):\n  y\nRuntimeError\nTraceback (most recent call last):\n  z\n")
    assert logged_errors(log) == 2 and logged_errors("INFO: ok\n") == 0


def test_a_profile_sample_goes_to_its_innermost_part():
    http = "run (uvicorn/main.py:1);app (fastapi/routing.py:2);post_action (dicetable/server/routes/tables.py:3)"
    lines = [
        http + ";act (dicetable/server/tables.py:4);publish (dicetable/server/pushes.py:5);dumps (json/__init__.py:6) 7",
        http + ";act (dicetable/server/tables.py:4);append (dicetable/server/store.py:8);execute (sqlalchemy/x.py:9) 3",
        http + ";parts (dicetable/server/views.py:1);draw (dicetable/games/biblios_dice/board.py:2) 2",
        http + ";act (dicetable/server/tables.py:4);pick (dicetable/games/kingdom_of_dice/policy.py:3) 1",
        http + " 5",
        "main (somewhere.py:1) 1",
        "not a py-spy line",
    ]
    assert split(lines) == {"JSON": 7, "store/ORM": 3, "board drawing": 2, "bots": 1, "HTTP stack": 5, "other": 1}


def test_a_short_load_run_plays_pushes_and_reports(tmp_path):
    out = tmp_path / "load.jsonl"
    command = [sys.executable, str(LOAD / "run.py"), "--profile", "evening", "--think", "0.2", "--tables", "3",
               "--seconds", "5", "--grace", "1", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result["profile"] == "evening" and result["think_s"] == 0.2 and result["tables"] == 3
    assert result["failures"] == 0, result["failure_samples"]
    assert result["server_errors"] == 0
    assert result["client_actions"] > 0 and result["applied_actions"] >= result["client_actions"]
    # every subscriber of the table (its seats' sockets and the spectator's) got every action's version
    assert result["missing_pushes"] == 0 and result["push_samples"] == result["client_actions"]
    assert result["pushes"] >= 3 * result["client_actions"]  # at least two seats and a spectator each
    assert result["actions_per_s"] > 0 and result["cpu_ms_per_action"] > 0 and result["kib_per_table"] > 0
    rtt = result["rtt_ms"]
    assert 0 < rtt["p50"] <= rtt["p95"] <= rtt["p99"]
    assert 0 <= result["push_ms"]["p50"] <= result["push_ms"]["p99"] and result["push_ms"]["p99"] > 0
    assert "round trip ms" in done.stdout and "push delay ms" in done.stdout  # the printed table
    lag = result["client_lag_ms"]  # the probe slept through the window
    assert lag["p50"] is not None and 0 <= lag["p50"] <= lag["p99"]


def test_a_short_probed_run_reports_the_servers_collections_app_and_commit_times(tmp_path):
    """``--probe`` (with ``--probe-switch``, and thinks spread around their mean): the server notes its collections, its action requests'
    time in the app and each append's wait for its commit; the result holds their figures. With
    ``$DICETABLE_PROBE_YOUNG`` it writes what each collection is about to walk."""
    out, young = tmp_path / "load.jsonl", tmp_path / "young.txt"
    command = [sys.executable, str(LOAD / "run.py"), "--profile", "evening", "--think", "0.2", "--tables", "3",
               "--seconds", "5", "--grace", "1", "--probe", "--probe-switch", "1", "--think-spread", "0.5",
               "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, DICETABLE_PROBE_YOUNG=str(young)))
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(out.read_text().splitlines()[0])
    assert result["failures"] == 0 and result["server_errors"] == 0
    assert result["think_s"] == 0.2 and result["think_spread"] == 0.5  # thinks of 0.1-0.3 s
    sizes = re.findall(r"generation ([012]): objects in the generations \[(\d+), (\d+), (\d+)\]", young.read_text())
    assert sizes  # a line per collection of the server, and its start-up ones walked its modules' objects
    assert max(sum(map(int, line[1:])) for line in sizes) > 10_000
    probe = result["probe"]
    assert probe["thresholds"] == "the server's"
    for name in ("app_ms", "commit_ms"):  # every client action was appended on the loop and answered
        assert 0 < probe[name]["p50"] <= probe[name]["p99"], (name, probe)
    assert probe["commit_ms"]["p50"] <= probe["app_ms"]["p99"]  # the commit is waited for inside the app
    assert 1 <= probe["http_connections_opened"] <= result["client_actions"] + 20  # kept alive, not one a move
    assert "objects only the collector would free (the full collection that found them:" in done.stderr


def test_the_clients_pool_reuses_a_kept_connection_whatever_its_descriptor_number():
    """geventhttpclient's pool checks a kept connection with ``select``, which takes any descriptor at or
    above 1024 for a dead connection; with the locustfile's ``poll`` stand-in the pool hands the same
    connection out again past 1024, and still drops one the server closed or wrote to unasked."""
    code = (
        "import socket, sys\n"
        f"sys.path.insert(0, {str(LOAD)!r})\n"
        "import locustfile\n"
        "from geventhttpclient.connectionpool import ConnectionPool\n"
        "hold = [socket.socket() for _ in range(1100)]\n"
        "server = socket.socket(); server.bind(('127.0.0.1', 0)); server.listen(8)\n"
        "port = server.getsockname()[1]\n"
        "pool = ConnectionPool('127.0.0.1', port, '127.0.0.1', port, size=1)\n"
        "def again(sock):\n"
        "    pool.return_socket(sock)\n"
        "    return pool.get_socket()\n"
        "first = pool.get_socket(); peer, _ = server.accept(); fd = first.fileno()\n"
        "kept = again(first) is first\n"
        "peer.send(b'x')\n"
        "second = again(first); peer2, _ = server.accept()\n"
        "peer2.close()\n"
        "third = again(second)\n"
        "print(fd >= 1024, kept, second is not first, third is not second)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True", "True"]
