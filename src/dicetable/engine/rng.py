"""Seeded randomness whose whole state is one integer.

The kernel keeps a game's random state as a single 64-bit integer advanced by
SplitMix64 (Steele, Lea and Flood, 2014). Copying an int is free, so
``clone()`` stays cheap and ``to_dict()`` stays small; the same seed and the
same actions always produce the same game on every platform and Python
version (``random.Random`` guarantees neither cheap copies nor a stable
``shuffle`` across versions).
"""

from __future__ import annotations

from typing import Any, Final, Sequence, TypeVar

from mypy_extensions import i64

T = TypeVar("T")

MASK64: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15

# The compiled build runs the generator on mypyc's native 64-bit integers (``i64``: C arithmetic,
# wrapping on overflow) instead of Python's arbitrary-precision ones, whose 64-bit values fall off
# mypyc's fast path for small ints. ``i64`` is signed, so the state and the outputs are held in
# two's complement there and turned back into the same unsigned ints at the edges; the shifts
# mask off the sign bits a logical shift would not bring in. Rng and the kernel keep their state
# in that form between draws (``_stored``: a native i64 attribute, no int object per draw) and
# turn it back (``_public``) only where it leaves them: a saved game, ``Rng.state``,
# ``chance_mark``. In the pure build ``i64`` is a plain int that never wraps, so the pure build
# holds the unsigned int itself and keeps the masked arithmetic below; tests/build compares the
# two builds' games byte for byte.
_NATIVE: Final = not __file__.endswith(".py")
_TOP: Final = 1 << 63
_WRAP: Final = 1 << 64
_LOW32: Final[i64] = 0xFFFFFFFF
_LOW53: Final[i64] = (1 << 53) - 1
_UNIT: Final = 1.0 / (1 << 53)


def _signed(value: int) -> i64:
    """An unsigned 64-bit int as the i64 with the same bits."""
    return i64(value - _WRAP) if value >= _TOP else i64(value)


# SplitMix64's constants as i64. Made by a call, not written as literals: mypyc inlines a literal
# constant, and one beyond its 63-bit tagged ints is an int object turned into an i64 at every use
# (2% of a compiled random game's samples in _mix); a call's value is held in a native C global.
_GOLDEN_S: Final[i64] = _signed(_GOLDEN)
_MUL1_S: Final[i64] = _signed(0xBF58476D1CE4E5B9)
_MUL2_S: Final[i64] = _signed(0x94D049BB133111EB)


def _unsigned(value: i64) -> int:
    """The inverse of :func:`_signed`."""
    return int(value) + _WRAP if value < 0 else int(value)


def _stored(value: int) -> i64:
    """The generator's public state (an unsigned 64-bit int) as :class:`Rng` and the kernel hold it:
    the i64 with the same bits in the compiled build, the int itself in the pure build."""
    if _NATIVE:
        return _signed(value)
    return value


def _public(value: i64) -> int:
    """The inverse of :func:`_stored`: the unsigned 64-bit int saved, cloned and shown."""
    if _NATIVE:
        return _unsigned(value)
    return value


def _mix(state: i64) -> i64:
    """SplitMix64's output for an already advanced ``state``, in i64 arithmetic (compiled build only)."""
    z = state
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * _MUL1_S
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MUL2_S
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


def _scale(out: i64, n: i64) -> i64:
    """``(out * n) >> 64`` for the unsigned 64 bits of ``out`` and ``0 < n < 2**31``, without overflow."""
    return ((out >> 32 & _LOW32) * n + ((out & _LOW32) * n >> 32)) >> 32
SEED_LIMIT: Final = 1 << 64
"""Seeds are ints in ``0 <= seed < SEED_LIMIT`` (64 bits): every seed gives a different game."""
SEED_RANGE: Final = "an integer 0..2**64-1 (64 bits, not negative)"
"""What a seed is, in the words every refusal of an out-of-range seed uses (:func:`seed_problem`, the server)."""
TABLE_SEED_MAX: Final = SEED_LIMIT - 1
"""The largest seed a player may choose for a table: every game seed, 2**64-1 (the server keeps a seed
of 2**63 or more in its signed 64-bit column as the negative number with the same 64 bits,
``dicetable.server.models.Seed64``). The server's API and the terminal's ``dicetable play --seed``
both take ``0..TABLE_SEED_MAX``, the seeds :func:`new_game`, the environments, ``simulate`` and the
tournaments take, so a seed chosen in one can be given to any other."""


