"""The ``dicetable`` command: games, play, hint, replay, simulate, bench; the other commands'
modules (serve, tables, export, analyze, train-eval, ladder) are imported at the end.

``app`` (the console script's entry point, ``dicetable.cli.main:app``), ``console``, ``fail``
and ``guarded`` live in :mod:`dicetable.cli.app` and are imported here from there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, List, Optional, TypeVar

import typer
from rich import box
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from dicetable.bots import BOT_NAMES, make_bot
from dicetable.cli.app import app, console, fail, guarded, program_name, read_line
from dicetable.engine import (
    TABLE_SEED_MAX,
    DicetableError,
    GameSpec,
    GameState,
    OptionSpec,
    get_game,
    list_games,
    new_game,
    read_json,
    run_replay,
    seat_name,
)
from dicetable.extras import MissingExtra

T = TypeVar("T")


def _as_typed(value: Any) -> str:
    """An option value as it is typed (``-o NAME=VALUE``, the menu): ``true``/``false`` for a switch."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def is_number(text: str) -> bool:
    """True for a plain ASCII whole number ("12"); ``str.isdigit`` also accepts "²", which int() refuses."""
    return text.isascii() and text.isdigit()


def parse_options(pairs: List[str]) -> dict[str, Any]:
    """``["cat_level=3"]`` -> ``{"cat_level": "3"}`` (types are checked by the game)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            fail(f"options are written NAME=VALUE, got {pair!r}")
        if key in out:
            fail(f"option {key!r} is given twice ({out[key]!r} and {value.strip()!r}); give it once")
        out[key] = value.strip()
    return out


def seats_of(text: str, players: int) -> set[int]:
    """``"1,3"`` -> ``{0, 2}`` (people count seats from 1); ``"0"`` -> no humans.

    Raises DicetableError saying what is allowed and what was given for anything else: an empty
    list, a seat outside 1..players, or 0 together with seats.
    """
    allowed = ("1 (a person plays the seat) or 0 (the bot plays alone)" if players == 1 else
               f"seat numbers 1 to {players} separated by commas (0: no humans)")
    parts = [part for part in text.replace(" ", "").split(",") if part]
    if not parts:
        raise DicetableError(f"{allowed}, got nothing")
    if parts == ["0"]:
        return set()
    seats = set()
    for part in parts:
        if part == "0":
            raise DicetableError(f"{allowed}; 0 cannot go with other seats, got {text!r}")
        if not is_number(part) or not 1 <= int(part) <= players:
            raise DicetableError(f"{allowed}, got {text!r}")
        seats.add(int(part) - 1)
    return seats


def parse_seats(text: str, players: int) -> set[int]:
    """:func:`seats_of` for the ``--human`` option: fails (exit 2) naming the option on a bad list."""
    try:
        return seats_of(text, players)
    except DicetableError as exc:
        fail(f"--human takes {exc}")


def set_up(game: str, players: int, seed: Optional[int], options: dict[str, Any]) -> GameState:
    """``new_game`` with a clear message when a game's own set-up refuses an option value.

    Raises DicetableError naming the options given and where their values are listed.
    """
    try:
        return new_game(game, players, seed=seed, options=options)
    except DicetableError:
        raise
    except ValueError as exc:
        given = ", ".join(f"{k}={v}" for k, v in options.items()) or "no options"
        raise DicetableError(f"{game} could not be set up with {given}: {exc}; "
                             "`dicetable games` lists each option's values") from None


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


def check_seed(seed: Optional[int]) -> None:
    """``--seed`` of a new game: fail (exit 2) unless it is None or 0..TABLE_SEED_MAX, the seeds a server
    table takes, so a seed chosen here can be given to a table and the other way round."""
    if seed is not None and not 0 <= seed <= TABLE_SEED_MAX:
        fail(f"--seed takes a whole number from 0 to {TABLE_SEED_MAX} (2**64-1, the largest seed a server "
             f"table takes), got {seed}")


def check_seat(seat: Optional[int], players: int) -> Optional[int]:
    """``--seat`` (1-based) -> a seat index, None when not given; fail unless 1..players."""
    return None if seat is None else seat_index(seat, players)


def seat_index(seat: int, players: int) -> int:
    """A given ``--seat`` (1-based) -> its seat index; fail unless 1..players."""
    if not 1 <= seat <= players:
        fail(f"--seat takes a seat number from 1 to {players}, got {seat}")
    return seat - 1


def _choices_text(opt: OptionSpec, most: int) -> str:
    """`` (a|b|c)``: an option's allowed values for ``dicetable games``, "" for any value; an option whose
    values depend on the player count (a first player) lists them at ``most`` players and says so."""
    allowed = opt.allowed(most)
    if not allowed:
        return ""
    at = f" at {most} players; fewer with fewer" if opt.choices_for is not None else ""
    return f" ({'|'.join(map(_as_typed, allowed))}{at})"


@app.command("games")
@guarded
def games_cmd() -> None:
    """List the games with their player counts and options."""
    table = Table(title="dicetable games")
    table.add_column("id", no_wrap=True)  # typed on the command line: never cut
    table.add_column("name")
    table.add_column("players", no_wrap=True)
    table.add_column("options", overflow="fold")
    for spec in list_games():
        opts = "\n".join(
            f"{o.name}={_as_typed(o.default)}" + _choices_text(o, spec.max_players)
            + (f" [{'/'.join(map(str, o.players))}p]" if o.players else "")
            for o in spec.options) or "-"  # one option a line: a narrow terminal folds less
        table.add_row(spec.id, spec.name, f"{spec.min_players}-{spec.max_players}", escape(opts))
    console.print(table)


def _ask(prompt: str, check: Callable[[str], T], default: Optional[str] = None) -> T:
    """Ask until ``check(answer)`` returns a value; it raises DicetableError/ValueError with the reason."""
    while True:
        answer = read_line(prompt).strip()
        if not answer and default is not None:
            answer = default
        try:
            return check(answer)
        except (DicetableError, ValueError) as exc:
            console.print(f"[red]{escape(' '.join(str(exc).split()))}[/red]")


def _ask_setup(game: Optional[str], players: Optional[int], human: Optional[str] = None,
               bot: Optional[str] = None) -> tuple[str, int, dict, set[int], str]:
    """The game menu: game, players, every option of the game, people's seats, bot level.

    What the command line gave (``players``, ``human``, ``bot``) is not asked.
    Returns ``(game id, players, options, human seats, bot level)``. Enter takes
    the default shown in brackets.
    """
    specs = list_games()
    if game is None:
        console.print("[bold]Which game?[/bold]")
        menu = Table.grid(padding=(0, 1), pad_edge=True)  # a wrapped description stays beside its number
        menu.add_column(justify="right", no_wrap=True)
        menu.add_column()
        for i, spec in enumerate(specs, start=1):
            menu.add_row(f" [cyan]{i}[/cyan]", f"{escape(spec.name)} ({spec.min_players}-{spec.max_players} players): "
                         f"{escape(spec.summary)}")
        console.print(menu)

        def pick_game(answer: str) -> GameSpec:
            if is_number(answer) and 1 <= int(answer) <= len(specs):
                return specs[int(answer) - 1]
            named = [s for s in specs if s.id == answer.lower()]
            if named:
                return named[0]
            raise DicetableError(f"Type a number from 1 to {len(specs)} or a game id "
                                 f"({', '.join(s.id for s in specs)}).")
        spec = _ask("Game number (or id): ", pick_game)
    else:
        spec = get_game(game)
    lo, hi = spec.min_players, spec.max_players
    if players is None:
        default = max(lo, min(2, hi))

        def pick_players(answer: str) -> int:
            if is_number(answer) and lo <= int(answer) <= hi:
                return int(answer)
            raise DicetableError(f"Type a number from {lo} to {hi}.")
        players = _ask(f"How many players ({lo}-{hi}) [{default}]? ", pick_players, str(default))
    options: dict = {}
    for opt in spec.options:
        if opt.players is not None and players not in opt.players:
            continue
        console.print(f"[bold]{escape(opt.name)}[/bold]: {escape(opt.description)}")
        choices = list(opt.allowed(players) or ())  # at this many players (a first player: only seats that exist)
        # numbered unless a value is itself a number (a cat level, a player number): what is typed is the value
        numbered = not any(is_number(_as_typed(value)) for value in choices)
        if numbered:
            for i, value in enumerate(choices, start=1):
                console.print(f"  [cyan]{i}[/cyan] {escape(_as_typed(value))}")
        elif choices:
            console.print("  " + ", ".join(f"[cyan]{escape(_as_typed(value))}[/cyan]" for value in choices))

        def pick_option(answer: str, opt: OptionSpec = opt, choices: list[Any] = choices,
                        numbered: bool = numbered) -> Any:
            if numbered and choices and is_number(answer) and 1 <= int(answer) <= len(choices):
                answer = _as_typed(choices[int(answer) - 1])
            value = opt.coerce(answer, players)
            set_up(spec.id, players, 0, {**options, opt.name: value})  # the game's own checks
            return value
        hint_text = "number or value" if numbered and choices else "value"
        default_text = _as_typed(opt.default)
        options[opt.name] = _ask(f"{opt.name} ({hint_text}) [{default_text}]: ", pick_option, default_text)
    if human is not None:
        seats = parse_seats(human, players)
    else:
        question = ("Does a person play the seat (1: yes; 0: no, the bot plays alone) [1]? " if players == 1 else
                    f"Which seats do people play (1-{players}, e.g. 1 or 1,2 for hot-seat; 0: none) [1]? ")
        seats = _ask(question, lambda answer: _seats_or_raise(answer, players), "1")
    level = bot or "greedy"
    if len(seats) < players and bot is None:
        levels = [b for b in BOT_NAMES if b != "mcts"]
        console.print("[bold]Bots[/bold]: " + ", ".join(f"[cyan]{i}[/cyan] {b}" for i, b in enumerate(levels, 1))
                      + " [dim](random: weakest; easy: searches but often errs, for learning; greedy: one step ahead; medium/hard/expert: search)[/dim]")

        def pick_level(answer: str) -> str:
            if is_number(answer) and 1 <= int(answer) <= len(levels):
                return levels[int(answer) - 1]
            if answer in levels:
                return answer
            raise DicetableError(f"Type a number from 1 to {len(levels)} or a bot name ({', '.join(levels)}).")
        level = _ask("Bot level [greedy]: ", pick_level, "greedy")
    return spec.id, players, options, seats, level


def _whole_number(option: str, text: Optional[str], game: Optional[str]) -> Optional[int]:
    """``play``'s ``--players``/``--seed`` value as a number (None when not given); a value that is not
    a whole number fails (exit 2) saying what the option takes (the players of ``game`` when known)."""
    if text is None:
        return None
    value = text.strip()
    if value[:1] in "+-" and is_number(value[1:]) or is_number(value):
        return int(value)
    if option == "--seed":
        fail(f"--seed takes a whole number from 0 to {TABLE_SEED_MAX}, got {text!r}")
    spec = None
    if game is not None:
        try:
            spec = get_game(game)
        except DicetableError:
            pass  # the unknown game is reported on its own
    if spec is None:
        fail(f"--players takes a whole number of players (`dicetable games` lists each game's), got {text!r}")
    fail(f"--players takes a whole number of players, {spec.min_players}-{spec.max_players} for {spec.name}, "
         f"got {text!r}")


def _seats_or_raise(text: str, players: int) -> set[int]:
    """:func:`seats_of` for the set-up menu's question (its DicetableError is shown and asked again)."""
    try:
        return seats_of(text, players)
    except DicetableError as exc:
        raise DicetableError(f"Type {exc}.") from None


