"""Every worked example (T1-T34) of the Valeria: Card Kingdoms rules digest, by its id.

Each test builds the example's situation and asserts the value the rules give.
"""

from __future__ import annotations

import pytest

from dicetable.engine import IllegalActionError
from dicetable.games.valeria_card_kingdoms.components import (
    AREAS, CIT_INDEX, CIT_SLOTS, DOM_INDEX, DUKE_INDEX, MON_INDEX, MON_NAME, MON_VP, N_CIT,
    SETUPS, monster_stack,
)
from dicetable.games.valeria_card_kingdoms.rules import ACT, CIT0, DOM0, P_OVER

from vck_helpers import (
    CARD, act, action_phase, citizen_position, clear_tableau, domain_on_top, empty_stack, end_turn, give,
    give_domain, give_monster, ids, keep_dukes, kind, monster_on_top, monster_position, new, res,
    set_res, to_actions,
)


# ---------------------------------------------------------------- T1-T4 dice and activation
def test_T1_bank_is_unlimited():
    """T1: a gain is never refused for want of tokens: 5 Strength on top of 1000 (R1.6)."""
    s = action_phase()
    give(s, 0, "Cleric")
    give(s, 0, "Archer")
    domain_on_top(s, "Eye of Asteraten")
    set_res(s, 0, g=8, st=1000, m=0)
    act(s, "build:eye-of-asteraten")
    assert res(s, 0)[1] == 1005


def test_T2_activation_numbers_are_each_die_and_the_sum():
    """T2: dice 3 and 5 activate exactly the numbers 3, 5 and 8 (R5.7)."""
    activated = {t for t, _ in ACT[(3, 5)]}
    for t in range(N_CIT):
        assert (t in activated) == bool(set(CIT_SLOTS[t]) & {3, 5, 8}), t
    assert {t for t in activated if t < N_CIT} == {
        CIT_INDEX[n] for n in ("Mercenary", "Alchemist", "Peasant", "Champion", "Warlord")}


def test_T3_copies_activate_separately():
    """T3: two Archers and a 4 give two Archer activations: 2 x 2 Strength on-turn."""
    def prep(s):
        clear_tableau(s, 0)
        give(s, 0, "Archer", 2)
    s = new(dice=(4, 1))
    prep(s)
    keep_dukes(s)
    to_actions(s)
    assert s.payouts[0] == (0, 4, 0, 0)


def test_T4_doubles_activate_twice_and_the_sum_once():
    """T4: three Archers on 4+4 give 6 activations; a slot-8 Champion activates once (R5.8)."""
    s = new(dice=(4, 4))
    clear_tableau(s, 0)
    give(s, 0, "Archer", 3)
    give(s, 0, "Champion")
    keep_dukes(s)
    to_actions(s)
    assert s.payouts[0] == (0, 6 * 2 + 4, 0, 0)


# ---------------------------------------------------------------- T5-T6 harvest order
def test_T5_thief_resolves_first():
    """T5: the Thief steals before the opponent's Peasant pays: at most 2 Gold, no mixing."""
    s = new(dice=(2, 5), setup="mastery-over-magic")
    give(s, 0, "Thief")
    keep_dukes(s)
    assert res(s, 1)[:3] == (2, 0, 1)
    options = ids(s, 0)
    assert "steal:p2:gold:2" in options and "steal:p2:gold:1" in options
    assert "steal:p2:gold:3" not in options  # the Peasant's Gold is not there yet
    assert "steal:p2:magic:1" in options and "steal:none" in options
    for aid in options:
        assert aid == "steal:none" or aid.split(":")[2] in ("gold", "magic")
    act(s, "steal:p2:gold:2")
    to_actions(s)
    assert res(s, 1)[0] == 0 + 1  # robbed of 2, then the Starter Peasant's off-turn Gold
    assert res(s, 0)[0] == 2 + 2 + 1  # the 2 stolen and the Starter Peasant's on-turn Gold


