"""Terminal rendering of a Biblios Dice table with rich.

Everything is drawn from ``state.observation(seat)`` (plus the fixed component
data), so a seat's screen can only show what that seat may see: other seats'
Gold, VP tokens, face-down cards and Hidden Objectives never reach it.
"""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dicetable.engine import seat_name

from .components import (
    ADJ_FACES, CADFAEL_COLOUR, COLOURS, MULE_FINAL, NRES, PENALTY, RATIOS, RESOURCES, SYMBOL_NAMES,
    SYMBOLS, TOP, VP_STACKS,
)

STYLE = {"red": "bold red", "blue": "bold blue", "yellow": "bold yellow", "green": "bold green",
         "purple": "bold magenta", "grey": "bold white"}
PIPS = "⚀⚁⚂⚃⚄⚅"
_ADJ_LABEL = {a.id: a.label for a in ADJ_FACES}
_MARK_NAMES = dict(zip(SYMBOLS, SYMBOL_NAMES)) | {"gold": "Gold Die", "adjustment": "Adjustment Die",
                                                  "mule": "Mule Die"}


def marker_text(m) -> Text:
    """A marker: ``P2`` in the seat's colour, ``Cf`` for Cadfael."""
    if m == "cadfael":
        return Text("Cf", style=STYLE[CADFAEL_COLOUR])
    return Text(f"P{m + 1}", style=STYLE.get(COLOURS[m % len(COLOURS)], "bold"))


def seat_text(s: int) -> Text:
    """"Player 2 (blue)" in the seat's colour."""
    colour = COLOURS[s % len(COLOURS)]
    return Text(f"{seat_name(s)} ({colour})", style=STYLE.get(colour, "bold"))


def _tracks(obs: dict) -> Table:
    title = "Tracks (on a shared space the marker further left is ahead"
    title += "; Cf = Cadfael)" if "cadfael" in obs else ")"
    table = Table(title=title, box=None, padding=(0, 1), title_justify="left")
    table.add_column("", justify="right", style="dim", no_wrap=True, min_width=2)
    for t, sym in enumerate(SYMBOLS):
        if t < NRES:
            v = obs["value_dice"][sym]
            head = f"{SYMBOL_NAMES[t]}\n{PIPS[v - 1]} {v}"
        else:
            head = "Bishop"
        # Wrap rather than cut: at 80 columns a cut cell hid markers and penalties.
        table.add_column(head, justify="left", overflow="fold", min_width=len(head.split("\n")[0]))
    stacks = obs["vp_stacks"]
    bishop_stacks = {b["space"]: b for b in obs["bishop_stacks"]}
    ratios = dict(RATIOS)
    for space in range(max(TOP), 0, -1):
        row = [str(space)]
        for t, sym in enumerate(SYMBOLS):
            cell = Text()
            if space > TOP[t]:
                row.append(cell)
                continue
            markers = obs["tracks"][sym][space - 1]
            for i, m in enumerate(markers):
                if i:
                    cell.append(" ")
                cell.append_text(marker_text(m))
            notes = []
            if t < NRES:
                for k, (sp, _) in enumerate(VP_STACKS):
                    if sp == space:
                        left = stacks[sym][k]
                        notes.append("[" + "/".join(map(str, left)) + " VP]" if left else "[-]")
                if space in PENALTY[t]:
                    notes.append(f"-{PENALTY[t][space]}")
                if space == TOP[t]:
                    notes.append("top")
            else:
                if space in ratios:
                    notes.append(f"{ratios[space]}:1")
                if space in bishop_stacks:
                    notes.append(f"[{bishop_stacks[space]['count']} tok]")
                if space == TOP[t]:
                    notes.append("top")
            if notes:
                cell.append((" " if markers else "") + " ".join(notes), style="dim cyan")
            elif not markers:
                cell.append("·", style="dim")
            row.append(cell)
        table.add_row(*row)
    return table


