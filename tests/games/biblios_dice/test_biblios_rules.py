"""Biblios Dice rule details beyond the worked examples, and the decisions where the rulebook is silent."""

from __future__ import annotations

import pytest

import random

from dicetable import IllegalActionError, new_game
from dicetable.games.biblios_dice.components import (
    COMPONENTS, MULE_FINAL, TOKEN_INDEX, TOKEN_SPOTS, TOKENS, TOP, VP_STACKS,
)
from dicetable.games.biblios_dice.rules import OVER, SELECT

from .helpers import bid_round, game, phase_one, pos, put, to_market

SIX = ["scrolls", "scrolls", "manuscripts", "manuscripts", "pigments", "quills"]


# ---------------------------------------------------------------- Phase I
def test_reroll_pays_one_vp_and_rerolls_only_the_marked_dice_once():
    s = game(3, phase_one(SIX, 2, 1, "+1") + ["ink", "bishop", 3])
    s.apply("mark:scrolls")
    s.apply("mark:scrolls")
    s.apply("mark:mule")
    assert s.pool[:6] == [2, 2, 1, 1, 0, 0]          # nothing re-rolled yet
    s.apply("reroll")
    assert s.vp[0] == 0
    assert s.pool[:6] == [0, 2, 1, 1, 1, 1]          # the two Scrolls became Ink and Bishop
    assert s.mule_roll == 3 and s.mule == 3          # the Mule moved by the new roll
    assert s.phase == SELECT                         # Phase I is over: only once per round


def test_reroll_marks_can_be_cleared_and_keep_costs_nothing():
    s = game(3, phase_one(SIX, 2, 1, "+1"))
    s.apply("mark:gold")
    assert "mark:gold" not in {a.id for a in s.legal_actions(0)}
    s.apply("clear")
    assert "mark:gold" in {a.id for a in s.legal_actions(0)}
    s.apply("keep")
    assert s.vp[0] == 1 and s.pool[6] == 1           # Gold die index 1 shows 2


def test_no_reroll_offered_without_vp():
    singles = ["scrolls", "manuscripts", "pigments", "quills", "ink", "bishop"]
    s = game(3, phase_one(singles, 2, 1, "+1") + phase_one(singles, 2, 1, "+1"))
    s.apply("keep")
    s.vp[1] = 0                                      # the next first player has no VP
    while s.round_no == 1:
        seat = s.to_move[0]
        s.apply(s.legal_actions(seat)[0], seat)
    assert s.first == 1 and s.vp[1] == 0
    assert s.phase == SELECT and s.mule == 2 and s.to_move == (1,)   # straight to Phase II/III


# ---------------------------------------------------------------- markers and stacks
def test_a_marker_arriving_on_a_space_goes_right_of_those_there():
    s = game(3, phase_one(["ink", "ink", "scrolls", "scrolls", "scrolls", "quills"], 1, 2, "+1"))
    put(s, 1, "ink", 3)
    s.apply("keep")
    s.apply("take:ink")                              # seat 0: 1 -> 3, arrives after seat 1
    assert s.observation(None)["tracks"]["ink"][2] == [1, 0]


def test_stopping_in_or_passing_a_stack_takes_its_top_token_and_stacks_shrink():
    lower, upper = VP_STACKS
    s = game(3, phase_one(["scrolls"] * 6, 1, 2, "+1"))
    s.apply("keep")
    s.apply("take:scrolls")                          # 1 -> 7 passes the lower stack only
    assert pos(s, 0, "scrolls") == 7
    assert s.vp[0] == 1 + lower[1][0]
    assert s.vp_stacks[0] == lower[1][1:]
    assert s.vp_stacks[1] == upper[1]


def test_passing_both_stacks_takes_both_top_tokens():
    s = game(3, phase_one(["quills"] * 6, 1, 2, "+1"))
    put(s, 0, "quills", TOP[3] - 8)                  # space 2: passes both stacks
    s.apply("keep")
    s.apply("take:quills")
    assert pos(s, 0, "quills") == 8
    assert s.vp[0] == 1 + 3 + 5


