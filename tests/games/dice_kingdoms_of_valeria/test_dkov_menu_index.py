"""The Action menu's parts are found by an int index (``rules.actions.menu_indices``): it must pick
the same ``dicemath.reach`` arguments as the Domains a seat has claimed give (rulebook: Domain
Powers), and the menu must offer what ``reach`` says the dice can make."""

import random

import pytest

from dicetable.engine import Rng
from dicetable.engine.testing import random_step
from dicetable.games.dice_kingdoms_of_valeria import sheet as S
from dicetable.games.dice_kingdoms_of_valeria.dicemath import reach
from dicetable.games.dice_kingdoms_of_valeria.layout import LAYOUTS
from dicetable.games.dice_kingdoms_of_valeria.rules.actions import MENU_KEYS, menu_indices, power_bits, reach_key

from dkov_helpers import new


def _reference_keys(lay, claimed, dice, no_blue):
    """The ``reach`` arguments (after the colour) of the Yellow, Red and Green dice, read from the
    claimed Domains' powers one by one (``lay.power_masks``: Yellow +1/-1, Yellow Flip, Red +1/-1,
    Red Flip, Green +1/-1, Green Flip, Blue +1/-1, Blue Flip, Any)."""
    has = [bool(claimed & mask) for mask in lay.power_masks]
    blue = (dice[5], has[6], has[7], has[8], not no_blue)
    return tuple((dice[2 + c], has[2 * c], has[2 * c + 1], *blue) for c in range(3))


@pytest.mark.parametrize("season", sorted(LAYOUTS))
def test_menu_indices_pick_the_reach_keys_of_the_claimed_powers(season):
    lay = LAYOUTS[season]
    rnd = random.Random(season)
    everything = (1 << len(lay.dom_ids)) - 1
    masks = [0, everything, lay.power_all] + [1 << d for d in range(len(lay.dom_ids))]
    masks += [rnd.randrange(everything + 1) for _ in range(200)]
    for claimed in masks:
        bits = power_bits(lay, claimed)
        for _ in range(20):
            dice = tuple(rnd.randint(1, 6) for _ in range(6))
            for no_blue in (False, True):
                indices = menu_indices(bits, dice, no_blue)
                assert all(0 <= i < MENU_KEYS for i in indices)
                assert tuple(reach_key(i) for i in indices) == _reference_keys(lay, claimed, dice, no_blue)


def test_every_index_is_one_reach_key():
    keys = {reach_key(i) for i in range(MENU_KEYS)}
    assert len(keys) == MENU_KEYS == 6 * 2 * 2 * 6 * 2 * 2 * 2 * 2  # faces, powers, Blue's, Any, Blue allowed


@pytest.mark.parametrize("players,season", [(2, "summer"), (2, "winter"), (1, "summer"), (3, "winter")])
def test_recruit_menu_is_what_reach_makes(players, season):
    """At every Action phase of random games, the Recruit actions are the Citizen sections with an open
    pip whose value the Yellow die can make (``dicemath.reach``, with the Blue die unless Heavy Rain)."""
    checked = 0
    for state, seat, keys in _action_phases(players, season):
        lay, sh = state.lay, state.sheets[seat]
        made = reach("yellow", *keys[0])
        expected = {f"yellow:{lay.cit_names[s]}" for s in range(10)
                    if sh[S.CIT + s] < 2 and any(v in made for v in lay.cit_values[s])}
        offered = {a.id for a in state.legal_actions(seat) if a.id.startswith("yellow:")}
        assert offered == expected
        checked += 1
    assert checked > 10


