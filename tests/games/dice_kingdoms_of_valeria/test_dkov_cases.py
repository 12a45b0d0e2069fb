"""The rulebook's examples DKV-1..DKV-12 (shared/cases/rulebook-examples.md), each asserting the rulebook's value."""

from dicetable.engine import Rng
from dicetable.engine.testing import random_playout
from dicetable.games.dice_kingdoms_of_valeria.components import CARD_KIND
from dicetable.games.dice_kingdoms_of_valeria.sheet import LAIR_HIGH, LAIR_LOW
from dicetable.games.dice_kingdoms_of_valeria.rules import solo_result

from dkov_helpers import (
    ACTION, CALM, DRAFT, HALT, HARVEST, S, act, block, claim, dom, guild, ids, lair, new, refresh,
    resolve_all, road, sec, set_citizens, set_road,
)

WORKER, SOLDIER, SHADOW, HOLY = guild("Worker"), guild("Soldier"), guild("Shadow"), guild("Holy")


def _tracks(state, seat=0):
    return {g: state.sheets[seat][S.TRK + i] for i, g in enumerate(S.GUILDS)}


def test_DKV_1_harvest_counts_marked_pips_per_activated_citizen():
    # Turn 1 harvests the starters (5, 6); the 2nd Harvest rolls black 4 and 5 (sum 9).
    s = new(1, dice=[*CALM, 1, 1, 1, 1, 4, 5, *HALT])
    sh = s.sheets[0]
    set_citizens(s, 0, c4=1, c5=2)
    for g in range(4):
        sh[S.TRK + g] = 0
    act(s, "green:R01@S1:1")
    assert [e.data["black"] for e in s.log if e.kind == "roll" and "black" in (e.data or {})] == [[4, 5]]
    assert _tracks(s) == {"Holy": 0, "Worker": 2, "Shadow": 0, "Soldier": 1}


def test_DKV_2_doubles_on_full_tracks_give_one_pip_of_your_choice():
    s = new(1, dice=[*CALM, 1, 1, 1, 1, 3, 3, *HALT])
    sh = s.sheets[0]
    set_citizens(s, 0, c3=2, c6=2)
    sh[S.TRK + SHADOW] = 24
    sh[S.TRK + SOLDIER] = 24
    sh[S.TRK + HOLY] = 0
    sh[S.TRK + WORKER] = 0
    act(s, "green:R01@S1:1")
    assert s.phase == HARVEST and s.to_move == (0,)
    assert ids(s) == ["harvest:Holy", "harvest:Worker"]
    act(s, "harvest:Holy")
    assert _tracks(s) == {"Holy": 1, "Worker": 0, "Shadow": 24, "Soldier": 24}
    assert s.ships == 0  # doubles in the 2nd Harvest trigger no Event


def test_DKV_3_recruit_with_yellow_or_yellow_plus_blue():
    s = new(1, dice=[*CALM, 2, 1, 1, 6])
    recruits = [a for a in ids(s) if a.startswith("yellow:")]
    assert recruits == ["yellow:2", "yellow:8"]
    act(s, "yellow:8")
    sh = s.sheets[0]
    assert sh[S.CIT + sec(s, "8")] == 1
    assert sh[S.WALLC] == 1  # the 8's left pip is a Knight Reward Pip


def test_DKV_4_slay_red_or_red_plus_blue_with_gold_reward_and_slay_gold():
    s = new(1, dice=[*CALM, 1, 4, 1, 6])
    sh = s.sheets[0]
    sh[S.LB0 + block(s, "L5", "7-12")] = 1
    slays = {a for a in ids(s) if a.startswith("red:")}
    assert slays == {"red:L5:1-6", "red:L5:7-12", "red:L6:1-4", "red:L6:9-12", "red:L7:2-5",
                     "red:L7:9-12", "red:L8:4-6", "red:L8:10-12"}
    act(s, "red:L5:7-12")
    assert sh[S.LB0 + block(s, "L5", "7-12")] == 2
    assert sh[S.GOLDC] == 2  # the Gold Reward Pip, then the Slay action's 1 Gold


