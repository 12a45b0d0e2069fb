"""Server CPU per action through the real ASGI app, in process (a benchmark, not a test).

    PYTHONPATH=src python benchmarks/action_path.py --actions 2000
    PYTHONPATH=src python benchmarks/action_path.py --actions 2000 --baseline main --profile
    PYTHONPATH=src python benchmarks/action_path.py --actions 2000 --baseline main --together

Builds ``create_site`` on a fresh SQLite file in a temporary folder, runs its
lifespan, and drives it with ``httpx.AsyncClient`` over ``ASGITransport`` (no
socket, no uvicorn): tables of the five titles with two human seats each, and
for every action the mover's ``GET /api/tables/{id}`` (to pick one of its legal
actions, seeded) and then ``POST /api/tables/{id}/actions`` with ``Prefer:
return=minimal``, as the load benchmark's clients do. A finished game is
replaced by a new table of the same title.

It reports the process CPU time (``time.process_time``: every thread, so the
thread pool's work is counted) per request kind, in milliseconds: ``post``
(the action itself), ``get`` (a view), and ``client``: what the same httpx
client costs per request against an ASGI app that answers at once, to be
subtracted from both. ``--profile`` adds a cProfile breakdown of the POSTs by
package (own CPU time of the event loop's thread; the thread pool's share, the
endpoint itself, is not in it); cProfile slows the POSTs two to three times, so
take the CPU figures from a run without ``--profile``. ``--baseline REV`` runs the same measurement first on
``git archive REV src`` in a subprocess and prints both; with ``--together`` the
two run at the same time (on a shared, noisy machine each then sees the same
load, so their ratio holds better than that of two runs one after the other;
give the machine two free cores). ``--raw`` sends the views and actions as
hand-made ASGI calls (:class:`RawClient`) instead of through httpx: no client
cost to subtract (``client`` is 0), and no gzip (the client accepts none).
``--json`` prints one JSON line instead of the table.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import httpx

GAMES = ("biblios-dice", "corsairs-of-valeria", "dice-kingdoms-of-valeria", "kingdom-of-dice", "valeria-card-kingdoms")


def package_of(filename: str) -> str:
    """The part of the stack a profiled function's file belongs to (``dicetable.server``, ``fastapi``, ...)."""
    path = filename.replace("\\", "/")
    if "/dicetable/" in path:
        rest = path.split("/dicetable/", 1)[1].split("/")
        return "dicetable." + rest[0].removesuffix(".py") if len(rest) > 1 else "dicetable"
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1].split("/")[0].removesuffix(".py")
    if path.startswith("~") or path.startswith("<"):
        return "builtins"
    return "stdlib:" + Path(path).stem


def breakdown(profile: cProfile.Profile, top: int = 14) -> list[tuple[str, float]]:
    """``[(package, share of own time)]``, largest first, the ``top`` largest."""
    stats = pstats.Stats(profile)
    totals: dict[str, float] = {}
    for (filename, _line, _name), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        key = package_of(filename)
        totals[key] = totals.get(key, 0.0) + tottime
    whole = sum(totals.values()) or 1.0
    return [(k, v / whole) for k, v in sorted(totals.items(), key=lambda kv: -kv[1])[:top]]


async def _null_app(scope, receive, send) -> None:
    """An ASGI app that reads the request and answers ``{}`` (the client's own cost)."""
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"{}"})


async def client_cost(requests: int) -> float:
    """CPU milliseconds per request of the httpx client alone (against :func:`_null_app`)."""
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=_null_app), base_url="http://t") as c:
        for _ in range(50):
            await c.get("/x")
        start = time.process_time()
        for i in range(requests):
            if i % 2:
                await c.post("/x", json={"action": "a", "version": i}, headers={"Prefer": "return=minimal"})
            else:
                await c.get("/x", headers={"Authorization": "Bearer t"})
        return (time.process_time() - start) * 1000 / requests


