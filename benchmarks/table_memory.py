"""Memory per live table, per title (issue 26 item 4: at most 200 KiB per live table).

In one process, one ``TableManager`` on a throwaway SQLite file: for each
title, ``--tables`` tables at ``--players`` seats (within the title's range),
every seat human, played by random legal actions for ``--actions`` actions
(mid-game), then seat 0 and a spectator connect (their full views are built
as a live connection's are, and queued to an outlet that drops them, as a
client that reads everything does), and one more action is pushed to them.
The figure is what the process holds after that and after a garbage
collection, beside what it held before the title's tables were opened
(tracemalloc: Python allocations; RSS: the resident set, less exact), divided
by the number of tables. One table of each title is opened first and
dropped, so what a title loads once (its modules, tables of constants) is
not counted; what grows with the tables (module-level caches of board parts
included) is. The largest allocation sites of the growth are listed, grouped
by file.

With ``--after connect`` no action follows the connections: the tables are
measured as they idle with viewers connected (their full views were sent).

That figure divides by N what a bounded process-wide cache holds (a game's
memo of scored sheets, full after a few tables), so it is too high for few
tables. ``--slope M`` opens M more tables after the N and reports the slope
(mem(N+M) - mem(N)) / M as well: what one more table costs once such caches
are warm, the per-table cost at scale. The allocation sites are then those
of the slope. With ``--empty-caches`` the process-wide bounded caches (see
:func:`empty_bounded_caches`) are emptied before both snapshots of the
slope, so what they hold (a fixed cost of the process, at most their bound)
is not counted as the tables' even while they are still filling.

    python benchmarks/table_memory.py [GAME ...] [--tables N] [--slope M [--empty-caches]] [--players N]
                                      [--actions N] [--seed N] [--after push|connect]
"""

from __future__ import annotations

import argparse
import functools
import gc
import inspect
import itertools
import random
import re
import resource
import sys
import tempfile
import tracemalloc
from collections import defaultdict
from pathlib import Path
from typing import Any

from dicetable.engine import get_game, list_games
from dicetable.engine.markup import Memo
from dicetable.server.store import Store
from dicetable.server.tables import Subscriber, TableManager

KIB = 1024


class Inline:
    """An event loop stand-in that runs what is handed to it at once."""

    def call_soon_threadsafe(self, fn, *args):
        fn(*args)


class Drop:
    """An outlet that drops every message (a client that reads all it is sent)."""

    def put_nowait(self, message: str) -> None:
        pass


#: The type of a function wrapped by ``functools.lru_cache`` (got from one, not by its private name).
_LRU_WRAPPER = type(functools.lru_cache(maxsize=1)(len))


def rss_kib() -> int:
    """The resident set of this process now, in KiB (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def play(manager: TableManager, table_id: str, rng: random.Random, actions: int) -> None:
    """Random legal actions at ``table_id`` until ``actions`` were played or the game is over."""
    for _ in range(actions):
        lt = manager.get(table_id)
        if lt.state.is_over:
            return
        seat = lt.state.to_move[0]
        choice = rng.choice(lt.state.legal_actions(seat))
        manager.act(table_id, seat, choice.id, lt.version, minimal=True)


def open_tables(manager: TableManager, game: str, players: int, count: int, actions: int, seed: int,
                push: bool = True) -> list:
    """``count`` live tables of ``game`` played to mid-game, each with seat 0 and a spectator connected
    (and one more action pushed to them when ``push``)."""
    kept = []
    for n in range(count):
        made = manager.create(game, players, {}, seed + n, [{"kind": "human"}] * players, None)
        tid = made["table_id"]
        play(manager, tid, random.Random(seed + n), actions)
        lt = manager.get(tid)
        loop: Any = Inline()  # runs at once what a connection's event loop would
        subs = [Subscriber(0, loop, Drop()), Subscriber(None, loop, Drop())]
        for sub in subs:
            manager.subscribe(lt, sub)
        if push:
            play(manager, tid, random.Random(-seed - n), 1)  # one change pushed to both
        kept.append((lt, subs))
    return kept


#: A module-level memo emptied when it reaches its bound: ``if len(_NAME) > bound: ... _NAME.clear()``.
_BOUNDED = re.compile(r"if len\((_[A-Z][A-Z_]*)\) >=? \w+.*\n(?:.*\n)?\s*\1\.clear\(\)")


def empty_bounded_caches() -> int:
    """Empty the project's process-wide bounded caches; return how many were emptied.

    They are: every board-part :class:`Memo`, every ``functools.lru_cache`` with a ``maxsize``, and
    every module-level dict the module empties at a bound (found in its source). Caches made inside
    functions and the unbounded ``lru_cache(maxsize=None)`` ones (of finite domains) are left.
    """
    emptied = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("dicetable.") or module is None:
            continue
        found = vars(module)
        for value in list(found.values()):
            if isinstance(value, Memo):
                value.got.clear()
                emptied += 1
            elif isinstance(value, _LRU_WRAPPER) and value.cache_info().maxsize is not None:
                value.cache_clear()
                emptied += 1
        try:
            source = inspect.getsource(module)
        except (OSError, TypeError):
            continue
        for memo in set(_BOUNDED.findall(source)):
            if isinstance(found.get(memo), dict):
                found[memo].clear()
                emptied += 1
    return emptied


def snapshot() -> tracemalloc.Snapshot:
    """The Python allocations now, less tracemalloc's own (an earlier snapshot held for the slope)."""
    return tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])


