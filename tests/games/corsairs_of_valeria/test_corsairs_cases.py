"""Corsairs of Valeria: the rulebook's examples COR-1..COR-12 as tests (cases/rulebook-examples.md)."""

from __future__ import annotations

import pytest

from .corsairs_testkit import CN, GR, MP, SG, SI, SK, game, ids, kinds, node, play


def test_COR_1_rerolls_cost_one_grog_each():
    # Kira: 2 Grog; pays 1 to re-roll 2 Skulls and 1 Cannon; one Skull remains; pays 1 more for it.
    s = game(dice=[SK, SK, CN, MP, SI,   SK, GR, SI,   MP])
    assert s.decision(0).kind == "reroll"
    play(s, "mark:1", "mark:2", "mark:5", "reroll")           # dice sorted: Skull, Skull, Silver, Map, Cannon
    assert s.grog[0] == 1
    assert s.observation(0)["dice"].count("skull") == 1        # she still ends up with 1 Skull
    play(s, "mark:1", "reroll")
    assert s.grog[0] == 0
    assert "skull" not in s.observation(0)["dice"]
    # With no Grog left the dice are locked: phase C starts, no further re-roll is offered.
    assert s.phase == "C" and "reroll" not in ids(s)


def test_COR_2_skulls_first_as_silver_allows():
    s = game(dice=[SK, SK, SK, GR, MP])
    assert s.silver[0] == 2 and s.island == 2
    play(s, "lock")
    assert s.silver[0] == 0           # both Silver go to Skull Island
    assert s.island == 4              # the third Skull is ignored
    event = next(e for e in s.log if e.kind == "skulls")
    assert event.data == {"skulls": 3, "paid": 2, "effects": [
        {"type": "count", "key": "p-0-silver", "delta": -2, "value": 0},       # the Ship Board loses 2
        {"type": "count", "key": "skull-silver", "delta": 2, "value": 4}]}     # Skull Island gains them


def test_COR_3_grog_dial_caps_at_four():
    s = game(dice=[GR, GR, GR, GR, MP])
    play(s, "lock", "grog")
    assert s.grog[0] == 4
    event = next(e for e in s.log if e.kind == "grog")
    assert event.data == {"grog": 2, "wasted": 2, "effects": [
        {"type": "count", "key": "p-0-grog", "delta": 2, "value": 4}]}


def test_COR_4_treasure_exchange():
    s = game(dice=[SI, SI, SI, MP, GR])
    s.silver[0] = 4
    supply_before = s.supply
    play(s, "lock", "silver")
    assert s.silver[0] == 2 and s.treasure[0] == 1
    assert s.supply == supply_before - 3 + 5          # 3 taken, 5 returned


def test_COR_4_exchange_interrupts_the_movement():
    # 4 Silver, 2 Maps from Start: the Start Island island pays 1 Silver on the first step; the
    # exchange happens at once, before the second step.
    s = game(dice=[MP, MP, SI, GR, GR])
    s.silver[0] = 4
    play(s, "lock", "maps")
    k = kinds(s)
    first_move = k.index("move")
    assert k.index("treasure") < k.index("move", first_move + 1)
    assert s.treasure[0] == 1 and s.silver[0] == 0 and s.pos[0] == 2


def test_COR_5_islands_pay_forward_not_backward():
    s = game(dice=[MP, GR, GR, GR, GR])
    s.pos[0] = 2                                  # Track 1 space 1, below the island with 1 Silver
    play(s, "lock", "maps")
    assert s.pos[0] == 3 and s.silver[0] == 3     # +1 Silver

    # Backward: knocked back over Start Island's island (+1 Silver +1 Grog) pays nothing.
    s = game(dice=[CN, CN, CN, CN, GR])
    s.pos[1] = 1
    play(s, "lock", "cannons", "attack:p2")
    assert s.pos[1] == 0
    assert s.silver[1] == 0 and s.grog[1] == 2


@pytest.mark.parametrize("start, end, effect", [
    (8, 6, None),                # back 2, plain sea
    (6, 0, "whirlpool"),         # back 2 onto the Whirlpool (node 4) -> Start space
    (11, 9, "cutthroat"),        # back 2 onto a Cutthroat -> loses all Grog
    (13, 11, "sea-monster"),     # back 2 onto a Sea Monster -> loses all Silver
])
def test_COR_6_attack_takes_silver_and_pushes_back(start, end, effect):
    s = game(dice=[CN] * 5, tracks="T3B,T1A,T2A")
    s.silver[0], s.silver[1] = 0, 3
    s.pos[1] = start
    s.grog[1] = 3
    play(s, "lock")
    assert s.decision(0).kind == "cannons"
    play(s, "attack:p2")
    assert s.silver[0] == 3 and s.silver[1] == 0          # all their Silver
    assert s.pos[1] == end                                  # 5 Cannons: 2 spaces back
    assert s.grog[1] == (0 if effect == "cutthroat" else 3)
    if effect:
        assert effect in kinds(s)


