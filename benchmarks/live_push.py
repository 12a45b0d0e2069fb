"""What the live table costs on the wire and on the server (issue 24 item 8; docs/web.md, "Live updates").

Two parts, per title at its largest player count, one greedy-bot game each:

1. **Wire** (a real server, started as ``make run`` starts it, with
   ``DICETABLE_LIMITS=off``, on a throwaway SQLite file): every seat is
   created human, seat 0 and a spectator open the live WebSocket, then every
   seat is handed to its greedy bot and the game plays itself. Reported per
   change message (both connections): bytes uncompressed (median, p95, max)
   and compressed as permessage-deflate sends it (zlib raw deflate, 12-bit
   window, the server's level ``wsdeflate.DEFLATE_LEVEL``, memLevel 5, context
   kept across the connection's messages, sync flush, the 4-byte tail dropped:
   what ``dicetable serve``'s WebSocket protocol sets, whatever the client offers); the bytes the client's
   sockets really received, over the sum of the emulated frames, checks the
   emulation. A message's bytes beside its parts' HTML (events, log lines,
   changed fields, the observation patch, the JSON around) are reported apart:
   that is the wire's own share.
   Then the first page load of the running table: the table page, its
   stylesheets, its scripts (ES module imports followed) and the game's
   board.css, as served gzipped (bytes on the wire), plus the first view
   message compressed.
2. **Server CPU** (in process: a ``TableManager`` on SQLite whose
   connections are plain queues, so nothing but the pushes is timed): every
   seat and a spectator connected, greedy bots choosing for every seat.
   Thread CPU time per action of building the pushes (each viewer's view
   once, its change message, queueing) and of the hand-over to the
   connections, of which the board drawing (the games' ``board_view``) is
   reported separately, and so are the view's other fields (observation,
   decision, legal actions, scores: the engine's share): the wire's own
   cost (the observation diff, log lines, change messages, JSON, queueing)
   is the rest. The players of this part: ``--cpu-players`` (default 4, the
   issue's target, within each game's range). Deflating
   the messages for the two connections per viewer is timed apart (it runs on
   the event loop, per connection).

    python benchmarks/live_push.py [GAME ...] [--seed N] [--no-wire] [--no-cpu] [--cpu-players N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import httpx

from dicetable.bots import make_bot
from dicetable.engine import get_game, list_games
from dicetable.server.wsdeflate import DEFLATE_LEVEL

KB = 1024


def _q(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


class Deflate:
    """permessage-deflate of one connection, as the server's websockets compresses (see the docstring)."""

    def __init__(self, level: int = DEFLATE_LEVEL) -> None:
        self.z = zlib.compressobj(level, zlib.DEFLATED, -12, 5)

    def frame(self, text: str) -> int:
        """Bytes of the frame that carries ``text`` (payload plus the 2-10 byte header)."""
        data = self.z.compress(text.encode()) + self.z.flush(zlib.Z_SYNC_FLUSH)
        payload = len(data) - 4
        return payload + (2 if payload < 126 else 4 if payload < 65536 else 10)


class CountingSocket(socket.socket):
    """A TCP socket that counts the bytes it receives."""

    received = 0

    def recv(self, n: int, *args) -> bytes:  # type: ignore[override]
        data = super().recv(n, *args)
        self.received += len(data)
        return data


