"""The State protocol's promises, checked for every shipped game in every configuration.

One test over the registry (docs/engine.md, "The conformance check"): every
game found in the ``dicetable.games`` package, every player count, every
option value (``dicetable.engine.testing.configurations``), a fixed seed and
two more drawn by hypothesis. A sixth game is covered by being registered; no
game opts in by hand.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dicetable.engine.testing import check_conformance, configurations, shipped_games

CASES = [(spec.id, name, players, options)
         for spec in shipped_games() for name, players, options in configurations(spec)]


@pytest.mark.parametrize("game, name, players, options", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63))  # check_conformance derives more seeds by adding steps
@example(seed=1)
def test_every_game_keeps_the_state_protocol(game, name, players, options, seed):
    state = check_conformance(game, players, seed, options=options)
    assert state.is_over and len(state.scores) == players
