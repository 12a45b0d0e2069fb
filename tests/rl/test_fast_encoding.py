"""The direct (fast) observation encoding equals the dictionary one and reads no hidden information.

For every title with an encoding: 1,000 states reached by seeded random play (several player
counts and option sets), each encoded for every seat and the spectator both ways
(:meth:`Encoding.encode_state` into a reused float32 buffer, and every seventh also as a new
list, and :meth:`Encoding.encode` of ``observation(seat)``) must give the same float32 vector.
Two determinized copies of a state for a seat look the same to that seat, so the direct fill
must give that seat the same vector for both (it may read only what the observation shows).
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
import numpy as np

import dicetable
from dicetable.engine import SeatError
from dicetable.engine.encoding import clear_shared_memos
from dicetable.rl.spaces import research_games

STATES = 1000

#: (players, options) configurations each title is checked in: every player count it offers and its variants.
CONFIGS = {
    "biblios-dice": [(2, {}), (3, {"hidden_objectives": True}), (4, {}), (2, {"hidden_objectives": True}), (5, {})],
    "corsairs-of-valeria": [(2, {}), (3, {"captains": "none"}), (5, {})],
    "dice-kingdoms-of-valeria": [(1, {}), (2, {}), (3, {"sheets": "winter"}), (1, {"sheets": "winter"}), (5, {})],
    "kingdom-of-dice": [(1, {}), (2, {}), (3, {}), (1, {"cat_level": 4}), (4, {})],
    "valeria-card-kingdoms": [(1, {}), (2, {}), (3, {"citizens": "mixed"}), (4, {"setup": "random"}), (5, {})],
}


def _states(game_id: str, seed: int):
    """Yield (state, rng) along seeded random games of every configuration, STATES in all."""
    rng = random.Random(seed)
    configs = CONFIGS[game_id]
    made = 0
    g = 0
    while made < STATES:
        players, options = configs[g % len(configs)]
        state = dicetable.new_game(game_id, players, seed=seed * 1000 + g, options=options)
        g += 1
        while made < STATES:
            yield state, rng
            made += 1
            if state.is_over:
                break
            seat = rng.choice(state.to_move)
            state.apply(rng.choice(state.legal_actions(seat)), seat)


def test_every_title_is_configured() -> None:
    """Each research title is listed above, so none escapes the equality check."""
    assert sorted(CONFIGS) == sorted(spec.id for spec in research_games())


@pytest.mark.parametrize("game_id", sorted(CONFIGS))
def test_direct_fill_equals_dictionary_encoding(game_id: str) -> None:
    spec = dicetable.get_game(game_id)
    layouts: dict = {}
    checked = 0
    for state, _ in _states(game_id, 11):
        key = (state.players, tuple(sorted(state.options.items())))
        if key not in layouts:
            enc = spec.observation_encoding(state.players, dict(state.options))
            assert enc.direct is not None, f"{game_id} has no direct fill"
            layouts[key] = (enc, np.zeros(enc.size, np.float32))
        enc, buf = layouts[key]
        for seat in [*range(state.players), None]:
            buf.fill(0.0)
            fast = enc.encode_state(state, seat, buf)
            slow = np.asarray(enc.encode(state.observation(seat)), dtype=np.float32)
            if not np.array_equal(fast, slow):
                bad = [name for name, a, b, _ in enc.slices if not np.array_equal(fast[a:b], slow[a:b])]
                pytest.fail(f"{game_id} {state.players}p seat {seat} after {len(state.history)} actions: "
                            f"features {bad} differ")
            if checked % 7 == 0:  # the list the OpenSpiel tensors are (no buffer given): the same values
                listed = enc.encode_state(state, seat)
                assert type(listed) is list and np.array_equal(np.asarray(listed, dtype=np.float32), slow)
            checked += 1
    assert checked >= STATES * 2


@pytest.mark.parametrize("game_id", sorted(CONFIGS))
def test_direct_fill_sees_only_the_observation(game_id: str) -> None:
    """Two determinized copies for a seat (hidden cards, bids and dice resampled) give that seat one vector."""
    spec = dicetable.get_game(game_id)
    compared = 0
    for n, (state, _) in enumerate(_states(game_id, 23)):
        if n % 10 or state.is_over:
            continue
        enc = spec.observation_encoding(state.players, dict(state.options))
        for seat in range(state.players):
            a, b = state.determinize(seat, 1), state.determinize(seat, 2)
            assert a.observation(seat) == b.observation(seat)  # the premise: the seat sees the same
            assert enc.encode_state(a, seat) == enc.encode_state(b, seat) == enc.encode_state(state, seat)
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("game_id", sorted(CONFIGS))
def test_emptied_memos_give_the_same_vectors(game_id: str) -> None:
    """``clear_shared_memos`` empties the memos the fills already hold (in place); the next fills work
    everything out again and write the same vectors as the dictionary encoding."""
    spec = dicetable.get_game(game_id)
    states = [state.clone() for n, (state, _) in enumerate(_states(game_id, 31)) if n % 50 == 0]
    remembered = 0
    for state in states:
        enc = spec.observation_encoding(state.players, dict(state.options))
        clear_shared_memos()
        before = [enc.encode_state(state, seat) for seat in range(state.players)]
        held = clear_shared_memos()
        assert clear_shared_memos() == 0  # every memo was emptied
        remembered += held
        after = [enc.encode_state(state, seat) for seat in range(state.players)]
        warm = [enc.encode_state(state, seat) for seat in range(state.players)]  # from the memos just filled
        assert after == before == warm
        for seat, vector in enumerate(after):  # as the equality test compares: float32, the vector's type
            slow = np.asarray(enc.encode(state.observation(seat)), dtype=np.float32)
            assert np.array_equal(np.asarray(vector, dtype=np.float32), slow)
    assert remembered > 0  # the fills had remembered something to empty


def test_direct_fill_refuses_a_seat_that_is_not_one() -> None:
    state = dicetable.new_game("corsairs-of-valeria", 2, seed=1)
    enc = dicetable.get_game("corsairs-of-valeria").observation_encoding(2, dict(state.options))
    for bad in (2, -1, True, "0"):
        with pytest.raises(SeatError):
            enc.encode_state(state, bad)


@pytest.mark.pure_build
@pytest.mark.parametrize("game_id", sorted(CONFIGS))
def test_environments_step_without_building_observation_dictionaries(game_id: str, monkeypatch) -> None:
    """The AEC, batched and OpenSpiel paths encode from the state: observation() is never called
    while they step; it is built only when asked (render, an observation string)."""
    import dicetable.rl as rl

    state_class = type(dicetable.new_game(game_id, 2, seed=0))
    built = []
    real = state_class._observation
    monkeypatch.setattr(state_class, "_observation", lambda self, seat: built.append(seat) or real(self, seat))
    env = rl.env(game_id, 2, render_mode="ansi")
    env.reset(seed=1)
    rng = random.Random(0)
    for _ in range(60):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    batch = rl.batch_env(game_id, 2, 2)
    _, mask, _ = batch.reset(seed=1)
    for _ in range(60):
        _, mask, *_ = batch.step([int(rng.choice(np.flatnonzero(row))) for row in mask])
    try:
        import pyspiel

        from dicetable.rl.openspiel import register_openspiel, short_name
    except ImportError:  # the OpenSpiel part of the rl extra is optional
        pyspiel = None
    if pyspiel is not None:
        register_openspiel()
        spiel = pyspiel.load_game(short_name(game_id), {"players": 2}).new_initial_state()
        for _ in range(60):
            if spiel.is_terminal():
                break
            tensors = [spiel.information_state_tensor(p) for p in range(2)]
            assert all(len(t) == len(tensors[0]) for t in tensors)
            spiel.apply_action(rng.choice(spiel.legal_actions()))
    assert built == []
    assert env.render()  # asked for: the view is drawn from observation(seat)
    assert built
