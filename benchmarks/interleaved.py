"""Random decisions per CPU second of several builds, measured in slices taken in turn.

On a shared machine the rate of one process moves by a quarter from one second to the next, so
two builds timed one after the other differ by the machine's mood as much as by their code. This
script keeps one worker process per side (a source tree, compiled or with ``DICETABLE_BUILD=pure``),
each warmed once, and asks them in turn, round after round, to play the same few seeded random
games (``engine.playout.play_random``, 2 players, the collector off, events built and logged as
``apply`` does); each reports the decisions and the CPU seconds (``time.process_time``) of its
slice. Every side then meets the same moments of load, a slice each. Prints, per title and side,
the decisions per CPU second over all rounds, the median of the per-round compiled/pure ratios.

    python benchmarks/interleaved.py --side base=/tmp/base/src --side new=/tmp/new/src \\
        --rounds 12 --game corsairs-of-valeria:60 --game kingdom-of-dice:12
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

WORKER = r"""
import gc, sys, time
import dicetable
from dicetable.engine import Rng, new_game
from dicetable.engine.playout import play_random
print(dicetable.build_kind(), flush=True)
for line in sys.stdin:
    game, n, seed = line.split()
    n, seed = int(n), int(seed)
    play_random(new_game(game, 2, seed=seed - 1), Rng(seed - 1))
    gc.collect()
    gc.disable()
    t = time.process_time()
    steps = 0
    for s in range(seed, seed + n):
        steps += play_random(new_game(game, 2, seed=s), Rng(s))
    dt = time.process_time() - t
    gc.enable()
    print(steps, dt, flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", action="append", required=True, help="NAME=SRC (a source tree, compiled in place)")
    parser.add_argument("--game", action="append", required=True, help="GAME:GAMES (games per slice)")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    workers = {}
    for spec in args.side:
        name, src = spec.split("=", 1)
        for build in ("compiled", "pure"):
            env = dict(os.environ, PYTHONPATH=src)
            if build == "pure":
                env["DICETABLE_BUILD"] = "pure"
            p = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 env=env, text=True)
            got = p.stdout.readline().strip()
            if got != build:
                raise SystemExit(f"{name}: expected the {build} build from {src}, got {got}")
            workers[(name, build)] = p
    keys = list(workers)
    games = [(g.split(":")[0], int(g.split(":")[1])) for g in args.game]
    totals = {(k, g): [0, 0.0] for k in keys for g, _ in games}
    per_round = {(k, g): [] for k in keys for g, _ in games}
    for r in range(args.rounds):
        order = keys if r % 2 == 0 else keys[::-1]
        for game, n in games:
            seed = 1 + r * n
            for k in order:
                p = workers[k]
                p.stdin.write(f"{game} {n} {seed}\n")
                p.stdin.flush()
                steps, dt = p.stdout.readline().split()
                totals[(k, game)][0] += int(steps)
                totals[(k, game)][1] += float(dt)
                per_round[(k, game)].append(int(steps) / float(dt))
    for p in workers.values():
        p.stdin.close()
        p.wait()
    names = list(dict.fromkeys(k[0] for k in keys))
    print("| game | side | compiled decisions/CPU s | pure | compiled/pure (all rounds) | median of rounds' ratios (range) |")
    print("|---|---|---|---|---|---|")
    for game, _ in games:
        for name in names:
            c, p = totals[((name, "compiled"), game)], totals[((name, "pure"), game)]
            rc, rp = c[0] / c[1], p[0] / p[1]
            ratios = [a / b for a, b in zip(per_round[((name, "compiled"), game)], per_round[((name, "pure"), game)])]
            print(f"| {game} | {name} | {rc:,.0f} | {rp:,.0f} | {rc / rp:.2f}x | "
                  f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}) |")


if __name__ == "__main__":
    main()
