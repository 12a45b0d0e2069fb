"""MCTS iterations per CPU second: ``bench.mcts_iterations_per_s``'s searches, timed by process_time.

    PYTHONPATH=<tree>/src python benchmarks/mcts_cpu.py GAME [--rounds 25]

The game's ``medium`` settings, ``bench.MCTS_ITERATIONS`` from the three states that
``compiled_compare.py`` samples (2 players), after three untimed searches; each round times the
three searches in CPU time with the collector paused. Prints the median and range of the rounds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

import dicetable
from dicetable.bench import MCTS_ITERATIONS, paused_gc, sample_states
from dicetable.bots.mcts import MCTS, level_params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--rounds", type=int, default=25)
    args = parser.parse_args()
    game, players = args.game, 2
    probes = [s for s in sample_states(game, players, 3, seed=1, every=7, limit=30) if not s.is_over][::10][:3]
    params = replace(level_params(game, "medium", players), iterations=MCTS_ITERATIONS, time_ms=None, workers=1)
    warm = [s for s in sample_states(game, players, 1, 0, None, every=7) if not s.is_over]
    for i, s in enumerate(warm[:: max(1, len(warm) // 3)][:3]):
        MCTS(params, seed=i).search(s, s.to_move[0])
    rates = []
    for _ in range(args.rounds):
        with paused_gc():
            t0 = time.process_time()
            for i, s in enumerate(probes):
                MCTS(params, seed=i).search(s, s.to_move[0])
            rates.append(len(probes) * params.iterations / (time.process_time() - t0))
    print(f"{game} {dicetable.build_kind()} MCTS iterations per CPU second: median {statistics.median(rates):.0f}, "
          f"range {min(rates):.0f}-{max(rates):.0f}")


if __name__ == "__main__":
    main()