# ---------------------------------------------------------------- Bishop tokens
def _bishop_game(token_id, dice=("bishop", "bishop", "bishop", "ink", "ink", "ink")):
    s = game(3, phase_one(dice, 1, 2, "+1"))
    put(s, 0, "bishop", TOKEN_SPOTS[0][0] - 1)
    group = list(s.bishop_stacks[0])
    group.remove(TOKEN_INDEX[token_id])
    s.bishop_stacks = ((TOKEN_INDEX[token_id], *group),) + s.bishop_stacks[1:]   # that token on top
    s.apply("keep")
    return s


def test_bishop_token_gold_and_vp_are_taken_at_once():
    s = _bishop_game("gold1-vp2")
    s.apply("take:bishop")
    assert s.gold[0] == 15 + 1 and s.vp[0] == 1 + 2
    assert len(s.bishop_stacks[0]) == 2
    event = next(e for e in s.log if e.kind == "bishop-token")
    assert event.visible is None and "Take 1 Gold and 2 VPs" in event.text      # revealed


def test_bishop_token_moves_are_on_different_resource_tracks_never_the_bishop_track():
    s = game(3, phase_one(["bishop"] * 6, 1, 2, "+1"))
    put(s, 0, "bishop", TOKEN_SPOTS[2][0] - 1)
    s.bishop_stacks = s.bishop_stacks[:2] + ((TOKEN_INDEX["advance3"],) + tuple(
        i for i in s.bishop_stacks[2] if TOKENS[i].id != "advance3"),)
    put(s, 0, "quills", TOP[3])                      # at the top: not offered
    s.apply("keep")
    s.apply("take:bishop")
    assert pos(s, 0, "bishop") == TOP[5]
    ids = [a.id for a in s.legal_actions(0)]
    assert ids == ["advance:scrolls", "advance:manuscripts", "advance:pigments", "advance:ink"]
    s.apply("advance:ink")
    assert "advance:ink" not in [a.id for a in s.legal_actions(0)]
    s.apply("advance:scrolls")
    s.apply("advance:pigments")
    assert (pos(s, 0, "ink"), pos(s, 0, "scrolls"), pos(s, 0, "pigments")) == (2, 2, 2)
    assert s.to_move == (1,)


def test_bishop_token_moves_lost_when_every_track_is_at_the_top():
    s = _bishop_game("gold1-advance1")
    for track in ("scrolls", "manuscripts", "pigments", "quills", "ink"):
        put(s, 0, track, TOP[0])
    s.apply("take:bishop")
    assert s.gold[0] == 16 and s.to_move == (1,)


# ---------------------------------------------------------------- conversion
def test_conversion_may_be_forgone_and_a_topped_result_is_lost():
    s = game(3, phase_one(["ink"] * 6, 1, 2, "+1"))
    put(s, 0, "ink", TOP[4])
    s.apply("keep")
    s.apply("take:ink")
    s.apply("forgo")
    assert s.to_move == (1,) and pos(s, 0, "scrolls") == 1
    t = game(3, phase_one(["ink"] * 6, 1, 2, "+1") + ["scrolls"] * 6)
    put(t, 0, "ink", TOP[4])
    put(t, 0, "scrolls", TOP[0])
    t.apply("keep")
    t.apply("take:ink")
    t.apply("convert")
    assert pos(t, 0, "scrolls") == TOP[0] and pos(t, 0, "manuscripts") == 1


def test_market_group_is_one_turn_for_the_same_turn_exception():
    # Seat 0 wins a group with 2 Ink while 1 below the top: the second Ink has no effect.
    s = game(3, phase_one(["ink", "ink", "scrolls", "scrolls", "manuscripts", "pigments"], 1, 1, "+1"))
    put(s, 0, "ink", TOP[4] - 1)
    to_market(s)
    for die in ("scrolls", "scrolls", "manuscripts"):
        s.apply(f"small:{die}")
    bid_round(s, {0: 1, 1: "pass", 2: "pass"})
    bid_round(s, {0: "pass"})
    s.apply("group:large")
    s.apply("take:ink")
    assert pos(s, 0, "ink") == TOP[4] and s.follow_up(0) is None    # no conversion offered
    assert s.to_move == (0,) and s.decision(0).kind == "resolve"      # still resolving the group


