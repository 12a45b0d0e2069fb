"""Places at the end of Corsairs of Valeria (rulebook: Ending the Game): most Treasure, then most
Silver, then most Grog; players still tied share (the victory, and so any place)."""

from __future__ import annotations

import pytest

from dicetable.engine import places
from dicetable.games.corsairs_of_valeria.rules import OVER

from .corsairs_testkit import game


def finished(*seats):
    """A game over with (Treasure, Silver, Grog) per seat, ended on Skull Island (no 6th Treasure)."""
    s = game(players=len(seats))
    for n, (treasure, silver, grog) in enumerate(seats):
        s.treasure[n], s.silver[n], s.grog[n] = treasure, silver, grog
    s.phase = OVER
    return s


@pytest.mark.parametrize("seats, expected", [
    (((3, 0, 0), (2, 4, 4), (1, 9, 9)), (1, 2, 3)),                # most Treasure
    (((2, 1, 0), (2, 3, 0), (0, 0, 0)), (2, 1, 3)),                # then most Silver
    (((2, 1, 4), (2, 1, 3), (2, 1, 5), (4, 0, 0)), (3, 4, 2, 1)),  # then most Grog, below the winner too
    (((2, 1, 3), (2, 1, 3), (1, 0, 0)), (1, 1, 3)),                # still tied: shared victory, next is 3rd
    (((5, 0, 0), (1, 2, 2), (1, 2, 2), (0, 0, 0)), (1, 2, 2, 4)),  # a shared 2nd place
])
def test_places_follow_treasure_silver_grog(seats, expected):
    assert places(finished(*seats)) == expected


def test_a_sixth_treasure_wins_first_place():
    s = finished((6, 0, 0), (5, 4, 4), (5, 4, 3))
    s.winner6 = 0
    assert places(s) == (1, 2, 3)
