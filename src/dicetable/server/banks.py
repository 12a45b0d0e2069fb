"""Chess-style clocks: a time bank per seat, spent while the seat is to move, topped up after each turn.

A table created with a bank (``bank`` seconds, ``increment`` seconds, an
optional ``bank_max``) gives every seat ``bank`` seconds. A human seat is
*on the clock* while it is to move and not played by its bot; its bank runs
down from the moment its turn starts. One turn is every decision the seat
makes until it is no longer to move (another seat is, or the game ended): a
turn of several decisions is charged once, when it ends, and only then is
``increment`` added (never above ``bank_max`` when there is one). When a
running bank reaches zero the seat's bot plays for it (the manager does, as
with the per-decision ``clock``); the bank stays at zero until the turn
ends and the increment comes.

Times are POSIX seconds from the manager's ``now`` (injected in tests). The
state is kept with the table (``tables.time_bank``, JSON) after every turn
change, so a table rebuilt after a restart goes on where it was: a running
turn keeps running from when it started (a turn-based table's days count
while nobody is connected, as they should).

:data:`PRESETS` are the lobby's clocks, from a fast game to turn-based
play; ``clock`` presets are the per-decision clock of old (seconds per
decision, the bank's place taken by a fresh allowance at each decision).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterable, Sequence

DAY = 24 * 3600

#: The lobby's clock presets, fastest first: each a name and the create body's fields it stands for.
PRESETS: tuple[dict, ...] = (
    {"id": "fast", "name": "fast: 3 min + 10 s a turn", "bank": 180, "increment": 10},
    {"id": "standard", "name": "standard: 10 min + 20 s a turn", "bank": 600, "increment": 20},
    {"id": "relaxed", "name": "relaxed: 30 min + 1 min a turn", "bank": 1800, "increment": 60},
    {"id": "decision-30s", "name": "30 s a decision", "clock": 30},
    {"id": "decision-2min", "name": "2 min a decision", "clock": 120},
    {"id": "daily", "name": "turn-based: 1 day a turn (up to 3 days saved)", "bank": DAY, "increment": DAY,
     "bank_max": 3 * DAY},
    {"id": "weekly", "name": "turn-based: 3 days a turn (up to 7 days saved)", "bank": 3 * DAY,
     "increment": 3 * DAY, "bank_max": 7 * DAY},
    {"id": "slow", "name": "turn-based: 7 days a turn (up to 14 days saved)", "bank": 7 * DAY,
     "increment": 7 * DAY, "bank_max": 14 * DAY},
)

#: A bank whose increment is at least this many seconds is turn-based play (the lobby's "turn-based" clocks).
TURN_BASED = 12 * 3600

#: What happens when a running bank reaches zero: ``bot`` (the seat's bot plays that turn; its holder
#: takes the seat back when they return) or ``forfeit`` (the seat forfeits: placed last, its bot plays on).
ON_EMPTY = ("bot", "forfeit")

#: Least and most seconds a bank may start with, and the most an increment may add.
MIN_BANK, MAX_BANK, MAX_INCREMENT = 10, 14 * DAY, 7 * DAY


@dataclass
class TimeBank:
    """The banks of one table. ``left[s]`` is seat s's bank in seconds as of the start of its running
    turn (or the end of its last one); ``since[s]`` when its running turn started (None: not on the clock)."""

    bank: int
    increment: int
    bank_max: int | None
    left: list[float] = field(default_factory=list)
    since: list[float | None] = field(default_factory=list)
    #: the rule when a bank runs out (one of :data:`ON_EMPTY`; None: ``forfeit`` at a rated table, else ``bot``)
    on_empty: str | None = None
    #: the seats that forfeited (their bank ran out under the ``forfeit`` rule), in the order they did
    forfeited: list[int] = field(default_factory=list)

    @classmethod
    def new(cls, players: int, bank: int, increment: int = 0, bank_max: int | None = None,
            on_empty: str | None = None) -> "TimeBank":
        """Every one of ``players`` seats with a full bank, none on the clock."""
        return cls(bank, increment, bank_max, [float(bank)] * players, [None] * players, on_empty)

    @property
    def turn_based(self) -> bool:
        """True for turn-based play: at least :data:`TURN_BASED` seconds added after each turn."""
        return self.increment >= TURN_BASED

    def waiting_since(self, seats: Iterable[int]) -> float | None:
        """When the earliest running turn of ``seats`` began (None: none of them is on the clock)."""
        starts = [self.since[s] for s in seats if 0 <= s < len(self.since) and self.since[s] is not None]
        return min(s for s in starts if s is not None) if starts else None

    def remaining(self, seat: int, now: float) -> float:
        """Seconds left in ``seat``'s bank at ``now`` (never below 0)."""
        since = self.since[seat]
        return max(0.0, self.left[seat] - (now - since if since is not None else 0.0))

    def settle(self, on_clock: Iterable[int], now: float) -> bool:
        """The seats ``on_clock`` are to move now: end the turns of the others (charge the time they
        used, add the increment) and start the turns of those not yet running. True when anything changed."""
        running = set(on_clock)
        changed = False
        for seat, since in enumerate(self.since):
            if since is not None and seat not in running:
                topped = self.remaining(seat, now) + self.increment
                self.left[seat] = min(topped, self.bank_max) if self.bank_max is not None else topped
                self.since[seat] = None
                changed = True
            elif since is None and seat in running:
                self.since[seat] = now
                changed = True
        return changed

    def next_flag(self) -> tuple[float, int] | None:
        """``(time, seat)`` of the earliest running bank to reach zero (None: no bank is running)."""
        ends = [(since + self.left[seat], seat) for seat, since in enumerate(self.since) if since is not None]
        return min(ends) if ends else None

    def to_view(self) -> dict:
        """The view's ``time_bank``: the settings, and each seat's ``left`` and ``since`` (the page counts
        a running bank down as ``left - (now - since)``)."""
        return {"bank": self.bank, "increment": self.increment, "bank_max": self.bank_max,
                "left": [round(x, 3) for x in self.left], "since": list(self.since),
                "turn_based": self.turn_based, "on_empty": self.on_empty, "forfeited": list(self.forfeited)}

    def to_text(self) -> str:
        """The stored form (JSON text)."""
        return json.dumps({"bank": self.bank, "increment": self.increment, "bank_max": self.bank_max,
                           "left": self.left, "since": self.since, "on_empty": self.on_empty,
                           "forfeited": self.forfeited})

    @classmethod
    def from_text(cls, text: str) -> "TimeBank":
        """Read the stored form back (ValueError for text that is not one)."""
        data = json.loads(text)
        return cls(int(data["bank"]), int(data["increment"]), data.get("bank_max"),
                   [float(x) for x in data["left"]], [None if x is None else float(x) for x in data["since"]],
                   data.get("on_empty"), [int(x) for x in data.get("forfeited") or []])


