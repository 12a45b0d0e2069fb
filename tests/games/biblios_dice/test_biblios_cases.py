"""Biblios Dice: the rulebook's worked examples BIB-1..BIB-11 as tests."""

from __future__ import annotations

import pytest

from dicetable.games.biblios_dice.components import FULL_HAND, MULE_FINAL, TOP, VALUE_MAX
from dicetable.games.biblios_dice.rules import OVER, SELECT

from .helpers import bid_round, game, phase_one, pos, put, to_market

SIX = ["scrolls", "scrolls", "manuscripts", "manuscripts", "pigments", "quills"]


# ---------------------------------------------------------------- BIB-1
def test_BIB_1_start_positions_by_seat():
    s = game(5)
    assert s.gold == [15, 16, 16, 17, 17]          # 15 each; 2nd +1, 3rd +1, 4th +2, 5th +2
    assert s.vp == [1, 1, 1, 1, 2]                 # a 1 VP token each; 5th +1 VP token
    assert pos(s, 2, "ink") == 2                   # 3rd: 1 Ink
    assert pos(s, 3, "scrolls") == 2               # 4th: 1 Scroll
    assert pos(s, 4, "manuscripts") == 2           # 5th: 1 Manuscript
    moved = {(2, "ink"), (3, "scrolls"), (4, "manuscripts")}
    for seat in range(5):
        for track in ("scrolls", "manuscripts", "pigments", "quills", "ink", "bishop"):
            if (seat, track) not in moved:
                assert pos(s, seat, track) == 1
    assert s.value == [3, 3, 3, 3, 3]              # Value Dice at 3
    assert s.first == 0                            # the first player holds the Monastery Card


def test_BIB_1_bishop_track_order_is_reverse_seat_order():
    s = game(4)
    order = sorted(range(4), key=s.bishop_key)     # ahead first (further left)
    assert order == [3, 2, 1, 0]                   # the last player far left, the first far right
    obs = s.observation(None)
    assert obs["tracks"]["bishop"][0] == [3, 2, 1, 0]


@pytest.mark.parametrize("players,dice", [(2, 6), (3, 6), (4, 7), (5, 7)])
def test_BIB_1_six_or_seven_resource_dice(players, dice):
    s = game(players)
    assert sum(s.pool[:6]) == dice


# ---------------------------------------------------------------- BIB-2
def test_BIB_2_dice_selection_round():
    # Filipe (seat 0), Becca (seat 1), Seth (seat 2). Mule Die 1; 3 Ink, 2 Manuscripts,
    # 1 Pigment, Gold 3, Adjustment "+1 to one die".
    s = game(3, phase_one(["ink", "ink", "ink", "manuscripts", "manuscripts", "pigments"], 3, 1, "+1"))
    s.apply("keep")
    assert s.phase == SELECT and s.mule == 1 and s.to_move == (0,)
    s.apply("take:ink")
    assert pos(s, 0, "ink") == 4                   # up 3 spaces
    assert s.vp[0] == 1 + 3                        # passed the VP stack: its top token, 3 VP
    assert s.to_move == (1,)
    s.apply("take:gold")
    assert s.gold[1] == 16 + 3
    s.apply("take:manuscripts")
    assert pos(s, 2, "manuscripts") == 3
    assert s.to_move == (0,)                       # Filipe gets another turn
    s.apply("take:adjustment")
    s.apply("raise:ink")
    assert s.value[4] == 4                         # the Ink Value Die 3 -> 4
    s.apply("take:pigments")
    assert pos(s, 1, "pigments") == 2
    assert s.first == 1                            # the Monastery Card passes to the left
    assert s.round_no == 2 and s.to_move == (1,)


# ---------------------------------------------------------------- BIB-3
def _auction_3p(bishop_setup=None):
    """Seth (seat 0, first player), Filipe (1), Becca (2): the rulebook's auction."""
    s = game(3, phase_one(SIX, 1, 1, "=3"))
    if bishop_setup:
        bishop_setup(s)
    to_market(s)
    for die in ("quills", "gold", "adjustment"):
        s.apply(f"small:{die}")
    assert s.phase == "bid" and set(s.to_move) == {0, 1, 2}
    bid_round(s, {0: 5, 1: 2, 2: 1})
    bid_round(s, {0: 2, 1: 5, 2: "pass"})
    assert set(s.to_move) == {0, 1}
    bid_round(s, {0: "pass", 1: "pass"})
    return s


