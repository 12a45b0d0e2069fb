"""Terminal view of a Corsairs of Valeria table, drawn from ``state.observation(seat)`` only.

The race track is drawn as one horizontal strip from Start Island (left) to
Skull Island (right), one column per space: a split Track's two lanes are two
rows (upper row the first lane of the data, e.g. ``left``), a plain Track
sits on the lower row. Islands on dividing lines show as ``◆`` with their
Silver (S) / Grog (G) symbols, hazards and Merchant ships by a short word
explained in the legend, ships by their player number in their colour (the
ship whose turn it is reversed). Below: one line per Ship Board (Treasure,
Silver, Grog, Maps still needed, Captain and a digest of the power), the
focused seat's Captain card in full, the dice (dice marked for a re-roll
show ``↻``) and what is still to execute.

Fits a 120x40 window in at most 26 lines; under 120 columns a compact form
fits 80x24 in at most 12 lines of at most ``width`` columns.
"""

from __future__ import annotations

import textwrap
from typing import Any

from rich.console import Group
from rich.text import Text

from dicetable.engine import counted, GameState, seat_name

from .components import COLOURS, GROG_MAX, TREASURE_TO_WIN, SegmentLane
from .viewdata import (
    FACE_NAME,
    PHASE_NAME,
    captain_of,
    check_seat,
    deciding_seat,
    group_text,
    left_to_execute,
    marked_dice,
    pending,
    reward_text,
    ships_by_node,
    track_of,
    turn_flags,
)

STYLE = {"purple": "bold magenta", "white": "bold white", "yellow": "bold yellow", "red": "bold red",
         "blue": "bold blue"}
FACE_STYLE = {"skull": "bold red", "skull-grog": "bold red", "grog": "bold green", "silver": "bold white",
              "map": "bold cyan", "cannon": "bold yellow"}
WIDE_LINES = 26
COMPACT_LINES = 12
#: hazard code -> (wide token, compact token)
HAZARD_TOKEN = {1: ("Whirl", "W"), 2: ("Monstr", "M"), 3: ("Cutthr", "C")}
COMPACT_FACE = {"skull": "Skull", "skull-grog": "Sk+Grog", "grog": "Grog", "silver": "Silver",
                "map": "Map", "cannon": "Cannon"}


def ship_style(seat: int) -> str:
    """The rich style of a seat's ship colour."""
    return STYLE.get(COLOURS[seat % len(COLOURS)], "bold")


class _Canvas:
    """One line of fixed width where strings are placed at columns with a style."""

    def __init__(self, width: int) -> None:
        self.chars = [" "] * width
        self.styles: list[str | None] = [None] * width

    def put(self, x: int, text: str, style: str | None = None) -> None:
        for i, ch in enumerate(text):
            if 0 <= x + i < len(self.chars):
                self.chars[x + i] = ch
                self.styles[x + i] = style

    def text(self) -> Text:
        out = Text()
        run: list[str] = []
        style: str | None = None
        for ch, st in zip(self.chars, self.styles):
            if st != style and run:
                out.append("".join(run), style=style or "")
                run = []
            run.append(ch)
            style = st
        if run:
            out.append("".join(run), style=style or "")
        out.rstrip()
        return out


def _merchant_token(m: tuple[int, int], compact: bool) -> str:
    if compact:
        return "$" if m[0] else "g"
    return "Mer" + reward_text(*m, short=True)


