"""The Roll Phase (R5.4-R5.6): the Active player rolls; die-changing Domains; doubles."""

from __future__ import annotations

from typing import Final

from dicetable.engine import Action, Decision, choices, prompt, resolve, auto
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from ..components import amount_text
from .consts import DIE, DOM_NAME, DOM_ROLL, DOM_SLUG, DOM_WHEN, RES_ID, W_DOUBLES, W_ROLL
from .harvest import HarvestMixin
from .tables import (
    DONE_DICE, P_ROLL, SEAT, TURN_PUSH,
)

_CACHE: Final[dict[tuple[int, int, int, int, int], Action]] = {}  # die-change actions, built once per (Domain, die, from, to, times)


class RollMixin(HarvestMixin):
    """The Roll Phase; a link of the chain ``ValeriaState`` extends."""

    __slots__ = ()

    def _start_turn(self, seat: int) -> None:
        """Make ``seat`` the Active player, roll the two dice and schedule the turn's phases (R5.1)."""
        self.active = seat
        turn = self.turn = self.turn + 1
        self.roll_used = 0
        self.phase = P_ROLL
        a, b = self.roll_many(DIE, 2)
        self.dice = (a, b)
        n = self.players
        # TURN_TASKS[(seat, solo)] onto the stack, last first; without a die-changing Domain the
        # dice are final at once (R5.6), and its first task, ``dice-changes``, is left out
        roll = 0
        for d in self.doms[seat]:
            if DOM_WHEN[d] == W_ROLL:
                roll = 1
                break
        self.tasks.extend(TURN_PUSH[seat * 2 + (1 if n == 1 else 0)][roll])
        if not self.quiet:
            if n == 5:
                text = f"Turn {turn}: {SEAT[seat]} rolls {a} and {b} ({SEAT[(seat - 1) % 5]} rests)."
            else:
                text = f"Turn {turn}: {SEAT[seat]} rolls {a} and {b}."
            effects = [fx.turn(seat), fx.roll("dice", [a, b], seat)]
            if seat == self.first and n > 1:  # a round: every player one turn, from the first player (R8.1)
                effects.insert(0, fx.round_begins((turn - 1) // n + 1))
            self.emit("roll", seat, text, {"dice": [a, b], "turn": turn, "effects": effects})  # as emit would store them
        if a == b:
            self._doubles()

    def _doubles(self) -> None:
        """Doubles shown in a Roll Phase: every owner of a doubles Domain triggers (C-GE)."""
        for s in range(self.players):
            self._trigger(s, W_DOUBLES)

    def _roll_options(self, seat: int) -> list[Action]:
        """The die changes the Active player may still make this Roll Phase (R5.5)."""
        out = []
        b = seat * 4
        gold = self.res[b]
        for d in self.doms[seat]:
            if DOM_WHEN[d] != W_ROLL or self.roll_used >> d & 1:
                continue
            set_to, lower, pay, per = DOM_ROLL[d]
            times = self.count(seat, *per) if per else 1
            cost = pay[0] * times
            if cost > gold or pay[1] * times > self.res[b + 1] or pay[2] * times > self.res[b + 2]:
                continue
            for i in (0, 1):
                v = self.dice[i]
                new = set_to if set_to else v - lower
                if new < 1 or new == v:
                    continue
                key = (d, i, v, new, times)
                a = _CACHE.get(key)
                if a is None:
                    paid = amount_text(tuple(x * times for x in pay))
                    a = _CACHE[key] = Action(
                        f"die:{DOM_SLUG[d]}:{i + 1}",
                        f"{DOM_NAME[d]}: change die {i + 1} from {v} to {new}"
                        + (f" (pay {paid})" if paid != "nothing" else ""),
                        (d, i, new, tuple(x * times for x in pay)))
                out.append(a)
        return out

    @auto("dice-changes")
    def _dice_changes(self, task: Task) -> None:
        """Ask the Active player while a die change is possible; otherwise the dice are final."""
        seat: int = task[1]
        if self._roll_options(seat):
            self.tasks.append(("roll", seat))

    @prompt("roll")
    def _roll_prompt(self, task: Task) -> Decision:
        seat = task[1]
        a, b = self.dice
        return Decision(seat, "roll", f"The dice show {a} and {b}: change a die with a Domain, or "
                        "announce the final dice.",
                        "Each of your die-changing Domains may be used once per Roll Phase (R5.5).")

    @choices("roll")
    def _roll_choices(self, task: Task) -> list[Action]:
        seat: int = task[1]
        return self._roll_options(seat) + [DONE_DICE]

    @resolve("roll")
    def _roll_resolve(self, task: Task, action: Action) -> None:
        seat = task[1]
        if action is DONE_DICE:
            if not self.quiet:
                a, b = self.dice
                self.emit("dice", seat, f"{SEAT[seat]} announces the dice: {a} and {b}.", {"dice": [a, b]})
            return
        d, i, new, pay = action.payload
        self._gain(seat, -pay[0], -pay[1], -pay[2], 0)
        self.roll_used |= 1 << d
        dice = list(self.dice)
        old = dice[i]
        dice[i] = new
        self.dice = tuple(dice)
        if not self.quiet:
            # A paid change says what was paid, as every other payment does (", paying 2 Gold").
            paying = f", paying {amount_text(pay)}" if any(pay) else ""
            self.emit("die-change", seat, f"{SEAT[seat]} uses {DOM_NAME[d]}: die {i + 1} {old} -> {new}{paying}.",
                      {"domain": DOM_NAME[d], "die": i + 1, "from": old, "to": new,
                       "paid": {w: x for w, x in zip((*RES_ID, "vp"), pay) if x}},
                      effects=[fx.reveal(f"die-{i}", "dice"), *self.res_effects(seat, tuple([-x for x in pay]))])
        self.tasks.append(("dice-changes", seat))  # more changes may follow, after any doubles powers
        if dice[0] == dice[1]:
            self._doubles()