def test_T6_harvest_chaining_off_turn():
    """T6: Peasant +1 Gold, then the Monk pays it for 2 Magic: 0 Gold, +2 Magic."""
    s = new(dice=(1, 4), setup="glittering-gold")
    give(s, 1, "Monk")
    set_res(s, 1, g=0, m=0)
    keep_dukes(s)
    while s.to_move != (1,):
        act(s, ids(s)[0])
    assert s.decision(1).kind == "harvest-exchange"
    assert res(s, 1)[0] == 1  # the Starter Peasant's Gold is already in
    assert ids(s, 1) == ["exchange:monk", "exchange:done"]
    act(s, "exchange:monk")
    assert res(s, 1)[:3] == (0, 0, 2)
    assert s.payouts[1] == (0, 0, 2, 0)


def test_T6_monk_without_gold_cannot_trade():
    """T6 negative: with 0 Gold and no Peasant activation, the Monk's trade is not offered."""
    s = new(dice=(1, 2), setup="glittering-gold")
    give(s, 1, "Monk")
    set_res(s, 1, g=0, m=0)
    keep_dukes(s)
    to_actions(s)
    assert s.payouts[1] == (0, 0, 0, 0)
    assert all(e.kind != "exchange" for e in s.log)


# ---------------------------------------------------------------- T7-T9 actions
def test_T7_slay_with_magic_substitution():
    """T7: Treant (Strength 3) paid with 1 Strength + 2 Magic; reward 1 Gold + 1 Magic."""
    s = action_phase()
    forest = monster_position(s, "Forest")
    set_res(s, 0, g=0, st=1, m=2)
    act(s, "slay:forest")
    assert res(s, 0)[:3] == (1, 0, 1)
    assert MON_NAME[s.victory[0][-1]] == "Treant"
    assert MON_NAME[s.stacks[forest][-1]] == "Treant" and len(s.stacks[forest]) == 4


def test_T7_slay_needs_one_strength_token():
    """T7 negative: 0 Strength + 3 Magic cannot slay the Treant."""
    s = action_phase()
    set_res(s, 0, g=0, st=0, m=3)
    assert "slay:forest" not in ids(s)
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply("slay:forest", 0)
    assert s.to_dict() == before


def test_T8_recruit_cost_counts_the_starter():
    """T8: a second Peasant costs 2 + 1 = 3, paid 1 Gold + 2 Magic; the next costs 4."""
    s = action_phase()
    set_res(s, 0, g=1, st=0, m=2)
    labels = {a.id: a.label for a in s.legal_actions(0)}
    assert labels["recruit:peasant"] == "Recruit a Peasant for 3 Gold"
    act(s, "recruit:peasant")
    assert res(s, 0)[:3] == (0, 0, 0)
    assert s.own[CARD["Peasant"]] == 1
    assert s.recruit_cost(0, CIT_INDEX["Peasant"]) == 4


def test_T8_recruit_needs_one_gold_token():
    """T8 negative: 0 Gold + 3 Magic cannot recruit the Peasant."""
    s = action_phase()
    set_res(s, 0, g=0, st=0, m=3)
    assert "recruit:peasant" not in ids(s)


def test_T9_build_with_role_requirement():
    """T9: Palace of the Dawn (Worker, Soldier x2, 11 Gold) with a Peasant and 2 Archers."""
    s = action_phase()
    domain_on_top(s, "Palace of the Dawn", 2)
    below = s.stacks[DOM0 + 2][-2]
    give(s, 0, "Peasant")
    give(s, 0, "Archer", 2)
    set_res(s, 0, g=11, m=0)
    act(s, "build:palace-of-the-dawn")
    assert res(s, 0)[0] == 0
    assert DOM_INDEX["Palace of the Dawn"] in s.doms[0]
    assert s.stacks[DOM0 + 2][-1] == below
    assert s.observation(1)["domains"][2]["top"] is not None


def test_T9_starter_knight_is_not_a_soldier():
    """T9 negative: one Archer and the Starter Knight do not make 2 Soldiers."""
    s = action_phase()
    domain_on_top(s, "Palace of the Dawn", 2)
    give(s, 0, "Peasant")
    give(s, 0, "Archer", 1)
    set_res(s, 0, g=11)
    assert "build:palace-of-the-dawn" not in ids(s)


# ---------------------------------------------------------------- T10-T11 Monster stacks
def _top_down(stack):
    return [MON_NAME[m] for m in reversed(stack)]