def _action_phases(players, season):
    """``(state, seat, reference reach keys of the Yellow, Red and Green dice)`` at every Action phase of
    three seeded random games (the state is stepped on once the caller has read it)."""
    for seed in range(3):
        state = new(players, season, seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            task = state.pending(state.to_move[0])
            if task is not None and task[0] == "act":
                sh = state.sheets[task[1]]
                yield state, task[1], _reference_keys(state.lay, sh[S.DOM] & ~sh[S.VDOM], state.dice, state.no_blue)
            random_step(state, rng)


@pytest.mark.parametrize("season", sorted(LAYOUTS))
def test_power_bits_table_is_power_bits_of_every_mask(season):
    """The table the rules read (built from each mask without its lowest Domain) is ``power_bits`` itself."""
    from dicetable.games.dice_kingdoms_of_valeria.rules.actions import _MENUS

    lay = LAYOUTS[season]
    assert _MENUS[season].bits == tuple(power_bits(lay, claimed) for claimed in range(1 << len(lay.dom_ids)))


def _usable_roads(lay, sh):
    """(road, direction) pairs a pip may be marked on (rulebook: Roads and Domains), in Road order: a
    begun Road with open pips in its direction, an unbegun one from each claimed Domain at its ends."""
    out = []
    for r in range(lay.nr):
        if sh[lay.rc0 + r] >= lay.road_len[r]:
            continue
        if sh[lay.ro0 + r]:
            out.append((r, sh[lay.ro0 + r]))
            continue
        for dr, end in ((1, lay.road_a[r]), (2, lay.road_b[r])):
            if end >= 0 and sh[S.DOM] >> end & 1:
                out.append((r, dr))
    return out


def test_build_texts_are_kept_once_per_different_texts():
    """Every Green die index finds its own Build texts (``_build_how`` of its ``reach`` key) in the shared
    table, indices with equal texts share one entry and different texts never do."""
    from dicetable.games.dice_kingdoms_of_valeria.rules.actions import _MenuTables, _build_how

    tables = _MenuTables(LAYOUTS["summer"])  # a fresh table: the rules' own one stays as it is
    own = [_build_how(reach_key(g)) for g in range(MENU_KEYS)]
    at = [tables.add_how(g) for g in range(MENU_KEYS)]
    assert [tables.hows[h] for h in at] == own
    assert len(tables.hows) == len(set(own)) == len(tables.builds)
    for g in range(MENU_KEYS):
        assert at[g] == at[own.index(own[g])]


@pytest.mark.parametrize("season", sorted(LAYOUTS))
def test_build_menu_is_what_the_green_die_makes(season):
    """At every Action phase of random games, the Build actions offered are those the Green die's own
    texts give (``_builds`` made afresh from ``_build_how`` of the die's reference ``reach`` key) on every
    usable Road, longest first on each, then the shorter ones: sharing the Builds between die indices
    with equal texts changes nothing offered."""
    from dicetable.games.dice_kingdoms_of_valeria.rules.actions import _build_how, _builds

    checked = 0
    for state, seat, keys in _action_phases(2, season):
        lay, sh = state.lay, state.sheets[seat]
        how = _build_how(keys[2])
        longest, shorter = [], []
        for r, dr in _usable_roads(lay, sh):
            builds = _builds(lay, how, r, dr, lay.road_len[r] - sh[lay.rc0 + r])
            longest.append(builds.longest)
            shorter += builds.shorter
        offered = [a for a in state.legal_actions(seat) if a.id.startswith("green:")]
        assert [(a.id, a.label, a.payload) for a in offered] == [
            (a.id, a.label, a.payload) for a in longest + shorter]
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("season", sorted(LAYOUTS))
def test_shared_targets_say_how_their_own_die_makes_them(season):
    """Recruit and Slay targets are shared by die indices that reach a section or block the same way:
    for every index, each target's value and text are the ones ``reach`` gives for that index."""
    from dicetable.games.dice_kingdoms_of_valeria.rules.actions import _recruit_targets, _slay_targets
    from dicetable.games.dice_kingdoms_of_valeria.sheet import GUILDS

    lay = LAYOUTS[season]
    for k in range(MENU_KEYS):
        key = reach_key(k)
        vals = reach("yellow", *key)
        for target in _recruit_targets(season, key):
            s = target.section
            v = target.action.payload[2]
            assert v in lay.cit_values[s] and v in vals
            name = lay.cit_names[s]
            assert target.action.label == (f"Recruit: mark the {name} Citizen ({GUILDS[lay.cit_guild[s]]}) "
                                           f"with {vals[v][1]}")
        vals = reach("red", *key)
        for target in _slay_targets(season, key):
            v = target.payload[2]
            lo, hi = lay.block_range[target.block]
            assert lo <= v <= hi and v in vals
            assert target.lair == lay.block_lair[target.block]
            assert target.how == f" with {vals[v][1]}, then 1 Gold"
