"""The fixed observation space: one length per configuration, drawn from the observation only."""

from __future__ import annotations

import pytest

import dicetable
from dicetable.bots import make_bot
from dicetable.engine import registry
from tests.rl.test_catalogue import configurations


@pytest.mark.parametrize("game_id,players,options", configurations(),
                         ids=lambda v: v if isinstance(v, str) else str(v))
def test_encoding_has_one_length_and_ignores_what_the_seat_cannot_see(game_id, players, options):
    spec = dicetable.get_game(game_id)
    state = dicetable.new_game(game_id, players, seed=11, options=options)
    encoding = spec.observation_encoding(players, state.options)
    names = [name for name, _, _, _ in encoding.slices]
    assert len(names) == len(set(names)) and encoding.slices[-1][2] == encoding.size
    assert all(meaning.strip() for _, _, _, meaning in encoding.slices)
    bot = make_bot("random", 5)
    step = 0
    while not state.is_over:
        seat = state.to_move[0]
        if step % 7 == 0:
            for viewer in (seat, None):
                vector = encoding.encode(state.observation(viewer))
                assert len(vector) == encoding.size
                assert all(0.0 <= v < 64.0 for v in vector), "a feature is negative, NaN or runaway (spaces.OBS_HIGH is 64)"
            # What the seat cannot see (decks, other seats' secrets, future dice) is resampled:
            # its vector must not move.
            other = state.determinize(seat, 1000 + step)
            assert encoding.encode(other.observation(seat)) == encoding.encode(state.observation(seat))
        state.apply(bot.choose(state, seat), seat)
        step += 1
    assert len(encoding.encode(state.observation(0))) == encoding.size


def test_every_game_declares_its_research_spaces():
    for spec in registry.games():
        assert spec.action_catalogue is not None, spec.id
        assert spec.observation_encoding is not None, spec.id
