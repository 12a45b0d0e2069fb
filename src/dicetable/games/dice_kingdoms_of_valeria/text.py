"""Terminal table of Dice Kingdoms of Valeria, drawn from an observation only.

:func:`text_view` draws the table (dice, Statue draft line, one line per
player) and one seat's two sheets in full as a dense grid: the Castle
(Citizens Tableau, Guild Tracks, Gold Chart, Knights on the Wall, Monster
Lairs, Statues, Score Tally; trees, ships and Events in solo) and the Forest
(every Road with its pips and Bridges, every Domain with its power). It fits
26 lines at 120 columns and 12 lines at 80 (compact).

Pips: ``○`` open, ``●`` marked, ``★`` a marked Star; an open Reward Pip shows
its letter (``R`` Recruit, ``$`` Gold, ``=`` Road, ``K`` Knight, ``X`` Slay,
``P`` Plinth, ``*`` Star); ``×`` is voided (crossed out). ``[ ]`` is a Bridge.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from dicetable.engine import seat_name

from .components import EVENTS
from .sheet import GOLD, GUILDS, KNIGHT, PLAIN, PLINTH, RECRUIT, ROAD, SLAY, STAR
from .rules import DRAFT, HARVEST, OVER, solo_result
from .viewdata import (
    ObsLike, Sheet, dice_faces, focus_seat, lair_first_note, lair_vp_state, layout, phase_name, power_short, solo_flags,
    statue_card, statue_short, viewer_of,
)

LETTER = {PLAIN: "○", RECRUIT: "R", GOLD: "$", ROAD: "=", KNIGHT: "K", SLAY: "X", PLINTH: "P", STAR: "*"}
COLOUR = {RECRUIT: "magenta", GOLD: "yellow", ROAD: "green", KNIGHT: "cyan", SLAY: "red",
          PLINTH: "bright_blue", STAR: "bright_yellow"}
GUILD_STYLE = ("bright_white", "yellow", "magenta", "red")
GUILD_SHORT = ("Ho", "Wo", "Sh", "So")
LEGEND = ("○ open pip ● marked ★ marked Star │ Reward Pips: R Recruit $ Gold = Road K Knight X Slay "
          "P Plinth * Star │ × voided")
DICE_STYLE = {"yellow": "black on yellow", "red": "white on red", "green": "black on green",
              "blue": "white on blue"}
ACTION_OF = {"yellow": "Recruit", "red": "Slay", "green": "Build", "blue": "adds to one"}


def pip(code: int, marked: bool, voided: bool = False) -> Text:
    """One pip as a styled character (see the module docstring)."""
    if voided:
        return Text("×", style="bold red")
    if marked:
        if code == STAR:
            return Text("★", style="bold bright_yellow")
        return Text("●", style="bold " + COLOUR.get(code, "bright_white"))
    if code == PLAIN:
        return Text("○", style="grey50")
    return Text(LETTER[code], style=COLOUR[code])


def pips(codes, marked, voided=frozenset(), group: int = 0) -> Text:
    """A section's pips: ``marked`` is a count (the first pips) or a set of positions."""
    out = Text()
    for i, code in enumerate(codes):
        if group and i and i % group == 0:
            out.append(" ")
        is_marked = i < marked if isinstance(marked, int) else i in marked
        out.append_text(pip(code, is_marked, i in voided))
    return out


def _cell(text: Text | str, width: int) -> Text:
    """``text`` cut or padded to exactly ``width`` cells."""
    t = Text(text) if isinstance(text, str) else text.copy()
    t.truncate(width, overflow="ellipsis", pad=True)
    return t


def _row(*parts, widths=None, sep: str = " ") -> Text:
    """Parts side by side; each but the last padded to its width from ``widths``."""
    out = Text(no_wrap=True, overflow="ellipsis")
    for i, part in enumerate(parts):
        if i:
            out.append(sep)
        if widths and i < len(widths) and widths[i]:
            out.append_text(_cell(part, widths[i]))
        else:
            out.append_text(Text(part) if isinstance(part, str) else part)
    return out


