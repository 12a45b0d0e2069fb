"""Time Kingdom of Dice's solo round solver with and without numpy.

    .venv/bin/python benchmarks/solo_round_time.py [--no-numpy]

``round_endings`` at a solo round's first turn (seed 9, Cat level 1: four later turns to
solve), the call the hard and expert solo bots make once a turn. ``--no-numpy`` hides numpy
(as on a base install, ``pip install .``) so ``TurnDP.start`` takes its plain-Python path.
Prints the one-off build of the shared ``TurnDP``, the first call (which also prepares the
path's layers) and the best of four later calls, in milliseconds.
"""

from __future__ import annotations

import sys
import time

if "--no-numpy" in sys.argv:
    sys.modules["numpy"] = None  # type: ignore[assignment]  # import numpy now raises ImportError

from dicetable.engine import new_game  # noqa: E402
from dicetable.games.kingdom_of_dice import solo_round  # noqa: E402


def main() -> None:
    """Print the timings (module notes)."""
    state = new_game("kingdom-of-dice", 1, seed=9, options={"cat_level": 1})
    t = time.perf_counter()
    solo_round.turn_dp()
    build = time.perf_counter() - t
    times = []
    for _ in range(5):
        t = time.perf_counter()
        solo_round.round_endings(state, 0)
        times.append(time.perf_counter() - t)
    path = "plain Python" if "--no-numpy" in sys.argv else "numpy"
    print(f"{path}: TurnDP built in {build * 1000:.0f} ms; round_endings at a round's first turn: "
          f"first call {times[0] * 1000:.0f} ms, then best of 4 {min(times[1:]) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
