"""Biblios Dice properties: the kernel's conformance check, secrecy of hidden holdings, invariants, bots."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st
from rich.console import Console

from dicetable import new_game
from dicetable.bots import make_bot
from dicetable.engine import Rng
from dicetable.engine.testing import random_playout, random_step
from dicetable.games.biblios_dice.components import (
    CADFAEL_CARDS, CARD_VALUES, NRES, TOKEN_GROUPS, TOP, VALUE_MAX, VALUE_MIN,
)
from dicetable.games.biblios_dice.policy import bid_limit, evaluate, greedy
from dicetable.games.biblios_dice.text import render

GAME = "biblios-dice"


@pytest.mark.parametrize("objectives", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**63))
def test_every_random_game_is_scored_with_one_winner(players, objectives, seed):
    state = random_playout(new_game(GAME, players, seed=seed, options={"hidden_objectives": objectives}), Rng(seed)).state
    assert state.final is not None and len(state.winners) == 1


def _play(seed: int, players: int, steps: int, objectives: bool = True):
    state = new_game(GAME, players, seed=seed, options={"hidden_objectives": objectives})
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        random_step(state, rng)
    return state


def _perturb(state, seat: int):
    """A copy in which ``seat``'s secrets (Gold, VP, face-down card, objective) differ."""
    other = state.clone()
    other.gold[seat] += 7
    other.vp[seat] += 5
    if other.facedown[seat] >= 0:
        unrevealed = other.hands[seat] | 1 << other.facedown[seat]
        choices = [v for v in CARD_VALUES if unrevealed >> v & 1 and v != other.facedown[seat]]
        if choices:
            v = choices[0]
            other.hands[seat] = unrevealed & ~(1 << v)
            other.facedown[seat] = v
    if other.objectives[seat] >= 0:
        objectives = list(other.objectives)
        unused = [t for t in range(NRES) if t not in objectives]
        if unused:
            objectives[seat] = unused[0]
        other.objectives = objectives
    return other


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63), players=st.integers(2, 5), steps=st.integers(0, 400))
def test_no_observation_reveals_another_seats_bid_gold_or_vp(seed, players, steps):
    state = _play(seed, players, steps)
    if state.is_over:            # the end reveals every holding
        return
    for seat in range(players):
        changed = _perturb(state, seat)
        for viewer in [None, *range(players)]:
            if viewer == seat:
                continue
            assert changed.observation(viewer) == state.observation(viewer), (
                f"seat {viewer} can see seat {seat}'s secrets")
        assert changed.observation(seat) != state.observation(seat)      # the owner sees them
        for event in state.log:
            if event.kind == "bid-secret":
                assert event.visible == (event.seat,)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**63), players=st.integers(2, 5), steps=st.integers(0, 400))
def test_render_shows_a_seat_only_its_own_holdings(seed, players, steps):
    state = _play(seed, players, steps)
    if state.is_over:
        return
    for seat in range(players):
        changed = _perturb(state, seat)
        for viewer in [None, *range(players)]:
            if viewer == seat:
                continue
            a, b = Console(width=160, record=True), Console(width=160, record=True)
            a.print(render(state, viewer))
            b.print(render(changed, viewer))
            assert a.export_text() == b.export_text()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**63), players=st.integers(2, 5))
def test_invariants_hold_throughout_random_play(seed, players):
    state = new_game(GAME, players, seed=seed, options={"hidden_objectives": True})
    rng = Rng(seed)
    auctions = 0
    while not state.is_over:
        assert all(VALUE_MIN <= v <= VALUE_MAX for v in state.value)
        # the all-1 / all-6 reset follows the whole Adjustment Die face (rulebook: Phase III, Adjustment
        # Die): between the two steps of "+1 and -1" all five may show 6 for a moment
        adjusting = any(state.decision(s) is not None and state.decision(s).kind == "adjust" for s in state.to_move)
        if not adjusting:
            assert not (all(v == VALUE_MIN for v in state.value) or all(v == VALUE_MAX for v in state.value))
        assert all(g >= 0 for g in state.gold) and all(v >= 0 for v in state.vp)
        for t in range(len(TOP)):
            for m in range(state.nm):
                assert 1 <= state.pos[t * state.nm + m] <= TOP[t]
        for g, stack in enumerate(state.bishop_stacks):
            assert set(stack) <= set(TOKEN_GROUPS[g])
        if state.cad >= 0:
            cards = state.cad_deck + state.cad_faceup + state.cad_played
            assert sorted(cards) == sorted(CADFAEL_CARDS)
            assert len(state.cad_faceup) == 2 * (state.auctions % 3)
        if state.phase == "bid":
            for s in range(players):
                if state.sitting >> s & 1:
                    assert s not in state.to_move and not state.played[s]
        before = state.phase
        random_step(state, rng)
        if state.phase != "split" and before == "split":
            auctions += 1                  # the split is done: an auction is held
    assert state.auctions == auctions == sum(e.kind == "auction" for e in state.log)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**63), players=st.integers(2, 5), steps=st.integers(0, 300))
