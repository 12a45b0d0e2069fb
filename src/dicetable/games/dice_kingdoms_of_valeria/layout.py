"""Dice Kingdoms of Valeria: one season's sheets as tables of plain ints, the rules' hot path.

:class:`Layout` turns a season's validated :class:`~.components.Sheets` into tuples
of ints indexed by section, pip and count (rulebook: Player Sheets,
Scoring), built once at import (:data:`LAYOUTS`). The rules,
the bots and the encoding read these tables, never the data models. Every
attribute is declared with its type, so the compiled build reads it as a
field of a native class and indexes its tuples without a generic lookup
(docs/compiled.md).
"""

from __future__ import annotations

from typing import Final, TypeAlias

from .components import Forest, GuildTrack, SHEETS, Sheets
from .sheet import ACC, CIT, COLOURS, GUILDS, LB0, PLINTH, REWARD_CODE, STAR

RewardsAfter: TypeAlias = tuple[tuple[tuple[int, ...], ...], ...]
"""``[have][k]``: the Reward codes among the pips after the first ``have``, ``k`` of them (plain pips left out)."""


class Layout:
    """Plain-int tables of one season's sheets (built once at import; read only).

    Node codes: Domains are 0..12; a starting pip is -1; a dead end -2.
    Road directions: 1 = marked from ``a`` (the listed order), 2 = from ``b``.
    ``size`` is the length of a seat's flat sheet: the fixed offsets of
    :mod:`.sheet`, then one count per Range Block from ``LB0``, one count of
    marked pips per Road from ``rc0`` and one direction per Road from ``ro0``.
    """

    season: str
    data: Sheets
    cit_names: tuple[str, ...]
    cit_guild: tuple[int, ...]
    cit_pips: tuple[tuple[int, ...], ...]
    cit_values: tuple[tuple[int, ...], ...]
    cit_start: tuple[int, ...]
    harvest_sections: tuple[tuple[tuple[int, ...], ...], ...]
    guild_sections: tuple[tuple[int, ...], ...]
    trk_pips: tuple[tuple[int, ...], ...]
    trk_len: int
    gold_pips: tuple[int, ...]
    gold_rows: int
    wall_pips: tuple[int, ...]
    gold_len: int
    wall_len: int
    plinth_prefix: tuple[int, ...]
    gold_star_prefix: tuple[int, ...]
    wall_star_prefix: tuple[int, ...]
    trk_star_pos: tuple[tuple[int, ...], ...]
    trk_rewards: tuple[RewardsAfter, ...]
    lair_ids: tuple[str, ...]
    lair_names: tuple[str, ...]
    lair_vp: tuple[tuple[int, int], ...]
    lair_points: tuple[tuple[int, ...], ...]
    lair_blocks: tuple[tuple[int, ...], ...]
    block_lair: tuple[int, ...]
    block_range: tuple[tuple[int, int], ...]
    block_pips: tuple[tuple[int, ...], ...]
    block_len: tuple[int, ...]
    lair_len: tuple[int, ...]
    nb: int
    dom_ids: tuple[str, ...]
    dom_names: tuple[str, ...]
    dom_power: tuple[tuple[str, str | None, str | None], ...]
    adjust_mask: dict[str, int]
    flip_mask: dict[str, int]
    instant_guild: tuple[int, ...]
    power_masks: tuple[int, ...]
    power_all: int
    lair_open_mask: int
    dom_trail: tuple[int, ...]
    road_ids: tuple[str, ...]
    road_index: dict[str, int]
    road_a: tuple[int, ...]
    road_b: tuple[int, ...]
    road_a_name: tuple[str, ...]
    road_b_name: tuple[str, ...]
    road_kind: tuple[str, ...]
    road_len: tuple[int, ...]
    road_pips: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    nr: int
    road_rewards: tuple[tuple[RewardsAfter, RewardsAfter, RewardsAfter], ...]
    road_info: tuple[tuple[int, int, int, int], ...]
    start_roads: tuple[int, ...]
    bridge_ids: tuple[str, ...]
    bridge_road: tuple[int, ...]
    bridge_pos: tuple[tuple[int, ...], ...]
    pip_bridge: tuple[dict[int, int], ...]
    rc0: int
    ro0: int
    size: int
    fresh_sheet: tuple[int, ...]
    trees: int
    ships: int
    cit_star: tuple[tuple[tuple[int, ...], ...], ...]
    cit_count: tuple[tuple[int, ...], ...]
    trk_star_prefix: tuple[tuple[int, ...], ...]
    block_star_prefix: tuple[tuple[int, ...], ...]
    cit_star_plain: tuple[tuple[int, ...], ...]
    road_star_dir: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    cit_star_flat: tuple[int, ...]
    trk_stride: int
    trk_star_flat: tuple[int, ...]
    block_stride: int
    block_star_flat: tuple[int, ...]
    road_stride: int
    road_star_flat: tuple[int, ...]
    bridge_span: tuple[tuple[int, int, int], ...]

    def __init__(self, sheets: Sheets) -> None:
        c, f = sheets.castle, sheets.forest
        self.season = sheets.season
        self.data = sheets
        self.cit_names = tuple(s.section for s in c.citizens)
        self.cit_guild = tuple(GUILDS.index(s.guild) for s in c.citizens)
        self.cit_pips = tuple(tuple(REWARD_CODE[p] for p in s.pips) for s in c.citizens)
        self.cit_values = tuple(tuple(s.values) for s in c.citizens)
        self.cit_start = tuple(sum(p == "START" for p in s.pips) for s in c.citizens)
        vs = [-1] * 13
        for i, s in enumerate(c.citizens):
            for v in s.values:
                vs[v] = i
        #: harvest_sections[b1][b2]: the Citizen sections two black dice activate (each die and
        #: the sum), lowest value first; a section appears twice when activated twice.
        self.harvest_sections = tuple(
            tuple(tuple(sorted((vs[b1], vs[b2], vs[b1 + b2]))) if b1 and b2 else () for b2 in range(7))
            for b1 in range(7))
        self.guild_sections = tuple(tuple(i for i, g in enumerate(self.cit_guild) if g == gi)
                                    for gi in range(4))
        tracks: dict[str, GuildTrack] = {t.guild: t for t in c.guild_tracks}
        self.trk_pips = tuple(tuple(REWARD_CODE[p] for p in tracks[g].pips) for g in GUILDS)
        self.trk_len = 24
        self.gold_pips = tuple(REWARD_CODE[p] for p in c.gold_chart.pips)
        self.gold_rows = c.gold_chart.rows
        self.wall_pips = tuple(REWARD_CODE[p] for p in c.wall.pips)
        self.gold_len = len(self.gold_pips)
        self.wall_len = len(self.wall_pips)
        self.plinth_prefix = _prefix(self.gold_pips, PLINTH)
        self.gold_star_prefix = _prefix(self.gold_pips, STAR)
        self.wall_star_prefix = _prefix(self.wall_pips, STAR)
        self.trk_star_pos = tuple(tuple(i for i, k in enumerate(p) if k == STAR) for p in self.trk_pips)
        #: trk_rewards[g][have][k]: the Reward codes of marking k more pips after ``have`` (no voids).
        self.trk_rewards = tuple(_rewards_after(p) for p in self.trk_pips)
        # Lairs and Range Blocks (global block numbers 0..nb-1).
        self.lair_ids = tuple(lair.id for lair in c.lairs)
        self.lair_names = tuple(lair.name for lair in c.lairs)
        self.lair_vp = tuple((lair.vp[0], lair.vp[1]) for lair in c.lairs)
        #: lair_points[li][result]: VP of a lair result (open, high, low, pending in this Harvest).
        self.lair_points = tuple((0, hi, lo, 0) for hi, lo in self.lair_vp)
        blocks: list[tuple[int, ...]] = []
        block_lair: list[int] = []
        ranges: list[tuple[int, int]] = []
        pips: list[tuple[int, ...]] = []
        for li, lair in enumerate(c.lairs):
            mine = []
            for b in lair.blocks:
                mine.append(len(block_lair))
                block_lair.append(li)
                ranges.append((b.low, b.high))
                pips.append(tuple(REWARD_CODE[p] for p in b.pips))
            blocks.append(tuple(mine))
        self.lair_blocks = tuple(blocks)
        self.block_lair = tuple(block_lair)
        self.block_range = tuple(ranges)
        self.block_pips = tuple(pips)
        self.block_len = tuple(len(p) for p in pips)
        self.lair_len = tuple(sum(self.block_len[b] for b in bl) for bl in blocks)
        self.nb = len(block_lair)
        # Domains.
        dom_index = {d.id: i for i, d in enumerate(f.domains)}
        self.dom_ids = tuple(d.id for d in f.domains)
        self.dom_names = tuple(d.name for d in f.domains)
        self.dom_power = tuple((d.power.kind, d.power.die, d.power.guild) for d in f.domains)
        # Manipulation powers by die: bit masks of the Domains that give them.
        self.adjust_mask = {die: 0 for die in (*COLOURS, "any")}
        self.flip_mask = {die: 0 for die in COLOURS}
        instant_guild = [-1] * len(f.domains)
        for i, d in enumerate(f.domains):
            # ``Power`` checks that a manipulation power names a die, an instant Citizen a guild.
            kind, die, guild = d.power.kind, d.power.die, d.power.guild
            if kind == "adjust" and die is not None:
                self.adjust_mask[die] |= 1 << i
            elif kind == "flip" and die is not None:
                self.flip_mask[die] |= 1 << i
            elif guild is not None:
                instant_guild[i] = GUILDS.index(guild)
        self.instant_guild = tuple(instant_guild)
        #: Domain masks of: +1/-1 and Flip for Yellow, Red, Green, Blue, then +1/-1 Any.
        self.power_masks = (self.adjust_mask["yellow"], self.flip_mask["yellow"], self.adjust_mask["red"],
                            self.flip_mask["red"], self.adjust_mask["green"], self.flip_mask["green"],
                            self.adjust_mask["blue"], self.flip_mask["blue"], self.adjust_mask["any"])
        #: Every Domain whose power bends a die, as one mask.
        power_all = 0
        for mask in self.power_masks:
            power_all |= mask
        self.power_all = power_all
        self.lair_open_mask = sum(1 << i for i, lair in enumerate(c.lairs) if lair.open)
        lair_index = {lid: i for i, lid in enumerate(self.lair_ids)}
        trail = [0] * len(f.domains)
        for t in f.trailheads:
            trail[dom_index[t.domain]] |= 1 << lair_index[t.lair]
        self.dom_trail = tuple(trail)
        # Roads.
        self.road_ids = tuple(r.id for r in f.roads)
        self.road_index = {r: i for i, r in enumerate(self.road_ids)}
        self.road_a = tuple(_node(f, dom_index, r.a) for r in f.roads)
        self.road_b = tuple(_node(f, dom_index, r.b) for r in f.roads)
        self.road_a_name = tuple(r.a for r in f.roads)
        self.road_b_name = tuple(r.b for r in f.roads)
        self.road_kind = tuple(r.kind for r in f.roads)
        self.road_len = tuple(len(r.pips) for r in f.roads)
        a_order = tuple(tuple(REWARD_CODE[p] for p in r.pips) for r in f.roads)
        #: road_pips[r][d]: reward codes in marking order from direction d (index 0 unused: empty).
        self.road_pips = tuple(
            ((), a, tuple(reversed(a))) for a in a_order)
        self.nr = len(f.roads)
        #: road_rewards[r][d][have][k]: Reward codes of marking k more pips after ``have`` from d
        #: (index 0 unused: empty).
        self.road_rewards = tuple(
            ((), _rewards_after(p[1]), _rewards_after(p[2])) for p in self.road_pips)
        #: (road, a, b if a link Road else -1, length): what `_usable_roads` needs.
        self.road_info = tuple((i, self.road_a[i], self.road_b[i] if r.kind == "link" else -1,
                                len(r.pips)) for i, r in enumerate(f.roads))
        self.start_roads = tuple(i for i, r in enumerate(f.roads) if r.kind == "start")
        # Bridges: per road, the a-order positions (0-based) of each Bridge.
        self.bridge_ids = tuple(b.id for b in f.bridges)
        self.bridge_road = tuple(self.road_index[b.road] for b in f.bridges)
        self.bridge_pos = tuple(tuple(p - 1 for p in b.pips) for b in f.bridges)
        pb: list[dict[int, int]] = [{} for _ in f.roads]
        for bi, bridge in enumerate(f.bridges):
            for at in bridge.pips:
                pb[self.road_index[bridge.road]][at - 1] = bi
        self.pip_bridge = tuple(pb)
        # The flat sheet.
        self.rc0 = LB0 + self.nb          # road pips marked
        self.ro0 = self.rc0 + self.nr     # road direction (0 not begun, 1 from a, 2 from b)
        self.size = self.ro0 + self.nr
        sheet = [0] * self.size
        for i, n in enumerate(self.cit_start):
            sheet[CIT + i] = n
        for r in self.start_roads:
            sheet[self.ro0 + r] = 1
        sheet[ACC] = self.lair_open_mask
        self.fresh_sheet = tuple(sheet)
        self.trees = c.trees.count
        self.ships = c.ships.count
        # Scoring tables (the hot path of the bots' evaluation reads these, never the data).
        #: cit_star[s][n][void]: Star pips counted in Citizen section s with n marked, void mask.
        self.cit_star = tuple(
            tuple(tuple(sum(1 for i in range(n) if pips[i] == STAR and not void >> i & 1)
                        for void in range(4)) for n in range(3))
            for pips in self.cit_pips)
        #: cit_count[n][void]: marked, not voided pips of a Citizen section with n marked, void mask.
        self.cit_count = tuple(tuple(n - bin(void).count("1") for void in range(4)) for n in range(3))
        self.trk_star_prefix = tuple(_prefix(p, STAR) for p in self.trk_pips)
        self.block_star_prefix = tuple(_prefix(p, STAR) for p in self.block_pips)
        #: cit_star_plain[s][n]: the same without voids.
        self.cit_star_plain = tuple(tuple(row[n][0] for n in range(3)) for row in self.cit_star)
        #: road_star_dir[r][d][k]: Star pips among the first k marked from direction d (0: none).
        self.road_star_dir = tuple(((0,) * (len(p[1]) + 1), _prefix(p[1], STAR), _prefix(p[2], STAR))
                                   for p in self.road_pips)
        # The same Star tables flattened for scoring.star_pips, which reads one entry per section (one
        # tuple read, where a table of tuples costs two or three reads and their checks in compiled
        # code): rows padded with 0 to one stride (a padded entry is never read: a count is at most
        # its row's length).
        #: cit_star_flat[12 * s + 4 * n + void] = cit_star[s][n][void]
        self.cit_star_flat = _flat([row for sec in self.cit_star for row in sec], 4)
        #: trk_star_flat[trk_stride * g + k] = trk_star_prefix[g][k]
        self.trk_stride = max(len(row) for row in self.trk_star_prefix)
        self.trk_star_flat = _flat(list(self.trk_star_prefix), self.trk_stride)
        #: block_star_flat[block_stride * b + k] = block_star_prefix[b][k]
        self.block_stride = max([len(row) for row in self.block_star_prefix], default=1)
        self.block_star_flat = _flat(list(self.block_star_prefix), self.block_stride)
        #: road_star_flat[road_stride * (3 * r + d) + k] = road_star_dir[r][d][k]
        self.road_stride = max([len(row) for dirs in self.road_star_dir for row in dirs], default=1)
        self.road_star_flat = _flat([row for dirs in self.road_star_dir for row in dirs], self.road_stride)
        #: (road, first a-order position, last a-order position) of each Bridge.
        self.bridge_span = tuple((self.bridge_road[bi], min(p), max(p)) for bi, p in enumerate(self.bridge_pos))



