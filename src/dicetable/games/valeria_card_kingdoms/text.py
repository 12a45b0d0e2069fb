"""Terminal rendering of a Valeria: Card Kingdoms table with rich.

``render(state, seat)`` shows what ``seat`` may see: the Center Stacks (Monsters, the two
Citizen rows, Domains with their hidden cards counted), every tableau with its resources and
VP, the dice, the last Harvest's payouts (with what each Thief took, and from whom), and the
seat's own Duke; other Dukes only once the game is over.
"""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dicetable.engine import seat_name

from .components import (
    AREAS, CIT_COST, CIT_DISPLAY, CIT_NAME, CIT_OFF, CIT_ON, CIT_ROLE, CIT_SLOTS, DOM_COST,
    DOM_NAME, DOM_REQ, DOM_VP, DUKE_NAME, MON_MAG, MON_NAME, MON_REWARD, MON_STR, MON_VP,
    ROLE_WORD, domain_power_text, duke_text, effect_text,
)
from .rules import (
    CIT0, DOM0, N_MON_POS, NT, P_ACTION, P_DUKES, P_HARVEST, P_OVER, P_ROLL, PHASE_NAME, SLOT_TYPES,
    ValeriaState, harvest_text,
)

SEAT_STYLE = ("bold red", "bold blue", "bold yellow", "bold green", "bold magenta")
ROLE_STYLE = ("yellow", "red", "magenta", "cyan")


def seat_label(seat: int) -> Text:
    """``Player 2`` in the seat's colour."""
    return Text(seat_name(seat), style=SEAT_STYLE[seat % len(SEAT_STYLE)])


def _exhausted() -> Text:
    return Text("EXHAUSTED", style="dim")


def _monster_cell(state: ValeriaState, p: int) -> Text:
    stack = state.stacks[p]
    text = Text(AREAS[state.areas[p]], style="bold")
    if not stack:
        text.append("\n")
        text.append_text(_exhausted())
        return text
    m = stack[-1]
    text.append(f"  ({len(stack)})", style="dim")
    text.append(f"\n{MON_NAME[m]}", style="bold red")
    cost = f"Str {MON_STR[m]}" + (f" + {MON_MAG[m]} Magic" if MON_MAG[m] else "")
    text.append(f"\n{cost}, {MON_VP[m]} VP")
    text.append(f"\n> {effect_text(MON_REWARD[m])}", style="green")
    return text


def _citizen_cell(state: ValeriaState, i: int) -> Text:
    p = CIT0 + i
    stack = state.stacks[p]
    slot = "-".join(str(n) for n in CIT_SLOTS[SLOT_TYPES[i][0]])
    text = Text(f"[{slot}] ", style="bold cyan")
    if not stack:
        text.append_text(_exhausted())
        return text
    t = stack[-1]
    text.append(CIT_NAME[t], style="bold")
    down = state.cit_down[i]
    text.append(f"  ({len(stack)}" + (f", {down} face down" if down else "") + ")", style="dim")
    text.append(f"\n{CIT_COST[t]} Gold+ ")
    text.append(ROLE_WORD[CIT_ROLE[t]], style=ROLE_STYLE[CIT_ROLE[t]])
    text.append(f"\nOn: {effect_text(CIT_ON[t])}")
    text.append(f"\nOff: {effect_text(CIT_OFF[t])}", style="dim")
    return text


def _roles_text(req) -> str:
    parts = []
    for r, n in enumerate(req):
        if n:
            parts.append(ROLE_WORD[r] + (f" x{n}" if n > 1 else ""))
    return ", ".join(parts) or "-"


def _domain_cell(state: ValeriaState, p: int) -> Text:
    stack = state.stacks[p]
    text = Text(f"Domain {p - DOM0 + 1}", style="bold")
    if not stack:
        text.append("\n")
        text.append_text(_exhausted())
        return text
    d = stack[-1]
    text.append(f"  (+{len(stack) - 1} face down)", style="dim")
    text.append(f"\n{DOM_NAME[d]}", style="bold green")
    text.append(f"\n{DOM_COST[d]} Gold, {DOM_VP[d]} VP; needs {_roles_text(DOM_REQ[d])}")
    text.append(f"\n{domain_power_text(d)}", style="green")
    return text


def _center(state: ValeriaState) -> Table:
    table = Table(title="Center Stacks", show_header=False, show_lines=True, expand=True, padding=(0, 1))
    for _ in range(5):
        table.add_column(ratio=1)
    table.add_row(*[_monster_cell(state, p) for p in range(N_MON_POS)])
    table.add_row(*[_citizen_cell(state, i) for i in range(5)])
    table.add_row(*[_citizen_cell(state, i) for i in range(5, 10)])
    table.add_row(*[_domain_cell(state, p) for p in range(DOM0, DOM0 + 5)])
    return table


