"""Kingdom of Dice evaluation for the bots: the greedy policy and a position score.

Greedy (documented in docs/bots.md): each set-aside decision is scored one
step ahead by the *expected result value* of the position it leads to, where
that expectation assumes the rest of the turn is played to maximise the
result's value. The table behind it is computed once by dynamic programming
over the dice set aside (924 multisets of up to six dice):

* ``S(kept)``: the value if the player stops now (0 if invalid);
* ``V(kept)``: the expected value of rolling the other ``6 - |kept|`` dice and
  then choosing the best non-empty set to keep and whether to stop;
* a set-aside that can no longer become valid is worth 0 (the turn ends).

Placement: greedy always places its marker (every marker on the board earns
a card at the round's end, so declining only ever wastes the turn).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from math import factorial

from dicetable.engine import Action

from .components import FACE_ORDER, SPACES, TOP_SPACE
from .rules import (
    CAT, OVER, PLACE, CARD_VALUE, DICE, KingdomOfDiceState, can_still_be_valid, claim_order, faces_text,
    free_space_at_or_below, result_value,
)

KEEP_IDS = tuple(f"keep:{face}" for face in FACE_ORDER)


def _stop_value(kept: tuple) -> int:
    v = result_value(kept)
    return 0 if v is None else min(v, TOP_SPACE)


def _sub_vectors(counts: tuple):
    """Every count-vector ``k`` with ``0 <= k[i] <= counts[i]``."""
    return product(*(range(c + 1) for c in counts))


@lru_cache(maxsize=None)
def _rolls(n: int) -> tuple:
    """All outcomes of rolling ``n`` dice as (count-vector, probability)."""
    out = []
    for vec in product(range(n + 1), repeat=6):
        if sum(vec) != n:
            continue
        ways = factorial(n)
        for c in vec:
            ways //= factorial(c)
        out.append((vec, ways / 6 ** n))
    return tuple(out)


def _add(a: tuple, b) -> tuple:
    return tuple(x + y for x, y in zip(a, b))


@lru_cache(maxsize=None)
def continue_value(kept: tuple) -> float:
    """``V(kept)``: expected best result after rolling the dice not yet set aside."""
    left = DICE - sum(kept)
    total = 0.0
    for roll, p in _rolls(left):
        best = 0.0
        for sub in _sub_vectors(roll):
            n = sum(sub)
            if n == 0:
                continue
            w = position_value(_add(kept, sub), left - n)
            if w > best:
                best = w
        total += p * best
    return total


@lru_cache(maxsize=None)
def position_value(kept: tuple, dice_left: int) -> float:
    """``W``: value of having set aside ``kept`` with ``dice_left`` dice to reroll or not."""
    if not can_still_be_valid(kept, dice_left):
        return 0.0
    stop = _stop_value(kept)
    if dice_left == 0:
        return float(stop)
    return max(float(stop), continue_value(kept))


@lru_cache(maxsize=None)
def _best_completion(kept: tuple, rolled: tuple) -> float:
    """Best value reachable by setting aside any further part (maybe none) of ``rolled``."""
    left = sum(rolled)
    best = 0.0
    for sub in _sub_vectors(rolled):
        w = position_value(_add(kept, sub), left - sum(sub))
        if w > best:
            best = w
    return best


def greedy(state: KingdomOfDiceState, seat: int) -> Action:
    """The greedy bot's choice: the legal action with the highest one-step value (first on ties)."""
    if state.phase == PLACE:
        return state.legal_actions(seat)[0]
    best_id = _best_set_aside(tuple(state.kept), tuple(state.rolled), state.picked > 0)
    for action in state.legal_actions(seat):
        if action.id == best_id:
            return action
    raise AssertionError(f"greedy chose {best_id!r}, not legal")  # pragma: no cover


@lru_cache(maxsize=None)
def _best_set_aside(kept: tuple, rolled: tuple, may_stop: bool) -> str:
    """Id of the best set-aside step for dice ``kept`` and ``rolled`` (cached: few positions)."""
    best_id, best_value = "", -1.0
    for i, count in enumerate(rolled):
        if count:
            k2 = list(kept)
            k2[i] += 1
            r2 = list(rolled)
            r2[i] -= 1
            value = _best_completion(tuple(k2), tuple(r2))
            if value > best_value:
                best_id, best_value = KEEP_IDS[i], value
    if may_stop:
        for aid, value in (("reroll", continue_value(kept)), ("stop", float(_stop_value(kept)))):
            if value > best_value:
                best_id, best_value = aid, value
    return best_id


def _turn_outlook(state: KingdomOfDiceState) -> float:
    """The expected value of the result the player to move is building (0 when none)."""
    if state.phase == PLACE:
        return float(result_value(state.kept) or 0)
    if state.phase == OVER:
        return 0.0
    return _best_completion(tuple(state.kept), tuple(state.rolled))


def evaluate(state: KingdomOfDiceState, seat: int) -> float:
    """A score in [0, 1] for ``seat``: points won plus the cards its markers would take now.

    The player to move counts one more marker where the result it is
    building is expected to land (its expected value under the greedy
    table, on the highest free space at or below it), so positions inside a
    turn are judged by the card the turn is likely to win. 0.5 means level
    with the best opponent (the Cat in solo); each point of lead moves it by
    1/80 of the way to 1 (clamped).
    """
    points = [float(s) for s in state.scores]
    cat = float(state.cat_score)
    board = state.board
    outlook = _turn_outlook(state)
    if outlook >= SPACES[0]:
        space = free_space_at_or_below(board, int(outlook))
        if space >= 0:
            board = board[:]
            board[space] = state.current
    for i, card in zip(claim_order(board), state.market):
        owner = board[i]
        if owner == CAT:
            cat += CARD_VALUE[card]
        else:
            points[owner] += CARD_VALUE[card]
    others = [p for s, p in enumerate(points) if s != seat]
    if state.players == 1:
        others = [cat]
    lead = points[seat] - max(others)
    return min(1.0, max(0.0, 0.5 + lead / 80.0))


def confirm(state: KingdomOfDiceState, seat: int, action_id: str) -> str | None:
    """A warning when ``action_id`` would throw the turn away, else None (front ends ask first).

    Rulebook, "Checking the result": a result is valid only with a crown, a
    number, 2s in twos or more, 3s in threes, 4s in fours and one 5 at most,
    and its Crown marker needs a free space at or below its value. A ``stop``
    with a result that fails either test ends the turn with no marker placed.
    """
    if action_id != "stop" or state.phase == PLACE or seat != state.current:
        return None
    value = result_value(state.kept)
    kept = faces_text(state.kept)
    if value is None:
        return (f"Stopping now scores nothing: {kept} is not a valid result (it needs a crown and a "
                "number; 2s in twos, 3s in threes, 4s in fours, one 5 at most).")
    if free_space_at_or_below(state.board, value) < 0:
        return f"Stopping now scores nothing: no space at or below {value} is free for a Crown marker."
    return None
