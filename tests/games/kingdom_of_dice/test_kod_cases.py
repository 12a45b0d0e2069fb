"""Kingdom of Dice: the rulebook's worked examples KOD-1..KOD-9 as tests."""

from __future__ import annotations

import pytest

from dicetable import IllegalActionError, new_game
from dicetable.games.kingdom_of_dice.components import CARD_VALUE, CARDS, CAT_LEVELS, SPACES
from dicetable.games.kingdom_of_dice.rules import CAT, EMPTY, result_value

C = "crown"
FACES = (C, 1, 2, 3, 4, 5)


def counts(*faces):
    """(1, 2, 2, C, C) -> the 6-list of counts the rules use."""
    out = [0] * 6
    for f in faces:
        out[FACES.index(f)] += 1
    return out


def keep(state, *faces):
    for f in faces:
        state.apply(f"keep:{f}")


def occupy(state, space, owner):
    state.board[SPACES.index(space)] = owner


def marker_at(state, space):
    return state.board[SPACES.index(space)]


def test_KOD_1_value_is_sum_times_crowns():
    state = new_game("kingdom-of-dice", 2, seed=1, dice=[1, 2, 2, C, C, 4])
    keep(state, 1, 2, 2, C, C)
    state.apply("stop")
    assert state.decision(0).kind == "place"
    assert SPACES[state.target] == 10          # (1 + 2 + 2) x 2
    state.apply("place")
    assert marker_at(state, 10) == 0
    assert state.to_move == (1,)


def test_KOD_2_occupied_spaces_push_the_marker_down():
    state = new_game("kingdom-of-dice", 2, seed=1, dice=[1, 2, 2, C, C, 4])
    occupy(state, 10, 1)
    occupy(state, 9, 1)
    keep(state, 1, 2, 2, C, C)
    state.apply("stop")
    state.apply("place")
    assert marker_at(state, 8) == 0


def test_KOD_2_no_free_lower_space_makes_the_result_invalid():
    state = new_game("kingdom-of-dice", 3, seed=1, dice=[1, 2, 2, C, C, 4])
    for space in range(1, 11):
        occupy(state, space, 1 + space % 2)
    keep(state, 1, 2, 2, C, C)
    state.apply("stop")
    assert state.to_move == (1,)                  # no placement offered, the turn passed
    assert [marker_at(state, s) for s in range(11, 33)] == [EMPTY] * 22
    assert state.placed[0] == 0


def test_KOD_3_stopping_early_counts_only_dice_set_aside():
    state = new_game("kingdom-of-dice", 2, seed=1, dice=[3, 3, C, 1, 5, 2, 3, 3, 4])
    keep(state, 3, 3, C)
    state.apply("reroll")
    assert sorted(state.observation(0)["roll"], key=str) == [3, 3, 4]
    keep(state, 3, 3)
    state.apply("stop")
    assert result_value(state.kept) == 12          # (3+3+3+3) x 1; the 4 does not count
    assert SPACES[state.target] == 12


def test_KOD_4_forced_invalid_when_every_choice_holds_two_fives():
    state = new_game("kingdom-of-dice", 2, seed=1, dice=[1, 5, C, C, 3, 4, 5, 5])
    keep(state, 1, 5, C, C)
    assert result_value(state.kept) == 12          # worth 12 if stopping now
    state.apply("reroll")
    assert [a.id for a in state.legal_actions(0)] == ["keep:5"]   # must set one aside
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply("stop")                        # no stopping before setting a die aside
    assert state.to_dict() == before
    state.apply("keep:5")
    assert state.to_move == (1,)                   # turn over, no marker placed
    assert state.placed == [0, 0]
    assert state.log[-2].kind == "invalid"


@pytest.mark.parametrize("faces, value", [
    ((2, C), None), ((2, 2, C), 4), ((4, 4, 4, C), None), ((4, 4, 4, 4, C), 16),
    ((5, 5, C), None), ((5, C), 5), ((1, C), 1), ((1, 1, 1, 1, C), 4),
    ((3, 3, C), None), ((3, 3, 3, C, C), 18), ((C, C), None), ((1, 2, 2), None),
    ((1, 5, C, C), 12), ((2, 2, 2, 5, C), 11),
])
def test_KOD_5_validity_table(faces, value):
    assert result_value(counts(*faces)) == value


