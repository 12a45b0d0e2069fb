"""The observation helpers the Kingdom of Dice views share (viewdata.py), against the rulebook."""

from __future__ import annotations

from dicetable import new_game
from dicetable.games.kingdom_of_dice import viewdata as vd
from dicetable.games.kingdom_of_dice.viewdata import Observation

GAME = "kingdom-of-dice"


def test_observation_schema_names_every_field_the_game_gives():
    for players, options in ((1, {"cat_level": 1}), (3, {})):
        obs = new_game(GAME, players, seed=2, options=options).observation(0)
        declared = set(Observation.__annotations__)
        assert set(obs) <= declared
        assert declared - set(obs) <= ({"cat"} if players > 1 else set())
        if players == 1:
            assert set(obs["cat"]) == set(vd.CatView.__annotations__)
        assert set(obs["market"][0]) == set(vd.MarketCard.__annotations__)


def test_preview_space_slides_down_to_the_next_free_space():
    # Rulebook step 3: a result of 10 with spaces 10 and 9 taken goes to space 8.
    obs = dict(new_game(GAME, 3, seed=2).observation(0), board={"10": 1, "9": 2},
               kept=["crown", "crown", 1, 2, 2], result_value=10)
    assert vd.preview_space(obs) == 8
    assert vd.target_space(obs) is None           # nothing waits to be placed yet
    assert vd.owners(obs)[8:10] == [2, 1] and vd.markers_on_board(obs) == 2
    # End of a Round: the marker on the highest space takes the best card.
    assert vd.claims(obs) == [1, 2]


def test_why_not_valid_names_the_missing_conditions():
    # Rulebook step 2: a crown and a number; 2s in twos, 3s in threes, 4s in fours; at most one 5.
    assert vd.why_not_valid([0, 1, 0, 0, 0, 0]) == "needs a crown"
    assert vd.why_not_valid([1, 0, 0, 2, 0, 0]) == "needs 1 more 3"
    assert vd.why_not_valid([1, 0, 0, 0, 0, 2]) == "more than one 5 can never be valid"
    assert vd.why_not_valid([1, 0, 0, 0, 0, 0]) == "needs a number"


def test_names_and_cards():
    assert vd.owner_name(1) == "Player 2 (blue)" and vd.owner_name("cat") == "the Mischievous Cat"
    assert vd.owner_short(3) == "P4" and vd.owner_short("cat") == "Cat"
    assert vd.seat_order({"won": [[], [], []]}, 2) == [2, 0, 1]
    assert vd.short_card("influence-9a") == "9"
    assert vd.short_card("queen") == "Queen 12" and vd.card_value("king") == 15
    assert vd.special_round("king") == 3 and vd.special_round("influence-1a") is None
