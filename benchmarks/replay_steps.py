"""Time per replay step at step 10 and at step 2,000 of a long Kingdom of Dice game (docs/web.md).

A random 4-player game of at least 2,000 actions is played (the first seed from 0 that is
long enough), its record stepped through forward with a kept cursor
(``dicetable.web.stepper.ReplayCursor``, what the server does), and the view of step 10
and of step 2,000 timed (the median of the steps 5-15 and 1,995-2,005). For comparison
the same two steps from a new cursor each time, as the viewer did before (replay from the
set-up at every step). One run; prints JSON.

    PYTHONPATH=src python benchmarks/replay_steps.py
"""

from __future__ import annotations

import json
import random
import statistics
import time

from dicetable.engine import new_game
from dicetable.web.stepper import ReplayCursor, replay_step


def long_record(min_actions: int = 2_010) -> dict:
    """The record of the first seeded random 4-player Kingdom of Dice game with enough actions."""
    for seed in range(1000):
        state = new_game("kingdom-of-dice", 4, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_move[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        if len(state.history) >= min_actions:
            return state.replay_record()
    raise SystemExit("no game long enough in 1,000 seeds")


def main() -> None:
    record = long_record()
    cursor = ReplayCursor(record)
    per_step = {}
    for step in range(0, 2_006):
        t = time.perf_counter()
        cursor.view(step, 200)
        per_step[step] = time.perf_counter() - t
    early = statistics.median(per_step[s] for s in range(5, 16)) * 1000
    late = statistics.median(per_step[s] for s in range(1_995, 2_006)) * 1000
    t = time.perf_counter()
    replay_step(record, 10)
    scratch10 = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    replay_step(record, 2_000)
    scratch2000 = (time.perf_counter() - t) * 1000
    print(json.dumps({"actions": len(record["actions"]), "step10_ms": round(early, 3), "step2000_ms": round(late, 3),
                      "ratio": round(late / early, 2), "rebuilds": cursor.rebuilds, "applied": cursor.applied,
                      "from_scratch_step10_ms": round(scratch10, 2),
                      "from_scratch_step2000_ms": round(scratch2000, 2)}, indent=1))


if __name__ == "__main__":
    main()
