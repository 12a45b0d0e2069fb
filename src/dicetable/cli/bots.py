"""``dicetable train-eval`` and ``dicetable ladder``: the bots' learned values and strength ladder.

Registered on the ``dicetable`` app by importing this module (cli/main.py does); the work is
done by :mod:`dicetable.bots.train` and :mod:`dicetable.ladder`.
"""

from __future__ import annotations

import json
import shlex
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from dicetable.cli.app import app, console, fail, guarded
from dicetable.engine import DicetableError, get_game


@app.command("train-eval")
@guarded
def train_eval(
    game: str = typer.Argument(..., help="game id"),
    players: int = typer.Option(2, "--players", "-p", help="player count the value is for (1: solo)"),
    games_n: int = typer.Option(400, "--games", "-n", help="self-play games (at least 5; 20% are held out)"),
    seed: int = typer.Option(1, "--seed", help="seed of the self-play games"),
    epsilon: float = typer.Option(0.1, "--epsilon", help="share of random moves in self-play (0-1)"),
    l2: Optional[float] = typer.Option(None, "--l2", help="L2 regularisation of the fit (> 0; default: chosen on held-back games)"),
    out: Optional[Path] = typer.Option(None, "--out", "-o",
                                       help="file to write (default: the game's data/value_<players>p.json)"),
    only_if_better: bool = typer.Option(False, "--only-if-better",
                                        help="write only when the held-out fit beats the hand-written evaluate"),
) -> None:
    """Fit a learned position value from greedy self-play and write it with its provenance.

    Search (the easy..expert bots) uses it at its leaves when it is the game's shipped file.
    Needs numpy (the rl extra).
    """
    from dicetable.bots.train import check_train, train, write_model

    check_train(games_n)  # before the progress bar: an error comes out alone, with no bar or blank line before it
    spec = get_game(game)
    game = spec.id  # the canonical id, shown and written (kingdom_of_dice was taken for kingdom-of-dice)
    if not spec.min_players <= players <= spec.max_players:
        fail(f"{spec.name} is for {spec.min_players}-{spec.max_players} players, not {players}")
    if not 0.0 <= epsilon <= 1.0:
        fail(f"--epsilon is a share of random moves from 0 to 1, got {epsilon}")
    if l2 is not None and l2 <= 0:
        fail(f"--l2 must be above 0, got {l2}")
    if out is not None and out.is_dir():
        fail(f"--out {out} is a folder; give a file name such as {out / 'value.json'}")
    if out is not None:
        _check_writable("--out", out)  # before the self-play: a bad path fails at once, not after minutes
    command = "dicetable train-eval " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if len(sys.argv) > 2 else \
        f"dicetable train-eval {game} --players {players} --games {games_n} --seed {seed}"
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True) as progress:
        task = progress.add_task(f"self-play {game} {players}p", total=games_n)
        model, report = train(game, players, games_n, seed, command, epsilon, l2,
                              on_game=lambda g: progress.advance(task))
    console.print(f"{escape(game)} at {players} player(s): {report['rows']} rows from {games_n} games "
                  f"({report['seconds']} s)")
    if players == 1:
        console.print(f"  held out: learned mean absolute error {report['learned_mae']:.2f} points; "
                      f"correlation with the final score: learned {report['learned_corr']}, "
                      f"hand-written {report['hand_corr']}")
        better = (report["learned_corr"] or 0) > (report["hand_corr"] or 0)
    else:
        console.print(f"  held out log loss: learned {report['learned_log_loss']:.4f}, hand-written "
                      f"{report['hand_log_loss']:.4f}; picks the winner: learned "
                      f"{report['learned_picks_winner']:.1%}, hand-written {report['hand_picks_winner']:.1%}")
        better = report["learned_log_loss"] < report["hand_log_loss"]
    if only_if_better and not better:
        console.print("  not written: the hand-written evaluate fits the held-out games better")
        return
    try:
        path = write_model(model, out)
    except OSError as exc:
        fail(f"cannot write {out or 'the value file'}: {exc.strerror or exc}")
    console.print(f"  written to {escape(str(path))}")


def _check_writable(flag: str, path: Path) -> None:
    """Fail with a sentence unless a file can be created in ``path``'s folder (made when missing)."""
    for folder in (path.parent, *path.parent.parents):
        if folder.exists():
            if not folder.is_dir():
                fail(f"cannot write {flag} {path}: {folder} is a file, not a folder")
            break
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".dicetable-check-"):
            pass
    except OSError as exc:
        fail(f"cannot write {flag} {path}: {exc.strerror or exc}")


