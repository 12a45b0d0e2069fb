"""Every Citizen, Starter, Monster, Domain and Duke does what its card prints.

Expected values are typed from the public card list of the base game, not read
from the game's data, so a data mistake fails here.
"""

from __future__ import annotations

import pytest

from dicetable.games.valeria_card_kingdoms.components import (
    CIT_INDEX, DOM_INDEX, DOM_NAME, DUKE_INDEX, DUKE_NAME, MON_INDEX, MON_NAME,
)
from dicetable.games.valeria_card_kingdoms.rules import DOM0, P_OVER

from vck_helpers import (
    CARD, act, action_phase, citizen_position, clear_tableau, domain_on_top, empty_stack, end_turn, give,
    give_domain, give_monster, ids, keep_dukes, kind, monster_on_top, monster_position, new, res, set_res,
    to_actions,
)

# dice that activate a card of these slots exactly once
DICE_FOR = {1: (1, 3), 2: (2, 3), 3: (3, 1), 4: (4, 1), 5: (5, 1), 6: (6, 1), 7: (3, 4), 8: (3, 5),
            9: (4, 5), 11: (5, 6)}
SETUP_OF = {"Monk": "glittering-gold", "Alchemist": "glittering-gold", "Blacksmith": "monster-blood",
            "Wizard": "mastery-over-magic", "Thief": "mastery-over-magic", "Warlord": "monster-blood",
            "Priestess": "monster-blood", "Miner": "monster-blood"}

# (card, slot, side, extra cards, picks, expected (Gold, Strength, Magic, VP) Harvest payout)
CITIZEN_CASES = [
    ("Cleric", 1, "on", {}, [], (0, 0, 3, 0)),
    ("Cleric", 1, "off", {}, [], (0, 0, 1, 0)),
    ("Monk", 1, "on", {}, [], (1, 0, 2, 0)),
    ("Monk", 1, "off", {}, ["exchange:monk"], (-1, 0, 2, 0)),
    ("Monk", 1, "off", {}, ["exchange:done"], (0, 0, 0, 0)),
    ("Merchant", 2, "on", {}, ["choose:1"], (2, 0, 0, 0)),
    ("Merchant", 2, "on", {}, ["choose:2"], (0, 0, 2, 0)),
    ("Merchant", 2, "off", {}, [], (1, 0, 0, 0)),
    ("Blacksmith", 2, "on", {"Archer": 2}, [], (2, 0, 0, 0)),
    ("Blacksmith", 2, "off", {}, [], (1, 0, 0, 0)),
    ("Mercenary", 3, "on", {}, [], (1, 1, 0, 0)),
    ("Mercenary", 3, "off", {}, ["exchange:mercenary"], (2, -1, 0, 0)),
    ("Alchemist", 3, "on", {}, ["exchange:alchemist"], (-1, 0, 3, 0)),
    ("Alchemist", 3, "off", {}, ["exchange:alchemist"], (2, 0, -1, 0)),
    ("Archer", 4, "on", {}, [], (0, 2, 0, 0)),
    ("Archer", 4, "off", {}, [], (0, 1, 0, 0)),
    ("Wizard", 4, "on", {}, [], (0, 1, 1, 0)),
    ("Wizard", 4, "off", {}, [], (0, 0, 1, 0)),
    ("Peasant", 5, "on", {}, [], (1, 0, 0, 0)),
    ("Peasant", 5, "off", {}, [], (1, 0, 0, 0)),
    ("Knight", 6, "on", {}, [], (0, 1, 0, 0)),
    ("Knight", 6, "off", {}, [], (0, 1, 0, 0)),
    ("Rogue", 7, "on", {}, [], (2, 2, 0, 0)),
    ("Rogue", 7, "off", {}, [], (1, 1, 0, 0)),
    ("Thief", 7, "on", {}, ["steal:p2:gold:3"], (3, 0, 0, 0)),
    ("Thief", 7, "on", {}, ["steal:p2:magic:2"], (0, 0, 2, 0)),
    ("Thief", 7, "off", {}, ["choose:1"], (2, 0, 0, 0)),
    ("Thief", 7, "off", {}, ["choose:2"], (0, 0, 2, 0)),
    ("Champion", 8, "on", {}, [], (0, 4, 0, 0)),
    ("Champion", 8, "off", {}, ["exchange:champion"], (-1, 4, 0, 0)),
    ("Warlord", 8, "on", {"Archer": 1}, [], (0, 2, 0, 0)),
    ("Warlord", 8, "off", {"Knight": 1, "Starter Knight": 1}, [], (0, 2, 0, 0)),
    ("Paladin", 9, "on", {}, [], (0, 1, 2, 0)),
    ("Paladin", 9, "off", {}, ["exchange:paladin"], (0, -1, 3, 0)),
    ("Priestess", 9, "on", {}, [], (0, 2, 1, 0)),
    ("Priestess", 9, "off", {}, ["exchange:priestess"], (0, 3, -1, 0)),
    ("Butcher", 11, "on", {"Merchant": 1}, [], (4, 0, 0, 0)),
    ("Butcher", 11, "off", {}, [], (4, 0, 0, 0)),
    ("Miner", 11, "on", {"domains": 2}, [], (3, 0, 0, 0)),
    ("Miner", 11, "off", {}, [], (4, 0, 0, 0)),
    ("Starter Peasant", 5, "on", {}, [], (1, 0, 0, 0)),
    ("Starter Peasant", 5, "off", {}, [], (1, 0, 0, 0)),
    ("Starter Knight", 6, "on", {}, [], (0, 1, 0, 0)),
    ("Starter Knight", 6, "off", {}, [], (0, 1, 0, 0)),
]


