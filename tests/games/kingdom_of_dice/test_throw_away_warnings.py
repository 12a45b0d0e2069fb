"""Kingdom of Dice's warnings before a choice that throws the turn away, against the rules themselves.

Rulebook, "Checking the result": a ``stop`` whose result is not valid or has no free space at or below
its value ends the turn with no Crown marker, and so does setting aside a die after which no roll can
make the result valid. The game's one hook (``extras["throws_turn_away"]``) names such a choice; the
front ends ask first (``GameSpec.confirm_warnings``) only when another legal choice would not.
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from dicetable import new_game
from dicetable.engine import Rng
from dicetable.engine.registry import get_game, spec_of
from dicetable.engine.testing import random_step

SPEC = get_game("kingdom-of-dice")
WARNING = "Stopping now scores nothing: crown is not a valid result"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**63), players=st.integers(1, 4), stop_bias=st.booleans())
def test_a_warned_choice_is_exactly_one_the_rules_end_the_turn_on(seed, players, stop_bias):
    """Throughout random play, for every choice of the seat setting dice aside: the hook warns exactly
    when the rules answer the choice with an "invalid" event (the turn ends, no marker), and
    ``confirm_warnings`` holds those warnings unless every choice has one (then nothing to ask)."""
    state = new_game("kingdom-of-dice", players, seed=seed)
    rng = Rng(seed)
    checked = flagged = 0
    while not state.is_over and checked < 400:
        seat = state.to_move[0]
        actions = state.legal_actions(seat)
        warned = {}
        for action in actions:
            warning = SPEC.throws_turn_away(state, seat, action.id)
            ended = any(e.kind == "invalid" for e in state.clone().apply(action.id, seat))
            assert (warning is not None) == ended, (action.id, warning, state.kept, state.rolled)
            if warning:
                warned[action.id] = warning
            checked += 1
        asked = SPEC.confirm_warnings(state, seat)
        if len(warned) == len(actions):
            assert asked == {}
        else:
            assert asked == warned
            flagged += bool(asked)
        ids = [a.id for a in actions]
        # stopping early now and then reaches more results that are not valid
        pick = "stop" if stop_bias and "stop" in ids and rng.randbelow(3) == 0 else None
        if pick:
            state.apply(pick, seat)
        else:
            random_step(state, rng)
    assert checked > 0


def test_the_rulebook_case_a_crown_alone_and_a_forced_last_die():
    """Seed 3, two players: Player 1 sets the crown aside from a crown, two 1s and three 5s; stopping
    then scores nothing (a crown alone is not valid) while a 1, a 5 or a new roll can still make a
    valid result, so only ``stop`` is asked about. With a 1 beside it, nothing is asked."""
    state = new_game("kingdom-of-dice", 2, seed=3)
    state.apply("keep:crown", 0)
    asked = SPEC.confirm_warnings(state, 0)
    assert list(asked) == ["stop"] and asked["stop"].startswith(WARNING)
    state.apply("keep:1", 0)
    assert SPEC.confirm_warnings(state, 0) == {}
    assert SPEC.confirm_warnings(state, 1) == {}  # not that seat's turn


def test_a_game_without_the_hook_asks_nothing():
    state = new_game("biblios-dice", 2, seed=1)
    seat = state.to_move[0]
    spec = spec_of(state)
    assert spec.confirm_warnings(state, seat) == {}
    assert all(spec.throws_turn_away(state, seat, a.id) is None for a in state.legal_actions(seat))
