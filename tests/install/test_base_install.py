"""A base install (``pip install .``, no extras) runs every entry point: the README's first command.

Each test runs the base environment's own interpreter or commands in fresh processes, so
nothing of the dev install (numpy, gymnasium, pytest...) can hide a missing dependency.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import subprocess
import time
import tomllib
from pathlib import Path

import httpx
import pytest

from .conftest import ROOT

#: Packages of the extras and of the test tools: none may be in a base install.
NOT_BASE = ("numpy", "gymnasium", "pettingzoo", "open_spiel", "matplotlib", "ray", "pytest", "hypothesis",
            "playwright", "locust", "gevent", "axe-playwright-python")
TITLES = {"kingdom-of-dice", "corsairs-of-valeria", "biblios-dice", "dice-kingdoms-of-valeria",
          "valeria-card-kingdoms"}


def run_in(python: Path, code: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter ``python`` (from a neutral folder, not the checkout)."""
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=timeout,
                          cwd=str(python.parent), env=_clean_env())


def _clean_env() -> dict:
    """The environment without anything that would put this checkout's sources or other packages
    on the path, and without the project's own settings (a new user has none)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV") and not k.startswith("DICETABLE_")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONNOUSERSITE"] = "1"  # nothing from a user's site-packages either
    return env


def test_the_base_environment_has_the_dependencies_and_no_extra(base_python):
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = [d.split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip() for d in deps]
    code = ("import importlib.metadata as m, json\n"
            "def has(n):\n"
            "    try:\n        m.version(n); return True\n"
            "    except m.PackageNotFoundError:\n        return False\n"
            f"print(json.dumps({{n: has(n) for n in {list(names) + list(NOT_BASE) + ['dicetable']!r}}}))")
    done = run_in(base_python, code)
    assert done.returncode == 0, done.stderr
    have = json.loads(done.stdout)
    assert have["dicetable"]
    assert [n for n in names if not have[n]] == [], "a base dependency is missing from `pip install .`"
    assert [n for n in NOT_BASE if have[n]] == [], "the base environment holds an extra: it would hide bugs"


#: Modules that are scripts run by a tool, not imported: Alembic runs its environment script
#: inside a migration context (``alembic.context.config`` exists only there).
SCRIPTS = {"dicetable.server.migrations.env"}

WALK = r"""
import importlib, json, pkgutil, traceback
import dicetable
print(json.dumps({"module": "dicetable", "error": None, "type": None}))
for info in pkgutil.walk_packages(dicetable.__path__, "dicetable."):
    try:
        importlib.import_module(info.name)
        out = {"module": info.name, "error": None, "type": None}
    except BaseException as exc:  # report every failure, the walk goes on
        out = {"module": info.name, "error": str(exc), "type": type(exc).__name__,
               "trace": traceback.format_exc()[-1500:]}
    print(json.dumps(out))
"""


def test_every_module_imports_on_a_base_install(base_python):
    """Every module imports; only the research package may refuse, and then by naming its extra."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    done = run_in(base_python, WALK)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    names = {r["module"] for r in rows}
    assert {"dicetable.server.app", "dicetable.cli.main", "dicetable.games.kingdom_of_dice.solo_round",
            "dicetable.bots.mcts"} <= names, "the walk did not reach the package's modules"
    bad = []
    for r in rows:
        if r["error"] is None or r["module"] in SCRIPTS:
            continue
        research = r["module"] == "dicetable.rl" or r["module"].startswith("dicetable.rl.")
        named = any(f"dicetable[{extra}]" in r["error"] for extra in extras)
        if not (research and r["type"] == "MissingExtra" and named):
            bad.append(f"{r['module']}: {r['type']}: {r['error']}\n{r.get('trace', '')}")
    assert bad == [], "modules that a base install cannot import:\n" + "\n".join(bad)


BOTS = r"""
import json, time
import dicetable
from dicetable.bots import BOT_NAMES, make_bot
out = []
for spec in dicetable.list_games():
    counts = sorted({c for c in (1, 2) if spec.min_players <= c <= spec.max_players})
    for players in counts:
        for level in BOT_NAMES:
            state = dicetable.new_game(spec.id, players=players, seed=7)
            seat = state.to_move[0]
            start = time.perf_counter()
            action = make_bot(level, seed=1).choose(state, seat)
            legal = [a.id for a in state.legal_actions(seat)]
            out.append({"game": spec.id, "players": players, "level": level, "ok": action.id in legal,
                        "seconds": round(time.perf_counter() - start, 2)})
print(json.dumps(out))
"""


