"""Dice Kingdoms of Valeria evaluation for the bots: the greedy policy and a position score.

Greedy (documented in docs/games/dice-kingdoms-of-valeria.md): for each legal
action, apply it to a copy *without* letting the turn move on (only the
seat's own automatic Reward chain is resolved, up to its next choice) and
score the seat's sheets with :func:`sheet_value`; take the best (first on
ties). Because no later dice are rolled in the look-ahead, every candidate is
judged on the same information.

:func:`sheet_value` = the Score Tally now (Stars, Domains, Lairs, Statues)
plus an estimate of what the sheet will still earn:

* Guild Tracks: each track's expected future pips (its Citizens' marked pips
  x their activation chance per Harvest x the Harvests left, capped by the
  space left) times the value of the pips they would reach (Star 1 VP, other
  Reward Pips by :data:`REWARD_VALUE`). Recruiting is valued through this.
* Monster Lairs: the VP still available times the share of pips marked.
* Roads: the share of a begun Road times its Domain's worth (1 point, its
  power over the actions left, a Winter Trailhead).
* Domain manipulation powers: a little per action left.
* Gold Chart and Wall: progress toward the next Plinth / Star.
* Pending Rewards not yet resolved: :data:`REWARD_VALUE` each.
"""

from __future__ import annotations

from typing import Final

from dicetable.engine import Action

from .rules.consts import MAX_STATUES, STATUE_STARS
from .layout import Layout, LAYOUTS
from .sheet import (
    ACC, CIT, DOM, GOLD, GOLDC, KNIGHT, LAIR_OPEN, LB0, LST, NSTAT, PLINTH, PLP, RECRUIT, ROAD, SLAY, STAR,
    STAT, TRK, VDOM, VTRK, WALLC,
)
from .rules import (
    OVER, STATUE_SCORING, T_CITIZEN, T_FALLBACK, T_PICK, T_STRIKE, DiceKingdomsState, bridge_complete,
)

#: True in the compiled build (this module loaded from its C extension): there the Citizens' and
#: the Roads' parts of :func:`sheet_value` are worked out at every call (native loops over a few ints)
#: instead of memoised by a tuple key, which costs more to build and hash than the loops.
_NATIVE: Final = not __file__.endswith(".py")

#: Activation chance per Harvest of each Citizen value 1..12 (two black dice and their sum).
_P_SUM: Final = {v: (6 - abs(v - 7)) / 36 if 2 <= v <= 12 else 0.0 for v in range(13)}
ACTIVATION: Final = tuple((2 / 6 if 1 <= v <= 6 else 0.0) + _P_SUM[v] for v in range(13))

REWARD_VALUE: Final = {0: 0.0, RECRUIT: 0.9, GOLD: 0.8, ROAD: 0.7, KNIGHT: 0.7, SLAY: 0.9, PLINTH: 3.5,
                       STAR: 1.0, T_CITIZEN: 1.0, T_FALLBACK: 0.3, T_PICK: 3.5, T_STRIKE: 0.0}
#: Worth of being able to slay in a lair, as a share of the VP it still offers.
LAIR_OPTION: Final = 0.3


def harvests_left(state: DiceKingdomsState) -> float:
    """Expected Harvests still to come for every seat (solo: 2 per turn left)."""
    if state.phase == OVER:
        return 0.0
    if state.players == 1:
        return float(2 * (state.lay.trees - state.trees) + (1 if state.stage <= 2 else 0))
    if state.last_round:
        return float((state.first - state.active) % state.players)
    lead = 0
    for sh in state.sheets:  # every Guild Track but the shortest
        a, b, c, d = sh[TRK:TRK + 4]
        x = a + b + c + d - min(a, b, c, d)
        if x > lead:
            lead = x
    done = max(1, state.harvest_no)
    rate = max(1.2, lead / done)
    return min(60.0, (72 - lead) / rate)


def actions_left(state: DiceKingdomsState, seat: int, harvests: float) -> float:
    """Expected Action phases still to come for ``seat``."""
    if state.players == 1:
        return float(state.lay.trees - state.trees) + (0 if state.acted else 1)
    return harvests / state.players