def test_KOD_6_a_valid_result_may_be_declined():
    state = new_game("kingdom-of-dice", 2, seed=1, dice=[1, 2, 2, C, C, 4])
    keep(state, 1, 2, 2, C, C)
    state.apply("stop")
    state.apply("decline")
    assert state.placed == [0, 0] and EMPTY == marker_at(state, 10)
    assert state.to_move == (1,)


def _place_result_of_ten(state):
    """Play the current turn with scripted dice 1,2,2,C,C,4 and place."""
    keep(state, 1, 2, 2, C, C)
    state.apply("stop")
    state.apply("place")


def test_KOD_7_seventh_marker_ends_the_round_and_cards_go_highest_first():
    state = new_game("kingdom-of-dice", 3, seed=2, dice=[1, 2, 2, C, C, 4])
    market = list(state.market)
    assert CARDS[market[0]].name == "Chancellor"           # round 1 adds the Chancellor
    assert [CARD_VALUE[c] for c in market] == sorted((CARD_VALUE[c] for c in market), reverse=True)
    for space, owner in ((30, 1), (20, 2), (18, 1), (12, 2), (5, 1), (3, 2)):
        occupy(state, space, owner)
    state.placed[1] = 3
    state.placed[2] = 3
    _place_result_of_ten(state)                             # Player 1 places the 7th marker on 10
    assert state.round_no == 2
    # Highest marker takes the best card, and so on down.
    # Spaces 30 (P2), 20 (P3), 18 (P2), 12 (P3), 10 (P1), 5 (P2), 3 (P3).
    assert state.won[1] == [market[0], market[2], market[5]]
    assert state.won[2] == [market[1], market[3], market[6]]
    assert state.won[0] == [market[4]]
    assert all(o == EMPTY for o in state.board)             # markers return
    assert any(CARDS[c].name == "Queen" for c in state.market)  # round 2 adds the Queen
    assert state.first == 1                                  # left of the player who ended it
    assert state.to_move == (1,)


def test_KOD_7_fifth_marker_ends_the_round_and_leftover_cards_are_removed():
    state = new_game("kingdom-of-dice", 2, seed=2, dice=[1, 2, 2, C, C, 4])
    for space in (30, 25, 20, 15):
        occupy(state, space, 0)
    state.placed[0] = 4
    market = list(state.market)
    deck_before = len(state.deck)
    _place_result_of_ten(state)                              # fifth marker, only 5 on the board
    assert state.round_no == 2
    assert state.won[0] == market[:5]
    assert state.won[1] == []
    removed = [e for e in state.log if e.kind == "removed"]
    assert removed and removed[-1].data["cards"] == [CARDS[c].id for c in market[5:]]
    assert len(state.deck) == deck_before - 6               # six new cards drawn, none returned


def test_KOD_7_three_rounds_with_the_chancellor_queen_and_king():
    from dicetable.bots import GreedyBot, play_out
    state = new_game("kingdom-of-dice", 2, seed=5)
    rounds = []
    while not state.is_over:
        if state.market and state.round_no not in [r for r, _ in rounds]:
            rounds.append((state.round_no, {CARDS[c].name for c in state.market}))
        seat = state.to_move[0]
        state.apply(GreedyBot(1).choose(state, seat), seat)
    assert [r for r, _ in rounds] == [1, 2, 3]
    assert "Chancellor" in rounds[0][1] and "Queen" in rounds[1][1] and "King" in rounds[2][1]
    assert state.deck == []                                  # all 18 regular cards were drawn


def _finished(won):
    state = new_game("kingdom-of-dice", len(won), seed=1)
    index = {c.id: i for i, c in enumerate(CARDS)}
    state.won = [[index[c] for c in cards] for cards in won]
    state.end_game()                         # the game is over (no task pending)
    return state


