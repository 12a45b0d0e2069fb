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

from html import escape
from math import hypot

from pydantic import field_validator

from dicetable.engine import seat_name
from dicetable.engine.data import Sourced, load_data

from .components import (
    EVENTS, GOLD, GUILDS, KNIGHT, LAYOUTS, PLAIN, PLINTH, RECRUIT, ROAD, SLAY, STAR, STATUES,
)
from .viewdata import Sheet, focus_seat, lair_first_note, lair_vp_state, layout, power_long, statue_short

GAME_ID = "dice-kingdoms-of-valeria"


class SeasonPositions(Sourced):
    """Drawing positions (x, y in the 520 x 430 Forest sheet) of one season's Forest nodes."""

    river_y: float = 0
    nodes: dict[str, tuple[float, float]]


class BoardData(Sourced):
    """``data/board.json``: the Forest sheets' node positions per season, checked against the layout."""

    width: int
    height: int
    seasons: dict[str, SeasonPositions]

    @field_validator("seasons")
    @classmethod
    def _every_node_placed(cls, seasons: dict) -> dict:
        for season, lay in LAYOUTS.items():
            if season not in seasons:
                raise ValueError(f"no positions for the {season} sheets")
            names = set(lay.road_a_name) | set(lay.road_b_name)
            missing = sorted(names - set(seasons[season].nodes))
            if missing:
                raise ValueError(f"{season}: no position for {', '.join(missing)}")
        return seasons


BOARD = load_data(__package__, "board.json", BoardData)

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


def _a(text) -> str:
    return escape(str(text), quote=True)


class _Places:
    """The legal actions by the piece they concern: key -> [(id, label)] in the given order."""

    def __init__(self, obs: dict, actions: list, seat: int | None) -> None:
        self.on: dict = {}
        self.left: list = []
        if seat is None or not 0 <= seat < len(obs["players"]):
            return
        lay = layout(obs)
        sheet = Sheet(lay, obs["players"][seat])
        for act in actions:
            key = self._key(obs, lay, sheet, str(act["id"]))
            if key is None:
                self.left.append(act)
            else:
                self.on.setdefault(key, []).append((str(act["id"]), str(act["label"])))

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

def _pip(x: float, y: float, code: int, marked: bool, title: str, acts=(), voided: bool = False,
         r: float = 6.5) -> str:
    glyph, cls, what = REWARD[code]
    state = "voided" if voided else ("marked" if marked else "open")
    tip = f"{title}: {what}" + (" (voided)" if voided else " (marked)" if marked else "")
    body = [f'<circle class="pip {cls} {state}" cx="{x:.1f}" cy="{y:.1f}" r="{r}"/>']
    if glyph and not marked:
        body.append(f'<text class="glyph {cls}" x="{x:.1f}" y="{y + 3.2:.1f}">{_a(glyph)}</text>')
    if marked and code == STAR:
        body.append(f'<text class="glyph star on" x="{x:.1f}" y="{y + 3.2:.1f}">★</text>')
    if voided:
        body.append(f'<path class="void" d="M{x - r:.1f} {y - r:.1f}L{x + r:.1f} {y + r:.1f}'
                    f'M{x + r:.1f} {y - r:.1f}L{x - r:.1f} {y + r:.1f}"/>')
    inner = "".join(body)
    if not acts:
        return f"<g><title>{_a(tip)}</title>{inner}</g>"
    out = []
    aid, label = acts[0]
    out.append(f'<g class="act" role="button" tabindex="0" data-action="{_a(aid)}" aria-label="{_a(label)}">'
               f"<title>{_a(label)} ({_a(tip)})</title>{inner}"
               f'<circle class="ring" cx="{x:.1f}" cy="{y:.1f}" r="{r + 2.5}"/></g>')
    for i, (aid, label) in enumerate(acts[1:], 1):   # a second way to reach the same pip
        ox, oy = x + 11 * i, y - 11
        out.append(f'<g class="act alt" role="button" tabindex="0" data-action="{_a(aid)}" aria-label="{_a(label)}">'
                   f'<title>{_a(label)}</title><circle class="ring alt" cx="{ox:.1f}" cy="{oy:.1f}" r="5"/>'
                   f'<text class="glyph" x="{ox:.1f}" y="{oy + 3:.1f}">{i + 1}</text></g>')
    return "".join(out)


