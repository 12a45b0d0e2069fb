"""The ``dicetable`` command: games, play, simulate, replay, bench."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from dicetable.bots import BOT_NAMES, make_bot
from dicetable.engine import (
    DicetableError,
    games,
    get_game,
    load_game_file,
    new_game,
    read_json,
    run_replay,
    seat_name,
)

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Five tabletop dice games on one rules engine.")
console = Console(emoji=False)  # action ids like "steal:bank:gold" must print as typed


def fail(message: str) -> None:
    """Print a clear error and exit with status 2."""
    console.print(f"[red]error:[/red] {escape(message)}")
    raise typer.Exit(2)


def is_number(text: str) -> bool:
    """True for a plain ASCII whole number ("12"); ``str.isdigit`` also accepts "²", which int() refuses."""
    return text.isascii() and text.isdigit()


def parse_options(pairs: List[str]) -> dict:
    """``["cat_level=3"]`` -> ``{"cat_level": "3"}`` (types are checked by the game)."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            fail(f"options are written NAME=VALUE, got {pair!r}")
        if key in out:
            fail(f"option {key!r} is given twice ({out[key]!r} and {value.strip()!r}); give it once")
        out[key] = value.strip()
    return out


def parse_seats(text: str, players: int) -> set[int]:
    """``"1,3"`` -> ``{0, 2}`` (people count seats from 1); ``"0"`` -> no humans.

    Fails (exit 2) on anything else: an empty list, a seat outside 1..players,
    or 0 together with seats.
    """
    allowed = f"--human takes seat numbers 1 to {players} separated by commas (0: no humans)"
    parts = [part for part in text.replace(" ", "").split(",") if part]
    if not parts:
        fail(f"{allowed}, got nothing")
    if parts == ["0"]:
        return set()
    seats = set()
    for part in parts:
        if part == "0":
            fail(f"{allowed}; 0 cannot go with other seats, got {text!r}")
        if not is_number(part) or not 1 <= int(part) <= players:
            fail(f"{allowed}, got {text!r}")
        seats.add(int(part) - 1)
    return seats


def short_number(x: float) -> str:
    """A figure in at most 4-5 characters: 5.52, 43.1, 9569, 157k, 2.1M."""
    if x < 10:
        return f"{x:.2f}"
    if x < 100:
        return f"{x:.1f}"
    if x < 10_000:
        return f"{x:.0f}"
    if x < 1_000_000:
        return f"{x / 1000:.0f}k"
    return f"{x / 1_000_000:.1f}M"


def check_seat(seat: Optional[int], players: int) -> Optional[int]:
    """``--seat`` (1-based) -> a seat index; fail unless 1..players."""
    if seat is None:
        return None
    if not 1 <= seat <= players:
        fail(f"--seat takes a seat number from 1 to {players}, got {seat}")
    return seat - 1


@app.command("games")
def games_cmd() -> None:
    """List the games with their player counts and options."""
    table = Table(title="dicetable games")
    table.add_column("id", no_wrap=True)  # typed on the command line: never cut
    table.add_column("name")
    table.add_column("players", no_wrap=True)
    table.add_column("options", overflow="fold")
    for spec in games():
        opts = "\n".join(
            f"{o.name}={o.default}" + (f" ({'|'.join(map(str, o.choices))})" if o.choices else "")
            + (f" [{'/'.join(map(str, o.players))}p]" if o.players else "")
            for o in spec.options) or "-"  # one option a line: a narrow terminal folds less
        table.add_row(spec.id, spec.name, f"{spec.min_players}-{spec.max_players}", escape(opts))
    console.print(table)


def _ask_setup(players: Optional[int] = None) -> tuple[str, int, set[int]]:
    specs = games()
    console.print("[bold]Which game?[/bold]")
    for i, spec in enumerate(specs, start=1):
        console.print(f"  [cyan]{i}[/cyan] {spec.name} ({spec.min_players}-{spec.max_players} players): {spec.summary}")
    while True:
        answer = console.input("Game number (or id): ").strip()
        if is_number(answer) and 1 <= int(answer) <= len(specs):
            spec = specs[int(answer) - 1]
            break
        named = [s for s in specs if s.id == answer.lower()]
        if named:
            spec = named[0]
            break
        console.print(f"[red]Type a number from 1 to {len(specs)} or a game id "
                      f"({', '.join(s.id for s in specs)}).[/red]")
    lo, hi = spec.min_players, spec.max_players
    if players is not None:  # given with --players: new_game checks it
        return spec.id, players, {0}
    while True:
        answer = console.input(f"How many players ({lo}-{hi}, you are Player 1, bots play the rest)? ").strip()
        if is_number(answer) and lo <= int(answer) <= hi:
            return spec.id, int(answer), {0}
        console.print(f"[red]Type a number from {lo} to {hi}.[/red]")


