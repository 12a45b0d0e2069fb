"""An easy bot's move while another client runs 20 tables of five hard bots (docs/security.md, fair shares).

Starts a TableManager with the server's default two search processes and
measures, for a Kingdom of Dice table whose first seat is an easy bot
(client B), the wall time from creating the table to the bot's first turn
being over (the human seat to move): first on an idle server, then while
client A's 20 five-player Corsairs tables of hard bots keep both search
processes busy. Prints the medians and their ratio (the target: within 2x).

    python benchmarks/fair_share.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from dicetable.server.store import Store
from dicetable.server.tables import TableManager


def easy_move(manager: TableManager) -> float:
    """Seconds from creating client B's table to its easy bot's turn being over."""
    t0 = time.perf_counter()
    made = manager.create("kingdom-of-dice", 2, {}, None, [{"kind": "bot", "level": "easy"}, {"kind": "human"}],
                          None, client="client-B")
    lt = manager.get(made["table_id"])
    while True:
        with lt.lock:
            if lt.state.to_move == (1,) or lt.state.is_over:
                return time.perf_counter() - t0
        time.sleep(0.01)


def main() -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        manager = TableManager(Store(f"sqlite:///{Path(tmp) / 'fair.db'}"))
        try:
            easy_move(manager)  # start the search processes
            idle = [easy_move(manager) for _ in range(args.rounds)]
            for _ in range(20):
                manager.create("corsairs-of-valeria", 5, {}, None, [{"kind": "bot", "level": "hard"}] * 5, None,
                               client="client-A")
            time.sleep(2.0)
            loaded = [easy_move(manager) for _ in range(args.rounds)]
        finally:
            manager.close()
    a, b = statistics.median(idle), statistics.median(loaded)
    print(f"easy bot's turn, median of {args.rounds}: idle {a:.2f} s, beside 20 hard tables {b:.2f} s, "
          f"ratio {b / a:.2f}")


if __name__ == "__main__":
    main()
