"""The board's memos (a server's sheets, Action pips and player keys): right drawings, and keys the
cyclic garbage collector does not walk (docs/load.md, "Dice Kingdoms' board memos and the collector")."""

from __future__ import annotations

import gc
import random

import pytest

from dicetable.engine import new_game
from dicetable.games.dice_kingdoms_of_valeria import board

GAME = "dice-kingdoms-of-valeria"


def _versions(players: int, seed: int, sheets: str, moves: int):
    """Each version of a seeded random game, as (observation per viewer, legal actions' JSON per seat)."""
    state = new_game(GAME, players, seed=seed, options={"sheets": sheets})
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            return
        viewers = [*range(players), None]
        yield ({v: state.observation(v) for v in viewers},
               {s: [a.to_json() for a in state.legal_actions(s)] for s in state.to_move})
        seat = state.to_move[0]
        state.apply(rng.choice(state.legal_actions(seat)).id, seat)


def _clear() -> None:
    board._SHEETS.clear()
    board._act_parts.got.clear()
    board._PLAYER_KEYS.clear()


@pytest.mark.parametrize("players, sheets, seed", [(1, "summer", 5), (3, "summer", 11), (4, "winter", 2)])
def test_a_memoised_board_is_the_board_drawn_afresh(players, sheets, seed):
    """Many versions drawn with the memos warm (every viewer, the seats to move with their Actions):
    each drawing equals the one made with every memo emptied first, so no two different sheets or
    Action lists share a key."""
    _clear()
    warm = []
    versions = list(_versions(players, seed, sheets, 80))
    for obs, actions in versions:
        warm.append([board.board_view(o, actions.get(v, []), v) for v, o in obs.items()])
    assert len(board._SHEETS) > players  # the memo was used: sheets of several versions are in it
    assert board._act_parts.got  # and the Action pips of the seats to move
    for (obs, actions), drawn in zip(versions, warm):
        for (v, o), parts in zip(obs.items(), drawn):
            _clear()
            assert board.board_view(o, actions.get(v, []), v) == parts


def test_the_memos_keys_are_not_tracked_by_the_collector():
    """The memos' keys are bytes, which the cyclic collector never walks: a server keeps thousands of
    them, made and dropped as its tables move (their nested tuples were about 40 tracked objects a
    key, walked by every young collection while new)."""
    _clear()
    gc.disable()  # a collection would untrack tuples of atoms: look at the keys as they were made
    try:
        for obs, actions in _versions(3, 7, "summer", 40):
            for v, o in obs.items():
                board.board_view(o, actions.get(v, []), v)
        keys = [*board._SHEETS, *board._act_parts.got, *(key for _, key in board._PLAYER_KEYS.values())]
        assert len(board._SHEETS) > 3 and board._act_parts.got
        assert all(type(k) is bytes and not gc.is_tracked(k) for k in keys)
        # the drawings kept are str, or dicts of str: not tracked either
        assert not any(gc.is_tracked(parts) for parts in board._SHEETS.values())
    finally:
        gc.enable()