def test_T10_ruins_sort_five_players():
    """T10: 5 players: Skeleton x3, Flaming Skeleton x2, Skeleton King, top to bottom."""
    expected = ["Skeleton"] * 3 + ["Flaming Skeleton"] * 2 + ["Skeleton King"]
    assert _top_down(monster_stack(AREAS.index("Ruins"), True)) == expected
    s = new(5)
    assert _top_down(s.stacks[monster_position(s, "Ruins")]) == expected


def test_T11_ruins_sort_and_first_game_stacks():
    """T11: 2-4 players: Skeleton x2, Flaming Skeleton x2, Skeleton King; all five as listed."""
    s = new(3)
    assert _top_down(s.stacks[monster_position(s, "Ruins")]) == [
        "Skeleton", "Skeleton", "Flaming Skeleton", "Flaming Skeleton", "Skeleton King"]
    listed = SETUPS["first-game"].stacks
    for p in range(5):
        area = AREAS[s.areas[p]]
        assert _top_down(s.stacks[p]) == listed[area]


# ---------------------------------------------------------------- T12-T14
def test_T12_magic_cost_plus_substitution():
    """T12: Gelatinous Cube (Strength 4, Magic 1) paid 3 Strength + 2 Magic."""
    s = action_phase(setup="monster-blood")
    set_res(s, 0, g=0, st=3, m=2)
    act(s, "slay:swamp")
    assert res(s, 0)[:3] == (2, 0, 0)
    assert MON_NAME[s.victory[0][-1]] == "Gelatinous Cube"


def test_T12_magic_cost_must_be_paid():
    """T12 negatives: 4 Strength + 0 Magic, and 0 Strength + 5 Magic, cannot slay the Cube."""
    s = action_phase(setup="monster-blood")
    set_res(s, 0, st=4, m=0)
    assert "slay:swamp" not in ids(s)
    set_res(s, 0, st=0, m=5)
    assert "slay:swamp" not in ids(s)
    set_res(s, 0, st=4, m=2)
    act(s, "slay:swamp")
    assert ids(s) == ["pay:4s+1m", "pay:3s+2m"]


def test_T13_boss_reward_counts_itself():
    """T13: Spider Queen: 2 Gold x 1 Forest Monster, or any Citizen + 1 VP (the Archer)."""
    s = action_phase()
    monster_on_top(s, "Spider Queen")
    set_res(s, 0, g=0, st=10, m=3, vp=0)
    act(s, "slay:forest")
    labels = {a.id: a.label for a in s.legal_actions(0)}
    assert labels == {"choose:1": "Spider Queen: 2 Gold per Forest Monster = 2 Gold now",
                      "choose:2": "Spider Queen: take a Citizen free + 1 VP"}
    act(s, "choose:2")
    assert "take:archer" in ids(s)
    act(s, "take:archer")
    assert s.own[CARD["Archer"]] == 1
    assert res(s, 0) == (0, 0, 0, 1)


def test_T13_boss_reward_gold_option():
    """T13 option (a): 2 Gold for the one Forest Monster, the Queen herself."""
    s = action_phase()
    monster_on_top(s, "Spider Queen")
    set_res(s, 0, g=0, st=10, m=3)
    act(s, "slay:forest", "choose:1")
    assert res(s, 0)[0] == 2


def test_T14_power_counts_cards_at_resolution():
    """T14: Miner with 1 Domain on 6+6 gives 2 Gold; the Starter Knight activates twice."""
    s = new(dice=(6, 6), setup="monster-blood")
    give(s, 0, "Miner")
    give_domain(s, 0, "Palace of the Dawn")
    keep_dukes(s)
    to_actions(s, {0: ["dice:done"]})
    assert s.payouts[0] == (2, 2, 0, 0)


# ---------------------------------------------------------------- T15-T17 set-up
def test_T15_mixed_citizen_stack():
    """T15: 4 players, mixed: slot 1 holds 5 Monks/Clerics, 4 face down + 1 face up."""
    s = new(4, citizens="mixed", setup="random")
    stack = s.stacks[CIT0]
    assert len(stack) == 5
    assert set(stack) <= {CIT_INDEX["Monk"], CIT_INDEX["Cleric"]}
    assert len(s.cit_box[0]) == 12 - 5
    view = s.observation(0)["citizens"][0]
    assert view["face_down"] == 4 and len(view["face_up"]) == 1
    keep_dukes(s)
    to_actions(s)
    set_res(s, s.active, g=20)
    slot1 = [a for a in ids(s) if a in ("recruit:monk", "recruit:cleric")]
    top = "monk" if s.stacks[CIT0][-1] == CIT_INDEX["Monk"] else "cleric"
    assert slot1 == [f"recruit:{top}"]  # only the face-up top can be recruited


