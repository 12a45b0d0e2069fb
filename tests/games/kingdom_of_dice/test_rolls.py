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


class _PlainTurnTable:
    """The turn programme of kingdom_of_dice/policy.py written plainly over count tuples (rulebook: How to
    Play, steps 1-4): the reference its counts-code memos must match float for float."""

    def __init__(self, outcomes):
        self.outcomes, self.pos, self.cont = outcomes, {}, {}

    def stop(self, kept):
        from dicetable.games.kingdom_of_dice.rules import result_value

        v = result_value(kept)
        return self.outcomes[0] if v is None else max(self.outcomes[0], self.outcomes[min(v, len(self.outcomes) - 1)])

    def position(self, kept, left):
        from dicetable.games.kingdom_of_dice.rules import can_still_be_valid

        if (kept, left) not in self.pos:
            if not can_still_be_valid(list(kept), left):
                self.pos[kept, left] = self.outcomes[0]
            elif left == 0:
                self.pos[kept, left] = self.stop(kept)
            else:
                self.pos[kept, left] = max(self.stop(kept), self.continue_(kept))
        return self.pos[kept, left]

    def continue_(self, kept):
        if kept not in self.cont:
            left, total = 6 - sum(kept), 0.0
            for roll, p in roll_outcomes(left):
                total += p * max(self.position(tuple(a + b for a, b in zip(kept, sub)), left - sum(sub))
                                 for sub in sub_vectors(roll) if any(sub))
            self.cont[kept] = total
        return self.cont[kept]

    def completion(self, kept, rolled):
        return max(self.position(tuple(a + b for a, b in zip(kept, sub)), sum(rolled) - sum(sub))
                   for sub in sub_vectors(rolled))


def test_the_turn_programme_by_counts_codes_is_the_plain_programme():
    """policy._TurnTable keys its memos by counts codes; its values are the plain programme's, to the
    last bit, for greedy's table and another, from every set-aside of up to three dice."""
    from itertools import product

    from dicetable.games.kingdom_of_dice.components import TOP_SPACE
    from dicetable.games.kingdom_of_dice.policy import KEEP_IDS, RESULT_TABLE, _TurnTable

    other = tuple(float((7 * r) % 11 - 3) for r in range(TOP_SPACE + 1))
    for table, plain in ((RESULT_TABLE, _PlainTurnTable(RESULT_TABLE.outcomes)), (_TurnTable(other), _PlainTurnTable(other))):
        assert table.continue_((0,) * 6) == plain.continue_((0,) * 6)
        for kept in (k for k in product(range(4), repeat=6) if sum(k) <= 3):
            for rolled in (r for r in product(range(7), repeat=6) if sum(r) == 6 - sum(kept)):
                assert table.completion(kept, rolled) == plain.completion(kept, rolled)
                ways = [(KEEP_IDS[i], plain.completion(tuple(k + (j == i) for j, k in enumerate(kept)),
                                                       tuple(r - (j == i) for j, r in enumerate(rolled))))
                        for i in range(6) if rolled[i]]
                best = ways[0]
                for way in ways[1:]:
                    if way[1] > best[1] + 1e-12:
                        best = way
                assert table.choose(kept, rolled, False) == best
