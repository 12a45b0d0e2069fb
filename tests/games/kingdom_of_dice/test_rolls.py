"""The roll odds the turn programmes share (kingdom_of_dice/rolls.py): six fair six-sided dice."""

from __future__ import annotations

from math import comb

import pytest

from dicetable.games.kingdom_of_dice.rolls import roll_outcomes, sub_vectors


@pytest.mark.parametrize("n", range(0, 7))
def test_every_roll_of_n_dice_once_with_probabilities_summing_to_one(n):
    outcomes = roll_outcomes(n)
    vectors = [v for v, _ in outcomes]
    assert len(vectors) == len(set(vectors)) == comb(n + 5, 5)   # multisets of n faces out of 6
    assert all(len(v) == 6 and sum(v) == n for v in vectors)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)


def test_known_odds():
    two = dict(roll_outcomes(2))
    assert two[(2, 0, 0, 0, 0, 0)] == pytest.approx(1 / 36)     # a double: one way in 36
    assert two[(1, 1, 0, 0, 0, 0)] == pytest.approx(2 / 36)     # two different faces: two ways
    six = dict(roll_outcomes(6))
    assert six[(6, 0, 0, 0, 0, 0)] == pytest.approx(6 ** -6)
    assert six[(1, 1, 1, 1, 1, 1)] == pytest.approx(720 / 6 ** 6)  # 6! orders


def test_sub_vectors_are_every_way_to_set_aside_some_dice():
    subs = list(sub_vectors((2, 0, 1, 0, 0, 0)))
    assert len(subs) == 3 * 1 * 2
    assert subs[0] == (0,) * 6 and (2, 0, 1, 0, 0, 0) in subs
    assert all(0 <= a <= b for s in subs for a, b in zip(s, (2, 0, 1, 0, 0, 0)))