@pytest.mark.parametrize("players", [2, 3, 4])
def test_T16_setup_counts(players):
    """T16: 5 Monsters, 5 Citizens, 3 Domains (top up) per stack; 2 Gold, 1 Magic, 2 Starters, 1 of 2 Dukes."""
    s = new(players)
    assert [len(s.stacks[p]) for p in range(5)] == [5] * 5
    assert [len(s.stacks[p]) for p in range(5, 15)] == [5] * 10
    assert [len(s.stacks[p]) for p in range(15, 20)] == [3] * 5
    assert all(d["face_down"] == 2 for d in s.observation(0)["domains"])
    for seat in range(players):
        assert res(s, seat) == (2, 0, 1, 0)
        assert s.own[seat * len(CARD) + CARD["Starter Peasant"]] == 1
        assert s.own[seat * len(CARD) + CARD["Starter Knight"]] == 1
        assert len(s.offers[seat]) == 2
    keep_dukes(s)
    assert all(s.dukes[seat] == s.offers[seat][0] for seat in range(players))
    assert len(set(d for o in s.offers for d in o)) == 2 * players


def test_T17_setup_counts_five_players():
    """T17: 6 / 6 / 4 per stack, 10 Exhausted to end; the Rest token right of the first player."""
    s = new(5, first=2)
    assert [len(s.stacks[p]) for p in range(20)] == [6] * 15 + [4] * 5
    keep_dukes(s)
    assert s.active == 2 and s.resting == 1
    for p in range(9):
        empty_stack(s, CIT0 + p)
    assert not s.end_triggered()
    empty_stack(s, CIT0 + 9)
    assert s.end_triggered()
    # the game ends in the End Phase of the round's last player (right of the first), only
    assert [s.ends_in_end_phase(seat) for seat in range(5)] == [False, True, False, False, False]


# ---------------------------------------------------------------- T18-T21
def test_T18_nothing_activated_takes_a_resource():
    """T18: only Starters and dice 1+2: each player takes 1 resource of their choice."""
    s = new(dice=(1, 2))
    keep_dukes(s)
    assert s.decision(0).kind == "free-resource"
    assert ids(s, 0) == ["free:gold", "free:strength", "free:magic"]
    act(s, "free:magic")
    assert s.decision(1).kind == "free-resource"
    act(s, "free:strength")
    assert s.payouts == ((0, 0, 1, 0), (0, 1, 0, 0))


def test_T18_starter_activation_is_an_activation():
    """T18: dice 2+3 make 5: the Starter Peasant activates, so no free resource (A4)."""
    s = new(dice=(2, 3))
    keep_dukes(s)
    assert kind(s) == "action"
    assert s.payouts == ((1, 0, 0, 0), (1, 0, 0, 0))


def test_T19_exhausted_cards_after_the_action():
    """T19: the Queen and the last Archer: both stacks Exhausted only after the reward."""
    s = action_phase()
    forest = monster_position(s, "Forest")
    archers = citizen_position(s, "Archer")
    s.stacks[forest] = (MON_INDEX["Spider Queen"],)
    s.stacks[archers] = (CIT_INDEX["Archer"],)
    set_res(s, 0, st=10, m=3)
    act(s, "slay:forest", "choose:2")
    assert s.stacks[forest] == () and s.exhausted_count() == 0
    act(s, "take:archer")
    assert s.exhausted_count() == 2
    assert s.exhausted >> forest & 1 and s.exhausted >> archers & 1


def test_T20_end_trigger_gives_equal_turns():
    """T20: 3 players, 6 Exhausted at the end of P2's turn: P3 plays, then the game ends."""
    s = new(3, first=0)
    keep_dukes(s)
    end_turn(s)
    assert s.active == 1
    for p in range(CIT0, CIT0 + 6):
        empty_stack(s, p)
    end_turn(s)
    assert s.active == 2 and s.phase != P_OVER
    end_turn(s)
    assert s.phase == P_OVER and s.turn == 3


