"""Interactive terminal play: people and bots at one table.

The loop renders the table for the seat that decides, lists the legal
actions with numbers and reads a line. A line may hold several numbers or
action ids separated by spaces or commas; they are applied in order and the
first one that is refused stops the rest. Commands: ``help``, ``log``,
``save [FILE]``, ``load FILE``, ``quit``.
"""

from __future__ import annotations

import json
import re
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

COMMANDS_HELP = (
    "Type the number of a choice (or its id). Several choices may be given at once, "
    "separated by spaces, e.g. '1 1 3'. Commands: help, show, log, save [FILE], load FILE, hint, quit."
)


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
        self.seen = len(state.log)
        self.last_human: int | None = None

    # -------------------------------------------------------------- output
    def viewer(self) -> int | None:
        """The seat whose eyes the screen shows: the only human, or None (public) in hot-seat."""
        return next(iter(self.humans)) if len(self.humans) == 1 else None

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
        if token.isdigit():
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
            for event in self.state.log_for(seat)[-20:]:
                self.console.print(f"  {escape(event.text)}")
            return True
        if word == "save":
            path = Path(rest) if rest else self.save_dir / f"{self.state.game_id}-{self.state.seed}.json"
            write_json(path, self.state.to_dict())
            self.console.print(f"Saved to {path}. Continue with: dicetable play --load {path}")
            return True
        if word == "load":
            if not rest:
                raise DicetableError("say which file to load: load FILE")
            loaded = load_game_file(rest)
            if loaded.players != self.state.players:
                raise DicetableError(
                    f"{rest} has {loaded.players} players; this table has {self.state.players}"
                )
            self.state = loaded
            self.seen = len(loaded.log)
            self.console.print(f"Loaded {rest}.")
            return True
        if word == "hint":
            if self.hint is None:
                raise DicetableError("hints are not available for this game")
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

    def human_turn(self, seat: int) -> None:
        if len(self.humans) > 1 and self.last_human not in (None, seat):
            self.console.clear()  # the previous seat's private view must not stay on screen
            self.console.rule(f"Hand the keyboard to {seat_name(seat)}")
            self.read(f"{seat_name(seat)}, press Enter when only you can see the screen. ")
        self.last_human = seat
        self.render(seat)
        self.choices(seat)
        while True:
            line = self.read("> ").strip()
            if not line:
                continue
            try:
                if self.command(seat, line):
                    if self.state.is_over or seat not in self.state.to_move:
                        return
                    continue
                # Every number on the line refers to the list shown when it was typed.
                shown = list(self.state.legal_actions(seat))
                tokens = [t for t in re.split(r"[\s,]+", line) if t]
                ids = [self.parse_against(shown, token) for token in tokens]
                for n, action_id in enumerate(ids, start=1):
                    self.state.apply(action_id, seat)
                    self.show_new_events(seat if len(self.humans) == 1 else None)
                    if self.state.is_over or seat not in self.state.to_move:
                        if n < len(ids):
                            self.console.print("[yellow]Your decision is complete; the rest of the line was ignored.[/yellow]")
                        return
                self.choices(seat)
            except DicetableError as exc:
                self.console.print(f"[red]{escape(str(exc))}[/red]")
                self.choices(seat)

    # -------------------------------------------------------------- loop
    def run(self) -> GameState:
        """Play until the game ends or a person quits; return the final state."""
        self.console.print(f"[dim]{escape(COMMANDS_HELP)}[/dim]")
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
            path = write_json(self.save_dir / f"{self.state.game_id}-{self.state.seed}.json",
                              self.state.to_dict())
            self.console.print(f"\nGame saved to {path}. Continue with: dicetable play --load {path}")
            return self.state
        self.render(None)
        scores = ", ".join(f"{seat_name(s)}: {v}" for s, v in enumerate(self.state.scores))
        self.console.print(f"[bold]Final scores[/bold] {scores}")
        path = write_json(self.replay_dir / f"{self.state.game_id}-{self.state.seed}.json",
                          self.state.replay_record())
        self.console.print(f"Replay written to {path} (dicetable replay {path}).")
        return self.state


def dump_json(data) -> str:
    """Compact JSON for ``--json`` outputs."""
    return json.dumps(data, indent=1)