@app.command()
@guarded
def ladder(
    games_n: int = typer.Option(100, "--games", "-n", help="games per row"),
    games_at: List[str] = typer.Option([], "--games-at",
                                       help="PLAYERS=GAMES: games per row at that player count (repeatable)"),
    game: List[str] = typer.Option([], "--game", "-g", help="only this game (repeatable)"),
    players: List[int] = typer.Option([], "--players", "-p", help="only this player count: 1, 2 or 4 (repeatable)"),
    seed: int = typer.Option(2026, "--seed"),
    workers: int = typer.Option(0, "--workers", help="processes (0: one per core)"),
    backend: str = typer.Option("local", "--backend", help="local (processes) or ray (needs Ray)"),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", help="Ray cluster to join"),
    jsonl: Optional[Path] = typer.Option(None, "--jsonl", help="write one JSON line per row here"),
    doc: Optional[Path] = typer.Option(None, "--doc",
                                       help="Markdown file whose ladder markers get the tables (e.g. docs/bots.md)"),
) -> None:
    """Run the strength ladder of docs/bots.md: bot against bot at 1, 2 and 4 players.

    Hard vs greedy and medium vs easy at 2 and 4 players, hard and greedy solo; seats rotated,
    seeded, 95% intervals, hard's time per decision and turn.
    """
    from dicetable.ladder import (append_jsonl, default_workers, ladder_rows, run_ladder, table, write_doc,
                                       write_jsonl)

    if games_n < 1:
        fail(f"--games takes a number of games per row of at least 1, got {games_n}")
    by_players: dict[int, int] = {}
    for item in games_at:
        count, _, number = item.partition("=")
        if count not in ("1", "2", "4") or not number.isdigit() or int(number) < 1:
            fail(f"--games-at takes PLAYERS=GAMES with PLAYERS 1, 2 or 4 and GAMES at least 1 (e.g. 1=300), "
                 f"got {item!r}")
        by_players[int(count)] = int(number)
    if workers < 0:
        fail(f"--workers takes a number of processes (0: one per core), got {workers}")
    if backend not in ("local", "ray"):
        fail(f"--backend is local or ray, not {backend!r}")
    if backend == "ray":
        from dicetable.simulate import ray_module

        ray_module()  # missing: the error now, not under a progress bar already drawn
    bad = [p for p in players if p not in (1, 2, 4)]
    if bad:
        fail(f"--players is 1, 2 or 4 (the ladder's player counts), got {bad[0]}")
    if doc is not None and not doc.is_file():
        fail(f"--doc {doc} is not a file")
    rows = ladder_rows(list(game) or None, tuple(players) or (1, 2, 4))
    if not rows:
        fail("no ladder rows for that choice of games and player counts")
    if jsonl:  # rows are added as they finish (kept if the run is stopped), then rewritten in order
        if jsonl.is_dir():
            fail(f"--jsonl {jsonl} is a folder; give a file name such as {jsonl / 'ladder.jsonl'}")
        _check_writable("--jsonl", jsonl)
        try:
            jsonl.write_text("", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write --jsonl {jsonl}: {exc.strerror or exc}")

    def row_done(r: dict) -> None:
        progress.console.print(f"  done: {r['game']} {r['players']}p {' vs '.join(dict.fromkeys(r['lineup']))}")
        if jsonl:
            append_jsonl(jsonl, r)

    t0 = time.perf_counter()
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console) as progress:
        total = sum(by_players.get(row.players, games_n) for row in rows)
        task = progress.add_task(f"ladder: {len(rows)} rows, {total} games", total=total)
        results = run_ladder(rows, games_n, seed, workers or default_workers(), backend == "ray", ray_address,
                             on_row=row_done, on_game=lambda rec: progress.advance(task), games_at=by_players)
    minutes = (time.perf_counter() - t0) / 60
    procs = workers or default_workers()
    at_text = "".join(f", {n} at {p} player(s)" for p, n in sorted(by_players.items()))
    note = (f"**Ladder of {time.strftime('%Y-%m-%d')}**: {len(rows)} rows, {games_n} games per row{at_text}, "
            f"seed {seed}, seats rotated, {procs} process(es); {minutes:.1f} minutes. Command: `dicetable ladder "
            f"--games {games_n}" + "".join(f" --games-at {p}={n}" for p, n in sorted(by_players.items()))
            + f" --seed {seed} --workers {procs}"
            + "".join(f" --game {g}" for g in game) + "".join(f" --players {p}" for p in players) + "`.")
    console.print(escape(table(results)), soft_wrap=True)
    console.print(escape(note), soft_wrap=True)
    if jsonl:
        write_jsonl(jsonl, results)
    if doc:
        write_doc(doc, results, note)
        console.print(f"tables written to {escape(str(doc))}")
