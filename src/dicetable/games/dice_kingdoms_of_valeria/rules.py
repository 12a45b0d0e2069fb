"""Dice Kingdoms of Valeria rules: the turn as a phase machine plus per-seat task stacks.

Rulebook sections implemented: Game Setup, Player Sheets (marking rules),
Game Flow (Roll, Harvest, Action), Dice Actions, Reward Pips, Statue Cards,
Domain Powers, Scoring, Solo Rules and the Winter Rules.

State in brief
--------------
Each seat's two sheets are one flat list of ints (``sheets[seat]``; offsets in
``components``): pips marked per section, counted from the section's start
(so a pip can never be skipped), claimed Domains and Statues as bit masks,
and each Road's marked count and direction. Pending work is a stack of plain
``(code, arg)`` tuples per seat (``tasks[seat]``): Reward Pips to resolve,
the Harvest fallback, Statue picks, the Guild Strike choice. A task resolves
itself when there is nothing to choose (or only one way), otherwise it is
the seat's decision. Phases: ``event`` (solo), ``harvest`` (every seat at
once), ``draft`` (Statue picks after a Harvest, one seat at a time),
``action`` (the Active Player), ``over``.

Orders (deterministic, documented)
----------------------------------
* Harvest: activated Citizens are counted before anything is marked
  (Citizens gained during the Harvest harvest from the next one on), then
  resolved from the lowest Citizen value to the highest, each die and the sum
  separately (doubles activate a Citizen twice). Their Guild Track pips are
  marked and the Reward Pips on them resolve in marking order, each chain to
  its end (depth first) before the next.
* Several pips marked at once (a Build, a Harvest) resolve their Rewards in
  marking order; a Domain claimed by the last pip of a Build resolves its
  instant Citizen after that pip's Reward.
* The Slay action's extra Gold comes after the marked pip's Reward chain.
* A Reward with nowhere to go is lost (a full section, no usable Road, no
  open or accessible lair, no Statue you may take).

Rule decisions where the rulebook is silent (each tested)
---------------------------------------------------------
* The Build marks *up to* the Green (+Blue) value: the player chooses how
  many pips (1 to the value), and must stop at a Domain or dead end.
* Domain powers are chosen together with the action: the legal actions list
  every Recruit / Slay / Build target some combination of unused powers
  (each once, no wrap, flip = 7 - x) and the optional Blue die can reach; the
  label says how. The result is the same as applying the powers one by one.
* An action that can mark nothing is not offered; when no action can mark a
  pip the Active Player takes none. (The Slay action's +1 Gold needs a
  marked lair pip.)
* Roads (layout reading 2.2): a start Road continues from its starting pip, a
  spur from its Domain, a link Road from either claimed end; once begun, a
  Road is only continued from where it began. Reaching a claimed Domain
  claims nothing new (a Road Reward's label then says "already claimed").
* An instant Citizen marks the leftmost open pip of that guild (the lowest
  valued section with an open pip), as in the rulebook's example.
* Harvest Statue draft: after every seat has harvested, first-Lair priority
  is settled in turn order from the Active Player, then each seat that
  marked Plinths takes all its Statues in turn order from the Active Player;
  Statues 12-14 taken then resolve at once, and a Plinth they mark is taken
  at once. The draft line is refilled after the draft.
* A Plinth that cannot give a Statue (4 held, or only duplicates in the line)
  is lost; the pip still counts for Statues 3 and 7.
* Harvest marks are public as they are made (sheets lie open; the first to
  complete a lair announces it). Because priority goes by turn order, not by
  who decides first, the order in which seats decide changes nothing.
* Solo: only the trees end the game, unless option ``solo_track_trigger``;
  a solo game counts as won (``winners == (0,)``) with 60 or more points.
* Solo Events (reconstructed) resolve before the first Harvest; Heavy Rain
  and Drought last for the turn. A Trailhead on a voided Domain still opens
  its lair (Wildfire takes the power and the Domain point only).
* The first player is drawn at random from the seed.
"""

from __future__ import annotations

import operator
from functools import lru_cache

from dicetable.engine import (
    LIST, ROWS, Action, Decision, Field, FlowState, auto, choices, int_list, int_rows, int_tuple, prompt,
    resolve, seat_name,
)

from .components import (
    ACC, BLACK_DIE, CARD_BACK, CARD_ID, CARD_INDEX, CARD_KIND, CIT, CITV, COLOUR_DIE, COLOURS,
    DOM, DRAFT_LINE, END_TRACKS, EVENT_IDS, EVENT_INDEX, EVENTS, GOLD, GOLDC, GUILDS, KNIGHT,
    LAIR_HIGH, LAIR_LOW, LAIR_OPEN, LAIR_PENDING, LAYOUTS, LB0, LST, MAX_STATUES, N_CARDS, N_KINDS,
    NSTAT, PLAIN, PLINTH, PLP, RECRUIT, REWARD_NAME, ROAD, SLAY, SOLO_RESULTS, STAR, STAT,
    STATUE_INSTANT, STATUE_STARS, STATUE_TIMES, STATUES, TRK, VBRIDGE, VDOM, VTRK, WALLC,
)
from .dicemath import build_reach, reach


EVENT = "event"
HARVEST = "harvest"
DRAFT = "draft"
ACTION = "action"
OVER = "over"
PHASES = (EVENT, HARVEST, DRAFT, ACTION, OVER)

# Codes of the pending work a seat may have (the reward codes 1..6 are RECRUIT, GOLD, ROAD,
# KNIGHT, SLAY, PLINTH); the policy values pending work by these codes.
T_CITIZEN = 10   # instant Citizen of a guild
T_FALLBACK = 11  # Harvest: nothing marked, mark 1 pip on a Guild Track of your choice
T_PICK = 12      # take a Statue from the draft line (arg 1: refill at once)
T_STRIKE = 13    # Guild Strike: choose among the tied tracks (arg: bit mask)
TASK_NAMES = {1: "Recruit Reward", 2: "Gold Reward", 3: "Road Reward", 4: "Knight Reward",
              5: "Slay Reward", 6: "Plinth Reward", T_CITIZEN: "instant Citizen",
              T_FALLBACK: "Harvest fallback pip", T_PICK: "Statue pick", T_STRIKE: "Guild Strike"}

# Task kinds (engine turn flow: a task is ``(kind, seat, arg)``).
# A seat's pending work (its Reward chain) is automatic tasks, one kind per Reward; those that may
# need a choice resolve on their own when there is one way (or none: the Reward is lost) and
# otherwise become the decision task ``"choose-" + kind``.
#: The automatic task kind of each reward code (index = code; Plain and Star pips are no task).
REWARD_KIND = (None, "recruit", "gold", "road", "knight", "slay", "plinth", None)
#: Reward kinds that may ask the seat to choose, and the decision task each becomes.
CHOOSE = {"recruit": "choose-recruit", "road": "choose-road", "slay": "choose-slay",
          "pick": "choose-pick", "fallback": "choose-fallback", "strike": "choose-strike"}
#: The code (``TASK_NAMES`` key) of every Reward-chain task kind, automatic or decision.
KIND_CODE = {"recruit": 1, "gold": 2, "road": 3, "knight": 4, "slay": 5, "plinth": 6,
             "citizen": T_CITIZEN, "fallback": T_FALLBACK, "pick": T_PICK, "strike": T_STRIKE}
KIND_CODE.update({CHOOSE[k]: KIND_CODE[k] for k in CHOOSE})
#: The automatic Reward-chain kinds (what a one-step look-ahead resolves: see ``preview``).
REWARD_AUTOS = frozenset(k for k in KIND_CODE if not k.startswith("choose-"))

STAGE_EVENT, STAGE_HARVEST1, STAGE_ACTION, STAGE_HARVEST2 = range(4)



def _bits(x: int) -> int:
    return bin(x).count("1")


_BITS = (0, 1, 1, 2)  # pips crossed out in a Citizen section (2-bit mask)
#: "Player 1".. "Player 5" (the kernel's ``seat_name``).
_NAME = tuple(seat_name(s) for s in range(5))
#: Event texts already written: roll texts by dice, Harvest texts by what was marked.
_ROLL_TEXT: dict = {}
_HARVEST_TEXT: dict = {}


