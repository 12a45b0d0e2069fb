"""OpenSpiel: every game registers, passes pyspiel's random simulation test and round-trips."""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from dicetable.rl.spaces import research_games  # noqa: E402
from dicetable.rl import register_openspiel  # noqa: E402
from dicetable.rl.openspiel import short_name  # noqa: E402

register_openspiel()
CONFIGS = [(spec.id, p) for spec in research_games() for p in sorted({spec.min_players, spec.max_players})]


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


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games()])
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


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games()])
def test_answers_kept_per_position_follow_every_action_and_copy(game_id):
    """current_player, is_terminal and the legal actions are worked out once per position: after
    each action (on the state or on a clone) they are the engine's answers for the new position."""
    game = pyspiel.load_game(short_name(game_id), {"seed": 4})
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(80):
        engine = state.state
        if engine.is_over:
            assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
            break
        seat = min(engine.to_move)
        assert state.current_player() == seat and not state.is_terminal()
        legal = state.legal_actions()
        assert legal == sorted(game.spaces.index[a.id] for a in engine.legal_actions(seat))
        copy = state.clone()
        copy.apply_action(legal[-1])  # the copy moves on; the original still answers for its own position
        assert state.current_player() == seat and state.legal_actions() == legal
        assert copy.state.history[:-1] == engine.history
        assert copy.state.history[-1][1] == game.spaces.catalogue[legal[-1]]
        action = int(rng.choice(legal))
        state.apply_action(action)
        assert state.state.history[-1] == (seat, game.spaces.catalogue[action])
    if not state.is_terminal():
        from dicetable.engine import IllegalActionError

        before, legal = state.serialize(), state.legal_actions()
        unoffered = next(k for k in range(game.num_distinct_actions()) if k not in legal)
        with pytest.raises(IllegalActionError, match="is not a legal action"):
            state.apply_action(unoffered)
        with pytest.raises(ValueError, match="is not an index of this game's actions"):
            state.apply_action(game.num_distinct_actions() + 5)
        assert state.serialize() == before and state.legal_actions() == legal


@pytest.mark.parametrize("game_id,players", CONFIGS)
def test_python_answers_equal_pyspiels_own(game_id, players):
    """legal_actions, rewards and is_chance_node answered in Python give what pyspiel's C++ path
    gives, for every player, along a random game to its end."""
    game = pyspiel.load_game(short_name(game_id), {"players": players, "seed": 2})
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    for _ in range(400):
        for p in [*range(players), None]:
            ours = state.legal_actions() if p is None else state.legal_actions(p)
            theirs = pyspiel.State.legal_actions(state) if p is None else pyspiel.State.legal_actions(state, p)
            assert ours == theirs
        assert state.rewards() == pyspiel.State.rewards(state)
        assert state.is_chance_node() is pyspiel.State.is_chance_node(state) is False
        if state.is_terminal():
            assert state.legal_actions() == [] and state.rewards() == state.returns()
            break
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_deserialize_refuses_a_save_of_another_configuration_or_no_save():
    # A Dice Kingdoms save loaded into a Biblios game as a Biblios state; a 3-player save into a
    # 2-player game failed later with IndexError; text that is no JSON raised JSONDecodeError.
    kod3 = pyspiel.load_game(short_name("kingdom-of-dice"), {"players": 3})
    saved = kod3.new_initial_state().serialize()
    kod2 = pyspiel.load_game(short_name("kingdom-of-dice"), {"players": 2})
    with pytest.raises(ValueError, match=r"^a 3-player kingdom-of-dice state does not fit 2-player kingdom-of-dice$"):
        kod2.deserialize_state(saved)
    biblios = pyspiel.load_game(short_name("biblios-dice"), {"players": 3})
    with pytest.raises(ValueError, match=r"^a 3-player kingdom-of-dice state does not fit 3-player biblios-dice$"):
        biblios.deserialize_state(saved)
    for text in ("", "garbage", '{"game": "kingdom-of-dice"'):
        with pytest.raises(ValueError, match=r"^not a serialized dicetable state \(the engine's save as JSON\): "):
            kod3.deserialize_state(text)
    assert kod3.deserialize_state(saved).serialize() == saved


