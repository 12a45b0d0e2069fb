"""Interactive terminal play: people and bots at one table.

Each human decision shows the table (the game's ``text_view``, drawn from
``state.observation(seat)`` only; the older ``render`` where a game has no
``text_view`` yet), the prompt and the numbered choices, sized to the window:
the full table at 120x40 and more, the compact one below that (``--layout``
forces either). Long lists of choices are laid out in columns and, when even
that does not fit, in pages (``more``).

How a typed line is read (the same words are in ``help`` and the README;
``INPUT_RULES``):

* every number on a line refers to the list as it was shown when the line was
  typed; the numbers are turned into action ids before anything is done;
* the choices are made in order; the rest of the line is dropped when one is
  refused, when the decision is complete, or when new dice come up (the
  state's ``chance_mark`` changed);
* a decision with a single possible choice is made for you, and a line says
  what was done: the game's own event where the game resolves such steps
  itself (Dice Kingdoms, Card Kingdoms), otherwise "Only one choice ... (made
  for you)" from the terminal; a typed id of that choice is then used up. A
  single choice that throws the turn away (``GameSpec.throws_turn_away``)
  is shown with the reason and made after Enter;
* a choice the game flags (``GameSpec.confirm_warnings``, e.g. a Kingdom of
  Dice ``stop`` that scores nothing while another choice would not) is made
  only after ``yes``.

Lines are read with the standard library's ``readline`` where it exists and
the input is a terminal (arrow keys, Ctrl-L, this run's history; no history
file); ``q``, ``quit`` and ``exit`` save and leave.

Bot turns are narrated: what each bot chose (the action's label) when that
choice is public, and every event the viewer may see. The seed is never
printed while the game runs: saves and replays are named by game, time and a
random part.
"""

from __future__ import annotations

import json
import math
import re
import shlex
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence, TypedDict

from rich import box
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from dicetable.bots import BOT_NAMES, Bot, make_bot
from dicetable.cli.app import program_name, read_line
from dicetable.engine import (
    Action,
    Decision,
    DicetableError,
    GameState,
    SaveFormatError,
    ScoreSheet,
    load_saved_game,
    new_file_path,
    read_json,
    seat_name,
    spec_of,
    write_json,
)
from dicetable.engine.help import HelpSection

HINT_HEADER = ("The search bot's top choices, by its share of the search (higher: more promising), "
               "with its estimate of your chance to win (solo: of your final score):")
SINCE_LAST_TURN_MAX = 30  # hot seat: events shown after the hand-off (the rest: ``log``)
SEARCH_BOTS = ("easy", "medium", "hard", "expert", "mcts")  # bots that think long enough for a spinner


def hint_line(row: Any) -> str:
    """One hint row as printed (rich markup, escaped): share, estimate, label and id.

    ``row`` is a :class:`dicetable.bots.mcts.HintRow` (or an ``(action, share)`` pair, shown
    without an estimate). The estimate is "win 62%" (2+ players), "score 81.4" (solo with a
    learned value) or "value 0.57" (solo with the hand-written evaluation's 0-1 scale), and
    "not searched" for a choice the search never tried (its value is None: it has no estimate).
    """
    action, share = row
    kind = getattr(row, "kind", None)
    value = getattr(row, "value", None)
    if kind is not None and value is None:
        estimate = "not searched"
    elif kind == "win":
        estimate = f"win {value:4.0%}"
    elif kind == "score":
        estimate = f"score {value:5.1f}"
    elif kind == "hand":
        estimate = f"value {value:4.2f}"
    else:
        estimate = ""
    return f"  {share:6.1%}  {estimate:>12}  {escape(action.label)} [dim]({escape(action.id)})[/dim]"
MIN_CHOICE_ROWS = 4  # fewer rows than this for the choices: the table is too tall to keep in view
WIDE = (120, 40)  # the full table needs this window (columns, lines); below it: compact
COMPACT_WIDTH = 80  # the compact table is drawn for 80x24; a narrower window cuts or folds its lines

# How input is read, one rule a line: ``help`` prints these and the README's Commands
# section repeats them word for word (tests/cli/test_docs.py checks it).
INPUT_RULES = (
    "Type the number of a choice or its id.",
    "Several choices may go on one line (1 1 3): every number refers to the list as it was "
    "shown when you typed the line, and they are made in order.",
    "The rest of a line is dropped when new dice come up, when your decision is complete, "
    "or when a choice is refused.",
    "When only one choice is possible it is made for you, and a line says what was done; "
    "when that one choice throws your turn away, it is shown with the reason and waits for Enter.",
    "A choice that throws your turn away (a Kingdom of Dice stop, or a die set aside, that leaves no valid result) "
    "while another choice would not asks you to type yes first.",
    "A word that is neither a choice nor a command is refused with the choices; type help for the commands.",
)
COMMANDS = (
    ("help", "these rules and the help for the decision in front of you"),
    ("rules [NAME]", "the rulebook sections behind the decision; with a NAME, what that piece does"),
    ("show N", "Player N's board or sheet in full (show: your own table again)"),
    ("scores", "every seat's public running score, and apart what only you know of yours (a secret objective, hidden VP, a Duke)"),
    ("log [N]", "the last N events (20)"),
    ("more", "the next page of a long list of choices"),
    ("hint", "the search bot's three best choices"),
    ("save [FILE]", "save the game (the previous save is kept as FILE.bak)"),
    ("load FILE", "continue a saved game, of any game or player count"),
    ("quit", "save and leave (q, exit and Ctrl-D too)"),
)
COMMANDS_HELP = "Commands: " + ", ".join(name for name, _ in COMMANDS) + " (help explains them)."