def _dice_text(d: dict) -> str:
    parts = [f"{d[s]} {SYMBOL_NAMES[i]}" for i, s in enumerate(SYMBOLS) if d.get(s)]
    if d.get("gold") is not None:
        parts.append("Gold: gold for all" if d["gold"] == "gold-for-all" else f"Gold {d['gold']}")
    if d.get("adjustment") is not None:
        parts.append(f"Adjustment {d['adjustment']} ({_ADJ_LABEL[d['adjustment']]})")
    return ", ".join(parts) if parts else "-"


def _mule(obs: dict) -> Text:
    text = Text("Mule path: ")
    for i in range(MULE_FINAL + 1):
        if i == obs["mule"]:
            text.append("M", style="bold yellow")
        elif i < MULE_FINAL:
            text.append("·", style="dim")
        if i == MULE_FINAL:
            text.append("[market]", style="bold yellow" if i == obs["mule"] else "dim")
        text.append(" ")
    if obs["phase"] == "reroll":
        text.append(f"  Mule Die: {obs['mule_die']}", style="bold")
    return text


def _dice(obs: dict) -> Text:
    phase = obs["phase"]
    text = Text()
    if phase in ("reroll", "select"):
        text.append("Dice pool: ", style="bold")
        text.append(_dice_text(obs["pool"]))
        if obs["marked"]:
            text.append("\nMarked to re-roll: ", style="bold yellow")
            text.append(", ".join(f"{c} {_MARK_NAMES[k]}" for k, c in obs["marked"].items()))
    elif phase == "split":
        text.append("Market dice left: ", style="bold")
        text.append(_dice_text(obs["pool"]))
        text.append("\nGroup of 3 so far: ", style="bold")
        text.append(_dice_text(obs["small_group"]))
    elif phase in ("bid", "choose-group", "resolve"):
        names = ("Large group", "Small group")
        for g, d in enumerate(obs["groups"]):
            if g:
                text.append("\n")
            text.append(f"{names[g]}: ", style="bold")
            text.append(_dice_text(d))
    return text


def _auction(obs: dict, seat) -> Table | Text:
    if obs["phase"] != "bid":
        last = obs["last_auction"]
        return Text("") if not last else Text(
            "Last auction: " + ", ".join(
                f"{seat_name(s)} {t}" for s, t in enumerate(last["totals"]) if t is not None)
            + (f", Cadfael {last['cadfael']}" if last["cadfael"] is not None else "")
            + (f"; overbid: {', '.join(seat_name(s) for s in last['penalized'])}" if last["penalized"] else ""),
            style="dim")
    table = Table(title="Auction", box=None, title_justify="left", padding=(0, 1))
    for col in ("bidder", "revealed cards", "total", "now"):
        table.add_column(col)
    for p in obs["players"]:
        s = p["seat"]
        if p["sitting_out"]:
            table.add_row(seat_text(s), "-", "-", Text("sits out (overbid)", style="red"))
            continue
        revealed = " ".join("pass" if v == 0 else str(v) for v in p["revealed"]) or "-"
        if p["face_down_placed"]:
            now = (f"face down: {p['face_down']}" if s == seat and p.get("face_down") is not None
                   else "card face down")
        elif p["bidding"]:
            now = "choosing..."
        else:
            now = "passed"
        table.add_row(seat_text(s), revealed, str(sum(p["revealed"])), now)
    if "cadfael" in obs:
        cf = obs["cadfael"]["revealed"]
        table.add_row(Text("Cadfael", style=STYLE[CADFAEL_COLOUR]), " ".join(map(str, cf)) or "-",
                      str(sum(cf)), "two cards from his deck")
    return table