def _rewards_after(pips: tuple[int, ...]) -> RewardsAfter:
    """The :data:`RewardsAfter` table of a row of pips (reward codes, marked left to right)."""
    n = len(pips)
    return tuple(tuple(tuple(c for c in pips[have:have + k] if c) for k in range(n - have + 1))
                 for have in range(n + 1))


def _flat(rows: list[tuple[int, ...]], stride: int) -> tuple[int, ...]:
    """``rows`` one after the other, each padded with 0 to ``stride`` entries."""
    out: list[int] = []
    for row in rows:
        out.extend(row)
        out.extend([0] * (stride - len(row)))
    return tuple(out)


def _prefix(pips: tuple[int, ...], kind: int) -> tuple[int, ...]:
    """``out[k]``: how many of the first ``k`` of ``pips`` are of ``kind`` (``len(pips) + 1`` entries)."""
    out = [0]
    for p in pips:
        out.append(out[-1] + (p == kind))
    return tuple(out)


def _node(forest: Forest, dom_index: dict[str, int], name: str) -> int:
    """The node code of a Road's end ``name``: its Domain's index, -1 for a starting pip, else -2 (a dead end)."""
    if name in dom_index:
        return dom_index[name]
    if any(s.id == name for s in forest.starts):
        return -1
    return -2


#: The layout of each season ("summer", "winter").
LAYOUTS: Final[dict[str, Layout]] = {s: Layout(SHEETS[s]) for s in SHEETS}
