"""The quiet trusted step against apply, per game: microseconds per action of random playouts.

    .venv/bin/python benchmarks/quiet_step.py [--runs 6] [--games 20] [--game ID ...]

States are sampled along seeded random games (``dicetable.bench.sample_states``); from each,
a random playout to the end is timed with ``legal_actions`` + ``apply`` and with
``legal_actions`` + ``step`` (the same seeded choices, so the same actions), in CPU time with the
garbage collector paused; the two alternate ``--runs`` times each, the best of each is reported,
and their ratio.
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--game", action="append", help="only this game id (repeatable; default: every game)")
    args = parser.parse_args()
    time.perf_counter_ns = time.process_time_ns  # CPU time: a busy machine's waits are not counted
    from dicetable.bench import playout_costs_us, sample_states
    from dicetable.engine.testing import shipped_games

    print("| game | apply µs/action | step µs/action | quiet x |\n|---|---|---|---|")
    for spec in shipped_games():
        if args.game and spec.id not in args.game:
            continue
        players = max(2, spec.min_players)
        samples = [s for s in sample_states(spec.id, players, args.games, 1) if not s.is_over][::10][:60]
        loud_runs: list[float] = []
        quiet_runs: list[float] = []
        for run in range(args.runs):  # alternate, so a noisy moment of the VM hits both sides alike
            for quiet_run in ((False, True) if run % 2 == 0 else (True, False)):
                (quiet_runs if quiet_run else loud_runs).append(playout_costs_us(samples, 1, quiet=quiet_run))
        loud, quiet = min(loud_runs), min(quiet_runs)
        print(f"| {spec.id} | {loud:.2f} | {quiet:.2f} | {loud / quiet:.2f} |")


if __name__ == "__main__":
    main()
