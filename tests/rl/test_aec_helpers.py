"""The AEC environment's compiled helpers (``dicetable.engine.batchstep.show_one``,
``step_offered``, ``mark``, ``show_aec``, ``step_aec`` and ``AgentIterable``) against the
engine played directly, the dictionary encoding and PettingZoo's own iterator."""

from __future__ import annotations

import numpy as np
import pytest

import dicetable
from dicetable.engine.batchstep import AECShow, mark, show_aec, show_one, step_aec, step_offered
from dicetable.rl import GameSpaces
from dicetable.rl.spaces import research_games


def _game_and_twin(game_id: str, seed: int):
    """(spaces, the direct fill, a quiet game of ``seed`` at 2 seats, its twin moved by apply with every
    event logged, a generator of ``seed``)."""
    spaces = GameSpaces(game_id, 2)
    fill = spaces.encoding.direct
    assert fill is not None
    return (spaces, fill, spaces.new_game(seed, quiet=True), dicetable.new_game(game_id, 2, seed=seed),
            np.random.default_rng(seed))


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games()])
def test_show_one_and_step_offered_play_the_game_apply_plays(game_id: str) -> None:
    """At every step of a seeded random game: ``show_one`` writes the dictionary encoding of the
    seat's observation and a mask of exactly its legal actions (and only the mask without a fill);
    ``step_offered`` plays the chosen index as ``apply`` of that action id does and names the
    next seat (-1 at the end)."""
    spaces, fill, state, twin, rng = _game_and_twin(game_id, 5)
    seat = min(state.to_move)
    while True:
        vector = np.zeros(spaces.observation_size, dtype=np.float32)
        mask = np.zeros(spaces.num_actions, dtype=np.int8)
        legal, ks = show_one(state, seat, fill, vector.data, mask.data, spaces.index)
        want = np.asarray(spaces.encoding.encode(twin.observation(seat)), dtype=np.float32)
        assert np.array_equal(vector, want)
        assert list(np.flatnonzero(mask)) == sorted(spaces.index[a.id] for a in twin.legal_actions(seat))
        assert [a.id for a in legal] == [spaces.catalogue[k] for k in ks]
        bare = np.zeros(spaces.num_actions, dtype=np.int8)
        show_one(state, seat, None, None, bare.data, spaces.index)
        assert np.array_equal(bare, mask)
        k = int(rng.choice(ks))
        following = step_offered(state, legal, ks, k, seat, False)
        twin.apply(spaces.catalogue[k], seat)
        assert state.history == twin.history
        if following == -1:
            assert state.is_over and twin.is_over and state.scores == twin.scores
            break
        assert following == min(twin.to_move)
        seat = following


@pytest.mark.parametrize("wanted", [True, 1.0, np.int64(0), "0", None, -1, 10**6])
def test_step_offered_refuses_what_is_not_an_offered_int_and_moves_nothing(wanted: object) -> None:
    """-2 and no move for a bool, a float, a numpy integer, a string, None and an index not
    offered (the environment then converts or refuses it, saying why)."""
    spaces = GameSpaces("valeria-card-kingdoms", 2)
    state = spaces.new_game(3, quiet=True)
    seat = min(state.to_move)
    legal = state.legal_actions(seat)
    ks = [spaces.index[a.id] for a in legal]
    if wanted in (True, 1.0, np.int64(0)):  # an offered index in another type
        ks = [0, 1] + ks[2:] if len(ks) > 2 else [0, 1]
        legal = legal[:len(ks)]
    before = list(state.history)
    assert step_offered(state, legal, ks, wanted, seat, False) == -2
    assert state.history == before


