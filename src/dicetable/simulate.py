"""Bot tournaments: many seeded games, seats rotated, results per bot.

``run_game`` plays one game and returns a JSON-able record; ``simulate``
runs many across processes; ``summarize`` turns records into a table of win
rates (shared wins split evenly) with 95% Wilson intervals and score means.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from dicetable.bots import make_bot, play_out
from dicetable.engine import GameConfigError, GameState, get_game, new_game, series_seed
from dicetable.extras import require


@dataclass(frozen=True)
class Job:
    """One game to play: its index, seed, and the bot name of each seat.

    ``clock``: the search bots keep their levels' wall-clock caps (True, the default) or play
    without them (False: every decision runs its iteration budget, so the seed alone decides
    the game; see :func:`dicetable.bots.make_bot`).
    """

    game: str
    players: int
    index: int
    seed: int
    seats: tuple
    options: dict
    clock: bool = True


def seat_rotation(bot_names: list[str], players: int, index: int) -> tuple:
    """Bots per seat for game ``index``: the line-up rotated by ``index`` seats."""
    return tuple(bot_names[(s + index) % players] for s in range(players))


def make_jobs(game: str, players: int, bot_names: list[str], games: int, seed: int,
              options: dict | None = None, clock: bool = True) -> list[Job]:
    """The seeded, seat-rotated jobs of a tournament; GameConfigError on a bad line-up.

    ``clock=False``: every job's search bots play without their wall-clock caps (:class:`Job`).
    """
    if len(bot_names) != players:
        raise GameConfigError(f"give one bot per seat: {players} seats, {len(bot_names)} bots")
    for name in set(bot_names):
        make_bot(name)
    game = new_game(game, players, seed=seed, options=options).game_id  # checks all; the canonical id
    return [Job(game, players, i, series_seed(seed, i), seat_rotation(bot_names, players, i),
                dict(options or {}), clock) for i in range(games)]


def balance_facts(state: GameState) -> dict[str, Any]:
    """The finished game's balance facts, from its spectator observation (``GameSpec.balance_facts``).

    ``{}`` for a game that declares none. Raises ValueError if a seat fact
    is not a list with one entry per seat.
    """
    spec = get_game(state.game_id)
    if spec.balance_facts is None:
        return {}
    facts = dict(spec.balance_facts(state.observation(None)))
    for name, value in facts.items():
        if isinstance(value, list) and len(value) != state.players:
            raise ValueError(f"{spec.id} balance fact {name!r} has {len(value)} entries for "
                             f"{state.players} seats")
    return facts


def run_game(job: Job) -> dict:
    """Play one job to the end and return its record (JSON-able).

    Keys: game, index, seed, players, options (as given), bots (per seat),
    scores, winners (seats), steps (actions applied), seconds, facts
    (:func:`balance_facts`: per-seat lists and table values), and clock (``job.clock``: false
    when the search bots played without their wall-clock caps; records written before
    2026-12-07 have no such key and were all played with the caps).
    """
    t0 = time.perf_counter()
    state = new_game(job.game, job.players, seed=job.seed, options=job.options)
    bots = [make_bot(name, seed=job.seed * 31 + s, clock=job.clock) for s, name in enumerate(job.seats)]
    steps = play_out(state, bots)
    return {
        "game": job.game, "index": job.index, "seed": job.seed, "players": job.players,
        "options": job.options, "bots": list(job.seats), "scores": list(state.scores),
        "winners": list(state.winners), "steps": steps,
        "seconds": round(time.perf_counter() - t0, 4), "facts": balance_facts(state),
        "clock": job.clock,
    }


def simulate(jobs: list[Job], workers: int | None = None,
             on_result: Callable[[dict], None] | None = None,
             play: Callable[[Job], dict] | None = None) -> list[dict]:
    """Run ``jobs`` on ``workers`` processes (1: in this process); results in job order.

    ``play`` plays one job (default :func:`run_game`; the ladder passes its timed play); it
    must be a module-level function so a process pool can send it.
    """
    workers = workers or os.cpu_count() or 1
    play = play or run_game
    results: list[dict] = []
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            rec = play(job)
            results.append(rec)
            if on_result:
                on_result(rec)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play, job) for job in jobs]
            for fut in as_completed(futures):
                rec = fut.result()
                results.append(rec)
                if on_result:
                    on_result(rec)
    results.sort(key=lambda r: r["index"])
    return results


def ray_module() -> Any:
    """The ``ray`` module; :class:`~dicetable.extras.MissingExtra` naming the ``ray`` extra when it is
    not installed (the commands ask before their progress bar shows, so the error comes out alone)."""
    return require("ray", "ray", "the ray backend (--backend ray)")


def simulate_ray(jobs: Sequence[Job], on_result: Callable[[dict], None] | None = None,
                 address: str | None = None, play: Callable[[Job], dict] | None = None) -> list[dict]:
    """Run ``jobs`` as Ray tasks (one per game, played by ``play``, default :func:`run_game`);
    results in job order.

    ``address`` joins a running cluster ("auto", "ray://host:10001"); None
    starts or joins a local instance. Raises :class:`~dicetable.extras.MissingExtra` when Ray
    is not installed (``pip install 'dicetable[ray]'``).
    """
    ray = ray_module()
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    try:
        task = ray.remote(play or run_game)
        pending = [task.remote(job) for job in jobs]
        results = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            rec = ray.get(done[0])
            results.append(rec)
            if on_result:
                on_result(rec)
    finally:
        if started:
            ray.shutdown()
    results.sort(key=lambda r: r["index"])
    return results


#: Student's t distribution's two-sided 95% quantiles (its 0.975 quantile) for 1..30 degrees of freedom,
#: from the NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.2 ("Critical values of the
#: Student's t distribution", column 0.975); beyond 30 the normal 1.96 is used.
T95: tuple[float, ...] = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                          2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                          2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` (1 or more) degrees of freedom:
    :data:`T95` up to 30, 1.96 beyond. ValueError for ``df`` below 1."""
    if df < 1:
        raise ValueError(f"Student's t needs 1 or more degrees of freedom, got {df}")
    return T95[df - 1] if df <= len(T95) else 1.96


