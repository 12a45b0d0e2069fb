"""Random decisions per CPU second: the engine's random playout against the same loop interpreted.

``engine.playout.play_random`` is compiled with the engine in the compiled build; ``--loop
interpreted`` plays the same games (the same draws in the same order) by that loop written out in
this script, as ``dicetable bench`` did before it used ``play_random``. One untimed game first,
then games 1..N at 2 players with the collector off; prints decisions per CPU second and the build
(docs/compiled.md, "The random playout compiled with the engine"). Run each side in a fresh process,
alternated:

    PYTHONPATH=<tree>/src [DICETABLE_BUILD=pure] python benchmarks/playout_loop.py GAME N --loop engine|interpreted
"""

from __future__ import annotations

import argparse
import gc
import time

import dicetable
from dicetable.engine import GameState, Rng, new_game
from dicetable.engine.playout import play_random


def interpreted(state: GameState, rng: Rng) -> int:
    """``play_random``'s loop, interpreted here: the decisions it made."""
    steps = 0
    while not state.is_over:
        seats = state.to_move
        seat = seats[rng.randbelow(len(seats))]
        acts = state.legal_actions(seat)
        state.apply(acts[rng.randbelow(len(acts))], seat)
        steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("games", type=int, help="timed games (seeds 1..N)")
    parser.add_argument("--loop", choices=("engine", "interpreted"), default="engine")
    args = parser.parse_args()
    play = play_random if args.loop == "engine" else interpreted

    def one(seed: int) -> int:
        return play(new_game(args.game, 2, seed=seed), Rng(seed))

    one(0)
    gc.disable()
    t = time.process_time()
    decisions = sum(one(seed) for seed in range(1, args.games + 1))
    print(f"{decisions / (time.process_time() - t):.0f} decisions per CPU second ({args.loop} loop, "
          f"{dicetable.build_kind()} build)")


if __name__ == "__main__":
    main()
