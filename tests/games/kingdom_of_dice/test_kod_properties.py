"""Kingdom of Dice properties: the kernel's conformance check and game invariants."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings, strategies as st

from dicetable import new_game
from dicetable.engine import Rng
from dicetable.engine.testing import random_playout, random_step
from dicetable.games.kingdom_of_dice.components import CAT_LEVELS, SPACES
from dicetable.games.kingdom_of_dice.rules import CAT, EMPTY, MARKERS


# One test per player count (12 games in all, as before), so the games spread over the workers.
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**63))
def test_every_card_is_handed_out_or_removed(seed, players):
    state = random_playout(new_game("kingdom-of-dice", players, seed=seed), Rng(seed)).state
    # 18 regular cards + 3 specials; every card handed out or removed.
    assert sum(len(w) for w in state.won) <= 21


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**63), level=st.sampled_from(sorted(CAT_LEVELS)))
def test_the_cat_takes_nine_cards_at_every_level(seed, level):
    state = random_playout(new_game("kingdom-of-dice", 1, seed=seed, options={"cat_level": level}), Rng(seed)).state
    assert len(state.cat_won) == 9           # three markers, three rounds, never removed


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63), players=st.integers(1, 4))
def test_invariants_hold_throughout_random_play(seed, players):
    state = new_game("kingdom-of-dice", players, seed=seed)
    rng = Rng(seed)
    cat_spaces = set(CAT_LEVELS[1]) if players == 1 else set()
    while not state.is_over:
        on_board = [o for o in state.board if o != EMPTY]
        assert len(on_board) < 7, "a round with seven markers must have ended"
        for seat in range(players):
            assert state.board.count(seat) == state.placed[seat] <= MARKERS - 1
        assert {SPACES[i] for i, o in enumerate(state.board) if o == CAT} == cat_spaces
        assert sum(state.rolled) + sum(state.kept) == 6
        assert len(state.market) == 7
        random_step(state, rng)
    assert len(state.deck) == 0


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**63), players=st.integers(1, 4), steps=st.integers(0, 300))
def test_round_trip_mid_game_continues_identically(seed, players, steps):
    state = new_game("kingdom-of-dice", players, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        random_step(state, rng)
    from dicetable import load_state
    copy = load_state(json.loads(json.dumps(state.to_dict())))
    r1, r2 = Rng(7), Rng(7)
    while not state.is_over:
        random_step(state, r1)
        random_step(copy, r2)
    assert copy.to_dict() == state.to_dict()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**63), junk=st.text(min_size=1, max_size=12), seat=st.integers(-3, 6))
def test_random_illegal_action_raises_and_changes_nothing(seed, junk, seat):
    import pytest
    from dicetable import IllegalActionError
    state = new_game("kingdom-of-dice", 3, seed=seed)
    legal = {a.id for a in state.legal_actions(state.to_move[0])}
    assume(not (junk in legal and seat == state.to_move[0]))
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply(junk, seat)
    assert state.to_dict() == before
