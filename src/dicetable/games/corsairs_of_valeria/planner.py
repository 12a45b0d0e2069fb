"""Corsairs of Valeria turn planner: the dice of a turn by an exact expectimax over every re-roll.

Greedy (:mod:`.policy`) judges a re-roll one step ahead: the expected ``roll_value`` after
one re-roll, as if the dice were then locked, minus a fixed price, with the Grog and Silver
the ship holds *now*. But a re-roll can be followed by another as long as Grog (or, for the
Prince of Bella Ire, Silver) pays (rulebook: B Re-roll Dice), so a re-roll is worth more
than one step shows, and which dice to keep depends on what the later re-rolls can still
fix. The planner solves phase B exactly under greedy's own estimate of a locked roll:

* an **ending** (the dice locked with ``g`` Grog and ``s`` Silver left) is worth what the
  turn brings once they are locked: by default (:data:`ENDINGS` ``"play"``) the rest of the
  turn is played on a copy by the greedy policy and scored by the value the search gives
  (its leaf evaluator; None: the material lead); with ``"roll"`` (kept for comparison, see
  docs/bots.md) it is ``roll_value`` of the dice for a ship holding ``g`` Grog and ``s``
  Silver, at its best after the end-of-phase-B Captains, plus the Grog and Silver kept;
* ``V(dice, g, s)`` is the best of locking and, for every payment the ship can make and every
  sub-multiset of dice to re-roll, the exact expectation of ``V`` over the re-rolled dice with
  the payment made. The values over the 252 multisets of five dice are computed once per
  (Grog, Silver) level and kept for the turn. Playing out one level's 252 endings costs
  150-200 ms; a level is played only while it can end before the decision's ``deadline``
  (:func:`plan_turn`), and the levels not played take the nearest played level's values
  plus the ``"roll"`` difference between the two, in the played values' units.

Phase A (Willem the Artificer, Luthor the Sea Artist) compares the expected ``V`` of
rolling five dice with that of setting one die for 1 Grog. Every other decision (the
end-of-phase-B Captains, phase C, a knocked-back ship's lane) is greedy's, which already
decides them exactly to the end of the turn. With only one re-roll left to pay and no Grog
term in play, the planner's choice is greedy's.

Used by the search bots through ``GameSpec.extras`` (``turn_key``, ``turn_outcomes``,
``plan_turn``; ``SearchParams.turn_plan``, see docs/bots.md "Turn planner").
"""

from __future__ import annotations

import statistics
import time
from itertools import combinations_with_replacement
from math import exp
from typing import Any, Callable, Final

from dicetable.engine import Action

from .rules.consts import CANNON, DICE, GROG, MAP, MISTRESS, PRINCE, REO, SILVER, SKULL_GROG
from .policy import GROG_VALUE, _Ctx, _mask_for, greedy, lead, material, outcomes, pack, packed_value, unpack
from .rules import CorsairsState, count_faces

_FACES: Final = 6


def _all_multisets(n: int) -> tuple[int, ...]:
    """Packed face counts of every multiset of ``n`` dice."""
    out = []
    for combo in combinations_with_replacement(range(_FACES), n):
        c = [0] * _FACES
        for f in combo:
            c[f] += 1
        out.append(pack(c))
    return tuple(out)


_ROLLS: Final = _all_multisets(DICE)                                    # the 252 rolls of five dice
_KEPT: Final = tuple(k for n in range(DICE) for k in _all_multisets(n))  # what may stay when at least one die is re-rolled


def _proper_subs(key: int) -> tuple[int, ...]:
    """Packed counts of every sub-multiset of ``key`` with at least one die fewer (what a re-roll keeps)."""
    counts = unpack(key)
    subs = [0]
    for face in range(_FACES):
        subs = [s + (x << (3 * face)) for s in subs for x in range(counts[face] + 1)]
    return tuple(s for s in subs if s != key)


_SUBS: Final = {key: _proper_subs(key) for key in _ROLLS}


def _size(key: int) -> int:
    return sum(unpack(key))


_SIZES: Final = {key: _size(key) for key in _KEPT}


#: How :class:`TurnPlan` values an ending: ``"play"`` (lock the dice, play the rest of the turn
#: with the greedy policy, take the material lead, or the value given) or ``"roll"`` (greedy's
#: ``roll_value`` estimate plus the Grog and Silver kept).
ENDINGS: Final = "play"

#: Whom a played ending's material is measured against: ``"best"`` (the best opponent, greedy's
#: ``lead``) or ``"mean"`` (the other seats' mean).
AGAINST: Final = "best"