CHOICE_NUMBER = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: int() refuses some other "digits"
YES = ("y", "yes")
QUIT_WORDS = ("quit", "exit", "q")  # no game has an action id among them (tests/cli/test_play_input.py)
UNKNOWN_WORD_TIP = "type help for the commands"


class Quit(Exception):
    """The person asked to leave the game."""


class Elapsed:
    """A rich renderable: ``text`` followed by the seconds since it was made (the bot's thinking time)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.start = time.monotonic()

    def __rich__(self) -> Text:
        return Text(f"{self.text} {time.monotonic() - self.start:4.1f} s")


# ------------------------------------------------------------------ save files
def table_settings(humans: set[int], bot: str | None) -> dict:
    """The ``"table"`` field a terminal save carries: who plays which seat."""
    return {"humans": sorted(humans), "bot": bot}


class TableSettings(TypedDict):
    """A terminal save's table: the seats people play and the bot level of the rest (None: the default)."""

    humans: set[int]
    bot: str | None


def load_table_file(path: str | Path) -> tuple[GameState, TableSettings | None]:
    """A saved game or replay file to play on, and its table settings (``{"humans": set, "bot": name}``, or None).

    Terminal saves carry a ``"table"`` field (the people's seats and the bot
    level) beside the state; it is checked and removed before the state is
    loaded (:func:`dicetable.engine.load_saved_game`). Raises
    :class:`SaveFormatError` naming the bad field, or when the game is over.
    """
    data = read_json(path)
    table = None
    if isinstance(data, dict) and "table" in data:
        data = dict(data)
        table = data.pop("table")
    state = load_saved_game(data)
    if state.is_over:
        raise SaveFormatError(f"{path} holds a finished game: nothing is left to play; "
                              f"dicetable replay {path} shows how it went")
    if table is None:
        return state, None
    if not isinstance(table, dict) or set(table) != {"humans", "bot"}:
        raise SaveFormatError(f"{path}: the saved game's 'table' field must be "
                              '{"humans": [seats], "bot": name}, got ' + repr(table)[:80])
    humans = table["humans"]
    if (not isinstance(humans, list) or any(type(s) is not int or not 0 <= s < state.players for s in humans)
            or len(set(humans)) != len(humans)):
        # the file counts seats from 0; people (and every screen) count them from 1
        raise SaveFormatError(f"{path}: the saved game's table.humans must list the people's seats, "
                              f"Player 1 to Player {state.players} (written 0 to {state.players - 1} in "
                              f"the file), each at most once, got {repr(humans)[:80]}")
    bot = table["bot"]
    if bot is not None and bot not in BOT_NAMES:
        raise SaveFormatError(f"{path}: the saved game's table.bot must be one of {', '.join(BOT_NAMES)}, "
                              f"got {bot!r}"[:200])
    return state, {"humans": set(humans), "bot": bot}


def score_lines(state: GameState, seat: int | None) -> str:
    """The running scores as front ends show them: each seat's public score (None: "hidden"),
    and, for ``seat``, what only it sees of its own, e.g. "Player 1: 12, Player 2: 9 (Player 1
    only: +7 hidden, 19 in all)"."""
    text = ", ".join(f"{seat_name(s)}: {'hidden' if v is None else v}"
                     for s, v in enumerate(state.visible_scores(None)))
    own = state.own_score(seat)
    if own is not None:
        text += f" ({seat_name(own['seat'])} only: +{own['hidden']} hidden, {own['total']} in all)"
    return text


def describe_table(state: GameState, humans: set[int], bot: str | None) -> str:
    """One sentence: the game, its player count, who is a person and which bot plays the rest."""
    spec = spec_of(state)
    people = ", ".join(seat_name(s) for s in sorted(humans)) or "nobody"
    bots = [seat_name(s) for s in range(state.players) if s not in humans]
    text = f"{spec.name}, {state.players} player{'s' if state.players != 1 else ''}; people: {people}"
    if bots:
        text += f"; bots ({bot or 'greedy'}): {', '.join(bots)}"
    return text


def asked(state: GameState, seat: int) -> Decision:
    """The decision of ``seat``, which the caller knows to be to move.

    The engine promises a Decision wherever a seat is to move (the registry's conformance test
    checks every game); a game breaking that promise is a bug, reported as a RuntimeError that
    names the game and the seat (the table saves the game and shows one line), not as an
    AttributeError on None.
    """
    decision = state.decision(seat)
    if decision is None:
        raise RuntimeError(f"{state.game_id}: {seat_name(seat)} is to move but the game asks no decision of it "
                           "(a bug in dicetable; please report it)")
    return decision


def make_bots(state: GameState, humans: set[int], level: str | None) -> dict[int, Bot]:
    """A bot of ``level`` (default greedy) for every seat not in ``humans``; GameConfigError on a bad level."""
    return {s: make_bot(level or "greedy", seed=state.seed + s) for s in range(state.players) if s not in humans}


