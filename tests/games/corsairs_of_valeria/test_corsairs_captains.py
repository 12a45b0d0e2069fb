"""Corsairs of Valeria: every Captain card's power and its limits (rulebook: Captain Cards)."""

from __future__ import annotations

import pytest

from dicetable import GameConfigError, IllegalActionError, new_game
from .corsairs_testkit import CN, GR, MP, SG, SI, SK, game, ids, kinds, play


def captains(first: str, second: str = "none") -> str:
    return f"{first},{second}"


# ------------------------------------------------------------------ Willem / Luthor (phase A)
@pytest.mark.parametrize("cap, action, face", [("willem", "set-cannon", "cannon"), ("luthor", "set-map", "map")])
def test_willem_luthor_set_one_die_for_one_grog(cap, action, face):
    s = game(dice=[SK, SK, SK, SK], captains=captains(cap))
    assert s.decision(0).kind == "roll" and set(ids(s)) == {"roll", action}
    play(s, action)
    assert s.grog[0] == 1
    dice = s.observation(0)["dice"]
    assert dice.count(face) == 1 and dice.count("skull") == 4     # only 4 dice were rolled
    assert s.decision(0).kind == "reroll"                         # one die per turn: no second offer


@pytest.mark.parametrize("cap", ["willem", "luthor"])
def test_willem_luthor_may_decline(cap):
    s = game(dice=[SK, SK, SK, SK, SK], captains=captains(cap))
    play(s, "roll")
    assert s.grog[0] == 2 and s.observation(0)["dice"] == ["skull"] * 5


@pytest.mark.parametrize("cap", ["willem", "luthor"])
def test_willem_luthor_need_grog(cap):
    # Player 2 is the Captain with an empty Grog dial: their dice are simply rolled.
    s = game(dice=[GR, GR, GR, GR, SI,   SK, SK, SK, SK, SK], captains=captains("none", cap))
    s.grog[1] = 0
    play(s, "lock", "grog")                   # Player 1: Grog, then Silver (automatic); turn over
    assert s.current == 1
    assert s.observation(1)["dice"] == ["skull"] * 5             # 5 dice rolled, none set
    assert not any(seat == 1 for seat, _ in s.history)           # never asked in phase A (nor B: no Grog)


# ------------------------------------------------------------------ Mistress of the Skull (end of B)
def test_mistress_turns_all_skull_and_grog_into_grog():
    s = game(dice=[SG, SG, SK, MP, MP], captains=captains("mistress"))
    play(s, "lock")
    assert s.decision(0).kind == "captain-b" and set(ids(s)) == {"mistress", "keep"}
    play(s, "mistress")
    assert s.observation(0)["dice"] == ["skull", "grog", "grog", "map", "map"]
    assert s.silver[0] == 1 and s.island == 3      # only the plain Skull costs Silver
    play(s, "grog")
    assert s.grog[0] == 4


def test_mistress_limits_plain_skulls_stay_and_no_offer_without_skull_and_grog():
    s = game(dice=[SK, SK, GR, MP, MP], captains=captains("mistress"))
    play(s, "lock")
    assert s.decision(0).kind != "captain-b"       # nothing to turn
    assert s.silver[0] == 0                        # the 2 plain Skulls cost 2 Silver


def test_mistress_may_keep_the_faces():
    s = game(dice=[SG, SG, SK, MP, MP], captains=captains("mistress"))
    play(s, "lock", "keep")
    assert s.silver[0] == 0 and s.island == 4      # 3 Skulls, 2 Silver paid


# ------------------------------------------------------------------ Prince of Bella Ire (B)
def test_prince_rerolls_with_silver():
    s = game(dice=[SK, GR, GR, MP, CN,   SI], captains=captains("prince"))
    s.grog[0] = 0
    assert s.decision(0).kind == "reroll"           # Silver can pay even with no Grog
    play(s, "mark:1")
    assert set(ids(s)) == {"mark:1", "mark:2", "mark:3", "mark:4", "mark:5", "reroll-silver", "lock"}
    play(s, "reroll-silver")
    assert s.silver[0] == 1 and s.grog[0] == 0
    assert "skull" not in s.observation(0)["dice"]
    assert s.reroll_payments(0) == (False, True)    # the public query the greedy bot reads