def test_KOD_8_tie_broken_by_the_highest_card_then_the_next():
    # 15 points each: the King (15) beats 9+6.
    assert _finished([["king"], ["influence-9a", "influence-6a"]]).winners == (0,)
    # 27 each, same best card (15): the next card decides (12 > 9+3).
    state = _finished([["king", "influence-9a", "influence-3a"], ["king", "queen"]])
    assert state.scores == [27, 27] and state.winners == (1,)
    # Identical values: a shared victory.
    assert _finished([["influence-4a"], ["influence-4b"]]).winners == (0, 1)
    # Most points first of all.
    assert _finished([["influence-9a", "influence-2a"], ["queen"]]).winners == (1,)


def test_KOD_9_solo_cat_markers_start_on_the_level_spaces_and_stay():
    state = new_game("kingdom-of-dice", 1, seed=3, options={"cat_level": 1})
    assert CAT_LEVELS[1] == (5, 10, 15)
    assert [s for i, s in enumerate(SPACES) if state.board[i] == CAT] == [5, 10, 15]
    from dicetable.bots import GreedyBot
    bot = GreedyBot(2)
    while state.round_no == 1:
        state.apply(bot.choose(state, 0), 0)
    assert len(state.cat_won) == 3                               # the Cat's three markers took cards
    assert [s for i, s in enumerate(SPACES) if state.board[i] == CAT] == [5, 10, 15]


def test_KOD_9_solo_invalid_result_costs_a_marker_and_round_ends_after_five_turns():
    # Five turns, each forced invalid at once: crown, crown, 5, 5 -> keep both 5s.
    dice = [5, 5, C, C, 1, 1] * 5
    state = new_game("kingdom-of-dice", 1, seed=3, options={"cat_level": 1}, dice=dice)
    for turn in range(5):
        assert state.round_no == 1
        state.apply("keep:5")
        state.apply("keep:5")
    assert state.round_no == 2
    assert state.won[0] == [] and len(state.cat_won) == 3        # the Cat took the three best
    spent = [e for e in state.log if e.kind == "marker-set-aside"]
    assert len(spent) == 5


def test_KOD_9_solo_round_ends_at_seven_markers():
    state = new_game("kingdom-of-dice", 1, seed=3, options={"cat_level": 1}, dice=[1, 2, 2, C, C, 4])
    for space in (30, 25, 20):
        occupy(state, space, 0)
    state.placed[0] = 3                                          # 3 Cat + 3 player markers
    _place_result_of_ten(state)                                  # 10 is the Cat's: goes to 9
    assert state.round_no == 2
    values = sorted(CARD_VALUE[c] for c in state.won[0])
    assert len(state.won[0]) == 4 and len(state.cat_won) == 3


def test_solo_player_must_beat_the_cat_outright():
    state = new_game("kingdom-of-dice", 1, seed=1)
    index = {c.id: i for i, c in enumerate(CARDS)}
    state.end_game()                         # the game is over (no task pending)
    state.won = [[index["king"]]]
    state.cat_won = [index["influence-9a"], index["influence-6a"]]
    assert state.winners == (0,)
    state.cat_won = [index["king"]]
    state.won = [[index["influence-9a"], index["influence-6a"]]]
    assert state.winners == ()
    state.won = [[index["influence-4a"]]]
    state.cat_won = [index["influence-4b"]]
    assert state.winners == ()                                   # a complete tie is no win


def test_turn_ends_when_no_roll_can_make_the_result_valid():
    # A 4 and a 2 set aside need three more 4s and another 2: five dice, but only two remain.
    state = new_game("kingdom-of-dice", 2, seed=1, dice=[4, 1, C, 2, 3, 5])
    keep(state, C, 4, 1)
    assert state.to_move == (0,)        # three dice left: three more 4s could still come
    state.apply("keep:2")
    assert state.to_move == (1,)        # two dice left cannot fix both: the turn ended
    assert state.placed == [0, 0]
    assert any(e.kind == "invalid" and e.seat == 0 for e in state.log)
