"""The 95% interval of a mean score (ladder, tournaments, benchmarks): Student's t for small samples,
none for one game."""

from __future__ import annotations

import pytest

from dicetable.ladder import Row, summarize_row, table
from dicetable.simulate import interval_text, mean_interval, t95


@pytest.mark.parametrize("df, quantile", [(1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (9, 2.262),
                                          (30, 2.042), (31, 1.96), (1000, 1.96)])
def test_t95_is_students_two_sided_95_percent_quantile(df, quantile):
    # Known values of Student's t at the 0.975 quantile (any statistics table), the normal 1.96 past 30.
    assert t95(df) == quantile


def test_t95_needs_a_degree_of_freedom():
    with pytest.raises(ValueError, match="1 or more degrees of freedom, got 0"):
        t95(0)


def test_four_games_get_the_t_interval_not_the_normal_one():
    # findings' ladder row: 4 games, mean 77.5, sd 6.6: 77.5 +- 3.182 * 6.6 / 2 = 77.5 +- 10.5006.
    lo, hi = mean_interval(77.5, 6.6, 4)
    assert lo == pytest.approx(77.5 - 10.5006) and hi == pytest.approx(77.5 + 10.5006)
    lo, hi = mean_interval(10.0, 2.0, 2)  # 1 degree of freedom: 10 +- 12.706 * 2 / sqrt(2)
    assert hi - 10.0 == pytest.approx(12.706 * 2 ** 0.5)


def test_one_game_has_no_interval():
    assert mean_interval(50.0, 0.0, 1) is None
    assert interval_text(None) == "-" and interval_text((1.25, 2.5)) == "1.2-2.5"


def _solo_record(i: int, score: int) -> dict:
    return {"game": "kingdom-of-dice", "index": i, "seed": i, "players": 1, "bots": ["greedy"],
            "scores": [score], "winners": [], "steps": 1, "timing": {}}


def test_the_ladder_prints_a_t_interval_and_none_for_one_game():
    row = Row("kingdom-of-dice", 1, ("greedy",))
    four = summarize_row(row, [_solo_record(i, s) for i, s in enumerate([70, 75, 80, 85])], 1, 1.0)
    # mean 77.5, sd 6.455: 77.5 +- 3.182 * 6.455 / 2 = 77.5 +- 10.27
    lo, hi = four["bots"]["greedy"]["score_ci"]
    assert (lo, hi) == (pytest.approx(67.23, abs=0.01), pytest.approx(87.77, abs=0.01))
    one = summarize_row(row, [_solo_record(0, 50)], 1, 1.0)
    assert one["bots"]["greedy"]["score_ci"] is None
    lines = table([four, one]).splitlines()
    assert "| kingdom-of-dice | greedy | 4 | 77.5 (67.2-87.8) | 6.5 |" in lines
    assert "| kingdom-of-dice | greedy | 1 | 50.0 (-) | 0.0 |" in lines


def test_a_one_game_round_robin_prints_no_score_interval():
    pytest.importorskip("numpy")
    from dicetable.agent.tournament import Entrant, round_robin
    from dicetable.agent.tournament import table as tournament_table

    result = round_robin("biblios-dice", [Entrant("greedy", bot="greedy"), Entrant("random", bot="random")],
                         games=1, seed=1)
    assert all(r["score_ci"] is None for r in result["entrants"])
    for line in tournament_table(result).splitlines()[2:]:
        assert line.endswith(" (-) |"), line