def test_every_citizen_and_starter_side_is_covered():
    covered = {(c[0], c[2]) for c in CITIZEN_CASES}
    assert covered == {(name, side) for name in CARD for side in ("on", "off")}


@pytest.mark.parametrize("card, slot, side, extra, picks, expected", CITIZEN_CASES,
                         ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CITIZEN_CASES)])
def test_citizen_power(card, slot, side, extra, picks, expected):
    """The card's on-turn power for the Active player, off-turn power for the others (R5.9)."""
    seat = 0 if side == "on" else 1
    s = new(dice=DICE_FOR[slot], setup=SETUP_OF.get(card, "first-game"))
    for p in (0, 1):
        clear_tableau(s, p)
        set_res(s, p, g=5, st=5, m=5, vp=0)
    give(s, seat, card)
    for name, n in extra.items():
        if name == "domains":
            give_domain(s, seat, "Grimmwater Keep")
            give_domain(s, seat, "Shattered Hand")
        else:
            give(s, seat, name, n)
    keep_dukes(s)
    to_actions(s, {seat: picks, 1 - seat: ["free:strength"]})
    assert s.payouts[seat] == expected
    if card == "Thief" and side == "on":
        # taken from the opponent, not from the Bank
        assert s.payouts[1][0] == -expected[0] and s.payouts[1][2] == -expected[2]


