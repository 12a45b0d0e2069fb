"""Biblios Dice evaluation for the bots: a position score and the greedy policy.

Position value (``marker_values``), in VPs, per marker, as if scoring now with
a little credit for progress:

* each Resource Track: the VPs of the marker's current place (2x, 1x, half
  the Value Die), scaled down to 25-50 % while the marker is below the 4th
  space (it is not eligible yet), minus the penalty of its space, plus 0.25
  per space climbed (stacks, top, tie order);
* the Bishop Track: 0.6 per space climbed (tokens, better Gold ratios, ties);
* VP tokens at face value; Gold at the ratio reached (1/7 of a VP below it);
* the seat's own Hidden Objective: +3 while it leads that track from the 4th space.

``evaluate(state, seat)`` maps the margin over the best other seat to [0, 1]
(0.5 = level, +-20 VP = 1 or 0); a finished game scores 1 for the winner, 0
otherwise.

Greedy, one step deep on that margin:

* taking dice (dice selection and market groups): try every type on a copy,
  finish the seat's own follow-up choices greedily, keep the best margin;
* Adjustment Die steps and Bishop Token moves: the best margin after the step;
* the Conversion Rule: always convert (more resources never hurt the margin
  in expectation); Phase I: always keep (a VP is never paid for a re-roll);
* market split: the die worth least to the seat goes into the group of 3, so
  the large group holds what the seat wants to bid for;
* bidding: the seat values the better group (sum of its dice's one-step
  gains, in VP) and turns it into Gold at its ratio (5 Gold per VP below the
  4th space) times ``BID_SHARE`` (0.6), capped by the Gold it holds. It plays the largest card
  that keeps its total within that limit and passes when none fits. Its total
  never exceeds its Gold, so it never owes more than it has: it cannot overbid.
* winning the auction: the group with the larger summed gain.
"""

from __future__ import annotations

from typing import Final, Sequence

from dicetable.engine import Action

from .components import place_points, ratio_at
from .rules.consts import ADJUST, BISHOP, GOLD, NRES, NTRACKS, PENALTY, PLACES_FROM, SCORING
from .rules import BID, CHOOSE, REROLL, RESOLVE, SELECT, SPLIT, BibliosDiceState, dice_count

_PLACES: Final = len(SCORING.place_multipliers)
#: Share of a group's value (in Gold at the seat's ratio) the greedy seat is willing to bid.
BID_SHARE: Final = 0.6


def _ranked(pos: list[int], stamp: list[int], base: int, nm: int) -> list[int]:
    """The markers ``0..nm-1`` of the track whose slots start at ``base``, furthest first, on one space
    the earlier arrival (lower stamp) first: the order ``sorted`` gives by ``(-pos, stamp)``, ties
    kept in marker order. An insertion sort of native ints (at most five markers), which the compiled
    build runs without making a key tuple per marker."""
    order: list[int] = []
    for m in range(nm):
        p = pos[base + m]
        s = stamp[base + m]
        i = len(order)
        while i > 0:
            o = order[i - 1]
            po = pos[base + o]
            if po > p or (po == p and stamp[base + o] <= s):
                break
            i -= 1
        order.insert(i, m)
    return order


#: Spaces covered by the look-up tables below (every track is shorter; a space beyond reads the rule).
_SPACES: Final = 64
#: Each Resource Track's end-game penalty by space (``PENALTY[t].get(space, 0)``) and the
#: Gold-per-VP ratio by Bishop Track space (``ratio_at``), as lists indexed by the space.
_PENALTY_AT: Final = [[pen.get(p, 0) for p in range(_SPACES)] for pen in PENALTY]
_RATIO_AT: Final = [ratio_at(p) for p in range(_SPACES)]
#: ``float(place_points(place, pips))`` for each scoring place and Value Die pips 0-12.
_POINTS: Final = [[float(place_points(r, v)) for v in range(13)] for r in range(_PLACES)]


def marker_values(state: BibliosDiceState) -> list[float]:
    """Heuristic VPs of every marker (seats, then Cadfael); see the module docstring."""
    nm = state.nm
    pos = state.pos
    stamp = state.stamp
    vals = [0.0] * nm
    for t in range(NRES):
        base = t * nm
        order = _ranked(pos, stamp, base, nm)
        pips = state.value[t]
        pen = _PENALTY_AT[t]
        for r in range(nm):
            m = order[r]
            p = pos[base + m]
            if r < _PLACES:
                pts = _POINTS[r][pips] if 0 <= pips < 13 else float(place_points(r, pips))
            else:
                pts = 0.0
            if p < PLACES_FROM:
                pts *= 0.25 + 0.25 * (p - 1) / (PLACES_FROM - 1)
            vals[m] += pts - (pen[p] if 0 <= p < _SPACES else PENALTY[t].get(p, 0)) + 0.25 * (p - 1)
    base = BISHOP * nm
    for m in range(nm):
        vals[m] += 0.6 * (pos[base + m] - 1)
    for s in range(state.players):
        space = pos[base + s]
        ratio = _RATIO_AT[space] if 0 <= space < _SPACES else ratio_at(space)
        vals[s] += state.vp[s] + state.gold[s] / (ratio if ratio else 7.0)
        obj = state.objectives[s]
        if obj >= 0:
            ob = obj * nm
            lead = _ranked(pos, stamp, ob, nm)[0]
            if lead == s and pos[ob + s] >= PLACES_FROM:
                vals[s] += SCORING.objective_bonus
    return vals