def test_prince_limits_needs_silver_and_others_cannot_pay_silver():
    s = game(dice=[GR, GR, GR, GR, SI,   SI, SI, GR, GR, MP], captains=captains("none", "prince"))
    s.grog[1], s.silver[1] = 0, 0
    play(s, "lock", "grog")                   # Player 1's turn ends
    assert s.current == 1
    assert s.decision(1).kind == "order"      # no Grog, no Silver: the dice were locked at once
    plain = game(dice=[SK, GR, GR, MP, CN])
    play(plain, "mark:1")
    assert "reroll-silver" not in ids(plain)  # only the Prince pays with Silver
    assert plain.reroll_payments(0) == (True, False)


# ------------------------------------------------------------------ Reo the Cartographer (end of B)
def test_reo_changes_up_to_three_maps_into_silver():
    s = game(dice=[MP, MP, MP, MP, CN], captains=captains("reo"))
    play(s, "lock")
    assert ids(s) == ["reo:1", "reo:2", "reo:3", "keep"]     # never 4
    play(s, "reo:3")
    assert s.observation(0)["dice"] == ["silver", "silver", "silver", "map", "cannon"]


def test_reo_limits_needs_a_map_and_fewer_choices_with_fewer_maps():
    s = game(dice=[MP, SK, GR, GR, CN], captains=captains("reo"))
    play(s, "lock")
    assert ids(s) == ["reo:1", "keep"]
    s = game(dice=[SI, SK, GR, GR, CN], captains=captains("reo"))
    play(s, "lock")
    assert s.decision(0).kind != "captain-b"


# ------------------------------------------------------------------ Captain Hook (C, Cannons)
def test_hook_uses_two_cannons_to_join_another_ship():
    s = game(dice=[CN, CN, SI, GR, GR], captains=captains("hook"))
    s.pos[1] = 8
    play(s, "lock", "cannons")
    assert set(ids(s)) == {"hook:p2", "hold"}
    play(s, "hook:p2")
    assert s.pos[0] == 8
    assert s.decision(0).kind == "order"          # both Cannons used: the Cannon action is over


def test_hook_then_three_cannons_attack_and_jump_only_once():
    s = game(players=3, dice=[CN] * 5, captains="hook,none,none")
    s.pos[1], s.pos[2] = 9, 8                      # Player 2 sits on a Merchant ship (1 Silver)
    s.treasure[1] = 1
    s.silver[0] = 0
    play(s, "lock", "hook:p2")
    assert s.pos[0] == 9
    acts = set(ids(s))
    assert "hook:p3" not in acts                   # once per Cannon action
    assert {"attack:p2", "attack:p3", "merchant", "hold"} == acts     # 3 Cannons left
    assert "steal:p2" not in acts                  # no longer 5 Cannons
    play(s, "merchant")
    assert s.silver[0] == 3


def test_hook_limits_needs_two_cannons_and_another_space():
    s = game(dice=[CN, SI, GR, GR, MP], captains=captains("hook"))
    s.pos[1] = 8
    play(s, "lock", "cannons")                     # 1 Cannon: no jump, nothing to attack
    assert s.pos[0] == 0 and s.decision(0).kind == "order"
    assert [e.data["cannons"] for e in s.log if e.kind == "cannons"] == [1]
    s = game(dice=[CN, CN, SI, GR, GR], captains=captains("hook"))   # both ships on the Start space
    play(s, "lock", "cannons")
    assert s.pos[0] == 0 and s.decision(0).kind == "order"
    assert "hook" not in kinds(s)


def test_hook_jump_triggers_the_hazard_of_the_space():
    s = game(dice=[CN, CN, SI, GR, GR], captains=captains("hook"))
    s.pos[1] = 5                                   # a Cutthroat space
    play(s, "lock", "cannons", "hook:p2")
    assert s.pos[0] == 5 and s.grog[0] == 0 and "cutthroat" in kinds(s)