def _players(obs: dict, seat) -> Table:
    table = Table(title="Players", box=None, title_justify="left", padding=(0, 1))
    objectives = obs["hidden_objectives"]
    for col in ("seat", "Gold", "VP tokens", "Bidding Cards not revealed") + (
            ("Hidden Objective",) if objectives else ()):
        table.add_column(col)
    over = obs["is_over"]
    for p in obs["players"]:
        s = p["seat"]
        label = seat_text(s)
        if s == obs["first_player"]:
            label.append(" [Monastery]", style="dim")
        if s == seat and not over:
            label.append(" (you)", style="bold")
        hidden = Text("hidden", style="dim")
        cards = " ".join("pass" if v == 0 else str(v) for v in p["cards_not_revealed"])
        if p["pass_card_aside"]:
            cards += " (pass card aside)"
        cells = [label, str(p["gold"]) if p["gold"] is not None else hidden,
                 str(p["vp_tokens"]) if p["vp_tokens"] is not None else hidden, cards]
        if objectives:
            cells.append(SYMBOL_NAMES[RESOURCES.index(p["objective"])] if p["objective"] else hidden)
        table.add_row(*cells)
    if "cadfael" in obs:
        cf = obs["cadfael"]
        cells = [Text("Cadfael", style=STYLE[CADFAEL_COLOUR]), "-", "-",
                 f"draw pile {cf['draw_pile']}; face up: " + (" ".join(map(str, cf["face_up"])) or "-")]
        table.add_row(*(cells + (["-"] if objectives else [])))
    return table


def _final(state, obs: dict) -> Group:
    """The score pad: one row per scoring step, one column per player (fits 80 columns)."""
    winners = ", ".join(seat_name(s) for s in state.winners)
    table = Table(box=None, padding=(0, 1))
    objectives = obs["hidden_objectives"]
    table.add_column("", no_wrap=True)
    for m in range(len(state.final)):
        name = Text(f"P{m + 1}", style=STYLE.get(COLOURS[m % len(COLOURS)], "bold")) if m < state.players \
            else Text("Cf", style=STYLE[CADFAEL_COLOUR])
        table.add_column(name, justify="right", no_wrap=True)
    rows = [(SYMBOL_NAMES[t], lambda r, m, t=t: str(r["tracks"][t])) for t in range(NRES)]
    rows += [("penalty", lambda r, m: str(-r["penalty"])), ("VP tokens", lambda r, m: str(r["tokens"])),
             ("Gold VP", lambda r, m: str(r["gold_vp"]))]
    if objectives:
        rows.append(("objective", lambda r, m: str(r["objective"])))
    rows += [("total", lambda r, m: Text(str(r["total"]), style="bold")),
             ("Gold left", lambda r, m: str(r["gold_left"]) if m < state.players else "-")]
    for label, cell in rows:
        table.add_row(Text(label, style="bold") if label == "total" else label,
                      *(cell(r, m) for m, r in enumerate(state.final)))
    return Group(Text(f"Final scoring - winner: {winners}", style="bold green"), table)


def render(state, seat: int | None = None):
    """A rich renderable of what ``seat`` sees (None: a spectator; all is shown once the game ends)."""
    obs = state.observation(seat)
    parts = [_tracks(obs), _mule(obs), _dice(obs), _auction(obs, seat), _players(obs, seat)]
    if obs["is_over"]:
        parts.append(_final(state, obs))
    elif seat is not None:
        parts.append(Text(f"Your Gold: {obs['my_gold']}   Your VP tokens: {obs['my_vp_tokens']}"
                          + (f"   Your Hidden Objective: {SYMBOL_NAMES[RESOURCES.index(obj)]}"
                             if (obj := obs['players'][seat]['objective']) else ""), style="bold green"))
    # Short enough for 80 columns: a cut title hid whose view it is.
    title = (f"Biblios Dice - round {obs['round']} - Monastery Card: {seat_name(obs['first_player'])}"
             + (f" - viewed by {seat_name(seat)}" if seat is not None else ""))
    return Panel(Group(*parts), title=title)


__all__ = ["render", "marker_text", "seat_text"]
