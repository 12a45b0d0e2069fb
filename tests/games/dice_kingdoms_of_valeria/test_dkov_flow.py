"""Turn flow: the simultaneous Harvest, Reward chains, persistence, bots and the terminal view."""

import json

from rich.console import Console

from dicetable.bots import make_bot, play_out
from dicetable.engine import IllegalActionError, load_state
from dicetable.games.dice_kingdoms_of_valeria.sheet import LAIR_HIGH, LAIR_LOW
from dicetable.games.dice_kingdoms_of_valeria.policy import evaluate, greedy
from dicetable.games.dice_kingdoms_of_valeria.rules import T_FALLBACK
from dicetable.games.dice_kingdoms_of_valeria.text import render

from dkov_helpers import (
    ACTION, CALM, HALT, HARVEST, S, act, block, guild, lair, new, refresh, sec, set_citizens,
)

HOLY, SHADOW = guild("Holy"), guild("Shadow")


def _two_seats_with_harvest_choices(players=3):
    """Turn 2 rolls black 1, 1: two seats (not the new Active Player) get a Recruit choice."""
    s = new(players, dice=[*CALM, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    a = s.active
    seats = [a, (a + 2) % players]
    for seat in seats:
        set_citizens(s, seat, c1=1)
        s.sheets[seat][S.TRK + HOLY] = 2
    act(s, "green:R01@S1:1")
    return s, seats


def test_harvest_choices_are_simultaneous_and_their_order_does_not_matter():
    s, seats = _two_seats_with_harvest_choices()
    third = next(x for x in range(3) if x not in seats)  # marked nothing: its fallback pip
    assert s.phase == HARVEST and set(s.to_move) == {0, 1, 2}
    assert s.decision(third).kind == "harvest-fallback" and s.decision(seats[0]).kind == "recruit"
    moves = [(seats[0], "recruit:2"), (seats[1], "recruit:3"), (third, "harvest:Shadow")]
    finals = []
    for order in ((0, 1, 2), (2, 1, 0), (1, 2, 0)):
        twin = s.clone()
        for i in order:
            seat, aid = moves[i]
            act(twin, aid, seat)
        finals.append(twin._dump())
    assert finals[0] == finals[1] == finals[2]
    assert finals[0]["phase"] == ACTION


def test_harvest_counts_citizens_as_they_were_at_its_start():
    s, seats = _two_seats_with_harvest_choices()
    seat = seats[0]
    # Black 1, 1 (sum 2): the 1 (1 pip) activates twice -> Holy pips 3 and 4; pip 3 is a Recruit.
    assert s.sheets[seat][S.TRK + HOLY] == 4
    act(s, "recruit:1", seat)
    assert s.sheets[seat][S.CIT + sec(s, "1")] == 2
    assert s.sheets[seat][S.TRK + HOLY] == 4   # the new pip harvests from the next Harvest on


def test_a_seat_may_not_answer_for_another_or_out_of_turn():
    s, seats = _two_seats_with_harvest_choices()
    other = next(x for x in range(3) if x not in seats)
    before = s.to_dict()
    for bad in (lambda: s.apply("recruit:2", other), lambda: s.apply("recruit:2"),
                lambda: s.apply("green:R01@S1:1", seats[0])):
        try:
            bad()
        except IllegalActionError:
            pass
        else:  # pragma: no cover
            raise AssertionError("accepted")
    assert s.to_dict() == before


def test_harvest_first_lair_priority_follows_turn_order_not_decision_order():
    s = new(2, dice=[*CALM, 1, 1, 1, 1, 3, 4, 1, 1, 1, 1, *HALT])
    for seat in range(2):
        sh = s.sheets[seat]
        set_citizens(s, seat, c3=1)
        sh[S.TRK + SHADOW] = 2                       # Shadow pip 3 is a Slay Reward
        sh[S.LB0 + block(s, "L5", "1-6")] = 3
        sh[S.LB0 + block(s, "L5", "7-12")] = 1       # one pip left in the 5/3 lair
    act(s, "green:R01@S1:1")
    active = s.active
    other = 1 - active
    assert s.phase == HARVEST and set(s.to_move) == {0, 1}
    act(s, "slay:L5", other)                          # the other seat completes it first...
    act(s, "slay:L5", active)
    L5 = lair(s, "L5")
    assert s.sheets[active][S.LST + L5] == LAIR_HIGH  # ...but the Active Player has priority
    assert s.sheets[other][S.LST + L5] == LAIR_LOW
    assert s.lair_first[L5] == active


def test_reward_chain_is_followed_to_its_end_before_the_next_task():
    # Recruit action on the 4: its right pip is a Knight -> Wall pip 2 is a Road Reward.
    s = new(1, dice=[*CALM, 4, 1, 1, 1, *HALT])
    set_citizens(s, 0, c4=1)
    s.sheets[0][S.WALLC] = 1
    act(s, "yellow:4")
    assert s.sheets[0][S.WALLC] == 2 and s.decision(0).kind == "road"
    act(s, "road:R04@S4")
    assert s.phase == HARVEST or s.trees == 2


def test_nothing_is_marked_past_a_completed_section():
    s = new(1, dice=[*CALM, 1, 1, 1, 1, *HALT])
    sh = s.sheets[0]
    sh[S.GOLDC] = s.lay.gold_len
    act(s, "red:L5:1-6")
    assert sh[S.GOLDC] == s.lay.gold_len


def test_no_possible_action_is_skipped():
    s = new(1, dice=[*CALM, 1, 1, 1, 1, 1, 2, *CALM, 1, 1, 1, 1, 1, 2, *HALT])
    act(s, "green:R01@S1:1")
    assert s.decision(0).kind == "harvest-fallback"
    sh = s.sheets[0]
    set_citizens(s, 0, c1=2, c2=2)
    for b in range(s.lay.nb):
        sh[S.LB0 + b] = s.lay.block_len[b]
    for r in range(s.lay.nr):
        sh[s.lay.rc0 + r] = s.lay.road_len[r]
        sh[s.lay.ro0 + r] = 1
    act(s, "harvest:Holy")
    # Turn 2: Yellow 1, Red 1, Green 1, Blue 1 and every matching section is full.
    assert s.trees == 2 and s.phase != ACTION
    assert any(e.kind == "no-action" for e in s.log)


def test_save_load_round_trip_mid_harvest():
    s, seats = _two_seats_with_harvest_choices()
    # The position was set up by hand (not by moves), so only the trusted path can restore it.
    loaded = load_state(json.loads(json.dumps(s.to_dict())), verify=False)
    assert loaded.to_dict() == s.to_dict()
    act(loaded, "recruit:2", seats[0])
    act(s, "recruit:2", seats[0])
    assert loaded.to_dict() == s.to_dict()


def test_observation_hides_deck_orders():
    s = new(1, seed=4)
    obs = s.observation(0)
    text = json.dumps(obs)
    assert obs["statue_deck"] == {"day": 8, "night": 14}
    assert obs["solo"]["event_deck"] == 10 - len(s.events_drawn)
    assert "deck" not in obs and "event_deck\": [" not in text


def test_greedy_completes_a_lair_for_its_higher_value():
    s = new(1, dice=[*CALM, 1, 6, 1, 1, *HALT])
    s.sheets[0][S.LB0 + block(s, "L5", "1-6")] = 2
    s.sheets[0][S.LB0 + block(s, "L5", "7-12")] = 2
    s.trees = 19  # late in the game a new Citizen has little time to harvest
    refresh(s)
    assert greedy(s, 0).id == "red:L5:1-6"
    assert 0.0 <= evaluate(s, 0) <= 1.0


def test_greedy_bots_finish_a_three_player_winter_game():
    s = new(3, "winter", seed=2)
    play_out(s, [make_bot("greedy", i) for i in range(3)])
    assert s.is_over and s.winners and max(s.scores) > 20


def test_render_draws_both_sheets_and_the_table():
    s, seats = _two_seats_with_harvest_choices()
    console = Console(width=150, record=True, color_system=None)
    console.print(render(s, seats[0]))
    out = console.export_text()
    for word in ("Castle", "Citizens", "Holy", "Gold Chart", "Knights on the Wall", "L5 Goblin Warren", "Forest",
                 "R09 D3 ", "D8 Soldier Citizen", "Statue draft line", "Score Tally", "deciding: "):
        assert word in out, word
    s1 = new(1, "winter", seed=1)
    console = Console(width=150, record=True, color_system=None)
    console.print(render(s1, 0))
    out = console.export_text()
    assert "Trees" in out and "Ships" in out and "⇒L6" in out and "no access yet" in out


def test_preview_follows_only_the_seats_own_reward_chain_and_changes_nothing():
    """``preview`` (greedy's look-ahead): the seat's own choice and its automatic Rewards, no more."""
    s, seats = _two_seats_with_harvest_choices()
    seat, other = seats
    before = s.to_dict()
    lanes = {x: s.seat_tasks(x) for x in range(3)}
    action = next(a for a in s.legal_actions(seat) if a.id == "recruit:2")
    twin = s.preview(action, seat)
    assert s.to_dict() == before                                   # the state itself is unchanged
    assert twin.sheets[seat][S.CIT + sec(s, "2")] == s.sheets[seat][S.CIT + sec(s, "2")] + 1
    assert twin.phase == HARVEST and set(twin.to_move) >= {other}  # the Harvest goes on for the others
    assert all(twin.seat_tasks(x) == lanes[x] for x in range(3) if x != seat)
    assert twin.log == s.log                                       # quiet: no event was built
    # The same action by the ordinary step ends the seat's part of the Harvest, and nothing else.
    child = s.child(action, seat)
    assert child.sheets[seat] == twin.sheets[seat] and seat not in child.to_move


def test_preview_in_the_action_phase_stops_before_the_turn_moves_on():
    s = new(3, dice=[*CALM, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    seat = s.active
    assert s.phase == ACTION and s.decision(seat).kind == "action"
    action = next(a for a in s.legal_actions(seat) if a.id == "green:R01@S1:1")
    twin = s.preview(action, seat)
    assert twin.phase == ACTION and twin.turn_no == s.turn_no and twin.dice == s.dice
    assert twin.acted and twin.sheets[seat] != s.sheets[seat] and not s.acted
    child = s.child(action, seat)                                  # the step rolls for the next player
    assert child.turn_no == s.turn_no + 1 and child.active == (seat + 1) % 3


def test_pending_rewards_and_my_tasks_name_each_seats_own_chain():
    s, seats = _two_seats_with_harvest_choices()
    third = next(x for x in range(3) if x not in seats)
    assert s.pending_rewards(third) == [T_FALLBACK]
    assert s.observation(third)["my_tasks"] == ["Harvest fallback pip"]
    for seat in seats:
        assert s.pending_rewards(seat)[-1] == S.RECRUIT            # the choice on top of its chain
        assert s.observation(seat)["my_tasks"][-1] == "Recruit Reward"
