"""Strength ladder: seeded, seat-rotated tournaments for every game, written to docs/bots.md.

    .venv/bin/python benchmarks/ladder.py --games 100 --mcts-games 40 [--only GAME] [--workers 2] [--missing]
    .venv/bin/python benchmarks/ladder.py --challenger hard --no-baseline --players 2 --only GAME

For each game and player count (2 and 4; solo for games with a solo mode)
it runs ``greedy`` against ``random`` and ``mcts`` against ``greedy``
(in 4-player games one challenger against three of the weaker bot) and
records win rates with 95% Wilson intervals. Solo games report the mean
score of each bot alone. Results go to ``benchmarks/ladder.jsonl`` (one line
per configuration) and the table in docs/bots.md is rebuilt from that file.
``--missing`` runs only the configurations the file does not hold yet. The
file is re-read before each write, so runs for different games may go side by
side.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import dicetable
from dicetable.simulate import make_jobs, simulate, summarize

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "ladder.jsonl"
DOC = ROOT / "docs" / "bots.md"
BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"


def run_config(game: str, lineup: list[str], games: int, seed: int, workers: int) -> dict:
    t0 = time.time()
    results = simulate(make_jobs(game, len(lineup), lineup, games, seed), workers=workers)
    rows = {r["bot"]: r for r in summarize(results)}
    return {"game": game, "players": len(lineup), "lineup": lineup, "games": games, "seed": seed,
            "seconds": round(time.time() - t0, 1), "bots": rows}


def configs(spec, games: int, mcts_games: int, challenger: str = "mcts", baseline: bool = True,
            counts: tuple = (1, 2, 4)):
    """``(lineup, games)`` of each configuration; ``challenger`` is the search bot's level name."""
    if spec.min_players == 1 and 1 in counts:
        for bot in (("random", "greedy") if baseline else ()) + (challenger,):
            yield [bot], (mcts_games if bot == challenger else games)
    for players in (2, 4):
        if spec.min_players <= players <= spec.max_players and players in counts:
            if baseline:
                yield ["greedy"] + ["random"] * (players - 1), games
            yield [challenger] + ["greedy"] * (players - 1), mcts_games


def fmt_ci(row: dict) -> str:
    lo, hi = row["win_ci"]
    return f"{row['win_rate']:.0%} ({lo:.0%}-{hi:.0%})"


def table(records: list[dict]) -> str:
    lines = ["| game | players | challenger vs field | games | challenger win rate (95% CI) | fair share | mean score: challenger / field |",
             "|---|---|---|---|---|---|---|"]
    solo = ["", "| game (solo) | bot | games | mean score | sd | 95% CI of the mean |", "|---|---|---|---|---|---|"]
    for rec in records:
        lineup = rec["lineup"]
        if rec["players"] == 1:
            row = rec["bots"][lineup[0]]
            half = 1.96 * row["sd_score"] / math.sqrt(row["seats"])
            solo.append(f"| {rec['game']} | {lineup[0]} | {rec['games']} | {row['mean_score']:.1f} | "
                        f"{row['sd_score']:.1f} | {row['mean_score'] - half:.1f}-{row['mean_score'] + half:.1f} |")
            continue
        challenger, field = lineup[0], lineup[1]
        c, f = rec["bots"][challenger], rec["bots"][field]
        lines.append(f"| {rec['game']} | {rec['players']} | {challenger} vs {rec['players'] - 1}x {field} | "
                     f"{rec['games']} | {fmt_ci(c)} | {1 / rec['players']:.0%} | "
                     f"{c['mean_score']:.1f} / {f['mean_score']:.1f} |")
    return "\n".join(lines + solo) + "\n"


def load() -> list[dict]:
    if not RESULTS.exists():
        return []
    return [json.loads(line) for line in RESULTS.read_text().splitlines() if line.strip()]


def write_doc(records: list[dict]) -> None:
    text = DOC.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    DOC.write_text(head + BEGIN + "\n" + table(records) + END + tail)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--mcts-games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", action="append", help="game id (repeatable)")
    parser.add_argument("--skip-mcts", action="store_true")
    parser.add_argument("--missing", action="store_true", help="skip configurations already recorded")
    parser.add_argument("--challenger", default="mcts", help="search bot against greedy: mcts (medium), easy or hard")
    parser.add_argument("--no-baseline", action="store_true", help="skip greedy vs random and solo random/greedy")
    parser.add_argument("--players", type=int, action="append", help="player count (1, 2 or 4; repeatable)")
    args = parser.parse_args()
    done = {(r["game"], tuple(r["lineup"])) for r in load()}
    for spec in dicetable.list_games():
        if args.only and spec.id not in args.only:
            continue
        for lineup, n in configs(spec, args.games, args.mcts_games, args.challenger, not args.no_baseline,
                                 tuple(args.players or (1, 2, 4))):
            if args.skip_mcts and args.challenger in lineup:
                continue
            if args.missing and (spec.id, tuple(lineup)) in done:
                continue
            rec = run_config(spec.id, lineup, n, args.seed, args.workers)
            records = [r for r in load() if not (r["game"] == rec["game"] and r["lineup"] == rec["lineup"])]
            records.append(rec)
            records.sort(key=lambda r: (r["game"], r["players"], r["lineup"]))
            RESULTS.write_text("".join(json.dumps(r) + "\n" for r in records))
            write_doc(records)
            print(json.dumps({k: rec[k] for k in ("game", "lineup", "games", "seconds")}), flush=True)


if __name__ == "__main__":
    main()