def test_T20_trigger_on_the_last_seat_ends_at_once():
    """T20: the trigger on P3's (the last seat's) turn ends the game right after it."""
    s = new(3, first=0)
    keep_dukes(s)
    end_turn(s)
    end_turn(s)
    assert s.active == 2
    for p in range(CIT0, CIT0 + 6):
        empty_stack(s, p)
    end_turn(s)
    assert s.phase == P_OVER and s.turn == 3


def test_T21_tie_goes_to_the_smaller_tableau():
    """T21: equal scores; 12 tableau cards against 11: the player with 11 wins."""
    s = new(dice=(5, 6, 5, 6))
    give(s, 0, "Cleric", 10)
    give(s, 1, "Cleric", 9)
    keep_dukes(s)
    s.dukes = [DUKE_INDEX["Cornelius the Dreamer"]] * 2
    for p in range(DOM0, DOM0 + 5):
        s.stacks[p] = ()
    end_turn(s)
    end_turn(s)
    assert s.phase == P_OVER
    assert s.scores[0] == s.scores[1]
    assert (s.tableau_size(0), s.tableau_size(1)) == (12, 11)
    assert s.winners == (1,)


# ---------------------------------------------------------------- T22-T24 die changes
def test_T22_palace_cannot_lower_a_one():
    """T22: Palace of the Dawn cannot lower a 1."""
    s = new(dice=(1, 4))
    give_domain(s, 0, "Palace of the Dawn")
    keep_dukes(s)
    assert ids(s, 0) == ["die:palace-of-the-dawn:2", "dice:done"]


def test_T22_palace_lowers_a_six_from_foxgrove():
    """T22: Foxgrove Palisade makes a 6 (2 Gold), then Palace lowers it to 5."""
    s = new(dice=(2, 3))
    give_domain(s, 0, "Palace of the Dawn")
    give_domain(s, 0, "Foxgrove Palisade")
    set_res(s, 0, g=2)
    keep_dukes(s)
    act(s, "die:foxgrove-palisade:1")
    assert s.dice == (6, 3) and res(s, 0)[0] == 0
    assert "die:foxgrove-palisade:2" not in ids(s)  # once per Roll Phase
    act(s, "die:palace-of-the-dawn:1")
    assert s.dice == (5, 3)
    assert kind(s) == "action"  # no change left: the dice are final and the Harvest ran


def test_T23_desert_orchid_free_without_holy():
    """T23: 0 Holy Citizens: The Desert Orchid costs 0 Gold and sets the die to 1."""
    s = new(dice=(3, 4))
    give_domain(s, 0, "The Desert Orchid")
    set_res(s, 0, g=0)
    keep_dukes(s)
    labels = {a.id: a.label for a in s.legal_actions(0)}
    assert labels["die:the-desert-orchid:1"] == "The Desert Orchid: change die 1 from 3 to 1"
    act(s, "die:the-desert-orchid:1")
    assert s.dice == (1, 4)
    assert res(s, 0)[0] == 0 + 1  # paid nothing; then 1-4-5 harvested the Starter Peasant


def test_T24_gargans_embrace():
    """T24: 2+2 rolled: owner +1 VP; Palace makes 1+2: kept; Orchid makes 1+1: +1 more."""
    s = new(dice=(2, 2))
    give_domain(s, 1, "Gargan's Embrace")
    give_domain(s, 0, "Palace of the Dawn")
    give_domain(s, 0, "The Desert Orchid")
    keep_dukes(s)
    assert res(s, 1)[3] == 1
    act(s, "die:palace-of-the-dawn:1")
    assert s.dice == (1, 2) and res(s, 1)[3] == 1
    act(s, "die:the-desert-orchid:2")
    assert s.dice == (1, 1) and res(s, 1)[3] == 2


# ---------------------------------------------------------------- T25-T30 card clarifications
def test_T25_bane_spider_without_knight():
    """T25: no Knight on a stack top: the Bane Spider pays 3 Gold, no choice."""
    s = action_phase()
    monster_on_top(s, "Bane Spider")
    s.stacks[citizen_position(s, "Knight")] = ()
    set_res(s, 0, g=0, st=6, m=0)
    act(s, "slay:forest")
    assert kind(s) == "action" and res(s, 0)[0] == 3


