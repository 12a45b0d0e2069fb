"""The Biblios Dice state: set-up and views (rulebook: Setup, Hidden Objective Variant); its
fields are declared in :mod:`.fields`, the turn's rules come from the rule classes of :mod:`.round`,
:mod:`.dice` and :mod:`.market`, scoring from :mod:`.scoring`.
"""

from __future__ import annotations

from typing import Any, Sequence

from dicetable.engine import seat_name

from ..components import resource_dice_for
from .consts import (
    BISHOP, BONUSES, CADFAEL_CARDS, CARD_VALUES, EMPTY_SET, FULL_HAND, NRES, NTRACKS, RESOURCES, START,
    SYMBOLS, TOKENS, TOKEN_GROUPS, TOKEN_SPOTS, TOP, TRACK_NAMES, VALUE_START, VP_STACKS,
)
from .common import (
    FOLLOW_UPS, GROUP_NAMES, MARK_KINDS, NSTACKS, OVER, PHASES, REROLL, dice_json, ordinal, symbol_count,
)
from .round import RoundRules


class BibliosDiceState(RoundRules):
    """A game of Biblios Dice for 2-5 players (2 players add Cadfael).

    Markers are numbered ``0..players-1`` for the seats and ``cad`` (= 2) for
    Cadfael in a 2-player game (``cad`` is -1 otherwise); ``nm`` is the number
    of markers. ``pos[t * nm + m]`` is the space (1 = lowest) of marker ``m``
    on track ``t`` and ``stamp[...]`` its arrival time there: on one space the
    lower stamp is further left, i.e. ahead. ``value`` holds the five Value
    Dice; ``gold``/``vp`` what is behind each shield. Dice sets (``pool``,
    ``small``, ``groups``) use the layout of :mod:`..components`. ``hands`` are
    bitmasks of Bidding Card values (bit 0 = the pass card). The turn is a
    stack of tasks (:class:`~dicetable.engine.FlowState`; the task kinds are
    listed in :mod:`.round`, :mod:`.dice` and :mod:`.market`). The fields are
    declared on :class:`~.fields.BibliosFields`, the root of the chain of rule classes.
    """

    game_id = "biblios-dice"

    # ================================================================ set-up
    def _setup(self) -> None:
        n = self.players
        self.cad = n if n == 2 else -1
        self.nm = nm = n + (1 if n == 2 else 0)
        self.round_no = 0
        self.first = 0
        self.current = 0
        self.phase = REROLL
        self.value = [VALUE_START] * NRES
        self.pos = [1] * (NTRACKS * nm)
        self.stamp = [0] * (NTRACKS * nm)
        self.clock = 0
        # Resource Tracks: any order (seat order). Bishop Track: Cadfael leftmost, then the
        # last player ... the first player rightmost (rulebook Setup 12, 2 players Setup).
        for t in range(NRES):
            for m in range(nm):
                self.clock += 1
                self.stamp[t * nm + m] = self.clock
        order = ([self.cad] if self.cad >= 0 else []) + list(range(n - 1, -1, -1))
        for m in order:
            self.clock += 1
            self.stamp[BISHOP * nm + m] = self.clock
        self.vp_stacks = [VP_STACKS[k][1] for _ in range(NRES) for k in range(NSTACKS)]
        stacks = []
        for group in TOKEN_GROUPS:
            tokens = list(group)
            self.shuffle(tokens)
            stacks.append(tuple(tokens))
        self.bishop_stacks = tuple(stacks)
        self.gold = [START.gold] * n
        self.vp = [START.vp] * n
        self.mule = 0
        self.mule_roll = 0
        self.pool = list(EMPTY_SET)
        self.marks = [0] * len(MARK_KINDS)
        self.small = list(EMPTY_SET)
        self.groups = (EMPTY_SET, EMPTY_SET)
        self.grp = -1
        self.hands = [FULL_HAND] * n
        self.facedown = [-1] * n
        self.played = [()] * n
        self.active = 0
        self.sitting = 0
        self.barred = 0
        self.penalized = 0
        self.cad_deck = []
        self.cad_faceup = []
        self.cad_played = []
        self.topped = 0
        self.objectives = [-1] * n
        self.auctions = 0
        self.last_auction = None
        self.final = None
        self.tasks = []
        self.lanes = None
        self.emit("setup", None, f"Biblios Dice for {n} players"
                  + (" with Cadfael" if self.cad >= 0 else "")
                  + f"; {resource_dice_for(n)} Resource Dice. {seat_name(0)} takes the Monastery Card.",
                  {"players": n, "resource_dice": resource_dice_for(n)})
        for s in range(n):
            g, v, res = BONUSES[s]
            self.gold[s] += g
            self.vp[s] += v
            if res >= 0:
                self.pos[res * nm + s] += 1
            if g or v or res >= 0:
                parts = ([f"{g} Gold"] if g else []) + ([f"a {v} VP token"] if v else []) + (
                    [symbol_count(1, res)] if res >= 0 else [])
                self.emit("start-bonus", s, f"{seat_name(s)}, {ordinal(s + 1)} in turn order, receives "
                          + " and ".join(parts) + " to start.", {"gold": g, "vp": v,
                                                        "resource": RESOURCES[res] if res >= 0 else None})
        if self.cad >= 0:
            self.cad_deck = list(CADFAEL_CARDS)
            self.shuffle(self.cad_deck)
        if self.options.get("hidden_objectives"):
            cards = list(range(NRES))
            self.shuffle(cards)
            for s in range(n):
                self.objectives[s] = cards[s]
                self.emit("objective", s, f"{seat_name(s)}'s Hidden Objective: the "
                          f"{TRACK_NAMES[cards[s]]}.", {"track": RESOURCES[cards[s]]}, visible=(s,))
        self.then(("round", None))
        self.run()

    def _after_restore(self) -> None:
        n = self.players
        self.cad = n if n == 2 else -1
        self.nm = nm = n + (1 if n == 2 else 0)
        if self.phase not in PHASES:
            raise ValueError(f"unknown phase {self.phase!r}")
        if len(self.value) != NRES or len(self.pos) != NTRACKS * nm or len(self.stamp) != NTRACKS * nm:
            raise ValueError("value, pos or stamp has the wrong length")
        if not len(self.gold) == len(self.vp) == len(self.hands) == len(self.facedown) == len(self.played) == n:
            raise ValueError("per-seat lists need one entry per seat")
        unknown = {t[0] for t in self.tasks} - self.TASK_KINDS
        if unknown:
            raise ValueError(f"unknown task kinds {sorted(unknown)}")

    # ================================================================ queries
    def follow_up(self, seat: int) -> tuple | None:
        """The follow-up choice of a take ``seat`` is to make now (an ``adjust``, ``advance`` or
        ``convert`` task, see :mod:`.dice`), or None. Read-only."""
        task = self.pending(seat)
        return task if task is not None and task[0] in FOLLOW_UPS else None

    def after_taking(self, seat: int, kind: int, dice: Sequence[int]) -> BibliosDiceState:
        """A hypothetical copy for evaluation: ``seat`` has just taken the dice of ``kind``.

        ``kind`` is a dice-set slot (a symbol index, ``GOLD`` or ``ADJUST``)
        and ``dice`` a dice set holding it (not changed). On the copy the
        dice are resolved as by a take (rulebook: Phase III "A-C"), quietly
        (no events), as if it were ``seat``'s turn now; the choices they
        leave (:meth:`follow_up`) are pending for ``seat``, before whatever
        ``seat`` was to decide. This state is unchanged. Bots play the
        follow-ups with ``step`` and evaluate the copy; never play on from it.
        """
        other = self.clone()
        other.quiet = True
        lanes = other.lanes
        if lanes is None:
            other._take(seat, kind, list(dice))
            other.run()
        else:
            # Lanes open (the auction): the seat's own lane stands in for the stack meanwhile.
            main = other.tasks
            other.tasks, other.lanes = lanes[seat], None
            other._take(seat, kind, list(dice))
            other.run()
            other.tasks, other.lanes = main, lanes
        other.quiet = False
        return other

    # ================================================================ views
    def _observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees (None: a spectator).

        Public: tracks with marker order, Value Dice, stacks (VP tokens in
        order; Bishop stacks as a count and the set of tokens left), the Mule,
        the dice, the auction's revealed cards and who has placed a card,
        Cadfael's revealed and face-up cards. Private to the seat: its Gold,
        VP tokens, face-down card and Hidden Objective. At the game's end all
        holdings are shown.
        """
        n = self.players
        nm = self.nm
        over = self.phase == OVER
        tracks: dict[str, list[list[int | str]]] = {}
        for t in range(NTRACKS):
            spaces: list[list[int | str]] = [[] for _ in range(TOP[t])]
            for _, m in sorted([(self.stamp[t * nm + m], m) for m in range(nm)]):  # in arrival order
                spaces[self.pos[t * nm + m] - 1].append("cadfael" if m == self.cad else m)
            tracks[SYMBOLS[t]] = spaces
        players: list[dict[str, Any]] = []
        for s in range(n):
            mine = over or s == seat
            unrevealed = self.hands[s] | (1 << self.facedown[s] if self.facedown[s] >= 0 else 0)
            row: dict[str, Any] = {
                "seat": s,
                "face_down_placed": self.facedown[s] >= 0,
                "revealed": list(self.played[s]),
                "bidding": bool(self.active >> s & 1),
                "sitting_out": bool(self.sitting >> s & 1),
                "pass_card_aside": bool((self.barred | self.sitting) >> s & 1),
                "cards_not_revealed": [v for v in CARD_VALUES if unrevealed >> v & 1],
                "gold": self.gold[s] if mine else None,
                "vp_tokens": self.vp[s] if mine else None,
                "objective": (RESOURCES[self.objectives[s]] if self.objectives[s] >= 0 else None)
                if mine else None,
            }
            if s == seat and not over:
                row["hand"] = [v for v in CARD_VALUES if self.hands[s] >> v & 1]
                row["face_down"] = self.facedown[s] if self.facedown[s] >= 0 else None
            players.append(row)
        top = self.tasks[-1] if self.tasks and self.lanes is None else None
        obs: dict[str, Any] = {
            "game": self.game_id,
            "seat": seat,
            "round": self.round_no,
            "phase": self.phase,
            "first_player": self.first,
            "current": self.current,
            "to_move": list(self.to_move),
            "value_dice": {RESOURCES[d]: self.value[d] for d in range(NRES)},
            "tracks": tracks,
            "vp_stacks": {RESOURCES[t]: [list(self.vp_stacks[t * NSTACKS + k]) for k in range(NSTACKS)]
                          for t in range(NRES)},
            "bishop_stacks": [{"space": TOKEN_SPOTS[g][0], "count": len(self.bishop_stacks[g]),
                               "tokens_left": sorted(TOKENS[i].id for i in self.bishop_stacks[g])}
                              for g in range(len(TOKEN_SPOTS))],
            "mule": self.mule,
            "mule_die": self.mule_roll,
            "pool": dice_json(self.pool),
            "marked": {MARK_KINDS[k]: c for k, c in enumerate(self.marks) if c},
            "small_group": dice_json(self.small),
            "groups": [dice_json(g) for g in self.groups],
            "resolving_group": GROUP_NAMES[self.grp] if self.grp >= 0 else None,
            "pending": list(top) if top is not None and top[0] in FOLLOW_UPS else None,
            "players": players,
            "hidden_objectives": bool(self.options.get("hidden_objectives")),
            "auctions_held": self.auctions,
            "last_auction": self.last_auction,
            "is_over": over,
            "scores": self.scores if over else None,
            "winners": list(self.winners),
        }
        if self.cad >= 0:
            obs["cadfael"] = {"revealed": list(self.cad_played), "face_up": list(self.cad_faceup),
                              "draw_pile": len(self.cad_deck),
                              "score": self.cadfael_score if over else None}
        if seat is not None and seat < n and not over:
            obs["my_gold"] = self.gold[seat]
            obs["my_vp_tokens"] = self.vp[seat]
        # Scoring (rulebook Scoring) as if the game ended now. Track places and penalties
        # follow from public positions and Value Dice; a seat's full row also counts its
        # own shield (Gold, VP tokens, objective), so only that seat gets it.
        rows = self.final if self.final is not None else self.breakdown()   # final: set once over
        obs["standing"] = [{"tracks": list(r["tracks"]), "penalty": r["penalty"]} for r in rows]
        if over:
            obs["final"] = [dict(r) for r in rows]
        elif seat is not None and seat < n:
            obs["my_score"] = dict(rows[seat])
        return obs

    def _determinize(self, seat: int) -> None:
        # Bishop Token stacks: the remaining tokens of each group are known, their order is not.
        stacks = []
        for stack in self.bishop_stacks:
            tokens = sorted(stack)
            self.shuffle(tokens)
            stacks.append(tuple(tokens))
        self.bishop_stacks = tuple(stacks)
        # Cadfael's draw pile: its cards are known (not face up), their order is not.
        if self.cad >= 0:
            self.cad_deck = sorted(self.cad_deck)
            self.shuffle(self.cad_deck)
        # Other seats' face-down bids: any of their unrevealed cards.
        for s in range(self.players):
            if s != seat and self.facedown[s] >= 0:
                unrevealed = self.hands[s] | 1 << self.facedown[s]
                cards = [v for v in CARD_VALUES if unrevealed >> v & 1]
                v = cards[self.randbelow(len(cards))]
                self.facedown[s] = v
                self.hands[s] = unrevealed & ~(1 << v)
        # Hidden Objectives of the others: any cards but the seat's own.
        # (Once the game is over every objective is shown, so nothing is resampled.)
        if self.phase != OVER and any(o >= 0 for o in self.objectives):
            own = self.objectives[seat] if seat is not None else -1   # a spectator sees no objective
            cards = [t for t in range(NRES) if t != own]
            self.shuffle(cards)
            self.objectives = [own if s == seat else cards.pop() for s in range(self.players)]
        # Gold and VP tokens are not resampled: every change to them is public (see the package doc).
