"""Card powers: the compiled steps of Citizen, Monster and Domain powers, resolved as tasks.

A power is a tuple of step ids (components.py); each step becomes an ``effect`` task
``("effect", seat, step id, source)``. The ``effect`` task resolves a step at once when
nothing is left to choose (a gain, a gain per count, a single possible choice) and otherwise
asks its owner with a ``step`` decision, so chains of rewards, extra actions and triggers are
plain data on the task stack. Sources: a Citizen/Starter type, ``SRC_MON`` + Monster,
``SRC_DOM`` + Domain (``src_name``).
"""

from __future__ import annotations

from typing import Any, Final

from dicetable.engine import Action, Decision, auto, choices, prompt, resolve
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from ..components import C_DOMAINS, C_NAME, C_ROLE, amount_text, effect_text, step_text
from .consts import (
    AREAS, CHOOSE, CIT_COST, CIT_NAME, CIT_NAMEKEY, CIT_POSITION, CIT_ROLE, CIT_SLUG, DOM_EFFECT, DOM_WHEN,
    EXCHANGE, GAIN, MON_AREA, MON_NAME, MON_SLUG, MON_VP, N_CIT, PER, RESOURCE_WORD, RES_ID, RETURN,
    RET_MONSTER, SLAY, STEAL, STEAL_MON, STEPS, TAKE_CIT,
)
from .fields import MON_KEY, stack_key
from .end import EndMixin
from .tables import (
    BANK, CIT0, DECLINE, DOM0, NAME_TYPES, NT, N_MON_POS, PAY_SLAY, PER_STEP, P_HARVEST, P_HARVEST2, ROLE_TYPES, SEAT,
    SRC_DOM, SRC_MON, STEAL_NONE, article, src_name,
)

_CACHE: Final[dict[tuple[object, ...], Action]] = {}  # labelled actions of card powers, built once per (step, source, ...)
#: Event texts of gains, built once per (seat, step, source), and the choose steps' actions, built once
#: per (step, source, option, count): int keys (``_key``), native arithmetic in the compiled build
#: where a tuple key is built and hashed at every look-up.
_TEXT: Final[dict[int, str]] = {}
_CHOOSE: Final[dict[int, Action]] = {}
if len(STEPS) > 1024 or SRC_DOM + len(DOM_EFFECT) > 512 or any(len(st[1]) > 8 for st in STEPS if st[0] == CHOOSE):
    raise ValueError("the int keys of powers.py hold a step in 10 bits, a source in 9 and a choice's option in 3")


def _key(seat: int, sid: int, src: int, more: int = 0) -> int:
    """One int for (seat 0-7, step id < 1024, source < 512, ``more`` >= 0): the key of ``_TEXT`` and ``_CHOOSE``."""
    return ((more * 512 + src) * 1024 + sid) * 8 + seat


