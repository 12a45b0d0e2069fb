"""The ISMCTS bot: legal choices, determinism, no peeking at hidden state, root parallelism."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dicetable import new_game
from dicetable.bots import make_bot, play_out
from dicetable.bots.mcts import MCTS, LEVELS, MCTSBot, SearchParams, hint_rows, level_params, root_statistics
from dicetable.engine import Rng
from dicetable.engine.testing import random_step

from ..engine.toy_game import SPEC  # noqa: F401  (registers the toy game)

SMALL = SearchParams(iterations=60, rollout_depth=8)


def _advance(state, steps, seed=0):
    rng = Rng(seed)
    for _ in range(steps):
        random_step(state, rng)
    return state


@pytest.mark.parametrize("game, players, steps", [
    ("kingdom-of-dice", 2, 5), ("kingdom-of-dice", 3, 40), ("toy-secret-high-card", 3, 1),
])
def test_choices_identical_whatever_the_hidden_state(game, players, steps):
    """Two real states that look the same to the seat (hidden parts differ) get the same search."""
    state = _advance(new_game(game, players, seed=11), steps)
    seat = state.to_move[-1]
    for k in range(3):
        other = state.determinize(seat, 1000 + k)      # same view, different hidden parts
        if game == "kingdom-of-dice":
            assert other.deck != state.deck or len(state.deck) < 2
        a = MCTS(SMALL, seed=5).search(state, seat)
        b = MCTS(SMALL, seed=5).search(other, seat)
        assert a == b
        assert MCTSBot(SMALL, seed=5).choose(state, seat).id == MCTSBot(SMALL, seed=5).choose(other, seat).id


def test_search_visits_only_legal_root_actions_and_counts_iterations():
    state = new_game("kingdom-of-dice", 2, seed=3)
    stats = MCTS(SMALL, seed=1).search(state, 0)
    legal = {a.id for a in state.legal_actions(0)}
    assert set(stats) <= legal
    assert sum(v for v, _ in stats.values()) == SMALL.iterations
    assert all(0.0 <= mean <= 1.0 for _, mean in stats.values())


def test_search_refuses_a_seat_not_to_move():
    state = new_game("kingdom-of-dice", 2, seed=3)
    with pytest.raises(ValueError, match="not to move"):
        MCTS(SMALL).search(state, 1)


def _collections_during_search(in_thread: bool) -> tuple[int, bool]:
    """(garbage collections started while a search ran, gc enabled afterwards), with the
    collector's thresholds at 1 so that any enabled collector runs many times."""
    import gc
    import threading

    state = new_game("kingdom-of-dice", 2, seed=3)
    searcher = MCTS(SMALL, seed=1)
    started = []

    def note(phase, info):
        if phase == "start":
            started.append(info["generation"])

    def run():
        searcher.search(state, 0)

    thresholds = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    gc.callbacks.append(note)
    try:
        if in_thread:
            worker = threading.Thread(target=run)
            worker.start()
            worker.join()
        else:
            run()
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*thresholds)
    return len(started), gc.isenabled()


def test_search_pauses_the_garbage_collector_on_the_main_thread_only():
    import gc

    assert gc.isenabled()
    count, enabled = _collections_during_search(in_thread=False)
    assert count == 0 and enabled  # paused while the tree grew, restored after
    count, enabled = _collections_during_search(in_thread=True)
    assert count > 0 and enabled  # a bot thread beside a server's event loop pauses nothing
    gc.disable()
    try:
        state = new_game("kingdom-of-dice", 2, seed=3)
        MCTS(SMALL, seed=1).search(state, 0)
        assert not gc.isenabled()  # a caller's own pause is left as it was
    finally:
        gc.enable()


def test_same_seed_same_choice_and_search_leaves_state_untouched():
    state = new_game("kingdom-of-dice", 3, seed=8)
    before = state.to_dict()
    a = MCTSBot(SMALL, seed=2).choose(state, 0)
    b = MCTSBot(SMALL, seed=2).choose(state, 0)
    assert a.id == b.id and a in state.legal_actions(0)
    assert state.to_dict() == before


def test_root_parallelism_sums_the_workers_visits():
    state = new_game("kingdom-of-dice", 2, seed=4)
    params = SearchParams(iterations=30, rollout_depth=5, workers=2)
    stats = root_statistics(state, 0, params, seed=3)
    assert sum(v for v, _ in stats.values()) == 60


def test_hint_gives_three_actions_with_visit_shares():
    state = new_game("kingdom-of-dice", 2, seed=6)
    rows = hint_rows(state, 0, level="easy")
    assert 1 <= len(rows) <= 3
    shares = [share for _, share in rows]
    assert shares == sorted(shares, reverse=True) and 0 < sum(shares) <= 1.0 + 1e-9
    assert all(action in state.legal_actions(0) for action, _ in rows)


