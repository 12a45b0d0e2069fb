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

numpy is optional (a base install has none): :meth:`TurnDP.start` runs the same layers
in plain Python without it, about eight times slower. At a round's first turn (four later
turns, 140 tables) :func:`round_endings` takes about 50 ms with numpy and 380 ms without
(``benchmarks/solo_round_time.py [--no-numpy]``, seed 9, Cat level 1; the hard and expert solo
bots make one such call a turn), plus a one-off 0.1 s to build :class:`TurnDP` and, without
numpy, 0.2 s to regroup its layers.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from operator import itemgetter

from .components import TOP_SPACE
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
    roll: the same numbers as ``policy._TurnTable.continue_`` of an empty set-aside. With numpy
    installed (the ``dev`` and ``rl`` extras) all tables go at once through arrays; without it
    (a base install) the same layers run in plain Python, one table at a time (module notes).
    """

    def __init__(self) -> None:
        kept = [k for k in product(range(DICE + 1), repeat=6) if sum(k) <= DICE]
        kept.sort(key=lambda k: -sum(k))
        index = {k: i for i, k in enumerate(kept)}
        self.stop_index = [min(result_value(k) or 0, TOP_SPACE) for k in kept]
        self.dead = [not can_still_be_valid(k, DICE - sum(k)) for k in kept]
        #: per layer (set-asides of n dice, n = 5 down to 0) as flat lists, the shape numpy's
        #: reduceat takes: rows, targets, group starts (one group a roll), probabilities, row starts
        self.layers: list[tuple[list[int], list[int], list[int], list[float], list[int]]] = []
        for n in range(DICE - 1, -1, -1):  # set-asides of n dice, fewest last (they need the larger)
            rows: list[int] = []
            targets: list[int] = []
            group_starts: list[int] = []
            probs: list[float] = []
            row_starts: list[int] = []
            for k in kept:
                if sum(k) != n or self.dead[index[k]]:
                    continue
                rows.append(index[k])
                row_starts.append(len(probs))
                for roll, p in roll_outcomes(DICE - n):
                    group_starts.append(len(targets))
                    probs.append(p)
                    for sub in sub_vectors(roll):
                        if any(sub):
                            targets.append(index[tuple(a + b for a, b in zip(k, sub))])
            self.layers.append((rows, targets, group_starts, probs, row_starts))
        self._arrays: list | None = None
        self._steps: list | None = None

    def start(self, tables) -> list[float]:
        """Expected value of a whole turn for each of ``tables`` (``B`` sequences of
        ``TOP_SPACE + 1`` floats, or a ``(B, TOP_SPACE + 1)`` array): a list of ``B`` floats."""
        try:
            import numpy as np
        except ImportError:
            return [self._start_one(list(table)) for table in tables]
        return self._start_arrays(np, np.asarray(tables, dtype=float)).tolist()

    def _start_arrays(self, np, tables):
        """:meth:`start` for a ``(B, TOP_SPACE + 1)`` array, all tables at once (numpy)."""
        if self._arrays is None:
            self._arrays = [(np.array(rows), np.array(targets), np.array(group_starts),
                             np.array(probs)[:, None], np.array(row_starts))
                            for rows, targets, group_starts, probs, row_starts in self.layers]
        fail = tables[:, 0]
        stop = np.maximum(tables[:, self.stop_index].T, fail)   # (set-asides, B)
        pos = stop.copy()
        pos[np.array(self.dead)] = fail
        cont = None
        for rows, targets, group_starts, probs, row_starts in self._arrays:
            best = np.maximum.reduceat(pos[targets], group_starts, axis=0)
            cont = np.add.reduceat(best * probs, row_starts, axis=0)
            pos[rows] = np.maximum(stop[rows], cont)
        assert cont is not None
        return cont[0]  # the layer of no dice set aside: the turn's first roll

    def _start_one(self, table: list[float]) -> float:
        """:meth:`start` for one table in plain Python: the same layers, lists for arrays."""
        if self._steps is None:
            self._steps = [self._plain_layer(*layer) for layer in self.layers]
        fail = table[0]
        stop = [max(table[i], fail) for i in self.stop_index]
        pos = [fail if dead else s for s, dead in zip(stop, self.dead)]
        cont = 0.0
        for layer in self._steps:   # a layer's targets all lie in earlier layers
            for row, groups in layer:
                cont = 0.0
                for p, pick in groups:
                    cont += p * max(pick(pos))
                pos[row] = max(stop[row], cont)
        return cont  # the last layer is the one set-aside of no dice: the turn's first roll

    @staticmethod
    def _plain_layer(rows, targets, group_starts, probs, row_starts) -> list:
        """One layer regrouped for :meth:`_start_one`: per row, (probability, getter of the
        positions one roll can reach) for each roll; a getter always returns a tuple."""
        ends = group_starts[1:] + [len(targets)]
        groups = [(p, itemgetter(*targets[a:b]) if b - a > 1 else itemgetter(targets[a], targets[a]))
                  for p, a, b in zip(probs, group_starts, ends)]
        row_ends = row_starts[1:] + [len(groups)]
        return [(row, groups[a:b]) for row, a, b in zip(rows, row_starts, row_ends)]


@lru_cache(maxsize=1)
def turn_dp() -> TurnDP:
    """The shared :class:`TurnDP` (built once, about 0.1 s: 924 set-asides, 73,000 set-aside steps)."""
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
