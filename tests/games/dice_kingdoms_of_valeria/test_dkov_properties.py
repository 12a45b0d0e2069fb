"""Property tests: the sheet invariant after every action (the conformance check runs over the
registry, tests/engine/test_conformance.py)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.engine import Rng
from dicetable.engine.testing import random_step
from dicetable.games.dice_kingdoms_of_valeria.rules import marked_pips

from dkov_helpers import grew, invariant, new

CONFIGS = [(p, sheets) for p in range(1, 6) for sheets in ("summer", "winter")]


@pytest.mark.parametrize("players,sheets", CONFIGS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_no_skipped_pip_and_nothing_beyond_a_section_after_every_action(players, sheets, seed):
    state = new(players, sheets, seed=seed)
    rng = Rng(seed)
    before = [marked_pips(state.lay, sh) for sh in state.sheets]
    steps = 0
    invariant(state)
    while not state.is_over:
        random_step(state, rng)
        invariant(state)
        after = [marked_pips(state.lay, sh) for sh in state.sheets]
        for b, a in zip(before, after):
            grew(b, a)
        before = after
        steps += 1
    assert steps > 0
    if players == 1:
        assert state.trees == 20


def _stars_by_hand(L, sh) -> int:
    """Marked, not crossed-out Star pips read from the printed sheets (no tables)."""
    from dicetable.games.dice_kingdoms_of_valeria import sheet as S

    pmap = marked_pips(L, sh)
    stars = 0
    for s in range(10):
        for i, marked in enumerate(pmap[f"citizen:{L.cit_names[s]}"]):
            stars += marked and L.cit_pips[s][i] == S.STAR and not sh[S.CITV + s] >> i & 1
    for g, name in enumerate(S.GUILDS):
        for i, marked in enumerate(pmap[f"track:{name}"]):
            stars += marked and L.trk_pips[g][i] == S.STAR and not sh[S.VTRK + g] >> i & 1
    stars += sum(m and p == S.STAR for m, p in zip(pmap["gold"], L.gold_pips))
    stars += sum(m and p == S.STAR for m, p in zip(pmap["wall"], L.wall_pips))
    for b in range(L.nb):
        lo, hi = L.block_range[b]
        key = f"lair:{L.lair_ids[L.block_lair[b]]}:{lo}-{hi}"
        stars += sum(m and p == S.STAR for m, p in zip(pmap[key], L.block_pips[b]))
    for r in range(L.nr):
        printed = L.road_pips[r][1]  # reward codes in the listed a -> b order
        stars += sum(m and p == S.STAR for m, p in zip(pmap[f"road:{L.road_ids[r]}"], printed))
    return stars


@pytest.mark.parametrize("players,sheets", [(1, "summer"), (1, "winter"), (3, "summer"), (4, "winter")])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_fast_scoring_tables_agree_with_the_sheets(players, sheets, seed):
    """The bots' table-driven score equals the Score Tally, and Star pips equal a count by hand, by the
    flattened tables (the compiled build's way) and by the nested ones (the pure build's) alike."""
    from dicetable.games.dice_kingdoms_of_valeria.rules import score_sheet, score_total, star_pips
    from dicetable.games.dice_kingdoms_of_valeria.rules.scoring import _star_pips_flat, _star_pips_nested

    state = new(players, sheets, seed=seed)
    rng = Rng(seed)
    checked = 0
    while not state.is_over:
        random_step(state, rng)
        for sh in state.sheets:
            by_hand = _stars_by_hand(state.lay, sh)
            assert star_pips(state.lay, sh) == _star_pips_flat(state.lay, sh) == by_hand
            assert _star_pips_nested(state.lay, sh) == by_hand
            assert score_total(state.lay, sh) == score_sheet(state.lay, sh)["total"]
            checked += 1
    assert checked > 0
