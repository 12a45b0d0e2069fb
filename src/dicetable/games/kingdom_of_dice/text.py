"""Terminal view of a Kingdom of Dice table, drawn from ``observation(seat)`` only.

``text_view(obs, seat, width=120, focus=None)`` returns a rich renderable:

* wide (``width >= 120``, at most 26 lines): the board's spaces 1-32 with the
  Crown markers on them (castle end on the right), the round's Influence
  cards beside the players' cards, scores and markers left, then the dice
  (those showing and those set aside) and the result they make;
* compact (``width < 120``, at most 12 lines of at most ``width`` columns):
  the same in one line per subject.

Everything in Kingdom of Dice is on the table (only the draw pile's order is
hidden), so every seat and a spectator see the same table; ``seat`` only marks
"you" and ``focus`` marks the player shown (``show N``): every player's
collected Influence cards (rulebook: End of a Round) already fit on their
line, special cards by name.
"""

from __future__ import annotations

from rich.console import Group, JustifyMethod, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dicetable.engine import seat_name

from . import viewdata as vd
from .components import COMPONENTS, SPACES
from .viewdata import Observation, colour, short_card

MARKERS_TO_END = COMPONENTS.round.markers_to_end
ROUNDS = COMPONENTS.round.rounds
STYLE = {"red": "bold red", "blue": "bold blue", "yellow": "bold yellow", "green": "bold green"}
CAT_STYLE = "bold magenta"


def seat_label(seat: int, you: int | None = None) -> Text:
    """"Player 2 (blue)" in the seat's colour, with " - you" for the viewer."""
    label = vd.owner_name(seat) + (" - you" if seat == you else "")
    return Text(label, style=STYLE.get(colour(seat), "bold"))


def _owner_text(owner, short: bool = True) -> Text:
    """A marker's owner as ``P2``/``Cat`` (short) or the full seat label."""
    name = vd.owner_short(owner) if short else vd.owner_name(owner)
    return Text(name, style=CAT_STYLE if owner == "cat" else STYLE.get(colour(owner), "bold"))


def _default_focus(obs: Observation, seat: int | None) -> int:
    if seat is not None:
        return seat
    return obs["current"]


def _title(obs: Observation, seat: int | None, compact: bool = False) -> Text:
    text = Text()
    text.append("Kingdom of Dice", style="bold")
    text.append(f", round {obs['round']}/{ROUNDS}" if compact else f", round {obs['round']} of {ROUNDS}")
    if obs["is_over"]:
        text.append(": game over", style="bold")
        return text
    text.append(": ")
    if compact:
        current = obs["current"]
        text.append(f"P{current + 1} {colour(current)}" + (" (you)" if current == seat else ""),
                    style=STYLE.get(colour(current), "bold"))
    else:
        text.append_text(seat_label(obs["current"], seat))
    text.append(" to move", style="bold")
    on_board = vd.markers_on_board(obs)
    text.append(f"; {on_board}/{MARKERS_TO_END} markers on the board" if compact else
                f"; {on_board} of {MARKERS_TO_END} markers on the board", style="dim")
    return text


def _board_wide(obs: Observation, seat: int | None) -> Table:
    target = vd.target_space(obs)
    owners = vd.owners(obs)
    table = Table.grid(padding=(0, 0))
    table.add_column(width=7)
    for _ in SPACES:
        table.add_column(justify="right", width=3)
    table.add_column(width=8)
    numbers = [Text("space", style="dim")]
    marks = [Text("marker", style="dim")]
    for s, owner in zip(SPACES, owners):
        style = "bold reverse yellow" if s == target else "dim cyan"
        numbers.append(Text(str(s), style=style))
        marks.append(_owner_text(owner) if owner is not None else Text("·", style="dim"))
    numbers.append(Text(" castle", style="bold"))
    marks.append(Text(""))
    table.add_row(*numbers)
    table.add_row(*marks)
    return table


def _cards_table(obs: Observation) -> Table:
    table = Table(title=f"Influence cards, round {obs['round']}", box=None, padding=(0, 1),
                  title_justify="left")
    table.add_column("card")
    table.add_column("value", justify="right")
    table.add_column("taken now by")
    claims = vd.claims(obs)
    for rank, card in enumerate(obs["market"]):
        holder = _owner_text(claims[rank], short=False) if rank < len(claims) else Text("-", style="dim")
        table.add_row(card["name"], str(card["value"]), holder)
    if not obs["market"]:
        table.add_row(Text("(handed out)", style="dim"), "", "")
    return table


def _players_table(obs: Observation, seat: int | None, focus: int) -> Table:
    table = Table(title="Players", box=None, padding=(0, 1), title_justify="left")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("player", "left"), ("markers left", "right"), ("cards won", "left"), ("points", "right"))
    for col, just in columns:
        table.add_column(col, justify=just)
    first = obs["first_player"]
    for s, won in enumerate(obs["won"]):
        label = Text("▸ " if s == focus else "  ")
        label.append_text(seat_label(s, seat))
        if s == first and not obs["is_over"]:
            label.append(" *", style="dim")
        cards = " ".join(short_card(c) for c in won) or "-"
        table.add_row(label, str(obs["markers_left"][s]), cards, str(obs["scores"][s]))
    cat = obs.get("cat")
    if cat is not None:
        table.add_row(Text(f"Mischievous Cat (level {cat['level']})", style=CAT_STYLE),
                      "stay: " + ", ".join(map(str, cat["spaces"])),
                      " ".join(short_card(c) for c in cat["won"]) or "-", str(cat["score"]))
    return table


