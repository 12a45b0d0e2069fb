"""Valeria: Card Kingdoms' rules written for the compiled build (index loops, int keys, tables by the
dice's code), held to the rulebook along seeded random games: recruit costs (R6.6), the Recruit part of
the Action menu (R5.16, R4.6), Exhausted cards (R7.1), the Harvest's activations (R5.7, R5.8) and the
turn's phases (R5.1, R5.6); and the compiled build's Exhausted loop (switched on here in the pure
build) against the pure build's."""

from __future__ import annotations

import pytest

from dicetable.engine import Rng, new_game
from dicetable.engine.playout import play_random
from dicetable.games.valeria_card_kingdoms.components import (
    CIT_COST, CIT_NAMEKEY, CIT_SLOTS, CIT_SLUG, DOM_NO_SURCHARGE, DUKE_NAME, duke_text,
)
from dicetable.games.valeria_card_kingdoms.rules import CIT0, DOM0, N_POS, NT, actions
from dicetable.games.valeria_card_kingdoms.rules.tables import (
    ACT, ACT_SIDE, ACT_SIDE_AT, DUKE_ACTS, FIRST, FIRST_AT, N_CIT, SEAT_PUSH, SEAT_TASKS, TURN_PUSH, TURN_TASKS,
    dice_code,
)

GAME = "valeria-card-kingdoms"


def _states(players: int, seeds: range):
    """Every state along seeded random games (the state itself, advanced one decision at a time)."""
    for seed in seeds:
        s = new_game(GAME, players, seed=seed)
        rng = Rng(seed)
        while not s.is_over:
            yield s
            play_random(s, rng, limit=1)


def _rulebook_cost(s, seat: int, t: int) -> int:
    """R6.6: the printed cost + 1 per card of the same name in the seat's tableau (its Starter included),
    unless one of its Domains waives the surcharge."""
    if any(DOM_NO_SURCHARGE[d] for d in s.doms[seat]):
        return CIT_COST[t]
    same = sum(s.own[seat * NT + u] for u in range(NT) if CIT_NAMEKEY[u] == CIT_NAMEKEY[t])
    return CIT_COST[t] + same


@pytest.mark.parametrize("players", [2, 4])
def test_recruit_costs_and_the_menus_recruits_follow_the_rulebook(players):
    """Every seat's cost of every Citizen type (R6.6) and, at every Action decision, the Recruit actions
    offered: the top Citizen of each stack whose cost Gold and Magic can pay (R4.6, R5.16), in stack order."""
    menus = 0
    for s in _states(players, range(8)):
        for seat in range(players):
            want = [_rulebook_cost(s, seat, t) for t in range(N_CIT)]
            assert s.recruit_costs(seat) == want
            assert [s.recruit_cost(seat, t) for t in range(N_CIT)] == want
        decision = s.tasks[-1] if s.tasks else None
        if decision is None or decision[0] != "action":
            continue
        seat = decision[1]
        gold, magic = s.res[seat * 4], s.res[seat * 4 + 2]
        money = gold + magic if gold > 0 else 0  # at least one real token (R4.6)
        want_ids = []
        for p in range(CIT0, DOM0):
            if s.stacks[p]:
                ct = s.stacks[p][-1]
                cost = _rulebook_cost(s, seat, ct)
                if cost <= money:
                    want_ids.append((f"recruit:{CIT_SLUG[ct]}", p, f"{cost} Gold"))
        got = [(a.id, a.payload, a.label.rsplit(" for ", 1)[-1]) for a in s.legal_actions(seat)
               if a.id.startswith("recruit:")]
        assert got == want_ids
        menus += 1
    assert menus > 100


@pytest.mark.parametrize("players", [2, 3])
def test_every_empty_stack_holds_an_exhausted_card(players):
    """R7.1: after every decision of the Action Phase, each empty Center Stack has an Exhausted card."""
    checked = 0
    for s in _states(players, range(10)):
        if s.tasks and s.tasks[-1][0] == "action":
            for p in range(N_POS):
                if not s.stacks[p]:
                    assert s.exhausted >> p & 1, p
                    checked += 1
    assert checked > 100


@pytest.mark.pure_build
def test_the_exhausted_loop_of_the_compiled_build_does_what_the_pure_one_does(monkeypatch):
    """``_place_exhausted`` with ``_NATIVE`` on (the compiled build's loop) and off: the same Exhausted
    cards and the same events, on states along seeded games with some stacks emptied."""
    checked = 0
    for i, s in enumerate(_states(2, range(6))):
        if i % 7:
            continue
        runs = []
        for native in (False, True):
            c = s.clone()
            for p in range(i % 5, N_POS, 3):
                c.stacks[p] = ()
            monkeypatch.setattr(actions, "_NATIVE", native)
            c._emitted = []
            c._place_exhausted()
            runs.append((c.exhausted, [e.to_json() for e in c._emitted]))
        assert runs[0] == runs[1]
        assert runs[0][1]  # some stack was newly Exhausted
        checked += 1
    assert checked > 20


def test_the_tables_by_the_dices_code_are_the_tables_by_the_dice():
    """ACT_SIDE_AT and FIRST_AT hold, at ``dice_code``, what ACT_SIDE and FIRST hold for the dice, and
    ACT holds the rulebook's activations: a Citizen activates once per die and once for the sum that
    is one of its numbers (R5.7, R5.8)."""
    for a in range(1, 7):
        for b in range(1, 7):
            code = dice_code((a, b))
            assert ACT_SIDE_AT[0][code] == ACT_SIDE[0][(a, b)]
            assert ACT_SIDE_AT[1][code] == ACT_SIDE[1][(a, b)]
            assert FIRST_AT[code] == FIRST[(a, b)]
            want = tuple((t, k) for t in range(NT)
                         if (k := (a in CIT_SLOTS[t]) + (b in CIT_SLOTS[t]) + (a + b in CIT_SLOTS[t])))
            assert ACT[(a, b)] == want
    assert len({dice_code((a, b)) for a in range(1, 7) for b in range(1, 7)}) == 36


def test_the_tasks_pushed_are_the_turns_and_harvests_in_reverse():
    """TURN_PUSH and SEAT_PUSH are TURN_TASKS and SEAT_TASKS last first (the stack's top runs first);
    the turn's ``dice-changes`` task only for a seat with a die-changing Domain (R5.6)."""
    for seat in range(5):
        for solo in (False, True):
            tasks = TURN_TASKS[(seat, solo)]
            assert tasks[0][0] == "dice-changes"
            assert TURN_PUSH[seat * 2 + solo][1] == tuple(reversed(tasks))
            assert TURN_PUSH[seat * 2 + solo][0] == tuple(reversed(tasks[1:]))
    for n in range(1, 6):
        for active in range(n):
            for second in (0, 1):
                assert SEAT_PUSH[n][active][second] == tuple(reversed(SEAT_TASKS[n][active][second]))


def test_the_duke_actions_name_each_duke_and_its_scoring():
    """R3.14: keeping a Duke; the label gives its scoring in words (``duke_text``)."""
    for d, a in enumerate(DUKE_ACTS):
        assert a.payload == d
        assert a.label == f"Keep {DUKE_NAME[d]} ({duke_text(d)})"
    s = new_game(GAME, 3, seed=4)
    for seat in range(3):
        assert [a.payload for a in s.legal_actions(seat)] == list(s.offers[seat])
