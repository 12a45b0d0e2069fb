"""Silver, Treasure and Grog (rulebook: Ship Board, Silver and Treasure, Grog): every gain goes coin by
coin, and the 5-Silver exchange happens at once; a 6th Treasure ends the game (:mod:`.end`).
"""

from __future__ import annotations

from typing import Any

from dicetable.engine import counted
from dicetable.engine import effects as fx

from .consts import GROG_MAX, SILVER_PER_TREASURE, SILVER_TOTAL, TREASURE_TO_WIN
from .common import (
    PLAYER,
    SUPPLY_KEY,
    coins_on_ships,
    counter_key,
)
from .end import Ending


class Coins(Ending):
    """Coin and dial rules of :class:`~.state.CorsairsState` (a phase class of the chain, no fields of its own: on :class:`~.end.Ending`)."""

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
                          {"treasure": self.treasure[seat]},
                          # more coins of the same gain may follow (counted in its own event): no values
                          effects=[fx.count(counter_key(seat, "silver"), -SILVER_PER_TREASURE, None),
                                   fx.count(SUPPLY_KEY, SILVER_PER_TREASURE, None),
                                   fx.count(counter_key(seat, "treasure"), 1, self.treasure[seat]),
                                   fx.score(seat, 1)])
            if self.treasure[seat] >= TREASURE_TO_WIN:
                self._win_now(seat)
                return True
        return False

    def _coins_arriving(self, seat: int, n: int, source: str) -> tuple[int, bool]:
        """(How many of ``n`` Silver coming to ``seat``'s Ship Board one coin at a time arrive, whether a
        5-Silver exchange happens on the way), as the coin loops take them: until the supply is empty
        (``source`` the supply's key) or a 6th Treasure ends the game (rulebook: Ending the Game; the
        rest are never taken). Read-only."""
        silver, supply, treasure = self.silver[seat], self.supply, self.treasure[seat]
        got = 0
        exchanged = False
        while got < n and treasure < TREASURE_TO_WIN and (source != SUPPLY_KEY or supply > 0):
            got += 1
            silver += 1
            if source == SUPPLY_KEY:
                supply -= 1
            if silver >= SILVER_PER_TREASURE:
                silver -= SILVER_PER_TREASURE
                supply += SILVER_PER_TREASURE
                treasure += 1
                exchanged = True
        return got, exchanged

    def _coins_effects(self, seat: int, n: int, source: str, source_now: int) -> list[dict[str, Any]]:
        """The effects of ``n`` Silver coming to ``seat``'s Ship Board one coin at a time, as the coin loops do.

        ``source`` is the key of the counter the coins leave (the supply, Skull Island, another ship's
        Silver) and ``source_now`` its value; only the supply can run dry. Counts the coins that arrive
        before the supply is empty or a 6th Treasure ends the game; the new values of the Ship Board's
        Silver and of the supply are given only when no 5-Silver exchange (an event of its own, which
        returns coins to the supply) happens on the way. Read-only.
        """
        got, exchanged = self._coins_arriving(seat, n, source)
        if not got:
            return []
        out = [fx.count(counter_key(seat, "silver"), got, None if exchanged else self.silver[seat] + got)]
        out.append(fx.count(source, -got, None if exchanged and source == SUPPLY_KEY else source_now - got))
        return out

    def _gain_silver(self, seat: int, n: int, why: str, faces: str = "") -> None:
        """Take up to ``n`` Silver from the supply, coin by coin (each may complete a Treasure and end the game).

        The event says ``why`` (followed by ``n`` ``faces`` when given: "collects 2 Silver faces").
        """
        if n <= 0:
            return
        if not self.quiet:
            if faces:
                why = f"{why} {counted(n, faces)}"
            short = self.supply < n
            taken = self._coins_arriving(seat, n, SUPPLY_KEY)[0]
            cut = taken < n and not short  # short: the supply's words say it
            self.emit("silver", seat, f"{PLAYER[seat]} {why}: +{f'{taken} of {n}' if cut else n} Silver"
                      + (f" (the supply holds only {self.supply} now)" if short else "")
                      + (" (the 6th Treasure ends the game)" if cut else "") + ".",
                      {"silver": n}, effects=self._coins_effects(seat, n, SUPPLY_KEY, self.supply))
        silver = self.silver
        for got in range(n):
            if SILVER_TOTAL - coins_on_ships(silver) - self.island <= 0:
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
                why = f"{why} {counted(n, faces)}"
            wasted = n - gain
            self.emit("grog", seat, f"{PLAYER[seat]} {why}: +{gain} Grog (dial {self.grog[seat]}/{GROG_MAX})"
                      + (f", {wasted} wasted" if wasted else "") + ".", {"grog": gain, "wasted": wasted},
                      effects=[fx.count(counter_key(seat, "grog"), gain, self.grog[seat])] if gain else None)