def test_determinize_resamples_hidden_information_only(seed, players, steps):
    state = _play(seed, players, steps)
    if state.is_over:
        return
    for seat in range(players):
        dets = [state.determinize(seat, k) for k in range(12)]
        for det in dets:
            assert det.gold == state.gold and det.vp == state.vp        # public through the log
            assert det.facedown[seat] == state.facedown[seat]
            assert det.objectives[seat] == state.objectives[seat]
            assert [sorted(s) for s in det.bishop_stacks] == [sorted(s) for s in state.bishop_stacks]
        stacks = {tuple(d.bishop_stacks) for d in dets}
        if any(len(s) > 1 for s in state.bishop_stacks):
            assert len(stacks) > 1                                     # the order is resampled
        for other in range(players):
            if other != seat and state.facedown[other] >= 0:
                unrevealed = bin(state.hands[other] | 1 << state.facedown[other]).count("1")
                if unrevealed > 1:
                    assert len({d.facedown[other] for d in dets}) > 1


def test_greedy_never_overbids():
    for seed, players in ((1, 2), (2, 3), (3, 4), (4, 5), (5, 3)):
        state = new_game(GAME, players, seed=seed)
        bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(players)]
        bids = 0
        while not state.is_over:
            seat = state.to_move[0]
            if state.decision(seat).kind == "bid":
                assert bid_limit(state, seat) <= state.gold[seat]
                bids += 1
            state.apply(bots[seat].choose(state, seat), seat)
        assert not [e for e in state.log if e.kind == "overbid"]
        assert bids > 0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**63), players=st.integers(2, 5), steps=st.integers(0, 300))
def test_greedy_is_legal_and_evaluate_is_a_probability(seed, players, steps):
    state = _play(seed, players, steps)
    for seat in state.to_move:
        view = state.determinize(seat, seed)
        choice = greedy(view, seat)
        assert choice.id in {a.id for a in state.legal_actions(seat)}
    for seat in range(players):
        assert 0.0 <= evaluate(state, seat) <= 1.0


def test_greedy_beats_random():
    wins = 0
    for seed in range(6):
        state = new_game(GAME, 3, seed=seed)
        bots = [make_bot("greedy" if s == seed % 3 else "random", seed=seed + s) for s in range(3)]
        while not state.is_over:
            seat = state.to_move[0]
            state.apply(bots[seat].choose(state, seat), seat)
        wins += state.winners == (seed % 3,)
    assert wins >= 5


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**63), players=st.integers(2, 5))
def test_quiet_step_plays_the_same_game_as_apply(seed, players):
    # The quiet step skips event text only: every field, the dice and the next decision agree.
    loud = new_game(GAME, players, seed=seed, options={"hidden_objectives": True})
    quiet = loud.clone()
    rng = Rng(seed)
    while not loud.is_over:
        seats = loud.to_move
        assert quiet.to_move == seats
        seat = seats[rng.randbelow(len(seats))]
        actions = loud.legal_actions(seat)
        assert quiet.legal_actions(seat) == actions
        action = actions[rng.randbelow(len(actions))]
        loud.apply(action, seat)
        quiet.step(action, seat)
        assert quiet.to_dict()["state"] == loud.to_dict()["state"]
        assert quiet.chance_mark == loud.chance_mark
    assert quiet.is_over and quiet.scores == loud.scores and quiet.winners == loud.winners
