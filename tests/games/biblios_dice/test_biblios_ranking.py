"""The places on a Resource Track (rulebook Scoring): further up first, then the marker that arrived
first; the first place scores twice the Value Die, the second its value, the third half of it
rounded up. The compiled build ranks by an insertion sort and reads the VPs from a table
(``rules.consts.PLACE_VP``); these tests hold both to the rulebook and to the sort of the pure build."""

from __future__ import annotations

import pytest

from dicetable.engine import Rng
from dicetable.engine.playout import play_random
from dicetable.games.biblios_dice.components import PLACES_FROM, RESOURCES, VALUE_MAX, VALUE_MIN
from dicetable.games.biblios_dice.rules import scoring
from dicetable.games.biblios_dice.rules.consts import PLACE_VP

from .helpers import TRACK, game, put


def test_place_vps_are_twice_the_die_the_die_and_half_rounded_up():
    # rulebook Scoring: 1st place x2, 2nd place x1, 3rd place x1/2 rounded up
    for pips in range(VALUE_MIN, VALUE_MAX + 1):
        assert PLACE_VP[pips] == (2 * pips, pips, (pips + 1) // 2)
    assert PLACE_VP[5] == (10, 5, 3)


def test_further_up_first_then_earlier_arrival_and_three_places_score():
    s = game(4)
    track = RESOURCES[0]
    t = TRACK[track]
    s.value[t] = 5
    put(s, 0, track, PLACES_FROM + 1)
    put(s, 1, track, PLACES_FROM + 3)
    put(s, 2, track, PLACES_FROM + 1)          # on seat 0's space, arrived later: behind it
    put(s, 3, track, PLACES_FROM + 1)          # later still: fourth, no VPs
    assert s._ranked(t)[:4] == [1, 0, 2, 3]
    points = s._track_points(t)
    assert points[:4] == [5, 10, 3, 0]


@pytest.mark.pure_build
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_insertion_sort_ranks_as_the_sort_of_the_pure_build(monkeypatch, players):
    """Every track of states along seeded random games: the compiled build's ranking (switched on
    here in the pure build) gives the pure build's order."""
    checked = 0
    for seed in range(12):
        s = game(players, seed=seed)
        rng = Rng(seed)
        while not s.is_over:
            for t in range(len(s.value)):
                monkeypatch.setattr(scoring, "_NATIVE", False)
                want = s._ranked(t)
                monkeypatch.setattr(scoring, "_NATIVE", True)
                assert s._ranked(t) == want
                checked += 1
            play_random(s, rng, limit=1)
    assert checked > 500