def test_DKV_5_first_to_complete_a_lair_circles_the_higher_value():
    s = new(2, dice=[*CALM, 1, 6, 1, 1, *CALM, 1, 6, 1, 1])
    first = s.active
    other = 1 - first
    for seat in (first, other):
        sh = s.sheets[seat]
        sh[S.LB0 + block(s, "L5", "1-6")] = 2
        sh[S.LB0 + block(s, "L5", "7-12")] = 2
    act(s, "red:L5:1-6")  # the final Star pip
    L5 = lair(s, "L5")
    assert s.sheets[first][S.LST + L5] == LAIR_HIGH and s.lair_first[L5] == first
    assert s.score_parts(first)["lairs"] == 5
    assert s.active == other and s.phase == ACTION
    act(s, "red:L5:1-6")
    assert s.sheets[other][S.LST + L5] == LAIR_LOW
    assert s.score_parts(other)["lairs"] == 3
    assert s.score_parts(first)["lairs"] == 5


def test_DKV_6_build_stops_at_the_domain_and_never_splits():
    s = new(1, dice=[*CALM, 1, 1, 5, 1])
    on_r01 = [a for a in ids(s) if a.startswith("green:R01@")]
    assert on_r01 == ["green:R01@S1:2", "green:R01@S1:1"]
    for aid in [a for a in ids(s) if a.startswith("green:")]:
        twin = s.clone()
        before = [twin.sheets[0][twin.lay.rc0 + r] for r in range(twin.lay.nr)]
        act(twin, aid)
        after = [twin.sheets[0][twin.lay.rc0 + r] for r in range(twin.lay.nr)]
        assert sum(1 for x, y in zip(before, after) if x != y) == 1, aid
    act(s, "green:R01@S1:2")
    sh = s.sheets[0]
    assert sh[s.lay.rc0 + road(s, "R01")] == 2
    assert sh[S.DOM] >> dom(s, "D1") & 1
    assert sum(sh[s.lay.rc0 + r] for r in range(s.lay.nr)) == 2  # the rest of the Green die is lost


def _kira(with_flip: bool):
    s = new(1, dice=[*CALM, 1, 1, 3, 1])
    set_road(s, 0, "R01", 2)
    set_road(s, 0, "R03", 3)
    claim(s, 0, "D1", "D3")
    if with_flip:
        set_road(s, 0, "R06", 6)
        claim(s, 0, "D5")
    refresh(s)
    return s


def test_DKV_7_manipulation_flip_then_plus_one_claims_the_soldier_domain():
    s = _kira(with_flip=True)
    assert "green:R09@D3:6" in ids(s)
    label = next(a.label for a in s.legal_actions(0) if a.id == "green:R09@D3:6")
    assert "flip → 4" in label and "+1 → 5" in label and "Blue 1 = 6" in label
    act(s, "green:R09@D3:6")
    sh = s.sheets[0]
    assert sh[S.DOM] >> dom(s, "D8") & 1
    assert sh[S.CIT + sec(s, "4")] == 1  # the instant Soldier Citizen: the first pip on the 4
    # Without Flip Green the most is 3 + 1 + 1 = 5 pips.
    s2 = _kira(with_flip=False)
    assert "green:R09@D3:6" not in ids(s2) and "green:R09@D3:5" in ids(s2)


def test_DKV_8_score_tally_kira_80():
    s = new(1, dice=[*CALM, 1, 1, 1, 1])
    sh = s.sheets[0]
    L = s.lay
    for g in range(4):
        sh[S.TRK + g] = 24                       # 8 Star pips (18 and 24 on each track)
    set_citizens(s, 0, c4=2, c6=2, c8=2)         # 6 Soldier pips; the 8's Star
    sh[S.WALLC] = 12                              # 4 Star pips
    sh[S.GOLDC] = 10                              # 1 Star pip (the 10th)
    for lid in ("L6", "L7", "L8"):                # 3 Star pips; 6 + 7 + 8 = 21 VP
        li = lair(s, lid)
        for b in L.lair_blocks[li]:
            sh[S.LB0 + b] = L.block_len[b]
        sh[S.LST + li] = LAIR_HIGH
    for d in ("D1", "D2", "D3", "D4", "D5", "D6", "D7", "D9", "D10"):
        sh[S.DOM] |= 1 << dom(s, d)
    for k in (2, 5, 10, 13):
        sh[S.STAT] |= 1 << (k - 1)
    sh[S.NSTAT] = 4
    parts = s.score_parts(0)
    assert parts["stars"] == 17 and parts["domains"] == 9 and parts["lairs"] == 21
    assert parts["statue_vp"] == {"2": 9, "5": 12, "10": 12, "13": 0}
    assert parts["statues"] == 33
    assert parts["total"] == 80


