"""What the research environments' untimed opponents cost: CPU seconds of seeded Gymnasium episodes.

    .venv/bin/python benchmarks/untimed_opponents.py [SEED ...]

For Corsairs of Valeria and Biblios Dice at 2 players, against ``easy`` and ``hard``, plays one
episode per seed (default 9 and 10) with a seeded random learner twice: the opponent built with
the level's wall-clock caps (``make_bot(level, seed)``, what the environment did before
2026-12-07) and without them (``clock=False``, what it does now). Prints one line per game and
level: ``(seed, clock, CPU seconds of the episode, actions in the game)`` for each run. The
capped runs depend on the machine's load (that is the point of dropping the caps), so run it on
a quiet machine for figures of the cost alone.
"""

from __future__ import annotations

import sys
import time

import numpy as np

import dicetable.rl as rl
import dicetable.rl.gym as gym_module
from dicetable.bots import make_bot


def episode(game: str, level: str, seed: int, clock: bool) -> tuple[float, int]:
    """(CPU seconds, actions) of one seeded episode against ``level`` with or without the clock."""
    original = gym_module.make_bot
    gym_module.make_bot = lambda name, s, **_: make_bot(name, s, clock=clock)  # type: ignore[assignment]
    try:
        env = rl.gym_env(game, players=2, opponents=level)
        t0 = time.process_time()
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.state is not None
        return time.process_time() - t0, len(env.state.history)
    finally:
        gym_module.make_bot = original


def main() -> None:
    seeds = [int(a) for a in sys.argv[1:]] or [9, 10]
    for game, level in [("corsairs-of-valeria", "easy"), ("biblios-dice", "easy"),
                        ("corsairs-of-valeria", "hard"), ("biblios-dice", "hard")]:
        runs = []
        for seed in seeds:
            for clock in (True, False):
                cpu, actions = episode(game, level, seed, clock)
                runs.append((seed, clock, round(cpu, 2), actions))
        print(game, level, runs, flush=True)


if __name__ == "__main__":
    main()
