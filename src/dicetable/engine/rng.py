"""Seeded randomness whose whole state is one integer.

The kernel keeps a game's random state as a single 64-bit integer advanced by
SplitMix64 (Steele, Lea and Flood, 2014). Copying an int is free, so
``clone()`` stays cheap and ``to_dict()`` stays small; the same seed and the
same actions always produce the same game on every platform and Python
version (``random.Random`` guarantees neither cheap copies nor a stable
``shuffle`` across versions).
"""

from __future__ import annotations

from typing import Any, Sequence, TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
SEED_LIMIT = 1 << 64
"""Seeds are ints in ``0 <= seed < SEED_LIMIT`` (64 bits): every seed gives a different game."""


def seed_problem(seed: object) -> str | None:
    """Why ``seed`` is not a game seed (an int in ``0..2**64-1``, not a bool), or None if it is one.

    A seed is the key to every hidden card and every future die of a game
    (docs/engine.md, "The seed is a secret"), so it is bounded like the
    generator's state: 64 bits, no negative numbers (they would alias
    positive ones).
    """
    if type(seed) is not int:
        return f"seed must be an integer 0..2**64-1, got {type(seed).__name__} {_short(seed)}"
    if not 0 <= seed < SEED_LIMIT:
        return f"seed must be an integer 0..2**64-1 (64 bits, not negative), got {_short(seed)}"
    return None


def _short(value: object, limit: int = 40) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number of more than 4,300 digits"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def splitmix64(state: int) -> tuple[int, int]:
    """Advance ``state`` once; return ``(new_state, output)``, both 64-bit ints."""
    state = (state + _GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def splitmix64_choices(state: int, items: Sequence[T], count: int) -> tuple[int, list[T]]:
    """Advance ``state`` ``count`` times; return ``(new_state, picks)``: ``count`` uniform picks from ``items``.

    The same generator as :func:`splitmix64` followed by the multiply-shift
    of :meth:`Rng.randbelow` over ``len(items)``, written out in one loop:
    rolling a handful of dice is the engine's hottest use of randomness, and
    a call per die cost Kingdom of Dice a tenth of its speed.
    ``tests/engine/test_rng.py`` checks the two agree. ``items`` must not be empty.
    """
    n = len(items)
    picks = []
    for _ in range(count):
        z = state = (state + _GOLDEN) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        picks.append(items[((z ^ (z >> 31)) * n) >> 64])
    return state, picks


def seed_state(seed: int) -> int:
    """Turn any integer seed (negative or huge included) into an initial 64-bit state."""
    _, out = splitmix64(seed & MASK64)
    return out ^ ((seed >> 64) & MASK64)


class Rng:
    """A small stand-alone generator with the kernel's algorithm.

    Used by bots, tests and tools that need reproducible choices outside a
    game state. ``randbelow(n)`` returns an int in ``[0, n)``; ``n`` must be
    positive (ValueError otherwise).
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed_state(seed)

    def next64(self) -> int:
        """Return the next 64-bit output."""
        self.state, out = splitmix64(self.state)
        return out

    def randbelow(self, n: int) -> int:
        """Return a uniform int in ``[0, n)`` (multiply-shift; bias below n / 2**64)."""
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, got {n}")
        self.state, out = splitmix64(self.state)
        return (out * n) >> 64

    def random(self) -> float:
        """Return a float in ``[0, 1)`` with 53 random bits."""
        self.state, out = splitmix64(self.state)
        return (out >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        """Return one element of a non-empty sequence, uniformly."""
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