class PowersMixin(EndMixin):
    """Resolving card powers (R4.3, R5.14, R6.5, R6.16, C-*); a link of the chain ``ValeriaState`` extends."""

    __slots__ = ()

    # ------------------------------------------------------------ scheduling powers
    def _push_effect(self, seat: int, effect: tuple[int, ...], src: int) -> None:
        """Schedule the steps of a power, in order, before anything pending (rewards at once, R6.5)."""
        tasks = self.tasks
        for sid in reversed(effect):
            tasks.append(("effect", seat, sid, src))

    def _trigger(self, seat: int, when: int) -> None:
        """Schedule the powers of the seat's Domains with this trigger (the owner orders them, R6.16)."""
        for d in self.doms[seat]:
            if DOM_WHEN[d] == when:
                self._push_effect(seat, DOM_EFFECT[d], SRC_DOM + d)

    def _gain(self, seat: int, g: int, s: int, m: int, vp: int) -> None:
        """Add Gold, Strength, Magic and VP tokens to the seat's supply (negative: pay them)."""
        res = self.res
        b = seat * 4
        # x[i] = x[i] + v, not x[i] += v: mypyc compiles an augmented assignment to an item as a
        # generic call (PyNumber_InPlaceAdd), the plain one as native int arithmetic
        res[b] = res[b] + g
        res[b + 1] = res[b + 1] + s
        res[b + 2] = res[b + 2] + m
        res[b + 3] = res[b + 3] + vp

    # ------------------------------------------------------------ the effect task
    @auto("effect")
    def _effect(self, task: Task) -> None:
        """Resolve one step: gains at once; a choice with one possible answer at once; else ask."""
        seat: int = task[1]
        sid: int = task[2]
        src: int = task[3]
        st = STEPS[sid]
        op: int = st[0]
        if op == GAIN:
            self._gain(seat, st[1], st[2], st[3], st[4])
            if src >= SRC_MON and not self.quiet:  # a Citizen's gain shows in the Harvest summary
                key = _key(seat, sid, src)
                text = _TEXT.get(key)
                if text is None:
                    text = _TEXT[key] = f"{SEAT[seat]} takes {amount_text(st[1:5])} ({src_name(src)})."
                self.emit("gain", seat, text, effects=self.res_effects(seat, st[1:5]))
            return
        if op == PER:
            pg, ps, pm, pvp, kind, arg = PER_STEP[sid]
            x = self.count(seat, kind, arg)
            self._gain(seat, x * pg, x * ps, x * pm, x * pvp)
            if src >= SRC_MON and not self.quiet:
                self.emit("gain", seat, f"{SEAT[seat]} takes {amount_text(tuple(x * v for v in st[1:5]))} "
                          f"({src_name(src)}: {step_text(sid)}).",
                          effects=self.res_effects(seat, tuple([x * v for v in st[1:5]])))
            return
        acts = self._step_actions(task)
        if len(acts) > 1:
            self.tasks.append(("step", seat, sid, src))
        elif op == STEAL_MON and self.solo:
            self._steal_monster_solo(seat, src)
        elif acts:  # one possible answer (a "may" power always offers a decline too)
            self._resolve_step(task, acts[0])

    @prompt("step")
    def _step_prompt(self, task: Task) -> Decision:
        seat, sid = task[1], task[2]
        op = STEPS[sid][0]
        who = src_name(task[3])
        if op == CHOOSE:
            text = f"{who}: choose one."
        elif op == SLAY:
            text = f"{who}: you may slay a Monster now (part of this action)."
        elif op == STEAL_MON:
            text = f"{who}: choose the player to take a random Monster from."
        elif op == EXCHANGE:
            text = f"{who}: {step_text(sid)}?"
        else:
            text = f"{who}: {step_text(sid)}."
        return Decision(seat, "effect", text, f"{who}: {step_text(sid)}.")

    @resolve("step")
    def _step_resolve(self, task: Task, action: Action) -> None:
        self._resolve_step(task, action)

    # ------------------------------------------------------------ what a step offers
    def _citizen_options(self, st: tuple[Any, ...]) -> list[int]:
        """Positions whose top Citizen a take_citizen step allows (R9.5)."""
        _, max_cost, role, namekey = st
        out = []
        stacks = self.stacks
        for p in range(CIT0, DOM0):
            s = stacks[p]
            if s:
                ct = s[-1]
                if CIT_COST[ct] <= max_cost and (role < 0 or CIT_ROLE[ct] == role) \
                        and (namekey < 0 or CIT_NAMEKEY[ct] == namekey):
                    out.append(p)
        return out

    def _choose_available(self, st: tuple[Any, ...]) -> list[int]:
        """Indices of the options of a choose step that can be offered (R9.5, C-BS)."""
        out = []
        options: tuple[tuple[int, ...], ...] = st[1]
        for i, option in enumerate(options):
            first = STEPS[option[0]]
            if first[0] == TAKE_CIT and not self._citizen_options(first):
                continue
            out.append(i)
        return out

    def _steal_targets(self, seat: int) -> list[int]:
        if self.solo:
            return [BANK]
        n = self.players
        return [(seat + i) % n for i in range(1, n)]

    def _steal_options(self, seat: int, st: tuple[Any, ...]) -> list[tuple[int, int, int] | None]:
        """(target, resource, amount) triples for a steal step; None = take nothing."""
        _, take, amount, up_to, optional = st
        out: list[tuple[int, int, int] | None] = []
        for tgt in self._steal_targets(seat):
            for r in take:
                have = amount if tgt == BANK else self.res[tgt * 4 + r]
                n = amount if have > amount else have
                if up_to:
                    out.extend((tgt, r, k) for k in range(n, 0, -1))
                else:
                    out.append((tgt, r, n))
        if up_to or optional:
            out.append(None)
        return out

    def _return_options(self, seat: int, st: tuple[Any, ...]) -> list[int]:
        if st[1] == RET_MONSTER:
            return sorted(set(self.victory[seat]))
        own = self.own
        return [t for t in range(N_CIT) if own[seat * NT + t]]

    @choices("step")
    def _step_actions(self, t: Task) -> list[Action]:
        """The answers a step of task ``t`` (``(kind, seat, step id, source)``) allows; [] = none."""
        seat: int = t[1]
        sid: int = t[2]
        src: int = t[3]
        st = STEPS[sid]
        op: int = st[0]
        who = src_name(src)
        if op == CHOOSE:
            out = []
            options: tuple[tuple[int, ...], ...] = st[1]
            for i in self._choose_available(st):
                option = options[i]
                x = -1
                if len(option) == 1 and STEPS[option[0]][0] == PER:
                    per = PER_STEP[option[0]]
                    x = self.count(seat, per[4], per[5])
                ckey = _key(0, sid, src, (x + 1) * 8 + i)  # x >= -1, i < 8 (a choice of 2 or 3)
                a = _CHOOSE.get(ckey)
                if a is None:
                    extra = f" = {amount_text(tuple(v * x for v in STEPS[option[0]][1:5]))} now" if x >= 0 else ""
                    a = _CHOOSE[ckey] = Action(f"choose:{i + 1}", f"{who}: {effect_text(option)}{extra}", i)
                out.append(a)
            return out
        if op == EXCHANGE:
            pay = st[1]
            b = seat * 4
            if self.res[b] >= pay[0] and self.res[b + 1] >= pay[1] and self.res[b + 2] >= pay[2]:
                return [Action("exchange:accept", f"{who}: pay {amount_text(pay)} to gain {amount_text(st[2])}"),
                        DECLINE]
            return []
        if op == STEAL:
            out = []
            for opt in self._steal_options(seat, st):
                if opt is None:
                    out.append(STEAL_NONE)
                    continue
                tgt, r, k = opt
                have = -1 if tgt == BANK else self.res[tgt * 4 + r]
                key: tuple[object, ...] = ("steal", src, tgt, r, k, have)
                a = _CACHE.get(key)
                if a is None:
                    if tgt == BANK:
                        a = Action(f"steal:the-bank:{RES_ID[r]}:{k}",
                                   f"{who}: take {k} {RESOURCE_WORD[r]} from the Bank", opt)
                    else:
                        a = Action(f"steal:p{tgt + 1}:{RES_ID[r]}:{k}",
                                   f"{who}: take {k} {RESOURCE_WORD[r]} from {SEAT[tgt]} (has {have})", opt)
                    a = _CACHE[key] = a
                out.append(a)
            return out
        if op == TAKE_CIT:
            out = []
            stacks = self.stacks
            for p in self._citizen_options(st):
                ct = stacks[p][-1]
                key = ("take", src, p, ct)
                a = _CACHE.get(key)
                if a is None:
                    a = _CACHE[key] = Action(f"take:{CIT_SLUG[ct]}", f"{who}: take {article(CIT_NAME[ct])} free", p)
                out.append(a)
            return out
        if op == SLAY:
            out = []
            self._slay_actions(seat, out)
            if out:
                out.append(Action("decline", f"{who}: do not slay a Monster"))
            return out
        if op == RETURN:
            opts = self._return_options(seat, st)
            if not opts:
                return []
            if st[1] == RET_MONSTER:
                out = [Action(f"return:{MON_SLUG[m]}", f"{who}: return {article(MON_NAME[m])} to the "
                              f"{AREAS[MON_AREA[m]]} stack for {amount_text(st[2])}", m) for m in opts]
            else:
                out = [Action(f"return:{CIT_SLUG[c]}", f"{who}: return {article(CIT_NAME[c])} to its "
                              f"stack for {amount_text(st[2])}", c) for c in opts]
            out.append(Action("decline", f"{who}: return nothing"))
            return out
        if op == STEAL_MON:
            if self.solo:
                return []
            return [Action(f"target:p{tgt + 1}", f"{who}: take a random Monster from {SEAT[tgt]} "
                           f"({len(self.victory[tgt])} in their Victory stack)", tgt)
                    for tgt in self._steal_targets(seat)]
        return []

    # ------------------------------------------------------------ carrying a step out
    def _resolve_step(self, t: Task, action: Action) -> None:
        """Carry out the answer ``action`` to the step of task ``t``."""
        seat: int = t[1]
        sid: int = t[2]
        src: int = t[3]
        st = STEPS[sid]
        op: int = st[0]
        who = src_name(src)
        quiet = self.quiet
        if action.id == "decline" or action is STEAL_NONE:
            if not quiet:
                self.emit("decline", seat, f"{SEAT[seat]} declines ({who}).")
            return
        if op == CHOOSE:
            option = st[1][action.payload]
            if (src < SRC_MON or STEPS[option[0]][0] not in (GAIN, PER)) and not quiet:
                # a Monster's or Domain's gain says what was taken itself
                self.emit("choose", seat, f"{SEAT[seat]} chooses {effect_text(option)} ({who}).")
            self._push_effect(seat, option, src)
        elif op == EXCHANGE:
            pay, gain = st[1], st[2]
            self._gain(seat, gain[0] - pay[0], gain[1] - pay[1], gain[2] - pay[2], gain[3])
            if not quiet:
                self.emit("exchange", seat, f"{SEAT[seat]} pays {amount_text(pay)} and gains "
                          f"{amount_text(gain)} ({who}).",
                          effects=self.res_effects(seat, tuple([g - p for g, p in zip(gain, (*pay[:3], 0))])))
        elif op == STEAL:
            steal: tuple[int, int, int] = action.payload  # (target, resource, amount)
            tgt, r, k = steal
            i = seat * 4 + r
            self.res[i] = self.res[i] + k
            if tgt != BANK:
                i = tgt * 4 + r
                self.res[i] = self.res[i] - k
            if tgt != BANK and k and self.phase in (P_HARVEST, P_HARVEST2):
                self.hsteals += ((seat, tgt, r, k, src),)  # for the Harvest summary
            if not quiet:
                frm = "the Bank" if tgt == BANK else SEAT[tgt]
                deltas = tuple([k * (x == r) for x in range(3)])
                effects = self.res_effects(seat, deltas)
                if tgt != BANK:
                    effects += self.res_effects(tgt, tuple([-d for d in deltas]))
                self.emit("steal", seat, f"{SEAT[seat]} takes {k} {RESOURCE_WORD[r]} from {frm} ({who}).",
                          {"from": None if tgt == BANK else tgt, "resource": RES_ID[r], "amount": k}, effects=effects)
        elif op == TAKE_CIT:
            p = action.payload
            if not quiet:
                ct = self.stacks[p][-1]
                self.emit("take-citizen", seat, f"{SEAT[seat]} takes {article(CIT_NAME[ct])} ({who}).",
                          {"citizen": CIT_NAME[ct]}, effects=self.citizen_effects(seat, p, ct))
            self._gain_citizen(seat, p)
        elif op == SLAY:
            self.tasks.append(("payment", seat, PAY_SLAY, action.payload))
        elif op == RETURN:
            self._return(seat, st, action.payload, who)
        elif op == STEAL_MON:
            self._steal_monster(seat, action.payload, who)

    def _steal_monster(self, seat: int, tgt: int, who: str) -> None:
        """Take a random Monster from ``tgt``'s Victory stack, no reward (C-PP)."""
        vic = self.victory[tgt]
        if not vic:
            if not self.quiet:
                self.emit("steal-monster", seat, f"{SEAT[tgt]} has no Monster to take ({who}).")
            return
        i = self.randbelow(len(vic))
        m = vic[i]
        self.victory[tgt] = vic[:i] + vic[i + 1:]
        self.victory[seat] = self.victory[seat] + (m,)
        if not self.quiet:
            self.emit("steal-monster", seat, f"{SEAT[seat]} takes {SEAT[tgt]}'s {MON_NAME[m]} "
                      f"at random ({who}).", {"from": tgt, "monster": MON_NAME[m]},
                      effects=[fx.take(f"p-{seat}-mon-{MON_KEY[m]}", f"p-{tgt}-victory", f"p-{seat}-victory", seat),
                               *self.score_effects(seat, MON_VP[m]), *self.score_effects(tgt, -MON_VP[m])])

    def _steal_monster_solo(self, seat: int, src: int) -> None:
        """Solo: the top Monster of the leftmost non-empty Monster stack, no reward (R12.6)."""
        for p in range(N_MON_POS):
            st = self.stacks[p]
            if st:
                m = st[-1]
                self.stacks[p] = st[:-1]
                self.victory[seat] = self.victory[seat] + (m,)
                if not self.quiet:
                    self.emit("steal-monster", seat, f"{SEAT[seat]} takes the {MON_NAME[m]} from the "
                              f"{AREAS[MON_AREA[m]]} stack ({src_name(src)}).", {"monster": MON_NAME[m]},
                              effects=[fx.take(f"p-{seat}-mon-{MON_KEY[m]}", stack_key(p), f"p-{seat}-victory", seat),
                                       *self.score_effects(seat, MON_VP[m])])
                return

    def _return(self, seat: int, st: tuple[Any, ...], card: int, who: str) -> None:
        """Return a Monster or Citizen on top of its stack, taking back its Exhausted card (C-WW, C-NW)."""
        if st[1] == RET_MONSTER:
            vic = list(self.victory[seat])
            i = len(vic) - 1 - vic[::-1].index(card)
            del vic[i]
            self.victory[seat] = tuple(vic)
            p = self.areas.index(MON_AREA[card])
            name = MON_NAME[card]
        else:
            i = seat * NT + card
            self.own[i] = self.own[i] - 1
            p = CIT0 + CIT_POSITION[card]
            name = CIT_NAME[card]
        self.stacks[p] = self.stacks[p] + (card,)
        back = ""
        if self.exhausted >> p & 1:
            self.exhausted &= ~(1 << p)
            back = " Its Exhausted card goes back to the supply."
        self._gain(seat, *st[2])
        if not self.quiet:
            where = f"p-{seat}-victory" if st[1] == RET_MONSTER else f"p-{seat}-cits"
            effects = [fx.take(f"{stack_key(p)}-top", where, stack_key(p), seat), *self.res_effects(seat, st[2][:3])]
            effects += self.score_effects(seat, st[2][3] - (MON_VP[card] if st[1] == RET_MONSTER else 0))
            if back:
                effects.append(fx.count("exhausted", -1, self.exhausted_count()))
            self.emit("return", seat, f"{SEAT[seat]} returns {article(name)} to the {self.position_name(p)} "
                      f"stack and takes {amount_text(st[2])} ({who}).{back}", {"card": name, "position": p},
                      effects=effects)
