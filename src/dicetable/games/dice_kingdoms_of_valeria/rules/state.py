"""Dice Kingdoms of Valeria state: set-up, public queries and views.

The fields are declared in ``fields`` (:class:`~.fields.DiceKingdomsFields`);
the turn's rules live in the phase classes this class extends (one chain),
one module per phase: ``turn`` (Roll Phase, end of turn and game), ``harvest``,
``actions``, ``rewards`` (Reward chains and marking) and ``solo`` (Events).
"""

from __future__ import annotations

from typing import Any, Final

from dicetable.engine import Action, ScoreLine, ScoreSheet, TieMeasure, outcome_text, seat_name
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from .consts import CARD_BACK, CARD_ID, CARD_KIND, DRAFT_LINE, EVENTS, EVENT_IDS, N_CARDS
from ..layout import LAYOUTS
from .tables import (
    ACTION, ACTIONS, DRAFT, EVENT, HARVEST, KIND_CODE, OVER, REWARD_AUTOS, STAGE_ACTION,
    STAGE_HARVEST2, TASK_NAMES, _NAME,
)
from .scoring import score_sheet, sheet_view, solo_result
from .turn import TurnMixin


_WHERE: Final = {HARVEST: "Harvest", DRAFT: "Harvest Statue draft", ACTION: "Action phase", EVENT: "Event phase"}