# ------------------------------------------------------------------- wire
def start_server(database: str) -> tuple[subprocess.Popen, str, Path]:
    """``dicetable serve`` as ``make run`` starts it (limits off), on a free port; (process, base URL, log)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = Path(tempfile.mkstemp(suffix=".log")[1])
    env = dict(os.environ, DICETABLE_LIMITS="off", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "dicetable.cli.main", "serve", "--port", str(port),
                             "--database", database], stdout=out.open("wb"), stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base, out
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start: " + out.read_text())


def first_load(base: str, page: str, game: str) -> dict:
    """Bytes on the wire (gzip accepted) of a table page and everything it loads: stylesheets, scripts
    (module imports followed) and the game's board.css."""
    sizes: dict[str, int] = {}
    with httpx.Client(base_url=base, headers={"Accept-Encoding": "gzip"}) as c:
        todo = [page, f"/static/games/{game}/board.css"]
        while todo:
            path = todo.pop()
            if path in sizes:
                continue
            with c.stream("GET", path) as r:
                raw = b"".join(r.iter_raw())
            body = zlib.decompress(raw, 16 + zlib.MAX_WBITS) if r.headers.get("content-encoding") == "gzip" else raw
            text = body.decode(errors="replace")
            if r.status_code != 200:
                raise SystemExit(f"{path}: {r.status_code}")
            sizes[path] = len(raw)
            found = re.findall(r'<script[^>]*\bsrc="([^"]+)"', text) + \
                re.findall(r'<link[^>]*rel="stylesheet"[^>]*\bhref="(/[^"]+)"', text)
            if path.endswith(".js"):
                found += [str(Path(path).parent / m) if m.startswith(".") else m
                          for m in re.findall(r'(?:import|from)\s*\(?\s*["\'](\.{0,2}/[^"\']+)["\']', text)]
            todo += [os.path.normpath(f) for f in found if f.startswith("/") or f.startswith(".")]
    return sizes


def wire(base: str, game: str, seed: int) -> dict:
    """Play one bot game of ``game`` with seat 0 and a spectator connected; the wire figures."""
    from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
    from websockets.sync.client import connect

    players = get_game(game).max_players
    with httpx.Client(base_url=base, timeout=60) as c:
        made = c.post("/api/tables", json={"game": game, "players": players, "seed": seed,
                                           "seats": [{"kind": "human", "level": "greedy"}] * players})
        made.raise_for_status()
        made = made.json()
        tid = made["table_id"]
        tokens = {s["seat"]: s["token"] for s in made["seats"]}
        socks, conns = [], []
        for token in (tokens[0], None):
            sock = CountingSocket(socket.AF_INET, socket.SOCK_STREAM)
            sock.connect(("127.0.0.1", int(base.rsplit(":", 1)[1])))
            url = base.replace("http", "ws") + f"/api/tables/{tid}/live" + (f"?token={token}" if token else "")
            # offer permessage-deflate as Chromium does (the server answers with its 12-bit window anyway)
            conns.append(connect(url, sock=sock, max_size=None, compression=None,
                                 extensions=[ClientPerMessageDeflateFactory(client_max_window_bits=True)]))
            socks.append(sock)
        first = [str(ws.recv(timeout=30)) for ws in conns]
        deflate = [Deflate() for _ in conns]
        first_frames = [d.frame(t) for d, t in zip(deflate, first)]
        for seat, token in tokens.items():  # every seat to its greedy bot: the game plays itself now
            r = c.post(f"/api/tables/{tid}/seats/{seat}/bot", headers={"Authorization": f"Bearer {token}"},
                       json={"level": "greedy"})
            r.raise_for_status()
        page = first_load(base, f"/tables/{tid}?token={tokens[0]}", game)
        sizes: list[int] = []
        frames: list[int] = []
        rest: list[int] = []  # a message's bytes beside its parts' HTML: events, log, set, patch, framing
        total = sum(first_frames)
        for n, ws in enumerate(conns):
            over = json.loads(first[n])["over"]
            while not over:
                text = ws.recv(timeout=120)
                message = json.loads(text)
                frame = deflate[n].frame(text)
                total += frame
                if message["type"] == "change":
                    sizes.append(len(text.encode()))
                    frames.append(frame)
                    rest.append(sizes[-1] - sum(len(json.dumps(h, ensure_ascii=False).encode())
                                                for h in message["parts"].values()))
                    over = message["set"].get("over", over)
                else:
                    over = message["over"]
        time.sleep(0.2)
        received = sum(s.received for s in socks)
        for ws in conns:
            ws.close()
    return {"game": game, "players": players, "changes": len(sizes),
            "raw": (statistics.median(sizes), _q(sizes, 0.95), max(sizes)),
            "deflated": (statistics.median(frames), _q(frames, 0.95), max(frames)),
            "rest": (statistics.median(rest), _q(rest, 0.95), max(rest)),
            "check": received / total if total else 0.0, "first_view": statistics.mean(first_frames),
            "page": sum(page.values()), "page_files": page}


