"""Dice Kingdoms of Valeria state fields: the root of the chain of phase classes.

:class:`DiceKingdomsFields` declares the state's fields (annotated
attributes and an ``OWN_FIELDS`` table of the engine's
:class:`~dicetable.engine.Field`, which save and restore follow; clone is
written out in :meth:`DiceKingdomsFields._copy_into`). The phase classes
extend one another in one chain of single inheritance, so that each is a
native class in the compiled build: ``solo`` on the fields, then
``rewards``, ``actions``, ``harvest`` and ``turn``, which
:class:`~.state.DiceKingdomsState` extends; each sees every field with its type.
"""

from __future__ import annotations

from typing import Any, ClassVar

from dicetable.engine import LIST, ROWS, Action, Field, FlowState, GameState, declare, int_list, int_rows, int_tuple
from dicetable.engine.flow import Task

from .consts import CARD_ID, CARD_INDEX, EVENT_IDS, EVENT_INDEX
from ..layout import Layout
from .fx import scored
from .scoring import score_total
from .tables import PHASES, Reward, _Actions

def _phase(value: Any) -> str:
    """A saved phase name (one of ``PHASES``); ValueError otherwise."""
    value = str(value)
    if value not in PHASES:
        raise ValueError(f"unknown phase {value!r}")
    return value


def _cards_in(value: Any) -> tuple[int, ...]:
    """Saved Statue card ids ("3-day") as card numbers 0..27."""
    return tuple(CARD_INDEX[c] for c in value)


def _cards_out(value: tuple[int, ...]) -> list[str]:
    return [CARD_ID[c] for c in value]


def _events_in(value: Any) -> tuple[int, ...]:
    """Saved Solo Event ids as indices into ``components.EVENTS``."""
    return tuple(EVENT_INDEX[e] for e in value)


def _events_out(value: tuple[int, ...]) -> list[str]:
    return [EVENT_IDS[e] for e in value]


