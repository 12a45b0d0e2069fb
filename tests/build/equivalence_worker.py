"""Plays seeded random games and prints one digest line per game (run by test_compiled_equivalence).

Not a test module. ``python -m tests.build.equivalence_worker GAMES [GAME_ID...]`` prints, first,
``build <compiled|pure>`` (which build ran), then per game ``<game> <players> <seed> <sha256>``: the hash of
the exact bytes of everything the game produced: at every step the acting seat's decision,
legal actions, the chosen action, the events returned by ``apply`` and the acting seat's
observation; at the end every seat's and a spectator's observation and log, the scores, the
winners and the saved record (``to_dict()``). Two builds that print the same lines played the
same games byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

from dicetable import build_kind, list_games, new_game
from dicetable.engine import Rng


def _dumps(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr).encode()


def game_digest(game: str, players: int, seed: int) -> str:
    """The sha256 of one seeded random game's record, observations, logs and scores."""
    state = new_game(game, players, seed=seed)
    rng = Rng(seed + 1_000_003)
    h = hashlib.sha256()
    while not state.is_over:
        seats = state.to_move
        seat = seats[rng.randbelow(len(seats))]
        decision = state.decision(seat)
        acts = state.legal_actions(seat)
        action = acts[rng.randbelow(len(acts))]
        events = state.apply(action, seat)
        h.update(_dumps([seat, decision.to_json() if decision else None, [a.to_json() for a in acts],
                         action.id, [e.to_json() for e in events], state.observation(seat)]))
    viewers: list[int | None] = [*range(players), None]
    h.update(_dumps([[state.observation(v), [e.to_json() for e in state.log_for(v)]] for v in viewers]))
    h.update(_dumps([list(state.scores), list(state.winners), state.to_dict()]))
    return h.hexdigest()


def main(argv: list[str]) -> int:
    """``GAMES [GAME_ID...]``: that many games per title (all titles when none is named)."""
    games = int(argv[0])
    wanted = argv[1:] or [spec.id for spec in list_games()]
    print("build", build_kind(), flush=True)
    for spec in list_games():
        if spec.id not in wanted:
            continue
        counts = list(range(max(2, spec.min_players), spec.max_players + 1)) or [spec.min_players]
        for seed in range(games):
            players = counts[seed % len(counts)]
            print(spec.id, players, seed, game_digest(spec.id, players, seed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