class _Tables:
    """Per-season constants of :func:`sheet_value`, computed once from the layout.

    Each float is computed by the same expression as the plain description in
    the module docstring.
    """

    def __init__(self, lay: Layout) -> None:
        #: rate[s][n]: Harvest activations a Citizen section with n pips adds to its guild.
        self.rate = tuple(tuple(n * sum((ACTIVATION[v] for v in lay.cit_values[s]), 0.0) for n in range(3))
                          for s in range(10))
        #: track_from[g][i]: (position, reward code) of the track's Reward Pips from position i on.
        self.track_from = tuple(
            tuple(tuple((j, c) for j, c in enumerate(pips) if c and j >= i) for i in range(25))
            for pips in lay.trk_pips)
        #: lair[li][marked][first]: the lair's worth with ``marked`` pips (first: the high VP is open).
        self.lair = tuple(
            tuple((_lair_term(lo, marked / lay.lair_len[li]), _lair_term(hi, marked / lay.lair_len[li]))
                  for marked in range(lay.lair_len[li] + 1))
            for li, (hi, lo) in enumerate(lay.lair_vp))
        #: gold[i]: worth of the next Plinth within 4 pips of Gold pip i (None: none that close).
        gold = []
        for at in range(lay.gold_len + 1):
            add = None
            for i in range(at, min(at + 4, lay.gold_len)):
                if lay.gold_pips[i] == PLINTH:
                    add = 3.0 * (1 - (i - at) / 4) * 0.5
                    break
            gold.append(add)
        self.gold = tuple(gold)
        wall = []
        for at in range(lay.wall_len + 1):
            add = None
            for i in range(at, min(at + 4, lay.wall_len)):
                if lay.wall_pips[i] == STAR:
                    add = 0.5 * (1 - (i - at) / 4)
                    break
            wall.append(add)
        self.wall = tuple(wall)
        #: Domains whose power bends the dice (not an instant Citizen), as a bit mask.
        self.manip_mask = sum(1 << d for d in range(len(lay.dom_ids))
                              if lay.dom_power[d][0] != "instant_citizen")
        self.instant = tuple(lay.dom_power[d][0] == "instant_citizen" for d in range(len(lay.dom_ids)))
        #: Memos of the Citizens' part (by marked pips and voids) and of each track's terms.
        self.citizens: dict[tuple[int, ...], tuple[int, tuple[float, ...], tuple[int, ...]]] = {}
        self.tracks: dict[tuple[int, int, int, float, float], tuple[float, ...]] = {}
        #: Memo of the Roads' part by its inputs (see ``_Valuer.value``).
        self.roads_memo: dict[tuple[float, ...], tuple[int, int, list[float]]] = {}
        #: (first, end) of each lair's Range Blocks among the sheet's blocks.
        self.lair_slices = tuple((min(bl), max(bl) + 1) for bl in lay.lair_blocks)
        #: (a, b, length) of every Road.
        self.roads = tuple((lay.road_a[r], lay.road_b[r], lay.road_len[r]) for r in range(lay.nr))


def _lair_term(vp: int, share: float) -> float:
    return 0.8 * vp * share * share + 0.15 * vp * share + LAIR_OPTION * vp


def sheet_value(state: DiceKingdomsState, seat: int, harvests: float | None = None) -> float:
    """Score now plus the estimated future worth of ``seat``'s sheets (VP-like units).

    ``harvests``: :func:`harvests_left` (computed when omitted). The parts are
    those of the module docstring, added in that order.
    """
    if harvests is None:
        harvests = harvests_left(state)
    return _Valuer(state, seat, harvests).value(state)


