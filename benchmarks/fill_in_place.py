"""CPU microseconds of an OpenSpiel step's two tensors: both seats' direct fills of a state stepped in place.

    PYTHONPATH=<tree>/src python benchmarks/fill_in_place.py [GAME] [cold]

GAME: a title's id (default ``dice-kingdoms-of-valeria``). Plays 8 seeded random 2-player games by
the quiet step, one state object per game stepped in place as the environments step theirs, and at
every position fills seat 0's and seat 1's vector into new lists (what ``rl_environment`` asks of an
OpenSpiel state each step). Each pass runs the games once with the fills and once without,
alternating (A B B A); the fills' cost per step is the difference of the fastest passes, in CPU time
with the collector off. By default the memos stay filled between passes (every pass after the first
replays positions already seen, as ``rl_speed.py``'s rounds do); ``cold`` empties them before every
pass, so each position is met for the first time in it.
"""

from __future__ import annotations

import gc
import random
import sys
import time

import dicetable
import dicetable.engine.encoding as encoding

DEFAULT_GAME = "dice-kingdoms-of-valeria"


def main() -> None:
    args = sys.argv[1:]
    cold = "cold" in args
    names = [a for a in args if a != "cold"]
    game = names[0] if names else DEFAULT_GAME
    make = dicetable.get_game(game).observation_encoding
    assert make is not None
    enc = make(2, {})
    fill, size = enc.direct, enc.size
    assert fill is not None

    def choices(seed: int) -> list[tuple[int, int]]:
        """(seat, index among its legal actions) of a seeded random game."""
        state = dicetable.new_game(game, 2, seed=seed)
        rng = random.Random(seed)
        moves = []
        while not state.is_over:
            seat = min(state.to_move)
            legal = state.legal_actions(seat)
            i = rng.randrange(len(legal))
            moves.append((seat, i))
            state.step(legal[i], seat)
        return moves

    games = [(seed, choices(seed)) for seed in range(8)]
    steps = sum(len(moves) for _, moves in games)

    def one_pass(with_fills: bool) -> float:
        if cold:
            encoding.clear_shared_memos()  # the dicts the fills hold, emptied in place
        t = time.process_time()
        for seed, moves in games:
            state = dicetable.new_game(game, 2, seed=seed)
            for seat, i in moves:
                if with_fills:
                    fill(state, 0, [0.0] * size)
                    fill(state, 1, [0.0] * size)
                state.step(state.legal_actions(seat)[i], seat)
        return time.process_time() - t

    gc.disable()
    best = {False: float("inf"), True: float("inf")}
    for _ in range(7):
        for with_fills in (False, True, True, False):
            best[with_fills] = min(best[with_fills], one_pass(with_fills))
    print(f"{game} {dicetable.build_kind()} {'cold' if cold else 'hits'} two fills per step "
          f"{(best[True] - best[False]) / steps * 1e6:.2f} us (the step alone {best[False] / steps * 1e6:.2f} us, "
          f"{steps} steps, fastest of 14 passes a side)")


if __name__ == "__main__":
    main()
