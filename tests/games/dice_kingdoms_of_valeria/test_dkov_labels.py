"""Action labels and the table say what will really happen (a tester's report).

* A Road Reward's last pip toward a Domain already claimed, or voided by the solo
  Wildfire Event, does not promise the Domain's power; it says what the log will say.
* A Slay Reward in a lair whose higher value is crossed out (solo Rival Hunters, or
  another player completed it first) offers only the lower value, and says why.
* Build and Slay action labels promise no power and no VP.
* The solo 2nd Harvest is named as such on the table and in the prompt, with the
  black dice it harvests apart from the turn's (used) Action dice.
"""

from __future__ import annotations

import io

from rich.console import Console

import dicetable
from dicetable.engine import Rng
from dicetable.games.dice_kingdoms_of_valeria.sheet import DOM, VDOM
from dicetable.games.dice_kingdoms_of_valeria.rules import ACTIONS, HARVEST, STAGE_HARVEST2
from dicetable.games.dice_kingdoms_of_valeria.text import text_view

from dkov_helpers import CALM, HALT, act, claim, dom, new, refresh, set_road

GAME = "dice-kingdoms-of-valeria"


def play(game, players, seed, options, history):
    state = dicetable.new_game(game, players=players, seed=seed, options=options)
    for seat, action_id in history:
        state.apply(action_id, seat=seat)
    return state


def label_of(state, seat, action_id):
    return next(a.label for a in state.legal_actions(seat) if a.id == action_id)


def play_randomly(players, sheets, seed, until):
    """Seeded random play (the first seat to move picks) until ``until(state)`` is true."""
    state = dicetable.new_game(GAME, players=players, seed=seed, options={"sheets": sheets})
    rng = Rng(seed)
    while not until(state):
        assert not state.is_over, "the game ended before the position was reached"
        seat = state.to_move[0]
        acts = state.legal_actions(seat)
        state.apply(acts[rng.randbelow(len(acts))], seat)
    return state


def screen(state, seat=None, width=120) -> str:
    out = io.StringIO()
    obs = state.observation(seat)
    Console(file=out, width=width, emoji=False, color_system=None).print(text_view(obs, seat, width=width))
    return out.getvalue()


# ---------------------------------------------------------------- Road Reward: the Domain reached

def test_dkov_road_reward_label_does_not_promise_the_power_of_an_already_claimed_domain():
    # Summer solo, seed 53: D1 Greenwatch is claimed through R05; then a Road Reward offers
    # the last pip of R01 toward D1 again.
    state = play(GAME, 1, 53, {"sheets": "summer"}, [
        (0, "green:R02@S2:3"), (0, "green:R03@S3:2"), (0, "slay:L7"), (0, "green:R07@D2:5"),
        (0, "green:R05@D2:2"), (0, "harvest:Holy"), (0, "road:R01@S1")])
    assert "D1" in state.observation(0)["players"][0]["domains"]
    label = label_of(state, 0, "road:R01@S1")
    domains = state.score_parts(0)["domains"]
    events = state.apply("road:R01@S1", seat=0)
    assert "reaching D1 (already claimed)" in events[0].text   # what really happens: nothing new
    assert "(+1/-1 Green)" not in label, label
    assert label == "Mark the last pip of Road R01 from S1, reaching D1 Greenwatch (already claimed)"
    assert state.score_parts(0)["domains"] == domains
    # The other last pip offered then still reaches an unclaimed Domain: its power is promised.
    assert label_of(play(GAME, 1, 53, {"sheets": "summer"}, [
        (0, "green:R02@S2:3"), (0, "green:R03@S3:2"), (0, "slay:L7"), (0, "green:R07@D2:5"),
        (0, "green:R05@D2:2"), (0, "harvest:Holy")]), 0, "road:R03@S3") == (
        "Mark the last pip of Road R03 from S3, reaching D3 Redfort (+1/-1 Red)")


def test_dkov_road_reward_label_does_not_promise_the_power_of_a_voided_domain():
    # Winter solo, seed 67: the Wildfire Event voids W1 Hearthholm; a Road Reward then offers
    # the last pip of V01, "reaching W1 Hearthholm (instant Holy Citizen)".
    state = play(GAME, 1, 67, {"sheets": "winter"}, [
        (0, "harvest:Worker"), (0, "green:V01@T1:1"), (0, "harvest:Worker"), (0, "green:V03@T3:3")])
    assert state.observation(0)["players"][0]["voided_domains"] == ["W1"]
    label = label_of(state, 0, "road:V01@T1")
    events = state.apply("road:V01@T1", seat=0)
    assert "claims Domain W1 Hearthholm (voided: no power, no point)" in events[0].text
    assert not any("instant Holy Citizen" in e.text for e in events)   # no Citizen is marked
    assert "instant Holy Citizen" not in label, label
    assert label == "Mark the last pip of Road V01 from T1, reaching W1 Hearthholm (voided: no power, no point)"


