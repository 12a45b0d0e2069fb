"""Fixed-length feature vectors drawn from an observation: the research observation space.

A game declares its encoding as a list of :class:`Feature` (built with the helpers below), each
a named slice of the vector with a sentence saying what it holds. The vector is computed from
``state.observation(seat)`` alone, so it carries no hidden information by construction, and its
length depends only on the game's configuration (players, options), never on the position.
Seat-indexed features are rotated so that slot 0 is always the observing seat (a spectator
sees seat 0 first).

The fast path: a game may also give a *direct* fill (``Encoding(features, direct=make)``), which
writes the same vector straight from the state into a caller's pre-zeroed buffer without building
the observation dictionary (:meth:`Encoding.encode_state`). It must read only what
``observation(seat)`` shows; tests compare it with :meth:`Encoding.encode` on random states and
on determinized copies.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable, Sequence


Obs = dict[str, Any]
"""An observation (``state.observation(seat)``), or the ``{"obs", "seat"}`` view ``per_seat`` hands its inner feature."""


DirectFill = Callable[[Any, "int | None", Any], None]
"""A game's direct fill ``(state, seat, out)``: writes the encoding of ``state.observation(seat)``
into ``out`` (pre-zeroed, ``size`` long, supporting ``out[i] = float``) from the state itself."""


@dataclass(frozen=True)
class Feature:
    """One slice: ``size`` floats computed by ``fill(obs, out, start)`` (``out`` pre-zeroed)."""

    name: str
    size: int
    meaning: str
    fill: Callable[[Obs, list[float], int], None]


class Encoding:
    """The feature layout of one game configuration; ``encode(obs)`` gives ``size`` floats.

    ``slices`` lists ``(name, start, stop, meaning)`` in vector order: the documentation of
    every position of the vector; ``offsets`` maps each name to its start. ``direct``, when
    given, builds the game's :data:`DirectFill` from ``offsets`` (see :meth:`encode_state`).
    """

    def __init__(self, features: Sequence[Feature],
                 direct: Callable[[dict[str, int]], DirectFill] | None = None) -> None:
        self.features = tuple(features)
        names = [f.name for f in self.features]
        if len(names) != len(set(names)):
            raise ValueError(f"feature names repeat: {names}")
        start = 0
        slices = []
        for f in self.features:
            slices.append((f.name, start, start + f.size, f.meaning))
            start += f.size
        self.slices = tuple(slices)
        self.size = start
        self._fills = tuple((sl[1], f.fill) for sl, f in zip(self.slices, self.features))
        self.offsets = {name: begin for name, begin, _, _ in self.slices}
        self.direct: DirectFill | None = direct(self.offsets) if direct is not None else None

    def encode(self, obs: dict[str, Any]) -> list[float]:
        """The feature vector of one observation (``size`` floats, mostly in [0, 1])."""
        out = [0.0] * self.size
        for start, fill in self._fills:
            fill(obs, out, start)
        return out

    def encode_state(self, state: Any, seat: int | None, out: Any = None) -> Any:
        """The vector of ``state.observation(seat)`` written into ``out``, which is returned.

        ``out`` is a pre-zeroed buffer of ``size`` numbers supporting item assignment (a numpy
        float32 array reused between steps, say); None: a new list of floats. With a direct fill
        the observation dictionary is never built; otherwise this encodes ``observation(seat)``.
        Either way the values equal :meth:`encode`'s. Raises :class:`~dicetable.engine.SeatError`
        when ``seat`` is neither a seat of the state nor None (a spectator).
        """
        if out is None:
            out = [0.0] * self.size
        if self.direct is None:
            out[:] = self.encode(state.observation(seat))
            return out
        if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
            state.check_seat(seat, spectator=True)
        self.direct(state, seat, out)
        return out


def seat_order(obs: dict[str, Any], players: int) -> list[int]:
    """Seats starting from the observer (``obs["seat"]``; a spectator starts from seat 0)."""
    me = obs.get("seat")
    first = me if isinstance(me, int) and 0 <= me < players else 0
    return [(first + k) % players for k in range(players)]


def scalar(name: str, get: Callable[[Obs], Any], scale: float, meaning: str) -> Feature:
    """One number ``get(obs) / scale`` (None counts as 0)."""
    def fill(obs: Obs, out: list[float], start: int) -> None:
        v = get(obs)
        out[start] = float(v) / scale if v is not None else 0.0
    return Feature(name, 1, meaning, fill)


def numbers(name: str, get: Callable[[Obs], Iterable[Any]], size: int, scale: float, meaning: str) -> Feature:
    """Up to ``size`` numbers ``/ scale``, zero-padded; ValueError if there are more."""
    def fill(obs: Obs, out: list[float], start: int) -> None:
        values = list(get(obs))
        if len(values) > size:
            raise ValueError(f"feature {name!r} holds at most {size} values, got {len(values)}")
        for i, v in enumerate(values):
            out[start + i] = float(v) / scale if v is not None else 0.0
    return Feature(name, size, meaning, fill)


def one_hot(name: str, get: Callable[[Obs], Any], values: Sequence[Any], meaning: str) -> Feature:
    """1 at the index of ``get(obs)`` among ``values`` (all zeros for a value not listed, e.g. None)."""
    index = {v: i for i, v in enumerate(values)}
    def fill(obs: Obs, out: list[float], start: int) -> None:
        i = index.get(get(obs))
        if i is not None:
            out[start + i] = 1.0
    return Feature(name, len(values), meaning, fill)


def counts(name: str, get: Callable[[Obs], Iterable[Any]], vocab: Sequence[Any], scale: float, meaning: str) -> Feature:
    """How many of each ``vocab`` item ``get(obs)`` holds, ``/ scale`` (unknown items ignored)."""
    index = {v: i for i, v in enumerate(vocab)}
    def fill(obs: Obs, out: list[float], start: int) -> None:
        for item in get(obs):
            i = index.get(item)
            if i is not None:
                out[start + i] += 1.0 / scale
    return Feature(name, len(vocab), meaning, fill)


@lru_cache(maxsize=4096)
def tally(n: int, scale: float) -> float:
    """``n`` items counted as :func:`counts` counts them (``1 / scale`` added ``n`` times), for a
    direct fill that must give the very same float (repeated addition rounds unlike ``n / scale``)."""
    total, step = 0.0, 1.0 / scale
    for _ in range(n):
        total += step
    return total


_MEMOS: dict[tuple[Any, ...], dict[Any, Any]] = {}


def shared_memo(*key: Any) -> dict[Any, Any]:
    """A memo dict shared by every direct fill built with the same ``key`` (the game, the memo's
    name and what the vector's layout depends on: players, options), so that every environment of
    one configuration in a process fills it once. The caller bounds its size."""
    return _MEMOS.setdefault(key, {})


def clear_shared_memos() -> int:
    """Empty every memo dict :func:`shared_memo` has handed out; return how many entries they held.

    The dicts stay registered and are emptied in place, so the fills that hold them find them empty:
    what a benchmark of fills on positions not seen before (a search's fresh leaves) calls between
    its passes. The vectors do not change, only how much of them is worked out again.
    """
    removed = 0
    for memo in _MEMOS.values():
        removed += len(memo)
        memo.clear()
    return removed


def put_counts(out: Any, start: int, codes: Iterable[int], scale: float = 1.0,
               slots: Sequence[int | None] | None = None) -> None:
    """Write into ``out`` what :func:`counts` writes for items given as codes: at ``start + slot``
    the number of ``codes`` in that slot (``slots[code]``, or the code itself) as a :func:`tally`
    of ``scale``; codes whose slot is None are skipped. Counts first, then one write a slot."""
    seen: dict[int, int] = {}
    for code in codes:
        slot = code if slots is None else slots[code]
        if slot is not None:
            seen[slot] = seen.get(slot, 0) + 1
    for slot, n in seen.items():
        out[start + slot] = tally(n, scale)


def scatter(out: Any, positions: Sequence[int], values: Sequence[float]) -> None:
    """``out[positions[i]] = values[i]`` for every ``i``: in one call where ``out`` has numpy's
    ``put`` (pass ``array("q")``/``array("d")`` buffers for speed), item by item otherwise."""
    put = getattr(out, "put", None)
    if put is not None:
        put(positions, values)
        return
    for p, v in zip(positions, values):
        out[p] = v


def vocab_slots(names: Sequence[Any], vocab: Sequence[Any]) -> tuple[int | None, ...]:
    """For each code ``i`` (an index into ``names``): the slot :func:`counts` or :func:`one_hot`
    gives ``names[i]`` among ``vocab`` (the last of repeated names; None when not listed)."""
    index = {v: i for i, v in enumerate(vocab)}
    return tuple(index.get(name) for name in names)


def per_seat(players: int, inner: Feature) -> Feature:
    """``inner`` repeated for each seat from the observer on; ``inner.fill`` gets ``(obs, seat)``-bound views.

    ``inner.fill`` is called with ``{"obs": obs, "seat": s}`` as its observation.
    """
    size, inner_fill = inner.size, inner.fill

    def fill(obs: Obs, out: list[float], start: int) -> None:
        me = obs.get("seat")
        first = me if me.__class__ is int and 0 <= me < players else 0
        for k in range(players):
            inner_fill({"obs": obs, "seat": (first + k) % players}, out, start + k * size)
    return Feature(inner.name, inner.size * players,
                   f"per seat from the observer on ({inner.size} each): {inner.meaning}", fill)
