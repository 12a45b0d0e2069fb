"""The Action Phase (R5.15-R6.18): two Actions: Gain a Resource, Slay, Recruit, Build.

An ``action`` decision offers the menu; Slay, Recruit and Build then schedule a ``payment``
(paid at once when there is one way to pay, else a ``pay`` decision: how many real tokens,
Magic standing in for the rest, R4.6) and ``action-done`` (Exhausted stacks, R7.1; solo end
check; the next Action).
"""

from __future__ import annotations

from typing import Final, Sequence

from dicetable.engine import Action, Decision, auto, choices, prompt, resolve
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from ..components import CIT_COST
from .consts import (
    AREAS, CIT_NAME, DOM_COST, DOM_DISCOUNT, DOM_EFFECT, DOM_NAME, DOM_NO_SURCHARGE, DOM_REQ, DOM_VP,
    DOM_WHEN, MON_AREA, MON_MAG, MON_NAME, MON_REWARD, MON_STR, MON_VP, N_DOM, RES_ID, W_AEND, W_ASTART, W_BUILD,
    W_GAINCIT, W_SLAY,
)
from .fields import (
    DOM_CARD_KEYS, DOMS_KEYS, MON_CARD_KEYS, N_DOM_KEYS, N_MON_KEYS, STACK_KEYS, STACK_TOP_KEYS, VICTORY_KEYS,
)
from .powers import PowersMixin
from .tables import (
    BUILD_AT, CIT0, DOM0, GAIN_ACTS, GAIN_TEXT, LAST_BUILD, LAST_CITIZEN, LAST_SLAY, NT, N_CIT, N_MON, N_MON_POS,
    N_POS, ONE_OF, PAY_BUILD, PAY_RECRUIT, PAY_SLAY, P_ACTION, RECRUIT_AT, ROLE_GET, ROLE_INDEX, SEAT, SLAY_AT,
    SRC_DOM, SRC_MON, TWIN,
    article, pay_action, pay_span, pay_text, spendable,
)

CITIZEN_COST: Final = CIT_COST[:N_CIT]  # the printed cost of each Citizen type (Starters have none)
CHEAPEST_CITIZEN: Final = min(CITIZEN_COST)  # no recruit is affordable with less
ALL_CITIZENS: Final = range(N_CIT)
#: The payment actions of (lo, hi, total, slay), keyed by one int made of them (an int key is native
#: arithmetic in the compiled build, where a tuple key is built and hashed at every look-up).
_PAY_OPTIONS: Final[dict[int, tuple[Action, ...]]] = {}
_TEXT: Final[dict[int, str]] = {}  # recruit event texts, built once per (seat, Citizen type, x, mag), an int key
_BUILD_TEXT: Final[dict[int, str]] = {}  # build event texts, built once per (seat, Domain, x, mag, revealed), an int key
_SLAY_TEXT: Final[dict[int, str]] = {}  # slay event texts, built once per (seat, Monster, x, mag), an int key
if max(NT, N_MON, N_DOM) >= 63:
    raise ValueError("the int keys of the event texts hold a card in 6 bits")
#: True in the compiled build (this module loaded from its C extension): see ``ActionsMixin.roles``.
_NATIVE: Final = not __file__.endswith(".py")


