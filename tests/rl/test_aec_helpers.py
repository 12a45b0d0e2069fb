"""The AEC environment's compiled helpers (``dicetable.engine.batchstep.show_one``,
``step_offered``, ``step_show`` and ``mark``) against the engine played directly and the dictionary encoding."""

from __future__ import annotations

import numpy as np
import pytest

import dicetable
from dicetable.engine.batchstep import mark, show_one, step_offered, step_show
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
def test_step_show_plays_and_shows_what_apply_and_the_dictionary_encoding_give(game_id: str) -> None:
    """At every step of a seeded random game: ``step_show`` plays the chosen index as ``apply`` of
    that action id does, names the next seat (-1 at the end) and writes that seat's dictionary
    encoding and a mask of exactly its legal actions; it refuses an index not offered (-2) and
    does not move."""
    spaces, fill, state, twin, rng = _game_and_twin(game_id, 7)
    seat = min(state.to_move)
    legal, ks = show_one(state, seat, None, None, np.zeros(spaces.num_actions, np.int8).data, spaces.index)
    while True:
        vector = np.zeros(spaces.observation_size, dtype=np.float32)
        mask = np.zeros(spaces.num_actions, dtype=np.int8)
        refused = next(k for k in range(spaces.num_actions) if k not in ks)
        assert step_show(state, legal, ks, refused, seat, False, fill, vector.data, mask.data,
                         spaces.index) == (-2, (), [])
        assert state.history == twin.history and not vector.any() and not mask.any()
        k = int(rng.choice(ks))
        following, legal, ks = step_show(state, legal, ks, k, seat, False, fill, vector.data, mask.data,
                                         spaces.index)
        twin.apply(spaces.catalogue[k], seat)
        assert state.history == twin.history
        if following == -1:
            assert (legal, ks) == ((), []) and state.is_over and twin.is_over and state.scores == twin.scores
            break
        assert following == min(twin.to_move)
        seat = following
        want = np.asarray(spaces.encoding.encode(twin.observation(seat)), dtype=np.float32)
        assert np.array_equal(vector, want)
        assert list(np.flatnonzero(mask)) == sorted(spaces.index[a.id] for a in twin.legal_actions(seat))
        assert [a.id for a in legal] == [spaces.catalogue[k] for k in ks]


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
