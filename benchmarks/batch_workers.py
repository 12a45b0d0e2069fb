"""Environment steps per second of wall time: separate environments, one batch, a batch on several cores.

For every title at 2 players, ``--envs`` games stepped three ways, ``--rounds`` times each in
turn (the order alternating), fastest run of each counting:

- **separate**: ``--envs`` PettingZoo AEC environments stepped one after another in this process
  (``rl_speed.separate_unit``: what the issue's "N separate environments" are);
- **batch**: one :class:`dicetable.rl.BatchEnv` of ``--envs`` games in this process
  (``rl_speed.batched_unit``);
- **sharded**: a :class:`dicetable.rl.sharded.ShardedBatchEnv` of ``--envs`` games split among
  ``--workers`` processes (this one and ``workers - 1`` started ones), the same policy.

Every side plays ``--steps`` agent steps per game from the same seeds, its policy drawing
uniformly among each game's legal actions. Unlike ``rl_speed.py``, which counts this process's CPU
time, the clock here is wall time (``time.perf_counter``): a batch on two cores finishes sooner,
not with less work. Beside each rate the CPU time of every process taking part per step is
printed (this one's, plus the workers' from ``/proc/<pid>/stat`` on Linux), so what the cores
spend stays in view. The sharded batch's workers are started before its clock runs (starting one
is a fresh interpreter importing dicetable, 1-2 s).

Run: ``.venv/bin/python benchmarks/batch_workers.py [--envs 64] [--workers 2] [--rounds 3]``
(give it a quiet machine with as many free cores as workers); writes
benchmarks/results/batch-workers.json.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pathlib
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np

import dicetable
from dicetable.rl import batch_env
from dicetable.rl.spaces import research_games

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from rl_speed import batched_unit, separate_unit  # noqa: E402  (a sibling benchmark's units)


def process_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) so far of the processes ``pids`` (Linux's /proc; 0.0 elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    for pid in pids:
        try:
            fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def sharded_unit(game_id: str, players: int, seed: int, envs: int, total: int, workers: int
                 ) -> tuple[Callable[[], int], Any]:
    """``total`` agent steps of a sharded batch (started here, outside the clock) and the batch."""
    b = batch_env(game_id, envs, players, workers=workers)

    def run() -> int:
        rng = np.random.default_rng(seed)
        _, mask, _ = b.reset(seed=[seed * envs + i for i in range(envs)])
        steps = 0
        while steps < total:
            _, mask, *_ = b.step((rng.random(mask.shape) * mask).argmax(axis=1))
            steps += envs
        return steps
    return run, b


def timed(run: Callable[[], int], pids: list[int]) -> tuple[int, float, float]:
    """(steps, wall seconds, CPU seconds of this process and ``pids``) of ``run()``, GC paused."""
    gc.disable()
    cpu0, wall0 = time.process_time() + process_cpu(pids), time.perf_counter()
    try:
        steps = run()
    finally:
        wall = time.perf_counter() - wall0
        cpu = time.process_time() + process_cpu(pids) - cpu0
        gc.enable()
    return steps, wall, cpu


def main() -> None:
    """Measure every title at 2 players; print steps per second of wall time and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=64, help="games per side")
    parser.add_argument("--workers", type=int, default=2, help="processes of the sharded batch")
    parser.add_argument("--rounds", type=int, default=3, help="runs per side; the fastest counts")
    parser.add_argument("--steps", type=int, default=40, help="agent steps per game in a run")
    parser.add_argument("--game", action="append", help="a title (repeatable; default: all five)")
    args = parser.parse_args()
    specs = [s for s in research_games() if not args.game or s.id in args.game]
    rows = []
    for spec in specs:
        players, total = 2, args.steps * args.envs
        run_s, b = sharded_unit(spec.id, players, 1, args.envs, total, args.workers)
        pids = b.worker_pids
        sides: dict[str, tuple[Callable[[], int], list[int]]] = {
            "separate": (separate_unit(spec.id, players, 1, args.envs, total), []),
            "batch": (batched_unit(spec.id, players, 1, args.envs, total), []),
            "sharded": (run_s, pids),
        }
        for run, ps in sides.values():  # warm every code path once
            run()
        best: dict[str, tuple[int, float, float]] = {}
        for r in range(args.rounds):
            order = list(sides.items())
            if r % 2:
                order.reverse()
            for name, (run, ps) in order:
                got = timed(run, ps)
                if name not in best or got[1] < best[name][1]:
                    best[name] = got
        b.close()
        rate = {name: steps / wall for name, (steps, wall, _) in best.items()}
        cpu_us = {name: 1e6 * cpu / steps for name, (steps, _, cpu) in best.items()}
        rows.append({"game": spec.id, "players": players, "envs": args.envs, "workers": args.workers,
                     **{f"{k}_steps_per_s": v for k, v in rate.items()},
                     **{f"{k}_cpu_us_per_step": v for k, v in cpu_us.items()},
                     "sharded_vs_separate": rate["sharded"] / rate["separate"],
                     "sharded_vs_batch": rate["sharded"] / rate["batch"],
                     "batch_vs_separate": rate["batch"] / rate["separate"]})
        r = rows[-1]
        print(f"{spec.id:26} separate {rate['separate']:8,.0f}/s ({cpu_us['separate']:5.1f} us CPU)  "
              f"batch {rate['batch']:8,.0f}/s ({cpu_us['batch']:5.1f})  "
              f"sharded x{args.workers} {rate['sharded']:8,.0f}/s ({cpu_us['sharded']:5.1f})  "
              f"sharded/separate {r['sharded_vs_separate']:.2f}x  sharded/batch {r['sharded_vs_batch']:.2f}x  "
              f"batch/separate {r['batch_vs_separate']:.2f}x", flush=True)
    print(f"build: {dicetable.build_kind()}; load average at the end {os.getloadavg()[0]:.2f}; "
          f"sharded/separate median {statistics.median(r['sharded_vs_separate'] for r in rows):.2f}x")
    out = pathlib.Path(__file__).resolve().parent / "results" / "batch-workers.json"
    out.write_text(json.dumps({"build": dicetable.build_kind(), "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