# (Monster, setup, Strength, Magic cost, VP, Monsters already slain, picks, reward (g, s, m, vp), Citizen taken)
MONSTER_CASES = [
    ("Goblin", "first-game", 1, 0, 1, [], [], (1, 0, 0, 0), None),
    ("Goblin Mage", "first-game", 3, 0, 2, [], ["choose:1"], (1, 0, 0, 0), None),
    ("Goblin Mage", "first-game", 3, 0, 2, [], ["choose:2"], (0, 0, 1, 0), None),
    ("Goblin King", "first-game", 6, 0, 4, ["Goblin", "Goblin"], [], (3, 0, 0, 0), None),
    ("Skeleton", "first-game", 2, 0, 2, [], [], (1, 0, 0, 0), None),
    ("Flaming Skeleton", "first-game", 5, 0, 3, [], [], (1, 0, 1, 0), None),
    ("Skeleton King", "first-game", 8, 0, 4, ["Skeleton"], [], (4, 0, 0, 0), None),
    ("Treant", "first-game", 3, 0, 1, [], [], (1, 0, 1, 0), None),
    ("Bane Spider", "first-game", 6, 0, 2, [], ["choose:1"], (3, 0, 0, 0), None),
    ("Bane Spider", "first-game", 6, 0, 2, [], ["choose:2"], (0, 0, 0, 0), "Knight"),
    ("Spider Queen", "first-game", 10, 3, 5, ["Treant"], ["choose:1"], (4, 0, 0, 0), None),
    ("Spider Queen", "first-game", 10, 3, 5, [], ["choose:2", "take:paladin"], (0, 0, 0, 1), "Paladin"),
    ("Owlbear", "first-game", 4, 0, 2, [], [], (0, 0, 2, 0), None),
    ("Giant", "first-game", 8, 0, 3, [], [], (1, 0, 2, 0), None),
    ("Troll", "first-game", 12, 0, 6, ["Owlbear"], [], (0, 0, 4, 0), None),
    ("Dire Bear", "first-game", 5, 0, 3, [], ["choose:1"], (2, 0, 0, 0), None),
    ("Dire Bear", "first-game", 5, 0, 3, [], ["choose:2"], (0, 0, 2, 0), None),
    ("Orc Warrior", "first-game", 9, 0, 3, [], ["take:cleric"], (0, 0, 0, 0), "Cleric"),
    ("Orc Chieftain", "first-game", 14, 0, 6, ["Dire Bear"], [], (4, 0, 0, 0), None),
    ("Gargoyle", "monster-blood", 1, 0, 1, [], [], (0, 0, 1, 0), None),
    ("Wraith", "monster-blood", 4, 3, 3, [], ["take:priestess"], (0, 0, 0, 0), "Priestess"),
    ("Witch Queen", "monster-blood", 5, 4, 5, ["Gargoyle", "Gargoyle"], [], (0, 0, 3, 0), None),
    ("Gelatinous Cube", "monster-blood", 4, 1, 3, [], [], (2, 0, 0, 0), None),
    ("Basilisk", "monster-blood", 6, 3, 4, [], ["choose:1"], (3, 0, 0, 0), None),
    ("Basilisk", "monster-blood", 6, 3, 4, [], ["choose:2"], (0, 0, 3, 0), None),
    ("Swamp Dragon", "monster-blood", 10, 4, 6, ["Gelatinous Cube"], [], (0, 0, 4, 0), None),
    ("Kobolds", "glittering-gold", 5, 1, 3, [], [], (2, 0, 1, 0), None),
    ("Gold Golem", "glittering-gold", 7, 3, 4, [], [], (5, 0, 0, 0), None),
    ("Red Dragon", "glittering-gold", 12, 6, 7, ["Kobolds"], [], (6, 0, 0, 0), None),
]


def test_every_monster_is_covered():
    assert {c[0] for c in MONSTER_CASES} == set(MON_NAME)


@pytest.mark.parametrize("name, setup, strength, magic, vp, slain, picks, reward, citizen", MONSTER_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(MONSTER_CASES)])
def test_monster(name, setup, strength, magic, vp, slain, picks, reward, citizen):
    """Slaying costs the printed Strength (+ Magic), scores its VP and pays its reward (R6.1-R6.5)."""
    s = action_phase(setup=setup)
    p = monster_on_top(s, name)
    for other in slain:
        give_monster(s, 0, other)

    def slay_ids():
        return [x.id for x in s.legal_actions(0) if x.id.startswith("slay:") and x.payload == p]

    set_res(s, 0, g=0, st=strength - 1, m=magic)
    assert slay_ids() == []  # one Strength short (the Magic only pays the Magic cost)
    if magic:
        set_res(s, 0, g=0, st=strength, m=magic - 1)
        assert slay_ids() == []  # the Magic cost unpaid
    set_res(s, 0, g=0, st=strength, m=magic, vp=0)
    before = s.public_vp(0)
    act(s, *slay_ids(), *picks)
    assert MON_NAME[s.victory[0][-1]] == name
    assert res(s, 0) == reward
    assert s.public_vp(0) - before == vp + reward[3]
    if citizen:
        assert s.own[CARD[citizen]] == 1