def series_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0, 1, ...) of a series of games started from ``seed``.

    ``(seed * 1_000_003 + index) % SEED_LIMIT``: the series of nearby base seeds do not overlap for a
    million games, and any base seed a game takes (``0..2**64-1``) gives game seeds that a game takes
    too (without the remainder a base seed above about 1.8e13 gave seeds past 64 bits partway
    through a run). The tournaments, ladders and training runs all number their games this way.
    """
    return (seed * 1_000_003 + index) % SEED_LIMIT


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
        return f"seed must be {SEED_RANGE}, got {_short(seed)}"
    return None


def _short(value: object, limit: int = 40) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number of more than 4,300 digits"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def splitmix64(state: int) -> tuple[int, int]:
    """Advance ``state`` once; return ``(new_state, output)``, both 64-bit ints."""
    if _NATIVE:
        s = _signed(state) + _GOLDEN_S
        return _unsigned(s), _unsigned(_mix(s))
    state = (state + _GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def splitmix64_below(state: int, n: int) -> tuple[int, int]:
    """Advance ``state`` once; return ``(new_state, pick)``: a uniform int in ``[0, n)`` (``n > 0``).

    The generator's output scaled by multiply-shift, ``(output * n) >> 64``:
    what :meth:`Rng.randbelow` and the kernel's ``randbelow``, ``roll`` and
    ``shuffle`` draw.
    """
    s, pick = _draw_below(_stored(state), n)
    return _public(s), pick


def splitmix64_choices(state: int, items: Sequence[T], count: int) -> tuple[int, list[T]]:
    """Advance ``state`` ``count`` times; return ``(new_state, picks)``: ``count`` uniform picks from ``items``.

    The same generator as :func:`splitmix64` followed by the multiply-shift
    of :meth:`Rng.randbelow` over ``len(items)``, written out in one loop:
    rolling a handful of dice is the engine's hottest use of randomness, and
    a call per die cost Kingdom of Dice a tenth of its speed.
    ``tests/engine/test_rng.py`` checks the two agree. ``items`` must not be empty.
    """
    s, picks = _draw_choices(_stored(state), items, count)
    return _public(s), picks


# The two draws above on the state as it is held (:func:`_stored`): what the kernel and Rng call, so
# that the compiled build keeps its state in a native i64 from draw to draw and converts it only
# where it is saved, cloned into a public value or shown.
def _draw_below(state: i64, n: int) -> tuple[i64, int]:
    """:func:`splitmix64_below` on a held state: ``(new held state, pick)``."""
    if _NATIVE:
        s = state + _GOLDEN_S
        if n < 1 << 31:
            return s, int(_scale(_mix(s), n))
        return s, (_unsigned(_mix(s)) * n) >> 64
    u: int = state  # the pure build holds the unsigned int itself
    z = u = (u + _GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return u, ((z ^ (z >> 31)) * n) >> 64


def _draw_choices(state: i64, items: Sequence[T], count: int) -> tuple[i64, list[T]]:
    """:func:`splitmix64_choices` on a held state: ``(new held state, picks)``."""
    n = len(items)
    picks = []
    if _NATIVE and n < 1 << 31:
        s = state
        for _ in range(count):
            s += _GOLDEN_S
            picks.append(items[_scale(_mix(s), n)])
        return s, picks
    u: int = _unsigned(state) if _NATIVE else state  # (no call in the pure build)
    for _ in range(count):
        z = u = (u + _GOLDEN) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        picks.append(items[((z ^ (z >> 31)) * n) >> 64])
    return (_signed(u) if _NATIVE else u), picks


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

    __slots__ = ("_state",)
    _state: i64  # as held (:func:`_stored`): a native i64 in the compiled build

    def __init__(self, seed: int) -> None:
        self._state = _stored(seed_state(seed))

    @property
    def state(self) -> int:
        """The generator's state: an unsigned 64-bit int, the same in both builds."""
        return _public(self._state)

    def next64(self) -> int:
        """Return the next 64-bit output."""
        if _NATIVE:
            s = self._state + _GOLDEN_S
            self._state = s
            return _unsigned(_mix(s))
        self._state, out = splitmix64(self._state)
        return out

    def randbelow(self, n: int) -> int:
        """Return a uniform int in ``[0, n)`` (multiply-shift; bias below n / 2**64)."""
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, got {n}")
        if _NATIVE and n < 1 << 31:  # _draw_below written out: no tuple made (a search draws at every leaf move)
            s = self._state + _GOLDEN_S
            self._state = s
            return int(_scale(_mix(s), n))
        self._state, out = _draw_below(self._state, n)
        return out

    def random(self) -> float:
        """Return a float in ``[0, 1)`` with 53 random bits."""
        if _NATIVE:  # the same bits in i64: the output's top 53 (the arithmetic shift's sign bits masked off)
            s = self._state + _GOLDEN_S
            self._state = s
            return float(_mix(s) >> 11 & _LOW53) * _UNIT
        self._state, out = splitmix64(self._state)
        return (out >> 11) * _UNIT

    def choice(self, seq: Sequence[T]) -> T:
        """Return one element of a non-empty sequence, uniformly."""
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
