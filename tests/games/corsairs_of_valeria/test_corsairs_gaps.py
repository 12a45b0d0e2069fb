"""Corsairs of Valeria: decisions where the rulebook is silent (docs/games/corsairs-of-valeria.md)."""

from __future__ import annotations

import pytest

from dicetable import GameConfigError, IllegalActionError
from .corsairs_testkit import CN, GR, MP, SG, SI, SK, game, ids, kinds, play

SPLIT = "T1B,T2A,T3B"   # Track 1 split: left lane nodes 2-5, right lane 6-9; Track 2 starts at node 10


def test_lane_is_chosen_on_entering_a_split_track_forwards():
    s = game(dice=[MP, SI, SI, GR, GR], tracks=SPLIT)
    s.pos[0] = 1
    play(s, "lock", "maps")
    assert s.decision(0).kind == "move"
    assert ids(s) == ["forward:left", "forward:right"]
    play(s, "forward:right")
    assert s.pos[0] == 6


def test_pushed_back_ship_owner_chooses_the_lane():
    s = game(dice=[CN] * 5, tracks=SPLIT)
    s.pos[1] = 11                           # Track 2 space 2; back 2 = Track 2 space 1, then into Track 1
    play(s, "lock", "attack:p2")
    assert s.to_move == (1,)                # the attacked player decides, mid-turn
    assert s.decision(1).kind == "back"
    assert ids(s, 1) == ["backward:left", "backward:right"]
    with pytest.raises(IllegalActionError):
        s.apply("backward:left", 0)        # not the attacker's choice
    s.apply("backward:right", 1)
    assert s.pos[1] == 9                   # right lane, Track 1 space 4
    assert s.current == 1                  # the attacker's turn then finished


def test_knock_back_stops_at_the_start_space():
    s = game(dice=[CN] * 5)
    s.pos[1] = 1
    play(s, "lock", "attack:p2")
    assert s.pos[1] == 0 and "at-start" in kinds(s)


def test_three_cannons_push_back_nothing_so_no_hazard():
    s = game(dice=[CN, CN, CN, SI, SI])
    s.pos[1] = 5                           # sitting on a Cutthroat space
    s.grog[1] = 3
    play(s, "lock", "cannons", "attack:p2")
    assert s.pos[1] == 5 and s.grog[1] == 3


def test_empty_supply_pays_what_it_has():
    s = game(dice=[SI, SI, SI, GR, GR])
    s.silver = [3, 2]
    s.island = 30                          # 35 - 5 - 30 = 0 in the supply
    assert s.supply == 0
    play(s, "lock", "silver")
    assert s.silver[0] == 3 and "supply-empty" in kinds(s)


def test_exchange_refills_the_supply_coin_by_coin():
    s = game(dice=[SI, SI, SI, GR, GR])
    s.silver = [4, 2]
    s.island = 27                          # supply 2
    play(s, "lock", "silver")
    # 1st coin -> 5 Silver -> exchange (5 back to the supply) -> the 2 other coins still come
    assert s.treasure[0] == 1 and s.silver[0] == 2


def test_hasan_conversion_limited_by_the_supply():
    s = game(dice=[GR, GR, SI, MP, MP], captains="hasan,none", tracks="T1A,T2A,T3B")
    s.pos[0] = 8
    s.silver = [0, 2]
    s.island = 31                          # supply 2
    play(s, "lock", "grog", "silver")      # Grog 4, Silver 1 (supply 1 left)
    assert s.current == 1
    assert s.silver[0] == 2 and s.grog[0] == 2 and s.supply == 0   # 1 paid, 1 turned, 2 stay


def test_steal_needs_a_treasure_to_steal():
    s = game(dice=[CN] * 5)
    play(s, "lock")
    assert "steal:p2" not in ids(s) and "attack:p2" in ids(s)


def test_recipients_get_no_five_of_a_kind_bonus():
    s = game(players=3, dice=[SG] * 5)
    s.silver[2] = 4
    s.grog[2] = 0
    play(s, "lock", "give", *["give:p3"] * 5)
    assert s.silver[2] == 0 and s.grog[2] == 4           # Skulls, then Grog up to the dial
    assert s.current == 1                                 # no restart for Player 3; Player 2's turn
    assert "restart" not in kinds(s) and "give" not in ids(s, 1)


