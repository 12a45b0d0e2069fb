"""The declared fields of a Corsairs of Valeria state, in the base class of the phase classes.

:class:`CorsairsFields` is the root of one chain of phase classes (:mod:`.end`, :mod:`.coins`,
:mod:`.sailing`, :mod:`.actions`, :mod:`.roll`, each extending the one before) and, through them,
of :class:`~.state.CorsairsState`: each phase class sees every field with its type. The engine
gathers the fields from every base (:mod:`dicetable.engine.fields`), so clone, save and restore
are the same as if they were declared on the state class.
"""

from __future__ import annotations

from typing import Any, ClassVar

from dicetable.engine import LIST, Field, FlowState, GameState, declare, int_list

from ..components import Layout, RaceTrack, layout_name, parse_layout, race_track
from .consts import SILVER_TOTAL
from .common import F_ARRIVED, captains_in, captains_out, coins_on_ships, dice_in, dice_out


class CorsairsFields(FlowState):
    """The table of a Corsairs of Valeria game (rulebook: Components, Game Setup).

    Besides the fields: :attr:`supply` (derived, never stored) and :meth:`_set_layout` (the layout
    with its compiled track). The rules one phase module calls in another are declared at the end
    for the type checker only; they live in the phase classes.
    """

    # seats index the lists; codes and bits are named in .common and ..components
    layout: Layout                # ((track, side), ...) from Start
    track: RaceTrack              # layout compiled (shared): rebuilt by _after_restore
    captain: tuple[int, ...]      # index into CAPTAINS, -1: none
    pos: list[int]                # each Ship's node on track
    grog: list[int]               # Grog dial, 0-4
    silver: list[int]             # Silver on each Ship Board
    treasure: list[int]           # 0-6
    island: int                   # Silver on Skull Island
    visits: int                   # Skull Island arrivals so far (the second ends the game)
    current: int                  # the seat whose turn it is
    turn: int                     # turns begun
    phase: str                    # "A"-"D", or OVER
    dice: list[int]               # the roll's face codes, sorted (Skulls first)
    marked: int                   # bit i: die i is marked to be re-rolled
    rerolls: int                  # re-rolls paid this turn
    left: list[int]               # phase C counts not yet executed: Grog, Silver, Maps, Cannons (G_*)
    flags: int                    # bits of the current turn (F_*)
    winner6: int                  # the seat that gained the 6th Treasure (-1: none)

    OWN_FIELDS: ClassVar[tuple[Field[Any], ...]] = declare(
        layout=Field(parse_layout, save="tracks", encode=layout_name),
        track=Field(save=False),
        captain=Field(captains_in, save="captains", encode=captains_out),
        pos=Field(int_list, copy=LIST),
        grog=Field(int_list, copy=LIST),
        silver=Field(int_list, copy=LIST),
        treasure=Field(int_list, copy=LIST),
        island=Field(int),
        visits=Field(int),
        current=Field(int),
        turn=Field(int),
        phase=Field(str),
        dice=Field(dice_in, copy=LIST, encode=dice_out),
        marked=Field(int),
        rerolls=Field(int),
        left=Field(int_list, copy=LIST),
        flags=Field(int),
        winner6=Field(int),
    )

    def _copy_into(self, other: GameState) -> None:
        """Every declared field (FlowState's and these) into ``other`` (``clone``), written out:
        search clones on every iteration, and direct copies cost a fraction of the engine's loop
        over its plan (tests/engine/test_flow.py checks no field is missed or shared)."""
        assert isinstance(other, CorsairsFields)
        other.tasks = self.tasks.copy()
        lanes = self.lanes
        other.lanes = None if lanes is None else [lane.copy() for lane in lanes]
        other.layout = self.layout
        other.track = self.track
        other.captain = self.captain
        other.pos = self.pos.copy()
        other.grog = self.grog.copy()
        other.silver = self.silver.copy()
        other.treasure = self.treasure.copy()
        other.island = self.island
        other.visits = self.visits
        other.current = self.current
        other.turn = self.turn
        other.phase = self.phase
        other.dice = self.dice.copy()
        other.marked = self.marked
        other.rerolls = self.rerolls
        other.left = self.left.copy()
        other.flags = self.flags
        other.winner6 = self.winner6

    @property
    def supply(self) -> int:
        """Silver coins in the general supply: 35 minus those on ships and Skull Island."""
        return SILVER_TOTAL - coins_on_ships(self.silver) - self.island

    def _set_layout(self, layout: Layout) -> None:
        self.layout = layout
        self.track = race_track(layout)

    # Rules one phase class uses from another, each defined once, in the module named (every phase
    # class extends this one, so its definition overrides these, which never run).
    def _begin_phases(self, seat: int) -> None:  # .roll
        raise NotImplementedError

    def _hazard(self, seat: int) -> None:  # .sailing
        raise NotImplementedError

    def _exchange(self, seat: int) -> bool:  # .coins
        raise NotImplementedError

    def _coins_effects(self, seat: int, n: int, source: str, source_now: int) -> list[dict[str, Any]]:  # .coins
        raise NotImplementedError

    def _gain_silver(self, seat: int, n: int, why: str, faces: str = "") -> None:  # .coins
        raise NotImplementedError

    def _gain_grog(self, seat: int, n: int, why: str, faces: str = "") -> None:  # .coins
        raise NotImplementedError

    def _win_now(self, seat: int) -> None:  # .end
        raise NotImplementedError


def race_number(state: CorsairsFields) -> int:
    """1 or 2: the race being sailed (a Skull Island arrival still belongs to its race until the turn ends)."""
    arrived = 1 if state.flags & F_ARRIVED else 0
    return max(1, min(2, state.visits + 1 - arrived))
