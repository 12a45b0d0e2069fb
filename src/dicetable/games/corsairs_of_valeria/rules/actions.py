"""Phase C, Execute Dice Actions (rulebook: C Execute Dice Actions, 5-of-a-kind; Captains Mister Bones,
Lucky Jax'n, Captain Hook, Jäger Knot): Skulls first, then the symbol groups in the player's order.
"""

from __future__ import annotations

from dicetable.engine import Action, Decision, auto, choices, counted, prompt, resolve
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from .consts import (
    BONES, CANNON, CAPTAINS, DICE, FACE_WORD, GROG, HOOK, JAGER, JAXN, MAP, SILVER, SKULL, SKULL_GROG,
    TREASURE_TO_WIN,
)
from .common import (
    ACT_BONES_IGNORE,
    ACT_BONES_PAY,
    ACT_GIVE_ALL,
    ACT_HOLD,
    ACT_JAGER_MOVE,
    ACT_JAGER_STAY,
    ACT_KEEP_SKULLS,
    F_ARRIVED,
    F_CANNON5,
    F_GROG5,
    F_HOOK_USED,
    F_JAXN,
    F_MAP5,
    GROUP_IDS,
    G_GROG,
    G_MAP,
    G_SILVER,
    ISLAND_KEY,
    ORDER_MENUS,
    PLAYER,
    count_faces,
    counter_key,
    faces_text,
    order_menu,
    seat_id,
    ship_key,
    space_key,
)
from .sailing import Sailing


