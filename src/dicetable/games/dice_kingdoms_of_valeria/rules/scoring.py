"""Dice Kingdoms of Valeria scoring and sheet views (rulebook: Scoring; Statue Cards 1-14).

Pure functions of a season layout and one seat's flat sheet (offsets in
``sheet``): the Score Tally, Star pips, the marked-pip map and the
JSON-able sheet view of the observation.
"""

from __future__ import annotations

from typing import Final

from ..components import STATUES
from .consts import N_KINDS, SOLO_RESULTS, STATUE_STARS
from ..layout import Layout
from ..sheet import (
    ACC, CIT, CITV, DOM, GOLDC, GUILDS, LAIR_HIGH, LAIR_LOW, LAIR_OPEN, LB0, LST, PLP, STAT, TRK, VBRIDGE,
    VDOM, VTRK, WALLC,
)


def _bits(x: int) -> int:
    return bin(x).count("1")


def road_marked_positions(lay: Layout, sh: list[int], r: int) -> range:
    """Positions (0-based, in the Road's listed a -> b order) of its marked pips."""
    k = sh[lay.rc0 + r]
    if sh[lay.ro0 + r] == 2:
        return range(lay.road_len[r] - k, lay.road_len[r])
    return range(0, k)


def bridge_complete(lay: Layout, sh: list[int], bi: int) -> bool:
    """True when all 3 pips of Bridge ``bi`` are marked and it is not voided."""
    if sh[VBRIDGE] >> bi & 1:
        return False
    r, first, last = lay.bridge_span[bi]
    d = sh[lay.ro0 + r]
    if d == 2:
        return lay.road_len[r] - sh[lay.rc0 + r] <= first
    return sh[lay.rc0 + r] > last


def citizen_pips(lay: Layout, sh: list[int], guild: int | None = None) -> int:
    """Marked, not voided Citizen pips (of one guild, or all)."""
    total = 0
    count = lay.cit_count
    for s in (range(10) if guild is None else lay.guild_sections[guild]):
        total += count[sh[CIT + s]][sh[CITV + s]]
    return total


def star_pips(lay: Layout, sh: list[int]) -> int:
    """Marked Star pips on both sheets (voided ones excluded), without Statue 14.

    Index loops over the layout's prefix tables: the compiled build runs them natively, where
    ``sum(map(...))`` would call back into the interpreter for every section. The compiled build
    reads the flattened tables (one tuple read per section, where a table of tuples costs a checked
    read per level: 0.42 against 0.97 us a call); the pure build the nested ones
    (:func:`_star_pips_nested`: interpreted, the index arithmetic costs more than the reads it saves,
    2.6 against 3.5 us). The same count either way.
    """
    return _star_pips_flat(lay, sh) if _NATIVE else _star_pips_nested(lay, sh)


def _unvoided_track_stars(lay: Layout, g: int, have: int, void: int) -> int:
    """Star pips among the first ``have`` marked on Guild Track ``g`` that the mask ``void`` leaves."""
    return sum(1 for i in lay.trk_star_pos[g] if i < have and not void >> i & 1)


def _star_pips_flat(lay: Layout, sh: list[int]) -> int:
    """:func:`star_pips` by the layout's flattened tables (the compiled build's way: see there)."""
    stars = lay.gold_star_prefix[sh[GOLDC]] + lay.wall_star_prefix[sh[WALLC]]
    cit_star = lay.cit_star_flat  # [12 * section + 4 * marked + void mask]
    for s in range(10):  # a solo Exodus voids Citizen pips (CITV)
        stars += cit_star[12 * s + 4 * sh[CIT + s] + sh[CITV + s]]
    trk_star = lay.trk_star_flat  # [trk_stride * guild + marked]
    trk_stride = lay.trk_stride
    for g in range(4):
        have = sh[TRK + g]
        void = sh[VTRK + g]
        if void:  # a solo Guild Strike voids Reward Pips
            stars += _unvoided_track_stars(lay, g, have, void)
        else:
            stars += trk_star[trk_stride * g + have]
    block_star = lay.block_star_flat  # [block_stride * block + marked]
    block_stride = lay.block_stride
    for b in range(lay.nb):
        stars += block_star[block_stride * b + sh[LB0 + b]]
    # road_star_flat[road_stride * (3 * road + direction) + marked]; direction 0 (not begun) has
    # nothing marked.
    road_star = lay.road_star_flat
    road_stride = lay.road_stride
    rc0 = lay.rc0
    ro0 = lay.ro0
    for r in range(lay.nr):
        stars += road_star[road_stride * (3 * r + sh[ro0 + r]) + sh[rc0 + r]]
    return stars


