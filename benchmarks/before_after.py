"""Engine costs of two source trees side by side, measured the same way in one run.

    .venv/bin/python benchmarks/before_after.py OLD_SRC NEW_SRC [--games 100]

e.g. with ``git worktree add /tmp/before <commit>``, OLD_SRC = /tmp/before/src and
NEW_SRC = src (``--only GAME`` for games the old tree does not have; ``--gc-off`` pauses
the garbage collector in the timed processes; ``--best`` reports each tree's best run
instead of the median and ``--cpu`` times CPU time instead of wall time, both for a machine
shared with other work). For every
game, each measurement runs in a fresh interpreter with that tree first on
``sys.path``, one at a time, ``--repeat`` times per tree (alternating which
goes first; medians reported): random games/s and actions/s (``dicetable.bench.time_random_games``, this
tree's copy), then microseconds per cold ``legal_actions``, per ``apply`` and per
``clone`` on up to 4,000 states sampled along the same games.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "src" / "dicetable" / "bench.py"

CHILD = r"""
import gc, importlib.util, json, sys, time
sys.path.insert(0, sys.argv[1])
if sys.argv[6] == "1":
    gc.disable()  # --gc-off: no collector pauses in the timings (the games allocate no cycles that matter)
if sys.argv[7] == "1":  # --cpu: this process's CPU time, not wall time (bench.py reads time.perf_counter*)
    time.perf_counter, time.perf_counter_ns = time.process_time, time.process_time_ns
spec = importlib.util.spec_from_file_location("newbench", sys.argv[2])
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
game, players, games = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
steps, elapsed = bench.time_random_games(game, players, games, 1)
samples = [s for s in bench.sample_states(game, players, games, 1) if not s.is_over]
clone_us, legal_us, apply_us = bench.operation_costs_us(samples, 1)
print(json.dumps({"games_per_s": games / elapsed, "steps_per_s": steps / elapsed,
                  "legal_actions_us": legal_us, "apply_us": apply_us, "clone_us": clone_us}))
"""


def measure(src: str, game: str, players: int, games: int, gc_off: bool = False, cpu: bool = False) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, src, str(BENCH), game, str(players), str(games),
                          "1" if gc_off else "0", "1" if cpu else "0"],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old_src")
    parser.add_argument("new_src")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--only", action="append", help="game id (repeatable; default: every shipped game)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per tree (median reported)")
    parser.add_argument("--gc-off", action="store_true", help="pause the garbage collector in the timed runs")
    parser.add_argument("--cpu", action="store_true",
                        help="time with the process's CPU time instead of wall time (waiting for a core "
                             "on a shared machine is not counted)")
    parser.add_argument("--best", action="store_true",
                        help="report each tree's best run (highest rates, lowest costs) instead of the median: "
                             "the run least disturbed by other work on a shared machine")
    args = parser.parse_args()
    from dicetable.engine.testing import shipped_games

    games = args.only or [spec.id for spec in shipped_games()]
    rows = []
    for game in games:
        runs: dict[str, list[dict]] = {"before": [], "after": []}
        for i in range(args.repeat):  # alternate which tree goes first
            order = [("before", args.old_src), ("after", args.new_src)]
            for key, src in (order if i % 2 == 0 else order[::-1]):
                runs[key].append(measure(src, game, args.players, args.games, args.gc_off, args.cpu))
        def pick(key: str, values: list) -> float:
            if not args.best:
                return statistics.median(values)
            return max(values) if key.endswith("_per_s") else min(values)

        rows.append({"game": game, "players": args.players,
                     **{key: {k: pick(k, [r[k] for r in rs]) for k in rs[0]} for key, rs in runs.items()}})
    print(json.dumps(rows, indent=1))
    print("| game | games/s | steps/s | legal_actions us | apply us | clone us |", file=sys.stderr)
    print("|---|---|---|---|---|---|", file=sys.stderr)
    for r in rows:
        cells = [f"{r['before'][k]:.{d}f} -> {r['after'][k]:.{d}f}" for k, d in (
            ("games_per_s", 0), ("steps_per_s", 0), ("legal_actions_us", 2), ("apply_us", 2), ("clone_us", 2))]
        print(f"| {r['game']} | " + " | ".join(cells) + " |", file=sys.stderr)


if __name__ == "__main__":
    main()
