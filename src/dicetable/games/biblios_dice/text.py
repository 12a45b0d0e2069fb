"""Terminal view of a Biblios Dice table, drawn from ``observation(seat)`` only.

``text_view(obs, seat, width=120, focus=None)`` returns a rich renderable.
Everything comes from the observation (plus the fixed component data), so a
seat's screen can only show what that seat may see: other seats' Gold, VP
tokens, face-down Bidding Cards and Hidden Objectives never reach it.

* wide (``width >= 120``, at most 26 lines): the five Resource Tracks and the
  Bishop Track as rows of spaces with the markers on them (on a shared space
  the marker further left is ahead), the Value Dice, VP stacks, penalties,
  Gold ratios and Bishop Token stacks; the Mule's path; the dice; one line per
  player (Bishop Track, Gold and VP behind the shield when the viewer may see
  them, Bidding Cards, the auction); the viewer's shield and running score.
* compact (``width < 120``, at most 12 lines): one line per Resource Track
  (markers from first place down), one for the dice, one per player.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dicetable.engine import GameState, seat_name

from .rules.common import Marker
from .viewdata import (
    Observation, PlayerRow, cadfael_standing, last_auction_text, mover_names, observation, spaces_of,
)
from .components import (
    CADFAEL_COLOUR, COLOURS, MULE_FINAL, NRES, PENALTY, RATIOS, SYMBOL_NAMES,
    SYMBOLS, TOP, VP_STACKS, ratio_at,
)

STYLE = {"red": "bold red", "blue": "bold blue", "yellow": "bold yellow", "green": "bold green",
         "purple": "bold magenta", "grey": "bold white"}
PIPS = "⚀⚁⚂⚃⚄⚅"
_NAME = dict(zip(SYMBOLS, SYMBOL_NAMES))
_PHASE = {
    "reroll": "Phase I: roll the dice (one re-roll for 1 VP)",
    "select": "Phase III: select dice",
    "split": "Market: split the dice into two groups",
    "bid": "Market: auction (Bidding Cards face down)",
    "choose-group": "Market: the auction's winner chooses a group",
    "resolve": "Market: resolve a group of dice",
    "over": "game over",
}
_PHASE_SHORT = {
    "reroll": "Phase I: roll", "select": "Phase III: select dice", "split": "Market: split",
    "bid": "Market: auction", "choose-group": "Market: choose a group", "resolve": "Market: resolve a group",
    "over": "game over",
}
_TASK = {"adjust": "the Adjustment Die", "advance": "a Bishop Token", "convert": "the Conversion Rule"}


def marker_text(m: Marker, focus: int | None = None) -> Text:
    """A marker: ``P2`` in the seat's colour, ``Cf`` for Cadfael (underlined for the focus seat)."""
    if m == "cadfael":
        return Text("Cf", style=STYLE[CADFAEL_COLOUR])
    style = STYLE.get(COLOURS[m % len(COLOURS)], "bold")
    return Text(f"P{m + 1}", style=style + (" underline" if m == focus else ""))


def _digit(m: Marker, focus: int | None = None) -> Text:
    if m == "cadfael":
        return Text("C", style=STYLE[CADFAEL_COLOUR])
    style = STYLE.get(COLOURS[m % len(COLOURS)], "bold")
    return Text(str(m + 1), style=style + (" reverse" if m == focus else ""))


def seat_text(s: int, you: int | None = None) -> Text:
    """"Player 2 (blue)" in the seat's colour, with " - you" for the viewer."""
    colour = COLOURS[s % len(COLOURS)]
    return Text(f"{seat_name(s)} ({colour})" + (" - you" if s == you else ""), style=STYLE.get(colour, "bold"))


def dice_words(d: dict, short: bool = False, marked: dict | None = None, tiny: bool = False) -> str:
    """A dice set (observation shape) in words: ``"3 Ink, Gold 3, Adjustment +1"``.

    A single die is named without its count. ``short`` shortens the
    Adjustment Die; ``tiny`` (the tightest terminal layout only) also cuts
    resource names to three letters; ``marked`` (kind -> count) appends ``*``
    per die marked for the re-roll.
    """
    marked = marked or {}
    parts = []
    for i, s in enumerate(SYMBOLS):
        if d.get(s):
            count = "" if d[s] == 1 else f"{d[s]} "
            name = SYMBOL_NAMES[i][:3] if tiny else SYMBOL_NAMES[i]
            parts.append(f"{count}{name}" + "*" * marked.get(s, 0))
    if d.get("gold") is not None:
        parts.append(("Gold: gold for all" if d["gold"] == "gold-for-all" else f"Gold {d['gold']}")
                     + "*" * marked.get("gold", 0))
    if d.get("adjustment") is not None:
        adj = d["adjustment"]
        parts.append(("Adj " if short else "Adjustment ") + adj + "*" * marked.get("adjustment", 0))
    if marked.get("mule"):
        parts.append("Mule Die*")
    return ", ".join(parts) if parts else "no dice"


