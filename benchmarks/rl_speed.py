"""Steps per second of the research interfaces against the raw engine, in one run.

For every title at 2 players it plays ``--games`` seeds; for each seed every side runs its unit
of work (a game, or a fixed number of batch steps) ``--rounds`` times, interleaved with the other
sides and set up afresh each time (no cache kept from an earlier run of the same game), and its
fastest run counts. The table shows steps per second over all seeds and the median of the
seeds' ratios, so a busy moment of a shared machine does not decide a ratio. The sides:

- **raw**: a seeded random game on the engine alone (``legal_actions`` + ``apply``);
- **AEC**: the same game through the PettingZoo AEC environment (``last()`` gives the
  observation vector and the mask, then ``step`` with the recorded action's index);
- **OpenSpiel**: the same game through ``open_spiel.python.rl_environment.Environment`` (every
  step builds every player's information-state tensor and legal actions, as that API does);
- **batched vs separate**: ``--envs`` games stepped together by :class:`dicetable.rl.BatchEnv`
  against as many separate AEC environments stepped one after another, in agent steps per second
  (40 steps per game in the batch, from ``reset(seed)``).

Raw, AEC and OpenSpiel replay the same recorded game of each seed (random actions). The batch and
the separate environments start the same games; the separate side draws each environment's
action from its mask in turn, the batch draws for all its games in one numpy call, as a batched
policy does (uniform among the legal actions either way). The garbage collector is paused while a unit is timed.
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
import statistics
import time
from typing import Any, Callable

import numpy as np

import dicetable
from dicetable.rl import GameSpaces, batch_env, env
from dicetable.rl.spaces import research_games


def timed(run: Callable[[], int]) -> tuple[int, float]:
    """(steps, seconds) of ``run()`` with the garbage collector paused."""
    gc.disable()
    t0 = time.perf_counter()
    try:
        steps = run()
    finally:
        elapsed = time.perf_counter() - t0
        gc.enable()
    return steps, elapsed


# Each side is a function of a seed that sets up outside the clock and returns the timed part:
# a callable playing one unit of work and returning its steps. Raw, AEC and OpenSpiel replay
# one recorded random game of the seed (each side gets the same actions, found in its own terms:
# a position in ``legal_actions``, a catalogue index), so they do the same engine work and the
# difference is the interface's.
Unit = Callable[[], int]


def recorded_game(game_id: str, players: int, seed: int) -> tuple[int, list[tuple[int, str]]]:
    """(engine seed, [(seat, action id), ...]) of a random game: the engine seed is the one
    ``reset(seed=seed)`` of an environment plays, and each action is drawn uniformly."""
    engine_seed = GameSpaces(game_id, players).next_seed(seed)
    rng = random.Random(seed)
    state = dicetable.new_game(game_id, players, seed=engine_seed)
    moves = []
    while not state.is_over:
        seat = min(state.to_move)
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        moves.append((seat, action.id))
        state.apply(action, seat)
    return engine_seed, moves


def raw_unit(game_id: str, players: int, seed: int) -> Unit:
    """The seed's game on the raw engine: ``legal_actions`` + ``apply`` of an offered Action."""
    engine_seed, moves = recorded_game(game_id, players, seed)
    state = dicetable.new_game(game_id, players, seed=engine_seed)
    positions = []
    for seat, aid in moves:
        legal = state.legal_actions(seat)
        positions.append(next(i for i, a in enumerate(legal) if a.id == aid))
        state.apply(aid, seat)

    def run() -> int:
        state = dicetable.new_game(game_id, players, seed=engine_seed)
        for position in positions:
            seat = min(state.to_move)
            state.apply(state.legal_actions(seat)[position], seat)
        return len(positions)
    return run


def aec_unit(game_id: str, players: int, seed: int) -> Unit:
    """The seed's game through the AEC environment: ``last()`` (observation vector and mask), ``step``."""
    e = env(game_id, players)
    _, moves = recorded_game(game_id, players, seed)
    choices = [e.spaces.index[aid] for _, aid in moves]

    def run() -> int:
        e.reset(seed=seed)
        steps = 0
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(choices[steps])
            steps += 1
        return steps
    return run