def test_BIB_3_auction_tie_goes_to_the_bishop_leader_further_left():
    s = _auction_3p()                              # all on space 1; Filipe is left of Seth
    assert [sum(p) for p in s.played] == [7, 7, 1]
    assert s.phase == "choose-group" and s.to_move == (1,)
    assert s.gold[1] == 16 - 7                     # the winner pays his whole bid
    s.apply("group:large")                         # the group of 5
    for kind in ("scrolls", "manuscripts", "pigments"):
        s.apply(f"take:{kind}")
    assert (pos(s, 1, "scrolls"), pos(s, 1, "manuscripts"), pos(s, 1, "pigments")) == (3, 3, 2)
    assert s.to_move == (0,)
    assert s.gold[0] == 15 - 4                     # half of 7, rounded up
    s.apply("take:quills")
    s.apply("take:gold")
    assert s.gold[0] == 15 - 4 + 1
    s.apply("take:adjustment")
    s.apply("set3:ink")
    assert s.gold[2] == 16                         # Becca pays nothing, takes nothing
    assert s.first == 0                            # Seth keeps the Monastery Card
    assert s.mule == 0                             # the Mule returns to the first space
    assert s.hands == [FULL_HAND] * 3              # cards return to the hands
    assert s.round_no == 2


def test_BIB_3_tie_goes_to_the_player_higher_on_the_bishop_track():
    s = _auction_3p(lambda s: put(s, 0, "bishop", 2))   # now Seth is further up
    assert s.phase == "choose-group" and s.to_move == (0,)
    assert s.gold[0] == 15 - 7


# ---------------------------------------------------------------- BIB-4
def test_BIB_4_track_scoring_first_second_third():
    s = game(4)
    s.value[4] = 5                                 # Ink Value Die shows 5
    put(s, 0, "ink", 7)
    put(s, 1, "ink", 6)
    put(s, 2, "ink", 5)
    put(s, 3, "ink", 3)                            # below the 4th space: no place
    ink = [row["tracks"][4] for row in s.breakdown()]
    assert ink == [10, 5, 3, 0]


def test_BIB_4_only_the_fourth_space_and_up_place_and_ties_go_by_arrival():
    s = game(3)
    s.value[4] = 5
    put(s, 2, "ink", 4)                            # arrives first: ahead on the shared space
    put(s, 0, "ink", 4)
    put(s, 1, "ink", 3)
    ink = [row["tracks"][4] for row in s.breakdown()]
    assert ink == [5, 0, 10]


# ---------------------------------------------------------------- BIB-5
def test_BIB_5_gold_converts_at_the_best_ratio_reached():
    s = game(3)
    put(s, 0, "bishop", 6)                         # the 4:1 space (reconstructed layout)
    s.gold[0] = 10
    row = s.breakdown()[0]
    assert row["gold_vp"] == 2 and row["gold_left"] == 2
    put(s, 0, "bishop", 7)                         # passed 4:1, 3:1 not reached
    assert s.breakdown()[0]["gold_vp"] == 2
    put(s, 0, "bishop", 3)                         # fewer than 3 spaces up: no conversion
    assert s.breakdown()[0]["gold_vp"] == 0


# ---------------------------------------------------------------- BIB-6
def test_BIB_6_penalty_below_the_fourth_space():
    s = game(3)
    for track in ("scrolls", "manuscripts", "pigments", "quills"):
        put(s, 0, track, 4)
    put(s, 0, "ink", 2)                            # the second space shows -2
    assert s.breakdown()[0]["penalty"] == 2
    put(s, 0, "ink", 4)
    assert s.breakdown()[0]["penalty"] == 0


# ---------------------------------------------------------------- BIB-7
def _adjust_game(face, values):
    s = game(3, phase_one(SIX, 1, 2, face))
    s.value = list(values)
    s.apply("keep")
    s.apply("take:adjustment")
    return s


def test_BIB_7_all_ones_reset_to_three():
    s = _adjust_game("-1", [1, 1, 1, 1, 2])
    assert [a.id for a in s.legal_actions(0)] == ["lower:ink"]   # never below 1
    s.apply("lower:ink")
    assert s.value == [3, 3, 3, 3, 3]


def test_BIB_7_all_sixes_reset_to_three():
    s = _adjust_game("+1+1", [6, 6, 6, 5, 5])
    assert {a.id for a in s.legal_actions(0)} == {"raise:quills", "raise:ink"}   # never above 6
    s.apply("raise:quills")
    assert [a.id for a in s.legal_actions(0)] == ["raise:ink"]   # a different die
    s.apply("raise:ink")
    assert s.value == [3, 3, 3, 3, 3]


def test_BIB_7_the_reset_follows_the_whole_face_not_its_first_step():
    # "+1 and -1" on 6 6 6 6 5: raising the 5 shows five 6s for a moment, but the face is not done
    # until a different die is lowered, so nothing is reset (docs: the check is after the whole face)
    s = _adjust_game("+1-1", [6, 6, 6, 6, 5])
    s.apply("raise:ink")
    assert s.value == [6, 6, 6, 6, 6] and s.decision(0).kind == "adjust"
    s.apply("lower:scrolls")
    assert s.value == [5, 6, 6, 6, 6]


