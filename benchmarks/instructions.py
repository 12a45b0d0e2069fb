"""Machine instructions per random game of two source trees, counted by valgrind: a figure that does not move.

    .venv/bin/python benchmarks/instructions.py OLD_SRC NEW_SRC [--games 4] [--only GAME]

Timings on a shared 2-core VM swing by 10-20% between runs (see docs/engine.md, Speed);
an instruction count does not. For every game and tree, valgrind's callgrind runs seeded
random games (``dicetable.bench``'s loop: ``to_move``, ``legal_actions``, ``apply``) in a fresh
interpreter with the tree first on ``sys.path`` and ``PYTHONHASHSEED=0``, once with only the
warm-up game of ``time_random_games`` and once with ``--games`` more; the difference divided by
``--games`` is the cost of a game without the imports and set-up. Same seeds, same games in both trees (the behaviour digest guarantees
it), so the ratio is the change in work. Instructions are not time: cache and branch behaviour
add to it, so the time ratio (``benchmarks/before_after.py``) is usually a few points worse.
Needs valgrind (``apt-get install valgrind``); about a minute per game and tree.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "src" / "dicetable" / "bench.py"

CHILD = r"""
import gc, importlib.util, sys
sys.path.insert(0, sys.argv[1])
gc.disable()
spec = importlib.util.spec_from_file_location("newbench", sys.argv[2])
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
bench.time_random_games(sys.argv[3], 2, int(sys.argv[4]), 1)  # a warm-up game (seed 0), then seeds 1..
"""


def instructions(src: str, game: str, games: int) -> int:
    """Instructions callgrind counts for the warm-up game plus ``games`` seeded random games."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", CHILD, src, str(BENCH), game, str(games)],
                         capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def per_game(src: str, game: str, games: int) -> float:
    """Millions of instructions per random game (the difference of two runs, imports cancel)."""
    return (instructions(src, game, games) - instructions(src, game, 0)) / games / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old_src")
    parser.add_argument("new_src")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--only", action="append", help="game id (repeatable; default: every shipped game)")
    args = parser.parse_args()
    from dicetable.engine.testing import shipped_games

    print("| game (2 players) | before: M instructions / game | after | change |\n|---|---|---|---|")
    for game in args.only or [spec.id for spec in shipped_games()]:
        old, new = per_game(args.old_src, game, args.games), per_game(args.new_src, game, args.games)
        print(f"| {game} | {old:.2f} | {new:.2f} | {100 * (new / old - 1):+.1f}% |", flush=True)


if __name__ == "__main__":
    main()
