"""Play many seeded random games of one game across every player count and option value.

    .venv/bin/python benchmarks/random_games.py kingdom-of-dice 10000 [--workers 2]

Every game is checked to end (``is_over``, nobody to move, one score per
seat); the output gives the number of games, actions, wall time and the
end-of-game breakdown by player count. Exits 1 if any game failed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import dicetable
from dicetable.engine import Rng
from dicetable.engine.testing import random_playout


def variants(game: str) -> list[tuple[int, dict]]:
    """Every (players, options) combination: each option with choices takes each of them."""
    spec = dicetable.get_game(game)
    out = []
    for players in range(spec.min_players, spec.max_players + 1):
        opts = [o for o in spec.options if o.choices and (o.players is None or players in o.players)]
        for values in itertools.product(*(o.choices for o in opts)):
            out.append((players, {o.name: v for o, v in zip(opts, values)}))
    return out


def play(args) -> dict:
    game, index, players, options = args
    try:
        state = dicetable.new_game(game, players, seed=index, options=options)
        result = random_playout(state, Rng(index))
        assert state.to_move == () and len(state.scores) == players
        return {"ok": True, "players": players, "steps": result.steps}
    except Exception as exc:  # report every failure with its seed
        return {"ok": False, "players": players, "seed": index, "options": options, "error": repr(exc)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("games", type=int)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    combos = variants(args.game)
    counts = sorted({players for players, _ in combos})
    per_count = {n: [c for c in combos if c[0] == n] for n in counts}
    # Player counts take turns; within a count, the option combinations take turns.
    jobs = []
    for i in range(args.games):
        group = per_count[counts[i % len(counts)]]
        jobs.append((args.game, i, *group[(i // len(counts)) % len(group)]))
    t0 = time.time()
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play, jobs, chunksize=50))
    wall = time.time() - t0
    failures = [r for r in results if not r["ok"]]
    by_players: dict[int, int] = {}
    for r in results:
        by_players[r["players"]] = by_players.get(r["players"], 0) + 1
    print(json.dumps({"game": args.game, "games": len(results), "failures": len(failures),
                      "actions": sum(r.get("steps", 0) for r in results), "wall_s": round(wall, 1),
                      "variants": len(combos), "by_players": by_players}))
    for f in failures[:10]:
        print(json.dumps(f))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
