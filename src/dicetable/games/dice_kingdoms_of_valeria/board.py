"""Browser board of Dice Kingdoms of Valeria: an HTML fragment with inline SVG.

:func:`board_view` draws the table as the physical game lays it out
(rulebook: Game Setup, Player Sheets): the six dice (the two black dice for
the Harvest, the Yellow, Red and Green dice with the action each one takes,
the Blue die that adds to one of them), the Statue draft line, and every
player's Castle sheet to the left of their Forest sheet. The viewer's sheets
(or, for a spectator, the deciding seat's) are shown; the others are one
click away on tabs (pure CSS: radio inputs, no script). Every legal action
is placed on the pip, Range Block pip, Road pip or Statue card it marks or
takes; only "take no action" is left to the page's action bar.

The sheets are reconstructed (the official ones are not public): the
positions of the Forest's Domains come from ``data/board.json``.
"""

from __future__ import annotations

import marshal
from functools import lru_cache
from typing import Any, Mapping
from math import hypot

from dicetable.engine import seat_name
from dicetable.engine.markup import LEGEND, PIPS, ROOT, Coord, attr, die_svg, legend, memo, slot, text

from .boarddata import BOARD
from .components import DRAFT_LINE, EVENTS, STATUES
from .layout import LAYOUTS
from .sheet import GOLD, GUILDS, KNIGHT, PLAIN, PLINTH, RECRUIT, ROAD, SLAY, STAR
from .rules.fx import cit_key, lair_key, road_key, statue_key, trk_key
from .viewdata import (
    ObsLike, Sheet, dice_faces, focus_seat, lair_first_note, lair_vp_state, layout, phase_name, power_long,
    solo_flags, statue_card, statue_short, viewer_of,
)

GAME_ID = "dice-kingdoms-of-valeria"

#: Reward Pips: (glyph, CSS class, what it does in our words; rulebook: Reward Pips).
REWARD = {
    PLAIN: ("", "plain", "a plain pip"),
    RECRUIT: ("R", "recruit", "Recruit Reward Pip: mark a Citizen of your choice at once"),
    GOLD: ("$", "gold", "Gold Reward Pip: mark your next Gold Chart pip at once"),
    ROAD: ("=", "road", "Road Reward Pip: mark one Road pip at once"),
    KNIGHT: ("K", "knight", "Knight Reward Pip: mark your next Wall pip at once"),
    SLAY: ("X", "slay", "Slay Reward Pip: mark the next pip of a lair's leftmost open Range Block at once"),
    PLINTH: ("P", "plinth", "Plinth Reward Pip: take a Statue card from the draft line"),
    STAR: ("★", "star", "Star Pip: 1 VP at the end of the game"),
}
GUILD_CLASS = ("holy", "worker", "shadow", "soldier")
DIE_ACTION = {"yellow": ("Recruit", "Yellow die: the Recruit action marks a Citizen of its value (or Yellow + Blue)"),
              "red": ("Slay", "Red die: the Slay action marks the leftmost pip of the matching Range Block "
                              "in a Monster Lair, then 1 Gold"),
              "green": ("Build", "Green die: the Build action marks up to that many pips on one Road"),
              "blue": ("+ one die", "Blue die: may add its full value to the Yellow, Red or Green die")}


class _Places:
    """The legal actions by the piece they concern: key -> [(id, label)] in the given order."""

    def __init__(self, obs: ObsLike, actions: list, seat: int | None) -> None:
        self.on: dict = {}
        self.left: list = []
        self.castle: tuple = ()
        self.forest: tuple = ()
        if not actions or seat is None or not 0 <= seat < len(obs["players"]):
            return
        lay = layout(obs)
        sheet = Sheet(lay, obs["players"][seat])
        for act in actions:
            key = self._key(obs, lay, sheet, str(act["id"]))
            if key is None:
                self.left.append(act)
            else:
                self.on.setdefault(key, []).append((str(act["id"]), str(act["label"])))
        self.on = {k: tuple(v) for k, v in self.on.items()}
        pips = sorted((k, v) for k, v in self.on.items() if k[0] != "statue")
        self.castle = tuple((k, v) for k, v in pips if k[0] != "road")
        self.forest = tuple((k, v) for k, v in pips if k[0] == "road")

    @staticmethod
    def _key(obs, lay, sheet: Sheet, aid: str):
        kind, _, rest = aid.partition(":")
        try:
            if kind in ("yellow", "recruit"):
                s = lay.cit_names.index(rest)
                return ("cit", s, sheet.citizen(s)[0])
            if kind == "red":
                lid, rng = rest.split(":")
                li = lay.lair_ids.index(lid)
                b = next(b for b in lay.lair_blocks[li] if "%d-%d" % lay.block_range[b] == rng)
                return ("blk", b, sheet.block(b))
            if kind == "slay":
                li = lay.lair_ids.index(rest)
                b = sheet.leftmost_block(li)
                return ("blk", b, sheet.block(b)) if b >= 0 else None
            if kind in ("green", "road"):
                rid, _, tail = rest.partition("@")
                r = lay.road_ids.index(rid)
                origin, _, k = tail.partition(":")
                d = 1 if origin == lay.road_a_name[r] else 2
                return ("road", r, sheet.road_pip_after(r, d, int(k) if k else 1))
            if kind == "statue":
                n = int(rest)
                for i, c in enumerate(obs["statue_line"]):
                    if int(c.split("-")[0]) == n:
                        return ("statue", i)
                return None
            if kind == "harvest":
                g = GUILDS.index(rest)
                return ("trk", g, sheet.track(g)[0])
            if kind == "strike":
                g = GUILDS.index(rest)
                i = sheet.strike_pip(g)
                return ("trk", g, i) if i >= 0 else None
        except (ValueError, StopIteration):
            return None
        return None


# ---------------------------------------------------------------- SVG pieces

def _tip(code: int, title: str, marked: bool = False, voided: bool = False) -> str:
    """A pip's hover text: where it is, what its Reward does and, when not open, its state."""
    return f"{title}: {REWARD[code][2]}" + (" (voided)" if voided else " (marked)" if marked else "")


def _pip(x: Coord, y: Coord, code: int, marked: bool, title: str, voided: bool = False, r: Coord = 6.5) -> str:
    """A pip drawn whole, its state included (its actions are drawn over it: :func:`_acts`)."""
    glyph, cls, _ = REWARD[code]
    state = "voided" if voided else ("marked" if marked else "open")
    body = [f'<circle class="pip {cls} {state}" cx="{x:.1f}" cy="{y:.1f}" r="{r}"/>']
    if glyph and not marked:
        body.append(f'<text class="glyph {cls}" x="{x:.1f}" y="{y + 3.2:.1f}">{text(glyph)}</text>')
    if marked and code == STAR:
        body.append(f'<text class="glyph star on" x="{x:.1f}" y="{y + 3.2:.1f}">★</text>')
    if voided:
        body.append(_cross(x, y, r))
    return f"<g><title>{text(_tip(code, title, marked, voided))}</title>{''.join(body)}</g>"


