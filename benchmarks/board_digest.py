"""One digest of every board a set of seeded games draws, to show that a change to the drawing kept every byte.

Plays, per title, ``--seeds`` games at every player count (even seeds the
greedy bot's choices for every seat, odd seeds the random bot's) and, after
every action, draws the board (``board_view``) of every seat and of a
spectator, the seat to move with its legal actions. The parts, in their
order, go into one SHA-256 per title. Run it with two source trees (say the
branch's and main's, through ``PYTHONPATH``) and compare the lines: equal
digests mean equal parts, in the same order, for every board drawn.

    PYTHONPATH=src python benchmarks/board_digest.py [GAME ...] [--seeds N]

Prints, per title: the boards drawn and the digest's first 16 hex digits.
"""

from __future__ import annotations

import argparse
import hashlib
import json

from dicetable.bots import make_bot
from dicetable.engine import get_game, list_games, new_game


def digest(game: str, seeds: int) -> tuple[int, str]:
    """``(boards drawn, SHA-256 hex digest of their parts)`` for ``seeds`` games per player count of ``game``."""
    spec = get_game(game)
    draw = spec.board_view
    h = hashlib.sha256()
    boards = 0
    if draw is None:
        return 0, h.hexdigest()
    for seed in range(seeds):
        for players in range(spec.min_players, spec.max_players + 1):
            state = new_game(game, players, seed=seed)
            bot = make_bot("random" if seed % 2 else "greedy", seed=seed)
            while not state.is_over:
                for viewer in [*range(players), None]:
                    actions = ([a.to_json() for a in state.legal_actions(viewer)]
                               if viewer is not None and viewer in state.to_move else [])
                    parts = draw(state.observation(viewer), actions, viewer)
                    h.update(json.dumps(list(parts.items())).encode())
                    boards += 1
                seat = state.to_move[0]
                state.apply(bot.choose(state, seat).id, seat)
    return boards, h.hexdigest()


def main() -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all five)")
    parser.add_argument("--seeds", type=int, default=4, help="games per player count (default 4)")
    args = parser.parse_args()
    for game in args.games or [s.id for s in list_games()]:
        boards, hexdigest = digest(game, args.seeds)
        print(f"{game:26} {boards:7} boards  {hexdigest[:16]}", flush=True)


if __name__ == "__main__":
    main()