def test_step_offered_with_events_logs_the_move() -> None:
    """``events`` True plays by ``apply``: the move's events are logged."""
    spaces = GameSpaces("kingdom-of-dice", 2)
    state = spaces.new_game(2, quiet=True)
    seat = min(state.to_move)
    legal = state.legal_actions(seat)
    ks = [spaces.index[a.id] for a in legal]
    logged = len(state.log)
    assert step_offered(state, legal, ks, ks[0], seat, True) in (-1, 0, 1)
    assert state.history == [(seat, legal[0].id)] and len(state.log) > logged


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games()])
def test_mark_writes_the_legal_actions_whether_its_memo_knows_them_or_not(game_id: str) -> None:
    """Along a seeded random game, ``mark`` sets exactly the legal actions' catalogue indices and
    returns them in the legal actions' order, the first time a set of ids is offered (the memo
    misses) and the times after (it copies what it remembered)."""
    spaces = GameSpaces(game_id, 2)
    masks: dict = {}
    rng = np.random.default_rng(11)
    for _ in range(2):  # the same game twice: every offer is known the second time
        state = dicetable.new_game(game_id, 2, seed=11)
        while not state.is_over:
            seat = min(state.to_move)
            legal = state.legal_actions(seat)
            mask = np.zeros(spaces.num_actions, dtype=np.int8)
            ks = mark(legal, mask.data, spaces.index, masks)
            assert ks == [spaces.catalogue.index(a.id) for a in legal]
            assert list(np.flatnonzero(mask)) == sorted(ks)
            state.apply(legal[int(rng.integers(len(legal)))], seat)
        rng = np.random.default_rng(11)
    assert masks


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games()])
def test_mark_without_a_row_gives_the_indices_and_the_same_list_for_the_same_offer(game_id: str) -> None:
    """``mark`` with no mask row writes nothing and returns the legal actions' catalogue indices in
    their order; an offer of the same ids, first without a row and then with one, gets the same list
    object back (the AEC environment keys its mask arrays by it), and the row then shows exactly them."""
    spaces = GameSpaces(game_id, 2)
    masks: dict = {}
    rng = np.random.default_rng(5)
    state = dicetable.new_game(game_id, 2, seed=5)
    while not state.is_over:
        seat = min(state.to_move)
        legal = state.legal_actions(seat)
        ks = mark(legal, None, spaces.index, masks)
        assert ks == [spaces.catalogue.index(a.id) for a in legal]
        mask = np.zeros(spaces.num_actions, dtype=np.int8)
        assert mark(legal, mask.data, spaces.index, masks) is ks
        assert list(np.flatnonzero(mask)) == sorted(ks)
        state.apply(legal[int(rng.integers(len(legal)))], seat)


def _owns_its_memory(array: np.ndarray, shape: tuple[int], dtype: type) -> bool:
    """``array`` is a writable array of ``shape`` and ``dtype`` that owns exactly its own bytes: no
    base (no view of a larger block, no buffer object behind it), so holding it holds nothing else."""
    return (array.base is None and array.flags.owndata and array.flags.writeable and array.shape == shape
            and array.dtype == dtype and array.nbytes == shape[0] * np.dtype(dtype).itemsize)


def _aec_show(spaces: GameSpaces) -> AECShow:
    """An AECShow as the AEC environment makes one (a zero vector's copy; a mask array per offer)."""
    zero = np.zeros(spaces.observation_size, np.float32)

    def new_mask(ks: list[int]) -> np.ndarray:
        mask = np.zeros(spaces.num_actions, np.int8)
        mask[ks] = 1
        return mask

    assert spaces.encoding.direct is not None
    return AECShow(spaces.encoding.direct, spaces.index, ["player_0", "player_1"], zero.copy, new_mask, {})


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games()])
def test_step_aec_plays_what_apply_plays_and_shows_new_arrays_of_the_encoding(game_id: str) -> None:
    """Along a seeded random game: ``show_aec`` and ``step_aec`` give the next seat, its legal Actions
    and catalogue indices, its agent, and an observation dictionary whose vector is the dictionary
    encoding and whose mask is exactly the legal actions, each a new array owning its memory (no
    memory shared with the observation before); ``step_aec`` plays what ``apply`` plays (-1 at the end),
    and gives -2 without moving for an index not offered, for an offer made to another agent and
    without an offer."""
    spaces, _, state, twin, rng = _game_and_twin(game_id, 8)
    show = _aec_show(spaces)
    shown = show_aec(state, min(state.to_move), show)
    earlier: dict[str, np.ndarray] | None = None
    while True:
        seat, legal, ks, obs, agent = shown
        assert agent == f"player_{seat}" and [a.id for a in legal] == [spaces.catalogue[k] for k in ks]
        vector, mask = obs["observation"], obs["action_mask"]
        assert _owns_its_memory(vector, (spaces.observation_size,), np.float32)
        assert _owns_its_memory(mask, (spaces.num_actions,), np.int8)
        want = np.asarray(spaces.encoding.encode(twin.observation(seat)), dtype=np.float32)
        assert np.array_equal(vector, want)
        assert list(np.flatnonzero(mask)) == sorted(spaces.index[a.id] for a in twin.legal_actions(seat))
        if earlier is not None:
            assert not np.shares_memory(vector, earlier["observation"])
            assert not np.shares_memory(mask, earlier["action_mask"])
        refused = next(k for k in range(spaces.num_actions) if k not in ks)
        k = int(rng.choice(ks))
        other = "".join(["player_", str(seat)])  # equal to the agent's name, but not the offer's string
        for offered, action, name in ((shown, refused, agent), (shown, k, other), (None, k, agent)):
            assert step_aec(state, offered, action, name, False, show) == (-2, (), [], None, "")
        assert state.history == twin.history
        earlier = obs
        shown = step_aec(state, shown, k, agent, False, show)
        twin.apply(spaces.catalogue[k], seat)
        assert state.history == twin.history
        if shown[0] == -1:
            assert shown == (-1, (), [], None, "") and state.is_over and twin.is_over
            assert state.scores == twin.scores
            break
        assert shown[0] == min(twin.to_move)


