"""Places at the end of Valeria: Card Kingdoms (R8.6, rulebook: the End Phase): most VP, then the
fewest cards in the tableau; a tie beyond that is shared."""

from __future__ import annotations

from dicetable.games.valeria_card_kingdoms.rules import P_OVER
from dicetable.engine import places

from vck_helpers import give, keep_dukes, new, set_res


def finished(totals, extra_cards):
    """A game over where seat ``n`` scores ``totals[n]`` with ``extra_cards[n]`` more Clerics in its tableau."""
    s = new(len(totals))
    keep_dukes(s)
    for seat, n in enumerate(extra_cards):
        give(s, seat, "Cleric", n)
    s.phase = P_OVER
    for seat, total in enumerate(totals):
        set_res(s, seat, vp=s.res[seat * 4 + 3] + total - s.score(seat))
    assert s.scores == list(totals)
    return s


def test_most_vp_then_fewest_tableau_cards():
    s = finished([30, 30, 40], [2, 1, 0])
    assert s.tableau_size(0) == s.tableau_size(1) + 1
    assert places(s) == (3, 2, 1)


def test_equal_vp_and_tableau_share_a_place():
    assert places(finished([30, 30, 12, 30], [1, 1, 0, 4])) == (1, 1, 4, 3)
