"""Steps per second of the research interfaces against the raw engine, in one run.

For every title at 2 players it measures, interleaved over ``--rounds`` rounds (best round of
each side kept, so a busy moment of a shared machine does not decide a ratio):

- **raw**: seeded random games on the engine alone (``legal_actions`` + ``apply``);
- **AEC**: the same through the PettingZoo AEC environment (``last()`` gives the observation
  vector and the mask, an action is drawn from the mask, ``step``);
- **OpenSpiel**: the same through ``open_spiel.python.rl_environment.Environment`` (every step
  builds every player's information-state tensor and legal actions, as that API does);
- **batched vs separate**: ``--envs`` games stepped together by :class:`dicetable.rl.BatchEnv`
  against as many separate AEC environments stepped one after another, in agent steps per second.

Every loop draws its actions with ``random.Random`` and pauses the garbage collector while timed.
Run: ``.venv/bin/python benchmarks/rl_speed.py [--games N] [--rounds R] [--envs N]``; prints a
table and writes benchmarks/results/rl-speed.json. OpenSpiel is skipped (and said so) when
``pyspiel`` is not installed.
"""

from __future__ import annotations

import argparse
import gc
import json
import pathlib
import random
import time
from typing import Any, Callable

import numpy as np

import dicetable
from dicetable.rl import batch_env, env
from dicetable.rl.spaces import research_games


def timed(run: Callable[[], int]) -> tuple[int, float]:
    """(steps, seconds) of ``run()`` with the garbage collector paused."""
    gc.collect()
    gc.disable()
    t0 = time.perf_counter()
    try:
        steps = run()
    finally:
        elapsed = time.perf_counter() - t0
        gc.enable()
    return steps, elapsed


def raw_steps(game_id: str, players: int, seeds: list[int]) -> int:
    """Actions applied in random games on the raw engine."""
    steps = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = dicetable.new_game(game_id, players, seed=seed)
        while not state.is_over:
            seat = min(state.to_move)
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)
            steps += 1
    return steps


def aec_steps(game_id: str, players: int, seeds: list[int]) -> int:
    """Agent steps in masked random games through the AEC environment."""
    steps = 0
    e = env(game_id, players)
    for seed in seeds:
        rng = random.Random(seed)
        e.reset(seed=seed)
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps


def spiel_steps(game: Any, seeds: list[int]) -> int:
    """Steps in random games through OpenSpiel's rl_environment."""
    from open_spiel.python import rl_environment

    steps = 0
    environment = rl_environment.Environment(game)
    for seed in seeds:
        rng = random.Random(seed)
        time_step = environment.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            legal = time_step.observations["legal_actions"][player]
            time_step = environment.step([legal[rng.randrange(len(legal))]])
            steps += 1
    return steps


def separate_steps(game_id: str, players: int, envs: int, total: int) -> int:
    """Agent steps of ``envs`` separate AEC environments stepped in turn, ``total`` in all."""
    rng = random.Random(0)
    es = [env(game_id, players) for _ in range(envs)]
    for i, e in enumerate(es):
        e.reset(seed=i)
    steps = 0
    while steps < total:
        for i, e in enumerate(es):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.reset(seed=steps + i)  # every game has ended for every agent: start the next
                obs, *_ = e.last()
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps


def batched_steps(game_id: str, players: int, envs: int, total: int) -> int:
    """Agent steps of one BatchEnv of ``envs`` games (auto-reset), ``total`` in all."""
    rng = random.Random(0)
    b = batch_env(game_id, envs, players)
    _, mask, _ = b.reset(seed=0)
    steps = 0
    while steps < total:
        actions = []
        for row in mask:
            legal = np.flatnonzero(row)
            actions.append(int(legal[rng.randrange(len(legal))]))
        _, mask, *_ = b.step(actions)
        steps += envs
    return steps


def main() -> None:
    """Measure every title at 2 players and print the ratios (lower cost, higher speed-up is better)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="random games per title and side in each round")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best of each side is kept")
    parser.add_argument("--envs", type=int, default=16, help="games in the batch (and separate environments)")
    args = parser.parse_args()
    try:
        import pyspiel

        from dicetable.rl.openspiel import register_openspiel, short_name

        register_openspiel()
    except ImportError:
        pyspiel = None
        print("pyspiel is not installed: the OpenSpiel column is skipped")
    rows = []
    for spec in research_games():
        players = 2
        seeds = list(range(args.games))
        total = 150 * args.envs
        sides: dict[str, Callable[[], int]] = {
            "raw": lambda: raw_steps(spec.id, players, seeds),
            "aec": lambda: aec_steps(spec.id, players, seeds),
            "separate": lambda: separate_steps(spec.id, players, args.envs, total),
            "batched": lambda: batched_steps(spec.id, players, args.envs, total),
        }
        if pyspiel is not None:
            game = pyspiel.load_game(short_name(spec.id), {"players": players})
            sides["openspiel"] = lambda: spiel_steps(game, seeds)
        best: dict[str, float] = {}
        for side in sides.values():  # warm caches on every side
            side()
        for _ in range(args.rounds):
            for name, side in sides.items():
                steps, elapsed = timed(side)
                best[name] = max(best.get(name, 0.0), steps / elapsed)
        row = {"game": spec.id, "players": players, **{f"{k}_steps_per_s": v for k, v in best.items()},
               "aec_cost": best["raw"] / best["aec"], "batch_speedup": best["batched"] / best["separate"]}
        if "openspiel" in best:
            row["openspiel_cost"] = best["raw"] / best["openspiel"]
        rows.append(row)
    print(f"{'game':26} {'raw/s':>8} {'AEC/s':>8} {'AEC cost':>8} {'OpenSpiel/s':>11} {'OS cost':>7} "
          f"{'separate/s':>10} {'batched/s':>9} {'speed-up':>8}")
    for r in rows:
        os_rate = f"{r['openspiel_steps_per_s']:11,.0f} {r['openspiel_cost']:6.2f}x" if "openspiel_cost" in r \
            else f"{'-':>11} {'-':>7}"
        print(f"{r['game']:26} {r['raw_steps_per_s']:8,.0f} {r['aec_steps_per_s']:8,.0f} {r['aec_cost']:7.2f}x "
              f"{os_rate} {r['separate_steps_per_s']:10,.0f} {r['batched_steps_per_s']:9,.0f} "
              f"{r['batch_speedup']:7.2f}x")
    out = pathlib.Path(__file__).parent / "results" / "rl-speed.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"args": vars(args), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
