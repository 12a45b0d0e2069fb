"""dicetable.bench's random games by apply and by the quiet step: the same games, counted alike."""

from __future__ import annotations

import pytest

from dicetable.bench import time_random_games
from dicetable.engine.testing import shipped_games

TITLES = [spec.id for spec in shipped_games()]


@pytest.mark.parametrize("game_id", TITLES)
def test_the_quiet_random_games_are_the_apply_games(game_id: str) -> None:
    # the same seeded choices give the same games, so the same number of actions either way
    by_apply, apply_s = time_random_games(game_id, 2, 3, seed=5)
    by_step, step_s = time_random_games(game_id, 2, 3, seed=5, quiet=True)
    assert by_apply == by_step > 0
    assert apply_s > 0 and step_s > 0
