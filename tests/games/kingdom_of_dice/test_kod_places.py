"""Places at the end of Kingdom of Dice (rulebook: End of the Game and Winner): the highest score,
then the highest Influence card, then the second highest, and so on; identical hands share."""

from __future__ import annotations

from dicetable.engine import new_game, places
from dicetable.games.kingdom_of_dice.components import CARDS


def finished(won, **options):
    """A game over in which seat ``n`` won the Influence cards ``won[n]`` (card ids)."""
    state = new_game("kingdom-of-dice", len(won), seed=1, options=options)
    index = {c.id: i for i, c in enumerate(CARDS)}
    state.won = [[index[c] for c in cards] for cards in won]
    state.end_game()
    return state


def test_score_then_highest_card_then_the_next():
    # 15, 15 and 27: the 27 first; of the two 15s the King (15) beats 9 + 6
    assert places(finished([["influence-9a", "influence-6a"], ["king"], ["king", "queen"]])) == (3, 2, 1)
    # 27 and 27 below a 32: the higher best card (15 against 12) comes first
    state = finished([["king", "influence-9a", "influence-3a"], ["queen", "chancellor", "influence-5a"],
                      ["influence-9b", "influence-8a", "influence-8b", "influence-7a"]])
    assert state.scores == [27, 27, 32]
    assert places(state) == (2, 3, 1)
    # 27 each, the same best (10) and second (9) cards: the third decides (8 against 5)
    state = finished([["chancellor", "influence-9a", "influence-8a"], ["influence-1a"],
                      ["chancellor", "influence-9b", "influence-5a", "influence-3a"]])
    assert places(state) == (1, 3, 2)


def test_identical_values_share_a_place():
    assert places(finished([["influence-4a"], ["influence-4b"], ["influence-2a"]])) == (1, 1, 3)
    assert places(finished([["queen"], ["influence-4a"], ["influence-4b"]])) == (1, 2, 2)


def test_solo_a_win_against_the_cat_is_first_a_loss_second():
    state = finished([["king"]])
    state.cat_won = []
    assert state.winners == (0,) and places(state) == (1,)
    state.cat_won = list(state.won[0])               # a complete tie with the Cat is not a win
    assert state.winners == () and places(state) == (2,)
