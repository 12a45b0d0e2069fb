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

from dicetable.engine import Action

from .components import (
    ACC, CIT, CITV, DOM, GOLDC, LAIR_OPEN, LB0, LST, MAX_STATUES, NSTAT, PLINTH, PLP,
    RECRUIT, SLAY, STAR, TRK, VDOM, VTRK, WALLC, GOLD, ROAD, KNIGHT,
)
from .components import LAYOUTS
from .rules import (
    OVER, T_CITIZEN, T_FALLBACK, T_PICK, T_STRIKE, DiceKingdomsState, score_total,
)

#: Activation chance per Harvest of each Citizen value 1..12 (two black dice and their sum).
_P_SUM = {v: (6 - abs(v - 7)) / 36 if 2 <= v <= 12 else 0.0 for v in range(13)}
ACTIVATION = tuple((2 / 6 if 1 <= v <= 6 else 0.0) + _P_SUM[v] for v in range(13))

REWARD_VALUE = {0: 0.0, RECRUIT: 0.9, GOLD: 0.8, ROAD: 0.7, KNIGHT: 0.7, SLAY: 0.9, PLINTH: 3.5,
                STAR: 1.0, T_CITIZEN: 1.0, T_FALLBACK: 0.3, T_PICK: 3.5, T_STRIKE: 0.0}
#: Worth of being able to slay in a lair, as a share of the VP it still offers.
LAIR_OPTION = 0.3


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
    the module docstring, so the look-ups give bit-identical values.
    """

    def __init__(self, lay) -> None:
        #: rate[s][n]: Harvest activations a Citizen section with n pips adds to its guild.
        self.rate = tuple(tuple(n * sum(ACTIVATION[v] for v in lay.cit_values[s]) for n in range(3))
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
        #: (a, b, length) of every Road.
        self.roads = tuple((lay.road_a[r], lay.road_b[r], lay.road_len[r]) for r in range(lay.nr))


def _lair_term(vp: int, share: float) -> float:
    return 0.8 * vp * share * share + 0.15 * vp * share + LAIR_OPTION * vp


def sheet_value(state: DiceKingdomsState, seat: int, harvests: float | None = None) -> float:
    """Score now plus the estimated future worth of ``seat``'s sheets (VP-like units)."""
    lay = state.lay
    sh = state.sheets[seat]
    if harvests is None:
        harvests = harvests_left(state)
    value = float(score_total(lay, sh))
    if state.phase == OVER:
        return value
    tables = _TABLES[lay.season]
    acts = actions_left(state, seat, harvests)
    can_statue = sh[NSTAT] < MAX_STATUES
    rv = REWARD_VALUE
    recruit_value = 0.3 + 0.06 * harvests
    # Guild Tracks: each track's expected future pips x the value of the pips they reach.
    rates = [0.0, 0.0, 0.0, 0.0]
    cit_count = lay.cit_count
    for g, row, n, void in zip(lay.cit_guild, tables.rate, sh[CIT:CIT + 10], sh[CITV:CITV + 10]):
        n = cit_count[n][void]
        if n:
            rates[g] += row[n]
    for g in range(4):
        have = sh[TRK + g]
        m = min(24 - have, rates[g] * harvests)
        if m <= 0:
            continue
        end = have + int(m)
        void = sh[VTRK + g]
        for i, c in tables.track_from[g][have]:
            if i >= end:
                break
            if not void >> i & 1:
                value += recruit_value if c == RECRUIT else rv[c]
        value += 0.1 * m
    # Lairs: the VP still open times the share of pips marked, plus access itself.
    acc = sh[ACC]
    lair_first = state.lair_first
    for li, blocks in enumerate(lay.lair_blocks):
        if sh[LST + li] != LAIR_OPEN or not acc >> li & 1:
            continue
        marked = 0
        for b in blocks:
            marked += sh[LB0 + b]
        value += tables.lair[li][marked][lair_first[li] == -1]
    # Roads toward unclaimed Domains, and the manipulation powers held.
    claimed = sh[DOM]
    power = 0.12 * min(acts, 12)
    rc0 = lay.rc0
    ro0 = lay.ro0
    for (a, b, length), k, d in zip(tables.roads, sh[rc0:ro0], sh[ro0:ro0 + lay.nr]):
        if not k or k >= length:
            continue
        far = b if d == 1 else a
        if far < 0 or claimed >> far & 1:
            continue
        value += 0.7 * (k / length) * _domain_worth(state, lay, sh, far, power, tables)
    powers = claimed & ~sh[VDOM] & tables.manip_mask
    while powers:
        powers &= powers - 1
        value += power
    # Gold toward the next Plinth, Wall toward the next Star.
    add = tables.gold[sh[GOLDC]]
    if add is not None and can_statue:
        value += add
    add = tables.wall[sh[WALLC]]
    if add is not None:
        value += add
    # Pending Rewards and Plinths still to draft.
    for code, _ in state.tasks[seat]:
        if code == RECRUIT:
            value += recruit_value
        elif code == PLINTH or code == T_PICK:
            value += rv[code] if can_statue else 0.0
        else:
            value += rv.get(code, 0.0)
    if sh[PLP] and can_statue:
        value += rv[T_PICK] * sh[PLP]
    return value


def _domain_worth(state, lay, sh, d: int, power: float, tables) -> float:
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
                worth += LAIR_OPTION * (hi if state.lair_first[li] == -1 else lo)
    return worth


_TABLES = {season: _Tables(lay) for season, lay in LAYOUTS.items()}


def action_values(state: DiceKingdomsState, seat: int) -> list[tuple[Action, float]]:
    """Each legal action of ``seat`` with the :func:`sheet_value` right after it."""
    harvests = harvests_left(state)
    out = []
    for action in state.legal_actions(seat):
        twin = state.clone()
        twin._emitted = []
        tasks = twin.tasks[seat]
        if tasks:
            task = tasks.pop()
            twin._resolve_choice(seat, task, action.payload)
        else:
            twin._take_action(seat, action)
        twin._run(seat)
        out.append((action, sheet_value(twin, seat, harvests)))
    return out


def greedy(state: DiceKingdomsState, seat: int) -> Action:
    """The greedy bot's choice: the legal action with the best one-step :func:`sheet_value`."""
    actions = state.legal_actions(seat)
    if len(actions) == 1:
        return actions[0]
    best, best_value = None, float("-inf")
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
    mine = sheet_value(state, seat, harvests)
    if state.players == 1:
        return min(1.0, max(0.0, (mine - 40.0) / 60.0))
    best_other = max(sheet_value(state, s, harvests) for s in range(state.players) if s != seat)
    return min(1.0, max(0.0, 0.5 + (mine - best_other) / 40.0))