def test_recipient_mister_bones_may_ignore_a_skull_but_jaxn_does_not_apply():
    s = game(players=3, dice=[SK] * 5, captains="none,bones,jaxn")
    s.silver[1] = 4
    play(s, "lock", "give", "give:p2", "give:p2", "give:p3", "give:p3", "give:p3")
    assert s.to_move == (1,) and s.decision(1).kind == "skulls"
    s.apply("bones:ignore", 1)
    assert s.silver[1] == 3
    assert s.silver[2] == 0 and s.pos[2] == 0             # Jax'n: no move, his "last roll" was no roll
    assert s.current == 1


def test_giver_skips_phase_d():
    s = game(players=2, dice=[SK] * 5, captains="hasan,none")
    s.grog[0] = 4
    play(s, "lock", "give", *["give:p2"] * 5)
    assert s.grog[0] == 4 and "hasan" not in kinds(s)


def test_five_grog_restart_skips_phase_d():
    s = game(dice=[GR] * 5 + [SK, SK, SI, MP, CN], captains="hasan,none")
    play(s, "lock")
    assert s.current == 0 and s.decision(0).kind == "reroll"
    assert s.grog[0] == 4 and "hasan" not in kinds(s)


def test_reaching_skull_island_voids_jager_and_hook():
    s = game(dice=[MP, CN, CN, CN, GR], captains="jager,none")
    s.pos[0] = 13
    play(s, "lock", "maps", "cannons", "attack:p2")
    assert s.decision(0) is None or s.decision(0).kind != "jager"
    s = game(dice=[MP, CN, CN, GR, GR], captains="hook,none")
    s.pos[0], s.pos[1] = 13, 5
    play(s, "lock", "maps", "cannons")
    assert "hook" not in kinds(s)


def test_jaxn_moves_then_gains_grog():
    s = game(dice=[SI, SI, SI, GR, SK], captains="jaxn,none")
    s.pos[0] = 4                           # next space is a Cutthroat (after a +1 Grog island)
    play(s, "lock", "grog", "jaxn")
    assert s.pos[0] == 5 and s.grog[0] == 1   # island Grog lost to the Cutthroat, then Jax'n's 1 Grog


def test_first_player_option():
    s = game(players=3, dice=[SK] * 5, first=3)
    assert s.current == 2 and s.to_move == (2,)
    with pytest.raises(GameConfigError, match="first_player"):
        game(players=2, first=3)


def test_first_player_offers_only_the_seats_that_exist():
    """At 2 players a first player is 'random', 1 or 2; 3 is refused with those named (rulebook: Game Setup)."""
    from dicetable.engine import get_game, new_game

    opt = get_game("corsairs-of-valeria").option("first_player")
    assert opt.allowed(2) == ("random", "1", "2")
    assert opt.allowed(5) == ("random", "1", "2", "3", "4", "5")
    assert "5" not in opt.description           # the text no longer promises five seats at any count
    with pytest.raises(GameConfigError, match=r"'first_player' cannot be '3' with 2 players; allowed: random, 1, 2$"):
        new_game("corsairs-of-valeria", 2, seed=1, options={"first_player": "3"})
    assert new_game("corsairs-of-valeria", 5, seed=1, options={"first_player": "5"}).to_move == (4,)


@pytest.mark.parametrize("bad, message", [
    ("T1A,T2A", "uses 3 Tracks"),
    ("T1A,T1B,T2A", "once"),
    ("T1A,T2C,T3A", "not a Track and side"),
    ("T9A,T2A,T3A", "not a Track and side"),
])
def test_tracks_option_is_checked(bad, message):
    with pytest.raises(GameConfigError, match=message):
        game(tracks=bad)


def test_random_set_up_uses_three_distinct_tracks_and_varies():
    from dicetable import new_game
    seen = set()
    for seed in range(40):
        s = new_game("corsairs-of-valeria", 2, seed=seed)
        layout = s.layout
        assert len(layout) == 3 and len({t for t, _ in layout}) == 3
        seen.add(layout)
        assert s.island == 2 and s.silver == [2, 2] and s.grog == [2, 2] and s.treasure == [0, 0]
        assert s.pos == [s.track.start] * 2
    assert len(seen) > 20
