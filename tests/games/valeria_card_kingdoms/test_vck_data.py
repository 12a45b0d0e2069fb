"""Valeria: Card Kingdoms component data: counts the rulebook fixes, sources, setups, options."""

from __future__ import annotations

import pytest

from dicetable.engine import GameConfigError, get_game, new_game
from dicetable.games.valeria_card_kingdoms import components as c
from dicetable.games.valeria_card_kingdoms.rules import CIT0, DOM0

GAME = "valeria-card-kingdoms"


def test_card_counts_of_the_base_set():
    """R1.1: 108 Citizens (18 x 6), 48 Monsters (8 x 6), 24 Domains, 10 Dukes, 2 Starter kinds."""
    assert len(c.CITIZENS) == 18 and c.CITIZEN_FILE.copies == 6
    assert sum(m.copies for m in c.MONSTERS) == 48 and len(c.AREAS) == 8
    assert len(c.DOMAINS) == 24 and len(c.DUKES) == 10
    assert sorted(c.CIT_DISPLAY[t] for t in c.STARTER_TYPES) == ["Starter Knight", "Starter Peasant"]


def test_every_card_has_a_source():
    items = [*c.CITIZENS, *c.STARTERS, *c.MONSTERS, *c.DOMAINS, *c.DUKES,
             *c.SETUP_FILE.setups, c.RULES, *c.MONSTER_FILE.areas]
    assert all(item.source.strip() for item in items)


def test_citizen_slots_match_the_rulebook():
    """R2.2, §14.1: one stack per slot 1-8, 9-10, 11-12; the slot pairs of §14.1."""
    pairs = {c.SLOT_LABEL[p]: sorted(c.CIT_NAME[t] for t in c.SLOT_TYPES[p]) for p in range(10)}
    assert pairs == {"1": ["Cleric", "Monk"], "2": ["Blacksmith", "Merchant"], "3": ["Alchemist", "Mercenary"],
                     "4": ["Archer", "Wizard"], "5": ["Peasant"], "6": ["Knight"], "7": ["Rogue", "Thief"],
                     "8": ["Champion", "Warlord"], "9-10": ["Paladin", "Priestess"],
                     "11-12": ["Butcher", "Miner"]}


def test_each_area_has_three_strengths_and_one_five_player_card():
    """R1.3, R3.3."""
    for a in range(8):
        assert len(c.monster_stack(a, True)) == 6 and len(c.monster_stack(a, False)) == 5
        assert len({c.MON_STR[m] for m in c.monster_stack(a, True)}) == 3


def test_named_setups_of_the_rulebook():
    """§14.3-14.5: Monster Areas, Citizens and removed Domains of each named setup."""
    gg = c.SETUPS["glittering-gold"]
    assert gg.monsters == ["Hills", "Ruins", "Forest", "Swamp", "Caverns"]
    assert gg.remove_domains == ["Forgotten Sorrows", "The Violet Thorn", "Golden Obelisk of Nae",
                                 "Monolith of Ostendaar"]
    mm = c.SETUPS["mastery-over-magic"]
    assert mm.monsters == ["Barrens", "Ruins", "Forest", "Valley", "Mountains"]
    assert "Thief" in mm.citizens and "Wizard" in mm.citizens
    assert mm.remove_domains == ["Eye of Asteraten", "Blood Crow Army", "Foxgrove Palisade", "Gargan's Embrace"]
    mb = c.SETUPS["monster-blood"]
    assert mb.citizens == ["Cleric", "Blacksmith", "Mercenary", "Archer", "Peasant", "Knight", "Rogue",
                           "Warlord", "Priestess", "Miner"]
    assert mb.remove_domains == ["Forgotten Sorrows", "Nest of the Weaver Witch", "Cathedral of St. Aquila",
                                 "Cutthroat's Truce"]


@pytest.mark.parametrize("setup", ["first-game", "glittering-gold", "mastery-over-magic", "monster-blood"])
def test_named_setup_monster_stacks_run_weakest_to_strongest(setup):
    """R3.4: the listed left-to-right order is ascending by the top Monster's Strength (A1)."""
    keys = [c.area_order_key(c.AREAS.index(a)) for a in c.SETUPS[setup].monsters]
    assert keys == sorted(keys)


@pytest.mark.parametrize("players, per_domain", [(2, 3), (5, 4)])
def test_named_setup_removes_its_domains(players, per_domain):
    """R3.9, R11.3 (A): 20 Domains left after removing 4; 15 dealt (2-4 players) or all 20 (5)."""
    s = new_game(GAME, players, seed=3, options={"setup": "monster-blood"})
    dealt = [d for p in range(DOM0, DOM0 + 5) for d in s.stacks[p]]
    assert len(dealt) == 5 * per_domain and len(dealt) + len(s.dom_box) == 20
    removed = {c.DOM_INDEX[n] for n in c.SETUPS["monster-blood"].remove_domains}
    assert not removed & set(dealt + list(s.dom_box))


def test_random_setup_takes_one_area_per_tier():
    """A2: the random setup takes one Area per Strength tier, left to right; one type per slot."""
    seen = set()
    for seed in range(40):
        s = new_game(GAME, 2, seed=seed, options={"setup": "random"})
        tops = [c.area_order_key(a)[0] for a in s.areas]
        assert tops == [1, 2, 3, 4, 5]
        seen.update(s.areas)
        for i in range(10):
            assert len(set(s.stacks[CIT0 + i])) == 1 and s.stacks[CIT0 + i][0] in c.SLOT_TYPES[i]
    assert len(seen) == 8


def test_options_are_checked():
    spec = get_game(GAME)
    assert spec.resolve_options(2, {}) == {"setup": "first-game", "citizens": "standard"}
    with pytest.raises(GameConfigError, match="allowed"):
        new_game(GAME, 2, options={"setup": "plains"})
    with pytest.raises(GameConfigError):
        new_game(GAME, 6)


def test_effect_vocabulary_rejects_a_bad_step():
    """A step with two kinds, or an unknown count, fails validation when the data loads."""
    with pytest.raises(ValueError):
        c.Step(gain=c.Amount(g=1), slay=c.Slay())
    with pytest.raises(ValueError):
        c.Per(gain=c.Amount(g=1), count="role:farmer")
