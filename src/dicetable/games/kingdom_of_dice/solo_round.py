"""Kingdom of Dice solo: the rest of a round solved as a small decision process.

Rulebook, Solo Mode: the Mischievous Cat's markers stay where they are; a round
ends when seven markers are on the board or after five turns (a failed or
declined result sets a marker aside); the round's seven Influence cards are
face up from its start and go, at its end, from the highest marker down
(End of a Round). Nothing the player does in a round changes a later round
(its markers come back, the Cat's do not move, later cards come from the draw
pile whatever happens), so playing each round for its expected points plays
the game for its expected score.

:func:`round_endings` values each way the current turn can end by the
expected points the round still brings when every later turn of the round is
played optimally: an exact expectimax over the turn's dice (the same set-aside
programme as the turn planner, :class:`TurnDP`, for many value tables at once)
over a small state: the turns left, and how many markers the player adds
between each pair of the Cat's markers (only that decides which cards they
take). One approximation: a later result lands where it would land on the
board of the decision (the player's markers added in between are not seen as
occupying their spaces); the current turn's own results land exactly.

Plain Python, no numpy (a base install has none): :class:`TurnDP` runs all of a turn's value
tables through each step of the programme at once (a step's work is C-level ``map``/``max``
over the tables), on a programme pruned once: no dead set-aside (one that can no longer become
valid is worth the turn's failure, the least any set-aside is worth), rolls reaching the same
set-asides merged. At a round's first turn (four later turns, 140 tables) :func:`round_endings`
takes 0.12-0.16 s of CPU (``benchmarks/solo_round_time.py``, seed 9, Cat level 1; the hard and
expert solo bots make one such call a turn), plus a one-off 0.12-0.14 s to build :class:`TurnDP`.
The numpy version this replaced took 0.04-0.06 s; the one-table-at-a-time plain Python it
fell back on without numpy, 0.37-0.39 s.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from operator import itemgetter, mul

from .consts import TOP_SPACE
from .rolls import roll_outcomes, sub_vectors
from .rules import (
    CARD_VALUE, CAT, DICE, EMPTY, MARKERS, MARKERS_TO_END, KingdomOfDiceState, can_still_be_valid,
    free_space_at_or_below, result_value,
)


class TurnDP:
    """One turn's set-aside programme (rulebook: How to Play, steps 1-4) for a batch of value tables.

    A value table ``o`` (``TOP_SPACE + 1`` floats) gives what each way the turn can end is
    worth: ``o[0]`` ending without a marker, ``o[r]`` a valid result worth ``r`` (``TOP_SPACE``:
    or more) placed, the better of it and declining being taken. :meth:`start` returns, for
    each table of a batch, the expected value of a turn played to maximise it from its first
    roll: the same numbers as ``policy._TurnTable.continue_`` of an empty set-aside.

    The programme is fixed, so it is built once: :attr:`steps` holds, for each live set-aside
    that still has dice to roll (a *row*, those with most dice set aside first), the rolls of
    its remaining dice grouped by the live set-asides they can lead to (the roll's
    probabilities summed per group). A set-aside is *dead* when no faces of the dice left can
    make it valid; it is then worth the turn's failure ``o[0]``, which no set-aside is worth
    less than, so a group leaves its dead set-asides out and a roll reaching only dead ones
    counts as failure.
    """

    def __init__(self) -> None:
        kept = [k for k in product(range(DICE + 1), repeat=6) if sum(k) <= DICE]
        kept.sort(key=lambda k: -sum(k))
        index = {k: i for i, k in enumerate(kept)}
        #: per set-aside (``kept`` order): the table entry its result stops on, and whether it is dead
        self.stop_index = [min(result_value(k) or 0, TOP_SPACE) for k in kept]
        self.dead = [not can_still_be_valid(list(k), DICE - sum(k)) for k in kept]
        #: per row: (row, probability of a roll reaching only dead set-asides, the single
        #: set-asides each reached alone, their probabilities, the getters of groups of
        #: several set-asides, their probabilities); a row's groups lie in earlier rows or
        #: have no dice left, so the rows are solved in this order
        self.steps: list[tuple[int, float, list[int], list[float], list[itemgetter], list[float]]] = []
        for k in kept:
            n = sum(k)
            if n == DICE or self.dead[index[k]]:
                continue
            groups: dict[tuple[int, ...], float] = {}
            for roll, p in roll_outcomes(DICE - n):
                reach = {index[tuple(a + b for a, b in zip(k, sub))] for sub in sub_vectors(roll) if any(sub)}
                live = tuple(sorted(i for i in reach if not self.dead[i]))
                groups[live] = groups.get(live, 0.0) + p
            failed = groups.pop((), 0.0)
            singles = [(live[0], p) for live, p in groups.items() if len(live) == 1]
            several = [(itemgetter(*live), p) for live, p in groups.items() if len(live) > 1]
            self.steps.append((index[k], failed, [i for i, _ in singles], [p for _, p in singles],
                               [get for get, _ in several], [p for _, p in several]))

    def start(self, tables) -> list[float]:
        """Expected value of a whole turn for each of ``tables`` (``B`` sequences of
        ``TOP_SPACE + 1`` floats): a list of ``B`` floats (empty for no tables).

        Every set-aside's value is held as one list over the tables, and each step works on
        whole lists, so the cost is per step, not per table and step (class notes).
        """
        tables = [list(table) for table in tables]
        if not tables:
            return []
        fail = [table[0] for table in tables]
        stops = [[v if v > f else f for v, f in zip(column, fail)] for column in zip(*tables)]
        value = [fail if dead else stops[i] for i, dead in zip(self.stop_index, self.dead)]
        cont = fail
        for row, failed, singles, single_p, several, several_p in self.steps:
            bests = [value[i] for i in singles]
            bests += [list(map(max, *get(value))) for get in several]
            probs = single_p + several_p
            if failed:
                bests.append(fail)
                probs = probs + [failed]
            cont = [sum(map(mul, probs, column)) for column in zip(*bests)]
            value[row] = [s if s > c else c for s, c in zip(value[row], cont)]
        return cont  # the last row is the set-aside of no dice: the turn's first roll


@lru_cache(maxsize=1)
def turn_dp() -> TurnDP:
    """The shared :class:`TurnDP` (built once, about 0.13 s: 924 set-asides, 168 rows, 3,955 groups)."""
    return TurnDP()


def _segments(board) -> list[int]:
    """For each space, how many Cat markers lie above it (0: above every Cat marker)."""
    out, above = [0] * len(board), 0
    for i in range(len(board) - 1, -1, -1):
        out[i] = above
        if board[i] == CAT:
            above += 1
    return out


def round_endings(state: KingdomOfDiceState, seat: int) -> tuple:
    """The value of each way ``seat``'s current turn can end, solo: the points it will hold
    when the round ends, expected under optimal play of the round's later turns (module notes).

    Returns ``TOP_SPACE + 1`` floats like ``policy.turn_outcomes``: index 0 no marker (an
    invalid or declined result, rulebook Solo Mode: a marker is set aside), index ``r`` a
    result worth ``r`` (or more) placed where the rulebook puts it (no marker when no space at
    or below ``r`` is free). ``state`` is at one of ``seat``'s decisions in its turn (its
    dice do not matter: :func:`~.policy.turn_outcomes` checks the turn). ValueError unless
    the game is solo.
    """
    if state.players != 1:
        raise ValueError("the round is solved for solo games only")
    board = list(state.board)
    cards = sorted((CARD_VALUE[c] for c in state.market), reverse=True)
    segment = _segments(board)
    parts = max(segment) + 1
    own = [0] * parts
    for i, owner in enumerate(board):
        if owner == seat:
            own[segment[i]] += 1
    land = [-1] * (TOP_SPACE + 1)       # the segment a result worth r lands in, -1 none
    for r in range(1, TOP_SPACE + 1):
        space = free_space_at_or_below(board, r)
        if space >= 0:
            land[r] = segment[space]
    occupied = sum(1 for o in board if o != EMPTY)
    limit = min(MARKERS_TO_END - occupied, MARKERS - state.placed[seat])  # markers that end the round
    turns = MARKERS - state.placed[seat] - state.spent                 # this turn included
    base = float(state.scores[seat])

    def points(added: tuple) -> float:
        total, rank = 0.0, 0
        for part in range(parts):
            for _ in range(own[part] + added[part]):
                if rank < len(cards):
                    total += cards[rank]
                rank += 1
            rank += 1  # the Cat's marker below this segment
        return base + total

    adds = [a for a in product(range(limit + 1), repeat=parts) if sum(a) <= limit]
    value = {a: points(a) for a in adds}   # no turn left
    plus = [tuple(int(j == i) for j in range(parts)) for i in range(parts)]

    def table(a: tuple, later: dict) -> list[float]:
        """The ending values of a turn from ``a`` markers added, ``later`` valuing the next state."""
        fail = later[a]
        return [fail] + [fail if land[r] < 0 else later[tuple(x + y for x, y in zip(a, plus[land[r]]))]
                         for r in range(1, TOP_SPACE + 1)]

    for _ in range(turns - 1):         # the turns after this one, last first
        open_ = [a for a in adds if sum(a) < limit]
        solved = turn_dp().start([table(a, value) for a in open_]) if open_ else []
        later = dict(value)
        for a, v in zip(open_, solved):
            later[a] = v
        value = later
    return tuple(table(tuple([0] * parts), value))