@app.command()
def play(
    game: Optional[str] = typer.Argument(None, help="game id (see `dicetable games`); asked if omitted"),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="number of seats"),
    human: str = typer.Option("1", "--human", help="seats played by people, e.g. 1 or 1,2 (0: none)"),
    bot: str = typer.Option("greedy", "--bot", help=f"bot for the other seats: {', '.join(BOT_NAMES)}"),
    seed: Optional[int] = typer.Option(None, "--seed", help="seed for a reproducible game"),
    option: List[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE (repeatable)"),
    load: Optional[Path] = typer.Option(None, "--load", help="continue a saved game"),
) -> None:
    """Play a game in the terminal against bots, or hot-seat with friends."""
    from dicetable.cli.play import TerminalTable

    try:
        if load is not None:
            given = [name for name, value in (("GAME", game), ("--players", players), ("--seed", seed),
                                              ("-o", option)) if value]
            if given:
                fail(f"--load continues a saved game, which already fixes the game, players, seed and "
                     f"options: drop {', '.join(given)}")
            state = load_game_file(load)
            humans = parse_seats(human, state.players)
        else:
            if game is None:
                game, players, humans = _ask_setup(players)
            spec = get_game(game)
            if players is None:
                players = max(spec.min_players, min(2, spec.max_players))
            state = new_game(game, players, seed=seed, options=parse_options(option))
            humans = parse_seats(human, players)
        bots = {s: make_bot(bot, seed=state.seed + s) for s in range(state.players) if s not in humans}
    except DicetableError as exc:
        fail(str(exc))
    from dicetable.bots.mcts import hint_rows

    TerminalTable(state, humans, bots, console=console, hint=hint_rows).run()


