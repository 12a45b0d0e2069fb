"""One ladder row's hard-against-greedy games only, with search settings replaced: a pilot.

    .venv/bin/python benchmarks/hard_row.py GAME PLAYERS GAMES SEED [SETTING=VALUE ...]

e.g. ``benchmarks/hard_row.py biblios-dice 4 40 11 prior_weight=0.3 opponent_prior=None``.
Plays the games of ``dicetable ladder --game GAME --players PLAYERS --games GAMES --seed SEED``
(the same seeds, seat rotation and bot seeds) but only the ``hard`` row, ``hard`` having the
game's settings for that player count (:func:`dicetable.bots.mcts.level_params`) with the
given settings replaced (values are Python literals). Prints one JSON line: hard's win share
with its 95% Wilson interval, the CPU seconds (``time.process_time``) of hard's ``choose``
calls per game, and the wall time per searched decision (mean, 95th percentile); a line per
game on stderr. Solo (PLAYERS 1) it also prints hard's mean final score with its 95% interval
(Student's t, as the ladder's solo rows: ``dicetable.simulate.mean_interval``) and greedy's on the same seeds.
"""

from __future__ import annotations

import ast
import json
import statistics
import sys
import time
from dataclasses import replace

from dicetable.bots import make_bot
from dicetable.ladder import percentile
from dicetable.bots.mcts import MCTSBot, level_params
from dicetable.engine import new_game
from dicetable.simulate import make_jobs, mean_interval, run_game, wilson


def main(argv: list[str]) -> None:
    game, players, games, seed = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    overrides = {}
    for item in argv[4:]:
        key, _, value = item.partition("=")
        overrides[key] = ast.literal_eval(value)
    params = level_params(game, "hard", players, **overrides)
    jobs = make_jobs(game, players, ["hard"] + ["greedy"] * (players - 1), games, seed)
    wins, cpu, decisions, scores, turns = 0.0, 0.0, [], [], 0
    for job in jobs:
        state = new_game(job.game, job.players, seed=job.seed, options=job.options)
        bots = [MCTSBot(params, seed=job.seed * 31 + s, name="hard") if name == "hard"
                else make_bot(name, seed=job.seed * 31 + s) for s, name in enumerate(job.seats)]
        while not state.is_over:
            seat = state.to_move[0]
            bot = bots[seat]
            c0 = time.process_time()
            action = bot.choose(state, seat)
            if isinstance(bot, MCTSBot):
                cpu += time.process_time() - c0
                if bot.last is not None and bot.last.how != "only":
                    decisions.append(bot.last.ms)
            state.apply(action, seat)
            if isinstance(bot, MCTSBot) and bot.last is not None and bot.last.new_turn:
                turns += 1
        hard = job.seats.index("hard")
        scores.append(state.scores[hard])
        if hard in state.winners:
            wins += 1 / len(state.winners)
        print(job.index, "win" if hard in state.winners else "-", state.scores[hard], file=sys.stderr, flush=True)
    lo, hi = wilson(wins, games)
    print(json.dumps({"game": game, "players": players, "games": games, "seed": seed, "overrides": overrides,
                      "win_rate": wins / games, "ci": [round(lo, 3), round(hi, 3)],
                      "hard_cpu_s_per_game": round(cpu / games, 2),
                      "decision_mean_ms": round(sum(decisions) / max(1, len(decisions)), 1),
                      "decision_p95_ms": round(percentile(decisions, 95), 1),
                      "turn_mean_cpu_ms": round(cpu * 1000 / max(1, turns), 1)} | (_solo(jobs, scores) if players == 1 else {})))


def _mean_ci(values: list) -> tuple[float, list | None]:
    """Mean and its 95% interval (Student's t: :func:`dicetable.simulate.mean_interval`; None for one value)."""
    mean = statistics.fmean(values)
    ci = mean_interval(mean, statistics.stdev(values) if len(values) > 1 else 0.0, len(values))
    return round(mean, 2), None if ci is None else [round(ci[0], 2), round(ci[1], 2)]


def _solo(jobs: list, scores: list) -> dict:
    """Solo: hard's mean score with its interval, and greedy's on the same game seeds (the
    ladder's greedy row: :func:`dicetable.simulate.run_game` with a greedy seat)."""
    greedy = [run_game(replace(job, seats=("greedy",)))["scores"][0] for job in jobs]
    hard_mean, hard_ci = _mean_ci(scores)
    greedy_mean, greedy_ci = _mean_ci(greedy)
    return {"mean_score": hard_mean, "score_ci": hard_ci, "greedy_mean": greedy_mean, "greedy_ci": greedy_ci}


if __name__ == "__main__":
    main(sys.argv[1:])