def test_COR_7_five_cannons_may_steal_a_treasure_instead():
    s = game(dice=[CN] * 5)
    s.treasure[1] = 2
    s.pos[1] = 5
    play(s, "lock")
    assert {"attack:p2", "steal:p2", "hold"} <= set(ids(s))
    play(s, "steal:p2")
    assert s.treasure == [1, 1]
    assert s.silver[1] == 2 and s.pos[1] == 5          # nothing else happens to the victim


def test_COR_8_merchant_ship_pays_per_cannon_and_excludes_a_player_attack():
    s = game(dice=[CN, CN, CN, GR, GR])
    s.pos[0] = 3                                   # Track 1 space 2: Merchant ship with a Silver symbol
    s.silver[0] = 0
    play(s, "lock", "cannons")
    assert {"merchant", "attack:p2", "hold"} == set(ids(s))
    play(s, "merchant")
    assert s.silver[0] == 3                        # 3 Cannons x 1 Silver
    assert s.silver[1] == 2                        # no attack on the player in the same turn
    assert "attack" not in kinds(s)
    assert s.current == 1                          # the turn went on and ended without another Cannon choice


def test_COR_9_skull_island_first_arrival():
    s = game(dice=[MP, MP, MP, GR, GR])
    s.pos[0] = 13
    s.silver[0] = 3
    s.island = 8
    s.pos[1] = 7
    play(s, "lock", "maps")
    # 3 + 8 = 11 Silver -> 2 Treasures, 1 Silver kept; the other 2 Maps are ignored.
    assert s.treasure[0] == 2 and s.silver[0] == 1
    assert sum(1 for e in s.log if e.kind == "move" and e.seat == 0) == 1
    assert s.visits == 1
    # After the turn: all ships to Start, the Tracks flipped, 2 Silver on Skull Island.
    assert s.current == 1
    assert s.pos == [s.track.start, s.track.start]
    assert s.observation(None)["tracks"] == "T1B,T2B,T3A"
    assert s.island == 2


def test_COR_9_first_arrival_reset_happens_after_the_turn():
    s = game(dice=[MP, SI, SI, GR, GR])
    s.pos[0] = 13
    s.pos[1] = 7
    play(s, "lock", "maps")
    assert s.pos[0] == s.track.skull and s.pos[1] == 7      # not yet reset: Dice Actions remain
    assert s.to_move == (0,)
    play(s, "silver")
    assert s.pos == [0, 0]


def test_COR_9_second_arrival_ends_the_game_after_the_turn():
    s = game(dice=[MP, SI, GR, GR, GR])
    s.visits = 1
    s.pos[0] = 13
    s.treasure = [3, 2]
    play(s, "lock", "maps")
    assert not s.is_over and s.to_move == (0,)     # the turn is finished first
    play(s, "silver")
    assert s.is_over and s.winners == (0,)


@pytest.mark.parametrize("me, other, winners", [
    ((3, 0, 0), (2, 4, 4), (0,)),      # most Treasure
    ((2, 1, 0), (2, 3, 0), (1,)),      # tie: most Silver
    ((2, 1, 4), (2, 1, 3), (0,)),      # tie: most Grog
    ((2, 1, 3), (2, 1, 3), (0, 1)),    # still tied: shared victory
])
def test_COR_9_tie_breaks(me, other, winners):
    s = game(dice=[MP, MP, MP, MP, CN])     # 1 Cannon: nothing to attack on Skull Island
    s.visits = 1
    s.pos[0] = 13
    s.island = 0
    s.treasure[0], s.silver[0], s.grog[0] = me
    s.treasure[1], s.silver[1], s.grog[1] = other
    play(s, "lock", "maps")
    assert s.is_over
    assert s.winners == winners


def test_COR_10_sixth_treasure_ends_the_game_at_once():
    s = game(dice=[SI, MP, MP, GR, CN])
    s.treasure[0], s.silver[0] = 5, 4
    play(s, "lock", "silver")
    assert s.is_over and s.winners == (0,)
    assert s.to_move == ()
    assert s.pos[0] == 0                     # the Maps were never executed
    assert s.treasure[0] == 6


def test_COR_10_sixth_treasure_by_stealing():
    s = game(dice=[CN] * 5)
    s.treasure = [5, 1]
    play(s, "lock", "steal:p2")
    assert s.is_over and s.winners == (0,) and s.treasure == [6, 0]


def test_COR_11_five_skulls_are_handed_out():
    s = game(players=3, dice=[SK, SK, SK, SG, SG])
    play(s, "lock")
    assert set(ids(s)) == {"give", "keep"}
    play(s, "give")
    assert set(ids(s)) == {"give:p2", "give:p3"}
    play(s, "give:p2", "give:p2", "give:p3", "give:p3", "give:p3")
    assert s.silver[0] == 2 and s.grog[0] == 2          # the roller loses nothing, gains nothing
    assert s.silver[1] == 0                              # 2 Skulls: 2 Silver to Skull Island
    assert s.silver[2] == 0 and s.grog[2] == 4           # Skull + 2 Skull-and-Grog: Skulls first, then 2 Grog
    assert s.island == 2 + 2 + 2
    assert s.current == 1                                # the roller's turn is over