def _castle(obs: dict, seat: int, places: _Places, mine: bool) -> str:
    lay = layout(obs)
    sh = Sheet(lay, obs["players"][seat])
    on = places.on if mine else {}
    o = [f'<svg class="castle" viewBox="0 0 520 430" role="img" '
         f'aria-label="{_a(seat_name(seat))}: Castle sheet"><title>{_a(seat_name(seat))}: Castle sheet</title>',
         '<rect class="sheet" x="1" y="1" width="518" height="428" rx="8"/>']
    # Citizens Tableau: top strip, 10 sections.
    o.append('<text class="head" x="8" y="13">Citizens Tableau</text>')
    for s, name in enumerate(lay.cit_names):
        x0 = 6 + s * 51
        g = lay.cit_guild[s]
        marked, void = sh.citizen(s)
        values = "/".join(str(v) for v in lay.cit_values[s])
        o.append(f'<g><title>{_a(name)} Citizen ({GUILDS[g]}): activated when a black die or their sum shows '
                 f'{_a(values)}; each marked pip marks a {GUILDS[g]} Guild Track pip in a Harvest</title>'
                 f'<rect class="cit {GUILD_CLASS[g]}" x="{x0}" y="18" width="48" height="46" rx="4"/>'
                 f'<text class="val" x="{x0 + 24}" y="33">{_a(name)}</text>'
                 f'<text class="guild" x="{x0 + 24}" y="43">{GUILDS[g]}</text></g>')
        for i, code in enumerate(lay.cit_pips[s]):
            title = f"{name} Citizen, {'left' if i == 0 else 'right'} pip"
            if lay.cit_start[s] > i:
                title += " (starting pip)"
            o.append(_pip(x0 + 14 + 20 * i, 54, code, i < marked, title, on.get(("cit", s, i), ()), i in void))
    # Guild Tracks: left block, 3 rows of 8 each.
    for g in range(4):
        y0 = 74 + g * 47
        n, void = sh.track(g)
        o.append(f'<g><title>{GUILDS[g]} Guild Track: {n} of 24 pips marked; completing 3 Guild Tracks '
                 f'triggers the last round</title><rect class="trkbox {GUILD_CLASS[g]}" x="5" y="{y0 - 3}" '
                 f'width="166" height="44" rx="4"/>'
                 f'<text class="track {GUILD_CLASS[g]}" x="9" y="{y0 + 12}">{GUILDS[g]}</text>'
                 f'<text class="trkn" x="26" y="{y0 + 28}">{n}/24</text></g>')
        for i, code in enumerate(lay.trk_pips[g]):
            x, y = 62 + (i % 8) * 14.5, y0 + 6 + (i // 8) * 13
            o.append(_pip(x, y, code, i < n, f"{GUILDS[g]} Guild Track pip {i + 1}", on.get(("trk", g, i), ()),
                          i in void, r=5.5))
    # The castle: boulevard of trees (solo), canals with ships, the Wall and its tower.
    o.append('<g><title>The castle: Knights on the Wall run along its foot (the gate does not break the '
             'section) and up the right-hand tower</title>'
             '<rect class="keep" x="178" y="72" width="196" height="190" rx="4"/>'
             '<path class="tower" d="M348 262V120h8v-8h8v8h8v-8h4v150z"/>'
             '<path class="keeptop" d="M236 262V200h-0v-10h10v8h10v-8h12v8h10v-8h10v10h0V262z"/></g>')
    solo = obs.get("solo")
    if solo:
        for t in range(lay.trees):
            x, y = 216 + (t // 10) * 96, 236 - (t % 10) * 15   # two rows of 10 from the gate
            o.append(f'<g><title>Tree {t + 1} of {lay.trees}: one turn of the solo game '
                     f'({"marked off" if t < solo["trees"] else "not yet"})</title>'
                     f'<circle class="tree{" on" if t < solo["trees"] else ""}" cx="{x}" cy="{y}" r="4.5"/></g>')
        for k in range(lay.ships):
            x, y = 190 + (k // 3) * 158, 110 + (k % 3) * 30
            o.append(f'<g><title>Ship {k + 1} of {lay.ships}: marked off when doubles draw a Solo Event '
                     f'({"marked off" if k < solo["ships"] else "not yet"})</title>'
                     f'<path class="ship{" on" if k < solo["ships"] else ""}" d="M{x - 7} {y}h14l-3 5h-8z'
                     f'M{x} {y}v-8l5 6z"/></g>')
        if solo["events_drawn"]:
            names = {e.id: e for e in EVENTS}
            for i, e in enumerate(solo["events_drawn"][-3:]):
                ev = names[e]
                o.append(f'<g><title>Event {_a(ev.name)}: {_a(ev.text)}</title><text class="event" x="274" '
                         f'y="{92 + i * 11}">{_a(ev.name)}</text></g>')
    o.append('<text class="head" x="186" y="86">Knights on the Wall</text>' if not solo else "")
    wall_xy = [(190 + i * 19 + (20 if i >= 4 else 0), 250) for i in range(8)] + \
              [(362, 226 - j * 24) for j in range(4)]
    o.append('<rect class="gate" x="260" y="238" width="14" height="24" rx="6"><title>The gate</title></rect>')
    for i, code in enumerate(lay.wall_pips):
        x, y = wall_xy[i]
        o.append(_pip(x, y, code, i < sh.pl["wall"], f"Knights on the Wall pip {i + 1}"))
    # Gold Chart: right column, 5 rows of 4.
    o.append(f'<text class="head" x="392" y="86">Gold Chart {sh.pl["gold"]}/{lay.gold_len}</text>')
    per = lay.gold_len // lay.gold_rows
    for i, code in enumerate(lay.gold_pips):
        x, y = 402 + (i % per) * 26, 104 + (i // per) * 30
        o.append(_pip(x, y, code, i < sh.pl["gold"], f"Gold Chart pip {i + 1}", r=7.5))
        if i % per == per - 1:
            o.append(f'<line class="rule" x1="392" x2="512" y1="{y + 14}" y2="{y + 14}"/>')
    # Monster Lairs: L8 top left, L7 top right, L6 bottom left, L5 bottom right.
    for slot, li in enumerate((3, 2, 1, 0)):
        x0, y0 = 6 + (slot % 2) * 256, 268 + (slot // 2) * 58
        o.append(_lair(obs, sh, li, seat, x0, y0, on))
    # Statue Tally and Score Tally: bottom strip.
    sc = sh.score
    o.append('<text class="head" x="8" y="399">Statues</text>')
    for k in range(4):
        x0 = 58 + k * 62
        if k < len(sh.pl["statues"]):
            n = sh.pl["statues"][k]
            vp = sc["statue_vp"].get(str(n), 0)
            o.append(f'<g><title>Statue {n}: {_a(STATUES[n - 1].effect)} Now {vp} VP</title>'
                     f'<rect class="stbox held" x="{x0}" y="386" width="58" height="38" rx="4"/>'
                     f'<text class="stnum" x="{x0 + 29}" y="401">Statue {n}</text>'
                     f'<text class="stvp" x="{x0 + 29}" y="417">{vp} VP</text></g>')
        else:
            o.append(f'<g><title>An empty Statue Tally box (at most 4 Statues)</title>'
                     f'<rect class="stbox" x="{x0}" y="386" width="58" height="38" rx="4"/></g>')
    tally = (("Stars", sc["stars"]), ("Domains", sc["domains"]), ("Lairs", sc["lairs"]),
             ("Statues", sc["statues"]), ("Total", sc["total"]))
    for i, (name, v) in enumerate(tally):
        x0 = 312 + i * 41
        o.append(f'<g><title>Score Tally: {name} {v}</title>'
                 f'<rect class="tally{" total" if name == "Total" else ""}" x="{x0}" y="386" width="38" height="38" rx="4"/>'
                 f'<text class="tlab" x="{x0 + 19}" y="399">{name}</text>'
                 f'<text class="tval" x="{x0 + 19}" y="418">{v}</text></g>')
    if sh.pl["plinths_to_draft"]:
        o.append(f'<text class="note" x="58" y="382">{sh.pl["plinths_to_draft"]} Statue(s) to take in the draft</text>')
    o.append("</svg>")
    return "".join(o)


def _lair(obs: dict, sh: Sheet, li: int, seat: int, x0: float, y0: float, on: dict) -> str:
    lay = sh.lay
    hi, lo = lay.lair_vp[li]
    st = lair_vp_state(obs, sh, li, seat)
    access = sh.lair(li)["access"]
    note = lair_first_note(obs, li, seat)
    trail = [lay.dom_ids[d] for d in range(len(lay.dom_ids)) if lay.dom_trail[d] >> li & 1]
    tip = (f"{lay.lair_ids[li]} {lay.lair_names[li]}: complete every pip for {hi} VP if first, else {lo} VP"
           + (f"; {note}" if note else "")
           + ("" if access else f"; no access yet (a Trailhead opens it: claim {' or '.join(trail)})"))
    o = [f'<g class="lair{"" if access else " locked"}"><title>{_a(tip)}</title>'
         f'<rect class="lairbox" x="{x0}" y="{y0}" width="250" height="54" rx="5"/>'
         f'<text class="lname" x="{x0 + 6}" y="{y0 + 13}">{_a(lay.lair_ids[li])} {_a(lay.lair_names[li])}</text>'
         + ("" if access else f'<text class="locked" x="{x0 + 218}" y="{y0 + 44}">no access</text>')]
    for j, (v, cls) in enumerate(((hi, st in ("high",)), (lo, st == "low"))):
        cx = x0 + 206 + j * 24
        crossed = (j == 0 and st in ("crossed", "low"))
        o.append(f'<circle class="vp{" circled" if cls else ""}" cx="{cx}" cy="{y0 + 11}" r="9"/>'
                 f'<text class="vpt" x="{cx}" y="{y0 + 15}">{v}</text>')
        if crossed:
            o.append(f'<path class="void" d="M{cx - 8} {y0 + 19}L{cx + 8} {y0 + 3}"/>')
    if st == "pending":
        o.append(f'<text class="note" x="{x0 + 150}" y="{y0 + 13}">completed now</text>')
    o.append("</g>")
    x = x0 + 6
    for b in lay.lair_blocks[li]:
        lo_v, hi_v = lay.block_range[b]
        n = lay.block_len[b]
        w = n * 17 + 8
        rng = f"{lo_v}-{hi_v}" if lo_v != hi_v else f"{lo_v}"
        o.append(f'<g><title>Range Block {rng}: a Slay action whose Red die (or Red + Blue) shows {rng} '
                 f'marks its leftmost open pip</title>'
                 f'<rect class="block" x="{x}" y="{y0 + 19}" width="{w}" height="32" rx="3"/>'
                 f'<text class="brange" x="{x + w / 2}" y="{y0 + 29}">{rng}</text></g>')
        marked = sh.block(b)
        for i, code in enumerate(lay.block_pips[b]):
            o.append(_pip(x + 12 + i * 17, y0 + 41, code, i < marked,
                          f"{lay.lair_ids[li]} Range Block {rng}, pip {i + 1}", on.get(("blk", b, i), ())))
        x += w + 4
    return "".join(o)


def _forest(obs: dict, seat: int, places: _Places, mine: bool) -> str:
    lay = layout(obs)
    sh = Sheet(lay, obs["players"][seat])
    pos = BOARD.seasons[obs["sheets"]]
    on = places.on if mine else {}
    o = [f'<svg class="forest" viewBox="0 0 {BOARD.width} {BOARD.height}" role="img" '
         f'aria-label="{_a(seat_name(seat))}: Forest sheet"><title>{_a(seat_name(seat))}: Forest sheet</title>',
         f'<rect class="sheet forest-bg" x="1" y="1" width="{BOARD.width - 2}" height="{BOARD.height - 2}" rx="8"/>']
    if pos.river_y:
        y = pos.river_y
        o.append(f'<path class="river" d="M0 {y} C130 {y - 18} 260 {y + 18} 390 {y} S520 {y - 10} 520 {y}">'
                 f'<title>The river (its Bridges are on the Roads that cross it)</title></path>')
    if obs["sheets"] == "winter":
        cx, cy = pos.nodes["W9"]
        o.append(f'<ellipse class="lake" cx="{cx}" cy="{cy}" rx="70" ry="38"><title>The frozen lake</title></ellipse>')
    # Roads with their pips, then the nodes on top.
    drawn = []   # pip centres, to keep the Trailhead labels off them
    for r in range(lay.nr):
        a, b = pos.nodes[lay.road_a_name[r]], pos.nodes[lay.road_b_name[r]]
        n = lay.road_len[r]
        marked = set(sh.road_marked(r))
        d = sh.road_dir(r)
        o.append(f'<line class="roadline{" begun" if d else ""}" x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}"/>')
        length = hypot(b[0] - a[0], b[1] - a[1])
        # Pips between the node circles (radius ~16 at Domains, 7 at starts).
        ra = 9 if lay.road_a[r] == -1 else 19
        rb = 19 if lay.road_b[r] >= 0 else 9
        for i, code in enumerate(lay.road_pips[r][1]):
            t = (ra + (length - ra - rb) * (i + 0.5) / n) / length
            x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            bi = lay.pip_bridge[r].get(i, -1)
            title = f"Road {lay.road_ids[r]} ({lay.road_a_name[r]}-{lay.road_b_name[r]}), pip {i + 1}"
            if bi >= 0:
                title += f", Bridge {lay.bridge_ids[bi]}"
                if i == lay.bridge_pos[bi][0]:
                    bx = a[0] + (b[0] - a[0]) * (t + (length - ra - rb) / n / length)
                    by = a[1] + (b[1] - a[1]) * (t + (length - ra - rb) / n / length)
                    o.append(f'<circle class="bridge{" done" if sh.bridge_complete(bi) else ""}" cx="{bx:.1f}" '
                             f'cy="{by:.1f}" r="{min(16.0, (length - ra - rb) / n * 1.4):.1f}"><title>Bridge '
                             f'{lay.bridge_ids[bi]}: complete when its 3 pips are marked (Statue 1 pays 2 VP each)'
                             f'</title></circle>')
            void = bi >= 0 and code == GOLD and sh.bridge_voided(bi)
            drawn.append((x, y))
            o.append(_pip(x, y, code, i in marked, title, on.get(("road", r, i), ()), void, r=5.8))
    starts = {lay.road_a_name[r] for r in lay.start_roads}
    for name, (x, y) in pos.nodes.items():
        if name in lay.dom_ids:
            d = lay.dom_ids.index(name)
            claimed, void = sh.claimed(d), sh.dom_voided(d)
            trail = [lay.lair_ids[li] for li in range(4) if lay.dom_trail[d] >> li & 1]
            tip = (f"Domain {name} {lay.dom_names[d]}: {power_long(lay, d)}"
                   + (f"; Trailhead: opens {', '.join(trail)}" if trail else "")
                   + ("; claimed" if claimed else "") + ("; voided by Wildfire" if void else ""))
            o.append(f'<g class="domain{" claimed" if claimed else ""}{" voided" if void else ""}">'
                     f'<title>{_a(tip)}</title><circle cx="{x}" cy="{y}" r="18"/>'
                     f'<text class="did" x="{x}" y="{y - 3}">{name}</text>'
                     f'<text class="pow" x="{x}" y="{y + 8}">{_a(_power_tag(lay, d))}</text>'
                     + (_trail_label(x, y, trail, drawn) if trail else "")
                     + "</g>")
        elif name in starts:
            o.append(f'<g class="start"><title>Starting pip {name} (marked at set-up): its Road is continued '
                     f'from here</title><circle cx="{x}" cy="{y}" r="7"/></g>')
        else:
            o.append(f'<g class="deadend"><title>{name}: a dead end; a Build stops here</title>'
                     f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16" rx="2"/>'
                     f'<text class="did" x="{x}" y="{y + 3}">{name}</text></g>')
    o.append("</svg>")
    return "".join(o)


def _trail_label(x: float, y: float, trail: list, drawn: list) -> str:
    """The "⇒L6" Trailhead label beside its Domain, on the side farthest from any Road pip."""
    best, where = -1.0, (0, 28)
    for dx, dy in ((0, 28), (0, -23), (31, 4), (-31, 4)):
        near = min((hypot(px - x - dx, py - y - dy) for px, py in drawn), default=99.0)
        if near > best + 0.5:
            best, where = near, (dx, dy)
    return f'<text class="trail" x="{x + where[0]}" y="{y + where[1]}">⇒{",".join(trail)}</text>'


def _power_tag(lay, d: int) -> str:
    kind, die, guild = lay.dom_power[d]
    if kind == "adjust":
        return f"±1 {die.capitalize()}"
    if kind == "flip":
        return f"flip {die.capitalize()}"
    return f"+{guild}"


# ---------------------------------------------------------------- the table strip

def _dice(obs: dict) -> str:
    d = obs["dice"]
    solo = obs.get("solo") or {}
    second = solo.get("second_harvest", False)
    o = ['<div class="dkv-dice" role="group" aria-label="Dice">']
    black_tip = ("Black dice rolled again for the solo 2nd Harvest" if second else
                 "Black dice: each die and their sum activate your Citizens of that value in the Harvest")
    o.append(f'<div class="dgroup"><span class="dlabel">{"2nd Harvest" if second else "Harvest"}</span>')
    for v in d["black"]:
        o.append(f'<span class="die black" title="{_a(black_tip)}">{v}</span>')
    o.append(f'<span class="dsum" title="Sum of the black dice">= {sum(d["black"])}</span></div>')
    o.append(f'<div class="dgroup{" used" if second else ""}"><span class="dlabel">'
             f'{"Action (used)" if second else "Action"}</span>')
    for colour in ("yellow", "red", "green", "blue"):
        act, tip = DIE_ACTION[colour]
        if colour == "blue" and solo.get("heavy_rain"):
            o.append('<span class="die blue off" title="Heavy Rain: the Blue die may not be used this turn">–</span>')
            continue
        o.append(f'<span class="dbox"><span class="die {colour}" title="{_a(tip)}">{d[colour]}</span>'
                 f'<span class="dact">{act}</span></span>')
    o.append("</div></div>")
    return "".join(o)


def _draft(obs: dict, places: _Places) -> str:
    o = ['<div class="dkv-draft" role="group" aria-label="Statue draft line">'
         '<span class="dlabel">Statue draft line</span>']
    for i, c in enumerate(obs["statue_line"]):
        n_str, _, back = c.partition("-")
        n = int(n_str)
        st = STATUES[n - 1]
        inner = (f'<span class="stn">{n}</span><span class="ste">{_a(statue_short(n))}</span>')
        tip = f"Statue {n} ({back.capitalize()} back): {st.effect}"
        acts = places.on.get(("statue", i), ())
        if acts:
            aid, label = acts[0]
            o.append(f'<button type="button" class="statue act {back}" data-action="{_a(aid)}" '
                     f'aria-label="{_a(label)}" title="{_a(label)}. {_a(st.effect)}">{inner}</button>')
        else:
            o.append(f'<span class="statue {back}" title="{_a(tip)}">{inner}</span>')
    deck = obs["statue_deck"]
    o.append(f'<span class="deck" title="Statues deck: the Day stack lies on the Night stack">'
             f'deck {deck["day"]} Day · {deck["night"]} Night</span></div>')
    return "".join(o)


def _status(obs: dict) -> str:
    lay = layout(obs)
    solo = obs.get("solo")
    bits = []
    if solo:
        bits.append(f"Turn {solo['trees']} of {lay.trees}")
        bits.append(f"Ships {solo['ships']}/{lay.ships}")
    else:
        bits.append(f"Round {obs['round']}")
        bits.append(f"Active: {seat_name(obs['active'])}")
    phase = {"event": "Event phase", "harvest": "Harvest", "draft": "Harvest: Statue draft",
             "action": "Action phase", "over": "Game over"}[obs["phase"]]
    if solo and solo.get("second_harvest") and obs["phase"] in ("harvest", "draft"):
        phase = "2nd " + phase
    bits.append(phase)
    if obs["phase"] != "over" and obs["deciding"] and obs["phase"] in ("harvest", "draft"):
        bits.append("deciding: " + ", ".join(seat_name(s) for s in obs["deciding"]))
    if obs["last_round"] and obs["phase"] != "over":
        bits.append("LAST ROUND")
    if solo and solo["heavy_rain"]:
        bits.append("Heavy Rain: no Blue die")
    if solo and solo["drought"]:
        bits.append("Drought: no Harvest")
    if obs["phase"] == "over":
        if solo:
            bits.append(f"Final score {obs['scores'][0]}: {solo.get('result') or ''}")
        else:
            bits.append("Winner: " + ", ".join(seat_name(s) for s in obs["winners"]))
    return '<div class="dkv-status">' + " · ".join(f"<span>{_a(b)}</span>" for b in bits) + "</div>"


def board_view(obs: dict, actions: list, seat: int | None) -> str:
    """The board as an HTML fragment (inline SVG, no script), escaped.

    ``obs`` is ``state.observation(seat)``; ``actions`` the seat's legal actions
    as ``[{"id": ..., "label": ...}]`` (empty when it is not to move); ``seat``
    None for a spectator (no action is placed then). Every action that marks
    a pip or takes a Statue card is a focusable element with ``data-action``
    and an ``aria-label`` on that pip or card. Pure: the same arguments give
    the same bytes. Rulebook: Game Setup, Player Sheets, Dice Actions,
    Reward Pips, Statue Cards, Domain Powers, Solo Rules, Winter Rules.
    """
    places = _Places(obs, list(actions), seat)
    n = len(obs["players"])
    viewer = seat if seat is not None and 0 <= seat < n else None
    shown = focus_seat(obs, seat, None)
    o = [f'<div class="board board-{GAME_ID} season-{_a(obs["sheets"])}">',
         '<div class="dkv-top">', _status(obs), _dice(obs), _draft(obs, places), "</div>",
         '<div class="dkv-seats">']
    for s in range(n):
        o.append(f'<input type="radio" name="dkv-seat" id="dkv-tab-{s}" class="dkv-radio"'
                 f'{" checked" if s == shown else ""} aria-label="Show the sheets of {_a(seat_name(s))}">')
    o.append('<div class="dkv-tabs" role="tablist">')
    for s in range(n):
        pl = obs["players"][s]
        cls = " active" if s == obs["active"] else ""
        cls += " deciding" if s in obs["deciding"] else ""
        who = seat_name(s) + (" (you)" if s == viewer else "")
        o.append(f'<label for="dkv-tab-{s}" class="dkv-tab{cls}" title="Show the sheets of {_a(who)}">'
                 f'{_a(who)} · {pl["score"]["total"]} VP'
                 f'{" ▶" if s == obs["active"] else ""}</label>')
    o.append("</div><div class=\"dkv-panels\">")
    for s in range(n):
        mine = s == viewer
        o.append(f'<div class="dkv-panel dkv-panel-{s}">{_castle(obs, s, places, mine)}'
                 f'{_forest(obs, s, places, mine)}</div>')
    o.append("</div></div></div>")
    return "".join(o)
