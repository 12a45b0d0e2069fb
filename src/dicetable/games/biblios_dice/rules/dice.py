"""Taking dice and what follows (rulebook: Phase III - Dice Selection "A-C", the Adjustment Die,
Bishop Tokens, the Conversion Rule): a rule class of :class:`~.state.BibliosDiceState` (on :mod:`.scoring`).

A take moves markers at once; the choices it leaves are tasks on top of the
stack, asked before the turn goes on:

``("adjust", seat, face, step, used)``       decision: the Value Die for step ``step`` of the
    Adjustment Die face ``face`` (``used``: bitmask of Value Dice already adjusted); a step
    no Value Die can take is lost instead of asked;
``("token-moves", seat, left, excluded)``    automatic: ask a Bishop Token's next move as an
    ``advance`` decision, or lose the rest when every other Resource Track is at its top;
``("advance", seat, left, excluded)``        decision: the Resource Track (``excluded``: bitmask
    of tracks already used by this token);
``("convert", seat, track, count)``          decision: use the Conversion Rule or forgo it.
"""

from __future__ import annotations

from typing import Callable, Final

from dicetable.engine import Action, Decision, auto, choices, prompt, resolve, seat_name
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from .consts import (
    ADJUST, ADJ_FACES, ADJ_STEPS, BISHOP, GOLD, GOLD_FOR_ALL, KINDS, NRES, NTRACKS, RESOURCES, RESOURCE_DIE,
    SYMBOLS, SYMBOL_INDEX, SYMBOL_NAMES, TOKENS, TOKEN_SPOTS, TOP, TRACK_NAMES, VALUE_MAX, VALUE_MIN,
    VALUE_RESET, VP_STACKS,
)
from ..keys import marker_key, panel_key
from .common import (
    ADJ_ACTIONS, ADVANCE_ACTIONS, CONVERT_ACTION, FORGO_ACTION, GOLD_VALUES, NSTACKS, adjusted, replaced,
    symbol_dice,
)
from .scoring import ScoringRules

#: SPACE_KEYS[t][s]: the board key of space ``s`` of track ``t`` (``"<symbol>-<s>"``), made once:
#: every move event names two.
SPACE_KEYS: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(f"{SYMBOLS[t]}-{s}" for s in range(TOP[t] + 1)) for t in range(NTRACKS))