class Answer:
    """What :class:`RawClient` gives back: the status and the body (``json()`` decodes it)."""

    def __init__(self, status_code: int, body: bytes) -> None:
        self.status_code, self.content = status_code, body
        self.text = body.decode("utf-8", "replace")

    def json(self):
        """The body as JSON."""
        return json.loads(self.content)


class RawClient:
    """Calls an ASGI app directly with hand-made requests (``--raw``): no HTTP client at all, so the
    CPU time of a request is the server's own. The ``get``/``post`` of an ``httpx.AsyncClient`` as far
    as :func:`drive` uses them (a path, ``json=``, ``headers=``); the answer is not compressed."""

    def __init__(self, app) -> None:
        self.app = app

    async def request(self, method: str, path: str, headers: dict, body: bytes = b"") -> Answer:
        """One request; the answer (AssertionError if the app sent none)."""
        sent: list[dict] = []
        given = False

        async def receive() -> dict:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Event().wait()  # never: the client stays connected
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
        if body:
            raw += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": raw, "client": ("127.0.0.1", 50000), "server": ("bench", 80)}
        await self.app(scope, receive, send)
        assert sent and sent[0]["type"] == "http.response.start", sent
        return Answer(sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:]))

    async def get(self, path: str, headers: dict) -> Answer:
        """``GET path``."""
        return await self.request("GET", path, headers)

    async def post(self, path: str, json: dict, headers: dict) -> Answer:
        """``POST path`` with the JSON body ``json``."""
        return await self.request("POST", path, headers, _json_bytes(json))


def _json_bytes(value) -> bytes:
    return json.dumps(value).encode()


