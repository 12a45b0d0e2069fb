"""PettingZoo and Gymnasium environments: the libraries' own API checks, seeds, rewards."""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import dicetable.rl as rl
from dicetable.rl.spaces import placing_rewards, research_games

CONFIGS = [(spec.id, p) for spec in research_games() for p in range(spec.min_players, spec.max_players + 1)]


@pytest.mark.parametrize("game_id,players", CONFIGS)
def test_pettingzoo_api(game_id, players):
    api_test(rl.env(game_id, players), num_cycles=150, verbose_progress=False)


@pytest.mark.parametrize("game_id,players", CONFIGS)
def test_pettingzoo_parallel_api(game_id, players):
    parallel_api_test(rl.parallel_env(game_id, players), num_cycles=100)


def test_parallel_env_asks_simultaneous_seats_together():
    env = rl.parallel_env("biblios-dice", 3)
    obs, infos = env.reset(seed=2)
    seen_together = False
    for _ in range(400):
        movers = [a for a in env.agents if infos[a]["to_move"]]
        seen_together |= len(movers) > 1
        actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[-1]) if infos[a]["to_move"] else None
                   for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        if not env.agents:
            break
    assert seen_together, "the secret auction should ask every bidder in one step"


@pytest.mark.parametrize("env_id", sorted(i for i in gymnasium.registry if i.startswith("dicetable/")))
def test_registered_gymnasium_env_passes_the_checker(env_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gymnasium.make(env_id).unwrapped, skip_render_check=True)


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games() if spec.min_players == 1])
def test_solo_mode_is_a_single_agent_env(game_id):
    env = rl.gym_env(game_id, players=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=4)
    assert np.array_equal(obs["action_mask"], info["action_mask"]) and obs["action_mask"].sum() >= 1