def test_deserialize_refuses_a_save_with_other_options():
    winter = pyspiel.load_game(short_name("dice-kingdoms-of-valeria"), {"options": '{"sheets": "winter"}'})
    plain = pyspiel.load_game(short_name("dice-kingdoms-of-valeria"))
    with pytest.raises(ValueError, match=r"options .*sheets.*winter.* do not fit"):
        plain.deserialize_state(winter.new_initial_state().serialize())


@pytest.mark.parametrize("params,message", [
    ({"options": "{bad"}, r"^options must be a JSON object as text, e.g. '\{\"sheets\": \"winter\"\}', got '\{bad'$"),
    ({"options": "[1]"}, r"^options must be a dict of NAME: VALUE, got \[1\]"),
    ({"seed": -1}, r"^seed must be an integer 0\.\.2\*\*64-1 .*got -1"),
])
def test_bad_parameters_are_named_when_the_game_is_loaded(params, message):
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game(short_name("dice-kingdoms-of-valeria"), params)


def test_an_action_after_the_end_says_the_game_is_over():
    # It raised SeatError "there is no seat -4" (pyspiel's TERMINAL player id taken as a seat).
    game = pyspiel.load_game(short_name("kingdom-of-dice"), {"players": 2})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    saved = state.serialize()
    with pytest.raises(ValueError, match=r"^the game is over: no player may act$"):
        state.apply_action(0)
    assert state.serialize() == saved and state.is_terminal()


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games()])
def test_quiet_and_logged_games_are_the_same_game(game_id):
    """By default a state moves by the engine's quiet step (no event logged); ``events=True`` by
    ``apply``. The same seed and actions give the same positions, tensors and saves either way."""
    quiet_game = pyspiel.load_game(short_name(game_id), {"seed": 6})
    loud_game = pyspiel.load_game(short_name(game_id), {"seed": 6, "events": True})
    quiet, loud = quiet_game.new_initial_state(), loud_game.new_initial_state()
    set_up = len(quiet.state.log)
    rng = np.random.default_rng(4)
    moves = 0
    while not quiet.is_terminal() and moves < 300:
        player = quiet.current_player()
        assert player == loud.current_player()
        assert quiet.information_state_tensor(player) == loud.information_state_tensor(player)
        legal = quiet.legal_actions()
        assert legal == loud.legal_actions()
        action = int(rng.choice(legal))
        quiet.apply_action(action)
        loud.apply_action(action)
        moves += 1
    assert quiet.state.to_dict(log=False) == loud.state.to_dict(log=False)
    assert quiet.serialize() == loud.serialize()
    assert quiet.returns() == loud.returns()
    assert len(quiet.state.log) == set_up < len(loud.state.log)


def test_an_action_without_legal_actions_asked_first_is_carried_out():
    """apply_action on a fresh copy (its legal actions never asked) moves as after asking them."""
    game = pyspiel.load_game(short_name("corsairs-of-valeria"), {"seed": 2})
    state = game.new_initial_state()
    asked = state.clone()
    action = asked.legal_actions()[-1]
    asked.apply_action(action)
    state.apply_action(action)  # nothing asked on this one
    assert state.serialize() == asked.serialize()
    assert state.state.history[-1] == asked.state.history[-1]


@pytest.mark.parametrize("game_id,players", CONFIGS)
def test_game_type_and_player_count_answered_in_python_equal_pyspiels(game_id, players):
    game = pyspiel.load_game(short_name(game_id), {"players": players})
    ours, theirs = game.get_type(), pyspiel.Game.get_type(game)
    for field in ("short_name", "long_name", "dynamics", "chance_mode", "information", "utility",
                  "reward_model", "max_num_players", "min_num_players", "provides_information_state_tensor",
                  "provides_observation_tensor", "parameter_specification"):
        assert getattr(ours, field) == getattr(theirs, field), field
    assert game.num_players() == pyspiel.Game.num_players(game) == players