def test_BIB_7_adjustment_is_mandatory_even_when_it_hurts():
    s = _adjust_game("-1", [3, 3, 3, 3, 3])
    ids = [a.id for a in s.legal_actions(0)]
    assert ids == ["lower:scrolls", "lower:manuscripts", "lower:pigments", "lower:quills", "lower:ink"]
    with pytest.raises(Exception):
        s.apply("forgo")
    s.apply("lower:scrolls")
    assert s.value == [2, 3, 3, 3, 3]
    assert max(s.value) <= VALUE_MAX


# ---------------------------------------------------------------- BIB-8
def test_BIB_8_gold_for_all_without_an_auction():
    s = game(4, phase_one(["ink"] * 7, "gold-for-all", 2, "+1"))
    s.apply("keep")
    before = list(s.gold)
    s.apply("take:gold")
    assert s.gold == [g + 3 for g in before]       # players - 1 = 3 each


def test_BIB_8_gold_for_all_is_rerolled_at_the_market():
    s = game(4, phase_one(["ink"] * 7, "gold-for-all", 1, "+1") + ["gold-for-all", "gold-for-all", 4])
    before = list(s.gold)
    to_market(s)
    assert s.pool[6] >= 0 and s.observation(None)["pool"]["gold"] == 4
    assert s.gold == before                        # nobody collects gold


# ---------------------------------------------------------------- BIB-9
def test_BIB_9_conversion_at_the_top_rerolls_until_another_resource():
    s = game(3, phase_one(["ink", "ink"] + SIX[:4], 1, 2, "+1") + ["ink", "bishop", "scrolls", "quills"])
    put(s, 0, "ink", TOP[4])
    s.apply("keep")
    s.apply("take:ink")
    assert [a.id for a in s.legal_actions(0)] == ["convert", "forgo"]
    s.apply("convert")                             # ink and bishop re-rolled again
    assert pos(s, 0, "scrolls") == 2 and pos(s, 0, "quills") == 2
    assert pos(s, 0, "ink") == TOP[4]


def test_BIB_9_no_conversion_on_the_turn_the_top_was_reached():
    s = game(3, phase_one(["ink", "ink"] + SIX[:4], 1, 2, "+1"))
    put(s, 0, "ink", TOP[4] - 1)
    s.apply("keep")
    s.apply("take:ink")
    assert pos(s, 0, "ink") == TOP[4]              # the second die has no effect
    assert s.to_move == (1,) and s.decision(1).kind == "select"   # no conversion offered
    assert s.scripted_dice_left == 0               # nothing re-rolled


# ---------------------------------------------------------------- BIB-10
def test_BIB_10_overbidding_loses_all_gold_and_the_next_auction():
    s = game(3, phase_one(SIX, 1, 1, "=3") + phase_one(SIX, 2, 1, "=3"))
    s.gold[0] = 5
    to_market(s)
    for die in ("quills", "gold", "adjustment"):
        s.apply(f"small:{die}")
    bid_round(s, {0: 7, 1: 3, 2: 1})
    bid_round(s, {0: "pass", 1: "pass", 2: "pass"})
    overbid = [e for e in s.log if e.kind == "overbid"]
    assert len(overbid) == 1 and overbid[0].visible is None          # revealed to all
    assert overbid[0].data["gold"] == 5 and overbid[0].data["vp"] == 1
    assert s.gold[0] == 0
    # Settled as if seat 0 had not bid: seat 1 (3) wins and pays 3, seat 2 (1) pays 1.
    assert s.phase == "choose-group" and s.to_move == (1,)
    assert s.gold[1] == 16 - 3
    s.apply("group:large")
    for kind in ("scrolls", "manuscripts", "pigments"):
        s.apply(f"take:{kind}")
    assert s.gold[2] == 16 - 1
    s.apply("take:quills")
    s.apply("take:gold")
    s.apply("take:adjustment")
    s.apply("set3:ink")
    assert s.round_no == 2 and s.barred == 1
    assert s.observation(1)["players"][0]["pass_card_aside"] is True
    # The next auction: seat 0 may not bid; afterwards it bids again.
    to_market(s)
    for die in ("quills", "gold", "adjustment"):
        s.apply(f"small:{die}")
    assert set(s.to_move) == {1, 2}
    with pytest.raises(Exception):
        s.apply("bid:1", 0)
    bid_round(s, {1: "pass", 2: "pass"})
    assert s.barred == 0 and s.sitting == 0 and s.hands[0] == FULL_HAND


