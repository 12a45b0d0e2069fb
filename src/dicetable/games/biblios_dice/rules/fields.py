"""The fields of a Biblios Dice state, declared once, and the queries every rule module uses.

:class:`BibliosFields` is the base of the rule mixins (:mod:`.dice`,
:mod:`.round`, :mod:`.market`, :mod:`.scoring`) and so of
:class:`~.state.BibliosDiceState`: each mixin sees every field with its type.
"""

from __future__ import annotations

from typing import Any, TypedDict

from dicetable.engine import LIST, Field, FlowState, StateMeta, int_list, seat_name

from ..components import BISHOP, TOKEN_INDEX, TOKENS


class ScoreRow(TypedDict):
    """One marker's scoring (rulebook Scoring), as :meth:`~.scoring.ScoringRules.breakdown` returns it.

    ``tracks``: VPs per Resource Track place; ``penalty``: VPs lost
    (positive); ``tokens``: VP tokens; ``gold_vp``: Gold converted to VPs;
    ``gold_left``: Gold left after conversion; ``objective``: the Hidden
    Objective's bonus; ``total``: the VPs in all.
    """

    tracks: list[int]
    penalty: int
    tokens: int
    gold_vp: int
    gold_left: int
    objective: int
    total: int


class AuctionResult(TypedDict):
    """The last auction (rulebook: Auctions): each seat's total bid (None: sat out), Cadfael's
    (None without him), the winner's and the second's marker (-1 none) and the seats penalised."""

    totals: list[int | None]
    cadfael: int | None
    winner: int
    second: int
    penalized: list[int]


def _tuples(value: Any) -> list[tuple[int, ...]]:
    return [tuple(int(x) for x in row) for row in value]


def _rows(value: Any) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(x) for x in row) for row in value)


def _lists(value: Any) -> list[list[Any]]:
    return [list(row) for row in value]


def _token_stacks(value: Any) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(TOKEN_INDEX[i] for i in stack) for stack in value)


def _token_ids(value: tuple[tuple[int, ...], ...]) -> list[list[str]]:
    return [[TOKENS[i].id for i in stack] for stack in value]


def _auction(value: Any) -> AuctionResult | None:
    """A saved last auction, kept as saved (JSON already has its shape)."""
    result: AuctionResult | None = value
    return result


def _score_rows(value: Any) -> list[ScoreRow] | None:
    """Saved final scoring rows, kept as saved (JSON already has their shape)."""
    rows: list[ScoreRow] | None = value
    return rows


class BibliosFields(FlowState, metaclass=StateMeta):  # fields declared the older way (engine.fields)
    """The declared fields of a Biblios Dice state (see :class:`~.state.BibliosDiceState`'s docstring
    for their layout) and two queries on them, shared by every rule mixin."""

    __slots__ = ()

    nm = Field(int, save=False)                 # markers: seats, then Cadfael (derived from players)
    cad = Field(int, save=False)                # Cadfael's marker, -1 without him
    round_no = Field(int, save="round")
    first = Field(int)                          # the seat holding the Monastery Card
    current = Field(int)                        # the seat whose turn it is (shown in observations)
    phase = Field(str)                          # one of PHASES (shown in observations)
    value = Field(int_list, copy=LIST)          # pips of the five Value Dice
    pos = Field(int_list, copy=LIST)            # pos[track * nm + marker]: its space, 1 = lowest
    stamp = Field(int_list, copy=LIST)          # arrival time on that space (lower = further left)
    clock = Field(int)
    vp_stacks = Field(_tuples, copy=LIST, encode=_lists)  # [track * NSTACKS + k]: VP tokens, top first
    # bishop_stacks and groups are tuples, replaced and never mutated, so a clone shares them
    bishop_stacks = Field(_token_stacks, encode=_token_ids)  # per spot: token indices, top first
    gold = Field(int_list, copy=LIST)
    vp = Field(int_list, copy=LIST)             # VP tokens behind each shield
    mule = Field(int)                           # the Mule's space, 0..MULE_FINAL
    mule_roll = Field(int)
    pool = Field(int_list, copy=LIST)           # the dice pool (a dice set)
    marks = Field(int_list, copy=LIST)          # dice marked for the re-roll, by MARK_KINDS
    small = Field(int_list, copy=LIST)          # the group of 3 while the pool is split
    groups = Field(_rows, encode=_lists)        # the market's large and small group (dice sets)
    grp = Field(int)                            # the group being resolved, -1 none
    hands = Field(int_list, copy=LIST)          # Bidding Cards in hand, bitmask per seat
    facedown = Field(int_list, copy=LIST)       # the card placed face down, -1 none
    played = Field(_tuples, copy=LIST, encode=_lists)  # cards revealed in this auction, per seat
    active = Field(int)                         # bitmask: seats still bidding
    sitting = Field(int)                        # bitmask: seats sitting this auction out
    barred = Field(int)                         # bitmask: seats to sit the next auction out
    penalized = Field(int)                      # bitmask: seats penalised for overbidding now
    cad_deck = Field(int_list, copy=LIST)       # Cadfael's draw pile, top first
    cad_faceup = Field(int_list)                # his cards revealed in earlier auctions (replaced, never mutated)
    cad_played = Field(int_list, copy=LIST)     # his cards revealed in this auction
    topped = Field(int)                         # bitmask: tracks whose top the mover reached this turn
    objectives = Field(int_list)                # Hidden Objective per seat, -1 none (replaced, never mutated)
    auctions = Field(int)
    last_auction = Field(_auction)              # the last auction's totals and places (never mutated)
    final = Field(_score_rows)                  # final scoring rows once the game is over (never mutated)

    # ================================================================ queries
    def who(self, m: int) -> str:
        """A marker's owner for people: ``"Player 2"`` or ``"Cadfael"``."""
        return "Cadfael" if m == self.cad else seat_name(m)

    def marker_id(self, m: int) -> int | str:
        """Marker ``m`` as observations and board keys name it: the seat, or ``"cadfael"``."""
        return "cadfael" if m == self.cad else m

    def bishop_key(self, m: int) -> tuple[int, int]:
        """Sort key: further up the Bishop Track first, then further left (earlier arrival)."""
        i = BISHOP * self.nm + m
        return (-self.pos[i], self.stamp[i])
