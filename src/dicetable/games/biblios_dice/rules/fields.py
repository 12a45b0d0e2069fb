"""The fields of a Biblios Dice state, declared once, and the queries every rule module uses.

:class:`BibliosFields` is the root of one chain of rule classes, each extending the one before
(:mod:`.scoring`, :mod:`.dice`, :mod:`.market`, :mod:`.round`; single inheritance, so that every
one is a native class in the compiled build) and so of :class:`~.state.BibliosDiceState`: each
rule class sees every field with its type.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypedDict

from dicetable.engine import LIST, Field, FlowState, GameState, declare, int_list, seat_name

from .consts import BISHOP, TOKENS, TOKEN_INDEX


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


class BibliosFields(FlowState):
    """The declared fields of a Biblios Dice state (see :class:`~.state.BibliosDiceState`'s docstring
    for their layout) and two queries on them, shared by every rule class."""

    nm: int                                     # markers: seats, then Cadfael (derived from players)
    cad: int                                    # Cadfael's marker, -1 without him
    round_no: int
    first: int                                  # the seat holding the Monastery Card
    current: int                                # the seat whose turn it is (shown in observations)
    phase: str                                  # one of PHASES (shown in observations)
    value: list[int]                            # pips of the five Value Dice
    pos: list[int]                              # pos[track * nm + marker]: its space, 1 = lowest
    stamp: list[int]                            # arrival time on that space (lower = further left)
    clock: int
    vp_stacks: list[tuple[int, ...]]            # [track * NSTACKS + k]: VP tokens, top first
    # bishop_stacks and groups are tuples, replaced and never mutated, so a clone shares them
    bishop_stacks: tuple[tuple[int, ...], ...]  # per spot: token indices, top first
    gold: list[int]
    vp: list[int]                               # VP tokens behind each shield
    mule: int                                   # the Mule's space, 0..MULE_FINAL
    mule_roll: int
    pool: list[int]                             # the dice pool (a dice set)
    marks: list[int]                            # dice marked for the re-roll, by MARK_KINDS
    small: list[int]                            # the group of 3 while the pool is split
    groups: tuple[tuple[int, ...], ...]         # the market's large and small group (dice sets)
    grp: int                                    # the group being resolved, -1 none
    hands: list[int]                            # Bidding Cards in hand, bitmask per seat
    facedown: list[int]                         # the card placed face down, -1 none
    played: list[tuple[int, ...]]               # cards revealed in this auction, per seat
    active: int                                 # bitmask: seats still bidding
    sitting: int                                # bitmask: seats sitting this auction out
    barred: int                                 # bitmask: seats to sit the next auction out
    penalized: int                              # bitmask: seats penalised for overbidding now
    cad_deck: list[int]                         # Cadfael's draw pile, top first
    cad_faceup: list[int]                       # his cards revealed in earlier auctions (replaced, never mutated)
    cad_played: list[int]                       # his cards revealed in this auction
    topped: int                                 # bitmask: tracks whose top the mover reached this turn
    objectives: list[int]                       # Hidden Objective per seat, -1 none (replaced, never mutated)
    auctions: int
    last_auction: AuctionResult | None          # the last auction's totals and places (never mutated)
    final: list[ScoreRow] | None                # final scoring rows once the game is over (never mutated)

    OWN_FIELDS: ClassVar[tuple[Field[Any], ...]] = declare(
        nm=Field(int, save=False),
        cad=Field(int, save=False),
        round_no=Field(int, save="round"),
        first=Field(int),
        current=Field(int),
        phase=Field(str),
        value=Field(int_list, copy=LIST),
        pos=Field(int_list, copy=LIST),
        stamp=Field(int_list, copy=LIST),
        clock=Field(int),
        vp_stacks=Field(_tuples, copy=LIST, encode=_lists),
        bishop_stacks=Field(_token_stacks, encode=_token_ids),
        gold=Field(int_list, copy=LIST),
        vp=Field(int_list, copy=LIST),
        mule=Field(int),
        mule_roll=Field(int),
        pool=Field(int_list, copy=LIST),
        marks=Field(int_list, copy=LIST),
        small=Field(int_list, copy=LIST),
        groups=Field(_rows, encode=_lists),
        grp=Field(int),
        hands=Field(int_list, copy=LIST),
        facedown=Field(int_list, copy=LIST),
        played=Field(_tuples, copy=LIST, encode=_lists),
        active=Field(int),
        sitting=Field(int),
        barred=Field(int),
        penalized=Field(int),
        cad_deck=Field(int_list, copy=LIST),
        cad_faceup=Field(int_list),
        cad_played=Field(int_list, copy=LIST),
        topped=Field(int),
        objectives=Field(int_list),
        auctions=Field(int),
        last_auction=Field(_auction),
        final=Field(_score_rows),
    )

    def _copy_into(self, other: GameState) -> None:
        """Every declared field (FlowState's and these) into ``other`` (``clone``), written out:
        search clones on every iteration, and direct copies cost a fraction of the engine's loop
        over its plan (tests/engine/test_flow.py checks no field is missed or shared)."""
        assert isinstance(other, BibliosFields)
        other.tasks = self.tasks.copy()
        lanes = self.lanes
        other.lanes = None if lanes is None else [lane.copy() for lane in lanes]
        other.nm = self.nm
        other.cad = self.cad
        other.round_no = self.round_no
        other.first = self.first
        other.current = self.current
        other.phase = self.phase
        other.value = self.value.copy()
        other.pos = self.pos.copy()
        other.stamp = self.stamp.copy()
        other.clock = self.clock
        other.vp_stacks = self.vp_stacks.copy()
        other.bishop_stacks = self.bishop_stacks
        other.gold = self.gold.copy()
        other.vp = self.vp.copy()
        other.mule = self.mule
        other.mule_roll = self.mule_roll
        other.pool = self.pool.copy()
        other.marks = self.marks.copy()
        other.small = self.small.copy()
        other.groups = self.groups
        other.grp = self.grp
        other.hands = self.hands.copy()
        other.facedown = self.facedown.copy()
        other.played = self.played.copy()
        other.active = self.active
        other.sitting = self.sitting
        other.barred = self.barred
        other.penalized = self.penalized
        other.cad_deck = self.cad_deck.copy()
        other.cad_faceup = self.cad_faceup
        other.cad_played = self.cad_played.copy()
        other.topped = self.topped
        other.objectives = self.objectives
        other.auctions = self.auctions
        other.last_auction = self.last_auction
        other.final = self.final

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
