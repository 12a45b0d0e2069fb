"""The turn planner of the search bots (planner.py): an exact expectimax over phase B's re-rolls
(rulebook: B Re-roll Dice, "as often as you can pay"; Captain Cards: Prince of Bella Ire)."""

from __future__ import annotations

import pytest

from dicetable.bots.mcts import MCTSBot, level_params
from dicetable.engine import new_game
from dicetable.games.corsairs_of_valeria.components import DICE
from dicetable.games.corsairs_of_valeria.planner import TurnPlan, _KEPT, _ROLLS, plan_turn, turn_key
from dicetable.games.corsairs_of_valeria.policy import _Ctx, greedy, outcomes, packed_value, unpack

from .corsairs_testkit import CN, GR, MP, SG, SI, SK, game


def _at(state, grog, silver):
    """A copy of ``state`` with the seat to move holding ``grog`` Grog and ``silver`` Silver."""
    st = state.clone()
    seat = st.to_move[0]
    st.grog = list(st.grog)
    st.silver = list(st.silver)
    st.grog[seat], st.silver[seat] = grog, silver
    return st


def test_the_last_payable_reroll_is_worth_the_mean_of_its_locked_outcomes():
    """With one Grog (no Captain) one re-roll can be paid; after it the dice are locked, so a
    re-roll keeping some dice is worth the exact mean over the re-rolled dice of the locked
    roll's value with no Grog left."""
    state = _at(game(dice=(SK, SG, GR, MP, CN)), 1, 2)
    seat = state.to_move[0]
    assert state.waiting_for == "reroll"
    plan = TurnPlan(state, seat, endings="roll")
    after = plan.kept_table(0, 2)
    ctx = _Ctx(_at(state, 0, 2), seat)
    for kept in _KEPT[::7]:
        size = sum(unpack(kept))
        mean = sum(p * (packed_value(kept + out, ctx) + 2) for out, p in outcomes(DICE - size))
        assert after[kept] == pytest.approx(mean)


def test_a_reroll_that_can_be_followed_by_another_is_worth_at_least_locking_after_it():
    """Two Grog: after the first re-roll the player may still lock or re-roll, so every roll is
    worth at least its locked value, and some bad rolls strictly more (the second re-roll)."""
    state = _at(game(dice=(SK, SK, SG, GR, CN)), 2, 2)
    plan = TurnPlan(state, state.to_move[0], endings="roll")
    locked, best = plan.ending_table(1, 2), plan.value_table(1, 2)
    assert all(best[k] >= locked[k] - 1e-12 for k in _ROLLS)
    assert sum(best[k] > locked[k] + 1e-9 for k in _ROLLS) > 10


@pytest.mark.parametrize("endings", ["roll", "play"])
def test_a_prince_without_grog_pays_a_reroll_with_silver(endings):
    """Prince of Bella Ire: a re-roll may be paid with 1 Silver. Four Skulls would take all the
    Silver: the planner marks dice and pays the only way it can, with Silver."""
    state = _at(game(dice=(SK, SK, SK, SG, CN), captains="prince,none"), 0, 3)
    seat = state.to_move[0]
    plan = TurnPlan(state, seat, endings=endings)
    seen = []
    for _ in range(DICE + 1):
        action, shown = plan_turn(state, seat, plan)
        assert 0.0 <= shown <= 1.0
        seen.append(action.id)
        if not action.id.startswith("mark:"):
            break
        state.apply(action, seat)
    assert seen[0].startswith("mark:") and seen[-1] == "reroll-silver"


def test_decisions_outside_the_dice_are_greedys_and_the_key_ignores_the_turns_dice():
    state = game(dice=(MP, MP, SI, SI, CN, GR, GR, GR, SK, SK))
    seat = state.to_move[0]
    key = turn_key(state, seat)
    plan = TurnPlan(state, seat)
    while state.to_move == (seat,) and state.waiting_for == "reroll":
        action, _ = plan_turn(state, seat, plan)
        state.apply(action, seat)
        if state.waiting_for == "reroll":  # marked or re-rolled: the same plan serves
            assert turn_key(state, seat) == key
    checked = 0
    while not state.is_over and state.to_move and state.waiting_for != "reroll" and checked < 10:
        mover = state.to_move[0]
        action, _ = plan_turn(state, mover, plan)
        assert action.id == greedy(state, mover).id
        state.apply(action, mover)
        checked += 1
    assert turn_key(new_game("corsairs-of-valeria", 2, seed=5), 0) != turn_key(new_game("corsairs-of-valeria", 2, seed=5), 1)


@pytest.mark.parametrize("players,captains", [(2, "prince,willem"), (3, "luthor,mistress,reo")])
def test_hard_with_the_turn_planner_plays_legally(players, captains):
    """SearchParams.turn_plan: the bot decides its dice by the planner (Willem and Luthor's
    phase A, the Prince's Silver re-rolls, Mistress and Reo after phase B) and stays legal."""
    params = level_params("corsairs-of-valeria", "hard", players, turn_plan=True)
    # the game's tuning (bots/mcts.py GAME_TUNING): the planner at every player count and level,
    # its endings scored by the learned value
    for n, level in ((2, "hard"), (4, "hard"), (4, "easy")):
        tuned = level_params("corsairs-of-valeria", level, n)
        assert tuned.turn_plan and tuned.value == "auto"
    state = new_game("corsairs-of-valeria", players, seed=7, options={"captains": captains})
    bots = [MCTSBot(params=params, seed=s) for s in range(players)]
    hows = set()
    for _ in range(150):
        if state.is_over:
            break
        seat = state.to_move[0]
        action = bots[seat].choose(state, seat)
        assert action in state.legal_actions(seat)
        hows.add(bots[seat].last.how)
        state.apply(action, seat)
    assert "planner" in hows


def test_past_its_deadline_the_plan_plays_out_only_the_seats_own_level():
    """A decision's cap: with the deadline already passed, only the Grog and Silver the seat
    holds are played out (the plan still needs one table); every lower level is that table
    plus the difference the ``roll`` endings see between the two levels, and the action is
    still legal. Without a deadline every level is played out."""
    state = _at(game(dice=(SK, SK, SG, GR, CN)), 3, 2)
    seat = state.to_move[0]
    value = lambda st: float(st.silver[seat] - st.silver[1 - seat])  # noqa: E731: any value makes every level playable
    cut = TurnPlan(state, seat, value)
    action, _ = plan_turn(state, seat, cut, deadline=0.0)
    assert action.id in {a.id for a in state.legal_actions(seat)}
    assert cut.played == [(3, 2)]
    top, low = cut.ends[(3, 2)], cut.ending_table(1, 2)
    here, there = cut.roll_table(1, 2), cut.roll_table(3, 2)
    # the roll values' difference counts in the played values' units: their least-squares slope
    xs, ys = [there[k] for k in _ROLLS], [top[k] for k in _ROLLS]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    assert slope > 0 and cut.slope((3, 2)) == pytest.approx(slope)
    assert all(low[k] == pytest.approx(top[k] + slope * (here[k] - there[k])) for k in _ROLLS)
    # greedy's roll_value counts each Grog kept (it pays later re-rolls): two fewer lower the mean
    assert sum(low.values()) < sum(top.values())
    full = TurnPlan(state, seat, value)
    plan_turn(state, seat, full)
    assert full.played[:3] == [(3, 2), (2, 2), (1, 2)]