def test_bots_of_every_level_play_every_title_on_a_base_install(base_python):
    done = run_in(base_python, BOTS, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = json.loads(done.stdout.splitlines()[-1])
    assert {r["game"] for r in rows} == TITLES
    assert any(r["game"] == "kingdom-of-dice" and r["players"] == 1 and r["level"] == "hard" for r in rows)
    assert [r for r in rows if not r["ok"]] == [], "a bot chose an action that is not legal"


def test_terminal_play_and_games_on_a_base_install(base_python, tmp_path):
    dicetable = base_python.parent / "dicetable"
    listed = subprocess.run([str(dicetable), "games"], capture_output=True, text=True, timeout=120,
                            env={**_clean_env(), "COLUMNS": "200"}, cwd=str(base_python.parent))
    assert listed.returncode == 0, listed.stderr
    for game in TITLES:
        assert game in listed.stdout
    for game in sorted(TITLES):
        done = subprocess.run([str(dicetable), "play", game, "--players", "2", "--human", "0", "--seed", "3",
                               "--layout", "compact"], capture_output=True, text=True, timeout=300,
                              env=_clean_env(), cwd=str(tmp_path), stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"{game}: {done.stdout[-1500:]}\n{done.stderr[-1500:]}"
        assert "Final scores" in done.stdout, f"{game}: the game did not reach its end"
        assert "Traceback" not in done.stdout + done.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_run_command(venv: Path, port: int) -> list[str]:
    """The server command of ``make run`` (its recipe's last line), for ``venv`` and ``port``."""
    done = subprocess.run(["make", "-s", "-n", "-C", str(ROOT), "run", f"VENV={venv}", f"PORT={port}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.strip() and not line.startswith("echo")]
    command = shlex.split(lines[-1])
    assert command[0].endswith("/dicetable") and "serve" in command, f"make run starts {lines[-1]!r}"
    return command


def _wait_for_human(client: httpx.Client, table_id: str, token: str, deadline: float) -> dict:
    while True:
        view = client.get(f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"}).json()
        if view["over"] or view["legal_actions"]:
            return view
        assert time.monotonic() < deadline, f"table {table_id}: the bots did not hand the move back"
        time.sleep(0.1)


#: (game, seats): seat 0 human, the others bots; a solo table and a hard bot included.
TABLES = [("kingdom-of-dice", ["greedy"]), ("kingdom-of-dice", []), ("kingdom-of-dice", ["hard"]),
          ("corsairs-of-valeria", ["greedy"]), ("biblios-dice", ["easy", "greedy"]),
          ("dice-kingdoms-of-valeria", ["greedy"]), ("valeria-card-kingdoms", ["greedy"])]


def test_make_run_serves_and_plays_every_title_on_a_base_install(base_python, tmp_path):
    port = _free_port()
    command = make_run_command(base_python.parent.parent, port)
    server = subprocess.Popen(command, cwd=str(tmp_path), env=_clean_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, start_new_session=True)
    output = ""
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            deadline = time.monotonic() + 60
            while True:
                assert server.poll() is None, f"the server died at start:\n{server.stdout.read()}"
                try:
                    if client.get("/api/games").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, "the server did not answer within 60 s"
                time.sleep(0.2)
            assert {g["id"] for g in client.get("/api/games").json()["games"]} >= TITLES
            lobby = client.get("/")
            assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
            for game, bots in TABLES:
                seats = [{"kind": "human"}] + [{"kind": "bot", "level": b} for b in bots]
                made = client.post("/api/tables", json={"game": game, "players": len(seats), "seats": seats})
                assert made.status_code == 201, made.text
                table_id = made.json()["table_id"]
                token = made.json()["seats"][0]["token"]
                page = client.get(f"/tables/{table_id}", params={"token": token})
                assert page.status_code == 200 and "text/html" in page.headers["content-type"]
                applied = 0
                end = time.monotonic() + 120
                while applied < 6:
                    view = _wait_for_human(client, table_id, token, end)
                    if view["over"]:
                        break
                    action = view["legal_actions"][0]["id"]
                    r = client.post(f"/api/tables/{table_id}/actions", headers={"Authorization": f"Bearer {token}"},
                                    json={"action": action, "version": view["version"]})
                    if r.status_code == 409:  # a bot moved at the same time (simultaneous decisions)
                        continue
                    assert r.status_code == 200, f"{game}: {r.status_code} {r.text}"
                    assert r.json()["version"] == view["version"] + 1
                    applied += 1
                assert applied == 6, f"{game} ended after {applied} human actions"
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGINT)  # Ctrl-C, as a terminal sends it: to the whole process group
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
                pytest.fail("the server did not stop within 30 s of Ctrl-C")
        output = server.stdout.read()
    assert "Traceback" not in output, f"the server printed a traceback:\n{output}"
    assert server.returncode in (0, -signal.SIGINT, 130), f"exit {server.returncode}:\n{output}"
