"""The start of a turn and rolling (rulebook: A Roll Dice, B Re-roll Dice; Captains Willem the Artificer,
Luthor the Sea Artist, Prince of Bella Ire, Mistress of the Skull, Reo the Cartographer).
"""

from __future__ import annotations

from dicetable.engine import Action, Decision, auto, choices, prompt, resolve
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from .consts import (
    CANNON, CAPTAINS, CORSAIRS_DIE, DICE, DIE_FACES, FACE_INDEX, FACE_WORD, GROG, LUTHOR, MAP, MISTRESS,
    PRINCE, REO, SILVER, SKULL_GROG, WILLEM,
)
from .common import (
    ACT_KEEP,
    ACT_MISTRESS,
    ACT_REO,
    ACT_ROLL,
    ACT_SET_CANNON,
    ACT_SET_MAP,
    DICE_KEY,
    F_ARRIVED,
    PLAYER,
    REROLL_MENUS,
    SUPPLY_KEY,
    captain_name,
    counter_key,
    dice_info,
    faces_text,
    reroll_key,
    reroll_menu,
)
from .actions import DiceActions


class Rolling(DiceActions):
    """Turn start, phase A and phase B of :class:`~.state.CorsairsState` (the last phase class of the chain: on :class:`~.actions.DiceActions`)."""

    __slots__ = ()

    # ============================================================ the turn
    @auto("turn")
    def _begin_turn(self, task: Task) -> None:
        seat: int = task[1]
        self.current = seat
        self.turn += 1
        self.flags = 0
        self._begin_phases(seat)

    def _begin_phases(self, seat: int) -> None:
        """Phases A, B, end-of-B Captains and C of ``seat`` (also a 5-Grog restart)."""
        self.dice = []
        self.marked = 0
        self.rerolls = 0
        self.left = [0, 0, 0, 0]
        self.flags &= F_ARRIVED
        self.then(("roll", seat), ("reroll", seat), ("captain-b", seat), ("execute", seat))

    def _roll(self, count: int, preset: tuple[int, ...] = ()) -> list[int]:
        """Roll ``count`` dice beside the ``preset`` faces; the dice are kept sorted. Returns the rolled faces."""
        rolled = [FACE_INDEX[f] for f in self.roll_many(CORSAIRS_DIE, count)]
        self.dice = sorted([*preset, *rolled])
        self.marked = 0
        return rolled

    def _roll_all(self, seat: int) -> None:
        """Phase A's roll of all the dice, with its event (the turn begins with it)."""
        rolled = self._roll(DICE)
        if not self.quiet:
            text, names = dice_info(self.dice)
            self.emit("roll", seat, f"Turn {self.turn}: {PLAYER[seat]} rolls {text}.",
                      {"dice": names, "turn": self.turn},
                      effects=[fx.turn(seat), fx.roll(DICE_KEY, [DIE_FACES[f] for f in rolled], seat)])

    # --- A: Roll Dice
    @auto("roll")
    def _phase_a(self, task: Task) -> None:
        seat: int = task[1]
        self.phase = "A"
        if self.captain[seat] in (WILLEM, LUTHOR) and self.grog[seat] >= 1:
            self.tasks.append(("roll?", seat))
            return
        self._roll_all(seat)

    @prompt("roll?")
    def _roll_prompt(self, task: Task) -> Decision:
        cap = self.captain[task[1]]
        face = "Cannon" if cap == WILLEM else "Map"
        return Decision(task[1], "roll", f"Phase A: roll the dice, or first pay 1 Grog to set one die to "
                        f"the {face} face ({captain_name(cap)}).",
                        f"{CAPTAINS[cap].text}")

    @choices("roll?")
    def _roll_choices(self, task: Task) -> list[Action]:
        return [ACT_ROLL, ACT_SET_CANNON if self.captain[task[1]] == WILLEM else ACT_SET_MAP]

    @resolve("roll?")
    def _roll_chosen(self, task: Task, action: Action) -> None:
        seat: int = task[1]
        if action.id == "roll":
            self._roll_all(seat)
            return
        face = CANNON if action.id == "set-cannon" else MAP
        self.grog[seat] -= 1
        rolled = self._roll(DICE - 1, (face,))
        if not self.quiet:
            text, names = dice_info(self.dice)
            self.emit("roll", seat, f"Turn {self.turn}: {PLAYER[seat]} ({captain_name(self.captain[seat])}) pays "
                      f"1 Grog to set a die to the {FACE_WORD[face]} face and rolls the rest: {text}.",
                      {"dice": names, "set": DIE_FACES[face], "turn": self.turn},
                      effects=[fx.turn(seat), fx.count(counter_key(seat, "grog"), -1, self.grog[seat]),
                               fx.set_aside(DICE_KEY, [DIE_FACES[face]], seat),
                               fx.roll(DICE_KEY, [DIE_FACES[f] for f in rolled], seat)])

    # --- B: Re-roll Dice
    def reroll_payments(self, seat: int) -> tuple[bool, bool]:
        """``(grog, silver)``: whether ``seat`` can pay a re-roll now with 1 Grog, and with 1 Silver
        (only the Prince of Bella Ire may) (rulebook: B Re-roll Dice; Captain Cards). Read-only."""
        return self.grog[seat] >= 1, self.captain[seat] == PRINCE and self.silver[seat] >= 1

    @auto("reroll")
    def _phase_b(self, task: Task) -> None:
        seat: int = task[1]
        self.phase = "B"
        if any(self.reroll_payments(seat)):
            self.tasks.append(("reroll?", seat))
            return
        self.marked = 0
        if not self.quiet:
            text, names = dice_info(self.dice)
            self.emit("lock", seat, f"{PLAYER[seat]} cannot pay for a re-roll: the dice are locked ({text}).",
                      {"dice": names}, effects=[fx.set_aside(DICE_KEY, names, seat)])

    @prompt("reroll?")
    def _reroll_prompt(self, task: Task) -> Decision:
        seat: int = task[1]
        pay = f"{self.grog[seat]} Grog"
        if self.captain[seat] == PRINCE:
            pay += f", {self.silver[seat]} Silver (Prince of Bella Ire)"
        marked = [str(i + 1) for i in range(len(self.dice)) if (self.marked >> i) & 1]
        prompt = (f"Phase B: your dice show {faces_text(self.dice)}. Mark dice to re-roll"
                  + (f" (marked: {', '.join(marked)})" if marked else "") + f", then re-roll or lock. You have {pay}.")
        return Decision(seat, "reroll", prompt,
                        "You may re-roll any or all of your dice by spending 1 Grog; every re-roll costs 1 Grog. "
                        "When you stop (lock) or can no longer pay, the dice are your last roll. Mark every die you "
                        "want to roll again, then re-roll them together; unmark a die to keep it.")

    @choices("reroll?")
    def _reroll_choices(self, task: Task) -> tuple[Action, ...]:
        seat: int = task[1]
        grog, silver = self.reroll_payments(seat)
        dice = self.dice
        marked = self.marked
        key = reroll_key(dice, marked, grog, silver)
        menu = REROLL_MENUS.get(key)
        if menu is None:
            menu = REROLL_MENUS[key] = reroll_menu(tuple(dice), marked, grog, silver)
        return menu

    @resolve("reroll?")
    def _reroll_chosen(self, task: Task, action: Action) -> None:
        seat: int = task[1]
        aid = action.id
        if aid == "lock":
            self.marked = 0
            if not self.quiet:
                text, names = dice_info(self.dice)
                self.emit("lock", seat, f"{PLAYER[seat]} locks the dice: {text}.", {"dice": names},
                          effects=[fx.set_aside(DICE_KEY, names, seat)])
            return
        if aid.startswith("mark:"):
            die: int = action.payload  # the die's index (ACT_MARK)
            self.marked ^= 1 << die
            self.tasks.append(task)  # still deciding; marking pays nothing, so the re-roll stays payable
            return
        if aid == "reroll":
            self.grog[seat] -= 1
        else:
            self.silver[seat] -= 1
        marked = self.marked
        keep = [f for i, f in enumerate(self.dice) if not (marked >> i) & 1]
        again = [f for i, f in enumerate(self.dice) if (marked >> i) & 1]
        rolled = self._roll(len(again), tuple(keep))
        self.rerolls += 1
        self.tasks.append(("reroll", seat))  # another re-roll, if one can still be paid
        if not self.quiet:
            again_text, again_names = dice_info(again)
            text, names = dice_info(self.dice)
            paid = "1 Grog" if aid == "reroll" else "1 Silver"
            pay = ([fx.count(counter_key(seat, "grog"), -1, self.grog[seat])] if aid == "reroll" else
                   [fx.count(counter_key(seat, "silver"), -1, self.silver[seat]),
                    fx.count(SUPPLY_KEY, 1, self.supply)])
            self.emit("reroll", seat, f"{PLAYER[seat]} pays {paid} to re-roll {again_text}: now {text}.",
                      {"rerolled": again_names, "dice": names, "paid": "silver" if aid == "reroll-silver" else "grog"},
                      effects=[*pay, fx.roll(DICE_KEY, [DIE_FACES[f] for f in rolled], seat)])

    # --- end of B: Mistress of the Skull, Reo the Cartographer
    @auto("captain-b")
    def _end_of_b(self, task: Task) -> None:
        seat: int = task[1]
        cap = self.captain[seat]
        if (cap == MISTRESS and SKULL_GROG in self.dice) or (cap == REO and MAP in self.dice):
            self.tasks.append(("captain-b?", seat))

    @prompt("captain-b?")
    def _captain_b_prompt(self, task: Task) -> Decision:
        seat: int = task[1]
        cap = self.captain[seat]
        if cap == MISTRESS:
            prompt = f"End of phase B ({faces_text(self.dice)}): turn all Skull-and-Grog faces into Grog faces?"
        else:
            prompt = f"End of phase B ({faces_text(self.dice)}): change up to three Maps into Silver faces?"
        return Decision(seat, "captain-b", prompt, CAPTAINS[cap].text)

    @choices("captain-b?")
    def _captain_b_choices(self, task: Task) -> list[Action]:
        if self.captain[task[1]] == MISTRESS:
            return [ACT_MISTRESS, ACT_KEEP]
        maps = self.dice.count(MAP)
        return [ACT_REO[k] for k in range(1, min(3, maps) + 1)] + [ACT_KEEP]

    @resolve("captain-b?")
    def _captain_b_chosen(self, task: Task, action: Action) -> None:
        seat: int = task[1]
        if action.id == "keep":
            return
        if action.id == "mistress":
            n = self.dice.count(SKULL_GROG)
            self.dice = sorted(GROG if f == SKULL_GROG else f for f in self.dice)
            if not self.quiet:
                self.emit("mistress", seat, f"{PLAYER[seat]} (Mistress of the Skull) turns {n} Skull-and-Grog "
                          f"{'face' if n == 1 else 'faces'} into Grog: {faces_text(self.dice)}.", {"changed": n},
                          effects=[fx.set_aside(DICE_KEY, [DIE_FACES[GROG]] * n, seat)])
            return
        k = action.payload
        dice = list(self.dice)
        for _ in range(k):
            dice[dice.index(MAP)] = SILVER
        self.dice = sorted(dice)
        if not self.quiet:
            self.emit("reo", seat, f"{PLAYER[seat]} (Reo the Cartographer) changes {k} "
                      f"Map{'s' if k > 1 else ''} into Silver: {faces_text(self.dice)}.", {"changed": k},
                      effects=[fx.set_aside(DICE_KEY, [DIE_FACES[SILVER]] * k, seat)])
