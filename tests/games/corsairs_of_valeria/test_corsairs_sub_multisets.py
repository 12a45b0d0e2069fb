"""The re-roll choices the Corsairs bot weighs: every sub-multiset of the dice, with no cycle left behind."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, strategies as st

from dicetable.games.corsairs_of_valeria import policy
from dicetable.games.corsairs_of_valeria.policy import _sub_multisets, greedy

from ...cycles import cyclic_garbage
from .corsairs_testkit import GR, MP, SG, SI, SK, game


def _reference(counts: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    # the recursive enumeration the bot used before (the reference for order and content)
    def rec(i: int, cur: list[int]) -> Iterator[tuple[int, ...]]:
        if i == 6:
            yield tuple(cur)
            return
        for x in range(counts[i] + 1):
            cur.append(x)
            yield from rec(i + 1, cur)
            cur.pop()
    for sub in rec(0, []):
        if any(sub):
            yield sub


@given(st.lists(st.integers(0, 5), min_size=6, max_size=6).filter(lambda c: sum(c) <= 8))
def test_sub_multisets_match_the_recursive_reference(counts: list[int]) -> None:
    assert list(_sub_multisets(tuple(counts))) == list(_reference(tuple(counts)))


def test_sub_multisets_of_two_faces_are_every_non_empty_choice() -> None:
    # dice 2 x face 0 and 1 x face 3: (2+1)(1+1) - 1 = 5 non-empty choices
    assert list(_sub_multisets((2, 0, 0, 1, 0, 0))) == [
        (0, 0, 0, 1, 0, 0), (1, 0, 0, 0, 0, 0), (1, 0, 0, 1, 0, 0), (2, 0, 0, 0, 0, 0), (2, 0, 0, 1, 0, 0)]


def test_a_bot_reroll_decision_leaves_no_reference_cycle() -> None:
    state = game(dice=[SK, GR, SI, MP, SG])
    seat = state.to_move[0]
    assert state.waiting_for == "reroll"
    list(_sub_multisets((1, 1, 1, 1, 1, 0)))  # warm up what is built once
    with cyclic_garbage() as left:
        for _ in range(3):
            policy._LAST_REROLL[0] = None  # decide afresh, not from the remembered answer
            greedy(state, seat)
    assert left == []
