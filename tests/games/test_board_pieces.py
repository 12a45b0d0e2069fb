"""A board drawn for a seat with actions from the shared pieces equals the board drawn whole.

Boards that draw the pieces no action lands on from the memo every viewer
shares, and only the pieces the actions may concern with them, keep the
plain drawing as ``whole_board_view`` in their board module: every piece
drawn with the actions, as each board was drawn before. For every such
title, along seeded random games with every option value worth playing and
greedy games at every player count, every viewer's parts (values and their
order, which the change messages follow) must be the whole drawing's, and so
must the assembled board.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dicetable.bots import make_bot
from dicetable.engine import GameConfigError, get_game, list_games, new_game
from dicetable.engine.markup import assemble

SPLIT = [spec.id for spec in list_games()
         if spec.board_view is not None and hasattr(sys.modules[spec.board_view.__module__], "whole_board_view")]


def _options(game: str, draw) -> dict:
    """One value per option of ``game``: its default, a choice or an example worth playing."""
    out = {}
    for opt in get_game(game).options:
        out[opt.name] = draw(st.sampled_from(opt.values()), label=opt.name)
    return out


def _compare_game(game: str, players: int, seed: int, options: dict, bot: str = "random",
                  steps: int = 10**6) -> int:
    """Play one game (``bot``'s choices for every seat; at most ``steps`` actions), comparing both drawings
    for every viewer at every step; return the boards compared. Options that do not fit this player count
    fall back to the defaults."""
    spec = get_game(game)
    draw = spec.board_view
    assert draw is not None
    whole = sys.modules[draw.__module__].whole_board_view
    try:
        state = new_game(game, players, seed=seed, options=options)
    except GameConfigError:  # e.g. a solo-only option with more players
        options = {}
        state = new_game(game, players, seed=seed)
    chooser = make_bot(bot, seed=seed)
    seen = 0
    while True:
        for viewer in [*range(players), None]:
            actions = ([a.to_json() for a in state.legal_actions(viewer)]
                       if viewer is not None and not state.is_over and viewer in state.to_move else [])
            obs = state.observation(viewer)
            got = list(draw(obs, actions, viewer).items())
            want = list(whole(obs, actions, viewer).items())
            where = f"{game} {players}p seed {seed} options {options} viewer {viewer} board {seen}"
            assert [k for k, _ in got] == [k for k, _ in want], f"part order differs: {where}"
            bad = [k for (k, a), (_, b) in zip(got, want) if a != b]
            assert not bad, f"parts {bad[:5]} differ from the whole drawing: {where}"
            assert assemble(dict(got)) == assemble(dict(want))
            seen += 1
        steps -= 1
        if state.is_over or steps < 0:
            return seen
        seat = state.to_move[0]
        state.apply(chooser.choose(state, seat).id, seat)


def test_the_titles_drawing_from_shared_pieces_are_checked():
    """Card Kingdoms, Corsairs and Kingdom of Dice draw their mover's board from the shared pieces, so the
    properties below run for each of them."""
    assert {"valeria-card-kingdoms", "corsairs-of-valeria", "kingdom-of-dice"} <= set(SPLIT)


@pytest.mark.parametrize("game", SPLIT)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_shared_pieces_equal_whole_drawing(game, data, seed):
    spec = get_game(game)
    players = data.draw(st.integers(spec.min_players, spec.max_players), label="players")
    # random play: long games (Kingdom of Dice rerolls), so the first 300 actions of each
    assert _compare_game(game, players, seed, _options(game, data.draw), steps=300) > players


@pytest.mark.parametrize("game", SPLIT)
def test_many_seeds_every_player_count(game):
    """Two greedy games at every player count, default options: thousands of boards, none different."""
    spec = get_game(game)
    seen = sum(_compare_game(game, players, seed, {}, "greedy")
               for seed in range(2) for players in range(spec.min_players, spec.max_players + 1))
    assert seen > 1000