def test_levels_are_ordered_by_effort():
    assert LEVELS["easy"].iterations < LEVELS["medium"].iterations < LEVELS["hard"].iterations
    assert LEVELS["hard"].time_ms is not None


def test_mcts_bot_plays_a_whole_simultaneous_game():
    state = new_game("toy-secret-high-card", 3, seed=1)
    play_out(state, [make_bot("easy", seed=s) for s in range(3)])
    assert state.is_over and sum(state.scores) == 3


def test_stopping_early_plays_the_same_choice_with_fewer_iterations():
    """A search ends once no root choice can overtake the leader: same pick as the full search."""
    stopped = 0
    for seed in range(6):
        state = _advance(new_game("kingdom-of-dice", 2, seed=20 + seed), seed)
        seat = state.to_move[0]
        full_params = SearchParams(iterations=120, rollout_depth=4)
        full = MCTS(full_params, seed=seed)
        short = MCTS(replace(full_params, stop_early=True), seed=seed)
        a, b = full.search(state, seat), short.search(state, seat)
        assert full.iterations == 120 and 1 <= short.iterations <= 120
        assert sum(v for v, _ in b.values()) == short.iterations
        best = max(a, key=lambda k: (a[k][0], a[k][1]))
        assert max(b, key=lambda k: (b[k][0], b[k][1])) == best
        stopped += short.iterations < 120
    assert stopped >= 1  # the rule does cut searches short on real positions


def test_with_a_learned_value_the_leaf_is_scored_where_it_is():
    """``learned_depth = 0``: the learned value scores the expanded position, no leaf play."""
    state = new_game("corsairs-of-valeria", 2, seed=3)  # a learned value ships for Corsairs at 2 players
    seat = state.to_move[0]
    learned = MCTS(SearchParams(rollout_depth=10, learned_depth=0), seed=1)
    copy = state.clone()
    rewards = learned._leaf(copy, seat)
    assert learned.evaluator.model is not None
    assert len(copy.history) == len(state.history)
    assert rewards == learned.evaluator.rewards(state)
    hand = MCTS(SearchParams(rollout_depth=10, learned_depth=0, value="hand"), seed=1)
    copy = state.clone()
    hand._leaf(copy, seat)  # no learned value: the leaf is played on as before
    assert len(copy.history) > len(state.history)


def _kod_positions(players=2, seeds=range(6), steps=30):
    """Kingdom of Dice positions in a turn's set-aside or place step, reached by greedy play."""
    from dicetable.games.kingdom_of_dice.policy import greedy
    for seed in seeds:
        state = new_game("kingdom-of-dice", players, seed=seed)
        for _ in range(steps):
            if state.is_over:
                break
            seat = state.to_move[0]
            yield state, seat
            state.apply(greedy(state, seat), seat)


def test_turn_planner_with_result_values_is_greedy():
    """Valued by the result alone (invalid 0, capped at the top space) the planner's expectimax
    is greedy's dynamic programme: the same choice at every step of the turn."""
    from dicetable.games.kingdom_of_dice.components import TOP_SPACE
    from dicetable.games.kingdom_of_dice.policy import greedy, plan_turn
    values = tuple(float(r) for r in range(TOP_SPACE + 1))
    checked = 0
    for state, seat in _kod_positions():
        if state.phase == "set-aside":
            assert plan_turn(state, seat, values)[0].id == greedy(state, seat).id
            checked += 1
    assert checked > 50


def test_turn_planner_declines_a_result_worth_less_than_no_marker():
    """Rulebook step 4: a valid result may be declined; the planner declines when its ending is
    worth less than ending the turn without a marker, and places otherwise."""
    from dicetable.games.kingdom_of_dice.components import TOP_SPACE
    from dicetable.games.kingdom_of_dice.policy import plan_turn
    for state, seat in _kod_positions(steps=200):
        if state.phase == "place":
            break
    else:
        raise AssertionError("no place step reached")
    worse = (1.0,) + (0.0,) * TOP_SPACE
    better = (0.0,) + (1.0,) * TOP_SPACE
    assert plan_turn(state, seat, worse)[0].id == "decline"
    assert plan_turn(state, seat, better)[0].id == "place"