def _flow(items: list, colw: int, per_line: int, sep: str = " ") -> list[Text]:
    """Items in lines of ``per_line`` columns, each ``colw`` cells wide, ``sep`` between them."""
    lines = []
    for i in range(0, len(items), per_line):
        chunk = items[i:i + per_line]
        lines.append(_row(*chunk, widths=[colw] * (len(chunk) - 1), sep=sep))
    return lines


# ---------------------------------------------------------------- the table

def _header(obs: ObsLike, compact: bool, width: int) -> Text:
    """Game and season, round (solo: turn), Active Player, phase, who is deciding, LAST ROUND,
    the winner: the longest form that fits ``width`` (seats in full, then "P2", then the compact
    form, which names the season alone when the game's name does not fit)."""
    forms = [] if compact else [dict(short=False), dict(short=True)]
    forms += [dict(short=True, compact=True, title=True), dict(short=True, compact=True, title=False)]
    for form in forms:
        head = _header_text(obs, **form)
        if head.cell_len <= width:
            return head
    return head


def _header_text(obs: ObsLike, short: bool, compact: bool = False, title: bool = True) -> Text:
    lay = layout(obs)
    solo = obs.get("solo")
    season = obs["sheets"].capitalize()
    head = Text(no_wrap=True, overflow="ellipsis")
    head.append(f"Dice Kingdoms of Valeria ({season})" if title else season, style="bold")
    if solo:
        head.append(f"  Turn {solo['trees']} of {lay.trees}")
    else:
        head.append(f"  Round {obs['round']}")
    phase = phase_name(obs)
    name = (lambda s: f"P{s + 1}") if short else seat_name
    join = ",".join if compact else ", ".join
    if not (compact and obs["phase"] == OVER):
        head.append(f"  Active{' ' if compact else ': '}{name(obs['active'])}", style="bold")
    head.append(f"  {phase}", style="bold")
    if obs["phase"] == OVER:
        if solo:
            head.append(f"  Final score {obs['scores'][0]}: {solo_result_title(obs)}", style="bold green")
        else:
            head.append("  Winner: " + join(name(s) for s in obs["winners"]), style="bold green")
    elif obs["deciding"] and obs["phase"] in (HARVEST, DRAFT):
        who = join(name(s) for s in obs["deciding"])
        head.append(f"  deciding {who}" if compact else f"  deciding: {who}", style="grey70")
    if obs["last_round"] and obs["phase"] != OVER:
        head.append("  LAST ROUND", style="bold red")
    tasks = obs.get("my_tasks") or []
    if len(tasks) > 1 and not compact:
        head.append(f"  {len(tasks)} tasks" if short else f"  your tasks: {', '.join(reversed(tasks))}",
                    style="grey70")
    if not short and obs.get("seat") is None:
        head.append("  (spectator)", style="grey70")
    return head


def solo_result_title(obs: ObsLike) -> str:
    """The solo result's title (rulebook: Solo Rules, Scoring)."""
    return obs["solo"].get("result") or solo_result(obs["scores"][0])[0]


def _dice(obs: ObsLike, compact: bool) -> Text:
    b1, b2, *colours = dice_faces(obs)
    d = dict(zip(("yellow", "red", "green", "blue"), colours))
    second, no_blue, _ = solo_flags(obs)
    out = Text(no_wrap=True, overflow="ellipsis")
    if second:
        out.append("2nd Harvest black " if compact else "2nd Harvest black dice: ")
    else:
        out.append("Black " if compact else "Harvest (black dice) ")
    pad = "" if compact else " "
    out.append(f"{pad}{b1}{pad}", style="bold white on grey23")
    out.append(" ")
    out.append(f"{pad}{b2}{pad}", style="bold white on grey23")
    out.append(f" ={b1 + b2}" if compact else f" sum {b1 + b2}")
    out.append(" │ " if not second else (" │ used: " if compact else " │ Action dice (used): "))
    for colour in ("yellow", "red", "green", "blue"):
        if colour == "blue" and no_blue:
            out.append("no Blue (Heavy Rain)" if not compact else "no Blue", style="cyan")
            continue
        if compact and second:
            out.append(f"{colour[0].upper()}{d[colour]} ")
            continue
        if compact:
            out.append(f"{colour.capitalize()} ")
            out.append(str(d[colour]), style="bold " + DICE_STYLE[colour])
            out.append(" ")
            continue
        out.append(f" {d[colour]} ", style="bold " + DICE_STYLE[colour])
        out.append(f" {colour.capitalize()}" + ("  " if second else f" {ACTION_OF[colour]}  "))
    if compact:
        out.append("│ Statue line ")
        out.append(" ".join(str(statue_card(c)[0]) for c in obs["statue_line"]), style="bold bright_blue")
    return out


