"""Places at the end of Biblios Dice (rulebook: Determining a Winner): most VPs, then most Gold left,
then further up the Bishop Track (on one space, the marker further left, which arrived first)."""

from __future__ import annotations

from dicetable.engine import places
from dicetable.games.biblios_dice.rules import OVER

from .helpers import game, put


def finished(totals, gold):
    """A 3- or 4-player game ended with these VP totals and Gold left (VP tokens make up the totals)."""
    s = game(len(totals))
    rows = s.breakdown()
    for row, total, left in zip(rows, totals, gold):
        row["tokens"] += total - row["total"]
        row["total"], row["gold_left"] = total, left
    s.final, s.phase = rows, OVER
    return s


def test_most_vps_then_gold_left_orders_every_place():
    s = finished([20, 20, 5, 31], [1, 3, 9, 0])
    assert places(s) == (3, 2, 4, 1)


def test_equal_vps_and_gold_go_by_the_bishop_track_so_no_place_is_shared():
    s = finished([20, 20, 20], [3, 3, 3])
    put(s, 0, "bishop", 3)
    put(s, 1, "bishop", 2)
    put(s, 2, "bishop", 2)                           # arrives after seat 1: seat 1's marker is further left
    assert places(s) == (1, 2, 3)
    assert s.winners == (0,)


def test_two_players_cadfael_takes_no_place():
    s = finished([12, 30], [0, 0])
    assert s.cad >= 0
    assert places(s) == (2, 1)
