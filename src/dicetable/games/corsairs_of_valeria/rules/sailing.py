"""Ships on the race track (rulebook: Phase C Maps, hazards, Cannons knock-back; Captains Jäger Knot and
Lucky Jax'n move with Maps): single steps, hazards, Map movement and knock-back with lane choices.
"""

from __future__ import annotations

from dicetable.engine import Action, Decision, auto, choices, counted, prompt, resolve
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from .consts import CUTTHROAT, SEA_MONSTER, WHIRLPOOL
from .common import (
    F_ARRIVED,
    F_JAXN,
    G_MAP,
    ISLAND_KEY,
    PLAYER,
    SUPPLY_KEY,
    counter_key,
    ship_key,
    space_key,
    space_note,
)
from .coins import Coins


class Sailing(Coins):
    """Movement rules of :class:`~.state.CorsairsState` (a phase class of the chain: on :class:`~.coins.Coins`)."""

    __slots__ = ()

    # ------------------------------------------------------------ movement
    def _step_to(self, seat: int, node: int, forward: bool) -> None:
        """Move one space; forwards pays the island on the crossed line; may reach Skull Island or end the game."""
        here = self.pos[seat]
        track = self.track
        silver = grog = 0
        if forward:
            for m, s, g in track.fwd[here]:
                if m == node:
                    silver, grog = s, g
                    break
        self.pos[seat] = node
        if not self.quiet:
            self.emit("move", seat, f"{PLAYER[seat]} sails {'forward' if forward else 'backward'} to "
                      f"{track.label[node]}.", {"to": node, "forward": forward},
                      effects=[fx.move(ship_key(seat), space_key(here), space_key(node))])
        if forward:
            if grog:
                self._gain_grog(seat, grog, "passes an island")
            if silver:
                self._gain_silver(seat, silver, "passes an island")
                if self.winner6 >= 0:
                    return
            if node == track.skull:
                self._arrive(seat)

    def _arrive(self, seat: int) -> None:
        """Reaching Skull Island: take its Silver (rulebook: Reaching Skull Island); the rest of the Maps is void."""
        self.flags = (self.flags | F_ARRIVED) & ~F_JAXN
        self.visits += 1
        ignored = self.left[G_MAP]
        self.left[G_MAP] = 0
        loot = self.island
        if not self.quiet:
            taken = self._coins_arriving(seat, loot, ISLAND_KEY)[0]
            self.emit("skull-island", seat, f"{PLAYER[seat]} reaches Skull Island "
                      f"({'first' if self.visits == 1 else 'second'} time) and takes "
                      + (f"its {loot} Silver" if taken == loot else
                         f"{taken} of its {loot} Silver (the 6th Treasure ends the game; the rest stay there)")
                      + ("; the remaining Maps are ignored" if ignored else "") + ".",
                      {"visit": self.visits, "silver": loot},
                      effects=self._coins_effects(seat, loot, ISLAND_KEY, loot))
        for _ in range(loot):
            self.island -= 1
            self.silver[seat] += 1
            if self._exchange(seat):
                return

    def _hazard(self, seat: int) -> None:
        """Trigger the hazard of the space where ``seat``'s movement ended."""
        node = self.pos[seat]
        h = self.track.hazard[node]
        if h == WHIRLPOOL:
            self.pos[seat] = self.track.start
            if not self.quiet:
                self.emit("whirlpool", seat, f"{PLAYER[seat]} ends on a Whirlpool and returns to the Start space.",
                          effects=[fx.move(ship_key(seat), space_key(node), space_key(self.track.start))])
        elif h == SEA_MONSTER:
            lost = self.silver[seat]
            self.silver[seat] = 0
            if not self.quiet:
                self.emit("sea-monster", seat, f"{PLAYER[seat]} ends on a Sea Monster and returns all "
                          f"{lost} Silver to the supply." if lost else
                          f"{PLAYER[seat]} ends on a Sea Monster (no Silver to lose).", {"lost": lost},
                          effects=[fx.count(counter_key(seat, "silver"), -lost, 0),
                                   fx.count(SUPPLY_KEY, lost, self.supply)] if lost else None)
        elif h == CUTTHROAT:
            lost = self.grog[seat]
            self.grog[seat] = 0
            if not self.quiet:
                self.emit("cutthroat", seat, f"{PLAYER[seat]} ends on a Cutthroat space and loses all "
                          f"{lost} Grog." if lost else
                          f"{PLAYER[seat]} ends on a Cutthroat space (no Grog to lose).", {"lost": lost},
                          effects=[fx.count(counter_key(seat, "grog"), -lost, 0)] if lost else None)

    # --- movement (Maps, Jäger Knot, Lucky Jax'n)
    def _move_options(self, seat: int, free: int) -> tuple[Action, ...]:
        """Per-node cached Actions ``(id, label, (node, forward))`` for the next step."""
        here = self.pos[seat]
        track = self.track
        key = ("move", here, free)
        acts = track.cache.get(key)
        if acts is None:
            built: list[Action] = []
            fwd = track.fwd[here]
            for m, s, g in fwd:
                aid = "forward" + (f":{track.lane[m]}" if len(fwd) > 1 else "")
                label = f"Sail forward to {track.label[m]}"
                if s or g:
                    label += "; pass an island: " + " ".join(
                        x for x in (f"+{s} Silver" if s else "", f"+{g} Grog" if g else "") if x)
                label += space_note(track, m)
                built.append(Action(aid, label, (m, True)))
            if free:
                back = track.back[here]
                for m in back:
                    aid = "backward" + (f":{track.lane[m]}" if len(back) > 1 else "")
                    built.append(Action(aid, f"Sail backward to {track.label[m]}{space_note(track, m)}",
                                        (m, False)))
            acts = track.cache[key] = tuple(built)
        return acts

    @auto("move")
    def _move(self, task: Task) -> None:
        seat: int = task[1]  # typed: compiled, native ints below (a task's items are Any)
        steps: int = task[2]
        free: int = task[3]
        moved: int = task[4]
        track = self.track
        while steps > 0 and not self.flags & F_ARRIVED:
            here = self.pos[seat]
            fwd = track.fwd[here]
            if len(fwd) + (len(track.back[here]) if free else 0) != 1:
                if not fwd and not (free and track.back[here]):  # pragma: no cover - only Skull Island
                    break
                self.tasks.append(("move?", seat, steps, free, moved))
                return
            steps -= 1
            moved = 1
            self._step_to(seat, fwd[0][0], True)
            if self.winner6 >= 0:
                return
        if moved and not self.flags & F_ARRIVED:
            self._hazard(seat)

    @prompt("move?")
    def _move_prompt(self, task: Task) -> Decision:
        _, seat, steps, free, _ = task
        here = self.track.label[self.pos[seat]]
        if free:
            prompt = f"5 Maps: {steps} left. From {here}, sail forward or backward?"
        else:
            prompt = f"{counted(steps, 'move')} left. From {here}, which side of the island do you sail?"
        return Decision(seat, "move", prompt,
                        "Islands that stretch the length of a Track split it: on entering such a Track, forwards "
                        "or backwards, you decide which side to sail, and cannot cross over. Islands on a "
                        "dividing line pay their Silver/Grog when you cross it forwards. With 5 Maps you may "
                        "move forward or backward as you wish (an island may pay more than once). Hazards "
                        "apply only where the movement ends.")

    @choices("move?")
    def _move_choices(self, task: Task) -> list[Action]:
        return list(self._move_options(task[1], task[3]))

    @resolve("move?")
    def _move_chosen(self, task: Task, action: Action) -> None:
        _, seat, steps, free, _moved = task
        node, forward = action.payload
        self.tasks.append(("move", seat, steps - 1, free, 1))
        self._step_to(seat, node, forward)

    # --- knock-back (attacked ship moves backward; its owner picks lanes)
    @auto("back")
    def _knock_back(self, task: Task) -> None:
        _, target, steps, moved = task
        track = self.track
        while steps > 0:
            prev = track.back[self.pos[target]]
            if not prev:
                if not self.quiet:
                    self.emit("at-start", target, f"{PLAYER[target]} is at the Start space and cannot move back "
                              "further.")
                break
            if len(prev) > 1:
                self.tasks.append(("back?", target, steps, moved))
                return
            steps -= 1
            moved = 1
            self._step_to(target, prev[0], False)
        if moved:
            self._hazard(target)

    @prompt("back?")
    def _back_prompt(self, task: Task) -> Decision:
        _, target, steps, _ = task
        return Decision(target, "back", f"You were attacked: your Ship moves back {counted(steps, 'space')}. "
                        "Which side of the island do you enter?",
                        "When entering a split Track, forwards or backwards, you decide which side of the "
                        "island your Ship goes. Hazards apply where the backward movement ends; no Silver or "
                        "Grog is collected moving backwards.")

    @choices("back?")
    def _back_choices(self, task: Task) -> list[Action]:
        target = task[1]
        track = self.track
        here = self.pos[target]
        key = ("back", here)
        acts = track.cache.get(key)
        if acts is None:
            acts = track.cache[key] = tuple(
                Action(f"backward:{track.lane[m]}", f"Move back to {track.label[m]}{space_note(track, m)}",
                       (m, False)) for m in track.back[here])
        return list(acts)

    @resolve("back?")
    def _back_chosen(self, task: Task, action: Action) -> None:
        _, target, steps, _moved = task
        self.tasks.append(("back", target, steps - 1, 1))
        self._step_to(target, action.payload[0], False)
