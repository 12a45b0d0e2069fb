"""The batched environment: shapes, masks and vectors of each acting seat, auto-reset, seeds, errors."""

from __future__ import annotations

import numpy as np
import pytest

import dicetable
import dicetable.rl as rl
from dicetable.rl.spaces import GameSpaces, placing_rewards, research_games

CONFIGS = [(spec.id, p) for spec in research_games() for p in sorted({spec.min_players, 2, spec.max_players})
           if spec.min_players <= p <= spec.max_players]


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> list[int]:
    return [int(rng.choice(np.flatnonzero(row))) for row in mask]


@pytest.mark.parametrize("game_id,players", CONFIGS)
def test_rows_are_the_acting_seats_vector_and_mask(game_id: str, players: int) -> None:
    spaces = GameSpaces(game_id, players)
    env = rl.batch_env(game_id, 3, players)
    obs, mask, seat = env.reset(seed=5)
    assert obs.shape == (3, spaces.observation_size) and obs.dtype == np.float32
    assert mask.shape == (3, spaces.num_actions) and mask.dtype == np.int8
    assert seat.shape == (3,)
    rng = np.random.default_rng(1)
    for _ in range(40):
        for i, state in enumerate(env.states):
            assert seat[i] == min(state.to_move)
            want = np.asarray(spaces.encoding.encode(state.observation(int(seat[i]))), dtype=np.float32)
            assert np.array_equal(obs[i], want)
            legal = {spaces.index[a.id] for a in state.legal_actions(int(seat[i]))}
            assert set(np.flatnonzero(mask[i])) == legal
        obs, mask, seat, rewards, terminated = env.step(_random_actions(mask, rng))
        assert rewards.shape == (3, players) and terminated.shape == (3,)


@pytest.mark.parametrize("game_id,players", [("kingdom-of-dice", 2), ("kingdom-of-dice", 1), ("corsairs-of-valeria", 3)])
def test_a_finished_game_pays_its_rewards_and_restarts_in_the_same_step(game_id: str, players: int) -> None:
    env = rl.batch_env(game_id, 2, players)
    obs, mask, seat = env.reset(seed=3)
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(20_000):
        before = list(env.states)
        actions = _random_actions(mask, rng)
        # what each game will pay if this step ends it: replay the step on a copy
        expected = []
        for i, state in enumerate(before):
            copy = state.clone()
            copy.apply(env.spaces.catalogue[actions[i]], int(seat[i]))
            expected.append(placing_rewards(copy) if copy.is_over else [0.0] * players)
        obs, mask, seat, rewards, terminated = env.step(actions)
        for i in range(2):
            assert np.allclose(rewards[i], expected[i])
            if terminated[i]:
                finished += 1
                assert env.states[i] is not before[i] and env.states[i].history == []  # a new game, not yet played
                assert mask[i].sum() >= 1
                if players > 1:
                    # first place +1 down to last -1, linear, tied seats sharing: the places sum to zero
                    assert rewards[i].max() == 1.0 and abs(float(rewards[i].sum())) < 1e-6
            else:
                assert env.states[i] is before[i]
        if finished >= 3:
            break
    assert finished >= 3


def test_seeds_replay_the_same_games_and_each_game_has_its_own() -> None:
    def run(seed):
        env = rl.batch_env("biblios-dice", 3, 2)
        obs, mask, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen = [obs.copy()]
        for _ in range(60):
            obs, mask, *_ = env.step([int(np.flatnonzero(m)[rng.integers(m.sum())]) for m in mask])
            seen.append(obs.copy())
        return np.stack(seen), [s.seed for s in env.states]

    a, seeds_a = run(7)
    b, seeds_b = run(7)
    c, _ = run(8)
    assert np.array_equal(a, b) and seeds_a == seeds_b
    assert not np.array_equal(a, c)
    assert len(set(seeds_a)) == 3  # per-game seeds, not one game three times
    same = rl.batch_env("biblios-dice", 2, 2)
    same.reset(seed=[11, 11])
    assert same.states[0].seed == same.states[1].seed
    assert same.states[0].observation(0) == same.states[1].observation(0)


def test_quiet_steps_play_the_same_games_as_apply() -> None:
    quiet, loud = rl.batch_env("valeria-card-kingdoms", 2, 2), rl.batch_env("valeria-card-kingdoms", 2, 2, events=True)
    q, mq, _ = quiet.reset(seed=4)
    l_, ml, _ = loud.reset(seed=4)
    rng = np.random.default_rng(3)
    for _ in range(150):
        assert np.array_equal(q, l_) and np.array_equal(mq, ml)
        actions = _random_actions(mq, rng)
        q, mq, *_ = quiet.step(actions)
        l_, ml, *_ = loud.step(actions)
    assert all(s.log for s in loud.states) and all(s.history for s in quiet.states)