def _track_lines(obs: dict[str, Any], width: int, compact: bool) -> list[Text]:
    """The race track strip: header (wide only), then per lane row its islands and spaces."""
    track = track_of(obs)
    segs = track.segments[:-1]
    groups = max(len(lanes) for _, lanes in segs)
    ncols = [max(len(nodes) for _, nodes, _ in lanes) for _, lanes in segs]
    total = sum(ncols)
    margin = 0 if compact else 6
    skull_w = 6 if compact else 13
    cell = max(3, (width - margin - skull_w - len(segs)) // total - 1)
    at = ships_by_node(obs)
    mover = deciding_seat(obs)
    span = margin + total * (cell + 1) + len(segs) + skull_w
    x0 = []
    x = margin
    for k in ncols:
        x0.append(x)
        x += k * (cell + 1) + 1
    skull_x = x

    def lane_of(seg: int, g: int) -> SegmentLane | None:
        lanes = segs[seg][1]
        if len(lanes) == 1:
            return lanes[0] if g == groups - 1 else None
        return lanes[g] if g < len(lanes) else None

    def ships_text(node: int, room: int) -> list[tuple[str, str]]:
        seats = at.get(node, [])
        digits = "".join(str(s + 1) for s in seats)
        if len(digits) > room:
            return [(digits[: max(0, room - 1)] + "+", "bold")]
        return [(str(s + 1), ship_style(s) + (" reverse" if s == mover else "")) for s in seats]

    def sep_x(seg: int, k: int) -> int:
        return x0[seg] + k * (cell + 1)

    lines: list[Text] = []
    if not compact:
        head = _Canvas(span)
        for seg, (title, lanes) in enumerate(segs):
            name = title.replace(" Island", " Isl.") if ncols[seg] * (cell + 1) < len(title) + 1 else title
            head.put(x0[seg] + 1, name + (" split" if len(lanes) > 1 else ""), "bold blue")
        head.put(skull_x + 1, "Skull Island", "bold red")
        lines.append(head.text())
    for g in range(groups):
        label = next((split_lane[0] for s in range(len(segs))
                      if len(segs[s][1]) > 1 and (split_lane := lane_of(s, g)) is not None), "")
        islands = _Canvas(span)
        feats = _Canvas(span)
        ships = _Canvas(span)
        if margin and groups > 1:
            feats.put(0, label[:margin - 1], "dim")
        for seg in range(len(segs)):
            lane = lane_of(seg, g)
            border = "║" if seg else " "
            for row in (feats, ships):
                row.put(x0[seg], border, "blue")
            if lane is None:
                continue
            _, nodes, rewards = lane
            for k, node in enumerate(nodes):
                x = sep_x(seg, k)
                if k:
                    if rewards[k] != (0, 0):
                        for row in (feats, ships):
                            row.put(x, "◆", "bold green")
                        islands.put(x, "◆" + reward_text(*rewards[k], short=True), "green")
                    else:
                        for row in (feats, ships):
                            row.put(x, "│", "dim")
                token, style = "", "dim"
                if node == track.start:
                    token, style = ("S" if compact else "Start"), "bold green"
                elif track.hazard[node]:
                    token, style = HAZARD_TOKEN[track.hazard[node]][compact], "bold red"
                elif (merchant := track.merchant[node]) is not None:
                    token, style = _merchant_token(merchant, compact), "bold cyan"
                elif not compact:
                    token = "·"
                if compact:
                    feats.put(x + 1, token, style)
                    pos = x + 1 + len(token)
                    for piece, st in ships_text(node, cell - len(token)):
                        feats.put(pos, piece, st)
                        pos += len(piece)
                else:
                    feats.put(x + 1, token[:cell], style)
                    pos = x + 1
                    for piece, st in ships_text(node, cell):
                        ships.put(pos, piece, st)
                        pos += len(piece)
        if g == groups - 1:
            for row in (feats, ships):
                row.put(skull_x, "║", "blue")
            skull = track.skull
            if compact:
                feats.put(skull_x + 1, "☠", "bold red")
                pos = skull_x + 2
                for piece, st in ships_text(skull, skull_w - 2):
                    feats.put(pos, piece, st)
                    pos += len(piece)
            else:
                feats.put(skull_x + 1, f"{obs['skull_island_silver']} Silver", "bold red")
                pos = skull_x + 1
                for piece, st in ships_text(skull, skull_w - 1):
                    ships.put(pos, piece, st)
                    pos += len(piece)
        rows = [feats] if compact else [feats, ships]
        if g < groups - 1:
            lines.extend(r.text() for r in [islands, *rows])
        else:
            lines.extend(r.text() for r in [*rows, islands])
    return [line for line in lines if line.plain.strip()]


def _legend(compact: bool) -> list[Text]:
    if compact:
        return [Text("◆island S Silver G Grog · W Whirlpool M Sea Monster C Cutthroat $/g Merchant",
                     style="dim")]
    return [Text("◆1S island: +1 Silver when crossed forwards (G Grog) · Mer1S Merchant ship: 1 Silver per "
                 "Cannon · 1-5 ships", style="dim"),
            Text("Whirl Whirlpool: back to Start · Monstr Sea Monster: lose all Silver · Cutthr Cutthroat: "
                 "lose all Grog (end of move)", style="dim")]


def _ship_entry(obs: dict[str, Any], ship: dict[str, Any], compact: bool, summary: bool) -> Text:
    seat = ship["seat"]
    mover = deciding_seat(obs)
    cap = captain_of(ship)
    out = Text()
    out.append("▶" if seat == mover else " ", style="bold")
    out.append(f"P{seat + 1} {ship['colour']:<6}", style=ship_style(seat))
    if compact:
        out.append(f" T{ship['treasure']} S{ship['silver']} G{ship['grog']} {ship['to_skull_island']:>2} to go")
    else:
        out.append(f"  T{ship['treasure']}/{TREASURE_TO_WIN} S{ship['silver']} G{ship['grog']}/{GROG_MAX} "
                   f"{ship['to_skull_island']:>2} to go  ")
    if cap is not None:
        name = cap.name.removeprefix("Captain ")
        if compact and not summary:
            out.append(" " + cap.short, style="italic")
        else:
            out.append((" " if compact else "") + name, style="italic")
            if summary:
                out.append(": " + cap.summary, style="dim")
    return out


def _ship_lines(obs: dict[str, Any], width: int, compact: bool, room: int) -> list[Text]:
    ships = obs["ships"]
    if not compact:
        return [_ship_entry(obs, s, False, True) for s in ships]
    full = [_ship_entry(obs, s, True, True) for s in ships]
    if len(ships) <= room and all(t.cell_len <= width for t in full):
        return full
    short = [_ship_entry(obs, s, True, False) for s in ships]
    half = max(t.cell_len for t in short) + 2
    per = max(1, width // half)
    out = []
    for i in range(0, len(short), per):
        line = Text()
        for t in short[i:i + per]:
            if line.cell_len:
                line.append(" " * (half - line.cell_len % half if line.cell_len % half else 0))
            line.append_text(t)
        out.append(line)
    return out


def _focus_lines(obs: dict[str, Any], focus: int, width: int, compact: bool, full: bool) -> list[Text]:
    ship = obs["ships"][focus]
    cap = captain_of(ship)
    name = Text(f"{seat_name(focus)} ({ship['colour']})", style=ship_style(focus))
    if compact:
        line = Text("Board of ").append_text(name).append(f" at {ship['space']}")
        if cap is not None and not full:
            line = Text(f"P{focus + 1}", style=ship_style(focus)).append(f" {cap.name}: {cap.summary}")
        return [line]
    head = Text("Ship Board of ").append_text(name)
    head.append(f" · {ship['space']} · Treasure {ship['treasure']} of {TREASURE_TO_WIN} · "
                f"Silver {ship['silver']} · Grog {ship['grog']} of {GROG_MAX}")
    out = [head]
    if cap is not None and full:
        text = f"Captain {cap.name.removeprefix('Captain ')}: {cap.text}"
        out.extend(Text(line, style="italic") for line in textwrap.wrap(text, width - 2)[:2])
    return out


def _dice_line(obs: dict[str, Any], compact: bool) -> Text:
    who = obs["current"]
    out = Text()
    phase = obs["phase"]
    out.append(f"P{who + 1} " if compact else f"{seat_name(who)}, phase {PHASE_NAME.get(phase, phase)}: ",
               style=ship_style(who))
    if compact:
        out.append(f"phase {phase}: ", style="bold")
    if not obs["dice"]:
        out.append("dice not rolled yet")
        return out
    marked = marked_dice(obs)
    if not compact:
        out.append("dice ")
    for i, (face, mark) in enumerate(zip(obs["dice"], marked), 1):
        word = COMPACT_FACE[face] if compact else FACE_NAME[face]
        out.append(f"{i}:", style="dim")
        out.append(word + ("↻" if mark else ""), style=FACE_STYLE[face] + (" reverse" if mark else ""))
        out.append(" ")
    if obs["rerolls"]:
        out.append(f"({counted(obs['rerolls'], 're-roll')})", style="dim")
    if any(marked) and not compact:
        out.append(" ↻ = marked for a re-roll", style="dim")
    return out


def _status_line(obs: dict[str, Any], compact: bool) -> Text:
    if obs["is_over"]:
        win = obs["winners"]
        ships = obs["ships"]
        text = ("Winner: " if len(win) == 1 else "Shared victory: ") + ", ".join(
            f"{seat_name(s)} ({ships[s]['treasure']} Treasure, {ships[s]['silver']} Silver)" for s in win)
        return Text(text, style="bold green")
    flags = turn_flags(obs)
    parts = []
    left = left_to_execute(obs)
    if flags["jaxn"]:
        left.append("Lucky Jax'n's move")
    if obs["phase"] == "C":
        parts.append("To execute: " + (", ".join(left) if left else "nothing more"))
    task = pending(obs)
    if task and task.kind == "cannons":
        parts.append(f"{group_text('cannons', task.count)} to use")
    if task and task.kind == "move":
        parts.append(f"{counted(task.count, 'move')} left")
    if task and task.kind == "back":
        parts.append(f"{seat_name(task.seat)} is knocked back {counted(task.count, 'space')}")
    if task and task.kind == "give":
        given = ", ".join(f"{i}→P{r + 1}" for i, r in enumerate(task.given, 1))
        parts.append(f"handing out 5 Skulls: die {len(task.given) + 1} next" + (f" ({given})" if given else ""))
    if flags["five_maps"]:
        parts.append("5 Maps: forward or backward at each step")
    if flags["five_grog"]:
        parts.append("5 Grog: the turn begins again")
    if flags["arrived"]:
        parts.append("reached Skull Island this turn")
    if not compact:
        parts.append(f"Skull Island reached {obs['skull_island_visits']} of 2 times")
    return Text(" · ".join(parts), style="italic")


def text_view(obs: dict[str, Any], seat: int | None, *, width: int = 120, focus: int | None = None) -> Group:
    """The table as ``seat`` sees it, drawn from ``obs`` = ``state.observation(seat)`` only.

    ``width`` >= 120: at most 26 lines; below 120 (compact, for 80x24): at
    most 12 lines of at most ``width`` columns. ``focus`` (a seat number,
    0-based) is the Ship Board shown in full (the CLI's ``show N``); by
    default the viewer's, or for a spectator the seat to decide. Returns a
    rich ``Group`` of ``Text`` lines. Raises ValueError for a focus that is
    not a seat of this game, TypeError/ValueError for a ``seat`` that is
    neither None nor one of its seats. Rulebook: Components, Game Setup (the race track
    as laid out), Captain Cards.
    """
    players = len(obs["ships"])
    check_seat(obs, seat)
    if focus is not None and (type(focus) is not int or not 0 <= focus < players):
        raise ValueError(f"focus must be a seat 0..{players - 1}, got {focus!r}")
    compact = width < 120
    if focus is None:
        if seat is not None:
            focus = seat
        else:
            mover = deciding_seat(obs)
            focus = mover if mover is not None else obs["current"]
    budget = COMPACT_LINES if compact else WIDE_LINES
    title = Text("Corsairs of Valeria" if not compact else "Corsairs", style="bold")
    title.append(f" · turn {obs['turn']} · race {obs['race']} of 2 · Skull Island {obs['skull_island_silver']} "
                 f"Silver · supply {obs['supply']} Silver")
    if not compact and seat is not None:
        title.append(f" · you are {seat_name(seat)}", style=ship_style(seat))
    track = _track_lines(obs, width, compact)
    legend = _legend(compact)
    dice = [] if obs["is_over"] else [_dice_line(obs, compact)]
    status = [_status_line(obs, compact)]
    status = [s for s in status if s.plain]
    fixed = 1 + len(track) + len(dice) + len(status)
    focus_full = _focus_lines(obs, focus, width, compact, full=True)
    focus_short = _focus_lines(obs, focus, width, compact, full=False)
    room = budget - fixed
    ships = _ship_lines(obs, width, compact, room - len(focus_short))
    if compact:
        parts = [title, *legend, *track, *ships, *focus_short, *dice, *status]
        if len(parts) > budget:
            parts.remove(legend[0])
        key = Text("T Treasure (6 wins) · S Silver (5 = 1 Treasure) · G Grog (max 4) · to go: Maps",
                   style="dim")
        if len(parts) < budget and key.cell_len <= width:
            parts.insert(parts.index(ships[0]), key)
    else:
        head = Text("Ship Boards: T Treasure (6 wins) · S Silver (5 = 1 Treasure) · G Grog (max 4) · "
                    "to go: Maps to Skull Island", style="dim")
        parts = [title, *legend, *track, head, *ships, *focus_full, *dice, *status]
        while len(parts) > budget and legend:
            parts.remove(legend.pop())
    return Group(*parts)


def render(state: GameState, seat: int | None = None) -> Group:
    """The older entry point: ``text_view(state.observation(seat), seat)`` at 120 columns."""
    return text_view(state.observation(seat), seat)