def _dice_line(obs: Observation, compact: bool = False) -> Text:
    text = Text()
    if obs["is_over"]:
        return text
    gap = " | " if compact else "    "
    text.append("Showing: " if compact else "Dice showing: ")
    text.append(vd.dice_text(obs, "roll") if obs["roll"] else "no dice", style="bold")
    text.append(gap + "Set aside: ")
    text.append(vd.dice_text(obs, "kept"), style="bold green")
    value = obs["result_value"]
    if value is not None:
        text.append(f" = worth {value}", style="green")
    elif obs["kept"]:
        text.append(" (not valid yet)" if compact else " (not a valid result yet)", style="dim")
    if vd.target_space(obs) is not None:
        text.append(gap + f"place a Crown marker on space {vd.target_space(obs)}?", style="bold yellow")
    return text


def _verdict(obs: Observation) -> Text:
    if not obs["is_over"]:
        return Text("")
    winners = obs["winners"]
    if winners:
        return Text("Winner: " + ", ".join(seat_name(s) for s in winners), style="bold green")
    return Text("The Mischievous Cat wins.", style="bold magenta")


def _wide(obs: Observation, seat: int | None, focus: int, width: int):
    middle = Table.grid(padding=(0, 4))
    middle.add_column()
    middle.add_column()
    middle.add_row(_cards_table(obs), _players_table(obs, seat, focus))
    parts: list[RenderableType] = [_title(obs, seat), _board_wide(obs, seat), middle, _dice_line(obs)]
    if obs["is_over"]:
        parts.append(_verdict(obs))
    parts.append(Text("* first player this round;  ▸ the player shown (show N);  cards go to the markers "
                      "from the highest space down.", style="dim"))
    return Panel(Group(*parts), width=min(width, 120), padding=(0, 1))


def _compact(obs: Observation, seat: int | None, focus: int, width: int):
    lines = [_title(obs, seat, compact=True)]
    marks = Text("Board: ")
    occupied = [(s, owner) for s, owner in zip(SPACES, vd.owners(obs)) if owner is not None]
    for i, (s, owner) in enumerate(occupied):
        if i:
            marks.append(", ")
        marks.append(f"{s} ")
        marks.append_text(_owner_text(owner))
    if not occupied:
        marks.append("no Crown markers", style="dim")
    lines.append(marks)
    cards = Text("Cards (best first, < taken now by): ")
    claims = vd.claims(obs)
    for rank, card in enumerate(obs["market"]):
        if rank:
            cards.append(" ")
        cards.append(short_card(card["id"]))
        if rank < len(claims):
            cards.append("<")
            cards.append_text(_owner_text(claims[rank]))
    if not obs["market"]:
        cards.append("handed out", style="dim")
    lines.append(cards)
    first = obs["first_player"]
    for s, won in enumerate(obs["won"]):
        line = Text("▸ " if s == focus else "  ")
        line.append(f"P{s + 1} {colour(s)}" + (" (you)" if s == seat else ""), style=STYLE.get(colour(s), "bold"))
        if s == first and not obs["is_over"]:
            line.append(" *", style="dim")
        line.append(f": {obs['scores'][s]} points, {obs['markers_left'][s]} markers left, cards ")
        line.append(" ".join(short_card(c) for c in won) or "-")
        lines.append(line)
    cat = obs.get("cat")
    if cat is not None:
        lines.append(Text(f"Cat (level {cat['level']}): {cat['score']} points, cards "
                          + " ".join(short_card(c) for c in cat["won"]), style=CAT_STYLE))
    dice = _dice_line(obs, compact=True)
    if obs["is_over"]:
        lines.append(_verdict(obs))
    elif dice.plain:
        lines.append(dice)
    for line in lines:
        line.overflow = "fold"
    return Group(*lines)


def text_view(obs: Observation, seat: int | None, *, width: int = 120, focus: int | None = None):
    """The table as a rich renderable drawn from ``obs`` (``state.observation(seat)``) only.

    ``width`` is the terminal's width in columns (``< 120`` selects the
    compact layout, at most 12 lines); ``focus`` is the seat marked as shown
    (default: the viewer, or the seat to move for a spectator). Raises
    ``ValueError`` for a ``focus`` that is not a seat of the game.
    Rulebook: How to Play, End of a Round, Solo Mode.
    """
    players = vd.players(obs)
    if focus is None:
        focus = _default_focus(obs, seat)
    elif isinstance(focus, bool) or not isinstance(focus, int) or not 0 <= focus < players:
        raise ValueError(f"focus must be a seat from 0 to {players - 1}, got {focus!r}")
    if width >= 120:
        return _wide(obs, seat, focus, width)
    return _compact(obs, seat, focus, width)


class _FitToConsole:
    """A renderable that draws ``text_view`` at the width of the console printing it."""

    def __init__(self, obs: Observation, seat: int | None):
        self.obs, self.seat = obs, seat

    def __rich_console__(self, _console, options):
        yield text_view(self.obs, self.seat, width=options.max_width)


def render(state, seat: int | None = None):
    """The older entry point: ``text_view(state.observation(seat), seat)`` at the console's width."""
    return _FitToConsole(state.observation(seat), seat)
