"""The bots' evaluation: the fast ``sheet_value`` (tables, parts re-used by greedy) equals its
documented formula, written out plainly here, and greedy takes the best of those values."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.engine import Rng
from dicetable.engine.testing import random_step
from dicetable.games.dice_kingdoms_of_valeria import components as C
from dicetable.games.dice_kingdoms_of_valeria import sheet as S
from dicetable.games.dice_kingdoms_of_valeria.policy import (
    ACTIVATION, LAIR_OPTION, REWARD_VALUE, action_values, actions_left, evaluate, greedy,
    harvests_left, sheet_value,
)
from dicetable.games.dice_kingdoms_of_valeria.rules import OVER, T_PICK, score_sheet

from dkov_helpers import new


def _domain_worth(state, sh, d, acts):
    lay = state.lay
    worth = 0.0
    if not sh[S.VDOM] >> d & 1:
        worth += 1.0 + (1.0 if lay.dom_power[d][0] == "instant_citizen" else 0.12 * min(acts, 12))
    opens = lay.dom_trail[d] & ~sh[S.ACC]
    for li, (hi, lo) in enumerate(lay.lair_vp):
        if opens >> li & 1 and sh[S.LST + li] == S.LAIR_OPEN:
            worth += LAIR_OPTION * (hi if state.lair_first[li] == -1 else lo)
    return worth


def sheet_value_by_hand(state, seat, harvests):
    """The module docstring of policy.py, term by term, from the Score Tally and the sheet."""
    lay = state.lay
    sh = state.sheets[seat]
    acts = actions_left(state, seat, harvests)
    value = float(score_sheet(lay, sh)["total"])
    if state.phase == OVER:
        return value
    can_statue = sh[S.NSTAT] < C.MAX_STATUES
    recruit_value = 0.3 + 0.06 * harvests
    rates = [0.0] * 4
    for s in range(10):
        n = sh[S.CIT + s] - bin(sh[S.CITV + s]).count("1")
        if n:
            rates[lay.cit_guild[s]] += n * sum(ACTIVATION[v] for v in lay.cit_values[s])
    for g in range(4):  # Guild Tracks
        have = sh[S.TRK + g]
        m = min(24 - have, rates[g] * harvests)
        if m <= 0:
            continue
        for i in range(have, have + int(m)):
            code = lay.trk_pips[g][i]
            if code and not sh[S.VTRK + g] >> i & 1:
                value += recruit_value if code == S.RECRUIT else REWARD_VALUE[code]
        value += 0.1 * m
    for li, (hi, lo) in enumerate(lay.lair_vp):  # lairs
        if sh[S.LST + li] != S.LAIR_OPEN or not sh[S.ACC] >> li & 1:
            continue
        share = sum(sh[S.LB0 + b] for b in lay.lair_blocks[li]) / lay.lair_len[li]
        vp = hi if state.lair_first[li] == -1 else lo
        value += 0.8 * vp * share * share + 0.15 * vp * share + LAIR_OPTION * vp
    for r in range(lay.nr):  # Roads toward an unclaimed Domain
        k = sh[lay.rc0 + r]
        if not k or k >= lay.road_len[r]:
            continue
        far = lay.road_b[r] if sh[lay.ro0 + r] == 1 else lay.road_a[r]
        if far >= 0 and not sh[S.DOM] >> far & 1:
            value += 0.7 * (k / lay.road_len[r]) * _domain_worth(state, sh, far, acts)
    for d in range(len(lay.dom_ids)):  # manipulation powers held
        if sh[S.DOM] >> d & 1 and not sh[S.VDOM] >> d & 1 and lay.dom_power[d][0] != "instant_citizen":
            value += 0.12 * min(acts, 12)
    gold = sh[S.GOLDC]
    for i in range(gold, min(gold + 4, lay.gold_len)):  # the next Plinth
        if lay.gold_pips[i] == S.PLINTH:
            if can_statue:
                value += 3.0 * (1 - (i - gold) / 4) * 0.5
            break
    wall = sh[S.WALLC]
    for i in range(wall, min(wall + 4, lay.wall_len)):  # the next Wall Star
        if lay.wall_pips[i] == S.STAR:
            value += 0.5 * (1 - (i - wall) / 4)
            break
    for code in state.pending_rewards(seat):  # pending Rewards
        if code == S.RECRUIT:
            value += recruit_value
        elif code in (S.PLINTH, T_PICK):
            value += REWARD_VALUE[code] if can_statue else 0.0
        else:
            value += REWARD_VALUE.get(code, 0.0)
    if sh[S.PLP] and can_statue:
        value += REWARD_VALUE[T_PICK] * sh[S.PLP]
    return value


@pytest.mark.parametrize("players,sheets", [(1, "summer"), (1, "winter"), (2, "winter"), (4, "summer")])
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_sheet_value_and_greedy_follow_the_documented_formula(players, sheets, seed):
    """Along a random game: every seat's value equals the formula, each greedy candidate's value
    equals the formula on the candidate's result, and greedy picks the first best."""
    state = new(players, sheets, seed=seed)
    rng = Rng(seed)
    decisions = 0
    while not state.is_over:
        harvests = harvests_left(state)
        for seat in range(players):
            assert sheet_value(state, seat) == pytest.approx(sheet_value_by_hand(state, seat, harvests), abs=1e-9)
            assert 0.0 <= evaluate(state, seat) <= 1.0
        seat = state.to_move[0]
        if len(state.legal_actions(seat)) > 1 and rng.randbelow(3) == 0:
            values = action_values(state, seat)
            for action, value in values:
                twin = state.preview(action, seat)
                assert value == pytest.approx(sheet_value_by_hand(twin, seat, harvests), abs=1e-9)
            best, best_value = None, float("-inf")
            for action, value in values:  # the best, the first on ties (within 1e-9)
                if value > best_value + 1e-9:
                    best, best_value = action, value
            assert greedy(state, seat).id == best.id
            decisions += 1
        random_step(state, rng)
    assert decisions > 0
    harvests = harvests_left(state)
    for seat in range(players):
        assert sheet_value(state, seat) == sheet_value_by_hand(state, seat, harvests) == score_sheet(
            state.lay, state.sheets[seat])["total"]