def _draft_line(obs: ObsLike) -> list[Text]:
    """The Statue draft line in 2 lines: each card's number and effect, and the deck's backs."""
    items = [Text("Statue draft line:", style="bold")]
    for c in obs["statue_line"]:
        n = statue_card(c)[0]
        card = Text(f"[{n}]", style="bold bright_blue")
        card.append(f" {statue_short(n)}")
        items.append(card)
    deck = obs["statue_deck"]
    items.append(Text(f"deck: {deck['day']} Day, {deck['night']} Night", style="grey70"))
    return _flow(items, 29, 4)


def _player_line(obs: ObsLike, s: int, viewer, compact: bool) -> Text:
    lay = layout(obs)
    pl = obs["players"][s]
    sc = pl["score"]
    out = Text(no_wrap=True, overflow="ellipsis")
    mark = "▶" if s == obs["active"] else ("▷" if s in obs["deciding"] else " ")
    style = "bold green" if s == obs["active"] else ""
    done = [lay.lair_ids[li] for li in range(4) if pl["lairs"][lay.lair_ids[li]]["result"] != "open"]
    tracks = [pl["guild_tracks"][g] for g in GUILDS]
    if compact:
        out.append(f"{mark}P{s + 1} {sc['total']}VP", style=style)
        out.append(" " + "/".join(str(t) for t in tracks))
        out.append(f" ${pl['gold']} K{pl['wall']} D{sc['domains']} L{len(done)} St{len(pl['statues'])}")
        return out
    out.append(f"{mark}{seat_name(s)}{' (you)' if s == viewer else ''}", style=style)
    return _row(out, Text(f"{sc['total']} VP", style="bold"),
                Text(" ".join(f"{g} {t}" for g, t in zip(GUILDS, tracks))),
                Text(f"Gold {pl['gold']} Wall {pl['wall']} Domains {sc['domains']}"),
                Text("Statues " + (",".join(str(k) for k in pl["statues"]) or "-")
                     + "  Lairs " + ((",".join(done) or "-") if len(done) < 3 else str(len(done)))),
                widths=[15, 6, 39, 26], sep=" ")


# ---------------------------------------------------------------- one seat's sheets

def _citizens(sheet: Sheet, compact: bool) -> list[Text]:
    lay = sheet.lay
    items = []
    for s, name in enumerate(lay.cit_names):
        g = lay.cit_guild[s]
        marked, void = sheet.citizen(s)
        t = Text(name, style="bold " + GUILD_STYLE[g])
        t.append(GUILD_SHORT[g], style=GUILD_STYLE[g])
        t.append_text(pips(lay.cit_pips[s], marked, void))
        items.append(t)
    return items


def _track(sheet: Sheet, g: int, compact: bool) -> Text:
    n, void = sheet.track(g)
    lay = sheet.lay
    t = Text(GUILD_SHORT[g] if compact else f"{GUILDS[g]:<8}", style="bold " + GUILD_STYLE[g])
    if not compact:
        t.append(" ")
    t.append_text(pips(lay.trk_pips[g], n, void, group=0 if compact else 8))
    t.append(f"{n:>3}" if compact else f" {n:>2}/24" + ("✓" if n >= 24 else ""))
    return t