class DiceActions(Sailing):
    """Phase C of :class:`~.state.CorsairsState` (a phase class of the chain: on :class:`~.sailing.Sailing`)."""

    __slots__ = ()

    # --- C: Execute Dice Actions
    @auto("execute")
    def _phase_c(self, task: Task) -> None:
        seat: int = task[1]
        self.phase = "C"
        c = count_faces(self.dice)
        skulls = c[SKULL] + c[SKULL_GROG]
        self.left = [c[GROG] + c[SKULL_GROG], c[SILVER], c[MAP], c[CANNON]]
        flags = self.flags
        if c[MAP] == DICE:
            flags |= F_MAP5
        if c[CANNON] == DICE:
            flags |= F_CANNON5
        if self.left[G_GROG] == DICE:
            flags |= F_GROG5
        if flags & F_ARRIVED:
            self.left[G_MAP] = 0
        elif self.captain[seat] == JAXN and c[MAP] == 0:
            flags |= F_JAXN
        self.flags = flags
        first: Task
        if skulls == DICE and self.players > 1:
            first = ("skull5?", seat)
        else:
            first = ("skulls", seat, skulls, 1)
        self.then(first, ("order", seat), ("end-c", seat))

    @prompt("skull5?")
    def _skull5_prompt(self, task: Task) -> Decision:
        return Decision(task[1], "skull5", "5-of-a-kind Skulls: hand all the dice out to the other players, "
                        "or keep them and lose Silver as usual?",
                        "If you have all 5 Skulls or Skull-and-Grog faces you may distribute all the dice to the "
                        "other players as you wish. They execute the dice as if it were their turn (Skull first, "
                        "then Grog). You lose no Silver and gain no Grog, and your turn is over.")

    @choices("skull5?")
    def _skull5_choices(self, task: Task) -> list[Action]:
        return [ACT_GIVE_ALL, ACT_KEEP_SKULLS]

    @resolve("skull5?")
    def _skull5_chosen(self, task: Task, action: Action) -> None:
        seat: int = task[1]
        if action.id == "give":
            self.tasks.append(("give?", seat, ""))
            if not self.quiet:
                self.emit("skull5", seat, f"{PLAYER[seat]} has 5 Skulls and hands the dice out.")
        else:
            self.tasks.append(("skulls", seat, DICE, 1))

    @prompt("give?")
    def _give_prompt(self, task: Task) -> Decision:
        i = len(task[2])
        return Decision(task[1], "give", f"Who gets die {i + 1} ({FACE_WORD[self.dice[i]]})?",
                        "Hand out all 5 dice among the other players as you wish; each executes the dice "
                        "they get as if it were their turn.")

    @choices("give?")
    def _give_choices(self, task: Task) -> list[Action]:
        seat, given = task[1], task[2]
        i = len(given)
        face = FACE_WORD[self.dice[i]]
        return [Action(f"give:{seat_id(r)}", f"Give die {i + 1} ({face}) to {PLAYER[r]}", r)
                for r in range(self.players) if r != seat]

    @resolve("give?")
    def _give_chosen(self, task: Task, action: Action) -> None:
        seat, given = task[1], task[2] + str(action.payload)
        if len(given) < DICE:
            self.tasks.append(("give?", seat, given))
            return
        tasks = self.tasks
        while tasks:  # the giver's turn is over: drop the rest of phase C and phase D
            if tasks.pop()[0] == "end-c":
                break
        self.left = [0, 0, 0, 0]
        n = self.players
        todo: list[Task] = []
        parts = []
        for k in range(1, n):
            r = (seat + k) % n
            mine = [self.dice[i] for i in range(DICE) if int(given[i]) == r]
            if not mine:
                continue
            parts.append(f"{PLAYER[r]} {faces_text(mine)}")
            todo.append(("skulls", r, len(mine), 0))
            sg = mine.count(SKULL_GROG)
            if sg:
                todo.append(("gain-grog", r, sg))
        self.then(*todo, ("turn", (seat + 1) % n))
        if not self.quiet:
            self.emit("give", seat, f"{PLAYER[seat]} gives the dice: " + "; ".join(parts) + ". "
                      f"{PLAYER[seat]}'s turn is over.", {"given": [int(x) for x in given]})

    @auto("skulls")
    def _skulls(self, task: Task) -> None:
        seat: int = task[1]  # typed: compiled, native ints below (a task's items are Any)
        n: int = task[2]
        own: int = task[3]
        if self.captain[seat] == BONES:
            if n == 0:
                if own:
                    self._gain_silver(seat, 1, "(Mister Bones) rolled no Skulls")
                return
            if self.silver[seat] >= n:
                self.tasks.append(("skulls?", seat, n, own))
                return
        self._pay_skulls(seat, n)

    def _pay_skulls(self, seat: int, n: int) -> None:
        if n == 0:
            return
        pay = min(n, self.silver[seat])
        self.silver[seat] -= pay
        self.island += pay
        if not self.quiet:
            self.emit("skulls", seat, f"{PLAYER[seat]}: {counted(n, 'Skull')}, places {pay} Silver on Skull "
                      f"Island (now {self.island})" + (f"; {n - pay} ignored (no Silver left)" if pay < n else "")
                      + ".", {"skulls": n, "paid": pay},
                      effects=[fx.count(counter_key(seat, "silver"), -pay, self.silver[seat]),
                               fx.count(ISLAND_KEY, pay, self.island)] if pay else None)

    @prompt("skulls?")
    def _skulls_prompt(self, task: Task) -> Decision:
        _, seat, n, _own = task
        return Decision(seat, "skulls", f"Skulls first: {counted(n, 'Skull')} cost you {n} Silver. "
                        "Mister Bones may ignore one of them.", CAPTAINS[BONES].text)

    @choices("skulls?")
    def _skulls_choices(self, task: Task) -> list[Action]:
        return [ACT_BONES_IGNORE, ACT_BONES_PAY]

    @resolve("skulls?")
    def _skulls_chosen(self, task: Task, action: Action) -> None:
        _, seat, n, _own = task
        if action.id == "bones:ignore":
            if not self.quiet:
                self.emit("bones", seat, f"{PLAYER[seat]} (Mister Bones) ignores one Skull.")
            self._pay_skulls(seat, n - 1)
        else:
            self._pay_skulls(seat, n)

    @auto("gain-grog")
    def _given_grog(self, task: Task) -> None:
        _, seat, n = task
        self._gain_grog(seat, n, "executes", "Skull-and-Grog face")

    # --- choosing the next symbol group
    def _order_options(self) -> list[int]:
        left = self.left
        return [g for g in range(4) if left[g] > 0]

    @auto("order")
    def _next_group(self, task: Task) -> None:
        seat: int = task[1]
        groups = self._order_options()
        jaxn = self.flags & F_JAXN
        if not groups and not jaxn:
            return
        if len(groups) == 1 and not jaxn:
            self.tasks.append(task)  # asked again once the group is done (then nothing is left)
            self._execute_group(seat, groups[0])
            return
        self.tasks.append(("order?", seat))

    @prompt("order?")
    def _order_prompt(self, task: Task) -> Decision:
        names = [GROUP_IDS[g] for g in self._order_options()]
        prompt = "Phase C: which Dice Action next? (" + (", ".join(names) or "only Lucky Jax'n is left") + ")"
        return Decision(task[1], "order", prompt,
                        "After the Skulls you choose the order of the Dice Actions; all faces of one symbol "
                        "are executed together. Grog: +1 per face, dial max 4. Silver: +1 per face from the "
                        "supply. Maps: 1 space per Map towards Skull Island; hazards apply where the movement "
                        "ends. Cannons: 3+ attack a player, or attack the Merchant ship on your space.")

    @choices("order?")
    def _order_choices(self, task: Task) -> tuple[Action, ...]:
        key = (*self.left, self.flags & (F_GROG5 | F_MAP5 | F_JAXN))
        menu = ORDER_MENUS.get(key)
        if menu is None:
            menu = ORDER_MENUS[key] = order_menu(self.left, key[-1])
        return menu

    @resolve("order?")
    def _order_chosen(self, task: Task, action: Action) -> None:
        seat: int = task[1]
        self.tasks.append(("order", seat))  # the next group is chosen once this one is done
        if action.id == "jaxn":
            self.flags &= ~F_JAXN
            if not self.quiet:
                self.emit("jaxn", seat, f"{PLAYER[seat]} (Captain Lucky Jax'n) had no Maps: moves 1 space "
                          "forward and gains 1 Grog.")
            self.then(("move", seat, 1, 0, 0), ("jaxn-grog", seat))
        elif action.id == "pass":
            self.flags &= ~F_JAXN
        else:
            self._execute_group(seat, action.payload)

    def _execute_group(self, seat: int, g: int) -> None:
        n = self.left[g]
        self.left[g] = 0
        if g == G_GROG:
            self._gain_grog(seat, n, "executes", "Grog face")
            if self.flags & F_GROG5 and not self.quiet:
                self.emit("grog5", seat, f"5-of-a-kind Grog: {PLAYER[seat]} begins the turn again after "
                          "the Dice Actions.")
        elif g == G_SILVER:
            self._gain_silver(seat, n, "collects", "Silver face")
        elif g == G_MAP:
            free = 1 if self.flags & F_MAP5 else 0
            if free and not self.quiet:
                self.emit("map5", seat, f"5-of-a-kind Maps: {PLAYER[seat]} may move forward or backward "
                          "at each step.")
            self.tasks.append(("move", seat, n, free, 0))
        else:
            self.flags &= ~F_HOOK_USED
            self.tasks.append(("cannons", seat, n))

    @auto("jaxn-grog")
    def _jaxn_grog(self, task: Task) -> None:
        self._gain_grog(task[1], 1, "(Captain Lucky Jax'n) gains")

    @auto("end-c")
    def _end_of_c(self, task: Task) -> None:
        seat: int = task[1]
        if self.flags & F_GROG5:
            if not self.quiet:
                self.emit("restart", seat, f"{PLAYER[seat]} begins the turn again from the Roll Dice phase.")
            self._begin_phases(seat)
        else:
            self.tasks.append(("end-turn", seat))

    # --- Cannons
    def _cannon_actions(self, seat: int, n: int) -> list[Action]:
        acts = []
        others = [r for r in range(self.players) if r != seat]
        track = self.track
        here = self.pos[seat]
        arrived = self.flags & F_ARRIVED
        if (self.captain[seat] == HOOK and n >= 2 and not self.flags & F_HOOK_USED and not arrived):
            for r in others:
                there = self.pos[r]
                if there != here and there != track.skull:
                    acts.append(Action(f"hook:{seat_id(r)}", f"Captain Hook: use 2 Cannons to move to "
                                       f"{PLAYER[r]}'s space ({track.label[there]})", ("hook", r)))
        if n >= 3:
            back = n - 3
            for r in others:
                label = f"Attack {PLAYER[r]}: take their {self.silver[r]} Silver"
                if back:
                    label += f", they move back {counted(back, 'space')}"
                acts.append(Action(f"attack:{seat_id(r)}", label, ("attack", r)))
            if n == DICE:
                for r in others:
                    if self.treasure[r] >= 1:
                        acts.append(Action(f"steal:{seat_id(r)}", f"5-of-a-kind: steal 1 Treasure from {PLAYER[r]} "
                                           f"(they have {self.treasure[r]})", ("steal", r)))
        merchant = track.merchant[here]
        if merchant is not None:
            s, g = merchant
            gain = " ".join(x for x in (f"+{s * n} Silver" if s else "", f"+{g * n} Grog" if g else "") if x)
            acts.append(Action("merchant", f"Attack the Merchant ship on your space: {gain}", ("merchant", -1)))
        return acts

    @auto("cannons")
    def _cannons(self, task: Task) -> None:
        seat: int = task[1]
        n: int = task[2]
        if n > 0 and self._cannon_actions(seat, n):
            self.tasks.append(("cannons?", seat, n))
            return
        if n > 0 and not self.quiet:
            self.emit("cannons", seat, f"{PLAYER[seat]}'s {counted(n, 'Cannon')}: nothing to attack "
                      "(3 Cannons attack a player; a Merchant ship must be on your space).", {"cannons": n})

    @prompt("cannons?")
    def _cannons_prompt(self, task: Task) -> Decision:
        _, seat, n = task
        return Decision(seat, "cannons", f"{counted(n, 'Cannon')}: attack a player (3+ Cannons), the Merchant ship "
                        "on your space, or nobody?",
                        "With at least 3 Cannons you may attack one other player anywhere: they give you all "
                        "their Silver and move back 1 space per Cannon above 3. With 5 Cannons you may steal 1 "
                        "Treasure instead. Or attack a Merchant ship on your space: its reward once per Cannon. "
                        "You may not attack a player and a Merchant ship in the same turn.")

    @choices("cannons?")
    def _cannons_choices(self, task: Task) -> list[Action]:
        return self._cannon_actions(task[1], task[2]) + [ACT_HOLD]

    @resolve("cannons?")
    def _cannons_chosen(self, task: Task, action: Action) -> None:
        _, seat, n = task
        if action.id == "hold":
            if not self.quiet:
                self.emit("hold", seat, f"{PLAYER[seat]} holds fire.")
            return
        kind, r = action.payload
        if kind == "hook":
            self.flags |= F_HOOK_USED
            self.tasks.append(("cannons", seat, n - 2))
            here = self.pos[seat]
            self.pos[seat] = self.pos[r]
            if not self.quiet:
                self.emit("hook", seat, f"{PLAYER[seat]} (Captain Hook) uses 2 Cannons to move to "
                          f"{PLAYER[r]}'s space, {self.track.label[self.pos[seat]]}.", {"to": self.pos[seat]},
                          effects=[fx.move(ship_key(seat), space_key(here), space_key(self.pos[seat]))])
            self._hazard(seat)
            return
        if kind == "merchant":
            merchant = self.track.merchant[self.pos[seat]]
            assert merchant is not None  # offered only on a Merchant ship's space (_cannon_actions)
            s, g = merchant
            if not self.quiet:
                self.emit("merchant", seat, f"{PLAYER[seat]} attacks the Merchant ship with "
                          f"{counted(n, 'Cannon')}.", {"cannons": n})
            if g:
                self._gain_grog(seat, g * n, "plunders the Merchant ship")
            if s:
                self._gain_silver(seat, s * n, "plunders the Merchant ship")
            return
        if self.captain[seat] == JAGER and not self.flags & F_ARRIVED:
            self.tasks.append(("jager", seat))
        if kind == "steal":
            self.treasure[r] -= 1
            self.treasure[seat] += 1
            if not self.quiet:
                self.emit("steal", seat, f"{PLAYER[seat]} fires 5 Cannons at {PLAYER[r]} and steals a Treasure "
                          f"({self.treasure[seat]} vs {self.treasure[r]}).", {"target": r},
                          effects=[fx.count(counter_key(r, "treasure"), -1, self.treasure[r]),
                                   fx.count(counter_key(seat, "treasure"), 1, self.treasure[seat]),
                                   fx.score(r, -1), fx.score(seat, 1)])
            if self.treasure[seat] >= TREASURE_TO_WIN:
                self._win_now(seat)
            return
        back = n - 3
        if back:
            self.tasks.append(("back", r, back, 0))
        loot = self.silver[r]
        if not self.quiet:
            self.emit("attack", seat, f"{PLAYER[seat]} attacks {PLAYER[r]} with {counted(n, 'Cannon')} and takes "
                      f"{loot} Silver" + (f"; {PLAYER[r]} moves back {counted(back, 'space')}" if back else "")
                      + ".", {"target": r, "silver": loot, "back": back},
                      effects=self._coins_effects(seat, loot, counter_key(r, "silver"), loot))
        for _ in range(loot):
            self.silver[r] -= 1
            self.silver[seat] += 1
            if self._exchange(seat):
                return

    # --- Jäger Knot after an attack
    @auto("jager")
    def _jager(self, task: Task) -> None:
        if not self.flags & F_ARRIVED:
            self.tasks.append(("jager?", task[1]))

    @prompt("jager?")
    def _jager_prompt(self, task: Task) -> Decision:
        return Decision(task[1], "jager", "Jäger Knot: after attacking a player you may move one space forward.",
                        CAPTAINS[JAGER].text)

    @choices("jager?")
    def _jager_choices(self, task: Task) -> list[Action]:
        return [ACT_JAGER_MOVE, ACT_JAGER_STAY]

    @resolve("jager?")
    def _jager_chosen(self, task: Task, action: Action) -> None:
        seat: int = task[1]
        if action.id == "jager:move":
            if not self.quiet:
                self.emit("jager", seat, f"{PLAYER[seat]} (Jäger Knot) moves 1 space forward after the attack.")
            self.tasks.append(("move", seat, 1, 0, 0))