@pytest.mark.parametrize("game_id", [spec.id for spec in research_games()])
def test_aec_vectors_and_masks_own_their_memory(game_id: str) -> None:
    """Along a seeded game through the AEC environment: every vector is the dictionary encoding of the
    selected seat's observation and every mask exactly its legal actions, each a writable array that
    owns its memory and nothing more (a kept observation keeps no block of others alive); an array the
    caller writes over (every other step) changes no later one, and no later step changes one kept."""
    from dicetable import rl

    env = rl.env(game_id, 2)
    spaces = env.spaces
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    kept = []
    for i, agent in enumerate(env.agent_iter(max_iter=400)):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        state = env.state_
        assert obs is not None and state is not None
        seat = int(agent[-1])
        vector, mask = obs["observation"], obs["action_mask"]
        assert _owns_its_memory(vector, (spaces.observation_size,), np.float32)
        assert _owns_its_memory(mask, (spaces.num_actions,), np.int8)
        assert np.array_equal(vector, np.asarray(spaces.encoding.encode(state.observation(seat)), dtype=np.float32))
        legal = sorted(spaces.index[a.id] for a in state.legal_actions(seat))
        assert list(np.flatnonzero(mask)) == legal
        action = int(rng.choice(legal))
        if i % 2:
            kept.append((vector, vector.copy(), mask, mask.copy()))
        else:
            vector[:] = 7.0  # the caller's own arrays: no later observation may see this
            mask[:] = 1
        env.step(action)
    assert len(kept) > 10
    for vector, was, mask, mask_was in kept:
        assert np.array_equal(vector, was) and np.array_equal(mask, mask_was)


def test_aec_agent_iter_gives_what_pettingzoos_iterator_gives() -> None:
    """``agent_iter`` (compiled with the engine) yields the selected agent while agents are left, as
    PettingZoo's ``AECIterable`` does along the same seeded game, stops after ``max_iter`` agents (none
    for 0 or less; a float or numpy ``max_iter`` counted as PettingZoo counts it), and each ``iter()`` of
    it starts a new count."""
    from pettingzoo.utils.env import AECIterable  # type: ignore[import-untyped]

    from dicetable import rl

    ours, theirs = rl.env("kingdom-of-dice", 2), rl.env("kingdom-of-dice", 2)
    got: list[str] = []
    want: list[str] = []
    for e, agents, iterable in ((ours, got, ours.agent_iter()), (theirs, want, AECIterable(theirs, 2**63))):
        e.reset(seed=4)
        rng = np.random.default_rng(4)
        for agent in iterable:
            agents.append(agent)
            obs, _, term, trunc, _ = e.last()
            assert obs is not None
            e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert got == want and len(got) > 10 and not ours.agents
    ours.reset(seed=4)
    three = ours.agent_iter(max_iter=3)
    assert list(three) == [ours.agent_selection] * 3  # no step between: the same agent each time
    assert list(three) == [ours.agent_selection] * 3  # a new iterator, a new count
    assert list(ours.agent_iter(max_iter=0)) == [] and list(ours.agent_iter(max_iter=-5)) == []
    # any number PettingZoo's iterator counts down: a float, a numpy integer
    for limit in (2.5, 3.0, np.int64(2), 0.5, -1.0):
        assert list(ours.agent_iter(max_iter=limit)) == list(AECIterable(ours, limit))