class Table:
    """One table being played: its id, tokens by seat, the title."""

    def __init__(self, client: httpx.AsyncClient, game: str) -> None:
        self.client, self.game = client, game
        self.id = ""
        self.tokens: dict[int, str] = {}

    async def create(self) -> None:
        """POST /api/tables with two human seats (AssertionError when refused)."""
        r = await self.client.post("/api/tables", json={"game": self.game, "players": 2,
                                                        "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert r.status_code == 201, r.text
        made = r.json()
        self.id = made["table_id"]
        self.tokens = {s["seat"]: s["token"] for s in made["seats"]}


async def drive(app, actions: int, rng: random.Random, profile: cProfile.Profile | None,
                raw: bool = False) -> dict:
    """Play ``actions`` accepted actions through ``app``; CPU ms per POST and per GET, and counts
    (``raw``: the views and actions sent by a :class:`RawClient`, tables still created over httpx)."""
    post_cpu = get_cpu = 0.0
    posts = gets = refused = 0
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as creator:
            client = RawClient(app) if raw else creator
            tables = [Table(creator, g) for g in GAMES]
            for t in tables:
                await t.create()
            warm = 100
            done = 0
            while done < actions + warm:
                t = tables[done % len(tables)]
                headers = {"Authorization": f"Bearer {t.tokens[0]}"}
                c0 = time.process_time()
                view = (await client.get(f"/api/tables/{t.id}", headers=headers)).json()
                if view["over"]:
                    await t.create()
                    continue
                seat = view["to_move"][0]
                headers = {"Authorization": f"Bearer {t.tokens[seat]}"}
                if seat != 0:
                    view = (await client.get(f"/api/tables/{t.id}", headers=headers)).json()
                c1 = time.process_time()
                action = rng.choice(view["legal_actions"])["id"]
                if done >= warm and profile is not None:
                    profile.enable()
                c2 = time.process_time()
                r = await client.post(f"/api/tables/{t.id}/actions", json={"action": action,
                                                                            "version": view["version"]},
                                      headers={**headers, "Prefer": "return=minimal"})
                c3 = time.process_time()
                if profile is not None:
                    profile.disable()
                if r.status_code != 200:
                    refused += 1
                    continue
                assert r.json() == {"version": view["version"] + 1, "undos": view["undos"]}, r.text
                done += 1
                if done > warm:
                    post_cpu += c3 - c2
                    get_cpu += c1 - c0
                    posts += 1
                    gets += 1 + (seat != 0)
    return {"posts": posts, "gets": gets, "refused": refused, "post_ms": post_cpu * 1000 / posts,
            "get_ms": get_cpu * 1000 / gets}


def measure(actions: int, seed: int, with_profile: bool, raw: bool = False) -> dict:
    """Build the app on a fresh SQLite file and :func:`drive` it; the figures (and the profile breakdown)."""
    os.environ.setdefault("DICETABLE_LIMITS", "off")
    from dicetable.web import create_site

    profile = cProfile.Profile(time.thread_time) if with_profile else None
    with tempfile.TemporaryDirectory() as tmp:
        app = create_site(f"sqlite:///{tmp}/bench.db", bot_threads=1)
        out = asyncio.run(drive(app, actions, random.Random(seed), profile, raw))
    out["client_ms"] = 0.0 if raw else asyncio.run(client_cost(1000))
    out["post_server_ms"] = out["post_ms"] - out["client_ms"]
    out["get_server_ms"] = out["get_ms"] - out["client_ms"]
    out["source"] = str(Path(sys.modules["dicetable"].__file__ or "").parent)
    if profile is not None:
        out["profile"] = breakdown(profile)
    return out


def baseline(rev: str, args: argparse.Namespace, meanwhile: Callable[[], dict] | None = None) -> dict:
    """The same measurement on ``git archive REV src``, run in a subprocess; its figures. With
    ``meanwhile``, that is called (and its result kept under ``"meanwhile"``) while the subprocess runs."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(root), "archive", rev, "src"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        cmd = [sys.executable, __file__, "--actions", str(args.actions), "--seed", str(args.seed), "--json"]
        cmd += ["--profile"] if args.profile else []
        cmd += ["--raw"] if args.raw else []
        env = {**os.environ, "PYTHONPATH": f"{tmp}/src"}
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as proc:
            during = meanwhile() if meanwhile is not None else None
            out, err = proc.communicate()
        if proc.returncode:
            raise subprocess.CalledProcessError(proc.returncode, cmd, out, err)
        result = json.loads(out.strip().splitlines()[-1])
    result["source"] = f"git {rev}"
    if during is not None:
        result["meanwhile"] = during
    return result


def render(name: str, r: dict) -> str:
    """A few lines of figures of one run."""
    lines = [f"{name} ({r['source']}): {r['posts']} actions, {r['refused']} refused",
             f"  CPU per POST action {r['post_ms']:.3f} ms (server {r['post_server_ms']:.3f} ms), "
             f"per GET view {r['get_ms']:.3f} ms (server {r['get_server_ms']:.3f} ms), "
             f"httpx client {r['client_ms']:.3f} ms a request"]
    for package, share in r.get("profile", ()):
        lines.append(f"    {share:6.1%}  {package}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module's docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=2000, help="actions measured (after 100 of warm-up)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the choices")
    ap.add_argument("--profile", action="store_true", help="cProfile the POSTs, own time by package")
    ap.add_argument("--baseline", metavar="REV", help="also measure git revision REV's src, first")
    ap.add_argument("--together", action="store_true",
                    help="with --baseline: measure both at the same time (each sees the same machine load)")
    ap.add_argument("--raw", action="store_true",
                    help="send the views and actions as ASGI calls, without an HTTP client (nothing to subtract)")
    ap.add_argument("--json", action="store_true", help="one JSON line instead of a table")
    args = ap.parse_args(argv)
    results = {}
    if args.baseline and args.together:
        results["before"] = baseline(args.baseline, args,
                                     lambda: measure(args.actions, args.seed, args.profile, args.raw))
        results["now"] = results["before"].pop("meanwhile")
    else:
        if args.baseline:
            results["before"] = baseline(args.baseline, args)
        results["now"] = measure(args.actions, args.seed, args.profile, args.raw)
    if args.json:
        print(json.dumps(results["now"]))
        return 0
    for name, r in results.items():
        print(render(name, r))
    if "before" in results:
        b, n = results["before"]["post_server_ms"], results["now"]["post_server_ms"]
        print(f"server CPU per action: {b:.3f} ms -> {n:.3f} ms ({(b - n) / b:.0%} less)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