def _cards(values: Iterable[int]) -> str:
    return " ".join("pass" if v == 0 else str(v) for v in values) or "-"


def _status(obs: Observation, seat: int | None, compact: bool, level: int = 0) -> Text:
    text = Text()
    if compact:
        text.append("Biblios Dice" if level < 2 else "Biblios", style="bold")
        text.append(f" r{obs['round']}")
    else:
        text.append("Biblios Dice", style="bold")
        text.append(f", round {obs['round']}")
    if obs["is_over"]:
        winners = ", ".join(seat_name(s) for s in obs["winners"])
        text.append(f": game over, winner {winners}", style="bold green")
        return text
    first = obs["first_player"]
    if compact:
        text.append(f"; Monastery P{first + 1}; Mule {obs['mule'] + 1}/{MULE_FINAL + 1}")
    else:
        text.append(f"; Monastery Card: {seat_name(first)}")
    pending = obs.get("pending")
    if pending:
        doing = "resolve " + _TASK.get(pending[0], pending[0])
    else:
        doing = (_PHASE_SHORT if compact else _PHASE).get(obs["phase"], obs["phase"])
    text.append(f"; {doing}")
    if obs["to_move"]:
        if compact:
            text.append("; " + " ".join(mover_names(obs, seat, short=True)) + " to move", style="bold")
        else:
            text.append("; to move: " + ", ".join(mover_names(obs, seat)), style="bold")
    return text


# ------------------------------------------------------------------ wide
def _tracks_grid(obs: Observation, focus: int | None) -> Table:
    width = max(TOP)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, min_width=11)
    grid.add_column(no_wrap=True, min_width=5)
    for _ in range(width):
        grid.add_column(no_wrap=True, min_width=5, justify="left")
    grid.add_column(overflow="fold")
    head = [Text("track", style="dim"), Text("value", style="dim")]
    head += [Text(f"{s}", style="dim cyan") for s in range(1, width + 1)]
    head.append(Text("VP stacks, top first", style="dim"))
    grid.add_row(*head)
    for t, sym in enumerate(SYMBOLS):
        row = [Text(SYMBOL_NAMES[t] if t < NRES else "Bishop", style="bold")]
        if t < NRES:
            v = obs["value_dice"][sym]
            row.append(Text(f"{PIPS[v - 1]} {v}", style="bold"))
        else:
            row.append(Text(""))
        spaces = obs["tracks"][sym]
        for s in range(1, width + 1):
            if s > TOP[t]:
                row.append(Text(""))
                continue
            cell = Text()
            for m in spaces[s - 1]:
                cell.append_text(_digit(m, focus))
            if not spaces[s - 1]:
                cell.append("top" if s == TOP[t] else "·", style="dim")
            row.append(cell)
        if t < NRES:
            notes = []
            for k, (space, _) in enumerate(VP_STACKS):
                left = obs["vp_stacks"][sym][k]
                notes.append(f"sp{space}: " + (" ".join(map(str, left)) if left else "-"))
            row.append(Text("  ".join(notes), style="cyan"))
        else:
            row.append(Text("tokens " + " ".join(f"sp{b['space']}:{b['count']}"
                                                   for b in obs["bishop_stacks"]), style="cyan"))
        grid.add_row(*row)
        if t == NRES - 1:
            pen = [Text("penalty", style="dim"), Text("")]
            for s in range(1, width + 1):
                p = PENALTY[0].get(s)
                pen.append(Text(f"-{p}" if p else ("4th" if s == 4 else ""), style="dim red"))
            pen.append(Text("VP lost at the end", style="dim"))
            grid.add_row(*pen)
    ratios = dict(RATIOS)
    row = [Text("Gold ratio", style="dim"), Text("")]
    for s in range(1, width + 1):
        row.append(Text(f"{ratios[s]}:1" if s in ratios else "", style="dim yellow"))
    row.append(Text("Gold per VP", style="dim"))
    grid.add_row(*row)
    return grid