def _margin(state: CorsairsState, seat: int) -> float:
    """The material lead (:func:`.policy.lead`), or with :data:`AGAINST` ``"mean"`` the lead
    over the other seats' mean material (a finished game: +-``WIN`` as ``lead``)."""
    if AGAINST == "best" or state.is_over or state.players < 3:
        return lead(state, seat)
    others = [material(state, s) for s in range(state.players) if s != seat]
    return material(state, seat) - sum(others) / len(others)


class TurnPlan:
    """The phase A-B values of one seat's turn, filled per (Grog, Silver) level on demand.

    ``state`` is a position of ``seat``'s turn; only what :func:`turn_key` keeps is read
    (the dice, the marks and the seat's own Grog and Silver are the planner's variables).
    ``value(st)`` scores a played ending for ``seat`` (None: the material lead, ``lead``);
    ``endings`` is ``"play"`` or ``"roll"`` (see :data:`ENDINGS`); ``seed`` determinizes the
    played endings (the dice of a 5-Grog restart). ValueError for another ``endings``.
    """

    def __init__(self, state: CorsairsState, seat: int, value: Callable[[Any], float] | None = None,
                 endings: str | None = None, seed: int = 1) -> None:
        endings = endings or ENDINGS
        if endings not in ("play", "roll"):
            raise ValueError(f"unknown endings {endings!r}; endings: play, roll")
        self.state = state.clone()
        self.seat = seat
        self.prince = state.captain[seat] == PRINCE
        self.captain = state.captain[seat]
        self.value = value
        self.endings = endings
        self.seed = seed
        self._base: CorsairsState | None = None
        self.top = (state.grog[seat], state.silver[seat])
        self.deadline: float | None = None                          # perf_counter time; see plan_turn
        self.played: list[tuple[int, int]] = []                     # the levels played out, in order
        self.cost = 0.0                                             # seconds the last level's play took
        self.slopes: dict[tuple[int, int], float] = {}              # see slope()
        self.rolled: dict[tuple[int, int], dict[int, float]] = {}   # the "roll" endings per level
        self.ends: dict[tuple[int, int], dict[int, float]] = {}     # the endings per (grog, silver)
        self.values: dict[tuple[int, int], dict[int, float]] = {}   # V per (grog, silver)
        self.kept: dict[tuple[int, int], dict[int, float]] = {}     # E[V] after a re-roll, per kept dice

    def _with(self, st: CorsairsState, grog: int, silver: int) -> CorsairsState:
        st = st.clone()
        st.grog = list(st.grog)
        st.silver = list(st.silver)
        st.grog[self.seat] = grog
        st.silver[self.seat] = silver
        return st

    def _ctx(self, grog: int, silver: int) -> _Ctx:
        return _Ctx(self._with(self.state, grog, silver), self.seat)

    def _lock_base(self) -> CorsairsState:
        """A copy determinized for the seat at its phase B decision (after rolling, in phase A)."""
        if self._base is None:
            seat = self.seat
            st = self.state.determinize(seat, self.seed)
            if st.waiting_for == "roll":
                st.step(next(a for a in st.legal_actions(seat) if a.id == "roll"), seat)
            if st.waiting_for != "reroll" or st.to_move != (seat,):
                raise ValueError(f"seat {seat} has no dice to plan in this position")
            self._base = st
        return self._base

    def _played(self, key: int, grog: int, silver: int) -> float:
        """The dice ``key`` locked with ``grog`` and ``silver`` left, the turn played to its end by greedy."""
        seat = self.seat
        st = self._with(self._lock_base(), grog, silver)
        counts = unpack(key)
        st.dice = [f for f in range(_FACES) for _ in range(counts[f])]
        st.marked = 0
        st.step(next(a for a in st.legal_actions(seat) if a.id == "lock"), seat)
        turn = st.turn
        while not st.is_over and st.turn == turn:
            mover = st.to_move[0]
            st.step(greedy(st, mover), mover)
        return self.value(st) if self.value is not None else _margin(st, seat)

    def _roll_ending(self, key: int, ctx: _Ctx, grog: int, silver: int) -> float:
        """``roll_value`` at its best after the end-of-phase-B Captain's choice, plus the Grog
        and Silver kept."""
        v = packed_value(key, ctx)
        counts = unpack(key)
        if self.captain == MISTRESS and counts[SKULL_GROG]:
            c = list(counts)
            c[GROG] += c[SKULL_GROG]
            c[SKULL_GROG] = 0
            v = max(v, packed_value(pack(c), ctx))
        elif self.captain == REO and counts[MAP]:
            for k in range(1, min(3, counts[MAP]) + 1):
                c = list(counts)
                c[MAP] -= k
                c[SILVER] += k
                v = max(v, packed_value(pack(c), ctx))
        return v + GROG_VALUE * grog + silver

    def ending_table(self, grog: int, silver: int) -> dict[int, float]:
        """``{packed dice: value}`` of locking each roll with ``grog`` and ``silver`` left.

        ``"play"`` plays the endings out (252 short plays) at the Grog and Silver the seat held
        when the plan was made and, with a ``value`` given, at every other level while one more
        play (timed as the last one took) ends before ``self.deadline`` (a ``time.perf_counter``
        time, None: none). Any other level
        takes the last level played and adds the difference the ``"roll"`` values see between
        the two (the Grog and Silver themselves, the dial's room, what Skulls and hazards take),
        converted to the played values' units by :meth:`slope`."""
        level = (grog, silver)
        table = self.ends.get(level)
        if table is not None:
            return table
        if self.endings == "roll":
            table = self.roll_table(grog, silver)
        elif not self.played or (self.value is not None
                                  and (self.deadline is None or time.perf_counter() + self.cost < self.deadline)):
            if self.played or level == self.top:
                t0 = time.perf_counter()
                table = {key: self._played(key, grog, silver) for key in _ROLLS}
                self.cost = time.perf_counter() - t0
                self.played.append(level)
            else:  # the first level asked for is the seat's own, played out first
                self.ending_table(*self.top)
                return self.ending_table(grog, silver)
        else:
            base = self.played[-1]
            played = self.ends[base]
            here, there = self.roll_table(grog, silver), self.roll_table(*base)
            slope = self.slope(base)
            table = {key: played[key] + slope * (here[key] - there[key]) for key in _ROLLS}
        self.ends[level] = table
        return table

    def slope(self, level: tuple[int, int]) -> float:
        """How many units of the played endings' value one unit of ``roll_value`` is worth at a
        played ``level``: 1 for the material lead (both in Silver); for a ``value`` given (e.g.
        the learned win chance) the least-squares slope of the played values on the ``"roll"``
        values over the 252 rolls, at least 0, so a roll difference counts in the played units."""
        if self.value is None:
            return 1.0
        got = self.slopes.get(level)
        if got is None:
            xs, ys = self.roll_table(*level), self.ends[level]
            try:
                fit = statistics.linear_regression([xs[k] for k in _ROLLS], [ys[k] for k in _ROLLS])
                got = max(0.0, fit.slope)
            except statistics.StatisticsError:  # every roll valued alike: no slope to take
                got = 0.0
            self.slopes[level] = got
        return got

    def roll_table(self, grog: int, silver: int) -> dict[int, float]:
        """``{packed dice: value}`` of the ``"roll"`` endings at a level (greedy's ``roll_value`` plus the
        Grog and Silver kept; with ``"play"`` they give the difference between two levels)."""
        level = (grog, silver)
        table = self.rolled.get(level)
        if table is None:
            ctx = self._ctx(grog, silver)
            table = self.rolled[level] = {key: self._roll_ending(key, ctx, grog, silver) for key in _ROLLS}
        return table

    def payments(self, grog: int, silver: int) -> list[tuple[str, int, int]]:
        """``(action id, grog left, silver left)`` for the way the plan pays a re-roll: 1 Grog,
        or once the Grog is gone 1 Silver for the Prince of Bella Ire (rulebook: B Re-roll Dice;
        Captain Cards). The Prince may also pay Silver while holding Grog, but a Silver is worth
        more than a Grog, so the plan (like greedy) spends the Grog first."""
        if grog >= 1:
            return [("reroll", grog - 1, silver)]
        if self.prince and silver >= 1:
            return [("reroll-silver", grog, silver - 1)]
        return []

    def value_table(self, grog: int, silver: int) -> dict[int, float]:
        """``{packed dice: V}`` with ``grog`` and ``silver`` on the ship (see the module docstring)."""
        level = (grog, silver)
        table = self.values.get(level)
        if table is not None:
            return table
        table = dict(self.ending_table(grog, silver))
        for _, g, s in self.payments(grog, silver):
            after = self.kept_table(g, s)
            for key in _ROLLS:
                best = max(after[k] for k in _SUBS[key])
                if best > table[key]:
                    table[key] = best
        self.values[level] = table
        return table

    def kept_table(self, grog: int, silver: int) -> dict[int, float]:
        """``{packed kept dice: E[V]}`` when the other dice are rolled and ``grog``, ``silver`` remain."""
        level = (grog, silver)
        table = self.kept.get(level)
        if table is None:
            values = self.value_table(grog, silver)
            table = {}
            for kept in _KEPT:
                table[kept] = sum(p * values[kept + out] for out, p in outcomes(DICE - _SIZES[kept]))
            self.kept[level] = table
        return table

    def reroll_choice(self, dice: list[int], grog: int, silver: int) -> tuple[tuple[int, ...] | None, str, float]:
        """``(counts to re-roll or None to lock, payment id, expected value)`` for the dice on the table."""
        key = pack(count_faces(dice))
        best = self.ending_table(grog, silver)[key]
        choice: tuple[int, ...] | None = None
        pay_id = "lock"
        for aid, g, s in self.payments(grog, silver):
            after = self.kept_table(g, s)
            for kept in _SUBS[key]:
                v = after[kept]
                if v > best + 1e-9:
                    best, pay_id = v, aid
                    choice = tuple(a - b for a, b in zip(unpack(key), unpack(kept)))
        return choice, pay_id, best