class DiceKingdomsFields(FlowState):
    """The fields of a Dice Kingdoms of Valeria state (see :class:`~.state.DiceKingdomsState`).

    ``phase``; ``stage`` (event, 1st Harvest, action, 2nd Harvest);
    ``active``/``first`` seats; ``round_no``; ``dice`` = (black, black,
    yellow, red, green, blue); ``sheets[seat]`` (flat ints); ``line``/``deck``
    (Statue card ids 0..27; the deck's top card is last); ``lair_first[lair]``
    (seat that completed it first, -1 nobody yet, -2 higher value crossed out
    by a solo Event); ``last_round``; ``acted``; ``drafter``; solo: ``trees``,
    ``ships``, ``event_deck`` (top last), ``events_drawn``, ``no_blue``,
    ``drought``. Pending work is the engine's task stack (``tasks``) and,
    during a Harvest, one lane per seat (``lanes``).
    """

    lay: Layout                  # the season's sheet layout (from the options)
    acts: _Actions               # the season's precomputed reward-choice Actions
    phase: str
    stage: int
    active: int
    first: int
    round_no: int
    turn_no: int
    dice: tuple[int, ...]
    sheets: list[list[int]]
    line: tuple[int, ...]
    deck: tuple[int, ...]
    lair_first: list[int]
    last_round: bool
    acted: bool
    drafter: int
    trees: int
    ships: int
    event_deck: tuple[int, ...]
    events_drawn: tuple[int, ...]
    no_blue: bool
    drought: bool
    harvest_no: int
    menu: tuple[Action, ...] | None  # the Action-phase menu once built (until the next action)
    totals: list[int]            # each seat's score as its last mark left it, -1 when not known

    OWN_FIELDS: ClassVar[tuple[Field[Any], ...]] = declare(
        lay=Field(save=False),
        acts=Field(save=False),
        phase=Field(_phase),
        stage=Field(int),
        active=Field(int),
        first=Field(int),
        round_no=Field(int, save="round"),
        turn_no=Field(int, save="turn"),
        dice=Field(int_tuple),
        sheets=Field(int_rows, copy=ROWS),
        line=Field(_cards_in, encode=_cards_out),
        deck=Field(_cards_in, encode=_cards_out),
        lair_first=Field(int_list, copy=LIST),
        last_round=Field(bool),
        acted=Field(bool),
        drafter=Field(int),
        trees=Field(int),
        ships=Field(int),
        event_deck=Field(_events_in, encode=_events_out),
        events_drawn=Field(_events_in, encode=_events_out),
        no_blue=Field(bool),
        drought=Field(bool),
        harvest_no=Field(int),
        menu=Field(save=False),
        totals=Field(save=False, copy=LIST),
    )

    def _copy_into(self, other: GameState) -> None:
        """Every declared field (FlowState's and these) into ``other`` (``clone``), written out:
        the bots' look-ahead clones for every candidate, and direct copies cost a fraction of the
        engine's loop over its plan (tests/engine/test_flow.py checks no field is missed or shared)."""
        assert isinstance(other, DiceKingdomsFields)
        other.tasks = self.tasks.copy()
        lanes = self.lanes
        other.lanes = None if lanes is None else [lane.copy() for lane in lanes]
        other.lay = self.lay
        other.acts = self.acts
        other.phase = self.phase
        other.stage = self.stage
        other.active = self.active
        other.first = self.first
        other.round_no = self.round_no
        other.turn_no = self.turn_no
        other.dice = self.dice
        other.sheets = [row.copy() for row in self.sheets]
        other.line = self.line
        other.deck = self.deck
        other.lair_first = self.lair_first.copy()
        other.last_round = self.last_round
        other.acted = self.acted
        other.drafter = self.drafter
        other.trees = self.trees
        other.ships = self.ships
        other.event_deck = self.event_deck
        other.events_drawn = self.events_drawn
        other.no_blue = self.no_blue
        other.drought = self.drought
        other.harvest_no = self.harvest_no
        other.menu = self.menu
        other.totals = self.totals.copy()

    # ------------------------------------------------------------ the running score
    def _score_before(self, seat: int) -> int:
        """``seat``'s score before a mark, for :meth:`_scored` (0 in a quiet step, which scores nothing).

        Read from ``totals`` (the score :meth:`_scored` left for the seat's last mark), or worked out
        from the sheet (``scoring.score_total``) when it is not known (-1: since set-up or restore, a
        quiet mark, or a sheet changed outside a mark). A quiet step marks without scoring, so it
        forgets the seat's total here.
        """
        if self.quiet:
            self.totals[seat] = -1
            return 0
        total = self.totals[seat]
        return total if total >= 0 else score_total(self.lay, self.sheets[seat])

    def forget_score(self, seat: int) -> None:
        """Forget ``seat``'s running score after its sheet changed outside a mark (a solo Event voids a
        space, a test edits the sheet): the next mark scores the sheet anew. Returns None."""
        self.totals[seat] = -1

    def _scored(self, seat: int, before: int) -> list[dict[str, Any]]:
        """The score effects of ``seat``'s mark (:func:`.fx.scored`): its sheet scored anew, kept in
        ``totals[seat]`` for the next mark's :meth:`_score_before`."""
        lay = self.lay
        after = score_total(lay, self.sheets[seat])
        self.totals[seat] = after
        return scored(seat, lay, after, before)

    # What the phase classes call in one another, each written in the module named. Declared here
    # so that every phase class sees them with their types, whatever its place in the chain; every
    # phase class extends this one, so these bodies never run.
    # (Real methods, not a TYPE_CHECKING block: the compiled build needs them declared.)
    # turn
    def _start_turn(self, seat: int) -> None:
        raise NotImplementedError

    def _end_turn(self) -> None:
        raise NotImplementedError

    def _check_trigger(self, seat: int) -> None:
        raise NotImplementedError

    # harvest
    def _start_harvest(self, stage: int) -> None:
        raise NotImplementedError

    # rewards
    def _mark_track(self, seat: int, g: int, n: int, rewards: list[Reward]) -> int:
        raise NotImplementedError

    def _mark_citizen(self, seat: int, s: int, why: str) -> None:
        raise NotImplementedError

    def _mark_block(self, seat: int, b: int, why: str) -> None:
        raise NotImplementedError

    def _mark_road(self, seat: int, r: int, d: int, n: int, why: str) -> None:
        raise NotImplementedError

    def _settle_lair(self, seat: int, li: int) -> None:
        raise NotImplementedError

    def _usable_roads(self, sh: list[int]) -> list[tuple[int, int]]:
        raise NotImplementedError

    def _refill(self) -> None:
        raise NotImplementedError

    # solo
    def _draw_event(self) -> None:
        raise NotImplementedError

    def _strike_track(self, g: int) -> None:
        raise NotImplementedError

    # state
    def seat_tasks(self, seat: int) -> list[Task]:
        raise NotImplementedError

    def score_parts(self, seat: int) -> dict[str, Any]:
        raise NotImplementedError

    def _where(self) -> str:
        raise NotImplementedError