def _acts(x: Coord, y: Coord, acts, r: Coord) -> str:
    """The focusable elements of the actions that mark the pip at (x, y) (named by their labels):
    the first on the pip, a second way to reach it on a small numbered ring beside it."""
    aid, label = acts[0]
    out = [f'<g class="act" role="button" tabindex="0" data-action="{attr(aid)}" aria-label="{attr(label)}">'
           f'<circle class="ring" cx="{x:.1f}" cy="{y:.1f}" r="{r + 2.5}"/></g>']
    for i, (aid, label) in enumerate(acts[1:], 1):   # a second way to reach the same pip
        ox, oy = x + 11 * i, y - 11
        out.append(f'<g class="act alt" role="button" tabindex="0" data-action="{attr(aid)}" '
                   f'aria-label="{attr(label)}"><circle class="ring alt" cx="{ox:.1f}" cy="{oy:.1f}" r="5"/>'
                   f'<text class="glyph" x="{ox:.1f}" y="{oy + 3:.1f}">{i + 1}</text></g>')
    return "".join(out)


def _cross(x: Coord, y: Coord, r: Coord) -> str:
    return (f'<path class="void" d="M{x - r:.1f} {y - r:.1f}L{x + r:.1f} {y + r:.1f}'
            f'M{x + r:.1f} {y - r:.1f}L{x - r:.1f} {y + r:.1f}"/>')


def _pip_base(x: Coord, y: Coord, code: int, title: str, r: Coord) -> str:
    """The unchanging layer of a pip (outline, Reward glyph, what it is); its state is drawn over it."""
    glyph, cls, _ = REWARD[code]
    g = f'<text class="glyph {cls}" x="{x:.1f}" y="{y + 3.2:.1f}">{text(glyph)}</text>' if glyph else ""
    return (f'<g><title>{text(_tip(code, title))}</title>'
            f'<circle class="pip {cls}" cx="{x:.1f}" cy="{y:.1f}" r="{r}"/>{g}</g>')


def _pip_over(x: Coord, y: Coord, code: int, r: Coord, marked: bool, voided: bool) -> str:
    """What a marked or voided pip adds over its unchanging layer ("" for an open pip)."""
    if voided:
        return f'<circle class="mk voided" cx="{x:.1f}" cy="{y:.1f}" r="{r}"/>' + _cross(x, y, r)
    if not marked:
        return ""
    star = f'<text class="glyph star on" x="{x:.1f}" y="{y + 3.2:.1f}">★</text>' if code == STAR else ""
    return f'<circle class="mk marked" cx="{x:.1f}" cy="{y:.1f}" r="{r + 1.2}"/>{star}'


def _counter(key: str, n: int, x: Coord, y: Coord, cls: str, tail: str = "") -> str:
    """A counter the page may count up: ``<text>`` whose ``tspan`` carries ``data-key``/``data-count``."""
    return (f'<text class="{cls}" x="{x}" y="{y}"><tspan data-key="{key}" data-count="{n}">{n}</tspan>'
            f"{text(tail)}</text>")


def _hidden_count(key: str, n: int, x: Coord, y: Coord, what: str) -> str:
    """A counter with no printed figure on the sheet (its pips show it): a transparent number the
    page can still count and place its +n on, named for assistive technology."""
    return (f'<text class="cnt" x="{x:.1f}" y="{y:.1f}" data-key="{key}" data-count="{n}" '
            f'aria-label="{attr(what)}">{n}</text>')


# ---------------------------------------------------------------- Castle sheet

def _wall_xy() -> list:
    """The Wall's pip centres: along the castle's foot (the gate makes no break), then up the tower."""
    return [(190 + i * 19 + (20 if i >= 4 else 0), 250) for i in range(8)] + [(362, 226 - j * 24) for j in range(4)]


