"""Terminal rendering of a Dice Kingdoms of Valeria table with rich.

:func:`render` draws the table (dice, Statue draft line, every player's Score
Tally) and the viewing seat's two sheets: the Castle (Citizens Tableau,
Guild Tracks, Gold Chart, Wall, Monster Lairs, Statues, and the trees and
ships in solo) and the Forest (Roads with their pips, Bridges and claimed
Domains). Pips: ``○`` open, ``●`` marked; Reward Pips show their letter,
highlighted once marked; ``×`` is a voided (crossed out) item. In the solo
2nd Harvest the header says so and the black dice rolled again for it stand on
their own line, the turn's (used) Action dice on the next.
"""

from __future__ import annotations

from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dicetable.engine import seat_name

from .components import (
    ACC, CARD_KIND, CIT, CITV, DOM, GOLD, GOLDC, GUILDS, KNIGHT, LAIR_HIGH, LAIR_LOW, LAIR_PENDING,
    LB0, LST, PLAIN, PLINTH, RECRUIT, ROAD, SLAY, STAR, STAT, STATUES, TRK, VBRIDGE, VDOM, VTRK, WALLC,
)
from .rules import (
    ACTION, DRAFT, EVENT, HARVEST, OVER, STAGE_HARVEST2, DiceKingdomsState, power_text,
    road_marked_positions, score_sheet, solo_result,
)

LETTER = {PLAIN: "○", RECRUIT: "R", GOLD: "$", ROAD: "=", KNIGHT: "K", SLAY: "X", PLINTH: "P", STAR: "*"}
COLOUR = {RECRUIT: "magenta", GOLD: "yellow", ROAD: "green", KNIGHT: "cyan", SLAY: "red",
          PLINTH: "bright_blue", STAR: "bright_yellow"}
GUILD_STYLE = ("bright_white", "yellow", "magenta", "red")
PHASE_NAME = {EVENT: "Event phase", HARVEST: "Harvest", DRAFT: "Harvest: Statue draft",
              ACTION: "Action phase", OVER: "Game over"}
#: The solo 2nd Harvest (rulebook: Solo Rules), after the Action phase, with new black dice.
PHASE_NAME_2ND = {HARVEST: "2nd Harvest", DRAFT: "2nd Harvest: Statue draft"}
LEGEND = ("○ open pip  ● marked  letters = Reward Pips (highlighted once marked): R Recruit  $ Gold  "
          "= Road  K Knight  X Slay  P Plinth  * Star   × voided")


def pip(code: int, marked: bool, voided: bool = False) -> Text:
    """One pip as a styled character."""
    if voided:
        return Text("×", style="bold red")
    if code == PLAIN:
        return Text("●", style="bold bright_white") if marked else Text("○", style="grey50")
    colour = COLOUR[code]
    if marked:
        return Text(LETTER[code], style=f"bold reverse {colour}")
    return Text(LETTER[code], style=colour)


def pips(codes, marked: int, void_mask: int = 0, group: int = 0, sep: str = " ") -> Text:
    """A section's pips; the first ``marked`` are marked; a space every ``group`` pips."""
    out = Text()
    for i, code in enumerate(codes):
        if group and i and i % group == 0:
            out.append(sep)
        out.append_text(pip(code, i < marked, bool(void_mask >> i & 1)))
    return out


