"""The bots' published ratings: rated games between bot levels, rated with openskill's Plackett-Luce.

    .venv/bin/python benchmarks/bot_ratings.py                      # 40 games per game, writes the data file
    .venv/bin/python benchmarks/bot_ratings.py --games 4 --no-write # a smoke run

For every game (``--game`` to pick), ``--games`` games are played by the ladder's machinery
(``dicetable.ladder.run_jobs``: in this process with ``--workers 1``, else a process
pool). Game ``i`` has seed ``seed * 1_000_003 + i``, 2 to 4 players (within the game's range)
and that many different levels drawn from ``--levels``, both drawn from a generator seeded
with the game's seed, so every level meets every other at every seat. The places come from
the rulebook (``dicetable.engine.places``). Each level is one openskill player: starting at
the model's default (mu 25, sigma 25/3), it is updated after each game in index order, exactly
as a player's rating is at a rated table (every seat a one-player team, places as ranks). The
final mu and sigma of each level are written to ``src/dicetable/server/data/bot_ratings.json``
(with a ``source`` saying how they were measured; the server checks the file on load) and each
game's record to ``benchmarks/results/bot-ratings.jsonl``.

Levels left out (``expert``, up to 20 s a turn) get no published rating: a rated table
counts such a bot at the model's default rating (docs/ratings.md).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from dicetable.bots import make_bot, play_out
from dicetable.ladder import run_jobs
from dicetable.engine import list_games, new_game, places
from dicetable.server.bots import LEVELS
from dicetable.server.ratings import BOT_RATINGS_FILE, MODEL, check_bot_ratings, display
from dicetable.simulate import Job

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "dicetable" / "server" / "data" / BOT_RATINGS_FILE
RECORDS = ROOT / "benchmarks" / "results" / "bot-ratings.jsonl"
DEFAULT_LEVELS = ("random", "greedy", "easy", "medium", "hard")
DOC = ROOT / "docs" / "ratings.md"
BEGIN, END = "<!-- bot-ratings:begin -->", "<!-- bot-ratings:end -->"


def lineup(game: str, index: int, seed: int, levels: list[str]) -> Job:
    """Game ``index`` of ``game``: its seed, player count and distinct levels (seeded draws)."""
    spec = next(g for g in list_games() if g.id == game)
    game_seed = seed * 1_000_003 + index
    rng = random.Random(game_seed)
    players = rng.randint(max(2, spec.min_players), min(4, spec.max_players, len(levels)))
    return Job(game, players, index, game_seed, tuple(rng.sample(levels, players)), {})


def play_placed(job: Job) -> dict:
    """Play ``job`` with its bots to the end; its record with each seat's place (the rulebook's)."""
    t0 = time.perf_counter()
    state = new_game(job.game, job.players, seed=job.seed, options=job.options)
    play_out(state, [make_bot(name, seed=job.seed * 31 + s) for s, name in enumerate(job.seats)])
    return {"game": job.game, "index": job.index, "seed": job.seed, "bots": list(job.seats),
            "scores": list(state.scores), "places": list(places(state)),
            "seconds": round(time.perf_counter() - t0, 3)}


def rate(records: list[dict], levels: list[str]) -> dict[str, dict]:
    """Each level's rating after ``records`` (one game's), updated in index order: ``{level: {mu, sigma, games}}``."""
    current = {lv: MODEL.rating() for lv in levels}
    games = {lv: 0 for lv in levels}
    for rec in sorted(records, key=lambda r: r["index"]):
        teams = [[current[b]] for b in rec["bots"]]
        for bot, team in zip(rec["bots"], MODEL.rate(teams, ranks=rec["places"])):
            current[bot] = team[0]
            games[bot] += 1
    return {lv: {"mu": round(current[lv].mu, 4), "sigma": round(current[lv].sigma, 4), "games": games[lv]}
            for lv in levels if games[lv]}


def doc_table(data: dict) -> str:
    """The data file's figures as the Markdown table of docs/ratings.md (levels by mu, per game)."""
    lines = [f"Measured: {data['source']}.", "",
             "| game | level | mu | sigma | displayed rating | games |", "|---|---|---|---|---|---|"]
    for game, per_level in sorted(data["ratings"].items()):
        for level, r in sorted(per_level.items(), key=lambda kv: -kv[1]["mu"]):
            lines.append(f"| {game} | {level} | {r['mu']:.2f} | {r['sigma']:.2f} | "
                         f"{display(r['mu'], r['sigma'])} | {r['games']} |")
    return "\n".join(lines)


def write_doc(data: dict) -> None:
    """Put :func:`doc_table` between docs/ratings.md's bot-ratings markers."""
    text = DOC.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(head + BEGIN + "\n" + doc_table(data) + "\n" + END + tail, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    """Parse the options, play, rate, print the table and write the data file."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per game (default 40)")
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--levels", default=",".join(DEFAULT_LEVELS), help="comma-separated bot levels")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--no-write", action="store_true", help="print only; write no file")
    ap.add_argument("--doc-only", action="store_true", help="only put the data file's figures in docs/ratings.md")
    args = ap.parse_args(argv)
    if args.doc_only:
        write_doc(json.loads(OUT.read_text(encoding="utf-8")))
        return
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown or len(levels) < 2:
        sys.exit(f"levels {unknown or levels} not usable: give two or more of {', '.join(LEVELS)}")
    games = args.game or [g.id for g in list_games()]
    jobs = [lineup(g, i, args.seed, levels) for g in games for i in range(args.games)]
    t0 = time.perf_counter()
    records = run_jobs(jobs, workers=args.workers, play=play_placed)
    seconds = time.perf_counter() - t0
    ratings = {g: rate([r for r in records if r["game"] == g], levels) for g in games}
    for g in games:
        print(g)
        for lv, r in sorted(ratings[g].items(), key=lambda kv: -kv[1]["mu"]):
            print(f"  {lv:8} mu {r['mu']:6.2f} sigma {r['sigma']:5.2f} shown {display(r['mu'], r['sigma']):5d}"
                  f"  ({r['games']} games)")
    print(f"{len(records)} games in {seconds:.0f} s")
    day = datetime.now(timezone.utc).date().isoformat()
    data = {"source": f"benchmarks/bot_ratings.py --games {args.games} --seed {args.seed} --levels {','.join(levels)}"
                      f" on {day}: {args.games} rated games per game between these bot levels (2-4 players, "
                      "distinct levels drawn per game), each level one openskill Plackett-Luce player updated "
                      "game by game from the default rating, places by the rulebook",
            "model": "PlackettLuce", "ratings": ratings}
    check_bot_ratings(data, [g.id for g in list_games()], LEVELS)
    if not args.no_write:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        RECORDS.parent.mkdir(parents=True, exist_ok=True)
        with RECORDS.open("w", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec) + "\n")
        write_doc(data)
        print(f"wrote {OUT.relative_to(ROOT)}, {RECORDS.relative_to(ROOT)} and {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