def _masked_playout(env, seed: int, steps: int) -> list:
    """Rewards and observations of a masked random playout (first legal index when rng says so)."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace = [obs["observation"].tobytes()]
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, done, _, info = env.step(int(rng.choice(legal)))
        trace.append((obs["observation"].tobytes(), reward))
        if done:
            break
    return trace


def test_seeded_gym_resets_reproduce():
    a = _masked_playout(rl.gym_env("corsairs-of-valeria", players=3, opponents="random"), 9, 200)
    b = _masked_playout(rl.gym_env("corsairs-of-valeria", players=3, opponents="random"), 9, 200)
    c = _masked_playout(rl.gym_env("corsairs-of-valeria", players=3, opponents="random"), 10, 200)
    assert a == b and a != c


def test_seeded_aec_resets_reproduce():
    def trace(seed):
        env = rl.env("biblios-dice", 3)
        env.reset(seed=seed)
        out = []
        for agent in env.agent_iter(max_iter=300):
            obs, reward, term, trunc, _ = env.last()
            out.append((agent, obs["observation"].tobytes(), reward))
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        return out
    assert trace(5) == trace(5) and trace(5) != trace(6)


def test_illegal_action_changes_nothing():
    env = rl.gym_env("kingdom-of-dice", players=2, opponents="random")
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.to_dict()
    obs2, reward, done, _, info2 = env.step(illegal)
    assert reward == -1.0 and not done and "not a legal action" in info2["illegal_action"]
    assert env.state.to_dict() == before and np.array_equal(obs["observation"], obs2["observation"])
    strict = rl.gym_env("kingdom-of-dice", players=2, on_illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError):
        strict.step(illegal)


def test_vector_env_smoke():
    envs = gymnasium.vector.SyncVectorEnv([lambda: rl.gym_env("kingdom-of-dice", players=1)] * 2)
    obs, info = envs.reset(seed=3)
    assert obs["observation"].shape == (2, envs.single_observation_space["observation"].shape[0])
    rng = np.random.default_rng(0)
    for _ in range(50):
        # A finished game's mask is empty: the vector env resets it on the next step, ignoring the action.
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
        obs, rewards, term, trunc, info = envs.step(actions)
        assert rewards.shape == (2,)
    envs.close()


def test_ansi_render_is_the_terminal_view():
    env = rl.env("kingdom-of-dice", 2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "Player 1" in text


def test_placing_rewards_follow_the_final_order():
    def done(scores, winners):
        return SimpleNamespace(players=len(scores), is_over=True, scores=scores, winners=winners)
    assert placing_rewards(done([10, 30, 20], (1,))) == [-1.0, 1.0, 0.0]
    # A tie broken by the rules: the winner is first even on equal points; the others share.
    assert placing_rewards(done([30, 30, 5, 5], (1,))) == pytest.approx([1 / 3, 1.0, -2 / 3, -2 / 3])
    # Two winners share first place.
    assert placing_rewards(done([7, 7], (0, 1))) == [0.0, 0.0]
    assert placing_rewards(done([42], ())) == [42.0]
    running = SimpleNamespace(players=3, is_over=False, scores=[1, 2, 3], winners=())
    assert placing_rewards(running) == [0.0, 0.0, 0.0]


def test_every_environment_asks_for_reset_before_a_game():
    """Before the first reset() there is no game: each environment says so instead of failing on None."""
    from gymnasium.error import ResetNeeded

    gym = rl.gym_env("kingdom-of-dice", 2)
    with pytest.raises(ResetNeeded, match="call reset"):
        gym.step(0)
    aec = rl.env("kingdom-of-dice", 2)
    with pytest.raises(ResetNeeded, match="call reset"):
        aec.observe("player_0")
    par = rl.parallel_env("kingdom-of-dice", 2)
    with pytest.raises(ResetNeeded, match="call reset"):
        par.step({"player_0": 0})


def test_aec_step_without_an_action_names_the_agent():
    aec = rl.env("kingdom-of-dice", 2)
    aec.reset(seed=1)
    agent = aec.agent_selection
    with pytest.raises(ValueError, match=f"{agent} is to move and gave no action"):
        aec.step(None)


@pytest.mark.parametrize("game_id", ["kingdom-of-dice", "valeria-card-kingdoms"])
def test_aec_refuses_an_unoffered_action_and_takes_numpy_indices(game_id: str) -> None:
    """An index outside the mask raises, naming the legal actions, and changes nothing; an offered
    index as a numpy integer plays the same move as the int."""
    env = rl.env(game_id, 2)
    env.reset(seed=9)
    obs, *_ = env.last()
    agent = env.agent_selection
    before = env.state_.history
    unoffered = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not a legal action .* legal actions: "):
        env.step(unoffered)
    assert env.state_.history == before and env.agent_selection == agent
    offered = np.flatnonzero(obs["action_mask"])[0]  # a numpy int64
    env.step(offered)
    assert env.state_.history == [(int(agent[-1]), env.spaces.catalogue[int(offered)])]


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games()])
def test_aec_observation_is_the_dictionary_encoding_and_the_mask_the_legal_actions(game_id: str) -> None:
    """Every agent's observation, at every step of a random game, is the game's encoding of
    ``observation(seat)`` (as float32) and its mask marks exactly that seat's legal actions."""
    env = rl.env(game_id, 2)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(120):
        if not env.agents:
            break
        state = env.state_
        for agent in env.possible_agents:
            seat = int(agent[-1])
            obs = env.observe(agent)
            want = np.asarray(env.spaces.encoding.encode(state.observation(seat)), dtype=np.float32)
            assert obs["observation"].dtype == np.float32 and np.array_equal(obs["observation"], want)
            legal = {env.spaces.index[a.id] for a in state.legal_actions(seat)}
            assert set(np.flatnonzero(obs["action_mask"])) == legal
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_aec_masks_are_the_callers_own_arrays() -> None:
    """A mask handed out is a new array: a caller that writes over it (here: zeros it, or marks every
    action) changes no later mask, though the same offers come again and again in a game."""
    env = rl.env("valeria-card-kingdoms", 2)
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    for i in range(150):
        if not env.agents:
            break
        obs, _, term, trunc, _ = env.last()
        seat = int(env.agent_selection[-1])
        legal = {env.spaces.index[a.id] for a in env.state_.legal_actions(seat)}
        mask = obs["action_mask"]
        assert set(np.flatnonzero(mask)) == legal
        action = None if term or trunc else int(rng.choice(np.flatnonzero(mask)))
        mask[:] = i % 2  # the caller's own array
        env.step(action)


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games()])
def test_aec_quiet_steps_play_the_games_of_apply(game_id: str) -> None:
    """The default environment moves by the quiet step, ``events=True`` by ``apply``: every
    observation, mask, reward and ending of a whole seeded game is the same; only the events'
    environment logs the moves (the quiet one keeps the set-up's events alone)."""
    quiet, loud = rl.env(game_id, 2), rl.env(game_id, 2, events=True)
    quiet.reset(seed=8)
    loud.reset(seed=8)
    set_up = len(quiet.state_.log)
    rng = np.random.default_rng(8)
    steps = 0
    for agent in quiet.agent_iter(max_iter=5000):
        assert loud.agent_selection == agent
        obs, reward, term, trunc, _ = quiet.last()
        obs2, reward2, term2, trunc2, _ = loud.last()
        assert np.array_equal(obs["observation"], obs2["observation"])
        assert np.array_equal(obs["action_mask"], obs2["action_mask"])
        assert (reward, term, trunc) == (reward2, term2, trunc2)
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        quiet.step(action)
        loud.step(action)
        steps += action is not None
    assert not quiet.agents and not loud.agents  # both games ended, together
    assert quiet.state_.history == loud.state_.history and len(quiet.state_.history) == steps
    assert quiet.state_.scores == loud.state_.scores
    assert len(quiet.state_.log) == set_up < len(loud.state_.log)


