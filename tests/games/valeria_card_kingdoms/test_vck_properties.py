"""Property tests: the kernel's conformance check for 1-5 players and every option, secret
Dukes, and the card-conservation invariant of Valeria: Card Kingdoms."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicetable.engine import Rng, new_game
from dicetable.engine.testing import random_step
from dicetable.games.valeria_card_kingdoms.components import (
    DUKE_NAME, N_CIT, N_DOM, SETUP_IDS,
)
from dicetable.games.valeria_card_kingdoms.rules import CIT0, DOM0, NT, P_OVER, SLOT_TYPES

GAME = "valeria-card-kingdoms"
SETUPS = (*SETUP_IDS, "random")
CITIZENS = ("standard", "mixed")
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _secrets_of_others(state, seat):
    names = set()
    for other in range(state.players):
        if other != seat:
            names.update(DUKE_NAME[d] for d in state.offers[other])
    if state.players == 1 and state.dark_lord >= 0:
        names.add(DUKE_NAME[state.dark_lord])
    return names - {DUKE_NAME[d] for d in state.offers[seat]}


@FAST
@given(seed=st.integers(0, 2**40), players=st.integers(1, 5))
def test_no_observation_shows_another_seats_duke_before_the_end(seed, players):
    """Until the game ends no observation or event visible to a seat names another seat's
    Duke (nor the solo Dark Lord); at the end every Duke is revealed (R3.15, R8.7)."""
    state = new_game(GAME, players, seed=seed)
    rng = Rng(seed)
    while not state.is_over:
        for seat in range(players):
            text = json.dumps(state.observation(seat))
            assert not any(name in text for name in _secrets_of_others(state, seat))
        spectator = json.dumps(state.observation(None))
        assert not any(DUKE_NAME[d] in spectator for o in state.offers for d in o)
        random_step(state, rng)
    for seat in range(players):
        assert all(p["duke"] for p in state.observation(seat)["player"])
        for event in state.log_for(seat):
            if event.kind != "game-over":
                assert not any(name in event.text for name in _secrets_of_others(state, seat))


def _card_census(state):
    """Every Citizen, Domain and Monster card wherever it is (stacks, tableaus, box, Dark Lord)."""
    cit, dom, mon = Counter(), Counter(), Counter()
    for p in range(CIT0):
        mon.update(state.stacks[p])
    for p in range(CIT0, DOM0):
        cit.update(state.stacks[p])
        cit.update(state.cit_box[p - CIT0])
    for p in range(DOM0, DOM0 + 5):
        dom.update(state.stacks[p])
    dom.update(state.dom_box)
    dom.update(state.cap_dom)
    cit.update(state.cap_cit)
    for seat in range(state.players):
        for t in range(N_CIT):
            cit[t] += state.own[seat * NT + t]
        dom.update(state.doms[seat])
        mon.update(state.victory[seat])
    return cit, dom, mon


@FAST
@given(seed=st.integers(0, 2**40), players=st.integers(1, 5), setup=st.sampled_from(SETUPS),
       citizens=st.sampled_from(CITIZENS))
def test_cards_are_conserved_and_resources_never_negative(seed, players, setup, citizens):
    """No card appears or vanishes; no resource goes below 0; Exhausted marks only empty stacks;
    face-down counts stay within the stacks."""
    state = new_game(GAME, players, seed=seed, options={"setup": setup, "citizens": citizens})
    start = _card_census(state)
    rng = Rng(seed)
    while True:
        assert _card_census(state) == start
        assert min(state.res) >= 0
        for p in range(20):
            if state.exhausted >> p & 1:
                assert state.stacks[p] == ()
        for i in range(10):
            assert 0 <= state.cit_down[i] <= max(0, len(state.stacks[CIT0 + i]) - 1)
            assert set(state.stacks[CIT0 + i]) <= set(SLOT_TYPES[i])
        if state.is_over:
            break
        random_step(state, rng)
    assert state.phase == P_OVER
    dom_total = sum(start[1].values())
    removed = 0 if setup in ("first-game", "random") else 4
    assert dom_total == N_DOM - removed
    assert sum(start[2].values()) == 5 * (6 if players == 5 else 5)