def mean_interval(mean: float, sd: float, n: int) -> tuple[float, float] | None:
    """The 95% interval of a mean of ``n`` values with sample standard deviation ``sd``:
    ``mean +- t95(n - 1) * sd / sqrt(n)`` (Student's t, so 2-30 values get the wider interval they
    need); None for fewer than 2 values (one value says nothing of its spread). The ladder, the
    tournaments and the benchmarks' score intervals all use this."""
    if n < 2:
        return None
    half = t95(n - 1) * sd / math.sqrt(n)
    return (mean - half, mean + half)


def interval_text(ci: tuple[float, float] | None, digits: int = 1) -> str:
    """An interval as the tables print it, ``lo-hi`` with ``digits`` decimals, or ``-`` for none."""
    return "-" if ci is None else f"{ci[0]:.{digits}f}-{ci[1]:.{digits}f}"


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``successes / n`` (``(0, 1)`` if n = 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(results: Iterable[dict]) -> list[dict]:
    """Per bot name: seats played, wins (a shared win counts 1/k), win rate with CI, score mean/sd."""
    table: dict[str, dict] = {}
    for rec in results:
        winners = rec["winners"]
        for seat, name in enumerate(rec["bots"]):
            row = table.setdefault(name, {"bot": name, "seats": 0, "wins": 0.0, "scores": []})
            row["seats"] += 1
            if seat in winners:
                row["wins"] += 1.0 / len(winners)
            row["scores"].append(rec["scores"][seat])
    out = []
    for name, row in sorted(table.items()):
        n = row["seats"]
        scores = row["scores"]
        mean = sum(scores) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1)) if n > 1 else 0.0
        lo, hi = wilson(row["wins"], n)
        out.append({"bot": name, "seats": n, "wins": row["wins"], "win_rate": row["wins"] / n,
                    "win_ci": (lo, hi), "mean_score": mean, "sd_score": sd})
    return out
