"""The viewers' snapshots: server CPU per action of building them, and what they keep alive for the collector.

Issue 26 (docs/load.md, "The viewers' snapshots, lighter"). In one process, one
``TableManager`` on a throwaway SQLite file: for each title, ``--tables``
tables at ``--players`` seats (within the title's range), every seat human,
seat 0 and a spectator connected to each (every seat and a spectator with
``--all-seats``; their connections' outlets record every message). The tables then take turns: one random legal action (seeded)
at each table in turn, ``--actions`` rounds, or until every game is over.

Reported per title:

- ``publish us/action``: CPU time (``time.process_time``) of
  ``Pushes.publish`` per action, that is building every connected viewer's
  snapshot (its view fields, board parts, log, change message) and queueing
  the messages. The collector is switched off while the tables play (it is
  measured by the next figure instead), so the figure is the building alone.
- ``tracked/table``: the objects the cyclic collector tracks that the
  process holds after the moves, beside what it held before the title's
  tables were opened (``len(gc.get_objects())`` after ``gc.collect()``, both
  times), divided by the number of tables: what a young collection walks per
  live table between two moves (its state, log, viewers' snapshots).
- ``in table``: the young objects (tracked, generation 0: made while the tables played, the
  collector being off, and still alive) reachable from the tables' own data (state, log, actions,
  seats, snapshots), counted once each: what a young collection would walk of the tables if it
  ran now (objects that survived a collection are older and not walked again; a collection also
  untracks the tuples of atoms it walks). ``in snapshots``: of those, the ones reachable from the
  tables' snapshots (``LiveTable.live``: each viewer's view). The types of the first are listed.
- ``young/table``: every young object alive after the moves (the tables', and whatever else the
  moves left alive: caches filled), per table; ``young gc us/table``: the CPU time of the young
  collection that then walks them (``gc.collect(0)``), per table.
- ``digest``: sha256 of every message every connection received, in order
  (the first 12 hex digits): two trees that send the same bytes print the
  same digest.

One table of each title is opened and played first and dropped, so what a
title loads once (modules, memoised menus and board pieces) is not counted.

    PYTHONPATH=<tree>/src python benchmarks/snapshot_cost.py [GAME ...] [--tables N] [--players N]
                                                            [--actions N] [--seed N]
"""

from __future__ import annotations

import argparse
import functools
import gc
import hashlib
import itertools
import random
import sys
import tempfile
import time
from collections import Counter
import types
from typing import Any

from dicetable.engine import get_game, list_games
from dicetable.server.store import Store
from dicetable.server.tables import Subscriber, TableManager


class Inline:
    """An event loop stand-in that runs what is handed to it at once."""

    def call_soon_threadsafe(self, fn, *args):
        fn(*args)


class Record:
    """An outlet that hashes every message it is given, in order (a client that reads everything)."""

    def __init__(self) -> None:
        self.hash = hashlib.sha256()
        self.count = 0

    def put_nowait(self, message: str) -> None:
        self.hash.update(message.encode())
        self.hash.update(b"\x00")
        self.count += 1


#: What :func:`tracked_in` does not walk into: the code and classes every table shares.
_SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
           functools.partial)


def tracked_in(roots: list) -> dict[int, Any]:
    """The distinct objects the collector tracks that are reachable from ``roots`` (roots included) by id,
    not walking into classes, modules or functions (shared by every table, not the tables' data)."""
    seen: dict[int, Any] = {}
    todo = [r for r in roots if gc.is_tracked(r)]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, _SHARED):
            continue
        seen[id(obj)] = obj
        todo.extend(o for o in gc.get_referents(obj) if gc.is_tracked(o) and id(o) not in seen)
    return seen