def _track_xy(g: int, i: int) -> tuple[Coord, Coord]:
    y0 = 74 + g * 47
    return 62 + (i % 8) * 14.5, y0 + 6 + (i // 8) * 13


def _gold_xy(lay, i: int) -> tuple[Coord, Coord]:
    per = lay.gold_len // lay.gold_rows
    return 402 + (i % per) * 26, 104 + (i // per) * 30


#: Where each lair's box is drawn: L8 top left, L7 top right, L6 bottom left, L5 bottom right.
_LAIR_SLOT = {3: 0, 2: 1, 1: 2, 0: 3}


def _lair_xy(li: int) -> tuple:
    slot_ = _LAIR_SLOT[li]
    return 6 + (slot_ % 2) * 256, 268 + (slot_ // 2) * 58


def _castle_base(season: str, seat: int, solo: bool) -> str:
    """The unchanging layer of ``seat``'s Castle sheet, with the slots of its changing parts."""
    lay = LAYOUTS[season]
    p = f"p-{seat}"
    name = text(seat_name(seat))
    o = [f'<svg class="castle" viewBox="0 0 520 430" role="group" aria-label="{name}: Castle sheet">'
         f"<title>{name}: Castle sheet</title>",
         '<rect class="sheet" x="1" y="1" width="518" height="428" rx="8"/>',
         '<text class="head" x="8" y="13">Citizens Tableau</text>']
    for s, cname in enumerate(lay.cit_names):
        x0 = 6 + s * 51
        g = lay.cit_guild[s]
        values = "/".join(str(v) for v in lay.cit_values[s])
        o.append(f'<g><title>{text(cname)} Citizen ({GUILDS[g]}): activated when a black die or their sum shows '
                 f'{text(values)}; each marked pip marks a {GUILDS[g]} Guild Track pip in a Harvest</title>'
                 f'<rect class="cit {GUILD_CLASS[g]}" x="{x0}" y="18" width="48" height="46" rx="4"/>'
                 f'<text class="val" x="{x0 + 24}" y="33">{text(cname)}</text>'
                 f'<text class="guild" x="{x0 + 24}" y="43">{GUILDS[g]}</text></g>')
        o.append(slot(cit_key(seat, cname), "g"))
    for g in range(4):
        y0 = 74 + g * 47
        o.append(f'<g><title>{GUILDS[g]} Guild Track: 24 pips; completing 3 Guild Tracks '
                 f'triggers the last round</title><rect class="trkbox {GUILD_CLASS[g]}" x="5" y="{y0 - 3}" '
                 f'width="166" height="44" rx="4"/>'
                 f'<text class="track {GUILD_CLASS[g]}" x="9" y="{y0 + 12}">{GUILDS[g]}</text></g>')
        for i, code in enumerate(lay.trk_pips[g]):
            x, y = _track_xy(g, i)
            o.append(_pip_base(x, y, code, f"{GUILDS[g]} Guild Track pip {i + 1}", 5.5))
        o.append(slot(trk_key(seat, GUILDS[g]), "g"))
    o.append('<g><title>The castle: Knights on the Wall run along its foot (the gate does not break the '
             'section) and up the right-hand tower</title>'
             '<rect class="keep" x="178" y="72" width="196" height="190" rx="4"/>'
             '<path class="tower" d="M348 262V120h8v-8h8v8h8v-8h4v150z"/>'
             '<path class="keeptop" d="M236 262V200h-0v-10h10v8h10v-8h12v8h10v-8h10v10h0V262z"/></g>')
    if solo:
        o.append(slot(f"{p}-solo", "g"))
    else:
        o.append('<text class="head" x="186" y="86">Knights on the Wall</text>')
    o.append('<rect class="gate" x="260" y="238" width="14" height="24" rx="6"><title>The gate</title></rect>')
    for i, code in enumerate(lay.wall_pips):
        x, y = _wall_xy()[i]
        o.append(_pip_base(x, y, code, f"Knights on the Wall pip {i + 1}", 6.5))
    o.append(slot(f"{p}-wall", "g"))
    o.append('<text class="head" x="392" y="86">Gold Chart</text>')
    per = lay.gold_len // lay.gold_rows
    for i, code in enumerate(lay.gold_pips):
        x, y = _gold_xy(lay, i)
        o.append(_pip_base(x, y, code, f"Gold Chart pip {i + 1}", 7.5))
        if i % per == per - 1:
            o.append(f'<line class="rule" x1="392" x2="512" y1="{y + 14}" y2="{y + 14}"/>')
    o.append(slot(f"{p}-gold", "g"))
    for li in (3, 2, 1, 0):
        o.append(slot(lair_key(seat, lay.lair_ids[li]), "g"))
    o.append('<text class="head" x="8" y="399">Statues</text>')
    o.append(slot(f"{p}-statues", "g"))
    for i, tname in enumerate(_TALLY):
        x0 = 312 + i * 41
        o.append(f'<g><title>Score Tally: {tname}</title>'
                 f'<rect class="tally{" total" if tname == "Total" else ""}" x="{x0}" y="386" width="38" '
                 f'height="38" rx="4"/><text class="tlab" x="{x0 + 19}" y="399">{tname}</text></g>')
    o.append(slot(f"{p}-score", "g"))
    o.append(slot(f"{p}-acts-c", "g"))
    o.append("</svg>")
    return "".join(o)


_TALLY = ("Stars", "Domains", "Lairs", "Statues", "Total")


@lru_cache(maxsize=None)  # finite: at most 1,200: season x seat x section x marked x voided
def _citizen(season: str, seat: int, s: int, marked: int, void: tuple) -> str:
    """Citizen section ``s``'s two pips as marked, and the actions on them."""
    lay = LAYOUTS[season]
    cname = lay.cit_names[s]
    x0 = 6 + s * 51
    o = [_hidden_count(cit_key(seat, cname), marked, x0 + 44, 27,
                       f"{cname} Citizen: {marked} of 2 pips marked")]
    for i, code in enumerate(lay.cit_pips[s]):
        title = f"{cname} Citizen, {'left' if i == 0 else 'right'} pip"
        if lay.cit_start[s] > i:
            title += " (starting pip)"
        o.append(_pip(x0 + 14 + 20 * i, 54, code, i < marked, title, i in void))
    return "".join(o)


def _rows(n: int, first: int, per: int, xy, step: Coord, r: Coord) -> str:
    """Pips ``first``..``n - 1`` of a grid of ``per`` pips a row (centres ``xy(i)``, ``step`` apart)
    marked: one dotted line a row (a dash of length 0 with round caps is a dot)."""
    o = []
    i = first
    while i < n:
        k = min(n, (i // per + 1) * per) - i
        x, y = xy(i)
        o.append(f'<path class="mkrow" d="M{x:.1f} {y:.1f}h{(k - 1) * step + 0.01:.2f}" stroke-width="{2 * r + 2.5}" '
                 f'stroke-dasharray="0 {step}"/>')
        i += k
    return "".join(o)


@lru_cache(maxsize=4096)
def _track(season: str, seat: int, g: int, n: int, void: tuple) -> str:
    """Guild Track ``g``'s marks over its unchanging layer, and its count."""
    lay = LAYOUTS[season]
    y0 = 74 + g * 47
    pips = lay.trk_pips[g]
    o = [_counter(trk_key(seat, GUILDS[g]), n, 26, y0 + 28, "trkn", "/24")]
    if void:   # solo Guild Strike: pip by pip
        for i, code in enumerate(pips):
            x, y = _track_xy(g, i)
            o.append(_pip_over(x, y, code, 5.5, i < n, i in void))
        return "".join(o)
    o.append(_rows(n, 0, 8, lambda i: _track_xy(g, i), 14.5, 5.5))
    o += [_pip_over(*_track_xy(g, i), STAR, 5.5, True, False) for i in range(n) if pips[i] == STAR]
    return "".join(o)


@lru_cache(maxsize=None)  # finite: at most 130: season x seat x pips
def _wall(season: str, seat: int, n: int) -> str:
    """The Wall's marks and count."""
    lay = LAYOUTS[season]
    xy = _wall_xy()
    o = [_counter(f"p-{seat}-wall", n, 362, 100, "trkn", f"/{lay.wall_len}")]
    o += [_pip_over(x, y, lay.wall_pips[i], 6.5, True, False) for i, (x, y) in enumerate(xy[:n])]
    return "".join(o)


@lru_cache(maxsize=None)  # finite: at most 210: season x seat x pips
def _gold(season: str, seat: int, n: int) -> str:
    """The Gold Chart's marks and count."""
    lay = LAYOUTS[season]
    o = [_counter(f"p-{seat}-gold", n, 512, 86, "trkn end", f"/{lay.gold_len}"),
         _rows(n, 0, lay.gold_len // lay.gold_rows, lambda i: _gold_xy(lay, i), 26, 7.5)]
    o += [_pip_over(*_gold_xy(lay, i), STAR, 7.5, True, False) for i in range(n) if lay.gold_pips[i] == STAR]
    return "".join(o)


@lru_cache(maxsize=4096)
def _lair(season: str, seat: int, li: int, blocks: tuple, st: str, access: bool, note: str) -> str:
    """Monster Lair ``li`` drawn whole: its VP values as they stand, its Range Blocks and their pips."""
    lay = LAYOUTS[season]
    x0, y0 = _lair_xy(li)
    hi, lo = lay.lair_vp[li]
    trail = [lay.dom_ids[d] for d in range(len(lay.dom_ids)) if lay.dom_trail[d] >> li & 1]
    tip = (f"{lay.lair_ids[li]} {lay.lair_names[li]}: complete every pip for {hi} VP if first, else {lo} VP"
           + (f"; {note}" if note else "")
           + ("" if access else f"; no access yet (a Trailhead opens it: claim {' or '.join(trail)})"))
    total = sum(blocks)
    size = sum(lay.block_len[b] for b in lay.lair_blocks[li])
    o = [f'<g class="lair{"" if access else " locked"}"><title>{text(tip)}</title>'
         f'<rect class="lairbox" x="{x0}" y="{y0}" width="250" height="54" rx="5"/>'
         f'<text class="lname" x="{x0 + 6}" y="{y0 + 13}">{text(lay.lair_ids[li])} {text(lay.lair_names[li])}'
         f' <tspan class="lcnt" data-key="{lair_key(seat, lay.lair_ids[li])}" data-count="{total}">{total}</tspan>'
         f"/{size}</text>"
         + ("" if access else f'<text class="locked" x="{x0 + 218}" y="{y0 + 44}">no access</text>')]
    for j, (v, circled) in enumerate(((hi, st == "high"), (lo, st == "low"))):
        cx = x0 + 206 + j * 24
        o.append(f'<circle class="vp{" circled" if circled else ""}" cx="{cx}" cy="{y0 + 11}" r="9"/>'
                 f'<text class="vpt" x="{cx}" y="{y0 + 15}">{v}</text>')
        if j == 0 and st in ("crossed", "low"):
            o.append(f'<path class="void" d="M{cx - 8} {y0 + 19}L{cx + 8} {y0 + 3}"/>')
    if st == "pending":
        o.append(f'<text class="note" x="{x0 + 150}" y="{y0 + 13}">completed now</text>')
    o.append("</g>")
    x = x0 + 6
    for b, marked in zip(lay.lair_blocks[li], blocks):
        lo_v, hi_v = lay.block_range[b]
        n = lay.block_len[b]
        w = n * 17 + 8
        rng = f"{lo_v}-{hi_v}" if lo_v != hi_v else f"{lo_v}"
        o.append(f'<g><title>Range Block {rng}: a Slay action whose Red die (or Red + Blue) shows {rng} '
                 f'marks its leftmost open pip</title>'
                 f'<rect class="block" x="{x}" y="{y0 + 19}" width="{w}" height="32" rx="3"/>'
                 f'<text class="brange" x="{x + w / 2}" y="{y0 + 29}">{rng}</text></g>')
        for i, code in enumerate(lay.block_pips[b]):
            o.append(_pip(x + 12 + i * 17, y0 + 41, code, i < marked,
                          f"{lay.lair_ids[li]} Range Block {rng}, pip {i + 1}"))
        x += w + 4
    return "".join(o)


@lru_cache(maxsize=2048)
def _statues(seat: int, held: tuple, plinths: int) -> str:
    """The Statue Tally: each Statue held with what it is worth now, then the empty boxes."""
    o = []
    for k in range(4):
        x0 = 58 + k * 62
        if k < len(held):
            n, vp = held[k]
            o.append(f'<g data-key="{statue_key(seat, n)}"><title>Statue {n}: {text(STATUES[n - 1].effect)} '
                     f'Now {vp} VP</title>'
                     f'<rect class="stbox held" x="{x0}" y="386" width="58" height="38" rx="4"/>'
                     f'<text class="stnum" x="{x0 + 29}" y="401">Statue {n}</text>'
                     f'<text class="stvp" x="{x0 + 29}" y="417">{vp} VP</text></g>')
        else:
            o.append(f'<g><title>An empty Statue Tally box (at most 4 Statues)</title>'
                     f'<rect class="stbox" x="{x0}" y="386" width="58" height="38" rx="4"/></g>')
    if plinths:
        o.append(f'<text class="note" x="58" y="382">{plinths} Statue(s) to take in the draft</text>')
    return f'<g data-key="p-{seat}-statues">{"".join(o)}</g>'


@lru_cache(maxsize=2048)
def _score(seat: int, values: tuple) -> str:
    """The Score Tally's figures (stars, domains, lairs, statues, total)."""
    return "".join(_counter(f"p-{seat}-total" if name == "Total" else f"p-{seat}-tally-{name.lower()}",
                            v, 312 + i * 41 + 19, 418, "tval")
                   for i, (name, v) in enumerate(zip(_TALLY, values)))


@lru_cache(maxsize=1024)
def _solo(season: str, trees: int, ships: int, events: tuple) -> str:
    """Solo: the trees (turns), the ships (Events) and the last three Events drawn."""
    lay = LAYOUTS[season]
    o = []
    for t in range(lay.trees):
        x, y = 216 + (t // 10) * 96, 236 - (t % 10) * 15   # two rows of 10 from the gate
        o.append(f'<g><title>Tree {t + 1} of {lay.trees}: one turn of the solo game '
                 f'({"marked off" if t < trees else "not yet"})</title>'
                 f'<circle class="tree{" on" if t < trees else ""}" cx="{x}" cy="{y}" r="4.5"/></g>')
    for k in range(lay.ships):
        x, y = 190 + (k // 3) * 158, 110 + (k % 3) * 30
        o.append(f'<g><title>Ship {k + 1} of {lay.ships}: marked off when doubles draw a Solo Event '
                 f'({"marked off" if k < ships else "not yet"})</title>'
                 f'<path class="ship{" on" if k < ships else ""}" d="M{x - 7} {y}h14l-3 5h-8z'
                 f'M{x} {y}v-8l5 6z"/></g>')
    o.append(_hidden_count("solo-trees", trees, 226, 92, f"Trees marked off: {trees} of {lay.trees}"))
    o.append(_hidden_count("solo-ships", ships, 190, 96, f"Ships marked off: {ships} of {lay.ships}"))
    names = {e.id: e for e in EVENTS}
    for i, e in enumerate(events):
        ev = names[e]
        o.append(f'<g><title>Event {text(ev.name)}: {text(ev.text)}</title><text class="event" x="274" '
                 f'y="{92 + i * 11}">{text(ev.name)}</text></g>')
    return "".join(o)


# ---------------------------------------------------------------- Forest sheet

def _forest_base(season: str, seat: int) -> str:
    """The unchanging layer of ``seat``'s Forest sheet, with the slots of its Roads and Domains."""
    lay = LAYOUTS[season]
    pos = BOARD.seasons[season]
    p = f"p-{seat}"
    name = text(seat_name(seat))
    o = [f'<svg class="forest" viewBox="0 0 {BOARD.width} {BOARD.height}" role="group" '
         f'aria-label="{name}: Forest sheet"><title>{name}: Forest sheet</title>',
         f'<rect class="sheet forest-bg" x="1" y="1" width="{BOARD.width - 2}" height="{BOARD.height - 2}" rx="8"/>']
    if pos.river_y:
        y = pos.river_y
        o.append(f'<path class="river" d="M0 {y} C130 {y - 18} 260 {y + 18} 390 {y} S520 {y - 10} 520 {y}">'
                 f'<title>The river (its Bridges are on the Roads that cross it)</title></path>')
    if season == "winter":
        cx, cy = pos.nodes["W9"]
        o.append(f'<ellipse class="lake" cx="{cx}" cy="{cy}" rx="70" ry="38"><title>The frozen lake</title></ellipse>')
    o += [slot(road_key(seat, rid), "g") for rid in lay.road_ids]
    starts = {lay.road_a_name[r] for r in lay.start_roads}
    for name_, (x, y) in pos.nodes.items():
        if name_ in lay.dom_ids:
            o.append(slot(f"{p}-dom-{name_}", "g"))
        elif name_ in starts:
            o.append(f'<g class="start"><title>Starting pip {name_} (marked at set-up): its Road is continued '
                     f'from here</title><circle cx="{x}" cy="{y}" r="7"/></g>')
        else:
            o.append(f'<g class="deadend"><title>{name_}: a dead end; a Build stops here</title>'
                     f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16" rx="2"/>'
                     f'<text class="did" x="{x}" y="{y + 3}">{name_}</text></g>')
    o.append(slot(f"{p}-acts-f", "g"))
    o.append("</svg>")
    return "".join(o)


@lru_cache(maxsize=None)  # finite: at most 2
def _road_pips(season: str) -> tuple:
    """Per Road: its ends and, per pip, (x, y, Bridge index or -1); then every pip centre (for the labels)."""
    lay = LAYOUTS[season]
    pos = BOARD.seasons[season]
    roads, drawn = [], []
    for r in range(lay.nr):
        a, b = pos.nodes[lay.road_a_name[r]], pos.nodes[lay.road_b_name[r]]
        n = lay.road_len[r]
        length = hypot(b[0] - a[0], b[1] - a[1])
        ra = 9 if lay.road_a[r] == -1 else 19   # pips between the node circles
        rb = 19 if lay.road_b[r] >= 0 else 9
        step = (length - ra - rb) / n
        pips = []
        for i in range(n):
            t = (ra + step * (i + 0.5)) / length
            x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            pips.append((x, y, lay.pip_bridge[r].get(i, -1)))
            drawn.append((x, y))
        roads.append((a, b, step, length, tuple(pips)))
    return tuple(roads), tuple(drawn)


@lru_cache(maxsize=8192)
def _road(season: str, seat: int, r: int, marked: int, origin: int, done: tuple, void: tuple) -> str:
    """Road ``r`` drawn whole: its line, its Bridges, its pips as marked and the actions on them.

    ``origin`` is 0 (not begun), 1 (from its a end) or 2 (from its b end); ``done``/``void``
    the Bridges of this Road that are complete / voided.
    """
    lay = LAYOUTS[season]
    a, b, step, length, pips = _road_pips(season)[0][r]
    n = lay.road_len[r]
    on_pips = set(range(n - marked, n)) if origin == 2 else set(range(marked))
    rid = lay.road_ids[r]
    o = [f'<line class="roadline{" begun" if origin else ""}" x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}"/>']
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    o.append(_hidden_count(road_key(seat, rid), marked, mx, my, f"Road {rid}: {marked} of {n} pips marked"))
    for i, code in enumerate(lay.road_pips[r][1]):
        x, y, bi = pips[i]
        title = f"Road {rid} ({lay.road_a_name[r]}-{lay.road_b_name[r]}), pip {i + 1}"
        if bi >= 0:
            title += f", Bridge {lay.bridge_ids[bi]}"
            if i == lay.bridge_pos[bi][0]:
                f = (step / length)
                bx, by = x + (b[0] - a[0]) * f, y + (b[1] - a[1]) * f
                o.append(f'<circle class="bridge{" done" if bi in done else ""}" cx="{bx:.1f}" '
                         f'cy="{by:.1f}" r="{min(16.0, step * 1.4):.1f}"><title>Bridge '
                         f'{lay.bridge_ids[bi]}: complete when its 3 pips are marked (Statue 1 pays 2 VP each)'
                         f'</title></circle>')
        o.append(_pip(x, y, code, i in on_pips, title, bi >= 0 and code == GOLD and bi in void, r=5.8))
    return "".join(o)


@lru_cache(maxsize=None)  # finite: at most 104: season x Domain x claimed x voided
def _domain(season: str, d: int, claimed: bool, void: bool) -> str:
    """Domain ``d``: its power, its Trailhead, and whether it is claimed or voided."""
    lay = LAYOUTS[season]
    name = lay.dom_ids[d]
    x, y = BOARD.seasons[season].nodes[name]
    trail = [lay.lair_ids[li] for li in range(4) if lay.dom_trail[d] >> li & 1]
    tip = (f"Domain {name} {lay.dom_names[d]}: {power_long(lay, d)}"
           + (f"; Trailhead: opens {', '.join(trail)}" if trail else "")
           + ("; claimed" if claimed else "") + ("; voided by Wildfire" if void else ""))
    return (f'<g class="domain{" claimed" if claimed else ""}{" voided" if void else ""}">'
            f'<title>{text(tip)}</title><circle cx="{x}" cy="{y}" r="18"/>'
            f'<text class="did" x="{x}" y="{y - 3}">{name}</text>'
            f'<text class="pow" x="{x}" y="{y + 8}">{text(_power_tag(lay, d))}</text>'
            + (_trail_label(x, y, trail, _road_pips(season)[1]) if trail else "")
            + "</g>")


def _trail_label(x: Coord, y: Coord, trail: list, drawn) -> str:
    """The "⇒L6" Trailhead label beside its Domain, on the side farthest from any Road pip."""
    best, where = -1.0, (0, 28)
    for dx, dy in ((0, 28), (0, -23), (31, 4), (-31, 4)):
        near = min((hypot(px - x - dx, py - y - dy) for px, py in drawn), default=99.0)
        if near > best + 0.5:
            best, where = near, (dx, dy)
    return f'<text class="trail" x="{x + where[0]}" y="{y + where[1]}">⇒{",".join(trail)}</text>'


def _symbol(body: str) -> str:
    """A legend's picture of one sheet symbol: ``body`` (SVG drawn around 0, 0) in a 20-unit box; every
    class list starts with ``lg`` (the sheets' own classes follow), so a count of the sheets' pieces
    never counts the key's pictures."""
    marked = body.replace(' class="', ' class="lg ')
    return f'<svg viewBox="-10 -10 20 20" aria-hidden="true" focusable="false">{marked}</svg>'


def _legend() -> str:
    """Part ``legend``: the key to the sheets' symbols (rulebook: Player Sheets, Reward Pips, Roads and
    Domains), each drawn with the sheets' own classes so it looks the same."""
    pip = '<circle class="pip {cls} open" r="6.5"/><text class="glyph {cls}" y="3.2">{glyph}</text>'
    rows = [(_symbol(pip.format(cls=cls, glyph=text(glyph))), what)
            for code, (glyph, cls, what) in REWARD.items() if glyph]
    rows += [
        (_symbol('<circle class="pip plain open" r="6.5"/>'), "An open pip: not marked yet"),
        (_symbol('<circle class="mk marked" r="7.7"/>'), "A marked pip (a row of marked pips is joined by a line)"),
        (_symbol('<circle class="mk voided" r="6.5"/>' + _cross(0, 0, 6.5)),
         "A voided pip: crossed out, it can never be marked"),
        (_symbol('<circle class="ring" r="9"/>'), "A pip you may mark now: choose it (a small numbered ring beside "
                                                  "it is a second way to mark the same pip)"),
        (_symbol('<g class="start"><circle r="7"/></g>'), "A starting pip, marked at set-up: its Road is built on "
                                                          "from here"),
        (_symbol('<g class="domain"><circle r="9"/></g>'),
         "A Domain (D1...): a Road reaching it claims it (green ring). Its power, once per Action phase: ±1 Colour "
         "raises or lowers that die by 1, flip Colour turns it to its opposite face; +Guild marks a Citizen of "
         "that Guild once, when claimed"),
        (_symbol('<circle class="bridge" r="8"/>'), "A Bridge: complete when its 3 pips are marked"),
        (_symbol('<g class="deadend"><rect x="-8" y="-8" width="16" height="16" rx="2"/></g>'),
         "A dead end: a Build stops here"),
        ('<b>8</b>&nbsp;<b>5</b>', "A Monster Lair's VP: the first player to mark all its pips scores the first "
                                   "value, everyone later the second"),
    ]
    return legend(rows)


def _power_tag(lay, d: int) -> str:
    kind, die, guild = lay.dom_power[d]
    if kind == "adjust":
        return f"±1 {die.capitalize()}"
    if kind == "flip":
        return f"flip {die.capitalize()}"
    return f"+{guild}"




_LEGEND = _legend()

# ---------------------------------------------------------------- the table strip

def _die(v) -> str:
    """A die's face as pips, by reference to the faces drawn once in the root part (:func:`_die_faces`);
    a face outside 1-6 (before the first roll) as a dash."""
    if v in PIPS:
        return f'<svg viewBox="0 0 40 40" aria-hidden="true" focusable="false"><use href="#dkv-face-{v}"/></svg>'
    return die_svg(None, '<text x="20" y="27" text-anchor="middle" font-size="20">–</text>', 26)


@lru_cache(maxsize=None)  # finite: at most 1
def _die_faces() -> str:
    """The six faces of a die (``markup.die_svg``), drawn once, hidden, for the dice to refer to."""
    faces = "".join(die_svg(f, size=40).replace("<svg ", f'<svg id="dkv-face-{f}" ', 1)
                    # the clone <use> makes inherits the die's fill (the face) and colour (the pips)
                    .replace("<circle ", '<circle fill="currentColor" ') for f in PIPS)
    return f'<svg class="dkv-faces" width="0" height="0" aria-hidden="true" focusable="false">{faces}</svg>'


@lru_cache(maxsize=None)  # finite: at most 4
def _dice(second: bool, heavy_rain: bool) -> str:
    """The dice's frame: the black pair for the Harvest, then the Yellow, Red, Green and Blue action
    dice with what each does; each die (``die-0``..``die-5``) and the sum (``dice-sum``) are parts."""
    o = ['<div class="dkv-dice" role="group" aria-label="Dice" data-key="dice">']
    black_tip = ("Black dice rolled again for the solo 2nd Harvest" if second else
                 "Black dice: each die and their sum activate your Citizens of that value in the Harvest")
    o.append(f'<div class="dgroup" data-key="dice-black" title="{attr(black_tip)}"><span class="dlabel">'
             f'{"2nd Harvest" if second else "Harvest"}</span>{slot("die-0", "span")}{slot("die-1", "span")}'
             f'{slot("dice-sum", "span", "dsum")}</div>')
    o.append(f'<div class="dgroup{" used" if second else ""}"><span class="dlabel">'
             f'{"Action (used)" if second else "Action"}</span>')
    for i, colour in enumerate(("yellow", "red", "green", "blue"), 2):
        act, tip = DIE_ACTION[colour]
        if colour == "blue" and heavy_rain:
            tip, act = "Heavy Rain: the Blue die may not be used this turn", "no Blue die"
        o.append(f'<span class="dbox" title="{attr(tip)}">{slot(f"die-{i}", "span")}'
                 f'<span class="dact">{act}</span></span>')
    o.append("</div></div>")
    return "".join(o)


_DIE_COLOURS = ("black", "black", "yellow", "red", "green", "blue")
_DIE_KEYS = tuple(f"die-{i}" for i in range(len(_DIE_COLOURS)))


@lru_cache(maxsize=None)  # finite: at most 70: colour x face x faded
def _one_die(colour: str, v: int, off: bool) -> str:
    """One die showing ``v`` (``data-die``), faded when it may not be used."""
    return (f'<span class="die {colour}{" off" if off else ""}" data-die="{v}" role="img" '
            f'aria-label="{colour.capitalize()} die: {v}">{_die(v)}</span>')


def _draft(line: list, deck: Mapping[str, Any], acts: dict) -> str:
    """The Statue draft line (a card that may be taken is a button) and the deck's counts."""
    if not any(key[0] == "statue" for key in acts):  # as every viewer without a Statue to take sees it
        return _plain_draft(tuple(line), deck["day"], deck["night"])
    return _draw_draft(line, deck, acts)


@lru_cache(maxsize=1024)
def _plain_draft(line: tuple, day: int, night: int) -> str:
    """:func:`_draft` without a Statue to take: the line's cards and the deck's ``day`` and ``night`` counts."""
    return _draw_draft(line, {"day": day, "night": night}, {})


def _draw_draft(line, deck: Mapping[str, Any], acts: dict) -> str:
    o = ['<div class="dkv-draft" role="group" aria-label="Statue draft line" data-key="draft">'
         '<span class="dlabel">Statue draft line</span>']
    for i in range(DRAFT_LINE):
        if i >= len(line):
            o.append(f'<span class="statue empty" data-key="draft-{i}" title="An empty place in the draft line">'
                     '<span class="stn">–</span></span>')
            continue
        n, back = statue_card(line[i])
        st = STATUES[n - 1]
        inner = f'<span class="stn">{n}</span><span class="ste">{text(statue_short(n))}</span>'
        tip = f"Statue {n} ({back.capitalize()} back): {st.effect}"
        here = acts.get(("statue", i), ())
        if here:
            aid, label = here[0]
            o.append(f'<button type="button" class="statue act {back}" data-key="draft-{i}" data-action="{attr(aid)}" '
                     f'aria-label="{attr(label)}" title="{attr(label)}. {attr(st.effect)}">{inner}</button>')
        else:
            o.append(f'<span class="statue {back}" data-key="draft-{i}" title="{attr(tip)}">{inner}</span>')
    left = deck["day"] + deck["night"]
    o.append(f'<span class="deck" title="Statues deck: the Day stack lies on the Night stack">deck '
             f'<span data-key="statue-deck" data-count="{left}">{left}</span>: '
             f'{deck["day"]} Day · {deck["night"]} Night</span></div>')
    return "".join(o)


def _status(obs: ObsLike) -> str:
    """The status line: round or solo turn, Active Player, phase, who decides, the last round, the result."""
    lay = layout(obs)
    solo = obs.get("solo")
    bits = []
    if solo:
        bits.append(f"Turn {solo['trees']} of {lay.trees}")
        bits.append(f"Ships {solo['ships']}/{lay.ships}")
    else:
        bits.append(f"Round {obs['round']}")
        bits.append(f"Active: {seat_name(obs['active'])}")
    bits.append(phase_name(obs))
    if obs["phase"] != "over" and obs["deciding"] and obs["phase"] in ("harvest", "draft"):
        bits.append("deciding: " + ", ".join(seat_name(s) for s in obs["deciding"]))
    if obs["last_round"] and obs["phase"] != "over":
        bits.append("LAST ROUND")
    _, rain, drought = solo_flags(obs)
    if rain:
        bits.append("Heavy Rain: no Blue die")
    if drought:
        bits.append("Drought: no Harvest")
    if obs["phase"] == "over":
        if solo:
            bits.append(f"Final score {obs['scores'][0]}: {solo.get('result') or ''}")
        else:
            bits.append("Winner: " + ", ".join(seat_name(s) for s in obs["winners"]))
    return '<div class="dkv-status">' + " · ".join(f"<span>{text(b)}</span>" for b in bits) + "</div>"


@lru_cache(maxsize=None)  # finite: at most 30: seats x seat shown
def _radios(n: int, shown: int) -> str:
    """The seat tabs' radio inputs (pure CSS tabs); ``shown`` is checked. They are hidden from the
    keyboard and screen readers: the labels are the tabs (role ``tab``, kept in step by the page)."""
    return "".join(f'<input type="radio" name="dkv-seat" id="dkv-tab-{s}" class="dkv-radio"'
                   f'{" checked" if s == shown else ""} tabindex="-1" aria-hidden="true">'
                   for s in range(n))


@lru_cache(maxsize=4096)
def _tab(s: int, you: bool, total: int, active: bool, deciding: bool, shown: bool) -> str:
    """The tab of seat ``s``: who it is, their VP, the Active Player's mark (and, for screen readers,
    "Active Player" and "deciding" in words). A WAI-ARIA tab (``shown``: selected) controlling the
    panel ``dkv-panel-<s>``; the page keeps ``aria-selected`` in step with its radio."""
    cls = (" active" if active else "") + (" deciding" if deciding else "")
    who = seat_name(s) + (" (you)" if you else "")
    said = (", Active Player" if active else "") + (", deciding" if deciding else "")
    return (f'<label for="dkv-tab-{s}" id="dkv-tabl-{s}" class="dkv-tab{cls}" role="tab" '
            f'aria-controls="dkv-panel-{s}" aria-selected="{str(shown).lower()}" tabindex="{0 if shown else -1}" '
            f'title="Show the sheets of {attr(who)}">'
            f'{text(who)} · <span data-key="p-{s}-vp" data-count="{total}">{total}</span> VP'
            f'{" ▶" if active else ""}<span class="sr-only">{text(said)}</span></label>')


@lru_cache(maxsize=None)  # finite: at most 10: season x seats
def _root(season: str, n: int) -> str:
    """The root part: the table strip's slots, the seat tabs and one panel slot per seat."""
    return "".join([
        f'<div class="board board-{GAME_ID} season-{attr(season)}">',
        _die_faces(), '<div class="dkv-top">', slot("status", "div", "dkv-status-slot"), slot("dice", "div", "dkv-dice-slot"),
        slot("draft", "div", "dkv-draft-slot"), "</div>",
        '<div class="dkv-seats">', slot("radios", "div", "dkv-radios"),
        '<div class="dkv-tabs" role="tablist" aria-label="Player sheets">',
        *(slot(f"tab-{s}", "span", "", 'role="presentation"') for s in range(n)), "</div>",
        '<div class="dkv-panels">',
        *(slot(f"p-{s}", "div", f"dkv-panel dkv-panel-{s} scroll-cue",
               f'id="dkv-panel-{s}" role="tabpanel" aria-labelledby="dkv-tabl-{s}" tabindex="0"') for s in range(n)),
        "</div></div>", slot(LEGEND), "</div>"])


@lru_cache(maxsize=None)  # finite: at most 20: season x seat x solo
def _panel(season: str, s: int, solo: bool) -> str:
    """Seat ``s``'s panel: its Castle sheet left of its Forest sheet (unchanging; its parts fill it).

    Only the panel is kept (its two halves are drawn once each and let go)."""
    return _castle_base(season, s, solo) + _forest_base(season, s)


class _Keys:
    """Seat ``s``'s part ids on one season's sheets (``p-<s>``, ``p-<s>-cit-<section>``, ...), made once."""

    def __init__(self, season: str, s: int) -> None:
        lay = LAYOUTS[season]
        p = f"p-{s}"
        self.panel = p
        self.tab = f"tab-{s}"
        self.cit = tuple(cit_key(s, cname) for cname in lay.cit_names)
        self.trk = tuple(trk_key(s, gname) for gname in GUILDS)
        self.wall, self.gold, self.statues, self.score, self.solo = (
            f"{p}-wall", f"{p}-gold", f"{p}-statues", f"{p}-score", f"{p}-solo")
        self.lair = tuple(lair_key(s, lid) for lid in lay.lair_ids)
        self.road = tuple(road_key(s, rid) for rid in lay.road_ids)
        self.dom = tuple(f"{p}-dom-{did}" for did in lay.dom_ids)
        self.acts_c, self.acts_f = f"{p}-acts-c", f"{p}-acts-f"


@lru_cache(maxsize=None)  # finite: at most 10: season x seat
def _keys(season: str, s: int) -> _Keys:
    """Seat ``s``'s part ids (:class:`_Keys`): one str object per id for every table of the process."""
    return _Keys(season, s)


def _sheet_parts(season: str, s: int, pl: Mapping[str, Any], obs: ObsLike) -> dict:
    """The changing parts of seat ``s``'s two sheets (its actions are parts of their own: :func:`_act_parts`)."""
    lay = LAYOUTS[season]
    keys = _keys(season, s)
    out = {}
    sheet = Sheet(lay, pl)
    for i in range(len(lay.cit_names)):
        marked, crossed = sheet.citizen(i)
        out[keys.cit[i]] = _citizen(season, s, i, marked, tuple(sorted(crossed)))
    for g in range(len(GUILDS)):
        n, struck = sheet.track(g)
        out[keys.trk[g]] = _track(season, s, g, n, tuple(sorted(struck)))
    out[keys.wall] = _wall(season, s, pl["wall"])
    out[keys.gold] = _gold(season, s, pl["gold"])
    for li in (3, 2, 1, 0):
        lr = sheet.lair(li)
        out[keys.lair[li]] = _lair(season, s, li, tuple(lr["blocks"].values()), lair_vp_state(obs, sheet, li, s),
                                   lr["access"], lair_first_note(obs, li, s))
    sc = pl["score"]
    out[keys.statues] = _statues(s, tuple((n, sc["statue_vp"].get(str(n), 0)) for n in pl["statues"]),
                                 pl["plinths_to_draft"])
    out[keys.score] = _score(s, (sc["stars"], sc["domains"], sc["lairs"], sc["statues"], sc["total"]))
    solo = obs.get("solo")
    if solo:
        out[keys.solo] = _solo(season, solo["trees"], solo["ships"], tuple(solo["events_drawn"][-3:]))
    roads = pl["roads"]
    for r, rid in enumerate(lay.road_ids):
        marked = roads[rid]["marked"]
        mine = _ROAD_BRIDGES[season][r]
        done = tuple(bi for bi in mine if sheet.bridge_complete(bi)) if marked >= 3 else ()
        void = tuple(bi for bi in mine if sheet.bridge_voided(bi))
        out[keys.road[r]] = _road(season, s, r, marked, sheet.road_dir(r), done, void)
    for d in range(len(lay.dom_ids)):
        out[keys.dom[d]] = _domain(season, d, sheet.claimed(d), sheet.dom_voided(d))
    return out


#: Per season and Road, the Bridges on it.
_ROAD_BRIDGES = {season: tuple(tuple(bi for bi in range(len(lay.bridge_ids)) if lay.bridge_road[bi] == r)
                               for r in range(lay.nr)) for season, lay in LAYOUTS.items()}


def _sheet_key(pl: Mapping[str, Any], obs: ObsLike, s: int) -> bytes:
    """Everything :func:`_sheet_parts` reads for seat ``s`` (without actions), as a hashable key
    (bytes: see :func:`_player_key`)."""
    return marshal.dumps(tuple(obs["lair_first"]), 2) + _player_key(pl)


def _player_key(pl: Mapping[str, Any]) -> bytes:
    """What :func:`_sheet_parts` reads of the player view ``pl`` (the rest of its key is the table's).

    The rules' sheet views are shared objects never changed (``rules.scoring.sheet_view``): every
    viewer of a version and most versions hold the same ``pl``, so its key is remembered by the
    object (kept in :data:`_PLAYER_KEYS`, so its id is not reused while there) and made once.

    The key is the ``marshal`` form (version 2: no back-references, so equal values give equal
    bytes) of the values read, not their nested tuples: bytes are not tracked by the cyclic garbage
    collector, and a server keeps thousands of these keys in its memos, made and dropped as its
    tables move, which a young collection would otherwise walk, about 40 tuples each (docs/load.md,
    "Dice Kingdoms' board memos and the collector")."""
    got = _PLAYER_KEYS.get(id(pl))
    if got is not None and got[0] is pl:
        return got[1]
    lairs = pl["lairs"]
    key = marshal.dumps((
        tuple((c["marked"], *c["voided"]) for c in pl["citizens"].values()),
        tuple(pl["guild_tracks"].values()), tuple((g, *v) for g, v in pl["voided_track_rewards"].items()),
        pl["gold"], pl["wall"],
        tuple((tuple(lr["blocks"].values()), lr["result"], lr["access"]) for lr in lairs.values()),
        tuple(pl["statues"]), pl["plinths_to_draft"],
        tuple(pl["score"]["statue_vp"].values()), pl["score"]["total"], pl["score"]["stars"],
        pl["score"]["domains"], pl["score"]["lairs"],
        tuple((rd["marked"], rd["from"]) for rd in pl["roads"].values()),
        tuple(pl["domains"]), tuple(pl["voided_domains"]), tuple(pl["voided_bridges"])), 2)
    if len(_PLAYER_KEYS) > 1024:  # at most a thousand views kept alive here
        _PLAYER_KEYS.clear()
    _PLAYER_KEYS[id(pl)] = (pl, key)
    return key


#: Player views' keys by the view object's id: ``{id(pl): (pl, key)}`` (:func:`_player_key`); bounded.
_PLAYER_KEYS: dict = {}


#: Seats' sheet parts without actions, by the ``marshal`` form of (season, seat, solo key) and the
#: sheet key (bytes, as :func:`_player_key` says why); bounded.
_SHEETS: dict[bytes, dict] = {}


def board_view(obs: ObsLike, actions: list, seat: int | None) -> dict:
    """The board as keyed parts ``{part id: HTML}`` (root ``"board"``; inline SVG, no script), escaped.

    ``obs`` is ``state.observation(seat)``; ``actions`` the seat's legal actions
    as ``[{"id": ..., "label": ...}]`` (empty when it is not to move); ``seat``
    None for a spectator (no action is placed then). Every action that marks
    a pip or takes a Statue card is a focusable element with ``data-action``
    and an ``aria-label`` on that pip or card. Parts (see docs/web.md, "Live
    updates"): ``status``, ``dice``, ``draft``, ``radios``, ``tab-<seat>`` and
    per seat ``p-<seat>`` (its two sheets' unchanging layer) with its regions
    ``p-<seat>-cit-<section>``, ``-trk-<guild>``, ``-wall``, ``-gold``,
    ``-lair-<id>``, ``-statues``, ``-score``, ``-road-<id>``, ``-dom-<id>``
    and, solo, ``-solo``. Pure: the same arguments give the same parts.
    Rulebook: Game Setup, Player Sheets, Dice Actions, Reward Pips, Statue
    Cards, Domain Powers, Solo Rules, Winter Rules.
    """
    places = _Places(obs, list(actions), seat)
    players = obs["players"]
    n = len(players)
    season = obs["sheets"]
    viewer = viewer_of(obs, seat)
    solo = obs.get("solo")
    faces = dice_faces(obs)
    second, rain, _ = solo_flags(obs)
    parts = {ROOT: _root(season, n), "status": _status(obs),
             "dice": _dice(second, rain),
             "dice-sum": f"= {faces[0] + faces[1]}",
             "draft": _draft(obs["statue_line"], obs["statue_deck"], places.on),
             "radios": _radios(n, focus_seat(obs, seat, None)), LEGEND: _LEGEND}
    for i, (colour, v) in enumerate(zip(_DIE_COLOURS, faces)):
        parts[_DIE_KEYS[i]] = _one_die(colour, v, rain and i == 5)
    deciding = obs["deciding"]
    shown = focus_seat(obs, seat, None)
    for s in range(n):
        parts[_keys(season, s).tab] = _tab(s, s == viewer, players[s]["score"]["total"], s == obs["active"],
                                           s in deciding, s == shown)
    solo_key = (solo["trees"], solo["ships"], tuple(solo["events_drawn"][-3:])) if solo else None
    for s in range(n):
        keys = _keys(season, s)
        parts[keys.panel] = _panel(season, s, bool(solo))
        pl = players[s]
        key = marshal.dumps((season, s, solo_key), 2) + _sheet_key(pl, obs, s)
        got = _SHEETS.get(key)
        if got is None:
            if len(_SHEETS) > 2048:
                _SHEETS.clear()
            got = _SHEETS[key] = _sheet_parts(season, s, pl, obs)
        parts.update(got)
        mine = s == viewer and places.on
        parts[keys.acts_c] = _act_parts(season, places.castle) if mine else ""
        parts[keys.acts_f] = _act_parts(season, places.forest) if mine else ""
    return parts


@memo(2048)
def _act_parts(season: str, acts: tuple) -> str:
    """The viewer's actions on one sheet, drawn over its pips: ``acts`` is ((kind, index, pip), ((id, label), ...)).

    A :class:`~dicetable.engine.markup.Memo`: keyed by the arguments' JSON text, bytes, which the cyclic
    garbage collector does not walk (an ``lru_cache`` kept the tuples; see :func:`_player_key`)."""
    o = []
    for (kind, a, i), here in acts:
        if kind == "cit":
            o.append(_acts(6 + a * 51 + 14 + 20 * i, 54, here, 6.5))
        elif kind == "trk":
            o.append(_acts(*_track_xy(a, i), here, 5.5))
        elif kind == "blk":
            x, y = _block_xy(season)[a]
            o.append(_acts(x + 17 * i, y, here, 6.5))
        else:
            x, y, _ = _road_pips(season)[0][a][4][i]
            o.append(_acts(x, y, here, 5.8))
    return "".join(o)


@lru_cache(maxsize=None)  # finite: at most 2
def _block_xy(season: str) -> tuple:
    """Per Range Block, the centre of its first pip (see :func:`_lair`)."""
    lay = LAYOUTS[season]
    out: list = [None] * lay.nb
    for li, blocks in enumerate(lay.lair_blocks):
        x0, y0 = _lair_xy(li)
        x = x0 + 6
        for b in blocks:
            out[b] = (x + 12, y0 + 41)
            x += lay.block_len[b] * 17 + 8 + 4
    return tuple(out)
