"""Engine speed measurements (``dicetable bench``): per-operation costs in one run.

All figures come from seeded random play in this process: random games per
second and actions per second over whole games, then microseconds per
``legal_actions`` (cache cold), per ``apply`` and per ``clone`` measured on
states sampled along those games, MCTS iterations per second (the game's
``medium`` search settings), the ``hard`` bot's thinking time and iterations
per decision (its budget is 1,500 iterations or 1 s, whichever ends first)
and the peak memory of playing one game.
"""

from __future__ import annotations

import time
import tracemalloc

from dicetable.engine import Rng, new_game


def sample_states(game: str, players: int, games: int, seed: int, options: dict | None = None):
    """Play ``games`` seeded random games; return ``(sampled clones, actions, seconds)``."""
    samples = []
    steps = 0
    t0 = time.perf_counter()
    for g in range(games):
        state = new_game(game, players, seed=seed + g, options=options)
        rng = Rng(seed + g)
        while not state.is_over:
            seats = state.to_move
            seat = seats[rng.randbelow(len(seats))]
            acts = state.legal_actions(seat)
            state.apply(acts[rng.randbelow(len(acts))], seat)
            steps += 1
            if steps % 17 == 0:
                samples.append(state.clone())
    elapsed = time.perf_counter() - t0
    return samples, steps, elapsed


def clone_cost_us(states: list) -> float:
    """Mean microseconds of one ``clone()`` over ``states`` (anything with a ``clone`` method)."""
    t0 = time.perf_counter_ns()
    for s in states:
        s.clone()
    return (time.perf_counter_ns() - t0) / 1000 / max(1, len(states))


def bench_game(game: str, players: int = 2, games: int = 200, seed: int = 1,
               options: dict | None = None) -> dict:
    """Measure one game; return a JSON-able dict of rates and per-operation microseconds."""
    samples, steps, elapsed = sample_states(game, players, games, seed, options)
    samples = [s for s in samples if not s.is_over][:4000]
    rng = Rng(seed)
    clone_us = clone_cost_us(samples)
    # legal_actions on cold caches
    fresh = [s.clone() for s in samples]
    seats = [s.to_move[rng.randbelow(len(s.to_move))] for s in fresh]
    t0 = time.perf_counter_ns()
    for s, seat in zip(fresh, seats):
        s.legal_actions(seat)
    legal_us = (time.perf_counter_ns() - t0) / 1000 / len(fresh)
    # apply (legal actions already cached, as in a playout)
    chosen = []
    for s, seat in zip(fresh, seats):
        acts = s.legal_actions(seat)
        chosen.append(acts[rng.randbelow(len(acts))])
    t0 = time.perf_counter_ns()
    for s, seat, a in zip(fresh, seats, chosen):
        s.apply(a, seat)
    apply_us = (time.perf_counter_ns() - t0) / 1000 / len(fresh)
    # MCTS iterations per second (medium settings of this game, 100 iterations from a few states)
    from dataclasses import replace

    from dicetable.bots.mcts import MCTS, level_params

    params = replace(level_params(game, "medium"), iterations=100, time_ms=None, workers=1)
    probes = samples[:: max(1, len(samples) // 3)][:3]
    t0 = time.perf_counter()
    for i, s in enumerate(probes):
        MCTS(params, seed=i).search(s, s.to_move[0])
    mcts_its = len(probes) * params.iterations / (time.perf_counter() - t0)
    # the hard bot's decisions: wall time and iterations completed within its budget
    hard = replace(level_params(game, "hard"), workers=1)
    hard_iterations = 0
    t0 = time.perf_counter()
    for i, s in enumerate(probes):
        stats = MCTS(hard, seed=i).search(s, s.to_move[0])
        hard_iterations += sum(visits for visits, _ in stats.values())
    hard_ms = (time.perf_counter() - t0) * 1000 / max(1, len(probes))
    # peak memory of one game played out
    tracemalloc.start()
    state = new_game(game, players, seed=seed, options=options)
    r = Rng(seed)
    while not state.is_over:
        seat = state.to_move[0]
        acts = state.legal_actions(seat)
        state.apply(acts[r.randbelow(len(acts))], seat)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "game": game, "players": players, "games": games,
        "games_per_s": games / elapsed, "steps_per_s": steps / elapsed,
        "steps_per_game": steps / games, "legal_actions_us": legal_us,
        "apply_us": apply_us, "clone_us": clone_us, "mcts_iterations_per_s": mcts_its,
        "hard_ms_per_decision": hard_ms,
        "hard_iterations_per_decision": hard_iterations / max(1, len(probes)),
        "peak_kib_one_game": peak / 1024,
        "samples": len(samples),
    }
