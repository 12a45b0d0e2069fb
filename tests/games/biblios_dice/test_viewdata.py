"""Biblios Dice viewdata: the observation read in one place by the board, the terminal view and the encoding."""

from __future__ import annotations

import pytest

from dicetable.games.biblios_dice import viewdata

from .helpers import game, put


def test_spaces_and_rows_read_the_observation():
    state = game(3)
    put(state, 1, "ink", 6)
    obs = viewdata.observation(state.observation(1))
    # Rulebook Setup: every marker starts on the lowest space of the Bishop Track.
    assert viewdata.spaces_of(obs, "bishop") == {0: 1, 1: 1, 2: 1}
    assert viewdata.space_of(obs, "ink", 1) == 6
    assert viewdata.own_row(obs)["seat"] == 1 and "hand" in viewdata.own_row(obs)
    assert viewdata.own_row(state.observation(None)) == {}
    assert viewdata.mover_names(obs, 0) == ["you"] and viewdata.mover_names(obs, 1, short=True) == ["P1"]
    assert viewdata.marker_name("cadfael") == "Cadfael" and viewdata.marker_name(2) == "Player 3"


def test_cadfael_standing_follows_the_seats():
    obs = viewdata.observation(game(2).observation(None))
    assert viewdata.cadfael_standing(obs) is obs["standing"][2]
    assert viewdata.space_of(obs, "bishop", "cadfael") == 1


def test_last_auction_sentence():
    obs = dict(game(3).observation(None), phase="select",
               last_auction={"totals": [9, None, 4], "cadfael": None, "winner": 0, "second": 2, "penalized": [2]})
    assert viewdata.last_auction_text(obs) == \
        "Last auction: Player 1 bid 9, Player 3 bid 4; won by Player 1; overbid: Player 3"
    assert viewdata.last_auction_text(dict(obs, phase="bid")) == ""


def test_observation_refuses_another_shape():
    for bad in ({}, {"tracks": {}}, ["players"]):
        with pytest.raises(ValueError, match="not a Biblios Dice observation"):
            viewdata.observation(bad)