# ---------------------------------------------------------------- market and auction
@pytest.mark.parametrize("players,large", [(3, 5), (4, 6)])
def test_market_split_sizes(players, large):
    dice = SIX if players == 3 else SIX + ["ink"]
    s = game(players, phase_one(dice, 1, 1, "+1"))
    to_market(s)
    assert s.to_move == (0,)                         # the first player splits
    for die in ("scrolls", "manuscripts", "gold"):
        s.apply(f"small:{die}")
    sizes = [sum(g[:6]) + (g[6] >= 0) + (g[7] >= 0) for g in s.groups]
    assert sizes == [large, 3]


def test_bids_are_secret_until_all_have_placed():
    s = game(3, phase_one(SIX, 1, 1, "+1"))
    to_market(s)
    for die in ("scrolls", "manuscripts", "gold"):
        s.apply(f"small:{die}")
    s.apply("bid:6", 2)
    assert s.to_move == (0, 1)
    other = s.observation(0)["players"][2]
    assert other["face_down_placed"] is True and other["revealed"] == []
    assert 6 in other["cards_not_revealed"]          # still looks like any unrevealed card
    assert s.observation(2)["players"][2]["face_down"] == 6
    assert [e.text for e in s.log_for(0) if e.kind == "bid-secret"] == []
    with pytest.raises(IllegalActionError):
        s.apply("bid:5", 2)                          # already placed this round
    s.apply("bid:pass", 0)
    s.apply("bid:1", 1)
    assert s.observation(0)["players"][2]["revealed"] == [6]


def test_a_sole_bidder_takes_a_group_and_the_other_is_discarded():
    s = game(3, phase_one(SIX, 1, 1, "+1"))
    to_market(s)
    for die in ("scrolls", "manuscripts", "gold"):
        s.apply(f"small:{die}")
    bid_round(s, {0: "pass", 1: 2, 2: "pass"})
    bid_round(s, {1: "pass"})
    assert s.to_move == (1,) and s.gold[1] == 14
    s.apply("group:small")
    s.apply("take:scrolls")
    s.apply("take:manuscripts")
    s.apply("take:gold")
    assert any(e.kind == "discard" and "group of 5" in e.text for e in s.log)
    assert s.round_no == 2 and s.gold[0] == 15 and s.gold[2] == 16


def test_a_zero_bid_cannot_win():
    s = game(3, phase_one(SIX, 1, 1, "+1"))
    to_market(s)
    for die in ("scrolls", "manuscripts", "gold"):
        s.apply(f"small:{die}")
    bid_round(s, {0: "pass", 1: "pass", 2: "pass"})
    assert s.last_auction["winner"] == -1 and s.round_no == 2
    assert s.gold == [15, 16, 16]


def test_overbid_by_the_second_bidder_promotes_the_third():
    s = game(3, phase_one(SIX, 1, 1, "+1"))
    to_market(s)
    for die in ("scrolls", "manuscripts", "gold"):
        s.apply(f"small:{die}")
    s.gold[1] = 2                                    # owes half of 7 = 4
    bid_round(s, {0: 7, 1: 7, 2: 3})
    bid_round(s, {0: 1, 1: "pass", 2: "pass"})
    bid_round(s, {0: "pass"})
    assert s.gold[1] == 0 and s.barred == 2
    assert s.last_auction["winner"] == 0 and s.last_auction["second"] == 2
    assert s.gold[0] == 15 - 8


# ---------------------------------------------------------------- end and scoring
def test_the_game_ends_only_at_the_end_of_the_round():
    s = game(3, phase_one(["bishop"] * 3 + ["ink"] * 3, 1, 2, "+1"))
    put(s, 0, "bishop", TOP[5] - 2)
    s.apply("keep")
    s.apply("take:bishop")
    assert pos(s, 0, "bishop") == TOP[5] and s.phase != OVER
    while s.phase != OVER:
        seat = s.to_move[0]
        s.apply(s.legal_actions(seat)[0], seat)
        assert s.round_no == 1
    assert s.is_over and s.to_move == ()