@app.command()
@guarded
def play(
    game: Optional[str] = typer.Argument(None, help="game id (see `dicetable games`); without it a menu asks"),
    players_text: Optional[str] = typer.Option(None, "--players", "-p", metavar="N", help="number of seats"),
    human: Optional[str] = typer.Option(None, "--human", help="seats played by people, e.g. 1 or 1,2 (0: none); default 1"),
    bot: Optional[str] = typer.Option(None, "--bot", help=f"bot for the other seats: {', '.join(BOT_NAMES)}; default greedy"),
    seed_text: Optional[str] = typer.Option(None, "--seed", metavar="N",
                                            help=f"seed for a reproducible game, 0 to {TABLE_SEED_MAX}"),
    option: List[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE (repeatable)"),
    load: Optional[Path] = typer.Option(None, "--load", help="continue a saved game"),
    layout: str = typer.Option("auto", "--layout", help="auto (by window size), wide (120x40) or compact (80x24)"),
) -> None:
    """Play a game in the terminal against bots, or hot-seat with friends."""
    from dicetable.cli.play import TerminalTable, describe_table, load_table_file, make_bots

    if layout not in ("auto", "wide", "compact"):
        fail(f"--layout is auto, wide or compact, not {layout!r}")
    players = _whole_number("--players", players_text, game)
    seed = _whole_number("--seed", seed_text, game)
    save_path = None
    humans: set[int] | None
    options: dict[str, Any] | None
    try:
        if load is not None:
            given = [name for name, value in (("GAME", game), ("--players", players), ("--seed", seed),
                                              ("-o", option)) if value]
            if given:
                fail(f"--load continues a saved game, which already fixes the game, players, seed and "
                     f"options: drop {', '.join(given)}")
            state, settings = load_table_file(load)
            humans = parse_seats(human, state.players) if human is not None else (
                settings["humans"] if settings else {0})
            level = bot or (settings["bot"] if settings else None) or "greedy"
            save_path = load
            console.print(f"Loaded {escape(str(load))}: {escape(describe_table(state, humans, level))}.")
        else:
            check_seed(seed)
            options, humans, level = None, None, bot or "greedy"
            if game is None:  # the menu asks for everything not given on the command line
                game, players, options, humans, level = _ask_setup(None, players, human, bot)
                options.update(parse_options(option))
            spec = get_game(game)
            if players is None:
                players = max(spec.min_players, min(2, spec.max_players))
            if options is None:
                options = parse_options(option)
            state = set_up(game, players, seed, options)
            if humans is None:
                humans = parse_seats(human if human is not None else "1", players)
        bots = make_bots(state, humans, level)
    except DicetableError as exc:
        fail(str(exc))
    from dicetable.bots.mcts import hint_rows

    TerminalTable(state, humans, bots, console=console, hint=hint_rows, bot_level=level,
                  layout=layout, save_path=save_path).run()


@app.command()
@guarded
def hint(path: Path = typer.Argument(..., help="a saved game (from `save` in play) or a replay"),
         seat: Optional[int] = typer.Option(None, help="seat (1-based); default: the seat to move"),
         level: str = typer.Option("hard", help="search level: easy, medium, hard, expert")) -> None:
    """Show the search bot's top three actions, with visit shares and win chances, for a saved position."""
    from dicetable.bots.mcts import LEVELS, hint_rows

    from dicetable.cli.play import load_table_file

    try:
        state, _ = load_table_file(path)
        if state.is_over:
            fail("that game is over: there is nothing to decide")
        if level not in LEVELS:
            fail(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        who = state.to_move[0] if seat is None else seat_index(seat, state.players)
        if who not in state.to_move:
            fail(f"{seat_name(who)} has no decision now; deciding: "
                 + ", ".join(seat_name(s) for s in state.to_move))
    except DicetableError as exc:
        fail(str(exc))
    from dicetable.cli.play import HINT_HEADER, asked, hint_line

    console.print(f"{seat_name(who)}: {escape(asked(state, who).prompt)}")
    console.print(f"[dim]{HINT_HEADER}[/dim]")
    for row in hint_rows(state, who, level=level):
        console.print(hint_line(row))


@app.command()
@guarded
def replay(path: Path = typer.Argument(..., help="a replay JSON file written by `play` or `simulate`"),
           seat: Optional[int] = typer.Option(None, help="show only what this seat (1-based) saw")) -> None:
    """Play a recorded game again from its seed and actions, printing its log."""
    try:
        record = read_json(path)
        if isinstance(record, dict) and record.get("kind") != "replay" and "format" in record and "state" in record:
            fail(f"{path} is a saved game, not a replay: continue it with {program_name()} play --load {path}")
        state = run_replay(record)
    except DicetableError as exc:
        fail(str(exc))
    viewer = check_seat(seat, state.players)
    # A finished game has no secrets left; an unfinished one shows only what the viewer saw.
    for event in state.log if viewer is None and state.is_over else state.log_for(viewer):
        console.print(escape(event.text))
    if state.is_over:  # every line of the score sheet: a solo opponent's score too
        from dicetable.cli.play import final_scores

        console.print("[bold]Scores[/bold]: " + escape(", ".join(
            f"{name} {total}" for name, total in final_scores(state.score_sheet()))))
    else:  # an unfinished game: only what the viewer may know, never a secret
        from dicetable.cli.play import score_lines

        console.print("[bold]Scores so far[/bold] (the game is not over): " + escape(score_lines(state, viewer)))


@app.command()
@guarded
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
    untimed: bool = typer.Option(
        False, "--untimed",
        help="search bots play without their levels' wall-clock caps, so the same seed gives the same "
             "games however busy the machine is; the cost: every search decision runs its whole "
             "iteration budget, however long that takes"),
) -> None:
    """Run a seeded, seat-rotated bot tournament and print win rates and scores."""
    from dicetable.simulate import make_jobs, ray_module, simulate as run, simulate_ray, summarize

    if backend not in ("local", "ray"):
        fail(f"--backend is local or ray, not {backend!r}")
    if backend == "ray":
        ray_module()  # missing: the error now, not under a progress bar already drawn
    if games_n < 1:
        fail(f"--games takes a number of games of at least 1, got {games_n}")
    if workers < 0:
        fail(f"--workers takes a number of processes (0: one per core), got {workers}")
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        fail(f"--bots lists one bot per seat separated by commas, e.g. greedy,random; got {bots!r}")
    try:
        jobs = make_jobs(game, len(names), names, games_n, seed, parse_options(option), clock=not untimed)
    except DicetableError as exc:
        fail(str(exc))
    game = jobs[0].game  # the canonical id (kingdom_of_dice was taken for kingdom-of-dice)
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
        except (DicetableError, MissingExtra) as exc:
            fail(str(exc))
    if out:
        out.close()
    seating = "solo" if len(names) == 1 else f"{len(names)} seats, seats rotated"
    untimed_note = ", search bots untimed" if untimed else ""
    table = Table(title=f"{game}: {games_n} games, {seating}{untimed_note}")
    for col in ("bot", "seats", "wins", "win rate", "95% CI", "mean score", "sd"):
        table.add_column(col, justify="right")
    for row in summarize(results):
        lo, hi = row["win_ci"]
        table.add_row(row["bot"], str(row["seats"]), f"{row['wins']:.1f}", f"{row['win_rate']:.1%}",
                      f"{lo:.1%}-{hi:.1%}", f"{row['mean_score']:.2f}", f"{row['sd_score']:.2f}")
    console.print(table)


@app.command()
@guarded
def bench(
    game: Optional[str] = typer.Argument(None, help="game id (all games if omitted)"),
    players: int = typer.Option(2, "--players", "-p"),
    games_n: int = typer.Option(100, "--games", "-n", help="random games to play"),
    seed: int = typer.Option(1, "--seed"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
) -> None:
    """Measure each game's speed: games/s, legal_actions, apply, clone, MCTS, memory.

    Random games/s, microseconds per legal_actions, apply and clone, how much faster the quiet step
    of search plays out than apply, MCTS iterations/s, the hard bot's milliseconds and iterations
    per decision, memory (the garbage collector paused inside timed loops).
    """
    from dicetable.bench import COMPARED, bench_builds, machine_load, load_warning

    if games_n < 1:
        fail(f"--games takes a number of games of at least 1, got {games_n}")
    try:
        ids = [get_game(game).id] if game else [s.id for s in list_games()]
        if game:  # one game: its player count must fit (all games: each is clamped to its range)
            spec = get_game(game)
            if not spec.min_players <= players <= spec.max_players:
                fail(f"{spec.name} is for {spec.min_players}-{spec.max_players} players, not {players}")
        jobs = []
        for gid in ids:
            spec = get_game(gid)
            jobs.append((gid, min(max(players, spec.min_players), spec.max_players), games_n, seed))
        # each game in a fresh process per build (compiled, then pure), so one game's caches do
        # not slow the next and both builds are measured in the same run
        before = machine_load()
        rows, ratios = bench_builds(jobs)
        after = machine_load()
    except DicetableError as exc:
        fail(str(exc))
    warning = load_warning(before, after)
    if as_json:
        console.print_json(json.dumps({"rows": rows, "compiled_vs_pure": ratios,
                                       "machine": {"cores": after["cores"], "load_average_before": before["load"],
                                                   "load_average_after": after["load"], "warning": warning}}))
        return
    loads = ["n/a" if m["load"] is None else f"{m['load']:.2f}" for m in (before, after)]
    console.print(f"Machine: {after['cores']} cores; load average {loads[0]} before, {loads[1]} after (1 min)")
    if warning:
        console.print(f"[yellow]warning:[/yellow] {escape(warning)}")
    # Compact (no inner borders, 4-character figures, headers on two lines) so every figure
    # shows uncut at 80 columns; --json gives the full precision, steps per game and the hard
    # bot's iterations per decision.
    # With both builds, each game's name heads a row of its own and its two builds follow it.
    title = "dicetable bench (one process per game and build, seeded random play)"
    table = Table(title=title if ratios else title[:-1] + f"; {rows[0]['build']} build)",
                  box=box.SIMPLE_HEAD, padding=(0, 0), pad_edge=False)
    table.add_column("game", no_wrap=True)
    for col in ("seat\ns", "game\n/s", "step\n/s", "legal\nus",
                "apply\nus", "clone\nus", "quiet\nx", "MCTS\nit/s", "hard\nms", "peak\nKiB"):
        table.add_column(col, justify="right", no_wrap=True)
    for r in rows:
        if ratios and r["build"] == "compiled":
            table.add_row(r["game"])
        table.add_row(f"  {r['build']}" if ratios else r["game"], str(r["players"]), *(short_number(r[key]) for key in (
            "games_per_s", "steps_per_s", "legal_actions_us", "apply_us",
            "clone_us", "quiet_speedup", "mcts_iterations_per_s", "hard_ms_per_decision",
            "peak_kib_one_game")))
    console.print(table)
    if not ratios:
        from dicetable.compiled import why_pure_only

        console.print(why_pure_only())
        return
    speed = Table(title="compiled vs pure (times faster, same run)", box=box.SIMPLE_HEAD)
    speed.add_column("game", no_wrap=True)
    for key, _ in COMPARED:
        speed.add_column({"steps_per_s": "random decisions/s", "games_per_s": "random games/s",
                          "clone_us": "clone", "mcts_iterations_per_s": "MCTS it/s"}[key], justify="right")
    for r in ratios:
        speed.add_row(r["game"], *(f"{r[key]:.2f}x" for key, _ in COMPARED))
    console.print(speed)


# Last, so `dicetable --help` lists them after the commands above (none of them imports this module).
from dicetable.cli.serve import register as _register_serve  # noqa: E402  (serve, tables, export)

_register_serve(app)
import dicetable.cli.analyze  # noqa: E402,F401  registers `dicetable analyze` (cli/analyze.py)  # isort: skip
import dicetable.cli.bots  # noqa: E402,F401  registers `dicetable train-eval` and `dicetable ladder`  # isort: skip
import dicetable.cli.agent  # noqa: E402,F401  registers `dicetable agent` (cli/agent.py)  # isort: skip

if __name__ == "__main__":  # pragma: no cover
    app()