# ---------------------------------------------------------------- BIB-11
def test_BIB_11_cadfael_rolls_three_dice_before_phase_one():
    s = game(2, ["ink", "ink", "bishop"] + phase_one(SIX, 1, 1, "+1"))
    cad = s.cad
    assert cad == 2
    assert pos(s, cad, "ink") == 3 and pos(s, cad, "bishop") == 2
    assert s.vp_stacks[4 * 2 + 0] == (2, 1)        # he took the Ink stack's top token...
    assert s.vp == [1, 1]                          # ...which no player received
    kinds = [e.kind for e in s.log]
    assert kinds.index("cadfael-roll") < kinds.index("roll")


def _market_2p():
    s = game(2, ["scrolls", "quills", "pigments"] + phase_one(SIX, 1, 1, "+1"))
    to_market(s)
    for die in ("quills", "gold", "adjustment"):
        s.apply(f"small:{die}")
    return s


def test_BIB_11_cadfael_bids_two_cards_wins_and_takes_the_larger_group():
    s = _market_2p()
    s.cad_deck = [7, 6, 1, 2, 3, 4, 5]
    assert s.cad_played == []                      # revealed only after the players' first card
    bid_round(s, {0: 5, 1: 3})
    assert s.cad_played == [7]
    bid_round(s, {0: "pass", 1: "pass"})
    assert s.cad_played == [7, 6]                  # exactly two cards
    # Cadfael (13) wins, pays nothing, takes the large group; seat 0 (5) is second.
    assert s.phase == "resolve" and s.to_move == (0,) and s.grp == 1
    assert s.gold == [15 - 3, 16]                  # seat 0 pays half of 5, rounded up
    assert any(e.kind == "discard" and "Cadfael takes the group of 5" in e.text for e in s.log)


def test_BIB_11_cadfael_second_takes_the_other_group():
    s = _market_2p()
    s.cad_deck = [1, 2, 3, 4, 5, 6, 7]
    bid_round(s, {0: 7, 1: "pass"})
    bid_round(s, {0: 6})
    bid_round(s, {0: "pass"})
    assert s.cad_played == [1, 2]
    assert s.phase == "choose-group" and s.to_move == (0,)
    assert s.gold[0] == 15 - 13
    s.apply("group:small")
    before = list(s.pos)
    s.apply("take:quills")
    s.apply("take:gold")
    s.apply("take:adjustment")
    s.apply("raise:scrolls")
    assert pos(s, 0, "quills") == before[3 * s.nm] + 1
    # Cadfael takes the large group, denying it to seat 1, who pays and takes nothing.
    assert any(e.kind == "discard" and "Cadfael takes the group of 5" in e.text for e in s.log)
    assert s.gold[1] == 16
    assert [pos(s, 1, t) for t in ("scrolls", "manuscripts", "pigments", "quills", "ink")] == [1] * 5
    assert s.round_no == 2


def test_BIB_11_cadfael_scores_tracks_but_no_gold():
    s = game(2)
    s.value[0] = 4
    put(s, s.cad, "scrolls", 6)
    put(s, 0, "scrolls", 5)
    rows = s.breakdown()
    assert rows[s.cad]["tracks"][0] == 8 and rows[0]["tracks"][0] == 4   # he takes first place
    assert rows[s.cad]["gold_vp"] == 0 and rows[s.cad]["tokens"] == 0
    assert len(s.scores) == 2


def test_BIB_11_cadfael_deck_is_reshuffled_after_three_auctions():
    s = game(2, seed=5)
    seen = []
    for _ in range(3):
        s.mule = MULE_FINAL
        s.pool = [2, 2, 1, 1, 0, 0, 0, 0]      # 6 Resource Dice, Gold 1, Adjustment +1
        s.tasks = [("round-end", None), ("market", None)]   # go to the market now
        s.run()
        for die in ("scrolls", "manuscripts", "pigments"):
            s.apply(f"small:{die}")
        bid_round(s, {0: "pass", 1: "pass"})
        seen.append((len(s.cad_deck), len(s.cad_faceup)))
        if s.phase == OVER:
            break
    assert seen == [(5, 2), (3, 4), (7, 0)]


@pytest.mark.parametrize("face, words", [("+1", "Adjustment +1"), ("-1", "Adjustment −1"),
                                         ("+1+1", "Adjustment +1 and +1"), ("-1-1", "Adjustment −1 and −1"),
                                         ("+1-1", "Adjustment +1 and −1"), ("=3", "Adjustment =3")])
def test_the_roll_names_every_adjustment_face(face, words):
    # The six Adjustment Die faces (docs/games/biblios-dice.md); the "=3" face (set a Value Die to 3)
    # was logged as "Adjustment ;" with nothing after the word.
    s = game(3, dice=phase_one(SIX, adjustment=face))
    roll = next(e for e in s.log if e.kind == "roll")
    assert f"{words}; Mule Die" in roll.text, roll.text