# ------------------------------------------------------------------ Jäger Knot (C, after an attack)
def test_jager_may_move_forward_after_attacking_a_player():
    s = game(dice=[CN, CN, CN, GR, GR], captains=captains("jager"))
    s.pos[0] = 2                                   # below Track 1's island (+1 Silver)
    s.silver[0] = 0
    play(s, "lock", "cannons", "attack:p2")
    assert set(ids(s)) == {"jager:move", "jager:stay"}
    play(s, "jager:move")
    assert s.pos[0] == 3 and s.silver[0] == 2 + 1     # took 2, then the island paid 1


def test_jager_limits_not_after_a_merchant_or_holding_fire():
    s = game(dice=[CN, CN, CN, GR, GR], captains=captains("jager"))
    s.pos[0] = 3                                   # Merchant ship space
    play(s, "lock", "cannons", "merchant")
    assert s.decision(0) is None or s.decision(0).kind != "jager"
    assert s.pos[0] == 3
    s = game(dice=[CN, CN, CN, GR, GR], captains=captains("jager"))
    play(s, "lock", "cannons", "hold")
    assert s.current == 1 and s.pos[0] == 0


# ------------------------------------------------------------------ Mister Bones (C, Skulls)
def test_bones_ignores_one_skull():
    s = game(dice=[SK, SK, GR, MP, CN], captains=captains("bones"))
    play(s, "lock")
    assert set(ids(s)) == {"bones:ignore", "bones:pay"}
    play(s, "bones:ignore")
    assert s.silver[0] == 1 and s.island == 3


def test_bones_gains_one_silver_without_skulls():
    s = game(dice=[GR, GR, SI, MP, CN], captains=captains("bones"))
    play(s, "lock")
    assert s.silver[0] == 3


def test_bones_limits_only_one_skull_and_may_decline():
    s = game(dice=[SK, SK, SK, GR, MP], captains=captains("bones"))
    s.silver[0] = 4
    play(s, "lock", "bones:ignore")
    assert s.silver[0] == 2                         # 3 Skulls, one ignored: 2 Silver lost
    s = game(dice=[SK, SK, GR, MP, CN], captains=captains("bones"))
    play(s, "lock", "bones:pay")
    assert s.silver[0] == 0 and s.island == 4


def test_bones_is_not_asked_when_ignoring_saves_nothing():
    s = game(dice=[SK, SK, SK, GR, MP], captains=captains("bones"))   # 3 Skulls, 2 Silver
    play(s, "lock")
    assert s.decision(0).kind != "skulls"
    assert s.silver[0] == 0 and s.island == 4


# ------------------------------------------------------------------ Captain Lucky Jax'n (C)
def test_jaxn_moves_one_space_and_gains_one_grog_without_maps():
    s = game(dice=[SI, SI, GR, CN, SK], captains=captains("jaxn"))
    play(s, "lock")
    assert "jaxn" in ids(s)
    play(s, "jaxn")
    assert s.pos[0] == 1                      # Start Island island: +1 Silver +1 Grog, then Jax'n's Grog
    assert s.grog[0] == 2 + 1 + 1
    assert s.silver[0] == 1 + 1


def test_jaxn_limits_not_with_a_map_and_no_grog_without_moving():
    s = game(dice=[SI, SI, GR, MP, SK], captains=captains("jaxn"))
    play(s, "lock")
    assert "jaxn" not in ids(s)
    s = game(dice=[SI, SI, GR, SI, SK], captains=captains("jaxn"))
    play(s, "lock", "silver", "grog")
    assert set(ids(s)) == {"jaxn", "pass"}    # the only offer moves AND gains; declining gains nothing
    play(s, "pass")
    assert s.pos[0] == 0 and s.grog[0] == 3 and s.current == 1