def _mule_line(obs: Observation) -> Text:
    text = Text("Mule: ")
    for i in range(MULE_FINAL + 1):
        if i == obs["mule"]:
            text.append("M", style="bold yellow reverse")
        else:
            text.append("·" if i < MULE_FINAL else "", style="dim")
        if i == MULE_FINAL:
            text.append("[market]", style="bold yellow" if i == obs["mule"] else "dim")
        text.append(" ")
    text.append(f" Mule Die {obs['mule_die']}", style="dim")
    return text


def _dice_lines(obs: Observation, short: bool, tiny: bool = False) -> list:
    phase = obs["phase"]
    lines = []
    if phase in ("reroll", "select"):
        line = Text("" if tiny else "Pool: " if short else "Dice pool: ", style="bold")
        line.append(dice_words(obs["pool"], short, obs["marked"], tiny), style="")
        if obs["marked"] and not tiny:
            line.append(" *=marked" if short else " (* marked to re-roll)", style="yellow")
        lines.append(line)
    elif phase == "split":
        line = Text("Split: " if tiny else "Market dice: ", style="bold")
        line.append(dice_words(obs["pool"], short, tiny=tiny))
        line.append(" | group of 3: " if short else "  group of 3 so far: ", style="bold")
        line.append(dice_words(obs["small_group"], short, tiny=tiny))
        lines.append(line)
    elif phase in ("bid", "choose-group", "resolve"):
        line = Text()
        for g, name in enumerate(("Large", "Small") if short else ("Large group", "Small group")):
            if g:
                line.append(" | ")
            resolving = obs.get("resolving_group") == ("large", "small")[g]
            mark = (" (now)" if short else " (being resolved)") if resolving else ""
            line.append(f"{name}{mark}: ", style="bold")
            line.append(dice_words(obs["groups"][g], short, tiny=tiny))
        lines.append(line)
    return lines


def _bid_text(p: PlayerRow, seat: int | None, short: bool = False) -> str:
    if p["sitting_out"]:
        return "sits out (overbid)" if short else "sits out this auction (overbid)"
    shown = p["revealed"]
    text = ""
    if shown:
        text = f"bid {sum(shown)}" if short else f"bid {'+'.join(_cards(shown).split())} = {sum(shown)}"
    if p["face_down_placed"]:
        own = p.get("face_down") if p["seat"] == seat else None
        down = "down" if short else "card face down"
        text += (", " if text else "") + (f"{down} ({_cards([own])})" if own is not None else down)
    elif p["bidding"]:
        text += (", " if text else "") + ("choosing" if short else "choosing a card")
    elif shown:
        text += ", passed"
    return text


def _players_grid(obs: Observation, seat: int | None, focus: int | None, compact: bool,
                  level: int = 0) -> list[Text]:
    lines = []
    standing = obs["standing"]
    objectives = obs["hidden_objectives"]
    bishop_at = spaces_of(obs, "bishop")
    for p in obs["players"]:
        s = p["seat"]
        line = Text("▸ " if s == focus else "  ")
        if compact:
            colour = COLOURS[s % len(COLOURS)]
            name = f"P{s + 1}" if level >= 3 else f"P{s + 1} {colour}"
            line.append(name + (" (you)" if s == seat else ""), style=STYLE.get(colour, "bold"))
        else:
            line.append_text(seat_text(s, seat))
        if s == obs["first_player"] and not obs["is_over"] and level < 3:
            line.append(" [Monastery]", style="dim")
        space = bishop_at[s]
        ratio = ratio_at(space)
        line.append(f": Bishop {space}" + (f" ({ratio}:1)" if ratio and level < 3 else ""))
        gold = p["gold"]
        vp = p["vp_tokens"]
        if gold is not None:
            line.append(f", Gold {gold}, VP tokens {vp}" if level < 2 else f", Gold {gold}, VP {vp}")
        elif level < 2:
            line.append(", Gold ?, VP ?", style="dim")
        if objectives and p["objective"]:
            line.append(f", objective {_NAME[p['objective']]}" if level < 2 else f", obj. {_NAME[p['objective']]}")
        row = standing[s]
        if level < 1:
            line.append(f", tracks {sum(row['tracks'])} VP, penalty -{row['penalty']}")
        if obs["phase"] == "bid":
            bid = _bid_text(p, seat, short=level >= 3)
            if bid:
                line.append(f"; {bid}", style="bold")
        if not compact:
            cards = p["cards_not_revealed"]
            line.append("; all 8 Bidding Cards" if len(cards) == 8 else f"; cards {_cards(cards)}", style="dim")
            if p["pass_card_aside"]:
                line.append(" (pass card aside)", style="red")
        lines.append(line)
    if "cadfael" in obs:
        cf = obs["cadfael"]
        line = Text("  ")
        line.append("Cadfael", style=STYLE[CADFAEL_COLOUR])
        row = cadfael_standing(obs)
        line.append(f": Bishop {bishop_at['cadfael']}")
        if level < 1:
            line.append(f", tracks {sum(row['tracks'])} VP, penalty -{row['penalty']}")
        if cf["revealed"]:
            line.append(f"; bid {'+'.join(map(str, cf['revealed']))} = {sum(cf['revealed'])}", style="bold")
        elif obs["phase"] == "bid":
            line.append("; no card revealed yet", style="bold")
        if not compact:
            line.append(f"; draw pile {cf['draw_pile']}, face up {_cards(cf['face_up'])}", style="dim")
        lines.append(line)
    return lines


