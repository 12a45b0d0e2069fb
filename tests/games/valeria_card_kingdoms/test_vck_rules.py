"""Valeria: Card Kingdoms: the readings of silent rules (docs/games/valeria-card-kingdoms.md)."""

from __future__ import annotations

from dicetable.games.valeria_card_kingdoms.components import CIT_INDEX, MON_INDEX, MON_NAME
from dicetable.games.valeria_card_kingdoms.rules import CIT0, P_OVER

from vck_helpers import (
    CARD, act, action_phase, domain_on_top, empty_stack, give, give_domain, ids, keep_dukes, kind,
    monster_on_top, new, res, set_res, to_actions,
)


def test_five_player_resting_player_does_not_harvest():
    """R11.6 (A13): the resting player gets no Citizen power and no free resource."""
    s = new(5, dice=(1, 2), first=0)
    give(s, 4, "Cleric")  # seat 4 rests on seat 0's turn; its Cleric would activate on the 1
    keep_dukes(s)
    assert s.resting == 4
    to_actions(s)
    assert s.payouts[4] == (0, 0, 0, 0)
    assert all(e.seat != 4 for e in s.log if e.kind == "free")
    assert [p[2] for p in s.payouts[:4]] == [0, 0, 0, 0]  # nobody else had a Cleric


def test_five_player_thief_may_rob_the_resting_player():
    """R11.6: effects outside one's own Harvest, like a Thief, still reach the resting player."""
    s = new(5, dice=(3, 4), first=0, setup="mastery-over-magic")
    give(s, 0, "Thief")
    keep_dukes(s)
    assert "steal:p5:gold:2" in ids(s, 0)


def test_forgotten_sorrows_counts_a_citizen_from_a_reward():
    """Forgotten Sorrows: a Citizen taken as an Orc Warrior's reward in your Action Phase counts."""
    s = action_phase()
    give_domain(s, 0, "Forgotten Sorrows")
    monster_on_top(s, "Orc Warrior")
    set_res(s, 0, g=0, st=9, m=0)
    act(s, "slay:mountains", "take:cleric")
    assert res(s, 0)[2] == 1


def test_mixed_citizens_with_two_players_use_the_four_player_numbers():
    """R13.1 (A14): with 2 players a mixed stack is 4 face down + 1 face up."""
    s = new(2, citizens="mixed")
    for i in (0, 1, 2, 3, 6, 7, 8, 9):
        assert len(s.stacks[CIT0 + i]) == 5 and s.cit_down[i] == 4
    for i in (4, 5):
        assert len(s.stacks[CIT0 + i]) == 5 and s.cit_down[i] == 0


def test_solo_tie_is_a_loss():
    """R12.19 (A15): the Dark Lord's score equal to yours is a loss."""
    s = new(1, dice=(5, 6))
    keep_dukes(s)
    to_actions(s)
    for p in range(CIT0, CIT0 + 4):
        empty_stack(s, p)
    s.stacks[CIT0 + 4] = (CIT_INDEX["Peasant"],)
    set_res(s, 0, g=3, m=0)
    lord = s.dark_lord_score()
    # make the player's score after the recruit equal to the Dark Lord's
    from dicetable.games.valeria_card_kingdoms.components import DUKE_INDEX
    s.dukes[0] = DUKE_INDEX["Cornelius the Dreamer"]  # no Citizen or Role terms
    twin = s.clone()
    twin.apply("recruit:peasant", 0)
    set_res(s, 0, vp=lord - twin.score(0))
    act(s, "recruit:peasant")
    assert s.phase == P_OVER and s.score(0) == s.dark_lord_score()
    assert s.result == "loss" and s.winners == ()


def test_solo_purloiners_perch_takes_the_leftmost_top_monster():
    """R12.6: solo Purloiner's Perch takes the top of the leftmost non-Exhausted Monster stack."""
    s = new(1, dice=(5, 6))
    keep_dukes(s)
    to_actions(s)
    empty_stack(s, 0)
    domain_on_top(s, "Purloiner's Perch")
    give(s, 0, "Rogue", 2)
    set_res(s, 0, g=10, st=0, m=0)
    act(s, "build:purloiners-perch")
    assert [MON_NAME[m] for m in s.victory[0]] == ["Skeleton"]
    assert res(s, 0)[:3] == (0, 0, 0)  # no reward


def test_nothing_activated_in_the_solo_second_harvest():
    """R12.13 (A15): the Second Harvest also gives the free resource when nothing activates."""
    s = new(1, dice=(1, 2))
    keep_dukes(s)
    act(s, "free:gold")  # first Harvest: Starters only, nothing on 1-2-3
    act(s, "gain:gold", "gain:gold")
    act(s, "capture:cleric", "capture:merchant")  # the dice 1 and 2 attack columns 1 and 2
    assert s.decision(0).kind == "free-resource"
    act(s, "free:magic")
    second = [e for e in s.log if e.kind == "harvest" and e.data["second"]][-1]
    assert second.data["payouts"] == [[0, 0, 1, 0]]


def test_bane_spider_knight_counts_for_the_recruit_surcharge():
    """R6.6: a Knight taken free still counts as a copy: the next Knight costs 2 + 2."""
    s = action_phase()
    monster_on_top(s, "Bane Spider")
    set_res(s, 0, g=0, st=6, m=0)
    act(s, "slay:forest", "choose:2")
    assert s.own[CARD["Knight"]] == 1
    assert s.recruit_cost(0, CIT_INDEX["Knight"]) == 4
    assert kind(s) == "action" and MON_INDEX["Bane Spider"] in s.victory[0]
