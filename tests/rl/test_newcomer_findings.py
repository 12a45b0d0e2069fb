"""What a new researcher found in the environments (session 26): refused actions name the agent
and change nothing, a call before reset() asks for one, seeds are read alike everywhere, the
batch's refusals name the catalogue, render() without a mode warns, and the vector env gives
Gymnasium's SAME_STEP ``final_obs`` / ``final_info``."""

from __future__ import annotations

import re
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import seed_test

import dicetable.rl as rl
from dicetable.engine import IllegalActionError

SEED_MESSAGE = r"^seed must be an integer 0\.\.2\*\*64-1"


def _aec_at_step(game_id: str, players: int, seed: int, steps: int):
    env = rl.env(game_id, players)
    env.reset(seed=seed)
    for _ in range(steps):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    return env


@pytest.mark.parametrize("game_id,players", [("corsairs-of-valeria", 2), ("biblios-dice", 3)])
def test_aec_refusal_names_the_agent_and_leaves_the_game_as_it_was(game_id: str, players: int) -> None:
    env = _aec_at_step(game_id, players, 4, 7)
    obs, *_ = env.last()
    agent = env.agent_selection
    seat = int(agent.removeprefix("player_"))
    before = env.state_.to_dict()
    unoffered = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    # the engine counts seats from Player 1: the agent's name comes first, its words after
    with pytest.raises(IllegalActionError,
                       match=rf"^{agent}: '[^']+' is not a legal action for Player {seat + 1} now .*legal actions: "):
        env.step(unoffered)
    n = env.action_space(agent).n
    with pytest.raises(ValueError, match=rf"^{agent}: action {n} is not an index of this game's actions: 0\.\.{n - 1}$"):
        env.step(n)
    assert env.state_.to_dict() == before and env.agent_selection == agent
    again, *_ = env.last()
    assert np.array_equal(again["observation"], obs["observation"])
    assert np.array_equal(again["action_mask"], obs["action_mask"])
    # the game goes on as if nothing had been refused
    twin = _aec_at_step(game_id, players, 4, 7)
    for e in (env, twin):
        for _ in range(20):
            o, *_ = e.last()
            e.step(int(np.flatnonzero(o["action_mask"])[0]))
    assert env.state_.to_dict() == twin.state_.to_dict()


def test_parallel_refusal_names_the_agent() -> None:
    env = rl.parallel_env("corsairs-of-valeria", 2)
    obs, infos = env.reset(seed=3)
    mover = next(a for a in env.agents if infos[a]["to_move"])
    seat = int(mover.removeprefix("player_"))
    before = env.state.to_dict()
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"] == 0)[0]) for a in env.agents}
    with pytest.raises(IllegalActionError, match=rf"^{mover}: '[^']+' is not a legal action for Player {seat + 1} now"):
        env.step(actions)
    actions[mover] = 10**6
    with pytest.raises(ValueError, match=rf"^{mover}: action 1000000 is not an index of this game's actions"):
        env.step(actions)
    assert env.state.to_dict() == before


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: rl.env("biblios-dice", 3), num_cycles=20)


def test_aec_last_before_reset_asks_for_a_reset() -> None:
    # before: AttributeError 'DicetableAEC' object has no attribute 'agent_selection'
    with pytest.raises(ResetNeeded, match=r"call reset\(\) before step\(\), observe\(\) or last\(\)"):
        rl.env("kingdom-of-dice", 2).last()


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "x", True])
def test_gym_env_refuses_the_seeds_the_others_refuse_in_their_words(seed) -> None:
    env = rl.gym_env("kingdom-of-dice", 2, opponents="random")
    with pytest.raises(ValueError, match=SEED_MESSAGE):
        env.reset(seed=seed)


def test_gym_env_takes_numpy_integers_and_the_whole_64_bit_range() -> None:
    a, b = rl.gym_env("kingdom-of-dice", 2, opponents="random"), rl.gym_env("kingdom-of-dice", 2, opponents="random")
    a.reset(seed=np.int64(5))
    b.reset(seed=5)
    assert a.state is not None and b.state is not None and a.state.to_dict() == b.state.to_dict()
    a.reset(seed=2**64 - 1)
    b.reset(seed=np.uint64(2**64 - 1))
    assert a.state.to_dict() == b.state.to_dict()


@pytest.mark.parametrize("workers", [1, 2])
def test_batch_refusals_say_what_an_action_is(workers: int) -> None:
    with rl.batch_env("kingdom-of-dice", 4, workers=workers) as batch:
        obs, mask, seat = batch.reset(seed=1)
        obs = obs.copy()
        n = batch.spaces.num_actions
        with pytest.raises(ValueError, match=rf"^game 0: action 999 is not an index of this game's actions: 0\.\.{n - 1}$"):
            batch.step([999] * 4)
        with pytest.raises(TypeError, match=rf"^game 0: action 1\.7 is a float, not a catalogue index: give an int "
                                            rf"\(or a numpy integer\) 0\.\.{n - 1}$"):
            batch.step([1.7] * 4)
        assert np.array_equal(batch.obs, obs)