class ActionsMixin(PowersMixin):
    """The Action Phase; a link of the chain ``ValeriaState`` extends."""

    __slots__ = ()

    # ------------------------------------------------------------ costs (R4.6, R6.2-R6.11)
    def roles(self, seat: int) -> list[int]:
        """Citizens of each Role the seat owns (Worker, Soldier, Shadow, Holy); Starters have none."""
        own = self.own
        if _NATIVE:  # index loops, native when compiled (the getters and sum are calls into the interpreter)
            out = []
            for indices in ROLE_INDEX[seat]:
                n = 0
                for i in indices:
                    n += own[i]
                out.append(n)
            return out
        w, so, sh, h = ROLE_GET[seat]
        return [sum(w(own)), sum(so(own)), sum(sh(own)), sum(h(own))]

    def recruit_costs(self, seat: int, types: Sequence[int] = ALL_CITIZENS) -> list[int]:
        """The Gold cost for ``seat`` of recruiting a Citizen of each type in ``types``, in order (R6.6).

        ``types`` defaults to every Citizen type. Base cost + 1 per card of the same name the
        seat owns, its Starter included, unless one of its Domains waives the surcharge (then
        the printed costs).
        """
        surcharge = self.pays_surcharge(seat)
        return [self._recruit_cost(seat, t, surcharge) for t in types]

    def pays_surcharge(self, seat: int) -> bool:
        """True unless one of the seat's Domains waives the recruit surcharge (R6.6)."""
        for d in self.doms[seat]:
            if DOM_NO_SURCHARGE[d]:
                return False
        return True

    def _recruit_cost(self, seat: int, t: int, surcharge: bool) -> int:
        """``recruit_costs`` of one type ``t``, ``surcharge`` being ``pays_surcharge(seat)``: the
        printed cost, plus the seat's cards of type ``t`` and of its same-name Starter (``TWIN``)."""
        cost = CITIZEN_COST[t]
        if surcharge:
            base = seat * NT
            cost += self.own[base + t]
            twin = TWIN[t]
            if twin >= 0:
                cost += self.own[base + twin]
        return cost

    def recruit_cost(self, seat: int, t: int) -> int:
        """The Gold cost for ``seat`` of recruiting a Citizen of type ``t`` (``recruit_costs``, R6.6)."""
        return self._recruit_cost(seat, t, self.pays_surcharge(seat))

    def build_discount(self, seat: int) -> int:
        """Gold off every Domain the seat builds: the sum of its Domains' discounts (R6.18)."""
        discount = 0
        for x in self.doms[seat]:
            discount += DOM_DISCOUNT[x]
        return discount

    def build_cost(self, seat: int, d: int) -> int:
        """The Domain's Gold cost less the seat's discount, never below 0 (R6.11, R6.18)."""
        cost = DOM_COST[d] - self.build_discount(seat)
        return cost if cost > 0 else 0

    def pay_range(self, seat: int, kind: int, p: int) -> tuple[int, int, int]:
        """(lo, hi, total) of a payment: lo..hi real tokens, Magic making up ``total`` (R4.6, R6.2-R6.11).

        ``kind`` is ``PAY_SLAY`` (Strength; ``total`` counts the Monster's Magic), ``PAY_RECRUIT``
        or ``PAY_BUILD`` (Gold) for the top card of Center Stack ``p``. Raises ValueError when
        the seat cannot pay.
        """
        top = self.stacks[p][-1]
        res = self.res
        b = seat * 4
        if kind == PAY_SLAY:
            # the Monster's Magic cost first; the Magic left stands in for Strength (R6.2, R6.3)
            spare = res[b + 2] - MON_MAG[top]
            span = pay_span(res[b + 1], spare, MON_STR[top]) if spare >= 0 else None
            if span is None:
                raise ValueError(f"{SEAT[seat]} cannot pay for the {MON_NAME[top]}")
            return span[0], span[1], MON_STR[top] + MON_MAG[top]
        cost = self.recruit_cost(seat, top) if kind == PAY_RECRUIT else self.build_cost(seat, top)
        span = pay_span(res[b], res[b + 2], cost)
        if span is None:
            raise ValueError(f"{SEAT[seat]} cannot pay {cost} Gold")
        return span[0], span[1], cost

    # ------------------------------------------------------------ the menu (R5.16)
    def _slay_actions(self, seat: int, out: list[Action]) -> None:
        """Append the slay actions the seat can afford (R6.1-R6.3; ``pay_range`` then has a way to pay)."""
        b = seat * 4
        magic = self.res[b + 2]
        # the Magic cost comes first, then Strength with the spare Magic standing in: affordable
        # when both costs together are at most what Strength and Magic can pay (spendable)
        money = spendable(self.res[b + 1], magic)
        if not money:  # no Strength token: no Monster can be slain
            return
        stacks = self.stacks
        for p in range(N_MON_POS):
            stack = stacks[p]
            if stack:
                m = stack[-1]
                if MON_MAG[m] <= magic and MON_STR[m] + MON_MAG[m] <= money:
                    out.append(SLAY_AT[p][m])

    @choices("action")
    def _action_menu(self, task: Task) -> list[Action]:
        """The Action menu: Gain a Resource, and every affordable Slay, Recruit and Build (R5.16).

        A Gold cost is affordable when it is at most ``spendable(gold, magic)`` (``pay_span``
        then has a way to pay it); costs are ``recruit_costs`` and ``build_cost`` (the
        printed cost less ``build_discount``, never below 0).
        """
        seat: int = task[1]  # an int, not the task's Any: native arithmetic when compiled
        out = list(GAIN_ACTS)
        self._slay_actions(seat, out)
        b = seat * 4
        money = spendable(self.res[b], self.res[b + 2])
        stacks = self.stacks
        if money >= CHEAPEST_CITIZEN:
            surcharge = self.pays_surcharge(seat)
            for p in range(CIT0, DOM0):  # the top Citizen of each stack, at its recruit_costs cost
                st = stacks[p]
                if st:
                    ct = st[-1]
                    cost = self._recruit_cost(seat, ct, surcharge)
                    if cost <= money:
                        out.append(RECRUIT_AT[ct][cost])
        roles: list[int] | None = None
        discount = self.build_discount(seat)
        for p in range(DOM0, N_POS):
            st = stacks[p]
            if st:
                d = st[-1]
                cost = DOM_COST[d] - discount
                if cost <= money:
                    if roles is None:
                        roles = self.roles(seat)
                    req = DOM_REQ[d]  # the Role icons the Domain requires (R6.10)
                    if roles[0] >= req[0] and roles[1] >= req[1] and roles[2] >= req[2] and roles[3] >= req[3]:
                        out.append(BUILD_AT[p][d * 64 + (cost if cost > 0 else 0)])
        return out

    @auto("action-start")
    def _action_start(self, task: Task) -> None:
        self.phase = P_ACTION
        seat: int = task[1]
        self._trigger(seat, W_ASTART)

    @prompt("action")
    def _action_prompt(self, task: Task) -> Decision:
        seat = task[1]
        return Decision(seat, "action", f"Choose an Action ({task[2]} left this turn).",
                        "Slay a Monster, Recruit a Citizen, Gain a Resource or Build a Domain (R5.16). "
                        "Magic may stand in for Strength or Gold, with at least one real token (R4.6).")

    @resolve("action")
    def _action(self, task: Task, action: Action) -> None:
        seat: int = task[1]
        left: int = task[2]
        done = ("action-done", seat, left - 1)
        kind = action.id[0]
        if kind == "g":
            r: int = action.payload
            i = seat * 4 + r
            self.res[i] = self.res[i] + 1
            if not self.quiet:
                self.emit("gain", seat, GAIN_TEXT[seat][r], {"resource": RES_ID[r]},
                          effects=self.res_effects(seat, ONE_OF[r]))
            self.tasks.append(done)
            return
        what = PAY_SLAY if kind == "s" else PAY_RECRUIT if kind == "r" else PAY_BUILD
        self.tasks += (done, ("payment", seat, what, action.payload))  # pay first, then the Action is done

    # ------------------------------------------------------------ paying
    @auto("payment")
    def _payment(self, task: Task) -> None:
        """Pay at once when there is one way to pay; else ask how (R4.6)."""
        seat: int = task[1]
        kind: int = task[2]
        p: int = task[3]
        lo, hi, total = self.pay_range(seat, kind, p)
        if hi > lo:
            self.tasks.append(("pay", seat, kind, p))
        else:
            self._pay(seat, kind, p, hi, total - hi)

    @prompt("pay")
    def _pay_prompt(self, task: Task) -> Decision:
        seat, kind, p = task[1], task[2], task[3]
        top = self.stacks[p][-1]
        total = self.pay_range(seat, kind, p)[2]
        if kind == PAY_SLAY:
            cost = f"{MON_STR[top]} Strength" + (f" + {MON_MAG[top]} Magic" if MON_MAG[top] else "")
            what = f"slay the {MON_NAME[top]} ({cost})"
        elif kind == PAY_RECRUIT:
            what = f"recruit {article(CIT_NAME[top])} ({total} Gold)"
        else:
            what = f"build {DOM_NAME[top]} ({total} Gold)"
        return Decision(seat, "pay", f"How do you pay to {what}?",
                        "Magic stands in for Strength or Gold one for one; at least one real token "
                        "must be paid; a Monster's Magic cost comes on top (R6.2, R6.3).")

    @choices("pay")
    def _pay_choices(self, task: Task) -> list[Action]:
        """The ways to pay: most real tokens first, down to the fewest (Magic for the rest)."""
        kind: int = task[2]
        lo, hi, total = self.pay_range(task[1], kind, task[3])
        slay = kind == PAY_SLAY
        key = ((total * 1024 + hi) * 1024 + lo) * 2 + slay  # lo <= hi <= total: one key per (lo, hi, total, slay)
        options = _PAY_OPTIONS.get(key)
        if options is None:
            options = _PAY_OPTIONS[key] = tuple(pay_action("s" if slay else "g", x, total - x)
                                                for x in range(hi, lo - 1, -1))
        return list(options)

    @resolve("pay")
    def _pay_resolve(self, task: Task, action: Action) -> None:
        paid: tuple[int, int] = action.payload  # (real tokens, Magic)
        self._pay(task[1], task[2], task[3], paid[0], paid[1])

    def _pay(self, seat: int, kind: int, p: int, x: int, mag: int) -> None:
        """Pay ``x`` real tokens and ``mag`` Magic, then take the card of Center Stack ``p``."""
        res = self.res
        b = seat * 4
        res[b + 2] = res[b + 2] - mag
        if kind == PAY_SLAY:
            res[b + 1] = res[b + 1] - x
            self._slay(seat, p, x, mag)
        elif kind == PAY_RECRUIT:
            res[b] = res[b] - x
            if not self.quiet:
                ct = self.stacks[p][-1]
                key = ((mag * 1024 + x) * 64 + ct) * 8 + seat  # one key per (seat, type, x, mag)
                text = _TEXT.get(key)
                if text is None:
                    text = _TEXT[key] = (f"{SEAT[seat]} recruits {article(CIT_NAME[ct])}, paying "
                                         f"{pay_text(x, mag, 'Gold')}.")
                effects = self.res_effects(seat, (-x, 0, -mag))
                effects += self.citizen_effects(seat, p, ct)
                self.emit("recruit", seat, text, {"citizen": CIT_NAME[ct]}, effects=effects)
            self._gain_citizen(seat, p)
        else:
            res[b] = res[b] - x
            self._build(seat, p, x, mag)

    # ------------------------------------------------------------ taking cards
    def _slay(self, seat: int, p: int, x: int, mag: int) -> None:
        """Move the top Monster of position ``p`` to the seat's Victory stack; reward at once (R6.4, R6.5)."""
        st = self.stacks[p]
        m = st[-1]
        self.stacks[p] = st[:-1]
        self.victory[seat] = self.victory[seat] + (m,)
        self.last = (seat, LAST_SLAY, p, m)
        if not self.quiet:
            key = ((mag * 1024 + x) * 64 + m) * 8 + seat  # one key per (seat, Monster, x, mag)
            text = _SLAY_TEXT.get(key)
            if text is None:
                text = _SLAY_TEXT[key] = (f"{SEAT[seat]} slays the {MON_NAME[m]}, paying "
                                          f"{pay_text(x, mag, 'Strength')}.")
            effects = self.res_effects(seat, (0, -x, -mag))
            effects.append(fx.take(MON_CARD_KEYS[seat * N_MON_KEYS + m], STACK_KEYS[p], VICTORY_KEYS[seat], seat))
            effects += self.score_effects(seat, MON_VP[m])
            self.emit("slay", seat, text, {"monster": MON_NAME[m], "area": AREAS[MON_AREA[m]]}, effects=effects)
        self._push_effect(seat, MON_REWARD[m], SRC_MON + m)
        if self.phase == P_ACTION and seat == self.active:
            self._trigger(seat, W_SLAY)

    def _take_top_citizen(self, p: int) -> int:
        """Take the top Citizen off Center Stack ``p``, return its type; in a Mixed stack the
        next card is face up (R13), so the face-down count never covers the new top."""
        st = self.stacks[p]
        ct = st[-1]
        self.stacks[p] = st[:-1]
        i = p - CIT0
        if self.cit_down[i] > len(st) - 2:
            self.cit_down[i] = max(0, len(st) - 2)
        return ct

    def _gain_citizen(self, seat: int, p: int) -> None:
        """Take the top Citizen of position ``p`` into the seat's tableau (R6.7)."""
        ct = self._take_top_citizen(p)
        i = seat * NT + ct
        self.own[i] = self.own[i] + 1
        self.last = (seat, LAST_CITIZEN, p, ct)
        if self.phase == P_ACTION and seat == self.active:
            self._trigger(seat, W_GAINCIT)

    def _build(self, seat: int, p: int, x: int, mag: int) -> None:
        """Build the top Domain of position ``p``; reveal the next; apply its power (R6.12-R6.14)."""
        st = self.stacks[p]
        d = st[-1]
        self.stacks[p] = st[:-1]
        self.doms[seat] = self.doms[seat] + (d,)
        self.last = (seat, LAST_BUILD, p, d)
        if not self.quiet:
            key = (((mag * 1024 + x) * 64 + (st[-2] + 1 if len(st) > 1 else 0)) * 64 + d) * 8 + seat
            text = _BUILD_TEXT.get(key)  # one per (seat, Domain, x, mag, the Domain revealed or none)
            if text is None:
                reveal = f" {DOM_NAME[st[-2]]} is revealed." if len(st) > 1 else ""
                text = _BUILD_TEXT[key] = f"{SEAT[seat]} builds {DOM_NAME[d]}, paying {pay_text(x, mag, 'Gold')}.{reveal}"
            effects = self.res_effects(seat, (-x, 0, -mag))
            effects.append(fx.take(DOM_CARD_KEYS[seat * N_DOM_KEYS + d], STACK_KEYS[p], DOMS_KEYS[seat], seat))
            effects += self.score_effects(seat, DOM_VP[d])
            if len(st) > 1:
                effects.append(fx.reveal(STACK_TOP_KEYS[p], STACK_KEYS[p]))
            self.emit("build", seat, text, {"domain": DOM_NAME[d], "revealed": DOM_NAME[st[-2]] if len(st) > 1 else None},
                      effects=effects)
        if DOM_WHEN[d] == W_BUILD:
            self._push_effect(seat, DOM_EFFECT[d], SRC_DOM + d)

    # ------------------------------------------------------------ after an Action
    def _place_exhausted(self) -> None:
        """Put an Exhausted card on every empty position without one (R7.1)."""
        stacks = self.stacks
        if _NATIVE:  # an index loop, native when compiled (all() is a call into the interpreter)
            for p in range(N_POS):
                if not stacks[p] and not self.exhausted >> p & 1:
                    self._exhaust(p)
        elif not all(stacks):
            for p, st in enumerate(stacks):
                if not st and not self.exhausted >> p & 1:
                    self._exhaust(p)

    def _exhaust(self, p: int) -> None:
        """Put an Exhausted card on the empty position ``p`` (R7.1)."""
        self.exhausted |= 1 << p
        if not self.quiet:
            self.emit("exhausted", None, f"The {self.position_name(p)} stack is Exhausted "
                      f"({self.exhausted_count()} Exhausted).", {"position": p},
                      effects=[fx.count("exhausted", 1, self.exhausted_count())])

    @auto("action-done")
    def _action_done(self, task: Task) -> None:
        self._place_exhausted()
        if self.players == 1 and self._solo_end_check():
            return
        left: int = task[2]
        if left > 0:
            self.tasks.append(("action", task[1], left))

    @auto("action-end")
    def _action_end(self, task: Task) -> None:
        seat: int = task[1]
        self._trigger(seat, W_AEND)
