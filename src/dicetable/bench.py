"""Engine speed measurements (``dicetable bench``): per-operation costs in one run.

All figures come from seeded random play in this process: random games per
second and actions per second over whole games (after one warm-up game,
nothing kept between games), then microseconds per
``legal_actions`` (cache cold), per ``apply`` and per ``clone`` measured on
states sampled along those games, microseconds per action of random
playouts from those states with ``apply`` and with the quiet ``step`` of
search (the same actions either way), with the garbage collector paused
inside every timed loop, MCTS iterations per second (the game's
``medium`` search settings), the ``hard`` bot's thinking time and iterations
per decision (its budget is 1,500 iterations or 1 s, whichever ends first)
and the peak memory of playing one game.
"""

from __future__ import annotations

import gc
import os
import time
import tracemalloc
from contextlib import contextmanager
from typing import Any, Iterator

from dicetable.engine import GameState, Rng, new_game
from dicetable.engine.playout import play_random


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector inside a timed loop (its pauses land on whichever
    operation happens to allocate, distorting per-operation figures); restores the previous state."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _random_game(game: str, players: int, seed: int, options: dict[str, Any] | None, every: int = 0,
                 samples: list[GameState] | None = None, limit: int = 0, quiet: bool = False) -> int:
    """Play one seeded random game; return its actions. Given ``samples``, keep a clone of every
    ``every``-th state in it until it holds ``limit``. ``quiet``: each action by the quiet trusted
    ``step`` of search (no event built or logged) instead of ``apply``; the same game either way."""
    state = new_game(game, players, seed=seed, options=options)
    rng = Rng(seed)
    if samples is None or not every:  # the timed path: the engine's loop (native in the compiled build)
        return play_random(state, rng, quiet)
    steps = 0
    while not state.is_over:
        steps += play_random(state, rng, quiet, every)
        if steps % every == 0 and len(samples) < limit:
            samples.append(state.clone())
    return steps


def time_random_games(game: str, players: int, games: int, seed: int,
                      options: dict | None = None, quiet: bool = False) -> tuple[int, float]:
    """Play ``games`` seeded random games (seeds ``seed``...); return ``(actions, seconds)``.

    One untimed game first (seed ``seed - 1``) warms the interpreter and the
    games' text and menu caches, so the figure is the steady rate of a long
    simulation. Nothing is kept between games. ``quiet``: every action by the
    quiet ``step`` (the step of search, which builds no events), as :func:`_random_game`.
    """
    _random_game(game, players, seed - 1, options, quiet=quiet)
    steps = 0
    with paused_gc():
        t0 = time.perf_counter()
        for g in range(games):
            steps += _random_game(game, players, seed + g, options, quiet=quiet)
        return steps, time.perf_counter() - t0


#: Iterations of each timed MCTS search: 400 (100 before 2026-12-06 made a window of 15-100 ms of
#: compiled search from three states, in which the compiled/pure ratio moved by half between runs).
MCTS_ITERATIONS = 400


