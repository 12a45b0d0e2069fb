"""Per-operation costs of every game's hot paths, for pytest-benchmark.

The suite runs these once each as ordinary tests (``--benchmark-disable`` in
pyproject.toml), checking that each operation does what the State protocol
says. To measure them::

    .venv/bin/python -m pytest tests/bench --benchmark-enable

which reports the cost of one ``clone``, one cold ``legal_actions`` and one
``apply`` on a mid-game state of each game (2 players). No timing is asserted:
targets live in benchmarks, not in tests (``dicetable bench`` gives the same
figures over many states).
"""

from __future__ import annotations

import pytest

import dicetable
from dicetable.engine import Rng, new_game

GAMES = [spec.id for spec in dicetable.list_games()]


def mid_game(game_id: str):
    """A seeded 2-player state about 60 random actions into the game (never over)."""
    state = new_game(game_id, 2, seed=7)
    rng = Rng(7)
    for _ in range(60):
        seat = state.to_move[0]
        acts = state.legal_actions(seat)
        nxt = state.clone()
        nxt.apply(acts[rng.randbelow(len(acts))], seat)
        if nxt.is_over:
            break
        state = nxt
    assert not state.is_over
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_clone_cost(benchmark, game_id):
    state = mid_game(game_id)
    copy = benchmark(state.clone)
    assert copy is not state
    assert copy.to_dict() == state.to_dict()


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_actions_cost(benchmark, game_id):
    state = mid_game(game_id)
    seat = state.to_move[0]
    expected = [a.id for a in state.clone().legal_actions(seat)]

    def fresh():  # a new clone each round, so the action cache is cold
        return (state.clone(), seat), {}

    acts = benchmark.pedantic(lambda s, seat: s.legal_actions(seat), setup=fresh, rounds=300)
    assert [a.id for a in acts] == expected and expected


@pytest.mark.parametrize("game_id", GAMES)
def test_apply_cost(benchmark, game_id):
    state = mid_game(game_id)
    seat = state.to_move[0]
    action = state.legal_actions(seat)[0]
    before = len(state.history)

    def fresh():  # legal actions cached, as in a playout
        s = state.clone()
        s.legal_actions(seat)
        return (s,), {}

    def step(s):
        s.apply(action, seat)
        return s

    after = benchmark.pedantic(step, setup=fresh, rounds=300)
    assert after.history[-1] == (seat, action.id)
    assert len(after.history) == before + 1
    assert len(state.history) == before  # the measured copies never touch the original