def test_T25_bane_spider_with_knight_offers_both():
    """C-BS: with a Knight available, 3 Gold or the Knight free."""
    s = action_phase()
    monster_on_top(s, "Bane Spider")
    set_res(s, 0, g=0, st=6, m=0)
    act(s, "slay:forest")
    assert ids(s) == ["choose:1", "choose:2"]
    act(s, "choose:2")
    assert s.own[CARD["Knight"]] == 1 and res(s, 0)[0] == 0


def test_T26_orc_warrior_ignores_the_surcharge():
    """T26: Orc Warrior: base cost <= 3 eligible even if owned; the base-4 Archer not."""
    s = action_phase()
    monster_on_top(s, "Orc Warrior")
    give(s, 0, "Mercenary", 2)
    set_res(s, 0, st=9, m=0)
    act(s, "slay:mountains")
    options = ids(s)
    assert "take:mercenary" in options and "take:cleric" in options and "take:butcher" in options
    assert "take:archer" not in options


def test_T26_wraith_takes_base_two_or_less():
    """T26: Wraith: base cost <= 2 only (Cleric, Blacksmith, Mercenary at 3 and Archer at 4 are not)."""
    s = action_phase(setup="monster-blood")
    monster_on_top(s, "Wraith")
    set_res(s, 0, st=4, m=3)
    act(s, "slay:barrens")
    assert sorted(ids(s)) == sorted(["take:peasant", "take:knight", "take:rogue", "take:warlord",
                                     "take:priestess", "take:miner"])


def test_T27_purloiners_perch():
    """T27: a random Monster of the victim moves to the builder's Victory stack, no reward."""
    s = action_phase(players=3)
    domain_on_top(s, "Purloiner's Perch")
    give(s, 0, "Rogue", 2)
    give_monster(s, 2, "Troll")
    set_res(s, 0, g=10, st=0, m=0)
    before_vp = s.public_vp(2)
    act(s, "build:purloiners-perch")
    assert ids(s) == ["target:p2", "target:p3"]
    act(s, "target:p3")
    assert [MON_NAME[m] for m in s.victory[0]] == ["Troll"] and s.victory[2] == ()
    assert res(s, 0)[:3] == (0, 0, 0)
    assert s.public_vp(2) == before_vp - MON_VP[MON_INDEX["Troll"]]


def test_T27_purloiners_perch_on_a_player_without_monsters():
    """C-PP: a chosen player with no Monster gives nothing."""
    s = action_phase()
    domain_on_top(s, "Purloiner's Perch")
    give(s, 0, "Rogue", 2)
    set_res(s, 0, g=10, m=0)
    act(s, "build:purloiners-perch")
    assert s.victory[0] == () and kind(s) == "action"


def test_T28_watcher_on_the_water_extends_the_game():
    """T28: the last seat returns a Monster to an Exhausted stack: the game does not end."""
    s = new(first=0)
    keep_dukes(s)
    end_turn(s)
    hills = monster_position(s, "Hills")
    empty_stack(s, hills)
    for p in range(CIT0, CIT0 + 3):
        empty_stack(s, p)
    give_monster(s, 1, "Goblin")
    give(s, 1, "Archer", 2)
    domain_on_top(s, "Watcher on the Water")
    to_actions(s)
    set_res(s, 1, g=6, m=0, vp=0)
    act(s, "build:watcher-on-the-water", "return:goblin")
    assert s.exhausted_count() == 3 and MON_NAME[s.stacks[hills][-1]] == "Goblin"
    assert res(s, 1)[3] == 3 and s.victory[1] == ()
    act(s, "gain:gold")
    assert s.phase != P_OVER and s.active == 0 and s.turn == 3


def test_T28_without_the_return_the_game_ends():
    """T28 control: declining the return, 4 Exhausted stacks end the game after the last seat."""
    s = new(first=0)
    keep_dukes(s)
    end_turn(s)
    empty_stack(s, monster_position(s, "Hills"))
    for p in range(CIT0, CIT0 + 3):
        empty_stack(s, p)
    give_monster(s, 1, "Goblin")
    give(s, 1, "Archer", 2)
    domain_on_top(s, "Watcher on the Water")
    to_actions(s)
    set_res(s, 1, g=6, m=0)
    act(s, "build:watcher-on-the-water", "decline", "gain:gold")
    assert s.phase == P_OVER