def mcts_iterations_per_s(game: str, players: int, probes: list[GameState], seed: int,
                          options: dict | None = None) -> float:
    """MCTS iterations per second: the game's ``medium`` settings, :data:`MCTS_ITERATIONS` from each of ``probes``.

    As :func:`time_random_games` plays one untimed game first, three untimed searches from states
    of another game (seed ``seed - 1``) first fill the games' memo tables and the interpreter's
    caches, so the figure is the steady rate of a bot that has searched before (a first search
    alone ran 1.4-6 times slower than the next ones); the collector is paused in the timed part,
    as in every timing here.
    """
    from dataclasses import replace

    from dicetable.bots.mcts import MCTS, level_params

    params = replace(level_params(game, "medium", players), iterations=MCTS_ITERATIONS, time_ms=None, workers=1)
    warm = [s for s in sample_states(game, players, 1, seed - 1, options, every=7) if not s.is_over]
    for i, s in enumerate(warm[:: max(1, len(warm) // 3)][:3]):
        MCTS(params, seed=i).search(s, s.to_move[0])
    with paused_gc():
        t0 = time.perf_counter()
        for i, s in enumerate(probes):
            MCTS(params, seed=i).search(s, s.to_move[0])
        return len(probes) * params.iterations / (time.perf_counter() - t0)


def sample_states(game: str, players: int, games: int, seed: int, options: dict | None = None,
                  every: int = 17, limit: int = 4000) -> list:
    """Clones of states every ``every`` actions along the same seeded random games (untimed).

    At most ``limit`` states, some of them possibly over.
    """
    samples: list = []
    for g in range(games):
        if len(samples) >= limit:
            break
        _random_game(game, players, seed + g, options, every, samples, limit)
    return samples


def clone_cost_us(states: list) -> float:
    """Mean microseconds of one ``clone()`` over ``states`` (anything with a ``clone`` method)."""
    with paused_gc():
        t0 = time.perf_counter_ns()
        for s in states:
            s.clone()
        return (time.perf_counter_ns() - t0) / 1000 / max(1, len(states))


def operation_costs_us(samples: list, seed: int) -> tuple[float, float, float]:
    """Mean microseconds of one ``clone``, one cold ``legal_actions`` and one ``apply`` over
    ``samples`` (states not over; seats and actions drawn with ``Rng(seed)``).

    ``apply`` is timed with the legal actions already cached, as in a playout.
    """
    rng = Rng(seed)
    clone_us = clone_cost_us(samples)
    fresh = [s.clone() for s in samples]
    seats = [s.to_move[rng.randbelow(len(s.to_move))] for s in fresh]
    with paused_gc():
        t0 = time.perf_counter_ns()
        for s, seat in zip(fresh, seats):
            s.legal_actions(seat)
        legal_us = (time.perf_counter_ns() - t0) / 1000 / len(fresh)
    chosen = []
    for s, seat in zip(fresh, seats):
        acts = s.legal_actions(seat)
        chosen.append(acts[rng.randbelow(len(acts))])
    with paused_gc():
        t0 = time.perf_counter_ns()
        for s, seat, a in zip(fresh, seats, chosen):
            s.apply(a, seat)
        apply_us = (time.perf_counter_ns() - t0) / 1000 / len(fresh)
    return clone_us, legal_us, apply_us


def playout_costs_us(samples: list, seed: int, quiet: bool) -> float:
    """Mean microseconds per action of random playouts to the end from clones of ``samples``.

    Each action is ``legal_actions`` then ``apply`` (``quiet=False``) or the
    quiet trusted ``step`` of search (``quiet=True``); the same seeded
    choices either way, so both play the same actions. The garbage collector
    is paused while timing.
    """
    starts = [s.clone() for s in samples]
    steps = 0
    with paused_gc():
        t0 = time.perf_counter_ns()
        for i, state in enumerate(starts):
            rng = Rng(seed + i)
            go = state.step if quiet else state.apply
            while not state.is_over:
                seats = state.to_move
                seat = seats[rng.randbelow(len(seats))]
                acts = state.legal_actions(seat)
                go(acts[rng.randbelow(len(acts))], seat)
                steps += 1
        elapsed = time.perf_counter_ns() - t0
    return elapsed / 1000 / max(1, steps)


def bench_game(game: str, players: int = 2, games: int = 200, seed: int = 1,
               options: dict | None = None) -> dict:
    """Measure one game; return a JSON-able dict of rates and per-operation microseconds."""
    steps, elapsed = time_random_games(game, players, games, seed, options)
    samples = [s for s in sample_states(game, players, games, seed, options) if not s.is_over]
    clone_us, legal_us, apply_us = operation_costs_us(samples, seed)
    playouts = samples[:: max(1, len(samples) // 200)][:200]
    playout_apply_us = playout_costs_us(playouts, seed, quiet=False)
    playout_quiet_us = playout_costs_us(playouts, seed, quiet=True)
    probes = samples[:: max(1, len(samples) // 3)][:3]
    mcts_its = mcts_iterations_per_s(game, players, probes, seed, options)
    from dataclasses import replace

    from dicetable.bots.mcts import MCTS, level_params

    # the hard bot's decisions: wall time and iterations completed within its budget
    hard = replace(level_params(game, "hard", players), workers=1)
    hard_iterations = 0
    t0 = time.perf_counter()
    for i, s in enumerate(probes):
        stats = MCTS(hard, seed=i).search(s, s.to_move[0])
        hard_iterations += sum(visits for visits, _ in stats.values())
    hard_ms = (time.perf_counter() - t0) * 1000 / max(1, len(probes))
    # one search leaf scored for every seat: the learned value when one ships, else `evaluate`
    from dicetable.bots.value import Evaluator

    evaluator = Evaluator(game, players, samples[0].options if samples else {}, "auto")
    leaves = samples[:: max(1, len(samples) // 100)][:100]
    t0 = time.perf_counter()
    for s in leaves:
        evaluator.rewards(s)
    leaf_us = (time.perf_counter() - t0) * 1e6 / max(1, len(leaves))
    # peak memory of one game played out
    tracemalloc.start()
    state = new_game(game, players, seed=seed, options=options)
    r = Rng(seed)
    while not state.is_over:
        seat = state.to_move[0]
        acts = state.legal_actions(seat)
        state.apply(acts[r.randbelow(len(acts))], seat)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    from dicetable.compiled import build_kind

    return {
        "game": game, "players": players, "games": games, "build": build_kind(),
        "games_per_s": games / elapsed, "steps_per_s": steps / elapsed,
        "steps_per_game": steps / games, "legal_actions_us": legal_us,
        "apply_us": apply_us, "clone_us": clone_us, "mcts_iterations_per_s": mcts_its,
        "playout_apply_us": playout_apply_us, "playout_quiet_us": playout_quiet_us,
        "quiet_speedup": playout_apply_us / playout_quiet_us,
        "hard_ms_per_decision": hard_ms,
        "hard_iterations_per_decision": hard_iterations / max(1, len(probes)),
        "leaf_value_us": leaf_us, "leaf_value": evaluator.kind if evaluator.model is not None else "hand",
        "peak_kib_one_game": peak / 1024,
        "samples": len(samples),
    }


def bench_isolated(jobs: list[tuple[str, int, int, int]], build: str | None = None) -> list[dict]:
    """Run :func:`bench_game` for each ``(game, players, games, seed)``, one at a time, each in a
    fresh process; ``build="pure"`` runs them on the pure Python sources even in a compiled
    install, ``"compiled"`` on what is installed (None: as this process was started).

    A process that has already played other games holds their module caches
    and tables (Kingdom of Dice measured after the other four ran about a
    third slower than alone); a fresh process per game measures each game as
    a simulation worker would run it. Still one measurement at a time, never
    in parallel.
    """
    return [in_fresh_process(build, bench_game, *job) for job in jobs]


def in_fresh_process(build: str | None, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in a fresh (spawned) process running ``build``: ``"pure"`` (the ``.py``
    sources even in a compiled install), ``"compiled"`` (what is installed) or None (as this
    process was started); returns its result. ``fn`` must be importable by name."""
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    from dicetable.compiled import PURE_ENV

    before = os.environ.get(PURE_ENV)
    try:
        if build == "pure":
            os.environ[PURE_ENV] = "pure"  # a spawned process starts with this environment
        elif build == "compiled":
            os.environ.pop(PURE_ENV, None)
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
            return pool.submit(fn, *args).result()
    finally:
        if before is None:
            os.environ.pop(PURE_ENV, None)
        else:
            os.environ[PURE_ENV] = before


#: The figures compared between the builds: (key, True when higher is faster).
COMPARED = (("steps_per_s", True), ("games_per_s", True), ("clone_us", False), ("mcts_iterations_per_s", True))


def machine_load() -> dict[str, Any]:
    """``{"cores": usable cores, "load": 1-minute load average}`` now (``load`` None where the
    system has no load average). ``bench`` prints it: figures taken while other work holds the
    cores are not comparable with a quiet machine's."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        load: float | None = round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        load = None
    return {"cores": cores, "load": load}


def load_warning(*readings: dict[str, Any]) -> str | None:
    """A one-line warning when any of the :func:`machine_load` ``readings`` has a load average above
    its core count (other work then competes for the CPU), else None."""
    high = [r for r in readings if r["load"] is not None and r["load"] > r["cores"]]
    if not high:
        return None
    worst = max(r["load"] for r in high)
    return (f"the load average ({worst:.2f}) was above the {high[0]['cores']} cores: other work competed for "
            "the CPU, so these figures are not comparable with a quiet machine's (run again when it is idle)")


def bench_builds(jobs: list[tuple[str, int, int, int]]) -> tuple[list[dict], list[dict]]:
    """Both builds side by side in one run: ``(rows, ratios)``.

    ``rows`` holds, per job, the compiled build's :func:`bench_game` row then
    the pure build's (each in a fresh process, one at a time; only the pure
    one when no compiled build is installed); each row says its ``build``.
    ``ratios`` holds per game how many times faster the compiled build is on
    each figure of :data:`COMPARED` (``[]`` without a compiled build).
    """
    from dicetable.compiled import compiled_available

    if not compiled_available():
        return bench_isolated(jobs, "pure"), []
    rows: list[dict] = []
    ratios: list[dict] = []
    for job in jobs:
        fast = bench_isolated([job], "compiled")[0]
        slow = bench_isolated([job], "pure")[0]
        rows += [fast, slow]
        ratio: dict = {"game": fast["game"], "players": fast["players"]}
        for key, higher in COMPARED:
            ratio[key] = fast[key] / slow[key] if higher else slow[key] / fast[key]
        ratios.append(ratio)
    return rows, ratios

