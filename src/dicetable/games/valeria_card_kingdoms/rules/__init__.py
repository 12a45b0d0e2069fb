"""Valeria: Card Kingdoms rules (base set, 1-5 players), on the engine's turn flow.

Rule ids (R*, C-*, A*, T*) cite the public rules digest of the base game.

Structure
---------
After set-up every player keeps one of two dealt Dukes (a simultaneous, secret choice,
R3.14: one lane per seat, :meth:`FlowState.split`). Then each turn schedules its phases as
tasks (:class:`dicetable.engine.FlowState`): Roll (R5.4-R5.6, ``roll.py``), Harvest
(R5.7-R5.13, ``harvest.py``), Action (R5.15-R6.18, two actions, ``actions.py``), End
(R8.1-R8.3, ``end.py``); solo adds Monsters and a Second Harvest (R12.4-R12.14). Card powers
are compiled steps (see components.py) scheduled as ``effect`` tasks (``powers.py``), so
chains of rewards, extra actions and triggers are plain data that clones, saves and replays.
A step that may need a choice is an automatic task that asks (pushes the decision task of
the same layout) only when there is something to choose: ``dice-changes`` -> ``roll``,
``effect`` -> ``step``, ``trades`` -> ``exchange``, ``payment`` -> ``pay``,
``monster-attack`` -> ``attack``.

Scheduling: only the Dukes' choice runs in lanes, and it schedules nothing, so every other
handler is on the main stack and schedules with ``self.tasks.append(task)`` (what ``then``
does for one task on the main stack; top last, so several tasks go in reverse order). The
hot paths save the call; ``then`` stays the way for anything new.

Decisions where the rulebook is silent (each tested; see docs/games/valeria-card-kingdoms.md)
-----------------------------------------------------------------------------------
* Harvest order (R5.11): within a player's Harvest, fixed gains and per-count gains are taken
  first, automatically; then the player makes the choices of "or" powers; then performs the
  optional exchanges ("paid to gain") in an order of their choosing, or stops. Gains never
  depend on resources and exchanges only get more affordable with more resources, so every
  outcome of any order the owner could pick is still reachable. The Thief (any power that
  takes from a player) resolves before everything (R5.10). Players decide one after the
  other in turn order from the Active player (their choices are independent and public).
* Magic stands in for Gold or Strength only in Action costs (A3), with at least one real
  token unless the cost is 0 (A16); payments are exact.
* A reward offering a Citizen nobody can take offers only its alternative (R9.5, C-BS);
  a free Citizen is taken when one can be (rewards are taken at once, R6.5).
* Returned cards go on top of their stack and take its Exhausted card back (A10);
  the end conditions are checked afresh at the end of each turn, no latching (A5).
* Domains with an "end of your Action Phase" power work in the turn they are built (the
  power lasts from the build on, R6.13); start-of-phase and Roll powers wait a turn.
* Forgotten Sorrows and The Violet Thorn count every Citizen gained / Monster slain in
  the owner's Action Phase, rewards and extra actions included.
* 5 players: the resting player takes no part in the Harvest at all (A13), but a Thief may
  still take from them (R11.6); the Harvest summary then names their loss.
* Solo: the Dark Lord is drawn from the 9 Dukes not kept; VP tokens count for the player;
  a tie is a loss; the end is checked after every action, every Monster attack and in the
  End Phase; the Monsters phase uses the final dice; the Second Harvest also gives the
  nothing-activated resource (A15).
"""

from __future__ import annotations

from typing import Any, Final

from dicetable.engine import Action, Decision, auto, choices, prompt, resolve
from dicetable.engine.flow import Task

