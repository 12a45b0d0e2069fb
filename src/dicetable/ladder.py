"""The strength ladder (``dicetable ladder``): every match-up docs/bots.md reports, in one go.

Rows, for every registered game:

* at 2 and 4 players (where the game allows them): ``hard`` against ``greedy`` and
  ``medium`` against ``easy``, one challenger against ``players - 1`` copies of the field;
  the challenger's win rate (a shared win counts 1/k) with its 95% Wilson interval, against
  the fair share ``1 / players``;
* solo (where the game has a solo mode): ``hard`` and ``greedy`` alone, the mean final score
  with its 95% interval (mean +- t sd / sqrt(n), Student's t at n-1 degrees of freedom:
  :func:`dicetable.simulate.mean_interval`; none for one game).

Every row plays ``games`` seeded games, or ``games_at[players]`` for a player count given
there (an interval narrows only with the square root of the games; docs/bots.md says why the
full ladder plays more solo and 4-player games). Game ``i`` of a row has seed
``series_seed(seed, i)`` (``seed * 1_000_003 + i``, modulo 2**64) and the line-up rotated by
``i`` seats, so each seat is played equally. The games are spread over processes (``workers``)
or Ray tasks. The search bots' wall time is recorded per decision and per turn (a seat's
consecutive decisions): the table reports hard's mean and 95th percentile.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from dicetable.bots import make_bot
from dicetable.bots.mcts import MCTSBot
from dicetable.engine import GameConfigError, list_games, new_game
from dicetable.simulate import Job, interval_text, make_jobs, mean_interval, simulate, simulate_ray, summarize

BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"


@dataclass(frozen=True)
class Row:
    """One ladder row: a game, a player count and a line-up (challenger first)."""

    game: str
    players: int
    lineup: tuple

    @property
    def challenger(self) -> str:
        """The bot the row measures (the first of the line-up)."""
        return self.lineup[0]


def ladder_rows(games: list[str] | None = None, counts: tuple = (1, 2, 4)) -> list[Row]:
    """The rows of the ladder for ``games`` (None: every registered game) and player ``counts``.

    GameConfigError naming the known games when one is unknown.
    """
    specs = list_games()
    known = {s.id for s in specs}
    for g in games or ():
        if g not in known:
            raise GameConfigError(f"unknown game {g!r}; known games: {', '.join(sorted(known))}")
    rows = []
    for spec in specs:
        if games and spec.id not in games:
            continue
        if spec.min_players == 1 and 1 in counts:
            rows += [Row(spec.id, 1, ("hard",)), Row(spec.id, 1, ("greedy",))]
        for players in (2, 4):
            if spec.min_players <= players <= spec.max_players and players in counts:
                rows.append(Row(spec.id, players, ("hard",) + ("greedy",) * (players - 1)))
                rows.append(Row(spec.id, players, ("medium",) + ("easy",) * (players - 1)))
    return rows


def play_timed(job: Job) -> dict:
    """Play one job; its record (as :func:`dicetable.simulate.run_game`) plus search timings.

    ``timing`` maps each search bot name to ``{"decision_ms": [...], "turn_ms": [...]}``:
    the wall time of every decision that searched or followed a plan, and of every turn. The bots
    are built with ``job.clock`` (the ladder's own jobs keep the caps: it measures their time).
    """
    t0 = time.perf_counter()
    state = new_game(job.game, job.players, seed=job.seed, options=job.options)
    bots = [make_bot(name, seed=job.seed * 31 + s, clock=job.clock) for s, name in enumerate(job.seats)]
    timing: dict[str, dict] = {}
    open_turn: dict[int, float] = {}
    steps = 0
    while not state.is_over:
        seat = state.to_move[0]
        bot = bots[seat]
        action = bot.choose(state, seat)
        if isinstance(bot, MCTSBot) and bot.last is not None:
            rec = timing.setdefault(bot.name, {"decision_ms": [], "turn_ms": []})
            choice = bot.last
            if choice.new_turn and seat in open_turn:
                rec["turn_ms"].append(round(open_turn.pop(seat), 2))
            open_turn[seat] = choice.turn_ms
            if choice.how != "only":
                rec["decision_ms"].append(round(choice.ms, 2))
        state.apply(action, seat)
        steps += 1
    for seat, ms in open_turn.items():
        timing[bots[seat].name]["turn_ms"].append(round(ms, 2))
    return {"game": job.game, "index": job.index, "seed": job.seed, "players": job.players,
            "bots": list(job.seats), "scores": list(state.scores), "winners": list(state.winners),
            "steps": steps, "seconds": round(time.perf_counter() - t0, 3), "timing": timing}


def run_jobs(jobs: Sequence[Job], workers: int = 1, ray_address: str | None = None,
             use_ray: bool = False, on_result: Callable[[dict], None] | None = None,
             play: Callable[[Job], dict] = play_timed) -> list[dict]:
    """Play ``jobs`` with ``play`` in this process (``workers`` 1), a process pool, or as Ray tasks."""
    if use_ray:
        return simulate_ray(jobs, on_result, ray_address, play=play)
    return simulate(list(jobs), workers, on_result, play=play)


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values`` by linear interpolation (0.0 when empty)."""
    if not values:
        return 0.0
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summarize_row(row: Row, records: list[dict], seed: int, seconds: float) -> dict:
    """One row's result: per-bot summary (win rate with Wilson interval, mean score with its
    95% interval) and the challenger's time per decision and per turn (mean, 95th percentile)."""
    bots = {r["bot"]: r for r in summarize(records)}
    for r in bots.values():
        r["score_ci"] = mean_interval(r["mean_score"], r["sd_score"], r["seats"])
    decisions = [ms for rec in records for ms in rec["timing"].get(row.challenger, {}).get("decision_ms", [])]
    turns = [ms for rec in records for ms in rec["timing"].get(row.challenger, {}).get("turn_ms", [])]
    time_row = {"decision_mean_ms": sum(decisions) / len(decisions) if decisions else 0.0,
                "decision_p95_ms": percentile(decisions, 95), "decision_max_ms": max(decisions, default=0.0),
                "turn_mean_ms": sum(turns) / len(turns) if turns else 0.0,
                "turn_p95_ms": percentile(turns, 95), "turn_max_ms": max(turns, default=0.0),
                "decisions": len(decisions), "turns": len(turns)}
    return {"game": row.game, "players": row.players, "lineup": list(row.lineup), "games": len(records),
            "seed": seed, "seconds": round(seconds, 1), "bots": bots, "time": time_row}


def run_ladder(rows: list[Row], games: int, seed: int = 2026, workers: int = 1, use_ray: bool = False,
               ray_address: str | None = None, on_row: Callable[[dict], None] | None = None,
               on_game: Callable[[dict], None] | None = None, games_at: dict[int, int] | None = None) -> list[dict]:
    """Play every row (``games`` games each, ``games_at[players]`` for the player counts it
    names; all rows' games in one pool); return the row results. GameConfigError for fewer
    than 1 game a row."""
    games_at = games_at or {}
    if games < 1 or any(n < 1 for n in games_at.values()):
        raise GameConfigError(f"the ladder needs at least 1 game per row, got {games} (by players: {games_at})")
    count = [games_at.get(row.players, games) for row in rows]
    jobs = [_tagged(job, r) for r, row in enumerate(rows)
            for job in make_jobs(row.game, row.players, list(row.lineup), count[r], seed)]
    by_row: dict[int, list] = {r: [] for r in range(len(rows))}
    started = {r: time.perf_counter() for r in range(len(rows))}
    out: dict[int, dict] = {}

    def done(rec: dict) -> None:
        r = rec.pop("_row")
        by_row[r].append(rec)
        if on_game:
            on_game(rec)
        if len(by_row[r]) == count[r]:
            out[r] = summarize_row(rows[r], sorted(by_row[r], key=lambda x: x["index"]), seed,
                                   time.perf_counter() - started[r])
            if on_row:
                on_row(out[r])

    run_jobs(jobs, workers, ray_address, use_ray, done, play=_play_tagged)
    return [out[r] for r in range(len(rows))]


@dataclass(frozen=True)
class _Tagged(Job):
    """A job that remembers its ladder row (so results from a pool find their row)."""

    row: int = 0


def _play_tagged(job: Job) -> dict:
    rec = play_timed(job)
    rec["_row"] = job.row if isinstance(job, _Tagged) else 0
    return rec


def _tagged(job: Job, row: int) -> _Tagged:
    return _Tagged(job.game, job.players, job.index, job.seed, job.seats, job.options, clock=job.clock, row=row)


def pct(x: float) -> str:
    """A proportion as a whole percentage."""
    return f"{x:.0%}"


def table(results: list[dict]) -> str:
    """The Markdown tables of docs/bots.md from row results (match-ups, solo, timings)."""
    head = ["| game | players | challenger vs field | games | challenger win rate (95% CI) | fair share | "
            "clearly ahead | mean score: challenger / field |", "|---|---|---|---|---|---|---|---|"]
    solo = ["", "| game (solo) | bot | games | mean score (95% CI) | sd |", "|---|---|---|---|---|"]
    times = ["", "| game | players | hard: decisions | mean ms / decision | p95 ms / decision | "
             "turns | mean ms / turn | p95 ms / turn |", "|---|---|---|---|---|---|---|---|"]
    for rec in results:
        lineup = rec["lineup"]
        ch = rec["bots"][lineup[0]]
        if rec["players"] == 1:
            solo.append(f"| {rec['game']} | {lineup[0]} | {rec['games']} | {ch['mean_score']:.1f} "
                        f"({interval_text(ch['score_ci'])}) | {ch['sd_score']:.1f} |")
        else:
            field = rec["bots"][lineup[1]]
            lo, hi = ch["win_ci"]
            fair = 1 / rec["players"]
            head.append(f"| {rec['game']} | {rec['players']} | {lineup[0]} vs {rec['players'] - 1}x {lineup[1]} | "
                        f"{rec['games']} | {pct(ch['win_rate'])} ({pct(lo)}-{pct(hi)}) | {pct(fair)} | "
                        f"{'yes' if lo > fair else 'no'} | {ch['mean_score']:.1f} / {field['mean_score']:.1f} |")
        if lineup[0] == "hard":
            t = rec["time"]
            times.append(f"| {rec['game']} | {rec['players']} | {t['decisions']} | {t['decision_mean_ms']:.0f} | "
                         f"{t['decision_p95_ms']:.0f} | {t['turns']} | {t['turn_mean_ms']:.0f} | {t['turn_p95_ms']:.0f} |")
    return "\n".join(head + solo + times) + "\n"


def write_doc(doc: Path, results: list[dict], note: str) -> None:
    """Replace the part of ``doc`` between the ladder markers with ``note`` and the tables."""
    text = doc.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise GameConfigError(f"{doc} has no {BEGIN} ... {END} markers to put the ladder between")
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    doc.write_text(head + BEGIN + "\n" + note + "\n\n" + table(results) + END + tail, encoding="utf-8")


def write_jsonl(path: Path, results: list[dict]) -> None:
    """One JSON line per row result."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in results), encoding="utf-8")


def append_jsonl(path: Path, result: dict) -> None:
    """Add one row result as a JSON line now (a long ladder keeps the rows it finished if stopped)."""
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(result) + "\n")


def default_workers() -> int:
    """Processes to use by default: one per core."""
    return os.cpu_count() or 1
