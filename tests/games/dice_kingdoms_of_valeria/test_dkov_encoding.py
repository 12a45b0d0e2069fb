"""Dice Kingdoms' direct fill and its memos: every vector equals the dictionary encoding's.

The fill keeps three memos (docs/compiled.md, "Dice Kingdoms' fill: one run for the sheets"): a
row per distinct sheet, the sheets' run per rows in the observer's order, and per state object
what its last fill read (copies of its sheets and its Statue deck). The reference here is always
:meth:`Encoding.encode` of ``observation(seat)``, the dictionary encoding, never the fill itself:
on states whose memos hit (the same state again, the other seat's view of it), miss (a step
changed a sheet in place) and were emptied (``clear_shared_memos``), into each kind of output.
"""

from __future__ import annotations

import random
from array import array
from typing import Any

import pytest

import dicetable
from dicetable.engine.encoding import clear_shared_memos

GAME = "dice-kingdoms-of-valeria"
CONFIGS = [(2, {}), (3, {"sheets": "winter"}), (1, {}), (4, {})]


def _check(enc: Any, state: Any, seat: int | None) -> None:
    """The fill into a list (exact floats), a float32 memoryview and, where numpy is installed, a
    float64 and a float32 array equals the dictionary encoding of ``observation(seat)``."""
    slow = enc.encode(state.observation(seat))
    assert enc.encode_state(state, seat) == slow  # a list: the very floats
    buffer = array("f", bytes(4 * enc.size))
    enc.direct(state, seat, memoryview(buffer))
    assert list(buffer) == list(array("f", slow))  # float32: the same roundings
    try:
        import numpy as np
    except ImportError:  # the base install has no numpy
        return
    wide = np.zeros(enc.size, np.float64)
    assert enc.encode_state(state, seat, wide).tolist() == slow  # doubles stay doubles
    narrow = np.zeros(enc.size, np.float32)
    assert np.array_equal(enc.encode_state(state, seat, narrow), np.asarray(slow, np.float32))


@pytest.mark.parametrize("players,options", CONFIGS)
def test_hits_misses_and_emptied_memos_give_the_dictionary_vector(players: int, options: dict) -> None:
    """One state object stepped in place (as the environments step it), every seat and the
    spectator filled twice at each position, the memos emptied every few steps."""
    enc = dicetable.get_game(GAME).observation_encoding(players, options)
    state = dicetable.new_game(GAME, players, seed=7, options=options)
    rng = random.Random(7)
    clear_shared_memos()
    held = 0
    for step in range(150):
        for seat in [*range(players), None]:
            _check(enc, state, seat)  # the first fill of this position from this seat
            _check(enc, state, seat)  # the same again: every memo hits
        if step % 25 == 24:
            held += clear_shared_memos()  # emptied in place: the next fills work everything out
        if state.is_over:
            break
        seat = rng.choice(state.to_move)
        state.apply(rng.choice(state.legal_actions(seat)), seat)  # in place: a sheet may change
    assert held > 0


def test_copies_and_a_changed_sheet_give_the_dictionary_vector() -> None:
    """A copy of a filled state (a new object: its record is new, its sheets' rows hit), a sheet
    changed by hand in place after a fill (the record's copy no longer equals it), and a state
    whose sheets were swapped between seats (the same rows in another order: another run)."""
    enc = dicetable.get_game(GAME).observation_encoding(2, {})
    state = dicetable.new_game(GAME, 2, seed=3)
    rng = random.Random(3)
    for _ in range(40):
        seat = rng.choice(state.to_move)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    for seat in (0, 1, None):
        _check(enc, state, seat)
    copy = state.clone()
    for seat in (0, 1, None):
        _check(enc, copy, seat)
    sheet = state.sheets[1]
    sheet[0] = 2 if sheet[0] != 2 else 1  # a Citizen section's marks, changed in place
    for seat in (0, 1, None):
        _check(enc, state, seat)
    state.sheets.reverse()  # the same two sheets, seats swapped
    for seat in (0, 1, None):
        _check(enc, state, seat)