def places_with_forfeits(places: Sequence[int], forfeited: Iterable[int]) -> list[int]:
    """The places of a finished table once its forfeits count: every seat that forfeited is placed
    after every seat that did not (they share the last place among themselves); the others keep their
    order by ``places`` (1 = first; shared places stay shared), renumbered from 1 as competition
    ranks (1, 1, 3, ...). ``places[s]`` is seat s's place by the rulebook's scoring."""
    lost = set(forfeited)
    stay = [s for s in range(len(places)) if s not in lost]
    out = [0] * len(places)
    for s in stay:
        out[s] = 1 + sum(1 for o in stay if places[o] < places[s])
    for s in lost:
        out[s] = len(stay) + 1
    return out


def check(bank: int | None, increment: int | None, bank_max: int | None, clock: int | None) -> str | None:
    """What is wrong with a create body's clock fields (None: nothing): one sentence naming what is allowed."""
    if bank is None:
        if increment is not None or bank_max is not None:
            return "increment and bank_max go with a bank: give bank (seconds each player starts with) too"
        return None
    if clock is not None:
        return ("give either clock (seconds per decision) or bank (a time bank per player, with an "
                "increment per turn), not both")
    if not MIN_BANK <= bank <= MAX_BANK:
        return f"bank is the seconds each player starts with: {MIN_BANK} to {MAX_BANK}, not {bank}"
    if increment is not None and not 0 <= increment <= MAX_INCREMENT:
        return f"increment is the seconds added after each turn: 0 to {MAX_INCREMENT}, not {increment}"
    if bank_max is not None and not bank <= bank_max <= MAX_BANK:
        return f"bank_max is the most a bank may hold: from bank ({bank}) to {MAX_BANK}, not {bank_max}"
    return None
