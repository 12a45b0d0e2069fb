"""Terminal rendering of a Kingdom of Dice table with rich."""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dicetable.engine import seat_name

from .components import CARD_NAME, CARD_VALUE, COMPONENTS, SPACES
from .rules import CAT, EMPTY, OVER, PLACE, KingdomOfDiceState, faces_text, result_value

COLOURS = COMPONENTS.markers.colours
STYLE = {"red": "bold red", "blue": "bold blue", "yellow": "bold yellow", "green": "bold green"}


def seat_label(seat: int) -> Text:
    """"Player 2 (blue)" in the seat's colour; the Cat in magenta."""
    if seat == CAT:
        return Text("Cat", style="bold magenta")
    colour = COLOURS[seat % len(COLOURS)]
    return Text(f"{seat_name(seat)} ({colour})", style=STYLE.get(colour, "bold"))


def _marker(owner: int) -> Text:
    if owner == EMPTY:
        return Text("·", style="dim")
    if owner == CAT:
        return Text("C", style="bold magenta")
    colour = COLOURS[owner % len(COLOURS)]
    return Text(f"P{owner + 1}", style=STYLE.get(colour, "bold"))


def _board(state: KingdomOfDiceState) -> Table:
    table = Table(title="Board (castle end on the right)", show_lines=False, box=None, padding=(0, 1))
    half = (len(SPACES) + 1) // 2
    rows = (list(range(half)), list(range(half, len(SPACES))))
    for _ in range(half):
        table.add_column(justify="center")
    for idx in rows:
        table.add_row(*[Text(str(SPACES[i]), style="dim cyan") for i in idx])
        table.add_row(*[_marker(state.board[i]) for i in idx])
    return table


def _market(state: KingdomOfDiceState) -> Table:
    table = Table(title=f"Influence cards, round {state.round_no}", box=None)
    table.add_column("#", justify="right")
    table.add_column("card")
    table.add_column("value", justify="right")
    table.add_column("claimed now by")
    owners = [state.board[i] for i in range(len(SPACES) - 1, -1, -1) if state.board[i] != EMPTY]
    for rank, card in enumerate(state.market):
        holder = seat_label(owners[rank]) if rank < len(owners) else Text("-", style="dim")
        table.add_row(str(rank + 1), CARD_NAME[card], str(CARD_VALUE[card]), holder)
    return table


def _players(state: KingdomOfDiceState) -> Table:
    table = Table(title="Players", box=None)
    for col in ("seat", "markers placed", "cards won", "points"):
        table.add_column(col)
    for s in range(state.players):
        won = ", ".join(str(CARD_VALUE[c]) for c in state.won[s]) or "-"
        table.add_row(seat_label(s), str(state.placed[s]), won, str(state.scores[s]))
    if state.players == 1:
        won = ", ".join(str(CARD_VALUE[c]) for c in state.cat_won) or "-"
        table.add_row(seat_label(CAT), "3 (never leave)", won, str(state.cat_score))
    return table


def _dice(state: KingdomOfDiceState) -> Text:
    if state.phase == OVER:
        return Text("")
    text = Text()
    text.append(f"{seat_name(state.current)}'s turn. ", style="bold")
    text.append("Dice showing: ")
    text.append(faces_text(state.rolled), style="bold white")
    text.append("   Set aside: ")
    text.append(faces_text(state.kept), style="bold green")
    value = result_value(state.kept)
    text.append(f"   (worth {value})" if value is not None else "   (not a valid result yet)", style="dim")
    if state.phase == PLACE:
        text.append(f"\nPlace on space {SPACES[state.target]}?", style="bold yellow")
    return text


def render(state: KingdomOfDiceState, seat: int | None = None):
    """A rich renderable of the whole (public) table; ``seat`` is the viewer (all is public here)."""
    parts = [_board(state), _market(state), _players(state), _dice(state)]
    if state.phase == OVER:
        if state.winners:
            verdict = "Winner: " + ", ".join(seat_name(s) for s in state.winners)
        else:
            verdict = "The Mischievous Cat wins."
        parts.append(Text(verdict, style="bold green"))
    return Panel(Group(*parts), title=f"Kingdom of Dice - round {state.round_no} of 3")