def _plinth_in_harvest(players=3):
    """Turn 2's Harvest (black 5, 1) marks Worker pip 6 (Gold) -> Gold pip 4 (a Plinth)."""
    s = new(players, dice=[*CALM, 1, 1, 1, 1, 5, 1, 1, 1, 1, 1])
    return s


def test_DKV_9_statues_in_the_harvest_in_turn_order_refilled_after_the_phase():
    s = _plinth_in_harvest()
    a = s.active
    b = (a + 1) % 3
    for seat in (a, b):
        sh = s.sheets[seat]
        sh[S.TRK + WORKER] = 5
        sh[S.GOLDC] = 3
    deck_before = len(s.deck)
    act(s, "green:R01@S1:1")
    # Turn 2: b is the Active Player; both a and b marked a Plinth during the Harvest.
    assert s.active == b and s.phase == DRAFT
    assert s.to_move == (b,)
    assert s.sheets[a][S.GOLDC] == 4 and s.sheets[b][S.GOLDC] == 4
    first_pick = ids(s)[0]
    act(s, first_pick)
    assert s.phase == DRAFT and s.to_move == (a,)
    assert len(s.line) == 5  # not refilled during the phase
    kind_b = int(first_pick.split(":")[1])
    act(s, ids(s)[0])
    assert s.phase == ACTION
    assert len(s.line) == 6 and len(s.deck) == deck_before - 2  # refilled after the phase
    assert s.sheets[b][S.STAT] >> (kind_b - 1) & 1


def test_DKV_9_statues_at_most_four_and_never_two_copies():
    s = new(1, dice=[*CALM, 1, 1, 1, 1])
    sh = s.sheets[0]
    sh[S.GOLDC] = 3
    kinds = [CARD_KIND[c] for c in s.line]
    sh[S.STAT] = 1 << kinds[0]
    sh[S.NSTAT] = 1
    act(s, "red:L5:1-6")  # +1 Gold: pip 4 is a Plinth, taken at once in the Action phase
    offered = {int(a.split(":")[1]) - 1 for a in ids(s)}
    assert kinds[0] not in offered and offered == set(kinds) - {kinds[0]}
    act(s, ids(s)[0])
    assert len(s.line) == 6  # Action phase: refilled at once
    # With 4 Statues a Plinth gives nothing (the pip is still marked).
    s2 = new(1, dice=[*CALM, 1, 1, 1, 1])
    sh2 = s2.sheets[0]
    sh2[S.GOLDC] = 3
    sh2[S.STAT] = 0b1111 << 10
    sh2[S.NSTAT] = 4
    line = s2.line
    act(s2, "red:L5:1-6")
    assert sh2[S.GOLDC] == 4 and sh2[S.NSTAT] == 4 and s2.line == line
    assert any(e.kind == "lost" and "Statue pick" in e.text for e in s2.log)


def test_DKV_10_solo_twenty_turns_events_second_harvest_and_titles():
    s = new(1, seed=11)
    random_playout(s, Rng(3))
    rolls = [e for e in s.log if e.kind == "roll" and "dice" in (e.data or {})]
    second = [e for e in s.log if e.kind == "roll" and "black" in (e.data or {})]
    assert len(rolls) == 20 and len(second) == 20 and s.trees == 20
    assert s.ships == len(s.events_drawn) == sum(1 for e in rolls if e.data["dice"][0] == e.data["dice"][1])
    assert [solo_result(x)[0] for x in (0, 59, 60, 69, 70, 79, 80, 120)] == [
        "Dungeon", "Dungeon", "Monitored by a Baron", "Monitored by a Baron",
        "Prime Castellan of the south", "Prime Castellan of the south",
        "Duke of the Southern Capitol", "Duke of the Southern Capitol"]


def test_DKV_10_doubles_on_the_first_roll_mark_a_ship_and_draw_an_event():
    s = new(1, dice=[4, 4, 1, 1, 1, 1])
    assert s.ships == 1 and len(s.events_drawn) == 1 and len(s.event_deck) == 9


