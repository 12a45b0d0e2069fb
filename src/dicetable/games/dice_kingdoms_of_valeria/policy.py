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
from .rules import (
    OVER, T_CITIZEN, T_FALLBACK, T_PICK, T_STRIKE, DiceKingdomsState, score_sheet,
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
    if state.is_over:
        return 0.0
    if state.players == 1:
        return float(2 * (state.lay.trees - state.trees) + (1 if state.stage <= 2 else 0))
    if state.last_round:
        return float((state.first - state.active) % state.players)
    lead = max(sum(sorted(sh[TRK:TRK + 4])[1:]) for sh in state.sheets)
    done = max(1, state.harvest_no)
    rate = max(1.2, lead / done)
    return min(60.0, (72 - lead) / rate)


def actions_left(state: DiceKingdomsState, seat: int, harvests: float) -> float:
    """Expected Action phases still to come for ``seat``."""
    if state.players == 1:
        return float(state.lay.trees - state.trees) + (0 if state.acted else 1)
    return harvests / state.players


def _activation_rates(lay, sh) -> list:
    rates = [0.0, 0.0, 0.0, 0.0]
    for s in range(10):
        n = sh[CIT + s] - bin(sh[CITV + s]).count("1")
        if n:
            rates[lay.cit_guild[s]] += n * sum(ACTIVATION[v] for v in lay.cit_values[s])
    return rates


def sheet_value(state: DiceKingdomsState, seat: int, harvests: float | None = None) -> float:
    """Score now plus the estimated future worth of ``seat``'s sheets (VP-like units)."""
    lay = state.lay
    sh = state.sheets[seat]
    if harvests is None:
        harvests = harvests_left(state)
    acts = actions_left(state, seat, harvests)
    parts = score_sheet(lay, sh)
    value = float(parts["total"])
    if state.phase == OVER:
        return value
    can_statue = sh[NSTAT] < MAX_STATUES
    rv = REWARD_VALUE
    recruit_value = 0.3 + 0.06 * harvests
    # Guild Tracks.
    rates = _activation_rates(lay, sh)
    for g in range(4):
        have = sh[TRK + g]
        m = min(24 - have, rates[g] * harvests)
        if m <= 0:
            continue
        pips = lay.trk_pips[g]
        void = sh[VTRK + g]
        whole = int(m)
        for i in range(have, have + whole):
            c = pips[i]
            if c and not void >> i & 1:
                value += recruit_value if c == RECRUIT else rv[c]
        value += 0.1 * m
    # Lairs.
    acc = sh[ACC]
    for li, (hi, lo) in enumerate(lay.lair_vp):
        if sh[LST + li] != LAIR_OPEN or not acc >> li & 1:
            continue
        marked = sum(sh[LB0 + b] for b in lay.lair_blocks[li])
        share = marked / lay.lair_len[li]
        vp = hi if state.lair_first[li] == -1 else lo
        value += 0.8 * vp * share * share + 0.15 * vp * share + LAIR_OPTION * vp
    # Roads and Domains.
    claimed = sh[DOM]
    for r in range(lay.nr):
        d = sh[lay.ro0 + r]
        k = sh[lay.rc0 + r]
        if not k:
            continue
        length = lay.road_len[r]
        if k >= length:
            continue
        far = lay.road_b[r] if d == 1 else lay.road_a[r]
        if far < 0 or claimed >> far & 1:
            continue
        value += 0.7 * (k / length) * _domain_worth(state, lay, sh, far, acts)
    for di in range(len(lay.dom_ids)):
        if claimed >> di & 1 and not sh[VDOM] >> di & 1 and lay.dom_power[di][0] != "instant_citizen":
            value += 0.12 * min(acts, 12)
    # Gold toward the next Plinth, Wall toward the next Star.
    gold = sh[GOLDC]
    for i in range(gold, min(gold + 4, lay.gold_len)):
        if lay.gold_pips[i] == PLINTH:
            if can_statue:
                value += 3.0 * (1 - (i - gold) / 4) * 0.5
            break
    wall = sh[WALLC]
    for i in range(wall, min(wall + 4, lay.wall_len)):
        if lay.wall_pips[i] == STAR:
            value += 0.5 * (1 - (i - wall) / 4)
            break
    # Pending Rewards and Plinths still to draft.
    for code, _ in state.tasks[seat]:
        if code == RECRUIT:
            value += recruit_value
        elif code in (PLINTH, T_PICK):
            value += rv[code] if can_statue else 0.0
        else:
            value += rv.get(code, 0.0)
    if sh[PLP] and can_statue:
        value += rv[T_PICK] * sh[PLP]
    return value


def _domain_worth(state, lay, sh, d: int, acts: float) -> float:
    """What claiming Domain ``d`` adds: its point, its power, the lairs its Trailhead opens."""
    worth = 0.0
    if not sh[VDOM] >> d & 1:
        worth += 1.0 + (1.0 if lay.dom_power[d][0] == "instant_citizen" else 0.12 * min(acts, 12))
    opens = lay.dom_trail[d] & ~sh[ACC]
    for li, (hi, lo) in enumerate(lay.lair_vp):
        if opens >> li & 1 and sh[LST + li] == LAIR_OPEN:
            worth += LAIR_OPTION * (hi if state.lair_first[li] == -1 else lo)
    return worth


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
