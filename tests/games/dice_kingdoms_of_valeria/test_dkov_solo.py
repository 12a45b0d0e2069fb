"""Solo rules and the ten reconstructed Solo Events (rulebook: Solo Rules; layout section 4)."""

import pytest

from dicetable.games.dice_kingdoms_of_valeria.components import EVENT_INDEX
from dicetable.games.dice_kingdoms_of_valeria.sheet import LAIR_LOW
from dicetable.games.dice_kingdoms_of_valeria.rules import EVENT

from dkov_helpers import (
    ACTION, CALM, HALT, HALT2, S, act, block, claim, dom, guild, ids, lair, new, refresh, resolve_all, road,
    sec, set_citizens, set_road,
)

HOLY = guild("Holy")


def with_event(eid: str, prepare=None, sheets="summer", turn2=(2, 2, 1, 1, 1, 1)):
    """Turn 1 plays out; turn 2 opens with doubles and draws ``eid`` (put on top of the deck)."""
    s = new(1, sheets, dice=[*CALM, 1, 1, 1, 1, *CALM, *turn2, *HALT])
    deck = [e for e in s.event_deck if e != EVENT_INDEX[eid]] + [EVENT_INDEX[eid]]
    s.event_deck = tuple(deck)
    if prepare:
        prepare(s, s.sheets[0])
    act(s, "green:R01@S1:1")
    assert s.trees == 2 and s.ships == 1 and s.events_drawn == (EVENT_INDEX[eid],)
    return s, s.sheets[0]


def test_exodus_voids_the_rightmost_marked_pip_of_the_highest_citizen():
    s, sh = with_event("exodus", lambda s, sh: set_citizens(s, 0, c9_10=2))
    assert sh[S.CITV + sec(s, "9/10")] == 0b10
    assert s.score_parts(0)["stars"] == 0  # the 9/10's Star pip is crossed out
    s, sh = with_event("exodus")  # the starter pip of the 6 can be hit
    assert sh[S.CITV + sec(s, "6")] == 0b01
    assert s.score_parts(0)["stars"] == 0


def test_washed_out_bridge_voids_the_lowest_incomplete_bridge():
    s, sh = with_event("washed-out-bridge", lambda s, sh: (set_road(s, 0, "R10", 6), claim(s, 0, "D4")))
    assert sh[S.VBRIDGE] == 0b10  # B1 is complete already: B2 is voided
    # Building over the voided Bridge's Gold pip gives no Gold.
    s2 = new(1, dice=[*CALM, 1, 1, 4, 1, *HALT])
    claim(s2, 0, "D4")
    s2.sheets[0][S.VBRIDGE] = 0b1
    refresh(s2)
    act(s2, "green:R10@D4:5")
    assert s2.sheets[0][S.GOLDC] == 0
    s2.sheets[0][S.STAT] = 1
    s2.sheets[0][S.NSTAT] = 1
    set_road(s2, 0, "R10", 6)
    assert s2.score_parts(0)["statue_vp"]["1"] == 0  # never complete for Statue 1


def test_wildfire_voids_the_lowest_unclaimed_domain():
    s, sh = with_event("wildfire", lambda s, sh: claim(s, 0, "D1"))
    assert sh[S.VDOM] == 1 << dom(s, "D2")
    set_road(s, 0, "R02", 3)
    sh[S.DOM] |= 1 << dom(s, "D2")
    assert s.score_parts(0)["domains"] == 1  # D2 is claimed but scores nothing


def test_rival_hunters_cross_out_the_higher_value_of_the_lair_with_most_pips():
    def prep(s, sh):
        sh[S.LB0 + block(s, "L6", "1-4")] = 2
        sh[S.LB0 + block(s, "L5", "1-6")] = 1
    s, sh = with_event("rival-hunters", prep)
    assert s.lair_first[lair(s, "L6")] == -2
    s, sh = with_event("rival-hunters")  # all empty: the tie goes to the higher VP (8/5)
    assert s.lair_first[lair(s, "L8")] == -2


def test_rival_hunters_lair_scores_the_lower_value():
    s = new(1, dice=[*CALM, 1, 6, 1, 1, *HALT])
    L5 = lair(s, "L5")
    s.lair_first[L5] = -2
    sh = s.sheets[0]
    sh[S.LB0 + block(s, "L5", "1-6")] = 2
    sh[S.LB0 + block(s, "L5", "7-12")] = 2
    act(s, "red:L5:1-6")
    assert sh[S.LST + L5] == LAIR_LOW and s.score_parts(0)["lairs"] == 3


def test_guild_strike_voids_the_next_reward_pip_of_the_busiest_track():
    def prep(s, sh):
        sh[S.TRK + HOLY] = 4
    s, sh = with_event("guild-strike", prep)
    assert sh[S.VTRK + HOLY] == 1 << 5   # Holy pip 6 (Road) loses its Reward


