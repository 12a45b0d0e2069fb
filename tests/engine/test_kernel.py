"""Kernel tests: the State protocol's promises on a toy game with secrets and simultaneous play."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

import dicetable
from dicetable.engine import (
    GameConfigError, IllegalActionError, Rng, SaveFormatError, ScriptedDiceError,
    load_state, new_game, run_replay,
)
from dicetable.engine.testing import check_conformance, check_determinize, random_playout

from .toy_game import SPEC  # noqa: F401  (registers the toy games)

TOY = "toy-secret-high-card"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**63), players=st.integers(2, 3))
def test_toy_game_passes_conformance(seed, players):
    state = check_conformance(TOY, players, seed)
    assert sum(state.scores) == 3  # three tricks, one point each (ties go to the first highest)


def test_simultaneous_seats_act_in_any_order():
    a = new_game(TOY, 3, seed=5)
    b = new_game(TOY, 3, seed=5)
    assert a.to_move == (0, 1, 2)
    cards = [a.legal_actions(s)[0].id for s in range(3)]
    for s in (0, 1, 2):
        a.apply(cards[s], s)
    for s in (2, 0, 1):
        b.apply(cards[s], s)
    assert a.scores == b.scores and a.to_move == b.to_move == (0, 1, 2)


def test_seat_must_be_named_when_several_decide():
    state = new_game(TOY, 2, seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="several seats decide now"):
        state.apply(state.legal_actions(0)[0])
    assert state.to_dict() == before


def test_seat_that_already_acted_is_refused_with_reason():
    state = new_game(TOY, 2, seed=1)
    state.apply(state.legal_actions(0)[0].id, 0)
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="not Player 1's decision now; waiting for Player 2"):
        state.apply(state.legal_actions(1)[0].id, 0)
    assert state.to_dict() == before


def test_illegal_action_message_lists_legal_actions():
    state = new_game(TOY, 2, seed=3)
    hand = [a.id for a in state.legal_actions(0)]
    with pytest.raises(IllegalActionError) as info:
        state.apply("play:99", 0)
    message = str(info.value)
    assert "'play:99' is not a legal action for Player 1" in message
    assert all(aid in message for aid in hand)


def test_bad_seat_numbers_are_refused():
    state = new_game(TOY, 2, seed=3)
    for seat in (-1, 2, 7):
        with pytest.raises(IllegalActionError, match="there is no seat"):
            state.apply("play:1", seat)


def test_finished_game_refuses_everything():
    state = new_game(TOY, 2, seed=3)
    random_playout(state, Rng(1))
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply("play:1", 0)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply("play:1")


def test_private_events_are_visible_only_to_their_seat():
    state = new_game(TOY, 3, seed=11)
    deals = [e for e in state.log if e.kind == "deal"]
    assert len(deals) == 3
    for seat in range(3):
        mine = [e for e in state.log_for(seat) if e.kind == "deal"]
        assert [e.seat for e in mine] == [seat]
    assert [e for e in state.log_for(None) if e.kind == "deal"] == []


def test_leaky_observation_is_caught_by_the_determinize_check():
    state = new_game("toy-leaky-high-card", 2, seed=2)
    with pytest.raises(AssertionError, match="determinize"):
        check_determinize(state, seed=9)


def test_determinize_resamples_hidden_hands_but_not_own():
    state = new_game(TOY, 3, seed=4)
    seen = set()
    for k in range(20):
        det = state.determinize(0, k)
        assert det.hands[0] == state.hands[0]
        seen.add(tuple(det.hands[1]))
        assert det.history == [] and det.log == []
    assert len(seen) > 1


def test_scripted_dice_come_first_then_the_seed_continues():
    a = new_game(TOY, 2, seed=8, dice=["tails"])
    b = new_game(TOY, 2, seed=8, dice=["heads"])
    assert (a.coin, b.coin) == ("tails", "heads")
    assert a.scripted_dice_left == 0


def test_scripted_value_that_is_no_face_is_refused_up_front():
    with pytest.raises(GameConfigError, match="'edge' .* is not a face"):
        new_game(TOY, 2, seed=8, dice=["edge"])


def test_roll_checks_the_face_of_the_die_rolled():
    state = new_game(TOY, 2, seed=8)
    state._script, state._script_pos = (6,), 0
    from .toy_game import COIN
    with pytest.raises(ScriptedDiceError, match="not a face of the coin"):
        state.roll(COIN)


def test_registry_errors_name_what_is_allowed():
    with pytest.raises(GameConfigError, match="unknown game 'chess'; known games: .*kingdom-of-dice"):
        new_game("chess", 2)
    with pytest.raises(GameConfigError, match="for 2-3 players, not 5"):
        new_game(TOY, 5)
    with pytest.raises(GameConfigError, match="players must be a whole number"):
        new_game(TOY, "two")
    with pytest.raises(GameConfigError, match="has no option 'speed'"):
        new_game(TOY, 2, options={"speed": 3})
    with pytest.raises(GameConfigError, match="seed must be an integer"):
        new_game(TOY, 2, seed="abc")


def test_new_game_without_seed_records_a_fresh_one():
    a, b = new_game(TOY, 2), new_game(TOY, 2)
    assert isinstance(a.seed, int) and a.seed != b.seed
    assert load_state(a.to_dict()).seed == a.seed


def test_load_state_rejects_malformed_saves():
    good = new_game(TOY, 2, seed=1).to_dict()
    with pytest.raises(SaveFormatError, match="format"):
        load_state({**good, "format": 99})
    with pytest.raises(SaveFormatError, match="unknown game"):
        load_state({**good, "game": "nope"})
    broken = json.loads(json.dumps(good))
    del broken["state"]["hands"]
    with pytest.raises(SaveFormatError, match=r"state\.hands \(missing\)"):
        load_state(broken)
    with pytest.raises(SaveFormatError, match="malformed"):  # the trusted path still refuses it
        load_state(broken, verify=False)
    with pytest.raises(SaveFormatError, match="JSON object"):
        load_state([1, 2])


def test_replay_detects_a_different_outcome():
    state = new_game(TOY, 2, seed=21)
    random_playout(state, Rng(2))
    record = state.replay_record()
    assert run_replay(record).scores == state.scores
    record["scores"] = [s + 1 for s in record["scores"]]
    with pytest.raises(SaveFormatError, match="replay reached scores"):
        run_replay(record)
    bad = state.replay_record()
    bad["actions"][0][1] = "play:42"
    with pytest.raises(SaveFormatError, match="replay step 0"):
        run_replay(bad)


def test_top_level_package_exposes_the_protocol():
    state = dicetable.new_game("kingdom-of-dice", 2, seed=1)
    assert dicetable.load_state(state.to_dict()).to_dict() == state.to_dict()
    assert issubclass(dicetable.IllegalActionError, ValueError)


def test_determinize_that_depends_on_hidden_order_is_caught():
    from dicetable.engine.testing import check_determinize_ignores_hidden_state
    state = new_game("toy-unsorted-high-card", 3, seed=2)
    with pytest.raises(AssertionError, match="depends on hidden state"):
        check_determinize_ignores_hidden_state(state, seed=5)
    check_determinize_ignores_hidden_state(new_game(TOY, 3, seed=2), seed=5)


def test_chance_mark_changes_exactly_when_dice_are_rolled():
    from dicetable import new_game

    state = new_game("kingdom-of-dice", 1, seed=3)
    mark = state.chance_mark
    state.apply("keep:crown", 0)          # setting a die aside draws nothing
    assert state.chance_mark == mark
    state.apply("reroll", 0)              # the other five dice are rolled
    assert state.chance_mark != mark
    assert state.clone().chance_mark == state.chance_mark
