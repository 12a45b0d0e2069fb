"""Terminal rendering of a Corsairs of Valeria table with rich.

Shows the race track as it lies on the table (Skull Island at the top, Start
Island at the bottom; split Tracks in two columns), the ships on it, the
islands on the dividing lines, Merchant ships and hazards; every Ship Board;
Skull Island's Silver and the supply; the dice (marked dice for re-roll) and
the Dice Actions still to execute. Everything in this game is public, so the
viewer ``seat`` only decides whose Captain text is spelled out.
"""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dicetable.engine import seat_name

from .components import (
    CAPTAINS,
    COLOURS,
    FACE_WORD,
    GROG_MAX,
    HAZARD_WORD,
    TREASURE_TO_WIN,
)
from .rules import F_ARRIVED, F_JAXN, OVER, CorsairsState, race_number

STYLE = {"purple": "bold magenta", "white": "bold white", "yellow": "bold yellow", "red": "bold red",
         "blue": "bold blue"}
FACE_STYLE = ("bold red", "bold red", "bold green", "bold white", "bold cyan", "bold yellow")
CELL = 33
GROUP_WORDS = ("Grog", "Silver", "Map", "Cannon")


def ship_style(seat: int) -> str:
    """The rich style of a seat's ship colour."""
    return STYLE.get(COLOURS[seat % len(COLOURS)], "bold")


def seat_label(seat: int) -> Text:
    """"Player 2 (white)" in the ship's colour."""
    return Text(f"{seat_name(seat)} ({COLOURS[seat]})", style=ship_style(seat))


def _reward(s: int, g: int) -> str:
    return " ".join(x for x in (f"+{s} Silver" if s else "", f"+{g} Grog" if g else "") if x)


def _cell(state: CorsairsState, node: int, lane: str | None, island: tuple) -> Text:
    track = state.track
    text = Text()
    if lane:
        text.append(f"{lane}: ", style="dim")
    h = track.hazard[node]
    m = track.merchant[node]
    if node == track.start:
        text.append("Start ", style="bold green")
    if h:
        text.append(HAZARD_WORD[h] + " ", style="bold red")
    elif m is not None:
        text.append(f"Merchant({_reward(*m).replace('+', '')}) ", style="bold cyan")
    elif node != track.start:
        text.append("· ", style="dim")
    if island != (0, 0):
        text.append(f"◆{_reward(*island)} ", style="green")
    for s in range(state.players):
        if state.pos[s] == node:
            style = ship_style(s) + (" reverse" if s == state.current and state.phase != OVER else "")
            text.append(f"P{s + 1}", style=style)
            text.append(" ")
    text.truncate(CELL, pad=True)
    return text


def track_view(state: CorsairsState) -> Text:
    """The race track, Skull Island first, one line per space.

    ``◆+1 Silver`` on a space marks the island on the dividing line just
    below it: crossing that line forwards (into the space) pays it.
    """
    track = state.track
    out = Text()
    skull = track.skull
    out.append(f"  Skull Island ({state.island} Silver) ", style="bold red")
    for s in range(state.players):
        if state.pos[s] == skull:
            out.append(f"P{s + 1} ", style=ship_style(s))
    out.append("\n")
    out.append("  (◆ an island: it pays when you sail forward into that space)\n", style="dim")
    for seg in range(len(track.segments) - 2, -1, -1):
        title, lanes = track.segments[seg]
        split = len(lanes) > 1
        head = f"  ── {title}{' - split: pick a side on entering' if split else ''} "
        out.append(head, style="bold blue")
        out.append("─" * max(2, 60 - len(head)) + "\n", style="blue")
        rows = max(len(nodes) for _, nodes, _ in lanes)
        for r in range(rows - 1, -1, -1):
            out.append(f"  {r + 1:>2} │ ", style="dim")
            for li, (name, nodes, islands) in enumerate(lanes):
                if li:
                    out.append("┃ ", style="bold green")
                if r < len(nodes):
                    out.append_text(_cell(state, nodes[r], name if split else None, islands[r]))
                else:
                    out.append(" " * CELL)
            out.append("\n")
    return out


def boards(state: CorsairsState) -> Table:
    """One row per Ship Board."""
    table = Table(box=None, padding=(0, 1), title="Ship Boards", title_justify="left")
    for col in ("ship", "Captain", "Treasure", "Silver", "Grog", "Maps to go"):
        table.add_column(col)
    track = state.track
    for s in range(state.players):
        cap = state.captain[s]
        name = Text(f"P{s + 1} {COLOURS[s]}", style=ship_style(s))
        if s == state.current and state.phase != OVER:
            name.append(" ◀", style="bold")
        cap_name = CAPTAINS[cap].name.removeprefix("Captain ") if cap >= 0 else "-"
        table.add_row(name, cap_name, f"{state.treasure[s]}/{TREASURE_TO_WIN}", str(state.silver[s]),
                      f"{state.grog[s]}/{GROG_MAX}", str(track.dist[state.pos[s]]))
    return table


def dice_view(state: CorsairsState) -> Text:
    """The dice with their numbers; dice marked for re-roll are flagged."""
    text = Text()
    if state.phase == OVER:
        return text
    text.append(f"{seat_name(state.current)}'s turn, phase {state.phase}. ", style="bold")
    if not state.dice:
        text.append("No dice rolled yet.")
        return text
    text.append("Dice: ")
    for i, f in enumerate(state.dice):
        marked = (state.marked >> i) & 1
        text.append(f"[{i + 1}] ", style="dim")
        text.append(FACE_WORD[f] + (" ↻" if marked else ""), style=FACE_STYLE[f] + (" reverse" if marked else ""))
        text.append("  ")
    if state.rerolls:
        text.append(f"({state.rerolls} re-roll{'s' if state.rerolls > 1 else ''})", style="dim")
    if state.phase == "C":
        todo = [f"{state.left[g]} {GROUP_WORDS[g]}{'s' if state.left[g] > 1 and g != 1 else ''}"
                for g in range(4) if state.left[g]]
        if state.flags & F_JAXN:
            todo.append("Lucky Jax'n")
        text.append("\nStill to execute: " + (", ".join(todo) if todo else "nothing"), style="italic")
    if state.flags & F_ARRIVED:
        text.append("\nThis ship reached Skull Island this turn.", style="bold red")
    return text


def render(state: CorsairsState, seat: int | None = None):
    """A rich renderable of the table as ``seat`` sees it (all public; ``seat`` picks the Captain text shown)."""
    race = race_number(state)
    parts = [track_view(state), boards(state)]
    who = seat if seat is not None else state.current
    cap = state.captain[who] if 0 <= who < state.players else -1
    if cap >= 0:
        parts.append(Text(f"{seat_name(who)}'s Captain, {CAPTAINS[cap].name}: {CAPTAINS[cap].text}", style="dim"))
    parts.append(Text(f"Skull Island: {state.island} Silver   Supply: {state.supply} Silver   "
                      f"Skull Island visits: {state.visits}/2", style="bold"))
    parts.append(dice_view(state))
    if state.phase == OVER:
        win = state.winners
        parts.append(Text(("Winner: " if len(win) == 1 else "Shared victory: ")
                          + ", ".join(seat_name(s) for s in win), style="bold green"))
    return Panel(Group(*parts), title=f"Corsairs of Valeria - turn {state.turn}, race {race} of 2")