class _Actions:
    """Precomputed reward-choice actions of one season (ids are fixed; where a label depends on
    the state, one Action per case: ``road_last`` by what reaching the Domain does, ``slay_low``
    by who crossed out the lair's higher value)."""

    def __init__(self, lay) -> None:
        self.recruit = tuple(
            Action(f"recruit:{name}", f"Mark the {name} Citizen ({GUILDS[lay.cit_guild[s]]})", s)
            for s, name in enumerate(lay.cit_names))
        self.slay = tuple(
            Action(f"slay:{lid}", f"Slay in {lid} {lay.lair_names[i]} "
                   f"({lay.lair_vp[i][0]}/{lay.lair_vp[i][1]} VP)", i)
            for i, lid in enumerate(lay.lair_ids))
        #: slay_low[li][first]: the lair's higher value is crossed out (``lair_first``: -2 by the
        #: solo Rival Hunters, else the seat that completed it first): only the lower value is left.
        self.slay_low = tuple({first: Action(
            f"slay:{lid}", f"Slay in {lid} {lay.lair_names[i]} ({lay.lair_vp[i][1]} VP; "
            f"{lay.lair_vp[i][0]} VP crossed out"
            + (" by Rival Hunters)" if first == -2 else f": {_NAME[first]} completed it first)"), i)
            for first in (-2, *range(5))} for i, lid in enumerate(lay.lair_ids))
        self.road = {}
        #: road_last[(r, d)][reached]: the Road's last pip, by what reaching its far end does
        #: (``_reached``): claims the Domain and its power (or reaches a dead end), nothing new
        #: (already claimed), or claims a voided Domain.
        self.road_last = {}
        #: road_far[(r, d)]: the Domain at the far end (-1 start, -2 dead end).
        self.road_far = {}
        for r in range(lay.nr):
            for d in (1, 2):
                origin, dest = _ends(lay, r, d)
                rid = f"road:{lay.road_ids[r]}@{origin}"
                self.road[(r, d)] = Action(
                    rid, f"Mark a pip on Road {lay.road_ids[r]} from {origin} toward {dest}", (r, d))
                far = self.road_far[(r, d)] = lay.road_b[r] if d == 1 else lay.road_a[r]
                start = f"Mark the last pip of Road {lay.road_ids[r]} from {origin}, reaching "
                if far >= 0:
                    name = f"{lay.dom_ids[far]} {lay.dom_names[far]}"
                    trail = ", ".join(lay.lair_ids[li] for li in range(len(lay.lair_ids))
                                      if lay.dom_trail[far] >> li & 1)
                    whats = (f"{name} ({power_text(lay, far)})", f"{name} (already claimed)",
                             f"{name} (voided: no power, no point)"
                             + (f"; its Trailhead still opens {trail}" if trail else ""))
                else:
                    whats = (f"the dead end {dest}",) * 3
                self.road_last[(r, d)] = tuple(Action(rid, start + what, (r, d)) for what in whats)
        self.fallback = tuple(Action(f"harvest:{g}", f"Mark 1 pip on the {g} Guild Track", i)
                              for i, g in enumerate(GUILDS))
        self.strike = tuple(Action(f"strike:{g}", f"Guild Strike hits the {g} Guild Track", i)
                            for i, g in enumerate(GUILDS))
        self.statue = tuple(Action(f"statue:{k + 1}", f"Take Statue {k + 1}: {STATUES[k].effect}", k)
                            for k in range(N_KINDS))


def _reached(sh: list, far: int) -> int:
    """What the last pip of a Road reaching ``far`` does for sheet ``sh`` (see ``_mark_road``):
    0 claims the Domain with its power (or reaches a dead end), 1 nothing new (already
    claimed), 2 claims a Domain voided by the solo Wildfire (no power, no point)."""
    if far < 0:
        return 0
    if sh[DOM] >> far & 1:
        return 1
    return 2 if sh[VDOM] >> far & 1 else 0


def _ends(lay, r: int, d: int) -> tuple[str, str]:
    """(origin, destination) node ids of Road ``r`` marked from direction ``d``."""
    a, b = lay.road_a_name[r], lay.road_b_name[r]
    return (a, b) if d == 1 else (b, a)


PASS = Action("pass", "Take no action (no die can mark a pip)")

_WHERE = {HARVEST: "Harvest", DRAFT: "Harvest Statue draft", ACTION: "Action phase", EVENT: "Event phase"}
#: What each Reward-chain decision asks: (Decision kind, prompt).
_PROMPTS = {
    "choose-recruit": ("recruit", "Recruit Reward: mark the leftmost open pip of a Citizen section."),
    "choose-road": ("road", "Road Reward: mark a pip to continue a Road or start one from a claimed Domain."),
    "choose-slay": ("slay", "Slay Reward: mark the next pip of the leftmost incomplete Range Block of a lair."),
    "choose-pick": ("statue", "Plinth Reward: take a Statue card from the draft line."),
    "choose-fallback": ("harvest-fallback",
                        "You marked nothing this Harvest: mark 1 pip on a Guild Track of your choice."),
    "choose-strike": ("guild-strike", "Guild Strike: your Guild Tracks with the most marked pips tie; "
                      "choose the one that loses its next Reward Pip."),
}
_LOST_WHY = {"recruit": "no Citizen section has an open pip",
             "road": "no Road can be continued",
             "slay": "no lair you may slay in has an open pip",
             "pick": "you hold 4 Statues or the draft line has only Statues you own",
             "fallback": "every Guild Track is full"}


def _phase(value) -> str:
    value = str(value)
    if value not in PHASES:
        raise ValueError(f"unknown phase {value!r}")
    return value


def _cards_in(value) -> tuple:
    return tuple(CARD_INDEX[c] for c in value)


def _cards_out(value) -> list:
    return [CARD_ID[c] for c in value]


def _events_in(value) -> tuple:
    return tuple(EVENT_INDEX[e] for e in value)


def _events_out(value) -> list:
    return [EVENT_IDS[e] for e in value]


