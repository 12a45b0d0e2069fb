"""Kingdom of Dice on the turn flow: the pending tasks, the one claim-order and free-space rule
every view uses, saves of the task stack, and the quiet step of search."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from dicetable import SaveFormatError, load_state, new_game
from dicetable.engine import Rng
from dicetable.games.kingdom_of_dice.components import SPACES
from dicetable.games.kingdom_of_dice.policy import evaluate
from dicetable.games.kingdom_of_dice.rules import claim_order, face_counts, free_space_at_or_below
from dicetable.games.kingdom_of_dice.viewdata import observed_board, observed_claims

C = "crown"


def occupy(state, space, owner):
    state.board[SPACES.index(space)] = owner


def test_a_turn_is_a_set_aside_task_then_a_place_task_at_the_free_space():
    state = new_game("kingdom-of-dice", 2, seed=1, dice=[1, 2, 2, C, C, 4])
    assert state.tasks == [("set-aside", 0)]           # the roll happened as the turn started
    assert state.pending(0) == ("set-aside", 0) and state.pending(1) is None
    occupy(state, 10, 1)                                 # rulebook KOD-2: 10 taken, the marker slides to 9
    for face in (1, 2, 2, C, C):
        state.apply(f"keep:{face}")
    state.apply("stop")
    assert state.pending(0) == ("place", 0, SPACES.index(9))
    assert state.phase == "place" and SPACES[state.target] == 9
    state.apply("decline")
    assert state.tasks == [("set-aside", 1)] and state.phase == "set-aside" and state.target == -1


def test_claim_order_is_highest_marker_first_in_the_state_and_in_every_view():
    # Rulebook KOD-7: spaces 30 (P2), 20 (P3), 18 (P2), 12 (P3), 10 (P1), 5 (P2), 3 (P3).
    state = new_game("kingdom-of-dice", 3, seed=2)
    for space, owner in ((3, 2), (5, 1), (10, 0), (12, 2), (18, 1), (20, 2), (30, 1)):
        occupy(state, space, owner)
    assert [SPACES[i] for i in claim_order(state.board)] == [30, 20, 18, 12, 10, 5, 3]
    assert observed_claims(state.observation(None)["board"]) == [1, 2, 1, 2, 0, 1, 2]


def test_the_cat_claims_in_order_and_observations_name_it():
    state = new_game("kingdom-of-dice", 1, seed=3, options={"cat_level": 1})   # Cat on 5, 10, 15
    occupy(state, 12, 0)
    assert [SPACES[i] for i in claim_order(state.board)] == [15, 12, 10, 5]
    assert observed_claims(state.observation(0)["board"]) == ["cat", 0, "cat", "cat"]


@pytest.mark.parametrize("taken, value, expected", [
    ((), 10, 10), ((10,), 10, 9), ((10, 9), 10, 8), (tuple(range(1, 11)), 10, None),
    ((), 40, 32), ((32,), 40, 31), ((), 1, 1), ((1,), 1, None),
])
def test_free_space_at_or_below_on_the_board_and_on_an_observation(taken, value, expected):
    # Rulebook step 3: the space showing the value, else the next lower free space; none: invalid.
    state = new_game("kingdom-of-dice", 2, seed=1)
    for space in taken:
        occupy(state, space, 1)
    i = free_space_at_or_below(state.board, value)
    assert (SPACES[i] if i >= 0 else None) == expected
    j = free_space_at_or_below(observed_board(state.observation(0)["board"]), value, empty=None)
    assert j == i


def test_face_counts_are_indexed_crown_then_one_to_five():
    assert face_counts([C, 2, 2, 5, C]) == [2, 0, 2, 0, 0, 1]
    assert face_counts([]) == [0] * 6


def test_evaluate_counts_the_card_each_marker_would_claim():
    # Two markers: P1 on 30 claims the best card, P2 on 3 the second best; the seat to move (P1)
    # has nothing set aside yet, so only the cards on offer decide who leads.
    state = new_game("kingdom-of-dice", 2, seed=4)
    state.apply("keep:" + str(state.observation(0)["roll"][0]))  # mid-turn: outlook may add a marker
    occupy(state, 30, 0)
    occupy(state, 3, 1)
    assert evaluate(state, 0) > 0.5 > evaluate(state, 1)


def test_a_saved_place_task_is_restored_and_a_bad_one_refused():
    state = new_game("kingdom-of-dice", 2, seed=1, dice=[1, 2, 2, C, C, 4])
    for face in (1, 2, 2, C, C):
        state.apply(f"keep:{face}")
    state.apply("stop")
    saved = json.loads(json.dumps(state.to_dict()))
    copy = load_state(saved, verify=False)
    assert copy.tasks == [("place", 0, SPACES.index(10))]
    copy.apply("place")
    state.apply("place")
    assert copy.observation(0) == state.observation(0)
    for bad in ([["shuffle-the-board", 0]], [[]]):
        broken = json.loads(json.dumps(saved))
        broken["state"]["tasks"] = bad
        with pytest.raises(SaveFormatError):
            load_state(broken, verify=False)
    broken = json.loads(json.dumps(saved))
    broken["state"]["board"] = broken["state"]["board"][:-1]
    with pytest.raises(SaveFormatError):
        load_state(broken, verify=False)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**63), players=st.integers(1, 4))
def test_the_quiet_step_plays_exactly_like_apply(seed, players):
    loud = new_game("kingdom-of-dice", players, seed=seed)
    quiet = loud.clone()
    rng = Rng(seed)
    while not loud.is_over:
        seat = loud.to_move[0]
        acts = loud.legal_actions(seat)
        action = acts[rng.randbelow(len(acts))]
        loud.apply(action, seat)
        quiet.step(quiet.legal_actions(seat)[[a.id for a in acts].index(action.id)], seat)
        assert quiet.observation(seat) == loud.observation(seat)
    assert quiet.is_over and quiet.scores == loud.scores and quiet.winners == loud.winners
    assert {k: v for k, v in quiet.to_dict().items() if k != "log"} == \
        {k: v for k, v in loud.to_dict().items() if k != "log"}
