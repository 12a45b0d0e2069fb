"""Valeria: Card Kingdoms on the engine's turn flow: simultaneous Dukes, the cost rules the
Action menu and the payments share, and the search copy that stops at the end of a turn."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.games.valeria_card_kingdoms.components import (
    CIT_COST, CIT_INDEX, DOM_COST, DOM_INDEX, MON_INDEX, MON_MAG, MON_STR,
)
from dicetable.games.valeria_card_kingdoms.rules import DOM0, P_OVER
from dicetable.games.valeria_card_kingdoms.rules.tables import PAY_BUILD, PAY_RECRUIT, PAY_SLAY, pay_span, spendable

from vck_helpers import (
    action_phase, citizen_position, give, give_domain, ids, keep_dukes, monster_on_top, new, set_res,
)


# ---------------------------------------------------------------- Dukes (R3.14): every seat at once
def test_every_seat_keeps_a_duke_at_once_and_the_first_turn_waits_for_all():
    s = new(3, dice=(5, 6))
    assert s.to_move == (0, 1, 2)
    s.apply(s.legal_actions(2)[0], 2)  # any order: the last seat first
    assert s.to_move == (0, 1) and s.turn == 0
    assert s.decision(2) is None and s.legal_actions(2) == ()
    s.apply(s.legal_actions(0)[1], 0)
    assert s.to_move == (1,) and s.turn == 0
    s.apply(s.legal_actions(1)[0], 1)
    assert s.turn == 1 and s.active == 0 and s.dice == (5, 6)
    assert min(s.dukes) >= 0


# ---------------------------------------------------------------- payments (R4.6, A3, A16)
def test_magic_stands_in_but_one_real_token_is_paid():
    assert spendable(0, 9) == 0  # no real token: only a cost of 0 can be paid
    assert spendable(1, 4) == 5
    assert pay_span(0, 9, 0) == (0, 0)
    assert pay_span(0, 9, 3) is None
    assert pay_span(1, 4, 5) == (1, 1)  # 1 Gold + 4 Magic
    assert pay_span(4, 4, 5) == (1, 4)  # from 1 Gold + 4 Magic to 4 Gold + 1 Magic
    assert pay_span(9, 0, 5) == (5, 5)  # never more tokens than the cost
    assert pay_span(2, 2, 5) is None


def test_a_monsters_magic_cost_comes_first():
    s = action_phase(2)
    p = monster_on_top(s, "Goblin")  # R6.3: the Magic cost is paid in Magic only
    m = MON_INDEX["Goblin"]
    set_res(s, 0, st=1, m=MON_MAG[m] + MON_STR[m] - 1)
    assert s.pay_range(0, PAY_SLAY, p) == (1, 1, MON_STR[m] + MON_MAG[m])
    assert "slay:hills" in ids(s)
    set_res(s, 0, st=0)
    with pytest.raises(ValueError, match="cannot pay for the Goblin"):
        s.pay_range(0, PAY_SLAY, p)
    assert not any(a.startswith("slay:") for a in ids(s))


@settings(max_examples=60, deadline=None)
@given(gold=st.integers(0, 12), strength=st.integers(0, 12), magic=st.integers(0, 12),
       peasants=st.integers(0, 3))
def test_the_menu_offers_exactly_what_the_seat_can_pay(gold, strength, magic, peasants):
    """An Action is on the menu exactly when its payment has a way to pay (R5.16, R6.2-R6.11)."""
    s = action_phase(2)
    give(s, 0, "Peasant", peasants)
    set_res(s, 0, g=gold, st=strength, m=magic)
    menu = {a.id: a for a in s.legal_actions(0)}
    for p in range(5):
        if s.stacks[p]:
            m = s.stacks[p][-1]
            offered = any(a.payload == p for k, a in menu.items() if k.startswith("slay:"))
            spare = magic - MON_MAG[m]
            assert offered == (spare >= 0 and pay_span(strength, spare, MON_STR[m]) is not None)
            if offered:
                lo, hi, total = s.pay_range(0, PAY_SLAY, p)
                assert 1 <= lo <= hi <= strength and total == MON_STR[m] + MON_MAG[m]
    for p in range(5, DOM0):
        if s.stacks[p]:
            ct = s.stacks[p][-1]
            cost = s.recruit_cost(0, ct)
            offered = any(a.payload == p for k, a in menu.items() if k.startswith("recruit:"))
            assert offered == (pay_span(gold, magic, cost) is not None)
            if offered:
                assert s.pay_range(0, PAY_RECRUIT, p)[2] == cost
    for p in range(DOM0, DOM0 + 5):
        if s.stacks[p]:
            d = s.stacks[p][-1]
            offered = any(a.payload == p for k, a in menu.items() if k.startswith("build:"))
            if offered:
                assert pay_span(gold, magic, s.build_cost(0, d)) is not None
                assert s.pay_range(0, PAY_BUILD, p)[2] == s.build_cost(0, d)


def test_recruit_cost_counts_every_card_of_the_name_unless_waived():
    """R6.6: base cost + 1 per card of that name owned, the Starter included; Emerald Stronghold waives it."""
    s = action_phase(2)
    peasant = CIT_INDEX["Peasant"]
    assert s.recruit_cost(0, peasant) == CIT_COST[peasant] + 1  # the Starter Peasant
    give(s, 0, "Peasant", 2)
    assert s.recruit_costs(0)[peasant] == CIT_COST[peasant] + 3
    p = citizen_position(s, "Peasant")
    set_res(s, 0, g=20, m=0)
    assert s.pay_range(0, PAY_RECRUIT, p) == (CIT_COST[peasant] + 3,) * 3
    give_domain(s, 0, "Emerald Stronghold")
    assert s.recruit_cost(0, peasant) == CIT_COST[peasant]
    assert "recruit:peasant" in ids(s)


def test_build_cost_takes_the_discounts_never_below_zero():
    """R6.11, R6.18: Pratchett's Plateau takes 1 Gold off every Domain; a cost never goes below 0."""
    s = action_phase(2)
    give_domain(s, 0, "Pratchett's Plateau")
    for name in ("Blood Crow Army", "Emerald Stronghold"):
        d = DOM_INDEX[name]
        assert s.build_cost(0, d) == DOM_COST[d] - 1
    assert s.build_discount(0) == 1


# ---------------------------------------------------------------- the search copy
def test_a_horizon_copy_stops_at_the_end_of_the_turn_and_leaves_the_game_alone():
    s = action_phase(2)
    before = s.to_dict()
    look = s.horizon_clone()
    turn, active = look.turn, look.active
    look = look.child(look.legal_actions(0)[0], 0)  # gain:gold, then the second Action
    assert not look.is_over
    look = look.child(look.legal_actions(0)[0], 0)
    assert look.is_over and look.phase != P_OVER and look.winners == ()
    assert look.turn == turn and look.active == active  # the next turn was not started
    assert s.to_dict() == before
    s.apply("gain:gold", 0)
    s.apply("gain:gold", 0)
    assert s.turn == turn + 1 and not s.is_over  # the game itself goes on


def test_a_solo_horizon_copy_plays_on_into_the_next_turn():
    s = new(1, dice=(5, 6, 5, 6, 5, 6))
    keep_dukes(s)
    look = s.horizon_clone()
    turn = look.turn
    while not look.is_over and look.turn == turn:
        seat = look.to_move[0]
        look = look.child(look.legal_actions(seat)[0], seat)
    assert look.turn == turn + 1