def test_render_without_a_mode_warns() -> None:
    aec = rl.env("kingdom-of-dice", 2)
    aec.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode='ansi'"):
        assert aec.render() is None
    gym = rl.gym_env("kingdom-of-dice", 2, opponents="random")
    gym.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode='ansi'"):
        assert gym.render() is None


def test_check_env_finds_a_render_fps() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(rl.gym_env("kingdom-of-dice", 2, opponents="random", render_mode="ansi"))
    assert not [w for w in caught if "render fps" in str(w.message)]
    assert rl.env("kingdom-of-dice", 2).metadata["render_fps"] == 1


def _play_to_an_end(env, seed, rng, limit=5000):
    """Step ``env`` (a vector env) with random masked actions until some game ends; returns the
    actions of every step and the last step's results."""
    obs, _ = env.reset(seed=seed)
    history = []
    for _ in range(limit):
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]])
        history.append(actions)
        obs, rewards, terms, truncs, infos = env.step(actions)
        if terms.any():
            return history, (obs, rewards, terms, truncs, infos)
    raise AssertionError("no game ended")


def test_vector_env_gives_final_obs_and_final_info_as_sync_vector_env_does() -> None:
    game = "kingdom-of-dice"
    ours = rl.DicetableVectorEnv(game, 3)
    history, (obs, rewards, terms, _, infos) = _play_to_an_end(ours, [11, 12, 13], np.random.default_rng(0))
    # Gymnasium's own SAME_STEP vector env over the single-agent environment, for the keys and masks
    theirs = gymnasium.vector.SyncVectorEnv([lambda: rl.gym_env(game, players=1)] * 3,
                                            autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP)
    _, (_, _, t_terms, _, t_infos) = _play_to_an_end(theirs, 11, np.random.default_rng(0))
    theirs.close()

    assert set(infos) == set(t_infos) == {"action_mask", "_action_mask", "final_obs", "_final_obs",
                                          "final_info", "_final_info"}
    for key in ("_action_mask", "_final_obs", "_final_info"):
        assert infos[key].dtype == t_infos[key].dtype == np.bool_
    assert infos["_action_mask"].all() and t_infos["_action_mask"].all()
    assert np.array_equal(infos["_final_obs"], terms) and np.array_equal(t_infos["_final_obs"], t_terms)
    assert np.array_equal(infos["_final_info"], terms)
    assert infos["final_obs"].dtype == t_infos["final_obs"].dtype == object
    assert set(infos["final_info"]) == set(t_infos["final_info"]) == {"action_mask", "_action_mask"}
    assert infos["final_info"]["action_mask"].shape == t_infos["final_info"]["action_mask"].shape
    assert np.array_equal(infos["final_info"]["_action_mask"], terms)
    for i in range(3):
        if not terms[i]:
            assert infos["final_obs"][i] is None
            continue
        last = infos["final_obs"][i]
        mine = next(o for j, o in enumerate(t_infos["final_obs"]) if t_terms[j])
        assert set(last) == set(mine) == {"observation", "action_mask"}
        assert last["observation"].dtype == mine["observation"].dtype == np.float32
        assert not last["action_mask"].any() and not mine["action_mask"].any()  # a finished game offers nothing
        assert not infos["final_info"]["action_mask"][i].any()
        # the finished game's last observation: the AEC environment's, same seed and moves, at its end
        aec = rl.env(game, 1)
        aec.reset(seed=[11, 12, 13][i])
        for actions in history:
            aec.step(int(actions[i]))
        assert aec.state_.is_over and aec.state_.scores[0] == rewards[i]
        assert np.array_equal(last["observation"], aec.observe("player_0")["observation"])
        # and the row of obs already shows the next game
        assert obs["action_mask"][i].any()


def test_a_sharded_vector_env_gives_the_same_final_observations() -> None:
    one = rl.DicetableVectorEnv("kingdom-of-dice", 4)
    two = rl.DicetableVectorEnv("kingdom-of-dice", 4, workers=2)
    try:
        history, (*_, terms, _, infos) = _play_to_an_end(one, 5, np.random.default_rng(1))
        two.reset(seed=5)
        for actions in history:
            *_, terms2, _, infos2 = two.step(actions)
        assert np.array_equal(terms, terms2) and np.array_equal(infos["_final_obs"], infos2["_final_obs"])
        for i in np.flatnonzero(terms):
            assert np.array_equal(infos["final_obs"][i]["observation"], infos2["final_obs"][i]["observation"])
            assert infos["final_obs"][i]["observation"].any()
    finally:
        two.close()
