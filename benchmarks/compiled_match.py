"""The compiled build's bot against the pure build's, same level and thinking time per move.

    .venv/bin/python benchmarks/compiled_match.py --compiled BUILT_SRC [--pure src]
        [--game kingdom-of-dice ...] [--games 200] [--time-ms 50] [--level medium]

``BUILT_SRC`` is a source tree compiled in place by mypyc (see benchmarks/compiled_titles.py);
``--pure`` a tree without compiled modules (default: this checkout's ``src``). Each side is a
worker process with ``PYTHONPATH`` set to its tree, holding its own copy of the game (the moves
are sent to both, so each plays the game in its own build; the builds play byte-identical
games) and an :class:`~dicetable.bots.mcts.MCTSBot` of ``--level`` whose every search stops
after ``--time-ms`` wall-clock milliseconds (iterations unbounded, one worker process, no turn
budget). Only one side thinks at a time. Two-player games, seeds 1..games; the compiled side
sits at seat 0 in the odd games and seat 1 in the even ones.

Reported per title: the compiled side's score rate (a win 1, a shared win 0.5, a loss 0) with
its 95% interval (normal approximation on the games' scores), and each side's mean MCTS
iterations per searched decision (how much more the compiled side looks at in the time; a
level that decides a title's turns with its turn planner, bounded by the same time, has none).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def worker() -> None:
    """Answer the driver's JSON lines on stdin: ``new``, ``act``, ``choose`` (see :func:`main`)."""
    from dataclasses import replace

    from dicetable import build_kind, new_game
    from dicetable.bots.mcts import MCTSBot, level_params

    state: Any = None
    bot: Any = None
    searched = [0, 0]  # iterations, searches
    print(json.dumps({"build": build_kind()}), flush=True)
    for line in sys.stdin:
        msg = json.loads(line)
        op = msg["op"]
        if op == "new":
            state = new_game(msg["game"], 2, seed=msg["seed"])
            params = replace(level_params(msg["game"], msg["level"], 2), iterations=10**9,
                             time_ms=float(msg["time_ms"]), turn_ms=None, workers=1)
            bot = MCTSBot(params, seed=msg["seed"])
            reply: dict[str, Any] = {}
        elif op == "act":
            state.apply(msg["id"], msg["seat"])
            reply = {}
        elif op == "choose":
            action = bot.choose(state, msg["seat"])
            if bot.last is not None and bot.last.how == "search":
                searched[0] += bot.last.iterations
                searched[1] += 1
            reply = {"id": action.id}
        elif op == "stats":
            reply = {"iterations": searched[0], "searches": searched[1]}
        else:
            raise SystemExit(f"unknown op {op!r}")
        print(json.dumps(reply), flush=True)


class Side:
    """One worker process (one build) and its pipe."""

    def __init__(self, tree: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], env=env, cwd=ROOT, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.build = self._read()["build"]

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"a worker stopped (exit code {self.proc.wait()})")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def ask(self, **msg: Any) -> dict[str, Any]:
        """Send one message, return the reply."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        """End the worker."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def play(game: str, seed: int, sides: list[Side], level: str, time_ms: float) -> tuple[int, ...]:
    """One game, ``sides[s]`` deciding for seat ``s``; returns the winners."""
    from dicetable import new_game

    state = new_game(game, 2, seed=seed)
    for side in sides:
        side.ask(op="new", game=game, seed=seed, level=level, time_ms=time_ms)
    while not state.is_over:
        seat = state.to_move[0]
        aid = sides[seat].ask(op="choose", seat=seat)["id"]
        state.apply(aid, seat)
        for side in sides:
            side.ask(op="act", seat=seat, id=aid)
    return tuple(state.winners)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--compiled", type=Path, help="a source tree compiled in place by mypyc")
    parser.add_argument("--pure", type=Path, default=ROOT / "src")
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: kingdom-of-dice)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--time-ms", type=float, default=50.0)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if args.compiled is None:
        parser.error("--compiled BUILT_SRC is required (a source tree compiled in place by mypyc)")
    sys.path.insert(0, str(args.pure))
    print("| game | games | compiled score rate (95% interval) | iterations/search compiled / pure |\n|---|---|---|---|")
    for game in args.game or ["kingdom-of-dice"]:
        compiled, pure = Side(args.compiled), Side(args.pure)
        if (compiled.build, pure.build) != ("compiled", "pure"):
            raise SystemExit(f"expected a compiled and a pure build, got {compiled.build} and {pure.build}")
        scores: list[float] = []
        for g in range(args.games):
            seats = [compiled, pure] if g % 2 == 0 else [pure, compiled]
            mine = seats.index(compiled)
            winners = play(game, g + 1, seats, args.level, args.time_ms)
            scores.append(1.0 / len(winners) if mine in winners else 0.0)
        n = len(scores)
        mean = sum(scores) / n
        sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(1, n - 1))
        half = 1.96 * sd / math.sqrt(n)
        rates: list[str] = []
        for side in (compiled, pure):
            st = side.ask(op="stats")
            rates.append(f"{st['iterations'] / st['searches']:,.0f}" if st["searches"] else "- (turn planner)")
            side.close()
        print(f"| {game} | {n} | {mean:.3f} ({mean - half:.3f}-{mean + half:.3f}) | {rates[0]} / {rates[1]} |",
              flush=True)


if __name__ == "__main__":
    main()
