"""The State protocol's promises, checked for every shipped game in every configuration.

One test over the registry (docs/engine.md, "Conformance"): every game found
in the ``dicetable.games`` package, every player count, every option value
(``dicetable.engine.testing.configurations``). A sixth game is covered by
being registered; no game opts in by hand.
"""

from __future__ import annotations

import pytest

from dicetable.engine.testing import check_conformance, configurations, shipped_games

CASES = [(spec.id, name, players, options)
         for spec in shipped_games() for name, players, options in configurations(spec)]


@pytest.mark.parametrize("game, name, players, options", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_every_game_keeps_the_state_protocol(game, name, players, options):
    seed = sum(map(ord, name)) * 7919 + players
    state = check_conformance(game, players, seed, options=options)
    assert state.is_over and len(state.scores) == players