def run_title(manager: TableManager, game: str, args: argparse.Namespace) -> dict:
    spec = get_game(game)
    players = max(spec.min_players, min(spec.max_players, args.players))
    spent = [0.0, 0]
    publish = manager.pushes.publish

    def timed(lt: Any) -> None:
        t0 = time.process_time()
        try:
            publish(lt)
        finally:
            spent[0] += time.process_time() - t0
            spent[1] += 1

    def open_play(count: int, seed: int) -> tuple[list, list[Record]]:
        tables, outlets = [], []
        for n in range(count):
            made = manager.create(game, players, {}, seed + n, [{"kind": "human"}] * players, None)
            lt = manager.get(made["table_id"])
            loop: Any = Inline()
            for key in ([*range(players), None] if args.all_seats else [0, None]):
                out = Record()
                manager.subscribe(lt, Subscriber(key, loop, out))
                outlets.append(out)
            tables.append((lt, random.Random(seed + n)))
        return tables, outlets

    def play(tables: list, rounds: int, timing: bool) -> int:
        acted = 0
        manager.pushes.publish = timed if timing else publish
        try:
            for _ in range(rounds):
                moved = False
                for lt, rng in tables:
                    if lt.state.is_over:
                        continue
                    seat = lt.state.to_move[0]
                    choice = rng.choice(lt.state.legal_actions(seat))
                    manager.act(lt.id, seat, choice.id, lt.version, minimal=True)
                    acted += 1
                    moved = True
                if not moved:
                    break
        finally:
            manager.pushes.publish = publish
        return acted

    warm, _ = open_play(1, 10_000)  # what the title loads once
    play(warm, args.actions, False)
    del warm
    gc.collect()
    before = len(gc.get_objects())
    tables, outlets = open_play(args.tables, args.seed)
    gc.collect()
    gc.disable()
    try:
        spent[0], spent[1] = 0.0, 0
        acted = play(tables, args.actions, True)
        young = {id(o) for o in gc.get_objects(0)}
        alive = len(young)
        roots = [(lt.state, lt.events, lt.live, lt.actions, lt.notes, lt.seats, lt.seats_view) for lt, _ in tables]
        in_tables = {k: o for k, o in tracked_in(roots).items() if k in young}
        in_snaps = {k: o for k, o in tracked_in([lt.live for lt, _ in tables]).items() if k in young}
        kinds = Counter(type(o).__name__ for o in in_tables.values())
        del young, roots
    finally:
        gc.enable()
    # a young collection now: what the tables' moves left alive since the last one (the figures above
    # were taken with the collector off); its CPU time
    t0 = time.process_time()
    gc.collect(0)
    young_ms = (time.process_time() - t0) * 1000
    gc.collect()
    after = len(gc.get_objects())
    digest = hashlib.sha256()
    for out in outlets:
        digest.update(out.hash.digest())
    return {"game": game, "players": players, "tables": len(tables), "actions": acted,
            "us": spent[0] / max(1, spent[1]) * 1e6, "tracked": (after - before) / len(tables),
            "snaps": len(in_snaps) / len(tables), "table": len(in_tables) / len(tables),
            "kinds": {k: n / len(tables) for k, n in kinds.most_common(6)},
            "young": alive / len(tables), "young_us": young_ms * 1000 / len(tables), "messages": sum(o.count for o in outlets),
            "digest": digest.hexdigest()[:12]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="titles (default: all)")
    parser.add_argument("--tables", type=int, default=10, help="live tables per title (default 10)")
    parser.add_argument("--players", type=int, default=3, help="seats per table, within each title's range")
    parser.add_argument("--actions", type=int, default=60, help="rounds of one action per table (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all-seats", action="store_true",
                        help="connect every seat and a spectator (as the load benchmark's tables), not seat 0 and a spectator")
    args = parser.parse_args(argv)
    games = args.games or [g.id for g in list_games()]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        ids = (f"t{n:06d}" for n in itertools.count())
        manager = TableManager(Store(f"sqlite:///{tmp}/snapshots.db"), bot_threads=1, search_processes=0,
                               id_factory=lambda: next(ids))
        manager.start()
        try:
            for g in games:
                rows.append(run_title(manager, g, args))
                print(f"{g:28} done", file=sys.stderr, flush=True)
        finally:
            manager.close()
    print(f"{'title':28} {'seats':>5} {'tables':>6} {'actions':>7} {'publish us/action':>17} "
          f"{'tracked/table':>13} {'in table':>8} {'in snapshots':>12} {'young/table':>11} {'young gc us/table':>17} "
          f"{'messages':>8}  digest")
    for r in rows:
        print(f"{r['game']:28} {r['players']:5} {r['tables']:6} {r['actions']:7} {r['us']:17.0f} "
              f"{r['tracked']:13.0f} {r['table']:8.0f} {r['snaps']:12.0f} {r['young']:11.0f} {r['young_us']:17.1f} "
              f"{r['messages']:8}  {r['digest']}")
    for r in rows:
        print(f"{r['game']}: young objects of the tables by type, per table: "
              + ", ".join(f"{k} {n:.0f}" for k, n in r["kinds"].items()))
    total = sum(r["us"] * r["actions"] for r in rows) / max(1, sum(r["actions"] for r in rows))
    print(f"{'all titles':28} {'':5} {'':6} {sum(r['actions'] for r in rows):7} {total:17.0f} "
          f"{sum(r['tracked'] for r in rows) / len(rows):13.0f} {sum(r['table'] for r in rows) / len(rows):8.0f} "
          f"{sum(r['snaps'] for r in rows) / len(rows):12.0f} {sum(r['young'] for r in rows) / len(rows):11.0f} "
          f"{sum(r['young_us'] for r in rows) / len(rows):17.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