def test_COR_11_a_single_recipient_cannot_pass_the_dice_on():
    s = game(players=3, dice=[SK] * 5)
    s.silver[1] = 4
    play(s, "lock", "give", *["give:p2"] * 5)
    assert s.silver[1] == 0 and s.island == 6
    assert "give" not in ids(s) and s.decision(1).kind == "reroll"   # no hand-out: Player 2's own turn begins


def test_COR_11_five_grog_faces_fill_the_dial_and_restart_the_turn():
    s = game(dice=[SG, SG, GR, GR, GR,   MP, MP, SI, CN, SK])
    s.grog[0] = 1
    turn = s.turn
    play(s, "lock")
    assert s.silver[0] == 0 and s.island == 4           # Skulls are executed first
    assert s.grog[0] == 4
    assert s.current == 0 and s.turn == turn             # the same turn begins again ...
    assert s.decision(0).kind == "reroll"                # ... from the Roll Dice phase
    assert s.observation(0)["dice"] == ["skull", "silver", "map", "map", "cannon"]


def test_COR_11_five_maps_move_either_way_and_may_pay_an_island_twice():
    s = game(dice=[MP] * 5)
    s.silver[0] = 0
    play(s, "lock")                                     # step 1 from Start is forward only: +1 Silver +1 Grog
    assert s.pos[0] == 1 and set(ids(s)) == {"forward", "backward"}
    play(s, "backward")          # back over the island: nothing; step 3 from Start is forward only again
    moves = [(e.data["to"], e.data["forward"]) for e in s.log if e.kind == "move"]
    assert moves == [(1, True), (0, False), (1, True)]
    assert s.silver[0] == 2 and s.grog[0] == 4          # the island paid twice, never backwards
    play(s, "forward", "forward")                       # over Track 1's island: +1 Silver
    assert s.pos[0] == 3 and s.silver[0] == 3


def test_COR_12_hazards_only_where_movement_ends():
    s = game(dice=[MP, MP, SI, GR, GR])
    s.pos[0] = 11
    play(s, "lock", "maps")                             # over the Whirlpool (12) to 13
    assert s.pos[0] == 13 and s.silver[0] == 4          # island +2 Silver, no Whirlpool


@pytest.mark.parametrize("start, check", [
    (11, lambda s: s.pos[0] == 0),                          # Whirlpool: back to the Start space
    (6, lambda s: s.silver[0] == 0),                        # Sea Monster: all Silver to the supply
    (4, lambda s: s.grog[0] == 0),                          # Cutthroat: all Grog lost (after the island's +1)
])
def test_COR_12_hazard_at_the_end_of_movement(start, check):
    s = game(dice=[MP, SI, SI, GR, GR])
    s.pos[0] = start
    s.silver[0] = 3
    play(s, "lock", "maps")
    assert s.decision(0).kind == "order"                # Silver and Grog still to execute
    assert check(s)


def test_COR_10_sixth_treasure_stops_the_payment_that_made_it():
    # Rulebook, Ending the Game: the 6th Treasure ends the game at once, even in the middle of taking
    # Skull Island's Silver: the first coin completes the Treasure, the other coins stay on the island.
    s = game(dice=[MP, GR, GR, GR, CN])
    s.pos[0] = 13                            # one Map from Skull Island
    s.island = 8
    s.treasure[0], s.silver[0] = 5, 4
    play(s, "lock", "maps")
    assert s.is_over and s.winners == (0,)
    assert s.treasure[0] == 6 and s.silver[0] == 0
    assert s.island == 7                     # only one coin was taken
    assert s.grog[0] == 2                    # the Grog faces were never executed
    assert kinds(s)[-3:] == ["skull-island", "treasure", "game-over"]
    assert s.observation(0)["pending"] == [] and s.observation(0)["waiting_for"] is None


def test_COR_10_the_log_counts_only_the_coins_taken_before_the_sixth_treasure():
    # Rulebook, Ending the Game: the 6th Treasure ends the game at once, so only one of Skull Island's
    # 8 Silver is taken (test above); the log must not say all 8 were, when the board then shows 7 there.
    s = game(dice=[MP, GR, GR, GR, CN])
    s.pos[0] = 13
    s.island = 8
    s.treasure[0], s.silver[0] = 5, 4
    play(s, "lock", "maps")
    arrival = next(e for e in s.log if e.kind == "skull-island")
    assert "takes 1 of its 8 Silver" in arrival.text, arrival.text
    assert s.island == 7


def test_COR_10_the_log_counts_only_the_silver_faces_paid_before_the_sixth_treasure():
    # 3 Silver faces with 4 Silver and 5 Treasures: the first coin makes the 6th Treasure, the game ends.
    s = game(dice=[SI, SI, SI, GR, CN])
    s.treasure[0], s.silver[0] = 5, 4
    play(s, "lock", "silver")
    assert s.is_over and s.treasure[0] == 6 and s.silver[0] == 0
    paid = next(e for e in s.log if e.kind == "silver")
    assert "+1 of 3 Silver" in paid.text, paid.text
    assert "+3 Silver" not in paid.text