# -------------------------------------------------------------------- CPU
def cpu(game: str, seed: int, players: int | None = None, levels: tuple[int, ...] = ()) -> dict:
    """Server CPU per action of building and handing over the pushes, in process (see the docstring).

    With ``levels`` (zlib levels) the messages each connection received are
    deflated again afterwards, each level in turn over every connection, one
    context a connection kept across its messages, A and B alternated
    five times: ``deflate_levels`` maps a level to (CPU ms per action for
    every connection, median frame bytes, p95, total bytes).
    """
    import queue

    from dicetable.server.store import Store
    from dicetable.server.tables import Subscriber, TableManager

    class Inline:
        def call_soon_threadsafe(self, fn, *args):
            fn(*args)

    spec = get_game(game)
    players = min(spec.max_players, max(spec.min_players, players or spec.max_players))
    with tempfile.TemporaryDirectory() as tmp:
        m = TableManager(Store(f"sqlite:///{tmp}/cpu.db"), bot_threads=1)
        clock = time.thread_time
        spent = {"publish": 0.0, "deliver": 0.0, "draw": 0.0, "fields": 0.0}

        def timed(name, fn):
            def run(*args, **kwargs):
                t0 = clock()
                try:
                    return fn(*args, **kwargs)
                finally:
                    spent[name] += clock() - t0
            return run

        m.pushes.publish = timed("publish", m.pushes.publish)
        m.pushes.deliver = timed("deliver", m.pushes.deliver)
        m.views.parts = timed("draw", m.views.parts)
        m.views.fields = timed("fields", m.views.fields)  # the view's fields from the engine, the board included
        made = m.create(game, players, {}, seed, [{"kind": "human"}] * players, None)
        lt = m.get(made["table_id"])
        subs = [Subscriber(v, Inline(), queue.SimpleQueue()) for v in [*range(players), None]]
        for sub in subs:
            m.subscribe(lt, sub)
        zips = [Deflate() for _ in subs]
        sent: list[list[str]] = [[] for _ in subs]  # each connection's messages, in order
        build, send, draw, engine, deflate = [], [], [], [], []
        bot = make_bot("greedy", seed=seed)
        while not lt.state.is_over:
            for sub, z in zip(subs, zips):
                while not sub.queue.empty():
                    z.frame(sub.queue.get_nowait())
            for key in spent:
                spent[key] = 0.0
            seat = lt.state.to_move[0]
            m.act(lt.id, seat, bot.choose(lt.state, seat).id, lt.version, minimal=True)
            build.append(spent["publish"] * 1000)
            send.append(spent["deliver"] * 1000)
            draw.append(spent["draw"] * 1000)
            engine.append((spent["fields"] - spent["draw"]) * 1000)
            t0 = clock()
            for sub, z, texts in zip(subs, zips, sent):  # two connections per viewer deflate their copy each
                while not sub.queue.empty():
                    text = sub.queue.get_nowait()
                    texts.append(text)
                    z.frame(text)
                    Deflate().frame(text)
            deflate.append((clock() - t0) * 1000)
        m.close()
        m.store.close()
    push = [b + s for b, s in zip(build, send)]
    return {"deflate_levels": deflate_levels(sent, levels, len(build)) if levels else {},
            "players": players, "actions": len(build), "push": statistics.median(push),
            "push_p95": _q(push, 0.95), "draw": statistics.median(draw), "engine": statistics.median(engine),
            "overhead": statistics.median([p - d for p, d in zip(push, draw)]),
            "wire": statistics.median([p - d - e for p, d, e in zip(push, draw, engine)]),
            "send": statistics.median(send), "deflate": statistics.median(deflate)}