def test_an_illegal_action_is_refused_before_any_game_moves() -> None:
    env = rl.batch_env("corsairs-of-valeria", 3, 2)
    obs, mask, seat = env.reset(seed=1)
    histories = [s.history for s in env.states]
    illegal = int(np.flatnonzero(mask[1] == 0)[0])
    actions = [int(np.flatnonzero(mask[0])[0]), illegal, int(np.flatnonzero(mask[2])[0])]
    with pytest.raises(ValueError, match=rf"game 1: action {illegal} is not legal for seat"):
        env.step(actions)
    assert [s.history for s in env.states] == histories
    with pytest.raises(ValueError, match="2 actions for 3 games"):
        env.step(actions[:2])
    with pytest.raises(TypeError, match=r"^game 0: action True is a bool, not a catalogue index: give an int"):
        env.step([True, 0, 0])
    assert [s.history for s in env.states] == histories


def test_numpy_integers_in_a_list_choose_as_ints_do() -> None:
    """A list holding numpy integers (not an array) takes the conversion path after the first of
    them and plays the same moves as plain ints."""
    plain, mixed = rl.batch_env("kingdom-of-dice", 3, 2), rl.batch_env("kingdom-of-dice", 3, 2)
    _, mask, _ = plain.reset(seed=4)
    mixed.reset(seed=4)
    for _ in range(30):
        choice = [int(np.flatnonzero(m)[-1]) for m in mask]
        obs_a, mask, *_ = plain.step(choice)
        obs_b, mask_b, *_ = mixed.step([choice[0], np.int64(choice[1]), np.int32(choice[2])])
        assert np.array_equal(obs_a, obs_b) and np.array_equal(mask, mask_b)
    assert [s.history for s in plain.states] == [s.history for s in mixed.states]


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="num_envs 0"):
        rl.batch_env("kingdom-of-dice", 0)
    with pytest.raises(dicetable.GameConfigError):
        rl.batch_env("corsairs-of-valeria", 2, players=1)
    with pytest.raises(RuntimeError, match="reset"):
        rl.batch_env("kingdom-of-dice", 2).step([0, 0])
    with pytest.raises(ValueError, match="3 seeds for 2 games"):
        rl.batch_env("kingdom-of-dice", 2).reset(seed=[1, 2, 3])


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games() if spec.min_players == 1])
def test_gymnasium_vector_env_for_solo_modes(game_id: str) -> None:
    env = rl.DicetableVectorEnv(game_id, 4)
    obs, infos = env.reset(seed=9)
    assert env.observation_space.contains({k: v.copy() for k, v in obs.items()})
    assert np.array_equal(infos["action_mask"], obs["action_mask"])
    rng = np.random.default_rng(0)
    scores = []
    for _ in range(5000):
        actions = np.array(_random_actions(obs["action_mask"], rng))
        assert env.action_space.contains(actions)
        obs, rewards, terms, truncs, infos = env.step(actions)
        assert rewards.shape == terms.shape == truncs.shape == (4,) and not truncs.any()
        assert not rewards[~terms].any()  # the score comes only when a game ends
        scores += list(rewards[terms])
        if len(scores) >= 4:
            break
    assert len(scores) >= 4 and all(s >= 0 for s in scores)  # a solo reward is the final score


def test_a_game_without_a_direct_fill_is_encoded_from_its_observation(monkeypatch) -> None:
    """The batch and the AEC environment fall back to encoding ``observation(seat)`` when a game
    gives no direct fill, with the same vectors."""
    from dicetable.engine import encoding as engine_encoding

    real_init = engine_encoding.Encoding.__init__
    monkeypatch.setattr(engine_encoding.Encoding, "__init__",
                        lambda self, features, direct=None: real_init(self, features, None))
    batch = rl.batch_env("kingdom-of-dice", 2, 2)
    assert batch.spaces.encoding.direct is None
    obs, mask, seat = batch.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        for i, state in enumerate(batch.states):
            want = np.asarray(batch.spaces.encoding.encode(state.observation(int(seat[i]))), dtype=np.float32)
            assert want.any() and np.array_equal(obs[i], want)
        obs, mask, seat, *_ = batch.step(_random_actions(mask, rng))
    env = rl.env("kingdom-of-dice", 2)
    env.reset(seed=3)
    first, *_ = env.last()
    state = env.state_
    assert np.array_equal(first["observation"], np.asarray(
        env.spaces.encoding.encode(state.observation(min(state.to_move))), dtype=np.float32))


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games() if spec.min_players > 1])
def test_the_vector_env_of_a_game_without_solo_says_it_takes_solo_games_and_what_to_use(game_id: str) -> None:
    spec = dicetable.get_game(game_id)
    with pytest.raises(dicetable.GameConfigError) as info:
        rl.DicetableVectorEnv(game_id, 3)
    message = str(info.value)
    assert message.startswith("DicetableVectorEnv takes solo games only"), message
    assert "kingdom-of-dice (Kingdom of Dice)" in message and "dice-kingdoms-of-valeria" in message
    assert f"{spec.name} is for {spec.min_players}-{spec.max_players} players" in message
    assert f"dicetable.rl.batch_env({game_id!r}, num_envs, players={spec.min_players})" in message
    assert "not 1" not in message  # the engine's "2-5 players, not 1" named a player count nobody gave
