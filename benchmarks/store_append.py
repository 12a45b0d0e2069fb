"""What appending one action costs the store (issue 26 item 2: the hot path's write).

Measures ``Store.append`` alone (no rules, no views): each append is one
acknowledged action, durable when the call returns. Two runs per database:

* **single**: one thread appends ``--actions`` actions to one table, one after the other;
* **concurrent**: ``--tables`` threads (default 50) each append to their own table at the
  same time (what a busy server's tables do), ``--actions`` actions each.

Reported: appends per second (wall clock) and the mean time per append seen by one
caller (ms). SQLite runs on a fresh file in a temporary folder with the store's
``synchronous`` setting (``DICETABLE_SQLITE_SYNC``: FULL by default, NORMAL when asked);
``--postgres`` adds a run on a throwaway PostgreSQL started from the installed binaries.

    PYTHONPATH=src python benchmarks/store_append.py [--tables 50] [--actions 200] [--postgres]
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

from dicetable.server.models import SeatRow, TableRow
from dicetable.server.store import Store, now


def _new_table(store: Store, table_id: str) -> None:
    store.create(TableRow(id=table_id, game="kingdom-of-dice", players=2, options="{}", seed=1, created=now(),
                          status="running", clock=None),
                 [SeatRow(table_id=table_id, seat=s, kind="human", level="greedy", name=f"P{s}")
                  for s in range(2)])


def _append_many(store: Store, table_id: str, n: int, waits: list[float]) -> None:
    for seq in range(1, n + 1):
        t0 = time.perf_counter()
        store.append(table_id, seq, seq % 2, "roll", "seat", False)
        waits.append(time.perf_counter() - t0)


def run(url: str, tables: int, actions: int) -> dict[str, dict[str, float]]:
    """Both runs on ``url`` (an empty database); ``{"single"|"concurrent": {"per_s", "ms_per_call"}}``."""
    store = Store(url)
    try:
        out: dict[str, dict[str, float]] = {}
        _new_table(store, "single")
        waits: list[float] = []
        t0 = time.perf_counter()
        _append_many(store, "single", actions, waits)
        wall = time.perf_counter() - t0
        out["single"] = {"per_s": actions / wall, "ms_per_call": 1000 * sum(waits) / len(waits)}
        ids = [f"t{i}" for i in range(tables)]
        for tid in ids:
            _new_table(store, tid)
        waits = []
        threads = [threading.Thread(target=_append_many, args=(store, tid, actions, waits)) for tid in ids]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        out["concurrent"] = {"per_s": tables * actions / wall, "ms_per_call": 1000 * sum(waits) / len(waits)}
        return out
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables acting at once in the concurrent run")
    parser.add_argument("--actions", type=int, default=200, help="appends per table")
    parser.add_argument("--postgres", action="store_true", help="also run on a throwaway PostgreSQL")
    args = parser.parse_args()
    from dicetable.server.store import SQLITE_SYNC

    with tempfile.TemporaryDirectory() as tmp:
        urls = [(f"sqlite (synchronous={SQLITE_SYNC})", f"sqlite:///{Path(tmp) / 'bench.db'}")]
        pg = None
        if args.postgres:
            from dicetable.server.pgtemp import TempPostgres

            pg = TempPostgres().start()
            urls.append(("postgresql", pg.create_database()))
        try:
            for name, url in urls:
                for run_name, fig in run(url, args.tables, args.actions).items():
                    print(f"{name:28} {run_name:10} {fig['per_s']:9.0f} appends/s "
                          f"{fig['ms_per_call']:7.2f} ms per append (one caller's wait)")
        finally:
            if pg is not None:
                pg.stop()


if __name__ == "__main__":
    main()
