"""Compiled vs pure, measured alternately: medians of several rounds, for a noisy shared machine.

    .venv-base/bin/python benchmarks/compiled_compare.py [--rounds 5] [--games 30] [GAME...]

Each round measures every game in both builds, one after the other, each in a fresh process
(``dicetable.bench.in_fresh_process``; the pure build with ``DICETABLE_BUILD=pure``):
random decisions per second over ``--games`` seeded random games, and MCTS iterations per
second (the game's ``medium`` settings, ``bench.MCTS_ITERATIONS`` from three sampled states). Prints,
per game, the medians and the ratio of the medians (compiled / pure). Needs a compiled
install (``pip install .`` with a C compiler; see docs/compiled.md).
"""

from __future__ import annotations

import argparse
import json
import statistics

from dicetable import build_kind
from dicetable.bench import in_fresh_process, mcts_iterations_per_s, sample_states, time_random_games
from dicetable.compiled import compiled_available


def measure(game: str, games: int) -> dict:
    """Random decisions/s and MCTS iterations/s of ``game`` (2 players) in this process."""
    steps, elapsed = time_random_games(game, 2, games, seed=1)
    probes = [s for s in sample_states(game, 2, 3, seed=1, every=7, limit=30) if not s.is_over][::10][:3]
    mcts = mcts_iterations_per_s(game, 2, probes, seed=1)  # after three untimed searches, as `dicetable bench`
    return {"build": build_kind(), "steps_per_s": steps / elapsed, "mcts_iterations_per_s": mcts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_ids", nargs="*", default=["kingdom-of-dice", "corsairs-of-valeria", "biblios-dice"])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    if not compiled_available():
        raise SystemExit("no compiled build installed: pip install . with a C compiler present")
    runs: dict[tuple[str, str], list[dict]] = {}
    for _ in range(args.rounds):
        for game in args.games_ids:
            for build in ("compiled", "pure"):
                row = in_fresh_process(build, measure, game, args.games)
                assert row["build"] == build
                runs.setdefault((game, build), []).append(row)
    out = []
    for game in args.games_ids:
        line: dict = {"game": game}
        for key in ("steps_per_s", "mcts_iterations_per_s"):
            fast = statistics.median(r[key] for r in runs[(game, "compiled")])
            slow = statistics.median(r[key] for r in runs[(game, "pure")])
            line[key] = {"compiled": round(fast), "pure": round(slow), "ratio": round(fast / slow, 2)}
        out.append(line)
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
