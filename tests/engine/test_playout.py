"""The engine's random play (``engine.playout``): the same games as a loop written out by hand, with
and without events, and in parts of ``limit`` decisions."""

from __future__ import annotations

import pytest

import dicetable
from dicetable.engine import Rng
from dicetable.engine.playout import play_random
from dicetable.engine.testing import random_step

TITLES = ["biblios-dice", "corsairs-of-valeria", "dice-kingdoms-of-valeria", "kingdom-of-dice",
          "valeria-card-kingdoms"]


def _by_hand(state, rng: Rng) -> int:
    """Uniform random play one decision at a time (``engine.testing.random_step``: a seat among those
    to move, then its action, each by ``randbelow``): the decisions made."""
    n = 0
    while not state.is_over:
        random_step(state, rng)
        n += 1
    return n


@pytest.mark.parametrize("game_id", TITLES)
@pytest.mark.parametrize("players", [1, 2, 3])
def test_play_random_plays_the_game_a_loop_by_hand_plays(game_id: str, players: int) -> None:
    spec = dicetable.get_game(game_id)
    if not spec.min_players <= players <= spec.max_players:
        pytest.skip(f"{game_id} has no {players}-player game")
    for seed in (1, 2):
        mine, hand = dicetable.new_game(game_id, players, seed=seed), dicetable.new_game(game_id, players, seed=seed)
        steps = play_random(mine, Rng(seed))
        assert steps == _by_hand(hand, Rng(seed)) == len(mine.history) > 0
        assert mine.is_over and mine.history == hand.history
        assert mine.event_log() == hand.event_log() and mine.scores == hand.scores
        quiet = dicetable.new_game(game_id, players, seed=seed)
        assert play_random(quiet, Rng(seed), quiet=True) == steps  # the quiet step: the same game
        assert quiet.history == mine.history and quiet.scores == mine.scores


def test_a_limit_stops_the_play_and_the_rest_plays_the_same_game() -> None:
    whole = dicetable.new_game("corsairs-of-valeria", 2, seed=3)
    parts = dicetable.new_game("corsairs-of-valeria", 2, seed=3)
    total = play_random(whole, Rng(3))
    rng, made = Rng(3), []
    while not parts.is_over:
        made.append(play_random(parts, rng, limit=7))
        assert len(parts.history) == sum(made)
    assert made[:-1] == [7] * (len(made) - 1) and 1 <= made[-1] <= 7 and sum(made) == total
    assert parts.history == whole.history
    assert play_random(parts, rng) == 0 and play_random(parts, rng, limit=0) == 0  # over: no decision
