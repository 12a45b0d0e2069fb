"""The kernel's per-decision bookkeeping (the legal-actions cache, the loose log cells) against plain
references over seeded games of every title: what ``apply`` returned is what the log reads back, and
the cached legal actions are what a fresh copy of the state is offered.

References: the log is the set-up's events followed by every list ``apply`` returned, in order (the
State protocol's definition of the log); a state's legal actions are those a clone, which caches
nothing, asks its game for; an action given by id or as an equal Action made elsewhere is the
offered action of that id.
"""

from __future__ import annotations

import random

import pytest

import dicetable
from dicetable import load_state
from dicetable.engine import Action

TITLES = ["biblios-dice", "corsairs-of-valeria", "dice-kingdoms-of-valeria", "kingdom-of-dice",
          "valeria-card-kingdoms"]


def _events_json(events) -> list[dict]:
    return [e.to_json() for e in events]


@pytest.mark.parametrize("game_id", TITLES)
def test_the_log_reads_back_the_setup_and_every_event_apply_returned(game_id: str) -> None:
    for seed in (3, 11):
        state = dicetable.new_game(game_id, 2, seed=seed)
        expected = list(state.log)  # the set-up's events
        assert expected, "every title logs its set-up"
        rng = random.Random(seed)
        steps = 0
        while not state.is_over and steps < 400:
            seat = rng.choice(state.to_move)
            expected += state.apply(rng.choice(state.legal_actions(seat)), seat)
            steps += 1
            if steps % 37 == 0:  # mid-game: the tail read apart, and a clone's log the same
                assert list(state.event_log(5)) == expected[-5:]
                assert state.clone().log == expected
        assert state.log == expected
        assert list(state.event_log()) == expected and state.event_log() == expected
        assert _events_json(state.log) == state.to_dict()["log"] == _events_json(expected)
        for seat in (None, 0, 1):
            assert state.log_for(seat) == [e for e in expected if e.visible_to(seat)]
        loose = state.event_log()
        assert loose.loose_count() == len(expected)  # apply logs loose
        state.compact_log()
        assert state.event_log().loose_count() == 0
        assert state.log == expected and state.event_log() == loose
        for seat in (None, 0, 1):
            assert state.log_for(seat) == [e for e in expected if e.visible_to(seat)]
        again = load_state(state.to_dict())
        assert again.log == expected and again.history == state.history


@pytest.mark.parametrize("game_id", TITLES)
def test_cached_legal_actions_are_what_a_fresh_copy_is_offered(game_id: str) -> None:
    state = dicetable.new_game(game_id, 2, seed=5)
    rng = random.Random(5)
    steps = 0
    while not state.is_over and steps < 300:
        to_move = state.to_move
        for seat in reversed(to_move):  # every seat to move, the last first (the cache's second slot)
            offered = state.legal_actions(seat)
            assert type(offered) is tuple and offered
            assert state.legal_actions(seat) is offered  # cached until the next apply
            assert offered == state.clone().legal_actions(seat)  # a clone caches nothing: asks the game
        for seat in range(2):
            if seat not in to_move:
                assert state.legal_actions(seat) == ()
        seat = rng.choice(to_move)
        offered = state.legal_actions(seat)
        action = rng.choice(offered)
        # The same decision given as the offered Action, as an equal Action made elsewhere, and by id.
        by_copy, by_id = state.clone(), state.clone()
        state.apply(action, seat)
        by_copy.apply(Action(action.id, action.label, action.payload), seat)
        by_id.apply(action.id, seat)
        assert by_copy.to_dict() == state.to_dict() == by_id.to_dict()
        steps += 1
    assert steps > 20


def test_forget_legal_actions_asks_the_game_again_with_the_same_answer() -> None:
    state = dicetable.new_game("kingdom-of-dice", 2, seed=2)
    seat = state.to_move[0]
    first = state.legal_actions(seat)
    state.forget_legal_actions()
    second = state.legal_actions(seat)
    assert second == first  # (a game may hand out its memo's very tuple again)
    with pytest.raises(dicetable.SeatError):
        state.legal_actions(-1)  # a negative seat is refused, never the empty slot of the cache
    with pytest.raises(dicetable.SeatError):
        state.apply(first[0], -1)