from ..components import DOM_VP, MON_VP, N_CIT, monster_stack, step_text
from .consts import (
    AREAS, CIT_DISPLAY, CIT_NAME, CIT_SLOTS, COPIES, DOM_NAME, DUKES, DUKE_NAME, MON_NAME, N_DOM,
    RES_ID, RULES, SLOT_TYPES, STARTER_TYPES, TIERS,
)
from .roll import RollMixin
from .tables import (
    ACT, CIT0, DOM0, DUKE_ACTS, LAST_BUILD, LAST_CAPTURE, LAST_MOVE, LAST_SLAY, NT, N_CIT_POS, N_MON_POS, N_POS,
    PHASE_NAME, P_DUKES, P_OVER, SEAT, SETUP_TABLE, TASK_NAME, duke_score, src_name,
)


#: Names other modules (views, bots, encoding, tests) import from ``rules``.
__all__ = [
    "ACT", "CIT0", "DOM0", "N_CIT_POS", "N_MON_POS", "N_POS", "NT", "P_DUKES", "P_OVER", "PHASE_NAME",
    "SLOT_TYPES", "TASK_NAME", "ValeriaState", "duke_score",
]

_TEXT: Final[dict[tuple[object, ...], str]] = {}  # set-up texts, built once


class ValeriaState(RollMixin):
    """A game of Valeria: Card Kingdoms for 1-5 players.

    The fields (all plain data) and the queries on them (positions, scoring) are declared in
    :class:`~.fields.ValeriaFields`, the root of the chain of phase classes this one extends;
    ``tasks``/``lanes`` are the pending tasks (the engine's turn flow). This class adds set-up, the Dukes, the
    views and determinization.
    """

    __slots__ = ()

    # ------------------------------------------------------------ set-up (R3, R11, R12)
    def _setup(self) -> None:
        n = self.players
        five = n == 5
        setup = self.options["setup"]
        mixed = self.options["citizens"] == "mixed"
        if setup == "random":
            areas = tuple(tier[self.randbelow(len(tier))] for tier in TIERS)
            cit_types = tuple(SLOT_TYPES[p][self.randbelow(len(SLOT_TYPES[p]))] for p in range(N_CIT_POS))
            removed: tuple[int, ...] = ()
            name = "a random setup"
        else:
            name, areas, cit_types, removed = SETUP_TABLE[setup]
        self.areas = areas
        self.cit_types = cit_types
        stacks = [monster_stack(a, five) for a in areas]
        per_stack = RULES.citizens_per_stack_five if five else RULES.citizens_per_stack
        cit_box = []
        cit_down = []
        for p in range(N_CIT_POS):
            types = SLOT_TYPES[p]
            if mixed and len(types) > 1:
                pool = [t for t in types for _ in range(COPIES)]
                self.shuffle(pool)
                down = RULES.mixed_face_down_five if five else RULES.mixed_face_down
                stacks.append(tuple(pool[:down + 1]))
                cit_box.append(tuple(pool[down + 1:]))
                cit_down.append(down)
            else:
                stacks.append((cit_types[p],) * per_stack)
                cit_box.append(())
                cit_down.append(0)
        pool = [d for d in range(N_DOM) if d not in removed] if removed else list(range(N_DOM))
        self.shuffle(pool)
        down = RULES.domains_face_down_five if five else RULES.domains_face_down
        for p in range(5):
            stacks.append(tuple(pool[p * (down + 1):(p + 1) * (down + 1)]))
        self.dom_box = tuple(pool[5 * (down + 1):])
        self.stacks = stacks
        self.cit_box = tuple(cit_box)
        self.cit_down = cit_down
        self.exhausted = 0
        self.res = [RULES.start_gold, 0, RULES.start_magic, 0] * n
        own = [0] * (NT * n)
        for s in range(n):
            for t in STARTER_TYPES:
                own[s * NT + t] = 1
        self.own = own
        self.doms = [()] * n
        self.victory = [()] * n
        dukes = list(range(len(DUKES)))
        self.shuffle(dukes)
        k = RULES.dukes_dealt
        self.offers = [tuple(dukes[s * k:(s + 1) * k]) for s in range(n)]
        self.dukes = [-1] * n
        self.dark_lord = -1
        self.cap_cit = ()
        self.cap_dom = ()
        self.first = self.randbelow(n)
        self.active = self.first
        self.turn = 0
        self.dice = ()
        self.roll_used = 0
        self.hbase = ()
        self.payouts = ()
        self.hsteals = self.steals = ()
        self.last = ()
        self.result = ""
        self.phase = P_DUKES
        key = ("setup", name, mixed, areas, cit_types)
        text = _TEXT.get(key)
        if text is None:
            text = _TEXT[key] = (
                f"Set-up: {name}{' (mixed Citizen stacks)' if mixed else ''}. Monsters, left to right: "
                + ", ".join(AREAS[a] for a in areas) + ". Citizens: "
                + ", ".join(self._cit_stack_name(p) for p in range(N_CIT_POS)) + ". ")
        self.emit("setup", None, text + f"{SEAT[self.first]} is the first player.",
                  {"setup": setup, "areas": [AREAS[a] for a in areas], "first": self.first})
        for s in range(n):
            self.emit("dukes-dealt", s, f"{SEAT[s]} is dealt "
                      + " and ".join(DUKE_NAME[d] for d in self.offers[s]) + ".",
                      {"dukes": [DUKE_NAME[d] for d in self.offers[s]]}, visible=(s,))
        # every seat keeps a Duke at the same time (R3.14), then the first turn begins
        self.tasks = [("begin", None)]
        self.lanes = None
        self.split([[("duke", s)] for s in range(n)])
        self.run()

    def _after_restore(self) -> None:
        """Check a restored state's shape (raises ValueError naming what is wrong)."""
        n = self.players
        if not 0 <= self.phase < len(PHASE_NAME):
            raise ValueError(f"unknown phase {self.phase}")
        if len(self.res) != 4 * n or len(self.own) != NT * n:
            raise ValueError("resources or tableau counts have the wrong length")
        if len(self.stacks) != N_POS or len(self.doms) != n or len(self.victory) != n:
            raise ValueError("the Center Stacks or tableaus have the wrong shape")
        for t in self.tasks:
            if t[0] not in self.TASK_KINDS:
                raise ValueError(f"unknown task {t!r}")
        if self.last and (len(self.last) != 4 or not 0 <= self.last[2] < N_POS):
            raise ValueError(f"'last' must be [seat, move, position, card], got {self.last!r}")

    # ------------------------------------------------------------ Dukes (R3.14, R12.2)
    @prompt("duke")
    def _duke_prompt(self, task: Task) -> Decision:
        seat = task[1]
        return Decision(seat, "choose-duke", "Keep one of your two Dukes; it stays secret until the end.",
                        "Your Duke scores at the end of the game (R3.14, R8.4).")

    @choices("duke")
    def _duke_choices(self, task: Task) -> list[Action]:
        seat: int = task[1]
        return [DUKE_ACTS[d] for d in self.offers[seat]]

    @resolve("duke")
    def _choose_duke(self, task: Task, action: Action) -> None:
        seat: int = task[1]
        duke: int = action.payload
        self.dukes[seat] = duke
        self.emit("duke", seat, f"{SEAT[seat]} keeps {DUKE_NAME[duke]}.", {"duke": DUKE_NAME[duke]},
                  visible=(seat,))
        others = tuple(x for x in range(self.players) if x != seat)
        if others:
            self.emit("duke-kept", seat, f"{SEAT[seat]} has chosen a Duke.", visible=others)

    @auto("begin")
    def _begin(self, task: Task) -> None:
        """Every Duke is kept: solo draws the Dark Lord (R12.2); the first player's turn starts."""
        if self.solo:
            pool = [d for d in range(len(DUKES)) if d != self.dukes[0]]
            self.dark_lord = pool[self.randbelow(len(pool))]
            self.emit("dark-lord", None, "A random Duke is placed face down above the Monsters: the Dark Lord.")
        self._start_turn(self.first)

    # ------------------------------------------------------------ search
    def horizon_clone(self) -> "ValeriaState":
        """A copy for search whose play stops at the End Phase of the current turn.

        With several players, reaching the End Phase of a turn that does not end the game
        ends play in the copy (``is_over`` True, ``phase`` not ``P_OVER``, ``winners`` ()),
        so a look-ahead values the position without the next player's dice; solo play goes
        on. Its clones and children (``child``) keep the horizon: the turn's pending ``end``
        task is marked ``("end", seat, "horizon")``.
        """
        other = self.clone()
        tasks = other.tasks
        for i, task in enumerate(tasks):
            if task[0] == "end" and not other.solo:
                tasks[i] = ("end", task[1], "horizon")
        return other

    # ------------------------------------------------------------ views
    def _observation(self, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` sees it: no other seat's Duke before the end, no face-down card."""
        over = self.phase == P_OVER
        n = self.players
        stacks = self.stacks
        players = []
        for s in range(n):
            b = s * 4
            own = self.own[s * NT:(s + 1) * NT]
            p = {
                "gold": self.res[b], "strength": self.res[b + 1], "magic": self.res[b + 2],
                "vp_tokens": self.res[b + 3],
                "citizens": {CIT_DISPLAY[t]: c for t, c in enumerate(own) if c},
                "domains": [DOM_NAME[d] for d in self.doms[s]],
                "victory": [MON_NAME[m] for m in self.victory[s]],
                "public_vp": self.public_vp(s),
                "duke_chosen": self.dukes[s] >= 0,
                "tableau_cards": self.tableau_size(s),  # the tie-break counts them (R8.6)
            }
            if over or s == seat:
                p["duke"] = DUKE_NAME[self.dukes[s]] if self.dukes[s] >= 0 else None
                if self.dukes[s] >= 0:
                    p["duke_vp"] = self.duke_vp(s)
            if s == seat and self.phase == P_DUKES:
                p["duke_offer"] = [DUKE_NAME[d] for d in self.offers[s]]
            players.append(p)
        obs = {
            "game": self.game_id, "seat": seat, "players": n, "setup": self.options["setup"],
            "citizen_stacks": self.options["citizens"], "phase": PHASE_NAME[self.phase],
            "turn": self.turn, "active": self.active, "first_player": self.first, "resting": self.resting,
            "dice": list(self.dice),
            "monsters": [{"area": AREAS[self.areas[p]], "cards": [MON_NAME[m] for m in stacks[p]],
                          "exhausted": bool(self.exhausted >> p & 1)} for p in range(N_MON_POS)],
            "citizens": [{"slot": "-".join(map(str, CIT_SLOTS[SLOT_TYPES[i][0]])),
                          "face_down": self.cit_down[i],
                          "face_up": [CIT_NAME[t] for t in stacks[CIT0 + i][self.cit_down[i]:]],
                          "exhausted": bool(self.exhausted >> (CIT0 + i) & 1)} for i in range(N_CIT_POS)],
            "domains": [{"top": DOM_NAME[stacks[p][-1]] if stacks[p] else None,
                         "face_down": max(0, len(stacks[p]) - 1),
                         "exhausted": bool(self.exhausted >> p & 1)} for p in range(DOM0, N_POS)],
            "domains_in_box": len(self.dom_box),
            "exhausted": self.exhausted_count(),
            "player": players,
            "pending": self._pending_view(),
            "last_harvest": [list(p) for p in self.payouts],
            # what each Thief took in that Harvest, and who rested in it (5 players, R11.6)
            "last_harvest_steals": [{"thief": t, "victim": v, "resource": RES_ID[r], "amount": k,
                                     "card": src_name(src)} for t, v, r, k, src in self.steals],
            "last_harvest_resting": self.payouts_resting,
            "last_move": self._last_view(),
            "is_over": over,
            "scores": self.scores if over else None,
            "winners": list(self.winners),
        }
        if self.solo:
            obs["dark_lord"] = {
                "duke": DUKE_NAME[self.dark_lord] if over and self.dark_lord >= 0 else None,
                "captured_citizens": [CIT_NAME[t] for t in self.cap_cit],
                "captured_domains": [DOM_NAME[d] for d in self.cap_dom],
                "score": self.dark_lord_score() if over else None,
                "result": self.result or None,
            }
        return obs

    def _last_view(self) -> dict[str, Any] | None:
        """The last card that left the Center Stacks: who took it, how, from where (public)."""
        if not self.last:
            return None
        seat, move, p, card = self.last
        if move == LAST_SLAY:
            name = MON_NAME[card]
        elif move == LAST_BUILD or (move == LAST_CAPTURE and p >= DOM0):
            name = DOM_NAME[card]
        else:
            name = CIT_NAME[card]
        row, index = ("monsters", p) if p < CIT0 else ("citizens", p - CIT0) if p < DOM0 else ("domains", p - DOM0)
        return {"seat": seat if seat >= 0 else None, "move": LAST_MOVE[move], "row": row, "index": index,
                "card": name}

    def _pending_view(self) -> dict[str, Any] | None:
        if self.phase in (P_DUKES, P_OVER) or not self.tasks:
            return None
        t = self.tasks[-1]
        kind = t[0]
        view = {"task": kind, "seat": t[1]}
        if kind == "step":
            view["card"] = src_name(t[3])
            view["effect"] = step_text(t[2])
        elif kind == "action":
            view["actions_left"] = t[2]
        elif kind == "pay":
            # the card being paid for: its Center Stack row and column (R6.2, R6.6, R6.11)
            p = t[3]
            view["what"] = ("slay", "recruit", "build")[t[2]]
            view["row"], view["index"] = (("monsters", p) if p < CIT0 else ("citizens", p - CIT0) if p < DOM0
                                          else ("domains", p - DOM0))
        elif kind == "attack":
            view["column"] = t[2]  # -1: a 6, the player picks the stack (R12.9)
        return view

    def _determinize(self, seat: int) -> None:
        """Resample the face-down Domains, mixed Citizens, and the Dukes ``seat`` has not seen."""
        if self.phase == P_OVER:
            return
        stacks = self.stacks
        pool = list(self.dom_box)
        for p in range(DOM0, N_POS):
            pool.extend(stacks[p][:-1])
        pool.sort()  # canonical order first: the result must not depend on the hidden order
        self.shuffle(pool)
        i = 0
        for p in range(DOM0, N_POS):
            k = len(stacks[p]) - 1
            if k > 0:
                stacks[p] = tuple(pool[i:i + k]) + stacks[p][-1:]
                i += k
        self.dom_box = tuple(pool[i:])
        boxes = list(self.cit_box)
        for c in range(N_CIT_POS):
            down = self.cit_down[c]
            if not down and not boxes[c]:
                continue
            p = CIT0 + c
            cpool = sorted(stacks[p][:down] + tuple(boxes[c]))
            self.shuffle(cpool)
            stacks[p] = tuple(cpool[:down]) + stacks[p][down:]
            boxes[c] = tuple(cpool[down:])
        self.cit_box = tuple(boxes)
        known = set(self.offers[seat])
        pool = [d for d in range(len(DUKES)) if d not in known]
        self.shuffle(pool)
        k = RULES.dukes_dealt
        j = 0
        for s in range(self.players):
            if s == seat:
                continue
            self.offers[s] = tuple(pool[j:j + k])
            j += k
            if self.dukes[s] >= 0:
                self.dukes[s] = self.offers[s][0]
        if self.dark_lord >= 0:
            pool = [d for d in range(len(DUKES)) if d != self.dukes[seat]]
            self.dark_lord = pool[self.randbelow(len(pool))]