def turn_key(state: CorsairsState, seat: int) -> tuple:
    """What :func:`turn_outcomes` depends on: the position without the dice, the marks, the
    re-roll count and the seat's own Grog and Silver (the planner's variables), and whether
    the seat is at its dice (phase A or B). Two decisions of one turn with the same key share
    one :class:`TurnPlan`."""
    grog = list(state.grog)
    silver = list(state.silver)
    grog[seat] = silver[seat] = -1
    dice_step = state.waiting_for in ("roll", "reroll")  # a 5-Grog restart goes back from phase C to the dice
    return (seat, state.turn, dice_step, tuple(state.pos), tuple(grog), tuple(silver), tuple(state.treasure), state.island,
            state.visits, state.layout, tuple(state.captain), state.flags)


def turn_outcomes(state: CorsairsState, seat: int, value: Callable[[Any], float] | None = None) -> TurnPlan:
    """The values of ``seat``'s turn endings for :func:`plan_turn`: a :class:`TurnPlan` (filled
    on demand, endings as :data:`ENDINGS` says), ``value(st)`` scoring a played ending for
    ``seat`` (None: the material lead)."""
    return TurnPlan(state, seat, value)


def _shown(state: CorsairsState, seat: int, plan: TurnPlan, expected: float) -> float:
    """A planned expectation as people read it, 0-1: the value given, or the lead (Silver)
    through :func:`.policy.evaluate`'s logistic."""
    if plan.value is not None:
        return expected
    if plan.endings == "roll":  # roll_value is a gain on top of the position without the Grog and Silver
        expected += lead(state, seat) - GROG_VALUE * state.grog[seat] - state.silver[seat]
    return 1.0 / (1.0 + exp(-max(-50.0, min(50.0, expected / 5.0))))


