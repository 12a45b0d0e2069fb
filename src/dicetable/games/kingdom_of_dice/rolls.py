"""The odds of a roll of Kingdom of Dice's dice, shared by the turn programmes.

Both the turn planner (:mod:`.policy`) and the solo round solver (:mod:`.solo_round`) walk
the same rolls; they take them from here so neither imports the other. A roll or a set of
dice is a count-vector: how many dice show each of the 6 faces (``components.FACE_ORDER``).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from math import factorial


@lru_cache(maxsize=None)
def roll_outcomes(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every outcome of rolling ``n`` fair six-sided dice as (count-vector, probability),
    the probabilities summing to 1 (multinomial: ``n! / prod(c!) / 6**n``)."""
    out = []
    for vec in product(range(n + 1), repeat=6):
        if sum(vec) != n:
            continue
        ways = factorial(n)
        for c in vec:
            ways //= factorial(c)
        out.append((vec, ways / 6 ** n))
    return tuple(out)


def sub_vectors(counts: tuple[int, ...]):
    """Every count-vector ``k`` with ``0 <= k[i] <= counts[i]`` (the all-zero one first): the
    ways to set aside some of the dice ``counts``."""
    return product(*(range(c + 1) for c in counts))
