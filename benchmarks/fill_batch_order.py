"""CPU microseconds per direct fill in a batch's order (16 games, step by step).

    PYTHONPATH=<tree>/src python benchmarks/fill_batch_order.py [GAME] [cold] [list]

GAME: a title's id (default ``valeria-card-kingdoms``). Plays 16 seeded random 2-player games 40
steps each and records their states interleaved as a ``BatchEnv`` of 16 meets them (game 0's step,
game 1's step, ..., then the next step), each filled for the seat to move into one float32
memoryview (``list``: into a new list of floats, as an OpenSpiel tensor is). Prints the fastest of
30 passes, the collector off. By default the memos stay filled between passes (the hit path, as in
``rl_speed.py``, whose rounds replay the same games); ``cold`` empties them before every pass. The
recorded states are copies, so a fill never meets a state object it filled before.
"""

from __future__ import annotations

import gc
import random
import sys
import time
from array import array

import dicetable
import dicetable.engine.encoding as encoding

DEFAULT_GAME = "valeria-card-kingdoms"


def main() -> None:
    args = sys.argv[1:]
    cold = "cold" in args
    into_list = "list" in args
    names = [a for a in args if a not in ("cold", "list")]
    game = names[0] if names else DEFAULT_GAME
    games = [dicetable.new_game(game, 2, seed=s) for s in range(16)]
    rngs = [random.Random(s) for s in range(16)]
    seq = []
    for _ in range(40):
        for g, state in enumerate(games):
            if state.is_over:
                continue
            seq.append((state.clone(), state.to_move[0]))
            seat = rngs[g].choice(state.to_move)
            state.apply(rngs[g].choice(state.legal_actions(seat)), seat)
    make = dicetable.get_game(game).observation_encoding
    assert make is not None
    enc = make(2, {})
    fill, size = enc.direct, enc.size
    view = memoryview(array("f", bytes(4 * size)))
    raw, zero = view.cast("B"), bytes(4 * size)
    gc.disable()
    best = float("inf")
    for _ in range(30):
        if cold:
            encoding.clear_shared_memos()  # the dicts the fills hold, emptied in place
        t = time.process_time()
        if into_list:
            for state, seat in seq:
                fill(state, seat, [0.0] * size)
        else:
            for state, seat in seq:
                raw[:] = zero
                fill(state, seat, view)
        best = min(best, time.process_time() - t)
    print(f"{game} {dicetable.build_kind()} {'cold' if cold else 'hits'} {'list' if into_list else 'memoryview'} {best / len(seq) * 1e6:.2f} us per fill "
          f"({len(seq)} fills, fastest of 30 passes)")


if __name__ == "__main__":
    main()
