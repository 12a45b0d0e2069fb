"""Compiled against pure, per title, in one run: random decisions per second and MCTS iterations per second.

    .venv/bin/python benchmarks/compiled_titles.py --compiled BUILT_SRC [--pure src]
        [--game dice-kingdoms-of-valeria --game valeria-card-kingdoms] [--runs 3] [--games 30] [--probes 3]

``BUILT_SRC`` is a source tree whose modules have been compiled in place by mypyc (the ``.so``
files beside the ``.py`` ones, e.g. ``mypyc dicetable/engine/*.py ...`` run inside a copy of
``src``); ``--pure`` is a tree without them (default: this checkout's ``src``). Each measurement
runs in a fresh interpreter with ``PYTHONPATH`` set to one tree, the two builds alternating
``--runs`` times (a noisy moment of the machine hits both alike); the best of each is reported,
and the ratio compiled / pure.

Random decisions per second: ``--games`` seeded random 2-player games played with
``legal_actions`` + ``apply`` (CPU time, collector paused, ``dicetable.bench.time_random_games``).
MCTS iterations per second: the medium bot's search settings with 100 iterations, one worker,
from ``--probes`` states (default three) sampled evenly along those games (CPU time); more probes
average over more positions (a search's cost differs from one position to the next, and the games'
move caches warm as more are searched).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TITLES = ("dice-kingdoms-of-valeria", "valeria-card-kingdoms")


def measure(game: str, games: int, probes: int = 3) -> dict[str, float | str]:
    """One build's figures for ``game`` (run inside the worker process)."""
    import time
    from dataclasses import replace

    time.perf_counter_ns = time.process_time_ns  # CPU time: a busy machine's waits are not counted
    time.perf_counter = time.process_time
    from dicetable.bench import sample_states, time_random_games
    from dicetable.bots.mcts import MCTS, level_params
    from dicetable.engine import flow

    steps, elapsed = time_random_games(game, 2, games, 1, None)
    samples = [s for s in sample_states(game, 2, games, 1) if not s.is_over]
    params = replace(level_params(game, "medium", 2), iterations=100, time_ms=None, workers=1)
    states = samples[:: max(1, len(samples) // probes)][:probes]
    t0 = time.process_time()
    for i, s in enumerate(states):
        MCTS(params, seed=i).search(s, s.to_move[0])
    mcts = len(states) * params.iterations / (time.process_time() - t0)
    compiled = not str(getattr(flow, "__file__", "")).endswith(".py")
    return {"build": "compiled" if compiled else "pure", "decisions_per_s": steps / elapsed,
            "mcts_iterations_per_s": mcts}


def _run(tree: Path, game: str, games: int, probes: int = 3) -> dict[str, float | str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, __file__, "--worker", game, "--games", str(games), "--probes", str(probes)],
                         env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    row: dict[str, float | str] = json.loads(out.stdout.strip().splitlines()[-1])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--compiled", type=Path, help="a source tree compiled in place by mypyc")
    parser.add_argument("--pure", type=Path, default=ROOT / "src")
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: the two Valeria titles)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--probes", type=int, default=3, help="states searched for the MCTS figure")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(measure(args.worker, args.games, args.probes)))
        return
    if args.compiled is None:
        parser.error("--compiled BUILT_SRC is required (a source tree compiled in place by mypyc)")
    print("| game | build | random decisions/s | MCTS iterations/s |\n|---|---|---|---|")
    ratios = []
    for game in args.game or TITLES:
        best: dict[str, dict[str, float]] = {}
        for run in range(args.runs):
            order = (args.compiled, args.pure) if run % 2 == 0 else (args.pure, args.compiled)
            for tree in order:
                row = _run(tree, game, args.games, args.probes)
                kind = str(row["build"])
                mine = best.setdefault(kind, {"decisions_per_s": 0.0, "mcts_iterations_per_s": 0.0})
                for key in mine:
                    mine[key] = max(mine[key], float(row[key]))
        if set(best) != {"compiled", "pure"}:
            raise SystemExit(f"{game}: expected one compiled and one pure build, got {sorted(best)}; "
                             f"is --compiled a tree with mypyc's .so files?")
        for kind in ("compiled", "pure"):
            b = best[kind]
            print(f"| {game} | {kind} | {b['decisions_per_s']:,.0f} | {b['mcts_iterations_per_s']:,.0f} |")
        ratios.append((game, best["compiled"]["decisions_per_s"] / best["pure"]["decisions_per_s"],
                       best["compiled"]["mcts_iterations_per_s"] / best["pure"]["mcts_iterations_per_s"]))
    print("\n| game | compiled/pure decisions | compiled/pure MCTS |\n|---|---|---|")
    for game, dec, mcts in ratios:
        print(f"| {game} | {dec:.2f}x | {mcts:.2f}x |")


if __name__ == "__main__":
    main()
