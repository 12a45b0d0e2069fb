"""``asked``: the decision of a seat to move, and a clear bug report when a game has none."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import dicetable
from dicetable.cli.play import asked


def test_asked_returns_the_decision_of_the_seat_to_move():
    state = dicetable.new_game("kingdom-of-dice", 2, seed=3)
    seat = state.to_move[0]
    decision = asked(state, seat)
    assert decision == state.decision(seat)
    assert decision.seat == seat and decision.prompt


def test_asked_names_the_game_and_seat_when_a_game_breaks_the_promise():
    broken = SimpleNamespace(game_id="kingdom-of-dice", decision=lambda seat: None)
    with pytest.raises(RuntimeError, match=r"kingdom-of-dice: Player 2 is to move but the game asks no decision"):
        asked(broken, 1)  # a stand-in for a faulty game
