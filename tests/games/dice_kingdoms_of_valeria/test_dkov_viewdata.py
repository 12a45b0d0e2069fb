"""The observation schema (viewdata.Observation) names exactly the fields an observation has."""

from __future__ import annotations

from typing import get_type_hints

import pytest

from dicetable.engine import new_game
from dicetable.games.dice_kingdoms_of_valeria import viewdata as vd

GAME = "dice-kingdoms-of-valeria"


@pytest.mark.parametrize("players", [1, 3])
def test_the_schema_lists_every_field_of_an_observation_and_no_other(players):
    state = new_game(GAME, players, seed=4)
    for seat in (None, 0):
        obs = state.observation(seat)
        required = vd.Observation.__required_keys__
        optional = vd.Observation.__optional_keys__
        assert required <= set(obs) <= required | optional
        assert ("my_tasks" in obs) == (seat is not None) and ("solo" in obs) == (players == 1)
        pl = obs["players"][0]
        assert set(pl) == set(get_type_hints(vd.PlayerSheets))
        assert set(pl["score"]) == set(get_type_hints(vd.ScoreView))
        assert set(next(iter(pl["citizens"].values()))) == set(get_type_hints(vd.CitizenView))
        assert set(next(iter(pl["lairs"].values()))) == set(get_type_hints(vd.LairView))
        assert set(next(iter(pl["roads"].values()))) == set(get_type_hints(vd.RoadView))
        assert set(obs["dice"]) == set(get_type_hints(vd.Dice))
        if players == 1:
            assert set(obs["solo"]) == set(get_type_hints(vd.SoloView))


def test_the_helpers_read_the_dice_phase_and_cards_as_the_rulebook_orders_them():
    state = new_game(GAME, 1, seed=4)
    obs = state.observation(0)
    d = obs["dice"]
    # Roll Phase: two black dice, then Yellow, Red, Green and Blue.
    assert vd.dice_faces(obs) == [*d["black"], d["yellow"], d["red"], d["green"], d["blue"]]
    assert vd.statue_card("12-night") == (12, "night")
    assert vd.viewer_of(obs, 0) == 0 and vd.viewer_of(obs, 3) is None and vd.viewer_of(obs, None) is None
    solo = dict(obs, phase="harvest", solo=dict(obs["solo"], second_harvest=True, heavy_rain=True))
    assert vd.phase_name(solo) == "2nd Harvest" and vd.solo_flags(solo) == (True, True, False)
    assert vd.phase_name(dict(obs, phase="action")) == "Action phase"
