"""A seeded Gymnasium episode replays exactly against search opponents, however busy the machine.

The search levels cap a decision by the wall clock (docs/bots.md "Time"); the environments build
their opponents without those caps, so the iteration budget alone decides what they play. The
clock is faked here: frozen (no cap can ever cut a search) and slow (ten seconds pass at every
reading, so every cap would cut at once, and a turn's budget is spent after its first decision).
"""

from __future__ import annotations

import numpy as np
import pytest

import dicetable.rl as rl
from dicetable.bots import make_bot
from dicetable.bots.mcts import MCTSBot

from tests.clocks import frozen_clock, jumping_clock


def _episode(game_id: str, opponents: str, seed: int) -> tuple[list, list]:
    env = rl.gym_env(game_id, players=2, opponents=opponents)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, done, _, _ = env.step(action)
    assert env.state is not None
    return list(env.state.history), list(env.state.scores)


@pytest.mark.parametrize("game_id", ["biblios-dice", "kingdom-of-dice"])  # a tree search, a turn planner
def test_a_seeded_episode_against_easy_is_the_same_on_a_slow_clock(game_id: str, monkeypatch) -> None:
    # before: the caps cut Biblios' easy tree after one iteration, and a turn's budget, spent at
    # its first decision, handed the rest of every turn to greedy: another game
    frozen_clock(monkeypatch)
    unhurried = _episode(game_id, "easy", 9)
    jumping_clock(monkeypatch)
    hurried = _episode(game_id, "easy", 9)
    assert hurried == unhurried
    assert len(unhurried[0]) > 20


def test_make_bot_without_the_clock_drops_only_the_caps(monkeypatch) -> None:
    """``clock=False`` leaves the level's settings but for ``time_ms`` and ``turn_ms``: the search
    runs its iterations (easy: 25 a decision, or fewer where ``stop_early`` settles it)."""
    import dicetable

    jumping_clock(monkeypatch)
    timed, untimed = make_bot("medium", 3), make_bot("medium", 3, clock=False)
    assert isinstance(timed, MCTSBot) and isinstance(untimed, MCTSBot)
    assert timed.clock and not untimed.clock
    state = dicetable.new_game("biblios-dice", 2, seed=4)
    seat = min(state.to_move)
    untimed.choose(state, seat)
    timed.choose(state, seat)
    assert untimed.last is not None and timed.last is not None
    assert untimed.last.how == "search" and 1 <= untimed.last.iterations <= 80
    # on the slow clock the timed bot's decision cap cuts its search after the first iteration
    assert timed.last.how == "search" and timed.last.iterations == 1 < untimed.last.iterations
    assert make_bot("random", 1, clock=False).name == "random"
