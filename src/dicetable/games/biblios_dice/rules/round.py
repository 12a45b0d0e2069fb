"""A round outside the market (rulebook: Phase 0 (2 players), Phase I - Roll, Phase II - the Mule,
Phase III - Dice Selection, Phase IV - End of the Round): a rule class of :class:`~.state.BibliosDiceState` (on :mod:`.market`).

Tasks (``None``: no seat concerned):

``("round", None)``        automatic: a new round (Phase 0 for Cadfael, Phase I's roll); then
                           the first player's ``reroll`` decision (or straight to Phase II,
                           the Mule, without a VP to pay), then ``round-end``;
``("reroll", seat)``       decision: mark a die (``mark:<kind>``), ``clear``, ``reroll`` (pays
                           1 VP, once) or ``keep``; then Phase II: the Mule moves, and the
                           ``market`` or the first player's ``select`` follows;
``("select", seat)``       decision: take all dice of one type from the pool (``take:<kind>``);
``("select-end", seat)``   automatic: once the take's own choices are made (at once when it
                           leaves none), the next seat selects, or the pool is empty and the
                           Monastery Card passes;
``("round-end", None)``    automatic: Phase IV, the end of the game or a new round.
"""

from __future__ import annotations

from dicetable.engine import Action, Decision, auto, choices, prompt, resolve, seat_name
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from ..components import resource_dice_for
from .consts import (
    ADJUST, ADJ_DIE, ADJ_INDEX, BISHOP, CADFAEL, GOLD, GOLD_DIE, MULE_DIE, MULE_FINAL, NRES, NTRACKS,
    RESOURCE_DIE, SCORING, SYMBOL_INDEX, SYMBOL_NAMES, TOP,
)
from ..keys import dice_faces
from .common import (
    CLEAR_ACTION, GOLD_VALUE_INDEX, KEEP_ACTION, MARK_ACTIONS, MARK_ADJUST, MARK_GOLD, MARK_KINDS, MARK_MULE,
    REROLL, REROLL_ACTION, REROLL_COST, SELECT, dice_count, dice_json, dice_text, symbol_count,
    take_actions,
)
from .market import MarketRules