def measure(manager: TableManager, game: str, args: argparse.Namespace) -> dict:
    spec = get_game(game)
    players = max(spec.min_players, min(spec.max_players, args.players))
    open_tables(manager, game, players, 1, args.actions, 10_000)  # what the title loads once
    gc.collect()
    before_rss = rss_kib()
    before = snapshot()
    push = args.after == "push"
    kept = open_tables(manager, game, players, args.tables, args.actions, args.seed, push=push)
    gc.collect()
    after = snapshot()
    after_rss = rss_kib()
    stats = after.compare_to(before, "traceback")
    grown = sum(s.size_diff for s in stats)
    grown_rss = after_rss - before_rss
    slope = slope_rss = None
    if args.slope:
        if args.empty_caches:
            empty_bounded_caches()
            gc.collect()
            after = snapshot()
            after_rss = rss_kib()
        more = open_tables(manager, game, players, args.slope, args.actions, args.seed + args.tables, push=push)
        if args.empty_caches:
            empty_bounded_caches()
        gc.collect()
        last = snapshot()
        last_rss = rss_kib()
        stats = last.compare_to(after, "traceback")  # the sites of the slope
        slope = sum(s.size_diff for s in stats) / len(more) / KIB
        slope_rss = (last_rss - after_rss) / len(more)
        del more
    sites: dict[str, int] = defaultdict(int)
    for s in stats:
        frame = next((f for f in reversed(s.traceback) if "dicetable" in f.filename), s.traceback[-1])  # innermost
        name = frame.filename.split("src/dicetable/")[-1] if "src/dicetable/" in frame.filename else frame.filename
        sites[f"{name}:{frame.lineno}"] += s.size_diff
    snaps = sum(len(lt.live) for lt, _ in kept)
    return {"game": game, "players": players, "tables": len(kept),
            "version": sum(lt.version for lt, _ in kept) / len(kept),
            "kib": grown / len(kept) / KIB, "rss_kib": grown_rss / len(kept),
            "snapshots": snaps / len(kept), "slope": slope, "slope_rss": slope_rss,
            "per": args.slope or len(kept),
            "sites": sorted(sites.items(), key=lambda kv: -kv[1])[: args.top]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="titles (default: all)")
    parser.add_argument("--tables", type=int, default=100, help="live tables per title (default 100)")
    parser.add_argument("--slope", type=int, default=0, metavar="M",
                        help="open M more tables and report the cost of one more table (default: no slope)")
    parser.add_argument("--empty-caches", action="store_true",
                        help="empty the process-wide bounded caches before both snapshots of the slope")
    parser.add_argument("--players", type=int, default=4, help="seats per table, within each title's range")
    parser.add_argument("--actions", type=int, default=60, help="random actions before connecting (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--after", choices=("push", "connect"), default="push",
                        help="measure after one more action is pushed (default), or right after connecting")
    parser.add_argument("--top", type=int, default=8, help="allocation sites listed per title")
    args = parser.parse_args(argv)
    games = args.games or [g.id for g in list_games()]
    with tempfile.TemporaryDirectory() as tmp:
        ids = (f"t{n:06d}" for n in itertools.count())
        manager = TableManager(Store(f"sqlite:///{tmp}/memory.db"), bot_threads=1, search_processes=0,
                               id_factory=lambda: next(ids))
        manager.start()
        tracemalloc.start(12)
        try:
            rows = [measure(manager, g, args) for g in games]
        finally:
            tracemalloc.stop()
            manager.close()
    print(f"{'title':28} {'seats':>5} {'tables':>6} {'actions':>7} {'KiB/table':>9} {'RSS KiB/table':>13} "
          f"{'snapshots':>9}" + (f" {'slope KiB':>9} {'slope RSS':>9}" if args.slope else ""))
    for r in rows:
        print(f"{r['game']:28} {r['players']:5} {r['tables']:6} {r['version']:7.0f} {r['kib']:9.1f} "
              f"{r['rss_kib']:13.1f} {r['snapshots']:9.1f}"
              + (f" {r['slope']:9.1f} {r['slope_rss']:9.1f}" if args.slope else ""))
    for r in rows:
        what = f"one more table, over {args.slope} more" if args.slope else f"per table, over {r['tables']}"
        print(f"\n{r['game']}: largest growth by allocation site (KiB {what})")
        for site, size in r["sites"]:
            print(f"  {size / r['per'] / KIB:8.1f}  {site}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