def _players(state: ValeriaState, seat: int | None) -> Table:
    table = Table(title="Players", expand=True, show_lines=True)
    for col, kw in (("player", {}), ("Gold", {"justify": "right"}), ("Str", {"justify": "right"}),
                    ("Magic", {"justify": "right"}), ("VP", {"justify": "right"}),
                    ("tableau", {"ratio": 1})):
        table.add_column(col, **kw)
    over = state.phase == P_OVER
    for s in range(state.players):
        b = s * 4
        label = seat_label(s)
        if s == state.active and not over and state.phase != P_DUKES:
            label.append(" (active)", style="bold")
        if s == state.resting:
            label.append(" (resting)", style="dim")
        if s == state.first and state.players > 1:
            label.append("\nfirst player", style="dim")
        own = state.own[s * NT:(s + 1) * NT]
        tab = Text()
        cits = [f"{CIT_DISPLAY[t]}" + (f" x{c}" if c > 1 else "") for t, c in enumerate(own) if c]
        tab.append("Citizens: " + ", ".join(cits))
        roles = state.roles(s)
        if any(roles):
            tab.append("  [" + ", ".join(f"{ROLE_WORD[r]} {n}" for r, n in enumerate(roles) if n) + "]", style="dim")
        if state.doms[s]:
            tab.append("\nDomains: " + ", ".join(DOM_NAME[d] for d in state.doms[s]), style="green")
        if state.victory[s]:
            tab.append("\nMonsters: " + ", ".join(MON_NAME[m] for m in state.victory[s]), style="red")
        tokens = state.res[b + 3]
        vp = Text(str(state.public_vp(s)))
        if tokens:
            vp.append(f"\n({tokens} tokens)", style="dim")
        duke = state.dukes[s]
        if (over or s == seat) and duke >= 0:
            tab.append(f"\nDuke: {DUKE_NAME[duke]} ({duke_text(duke)}) = {state.duke_vp(s)} VP now",
                       style="bold magenta")
            if over:
                vp = Text(f"{state.score(s)}", style="bold")
                vp.append(f"\n(Duke {state.duke_vp(s)})", style="dim")
        elif s == seat and state.phase == P_DUKES:
            tab.append("\nDukes dealt: " + " / ".join(DUKE_NAME[d] for d in state.offers[s]), style="magenta")
        table.add_row(label, str(state.res[b]), str(state.res[b + 1]), str(state.res[b + 2]), vp, tab)
    return table


def _status(state: ValeriaState) -> Text:
    text = Text()
    if state.phase == P_DUKES:
        text.append("Each player keeps one of two Dukes, in secret.", style="bold")
        return text
    if state.dice:
        a, b = state.dice
        text.append(f"Dice: [{a}] [{b}]  (activates {a}, {b} and {a + b})", style="bold")
    text.append(f"   Phase: {PHASE_NAME[state.phase]}", style="cyan")
    text.append(f"   Exhausted stacks: {state.exhausted_count()}"
                + (f" of {2 * state.players} to end" if state.players > 1 else " of 5 to end"), style="dim")
    if state.players == 1 and state.dice and state.phase in (P_ROLL, P_HARVEST, P_ACTION):
        text.append("\nAfter your Actions the Monsters attack: " + "; ".join(
            "a stack of your choice (die 6)" if v == 6 else
            f"column {v} ({AREAS[state.areas[v - 1]]})" if state.stacks[v - 1] else
            f"nothing (die {v}: Exhausted stack)" for v in state.dice), style="magenta")
    if state.payouts:
        parts = []
        rested = state.payouts_resting  # not ``resting`` while a new turn's Harvest is on its way
        for s, p in enumerate(state.payouts):
            # the resting player only shows up when a Thief took from them (R11.6)
            if s == rested and not any(s == victim for _, victim, *_ in state.steals):
                continue
            parts.append(f"{seat_name(s)}: {harvest_text(s, p, state.steals, s == rested)}")
        text.append("\nLast Harvest: " + "; ".join(parts))
    return text


def _dark_lord(state: ValeriaState) -> Text:
    text = Text("The Dark Lord", style="bold magenta")
    over = state.phase == P_OVER
    text.append(f" ({DUKE_NAME[state.dark_lord]})" if over and state.dark_lord >= 0 else " (Duke face down)")
    cits = ", ".join(CIT_NAME[t] for t in state.cap_cit) or "none"
    doms = ", ".join(DOM_NAME[d] for d in state.cap_dom) or "none"
    text.append(f"\nCaptured Citizens: {cits}\nCaptured Domains: {doms}")
    if over:
        text.append(f"\nDark Lord score: {state.dark_lord_score()}; your score: {state.score(0)}", style="bold")
    return text


def render(state: ValeriaState, seat: int | None = None):
    """A rich renderable of the table as ``seat`` sees it (None: a spectator)."""
    parts = [_center(state), _players(state, seat)]
    if state.players == 1:
        parts.append(_dark_lord(state))
    parts.append(_status(state))
    if state.phase == P_OVER:
        if state.players == 1:
            verdict = "You win!" if state.winners else "The Dark Lord wins."
        else:
            verdict = "Winner: " + ", ".join(seat_name(s) for s in state.winners)
        parts.append(Text(verdict, style="bold green"))
    title = f"Valeria: Card Kingdoms - turn {state.turn}"
    if state.phase not in (P_DUKES, P_OVER):
        title += f", {seat_name(state.active)} is the Active player"
    return Panel(Group(*parts), title=title)