def _aec_to_the_end(env, seed: int = 4):
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == [] and env.state_.is_over


def test_aec_steps_after_the_end_ask_for_a_reset():
    # They raised KeyError: 'player_0' (the finished agents are removed).
    from gymnasium.error import ResetNeeded

    env = rl.env("kingdom-of-dice", 2)
    _aec_to_the_end(env)
    history = list(env.state_.history)
    with pytest.raises(ResetNeeded, match=r"^the game is over: call reset\(\) to start the next one$"):
        env.step(0)
    with pytest.raises(ResetNeeded, match="the game is over"):
        env.step(None)
    with pytest.raises(ResetNeeded, match="the game is over"):
        env.last()
    assert env.state_.history == history
    env.reset(seed=5)
    assert env.agents == ["player_0", "player_1"] and env.last()[0]["action_mask"].any()


def test_aec_observe_names_an_unknown_agent():
    env = rl.env("kingdom-of-dice", 2)
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"^'player_9' is not an agent of this game: player_0, player_1$"):
        env.observe("player_9")


def test_gym_step_after_the_end_asks_for_a_reset():
    # It answered terminated=False with the illegal-action penalty, as if the game went on.
    from gymnasium.error import ResetNeeded

    env = rl.gym_env("kingdom-of-dice", 2, opponents="random")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    before = env.state.to_dict()
    with pytest.raises(ResetNeeded, match=r"^the game is over: call reset\(\) to start the next one$"):
        env.step(0)
    assert env.state.to_dict() == before


def _parallel_at_a_simultaneous_decision(seed: int = 1):
    env = rl.parallel_env("biblios-dice", 3)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    while True:
        movers = [a for a in env.agents if obs[a]["action_mask"].any()]
        if len(movers) == 3:
            return env, obs
        obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in movers})


