"""The Corsairs of Valeria observation schema (viewdata.Observation) and the helpers the views read it with."""

from __future__ import annotations

from typing import get_type_hints

from dicetable.games.corsairs_of_valeria.viewdata import (
    Observation,
    Pending,
    ShipView,
    left_to_execute,
    marked_dice,
    pending,
)

from .corsairs_testkit import CN, GR, MP, SK, game, play
from .corsairs_views_kit import sampled_states


def test_the_schema_names_every_field_of_the_observation_and_nothing_else():
    hints, ship_hints = get_type_hints(Observation), get_type_hints(ShipView)
    for players in (2, 5):
        for state in sampled_states(players, seed=3, every=11, limit=300):
            for seat in (None, 0):
                obs = state.observation(seat)
                assert set(obs) == set(hints)
                for ship in obs["ships"]:
                    assert set(ship) == set(ship_hints)


def test_pending_decodes_the_task_on_top():
    # 3 Cannons to fire (rulebook: Use Your Cannons)
    state = play(game(dice=[CN, CN, CN, GR, MP]), "lock", "cannons")
    assert pending(state.observation(None)) == Pending("cannons", 0, count=3)
    # 5 Skulls handed out: die 1 went to Player 3 (seat 2)
    state = play(game(players=3, dice=[SK] * 5), "lock", "give", "give:p3")
    assert pending(state.observation(None)) == Pending("give", 0, given=(2,))
    # phase B: dice marked for a re-roll, in dice order
    state = play(game(dice=[SK, SK, CN, MP, GR]), "mark:2", "mark:5")
    obs = state.observation(None)
    assert marked_dice(obs) == [False, True, False, False, True]
    assert pending(obs) == Pending("reroll", 0)


def test_left_to_execute_names_the_groups_in_rulebook_words():
    state = play(game(dice=[GR, GR, MP, CN, CN]), "lock")
    assert left_to_execute(state.observation(None)) == ["2 Grog", "1 Map", "2 Cannons"]