# (Domain, cost, VP, required Citizens)
DOMAIN_CASES = [
    ("Foxgrove Palisade", 9, 3, ["Rogue", "Archer"]),
    ("The Desert Orchid", 9, 3, ["Rogue", "Cleric"]),
    ("Emerald Stronghold", 12, 5, ["Cleric", "Archer", "Peasant"]),
    ("Pratchett's Plateau", 8, 3, ["Cleric", "Peasant"]),
    ("Cathedral of St. Aquila", 8, 3, ["Cleric", "Cleric"]),
    ("Darktide Harbour", 6, 2, ["Rogue", "Archer", "Peasant"]),
    ("Cloudrider's Camp", 8, 2, ["Cleric", "Archer"]),
    ("The Orb of Urdr", 6, 1, ["Rogue", "Cleric"]),
    ("Rogue's Landing", 7, 3, ["Rogue", "Peasant"]),
    ("Blood Crow Army", 5, 2, ["Archer", "Archer", "Archer"]),
    ("Eye of Asteraten", 8, 1, ["Cleric", "Archer"]),
    ("Cutthroat's Truce", 5, 1, ["Rogue", "Cleric"]),
    ("Halfpenny Hill", 6, 2, ["Peasant", "Peasant", "Peasant"]),
    ("Shattered Hand", 7, 3, ["Cleric", "Peasant"]),
    ("Forgotten Sorrows", 9, 3, ["Rogue", "Peasant"]),
    ("Watcher on the Water", 6, 3, ["Archer", "Archer"]),
    ("Gargan's Embrace", 7, 2, ["Archer", "Archer"]),
    ("Nest of the Weaver Witch", 6, 3, ["Peasant", "Peasant"]),
    ("Palace of the Dawn", 11, 4, ["Archer", "Archer", "Peasant"]),
    ("Grimmwater Keep", 10, 4, ["Rogue", "Peasant", "Peasant"]),
    ("The Violet Thorn", 7, 3, ["Cleric", "Archer"]),
    ("Purloiner's Perch", 10, 2, ["Rogue", "Rogue"]),
    ("Golden Obelisk of Nae", 6, 3, ["Cleric", "Peasant"]),
    ("Monolith of Ostendaar", 9, 3, ["Archer", "Peasant"]),
]


def test_every_domain_is_covered():
    assert {c[0] for c in DOMAIN_CASES} == set(DOM_NAME)


@pytest.mark.parametrize("name, cost, vp, needs", DOMAIN_CASES, ids=[c[0] for c in DOMAIN_CASES])
def test_domain_cost_requirement_and_vp(name, cost, vp, needs):
    """Build needs the printed Role icons in Citizens, costs the printed Gold, scores its VP (R6.9-R6.12)."""
    s = action_phase()
    domain_on_top(s, name)

    def build_ids():
        return [x.id for x in s.legal_actions(0) if x.id.startswith("build:") and x.payload == DOM0]

    for citizen in needs[:-1]:
        give(s, 0, citizen)
    set_res(s, 0, g=cost, m=0)
    assert build_ids() == []  # one required Citizen short
    give(s, 0, needs[-1])
    set_res(s, 0, g=cost - 1, m=0)
    assert build_ids() == []  # one Gold short
    set_res(s, 0, g=cost, m=0, vp=0)
    before = s.public_vp(0)
    act(s, *build_ids())
    assert DOM_INDEX[name] in s.doms[0]
    assert s.public_vp(0) - before == vp
    assert res(s, 0)[0] == 0 or name == "Cutthroat's Truce"  # the Truce takes 3 Gold at once


# ---------------------------------------------------------------- Domain powers
def built(name, setup="first-game", needs=None, players=2, **res_kw):
    """Seat 0 in its Action Phase, about to build ``name`` (roles given, exact Gold)."""
    s = action_phase(players, setup)
    domain_on_top(s, name)
    for case in DOMAIN_CASES:
        if case[0] == name:
            for citizen in case[3]:
                give(s, 0, citizen)
            set_res(s, 0, g=case[1], st=0, m=0)
    set_res(s, 0, **res_kw)
    return s


def test_power_foxgrove_palisade():
    """Your Roll Phase: pay 2 Gold to set one die to 6."""
    s = new(dice=(2, 3))
    give_domain(s, 0, "Foxgrove Palisade")
    set_res(s, 0, g=2)
    keep_dukes(s)
    assert ids(s) == ["die:foxgrove-palisade:1", "die:foxgrove-palisade:2", "dice:done"]
    act(s, "die:foxgrove-palisade:2")
    assert s.dice == (2, 6) and res(s, 0)[0] == 0 + 0  # paid 2; 2-6-8 harvests no Gold


def test_power_foxgrove_label_shows_the_die_as_rolled():
    """A die-change label names the die's value now, whatever dice an earlier game showed."""
    labels = []
    for dice in ((2, 3), (4, 5)):
        s = new(dice=dice)
        give_domain(s, 0, "Foxgrove Palisade")
        set_res(s, 0, g=2)
        keep_dukes(s)
        labels.append([a.label for a in s.legal_actions(0)][:2])
    assert labels == [
        ["Foxgrove Palisade: change die 1 from 2 to 6 (pay 2 Gold)",
         "Foxgrove Palisade: change die 2 from 3 to 6 (pay 2 Gold)"],
        ["Foxgrove Palisade: change die 1 from 4 to 6 (pay 2 Gold)",
         "Foxgrove Palisade: change die 2 from 5 to 6 (pay 2 Gold)"]]


