"""Interactive terminal play: people and bots at one table.

The loop renders the table for the seat that decides, lists the legal
actions with numbers and reads a line. A line may hold several numbers or
action ids separated by spaces or commas (numbers refer to the list as
shown); they are applied in order, and the rest of the line is dropped when
one is refused, when the seat's decision is complete, or when new dice come
up (the state's ``chance_mark`` changed). Commands: ``help``, ``show``,
``log [N]``, ``save [FILE]``, ``load FILE``, ``hint``, ``quit``.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from dicetable.bots import Bot
from dicetable.engine import (
    DicetableError,
    GameState,
    load_game_file,
    seat_name,
    spec_of,
    write_json,
)

HINT_HEADER = "The search bot's top choices, by its share of the search (higher: more promising):"
SINCE_LAST_TURN_MAX = 30  # hot seat: events shown after the hand-off (the rest: ``log``)

COMMANDS_HELP = (
    "Type the number of a choice (or its id). Several choices may be given at once, "
    "separated by spaces, e.g. '1 1 3': every number refers to the list as shown; the line "
    "stops when your decision is complete or new dice come up. "
    "Commands: help, show, log [N], save [FILE], load FILE, hint, quit."
)


CHOICE_NUMBER = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: int() refuses some other "digits"


class Quit(Exception):
    """The person asked to leave the game."""


class TerminalTable:
    """One game at the terminal: ``humans`` are seats typed at the keyboard, ``bots`` the rest.

    ``read`` returns one input line (raises EOFError at end of input);
    ``hint`` (optional) returns rows ``(action, share)`` for the hint command.
    """

    def __init__(self, state: GameState, humans: set[int], bots: dict[int, Bot],
                 console: Console | None = None, read: Callable[[str], str] | None = None,
                 save_dir: Path = Path("saves"), replay_dir: Path = Path("replays"),
                 hint: Callable | None = None) -> None:
        self.state = state
        self.humans = humans
        self.bots = bots
        self.console = console or Console(emoji=False)
        self.read = read or (lambda prompt: self.console.input(prompt))
        self.save_dir = save_dir
        self.replay_dir = replay_dir
        self.hint = hint
        # A new game shows its opening events (set-up, a first roll, a Harvest) as play
        # starts; a continued game starts from where it was saved.
        self.seen = len(state.log) if state.history else 0
        self.seen_at_start = self.seen
        self.reloaded = False  # set by ``load``: the turn in progress is over
        self.seen_by: dict[int, int] = {}  # hot seat: log length when each seat last decided
        self.last_human: int | None = None

    # -------------------------------------------------------------- saving
    def default_save_path(self) -> Path:
        return self.save_dir / f"{self.state.game_id}-{self.state.seed}.json"

    def resume_command(self, path: Path) -> str:
        """The command that continues this game with the same people and bots."""
        cmd = f"dicetable play --load {shlex.quote(str(path))}"
        if self.humans != {0}:
            cmd += " --human " + (",".join(str(s + 1) for s in sorted(self.humans)) or "0")
        names = {getattr(bot, "name", None) for bot in self.bots.values()}
        if len(names) == 1 and None not in names and names != {"greedy"}:
            cmd += f" --bot {names.pop()}"
        return cmd

    # -------------------------------------------------------------- output
    def viewer(self) -> int | None:
        """The seat whose eyes the screen shows: the only human, or None (public) in hot-seat."""
        return next(iter(self.humans)) if len(self.humans) == 1 else None

    def show_since_last_turn(self, seat: int) -> None:
        """Hot-seat: what ``seat`` may see of what happened since its last decision."""
        log = self.state.log
        start = self.seen_by.get(seat, self.seen_at_start)
        events = [e for e in log[start:] if e.visible_to(seat)]
        if events:
            self.console.print(f"[bold]Since {escape(seat_name(seat))}'s last turn:[/bold]")
            if len(events) > SINCE_LAST_TURN_MAX:
                self.console.print(f"  [dim]... {len(events) - SINCE_LAST_TURN_MAX} earlier events (type log)[/dim]")
            for event in events[-SINCE_LAST_TURN_MAX:]:
                self.console.print(f"  [dim]•[/dim] {escape(event.text)}")
        self.seen_by[seat] = len(log)

    def show_new_events(self, viewer: int | None) -> None:
        log = self.state.log
        for event in log[self.seen:]:
            if event.visible_to(viewer):
                self.console.print(f"  [dim]•[/dim] {escape(event.text)}")
        self.seen = len(log)

    def render(self, seat: int | None) -> None:
        spec = spec_of(self.state)
        if spec.render is not None:
            self.console.print(spec.render(self.state, seat))

    def choices(self, seat: int) -> None:
        decision = self.state.decision(seat)
        self.console.print(f"[bold]{seat_name(seat)}[/bold]: {escape(decision.prompt)}")
        table = Table(show_header=False, box=None, padding=(0, 1))
        for i, action in enumerate(self.state.legal_actions(seat), start=1):
            table.add_row(f"[cyan]{i}[/cyan]", escape(action.label), f"[dim]{escape(action.id)}[/dim]")
        self.console.print(table)

    # -------------------------------------------------------------- input
    def parse_against(self, actions: list, token: str) -> str:
        """The action id a typed token names: a choice number from ``actions`` or an id."""
        if CHOICE_NUMBER.fullmatch(token):
            n = int(token)
            if 1 <= n <= len(actions):
                return actions[n - 1].id
            raise DicetableError(f"there is no choice {n}: choose 1 to {len(actions)}")
        return token  # an action id; apply() explains if it is not legal now

    def command(self, seat: int, line: str) -> bool:
        """Handle a command line; True if it was one."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word in ("help", "?"):
            decision = self.state.decision(seat)
            self.console.print(f"[bold]{escape(decision.prompt)}[/bold]")
            if decision.help:
                self.console.print(escape(decision.help))
            self.console.print(f"[dim]{escape(COMMANDS_HELP)}[/dim]")
            return True
        if word == "log":
            count = 20
            if rest:
                if not CHOICE_NUMBER.fullmatch(rest) or int(rest) < 1:
                    raise DicetableError(f"log takes a number of events of at least 1 (log 50), got {rest!r}")
                count = int(rest)
            for event in self.state.log_for(seat)[-count:]:
                self.console.print(f"  {escape(event.text)}")
            return True
        if word == "save":
            rest = unquote(rest)
            path = Path(rest).expanduser() if rest else self.default_save_path()
            write_json(path, self.state.to_dict())
            self.console.print(f"Saved to {escape(str(path))}. Continue with: {escape(self.resume_command(path))}")
            return True
        if word == "load":
            rest = unquote(rest)
            if not rest:
                raise DicetableError("say which file to load: load FILE")
            loaded = load_game_file(Path(rest).expanduser())
            if loaded.players != self.state.players:
                raise DicetableError(
                    f"{rest} has {loaded.players} players; this table has {self.state.players}"
                )
            self.state = loaded
            self.seen = len(loaded.log)
            self.seen_by = {}
            self.reloaded = True
            self.console.print(f"Loaded {escape(rest)}.")
            return True
        if word == "hint":
            if rest:
                raise DicetableError(f"hint takes nothing after it, got {rest!r}")
            if self.hint is None:
                raise DicetableError("hints are not available for this game")
            self.console.print(f"[dim]{HINT_HEADER}[/dim]")
            for action, share in self.hint(self.state, seat):
                self.console.print(f"  {share:6.1%}  {escape(action.label)} [dim]({escape(action.id)})[/dim]")
            return True
        if word in ("show", "table"):
            self.render(seat)
            self.choices(seat)
            return True
        if word in ("quit", "exit"):
            raise Quit
        return False

    def clear_screen(self) -> None:
        """Clear the screen and, on a terminal, its scrollback too.

        In hot-seat play the previous seat's private view (and what it typed)
        must not stay on screen, nor be one scroll away.
        """
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")  # erase the scrollback (xterm, tmux, most terminals)
            self.console.file.flush()

    def human_turn(self, seat: int) -> None:
        hot_seat = len(self.humans) > 1
        handed_over = hot_seat and self.last_human not in (None, seat)
        if handed_over:
            self.clear_screen()
            self.console.rule(f"Hand the keyboard to {seat_name(seat)}")
            answer = self.read(f"{seat_name(seat)}, press Enter when only you can see the screen "
                               "(or type quit). ")
            if answer.strip().lower() in ("quit", "exit"):
                raise Quit
        self.last_human = seat
        if handed_over or (hot_seat and seat not in self.seen_by):
            # The clear wiped what happened meanwhile; show what this seat may see of it.
            self.show_since_last_turn(seat)
        self.render(seat)
        self.choices(seat)
        while True:
            line = self.read("> ").strip()
            if not line:
                continue
            try:
                if self.command(seat, line):
                    if self.reloaded:  # another game is on the table: show it from the top
                        self.reloaded = False
                        return
                    if self.state.is_over or seat not in self.state.to_move:
                        return
                    continue
                # Every number on the line refers to the list shown when it was typed.
                shown = list(self.state.legal_actions(seat))
                tokens = [t for t in re.split(r"[\s,]+", line) if t]
                ids = [self.parse_against(shown, token) for token in tokens]
                for n, action_id in enumerate(ids, start=1):
                    chance = self.state.chance_mark
                    try:
                        self.state.apply(action_id, seat)
                    except DicetableError as exc:
                        if n == 1:
                            raise
                        raise DicetableError(
                            f"the line stopped at {tokens[n - 1]!r} (the choices before it were made; "
                            f"a step with a single possible choice is made for you): {exc}") from None
                    self.show_new_events(seat if len(self.humans) == 1 else None)
                    if self.state.is_over or seat not in self.state.to_move:
                        self.seen_by[seat] = len(self.state.log)
                        if n < len(ids):
                            self.console.print("[yellow]Your decision is complete; the rest of the line was ignored.[/yellow]")
                        return
                    if n < len(ids) and self.state.chance_mark != chance:
                        # The rest was typed before these dice (or cards) came up.
                        self.console.print("[yellow]New dice came up; the rest of the line was ignored: "
                                           "choose again.[/yellow]")
                        return  # the run loop shows the table as it is now
                self.choices(seat)
            except DicetableError as exc:
                self.console.print(f"[red]{escape(str(exc))}[/red]")
                self.choices(seat)

    # -------------------------------------------------------------- loop
    def run(self) -> GameState:
        """Play until the game ends or a person quits; return the final state."""
        self.console.print(f"[dim]{escape(COMMANDS_HELP)}[/dim]")
        self.show_new_events(self.viewer())  # a new game's opening events
        try:
            while not self.state.is_over:
                to_move = self.state.to_move
                humans = [s for s in to_move if s in self.humans]
                if humans:
                    self.human_turn(humans[0])
                else:
                    seat = to_move[0]
                    self.state.apply(self.bots[seat].choose(self.state, seat), seat)
                self.show_new_events(self.viewer())
        except (Quit, EOFError, KeyboardInterrupt):
            try:
                path = write_json(self.default_save_path(), self.state.to_dict())
            except DicetableError as exc:
                self.console.print(f"\n[red]The game could not be saved: {escape(str(exc))}[/red]")
                return self.state
            self.console.print(f"\nGame saved to {escape(str(path))}. Continue with: {escape(self.resume_command(path))}")
            return self.state
        self.render(None)
        scores = ", ".join(f"{seat_name(s)}: {v}" for s, v in enumerate(self.state.scores))
        self.console.print(f"[bold]Final scores[/bold] {scores}")
        winners = self.state.winners
        if winners or self.state.players > 1:  # solo: the game's last event says how it went
            self.console.print("[bold]Winner[/bold]" + ("s: " if len(winners) > 1 else ": ")
                               + (", ".join(seat_name(s) for s in winners) if winners else "no player"))
        try:
            path = write_json(self.replay_dir / f"{self.state.game_id}-{self.state.seed}.json",
                              self.state.replay_record())
        except DicetableError as exc:
            self.console.print(f"[red]The replay could not be written: {escape(str(exc))}[/red]")
            return self.state
        self.console.print(f"Replay written to {escape(str(path))} (dicetable replay {escape(str(path))}).")
        return self.state


def unquote(text: str) -> str:
    """``'"my save.json"'`` -> ``my save.json`` (a path typed with quotes around it)."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1].strip()
    return text


def dump_json(data) -> str:
    """Compact JSON for ``--json`` outputs."""
    return json.dumps(data, indent=1)