class DiceKingdomsState(TurnMixin):
    """A game of Dice Kingdoms of Valeria (1-5 players; 1 = the solo game).

    The fields are declared in :class:`~.fields.DiceKingdomsFields` (the root
    of the chain of phase classes). Pending work is the engine's task stack (``tasks``)
    and, during a Harvest, one lane per seat (``lanes``); see :meth:`seat_tasks`.
    """

    __slots__ = ()

    # ------------------------------------------------------------ set-up
    def _setup(self) -> None:
        season = self.options["sheets"]
        self.lay = lay = LAYOUTS[season]
        self.acts = ACTIONS[season]
        self.tasks = []
        self.lanes = None
        n = self.players
        self.sheets = [list(lay.fresh_sheet) for _ in range(n)]
        self.totals = [-1] * n  # each seat's running score, worked out at its first mark
        day = [c for c in range(N_CARDS) if CARD_BACK[c] == 0]
        night = [c for c in range(N_CARDS) if CARD_BACK[c] == 1]
        self.shuffle(day)
        self.shuffle(night)
        deck = night + day  # the top of the deck is the end of the list: Day on top of Night
        self.line = tuple(deck.pop() for _ in range(DRAFT_LINE))
        self.deck = tuple(deck)
        self.lair_first = [-1] * len(lay.lair_ids)
        self.last_round = False
        self.acted = False
        self.drafter = -1
        self.trees = 0
        self.ships = 0
        self.no_blue = False
        self.drought = False
        self.harvest_no = 0
        self.events_drawn = ()
        if n == 1:
            ev = list(range(len(EVENTS)))
            self.shuffle(ev)
            self.event_deck = tuple(ev)
        else:
            self.event_deck = ()
        self.round_no = 0
        self.turn_no = 0
        self.menu = None
        self.dice = (0, 0, 0, 0, 0, 0)
        self.phase = ACTION
        self.stage = STAGE_ACTION
        self.first = self.randbelow(n) if n > 1 else 0
        self.active = self.first
        self.emit("setup", None,
                  f"{lay.data.name}; {_NAME[self.first]} is the first Active Player. "
                  "Statue draft line: " + ", ".join(f"Statue {CARD_KIND[c] + 1}" for c in self.line) + ".",
                  {"first": self.first, "line": [CARD_ID[c] for c in self.line], "sheets": season},
                  effects=[fx.reveal(f"draft-{i}", "draft") for i in range(len(self.line))])
        self._start_turn(self.first)
        self.run()

    def _after_restore(self) -> None:
        season = self.options["sheets"]
        self.lay = lay = LAYOUTS[season]
        self.acts = ACTIONS[season]
        self.menu = None
        self.totals = [-1] * self.players  # not saved: worked out again at each seat's next mark
        if len(self.sheets) != self.players or any(len(s) != lay.size for s in self.sheets):
            raise ValueError("one sheet of the season's size per seat is needed")
        if self.lanes is not None and len(self.lanes) != self.players:
            raise ValueError("one lane of tasks per seat is needed")
        for stack in [self.tasks, *(self.lanes or ())]:
            for task in stack:
                if task[0] not in self.TASK_KINDS:
                    raise ValueError(f"unknown task {task!r}")

    # ------------------------------------------------------------ public queries
    @property
    def scores(self) -> list[int]:
        return [self.score_parts(s)["total"] for s in range(self.players)]

    @property
    def winners(self) -> tuple[int, ...]:
        """Most VP; ties: most Star pips; then shared. Solo: (0,) with 60 or more VP."""
        if self.phase != OVER:
            return ()
        parts = [self.score_parts(s) for s in range(self.players)]
        if self.players == 1:
            return (0,) if parts[0]["total"] >= 60 else ()
        best = max((p["total"], p["stars"]) for p in parts)
        return tuple(s for s, p in enumerate(parts) if (p["total"], p["stars"]) == best)

    def seat_tasks(self, seat: int) -> list[Task]:
        """``seat``'s pending Reward-chain tasks ``(kind, seat, arg)``, the next one last (read-only).

        During a Harvest this is the seat's lane; otherwise the Reward tasks of
        ``seat`` on top of the engine's stack (rulebook: Reward Pips: each
        chain is resolved at once, to its end). Kinds are ``KIND_CODE`` keys.
        """
        lanes = self.lanes
        if lanes is not None:
            return list(lanes[seat])
        tasks = self.tasks
        i = len(tasks)
        while i and tasks[i - 1][1] == seat and tasks[i - 1][0] in KIND_CODE:
            i -= 1
        return tasks[i:]

    def pending_rewards(self, seat: int) -> list[int]:
        """The codes (``TASK_NAMES`` keys) of :meth:`seat_tasks`, the next one last."""
        return [KIND_CODE[t[0]] for t in self.seat_tasks(seat)]

    def preview(self, action: Action, seat: int) -> "DiceKingdomsState":
        """A quiet copy in which ``seat`` took ``action`` and resolved its own automatic Reward tasks.

        The copy stops at ``seat``'s next choice or at the end of its Reward
        chain: the turn does not move on (no other seat's tasks, no end of the
        Harvest, no Statue draft, no new roll), so every candidate action is
        judged on the same information (the greedy bot's one-step look-ahead).
        ``action`` must come from ``legal_actions(seat)``; this state is
        unchanged. Returns the copy (its log lacks these events).
        """
        twin = self.clone()
        twin.quiet = True
        lanes = twin.lanes
        if lanes is not None:  # the seat's lane is, for the look-ahead, the stack itself
            main = twin.tasks
            twin.lanes = None
            twin.tasks = lanes[seat]
        flow = twin._FLOW
        tasks = twin.tasks
        task = tasks.pop()
        flow["resolve"][task[0]](twin, task, action)
        autos = flow["auto"]
        while tasks and tasks[-1][1] == seat and tasks[-1][0] in REWARD_AUTOS:
            task = tasks.pop()
            autos[task[0]](twin, task)
        if lanes is not None:
            twin.tasks = main
            twin.lanes = lanes
        twin.quiet = False
        return twin

    def _where(self) -> str:
        where = _WHERE[self.phase]
        if self.stage == STAGE_HARVEST2:  # solo: the Harvest with new black dice after the Action
            return "2nd " + where
        return where

    # ------------------------------------------------------------ scoring
    def score_parts(self, seat: int) -> dict[str, Any]:
        """The Score Tally of ``seat``: stars, domains, lairs, statues (with each Statue's VP), total."""
        return score_sheet(self.lay, self.sheets[seat])

    def score_sheet(self) -> ScoreSheet:
        """The Score Tally of every seat (rulebook: Scoring; solo: Solo Rules, Scoring).

        The four scoring segments: Star pips (Statue 14 counts as 3), Claimed
        Domains, Monster Lairs and Statue Cards. "In case of a tie, the player
        with the most Star pips is the winner. If a tie persists, the tied
        players share their glorious victory." Solo: there is no opponent; a
        score of 60 VP or more wins, and the rulebook's title for the score is named.
        """
        measures = (TieMeasure("Star pips", shown=False),)  # the Star pips category itself: no second column
        winners = self.winners
        lines = []
        for s in range(self.players):
            p = self.score_parts(s)
            lines.append(ScoreLine(seat_name(s), s, (p["stars"], p["domains"], p["lairs"], p["statues"]),
                                   p["total"], (p["stars"],), s in winners))
        if self.players == 1:
            title, text = solo_result(lines[0].total)
            verdict = "a win (60 VP or more)" if winners else "not a win (fewer than 60 VP)"
            outcome = f"{lines[0].name} scores {lines[0].total}: {title}, {verdict}. {text} (rulebook: Solo Rules)"
        else:
            outcome = outcome_text(lines, measures, "rulebook: Scoring")
        return ScoreSheet(("Star pips", "Claimed Domains", "Monster Lairs", "Statue Cards"), tuple(lines),
                          outcome, "rulebook: Scoring", measures)

    # ------------------------------------------------------------ views
    def _observation(self, seat: int | None) -> dict[str, Any]:
        """The whole table (all sheets are public) and the decks as counts; never a deck's order."""
        lay = self.lay
        n_day = sum(1 for c in self.deck if CARD_BACK[c] == 0)
        players = [sheet_view(lay, sh) for sh in self.sheets]
        obs: dict[str, Any] = {
            "game": self.game_id,
            "sheets": lay.season,
            "seat": seat,
            "phase": self.phase,
            "round": self.round_no,
            "turn": self.turn_no,
            "active": self.active,
            "first_player": self.first,
            "last_round": self.last_round,
            "dice": {"black": list(self.dice[:2]), "yellow": self.dice[2], "red": self.dice[3],
                     "green": self.dice[4], "blue": self.dice[5]},
            "statue_line": [CARD_ID[c] for c in self.line],
            "statue_deck": {"day": n_day, "night": len(self.deck) - n_day},
            "lair_first": list(self.lair_first),
            "players": players,
            "deciding": list(self.to_move),
            "scores": [p["score"]["total"] for p in players],
            "winners": list(self.winners),
        }
        if seat is not None and 0 <= seat < self.players:
            obs["my_tasks"] = [TASK_NAMES[KIND_CODE[t[0]]] for t in self.seat_tasks(seat)]
        if self.players == 1:
            obs["solo"] = {"trees": self.trees, "ships": self.ships,
                           "events_drawn": [EVENT_IDS[e] for e in self.events_drawn],
                           "event_deck": len(self.event_deck), "heavy_rain": self.no_blue,
                           "drought": self.drought,
                           # From the 2nd Harvest on, the black dice are the ones rolled again for it.
                           "second_harvest": self.stage == STAGE_HARVEST2,
                           "result": solo_result(self.scores[0])[0] if self.phase == OVER else None}
        return obs

    def _determinize(self, seat: int) -> None:
        # Hidden from everyone: the Statue deck order (backs show Day over Night) and the Event deck.
        deck = list(self.deck)
        n_night = sum(1 for c in deck if CARD_BACK[c] == 1)
        night, day = sorted(deck[:n_night]), sorted(deck[n_night:])  # canonical order first
        self.shuffle(night)
        self.shuffle(day)
        self.deck = tuple(night + day)
        ev = sorted(self.event_deck)
        self.shuffle(ev)
        self.event_deck = tuple(ev)
