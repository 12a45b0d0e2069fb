"""Action labels and the table say what will really happen (a tester's report).

* A Road Reward's last pip toward a Domain already claimed, or voided by the solo
  Wildfire Event, does not promise the Domain's power; it says what the log will say.
* Build and Slay action labels promise no power and no VP.
"""

from __future__ import annotations

import dicetable
from dicetable.games.dice_kingdoms_of_valeria.components import DOM, ROAD, VDOM
from dicetable.games.dice_kingdoms_of_valeria.rules import ACTIONS

from dkov_helpers import CALM, HALT, act, claim, dom, new, refresh, set_road

GAME = "dice-kingdoms-of-valeria"


def play(game, players, seed, options, history):
    state = dicetable.new_game(game, players=players, seed=seed, options=options)
    for seat, action_id in history:
        state.apply(action_id, seat=seat)
    return state


def label_of(state, seat, action_id):
    return next(a.label for a in state.legal_actions(seat) if a.id == action_id)


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
    s.tasks[0].append((ROAD, 0))
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