def _shield_line(obs: Observation, seat: int | None) -> Text | None:
    if seat is None or obs["is_over"] or "my_score" not in obs:
        return None
    sc = obs["my_score"]
    text = Text("Your score if the game ended now: ", style="bold green")
    text.append(f"{sc['total']} VP", style="bold")
    text.append(f" (tracks {sum(sc['tracks'])}, penalty -{sc['penalty']}, VP tokens {sc['tokens']}, "
                f"Gold {sc['gold_vp']} VP ({sc['gold_left']} Gold left)"
                + (f", objective {sc['objective']}" if obs["hidden_objectives"] else "") + ")")
    return text


def _last_auction(obs: Observation) -> Text | None:
    line = last_auction_text(obs)
    return Text(line, style="dim") if line else None


def _score_pad(obs: Observation, compact: bool) -> Table:
    """Final scoring, one row per marker (players, then Cadfael)."""
    table = Table(box=None, padding=(0, 1), title_justify="left")
    table.add_column("", no_wrap=True)
    if compact:
        cols = ["tracks"]
    else:
        cols = list(SYMBOL_NAMES[:NRES])
    cols += ["penalty", "VP tokens", "Gold VP"] + (["objective"] if obs["hidden_objectives"] else [])
    cols += ["total", "Gold left"]
    for c in cols:
        table.add_column(c, justify="right", no_wrap=True)
    players = len(obs["players"])
    for m, r in enumerate(obs["final"]):
        name = marker_text(m) if m < players else marker_text("cadfael")
        if m < players and m in obs["winners"]:
            name.append(" winner", style="bold green")
        cells: list[str | Text] = [str(sum(r["tracks"]))] if compact else [str(v) for v in r["tracks"]]
        cells += [str(-r["penalty"]), str(r["tokens"]), str(r["gold_vp"])]
        if obs["hidden_objectives"]:
            cells.append(str(r["objective"]))
        cells += [Text(str(r["total"]), style="bold"), str(r["gold_left"]) if m < players else "-"]
        table.add_row(name, *cells)
    return table


def _wide(obs: Observation, seat: int | None, focus: int | None, width: int) -> Panel:
    parts: list[RenderableType] = [_status(obs, seat, False), _tracks_grid(obs, focus)]
    if obs["is_over"]:
        parts.append(Text("Final scoring (tie: most Gold left, then further up the Bishop Track):", style="bold"))
        parts.append(_score_pad(obs, False))
    else:
        parts.append(_mule_line(obs))
        parts.extend(_dice_lines(obs, False))
        parts.extend(_players_grid(obs, seat, focus, False))
        for extra in (_shield_line(obs, seat), _last_auction(obs)):
            if extra is not None:
                parts.append(extra)
    for part in parts:
        if isinstance(part, Text):
            part.overflow = "fold"
    return Panel(Group(*parts), width=min(width, 120), padding=(0, 1))


# ------------------------------------------------------------------ compact
def _track_line(obs: Observation, t: int, focus: int | None, level: int) -> Text:
    sym = SYMBOLS[t]
    v = obs["value_dice"][sym]
    line = Text(f"{SYMBOL_NAMES[t]} ", style="bold")
    line.append(f"{PIPS[v - 1]}{v}: ")
    ranked = [(s + 1, m) for s in range(len(obs["tracks"][sym]) - 1, -1, -1) for m in obs["tracks"][sym][s]]
    shown = [(space, m) for space, m in ranked if space > 1 or level < 1]
    for i, (space, m) in enumerate(shown):
        if i:
            line.append(" ")
        line.append_text(marker_text(m, focus))
        line.append(f"@{space}")
    if len(shown) < len(ranked):
        line.append(" rest @1" if shown else "all @1", style="dim")
    tops = [str(st[0]) if st else "-" for st in obs["vp_stacks"][sym]]
    line.append(f"  VP next {'/'.join(tops)}", style="cyan")
    return line