# ------------------------------------------------------------------ Hasan the Merchant (D)
def test_hasan_pays_one_grog_and_turns_the_rest_into_silver():
    s = game(dice=[GR, SI, SI, MP, MP], captains=captains("hasan"))
    s.pos[0] = 8                               # two Maps to 10: no islands on the way
    s.silver[0] = 0
    play(s, "lock", "grog", "silver")          # Grog 3, Silver 2, then Maps (last group, automatic)
    assert s.current == 1
    assert s.grog[0] == 0 and s.silver[0] == 2 + 2


@pytest.mark.parametrize("grog", [0, 1])
def test_hasan_limits_nothing_with_less_than_two_grog(grog):
    s = game(dice=[SI, SI, MP, MP, SI], captains=captains("hasan"))
    s.pos[0] = 8
    s.grog[0] = grog
    s.silver[0] = 0
    play(s, "lock", "silver")
    assert s.current == 1
    assert s.grog[0] == grog and s.silver[0] == 3
    assert "hasan" not in kinds(s)


def test_hasan_is_not_optional():
    s = game(dice=[GR, GR, SI, MP, MP], captains=captains("hasan"))
    s.pos[0] = 8
    play(s, "lock", "grog", "silver")          # Grog 4, Silver 3
    # No decision was offered at phase D: the exchange simply happened (1 Grog paid, 3 turned).
    assert "hasan" in kinds(s) and s.current == 1
    assert s.grog[0] == 0 and s.treasure[0] == 1 and s.silver[0] == 1


# ------------------------------------------------------------------ dealing
def test_captains_dealt_at_random_are_distinct_and_described():
    for seed in range(20):
        s = new_game("corsairs-of-valeria", 5, seed=seed)
        assert len(set(s.captain)) == 5 and all(c >= 0 for c in s.captain)


def test_captains_option_is_checked():
    with pytest.raises(GameConfigError, match="one Captain per player"):
        game(captains="hook")
    with pytest.raises(GameConfigError, match="unknown Captain"):
        game(captains="hook,blackbeard")
    with pytest.raises(GameConfigError, match="exists once"):
        game(captains="hook,hook")
    # a misspelt Captain is named even when the count is wrong too (the name is the likelier slip)
    with pytest.raises(GameConfigError, match="unknown Captain 'nonsense'"):
        game(captains="nonsense")


def test_tracks_option_names_a_misspelt_track_before_counting():
    """Set-up: three Tracks, each on a side; a part that is no Track and side is named as such."""
    with pytest.raises(GameConfigError, match="'T9Z' is not a Track and side"):
        new_game("corsairs-of-valeria", 2, seed=1, options={"tracks": "T9Z"})
    with pytest.raises(GameConfigError, match="uses 3 Tracks, got 2"):
        new_game("corsairs-of-valeria", 2, seed=1, options={"tracks": "T1A,T2B"})
    with pytest.raises(GameConfigError, match="each Track can be used once"):
        new_game("corsairs-of-valeria", 2, seed=1, options={"tracks": "T1A,T1B,T2A"})
    assert new_game("corsairs-of-valeria", 2, seed=1, options={"tracks": "T1A,T3B,T2A"}).options["tracks"] == "T1A,T3B,T2A"
    with pytest.raises(IllegalActionError):
        game(dice=[SK] * 5).apply("set-cannon")


def test_jager_also_moves_after_stealing_a_treasure():
    s = game(dice=[CN] * 5, captains=captains("jager"))
    s.treasure[1] = 1
    play(s, "lock", "steal:p2")
    assert s.treasure == [1, 0]
    assert s.decision(0).kind == "jager"
    play(s, "jager:move")
    assert s.pos[0] == 1 and s.grog[0] == 3 and s.silver[0] == 3      # Start Island's island paid


def test_willem_set_die_may_be_rerolled_in_phase_b():
    s = game(dice=[SK, SK, SK, SK,   MP], captains=captains("willem"))
    play(s, "set-cannon")
    assert s.observation(0)["dice"][4] == "cannon"
    play(s, "mark:5", "reroll")                   # the set die is an ordinary die in phase B
    reroll = next(e for e in s.log if e.kind == "reroll")
    assert reroll.data["rerolled"] == ["cannon"]
    assert reroll.data["dice"] == ["skull"] * 4 + ["map"]