def _castle(state: DiceKingdomsState, seat: int) -> Panel:
    lay = state.lay
    sh = state.sheets[seat]
    parts = []
    cit = Table(box=None, padding=(0, 1), show_header=True, header_style="bold")
    cit.add_column("Citizens")
    for name in lay.cit_names:
        cit.add_column(name, justify="center")
    cit.add_row("guild", *[Text(GUILDS[g][:2], style=GUILD_STYLE[g]) for g in lay.cit_guild])
    cit.add_row("pips", *[pips(lay.cit_pips[s], sh[CIT + s], sh[CITV + s]) for s in range(10)])
    parts.append(cit)
    tracks = Table(box=None, padding=(0, 1), show_header=False)
    tracks.add_column("track", style="bold")
    tracks.add_column("pips")
    tracks.add_column("count", justify="right")
    for g in range(4):
        tracks.add_row(Text(GUILDS[g], style=GUILD_STYLE[g]),
                       pips(lay.trk_pips[g], sh[TRK + g], sh[VTRK + g], group=8, sep="  "),
                       f"{sh[TRK + g]}/24" + (" complete" if sh[TRK + g] >= 24 else ""))
    tracks.add_row("Gold", pips(lay.gold_pips, sh[GOLDC], group=lay.gold_len // lay.gold_rows, sep=" | "),
                   f"{sh[GOLDC]}/{lay.gold_len}")
    wall = Text()
    for i, code in enumerate(lay.wall_pips):
        if i == 4:
            wall.append(" (gate) ", style="grey50")
        if i == 8:
            wall.append(" ↑tower ", style="grey50")
        wall.append_text(pip(code, i < sh[WALLC]))
    tracks.add_row("Wall", wall, f"{sh[WALLC]}/{lay.wall_len}")
    parts.append(tracks)
    lairs = Table(box=None, padding=(0, 1), show_header=False)
    for _ in range(4):
        lairs.add_column()
    for li, lid in enumerate(lay.lair_ids):
        hi, lo = lay.lair_vp[li]
        blocks = Text()
        for b in lay.lair_blocks[li]:
            lo_v, hi_v = lay.block_range[b]
            blocks.append(f"[{lo_v}-{hi_v} " if lo_v != hi_v else f"[{lo_v} ", style="grey70")
            blocks.append_text(pips(lay.block_pips[b], sh[LB0 + b]))
            blocks.append("] ", style="grey70")
        first = state.lair_first[li]
        st = sh[LST + li]
        if st == LAIR_HIGH:
            vp = Text(f"({hi}) / {lo}", style="bold green")
        elif st == LAIR_LOW:
            vp = Text(f"{hi}× / ({lo})", style="bold green")
        elif st == LAIR_PENDING:
            vp = Text(f"{hi}? / {lo}", style="bold yellow")
        elif first != -1:
            vp = Text(f"{hi}× / {lo}", style="grey70")
        else:
            vp = Text(f"{hi} / {lo}")
        note = ""
        if first >= 0 and first != seat:
            note = f"{seat_name(first)} was first"
        elif first == -2:
            note = "higher value crossed out"
        if not sh[ACC] >> li & 1:
            note = (note + "; " if note else "") + "no access yet"
        lairs.add_row(Text(f"{lid} {lay.lair_names[li]}", style="bold"), vp, blocks, Text(note, style="grey70"))
    parts.append(lairs)
    score = score_sheet(lay, sh)
    held = [k for k in range(14) if sh[STAT] >> k & 1]
    if held:
        for k in held:
            vp = score["statue_vp"].get(str(k + 1), 0)
            statue = Text(f"Statue [{k + 1}] ", style="bold bright_blue")
            statue.append(f"{STATUES[k].effect} ", style="")
            statue.append(f"= {vp} VP", style="green")
            parts.append(statue)
    else:
        parts.append(Text("Statues: none yet", style="grey50"))
    tally = Text(f"Score Tally: Stars {score['stars']} + Domains {score['domains']} + Lairs {score['lairs']}"
                 f" + Statues {score['statues']} = ", style="bold")
    tally.append(f"{score['total']} VP", style="bold green")
    parts.append(tally)
    if state.players == 1:
        solo = Text("Trees ")
        solo.append("●" * state.trees, style="green")
        solo.append("○" * (lay.trees - state.trees), style="grey50")
        solo.append(f" {state.trees}/{lay.trees}   Ships ")
        solo.append("●" * state.ships, style="cyan")
        solo.append("○" * (lay.ships - state.ships), style="grey50")
        solo.append(f" {state.ships}/{lay.ships}")
        if state.events_drawn:
            from .components import EVENTS
            solo.append("   Events: " + ", ".join(EVENTS[e].name for e in state.events_drawn), style="grey70")
        if state.no_blue:
            solo.append("   Heavy Rain: no Blue die this turn", style="bold cyan")
        if state.drought:
            solo.append("   Drought: no Harvest this turn", style="bold yellow")
        parts.append(solo)
    return Panel(Group(*parts), title=f"{seat_name(seat)}: Castle sheet ({lay.season.capitalize()})",
                 title_align="left", expand=False)


def _forest(state: DiceKingdomsState, seat: int) -> Panel:
    lay = state.lay
    sh = state.sheets[seat]
    claimed = sh[DOM]

    def node(code: int, name: str) -> Text:
        if code < 0:
            return Text(name + (" start" if code == -1 else " dead end"), style="grey70")
        if sh[VDOM] >> code & 1:
            return Text(f"×{name}", style="red" + (" bold" if claimed >> code & 1 else ""))
        if claimed >> code & 1:
            return Text(f"◉{name}", style="bold green")
        return Text(name)

    roads = Table(box=None, padding=(0, 1), show_header=False)
    for _ in range(5):
        roads.add_column()
    for r in range(lay.nr):
        marked = set(road_marked_positions(lay, sh, r))
        line = Text()
        bridge_at = lay.pip_bridge[r]
        for pos, code in enumerate(lay.road_pips[r][1]):
            bi = bridge_at.get(pos, -1)
            if bi >= 0 and pos == lay.bridge_pos[bi][0]:
                line.append("[", style="blue")
            void = bi >= 0 and sh[VBRIDGE] >> bi & 1 and code == GOLD
            line.append_text(pip(code, pos in marked, bool(void)))
            if bi >= 0 and pos == lay.bridge_pos[bi][2]:
                line.append("]", style="blue")
        d = sh[lay.ro0 + r]
        arrow = ""
        if d and marked:
            arrow = "→" if d == 1 else "←"
        done = len(marked) == lay.road_len[r]
        roads.add_row(Text(lay.road_ids[r], style="bold" if marked else "grey70"),
                      node(lay.road_a[r], lay.road_a_name[r]), line, node(lay.road_b[r], lay.road_b_name[r]),
                      Text(arrow + (" done" if done else ""), style="grey70"))
    doms = Table(box=None, padding=(0, 1), show_header=False)
    for _ in range(2):
        doms.add_column()
    cells = []
    for d in range(len(lay.dom_ids)):
        t = node(d, lay.dom_ids[d])
        t.append(f" {lay.dom_names[d]}: {power_text(lay, d).replace('instant ', '')}",
                 style="" if claimed >> d & 1 else "grey70")
        if lay.dom_trail[d]:
            t.append(" ⇒" + ",".join(lay.lair_ids[li] for li in range(4) if lay.dom_trail[d] >> li & 1),
                     style="cyan")
        cells.append(t)
    half = (len(cells) + 1) // 2
    for i in range(half):
        doms.add_row(cells[i], cells[i + half] if i + half < len(cells) else Text(""))
    bridges = [lay.bridge_ids[b] for b in range(len(lay.bridge_ids))
               if all(p in set(road_marked_positions(lay, sh, lay.bridge_road[b])) for p in lay.bridge_pos[b])
               and not sh[VBRIDGE] >> b & 1]
    foot = Text(f"Domains claimed: {bin(claimed & ~sh[VDOM]).count('1')}/13   Complete Bridges: "
                + (", ".join(bridges) if bridges else "none"), style="bold")
    return Panel(Group(roads, Text(""), doms, foot),
                 title=f"{seat_name(seat)}: Forest sheet (◉ claimed, [ ] Bridge, → direction)",
                 title_align="left", expand=False)


def _table(state: DiceKingdomsState, viewer: int | None) -> Group:
    lay = state.lay
    d = state.dice
    head = Text()
    if state.players == 1:
        head.append(f"Turn {state.trees} of {lay.trees}", style="bold")
    else:
        head.append(f"Round {state.round_no}", style="bold")
        head.append(f" (first player: {seat_name(state.first)})", style="grey70")
        if state.last_round:
            head.append("  LAST ROUND", style="bold red")
    # Solo: from the 2nd Harvest to the end of the turn the black dice are the ones rolled again.
    second = state.players == 1 and state.stage == STAGE_HARVEST2
    phase = (PHASE_NAME_2ND if second else PHASE_NAME).get(state.phase, PHASE_NAME[state.phase])
    head.append(f"   Active: {seat_name(state.active)}   {phase}", style="bold")
    if state.phase != OVER:
        movers = state.to_move
        if state.phase == HARVEST and movers:
            head.append("   still deciding: " + ", ".join(seat_name(s) for s in movers), style="grey70")
    dice = Text("2nd Harvest black dice (rolled again): " if second else "Dice: ")
    dice.append(f" {d[0]} ", style="bold white on grey23")
    dice.append(" ")
    dice.append(f" {d[1]} ", style="bold white on grey23")
    dice.append(f" (sum {d[0] + d[1]})")
    if second:  # the coloured dice were this turn's Action: on a line of their own
        dice.append(f"\nAction dice (used): Yellow {d[2]}, Red {d[3]}, Green {d[4]}"
                    + ("" if state.no_blue else f", Blue {d[5]}"), style="grey70")
    else:
        for name, v, style in (("Yellow", d[2], "black on yellow"), ("Red", d[3], "white on red"),
                               ("Green", d[4], "black on green"), ("Blue", d[5], "white on blue")):
            dice.append("   ")
            dice.append(f" {v} ", style="bold " + style)
            dice.append(f" {name}")
    if state.no_blue:
        dice.append("   (Heavy Rain: no Blue)", style="cyan")
    line = Text("Statue draft line: ", style="bold")
    for c in state.line:
        line.append(f"[{CARD_KIND[c] + 1}]", style="bold bright_blue")
        line.append(" ")
    n_night = sum(1 for c in state.deck if c >= 14)
    line.append(f"  deck: {len(state.deck) - n_night} Day, {n_night} Night", style="grey70")
    # One space between columns and "(you)" under the name: 80 columns show every header uncut.
    players = Table(box=None, padding=(0, 1), collapse_padding=True, pad_edge=False, header_style="bold")
    for col in ("player", "Holy", "Worker", "Shadow", "Soldier", "Gold", "Wall", "Domains", "Lairs",
                "Statues", "Stars", "VP"):
        players.add_column(col, justify="left" if col == "player" else "right", no_wrap=col not in ("Lairs", "Statues"))
    for s in range(state.players):
        sh = state.sheets[s]
        sc = score_sheet(lay, sh)
        name = Text(seat_name(s) + ("\n(you)" if s == viewer else ""),
                    style="bold green" if s == state.active else "")
        done_lairs = [lay.lair_ids[li] for li in range(4) if sh[LST + li]]
        players.add_row(name, *[f"{sh[TRK + g]}" for g in range(4)], str(sh[GOLDC]), str(sh[WALLC]),
                        str(sc["domains"]), ",".join(done_lairs) or "-",
                        ",".join(str(k + 1) for k in range(14) if sh[STAT] >> k & 1) or "-",
                        str(sc["stars"]), Text(str(sc["total"]), style="bold"))
    return Group(head, dice, line, players)


def _final_tally(state: DiceKingdomsState) -> Table:
    table = Table(title="Score Tally", header_style="bold")
    for col in ("player", "Stars", "Domains", "Monster Lairs", "Statues", "Total"):
        table.add_column(col, justify="left" if col == "player" else "right")
    winners = state.winners
    for s in range(state.players):
        sc = state.score_parts(s)
        statues = " + ".join(f"[{k}] {v}" for k, v in sc["statue_vp"].items())
        table.add_row(Text(seat_name(s) + (" (winner)" if s in winners else ""),
                           style="bold green" if s in winners else ""),
                      str(sc["stars"]), str(sc["domains"]), str(sc["lairs"]),
                      f"{statues} = {sc['statues']}" if statues else "0", Text(str(sc["total"]), style="bold"))
    return table


def render(state: DiceKingdomsState, seat: int | None = None):
    """A rich renderable of the table and ``seat``'s sheets (None: the seat deciding, or the Active Player)."""
    viewer = seat
    if viewer is None or not 0 <= viewer < state.players:
        movers = state.to_move
        viewer = movers[0] if movers else state.active
    parts = [_table(state, seat if seat is not None and 0 <= seat < state.players else None)]
    if not (seat is None and state.phase == OVER and state.players > 1):
        parts += [Columns([_castle(state, viewer), _forest(state, viewer)], padding=(0, 1)),
                  Text(LEGEND, style="grey50")]
    if state.phase == OVER:
        parts.append(_final_tally(state))
        if state.players == 1:
            total = state.scores[0]
            title, text = solo_result(total)
            parts.append(Text(f"Final score {total}: {title}. {text}", style="bold green"))
        else:
            parts.append(Text("Winner: " + ", ".join(seat_name(s) for s in state.winners), style="bold green"))
    return Panel(Group(*parts), title=f"Dice Kingdoms of Valeria ({state.lay.season.capitalize()})")