def _star_pips_nested(lay: Layout, sh: list[int]) -> int:
    """:func:`star_pips` by the layout's nested tables (the pure build's way: see there)."""
    stars = lay.gold_star_prefix[sh[GOLDC]] + lay.wall_star_prefix[sh[WALLC]]
    cit_star = lay.cit_star
    for s in range(10):  # a solo Exodus voids Citizen pips (CITV)
        stars += cit_star[s][sh[CIT + s]][sh[CITV + s]]
    trk_star_prefix = lay.trk_star_prefix
    for g in range(4):
        have = sh[TRK + g]
        void = sh[VTRK + g]
        if void:  # a solo Guild Strike voids Reward Pips
            stars += _unvoided_track_stars(lay, g, have, void)
        else:
            stars += trk_star_prefix[g][have]
    block_star_prefix = lay.block_star_prefix
    for b in range(lay.nb):
        stars += block_star_prefix[b][sh[LB0 + b]]
    # road_star_dir[r][direction][marked]; direction 0 (not begun) has nothing marked.
    road_star_dir = lay.road_star_dir
    rc0 = lay.rc0
    ro0 = lay.ro0
    for r in range(lay.nr):
        stars += road_star_dir[r][sh[ro0 + r]][sh[rc0 + r]]
    return stars


def _statue_count(lay: Layout, sh: list[int], what: int, stars: int, domains: int, completed: int) -> int:
    """The count a scoring Statue multiplies (``StatueKind.count``, coded by ``_COUNT_CODE``)."""
    if what == 1:
        return stars
    if what == 2:
        return domains
    if what == 3:
        return completed
    if what == 4:
        return sh[GOLDC]
    if what == 5:
        return lay.wall_star_prefix[sh[WALLC]]
    if what == 6:
        return lay.plinth_prefix[sh[GOLDC]]
    if what == 7:
        return sum(1 for bi in range(len(lay.bridge_ids)) if bridge_complete(lay, sh, bi))
    return citizen_pips(lay, sh, what - 8)


_COUNT_CODE: Final = {None: 0, "stars": 1, "domains": 2, "lairs_completed": 3, "gold_pips": 4, "wall_stars": 5,
                      "plinths": 6, "complete_bridges": 7, "holy_citizens": 8, "worker_citizens": 9,
                      "shadow_citizens": 10, "soldier_citizens": 11}


#: Per Statue kind: (count code, per, vp).
STATUE_SCORING: Final = tuple((_COUNT_CODE[st.count], st.per, st.vp) for st in STATUES)


