"""The solo round's programme (kingdom_of_dice/solo_round.py) against the rulebook's card order."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.engine import new_game
from dicetable.games.kingdom_of_dice.components import SPACES, TOP_SPACE
from dicetable.games.kingdom_of_dice.policy import _TurnTable, turn_outcomes
from dicetable.games.kingdom_of_dice.rules import CARD_VALUE, CAT, EMPTY
from dicetable.games.kingdom_of_dice.solo_round import round_endings, turn_dp

EMPTY_SET_ASIDE = (0,) * 6


@settings(max_examples=8, deadline=None)
@given(st.lists(st.lists(st.floats(-20, 50), min_size=TOP_SPACE + 1, max_size=TOP_SPACE + 1), min_size=1, max_size=4))
def test_the_batched_turn_is_the_turn_planners_expectimax(tables):
    """For any value tables, one batched pass gives each table's expected turn value exactly as
    the planner's own programme (rulebook: How to Play, steps 1-4) computes it, one at a time
    over every set-aside, the dead ones included (the batch leaves those out)."""
    got = turn_dp().start(tables)
    assert len(got) == len(tables)
    for table, value in zip(tables, got):
        assert value == pytest.approx(_TurnTable(tuple(table)).continue_(EMPTY_SET_ASIDE), abs=1e-9)


def test_a_turn_worth_its_result_expects_the_greedy_tables_value():
    """The table "a result is worth its value, no marker 0" (greedy's) gives the planner's
    expected result value, and a table worth the same whatever happens gives that worth."""
    result_table = [float(r) for r in range(TOP_SPACE + 1)]
    flat = [7.5] * (TOP_SPACE + 1)
    assert turn_dp().start([]) == []
    got = turn_dp().start([result_table, flat])
    assert got[0] == pytest.approx(_TurnTable(tuple(result_table)).continue_(EMPTY_SET_ASIDE), abs=1e-12)
    assert 0 < got[0] < TOP_SPACE
    assert got[1] == pytest.approx(7.5, abs=1e-12)


def test_a_solo_round_needs_no_numpy():
    """A base install has no numpy: solving a round, in a fresh interpreter, never imports it."""
    code = ("import sys\n"
            "from dicetable.engine import new_game\n"
            "from dicetable.games.kingdom_of_dice.solo_round import round_endings\n"
            "out = round_endings(new_game('kingdom-of-dice', 1, seed=9, options={'cat_level': 1}), 0)\n"
            "assert len(out) == 33 and out[16] > out[1], out\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numpy'))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def _last_turns(spent: int):
    """A level-1 solo round (Cat on 5, 10, 15) with the player's markers on 20, 12 and 7."""
    state = new_game("kingdom-of-dice", 1, seed=8, options={"cat_level": 1})
    assert [SPACES[i] for i, o in enumerate(state.board) if o == CAT] == [5, 10, 15]
    for space in (20, 12, 7):
        state.board[SPACES.index(space)] = 0
    state.placed[0], state.spent = 3, spent
    cards = sorted((CARD_VALUE[c] for c in state.market), reverse=True)
    return state, cards, float(state.scores[0])


def test_the_last_turn_is_valued_by_the_rulebooks_card_order():
    """One turn left (three markers placed, one set aside): each ending is worth the cards the
    player's markers take, highest marker first, the Cat's markers taking theirs in between
    (End of a Round), a result landing on the next lower free space (How to Play, step 3)."""
    state, c, base = _last_turns(spent=1)
    out = round_endings(state, 0)
    assert len(out) == TOP_SPACE + 1
    # markers from the top: 20 me, 15 Cat, 12 me, 10 Cat, 7 me, 5 Cat
    assert out[0] == base + c[0] + c[2] + c[4]
    assert out[18] == base + c[0] + c[1] + c[3] + c[5]        # 18 above the Cat's 15
    assert out[TOP_SPACE] == out[18]
    assert out[12] == base + c[0] + c[2] + c[3] + c[5]        # 12 taken: lands on 11
    assert out[15] == out[12]                                  # the Cat's 15: lands on 14
    assert out[8] == base + c[0] + c[2] + c[4] + c[5]         # between the Cat's 10 and 5
    assert out[5] == base + c[0] + c[2] + c[4] + c[6]         # the Cat's 5: lands on 4
    assert out[1] == out[5]


def test_a_turn_before_the_last_is_the_expectimax_of_the_last():
    """Two turns left and one marker to the round's seventh: placing ends the round (its value as
    on the last turn), and ending without a marker is worth the last turn played at its best."""
    last, _, _ = _last_turns(spent=1)
    state, _, _ = _last_turns(spent=0)
    final = round_endings(last, 0)
    out = round_endings(state, 0)
    assert out[1:] == final[1:]
    assert out[0] == pytest.approx(_TurnTable(final).continue_(EMPTY_SET_ASIDE), abs=1e-9)
    assert final[0] < out[0] < max(final)


def test_early_endings_rank_by_the_gap_between_the_cats_markers():
    """At a round's first turn a marker is worth no less in a higher gap between the Cat's
    markers (it takes an earlier card and pushes a Cat marker down the order), and results
    landing in one gap are worth the same. (A marker below the Cat's 5 can be worth less than
    none: it takes one of the round's seven places for the lowest card.)"""
    state = new_game("kingdom-of-dice", 1, seed=9, options={"cat_level": 1})
    assert all(o in (EMPTY, CAT) for o in state.board)
    out = round_endings(state, 0)
    assert len(set(out[16:])) == 1 and len(set(out[11:16])) == 1 and len(set(out[6:11])) == 1
    assert out[16] >= out[11] >= out[6] >= out[1] and out[16] > out[1]
    assert turn_outcomes(state, 0, None) == out       # what the hard bot's planner uses solo


def test_the_round_is_solved_solo_only():
    state = new_game("kingdom-of-dice", 2, seed=3)
    with pytest.raises(ValueError, match="solo"):
        round_endings(state, state.to_move[0])