def _gold(sheet: Sheet, compact: bool) -> Text:
    lay = sheet.lay
    t = Text("$" if compact else "Gold Chart ", style="bold yellow")
    t.append_text(pips(lay.gold_pips, sheet.pl["gold"], group=0 if compact else lay.gold_len // lay.gold_rows))
    t.append(f" {sheet.pl['gold']}" + ("" if compact else f"/{lay.gold_len}"))
    return t


def _wall(sheet: Sheet, compact: bool) -> Text:
    lay = sheet.lay
    n = sheet.pl["wall"]
    t = Text("K" if compact else "Knights on the Wall ", style="bold cyan")
    for i, code in enumerate(lay.wall_pips):
        if i == 4 and not compact:
            t.append("|", style="grey50")   # the gate (not a break in the section)
        if i == 8 and not compact:
            t.append(" tower ", style="grey50")
        t.append_text(pip(code, i < n))
    t.append(f" {n}" + ("" if compact else f"/{lay.wall_len}"))
    return t


def _statues(sheet: Sheet, compact: bool) -> Text:
    pl = sheet.pl
    vp = pl["score"]["statue_vp"]
    t = Text("St" if compact else "Statues ", style="bold bright_blue")
    if not pl["statues"]:
        t.append(" none" if compact else "none yet", style="grey50")
    long_form = sum(len(f"[{k}] {statue_short(k)} = {vp.get(str(k), 0)}  ") for k in pl["statues"]) <= 66
    for k in pl["statues"]:
        if compact:
            t.append(f" {k}:{vp.get(str(k), 0)}")
        else:   # each card's effect when they fit, else only its VP
            t.append(f"[{k}]", style="bold bright_blue")
            t.append(f" {statue_short(k)} = {vp.get(str(k), 0)}  " if long_form else f" {vp.get(str(k), 0)} VP  ")
    if pl["plinths_to_draft"]:
        t.append(f" +{pl['plinths_to_draft']}P" if compact else f" +{pl['plinths_to_draft']} to draft",
                 style="bold yellow")
    return t


def _tally(sheet: Sheet, compact: bool) -> Text:
    sc = sheet.score
    if compact:
        return Text(f"★{sc['stars']}+D{sc['domains']}+L{sc['lairs']}+S{sc['statues']}={sc['total']}", style="bold")
    t = Text(f"Score Tally: Stars {sc['stars']} + Domains {sc['domains']} + Lairs {sc['lairs']}"
             f" + Statues {sc['statues']} = ", style="bold")
    t.append(f"{sc['total']} VP", style="bold green")
    return t


def _lair(obs: ObsLike, sheet: Sheet, li: int, seat: int, compact: bool) -> Text:
    lay = sheet.lay
    hi, lo = lay.lair_vp[li]
    st = lair_vp_state(obs, sheet, li, seat)
    vp = {"high": f"({hi})/{lo}", "low": f"×{hi}/({lo})", "pending": f"{hi}?/{lo}",
          "crossed": f"×{hi}/{lo}", "open": f"{hi}/{lo}"}[st]
    t = Text(f"{lay.lair_ids[li]} ", style="bold")
    if not compact:
        t.append(f"{lay.lair_names[li]} ", style="bold")
    if compact and not sheet.lair(li)["access"]:
        vp = "locked"   # no access yet (Winter): the VP values are on the full sheet
    t.append(vp, style="bold green" if st in ("high", "low") else ("grey70" if st == "crossed" else ""))
    t.append(" ")
    for i, b in enumerate(lay.lair_blocks[li]):
        lo_v, hi_v = lay.block_range[b]
        if compact:
            if i:
                t.append("|", style="grey50")
        else:
            t.append(f"[{lo_v}-{hi_v} " if lo_v != hi_v else f"[{lo_v} ", style="grey70")
        t.append_text(pips(lay.block_pips[b], sheet.block(b)))
        if not compact:
            t.append("]", style="grey70")
    if not sheet.lair(li)["access"]:
        if not compact:
            t.append(" no access yet", style="grey50")
    elif not compact:
        note = lair_first_note(obs, li, seat)
        if note:
            t.append(f" {note}", style="grey70")
    return t


_EVENT_NAME: dict[str, str] = {e.id: e.name for e in EVENTS}


def _solo(obs: ObsLike, compact: bool) -> Text:
    """Trees, ships, the Events drawn (all by name when they fit, else the count and the last)
    and what lasts this turn (Heavy Rain, Drought)."""
    lay = layout(obs)
    solo = obs["solo"]
    names = [_EVENT_NAME[e] for e in solo["events_drawn"]]
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append("Trees", style="bold green")
    t.append(f" {solo['trees']}/{lay.trees}  ")
    t.append("Ships ", style="bold cyan")
    t.append("●" * solo["ships"], style="cyan")
    t.append("○" * (lay.ships - solo["ships"]), style="grey50")
    t.append(f" {solo['ships']}/{lay.ships}  ")
    _, rain, drought = solo_flags(obs)
    now = [what for flag, what in ((rain, "no Blue die (Heavy Rain)"), (drought, "no Harvest (Drought)")) if flag]
    if compact:
        now = [what.split(" (")[0].replace(" die", "") for what in now]
    tail = (" │ this turn: " + ", ".join(now)) if now else ""
    room = (80 if compact else 120) - t.cell_len - len(tail)
    events = "Events: " + (", ".join(names) or "none")
    if len(events) > room:
        events = f"Events: {len(names)}, last {names[-1]}"
    if len(events) > room:
        events = f"Events: {len(names)}"
    t.append(events, style="grey70")
    t.append(tail, style="bold cyan")
    return t


def _node(sheet: Sheet, code: int, name: str) -> Text:
    if code >= 0 and sheet.dom_voided(code):
        return Text(f"×{name}", style="red")
    if code >= 0 and sheet.claimed(code):
        return Text(name, style="bold green")
    return Text(name, style="grey70")


def _road(sheet: Sheet, r: int, compact: bool) -> Text:
    lay = sheet.lay
    marked = set(sheet.road_marked(r))
    d = sheet.road_dir(r)
    line = Text()
    for pos, code in enumerate(lay.road_pips[r][1]):
        bi = lay.pip_bridge[r].get(pos, -1)
        if bi >= 0 and pos == lay.bridge_pos[bi][0]:
            line.append("[", style="blue")
        line.append_text(pip(code, pos in marked, bi >= 0 and sheet.bridge_voided(bi) and code == GOLD))
        if bi >= 0 and pos == lay.bridge_pos[bi][2]:
            line.append("]", style="blue")
    done = len(marked) == lay.road_len[r]
    t = Text(lay.road_ids[r], style="bold" if marked else "grey70")
    if compact:
        t.append_text(line)
        return t
    t.append(" ")
    t.append_text(_node(sheet, lay.road_a[r], lay.road_a_name[r]))
    t.append(">" if d == 1 and not done else " ", style="bold")
    t.append_text(line)
    t.append("<" if d == 2 and not done else " ", style="bold")
    t.append_text(_node(sheet, lay.road_b[r], lay.road_b_name[r]))
    return t


def _domain(sheet: Sheet, d: int) -> Text:
    lay = sheet.lay
    if sheet.dom_voided(d):
        t = Text(f"×{lay.dom_ids[d]}", style="red")
    elif sheet.claimed(d):
        t = Text(f"◉{lay.dom_ids[d]}", style="bold green")
    else:
        t = Text(f"○{lay.dom_ids[d]}", style="grey70")
    t.append(f" {power_short(lay, d)}", style="" if sheet.claimed(d) else "grey70")
    if lay.dom_trail[d]:
        t.append("⇒" + ",".join(lay.lair_ids[li] for li in range(4) if lay.dom_trail[d] >> li & 1),
                 style="cyan")
    return t


def _sheets_full(obs: ObsLike, seat: int, viewer) -> list[Text]:
    """The 120-column grid of ``seat``'s Castle and Forest sheets."""
    lay = layout(obs)
    sheet = Sheet(lay, obs["players"][seat])
    who = f"{seat_name(seat)}{' (you)' if seat == viewer else ''}"
    lines = [_row(Text(f"{who}: Castle", style="bold underline"), Text("Citizens", style="bold"),
                  *_citizens(sheet, False), sep=" ")]
    right = [_gold(sheet, False), _wall(sheet, False), _statues(sheet, False), _tally(sheet, False)]
    for g in range(4):
        lines.append(_row(_track(sheet, g, False), right[g], widths=[44], sep="  "))
    lairs = [_lair(obs, sheet, li, seat, False) for li in (3, 2, 1, 0)]   # L8, L7 over L6, L5
    # Two lairs a line; one a line when a note (who completed it first, no access) needs the room.
    lines += _flow(lairs, 59, 2) if max(t.cell_len for t in lairs) <= 59 else lairs
    if obs.get("solo"):
        lines.append(_solo(obs, False))
    roads = [_road(sheet, r, False) for r in range(lay.nr)]
    lines.append(_row(Text(f"{who}: Forest", style="bold underline"), _flow(roads[:4], 23, 4)[0], sep=" "))
    lines += _flow(roads[4:], 23, 5)
    lines += _flow([_domain(sheet, d) for d in range(len(lay.dom_ids))], 23, 5)
    return lines


def _sheets_compact(obs: ObsLike, seat: int, viewer) -> list[Text]:
    """The 80-column grid of ``seat``'s sheets (9 lines)."""
    lay = layout(obs)
    sheet = Sheet(lay, obs["players"][seat])
    who = Text(f"P{seat + 1}{'(you)' if seat == viewer else ''}", style="bold underline")
    lines = [_row(who, *_citizens(sheet, True), sep=" ")]
    # Claimed Domains in Domain order (D1/W1 first), after the last Road.
    doms = Text("D:", style="bold")
    for d in range(len(lay.dom_ids)):
        doms.append("×" if sheet.dom_voided(d) else ("◉" if sheet.claimed(d) else "○"),
                    style="bold green" if sheet.claimed(d) else "grey50")
    right = [_gold(sheet, True), _wall(sheet, True), _tally(sheet, True), _statues(sheet, True)]
    lairs = [_lair(obs, sheet, li, seat, True) for li in (3, 2, 1, 0)]
    for g in range(4):
        lines.append(_row(_track(sheet, g, True), lairs[g], right[g], widths=[29, 21], sep=" "))
    lines += _flow([_road(sheet, r, True) for r in range(lay.nr)] + [doms], 12, 6)
    return lines


def text_view(obs: ObsLike, seat: int | None, *, width: int = 120, focus: int | None = None):
    """The terminal table for ``seat`` (None: a spectator) as a rich renderable.

    ``obs`` is ``state.observation(seat)``; ``focus`` is the seat whose sheets
    are drawn in full (default: the viewer, else the seat deciding, else the
    Active Player). At ``width >= 120`` at most 26 lines; below, a compact
    view of at most 12 lines that never exceeds ``width`` columns (lines are
    cut with an ellipsis rather than wrapped). Raises ValueError for a
    ``focus`` that is not a seat of the game. Rulebook: Player Sheets, Game
    Flow, Statue Cards, Scoring, Solo Rules.
    """
    viewer = viewer_of(obs, seat)
    shown = focus_seat(obs, seat, focus)
    compact = width < 120
    lines = [_header(obs, compact, width), _dice(obs, compact)]
    if compact:
        others = [s for s in range(len(obs["players"])) if s != shown]
        if obs.get("solo"):
            lines.append(_solo(obs, True))
        lines += _flow([_player_line(obs, s, viewer, True) for s in others], 40, 2, sep="")
        lines += _sheets_compact(obs, shown, viewer)
    else:
        lines += _draft_line(obs)
        lines += [_player_line(obs, s, viewer, False) for s in range(len(obs["players"]))]
        lines += _sheets_full(obs, shown, viewer)
        lines.append(Text(LEGEND, style="grey50", no_wrap=True, overflow="ellipsis"))
    for line in lines:
        line.no_wrap = True
        line.overflow = "ellipsis"
    return Group(*lines)


class _FitConsole:
    """A renderable that draws :func:`text_view` for the width of the console it is printed on."""

    def __init__(self, obs: ObsLike, seat: int | None) -> None:
        self.obs = obs
        self.seat = seat

    def __rich_console__(self, console, options):
        yield text_view(self.obs, self.seat, width=options.max_width)


def render(state, seat: int | None = None):
    """The old entry point: ``text_view(state.observation(seat), seat)`` at the console's width
    (the compact view below 120 columns)."""
    return _FitConsole(state.observation(seat), seat)