def test_power_foxgrove_needs_real_gold():
    """Foxgrove's 2 Gold cannot be paid with Magic (A3): with 1 Gold it is not offered."""
    s = new(dice=(2, 3))
    give_domain(s, 0, "Foxgrove Palisade")
    set_res(s, 0, g=1, m=5)
    keep_dukes(s)
    assert kind(s) == "action"


def test_power_desert_orchid_costs_per_holy():
    """Your Roll Phase: 1 Gold per Holy Citizen to set one die to 1."""
    s = new(dice=(2, 3))
    give_domain(s, 0, "The Desert Orchid")
    give(s, 0, "Cleric", 2)
    set_res(s, 0, g=2)
    keep_dukes(s)
    act(s, "die:the-desert-orchid:2")
    assert s.dice == (2, 1) and res(s, 0)[0] == 0
    to_actions(s)
    assert s.payouts[0] == (0, 0, 3 + 3, 0)  # then two Clerics on the 1: on-turn 3 Magic each


def test_power_emerald_stronghold_no_surcharge():
    """You recruit without the '+': a second Peasant costs 2."""
    s = action_phase()
    give_domain(s, 0, "Emerald Stronghold")
    assert s.recruit_cost(0, CIT_INDEX["Peasant"]) == 2
    set_res(s, 0, g=2, m=0)
    act(s, "recruit:peasant")
    assert res(s, 0)[0] == 0


def test_power_pratchetts_plateau_discount():
    """Your Domains cost 1 Gold less."""
    s = built("Palace of the Dawn")
    give_domain(s, 0, "Pratchett's Plateau")
    set_res(s, 0, g=10)
    act(s, "build:palace-of-the-dawn")
    assert res(s, 0)[0] == 0


def test_power_cathedral_of_st_aquila():
    """End of your Action Phase: you may take 1 Gold from a player of your choice."""
    s = built("Cathedral of St. Aquila")
    act(s, "build:cathedral-of-st-aquila", "gain:strength")
    assert ids(s) == ["steal:p2:gold:1", "steal:none"]
    before = res(s, 1)[0]
    act(s, "steal:p2:gold:1")
    assert res(s, 0)[0] == 1 and res(s, 1)[0] == before - 1


def test_power_darktide_harbour():
    """Gain a Shadow Citizen from the Center Stacks, free."""
    s = built("Darktide Harbour")
    act(s, "build:darktide-harbour")
    assert ids(s) == ["take:mercenary", "take:rogue"]
    act(s, "take:mercenary")
    assert s.own[CARD["Mercenary"]] == 1


def test_power_cloudriders_camp():
    """3 Strength and a Soldier Citizen of base cost <= 2 (not the Archer at 4)."""
    s = built("Cloudrider's Camp")
    act(s, "build:cloudriders-camp")
    assert res(s, 0)[1] == 3
    assert ids(s) == ["take:knight", "take:champion"]
    act(s, "take:champion")
    assert s.own[CARD["Champion"]] == 1


def test_power_orb_of_urdr():
    """End of your Action Phase: you may take 1 Magic from a player of your choice."""
    s = built("The Orb of Urdr")
    act(s, "build:the-orb-of-urdr", "gain:gold")
    assert ids(s) == ["steal:p2:magic:1", "steal:none"]
    act(s, "steal:p2:magic:1")
    assert res(s, 0)[2] == 1


def test_power_rogues_landing():
    """Gain a Worker Citizen."""
    s = built("Rogue's Landing")
    act(s, "build:rogues-landing")
    assert ids(s) == ["take:merchant", "take:peasant", "take:butcher"]
    act(s, "take:butcher")
    assert s.own[CARD["Butcher"]] == 1


@pytest.mark.parametrize("name, gain", [("Blood Crow Army", (0, 1, 0)), ("Halfpenny Hill", (1, 0, 0)),
                                        ("Monolith of Ostendaar", (0, 0, 1))])