def margin(state: BibliosDiceState, seat: int) -> float:
    """``seat``'s heuristic VPs minus the best other seat's (Cadfael is not a rival for the win)."""
    vals = marker_values(state)
    others = [vals[s] for s in range(state.players) if s != seat]
    return vals[seat] - max(others)


def evaluate(state: BibliosDiceState, seat: int) -> float:
    """A score in [0, 1] for ``seat``: 1/0 for a finished game's winner/loser, else 0.5 + margin/40."""
    if state.is_over:
        return 1.0 if seat in state.winners else 0.0
    return min(1.0, max(0.0, 0.5 + margin(state, seat) / 40.0))


def _finish_own_choices(state: BibliosDiceState, seat: int, depth: int = 12) -> None:
    """Play the seat's own follow-up choices greedily (quiet steps on a copy), so a take is judged whole."""
    while depth and state.follow_up(seat) is not None:
        state.step(_task_choice(state, seat), seat)
        depth -= 1


def _task_choice(state: BibliosDiceState, seat: int) -> Action:
    acts = state.legal_actions(seat)
    task = state.follow_up(seat)
    if task is not None and task[0] == "convert":
        return acts[0]                      # convert
    best, best_v = acts[0], None
    for a in acts:
        v = margin(state.child(a, seat), seat)
        if best_v is None or v > best_v:
            best, best_v = a, v
    return best


def _take_value(state: BibliosDiceState, seat: int, action: Action) -> float:
    c = state.child(action, seat)
    _finish_own_choices(c, seat)
    return margin(c, seat)


def die_gain(state: BibliosDiceState, seat: int, kind: int, dice: Sequence[int]) -> float:
    """One-step gain in margin for ``seat`` of the dice of ``kind`` in the dice set ``dice``."""
    before = margin(state, seat)
    c = state.after_taking(seat, kind, dice)
    _finish_own_choices(c, seat)
    return margin(c, seat) - before


def group_gain(state: BibliosDiceState, seat: int, dice: Sequence[int]) -> float:
    """Sum of the one-step gains of a group's dice types for ``seat`` (VPs)."""
    total = 0.0
    for k in range(NTRACKS):
        if dice[k]:
            total += die_gain(state, seat, k, dice)
    if dice[GOLD] >= 0:
        total += die_gain(state, seat, GOLD, dice)
    if dice[ADJUST] >= 0:
        total += die_gain(state, seat, ADJUST, dice)
    return total


def bid_limit(state: BibliosDiceState, seat: int) -> int:
    """The most Gold the greedy seat will bid in this auction (never more than its Gold)."""
    best = max(group_gain(state, seat, g) for g in state.groups)
    ratio = ratio_at(state.pos[BISHOP * state.nm + seat]) or 5
    return max(0, min(state.gold[seat], int(best * ratio * BID_SHARE)))


def _bid_choice(state: BibliosDiceState, seat: int) -> Action:
    acts = state.legal_actions(seat)
    room = bid_limit(state, seat) - sum(state.played[seat])
    best = None
    for a in acts:
        if a.payload and a.payload <= room and (best is None or a.payload > best.payload):
            best = a
    if best is None:
        return next(a for a in acts if a.payload == 0)
    return best


def _split_choice(state: BibliosDiceState, seat: int) -> Action:
    acts = state.legal_actions(seat)
    worst, worst_v = acts[0], None
    for a in acts:
        k = a.payload
        one = [0] * NTRACKS + [-1, -1]
        if k < NTRACKS:
            one[k] = 1
        else:
            one[k] = state.pool[k]
        v = die_gain(state, seat, k, one)
        if worst_v is None or v < worst_v:
            worst, worst_v = a, v
    return worst


def greedy(state: BibliosDiceState, seat: int) -> Action:
    """The greedy bot's choice for ``seat`` (see the module docstring); one of its legal actions."""
    acts = state.legal_actions(seat)
    if len(acts) == 1:
        return acts[0]
    task = state.pending(seat)
    kind = task[0] if task is not None else None
    if kind == REROLL:
        return next(a for a in acts if a.id == "keep")
    if kind in (SELECT, RESOLVE):
        return max(acts, key=lambda a: _take_value(state, seat, a))
    if kind == BID:
        return _bid_choice(state, seat)
    if kind == SPLIT:
        return _split_choice(state, seat)
    if kind == CHOOSE:
        gains = [group_gain(state, seat, g) for g in state.groups]
        return acts[0] if gains[0] >= gains[1] else acts[1]
    return _task_choice(state, seat)        # a take's follow-up: adjust, advance, convert


__all__ = ["greedy", "evaluate", "margin", "marker_values", "group_gain", "bid_limit", "dice_count"]