def test_dkov_road_reward_label_to_a_voided_trailhead_domain_says_the_lair_still_opens():
    s = new(1, "winter", dice=[*CALM, 1, 1, 1, 1, *HALT])
    claim(s, 0, "W1")
    set_road(s, 0, "V05", 4)                      # W1 -> W5: the last pip is open
    s.sheets[0][VDOM] |= 1 << dom(s, "W5")        # as the Wildfire Event leaves it
    (s.lanes[0] if s.lanes is not None else s.tasks).append(("choose-road", 0, 0))
    refresh(s)
    label = label_of(s, 0, "road:V05@W1")
    assert label == ("Mark the last pip of Road V05 from W1, reaching W5 Amber Hollow "
                     "(voided: no power, no point); its Trailhead still opens L6")
    events = act(s, "road:V05@W1")
    assert "claims Domain W5 Amber Hollow (voided: no power, no point); its Trailhead opens L6" in events[0].text
    assert s.observation(0)["players"][0]["lairs"]["L6"]["access"]


def test_dkov_road_reward_last_pip_labels_by_what_reaching_the_domain_does():
    # Every last pip toward a Domain has the three labels the log can match.
    for season in ("summer", "winter"):
        acts = ACTIONS[season]
        for rd, (power, claimed, voided) in acts.road_last.items():
            assert power.id == claimed.id == voided.id and power.payload == claimed.payload == rd
            if acts.road_far[rd] < 0:
                assert power is claimed is voided or power.label == claimed.label == voided.label
                continue
            assert claimed.label.endswith(" (already claimed)")
            assert "(voided: no power, no point)" in voided.label
            assert power.label.split(" reaching ")[1] != claimed.label.split(" reaching ")[1]


# ---------------------------------------------------------------- Slay Reward: the lair's value

def test_dkov_slay_reward_label_does_not_offer_a_crossed_out_lair_value():
    # Solo Summer, seed 432: turn 1 rolls doubles and Rival Hunters cross out L8's 8 VP; the
    # Build then reaches a Slay Reward whose list still said "Slay in L8 Dragon's Maw (8/5 VP)".
    state = play(GAME, 1, 432, {"sheets": "summer"}, [(0, "green:R04@S4:3")])
    assert any("Rival Hunters cross out the 8 VP of L8" in e.text for e in state.log)
    label = label_of(state, 0, "slay:L8")
    assert "8/5 VP" not in label, label
    assert label == "Slay in L8 Dragon's Maw (5 VP; 8 VP crossed out by Rival Hunters)"
    # The other lairs still offer both values.
    assert [a.label for a in state.legal_actions(0) if a.id != "slay:L8"] == [
        "Slay in L5 Goblin Warren (5/3 VP)", "Slay in L6 Troll Bridge (6/4 VP)",
        "Slay in L7 Wyvern Crag (7/4 VP)"]
    # The sheet shows the same: the 8 crossed out, and why.
    assert "L8 Dragon's Maw ×8/5 " in screen(state)
    assert "crossed out by Rival Hunters" in screen(state)
    assert "L8 ×8/5 " in screen(state, width=80)


def test_dkov_slay_reward_label_after_another_player_completed_the_lair_first():
    # 2 players, Summer, seed 1 (random play): Player 2 completes L7 Wyvern Crag first, then
    # Player 1 gets a Slay Reward that may go to L7: only its 4 VP is left.
    def slay_reward_in_a_lair_done_by_the_other(state):
        seat = state.to_move[0] if state.to_move else 0
        tasks = state.seat_tasks(seat)
        return (tasks and tasks[-1][0] == "choose-slay"
                and any(a.id == "slay:L7" for a in state.legal_actions(seat))
                and state.lair_first[state.lay.lair_ids.index("L7")] not in (-1, seat))

    state = play_randomly(2, "summer", 1, slay_reward_in_a_lair_done_by_the_other)
    assert 0 in state.to_move
    assert state.observation(0)["players"][1]["lairs"]["L7"]["result"] == "high"
    assert label_of(state, 0, "slay:L7") == (
        "Slay in L7 Wyvern Crag (4 VP; 7 VP crossed out: Player 2 completed it first)")
    assert "L7 Wyvern Crag ×7/4 " in screen(state, 0)
    assert "Player 2 completed it first" in screen(state, 0)