def test_T29_recruited_citizen_harvests_from_the_next_roll():
    """T29: a Peasant recruited this turn did not harvest this turn; it does on the next roll."""
    s = new(dice=(5, 6, 5, 2))
    keep_dukes(s)
    to_actions(s)
    assert s.payouts[0] == (1, 1, 0, 0)
    set_res(s, 0, g=3, m=0)
    act(s, "recruit:peasant")
    assert s.own[CARD["Peasant"]] == 1 and s.payouts[0] == (1, 1, 0, 0)
    act(s, "gain:gold")
    to_actions(s)
    assert s.active == 1 and s.payouts[0] == (2, 0, 0, 0)  # Starter Peasant + Peasant, off-turn


def test_T30_domain_extra_action_keeps_the_second_action():
    """T30: Eye of Asteraten: 5 Strength, slay a Goblin inside the Build; one Action is left."""
    s = action_phase()
    give(s, 0, "Cleric")
    give(s, 0, "Archer")
    domain_on_top(s, "Eye of Asteraten")
    set_res(s, 0, g=8, st=0, m=0)
    act(s, "build:eye-of-asteraten")
    assert "slay:hills" in ids(s) and "decline" in ids(s)
    act(s, "slay:hills")
    assert MON_NAME[s.victory[0][-1]] == "Goblin"
    assert res(s, 0)[:2] == (1, 4)
    assert kind(s) == "action" and s.tasks[-1][2] == 1


# ---------------------------------------------------------------- T31-T34 solo
def solo_to_monsters(dice, setup="first-game", prep=None, picks=None):
    """A solo game at its Monsters phase after two 'gain' Actions."""
    s = new(1, dice=dice, setup=setup)
    if prep:
        prep(s)
    keep_dukes(s)
    to_actions(s, picks)
    act(s, "gain:gold", "gain:gold")
    return s


def test_T31_solo_doubles_attack_twice():
    """T31: 3+3: stack 3 attacks twice; column 3 loses 2 Citizens (slot 3 or slot 8)."""
    s = solo_to_monsters((3, 3))
    assert s.decision(0).kind == "capture"
    assert ids(s) == ["capture:mercenary", "capture:champion"]
    act(s, "capture:mercenary")
    assert ids(s) == ["capture:mercenary", "capture:champion"]
    act(s, "capture:champion")
    assert sorted(s.cap_cit) == sorted([CIT_INDEX["Mercenary"], CIT_INDEX["Champion"]])


def test_T31_solo_sum_attacks_nothing():
    """T31: 2+5: stacks 2 and 5 attack, in that order; the sum 7 does nothing."""
    s = solo_to_monsters((2, 5))
    assert ids(s) == ["capture:merchant", "capture:rogue"]
    act(s, "capture:rogue")
    assert ids(s) == ["capture:peasant", "capture:butcher"]
    act(s, "capture:butcher")
    assert s.cap_cit == (CIT_INDEX["Rogue"], CIT_INDEX["Butcher"])
    assert s.phase != 0 and kind(s) in ("action", "free-resource", "over")


def test_T31_solo_six_chooses_a_stack():
    """T31: a 6 lets the player pick a non-Exhausted Monster stack; an Exhausted one attacks nothing."""
    s = solo_to_monsters((6, 1), prep=lambda s: empty_stack(s, 0))
    # die 1 points at the Exhausted Hills stack: nothing; the 6 asks for a stack
    assert s.decision(0).kind == "monster-six"
    assert ids(s) == ["attack:ruins", "attack:forest", "attack:valley", "attack:mountains"]
    act(s, "attack:valley")
    assert ids(s) == ["capture:archer", "capture:paladin"]
    act(s, "capture:paladin")
    assert s.cap_cit == (CIT_INDEX["Paladin"],)


def test_T32_solo_capture_falls_back_to_the_domain():
    """T32: column 4's Citizens Exhausted: the top Domain of column 4 is captured."""
    def prep(s):
        empty_stack(s, CIT0 + 3)
        empty_stack(s, CIT0 + 8)
    s = solo_to_monsters((4, 1), prep=prep)
    # die 4 first: column 4 has no Citizen left, so its top Domain is captured
    assert len(s.cap_dom) == 1 and len(s.stacks[DOM0 + 3]) == 2
    assert ids(s) == ["capture:cleric", "capture:knight"]  # then die 1 attacks column 1


