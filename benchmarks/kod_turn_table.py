"""CPU time of Kingdom of Dice's turn programme: a fresh table solved from the turn's first roll.

    PYTHONPATH=<tree>/src [DICETABLE_BUILD=pure] python benchmarks/kod_turn_table.py [--tables 4]

Each table (``policy._TurnTable`` with its own end-of-turn values, as the turn planner makes one a
turn and greedy's ``RESULT_TABLE`` once a process) is solved by ``continue_`` of no dice set aside,
which walks every set-aside of the six dice. Prints the milliseconds of CPU time of each table in
turn; the first also fills the memos the tables share (the rolls and their set-asides).
"""

from __future__ import annotations

import argparse
import time

from dicetable.games.kingdom_of_dice.components import TOP_SPACE
from dicetable.games.kingdom_of_dice.policy import _TurnTable


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    args = parser.parse_args()
    times = []
    for k in range(args.tables):
        table = _TurnTable(tuple(float((7 * r + k) % 11) for r in range(TOP_SPACE + 1)))
        t0 = time.process_time()
        table.continue_((0,) * 6)
        times.append(time.process_time() - t0)
    print(" ".join(f"{t * 1000:.0f}" for t in times), "ms")


if __name__ == "__main__":
    main()