def test_DKV_10_no_event_once_six_ships_are_marked_nor_in_the_second_harvest():
    s = new(1, dice=[*CALM, 1, 1, 1, 1, 2, 2, 3, 3, 1, 1, 1, 1])
    s.ships = 6
    deck = s.event_deck
    act(s, "green:R01@S1:1")
    resolve_all(s)
    # 2nd Harvest doubles (2, 2), then turn 2 opens with doubles (3, 3): no Event either time.
    assert s.trees == 2 and s.ships == 6 and s.event_deck == deck and s.events_drawn == ()


def test_DKV_10_second_harvest_rolls_the_black_dice_again():
    s = new(1, dice=[*CALM, 1, 1, 1, 1, 3, 5, 1, 1, 1, 1, 1, 1])
    set_citizens(s, 0, c3=1)
    before = s.sheets[0][S.TRK + SHADOW]
    act(s, "green:R01@S1:1")
    assert [e.data["black"] for e in s.log if e.kind == "roll" and "black" in (e.data or {})] == [[3, 5]]
    assert s.sheets[0][S.TRK + SHADOW] == before + 1  # the 3 (Shadow) harvested by the fresh roll


def test_DKV_11_winter_slay_needs_access_and_gives_road_then_gold():
    s = new(1, "winter", dice=[*CALM, 1, 4, 1, 6])
    assert not any(a.startswith("red:L6") for a in ids(s))  # no access to the 6/4 lair yet
    claim(s, 0, "W5")
    refresh(s)
    assert "red:L6:9-12" in ids(s)
    act(s, "red:L6:9-12")
    sh = s.sheets[0]
    assert sh[S.LB0 + block(s, "L6", "9-12")] == 1
    assert s.decision(0).kind == "road" and sh[S.GOLDC] == 0  # the Road Reward first...
    act(s, ids(s)[0])
    assert sh[S.GOLDC] == 1  # ...then the Slay action's Gold


def test_DKV_11_winter_slay_reward_without_accessible_open_pip_is_lost():
    s = new(1, "winter", dice=[*CALM, 1, 1, 1, 1, 6, 1, *HALT])
    sh = s.sheets[0]
    L5 = lair(s, "L5")
    for b in s.lay.lair_blocks[L5]:
        sh[S.LB0 + b] = s.lay.block_len[b]
    sh[S.LST + L5] = LAIR_HIGH
    sh[S.TRK + SOLDIER] = 2   # Winter Soldier pip 3 is a Slay Reward
    act(s, "green:V01@T1:1")
    lairs_after = [sh[S.LB0 + b] for b in range(s.lay.nb)]
    assert sh[S.TRK + SOLDIER] == 3
    assert lairs_after[:3] == [3, 2, 0] and sum(lairs_after[3:]) == 0
    assert any(e.kind == "lost" and "Slay Reward" in e.text for e in s.log)


def test_DKV_12_third_track_ends_the_round_with_equal_turns():
    s = new(3, dice=[*CALM, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1])
    first = s.active
    late = (first + 2) % 3  # not the Active Player when it happens
    sh = s.sheets[late]
    sh[S.TRK + HOLY] = 24
    sh[S.TRK + WORKER] = 24
    sh[S.TRK + SOLDIER] = 23
    act(s, "green:R01@S1:1")
    assert s.last_round  # completed in the 2nd player's turn, by the 3rd player
    assert not s.is_over
    resolve_all(s)
    act(s, ids(s)[0])
    resolve_all(s)
    assert s.active == late and not s.is_over
    act(s, ids(s)[0])
    resolve_all(s)
    assert s.is_over and s.turn_no == 3  # each player had exactly one turn


def test_DKV_12_ties_go_to_most_star_pips_then_are_shared():
    s = new(2, dice=[*CALM, 1, 1, 1, 1])
    a, b = s.sheets
    a[S.WALLC] = 3                    # 1 Star pip
    a[S.DOM] = 1                      # + 1 Domain = 2 VP
    b[S.WALLC] = 3
    b[S.GOLDC] = 10                   # 2 Star pips = 2 VP
    s.phase = "over"
    assert s.scores == [s.score_parts(0)["total"], s.score_parts(1)["total"]] and s.scores[0] == s.scores[1]
    assert s.winners == (1,)
    a[S.DOM] = 0
    a[S.GOLDC] = 10
    assert s.winners == (0, 1)
