"""The Corsairs of Valeria state: set-up, public queries and the observation; the fields are declared in
:mod:`.fields`, and the rules themselves are the phase classes of :mod:`.roll`, :mod:`.actions`, :mod:`.sailing`, :mod:`.coins` and :mod:`.end`.
"""

from __future__ import annotations

from typing import Any, Final

from dicetable.engine import GameConfigError, ScoreLine, ScoreSheet, TieMeasure, outcome_text, seat_name

from ..components import Layout, layout_name, parse_layout, race_track
from .consts import (
    CAPTAINS, COLOURS, DIE_FACES, GROG_START, ISLAND_START, SILVER_START, SILVER_TOTAL, TRACKS, TRACKS_USED,
    TREASURE_START,
)
from .common import (
    GROUP_IDS,
    OVER,
    PLAYER,
    captain_name,
    shown_kind,
)
from .fields import race_number
from .options import parse_captains
from .roll import Rolling


class CorsairsState(Rolling):
    """A game of Corsairs of Valeria for 2-5 players.

    Fields (seats index the lists): ``pos`` node of each Ship on ``track``
    (a compiled :class:`~.components.RaceTrack`, shared, rebuilt from
    ``layout`` on restore), ``grog`` 0-4, ``silver`` coins on each Ship
    Board, ``treasure`` 0-6, ``captain`` index into ``CAPTAINS`` (-1 none);
    ``island`` Silver on Skull Island; ``visits`` Skull Island arrivals so
    far; ``current`` the seat whose turn it is; ``turn`` turns begun;
    ``phase`` "A"-"D" or "over"; ``dice`` the 5 face codes (sorted),
    ``marked`` a bit per die to re-roll, ``rerolls`` re-rolls this turn;
    ``left`` the symbol counts of phase C not yet executed (Grog, Silver,
    Maps, Cannons); ``flags`` bits of the turn (F_*); ``winner6`` the seat
    that gained the 6th Treasure (-1: none); ``tasks`` the pending tasks
    (see the package docstring). The fields are declared in
    :class:`~.fields.CorsairsFields`; the task handlers are the phase classes,
    one chain of single inheritance (so that every one is a native class in the
    compiled build): :class:`~.end.Ending` on the fields, then
    :class:`~.coins.Coins`, :class:`~.sailing.Sailing`,
    :class:`~.actions.DiceActions` and :class:`~.roll.Rolling`, which this class extends.
    """

    # ============================================================ set-up
    def _setup(self) -> None:
        n = self.players
        self.captain = self._deal_captains(str(self.options["captains"]))
        tracks = str(self.options["tracks"]).strip()
        if tracks == "random":
            order = list(range(len(TRACKS)))
            self.shuffle(order)
            layout: Layout = tuple((t, self.randbelow(2)) for t in order[:TRACKS_USED])
        else:
            try:
                layout = parse_layout(tracks)
            except ValueError as exc:
                raise GameConfigError(f"option 'tracks': {exc}; or 'random'") from None
        self._set_layout(layout)
        self.pos = [self.track.start] * n
        self.grog = [GROG_START] * n
        self.silver = [SILVER_START] * n
        self.treasure = [TREASURE_START] * n
        self.island = ISLAND_START
        self.visits = 0
        self.turn = 0
        self.dice = []
        self.marked = 0
        self.rerolls = 0
        self.left = [0, 0, 0, 0]
        self.flags = 0
        self.winner6 = -1
        first = str(self.options["first_player"])
        if first == "random":
            self.current = self.randbelow(n)
        else:
            if not (first.isascii() and first.isdigit()) or not 1 <= int(first) <= n:
                raise GameConfigError(f"option 'first_player' must be 'random' or 1..{n}, got {first!r}")
            self.current = int(first) - 1
        self.phase = "A"
        self.emit("setup", None, "The race track: Start Island, " + ", ".join(
            title for title, _ in self.track.segments[1:-1]) + f", Skull Island ({ISLAND_START} Silver).",
            {"tracks": layout_name(layout)})
        for s in range(n):
            self.emit("captain", s, f"{PLAYER[s]} ({COLOURS[s]} ship) is {captain_name(self.captain[s])}.",
                      {"captain": CAPTAINS[self.captain[s]].id if self.captain[s] >= 0 else None})
        self.emit("first", self.current, f"{PLAYER[self.current]} starts.")
        self.tasks = [("turn", self.current)]
        self.lanes = None
        self.run()

    def _deal_captains(self, text: str) -> tuple[int, ...]:
        chosen = parse_captains(text, self.players)
        if chosen is None:  # "random": deal from the shuffled Captain cards
            deck = list(range(len(CAPTAINS)))
            self.shuffle(deck)
            return tuple(deck[:self.players])
        return chosen

    def _after_restore(self) -> None:
        """Rebuild the compiled race track; refuse a table no game can reach (ValueError)."""
        self.track = race_track(self.layout)
        n = self.players
        if not all(len(x) == n for x in (self.captain, self.pos, self.grog, self.silver, self.treasure)):
            raise ValueError("captains, pos, grog, silver and treasure need one entry per seat")
        if any(not 0 <= x < len(self.track) for x in self.pos):
            raise ValueError("a ship is off the race track")
        if self.phase not in ("A", "B", "C", "D", OVER):
            raise ValueError(f"unknown phase {self.phase!r}")
        for t in self.tasks:
            if not t or t[0] not in self.TASK_KINDS:
                raise ValueError(f"unknown task {list(t)!r}")
        if self.lanes is not None:
            raise ValueError("Corsairs of Valeria has no simultaneous decisions (lanes must be null)")
        if (self.phase == OVER) != (not self.tasks):
            raise ValueError("a game in progress needs pending tasks, a finished one none")
        if SILVER_TOTAL - sum(self.silver) - self.island < 0:
            raise ValueError("more Silver on the table than the game has")

    # ============================================================ public queries
    @property
    def scores(self) -> list[int]:
        """Treasure per seat (the rulebook's measure; ties broken in ``winners``)."""
        return list(self.treasure)

    @property
    def winners(self) -> tuple[int, ...]:
        """The 6th-Treasure winner; else most Treasure, then Silver, then Grog; still tied: all share."""
        if self.phase != OVER:
            return ()
        if self.winner6 >= 0:
            return (self.winner6,)
        keys = [(self.treasure[s], self.silver[s], self.grog[s]) for s in range(self.players)]
        best = max(keys)
        return tuple(s for s, k in enumerate(keys) if k == best)

    def score_sheet(self) -> ScoreSheet:
        """The score table (rulebook: Ending the Game): Treasure, then Silver and Grog as tie-breaks.

        The only scoring category is Treasure; "In the event of a tie, the
        tied player with the most Silver wins. If still a tie, then the tied
        player with the most Grog wins. If still a tie, then all tied players
        share the victory." A 6th Treasure ends the game at once and wins.
        """
        measures = (TieMeasure("Silver"), TieMeasure("Grog"))
        winners = self.winners
        lines = tuple(ScoreLine(seat_name(s), s, (self.treasure[s],), self.treasure[s],
                                (self.silver[s], self.grog[s]), s in winners) for s in range(self.players))
        source = "rulebook: Ending the Game"
        if self.winner6 >= 0:
            outcome = f"{seat_name(self.winner6)} gains a 6th Treasure: the game ends at once and they win ({source})."
        else:
            outcome = outcome_text(lines, measures, source)
        return ScoreSheet(("Treasure",), lines, outcome, source, measures)

    @property
    def waiting_for(self) -> str | None:
        """The kind of decision the game waits on (``"reroll"``, ``"move"``...; see TASK_KINDS), None when over."""
        tasks = self.tasks
        return shown_kind(tasks[-1][0]) if tasks else None


    # ============================================================ views
    def _observation(self, seat: int | None) -> dict[str, Any]:
        """Everything is public in Corsairs of Valeria: the whole table, dice and pending tasks."""
        track = self.track
        return {
            "game": self.game_id,
            "seat": seat,
            "turn": self.turn,
            "current": self.current,
            "phase": self.phase,
            "race": race_number(self),
            "skull_island_visits": self.visits,
            "tracks": layout_name(self.layout),
            "skull_island_silver": self.island,
            "supply": self.supply,
            "ships": [
                {"seat": s, "colour": COLOURS[s],
                 "captain": CAPTAINS[self.captain[s]].id if self.captain[s] >= 0 else None,
                 "node": self.pos[s], "space": track.label[self.pos[s]],
                 "to_skull_island": track.dist[self.pos[s]],
                 "grog": self.grog[s], "silver": self.silver[s], "treasure": self.treasure[s]}
                for s in range(self.players)
            ],
            "dice": [DIE_FACES[f] for f in self.dice],
            "marked": [i + 1 for i in range(len(self.dice)) if (self.marked >> i) & 1],
            "rerolls": self.rerolls,
            "to_execute": {GROUP_IDS[g]: self.left[g] for g in range(4)},
            "flags": self.flags,
            "pending": [[shown_kind(t[0]), *t[1:]] for t in self.tasks],
            "waiting_for": self.waiting_for,
            "is_over": self.phase == OVER,
            "winners": list(self.winners),
        }



#: The task kinds as observations name them (``waiting_for``, ``pending``), in a fixed order (encodings use it).
TASK_KINDS: Final = ("turn", "roll", "reroll", "captain-b", "execute", "skull5", "give", "skulls", "gain-grog", "order",
                     "jaxn-grog", "end-c", "move", "back", "cannons", "jager", "end-turn")
assert {shown_kind(k) for k in CorsairsState.TASK_KINDS} == set(TASK_KINDS)
