"""Smoke tests of the bots' levels, time caps, learned values, hints and ladder (all fast)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dicetable import new_game
from dicetable.bots import make_bot
from dicetable.ladder import Row, ladder_rows, percentile, run_ladder, table
from dicetable.bots.mcts import (LEVELS, MCTS, MCTSBot, SearchParams, hint_rows, level_params,
                                 macro_actions)
from dicetable.bots.value import Evaluator, parse_value
from dicetable.cli.main import app
from dicetable.engine import GameConfigError, Rng

from ..engine.toy_game import SPEC  # noqa: F401  (registers the toy game)

ORDER = ("easy", "medium", "hard", "expert")


def test_levels_are_ordered_by_budget_and_hard_keeps_its_caps():
    for lower, higher in zip(ORDER, ORDER[1:]):
        a, b = LEVELS[lower], LEVELS[higher]
        assert a.iterations < b.iterations and a.time_ms < b.time_ms and a.turn_ms < b.turn_ms, (lower, higher)
        assert a.blunder >= b.blunder, (lower, higher)  # a level never makes more mistakes than the one below
    assert 0 < LEVELS["easy"].blunder < 0.5 and LEVELS["hard"].blunder == LEVELS["expert"].blunder == 0
    # issue 15: hard answers within 1 s a decision and 3 s a turn
    assert LEVELS["hard"].time_ms <= 1000 and LEVELS["hard"].turn_ms <= 3000
    for level in ORDER:  # every game's tuning keeps the level's budget
        p = level_params("corsairs-of-valeria", level)
        assert (p.iterations, p.time_ms, p.turn_ms) == (LEVELS[level].iterations, LEVELS[level].time_ms,
                                                        LEVELS[level].turn_ms)


def test_a_blunder_is_a_uniform_legal_action_and_only_where_the_bot_would_search():
    # blunder 1: every decision with a choice is random (a whole re-roll selection, then played
    # out as the plan); single-action moves stay "only"
    state = new_game("corsairs-of-valeria", 2, seed=4)
    bot = MCTSBot(SearchParams(iterations=5, blunder=1.0), seed=3)
    picked: dict[int, set[str]] = {}
    hows = set()
    for _ in range(60):
        if state.is_over:
            break
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        action = bot.choose(state, seat)
        assert action in legal
        hows.add(bot.last.how)
        assert bot.last.how in (("only", "plan") if len(legal) == 1 else ("blunder", "plan"))
        if bot.last.how == "blunder":
            picked.setdefault(len(legal), set()).add(action.id)
        state.apply(action, seat)
    assert "blunder" in hows and any(len(ids) > 1 for ids in picked.values())
    # blunder 0 (hard): never
    state = new_game("corsairs-of-valeria", 2, seed=4)
    bot = MCTSBot(level_params("corsairs-of-valeria", "hard", iterations=5), seed=3)
    for _ in range(20):
        seat = state.to_move[0]
        state.apply(bot.choose(state, seat), seat)
        assert bot.last.how != "blunder"


def test_a_player_count_tuning_overrides_only_its_fields_at_that_player_count(monkeypatch):
    from dicetable.bots import mcts

    tuning = dict(mcts.GAME_TUNING)
    tuning["biblios-dice"] = mcts.SearchTuning(c=0.7, rollout_depth=4)
    tuning[("biblios-dice", 1)] = mcts.SearchTuning(value="hand", rollout_depth=6)
    monkeypatch.setattr(mcts, "GAME_TUNING", tuning)
    solo = level_params("biblios-dice", "hard", 1)
    assert (solo.c, solo.rollout_depth, solo.value) == (0.7, 6, "hand")
    for players in (2, None):  # other player counts, or none given: the game's tuning only
        p = level_params("biblios-dice", "hard", players)
        assert (p.c, p.rollout_depth, p.value) == (0.7, 4, "auto")
    assert level_params("biblios-dice", "hard", 1, rollout_depth=2).rollout_depth == 2  # overrides last
    # Card Kingdoms: the hand evaluation solo only, its learned value at 2 players
    assert level_params("valeria-card-kingdoms", "hard", 1).value == "hand"
    assert level_params("valeria-card-kingdoms", "hard", 2).value == "auto"


def test_unknown_level_or_setting_is_refused_with_the_allowed_names():
    with pytest.raises(GameConfigError, match="levels: easy, medium, hard, expert"):
        level_params("kingdom-of-dice", "godlike")
    with pytest.raises(GameConfigError, match="settings: iterations"):
        level_params("kingdom-of-dice", "hard", rollout_dept=3)
    with pytest.raises(GameConfigError, match="@hand or @learned"):
        make_bot("hard@oracle")


def test_the_decision_cap_stops_a_search_that_could_run_for_ever():
    state = new_game("corsairs-of-valeria", 2, seed=4)
    seat = state.to_move[0]
    bot = MCTSBot(SearchParams(iterations=10**9, time_ms=30.0, turn_ms=10**6), seed=1)
    action = bot.choose(state, seat)
    assert action in state.legal_actions(seat)
    assert bot.last.how == "search" and 1 <= bot.last.iterations < 10**9
    assert bot.last.ms < 30.0 + 2000.0  # one iteration may overrun the cap; never a search without end


def test_once_the_turn_budget_is_spent_the_bot_plays_the_rest_of_the_turn_greedily():
    state = new_game("corsairs-of-valeria", 2, seed=4)
    seat = state.to_move[0]
    bot = MCTSBot(SearchParams(iterations=10**9, time_ms=40.0, turn_ms=41.0, macro=False), seed=1)
    hows = []
    while not state.is_over and state.to_move == (seat,):
        state.apply(bot.choose(state, seat), seat)
        hows.append(bot.last.how)
        if len(hows) > 1:
            assert not bot.last.new_turn
    # the first search spends the 41 ms turn budget; later choices of the turn do not search
    assert hows[0] in ("search", "only")
    assert all(h in ("greedy", "only") for h in hows[1:]) and "search" not in hows[1:]


def test_a_whole_corsairs_reroll_is_one_choice_of_the_root():
    state = new_game("corsairs-of-valeria", 2, seed=3)
    seat = state.to_move[0]
    state.apply("roll", seat)
    assert state.decision(seat).kind == "reroll"
    macros = macro_actions(state.determinize(seat, 9), seat, limit=100)
    assert macros is not None and len(set(macros)) == len(macros)
    for seq in macros:  # every sequence plays out legally: marks, then a re-roll (new dice) or a lock
        copy = state.clone()
        for aid in seq:
            copy.apply(aid, seat)
        ends = seq.index("reroll") if "reroll" in seq else seq.index("lock")
        assert all(a.startswith("mark:") for a in seq[:ends]), seq
        if seq[ends] == "reroll":
            assert ends == len(seq) - 1, seq  # the new dice end the choice
    assert any(seq[0] == "lock" for seq in macros) and any(len(seq) >= 3 and seq[-1] == "reroll" for seq in macros)


def test_macro_search_counts_its_iterations_and_plays_the_rest_of_the_choice_without_searching():
    state = new_game("corsairs-of-valeria", 2, seed=3)
    seat = state.to_move[0]
    state.apply("roll", seat)
    bot = MCTSBot(SearchParams(iterations=60), seed=2)
    state.apply(bot.choose(state, seat), seat)
    first = bot.last
    assert first.how == "search" and first.iterations == 60
    while state.to_move == (seat,) and state.decision(seat).kind == "reroll" and bot._plan:
        state.apply(bot.choose(state, seat), seat)
        assert bot.last.how == "plan" and bot.last.iterations == 0


@pytest.mark.parametrize("players", [2, 1])
def test_hint_rows_carry_a_win_chance_or_a_solo_value(players):
    game = "kingdom-of-dice"
    state = new_game(game, players, seed=6)
    rows = hint_rows(state, 0, level="easy")
    assert 1 <= len(rows) <= 3
    for row in rows:
        assert row.action in state.legal_actions(0)
        assert 0.0 <= row.value <= (1.0 if row.kind in ("win", "hand") else 10_000)
    assert rows[0].kind == ("win" if players > 1 else Evaluator(game, 1, state.options).kind)


def test_cli_hint_prints_the_win_chance(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    save = tmp_path / "s.json"
    runner.invoke(app, ["play", "kingdom-of-dice", "--players", "2", "--seed", "2"], input=f"save {save}\nquit\n")
    result = runner.invoke(app, ["hint", str(save), "--level", "easy"])
    assert result.exit_code == 0, result.output
    assert "win " in result.output and "%" in result.output and "keep:" in result.output


def test_train_eval_writes_a_valid_reproducible_file_with_provenance(tmp_path):
    runner = CliRunner()
    out = tmp_path / "v.json"
    result = runner.invoke(app, ["train-eval", "kingdom-of-dice", "--players", "2", "--games", "5",
                                 "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    model = parse_value(data, "kingdom-of-dice", 2)
    prov = model.provenance
    assert prov["games"] == 5 and prov["seed"] == 3 and "train-eval" in prov["command"] and prov["date"]
    assert "held out" in result.output or "held_out" in prov
    again = tmp_path / "w.json"
    runner.invoke(app, ["train-eval", "kingdom-of-dice", "--players", "2", "--games", "5",
                        "--seed", "3", "--out", str(again)])
    assert json.loads(again.read_text())["weights"] == data["weights"]  # seeded: the same fit
    # a search with this model scores leaves with it: win chances summing to 1
    ev = Evaluator("kingdom-of-dice", 2, new_game("kingdom-of-dice", 2, seed=1).options, model=model)
    rewards = ev.rewards(new_game("kingdom-of-dice", 2, seed=1))
    assert ev.kind == "win" and abs(sum(rewards) - 1.0) < 1e-9


def test_a_damaged_value_file_is_refused_naming_the_field():
    good = {"format": 1, "game": "kingdom-of-dice", "players": 2, "kind": "win", "size": 3,
            "weights": [0, 0, 0], "bias": 0.0, "scale": 1.0, "provenance": {}}
    with pytest.raises(ValueError, match="needs .* weights"):
        parse_value(good, "kingdom-of-dice", 2)
    with pytest.raises(ValueError, match="kind must be 'score'"):
        parse_value(dict(good, players=1), "kingdom-of-dice", 1)
    with pytest.raises(ValueError, match="at 2 players, not kingdom-of-dice at 4"):
        parse_value(good, "kingdom-of-dice", 4)


@pytest.mark.parametrize("games", ["2", "-1"])
def test_train_eval_refuses_too_few_games(games):
    """The error comes out alone: checked before the progress bar opens (rich's bar, stopped on an output that
    is no terminal, printed a blank line before it)."""
    result = CliRunner().invoke(app, ["train-eval", "kingdom-of-dice", "--games", games], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert result.output == f"error: train-eval needs at least 5 games (4 to fit, 1 to check), got {games}\n"


def test_percentile_interpolates():
    assert percentile([1, 2, 3, 4, 5], 50) == 3
    assert percentile([0, 10], 95) == pytest.approx(9.5)
    assert percentile([], 95) == 0.0


def test_ladder_rows_cover_two_and_four_players_and_solo():
    rows = ladder_rows(["kingdom-of-dice"])
    assert Row("kingdom-of-dice", 1, ("hard",)) in rows and Row("kingdom-of-dice", 1, ("greedy",)) in rows
    assert Row("kingdom-of-dice", 2, ("hard", "greedy")) in rows
    assert Row("kingdom-of-dice", 4, ("medium", "easy", "easy", "easy")) in rows
    with pytest.raises(GameConfigError, match="known games"):
        ladder_rows(["no-such-game"])


def test_a_tiny_ladder_gives_the_table_with_intervals_and_times():
    rows = [Row("toy-secret-high-card", 2, ("hard", "random")), Row("toy-secret-high-card", 2, ("medium", "easy"))]
    results = run_ladder(rows, games=4, seed=5, workers=1)
    assert [r["games"] for r in results] == [4, 4]
    for rec in results:
        ch = rec["bots"][rec["lineup"][0]]
        lo, hi = ch["win_ci"]
        assert 0.0 <= lo <= ch["win_rate"] <= hi <= 1.0 and hi - lo > 0.2  # 4 games: a wide interval
    hard = results[0]["time"]
    assert hard["decisions"] >= 4 and hard["turns"] >= 4
    assert 0 < hard["decision_mean_ms"] <= hard["decision_max_ms"] and hard["decision_p95_ms"] <= hard["decision_max_ms"]
    text = table(results)
    assert "| toy-secret-high-card | 2 | hard vs 1x random | 4 |" in text
    assert "mean ms / turn" in text and "%-" in text


def test_rows_of_a_player_count_can_play_more_games_than_the_others():
    rows = [Row("kingdom-of-dice", 1, ("greedy",)), Row("toy-secret-high-card", 2, ("random", "random"))]
    results = run_ladder(rows, games=1, seed=5, workers=1, games_at={1: 3})
    assert [(r["players"], r["games"]) for r in results] == [(1, 3), (2, 1)]
    assert results[0]["bots"]["greedy"]["seats"] == 3
    with pytest.raises(GameConfigError, match="at least 1 game"):
        run_ladder(rows, games=1, games_at={1: 0})
    for bad in ("1=0", "3=100", "solo=5", "1"):
        refused = CliRunner().invoke(app, ["ladder", "--games-at", bad])
        assert refused.exit_code != 0 and "--games-at takes PLAYERS=GAMES" in refused.output and bad in refused.output


def test_the_ladder_command_writes_each_row_as_a_json_line(tmp_path):
    # rows are appended as they finish (a stopped run keeps them), then rewritten in row order
    out = tmp_path / "ladder.jsonl"
    result = CliRunner().invoke(app, ["ladder", "--game", "kingdom-of-dice", "--players", "1", "--games", "1",
                                      "--workers", "1", "--seed", "4", "--jsonl", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["players"], r["lineup"], r["games"]) for r in rows] == [(1, ["hard"], 1), (1, ["greedy"], 1)]
    assert "done: kingdom-of-dice 1p hard" in result.output


def test_search_with_quiet_steps_leaves_the_real_state_alone():
    state = new_game("valeria-card-kingdoms", 2, seed=2)
    before = state.to_dict()
    seat = state.to_move[0]
    MCTS(SearchParams(iterations=30), seed=1).search(state, seat)
    assert state.to_dict() == before


def test_flat_search_compares_every_root_choice_on_shared_worlds_within_its_budget():
    state = new_game("valeria-card-kingdoms", 2, seed=2)
    seat = state.to_move[0]
    while len(state.legal_actions(seat)) < 3:  # a decision with a few choices
        state.apply(state.legal_actions(seat)[0], seat)
        seat = state.to_move[0]
    params = SearchParams(iterations=40, flat=True, rollout_greedy=1.0, rollout_depth=4)
    searcher = MCTS(params, seed=3)
    stats = searcher.search(state, seat)
    legal = {a.id for a in state.legal_actions(seat)}
    assert set(stats) == legal and all(n >= 1 for n, _ in stats.values())
    assert searcher.iterations == sum(n for n, _ in stats.values()) <= max(40, len(legal)) + len(legal)
    assert all(0.0 <= mean <= 1.0 for _, mean in stats.values())
    assert MCTS(params, seed=3).search(state, seat) == stats  # seeded


def test_a_solo_value_predicts_the_final_score_and_search_reports_it_in_points():
    from dicetable.bots.train import train

    model, report = train("dice-kingdoms-of-valeria", 1, 5, seed=2, command="test")
    assert model.kind == "score" and model.scale >= 1.0 and "learned_mae" in report
    state = new_game("dice-kingdoms-of-valeria", 1, seed=4)
    ev = Evaluator("dice-kingdoms-of-valeria", 1, state.options, model=model)
    (reward,) = ev.rewards(state)
    assert ev.kind == "score"
    assert ev.shown(reward) == pytest.approx(model.seat_value(state, 0, ev.encoding, ev.evaluate))
    while not state.is_over:  # a finished game: the reward is the final score over the scale
        state.apply(state.legal_actions(0)[0], 0)
    assert ev.shown(ev.terminal(state)[0]) == pytest.approx(state.scores[0])


def test_every_shipped_value_file_is_the_one_search_loads():
    """A value file under a game's data folder is found for its game and player count, even when
    the game's rules sit in a subpackage (Corsairs, Biblios and Dice Kingdoms keep theirs in ``rules``)."""
    from pathlib import Path

    import dicetable.games
    from dicetable.bots.value import load_value, value_path

    shipped = sorted(Path(dicetable.games.__file__).parent.glob("*/data/value_*p.json"))
    assert len(shipped) >= 6
    for path in shipped:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert value_path(data["game"], data["players"]).resolve() == path.resolve()
        model = load_value(data["game"], data["players"])
        assert model is not None and model.size == data["size"]


@pytest.mark.parametrize("game", ["valeria-card-kingdoms", "biblios-dice", "corsairs-of-valeria"])
def test_the_leaf_features_are_the_encodings_vector_then_the_hand_evaluation(game):
    """bots.value.features calls the game's direct fill itself; its vector must be what the engine's
    ``encode_state`` gives for the same seat, then the hand evaluation's logit, and a seat not in the
    game is refused as ``encode_state`` refuses it."""
    from dicetable.bots.value import features, hand_feature
    from dicetable.engine import SeatError, get_game
    from dicetable.engine.testing import random_step

    spec = get_game(game)
    state = new_game(game, 2, seed=7)
    encoding = spec.observation_encoding(2, state.options)
    rng = Rng(7)
    for step in range(60):
        if state.is_over:
            break
        if step % 6 == 0:
            for seat in range(2):
                want = encoding.encode_state(state, seat) + [hand_feature(float(spec.evaluate(state, seat)))]
                assert features(state, seat, encoding, spec.evaluate) == want
        random_step(state, rng)
    with pytest.raises(SeatError):
        features(state, 2, encoding, spec.evaluate)
