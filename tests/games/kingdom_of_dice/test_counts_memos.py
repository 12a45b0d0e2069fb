"""Kingdom of Dice's per-counts helpers (rules.py) against plain references from the rulebook.

``can_still_be_valid`` works out in place what a memo keyed by the counts once held, and the texts
and faces of a set of dice come from a list read by ``counts_index``; these tests compare every set
of six dice or fewer with references written here (rulebook: How to Play, steps 2-3).
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product

from dicetable.games.kingdom_of_dice.rules import (
    _counts_to_faces, can_still_be_valid, counts_index, faces_text, result_value,
)

FACES = ("crown", 1, 2, 3, 4, 5)


def _all_counts(most: int = 6) -> list[list[int]]:
    """Every 6-list of counts by face (crown, 1..5) of at most ``most`` dice."""
    return [list(c) for c in product(range(most + 1), repeat=6) if sum(c) <= most]


def _reference_valid(kept: list[int]) -> bool:
    """Rulebook step 2, read plainly: a crown and a number; 2s in twos or more, 3s in threes or more,
    4s in fours or more; at most one 5."""
    crowns, ones, twos, threes, fours, fives = kept
    return (crowns >= 1 and ones + twos + threes + fours + fives >= 1 and twos in (0,) + tuple(range(2, 7))
            and threes in (0,) + tuple(range(3, 7)) and fours in (0,) + tuple(range(4, 7)) and fives <= 1)


def _reference_can_still_be_valid(kept: list[int], dice_left: int) -> bool:
    """Some faces on some of the ``dice_left`` dice make ``kept`` valid: tried one by one."""
    for n in range(dice_left + 1):
        for more in combinations_with_replacement(range(6), n):
            after = list(kept)
            for face in more:
                after[face] += 1
            if _reference_valid(after):
                return True
    return False


def test_reference_validity_agrees_with_result_value():
    for kept in _all_counts():
        assert _reference_valid(kept) == (result_value(kept) is not None), kept


def test_can_still_be_valid_matches_trying_every_roll():
    for kept in _all_counts():
        for dice_left in range(0, 7 - sum(kept)):
            assert can_still_be_valid(kept, dice_left) == _reference_can_still_be_valid(kept, dice_left), (kept, dice_left)


def test_counts_index_is_one_to_one_below_seven_to_the_sixth():
    seen = {counts_index(c) for c in _all_counts()}
    assert len(seen) == 924 and min(seen) == 0 and max(seen) < 7 ** 6   # the multisets of six dice or fewer
    assert counts_index([7, 0, 0, 0, 0, 0]) == -1 and counts_index([0, -1, 0, 0, 0, 0]) == -1


def test_faces_and_text_of_every_set_of_dice():
    for counts in _all_counts() + [[7, 0, 1, 0, 0, 0]]:   # the last: more dice than the game has (uncached)
        faces = [face for face, n in zip(FACES, counts) for _ in range(n)]
        assert _counts_to_faces(counts) == faces
        assert faces_text(counts) == (", ".join(str(f) for f in faces) or "nothing")
        assert faces_text(counts) == faces_text(counts)   # the second read comes from the memo


def test_the_index_die_draws_the_kingdom_dies_faces():
    """Unscripted rolls read the faces' indices from ``_INDEX_DIE``: the same draws as the Kingdom die's."""
    from dicetable import new_game
    from dicetable.games.kingdom_of_dice.consts import FACE_ORDER, KINGDOM_DIE
    from dicetable.games.kingdom_of_dice.rules import _INDEX_DIE

    state = new_game("kingdom-of-dice", 2, seed=5)
    other = state.clone()
    faces = state.roll_many(KINGDOM_DIE, 60)
    assert [FACE_ORDER[i] for i in other.roll_many(_INDEX_DIE, 60)] == faces
    assert set(faces) == set(FACE_ORDER)