def test_T32_solo_attack_on_an_empty_column_loses():
    """T32: the column's Citizen and Domain stacks all Exhausted: an immediate loss."""
    def prep(s):
        empty_stack(s, CIT0 + 3)
        empty_stack(s, CIT0 + 8)
        empty_stack(s, DOM0 + 3)
    s = new(1, dice=(4, 4))
    prep(s)
    keep_dukes(s)
    to_actions(s)
    act(s, "gain:gold", "gain:gold")
    assert s.phase == P_OVER and s.result == "loss" and s.winners == ()


def test_T33_solo_second_harvest_uses_new_citizens():
    """T33: a Peasant recruited this round uses its off-turn power in the Second Harvest."""
    s = new(1, dice=(5, 6))
    keep_dukes(s)
    to_actions(s)
    set_res(s, 0, g=3, m=0)
    act(s, "recruit:peasant", "gain:strength")
    # Monsters: die 5 attacks column 5, the 6 attacks a stack of the player's choice
    act(s, "capture:butcher", "attack:hills", "capture:cleric")
    second = [e for e in s.log if e.kind == "harvest" and e.data["second"]][-1]
    # Starter Peasant + the new Peasant + Starter Knight, off-turn
    assert second.data["payouts"] == [[2, 1, 0, 0]]


def test_T33_solo_thief_takes_from_the_bank():
    """T33: the solo Thief's on-turn power takes up to 3 Gold or Magic from the Bank."""
    s = new(1, dice=(3, 4), setup="mastery-over-magic")
    give(s, 0, "Thief")
    keep_dukes(s)
    assert "steal:the-bank:gold:3" in ids(s) and "steal:the-bank:magic:3" in ids(s)
    act(s, "steal:the-bank:gold:3")
    assert res(s, 0)[0] == 2 + 3


def test_T34_solo_last_monster_wins_at_once():
    """T34: slaying the last Monster ends the game at once with a win."""
    s = new(1, dice=(5, 6))
    keep_dukes(s)
    to_actions(s)
    for p in range(5):
        s.stacks[p] = ()
    s.stacks[0] = (MON_INDEX["Goblin"],)
    set_res(s, 0, st=1)
    act(s, "slay:hills")
    assert s.phase == P_OVER and s.result == "win" and s.winners == (0,)


def test_T34_solo_fifth_exhausted_stack_compares_scores():
    """T34: the fifth Exhausted stack ends the game at once; the scores are compared."""
    s = new(1, dice=(5, 6))
    keep_dukes(s)
    to_actions(s)
    for p in range(CIT0, CIT0 + 4):
        empty_stack(s, p)
    s.stacks[CIT0 + 4] = (CIT_INDEX["Peasant"],)
    set_res(s, 0, g=3, m=0)
    act(s, "recruit:peasant")
    assert s.phase == P_OVER
    me, lord = s.score(0), s.dark_lord_score()
    assert s.result == ("win" if me > lord else "loss")


def test_T34_dark_lord_score():
    """T34: surviving Monster VP + captured Domain VP + the Dark Lord Duke on those cards."""
    s = new(1)
    keep_dukes(s)
    s.dark_lord = DUKE_INDEX["Hrothgar the Conqueror"]  # 2 per Monster, 1 per Titan
    for p in range(5):
        s.stacks[p] = ()
    s.stacks[0] = (MON_INDEX["Goblin King"], MON_INDEX["Goblin Mage"])
    s.cap_dom = (DOM_INDEX["Palace of the Dawn"],)
    s.cap_cit = (CIT_INDEX["Archer"],)
    assert s.dark_lord_score() == (4 + 2) + 4 + (2 * 2 + 1)
    s.dark_lord = DUKE_INDEX["Isabella the Righteous"]  # 2 per Holy, 1 per Soldier icon
    # Palace: Soldier x2 + Worker; Archer: Soldier -> 3 Soldier icons
    assert s.dark_lord_score() == (4 + 2) + 4 + 3