class _Valuer:
    """:func:`sheet_value` of one seat in states that differ little (the greedy look-ahead).

    The sheet is read in three groups of entries: Citizens and Guild Tracks;
    lair results, access and Range Blocks; Roads, Domains and Bridges. Each
    group's share of the score and of the estimate is computed for the first
    state given and re-used for a later state whose group is unchanged (most
    actions touch one group), so only what an action changed is recomputed.
    ``harvests`` must be the same for every state given.
    """

    __slots__ = ("seat", "lay", "tables", "harvests", "recruit_value", "k1", "v1", "r1", "k2", "f2", "r2",
                 "k3", "d3", "f3", "a3", "r3")
    seat: int
    lay: Layout
    tables: _Tables
    harvests: float
    recruit_value: float
    # Each group's inputs and result for the first state valued (``k1``..``k3`` None until then).
    k1: list[int] | None
    v1: list[int]
    r1: tuple[int, list[float], tuple[int, ...]]
    k2: list[int] | None
    f2: list[int]
    r2: tuple[int, int, int, list[float]]
    k3: list[int] | None
    d3: list[int]
    f3: list[int]
    a3: float
    r3: tuple[int, int, list[float]]

    def __init__(self, state: DiceKingdomsState, seat: int, harvests: float) -> None:
        lay = state.lay
        self.seat = seat
        self.lay = lay
        self.tables = _TABLES[lay.season]
        self.harvests = harvests
        self.recruit_value = 0.3 + 0.06 * harvests
        self.k1 = None
        self.k2 = None
        self.k3 = None

    def value(self, state: DiceKingdomsState) -> float:
        """``sheet_value(state, seat, harvests)``."""
        lay = self.lay
        tables = self.tables
        seat = self.seat
        sh = state.sheets[seat]
        harvests = self.harvests
        lair_first = state.lair_first
        acts = actions_left(state, seat, harvests)
        # Group 1: Citizens and Guild Tracks -> (Star pips, track estimate, Citizen pips per guild).
        k1 = sh[CIT:TRK + 4]
        v1 = sh[VTRK:VTRK + 4]
        if k1 == self.k1 and v1 == self.v1:
            stars1, tracks, guilds = self.r1
        else:
            stars1, tracks, guilds = r1 = _group1(lay, tables, k1, v1, harvests, self.recruit_value)
            if self.k1 is None:
                self.k1, self.v1, self.r1 = k1, v1, r1
        # Group 2: lair results, access and Range Blocks -> (lair VP, completed, Star pips, estimate).
        k2 = sh[LST:lay.rc0]
        if k2 == self.k2 and lair_first == self.f2:
            lair_vp, completed, stars2, lairs = self.r2
        else:
            lair_vp, completed, stars2, lairs = r2 = _group2(lay, tables, k2, lair_first)
            if self.k2 is None:
                self.k2, self.f2, self.r2 = k2, lair_first[:], r2
        # Group 3: Roads and Domains (lair results and access count for Trailheads)
        # -> (Star pips, Domains scored, Road estimate + powers).
        k3 = sh[lay.rc0:lay.size]
        d3 = sh[LST:LB0]
        d3.append(sh[DOM])
        d3.append(sh[VDOM])
        if k3 == self.k3 and d3 == self.d3 and lair_first == self.f3 and acts == self.a3:
            stars3, domains, roads = self.r3
        else:
            if _NATIVE:  # the compiled build works the Roads out rather than build and hash the key
                r3 = _group3(lay, tables, sh, lair_first, acts)
            else:
                key = (*k3, *d3, *lair_first, acts)
                memo = tables.roads_memo.get(key)
                if memo is None:
                    if len(tables.roads_memo) > 20_000:  # bound the memory of long searches
                        tables.roads_memo.clear()
                    memo = tables.roads_memo[key] = _group3(lay, tables, sh, lair_first, acts)
                r3 = memo
            stars3, domains, roads = r3
            if self.k3 is None:
                self.k3, self.d3, self.f3, self.a3, self.r3 = k3, d3, lair_first[:], acts, r3
        # The Score Tally.
        gold = sh[GOLDC]
        stars = stars1 + stars2 + stars3 + lay.gold_star_prefix[gold] + lay.wall_star_prefix[sh[WALLC]]
        held = sh[STAT]
        if held:
            statues = _HELD.get(held)
            if statues is None:
                statues = _HELD[held] = _held(held)
            stars += statues[0]
            total = stars + domains + lair_vp
            for what, per, vp in statues[1]:
                if what == 1:
                    n = stars
                elif what == 2:
                    n = domains
                elif what == 3:
                    n = completed
                elif what == 4:
                    n = gold
                elif what == 5:
                    n = lay.wall_star_prefix[sh[WALLC]]
                elif what == 6:
                    n = lay.plinth_prefix[gold]
                elif what == 7:
                    n = sum(1 for bi in range(len(lay.bridge_ids)) if bridge_complete(lay, sh, bi))
                else:
                    n = guilds[what - 8]
                total += (n // per) * vp
        else:
            total = stars + domains + lair_vp
        value = float(total)
        if state.phase == OVER:
            return value
        # The estimate: tracks, lairs, Roads and powers (added one by one, in the order of the
        # module docstring, so the sum is the same to the last bit), Gold and Wall, pending Rewards.
        for term in tracks:
            value += term
        for term in lairs:
            value += term
        for term in roads:
            value += term
        can_statue = sh[NSTAT] < MAX_STATUES
        add = tables.gold[gold]
        if add is not None and can_statue:
            value += add
        add = tables.wall[sh[WALLC]]
        if add is not None:
            value += add
        rv = REWARD_VALUE
        for code in state.pending_rewards(seat):
            if code == RECRUIT:
                value += self.recruit_value
            elif code == PLINTH or code == T_PICK:
                value += rv[code] if can_statue else 0.0
            else:
                value += rv.get(code, 0.0)
        if sh[PLP] and can_statue:
            value += rv[T_PICK] * sh[PLP]
        return value


#: Per held-Statues mask: (Star pips of Statue 14, (count code, per, VP) of each scoring Statue).
_HELD: Final[dict[int, tuple[int, tuple[tuple[int, int, int], ...]]]] = {}


def _held(held: int) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """The :data:`_HELD` entry of the held-Statues mask ``held`` (bit k: Statue k + 1)."""
    kinds = [k for k in range(len(STATUE_STARS)) if held >> k & 1]
    return (sum(STATUE_STARS[k] for k in kinds),
            tuple(STATUE_SCORING[k] for k in kinds if STATUE_SCORING[k][0]))


def _group1(lay: Layout, tables: _Tables, k1: list[int], void_tracks: list[int], harvests: float,
            recruit_value: float) -> tuple[int, list[float], tuple[int, ...]]:
    """Citizens and Guild Tracks (``k1`` = sheet entries CIT..TRK+3, ``void_tracks`` = VTRK..+3):
    (Star pips, the tracks' estimated worth as its terms in order, marked Citizen pips per guild)."""
    if _NATIVE:  # the compiled build works the Citizens out (ten sections) rather than hash their key
        stars, rates, guilds = _citizens(lay, tables, k1)
    else:
        citizens = tuple(k1[CIT:TRK])
        cached = tables.citizens.get(citizens)
        if cached is None:
            if len(tables.citizens) > 20_000:
                tables.citizens.clear()
            cached = tables.citizens[citizens] = _citizens(lay, tables, k1)
        stars, rates, guilds = cached
    rv = REWARD_VALUE
    adds: list[float] = []
    track_memo = tables.tracks
    for g in range(4):
        have = k1[TRK + g]
        void = void_tracks[g]
        rate = rates[g]
        if void:
            stars += sum(1 for i in lay.trk_star_pos[g] if i < have and not void >> i & 1)
        else:
            stars += lay.trk_star_prefix[g][have]
        m = min(24 - have, rate * harvests)
        if m <= 0:
            continue
        key = (g, have, void, m, recruit_value)
        terms = track_memo.get(key)
        if terms is None:
            end = have + int(m)
            new: list[float] = []
            for i, c in tables.track_from[g][have]:
                if i >= end:
                    break
                if not void >> i & 1:
                    new.append(recruit_value if c == RECRUIT else rv[c])
            new.append(0.1 * m)
            if len(track_memo) > 50_000:
                track_memo.clear()
            track_memo[key] = terms = tuple(new)
        adds += terms
    return stars, adds, guilds


def _citizens(lay: Layout, tables: _Tables,
              citizens: list[int]) -> tuple[int, tuple[float, ...], tuple[int, ...]]:
    """(Star pips, Harvest activations per guild, marked pips per guild) of the Citizens Tableau
    (``citizens`` = the sheet from CIT on: pips marked then void masks of the 10 sections); the pure
    build memoises it in ``tables`` (see :func:`_group1`)."""
    rates = [0.0, 0.0, 0.0, 0.0]
    guilds = [0, 0, 0, 0]
    cit_count = lay.cit_count
    cit_guild = lay.cit_guild
    rate = tables.rate
    cit_star = lay.cit_star
    stars = 0
    for s in range(10):
        marked = citizens[s]
        void = citizens[10 + s]
        n = cit_count[marked][void]
        if n:
            g = cit_guild[s]
            rates[g] += rate[s][n]
            guilds[g] += n
        stars += cit_star[s][marked][void]  # cit_star[s][n][0] is cit_star_plain[s][n]
    return stars, tuple(rates), tuple(guilds)


def _group2(lay: Layout, tables: _Tables, k2: list[int], lair_first: list[int]) -> tuple[int, int, int, list[float]]:
    """Lairs (``k2`` = sheet entries LST..the Roads): (lair VP, lairs completed, Range Block Star
    pips, the lairs' estimated worth as its terms in order)."""
    nl = len(lair_first)
    acc = k2[nl]
    b0 = nl + 1  # the first Range Block's entry
    lair_points = lay.lair_points
    vp = 0
    completed = 0
    for li in range(nl):
        result = k2[li]
        vp += lair_points[li][result]
        if result != LAIR_OPEN:
            completed += 1
    block_star_prefix = lay.block_star_prefix
    stars = 0
    for b in range(len(block_star_prefix)):
        stars += block_star_prefix[b][k2[b0 + b]]
    adds: list[float] = []
    lair = tables.lair
    lair_slices = tables.lair_slices
    for li in range(len(lair_slices)):
        if k2[li] == LAIR_OPEN and acc >> li & 1:
            first, last = lair_slices[li]
            marked = 0
            for b in range(b0 + first, b0 + last):
                marked += k2[b]
            adds.append(lair[li][marked][lair_first[li] == -1])
    return vp, completed, stars, adds


def _group3(lay: Layout, tables: _Tables, sh: list[int], lair_first: list[int],
            acts: float) -> tuple[int, int, list[float]]:
    """Roads and Domains: (Road Star pips, Domains scored, the Roads' estimated worth then the
    manipulation powers', as their terms in order)."""
    rc0 = lay.rc0
    ro0 = lay.ro0
    counts = sh[rc0:ro0]
    origins = sh[ro0:ro0 + lay.nr]
    road_star_dir = lay.road_star_dir
    stars = 0
    for r in range(lay.nr):
        stars += road_star_dir[r][origins[r]][counts[r]]
    claimed = sh[DOM]
    voided = sh[VDOM]
    domains = (claimed & ~voided).bit_count()
    power = 0.12 * min(acts, 12)
    adds = []
    roads = tables.roads
    for r in range(len(counts)):  # the Roads begun, in order
        k = counts[r]
        if not k:
            continue
        a, b, length = roads[r]
        if k >= length:
            continue
        far = b if origins[r] == 1 else a
        if far < 0 or claimed >> far & 1:
            continue
        adds.append(0.7 * (k / length) * _domain_worth(lair_first, lay, sh, far, power, tables))
    adds += [power] * (claimed & ~voided & tables.manip_mask).bit_count()
    return stars, domains, adds


def _domain_worth(lair_first: list[int], lay: Layout, sh: list[int], d: int, power: float,
                  tables: _Tables) -> float:
    """What claiming Domain ``d`` adds: its point, its power, the lairs its Trailhead opens.

    ``power`` is the worth of a manipulation power (0.12 per action left, at most 12).
    """
    worth = 0.0
    if not sh[VDOM] >> d & 1:
        worth += 1.0 + (1.0 if tables.instant[d] else power)
    opens = lay.dom_trail[d] & ~sh[ACC]
    if opens:
        for li, (hi, lo) in enumerate(lay.lair_vp):
            if opens >> li & 1 and sh[LST + li] == LAIR_OPEN:
                worth += LAIR_OPTION * (hi if lair_first[li] == -1 else lo)
    return worth


_TABLES: Final = {season: _Tables(lay) for season, lay in LAYOUTS.items()}


def action_values(state: DiceKingdomsState, seat: int) -> list[tuple[Action, float]]:
    """Each legal action of ``seat`` with the :func:`sheet_value` right after it."""
    harvests = harvests_left(state)
    valuer = _Valuer(state, seat, harvests)
    valuer.value(state)  # the groups an action leaves unchanged are then re-used
    out = []
    for action in state.legal_actions(seat):
        out.append((action, valuer.value(state.preview(action, seat))))
    return out


def greedy(state: DiceKingdomsState, seat: int) -> Action:
    """The greedy bot's choice: the legal action with the best one-step :func:`sheet_value`."""
    actions = state.legal_actions(seat)
    if len(actions) == 1:
        return actions[0]
    best, best_value = actions[0], float("-inf")
    for action, value in action_values(state, seat):
        if value > best_value + 1e-9:
            best, best_value = action, value
    return best


def evaluate(state: DiceKingdomsState, seat: int) -> float:
    """A score in [0, 1] for ``seat``.

    Multiplayer: 0.5 means level with the best other seat; each point of
    :func:`sheet_value` lead moves it 1/40 of the way (clamped). Solo: the
    estimated final score mapped from 40 (0) to 100 (1).
    """
    harvests = harvests_left(state)
    mine = _Valuer(state, seat, harvests).value(state)
    if state.players == 1:
        return min(1.0, max(0.0, (mine - 40.0) / 60.0))
    best_other = max(_Valuer(state, s, harvests).value(state) for s in range(state.players) if s != seat)
    return min(1.0, max(0.0, 0.5 + (mine - best_other) / 40.0))
