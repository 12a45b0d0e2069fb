"""Steps per second of the PettingZoo AEC environments against the raw engine, in one run.

Both sides play masked random games with the same seeds: the engine loop picks uniformly among
``legal_actions``; the AEC loop picks uniformly among the mask's ones, so every step pays for the
observation vector and the mask as an agent would. The garbage collector is paused inside the
timed loops. Run: ``.venv/bin/python benchmarks/rl_speed.py [--games N]``; prints a table and
writes benchmarks/results/rl-speed.json.
"""

from __future__ import annotations

import argparse
import gc
import json
import pathlib
import time

import numpy as np

import dicetable
from dicetable.engine import registry
from dicetable.rl import env


def engine_steps(game_id: str, players: int, seeds: list[int]) -> tuple[int, float]:
    """(actions applied, seconds) for random games on the raw engine."""
    steps = 0
    gc.disable()
    t0 = time.perf_counter()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = dicetable.new_game(game_id, players, seed=seed)
        while not state.is_over:
            seat = min(state.to_move)
            legal = state.legal_actions(seat)
            state.apply(legal[int(rng.integers(len(legal)))], seat)
            steps += 1
    elapsed = time.perf_counter() - t0
    gc.enable()
    return steps, elapsed


def aec_steps(game_id: str, players: int, seeds: list[int]) -> tuple[int, float]:
    """(agent steps, seconds) for masked random games through the AEC environment."""
    steps = 0
    e = env(game_id, players)
    gc.disable()
    t0 = time.perf_counter()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[int(rng.integers(len(legal)))]))
            steps += 1
    elapsed = time.perf_counter() - t0
    gc.enable()
    return steps, elapsed


def main() -> None:
    """Measure every game at 2 players (solo-only games at 1) and print the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per game and side")
    args = parser.parse_args()
    rows = []
    for spec in registry.games():
        players = 2 if spec.max_players >= 2 else 1
        seeds = list(range(args.games))
        engine_steps(spec.id, players, seeds[:2])  # warm caches on both sides
        aec_steps(spec.id, players, seeds[:2])
        n_e, t_e = engine_steps(spec.id, players, seeds)
        n_a, t_a = aec_steps(spec.id, players, seeds)
        rows.append({"game": spec.id, "players": players, "engine_steps_per_s": n_e / t_e,
                     "aec_steps_per_s": n_a / t_a, "cost_ratio": (n_e / t_e) / (n_a / t_a)})
    print(f"{'game':28} {'engine steps/s':>15} {'AEC steps/s':>12} {'AEC cost':>9}")
    for r in rows:
        print(f"{r['game']:28} {r['engine_steps_per_s']:15,.0f} {r['aec_steps_per_s']:12,.0f} {r['cost_ratio']:8.2f}x")
    out = pathlib.Path(__file__).parent / "results" / "rl-speed.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
