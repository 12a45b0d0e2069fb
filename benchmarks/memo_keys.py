"""What the boards' memo keys cost per action: ``marshal`` against JSON text (docs/load.md, "The boards' memo keys").

    PYTHONPATH=src python benchmarks/memo_keys.py [--seeds 3] [--rounds 3]

Plays ``--seeds`` greedy games of each title whose board memoises drawings
(``markup.Memo``) at 3 players, draws every seat's and a spectator's board
after every action (as a server does for its viewers), and records every
memo call's arguments. Then it times making the key of every recorded call,
both ways, with the digest of a key longer than 64 bytes as ``Memo`` makes
it: ``marshal.dumps(args, 2)`` (the key before) and ``orjson.dumps(args)``
(the key now), alternated ``--rounds`` times (marshal, JSON, JSON, marshal),
CPU time, the fastest pass of each. Prints per title the memo calls per
action and the keys' microseconds per action (all viewers).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import marshal
import time
from typing import Any, Callable

import orjson

from dicetable.bots import make_bot
from dicetable.engine import get_game, markup, new_game

TITLES = ("kingdom-of-dice", "corsairs-of-valeria", "biblios-dice", "valeria-card-kingdoms")


def _digest(key: bytes) -> bytes:
    return hashlib.blake2b(key, digest_size=16).digest() if len(key) > 64 else key


def marshal_key(args: tuple) -> bytes:
    """The key as ``Memo`` made it before: the arguments' marshal form (version 2)."""
    return _digest(marshal.dumps(args, 2))


def json_key(args: tuple) -> bytes:
    """The key as ``Memo`` makes it now: the arguments' JSON text."""
    return _digest(orjson.dumps(args))


def record(seeds: int) -> tuple[dict[str, list[tuple]], collections.Counter]:
    """Every memo call's arguments per title, and the actions played per title."""
    calls: dict[str, list[tuple]] = collections.defaultdict(list)
    actions: collections.Counter = collections.Counter()
    game = ""
    draw = markup.Memo.__call__

    def recorded(self: markup.Memo, *args: Any) -> Any:
        calls[game].append(args)
        return draw(self, *args)

    markup.Memo.__call__ = recorded  # type: ignore[method-assign]
    try:
        for game in TITLES:
            spec = get_game(game)
            for seed in range(1, seeds + 1):
                state = new_game(game, 3, seed=seed)
                bot = make_bot("greedy", seed)
                while not state.is_over:
                    seat = state.to_move[0]
                    state.apply(bot.choose(state, seat), seat)
                    actions[game] += 1
                    for viewer in (0, 1, 2, None):
                        moving = viewer is not None and viewer in state.to_move
                        acts = [a.to_json() for a in state.legal_actions(viewer)] if moving else []
                        spec.board_view(state.observation(viewer), acts, viewer)
    finally:
        markup.Memo.__call__ = draw  # type: ignore[method-assign]
    return calls, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    calls, actions = record(args.seeds)
    ways: tuple[tuple[str, Callable[[tuple], bytes]], ...] = (
        ("marshal", marshal_key), ("json", json_key), ("json", json_key), ("marshal", marshal_key))
    best: dict[tuple[str, str], float] = {}
    for _ in range(args.rounds):
        for name, make in ways:
            for game, recorded in calls.items():
                t0 = time.process_time()
                for one in recorded:
                    make(one)
                us = (time.process_time() - t0) * 1e6 / actions[game]
                best[game, name] = min(us, best.get((game, name), us))
    print(f"{'title':24s} {'calls/action':>12s} {'marshal us':>10s} {'json us':>8s} {'json/marshal':>12s}")
    for game in calls:
        m, j = best[game, "marshal"], best[game, "json"]
        print(f"{game:24s} {len(calls[game]) / actions[game]:12.1f} {m:10.1f} {j:8.1f} {j / m:12.2f}")


if __name__ == "__main__":
    main()
