"""Time Kingdom of Dice's solo round solver (plain Python, as on a base install).

    .venv/bin/python benchmarks/solo_round_time.py

``round_endings`` at a solo round's first turn (seed 9, Cat level 1: four later turns to
solve, 140 value tables), the call the hard and expert solo bots make once a turn. Prints the
one-off build of the shared ``TurnDP``, the first call and the best of nine later calls, in
milliseconds of wall-clock time and of CPU time (the one to compare on a shared, busy machine).
numpy, if installed, is not used (the module imports none).
"""

from __future__ import annotations

import time

from dicetable.engine import new_game
from dicetable.games.kingdom_of_dice import solo_round


def main() -> None:
    """Print the timings (module notes)."""
    state = new_game("kingdom-of-dice", 1, seed=9, options={"cat_level": 1})
    t = time.perf_counter()
    solo_round.turn_dp()
    build = time.perf_counter() - t
    wall, cpu = [], []
    for _ in range(10):
        t, c = time.perf_counter(), time.process_time()
        solo_round.round_endings(state, 0)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    print(f"TurnDP built in {build * 1000:.0f} ms; round_endings at a round's first turn: "
          f"first call {wall[0] * 1000:.0f} ms, then best of 9 {min(wall[1:]) * 1000:.0f} ms "
          f"(CPU {min(cpu[1:]) * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