def _compact_lines(obs: Observation, seat: int | None, focus: int | None, level: int) -> list[Text]:
    lines = [_status(obs, seat, True, level)]
    lines += [_track_line(obs, t, focus, level) for t in range(NRES)]
    if obs["is_over"]:
        return lines
    lines.extend(_dice_lines(obs, True, tiny=level >= 3))
    lines.extend(_players_grid(obs, seat, focus, True, level))
    return lines


def _compact(obs: Observation, seat: int | None, focus: int | None, width: int) -> Group:
    lines: list[RenderableType] | list[Text]
    if obs["is_over"]:
        scored: list[RenderableType] = [_status(obs, seat, True), _score_pad(obs, True)]
        scored += [_track_line(obs, t, focus, 1) for t in range(NRES)]
        lines = scored
    else:
        # The least shortened level whose lines each fit the width; failing that, the first whose
        # folded lines still fit 12 rows.
        levels = [_compact_lines(obs, seat, focus, level) for level in range(4)]
        unfolded = [ls for ls in levels if len(ls) <= 12 and all(line.cell_len <= width for line in ls)]
        folded = [ls for ls in levels if sum(max(1, -(-line.cell_len // width)) for line in ls) <= 12]
        if unfolded or folded:
            lines = (unfolded or folded)[0]
        else:
            last = levels[-1]
            # Last resort (not met in the tests' games): one row per line, cut with an ellipsis.
            for text in last:
                text.no_wrap = True
                text.overflow = "ellipsis"
            return Group(*last)
    for line in lines:
        if isinstance(line, Text):
            line.overflow = "fold"
    return Group(*lines)


def text_view(obs: Mapping[str, Any], seat: int | None, *, width: int = 120, focus: int | None = None) -> Panel | Group:
    """The table as a rich renderable drawn from ``obs`` (``state.observation(seat)``) only.

    ``width`` is the terminal's width in columns (``< 120``: the compact
    layout, at most 12 lines); ``focus`` is the seat whose markers are
    highlighted and whose line is marked (default: the viewer, or the first
    seat to move for a spectator). Raises ``ValueError`` for a ``focus`` that
    is not a seat. Rulebook: Setup, Playing the Game, Auctions, Scoring.
    """
    obs = observation(obs)
    players = len(obs["players"])
    if focus is None:
        focus = seat if seat is not None else (obs["to_move"][0] if obs["to_move"] else None)
    elif isinstance(focus, bool) or not isinstance(focus, int) or not 0 <= focus < players:
        raise ValueError(f"focus must be a seat from 0 to {players - 1}, got {focus!r}")
    if width >= 120:
        return _wide(obs, seat, focus, width)
    return _compact(obs, seat, focus, width)


class _FitToConsole:
    """``text_view`` at the width of the console printing it, headed by whose view it is.

    The header and the viewer's shield line keep the older terminal's words
    (``viewed by Player 2``, ``Your Gold: 15``) for the hot-seat hand-over.
    """

    def __init__(self, obs: Observation, seat: int | None) -> None:
        self.obs, self.seat = obs, seat

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        obs, seat = self.obs, self.seat
        if seat is not None and not obs["is_over"]:
            yield Text(f"Biblios Dice - viewed by {seat_name(seat)} (only your own shield is shown)", style="dim")
        yield text_view(obs, seat, width=options.max_width)
        if seat is not None and not obs["is_over"]:
            objective = obs["players"][seat]["objective"]
            yield Text(f"Your Gold: {obs['my_gold']}   Your VP tokens: {obs['my_vp_tokens']}"
                       + (f"   Your Hidden Objective: {_NAME[objective]}" if objective else ""), style="bold green")


def render(state: GameState, seat: int | None = None) -> _FitToConsole:
    """The older entry point: ``text_view(state.observation(seat), seat)`` at the console's width."""
    return _FitToConsole(observation(state.observation(seat)), seat)


__all__ = ["render", "text_view", "marker_text", "seat_text", "dice_words"]