def deflate_levels(sent: list[list[str]], levels: tuple[int, ...], actions: int) -> dict:
    """Each zlib level's (CPU ms per action, median frame bytes, p95 frame bytes, total bytes) of deflating
    every connection's messages ``sent`` (two connections a viewer, as :func:`cpu` times), alternated."""
    spent = {level: 0.0 for level in levels}
    frames: dict[int, list[float]] = {level: [] for level in levels}
    encoded = [[t.encode() for t in texts] for texts in sent]
    for rep in range(5):
        for level in levels:
            t0 = time.thread_time()
            for _ in range(2):
                for datas in encoded:
                    z = zlib.compressobj(level, zlib.DEFLATED, -12, 5)
                    for data in datas:
                        out = z.compress(data) + z.flush(zlib.Z_SYNC_FLUSH)
                        if rep == 0:
                            frames[level].append(len(out) - 4)
            spent[level] += time.thread_time() - t0
    return {level: (spent[level] / 5 * 1000 / max(1, actions), statistics.median(frames[level]),
                    _q(frames[level], 0.95), sum(frames[level]) // 2) for level in levels}


def main() -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all five)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-wire", action="store_true", help="skip the real-server part")
    parser.add_argument("--no-cpu", action="store_true", help="skip the in-process CPU part")
    parser.add_argument("--cpu-players", type=int, default=4,
                        help="players of the CPU part (default 4, the issue's target; clamped to each game's range)")
    parser.add_argument("--deflate-levels", default="",
                        help="zlib levels to compare on the CPU part's messages, e.g. 6,1 (CPU and bytes per level)")
    args = parser.parse_args()
    games = args.games or [s.id for s in list_games()]
    if not args.no_wire:
        with tempfile.TemporaryDirectory() as tmp:
            proc, base, log = start_server(f"sqlite:///{tmp}/bench.db")
            try:
                print("WebSocket change messages (seat 0 + spectator), KB: uncompressed med/p95/max | "
                      "of which not parts med/p95/max | deflated med/p95/max | socket/emulated | "
                      "first view deflated | first page load gzipped")
                for game in games:
                    r = wire(base, game, args.seed)
                    print(f"{game:26} {r['players']}p {r['changes']:5} msgs  "
                          + "/".join(f"{v / KB:.1f}" for v in r["raw"]) + "  |  "
                          + "/".join(f"{v / KB:.2f}" for v in r["rest"]) + "  |  "
                          + "/".join(f"{v / KB:.1f}" for v in r["deflated"])
                          + f"  |  {r['check']:.2f}  |  {r['first_view'] / KB:.1f}  |  {r['page'] / KB:.1f}"
                          + "  (" + ", ".join(f"{Path(p.split('?')[0]).name or p}: {n / KB:.1f}"
                                              for p, n in r["page_files"].items()) + ")", flush=True)
            finally:
                proc.terminate()
                proc.wait(10)
                log.unlink(missing_ok=True)
    if not args.no_cpu:
        print("server CPU per action, every seat + spectator connected, ms (median): build+send (p95) | "
              "board drawing | other view fields (engine) | wire (diff, messages, JSON) | of which hand-over | "
              "deflate, 2 connections per viewer")
        for game in games:
            levels = tuple(int(v) for v in args.deflate_levels.split(",") if v)
            r = cpu(game, args.seed, args.cpu_players, levels)
            print(f"{game:26} {r['players']}p {r['actions']:5} actions  {r['push']:.2f} ({r['push_p95']:.2f}) | "
                  f"{r['draw']:.2f} | {r['engine']:.2f} | {r['wire']:.2f} | {r['send']:.3f} | "
                  f"{r['deflate']:.2f}", flush=True)
            for level, (ms, med, p95, total) in r["deflate_levels"].items():
                print(f"    deflate level {level}: {ms:.3f} ms per action, frame median {med} B, p95 {p95:.0f} B, "
                      f"all {total / KB:.1f} KiB over the game (one connection a viewer)", flush=True)


if __name__ == "__main__":
    main()