def score_sheet(lay: Layout, sh: list[int]) -> dict:
    """Score Tally of one sheet (rulebook: Scoring; Statue Cards 1-14)."""
    stars = star_pips(lay, sh)
    held = [k for k in range(N_KINDS) if sh[STAT] >> k & 1]
    stars += sum(STATUE_STARS[k] for k in held)
    domains = _bits(sh[DOM] & ~sh[VDOM])
    lairs = 0
    completed = 0
    for li, (hi, lo) in enumerate(lay.lair_vp):
        st = sh[LST + li]
        if st:
            completed += 1
            lairs += hi if st == LAIR_HIGH else lo if st == LAIR_LOW else 0
    per_statue = {}
    for k in held:
        what, per, vp = STATUE_SCORING[k]
        per_statue[str(k + 1)] = ((_statue_count(lay, sh, what, stars, domains, completed) // per) * vp
                                  if what else 0)
    statues = sum(per_statue.values())
    return {"stars": stars, "domains": domains, "lairs": lairs, "statues": statues,
            "statue_vp": per_statue, "total": stars + domains + lairs + statues}


#: Memo of :func:`score_total` by (layout, sheet as a tuple). ``apply`` asks for a sheet's score
#: before and after every mark (the board effects), and one mark's "after" is often the next
#: one's "before"; emptied when it holds ``_TOTALS_MAX`` sheets.
_TOTALS: Final[dict[tuple[Layout, tuple[int, ...]], int]] = {}
_TOTALS_MAX: Final = 4096

#: True in the compiled build (this module loaded from its C extension), where :func:`_score_total`
#: (about 1 us) costs no more than the memo's key (the sheet's ints made a tuple, hashed and compared),
#: so :func:`score_total` skips the memo there; :func:`star_pips` reads the flattened tables there.
_NATIVE: Final = not __file__.endswith(".py")


def score_total(lay: Layout, sh: list[int]) -> int:
    """``score_sheet(lay, sh)["total"]``, without building the tally (the bots' hot path)."""
    if _NATIVE:
        return _score_total(lay, sh)
    key = (lay, tuple(sh))
    total = _TOTALS.get(key)
    if total is None:
        if len(_TOTALS) >= _TOTALS_MAX:
            _TOTALS.clear()
        total = _TOTALS[key] = _score_total(lay, sh)
    return total


def _score_total(lay: Layout, sh: list[int]) -> int:
    """:func:`score_total` worked out (no memo)."""
    stars = star_pips(lay, sh)
    domains = (sh[DOM] & ~sh[VDOM]).bit_count()
    lair_points = lay.lair_points
    lairs = 0
    completed = 0
    for li in range(len(lair_points)):
        result = sh[LST + li]
        if result != LAIR_OPEN:
            completed += 1
            lairs += lair_points[li][result]
    held = sh[STAT]
    if not held:
        return stars + domains + lairs
    kinds = []
    while held:
        low = held & -held
        k = low.bit_length() - 1
        kinds.append(k)
        stars += STATUE_STARS[k]
        held ^= low
    total = stars + domains + lairs
    for k in kinds:
        what, per, vp = STATUE_SCORING[k]
        if what:
            total += (_statue_count(lay, sh, what, stars, domains, completed) // per) * vp
    return total


def solo_result(total: int) -> tuple[str, str]:
    """(title, text) of a solo score (rulebook: Solo Rules, Scoring)."""
    for lo, hi, title, text in SOLO_RESULTS:
        if lo <= total <= hi:
            return title, text
    return SOLO_RESULTS[0][2], SOLO_RESULTS[0][3]


def marked_pips(lay: Layout, sh: list[int]) -> dict:
    """Every section's pips as marked (True) or not, in printed order (Roads listed a -> b).

    Keys: ``"citizen:9/10"``, ``"track:Holy"``, ``"gold"``, ``"wall"``,
    ``"lair:L6:9-12"`` and ``"road:R09"``. A voided Citizen pip stays marked
    (it is crossed out, not erased). Used by the invariant tests.
    """
    out = {}
    for s in range(10):
        out[f"citizen:{lay.cit_names[s]}"] = [i < sh[CIT + s] for i in range(2)]
    for g in range(4):
        out[f"track:{GUILDS[g]}"] = [i < sh[TRK + g] for i in range(24)]
    out["gold"] = [i < sh[GOLDC] for i in range(lay.gold_len)]
    out["wall"] = [i < sh[WALLC] for i in range(lay.wall_len)]
    for b in range(lay.nb):
        lo, hi = lay.block_range[b]
        out[f"lair:{lay.lair_ids[lay.block_lair[b]]}:{lo}-{hi}"] = [i < sh[LB0 + b] for i in range(lay.block_len[b])]
    for r in range(lay.nr):
        marked = road_marked_positions(lay, sh, r)
        out[f"road:{lay.road_ids[r]}"] = [i in marked for i in range(lay.road_len[r])]
    return out


#: Sheet views already built, by (season, sheet ints): see :func:`sheet_view`. Emptied at 4,096 views.
_VIEWS: Final[dict] = {}


def sheet_view(lay: Layout, sh: list[int]) -> dict:
    """A JSON-able view of one seat's sheets: shared, never to be changed by its caller.

    Memoised on the season and the sheet's ints: every seat and spectator
    observes every sheet, and a sheet is unchanged over most versions, so
    one object serves every observation of it (the server's snapshots of
    all viewers and versions hold one copy). Its small parts (a Citizen
    section's, a Road's, a Lair's entry) are interned once per process
    (:func:`_citizen_entry`, :func:`_road_entry`, :func:`_lair_entry`),
    so even views of different sheets share most of their objects. A
    caller that wants to change a view copies it first.
    """
    key = (lay.season, *sh)
    got = _VIEWS.get(key)
    if got is None:
        if len(_VIEWS) > 4096:  # bound the memory of long simulations
            _VIEWS.clear()
        got = _VIEWS[key] = _sheet_view(lay, sh)
    return got


#: Interned entries of sheet views (finite domains, filled as met, never emptied; each at most the size
#: given): Citizen sections by (marked, voided bits) (12), Roads by (season, road, marked, direction) (579),
#: Range Block maps by (season, lair, blocks) (184), Lairs by (season, lair, blocks, result, access) (1,472).
_CITIZENS: Final[dict] = {}
_ROADS: Final[dict] = {}
_BLOCKS: Final[dict] = {}
_LAIRS: Final[dict] = {}

#: Per season, the view's name of each Range Block ("<lo>-<hi>"), made once.
_BLOCK_NAMES: Final[dict] = {}

_RESULTS: Final = ("open", "high", "low", "pending")


def _citizen_entry(marked: int, void: int) -> dict:
    """``{"marked": marked, "voided": [1-based pips voided]}`` of a Citizen section (interned)."""
    got = _CITIZENS.get((marked, void))
    if got is None:
        got = _CITIZENS[(marked, void)] = {"marked": marked, "voided": [i + 1 for i in range(2) if void >> i & 1]}
    return got


def _road_entry(lay: Layout, r: int, marked: int, way: int) -> dict:
    """``{"marked": pips, "from": end name or None}`` of Road ``r`` (interned)."""
    key = (lay.season, r, marked, way)
    got = _ROADS.get(key)
    if got is None:
        got = _ROADS[key] = {"marked": marked, "from": (None, lay.road_a_name[r], lay.road_b_name[r])[way]}
    return got


def _lair_entry(lay: Layout, li: int, sh: list[int]) -> dict:
    """``{"blocks": {range: pips}, "result": ..., "access": ...}`` of Lair ``li`` (interned, its blocks too)."""
    blocks = lay.lair_blocks[li]
    marks = tuple([sh[LB0 + b] for b in blocks])
    key = (lay.season, li, marks, sh[LST + li], bool(sh[ACC] >> li & 1))
    got = _LAIRS.get(key)
    if got is None:
        names = _BLOCK_NAMES.get(lay.season)
        if names is None:
            names = _BLOCK_NAMES[lay.season] = tuple(f"{lo}-{hi}" for lo, hi in lay.block_range)
        held = _BLOCKS.get(key[:3])
        if held is None:
            held = _BLOCKS[key[:3]] = {names[b]: sh[LB0 + b] for b in blocks}
        got = _LAIRS[key] = {"blocks": held, "result": _RESULTS[key[3]], "access": key[4]}
    return got


def _sheet_view(lay: Layout, sh: list[int]) -> dict:
    ro0, rc0 = lay.ro0, lay.rc0
    return {
        "citizens": {lay.cit_names[s]: _citizen_entry(sh[CIT + s], sh[CITV + s]) for s in range(10)},
        "guild_tracks": {GUILDS[g]: sh[TRK + g] for g in range(4)},
        "voided_track_rewards": {GUILDS[g]: [i + 1 for i in range(24) if sh[VTRK + g] >> i & 1]
                                 for g in range(4) if sh[VTRK + g]},
        "gold": sh[GOLDC],
        "wall": sh[WALLC],
        "lairs": {lay.lair_ids[li]: _lair_entry(lay, li, sh) for li in range(len(lay.lair_ids))},
        "roads": {lay.road_ids[r]: _road_entry(lay, r, sh[rc0 + r], sh[ro0 + r]) for r in range(lay.nr)},
        "domains": [lay.dom_ids[d] for d in range(len(lay.dom_ids)) if sh[DOM] >> d & 1],
        "voided_domains": [lay.dom_ids[d] for d in range(len(lay.dom_ids)) if sh[VDOM] >> d & 1],
        "voided_bridges": [lay.bridge_ids[b] for b in range(len(lay.bridge_ids)) if sh[VBRIDGE] >> b & 1],
        "statues": [k + 1 for k in range(N_KINDS) if sh[STAT] >> k & 1],
        "plinths_to_draft": sh[PLP],
        "score": score_sheet(lay, sh),
    }