def test_parallel_step_with_one_illegal_action_moves_no_seat():
    # The seats before the illegal one were moved, then the step was refused half done.
    env, obs = _parallel_at_a_simultaneous_decision()
    before = env.state.to_dict()
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
    actions["player_2"] = int(np.flatnonzero(obs["player_2"]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not a legal action for Player 3 now"):
        env.step(actions)
    assert env.state.to_dict() == before and sorted(env.state.to_move) == [0, 1, 2]
    actions["player_2"] = int(np.flatnonzero(obs["player_2"]["action_mask"])[0])
    env.step(actions)
    assert [seat for seat, _ in env.state.history[-3:]] == [0, 1, 2]


@pytest.mark.parametrize("actions,message", [
    ([0, 1, 2], r"^step takes a dict of agent name: action, got list$"),
    ({"player_9": 0}, r"^'player_9' is not an agent of this game: player_0, player_1, player_2$"),
])
def test_parallel_step_names_a_wrong_argument(actions, message):
    env = rl.parallel_env("biblios-dice", 3)
    env.reset(seed=1)
    before = env.state.to_dict()
    with pytest.raises(ValueError, match=message):
        env.step(actions)
    assert env.state.to_dict() == before


SEED_MESSAGE = r"^seed must be an integer 0\.\.2\*\*64-1"


@pytest.mark.parametrize("seed", [-1, "x", 1.5, 2**64, True])
@pytest.mark.parametrize("make", ["aec", "parallel", "batch"])
def test_a_bad_seed_is_named_and_changes_nothing(make, seed):
    # numpy's own words reached the caller: "expected non-negative integer", "'float' object is not
    # iterable"; a batch read the string "x" as a list of one seed.
    if make in ("aec", "parallel"):
        # the AEC environment keeps its game as ``state_``, the Parallel one as ``state``
        env, held = (rl.env("kingdom-of-dice", 2), "state_") if make == "aec" else \
            (rl.parallel_env("kingdom-of-dice", 2), "state")
        env.reset(seed=1)
        before = getattr(env, held).to_dict()
        with pytest.raises(ValueError, match=SEED_MESSAGE):
            env.reset(seed=seed)
        assert getattr(env, held).to_dict() == before
    else:
        batch = rl.batch_env("kingdom-of-dice", 4)
        obs, _, _ = batch.reset(seed=1)
        obs = obs.copy()
        with pytest.raises(ValueError, match=SEED_MESSAGE):
            batch.reset(seed=seed)
        with pytest.raises(ValueError, match=SEED_MESSAGE):
            batch.reset(seed=[1, 2, 3, seed])
        assert np.array_equal(batch.obs, obs)


def test_numpy_seeds_are_taken_as_their_ints():
    a = rl.batch_env("kingdom-of-dice", 3)
    b = rl.batch_env("kingdom-of-dice", 3)
    assert np.array_equal(a.reset(seed=np.int64(7))[0], b.reset(seed=7)[0])
    assert np.array_equal(a.reset(seed=np.array([1, 2, 3]))[0], b.reset(seed=[1, 2, 3])[0])
    env = rl.env("kingdom-of-dice", 2)
    env.reset(seed=np.uint32(5))
    first = env.state_.to_dict()
    env.reset(seed=5)
    assert env.state_.to_dict() == first


def test_gym_env_takes_one_opponent_level_per_other_seat():
    """opponents is one level for every other seat, or a list of players - 1 levels in seat order."""
    from dicetable.bots import GreedyBot, RandomBot

    env = rl.gym_env("corsairs-of-valeria", players=3, opponents=["greedy", "random"])
    obs, info = env.reset(seed=3)
    assert isinstance(env.bots[1], GreedyBot) and isinstance(env.bots[2], RandomBot) and 0 not in env.bots
    middle = rl.gym_env("corsairs-of-valeria", players=3, opponents=("random", "greedy"), seat=1)
    middle.reset(seed=3)
    assert isinstance(middle.bots[0], RandomBot) and isinstance(middle.bots[2], GreedyBot)
    done, rng = False, np.random.default_rng(0)
    for _ in range(2000):
        obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if done:
            break
    assert done and env.state.is_over
    solo = rl.gym_env("kingdom-of-dice", players=1, opponents=[])  # no other seat: no level
    solo.reset(seed=1)
    assert solo.bots == {}


@pytest.mark.parametrize("opponents,words", [
    (["greedy"], "a list of 2 levels, one per other seat in seat order (seats 1, 2); got 1 levels"),
    (["greedy", "random", "easy"], "got 3 levels"),
    ({"greedy"}, "opponents is a bot level for every other seat (e.g. 'greedy') or a list of 2 levels"),
    (None, "got None"),
    (["greedy", "nosuch"], "unknown bot 'nosuch'; bots: random, greedy"),
    (["greedy", ["random"]], "a bot is named by one string, got ['random']"),
])
def test_gym_env_refuses_opponents_it_cannot_seat(opponents, words):
    with pytest.raises(ValueError) as info:
        rl.gym_env("corsairs-of-valeria", players=3, opponents=opponents)
    assert words in str(info.value)