def test_guild_strike_tie_is_your_choice():
    s, sh = with_event("guild-strike")  # every track has 1 or 0 pips: Worker 2, Soldier 2 tie
    assert s.phase == EVENT and s.decision(0).kind == "guild-strike"
    assert ids(s) == ["strike:Worker", "strike:Soldier"]
    act(s, "strike:Soldier")
    assert sh[S.VTRK + guild("Soldier")] == 1 << 2  # Soldier pip 3 (Knight)


def test_voided_track_reward_is_not_gained():
    s = new(1, dice=[*CALM, 1, 1, 1, 1, 1, 1, *HALT2])
    sh = s.sheets[0]
    set_citizens(s, 0, c1=2)
    sh[S.TRK + HOLY] = 1
    sh[S.VTRK + HOLY] = 1 << 2   # pip 3's Recruit Reward is voided
    act(s, "green:R01@S1:1")     # 2nd Harvest 1, 1: the 1 twice -> 4 Holy pips
    assert sh[S.TRK + HOLY] == 5 and s.decision(0).kind != "recruit"


def test_royal_stipend_gives_a_gold_reward():
    s, sh = with_event("royal-stipend")
    assert sh[S.GOLDC] == 1


def test_pilgrims_mark_one_holy_pip_with_its_reward():
    s, sh = with_event("pilgrims", lambda s, sh: sh.__setitem__(S.TRK + HOLY, 2))
    assert sh[S.TRK + HOLY] == 3 and s.phase == EVENT and s.decision(0).kind == "recruit"


def test_road_crew_gives_a_road_reward():
    s, sh = with_event("road-crew")
    assert s.phase == EVENT and s.decision(0).kind == "road"
    act(s, "road:R04@S4")
    assert sh[s.lay.rc0 + road(s, "R04")] == 1


def test_drought_skips_both_harvests_of_the_turn():
    s = new(1, dice=[*CALM, 1, 1, 1, 1, *CALM, 5, 5, 1, 1, 1, 1, 6, 6, *HALT])
    s.event_deck = tuple([e for e in s.event_deck if e != EVENT_INDEX["drought"]] + [EVENT_INDEX["drought"]])
    act(s, "green:R01@S1:1")
    sh = s.sheets[0]
    # Turn 2 opens with 5, 5: Drought. Neither that Harvest nor the 2nd Harvest (6, 6) happens.
    assert s.trees == 2 and s.drought and s.phase == ACTION
    before = [sh[S.TRK + g] for g in range(4)]
    act(s, "green:R01@S1:1")
    assert s.trees == 3 and not s.drought
    assert [sh[S.TRK + g] for g in range(4)] == before


def test_heavy_rain_forbids_the_blue_die():
    s, sh = with_event("heavy-rain", turn2=(2, 2, 2, 1, 1, 6))
    resolve_all(s)
    assert s.phase == ACTION and s.no_blue
    assert sorted(a for a in ids(s) if a.startswith("yellow:")) == ["yellow:2"]  # not 8
    s.sheets[0][S.DOM] |= 1 << dom(s, "D10")
    refresh(s)
    assert sorted(a for a in ids(s) if a.startswith("yellow:")) == ["yellow:1", "yellow:2", "yellow:3"]


def test_solo_track_trigger_option_ends_the_game_after_that_turn():
    for option, over in ((False, False), (True, True)):
        s = new(1, dice=[*CALM, 1, 1, 1, 1, 6, 1, *HALT], solo_track_trigger=option)
        sh = s.sheets[0]
        for g in ("Holy", "Worker"):
            sh[S.TRK + guild(g)] = 24
        sh[S.TRK + guild("Soldier")] = 23
        act(s, "green:R01@S1:1")
        assert s.is_over is over
        assert s.trees == (1 if over else 2)


@pytest.mark.pure_build
@pytest.mark.parametrize("total,won", [(59, False), (60, True)])
def test_solo_counts_as_won_from_60(total, won):
    s = new(1, dice=[*CALM, 1, 1, 1, 1])
    s.phase = "over"
    # The total is set on the sheet itself (not by replacing score_parts, which the compiled
    # build's own calls would not see): every Lair completed first (5+6+7+8 VP) and as many
    # Domain bits as the rest needs (1 VP each; more than a sheet holds, to reach it unplayed).
    sh = s.sheets[0]
    for li in range(4):
        sh[S.LST + li] = S.LAIR_HIGH
    sh[S.DOM] = (1 << (total - 26)) - 1
    assert s.score_parts(0)["total"] == total
    assert (s.winners == (0,)) is won
