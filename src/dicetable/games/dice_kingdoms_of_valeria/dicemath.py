"""Domain powers on the coloured dice: which values an action can reach, and how.

Rulebook: Domain Powers and Important Manipulation Rules. Each claimed
manipulation Domain is one power usable once per Action phase: ``adjust``
(+1 or -1, never wrapping: a 6 cannot become a 1 nor a 1 a 6) or ``flip`` (the
opposite side, 7 - x) on its own die, and the +1/-1 Any power on any one
coloured die. Several powers may be used on one die, in any order; all are
optional. The Blue die may be added, after its own powers, to one action die.

:func:`reach` returns, for one action die (with or without Blue), every value
the player can make and the shortest way to make it, memoised because the
same dice and powers recur millions of times in simulations.
"""

from __future__ import annotations

from functools import lru_cache

ADJ, ANY, FLIP = "adjust", "any", "flip"

Path = tuple[tuple[str, int], ...]
"""The powers used on one die, in order: ``(step, value after it)``, e.g. ``(("flip", 4), ("+1", 5))``."""


def _steps(value: int, op: str) -> list[tuple[str, int]]:
    if op == FLIP:
        return [("flip", 7 - value)]
    out = []
    if value < 6:
        out.append(("+1" if op == ADJ else "+1 (Any)", value + 1))
    if value > 1:
        out.append(("-1" if op == ADJ else "-1 (Any)", value - 1))
    return out


@lru_cache(maxsize=None)
def die_paths(value: int, ops: tuple[str, ...]) -> dict[int, Path]:
    """Every value one die can show using some of ``ops`` once each, with a shortest path.

    ``ops`` is a tuple drawn from ``("adjust", "any", "flip")``; returns
    ``{value: ((step, result), ...)}`` (the empty path for the die as rolled).
    """
    best: dict[int, Path] = {value: ()}
    frontier: list[tuple[int, frozenset[str], Path]] = [(value, frozenset(), ())]
    while frontier:
        nxt = []
        for v, used, path in frontier:
            for op in ops:
                if op in used:
                    continue
                for name, w in _steps(v, op):
                    p = path + ((name, w),)
                    if w not in best or len(p) < len(best[w]):
                        best[w] = p
                    nxt.append((w, used | {op}, p))
        frontier = nxt
    return best


@lru_cache(maxsize=None)
def _describe(colour: str, value: int, path: tuple) -> str:
    """``"Green 3 (flip → 4, +1 → 5)"``: the rolled value, then each power used."""
    text = f"{colour.capitalize()} {value}"
    if path:
        text += " (" + ", ".join(f"{name} → {w}" for name, w in path) + ")"
    return text


@lru_cache(maxsize=None)
def reach_paths(value: int, adj: bool, flip: bool, blue: int, blue_adj: bool, blue_flip: bool,
                any_power: bool, blue_ok: bool) -> tuple:
    """The numbers behind :func:`reach`, for any colour: ``((total, cost, path, Blue's path or None), ...)``.

    ``cost`` is (powers used, 1 if the Blue die is added else 0); for each total the
    cheapest way, the first found on ties (the die alone first, without the Any power first).
    """
    own = tuple(op for op, ok in ((FLIP, flip), (ADJ, adj)) if ok)
    best: dict = {}
    get = best.get
    for use_any in ((False, True) if any_power else (False,)):
        ops = own + ((ANY,) if use_any else ())
        for v, path in die_paths(value, ops).items():
            cost = (len(path), 0)
            cur = get(v)
            if cur is None or cost < cur[0]:
                best[v] = (cost, path, None)
    if blue_ok:
        bown = tuple(op for op, ok in ((FLIP, blue_flip), (ADJ, blue_adj)) if ok)
        splits: list[tuple[tuple[str, ...], tuple[str, ...]]] = [((), ())]
        if any_power:
            splits += [((ANY,), ()), ((), (ANY,))]
        for any_c, any_b in splits:
            blue_paths = die_paths(blue, bown + any_b).items()
            for v, path in die_paths(value, own + any_c).items():
                n = len(path)
                for w, bpath in blue_paths:
                    cost = (n + len(bpath), 1)
                    cur = get(v + w)
                    if cur is None or cost < cur[0]:
                        best[v + w] = (cost, path, bpath)
    return tuple((total, cost, path, bpath) for total, (cost, path, bpath) in best.items())


@lru_cache(maxsize=None)
def reach(colour: str, value: int, adj: bool, flip: bool, blue: int, blue_adj: bool,
          blue_flip: bool, any_power: bool, blue_ok: bool) -> dict:
    """Values the ``colour`` die can give an action, alone or with the Blue die.

    ``value``/``blue`` are the rolled faces; ``adj``/``flip`` (and the blue
    ones) say whether the matching Domain powers are claimed; ``any_power``
    whether +1/-1 Any is; ``blue_ok`` is False when the Blue die may not be
    used (solo Heavy Rain). Returns ``{total: (uses, text)}`` with the fewest
    powers used (then: without Blue first), ``text`` saying how, e.g.
    ``"Green 3 (flip → 4, +1 → 5) + Blue 1 = 6"``.
    """
    out = {}
    for total, cost, path, bpath in reach_paths(value, adj, flip, blue, blue_adj, blue_flip, any_power,
                                                blue_ok):
        text = _describe(colour, value, path)
        if bpath is not None:
            text = f"{text} + {_describe('blue', blue, bpath)} = {total}"
        out[total] = (cost[0], text)
    return out


@lru_cache(maxsize=None)
def build_reach(colour: str, value: int, adj: bool, flip: bool, blue: int, blue_adj: bool,
                blue_flip: bool, any_power: bool, blue_ok: bool) -> tuple:
    """For a Build: ``how[k]`` says how to make a value of at least ``k`` (index 0 unused).

    The tuple's length - 1 is the largest value reachable.
    """
    values = reach(colour, value, adj, flip, blue, blue_adj, blue_flip, any_power, blue_ok)
    top = max(values)
    how = [""]
    for k in range(1, top + 1):
        cands = [(values[t][0], t, values[t][1]) for t in values if t >= k]
        how.append(min(cands)[2])
    return tuple(how)
