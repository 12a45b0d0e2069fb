"""OpenSpiel: every game registers, passes pyspiel's random simulation test and round-trips."""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from dicetable.engine import registry  # noqa: E402
from dicetable.rl import register_openspiel  # noqa: E402
from dicetable.rl.openspiel import short_name  # noqa: E402

register_openspiel()
CONFIGS = [(spec.id, p) for spec in registry.games() for p in sorted({spec.min_players, spec.max_players})]


#: pyspiel's simulation test checks every step (clones, tensors, strings): from the start, a
#: random Kingdom of Dice game runs to a thousand actions, so most runs start late in a game.
TAIL = 50


def _late_position(game_id: str, players: int, seed: int):
    """A position ``TAIL`` actions before the end of a random game (the whole game if shorter)."""
    import dicetable
    from dicetable.bots import make_bot

    state = dicetable.new_game(game_id, players, seed=seed)
    bot = make_bot("random", seed)
    actions = []
    while not state.is_over:
        seat = state.to_move[0]
        action = bot.choose(state, seat)
        actions.append((seat, action.id))
        state.apply(action, seat)
    replay = dicetable.new_game(game_id, players, seed=seed)
    for seat, aid in actions[:max(0, len(actions) - TAIL)]:
        replay.apply(aid, seat)
    return replay


@pytest.mark.parametrize("game_id,players", CONFIGS)
def test_random_simulation(game_id, players):
    game = pyspiel.load_game(short_name(game_id), {"players": players, "seed": 3})
    assert game.num_players() == players
    start = game.from_engine_state(_late_position(game_id, players, 17))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False, specific_initial_state=start)


def test_random_simulation_from_the_start():
    game = pyspiel.load_game(short_name("valeria-card-kingdoms"), {"players": 1, "seed": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", [spec.id for spec in registry.games()])
def test_serialize_round_trip_and_tensors(game_id):
    game = pyspiel.load_game(short_name(game_id), {"seed": 8})
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(60):
        if state.is_terminal():
            break
        player = state.current_player()
        assert len(state.observation_tensor(player)) == len(state.information_state_tensor(player))
        state.apply_action(int(rng.choice(state.legal_actions(player))))
    copy = game.deserialize_state(state.serialize())
    assert copy.serialize() == state.serialize()
    assert copy.legal_actions() == state.legal_actions()
    # The same actions from here lead both copies to the same future (the seed travels along).
    for _ in range(40):
        if state.is_terminal():
            break
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        copy.apply_action(action)
    assert json.loads(copy.serialize())["state"] == json.loads(state.serialize())["state"]


def test_options_parameter_reaches_the_game():
    game = pyspiel.load_game(short_name("dice-kingdoms-of-valeria"),
                             {"players": 2, "options": json.dumps({"sheets": "winter"})})
    assert json.loads(str(game.new_initial_state()))["sheets"] == "winter"