def spiel_unit(game_id: str, players: int, seed: int) -> Unit:
    """The seed's game through OpenSpiel's rl_environment (every player's tensor each step)."""
    import pyspiel
    from open_spiel.python import rl_environment

    from dicetable.rl.openspiel import short_name

    engine_seed, moves = recorded_game(game_id, players, seed)
    game = pyspiel.load_game(short_name(game_id), {"players": players})
    choices = [game.spaces.index[aid] for _, aid in moves]

    def run() -> int:
        game.next_seed = engine_seed  # the recorded game, whichever repetition this is
        environment = rl_environment.Environment(game)
        time_step = environment.reset()
        steps = 0
        while not time_step.last():
            time_step = environment.step([choices[steps]])
            steps += 1
        return steps
    return run


def separate_unit(game_id: str, players: int, seed: int, envs: int, total: int) -> Unit:
    """``total`` agent steps of ``envs`` separate AEC environments stepped in turn."""
    es = [env(game_id, players) for _ in range(envs)]

    def run() -> int:
        rng = random.Random(seed)
        for i, e in enumerate(es):
            e.reset(seed=seed * envs + i)
        steps = 0
        while steps < total:
            for i, e in enumerate(es):
                obs, _, term, trunc, _ = e.last()
                if term or trunc:
                    e.reset(seed=seed * envs + steps + i)  # its game ended for every agent: start the next
                    obs, *_ = e.last()
                legal = np.flatnonzero(obs["action_mask"])
                e.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps
    return run


def batched_unit(game_id: str, players: int, seed: int, envs: int, total: int) -> Unit:
    """``total`` agent steps of one BatchEnv of ``envs`` games (auto-reset)."""
    b = batch_env(game_id, envs, players)

    def run() -> int:
        rng = np.random.default_rng(seed)
        _, mask, _ = b.reset(seed=[seed * envs + i for i in range(envs)])  # the separate side's games
        steps = 0
        while steps < total:
            # a batched policy: one uniform draw among each game's legal actions, for all games at once
            _, mask, *_ = b.step((rng.random(mask.shape) * mask).argmax(axis=1))
            steps += envs
        return steps
    return run


def main() -> None:
    """Measure every title at 2 players and print the ratios (cost: times the raw step; speed-up: batched/separate)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="seeds per title: random games (and batch runs) per side")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each seed's unit per side; the fastest counts")
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
        total = 40 * args.envs
        sides: dict[str, Callable[[int], Unit]] = {
            "raw": lambda seed: raw_unit(spec.id, players, seed),
            "aec": lambda seed: aec_unit(spec.id, players, seed),
            "separate": lambda seed: separate_unit(spec.id, players, seed, args.envs, total),
            "batched": lambda seed: batched_unit(spec.id, players, seed, args.envs, total),
        }
        if pyspiel is not None:
            sides["openspiel"] = lambda seed: spiel_unit(spec.id, players, seed)
        steps = dict.fromkeys(sides, 0)
        seconds = dict.fromkeys(sides, 0.0)
        ratios: dict[str, list[float]] = {"aec": [], "openspiel": [], "batch": []}
        for make in sides.values():  # warm the code paths on a seed that is not measured
            make(10_000)()
        for seed in range(args.games):
            fastest: dict[str, float] = {}
            counted: dict[str, int] = {}
            for repetition in range(args.rounds):
                # set up afresh each time (outside the clock): no side keeps what an earlier
                # repetition of the same game left in its caches
                units = list({name: make(seed) for name, make in sides.items()}.items())
                if (seed + repetition) % 2:
                    units.reverse()  # alternate which side runs first
                for name, unit in units:
                    counted[name], elapsed = timed(unit)
                    fastest[name] = min(fastest.get(name, elapsed), elapsed)
            rate = {name: counted[name] / fastest[name] for name in sides}
            for name in sides:
                steps[name] += counted[name]
                seconds[name] += fastest[name]
            ratios["aec"].append(rate["raw"] / rate["aec"])
            ratios["batch"].append(rate["batched"] / rate["separate"])
            if "openspiel" in rate:
                ratios["openspiel"].append(rate["raw"] / rate["openspiel"])
        row: dict[str, Any] = {"game": spec.id, "players": players,
                               **{f"{k}_steps_per_s": steps[k] / seconds[k] for k in sides},
                               "aec_cost": statistics.median(ratios["aec"]),
                               "batch_speedup": statistics.median(ratios["batch"])}
        if ratios["openspiel"]:
            row["openspiel_cost"] = statistics.median(ratios["openspiel"])
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
