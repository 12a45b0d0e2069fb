"""Silver, Treasure and Grog (rulebook: Ship Board, Silver and Treasure, Grog): every gain goes coin by
coin, and the 5-Silver exchange happens at once; a 6th Treasure ends the game (:mod:`.end`).
"""

from __future__ import annotations

from ..components import (
    GROG_MAX,
    SILVER_PER_TREASURE,
    SILVER_TOTAL,
    TREASURE_TO_WIN,
)
from .common import (
    PLAYER,
    plural,
)
from .fields import CorsairsFields


class Coins(CorsairsFields):
    """Coin and dial rules of :class:`~.state.CorsairsState` (a mixin: no fields of its own)."""

    __slots__ = ()

    # ------------------------------------------------------------ coins and dials
    def _exchange(self, seat: int) -> bool:
        """The immediate 5 Silver -> 1 Treasure exchange; True when it gave the 6th Treasure (the game is over)."""
        while self.silver[seat] >= SILVER_PER_TREASURE:
            self.silver[seat] -= SILVER_PER_TREASURE
            self.treasure[seat] += 1
            if not self.quiet:
                self.emit("treasure", seat, f"{PLAYER[seat]} returns {SILVER_PER_TREASURE} Silver to the "
                          f"supply and gains a Treasure ({self.treasure[seat]}).",
                          {"treasure": self.treasure[seat]})
            if self.treasure[seat] >= TREASURE_TO_WIN:
                self._win_now(seat)
                return True
        return False

    def _gain_silver(self, seat: int, n: int, why: str, faces: str = "") -> None:
        """Take up to ``n`` Silver from the supply, coin by coin (each may complete a Treasure and end the game).

        The event says ``why`` (followed by ``n`` ``faces`` when given: "collects 2 Silver faces").
        """
        if n <= 0:
            return
        if not self.quiet:
            if faces:
                why = f"{why} {plural(n, faces)}"
            short = self.supply < n
            self.emit("silver", seat, f"{PLAYER[seat]} {why}: +{n} Silver"
                      + (f" (the supply holds only {self.supply} now)" if short else "") + ".",
                      {"silver": n})
        silver = self.silver
        for got in range(n):
            if SILVER_TOTAL - sum(silver) - self.island <= 0:
                if not self.quiet:
                    self.emit("supply-empty", seat, f"The Silver supply is empty: {PLAYER[seat]} "
                              f"gets {got} of {n}.", {"got": got, "wanted": n})
                return
            silver[seat] += 1
            if silver[seat] >= SILVER_PER_TREASURE and self._exchange(seat):
                return

    def _gain_grog(self, seat: int, n: int, why: str, faces: str = "") -> None:
        """Fill the Grog dial by up to ``n`` (max 4); the rest is wasted. The event as for :meth:`_gain_silver`."""
        gain = min(n, GROG_MAX - self.grog[seat])
        self.grog[seat] += gain
        if not self.quiet:
            if faces:
                why = f"{why} {plural(n, faces)}"
            wasted = n - gain
            self.emit("grog", seat, f"{PLAYER[seat]} {why}: +{gain} Grog (dial {self.grog[seat]}/{GROG_MAX})"
                      + (f", {wasted} wasted" if wasted else "") + ".", {"grog": gain, "wasted": wasted})