def test_power_start_of_action_phase(name, gain):
    """Start of your Action Phase: 1 resource (from the next turn on)."""
    s = new(dice=(1, 2, 1, 2, 1, 2))
    give_domain(s, 0, name)
    keep_dukes(s)
    to_actions(s, {0: ["free:gold"]})
    assert res(s, 0)[:3] == (2 + 1 + gain[0], gain[1], 1 + gain[2])


def test_power_eye_of_asteraten():
    """5 Strength, then you may slay a Monster at normal cost (T30 covers the slay)."""
    s = built("Eye of Asteraten")
    act(s, "build:eye-of-asteraten")
    assert res(s, 0)[1] == 5
    act(s, "decline")
    assert kind(s) == "action" and s.victory[0] == ()


def test_power_cutthroats_truce():
    """Take 3 Gold from a player of your choice (what they have, if less)."""
    s = built("Cutthroat's Truce", players=3)
    set_res(s, 2, g=2)
    act(s, "build:cutthroats-truce")
    assert ids(s) == ["steal:p2:gold:3", "steal:p3:gold:2"]
    act(s, "steal:p3:gold:2")
    assert res(s, 0)[0] == 2 and res(s, 2)[0] == 0


def test_power_shattered_hand():
    """Gain a Holy Citizen."""
    s = built("Shattered Hand")
    act(s, "build:shattered-hand")
    assert ids(s) == ["take:cleric", "take:paladin"]
    act(s, "take:paladin")
    assert s.own[CARD["Paladin"]] == 1


def test_power_forgotten_sorrows():
    """Your Action Phase: 1 Magic whenever you gain a Citizen."""
    s = action_phase()
    give_domain(s, 0, "Forgotten Sorrows")
    set_res(s, 0, g=3, m=0)
    act(s, "recruit:peasant")
    assert res(s, 0)[:3] == (0, 1, 1)


def test_power_watcher_on_the_water():
    """You may return one of your slain Monsters on top of its stack for 3 VP."""
    s = built("Watcher on the Water", vp=0)
    give_monster(s, 0, "Troll")
    act(s, "build:watcher-on-the-water")
    assert ids(s) == ["return:troll", "decline"]
    act(s, "return:troll")
    valley = monster_position(s, "Valley")
    assert MON_NAME[s.stacks[valley][-1]] == "Troll" and s.victory[0] == ()
    assert res(s, 0)[3] == 3


def test_power_gargans_embrace_on_a_doubles_roll():
    """Whenever any roll shows doubles: 1 VP (the owner's own roll too)."""
    s = new(dice=(3, 3))
    give_domain(s, 0, "Gargan's Embrace")
    keep_dukes(s)
    assert res(s, 0)[3] == 1


def test_power_nest_of_the_weaver_witch():
    """You may return one of your Citizens (not a Starter) to its stack for 3 VP."""
    s = built("Nest of the Weaver Witch", vp=0)
    archers = citizen_position(s, "Archer")
    empty_stack(s, archers)
    give(s, 0, "Archer")
    act(s, "build:nest-of-the-weaver-witch")
    assert ids(s) == ["return:archer", "return:peasant", "decline"]
    act(s, "return:archer")
    assert s.stacks[archers] == (CIT_INDEX["Archer"],) and not s.exhausted >> archers & 1
    assert s.own[CARD["Archer"]] == 0 and res(s, 0)[3] == 3


def test_power_palace_of_the_dawn():
    """Your Roll Phase: lower one die by 1."""
    s = new(dice=(4, 6))
    give_domain(s, 0, "Palace of the Dawn")
    keep_dukes(s)
    act(s, "die:palace-of-the-dawn:2")
    assert s.dice == (4, 5)


def test_power_grimmwater_keep():
    """Gain a Citizen of base cost <= 3 (not the Archer)."""
    s = built("Grimmwater Keep")
    act(s, "build:grimmwater-keep")
    assert "take:cleric" in ids(s) and "take:archer" not in ids(s)
    act(s, "take:cleric")
    assert s.own[CARD["Cleric"]] == 1


def test_power_violet_thorn():
    """Your Action Phase: 1 Magic whenever you slay a Monster."""
    s = action_phase()
    give_domain(s, 0, "The Violet Thorn")
    set_res(s, 0, g=0, st=1, m=0)
    act(s, "slay:hills")
    assert res(s, 0)[:3] == (1, 0, 1)