def test_turn_outcomes_value_the_endings_by_points():
    """On an empty board, a top result (the marker on space 32 takes the round's best card)
    is worth more than no marker; only the seat taking its turn may be asked."""
    from dicetable.games.kingdom_of_dice.policy import turn_outcomes
    state = new_game("kingdom-of-dice", 2, seed=3)
    seat = state.to_move[0]
    out = turn_outcomes(state, seat, None, seeds=(1, 2))
    assert len(out) == 33
    assert out[32] > out[0]
    with pytest.raises(ValueError, match="not seat"):
        turn_outcomes(state, 1 - seat, None)


def test_solo_turn_outcomes_go_by_the_gap_between_the_cats_markers():
    """Solo (rulebook: Solo Mode; End of a Round): cards go from the highest marker down and only
    the Cat's markers rank against the player's, so results landing between the same two Cat
    markers (level 1: spaces 5, 10, 15) are worth the same, and one above the Cat's 15 at least
    as much as one just below it."""
    from dicetable.games.kingdom_of_dice.policy import turn_outcomes
    state = new_game("kingdom-of-dice", 1, seed=5, options={"cat_level": 1})
    out = turn_outcomes(state, 0, None, seeds=(1, 2, 3))
    assert len(set(out[16:])) == 1 and len(set(out[11:15])) == 1 and len(set(out[6:10])) == 1
    assert out[16] >= out[14]


def test_plan_worlds_setting_plays_legal_planned_actions():
    """SearchParams.plan_worlds reaches the Kingdom of Dice planner (2 players: solo the round
    is solved, nothing sampled)."""
    params = level_params("kingdom-of-dice", "hard", 2, plan_worlds=2)
    assert params.turn_plan and params.plan_worlds == 2
    bot = MCTSBot(params=params, seed=1)
    state = new_game("kingdom-of-dice", 2, seed=6)
    hows = set()
    for _ in range(40):
        seat = state.to_move[0]
        action = bot.choose(state, seat)
        assert action in state.legal_actions(seat)
        hows.add(bot.last.how)
        state.apply(action, seat)
    assert "planner" in hows


def test_turn_plan_setting_plays_legal_planned_actions():
    """SearchParams.turn_plan: hard in Kingdom of Dice decides by the game's planner, legally."""
    params = replace(LEVELS["hard"], turn_plan=True, value="hand")
    bot = MCTSBot(params=params, seed=1)
    state = new_game("kingdom-of-dice", 2, seed=4)
    hows = set()
    for _ in range(25):
        seat = state.to_move[0]
        action = bot.choose(state, seat)
        assert action in state.legal_actions(seat)
        hows.add(bot.last.how)
        state.apply(action, seat)
    assert "planner" in hows


def test_decoupled_simultaneous_step_lets_no_seat_answer_a_secret_choice():
    """``sim_decouple``: in a secret simultaneous play the other seat chooses by statistics shared
    over all the searcher's cards, so it cannot always beat the card played. In Secret High Card
    (hands [[2, 5, 7], [1, 4, 8]]: seat 1's 8 beats anything seat 0 holds) the coupled tree lets
    seat 1 answer each card with the card just above it, which makes every card of seat 0 look
    worse than when seat 1 cannot see it."""
    state = new_game("toy-secret-high-card", 2, seed=0)
    assert state.hands == [[2, 5, 7], [1, 4, 8]]
    params = SearchParams(iterations=400, rollout_depth=20)
    coupled = MCTS(params, seed=1).search(state, 0)
    decoupled = MCTS(replace(params, sim_decouple=True), seed=1).search(state, 0)
    assert set(coupled) == set(decoupled) == {"play:2", "play:5", "play:7"}
    assert sum(v for v, _ in decoupled.values()) == 400
    best = lambda stats: max(mean for _, mean in stats.values())  # noqa: E731
    assert best(decoupled) > best(coupled) + 0.1


def test_opponent_prior_weights_the_greedy_choice_of_the_other_seats_only():
    """``opponent_prior`` replaces ``prior_weight`` at the other seats' nodes, not the searcher's."""
    from dicetable.bots.mcts import Node

    state = new_game("kingdom-of-dice", 2, seed=3)
    search = MCTS(SearchParams(iterations=8, prior_weight=0.3, opponent_prior=0.9), seed=1)
    search.search(state, 0)
    assert search.searcher == 0
    for actor, weight in ((1, 0.9), (0, 0.3)):
        node = Node(actor, 1.0)
        for aid in ("a", "b", "c", "d"):
            node.children[aid] = Node(actor, 0.25)
        search._prime(state, actor, None, node, greedy_id="b")
        assert node.children["b"].prior == pytest.approx(weight + (1 - weight) / 4)
        assert node.children["a"].prior == pytest.approx((1 - weight) / 4)
        assert sum(ch.prior for ch in node.children.values()) == pytest.approx(1.0)