def test_four_markers_on_top_spaces_end_the_game():
    s = game(3, phase_one(SIX, 1, 2, "+1"))
    for seat, track in ((0, "ink"), (1, "ink"), (2, "quills")):
        put(s, seat, track, TOP[0])
    put(s, 0, "scrolls", TOP[0] - 2)
    s.apply("keep")
    s.apply("take:scrolls")                          # the fourth top marker
    while s.phase != OVER:
        seat = s.to_move[0]
        s.apply(s.legal_actions(seat)[0], seat)
    assert s.round_no == 1


def test_tie_breaks_gold_left_then_bishop_track():
    s = game(3)
    s.final = [{"total": 20, "gold_left": 1}, {"total": 20, "gold_left": 3}, {"total": 5, "gold_left": 9}]
    s.phase = OVER
    assert s.winners == (1,)
    s.final[0]["gold_left"] = 3                      # still tied: further up the Bishop Track
    put(s, 0, "bishop", 3)
    assert s.winners == (0,)


def test_hidden_objective_bonus_for_first_place_on_its_track():
    s = game(3, hidden_objectives=True)
    obj = s.objectives[0]
    track = ("scrolls", "manuscripts", "pigments", "quills", "ink")[obj]
    put(s, 0, track, 5)
    assert s.breakdown()[0]["objective"] == COMPONENTS.scoring.objective_bonus
    put(s, 1, track, 6)
    assert s.breakdown()[0]["objective"] == 0
    assert len(set(s.objectives)) == 3


def test_objectives_are_only_dealt_with_the_option():
    assert game(4).objectives == [-1] * 4


def test_mule_stops_on_the_final_space():
    s = game(3, phase_one(SIX, 1, 3, "+1"))
    s.mule = MULE_FINAL - 1
    s.apply("keep")
    assert s.mule == MULE_FINAL and s.phase == "split"


# ---------------------------------------------------------------- more silent-rule decisions
def test_an_adjustment_step_without_a_die_to_change_has_no_effect():
    s = game(3, phase_one(SIX, 1, 2, "-1-1"))
    s.value = [1, 1, 1, 1, 3]
    s.apply("keep")
    s.apply("take:adjustment")
    assert [a.id for a in s.legal_actions(0)] == ["lower:ink"]
    s.apply("lower:ink")                             # no different die can be lowered
    assert s.value == [1, 1, 1, 1, 2] and s.to_move == (1,)


def test_cadfael_converts_at_the_top_and_his_bishop_tokens_leave_the_game():
    t = game(2, seed=3)
    cad = t.cad
    put(t, cad, "ink", TOP[4])
    put(t, cad, "bishop", TOKEN_SPOTS[0][0] - 1)
    top_token = t.bishop_stacks[0][0]
    gold, vp = list(t.gold), list(t.vp)
    manuscripts = pos(t, cad, "manuscripts")
    # Replay a round start with scripted dice: Phase 0 rolls Ink, Bishop, Bishop; the Ink
    # die (Cadfael is at the top) is re-rolled to Manuscripts; then the Phase I dice.
    t._script = tuple(["ink", "bishop", "bishop", "manuscripts"] + phase_one(SIX, 1, 2, "+1"))
    t._script_pos = 0
    t._emitted = []
    t.tasks = [("round", None)]                      # a new round starts now
    t.run()
    assert t.scripted_dice_left == 0
    assert pos(t, cad, "manuscripts") == manuscripts + 1     # converted automatically
    assert pos(t, cad, "bishop") == TOKEN_SPOTS[0][0] + 1
    assert len(t.bishop_stacks[0]) == 2 and top_token not in t.bishop_stacks[0]
    assert t.gold == gold and t.vp == vp              # nobody gains from his token
    assert any(e.kind == "bishop-token" and e.visible is None and "Cadfael" in e.text for e in t._emitted)


def test_gold_for_all_with_two_players_gives_one_gold_each():
    s = game(2, ["scrolls", "scrolls", "scrolls"] + phase_one(SIX, "gold-for-all", 2, "+1"))
    s.apply("keep")
    s.apply("take:gold")
    assert s.gold == [16, 17]