def test_power_purloiners_perch():
    """Take a random Monster from a player's Victory stack (T27 covers the details)."""
    s = built("Purloiner's Perch")
    give_monster(s, 1, "Goblin")
    act(s, "build:purloiners-perch")
    assert [MON_NAME[m] for m in s.victory[0]] == ["Goblin"]


def test_power_golden_obelisk_of_nae():
    """You may pay 3 Magic for 3 VP."""
    s = built("Golden Obelisk of Nae")
    set_res(s, 0, m=3, vp=0)
    act(s, "build:golden-obelisk-of-nae", "pay:6g")
    assert ids(s) == ["exchange:accept", "decline"]
    act(s, "exchange:accept")
    assert res(s, 0)[2:] == (0, 3)


def test_power_golden_obelisk_without_magic_does_nothing():
    s = built("Golden Obelisk of Nae")
    set_res(s, 0, m=2, vp=0)
    act(s, "build:golden-obelisk-of-nae", "pay:6g")
    assert kind(s) == "action" and res(s, 0)[2:] == (2, 0)


# ---------------------------------------------------------------- Dukes
# holdings: 7 Gold, 8 Strength, 9 Magic; Peasant x2, Archer, Rogue, Cleric x3 (7 Citizens);
# Palace of the Dawn (Soldier x2 + Worker) and Shattered Hand (Holy + Worker);
# Goblin (Minion), Goblin Mage (Titan), Troll (Boss), Owlbear (Beast).
# Icons: Worker 2+1+1 = 4, Soldier 1+2 = 3, Shadow 1, Holy 3+1 = 4.
DUKE_CASES = [
    ("Cornelius the Dreamer", (2 + 2 + 3) + 3 * 2),
    ("El'syn, Saint of Shadows", (1 + 2 + 2) + 2 * 1 + 2 * 4),
    ("Elysium the Allsmith", (1 + 2 + 2) + (4 + 3 + 1 + 4)),
    ("Hrothgar the Conqueror", (1 + 2 + 2) + 2 * 4 + 1),
    ("Isabella the Righteous", (2 + 2 + 3) + 2 * 4 + 3),
    ("Lekzand'r the Protector", (2 + 2 + 3) + 2 * 4 + 4),
    ("Node, Master of Swords", (2 + 2 + 3) + 2 * 1 + 3),
    ("Reese the Firebrand", (1 + 2 + 2) + 4 + 7 + 2),
    ("Simon the Unclean", (3 + 4 + 4) + 3 + 4),
    ("Waryn, Lord of Rogues", (2 + 2 + 3) + 2 * 1 + 4),
]


def test_every_duke_is_covered():
    assert {c[0] for c in DUKE_CASES} == set(DUKE_NAME)


@pytest.mark.parametrize("name, expected", DUKE_CASES, ids=[c[0] for c in DUKE_CASES])
def test_duke_scoring(name, expected):
    """The Duke scores its printed conditions; Role icons on Citizens and Domains (R8.5)."""
    s = new()
    keep_dukes(s)
    clear_tableau(s, 0)
    give(s, 0, "Starter Peasant")
    give(s, 0, "Starter Knight")
    for card, n in (("Peasant", 2), ("Archer", 1), ("Rogue", 1), ("Cleric", 3)):
        give(s, 0, card, n)
    s.doms[0] = (DOM_INDEX["Palace of the Dawn"], DOM_INDEX["Shattered Hand"])
    s.victory[0] = tuple(MON_INDEX[m] for m in ("Goblin", "Goblin Mage", "Troll", "Owlbear"))
    set_res(s, 0, g=7, st=8, m=9)
    s.dukes[0] = DUKE_INDEX[name]
    assert s.duke_vp(0) == expected


def test_duke_counts_in_the_final_score_only():
    """Before the end the scores are public VP; at the end the Duke is added (R8.4, R3.15)."""
    s = new(dice=(5, 6, 5, 6))
    keep_dukes(s)
    s.dukes[0] = DUKE_INDEX["Cornelius the Dreamer"]
    assert s.scores[0] == s.public_vp(0)
    for p in range(DOM0, DOM0 + 5):
        s.stacks[p] = ()
    end_turn(s)
    end_turn(s)
    assert s.phase == P_OVER
    assert s.scores[0] == s.public_vp(0) + s.duke_vp(0) and s.duke_vp(0) > 0