@app.command()
def hint(path: Path = typer.Argument(..., help="a saved game (from `save` in play) or a replay"),
         seat: Optional[int] = typer.Option(None, help="seat (1-based); default: the seat to move"),
         level: str = typer.Option("hard", help="search level: easy, medium, hard")) -> None:
    """Show the search bot's top three actions, with visit shares, for a saved position."""
    from dicetable.bots.mcts import LEVELS, hint_rows

    try:
        state = load_game_file(path)
        if state.is_over:
            fail("that game is over: there is nothing to decide")
        if level not in LEVELS:
            fail(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        who = state.to_move[0] if seat is None else check_seat(seat, state.players)
        if who not in state.to_move:
            fail(f"{seat_name(who)} has no decision now; deciding: "
                 + ", ".join(seat_name(s) for s in state.to_move))
    except DicetableError as exc:
        fail(str(exc))
    from dicetable.cli.play import HINT_HEADER

    console.print(f"{seat_name(who)}: {escape(state.decision(who).prompt)}")
    console.print(f"[dim]{HINT_HEADER}[/dim]")
    for action, share in hint_rows(state, who, level=level):
        console.print(f"  {share:6.1%}  {escape(action.label)} [dim]({escape(action.id)})[/dim]")


@app.command()
def replay(path: Path = typer.Argument(..., help="a replay JSON file written by `play` or `simulate`"),
           seat: Optional[int] = typer.Option(None, help="show only what this seat (1-based) saw")) -> None:
    """Play a recorded game again from its seed and actions, printing its log."""
    try:
        record = read_json(path)
        if isinstance(record, dict) and record.get("kind") != "replay" and "format" in record and "state" in record:
            fail(f"{path} is a saved game, not a replay: continue it with dicetable play --load {path}")
        state = run_replay(record)
    except DicetableError as exc:
        fail(str(exc))
    viewer = check_seat(seat, state.players)
    for event in state.log_for(viewer) if viewer is not None else state.log:
        console.print(escape(event.text))
    console.print(f"[bold]Scores[/bold]: " + ", ".join(
        f"{seat_name(s)} {v}" for s, v in enumerate(state.scores)))


@app.command()
def simulate(
    game: str = typer.Argument(..., help="game id"),
    games_n: int = typer.Option(100, "--games", "-n", help="number of games"),
    bots: str = typer.Option("greedy,random", "--bots", help="one bot per seat, comma-separated"),
    seed: int = typer.Option(1, "--seed"),
    workers: int = typer.Option(0, "--workers", help="processes (0: one per core)"),
    option: List[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE"),
    jsonl: Optional[Path] = typer.Option(None, "--jsonl", help="write one JSON line per game here"),
    backend: str = typer.Option("local", "--backend", help="local (processes) or ray (needs Ray)"),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", help="Ray cluster to join"),
) -> None:
    """Run a seeded, seat-rotated bot tournament and print win rates and scores."""
    from dicetable.simulate import make_jobs, simulate as run, simulate_ray, summarize

    if backend not in ("local", "ray"):
        fail(f"--backend is local or ray, not {backend!r}")
    if games_n < 1:
        fail(f"--games takes a number of games of at least 1, got {games_n}")
    if workers < 0:
        fail(f"--workers takes a number of processes (0: one per core), got {workers}")
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        fail(f"--bots lists one bot per seat separated by commas, e.g. greedy,random; got {bots!r}")
    try:
        jobs = make_jobs(game, len(names), names, games_n, seed, parse_options(option))
    except DicetableError as exc:
        fail(str(exc))
    out = None
    if jsonl:  # opened before the games run, so a bad path fails at once
        if jsonl.is_dir():
            fail(f"--jsonl {jsonl} is a folder; give a file name such as {jsonl / 'games.jsonl'}")
        try:
            jsonl.parent.mkdir(parents=True, exist_ok=True)
            out = jsonl.open("w", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write --jsonl {jsonl}: {exc.strerror or exc}")
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console) as progress:
        task = progress.add_task(f"{game} x{games_n}", total=len(jobs))

        def done(rec: dict) -> None:
            progress.advance(task)
            if out:
                out.write(json.dumps(rec) + "\n")

        try:
            if backend == "ray":
                results = simulate_ray(jobs, on_result=done, address=ray_address)
            else:
                results = run(jobs, workers=workers or None, on_result=done)
        except DicetableError as exc:
            fail(str(exc))
    if out:
        out.close()
    table = Table(title=f"{game}: {games_n} games, {len(names)} seats, seats rotated")
    for col in ("bot", "seats", "wins", "win rate", "95% CI", "mean score", "sd"):
        table.add_column(col, justify="right")
    for row in summarize(results):
        lo, hi = row["win_ci"]
        table.add_row(row["bot"], str(row["seats"]), f"{row['wins']:.1f}", f"{row['win_rate']:.1%}",
                      f"{lo:.1%}-{hi:.1%}", f"{row['mean_score']:.2f}", f"{row['sd_score']:.2f}")
    console.print(table)


@app.command()
def bench(
    game: Optional[str] = typer.Argument(None, help="game id (all games if omitted)"),
    players: int = typer.Option(2, "--players", "-p"),
    games_n: int = typer.Option(100, "--games", "-n", help="random games to play"),
    seed: int = typer.Option(1, "--seed"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
) -> None:
    """Measure random games/s, microseconds per legal_actions, apply and clone, MCTS iterations/s,
    the hard bot's milliseconds and iterations per decision, memory."""
    from dicetable.bench import bench_game, bench_isolated

    if games_n < 1:
        fail(f"--games takes a number of games of at least 1, got {games_n}")
    try:
        ids = [get_game(game).id] if game else [s.id for s in games()]
        if game:  # one game: its player count must fit (all games: each is clamped to its range)
            spec = get_game(game)
            if not spec.min_players <= players <= spec.max_players:
                fail(f"{spec.name} is for {spec.min_players}-{spec.max_players} players, not {players}")
        jobs = []
        for gid in ids:
            spec = get_game(gid)
            jobs.append((gid, min(max(players, spec.min_players), spec.max_players), games_n, seed))
        # several games: each in a fresh process, so one game's caches do not slow the next
        rows = [bench_game(*jobs[0])] if len(jobs) == 1 else bench_isolated(jobs)
    except DicetableError as exc:
        fail(str(exc))
    if as_json:
        console.print_json(json.dumps(rows))
        return
    # Compact (no inner borders, 4-character figures, headers on two lines) so every figure
    # shows uncut at 80 columns; --json gives the full precision and steps per game.
    table = Table(title="dicetable bench (single process, seeded random play)",
                  box=box.SIMPLE_HEAD, padding=(0, 0), pad_edge=False)
    table.add_column("game", no_wrap=True)
    for col in ("seat\ns", "game\n/s", "step\n/s", "legal\nus",
                "apply\nus", "clone\nus", "MCTS\nit/s", "hard\nms", "hard\nit", "peak\nKiB"):
        table.add_column(col, justify="right", no_wrap=True)
    for r in rows:
        table.add_row(r["game"], str(r["players"]), *(short_number(r[key]) for key in (
            "games_per_s", "steps_per_s", "legal_actions_us", "apply_us",
            "clone_us", "mcts_iterations_per_s", "hard_ms_per_decision", "hard_iterations_per_decision",
            "peak_kib_one_game")))
    console.print(table)


import dicetable.cli.analyze  # noqa: E402,F401  registers `dicetable analyze` (cli/analyze.py)

if __name__ == "__main__":  # pragma: no cover
    app()