# ------------------------------------------------------------------ the table
class TerminalTable:
    """One game at the terminal: ``humans`` are seats typed at the keyboard, ``bots`` the rest.

    ``read(prompt)`` returns one input line (raises EOFError at end of input);
    ``hint`` (optional) returns rows ``(action, share)`` for the hint command;
    ``bot_level`` is remembered in saves; ``layout`` is ``auto`` (by the
    window size), ``wide`` or ``compact``; ``save_path`` is the file this game
    was loaded from (quitting saves there; otherwise a new name in ``save_dir``).
    """

    def __init__(self, state: GameState, humans: set[int], bots: dict[int, Bot],
                 console: Console | None = None, read: Callable[[str], str] | None = None,
                 save_dir: Path = Path("saves"), replay_dir: Path = Path("replays"),
                 hint: Callable | None = None, bot_level: str | None = None,
                 layout: str = "auto", save_path: Path | None = None) -> None:
        if layout not in ("auto", "wide", "compact"):
            raise DicetableError(f"layout is auto, wide or compact, not {layout!r}")
        self.state = state
        self.humans = set(humans)
        self.bots = bots
        self.bot_level = bot_level or next((getattr(b, "name", None) for b in bots.values()), None)
        self.console = console or Console(emoji=False)
        # the window's console: readline's line editing and history when it is a terminal
        self.read = read or (lambda prompt: read_line(prompt, self.console))
        self.save_dir = save_dir
        self.replay_dir = replay_dir
        self.save_path = save_path
        self.hint = hint
        self.layout = layout
        # A new game shows its opening events (set-up, a first roll, a Harvest) as play
        # starts; a continued game starts from where it was saved.
        self.seen = len(state.log) if state.history else 0
        self.seen_at_start = self.seen
        self.reloaded = False  # set by ``load``: the turn in progress is over
        self.seen_by: dict[int, int] = {}  # hot seat: log length when each seat last decided
        self.last_human: int | None = None
        self.narrow_noted = 0  # the window width last said to be too narrow for the table
        # hot seat: a continued game (a save: --load, or load in play) asks for the seat to move before
        # its private view is drawn, as a hand-off does; nobody has said who sits at the keyboard
        self.resumed = bool(state.history)
        self.page = 0  # the first choice shown when the list needs pages
        self.shown_until = 0  # one past the last choice shown
        self.narration: list[tuple[int, str]] = []  # bot choices not yet printed: (seat, label)

    # -------------------------------------------------------------- layout
    def compact(self) -> bool:
        """True when the compact table is drawn (a window smaller than 120x40, or ``--layout compact``)."""
        if self.layout != "auto":
            return self.layout == "compact"
        width, height = self.console.size
        return width < WIDE[0] or height < WIDE[1]

    def view_width(self) -> int:
        """The width handed to ``text_view``: the window's, below 120 when compact."""
        width = self.console.width
        return min(width, WIDE[0] - 1) if self.compact() else max(width, WIDE[0])

    def window_height(self) -> int:
        """Lines in the window (24 in compact layout, 40 in wide layout when forced)."""
        if self.layout == "auto":
            return self.console.height
        return 24 if self.layout == "compact" else max(self.console.height, WIDE[1])

    def table_renderable(self, viewer: int | None, focus: int | None = None) -> RenderableType | None:
        """The table as ``viewer`` sees it (``focus``: whose board is drawn in full), or None."""
        spec = spec_of(self.state)
        if spec.text_view is not None:
            return spec.text_view(self.state.observation(viewer), viewer, width=self.view_width(), focus=focus)
        if spec.render is not None:
            return spec.render(self.state, viewer)
        return None

    def lines_of(self, renderable: RenderableType | None) -> int:
        """How many lines ``renderable`` takes at the console's width."""
        if renderable is None:
            return 0
        return len(self.console.render_lines(renderable, self.console.options, pad=False))

    # -------------------------------------------------------------- saving
    def save(self, path: Path | None = None) -> Path:
        """Write the game (and who plays which seat) to ``path``, this game's file, or a new name.

        Asks before replacing a file this table did not write or load.
        Raises DicetableError when the person declines or the file cannot be written.
        """
        target = path or self.save_path or new_file_path(self.save_dir, self.state.game_id)
        if path is not None and self.save_path is not None and target.resolve() == self.save_path.resolve():
            path = None  # this game's own file
        if path is not None and target.is_file():
            answer = self.read(f"{target} already exists; replace it (the old file is kept as "
                               f"{target.name}.bak)? Type yes to replace: ")
            if answer.strip().lower() not in YES:
                raise DicetableError(f"not saved: {target} was left as it was")
        data = self.state.to_dict()
        data["table"] = table_settings(self.humans, self.bot_level)
        write_json(target, data)
        self.save_path = target
        return target

    def resume_command(self, path: Path) -> str:
        """The command that continues this game (the save remembers the people and the bots)."""
        return f"{program_name()} play --load {shlex.quote(str(path))}"

    # -------------------------------------------------------------- output
    def viewer(self) -> int | None:
        """The seat whose eyes the screen shows: the only human, or None (public) in hot-seat."""
        return next(iter(self.humans)) if len(self.humans) == 1 else None

    def flush_narration(self) -> None:
        """Print the bot choices gathered so far, one line per seat in a row."""
        while self.narration:
            seat = self.narration[0][0]
            labels = []
            while self.narration and self.narration[0][0] == seat:
                labels.append(self.narration.pop(0)[1])
            self.console.print(f"  [dim]▸[/dim] {escape(seat_name(seat))}: " + escape(" · ".join(labels)))

    def show_since_last_turn(self, seat: int, private_only: bool = False) -> None:
        """Hot-seat: what ``seat`` may see of what happened since its last decision (``private_only``:
        only what the public lines already on the screen left out)."""
        log = self.state.log
        start = self.seen_by.get(seat, self.seen_at_start)
        events = [e for e in log[start:] if e.visible_to(seat) and not (private_only and e.visible_to(None))]
        if events:
            heading = f"Only {seat_name(seat)} sees:" if private_only else f"Since {seat_name(seat)}'s last turn:"
            self.console.print(f"[bold]{escape(heading)}[/bold]")
            if len(events) > SINCE_LAST_TURN_MAX:
                self.console.print(f"  [dim]... {len(events) - SINCE_LAST_TURN_MAX} earlier events (type log)[/dim]")
            for event in events[-SINCE_LAST_TURN_MAX:]:
                self.console.print(f"  [dim]•[/dim] {escape(event.text)}")
        self.seen_by[seat] = len(log)

    def show_new_events(self, viewer: int | None) -> None:
        """Print the events ``viewer`` may see since the last call (after the bot choices that led to them)."""
        log = self.state.log
        new = [e for e in log[self.seen:] if e.visible_to(viewer)]
        self.seen = len(log)
        if new:
            self.flush_narration()
        for event in new:
            self.console.print(f"  [dim]•[/dim] {escape(event.text)}")

    def render(self, seat: int | None, focus: int | None = None) -> int:
        """Print the table as ``seat`` sees it; return the lines it took."""
        table = self.table_renderable(seat, focus)
        if table is None:
            return 0
        width = self.console.width
        if width < COMPACT_WIDTH and self.narrow_noted != width:  # said once per window width
            self.narrow_noted = width
            self.console.print(f"[yellow]This window is {width} columns wide: the table is drawn for "
                               f"{COMPACT_WIDTH} or more, so some of its lines are cut. Widen the window "
                               "and type show.[/yellow]")
        self.console.print(table)
        return self.lines_of(table)

    def choice_grid(self, actions: list, rows_free: int, first: int = 0) -> tuple[Table, str]:
        """The numbered choices laid out to fit ``rows_free`` lines: a grid and a footer line.

        In order of preference: one column with the ids; one column without
        them; several columns (numbers run down each column) when every label
        fits on one line of its column; otherwise a page of what fits from
        choice number ``first + 1`` on (``more`` shows the next page; the
        numbers stay those of the whole list).
        """
        width = self.console.width
        n = len(actions)
        numw = len(str(n))
        text_w = max(width - numw - 1, 20)
        self.shown_until = n

        def lines(text: str, w: int = text_w) -> int:  # lines a label folds into
            return max(1, math.ceil(len(text) / w))

        with_ids = [f"{a.label} ({a.id})" for a in actions]
        if sum(lines(t) for t in with_ids) <= rows_free:
            return self._column(actions, range(n), ids=True), ""
        if sum(lines(a.label) for a in actions) <= rows_free:
            return self._column(actions, range(n), ids=False), ""
        longest = max(len(a.label) for a in actions)
        cols = max(1, min(width // (numw + 2 + longest), n))
        if cols >= 2 and math.ceil(n / cols) <= rows_free:
            return self._columns(actions, range(n), cols), ""
        # Pages, from the choice ``first`` on: several columns when the labels are short,
        # else one column, as many as fit above a footer line.
        start = first if 0 <= first < n else 0
        if cols >= 2:
            stop = min(n, start + max(rows_free - 1, 1) * cols)
        else:
            stop, used = start, 0
            while stop < n and (stop == start or used + lines(actions[stop].label) <= max(rows_free - 1, 1)):
                used += lines(actions[stop].label)
                stop += 1
        shown = range(start, stop)
        grid = self._columns(actions, shown, cols) if cols >= 2 else self._column(actions, shown, ids=False)
        self.shown_until = stop
        footer = f"choices {start + 1}-{stop} of {n}: type more for the next page"  # one line at 80
        return grid, footer

    def _column(self, actions: Sequence[Action], which: Iterable[int], ids: bool) -> Table:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True, justify="right")
        grid.add_column(overflow="fold")
        for i in which:
            a = actions[i]
            grid.add_row(f"[cyan]{i + 1}[/cyan]",
                         escape(a.label) + (f" [dim]({escape(a.id)})[/dim]" if ids else ""))
        return grid

    def _columns(self, actions: Sequence[Action], which: Iterable[int], cols: int) -> Table:
        which = list(which)
        rows = math.ceil(len(which) / cols)
        numw = len(str(len(actions)))
        cell_w = self.console.width // cols - 1
        grid = Table.grid(padding=(0, 1))
        for _ in range(cols):
            grid.add_column(no_wrap=True, justify="right", width=numw)
            grid.add_column(no_wrap=True, width=max(cell_w - numw - 1, 8))
        for r in range(rows):
            cells = []
            for c in range(cols):
                k = r + c * rows
                if k < len(which):
                    i = which[k]
                    cells += [f"[cyan]{i + 1}[/cyan]", escape(actions[i].label)]
                else:
                    cells += ["", ""]
            grid.add_row(*cells)
        return grid

    def choices(self, seat: int, table_lines: int = 0) -> None:
        """Print the prompt and the numbered choices, fitted below a table of ``table_lines`` lines."""
        decision = asked(self.state, seat)
        prompt = f"[bold]{escape(seat_name(seat))}[/bold]: {escape(decision.prompt)}"
        self.console.print(prompt)
        prompt_lines = self.lines_of(Text.from_markup(prompt))
        actions = list(self.state.legal_actions(seat))
        height = self.window_height()
        rows_free = height - table_lines - prompt_lines - 2
        if rows_free < MIN_CHOICE_ROWS:  # the table alone fills the window: fit the choices to it
            rows_free = max(MIN_CHOICE_ROWS, height - prompt_lines - 2)
        grid, footer = self.choice_grid(actions, rows_free, self.page)
        self.console.print(grid)
        if footer:
            self.console.print(f"[dim]{escape(footer)}[/dim]")

    def show_turn(self, seat: int) -> None:
        """The table and the choices of ``seat``, fitted to the window."""
        lines = self.render(seat)
        self.choices(seat, lines)

    # -------------------------------------------------------------- input
    def parse_against(self, actions: Sequence[Action], token: str) -> str:
        """The action id a typed token names: a choice number from ``actions`` or an id."""
        if CHOICE_NUMBER.fullmatch(token):
            n = int(token)
            if 1 <= n <= len(actions):
                return actions[n - 1].id
            raise DicetableError(f"there is no choice {n}: choose 1 to {len(actions)}")
        return token  # an action id; apply() explains if it is not legal now

    def print_help(self, seat: int) -> None:
        """``help``: the decision's prompt and help, the input rules, the commands and the choice ids."""
        decision = asked(self.state, seat)
        self.console.print(f"[bold]{escape(decision.prompt)}[/bold]")
        if decision.help:
            self.console.print(escape(decision.help))
        for rule in INPUT_RULES:
            self.console.print(f"[dim]•[/dim] {escape(rule)}")
        for name, text in COMMANDS:
            self.console.print(f"  [cyan]{escape(name)}[/cyan]: {escape(text)}")
        ids = ", ".join(f"{i} {a.id}" for i, a in enumerate(self.state.legal_actions(seat), start=1))
        self.console.print(f"[dim]Choice ids: {escape(ids)}[/dim]")

    def print_rules(self, seat: int, name: str) -> None:
        """``rules``: the help sections for the current decision, or one component / section by name."""
        help_ = spec_of(self.state).help.for_table(self.state.players, self.state.options)  # what applies here
        names = ", ".join(c.name for c in help_.component)
        if name:
            info = help_.component_info(name)
            if info is not None:
                self.console.print(f"[bold]{escape(info.name)}[/bold] [dim]({escape(info.source)})[/dim]")
                self.console.print(escape(info.text))
                return
            key = name.strip().lower()
            for section in help_.section:
                if key in (section.id.lower(), section.title.lower()):
                    self._print_section(section)
                    return
            titles = ", ".join(s.title for s in help_.section)
            raise DicetableError(f"no rule or piece called {name!r}; pieces: {names or 'none listed'}; "
                                 f"sections: {titles or 'none listed'}")
        decision = asked(self.state, seat)
        sections = help_.for_decision(decision.kind)
        for section in sections:
            self._print_section(section)
        if not sections:
            self.console.print(escape(decision.help or decision.prompt))
        if names:
            self.console.print(f"[dim]Pieces (type rules NAME): {escape(names)}[/dim]")
        others = [s.title for s in help_.section if s not in sections]
        if others:
            self.console.print(f"[dim]Other sections (type rules TITLE): {escape(', '.join(others))}[/dim]")

    def _print_section(self, section: HelpSection) -> None:
        self.console.print(f"[bold]{escape(section.title)}[/bold] [dim]({escape(section.source)})[/dim]")
        self.console.print(escape(section.text.strip()))

    def print_scores(self, seat: int | None) -> None:
        """``scores``: every seat's public score (the same for every viewer), then ``seat``'s own
        hidden part on its own line (``GameState.own_score``)."""
        self.console.print("[bold]Scores so far[/bold] " + escape(score_lines(self.state, seat)))

    def command(self, seat: int, line: str) -> bool:
        """Handle a command line; True if it was one."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word in ("help", "?"):
            self.print_help(seat)
            return True
        if word == "rules":
            self.print_rules(seat, rest)
            return True
        if word == "scores":
            if rest:
                raise DicetableError(f"scores takes nothing after it, got {rest!r}")
            self.print_scores(seat)
            return True
        if word == "more":
            n = len(self.state.legal_actions(seat))
            self.page = self.shown_until if self.shown_until < n else 0  # the first choice not shown yet
            self.choices(seat, 0)
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
            path = self.save(Path(rest).expanduser() if rest else None)
            self.console.print(f"Saved to {escape(str(path))}. Continue with: {escape(self.resume_command(path))}")
            return True
        if word == "load":
            rest = unquote(rest)
            if not rest:
                raise DicetableError("say which file to load: load FILE")
            self.load(Path(rest).expanduser(), rest)
            return True
        if word == "hint":
            if rest:
                raise DicetableError(f"hint takes nothing after it, got {rest!r}")
            if self.hint is None:
                raise DicetableError("hints are not available for this game")
            if self.console.is_terminal:
                with self.console.status(Elapsed("The search bot is looking for a hint"), spinner="dots"):
                    rows = self.hint(self.state, seat)
            else:
                rows = self.hint(self.state, seat)
            self.console.print(f"[dim]{HINT_HEADER}[/dim]")
            for row in rows:
                self.console.print(hint_line(row))
            return True
        if word in ("show", "table"):
            if not rest:
                self.show_turn(seat)
                return True
            if not CHOICE_NUMBER.fullmatch(rest) or not 1 <= int(rest) <= self.state.players:
                raise DicetableError(f"show takes a player number from 1 to {self.state.players}, got {rest!r}")
            lines = self.render(seat, focus=int(rest) - 1)
            if spec_of(self.state).text_view is None:
                self.console.print("[dim](this game draws every player's board in one table)[/dim]")
            self.choices(seat, lines)
            return True
        if word in QUIT_WORDS:
            raise Quit
        return False

    def load(self, path: Path, typed: str) -> None:
        """``load FILE``: continue a saved game of any game or player count, saying what changed.

        The people and the bot level come from the save; a save without them
        keeps this table's people when their seats exist there (else Player 1).
        """
        state, settings = load_table_file(path)  # a bad file leaves this game on the table, unsaved
        # The game on the table is saved first, as quit saves it; when the file to load is its own
        # save, to a new file, so that both the saved position and this one can be continued.
        own = self.save_path is not None and path.resolve() == self.save_path.resolve()
        try:
            saved = self.save(new_file_path(self.save_dir, self.state.game_id) if own else None)
        except DicetableError as exc:
            raise DicetableError(f"not loaded: the game on the table could not be saved first "
                                 f"({one_line(exc)})") from None
        before = describe_table(self.state, self.humans, self.bot_level)
        was_hot_seat = len(self.humans) > 1
        if settings is not None:
            humans, level = settings["humans"], settings["bot"] or self.bot_level
        else:
            humans = {s for s in self.humans if s < state.players} or ({0} if self.humans else set())
            level = self.bot_level
        self.bots = make_bots(state, humans, level)
        self.state, self.humans, self.bot_level = state, humans, level
        self.save_path = path
        self.seen = self.seen_at_start = len(state.log)
        self.seen_by = {}
        self.last_human = None
        self.resumed = True
        self.page = 0
        self.reloaded = True
        after = describe_table(state, humans, level)
        switched = "" if after == before else f" (this table was {before})"
        if was_hot_seat or len(humans) > 1:  # the seat on screen may not be the one to move in the save
            self.clear_screen()
        self.console.print(f"The game on the table was saved to {escape(str(saved))}. "
                           f"Continue with: {escape(self.resume_command(saved))}")
        self.console.print(f"Loaded {escape(typed)}: {escape(after)}{escape(switched)}.")

    def clear_screen(self) -> None:
        """Clear the screen and, on a terminal, its scrollback too.

        In hot-seat play the previous seat's private view (and what it typed)
        must not stay on screen, nor be one scroll away.
        """
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")  # erase the scrollback (xterm, tmux, most terminals)
            self.console.file.flush()

    def forced(self, seat: int) -> str | None:
        """Make the single possible choice of ``seat``, if there is just one; return its id.

        A single choice that throws the turn away (``GameSpec.throws_turn_away``, a
        Kingdom of Dice die that leaves no valid result) is not made unseen: the table, the choice
        and why the turn ends are shown and the person presses Enter (or quits, or uses a command;
        load waits until the step is made). Raises :class:`Quit` when the person quits there.
        """
        if self.state.is_over or seat not in self.state.to_move:
            return None
        actions = self.state.legal_actions(seat)
        if len(actions) != 1:
            return None
        action = actions[0]
        warning = spec_of(self.state).throws_turn_away(self.state, seat, action.id)
        if warning:
            self.page = 0
            self.show_turn(seat)
            self.console.print(f"Only one choice for {escape(seat_name(seat))}: {escape(action.label)}. "
                               f"{escape(warning)} Your turn ends with it.")
            while True:
                answer = self.read("Press Enter to go on (or type quit): ").strip()
                word = answer.split()[0].lower() if answer else ""
                if word in QUIT_WORDS:
                    raise Quit
                if not word or word in YES or answer in ("1", action.id):
                    break
                try:
                    if word == "load":
                        raise DicetableError("load waits until this step is made: press Enter first")
                    if not self.command(seat, answer):
                        raise DicetableError(f"{answer!r}: the only choice is {action.label}; press Enter "
                                             f"to make it, or {UNKNOWN_WORD_TIP}")
                except (DicetableError, ValueError) as exc:
                    self.console.print(f"[red]{escape(one_line(exc))}[/red]")
        else:
            self.console.print(f"[dim]Only one choice for {escape(seat_name(seat))}: "
                               f"{escape(action.label)} (made for you).[/dim]")
        self.state.apply(action.id, seat)
        self.show_new_events(self.screen_viewer(seat))
        return action.id

    def screen_viewer(self, seat: int) -> int | None:
        """Whose events are shown while ``seat`` plays: that seat alone, or the public in hot-seat."""
        return seat if len(self.humans) == 1 else None

    def confirmed(self, seat: int, action_id: str) -> bool:
        """Ask ``yes`` for a choice the game flags (``GameSpec.confirm_warnings``); True to go ahead."""
        warning = spec_of(self.state).confirm_warnings(self.state, seat).get(action_id)
        if not warning:
            return True
        answer = self.read(f"{warning} Type yes to do it anyway: ")
        return answer.strip().lower() in YES

    def human_turn(self, seat: int) -> None:
        """One person's decision: hand-off (hot-seat), forced choices, the table and choices, typed lines.

        Returns when the seat's decision is made, a new chance came up, or a save was loaded;
        raises :class:`Quit` or EOFError when the person leaves.
        """
        hot_seat = len(self.humans) > 1
        resumed = hot_seat and self.last_human is None and self.resumed
        self.resumed = False
        handed_over = hot_seat and (self.last_human not in (None, seat) or resumed)
        # the first private view of a new hot-seat game: anyone may be at the keyboard as it starts
        first = hot_seat and self.last_human is None and not resumed
        if handed_over or first:
            if handed_over and not resumed:  # a continued game has drawn no seat's view yet: keep the "Loaded" line
                self.clear_screen()  # (nor has a new one: its opening events are public, they stay)
            self.console.rule(f"Hand the keyboard to {seat_name(seat)}")
            answer = self.read(f"{seat_name(seat)}, press Enter when only you can see the screen "
                               "(or type quit). ")
            if answer.strip().lower() in QUIT_WORDS:
                raise Quit
        self.last_human = seat
        if handed_over:
            # The clear wiped what happened meanwhile; show what this seat may see of it.
            self.show_since_last_turn(seat)
        elif hot_seat and seat not in self.seen_by:
            # Nothing was wiped: the public events are on the screen; add what only this seat may see.
            self.show_since_last_turn(seat, private_only=True)
        if self.forced(seat) is not None:
            self.seen_by[seat] = len(self.state.log)
            return  # the run loop comes back here if the seat still decides
        self.page = 0
        self.show_turn(seat)
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
                    if line.split()[0].lower() not in ("show", "table", "more"):
                        self.console.print("[dim](show: the table and your choices again)[/dim]")
                    continue
                if self.play_line(seat, line):
                    return
                if self.forced(seat) is not None:  # new dice left a single choice
                    self.seen_by[seat] = len(self.state.log)
                    return
                self.page = 0
                self.show_turn(seat)  # the table changed (dice set aside, a die marked)
            except (DicetableError, ValueError) as exc:
                self.console.print(f"[red]{escape(one_line(exc))}[/red]")
                self.choices(seat, 0)

    def play_line(self, seat: int, line: str) -> bool:
        """Make the choices typed on ``line``; True when the seat's decision is over for now."""
        # Every number on the line refers to the list shown when it was typed.
        shown = list(self.state.legal_actions(seat))
        tokens = [t for t in re.split(r"[\s,]+", line) if t]
        ids = [self.parse_against(shown, token) for token in tokens]
        n = 0
        made_for_you = False  # a single possible choice was made during this line
        while n < len(ids):
            action_id = ids[n]
            chance = self.state.chance_mark
            if not self.confirmed(seat, action_id):
                self.console.print("[yellow]Not done: choose again.[/yellow]")
                return False
            try:
                self.state.apply(action_id, seat)
            except DicetableError as exc:
                why = one_line(exc)
                typed_id = not CHOICE_NUMBER.fullmatch(tokens[n])
                if typed_id and all(a.id != action_id for a in shown):
                    why += f"; {UNKNOWN_WORD_TIP}"  # a word that is neither a choice nor a command
                if n == 0:
                    raise DicetableError(why) from None
                # the note matters when a step was made for the player: by the terminal (a single
                # choice), or perhaps by the game itself where an id typed for a later step is refused
                single = ("; a step with a single possible choice is made for you"
                          if made_for_you or (typed_id and all(a.id != action_id for a in shown)) else "")
                raise DicetableError(f"the line stopped at {tokens[n]!r} (the choices before it were made"
                                     f"{single}): {why}") from None
            n += 1
            self.show_new_events(self.screen_viewer(seat))
            made = self.forced(seat) if self.state.chance_mark == chance else None
            made_for_you = made_for_you or made is not None
            if made is not None and n < len(ids) and ids[n] == made:
                n += 1  # the person typed the forced choice too: it is used up
            if self.state.is_over or seat not in self.state.to_move:
                self.seen_by[seat] = len(self.state.log)
                if n < len(ids):
                    self.console.print("[yellow]Your decision is complete; the rest of the line was ignored.[/yellow]")
                return True
            if n < len(ids) and self.state.chance_mark != chance:
                # The rest was typed before these dice (or cards) came up.
                self.console.print("[yellow]New dice came up; the rest of the line was ignored: "
                                   "choose again.[/yellow]")
                return True  # the run loop shows the table as it is now
        return False

    def bot_turn(self, seat: int) -> None:
        """Let the bot of ``seat`` choose (a spinner with the time for the search levels) and narrate it."""
        bot = self.bots[seat]
        state = self.state
        if getattr(bot, "name", "").partition("@")[0] in SEARCH_BOTS and self.console.is_terminal:
            with self.console.status(Elapsed(f"{seat_name(seat)} ({bot.name} bot) is thinking"),
                                     spinner="dots"):
                action = bot.choose(state, seat)
        else:
            action = bot.choose(state, seat)
        aid = action.id
        label = next((a.label for a in state.legal_actions(seat) if a.id == aid), aid)
        last = getattr(bot, "last", None)  # a search bot's Choice: say how long it thought
        if last is not None and getattr(last, "how", "") in ("search", "planner") and last.ms >= 100:
            label = f"{label} (after {last.ms / 1000:.1f} s of thought)"
        alone = len(state.to_move) == 1
        events = state.apply(aid, seat)
        # The label is shown only when the choice is public: made alone (not a simultaneous
        # secret choice) and producing no event (a face-down bid or a Duke emits a hidden one).
        if alone and not events:  # a choice with events is told by them
            self.narration.append((seat, label))

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
                    self.flush_narration()
                    self.human_turn(humans[0])
                else:
                    self.bot_turn(to_move[0])
                if self.narration and (self.state.is_over or self.state.to_move[:1] != to_move[:1]):
                    self.flush_narration()
                self.show_new_events(self.viewer())
        except (Quit, EOFError, KeyboardInterrupt):
            self.flush_narration()
            self.save_and_say("\nGame saved to")
            return self.state
        except Exception as exc:  # a bug must not lose the game: save it, then report it
            self.save_and_say(f"\n[red]Something went wrong ({escape(type(exc).__name__)}: "
                              f"{escape(one_line(exc))}).[/red] The game was saved to")
            raise
        self.flush_narration()
        self.finish()
        return self.state

    def save_and_say(self, lead: str) -> None:
        """Save the game and print ``lead``, the file and the command that continues it."""
        try:
            path = self.save()
        except DicetableError as exc:
            self.console.print(f"\n[red]The game could not be saved: {escape(one_line(exc))}[/red]")
            return
        self.console.print(f"{lead} {escape(str(path))}. Continue with: {escape(self.resume_command(path))}")

    def finish(self) -> None:
        """The end: the whole table, the score sheet (who won and why is its caption), the final
        scores (a solo opponent's too), the seed (now harmless) and the replay file."""
        self.render(None)
        sheet = self.state.score_sheet()
        self.console.print(sheet_table(sheet))
        scores = ", ".join(f"{name}: {total}" for name, total in final_scores(sheet))
        self.console.print(f"[bold]Final scores[/bold] {escape(scores)}")
        self.console.print(f"[dim]Seed of this game: {self.state.seed}[/dim]")
        try:
            path = write_json(new_file_path(self.replay_dir, self.state.game_id), self.state.replay_record())
        except DicetableError as exc:
            self.console.print(f"[red]The replay could not be written: {escape(one_line(exc))}[/red]")
            return
        self.console.print(f"Replay written to {escape(str(path))} "
                           f"({escape(program_name())} replay {escape(shlex.quote(str(path)))}).")


def final_scores(sheet: ScoreSheet) -> list[tuple[str, int]]:
    """``(name, total)`` of every line of a finished game's score sheet, seats in seat order and
    then a solo opponent (Kingdom of Dice's Mischievous Cat, rulebook: solo rules), the name
    capitalised as it starts a list entry ("The Mischievous Cat")."""
    return [(line.name[:1].upper() + line.name[1:], line.total) for line in sheet.lines]


def sheet_table(sheet: ScoreSheet) -> Table:
    """The end screen's score sheet: a row per seat and solo opponent, a column per rulebook
    category, the total and the shown tie-break measures; the outcome sentence as its caption."""
    shown = [i for i, m in enumerate(sheet.measures) if m.shown]
    # a tie-break column is headed by its measure alone and explained under the table, so the
    # heading stays two rows high in an 80-column terminal
    notes = [f"tie-break: {sheet.measures[i].name} ({'more' if sheet.measures[i].higher_wins else 'fewer'} wins)"
             for i in shown]
    table = Table(title=f"Score sheet ({sheet.source})", caption="\n".join([sheet.outcome, *notes]),
                  caption_justify="left", box=box.SIMPLE_HEAD, show_edge=False, collapse_padding=True)
    table.add_column("player")
    for name in sheet.categories:
        table.add_column(name, justify="right")
    table.add_column("score", justify="right", style="bold")
    for i in shown:
        table.add_column(sheet.measures[i].name, justify="right")
    table.add_column("")
    for line in sorted(sheet.lines, key=lambda ln: -ln.total):
        ties = [("-" if line.ties[i] is None else str(line.ties[i])) if i < len(line.ties) else "-" for i in shown]
        table.add_row(escape(line.name[:1].upper() + line.name[1:]), *map(str, line.points), str(line.total), *ties,
                      "wins" if line.won else "")
    return table


def one_line(exc: BaseException) -> str:
    """An exception's message on one line."""
    return " ".join(str(exc).split()) or type(exc).__name__


def unquote(text: str) -> str:
    """``'"my save.json"'`` -> ``my save.json`` (a path typed with quotes around it)."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1].strip()
    return text


def dump_json(data: Any) -> str:
    """Compact JSON for ``--json`` outputs."""
    return json.dumps(data, indent=1)
