"""What encoding the server's JSON costs: the standard library's ``json`` beside ``orjson`` (issue 26 item 2).

Real views, made in process by a ``TableManager`` on a throwaway SQLite file:
one table of every title at its largest player count, played from a fixed
seed by each seat's first legal action, sampled every few actions. Encoded
per sample, in one run, the same way the server does:

* **live**: each viewer's full view message (``{"type": "view", ...}``, the
  WebSocket's biggest message) for every seat and a spectator;
* **http**: the seat's view as ``GET /api/tables/{id}`` answers it.

Reported: microseconds per encoding (the fastest of ``--repeat`` rounds over all
samples, the two encoders taking turns, per sample) for ``json.dumps(separators=(",", ":"), ensure_ascii=False)``
and ``orjson.dumps(...).decode()`` (a ``str``, as the WebSocket sends it), and
that both give the same value back.

    PYTHONPATH=src python benchmarks/json_encode.py [--steps 60] [--every 5] [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time

from dicetable.server.jsonio import dumps


def samples(steps: int, every: int) -> dict[str, list[dict]]:
    """``{"live": [view message, ...], "http": [view, ...]}`` from one table of every title."""
    from dicetable.engine import list_games
    from dicetable.server.store import Store
    from dicetable.server.tables import TableManager

    out: dict[str, list[dict]] = {"live": [], "http": []}
    with tempfile.TemporaryDirectory() as tmp:
        m = TableManager(Store(f"sqlite:///{tmp}/json.db"), bot_threads=1)
        try:
            for spec in list_games():
                players = spec.max_players
                made = m.create(spec.id, players, {}, 7, None, None)
                tid = made["table_id"]
                for step in range(steps):
                    lt = m.get(tid)
                    if lt.state.is_over:
                        break
                    if step % every == 0:
                        for seat in [*range(players), None]:
                            out["live"].append({"type": "view", **m.snapshot(lt, seat).view})
                        out["http"].append(m.view(lt, lt.state.to_move[0]))
                    seat = lt.state.to_move[0]
                    m.act(tid, seat, lt.state.legal_actions(seat)[0].id, lt.version)
        finally:
            m.close()
            m.store.close()
    return out


def std(value: object) -> str:
    """The standard library's compact encoding (what the server used before orjson)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def fast(value: object) -> str:
    """orjson's encoding, as a ``str``: the server's own (``dicetable.server.jsonio.dumps``)."""
    return dumps(value)


def per_op_us(fns: list, values: list[dict], repeat: int) -> list[float]:
    """Microseconds one encoding of one of ``values`` takes with each of ``fns``: the fastest of
    ``repeat`` rounds, the functions taking turns round by round (so a busy spell on the machine
    hits both alike, and the least disturbed round counts)."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            for v in values:
                fn(v)
            best[i] = min(best[i], (time.perf_counter() - t0) / len(values) * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=60, help="actions played per table")
    parser.add_argument("--every", type=int, default=5, help="sample the views every this many actions")
    parser.add_argument("--repeat", type=int, default=7, help="timed rounds (the fastest is reported)")
    args = parser.parse_args()
    got = samples(args.steps, args.every)
    for kind, values in got.items():
        assert all(json.loads(std(v)) == json.loads(fast(v)) for v in values), kind
        size = statistics.median(len(std(v).encode()) for v in values)
        a, b = per_op_us([std, fast], values, args.repeat)
        print(f"{kind:5} {len(values):4} views, median {size / 1024:6.1f} KiB: json {a:8.1f} us, "
              f"orjson {b:7.1f} us per encoding ({a / b:4.1f}x)")


if __name__ == "__main__":
    main()