class DiceKingdomsState(FlowState):
    """A game of Dice Kingdoms of Valeria (1-5 players; 1 = the solo game).

    Fields: ``phase``; ``stage`` (event, 1st Harvest, action, 2nd Harvest);
    ``active``/``first`` seats; ``round_no``; ``dice`` = (black, black,
    yellow, red, green, blue); ``sheets[seat]`` (flat ints); ``line``/``deck``
    (Statue card ids 0..27; the deck's top card is last); ``lair_first[lair]``
    (seat that completed it first, -1 nobody yet, -2 higher value crossed out
    by a solo Event); ``last_round``; ``acted``; ``drafter``; solo: ``trees``,
    ``ships``, ``event_deck`` (top last), ``events_drawn``, ``no_blue``,
    ``drought``. Pending work is the engine's task stack (``tasks``) and, during
    a Harvest, one lane per seat (``lanes``); see :meth:`seat_tasks`.
    """

    lay = Field(save=False)       # the season's sheet layout (from the options)
    acts = Field(save=False)      # the season's precomputed reward-choice Actions
    phase = Field(_phase)
    stage = Field(int)
    active = Field(int)
    first = Field(int)
    round_no = Field(int, save="round")
    turn_no = Field(int, save="turn")
    dice = Field(int_tuple)
    sheets = Field(int_rows, copy=ROWS)
    line = Field(_cards_in, encode=_cards_out)
    deck = Field(_cards_in, encode=_cards_out)
    lair_first = Field(int_list, copy=LIST)
    last_round = Field(bool)
    acted = Field(bool)
    drafter = Field(int)
    trees = Field(int)
    ships = Field(int)
    event_deck = Field(_events_in, encode=_events_out)
    events_drawn = Field(_events_in, encode=_events_out)
    no_blue = Field(bool)
    drought = Field(bool)
    harvest_no = Field(int)
    menu = Field(save=False)      # the Action-phase menu once built (until the next action)

    # ------------------------------------------------------------ set-up
    def _setup(self) -> None:
        season = self.options["sheets"]
        self.lay = lay = LAYOUTS[season]
        self.acts = ACTIONS[season]
        self.tasks = []
        self.lanes = None
        n = self.players
        self.sheets = [list(lay.fresh_sheet) for _ in range(n)]
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
                  {"first": self.first, "line": [CARD_ID[c] for c in self.line], "sheets": season})
        self._start_turn(self.first)
        self.run()

    def _after_restore(self) -> None:
        season = self.options["sheets"]
        self.lay = lay = LAYOUTS[season]
        self.acts = ACTIONS[season]
        self.menu = None
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
    def scores(self) -> list:
        return [self.score_parts(s)["total"] for s in range(self.players)]

    @property
    def winners(self) -> tuple:
        """Most VP; ties: most Star pips; then shared. Solo: (0,) with 60 or more VP."""
        if self.phase != OVER:
            return ()
        parts = [self.score_parts(s) for s in range(self.players)]
        if self.players == 1:
            return (0,) if parts[0]["total"] >= 60 else ()
        best = max((p["total"], p["stars"]) for p in parts)
        return tuple(s for s, p in enumerate(parts) if (p["total"], p["stars"]) == best)

    def seat_tasks(self, seat: int) -> list:
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

    # ------------------------------------------------------------ turn flow
    def _start_turn(self, seat: int) -> None:
        """Roll Phase: mark off a tree (solo), roll the six dice, draw a solo Event on doubles."""
        if self.players == 1:
            if self.trees >= self.lay.trees:
                self._game_over("all 20 trees are marked off")
                return
            self.trees += 1
        self.active = seat
        self.turn_no += 1
        if seat == self.first:
            self.round_no += 1
        if self.scripted_dice_left:
            roll = (self.roll(BLACK_DIE), self.roll(BLACK_DIE)) + tuple(self.roll(COLOUR_DIE[c]) for c in COLOURS)
        else:  # the same values, in one call (every die is a d6)
            roll = tuple(self.roll_many(BLACK_DIE, 6))
        self.dice = roll
        self.no_blue = False
        self.drought = False
        self.acted = False
        if not self.quiet:
            when = (f"Turn {self.trees} of {self.lay.trees} (a tree is marked off)" if self.players == 1
                    else f"Round {self.round_no}")
            text = _ROLL_TEXT.get(roll)
            if text is None:
                text = _ROLL_TEXT[roll] = (f"black {roll[0]} and {roll[1]} (sum {roll[0] + roll[1]}), "
                                           f"Yellow {roll[2]}, Red {roll[3]}, Green {roll[4]}, Blue {roll[5]}.")
            self.emit("roll", seat, f"{when}: {_NAME[seat]} rolls {text}",
                      {"dice": list(roll), "round": self.round_no})
        self.phase = EVENT
        self.stage = STAGE_EVENT
        if (self.players == 1 and roll[0] == roll[1] and self.ships < self.lay.ships
                and self.event_deck):
            self.then(("harvest", None, STAGE_HARVEST1))  # after the Event's own tasks, if any
            self._draw_event()
        else:
            self._start_harvest(STAGE_HARVEST1)

    @auto("harvest")
    def _harvest_task(self, task: tuple) -> None:
        self._start_harvest(task[2])

    def _start_harvest(self, stage: int) -> None:
        """Harvest Phase: every seat marks at once (each on its own lane), then the draft follows."""
        self.stage = stage
        self.phase = HARVEST
        if stage == STAGE_HARVEST2:
            b1, b2 = self.roll(BLACK_DIE), self.roll(BLACK_DIE)
            self.dice = (b1, b2) + self.dice[2:]
            if not self.quiet:
                self.emit("roll", self.active, f"2nd Harvest: the black dice show {b1} and {b2} "
                          f"(sum {b1 + b2})" + ("; doubles trigger no Event in this phase." if b1 == b2 else "."),
                          {"black": [b1, b2]})
        if self.drought:
            self.emit("drought", None, "Drought: no Harvest this turn.")
            self._end_harvest(None)
            return
        self.harvest_no += 1
        per_seat = [self._harvest_seat(s) for s in range(self.players)]
        if any(per_seat):
            self.split(per_seat)
            self.then(("end-harvest", None))  # once every seat's lane is empty
        else:
            self._end_harvest(None)

    def _harvest_seat(self, seat: int) -> tuple:
        """Mark the Guild Track pips of every activated Citizen (rulebook: Harvest Phase).

        Returns the seat's Reward tasks, in the order they resolve.
        """
        lay = self.lay
        sh = self.sheets[seat]
        dice = self.dice
        rewards = []
        marked = 0
        gained = [0, 0, 0, 0]
        cit_guild = lay.cit_guild
        for s in lay.harvest_sections[dice[0]][dice[1]]:
            n = sh[CIT + s] - _BITS[sh[CITV + s]]
            if n > 0:
                g = cit_guild[s]
                k = self._mark_track(seat, g, n, rewards)
                marked += k
                gained[g] += k
        if marked:
            if not self.quiet:
                key = (*gained, *rewards)
                text = _HARVEST_TEXT.get(key)
                if text is None:
                    if len(_HARVEST_TEXT) > 50_000:
                        _HARVEST_TEXT.clear()
                    text = _HARVEST_TEXT[key] = " harvests " + ", ".join(
                        f"{k} {GUILDS[g]}" for g, k in enumerate(gained) if k) + " Guild Track pip" + (
                        "s" if marked > 1 else "") + _rewards_note(rewards) + "."
                self.emit("harvest", seat, _NAME[seat] + text, {"marked": gained})
            return _reward_tasks(seat, rewards) if rewards else ()
        if not self.quiet:
            self.emit("harvest", seat, f"{_NAME[seat]} marks nothing from the dice: "
                      "1 pip on a Guild Track of their choice.", {"marked": gained})
        return (("fallback", seat, 0),)

    @auto("end-harvest")
    def _end_harvest(self, task: tuple) -> None:
        """All seats have harvested: settle first-Lair priority, then start the Statue draft."""
        n = self.players
        order = [(self.active + i) % n for i in range(n)]
        nl = len(self.lair_first)
        for s in order:
            sh = self.sheets[s]
            if LAIR_PENDING in sh[LST:LST + nl]:
                for li in range(nl):
                    if sh[LST + li] == LAIR_PENDING:
                        self._settle_lair(s, li)
        self.phase = DRAFT
        self.drafter = -1
        self._draft(None)

    @auto("draft")
    def _draft(self, task: tuple) -> None:
        """Harvest Statue draft: the next seat (turn order from the Active Player) with Plinths picks."""
        n = self.players
        start = 0 if self.drafter < 0 else ((self.drafter - self.active) % n) + 1
        for i in range(start, n):
            s = (self.active + i) % n
            sh = self.sheets[s]
            if sh[PLP]:
                self.then(*([("pick", s, 0)] * sh[PLP]), ("draft", None))
                sh[PLP] = 0
                self.drafter = s
                return
        self._end_draft()

    def _end_draft(self) -> None:
        self.drafter = -1
        self._refill()
        if self.stage == STAGE_HARVEST1:
            self.phase = ACTION
            self.stage = STAGE_ACTION
            self.acted = False
            self._action_phase(("action", self.active))
        else:
            self._end_turn()

    @auto("end-action")
    def _end_action(self, task: tuple) -> None:
        if self.players == 1:
            self._start_harvest(STAGE_HARVEST2)
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        if self.players == 1:
            if self.last_round:
                self._game_over("a third Guild Track is complete")
                return
            self._start_turn(0)
            return
        nxt = (self.active + 1) % self.players
        if self.last_round and nxt == self.first:
            self._game_over("the last round is finished")
            return
        self._start_turn(nxt)

    def _check_trigger(self, seat: int) -> None:
        """``seat`` just completed a Guild Track: a 3rd one makes this round the last (rulebook: Game Flow)."""
        if self.players == 1 and not self.options.get("solo_track_trigger", False):
            return
        sh = self.sheets[seat]
        if sum(1 for g in range(4) if sh[TRK + g] >= 24) >= END_TRACKS:
            self.last_round = True
            what = "this is the last turn" if self.players == 1 else "this round is the last"
            self.emit("last-round", seat, f"{_NAME[seat]} has completed 3 Guild Tracks: {what}.")

    def _game_over(self, why: str) -> None:
        self.phase = OVER
        self.end_game()
        if self.quiet:
            return
        parts = [self.score_parts(s) for s in range(self.players)]
        text = f"Game over ({why}). " + "; ".join(
            f"{_NAME[s]}: {p['total']} VP (Stars {p['stars']}, Domains {p['domains']}, "
            f"Lairs {p['lairs']}, Statues {p['statues']})" for s, p in enumerate(parts))
        if self.players == 1:
            text += f". {solo_result(parts[0]['total'])[1]}"
        else:
            text += ". Winner: " + ", ".join(_NAME[s] for s in self.winners)
        self.emit("game-over", None, text, {"scores": [p["total"] for p in parts],
                                            "winners": list(self.winners)})

    # ------------------------------------------------------------ the Action phase
    def _reach_keys(self, seat: int) -> tuple:
        """Per-colour cache keys: (die, its +1/-1, its Flip, Blue, Blue's +1/-1, Blue's Flip, Any, Blue allowed)."""
        sh = self.sheets[seat]
        claimed = sh[DOM] & ~sh[VDOM]
        ya, yf, ra, rf, ga, gf, ba, bf, anyp = [bool(claimed & m) for m in self.lay.power_masks]
        d = self.dice
        blue = (d[5], ba, bf, anyp, not self.no_blue)
        return (d[2], ya, yf, *blue), (d[3], ra, rf, *blue), (d[4], ga, gf, *blue)

    def _menu_parts(self, seat: int) -> tuple:
        """(Recruit targets, Slay targets, Build ``how`` texts) for the dice and ``seat``'s powers.

        Memoised by (season, usable powers, dice, Heavy Rain); see :func:`_recruit_targets`,
        :func:`_slay_targets` and :func:`_build_how`.
        """
        lay = self.lay
        sh = self.sheets[seat]
        key = (lay.season, sh[DOM] & ~sh[VDOM] & lay.power_all, self.dice, self.no_blue)
        parts = _MENU_PARTS.get(key)
        if parts is None:
            if len(_MENU_PARTS) > 50_000:  # bound the memory of long simulations
                _MENU_PARTS.clear()
            ykey, rkey, gkey = self._reach_keys(seat)
            parts = _MENU_PARTS[key] = (_recruit_targets(lay.season, ykey), _slay_targets(lay.season, rkey),
                                        _build_how(gkey))
        return parts

    def _has_action(self, seat: int) -> bool:
        """True when ``seat`` has some Recruit, Slay or Build (the menu is not just PASS).

        A usable Road always allows a Build of 1 pip, so the menu is only built when there is none.
        A begun, unfinished Road is usable (the start Roads are begun at set-up): they are looked at first.
        """
        sh = self.sheets[seat]
        lay = self.lay
        rc0 = lay.rc0
        ro0 = lay.ro0
        road_len = lay.road_len
        for r in lay.start_roads:
            if sh[ro0 + r] and sh[rc0 + r] < road_len[r]:
                return True
        if self._usable_roads(sh):
            return True
        return self._action_choices(seat)[0] is not PASS

    def _action_choices(self, seat: int) -> tuple:
        """Every Recruit, Slay and Build the Active Player can take (rulebook: Dice Actions).

        Computed when first asked for (``legal_actions``), then kept until the next ``apply``.
        """
        if self.menu is not None:
            return self.menu
        lay = self.lay
        sh = self.sheets[seat]
        recruit, slay, how = self._menu_parts(seat)
        out = [action for s, action in recruit if sh[CIT + s] < 2]
        if slay:
            acc = sh[ACC]
            block_len = lay.block_len
            for target in slay:
                if acc >> target[0] & 1:
                    b = target[1]
                    i = sh[LB0 + b]
                    if i < block_len[b]:
                        out.append(target[2][i] or _slay_action(lay, target, i))
        roads = self._usable_roads(sh)
        if roads:
            rc0 = lay.rc0
            road_len = lay.road_len
            shorter = []
            hid = id(how)  # ``how`` lives as long as the process (``_build_how`` keeps it)
            cache = _BUILD_CACHE[lay.season]
            for r, dr in roads:
                left = road_len[r] - sh[rc0 + r]
                key = (hid, r, dr, left)
                builds = cache.get(key)
                if builds is None:
                    builds = _builds(lay, how, r, dr, left)
                    if len(cache) > 10_000:  # bound the memory of long simulations
                        cache.clear()
                    cache[key] = builds
                out.append(builds[0])
                if builds[1]:
                    shorter += builds[1]
            out.extend(shorter)  # the longest Build on each Road first, then the shorter ones
        self.menu = out = tuple(out) if out else (PASS,)  # a tuple: handed out as it is
        return out


    @auto("action")
    def _action_phase(self, task: tuple) -> None:
        """Action Phase: the Active Player chooses a die (``act``), unless no action can mark a pip."""
        seat = task[1]
        self.menu = None  # a menu left from another seat's Action phase is not this one's
        if self._has_action(seat):
            self.then(("act", seat), ("end-action", seat))  # the menu is built when legal_actions asks
            return
        self.emit("no-action", seat, f"{_NAME[seat]} has no action that can mark a pip.")
        self.acted = True
        self.then(("end-action", seat))  # a task, not a call: turns follow one another in the run loop

    @prompt("act")
    def _act_prompt(self, task: tuple) -> Decision:
        y, r, g, b = self.dice[2:]
        blue = " (Heavy Rain: the Blue die may not be used)" if self.no_blue else f", Blue {b}"
        return Decision(
            task[1], "action",
            f"Action phase: choose the Yellow (Recruit), Red (Slay) or Green (Build) die - "
            f"Yellow {y}, Red {r}, Green {g}{blue}.",
            "Yellow: mark a pip in the Citizen section matching the die (or die + Blue). "
            "Red: mark the leftmost pip of the matching Range Block in a lair, then gain 1 Gold. "
            "Green: mark up to that many pips on one Road, stopping at a Domain or dead end. "
            "Your Domain powers (each once, no wrap-around, flip = 7 - x) are applied as listed.")

    @choices("act")
    def _act_choices(self, task: tuple) -> tuple:
        return self._action_choices(task[1])

    @resolve("act")
    def _take_action(self, task: tuple, action: Action) -> None:
        """Carry out a Recruit, Slay or Build (rulebook: Dice Actions)."""
        seat = task[1]
        self.acted = True
        self.menu = None
        if action is PASS or action.payload is None:
            self.emit("no-action", seat, f"{_NAME[seat]} takes no action.")
            return
        colour, target, value = action.payload
        if colour == "yellow":
            if not self.quiet:
                self.emit("action", seat, f"{_NAME[seat]} takes the Recruit action: {action.label[9:]}.",
                          {"die": "yellow", "value": value})
            self._mark_citizen(seat, target, "Recruit action")
        elif colour == "red":
            if not self.quiet:
                self.emit("action", seat, f"{_NAME[seat]} takes the Slay action: {action.label[6:]}.",
                          {"die": "red", "value": value})
            self.then(("gold", seat, 0))  # the Slay action's Gold, after the pip's chain
            self._mark_block(seat, target, "Slay action")
        else:
            r, dr = target
            if not self.quiet:
                self.emit("action", seat, f"{_NAME[seat]} takes the Build action: {action.label[7:]}.",
                          {"die": "green", "pips": value})
            self._mark_road(seat, r, dr, value, "Build action")

    # ------------------------------------------------------------ Reward chains
    @auto("gold")
    def _gold_reward(self, task: tuple) -> None:
        self._mark_gold(task[1])

    @auto("knight")
    def _knight_reward(self, task: tuple) -> None:
        self._mark_wall(task[1])

    @auto("plinth")
    def _plinth_reward(self, task: tuple) -> None:
        """A Plinth in the Harvest waits for the draft; otherwise the Statue is taken at once."""
        ph = self.phase
        if ph == HARVEST:
            self.sheets[task[1]][PLP] += 1
        else:
            self.then(("pick", task[1], 0 if ph == DRAFT else 1))

    @auto("citizen")
    def _citizen_reward(self, task: tuple) -> None:
        self._instant_citizen(task[1], task[2])

    @auto("recruit")
    @auto("road")
    @auto("slay")
    @auto("pick")
    @auto("fallback")
    @auto("strike")
    def _reward_task(self, task: tuple) -> None:
        """A Reward that may need a choice: done at once with one way, lost with none, else asked."""
        options = self._task_options(task)
        if len(options) > 1:
            self.then((CHOOSE[task[0]], task[1], task[2]))
        elif options:
            self._resolve_choice(task, options[0].payload)
        else:
            self._lost(task)

    @prompt("choose-recruit")
    @prompt("choose-road")
    @prompt("choose-slay")
    @prompt("choose-pick")
    @prompt("choose-fallback")
    @prompt("choose-strike")
    def _reward_prompt(self, task: tuple) -> Decision:
        kind, text = _PROMPTS[task[0]]
        pending = len(self.seat_tasks(task[1])) - 1
        more = f" ({pending} more task{'s' if pending != 1 else ''} after this)" if pending else ""
        return Decision(task[1], kind, f"{self._where()}: {text}{more}",
                        "Reward Pips are resolved at once, each chain to its end; "
                        "pips are marked left to right, top to bottom, never skipping.")

    @choices("choose-recruit")
    @choices("choose-road")
    @choices("choose-slay")
    @choices("choose-pick")
    @choices("choose-fallback")
    @choices("choose-strike")
    def _reward_options(self, task: tuple) -> list:
        return self._task_options(task)

    @resolve("choose-recruit")
    @resolve("choose-road")
    @resolve("choose-slay")
    @resolve("choose-pick")
    @resolve("choose-fallback")
    @resolve("choose-strike")
    def _reward_chosen(self, task: tuple, action: Action) -> None:
        self.menu = None
        self._resolve_choice(task, action.payload)

    def _lost(self, task: tuple) -> None:
        kind = task[0]
        if kind == "strike" or self.quiet:
            return
        name = TASK_NAMES[KIND_CODE[kind]]
        self.emit("lost", task[1], f"{_NAME[task[1]]}'s {name} is lost: {_LOST_WHY[kind]}.", {"task": name})

    def _task_options(self, task: tuple) -> list:
        """The Actions a Reward task may be resolved with (its decision's legal actions)."""
        code = KIND_CODE[task[0]]
        sh = self.sheets[task[1]]
        acts = self.acts
        if code == RECRUIT:
            key = tuple(sh[CIT:CIT + 10])
            cache = _RECRUIT_OPTIONS[self.lay.season]
            out = cache.get(key)
            if out is None:
                if len(cache) > 20_000:
                    cache.clear()
                out = cache[key] = [acts.recruit[s] for s in range(10) if key[s] < 2]
            return out
        if code == ROAD:
            lay = self.lay
            rc0 = lay.rc0
            return [acts.road_last[rd][_reached(sh, acts.road_far[rd])]
                    if sh[rc0 + rd[0]] == lay.road_len[rd[0]] - 1 else acts.road[rd]
                    for rd in self._usable_roads(sh)]
        if code == SLAY:
            first = self.lair_first
            return [acts.slay[li] if first[li] == -1 else acts.slay_low[li][first[li]]
                    for li in self._slay_reward_lairs(sh)]
        if code == T_PICK:
            if sh[NSTAT] >= MAX_STATUES:
                return []
            held = sh[STAT]
            seen = 0
            out = []
            for c in self.line:
                k = CARD_KIND[c]
                bit = 1 << k
                if not (held & bit) and not (seen & bit):
                    seen |= bit
                    out.append(acts.statue[k])
            out.sort(key=lambda a: a.payload)
            return out
        if code == T_FALLBACK:
            return [acts.fallback[g] for g in range(4) if sh[TRK + g] < 24]
        if code == T_STRIKE:
            return [acts.strike[g] for g in range(4) if task[2] >> g & 1]
        raise AssertionError(f"task {task} has no options")

    def _resolve_choice(self, task: tuple, payload) -> None:
        code = KIND_CODE[task[0]]
        seat = task[1]
        if code == RECRUIT:
            self._mark_citizen(seat, payload, "Recruit Reward")
        elif code == ROAD:
            r, d = payload
            self._mark_road(seat, r, d, 1, "Road Reward")
        elif code == SLAY:
            b = self._leftmost_block(self.sheets[seat], payload)
            self._mark_block(seat, b, "Slay Reward")
        elif code == T_PICK:
            self._take_statue(seat, payload, refill=task[2] == 1)
        elif code == T_FALLBACK:
            rewards = []
            self._mark_track(seat, payload, 1, rewards)
            if not self.quiet:
                self.emit("mark", seat, f"{_NAME[seat]} marks 1 pip on the {GUILDS[payload]} Guild Track"
                          + _rewards_note(rewards) + ".", {"track": GUILDS[payload]})
            if rewards:
                self.then(*_reward_tasks(seat, rewards))
        elif code == T_STRIKE:
            self._strike_track(payload)
        else:  # pragma: no cover - automatic tasks never reach here
            raise AssertionError(task)

    # ------------------------------------------------------------ marking
    def _mark_track(self, seat: int, g: int, n: int, rewards: list) -> int:
        """Mark up to ``n`` pips of Guild Track ``g``; append their Rewards; return how many."""
        sh = self.sheets[seat]
        have = sh[TRK + g]
        k = min(n, 24 - have)
        if k <= 0:
            return 0
        void = sh[VTRK + g]
        if void:
            pips = self.lay.trk_pips[g]
            for i in range(have, have + k):
                code = pips[i]
                if code and not (void >> i & 1):
                    rewards.append(code)
        else:
            rewards += self.lay.trk_rewards[g][have][k]
        sh[TRK + g] = have + k
        if have + k == 24 and not self.last_round:
            self._check_trigger(seat)
        return k

    def _mark_citizen(self, seat: int, s: int, why: str) -> None:
        sh = self.sheets[seat]
        i = sh[CIT + s]
        if i >= 2:
            return
        sh[CIT + s] = i + 1
        lay = self.lay
        code = lay.cit_pips[s][i]
        if not self.quiet:
            self.emit("mark", seat, f"{_NAME[seat]} ({why}){_TEXTS[lay.season].citizen[s][i]}",
                      {"section": lay.cit_names[s], "pip": i + 1})
        if code > PLAIN and code != STAR:
            self.then((REWARD_KIND[code], seat, 0))

    def _instant_citizen(self, seat: int, g: int) -> None:
        sh = self.sheets[seat]
        for s in self.lay.guild_sections[g]:
            if sh[CIT + s] < 2:
                self._mark_citizen(seat, s, f"instant {GUILDS[g]} Citizen")
                return
        self.emit("lost", seat, f"{_NAME[seat]} has no open {GUILDS[g]} Citizen pip: "
                  "the instant Citizen is lost.")

    def _mark_gold(self, seat: int) -> None:
        """Mark the next Gold Chart pip (rulebook: Gold)."""
        lay = self.lay
        self._mark_next(seat, GOLDC, lay.gold_len, lay.gold_pips, _TEXTS[lay.season].gold, "gold")

    def _mark_wall(self, seat: int) -> None:
        """Mark the next Knight pip on the Wall (rulebook: Knights on the Wall)."""
        lay = self.lay
        self._mark_next(seat, WALLC, lay.wall_len, lay.wall_pips, _TEXTS[lay.season].wall, "wall")

    def _mark_next(self, seat: int, col: int, length: int, pips, texts, key: str) -> None:
        """Mark the next pip of a left-to-right row whose count is ``sheet[col]``; a full row marks nothing."""
        sh = self.sheets[seat]
        i = sh[col]
        if i >= length:
            return
        sh[col] = i + 1
        code = pips[i]
        if not self.quiet:
            self.emit("mark", seat, _NAME[seat] + texts[i], {key: i + 1})
        if code > PLAIN and code != STAR:
            self.then((REWARD_KIND[code], seat, 0))

    def _leftmost_block(self, sh: list, li: int) -> int:
        lay = self.lay
        for b in lay.lair_blocks[li]:
            if sh[LB0 + b] < lay.block_len[b]:
                return b
        return -1

    def _slay_reward_lairs(self, sh: list) -> list:
        acc = sh[ACC]
        return [li for li in range(len(self.lay.lair_blocks)) if acc >> li & 1 and sh[LST + li] == LAIR_OPEN]

    def _mark_block(self, seat: int, b: int, why: str) -> None:
        """Mark the next pip of Range Block ``b``; settle the lair if it is now complete."""
        sh = self.sheets[seat]
        lay = self.lay
        i = sh[LB0 + b]
        if i >= lay.block_len[b]:
            return
        sh[LB0 + b] = i + 1
        li = lay.block_lair[b]
        code = lay.block_pips[b][i]
        if not self.quiet:
            texts = _TEXTS[lay.season]
            self.emit("mark", seat, f"{_NAME[seat]} ({why}){texts.block[b][i]}",
                      {"lair": lay.lair_ids[li], "block": texts.block_name[b], "pip": i + 1})
        if code > PLAIN and code != STAR:
            self.then((REWARD_KIND[code], seat, 0))
        if all(sh[LB0 + x] >= lay.block_len[x] for x in lay.lair_blocks[li]):
            if self.phase == HARVEST and self.lair_first[li] == -1:
                sh[LST + li] = LAIR_PENDING
                if not self.quiet:
                    self.emit("lair", seat, f"{_NAME[seat]} completes {lay.lair_ids[li]} "
                              f"{lay.lair_names[li]} during the Harvest (priority is settled after it).")
            else:
                self._settle_lair(seat, li)

    def _settle_lair(self, seat: int, li: int) -> None:
        lay = self.lay
        sh = self.sheets[seat]
        if self.lair_first[li] == -1:
            self.lair_first[li] = seat
            sh[LST + li] = LAIR_HIGH
            if not self.quiet:
                hi = lay.lair_vp[li][0]
                self.emit("lair", seat, f"{_NAME[seat]} is the first to complete {lay.lair_ids[li]} "
                          f"{lay.lair_names[li]}: circles {hi} VP; everyone else crosses it out.",
                          {"lair": lay.lair_ids[li], "vp": hi})
        else:
            sh[LST + li] = LAIR_LOW
            if not self.quiet:
                lo = lay.lair_vp[li][1]
                self.emit("lair", seat, f"{_NAME[seat]} completes {lay.lair_ids[li]} "
                          f"{lay.lair_names[li]}: the higher value is crossed out, {lo} VP.",
                          {"lair": lay.lair_ids[li], "vp": lo})

    def _usable_roads(self, sh: list) -> list:
        """(road, direction) pairs a pip may be marked on now (rulebook: Roads and Domains)."""
        lay = self.lay
        rc0 = lay.rc0
        ro0 = lay.ro0
        claimed = sh[DOM]
        # What decides it: claimed Domains, each Road's direction and whether it has open pips
        # (this changes only when a Road is begun or finished or a Domain claimed).
        key = (claimed, *sh[ro0:], *map(_lt, sh[rc0:ro0], lay.road_len))
        cache = _ROADS_CACHE[lay.season]
        out = cache.get(key)
        if out is not None:
            return out
        if len(cache) > 20_000:  # bound the memory of long simulations
            cache.clear()
        out = cache[key] = []
        for (r, a, b, length), k, d, pair in zip(lay.road_info, sh[rc0:ro0], sh[ro0:], _ROAD_DIRS):
            if k >= length:
                continue
            if d:
                out.append(pair[d])
                continue
            if a >= 0 and claimed >> a & 1:
                out.append(pair[1])
            if b >= 0 and claimed >> b & 1:
                out.append(pair[2])
        return out

    def _mark_road(self, seat: int, r: int, d: int, n: int, why: str) -> None:
        """Mark ``n`` pips (at most to the Road's end) on Road ``r`` from direction ``d``."""
        sh = self.sheets[seat]
        lay = self.lay
        length = lay.road_len[r]
        have = sh[lay.rc0 + r]
        k = min(n, length - have)
        if k <= 0:
            return
        sh[lay.ro0 + r] = d
        sh[lay.rc0 + r] = have + k
        vb = sh[VBRIDGE]
        if vb:  # solo Washed-Out Bridge: a voided Bridge's Gold is a plain pip
            pips = lay.road_pips[r][d]
            rewards = []
            for i in range(have, have + k):
                code = pips[i]
                if code:
                    pos = i if d == 1 else length - 1 - i
                    bi = lay.pip_bridge[r].get(pos, -1)
                    if bi >= 0 and vb >> bi & 1:
                        code = PLAIN
                if code:
                    rewards.append(code)
        else:
            rewards = list(lay.road_rewards[r][d][have][k])
        quiet = self.quiet
        if not quiet:
            text = f"{_NAME[seat]} ({why}){_ROAD_MARKS[lay.season][r][d][k]}"
            data = {"road": lay.road_ids[r], "from": _ends(lay, r, d)[0], "pips": k}
        if have + k == length:
            far = lay.road_b[r] if d == 1 else lay.road_a[r]
            if far >= 0:
                if not (sh[DOM] >> far & 1):
                    sh[DOM] |= 1 << far
                    sh[ACC] |= lay.dom_trail[far]
                    if sh[VDOM] >> far & 1:
                        if not quiet:
                            text += (f" and claims Domain {lay.dom_ids[far]} {lay.dom_names[far]}"
                                     " (voided: no power, no point)")
                    else:
                        if lay.dom_power[far][0] == "instant_citizen":
                            rewards.append((T_CITIZEN, lay.instant_guild[far]))
                        if not quiet:
                            text += (f" and claims Domain {lay.dom_ids[far]} {lay.dom_names[far]}"
                                     f" ({power_text(lay, far)})")
                    if not quiet:
                        data["claims"] = lay.dom_ids[far]
                        if lay.dom_trail[far]:
                            text += "; its Trailhead opens " + ", ".join(
                                lay.lair_ids[li] for li in range(len(lay.lair_ids)) if lay.dom_trail[far] >> li & 1)
                elif not quiet:
                    text += f", reaching {lay.dom_ids[far]} (already claimed)"
            elif far == -2 and not quiet:
                text += f", reaching the dead end {_ends(lay, r, d)[1]}"
        if not quiet:
            self.emit("mark", seat, text + _rewards_note(rewards) + ".", data)
        if rewards:
            self.then(*_reward_tasks(seat, rewards))

    # ------------------------------------------------------------ Statues
    def _take_statue(self, seat: int, kind: int, refill: bool) -> None:
        line = list(self.line)
        for i, c in enumerate(line):
            if CARD_KIND[c] == kind:
                del line[i]
                break
        self.line = tuple(line)
        sh = self.sheets[seat]
        sh[STAT] |= 1 << kind
        sh[NSTAT] += 1
        if not self.quiet:
            self.emit("statue", seat, f"{_NAME[seat]} takes Statue {kind + 1}: {STATUES[kind].effect}",
                      {"statue": kind + 1})
        if refill:
            self._refill()
        code = STATUE_INSTANT[kind]
        if code:
            self.then(*[(REWARD_KIND[code], seat, 0)] * STATUE_TIMES[kind])

    def _refill(self) -> None:
        if len(self.line) >= DRAFT_LINE or not self.deck:
            return
        deck = list(self.deck)
        line = list(self.line)
        new = []
        while len(line) < DRAFT_LINE and deck:
            c = deck.pop()
            line.append(c)
            new.append(c)
        self.line = tuple(line)
        self.deck = tuple(deck)
        if not self.quiet:
            self.emit("refill", None, "The draft line is refilled with " + ", ".join(
                f"Statue {CARD_KIND[c] + 1}" for c in new) + ".", {"new": [CARD_ID[c] for c in new]})

    # ------------------------------------------------------------ Solo Events
    def _draw_event(self) -> None:
        deck = list(self.event_deck)
        e = deck.pop()
        self.event_deck = tuple(deck)
        self.events_drawn = self.events_drawn + (e,)
        self.ships += 1
        ev = EVENTS[e]
        self.emit("event", 0, f"Doubles: ship {self.ships} of {self.lay.ships} is marked off. "
                  f"Event: {ev.name} - {ev.text}", {"event": ev.id, "ship": self.ships})
        self._resolve_event(ev.id)

    def _resolve_event(self, eid: str) -> None:
        lay = self.lay
        sh = self.sheets[0]
        if eid == "exodus":
            for s in range(9, -1, -1):
                n = sh[CIT + s]
                void = sh[CITV + s]
                for i in range(n - 1, -1, -1):
                    if not void >> i & 1:
                        sh[CITV + s] = void | (1 << i)
                        self.emit("void", 0, f"Exodus voids the {'left' if i == 0 else 'right'} pip of the "
                                  f"{lay.cit_names[s]} Citizen.", {"section": lay.cit_names[s], "pip": i + 1})
                        return
            self._no_target("Exodus")
        elif eid == "washed-out-bridge":
            for bi in range(len(lay.bridge_ids)):
                if not (sh[VBRIDGE] >> bi & 1) and not bridge_complete(lay, sh, bi):
                    sh[VBRIDGE] |= 1 << bi
                    self.emit("void", 0, f"Washed-Out Bridge voids Bridge {lay.bridge_ids[bi]} "
                              f"(Road {lay.road_ids[lay.bridge_road[bi]]}).", {"bridge": lay.bridge_ids[bi]})
                    return
            self._no_target("Washed-Out Bridge")
        elif eid == "wildfire":
            for di in range(len(lay.dom_ids)):
                if not (sh[DOM] >> di & 1) and not (sh[VDOM] >> di & 1):
                    sh[VDOM] |= 1 << di
                    self.emit("void", 0, f"Wildfire voids Domain {lay.dom_ids[di]} {lay.dom_names[di]}.",
                              {"domain": lay.dom_ids[di]})
                    return
            self._no_target("Wildfire")
        elif eid == "rival-hunters":
            best, pick = None, -1
            for li in range(len(lay.lair_ids)):
                if sh[LST + li] != LAIR_OPEN or self.lair_first[li] != -1:
                    continue
                key = (sum(sh[LB0 + b] for b in lay.lair_blocks[li]), lay.lair_vp[li][0])
                if best is None or key > best:
                    best, pick = key, li
            if pick < 0:
                self._no_target("Rival Hunters")
                return
            self.lair_first[pick] = -2
            self.emit("void", 0, f"Rival Hunters cross out the {lay.lair_vp[pick][0]} VP of "
                      f"{lay.lair_ids[pick]} {lay.lair_names[pick]}.", {"lair": lay.lair_ids[pick]})
        elif eid == "guild-strike":
            open_tracks = [g for g in range(4) if sh[TRK + g] < 24]
            if not open_tracks:
                self._no_target("Guild Strike")
                return
            most = max(sh[TRK + g] for g in open_tracks)
            tied = [g for g in open_tracks if sh[TRK + g] == most]
            if len(tied) == 1:
                self._strike_track(tied[0])
            else:
                self.then(("strike", 0, sum(1 << g for g in tied)))
        elif eid == "royal-stipend":
            self.then(("gold", 0, 0))
        elif eid == "road-crew":
            self.then(("road", 0, 0))
        elif eid == "pilgrims":
            rewards = []
            if self._mark_track(0, 0, 1, rewards):
                self.emit("mark", 0, "Pilgrims: 1 pip is marked on the Holy Guild Track.")
                self.then(*_reward_tasks(0, rewards))
            else:
                self._no_target("Pilgrims")
        elif eid == "drought":
            self.drought = True
        elif eid == "heavy-rain":
            self.no_blue = True

    def _strike_track(self, g: int) -> None:
        sh = self.sheets[0]
        pips = self.lay.trk_pips[g]
        void = sh[VTRK + g]
        for i in range(sh[TRK + g], 24):
            if pips[i] and not void >> i & 1:
                sh[VTRK + g] = void | (1 << i)
                self.emit("void", 0, f"Guild Strike voids the {REWARD_NAME[pips[i]]} Reward of pip {i + 1} "
                          f"on the {GUILDS[g]} Guild Track.", {"track": GUILDS[g], "pip": i + 1})
                return
        self._no_target("Guild Strike")

    def _no_target(self, name: str) -> None:
        self.emit("void", 0, f"{name} has nothing to act on: no effect.")

    # ------------------------------------------------------------ scoring
    def score_parts(self, seat: int) -> dict:
        """The Score Tally of ``seat``: stars, domains, lairs, statues (with each Statue's VP), total."""
        return score_sheet(self.lay, self.sheets[seat])

    # ------------------------------------------------------------ views
    def _observation(self, seat: int | None) -> dict:
        """The whole table (all sheets are public) and the decks as counts; never a deck's order."""
        lay = self.lay
        n_day = sum(1 for c in self.deck if CARD_BACK[c] == 0)
        obs = {
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
            "players": [sheet_view(lay, sh) for sh in self.sheets],
            "deciding": list(self.to_move),
            "scores": self.scores,
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




# ---------------------------------------------------------------- Action-phase tables
#: Per season, usable (road, direction) lists by (claimed Domains, Road directions, Roads not full).
_ROADS_CACHE: dict = {season: {} for season in LAYOUTS}
#: _ROAD_DIRS[r][d] == (r, d).
_ROAD_DIRS = tuple((None, (r, 1), (r, 2)) for r in range(64))
#: Action-phase menu parts by (season, usable powers, dice, Heavy Rain): see ``_menu_parts``.
_MENU_PARTS: dict = {}
#: Per season, Build Actions by (id of the ``_build_how`` texts, road, direction, pips left).
_BUILD_CACHE: dict = {season: {} for season in LAYOUTS}

def _cheapest(vals: dict, values) -> int:
    """The value among ``values`` (ascending) that ``vals`` (see ``reach``) makes with the fewest
    powers, the lowest on ties; 0 if none is reachable."""
    best, best_uses = 0, 99
    for v in values:
        made = vals.get(v)
        if made is not None and made[0] < best_uses:
            best, best_uses = v, made[0]
    return best


@lru_cache(maxsize=None)
def _recruit_targets(season: str, key: tuple) -> tuple:
    """(section, Action) for each Citizen section the Yellow die (+Blue, powers) reaches.

    ``key``: see ``DiceKingdomsState._reach_keys`` (at most 2,304 keys a season).
    """
    lay = LAYOUTS[season]
    vals = reach("yellow", *key)
    out = []
    for s in range(10):
        v = _cheapest(vals, lay.cit_values[s])
        if v:
            name = lay.cit_names[s]
            out.append((s, Action(f"yellow:{name}", f"Recruit: mark the {name} Citizen "
                                  f"({GUILDS[lay.cit_guild[s]]}) with {vals[v][1]}", ("yellow", s, v))))
    return tuple(out)


@lru_cache(maxsize=None)
def _slay_targets(season: str, key: tuple) -> tuple:
    """(lair, block, Actions by the block's next pip, how, payload) for each Range Block the Red die reaches."""
    lay = LAYOUTS[season]
    vals = reach("red", *key)
    out = []
    for li, blocks in enumerate(lay.lair_blocks):
        for bi in blocks:
            lo, hi = lay.block_range[bi]
            v = _cheapest(vals, range(lo, hi + 1))
            if not v:
                continue
            # Actions by the block's next pip, made when first offered (see ``_slay_action``).
            out.append((li, bi, [None] * lay.block_len[bi], f" with {vals[v][1]}, then 1 Gold", ("red", bi, v)))
    return tuple(out)


def _slay_action(lay, target: tuple, i: int) -> Action:
    """The Slay Action of ``target`` (from ``_slay_targets``) when its block's next pip is ``i``."""
    li, bi, by_pip, how, payload = target
    action = by_pip[i]
    if action is None:
        lo, hi = lay.block_range[bi]
        action = by_pip[i] = Action(
            f"red:{lay.lair_ids[li]}:{lo}-{hi}", f"Slay: {lay.lair_ids[li]} {lay.lair_names[li]}, Range Block "
            f"{lo}-{hi} (pip {i + 1}{_reward_note(lay.block_pips[bi][i])}){how}", payload)
    return action


@lru_cache(maxsize=None)
def _build_how(key: tuple) -> tuple:
    """``how[k] + ")"``: how the Green die makes a Build of at least ``k`` pips (index 0 unused).

    ``len(result) - 1`` is the longest Build the die allows.
    """
    return tuple(h + ")" for h in build_reach("green", *key))


def _builds(lay, how: tuple, r: int, dr: int, left: int) -> tuple:
    """(the longest Build, the shorter ones) on Road ``r`` from direction ``dr`` with ``left`` pips open."""
    parts = _BUILDS[lay.season][r][dr]
    new = tuple.__new__
    out = []
    for k in range(min(len(how) - 1, left), 0, -1):
        ident, pre, pre_reach, payload = parts[k]
        out.append(new(Action, (ident, (pre_reach if k == left else pre) + how[k], payload)))
    return out[0], tuple(out[1:])


def _build_table(lay) -> tuple:
    """Per Road and direction, per Build length ``k``: (id, label start, label start when the Build
    reaches the Road's end, payload); a label ends with ``_build_how(...)[k]``."""
    table = []
    for r in range(lay.nr):
        per_dir = [None, None, None]
        for dr in (1, 2):
            origin, dest = _ends(lay, r, dr)
            rows = [None]
            for k in range(1, lay.road_len[r] + 1):
                start = f"Build: {k} pip{'s' if k != 1 else ''} on Road {lay.road_ids[r]} from {origin}"
                rows.append((f"green:{lay.road_ids[r]}@{origin}:{k}", start + " (with ",
                             start + f", reaching {dest} (with ", ("green", (r, dr), k)))
            per_dir[dr] = tuple(rows)
        table.append(tuple(per_dir))
    return tuple(table)


# ---------------------------------------------------------------- helpers
def _rewards_note(rewards: list) -> str:
    """"; Reward Pips: Slay, Gold" for the Rewards just reached (Stars score at the end)."""
    if not rewards:
        return ""
    key = tuple(rewards)
    note = _NOTES.get(key)
    if note is None:
        names = [REWARD_NAME[c] if c.__class__ is int else "instant Citizen" for c in rewards if c != PLAIN]
        note = "; Reward Pips: " + ", ".join(names) if names else ""
        if len(_NOTES) > 10_000:
            _NOTES.clear()
        _NOTES[key] = note
    return note


_NOTES: dict = {}
#: The Reward tasks of a seat's list of reached Reward Pips, in the order they resolve, by (seat, list).
_PUSH: dict = {}


def _reward_tasks(seat: int, rewards: list) -> tuple:
    """The tasks ``(kind, seat, arg)`` of the Reward Pips ``rewards`` just reached by ``seat``, in
    marking order (rulebook: Reward Pips; Star and plain pips are no task; an instant Citizen is
    ``(T_CITIZEN, guild)``)."""
    key = (seat, *rewards)
    out = _PUSH.get(key)
    if out is None:
        if len(_PUSH) > 10_000:
            _PUSH.clear()
        out = _PUSH[key] = tuple(("citizen", seat, code[1]) if code.__class__ is tuple else (REWARD_KIND[code], seat, 0)
                                 for code in rewards if code != STAR and code != PLAIN)
    return out
#: Per season, the Recruit Reward options by the Citizen sections' marked pips.
_RECRUIT_OPTIONS: dict = {season: {} for season in LAYOUTS}


class _Texts:
    """Event texts of one season's marks, written once (what follows the seat's name and why)."""

    def __init__(self, lay) -> None:
        #: citizen[s][i]: " marks the left pip of the 4 Citizen (Soldier), a Gold pip."
        self.citizen = tuple(tuple(
            f" marks the {'left' if i == 0 else 'right'} pip of the {lay.cit_names[s]} Citizen "
            f"({GUILDS[lay.cit_guild[s]]})" + _reward_note(lay.cit_pips[s][i]) + "." for i in range(2))
            for s in range(10))
        self.gold = tuple(f" marks Gold pip {i + 1}" + _reward_note(code) + "." for i, code in enumerate(lay.gold_pips))
        self.wall = tuple(f" marks Knight pip {i + 1} on the Wall" + _reward_note(code) + "."
                          for i, code in enumerate(lay.wall_pips))
        self.block_name = tuple(f"{lo}-{hi}" for lo, hi in lay.block_range)
        self.block = tuple(tuple(
            f" marks pip {i + 1} of Range Block {lo}-{hi} in {lay.lair_ids[lay.block_lair[b]]} "
            f"{lay.lair_names[lay.block_lair[b]]}" + _reward_note(code) + "." for i, code in enumerate(pips))
            for b, ((lo, hi), pips) in enumerate(zip(lay.block_range, lay.block_pips)))


def _road_marks(lay) -> tuple:
    """[r][d][k]: " marks k pips on Road R from X" (the Road mark event after the seat and why)."""
    return tuple((None,) + tuple(
        (None,) + tuple(f" marks {k} pip{'s' if k != 1 else ''} on Road {lay.road_ids[r]} from {_ends(lay, r, d)[0]}"
                        for k in range(1, lay.road_len[r] + 1))
        for d in (1, 2)) for r in range(lay.nr))


def _reward_note(code: int) -> str:
    return f", a {REWARD_NAME[code]} pip" if code else ""


def power_text(lay, d: int) -> str:
    """A Domain power in the rulebook's words: "+1/-1 Green", "Flip Red", "instant Holy Citizen"."""
    kind, die, guild = lay.dom_power[d]
    if kind == "adjust":
        return f"+1/-1 {die.capitalize()}"
    if kind == "flip":
        return f"Flip {die.capitalize()}"
    return f"instant {guild} Citizen"


def road_marked_positions(lay, sh: list, r: int) -> range:
    """Positions (0-based, in the Road's listed a -> b order) of its marked pips."""
    k = sh[lay.rc0 + r]
    if sh[lay.ro0 + r] == 2:
        return range(lay.road_len[r] - k, lay.road_len[r])
    return range(0, k)


def bridge_complete(lay, sh: list, bi: int) -> bool:
    """True when all 3 pips of Bridge ``bi`` are marked and it is not voided."""
    if sh[VBRIDGE] >> bi & 1:
        return False
    r, first, last = lay.bridge_span[bi]
    d = sh[lay.ro0 + r]
    if d == 2:
        return lay.road_len[r] - sh[lay.rc0 + r] <= first
    return sh[lay.rc0 + r] > last


def citizen_pips(lay, sh: list, guild: int | None = None) -> int:
    """Marked, not voided Citizen pips (of one guild, or all)."""
    total = 0
    count = lay.cit_count
    for s in (range(10) if guild is None else lay.guild_sections[guild]):
        total += count[sh[CIT + s]][sh[CITV + s]]
    return total


def star_pips(lay, sh: list) -> int:
    """Marked Star pips on both sheets (voided ones excluded), without Statue 14."""
    if any(sh[CITV:CITV + 10]):  # solo Exodus voids
        stars = 0
        for s, table in enumerate(lay.cit_star):
            stars += table[sh[CIT + s]][sh[CITV + s]]
    else:
        stars = sum(map(_at, lay.cit_star_plain, sh[CIT:CIT + 10]))
    if any(sh[VTRK:VTRK + 4]):  # solo Guild Strike voids
        for g in range(4):
            have = sh[TRK + g]
            void = sh[VTRK + g]
            stars += sum(1 for i in lay.trk_star_pos[g] if i < have and not void >> i & 1)
    else:
        stars += sum(map(_at, lay.trk_star_prefix, sh[TRK:TRK + 4]))
    stars += lay.gold_star_prefix[sh[GOLDC]] + lay.wall_star_prefix[sh[WALLC]]
    stars += sum(map(_at, lay.block_star_prefix, sh[LB0:LB0 + lay.nb]))
    # road_star_dir[r][direction][marked]; direction 0 (not begun) has nothing marked.
    ro0 = lay.ro0
    return stars + sum(map(_at, map(_at, lay.road_star_dir, sh[ro0:ro0 + lay.nr]), sh[lay.rc0:ro0]))


_at = operator.getitem
_lt = operator.lt


def _statue_count(lay, sh: list, what: int, stars: int, domains: int, completed: int) -> int:
    """The count a scoring Statue multiplies (``StatueKind.count``, coded by ``_COUNT_CODE``)."""
    if what == 1:
        return stars
    if what == 2:
        return domains
    if what == 3:
        return completed
    if what == 4:
        return sh[GOLDC]
    if what == 5:
        return lay.wall_star_prefix[sh[WALLC]]
    if what == 6:
        return lay.plinth_prefix[sh[GOLDC]]
    if what == 7:
        return sum(1 for bi in range(len(lay.bridge_ids)) if bridge_complete(lay, sh, bi))
    return citizen_pips(lay, sh, what - 8)


_COUNT_CODE = {None: 0, "stars": 1, "domains": 2, "lairs_completed": 3, "gold_pips": 4, "wall_stars": 5,
               "plinths": 6, "complete_bridges": 7, "holy_citizens": 8, "worker_citizens": 9,
               "shadow_citizens": 10, "soldier_citizens": 11}
#: Per Statue kind: (count code, per, vp).
_STATUE_SCORING = tuple((_COUNT_CODE[st.count], st.per, st.vp) for st in STATUES)


def score_sheet(lay, sh: list) -> dict:
    """Score Tally of one sheet (rulebook: Scoring; Statue Cards 1-14)."""
    stars = star_pips(lay, sh)
    held = [k for k in range(N_KINDS) if sh[STAT] >> k & 1]
    stars += sum(STATUE_STARS[k] for k in held)
    domains = _bits(sh[DOM] & ~sh[VDOM])
    lairs = 0
    completed = 0
    for li, (hi, lo) in enumerate(lay.lair_vp):
        st = sh[LST + li]
        if st:
            completed += 1
            lairs += hi if st == LAIR_HIGH else lo if st == LAIR_LOW else 0
    per_statue = {}
    for k in held:
        what, per, vp = _STATUE_SCORING[k]
        per_statue[str(k + 1)] = ((_statue_count(lay, sh, what, stars, domains, completed) // per) * vp
                                  if what else 0)
    statues = sum(per_statue.values())
    return {"stars": stars, "domains": domains, "lairs": lairs, "statues": statues,
            "statue_vp": per_statue, "total": stars + domains + lairs + statues}


def score_total(lay, sh: list) -> int:
    """``score_sheet(lay, sh)["total"]``, without building the tally (the bots' hot path)."""
    stars = star_pips(lay, sh)
    domains = (sh[DOM] & ~sh[VDOM]).bit_count()
    results = sh[LST:LST + len(lay.lair_points)]
    lairs = sum(map(_at, lay.lair_points, results))
    held = sh[STAT]
    if not held:
        return stars + domains + lairs
    kinds = []
    while held:
        low = held & -held
        k = low.bit_length() - 1
        kinds.append(k)
        stars += STATUE_STARS[k]
        held ^= low
    total = stars + domains + lairs
    completed = len(results) - results.count(LAIR_OPEN)
    for k in kinds:
        what, per, vp = _STATUE_SCORING[k]
        if what:
            total += (_statue_count(lay, sh, what, stars, domains, completed) // per) * vp
    return total


def solo_result(total: int) -> tuple[str, str]:
    """(title, text) of a solo score (rulebook: Solo Rules, Scoring)."""
    for lo, hi, title, text in SOLO_RESULTS:
        if lo <= total <= hi:
            return title, text
    return SOLO_RESULTS[0][2], SOLO_RESULTS[0][3]


def marked_pips(lay, sh: list) -> dict:
    """Every section's pips as marked (True) or not, in printed order (Roads listed a -> b).

    Keys: ``"citizen:9/10"``, ``"track:Holy"``, ``"gold"``, ``"wall"``,
    ``"lair:L6:9-12"`` and ``"road:R09"``. A voided Citizen pip stays marked
    (it is crossed out, not erased). Used by the invariant tests.
    """
    out = {}
    for s in range(10):
        out[f"citizen:{lay.cit_names[s]}"] = [i < sh[CIT + s] for i in range(2)]
    for g in range(4):
        out[f"track:{GUILDS[g]}"] = [i < sh[TRK + g] for i in range(24)]
    out["gold"] = [i < sh[GOLDC] for i in range(lay.gold_len)]
    out["wall"] = [i < sh[WALLC] for i in range(lay.wall_len)]
    for b in range(lay.nb):
        lo, hi = lay.block_range[b]
        out[f"lair:{lay.lair_ids[lay.block_lair[b]]}:{lo}-{hi}"] = [i < sh[LB0 + b] for i in range(lay.block_len[b])]
    for r in range(lay.nr):
        marked = road_marked_positions(lay, sh, r)
        out[f"road:{lay.road_ids[r]}"] = [i in marked for i in range(lay.road_len[r])]
    return out


def sheet_view(lay, sh: list) -> dict:
    """A JSON-able view of one seat's sheets."""
    return {
        "citizens": {lay.cit_names[s]: {"marked": sh[CIT + s], "voided": [i + 1 for i in range(2)
                                                                          if sh[CITV + s] >> i & 1]}
                     for s in range(10)},
        "guild_tracks": {GUILDS[g]: sh[TRK + g] for g in range(4)},
        "voided_track_rewards": {GUILDS[g]: [i + 1 for i in range(24) if sh[VTRK + g] >> i & 1]
                                 for g in range(4) if sh[VTRK + g]},
        "gold": sh[GOLDC],
        "wall": sh[WALLC],
        "lairs": {lay.lair_ids[li]: {
            "blocks": {f"{lay.block_range[b][0]}-{lay.block_range[b][1]}": sh[LB0 + b]
                       for b in lay.lair_blocks[li]},
            "result": ("open", "high", "low", "pending")[sh[LST + li]],
            "access": bool(sh[ACC] >> li & 1)} for li in range(len(lay.lair_ids))},
        "roads": {lay.road_ids[r]: {"marked": sh[lay.rc0 + r],
                                    "from": (None, lay.road_a_name[r], lay.road_b_name[r])[sh[lay.ro0 + r]]}
                  for r in range(lay.nr)},
        "domains": [lay.dom_ids[d] for d in range(len(lay.dom_ids)) if sh[DOM] >> d & 1],
        "voided_domains": [lay.dom_ids[d] for d in range(len(lay.dom_ids)) if sh[VDOM] >> d & 1],
        "voided_bridges": [lay.bridge_ids[b] for b in range(len(lay.bridge_ids)) if sh[VBRIDGE] >> b & 1],
        "statues": [k + 1 for k in range(N_KINDS) if sh[STAT] >> k & 1],
        "plinths_to_draft": sh[PLP],
        "score": score_sheet(lay, sh),
    }


ACTIONS = {s: _Actions(lay) for s, lay in LAYOUTS.items()}
_BUILDS = {s: _build_table(lay) for s, lay in LAYOUTS.items()}
_ROAD_MARKS = {s: _road_marks(lay) for s, lay in LAYOUTS.items()}
_TEXTS = {s: _Texts(lay) for s, lay in LAYOUTS.items()}
