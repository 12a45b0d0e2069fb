"""Sheet views shared between observations (``rules.sheet_view``): one object per sheet, built from
interned entries of finite domains, never changed by a view, and the same JSON as one built afresh."""

from __future__ import annotations

import io
import math
import random

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from dicetable.engine import new_game
from dicetable.games.dice_kingdoms_of_valeria.board import board_view
from dicetable.games.dice_kingdoms_of_valeria.layout import LAYOUTS
from dicetable.games.dice_kingdoms_of_valeria.rules import scoring
from dicetable.games.dice_kingdoms_of_valeria.text import text_view

GAME = "dice-kingdoms-of-valeria"


def _play(players: int, seed: int, actions: int, sheets: str = "summer"):
    """A game of ``players`` seats after up to ``actions`` random legal actions."""
    state = new_game(GAME, players, seed=seed, options={"sheets": sheets})
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        seat = state.to_move[0]
        state.apply(rng.choice(state.legal_actions(seat)).id, seat)
    return state


def _empty_memos() -> None:
    for memo in (scoring._VIEWS, scoring._CITIZENS, scoring._ROADS, scoring._BLOCKS, scoring._LAIRS):
        memo.clear()


@pytest.mark.parametrize("sheets", ["summer", "winter"])
def test_every_viewer_of_one_version_gets_the_same_sheet_view_objects(sheets):
    state = _play(4, 3, 40, sheets)
    views = [state.observation(seat)["players"] for seat in (0, 1, 2, 3, None)]
    for seat_views in views[1:]:
        assert all(a is b for a, b in zip(views[0], seat_views))
    # a later version shares the sheets that did not change
    before = state.observation(None)["players"]
    sheets_before = [tuple(sh) for sh in state.sheets]
    seat = state.to_move[0]
    state.apply(state.legal_actions(seat)[0].id, seat)
    after = state.observation(None)["players"]
    for s, sh in enumerate(state.sheets):
        if tuple(sh) == sheets_before[s]:
            assert after[s] is before[s]


@pytest.mark.parametrize("sheets", ["summer", "winter"])
def test_a_shared_sheet_view_is_the_same_json_as_one_built_afresh(sheets):
    state = _play(3, 5, 70, sheets)
    texts = [orjson.dumps(state.observation(seat)) for seat in (0, None)]
    _empty_memos()
    assert [orjson.dumps(state.observation(seat)) for seat in (0, None)] == texts


def test_entries_are_interned_across_sheets_and_tables():
    one, two = _play(2, 1, 0), _play(4, 2, 0)  # set-up: every sheet alike but its starting pips
    road = next(iter(one.lay.road_ids))
    assert one.observation(None)["players"][0]["roads"][road] is two.observation(None)["players"][3]["roads"][road]
    a, b = one.observation(None)["players"][0], two.observation(None)["players"][1]
    assert all(a["citizens"][k] is b["citizens"][k] for k in a["citizens"] if a["citizens"][k] == b["citizens"][k])
    assert all(a["lairs"][k] is b["lairs"][k] for k in a["lairs"])


@settings(max_examples=8, deadline=None)
@given(players=st.integers(1, 5), seed=st.integers(0, 10_000), actions=st.integers(0, 120),
       sheets=st.sampled_from(["summer", "winter"]))
def test_drawing_the_board_and_the_text_never_changes_a_shared_sheet_view(players, seed, actions, sheets):
    state = _play(players, seed, actions, sheets)
    for seat in (*range(players), None):
        obs = state.observation(seat)
        held = orjson.dumps(obs["players"])
        acts = [a.to_json() for a in state.legal_actions(seat)] if seat in state.to_move else []
        board_view(obs, acts, seat)
        for width in (120, 80):
            Console(width=width, file=io.StringIO(), color_system=None).print(text_view(obs, seat, width=width))
        assert orjson.dumps(obs["players"]) == held
        assert orjson.dumps(state.observation(seat)["players"]) == held


def test_the_interned_entries_stay_within_their_finite_domains():
    """The bounds ``scoring`` states: Citizen sections (marked 0-2) x (voided pips 0-3 as bits), Roads per
    (season, Road, pips marked 0..length, direction 0-2), Range Block maps per (season, Lair, pips of each
    block) and Lairs per those x (result 0-3) x (access)."""
    for seed in range(12):
        _play(1 + seed % 5, seed, 200, ("summer", "winter")[seed % 2])
    roads = sum((lay.road_len[r] + 1) * 3 for lay in LAYOUTS.values() for r in range(lay.nr))
    blocks = sum(math.prod(lay.block_len[b] + 1 for b in bl) for lay in LAYOUTS.values() for bl in lay.lair_blocks)
    assert (roads, blocks) == (579, 184)
    assert 0 < len(scoring._CITIZENS) <= 3 * 4
    assert 0 < len(scoring._ROADS) <= roads
    assert 0 < len(scoring._BLOCKS) <= blocks
    assert 0 < len(scoring._LAIRS) <= blocks * 4 * 2
    for (season, li, marks, result, access), entry in scoring._LAIRS.items():
        lay = LAYOUTS[season]
        assert list(entry["blocks"].values()) == list(marks)
        assert entry["result"] == ("open", "high", "low", "pending")[result] and entry["access"] is access
        assert all(0 <= m <= lay.block_len[b] for m, b in zip(marks, lay.lair_blocks[li]))
