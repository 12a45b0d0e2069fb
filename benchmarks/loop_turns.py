"""How many turns of the event loop an action answered on the loop spans, in process (issue 26: the wait
in an action's round trip; docs/load.md, "An action's turns of the loop").

On a busy server every turn of the loop runs whatever every table queued, so each turn an action
waits for adds a whole turn's length to its round trip. This counts them, which the machine's load
does not change: ``--tables`` tables (Kingdom of Dice, two human seats, a spectator's connection
each) on a ``TableManager`` over a fresh SQLite file, and one actor per table that acts through
``TableManager.act_soon`` (the action lane's call) as soon as its last action was answered, with a
seeded random legal action. The loop (asyncio's own, not uvloop: the count needs its selector) counts
its turns in its selector, which it asks once per turn.
Reported: actions, actions per second (wall), and per action the turns (p50, p99) from the call
to the answer and from the call to its change reaching the spectator's queue (the connection's
sender runs one turn after that), and the wall milliseconds from the call to the answer.

    PYTHONPATH=src python benchmarks/loop_turns.py --tables 50 --seconds 10

Give each tree its own ``PYTHONPATH`` to compare two (the script uses only the server's public calls).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import selectors
import statistics
import tempfile
import time
from pathlib import Path

from dicetable.server.live import Subscriber
from dicetable.server.store import Store
from dicetable.server.tables import TableManager

GAME = "kingdom-of-dice"


class Counter(selectors.DefaultSelector):  # type: ignore[misc,valid-type]
    """The loop's selector, counting its turns: an asyncio loop asks its selector once per turn
    (waiting, when nothing is ready, until a socket or another thread wakes it)."""

    def __init__(self) -> None:
        super().__init__()
        self.turns = 0

    def select(self, timeout: float | None = None):  # type: ignore[no-untyped-def]
        self.turns += 1
        return super().select(timeout)


class Watch:
    """A spectator's connection queue that notes the turn each message arrived in."""

    def __init__(self, counter: Counter) -> None:
        self.counter = counter
        self.arrived: list[int] = []

    def put_nowait(self, message: str) -> None:
        self.arrived.append(self.counter.turns)


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _actor(m: TableManager, counter: Counter, rng: random.Random, until: float,
                 out: dict[str, list[float]]) -> None:
    loop = asyncio.get_running_loop()
    while time.perf_counter() < until:
        made = m.create(GAME, 2, {}, rng.randrange(1 << 30), [{"kind": "human"}] * 2, None)
        lt = m.get(made["table_id"])
        watch = Watch(counter)
        m.pushes.subscribe(lt, Subscriber(None, loop, watch))
        while not lt.state.is_over and time.perf_counter() < until:
            seat = lt.state.to_move[0]
            action = rng.choice(lt.state.legal_actions(seat)).id
            start, at = counter.turns, time.perf_counter()
            seen = len(watch.arrived)
            answer = await m.act_soon(lt.id, seat, action, lt.version, minimal=True)
            if answer is None:
                raise RuntimeError(f"act_soon declined table {lt.id}: its lock was held")
            out["answer_turns"].append(counter.turns - start)
            out["answer_ms"].append(1000 * (time.perf_counter() - at))
            if len(watch.arrived) > seen:
                out["push_turns"].append(watch.arrived[seen] - start)


async def _run(tables: int, seconds: float, seed: int, counter: Counter) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'turns.db'}")
        m = TableManager(store, bot_threads=1)
        try:
            out: dict[str, list[float]] = {"answer_turns": [], "answer_ms": [], "push_turns": []}
            began = time.perf_counter()
            await asyncio.gather(*(_actor(m, counter, random.Random(seed + n), began + seconds, out)
                                   for n in range(tables)))
            took = time.perf_counter() - began
        finally:
            m.close()
            store.close()
    n = len(out["answer_turns"])
    return {"tables": tables, "actions": n, "actions_per_s": round(n / took, 1),
            "turns_to_answer": {"p50": _quantile(out["answer_turns"], 0.5), "p99": _quantile(out["answer_turns"], 0.99),
                                "mean": round(statistics.fmean(out["answer_turns"]), 2)},
            "turns_to_push": {"p50": _quantile(out["push_turns"], 0.5), "p99": _quantile(out["push_turns"], 0.99),
                              "mean": round(statistics.fmean(out["push_turns"]), 2)},
            "answer_ms": {"p50": round(_quantile(out["answer_ms"], 0.5), 2),
                          "p99": round(_quantile(out["answer_ms"], 0.99), 2)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables acting at once (default 50)")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the actors act (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="the actors' first seed (default 1)")
    args = parser.parse_args()
    counter = Counter()
    loop = asyncio.SelectorEventLoop(counter)
    try:
        print(json.dumps(loop.run_until_complete(_run(args.tables, args.seconds, args.seed, counter))))
    finally:
        loop.close()


if __name__ == "__main__":
    main()