# ---------------------------------------------------------------- public queries for the bots
def test_after_taking_resolves_the_dice_on_a_copy_and_leaves_the_follow_up_pending():
    s = game(3, phase_one(SIX, 2, 1, "+1+1"))
    s.apply("keep")                                  # seat 0 selects now
    saved = s.to_dict()
    adjust = s.after_taking(0, 7, s.pool)            # the Adjustment Die: +1 and +1 (two dice)
    assert adjust.follow_up(0)[0] == "adjust" and adjust.decision(0).kind == "adjust"
    assert adjust.observation(0)["pending"] == ["adjust", 0, adjust.follow_up(0)[2], 0, 0]
    gold = s.after_taking(0, 6, s.pool)              # the Gold Die shows 2: 2 Gold, nothing to choose
    assert gold.gold[0] == s.gold[0] + 2 and gold.follow_up(0) is None
    scrolls = s.after_taking(0, 0, s.pool)           # 2 Scrolls dice: up 2 spaces
    assert pos(scrolls, 0, "scrolls") == pos(s, 0, "scrolls") + 2
    assert s.to_dict() == saved                      # the state itself is unchanged
    assert s.follow_up(0) is None and s.decision(0).kind == SELECT


def test_after_taking_during_the_auction_keeps_the_seats_bid_pending():
    s = game(3, phase_one(SIX, 2, 1, "+1"))
    to_market(s)
    for die in ("scrolls", "scrolls", "manuscripts"):
        s.apply(f"small:{die}")
    assert set(s.to_move) == {0, 1, 2}
    c = s.after_taking(1, 6, s.groups[0])            # seat 1 imagines taking the large group's Gold Die
    assert c.gold[1] == s.gold[1] + 2                # the Gold Die shows 2
    assert c.decision(1).kind == "bid" and set(c.to_move) == {0, 1, 2}
    adjust = s.after_taking(1, 7, s.groups[0])       # its Adjustment Die: +1 first, the bid after
    assert adjust.follow_up(1)[0] == "adjust"
    adjust.step(adjust.legal_actions(1)[0], 1)
    assert adjust.follow_up(1) is None and adjust.decision(1).kind == "bid"


# ---------------------------------------------------------------- words
def test_one_die_is_named_in_the_singular_as_the_rulebook_counts_them():
    # Example of Phase III: "3 Ink, 2 Manuscripts, 1 Pigment"; "takes the 2 Manuscripts"; "the Pigment Die"
    s = game(3, phase_one(SIX, 2, 1, "+1"))
    assert "rolls 2 Scrolls, 2 Manuscripts, 1 Pigment, 1 Quill, Gold 2" in s.log[-1].text
    labels = [a.label for a in s.legal_actions(0)]
    assert labels[:4] == ["Mark a Scroll die to re-roll", "Mark a Manuscript die to re-roll",
                          "Mark a Pigment die to re-roll", "Mark a Quill die to re-roll"]
    s.apply("keep")
    labels = [a.label for a in s.legal_actions(0)]
    assert labels[0].startswith("Take the 2 Scrolls dice:") and labels[2].startswith("Take the Pigment die:")
    assert "receives 1 Gold and 1 Ink to start" in s.log[2].text  # Ink is the same word for one and for many


@pytest.mark.parametrize("seed", range(4))
def test_no_text_of_a_played_game_counts_one_die_in_the_plural(seed):
    state, rnd = new_game("biblios-dice", 3, seed=seed), random.Random(seed)
    texts: list[str] = []
    while not state.is_over:
        seat = state.to_move[0]
        actions = state.legal_actions(seat)
        texts += [a.label for a in actions]
        texts += [e.text for e in state.apply(rnd.choice(actions), seat)]
    plurals = [r.name for r in COMPONENTS.resources if r.name != r.one]
    assert plurals == ["Scrolls", "Manuscripts", "Pigments", "Quills"]
    wrong = [t for t in texts for p in plurals if f"1 {p}" in t or f"a {p} die" in t]
    assert not wrong, wrong[:5]
    assert any("1 Pigment" in t or "1 Quill" in t or "1 Scroll" in t or "1 Manuscript" in t for t in texts)