class RoundRules(MarketRules):
    """Phases 0-IV of a round but the market (see the module docstring); needs the state's fields."""

    __slots__ = ()

    @auto("round")
    def _start_round(self, task: Task) -> None:
        self.round_no += 1
        self.phase = REROLL
        self.current = self.first
        self.topped = 0
        if not self.quiet:
            self.emit("round", None, f"Round {self.round_no}: {seat_name(self.first)} holds the "
                      "Monastery Card.", {"round": self.round_no, "first": self.first},
                      effects=[fx.round_begins(self.round_no), fx.count("round", 1, self.round_no)])
        if self.cad >= 0:
            self._cadfael_phase()
        pool = [0] * NTRACKS + [-1, -1]
        for _ in range(resource_dice_for(self.players)):
            pool[SYMBOL_INDEX[self.roll(RESOURCE_DIE)]] += 1
        pool[GOLD] = GOLD_VALUE_INDEX[self.roll(GOLD_DIE)]
        self.mule_roll = self.roll(MULE_DIE)
        pool[ADJUST] = ADJ_INDEX[self.roll(ADJ_DIE)]
        self.pool = pool
        self.marks = [0] * len(MARK_KINDS)
        if not self.quiet:
            rolled = dice_json(pool)
            self.emit("roll", self.first, f"Phase I: {seat_name(self.first)} rolls {dice_text(pool)}; "
                      f"Mule Die {self.mule_roll}.", {"dice": rolled, "mule_die": self.mule_roll},
                      effects=[fx.turn(self.first), fx.roll("dice", dice_faces(rolled, self.mule_roll), self.first)])
        # The re-roll costs a VP: a first player without one goes straight to Phase II.
        self.tasks.append(("round-end", None))
        if self.vp[self.first] < REROLL_COST:
            self._advance_mule()
        else:
            self.tasks.append((REROLL, self.first))

    def _cadfael_phase(self) -> None:
        """Phase 0 (2 players): 3 Resource Dice for Cadfael, his markers move up."""
        counts = [0] * NTRACKS
        faces = []
        for _ in range(CADFAEL.dice):
            face = self.roll(RESOURCE_DIE)
            faces.append(face)
            counts[SYMBOL_INDEX[face]] += 1
        if not self.quiet:
            self.emit("cadfael-roll", None, f"Phase 0: {seat_name(self.first)} rolls "
                      f"{CADFAEL.dice} Resource Dice for Cadfael: " + ", ".join(
                          SYMBOL_NAMES[SYMBOL_INDEX[f]] for f in faces) + ".", {"dice": faces},
                      effects=[fx.roll("dice", faces)])
        self.topped = 0
        for t in range(NTRACKS):
            if counts[t]:
                self._take_symbol(self.cad, t, counts[t])
        self.topped = 0

    # ------------------------------------------------------------ Phase I: the re-roll
    @prompt(REROLL)
    def _reroll_prompt(self, task: Task) -> Decision:
        marked = sum(self.marks)
        return Decision(task[1], REROLL, "Phase I: keep the dice, or mark dice and pay 1 VP to re-roll them"
                        + (f" ({marked} marked)." if marked else "."),
                        "Once per round the first player may re-roll any or all of the dice for 1 VP. "
                        "The Mule Die moves the Mule; on its final space everyone goes to the market.")

    @choices(REROLL)
    def _reroll_choices(self, task: Task) -> list[Action]:
        marks = self.marks
        pool = self.pool
        out = [MARK_ACTIONS[k] for k in range(NTRACKS) if pool[k] > marks[k]]
        if not marks[MARK_GOLD]:
            out.append(MARK_ACTIONS[MARK_GOLD])
        if not marks[MARK_ADJUST]:
            out.append(MARK_ACTIONS[MARK_ADJUST])
        if not marks[MARK_MULE]:
            out.append(MARK_ACTIONS[MARK_MULE])
        if any(marks):
            out.append(REROLL_ACTION)
            out.append(CLEAR_ACTION)
        out.append(KEEP_ACTION)
        return out

    @resolve(REROLL)
    def _reroll(self, task: Task, action: Action) -> None:
        seat = task[1]
        aid = action.id
        marks = self.marks
        if action.payload is not None:              # mark:<kind>, one die more to re-roll
            marks[action.payload] += 1
            self.tasks.append(task)
        elif aid == "keep":
            if not self.quiet:
                self.emit("keep", seat, f"{seat_name(seat)} keeps the dice.")
            self._advance_mule()
        elif aid == "clear":
            self.marks = [0] * len(MARK_KINDS)
            self.tasks.append(task)
        elif aid == "reroll":
            self.vp[seat] -= REROLL_COST
            pool = self.pool
            count = 0
            for k in range(NTRACKS):
                pool[k] -= marks[k]
                count += marks[k]
            rolled: list = []
            for _ in range(count):
                rolled.append(self.roll(RESOURCE_DIE))
                pool[SYMBOL_INDEX[rolled[-1]]] += 1
            if marks[MARK_GOLD]:
                rolled.append(self.roll(GOLD_DIE))
                pool[GOLD] = GOLD_VALUE_INDEX[rolled[-1]]
            if marks[MARK_MULE]:
                self.mule_roll = self.roll(MULE_DIE)
                rolled.append(self.mule_roll)
            if marks[MARK_ADJUST]:
                rolled.append(self.roll(ADJ_DIE))
                pool[ADJUST] = ADJ_INDEX[rolled[-1]]
            if not self.quiet:
                what = [symbol_count(marks[k], k) for k in range(NTRACKS) if marks[k]] + [
                    name for name, i in (("Gold", MARK_GOLD), ("Mule", MARK_MULE), ("Adjustment", MARK_ADJUST))
                    if marks[i]]
                self.emit("reroll", seat, f"{seat_name(seat)} pays {REROLL_COST} VP and re-rolls "
                          + ", ".join(what) + f": now {dice_text(pool)}; Mule Die {self.mule_roll}.",
                          {"dice": dice_json(pool), "mule_die": self.mule_roll},
                          effects=[fx.roll("dice", sorted(rolled[:count], key=SYMBOL_INDEX.__getitem__)
                                           + rolled[count:], seat)])
            self._advance_mule()

    # ------------------------------------------------------------ Phase II: the Mule
    def _advance_mule(self) -> None:
        """Phase II: the Mule moves the Mule Die's number, stopping on the final space."""
        old = self.mule
        self.mule = min(self.mule + self.mule_roll, MULE_FINAL)
        self.marks = [0] * len(MARK_KINDS)
        if not self.quiet:
            self.emit("mule", None, f"Phase II: the Mule advances {self.mule_roll} to space "
                      f"{self.mule + 1} of {MULE_FINAL + 1}.", {"mule": self.mule},
                      effects=[fx.move("mule", f"mule-{old + 1}", f"mule-{self.mule + 1}")] if self.mule != old
                      else None)
        if self.mule == MULE_FINAL:
            self.tasks.append(("market", None))
        else:
            self.phase = SELECT
            self.current = self.first
            self.topped = 0
            self.tasks.append((SELECT, self.first))

    # ------------------------------------------------------------ Phase III: dice selection
    @prompt(SELECT)
    def _select_prompt(self, task: Task) -> Decision:
        return Decision(task[1], SELECT, "Phase III: choose one type of dice from the dice pool.",
                        "You take all dice showing that symbol and resolve them at once: Resource "
                        "Dice move you up their track, Bishop dice up the Bishop Track, the Gold Die "
                        "gives Gold, the Adjustment Die changes Value Dice.")

    @choices(SELECT)
    def _select_choices(self, task: Task) -> list[Action]:
        return take_actions(self.pool, self.players)

    @resolve(SELECT)
    def _select(self, task: Task, action: Action) -> None:
        self._take_then(task, action.payload, self.pool, "select-end", self._select_end)

    @auto("select-end")
    def _select_end(self, task: Task) -> None:
        if dice_count(self.pool) == 0:
            old = self.first
            self.first = (self.first + 1) % self.players
            if not self.quiet:
                self.emit("monastery", None, f"The dice pool is empty: the Monastery Card passes to "
                          f"{seat_name(self.first)}.", {"first": self.first},
                          effects=[fx.move("monastery", f"p-{old}", f"p-{self.first}")])
        else:
            self.current = (self.current + 1) % self.players
            self.topped = 0
            self.tasks.append((SELECT, self.current))

    # ------------------------------------------------------------ Phase IV
    @auto("round-end")
    def _end_round(self, task: Task) -> None:
        """Phase IV: check both game-end conditions, else a new round."""
        nm = self.nm
        pos = self.pos
        bishop = any(pos[BISHOP * nm + m] == TOP[BISHOP] for m in range(nm))
        tops = sum(1 for t in range(NRES) for m in range(nm) if pos[t * nm + m] == TOP[t])
        if (SCORING.bishop_top_ends and bishop) or tops >= SCORING.resource_tops_to_end:
            why = ("a marker reached the top of the Bishop Track" if bishop
                   else f"{tops} markers are on top spaces of Resource Tracks")
            self._finish(why)
        else:
            self.tasks.append(("round", None))
