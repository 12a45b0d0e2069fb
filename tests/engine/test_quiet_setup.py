"""new_game(quiet=True): the same game, set up without building its events."""

from __future__ import annotations

import random

import pytest

import dicetable
from dicetable.engine import registry

CONFIGS = [(spec.id, players) for spec in registry.list_games()
           for players in sorted({spec.min_players, spec.max_players})]


@pytest.mark.parametrize("game_id,players", CONFIGS)
def test_a_quiet_set_up_is_the_same_game_with_an_empty_log(game_id: str, players: int) -> None:
    for seed in (1, 2**63 + 5):
        loud = dicetable.new_game(game_id, players, seed=seed)
        quiet = dicetable.new_game(game_id, players, seed=seed, quiet=True)
        assert quiet.to_dict(log=False) == loud.to_dict(log=False)
        assert quiet.log == [] and loud.log and not quiet.quiet
        # and the games go on alike: the same random moves by the quiet step
        rng = random.Random(seed)
        for _ in range(40):
            if loud.is_over:
                break
            seat = min(loud.to_move)
            legal = loud.legal_actions(seat)
            k = rng.randrange(len(legal))
            assert [a.id for a in quiet.legal_actions(seat)] == [a.id for a in legal]
            loud.step(legal[k], seat)
            quiet.step(quiet.legal_actions(seat)[k], seat)
        assert quiet.to_dict(log=False) == loud.to_dict(log=False)


def test_quiet_is_a_keyword_and_the_checks_still_run() -> None:
    with pytest.raises(dicetable.GameConfigError):
        dicetable.new_game("kingdom-of-dice", 99, seed=1, quiet=True)
    with pytest.raises(TypeError):
        dicetable.new_game("kingdom-of-dice", 2, 1, None, None, True)  # type: ignore[misc]