class DiceRules(ScoringRules):
    """Taking dice and resolving them (see the module docstring); needs the state's fields and,
    for the places counters its effects name, scoring (:class:`~.scoring.ScoringRules`)."""

    __slots__ = ()

    # ------------------------------------------------------------ taking
    def _take(self, seat: int, kind: int, dice: list[int]) -> None:
        """Take every die of ``kind`` from ``dice`` (the pool or a market group) and resolve it."""
        if kind < NTRACKS:
            count = dice[kind]
            dice[kind] = 0
            if not self.quiet:
                self.emit("take", seat, f"{seat_name(seat)} takes {symbol_dice(count, kind)}.",
                          {"kind": KINDS[kind], "count": count},
                          effects=[fx.set_aside(f"p-{seat}", [SYMBOLS[kind]] * count, seat)])
            self._take_symbol(seat, kind, count)
        elif kind == GOLD:
            g = GOLD_VALUES[dice[GOLD]]
            dice[GOLD] = -1
            if g == GOLD_FOR_ALL:
                amount = self.players - 1
                for s in range(self.players):
                    self.gold[s] += amount
                if not self.quiet:
                    self.emit("gold-for-all", seat, f"{seat_name(seat)} takes the Gold Die (gold for all): "
                              f"every player takes {amount} Gold.", {"gold": amount},
                              effects=[fx.set_aside(f"p-{seat}", [g], seat)])
            else:
                self.gold[seat] += g
                if not self.quiet:
                    self.emit("gold", seat, f"{seat_name(seat)} takes the Gold Die and {g} Gold.", {"gold": g},
                              effects=[fx.set_aside(f"p-{seat}", [g], seat)])
        else:
            face = dice[ADJUST]
            dice[ADJUST] = -1
            if not self.quiet:
                self.emit("take", seat, f"{seat_name(seat)} takes the Adjustment Die: "
                          f"{ADJ_FACES[face].label}.", {"kind": "adjustment", "face": ADJ_FACES[face].id},
                          effects=[fx.set_aside(f"p-{seat}", [ADJ_FACES[face].id], seat)])
            self._ask_adjust(seat, face, 0, 0)

    def _take_then(self, task: Task, kind: int, dice: list[int], after: str,
                   handler: Callable[[Task], object]) -> None:
        """``task``'s seat takes ``kind`` from ``dice`` in its turn; then the automatic task ``after``.

        ``(after, seat)`` runs below the take's own choices, once they are
        made; when the take leaves none, its ``handler`` runs at once (given
        ``task``, which names the same seat).
        """
        tasks = self.tasks
        below = len(tasks)
        self._take(task[1], kind, dice)
        if len(tasks) == below:
            handler(task)
        else:
            tasks.insert(below, (after, task[1]))

    def _take_symbol(self, m: int, t: int, count: int) -> None:
        """Resolve ``count`` Resource Dice showing symbol ``t`` for marker ``m`` (rulebook A)."""
        if t < BISHOP and self.pos[t * self.nm + m] == TOP[t]:
            if self.topped >> t & 1:
                if not self.quiet:
                    self.emit("no-effect", m if m != self.cad else None,
                              f"{self.who(m)} reached the top of the {TRACK_NAMES[t]} this turn: "
                              f"the {symbol_dice(count, t)} {'has' if count == 1 else 'have'} no effect.", {"track": SYMBOLS[t]})
            elif m == self.cad:
                self._convert(m, t, count)
            else:
                self.then(("convert", m, t, count))
            return
        moved = self._advance(m, t, count)
        if moved < count and not self.quiet:
            self.emit("no-effect", m if m != self.cad else None,
                      f"{symbol_dice(count - moved, t)} {'has' if count - moved == 1 else 'have'} no effect: "
                      f"{self.who(m)} is at the top "
                      f"of the {TRACK_NAMES[t]}.", {"track": SYMBOLS[t], "lost": count - moved})

    def _advance(self, m: int, t: int, n: int) -> int:
        """Move marker ``m`` up to ``n`` spaces on track ``t``, taking the tokens passed; spaces moved."""
        i = t * self.nm + m
        old = self.pos[i]
        new = min(old + n, TOP[t])
        if new == old:
            return 0
        quiet = self.quiet
        before = self._track_points(t) if not quiet and t < BISHOP else None
        self.pos[i] = new
        self.clock += 1
        self.stamp[i] = self.clock
        cad = m == self.cad
        if not quiet:
            sym = SYMBOLS[t]
            keys = SPACE_KEYS[t]
            effects = [fx.move(marker_key(sym, self.marker_id(m)), keys[old], keys[new])]
            if before is not None:
                effects += self._track_effects(t, before)
            self.emit("move", None if cad else m,
                      f"{self.who(m)} moves up {new - old} on the {TRACK_NAMES[t]} to space {new}"
                      + (" (the top)." if new == TOP[t] else "."),
                      {"marker": m, "track": sym, "from": old, "to": new, "effects": effects})  # as emit would store them
        if new == TOP[t]:
            self.topped |= 1 << t
        if t < BISHOP:
            for k in range(NSTACKS):
                space = VP_STACKS[k][0]
                if old < space <= new:
                    j = t * NSTACKS + k
                    stack = self.vp_stacks[j]
                    if stack:
                        token = stack[0]
                        self.vp_stacks[j] = stack[1:]
                        stack_key = f"vps-{SYMBOLS[t]}-{k}"
                        if cad:
                            if not quiet:
                                self.emit("vp-token", None, f"Cadfael takes the top VP token ({token} VP) of "
                                          f"the {TRACK_NAMES[t]}'s stack on space {space}; it leaves the game.",
                                          {"marker": m, "track": SYMBOLS[t], "vp": token},
                                          effects=[fx.take(stack_key, stack_key, panel_key("cadfael"))])
                        else:
                            self.vp[m] += token
                            if not quiet:
                                self.emit("vp-token", m, f"{self.who(m)} takes the top VP token ({token} VP) "
                                          f"of the stack on space {space} and puts it behind the shield.",
                                          {"marker": m, "track": SYMBOLS[t], "vp": token},
                                          effects=[fx.take(stack_key, stack_key, f"p-{m}-shield", m)])
        else:
            moves = []
            for g, (space, _) in enumerate(TOKEN_SPOTS):
                if old < space <= new and self.bishop_stacks[g]:
                    stack = self.bishop_stacks[g]
                    tok = stack[0]
                    self.bishop_stacks = replaced(self.bishop_stacks, g, stack[1:])
                    data = TOKENS[tok]
                    taken = None if quiet else [fx.count(f"tokens-{space}", -1, len(stack) - 1)]
                    if cad:
                        if not quiet:
                            self.emit("bishop-token", None, f"Cadfael takes the Bishop Token on space {space}: "
                                      f"{data.label}. It leaves the game without effect.",
                                      {"marker": m, "token": data.id, "space": space}, effects=taken)
                        continue
                    self.gold[m] += data.gold
                    self.vp[m] += data.vp
                    if not quiet:
                        self.emit("bishop-token", m, f"{self.who(m)} takes the Bishop Token on space {space}: "
                                  f"{data.label}.", {"marker": m, "token": data.id, "space": space}, effects=taken)
                    if data.advance:
                        moves.append(("token-moves", m, data.advance, 0))
            if moves:
                self.then(*moves)
        return new - old

    def _convert(self, m: int, t: int, count: int) -> None:
        """Conversion Rule: re-roll each die until another resource shows, then move up there."""
        results = []
        for _ in range(count):
            while True:
                r = SYMBOL_INDEX[self.roll(RESOURCE_DIE)]
                if r != t and r != BISHOP:
                    break
            results.append(r)
        quiet = self.quiet
        if not quiet:
            self.emit("convert", m if m != self.cad else None,
                      f"{self.who(m)} converts {symbol_dice(count, t)}: re-rolled to "
                      + ", ".join(SYMBOL_NAMES[r] for r in results) + ".",
                      {"track": SYMBOLS[t], "results": [SYMBOLS[r] for r in results]},
                      effects=[fx.roll(panel_key(self.marker_id(m)), [SYMBOLS[r] for r in results],
                                       None if m == self.cad else m)])
        for r in results:
            if self.pos[r * self.nm + m] == TOP[r]:
                if not quiet:
                    self.emit("no-effect", m if m != self.cad else None,
                              f"{self.who(m)} is already at the top of the {TRACK_NAMES[r]}: no effect.",
                              {"track": SYMBOLS[r]})
            else:
                self._advance(m, r, 1)

    # ------------------------------------------------------------ the Adjustment Die
    def adjust_targets(self, task: Task) -> list[int]:
        """The Value Dice (indices) an ``adjust`` task's step may change.

        Raise: dice below 6; lower: dice above 1; set3: any; never a die this
        face already adjusted. Empty when the step has no effect.
        """
        _, _, face, step, used = task
        op = ADJ_STEPS[face][step]
        value = self.value
        if op == "raise":
            return [d for d in range(NRES) if value[d] < VALUE_MAX and not used >> d & 1]
        if op == "lower":
            return [d for d in range(NRES) if value[d] > VALUE_MIN and not used >> d & 1]
        return [d for d in range(NRES) if not used >> d & 1]

    def _ask_adjust(self, seat: int, face: int, step: int, used: int) -> None:
        """Ask step ``step`` of Adjustment Die face ``face`` next, or lose it when no Value Die can take it.

        Called as the step comes up (nothing else is pending above it), so the
        Value Dice it sees are the ones the seat would choose from.
        """
        task = ("adjust", seat, face, step, used)
        if self.adjust_targets(task):
            self.then(task)
            return
        self.emit("no-effect", seat, "No Value Die can be "
                  + ("raised" if ADJ_STEPS[face][step] == "raise" else "lowered")
                  + ": that part of the adjustment has no effect.")
        if step + 1 < len(ADJ_STEPS[face]):
            self._ask_adjust(seat, face, step + 1, used)
        else:
            self._adjust_done(seat)

    @prompt("adjust")
    def _adjust_prompt(self, task: Task) -> Decision:
        face = ADJ_FACES[task[2]]
        op = ADJ_STEPS[task[2]][task[3]]
        other = " different" if task[3] else ""
        what = {"raise": f"choose a{other} Value Die to increase by 1 pip",
                "lower": f"choose a{other} Value Die to decrease by 1 pip",
                "set3": "choose a Value Die to show 3 pips"}[op]
        return Decision(task[1], "adjust", f"Adjustment Die ({face.label}): {what}.",
                        "The adjustment is mandatory, even to your disadvantage. Value Dice stay "
                        "between 1 and 6; if all five show 1 or all show 6 afterwards, all are reset to 3.")

    @choices("adjust")
    def _adjust_choices(self, task: Task) -> list[Action]:
        op = ADJ_STEPS[task[2]][task[3]]
        value = self.value
        actions = ADJ_ACTIONS[op]
        return [actions[d][value[d]] for d in self.adjust_targets(task)]

    @resolve("adjust")
    def _adjust(self, task: Task, action: Action) -> None:
        _, seat, face, step, used = task
        d = action.payload
        old = self.value[d]
        new = adjusted(ADJ_STEPS[face][step], old)
        before = self._track_points(d) if not self.quiet and new != old else None
        self.value[d] = new
        if not self.quiet:
            self.emit("adjust", seat, f"{seat_name(seat)} turns the {SYMBOL_NAMES[d]} Value Die from {old} to {new}."
                      if old != new else f"{seat_name(seat)} keeps the {SYMBOL_NAMES[d]} Value Die at {new}.",
                      {"resource": RESOURCES[d], "from": old, "to": new},
                      effects=None if before is None else
                      [fx.count(f"value-{RESOURCES[d]}", new - old, new), *self._track_effects(d, before)])
        if step + 1 < len(ADJ_STEPS[face]):
            self._ask_adjust(seat, face, step + 1, used | 1 << d)
        else:
            self._adjust_done(seat)

    def _adjust_done(self, seat: int) -> None:
        """After the last step: all five Value Dice on 1, or all on 6, are reset to 3."""
        v = self.value
        if all(x == VALUE_MIN for x in v) or all(x == VALUE_MAX for x in v):
            before = self.places() if not self.quiet else []
            self.value = [VALUE_RESET] * NRES
            if not self.quiet:
                self.emit("value-reset", seat, f"All Value Dice show {v[0]}: they are all reset to {VALUE_RESET}.",
                          effects=[fx.count(f"value-{RESOURCES[d]}", VALUE_RESET - v[d], VALUE_RESET)
                                   for d in range(NRES)] + self.places_effects(before))

    # ------------------------------------------------------------ Bishop Token moves
    def advance_targets(self, task: Task) -> list[int]:
        """The Resource Tracks an ``advance``/``token-moves`` task may still use (not used, not at the top)."""
        _, m, _, excluded = task
        nm = self.nm
        pos = self.pos
        return [t for t in range(NRES) if not excluded >> t & 1 and pos[t * nm + m] < TOP[t]]

    @auto("token-moves")
    def _token_moves(self, task: Task) -> None:
        if self.advance_targets(task):
            self.then(("advance",) + task[1:])
            return
        self.emit("no-effect", task[1], f"{seat_name(task[1])} is at the top of every other "
                  "Resource Track: the rest of the Bishop Token's moves are lost.")

    @prompt("advance")
    def _advance_prompt(self, task: Task) -> Decision:
        return Decision(task[1], "bishop-token", f"Bishop Token: move up 1 space in a Resource Track "
                        f"({task[2]} more, each a different track).",
                        "A Bishop Token never moves you on the Bishop Track. Passing a VP stack "
                        "takes its top token.")

    @choices("advance")
    def _advance_choices(self, task: Task) -> list[Action]:
        seat = task[1]
        nm = self.nm
        return [ADVANCE_ACTIONS[t][self.pos[t * nm + seat] + 1] for t in self.advance_targets(task)]

    @resolve("advance")
    def _advance_one(self, task: Task, action: Action) -> None:
        _, m, left, excluded = task
        t = action.payload
        if left > 1:
            self.then(("token-moves", m, left - 1, excluded | 1 << t))
        self._advance(m, t, 1)

    # ------------------------------------------------------------ the Conversion Rule
    @prompt("convert")
    def _convert_prompt(self, task: Task) -> Decision:
        return Decision(task[1], "convert", f"You are at the top of the {TRACK_NAMES[task[2]]}: convert the "
                        f"{symbol_dice(task[3], task[2])} into random resources?",
                        "Conversion Rule: each die is re-rolled until it shows a different resource, "
                        "then you move up on that track.")

    @choices("convert")
    def _convert_choices(self, task: Task) -> tuple[Action, ...]:
        return (CONVERT_ACTION, FORGO_ACTION)

    @resolve("convert")
    def _convert_or_forgo(self, task: Task, action: Action) -> None:
        _, m, t, count = task
        if action is CONVERT_ACTION or action.id == "convert":
            self._convert(m, t, count)
        elif not self.quiet:
            self.emit("forgo", m, f"{seat_name(m)} forgoes converting the {count} "
                      f"{symbol_dice(count, t, word_only=True)}.", {"track": SYMBOLS[t]})
