"""Property tests: the kernel's conformance check and the sheet invariant after every action."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicetable.engine import Rng
from dicetable.engine.testing import check_conformance, random_step
from dicetable.games.dice_kingdoms_of_valeria.rules import marked_pips

from dkov_helpers import GAME, grew, invariant, new

CONFIGS = [(p, sheets) for p in range(1, 6) for sheets in ("summer", "winter")]


@pytest.mark.parametrize("players,sheets", CONFIGS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_conformance(players, sheets, seed):
    final = check_conformance(GAME, players, seed, {"sheets": sheets}, density=4)
    assert final.is_over and len(final.scores) == players


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_conformance_solo_track_trigger(seed):
    final = check_conformance(GAME, 1, seed, {"sheets": "summer", "solo_track_trigger": True}, density=4)
    assert final.is_over


@pytest.mark.parametrize("players,sheets", CONFIGS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_no_skipped_pip_and_nothing_beyond_a_section_after_every_action(players, sheets, seed):
    state = new(players, sheets, seed=seed)
    rng = Rng(seed)
    before = [marked_pips(state.lay, sh) for sh in state.sheets]
    steps = 0
    invariant(state)
    while not state.is_over:
        random_step(state, rng)
        invariant(state)
        after = [marked_pips(state.lay, sh) for sh in state.sheets]
        for b, a in zip(before, after):
            grew(b, a)
        before = after
        steps += 1
    assert steps > 0
    if players == 1:
        assert state.trees == 20