def plan_turn(state: CorsairsState, seat: int, plan: TurnPlan,
              deadline: float | None = None) -> tuple[Action, float]:
    """``seat``'s action by the plan and the expected value shown (0-1, as ``evaluate``).

    Phase B: re-roll (mark the chosen dice one at a time, then pay) or lock, whichever has the
    highest expected ending value; phase A (Willem, Luthor): roll or set a die, likewise;
    anything else: greedy's choice. ``deadline`` (``time.perf_counter`` seconds, None: none):
    no Grog and Silver level is played out after it (see :meth:`TurnPlan.ending_table`).
    ValueError when ``seat`` may not act now.
    """
    plan.deadline = deadline
    legal = state.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} is not to move")
    tag = state.waiting_for
    by_id = {a.id: a for a in legal}
    grog, silver = state.grog[seat], state.silver[seat]
    if tag == "reroll" and len(legal) > 1:
        sub, pay, expected = plan.reroll_choice(state.dice, grog, silver)
        if sub is None:
            return by_id["lock"], _shown(state, seat, plan, expected)
        target = _mask_for(state.dice, sub)
        diff = target ^ state.marked
        if not diff:
            return by_id[pay], _shown(state, seat, plan, expected)
        i = (diff & -diff).bit_length() - 1
        return by_id[f"mark:{i + 1}"], _shown(state, seat, plan, expected)
    if tag == "roll" and len(legal) > 1:
        plain = plan.kept_table(grog, silver)[0]
        face = CANNON if "set-cannon" in by_id else MAP
        with_set = plan.kept_table(grog - 1, silver)[1 << (3 * face)]
        pick = legal[1] if with_set > plain + 1e-9 else by_id["roll"]
        return pick, _shown(state, seat, plan, max(plain, with_set))
    action = greedy(state, seat)
    return action, 1.0 / (1.0 + exp(-lead(state, seat) / 5.0)) if not state.is_over else 0.5
