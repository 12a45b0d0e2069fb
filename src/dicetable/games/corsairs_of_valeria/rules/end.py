"""Phase D and the end of the game (rulebook: D End Your Turn, Reaching Skull Island, Ending the Game;
Captain Hasan the Merchant): the race reset after a first Skull Island visit, the end after a second,
and the immediate win with a 6th Treasure.
"""

from __future__ import annotations

from dicetable.engine import auto, seat_name
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from ..components import flipped, layout_name
from .consts import HASAN, ISLAND_REFILL, TREASURE_TO_WIN
from .common import (
    F_ARRIVED,
    ISLAND_KEY,
    OVER,
    PLAYER,
    SUPPLY_KEY,
    counter_key,
    ship_key,
    space_key,
)
from .fields import CorsairsFields


class Ending(CorsairsFields):
    """Phase D, the new race and the end of the game of :class:`~.state.CorsairsState` (the first phase class of the chain, on the fields)."""

    __slots__ = ()

    # ------------------------------------------------------------ end of game
    def _win_now(self, seat: int) -> None:
        """A 6th Treasure: the game ends at once, whatever was still pending (rulebook: Ending the Game)."""
        self.phase = OVER
        self.end_game()
        self.winner6 = seat
        if not self.quiet:
            self.emit("game-over", seat, f"{PLAYER[seat]} has {TREASURE_TO_WIN} Treasures and wins the game!",
                      {"winners": [seat], "treasure": list(self.treasure)})

    def _end_by_second_visit(self) -> None:
        self.phase = OVER
        self.end_game()
        if not self.quiet:
            win = self.winners
            text = "Skull Island has been reached a second time: the game ends. " + ", ".join(
                f"{PLAYER[s]} {self.treasure[s]} Treasure/{self.silver[s]} Silver/{self.grog[s]} Grog"
                for s in range(self.players))
            text += ". " + ("Winner: " if len(win) == 1 else "Shared victory: ") + ", ".join(map(seat_name, win)) + "."
            self.emit("game-over", None, text, {"winners": list(win), "treasure": list(self.treasure)})

    # --- D: End Your Turn
    @auto("end-turn")
    def _phase_d(self, task: Task) -> None:
        seat: int = task[1]
        self.phase = "D"
        if self.captain[seat] == HASAN and self.grog[seat] >= 2:
            self.grog[seat] -= 1
            left = self.grog[seat]
            if not self.quiet:
                coins = self._coins_effects(seat, left, SUPPLY_KEY, self.supply)
                got = coins[0]["delta"] if coins else 0
                self.emit("hasan", seat, f"{PLAYER[seat]} (Hasan the Merchant) pays 1 Grog and turns the other "
                          f"{left} Grog into Silver.", {"grog": left},
                          effects=[fx.count(counter_key(seat, "grog"), -1 - got, left - got), *coins])
            for _ in range(left):
                if self.supply <= 0:
                    if not self.quiet:
                        self.emit("supply-empty", seat, f"The Silver supply is empty: {self.grog[seat]} Grog stay.")
                    break
                self.grog[seat] -= 1
                self.silver[seat] += 1
                if self._exchange(seat):
                    return
        if self.flags & F_ARRIVED:
            if self.visits >= 2:
                self._end_by_second_visit()
                return
            self._new_race()
        self.tasks.append(("turn", (seat + 1) % self.players))

    def _new_race(self) -> None:
        self._set_layout(flipped(self.layout))
        start = self.track.start
        for s in range(self.players):
            self.pos[s] = start
        add = min(ISLAND_REFILL, self.supply)
        self.island += add
        if not self.quiet:
            # the spaces the ships left are gone with the flipped Tracks: they come from off the board
            effects = [fx.round_begins(2), *(fx.move(ship_key(s), None, space_key(start)) for s in range(self.players))]
            if add:
                effects += [fx.count(SUPPLY_KEY, -add, self.supply), fx.count(ISLAND_KEY, add, self.island)]
            self.emit("new-race", None, "All Ships return to Start, the Tracks are flipped ("
                      + ", ".join(title for title, _ in self.track.segments[1:-1])
                      + f") and {add} Silver go on Skull Island. Another race starts!",
                      {"tracks": layout_name(self.layout), "island": self.island}, effects=effects)