# ---------------------------------------------------------------- Build and Slay actions

def test_dkov_build_and_slay_action_labels_promise_no_power_and_no_vp():
    # A Build to an already claimed Domain names the Domain only (the log says "already claimed").
    s = new(1, dice=[*CALM, 1, 1, 2, 1, *HALT])
    claim(s, 0, "D1", "D2")
    refresh(s)
    assert label_of(s, 0, "green:R05@D1:2") == "Build: 2 pips on Road R05 from D1, reaching D2 (with Green 2)"
    events = act(s, "green:R05@D1:2")
    assert any("reaching D2 (already claimed)" in e.text for e in events)
    # A Build to a voided Domain: no power is named either.
    s = new(1, dice=[*CALM, 1, 6, 3, 1, *HALT])
    s.sheets[0][VDOM] |= 1 << dom(s, "D1")
    refresh(s)
    assert label_of(s, 0, "green:R01@S1:2") == "Build: 2 pips on Road R01 from S1, reaching D1 (with Green 3)"
    # Slay actions name the Range Block and its pip, never a lair value.
    assert all("VP" not in a.label for a in s.legal_actions(0) if a.id.startswith("red:"))
    assert any(a.id.startswith("red:") for a in s.legal_actions(0))
    events = act(s, "green:R01@S1:2")
    assert any("claims Domain D1 Greenwatch (voided: no power, no point)" in e.text for e in events)
    assert s.sheets[0][DOM] >> dom(s, "D1") & 1


# ---------------------------------------------------------------- the solo 2nd Harvest

def test_dkov_solo_second_harvest_is_named_and_shows_its_own_black_dice():
    # Solo Summer, seed 1 (random play): turn 8's 2nd Harvest waits on a Road Reward.
    state = play_randomly(1, "summer", 1, lambda s: s.stage == STAGE_HARVEST2 and s.phase == HARVEST
                          and bool(s.to_move))
    b1, b2, y, r, g, b = state.dice
    assert state.log[-2].text == f"2nd Harvest: the black dice show {b1} and {b2} (sum {b1 + b2})."
    assert state.decision(0).prompt.startswith("2nd Harvest: Road Reward:")
    lines = screen(state).splitlines()
    assert lines[0].startswith(f"Dice Kingdoms of Valeria (Summer)  Turn {state.trees} of 20  Active: Player 1  "
                               "2nd Harvest  deciding: Player 1")
    assert lines[1].rstrip() == (f"2nd Harvest black dice:  {b1}   {b2}  sum {b1 + b2} │ Action dice (used):  "
                                 f"{y}  Yellow   {r}  Red   {g}  Green   {b}  Blue")
    assert screen(state, width=80).splitlines()[1].startswith(
        f"2nd Harvest black {b1} {b2} ={b1 + b2} │ used: Y{y} R{r} G{g} B{b} │ Statue line")
    assert (b1, b2, y, r, g, b) == (4, 5, 4, 3, 6, 3)
    state.no_blue = True   # as after the Heavy Rain Event: the Blue die was not used
    lines = screen(state).splitlines()
    assert lines[1].rstrip() == (f"2nd Harvest black dice:  {b1}   {b2}  sum {b1 + b2} │ Action dice (used):  "
                                 f"{y}  Yellow   {r}  Red   {g}  Green  no Blue (Heavy Rain)")


def test_dkov_first_harvest_and_multiplayer_tables_keep_one_dice_line():
    state = play_randomly(1, "summer", 1, lambda s: s.phase == HARVEST and bool(s.to_move))
    assert state.stage != STAGE_HARVEST2
    text = screen(state)
    assert "2nd Harvest" not in text and "Action dice" not in text
    d = state.dice
    dice = text.splitlines()[1].rstrip()
    assert dice == (f"Harvest (black dice)  {d[0]}   {d[1]}  sum {d[0] + d[1]} │  {d[2]}  Yellow Recruit   "
                    f"{d[3]}  Red Slay   {d[4]}  Green Build   {d[5]}  Blue adds to one")
    assert state.decision(state.to_move[0]).prompt.startswith("Harvest: ")
