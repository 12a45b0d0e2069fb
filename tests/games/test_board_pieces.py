"""A board drawn for a seat with actions from the shared pieces equals the board drawn whole.

Boards that draw the pieces no action lands on from the memo every viewer
shares, and only the pieces the actions may concern with them, keep the
plain drawing as ``whole_board_view`` in their board module: every piece
drawn with the actions, as each board was drawn before. For every such
title, along seeded random games with every option value worth playing, every
viewer's parts (values and their order, which the change messages follow)
must be the whole drawing's, and so must the assembled board.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dicetable.engine import Rng, get_game, list_games, new_game
from dicetable.engine.markup import assemble
from dicetable.engine.testing import random_step

SPLIT = [spec.id for spec in list_games()
         if spec.board_view is not None and hasattr(sys.modules[spec.board_view.__module__], "whole_board_view")]


def _options(game: str, draw) -> dict:
    """One value per option of ``game``: its default, a choice or an example worth playing."""
    out = {}
    for opt in get_game(game).options:
        out[opt.name] = draw(st.sampled_from(opt.values()), label=opt.name)
    return out


def _compare_game(game: str, players: int, seed: int, options: dict) -> int:
    """Play one random game, comparing both drawings for every viewer at every step; return the boards seen."""
    spec = get_game(game)
    draw = spec.board_view
    assert draw is not None
    whole = sys.modules[draw.__module__].whole_board_view
    try:
        state = new_game(game, players, seed=seed, options=options)
    except Exception:  # an option value that does not fit this player count (the game's own check)
        return 0
    rng = Rng(seed)
    seen = 0
    while True:
        for viewer in [*range(players), None]:
            actions = ([a.to_json() for a in state.legal_actions(viewer)]
                       if viewer is not None and not state.is_over and viewer in state.to_move else [])
            obs = state.observation(viewer)
            got = list(draw(obs, actions, viewer).items())
            want = list(whole(obs, actions, viewer).items())
            where = f"{game} {players}p seed {seed} options {options} viewer {viewer} step {seen}"
            assert [k for k, _ in got] == [k for k, _ in want], f"part order differs: {where}"
            bad = [k for (k, a), (_, b) in zip(got, want) if a != b]
            assert not bad, f"parts {bad[:5]} differ from the whole drawing: {where}"
            assert assemble(dict(got)) == assemble(dict(want))
            seen += 1
        if state.is_over:
            return seen
        random_step(state, rng)


def test_some_title_draws_from_shared_pieces():
    """Card Kingdoms draws its mover's board from the shared pieces (so the properties below run)."""
    assert "valeria-card-kingdoms" in SPLIT


@pytest.mark.parametrize("game", SPLIT)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_shared_pieces_equal_whole_drawing(game, data, seed):
    spec = get_game(game)
    players = data.draw(st.integers(spec.min_players, spec.max_players), label="players")
    _compare_game(game, players, seed, _options(game, data.draw))  # it asserts at every board


@pytest.mark.parametrize("game", SPLIT)
def test_many_seeds_every_player_count(game):
    """Eight seeds at every player count, default options: thousands of boards, none different."""
    spec = get_game(game)
    seen = sum(_compare_game(game, players, seed, {})
               for seed in range(8) for players in range(spec.min_players, spec.max_players + 1))
    assert seen > 1000
