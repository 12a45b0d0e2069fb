"""CPU microseconds per direct fill over the leaf states of real searches (memo misses as a search meets them).

    PYTHONPATH=<tree>/src python benchmarks/fill_leaves.py GAME [--passes 12] [--hits]

Records (clone, seat) of every ``Encoding.encode_state`` call during six medium MCTS searches from
sampled 2-player states (set A) and six more (set B). Each pass clears the shared memos, fills set
A's leaves (warming them), then times the fills of set B's leaves in order, into new lists (as
the value model does) or into a float32 memoryview (as the environments do), the two kinds
alternating. Prints the fastest pass of each kind, in CPU time with the collector off. With
``--hits`` the memos are kept between passes, so that after the first pass every fill finds its
memos filled (the cost of the fill itself, without its misses).
"""

from __future__ import annotations

import argparse
import gc
import time
from array import array
from dataclasses import replace
from typing import Any

import dicetable
import dicetable.engine.encoding as encoding
from dicetable.bench import MCTS_ITERATIONS, sample_states
from dicetable.bots.mcts import MCTS, level_params


def record_leaves(game: str, players: int) -> tuple[list[tuple[Any, Any]], list[tuple[Any, Any]], Any]:
    """(set A's leaves, set B's leaves, the encoding) of medium searches from sampled states."""
    seen: list[tuple[Any, Any]] = []
    real = encoding.Encoding.encode_state

    def spy(self: Any, state: Any, seat: Any, out: Any = None) -> Any:
        seen.append((state.clone(), seat))
        return real(self, state, seat, out)

    encoding.Encoding.encode_state = spy  # type: ignore[method-assign]
    try:
        params = replace(level_params(game, "medium", players), iterations=MCTS_ITERATIONS, time_ms=None, workers=1)
        states = [s for s in sample_states(game, players, 4, seed=3, every=7, limit=60) if not s.is_over]
        sets = []
        for roots in (states[::2][:6], states[1::2][:6]):
            seen.clear()
            for i, s in enumerate(roots):
                MCTS(params, seed=i).search(s, s.to_move[0])
            sets.append(list(seen))
    finally:
        encoding.Encoding.encode_state = real  # type: ignore[method-assign]
    make = dicetable.get_game(game).observation_encoding
    if make is None:
        raise SystemExit(f"{game} has no observation encoding")
    enc = make(players, dict(states[0].options))
    return sets[0], sets[1], enc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--passes", type=int, default=12)
    parser.add_argument("--hits", action="store_true", help="keep the memos between passes (time the hits only)")
    args = parser.parse_args()
    warm, timed, enc = record_leaves(args.game, 2)
    if not timed:  # a title whose search rates its leaves by hand (Dice Kingdoms), not from the encoding
        raise SystemExit(f"{args.game}: its searches filled no observation (see fill_batch_order.py)")
    fill, size = enc.direct, enc.size
    view = memoryview(array("f", bytes(4 * size)))
    raw, zero = view.cast("B"), bytes(4 * size)

    def one_pass(into_list: bool) -> float:
        if not args.hits:
            encoding.clear_shared_memos()  # the dicts the fills hold, emptied in place
        t = 0.0
        for leaves in (warm, timed):
            t = time.process_time()
            for state, seat in leaves:
                if into_list:
                    fill(state, seat, [0.0] * size)
                else:
                    raw[:] = zero
                    fill(state, seat, view)
        return (time.process_time() - t) / len(timed) * 1e6

    gc.disable()
    best = {"list": float("inf"), "memoryview": float("inf")}
    for _ in range(args.passes):
        for kind in best:
            best[kind] = min(best[kind], one_pass(kind == "list"))
    hits = "hits " if args.hits else ""
    print(f"{args.game} {dicetable.build_kind()} {hits}leaves={len(timed)} into a list {best['list']:.2f} us, "
          f"into a memoryview {best['memoryview']:.2f} us (fastest of {args.passes} passes)")


if __name__ == "__main__":
    main()
