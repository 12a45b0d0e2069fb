"""The Harvest Phase (R5.7-R5.13; solo's Second Harvest, R12.13-R12.14).

Each participant (turn order from the Active player; 5 players: not the resting one, A13)
gets a ``seat-harvest`` task: fixed gains and per-count gains are taken at once, then the
"or" choices (``effect`` tasks), then the optional trades (``trades``/``exchange``), or a
free resource when nothing activated (R5.12). Powers that take from a player resolve before
everything (R5.10). ``harvest-end`` records the payouts and steals for the summary.
"""

from __future__ import annotations

from typing import Any, Final

from dicetable.engine import Action, Decision, auto, choices, prompt, resolve
from dicetable.engine.flow import Task

from ..components import amount_text
from .consts import CIT_DISPLAY, CIT_NAME, CIT_OFF, CIT_ON, RESOURCE_WORD, RES_ID, STEPS
from .actions import ActionsMixin
from .tables import (
    ACT_SIDE_AT, EXCHANGE_AT, EXCH_DONE, FIRST_AT, FREE_ACTS, MAX_SEATS, NT, PARTICIPANTS, PER_STEP, P_HARVEST,
    P_HARVEST2, SEAT, SEAT_PUSH, dice_code, harvest_text, src_name,
)

#: Each seat's part of a Harvest summary by its payout (``"Player 1 +2 Gold"``), built once: in a
#: Harvest with no steal and no resting seat a part depends on the seat and its payout alone.
_PARTS: Final[tuple[dict[tuple[int, ...], str], ...]] = tuple({} for _ in range(MAX_SEATS))
_HARVEST_WORD: Final = ("Harvest: ", "Second Harvest: ")
_EXCHANGE_TEXT: Final[dict[int, str]] = {}  # exchange event texts, built once per (seat, step, Citizen type), an int key


class HarvestMixin(ActionsMixin):
    """The Harvest Phase; a link of the chain ``ValeriaState`` extends."""

    __slots__ = ()

    @auto("harvest")
    def _harvest(self, task: Task) -> None:
        """Start a Harvest: every participant's share in turn order, Thieves first (R5.7, R5.10)."""
        second: int = task[2]
        self.phase = P_HARVEST2 if second else P_HARVEST
        self.hbase = tuple(self.res)
        self.hsteals = ()
        active = self.active
        self.tasks.extend(SEAT_PUSH[self.players][active][second])  # SEAT_TASKS, last first
        first_on, first_off = FIRST_AT[dice_code(self.dice)]
        if first_on or first_off:
            own = self.own
            firsts: list[tuple[int, int, bool]] = []  # (seat, Citizen type, on its own turn)
            for p in PARTICIPANTS[self.players][active]:
                on = p == active and not second
                base = p * NT
                for ct, k in (first_on if on else first_off):
                    if own[base + ct]:
                        firsts.extend([(p, ct, on)] * (own[base + ct] * k))
            for p, ct, on in reversed(firsts):
                self._push_effect(p, CIT_ON[ct] if on else CIT_OFF[ct], ct)

    @auto("seat-harvest")
    def _seat_harvest(self, task: Task) -> None:
        """One player's Harvest: fixed gains now, then choices, then trades (R5.9-R5.12)."""
        seat: int = task[1]
        second: int = task[2]
        own = self.own
        base = seat * NT
        activated = False  # a Citizen of the seat's is activated (R5.7); else it takes a free resource
        packed = 0
        g = s = m = vp = 0
        exch: list[int] | None = None  # (step, Citizen type) pairs, flat
        dec: list[tuple[int, int]] | None = None  # (step, Citizen type)
        # the activations of the roll, each with the seat's count of its Citizen type (none: skipped);
        # an index loop, not compress/zip, which compiled code calls into the interpreter for
        on = 1 if seat == self.active and not second else 0
        for ct, k, fixed, pers, decide, exchs, first in ACT_SIDE_AT[on][dice_code(self.dice)]:
            c = own[base + ct]
            if not c:
                continue
            activated = True
            if first:
                continue
            packed += c * fixed
            if pers:
                n = c * k
                for sid in pers:
                    pg, ps, pm, pvp, kind, arg = PER_STEP[sid]
                    x = n * self.count(seat, kind, arg)
                    g += x * pg
                    s += x * ps
                    m += x * pm
                    vp += x * pvp
            if exchs:
                if exch is None:
                    exch = []
                for sid in exchs:
                    exch.extend((sid, ct) * (c * k))
            if decide:
                if dec is None:
                    dec = []
                for sid in decide:
                    dec.extend([(sid, ct)] * (c * k))
        if not activated:
            self.tasks.append(("free-resource", seat))
            return
        if packed:  # the fixed gains, 16 bits per resource (see ACT_SIDE)
            g += packed & 0xFFFF
            s += packed >> 16 & 0xFFFF
            m += packed >> 32 & 0xFFFF
            vp += packed >> 48
        if g or s or m or vp:
            self._gain(seat, g, s, m, vp)
        tasks = self.tasks
        if exch:
            tasks.append(("trades", seat, *exch))
        if dec:
            for sid, ct in reversed(dec):
                tasks.append(("effect", seat, sid, ct))

    # ---- trades ("paid to gain", R5.11)
    def _exchange_options(self, t: Task) -> list[Action]:
        """The trades of task ``t`` (``(kind, seat, step, type, step, type, ...)``) the seat can pay for."""
        seat: int = t[1]
        b = seat * 4
        res = self.res
        g, s, m = res[b], res[b + 1], res[b + 2]
        seen: list[int] = []
        out = []
        for i in range(2, len(t), 2):
            sid: int = t[i]
            ct: int = t[i + 1]
            key = sid * 64 + ct  # (step, Citizen type) as EXCHANGE_AT's key: each offered once
            if key in seen:
                continue
            seen.append(key)
            pay: tuple[int, ...] = STEPS[sid][1]
            if g >= pay[0] and s >= pay[1] and m >= pay[2]:
                out.append(EXCHANGE_AT[key])
        return out

    @auto("trades")
    def _trades(self, task: Task) -> None:
        """Ask while one of the seat's activated trades is affordable; else its Harvest is done."""
        if self._exchange_options(task):
            self.tasks.append(("exchange", *task[1:]))

    @prompt("exchange")
    def _exchange_prompt(self, task: Task) -> Decision:
        seat = task[1]
        return Decision(seat, "harvest-exchange", "Harvest: use a trade power, or finish.",
                        "You may use your activated trade powers in any order, or skip them (R5.11).")

    @choices("exchange")
    def _exchange_choices(self, task: Task) -> list[Action]:
        return self._exchange_options(task) + [EXCH_DONE]

    @resolve("exchange")
    def _exchange(self, task: Task, action: Action) -> None:
        seat: int = task[1]
        if action is EXCH_DONE:
            if not self.quiet:
                self.emit("harvest-skip", seat, f"{SEAT[seat]} skips the remaining trades.")
            return
        pair: tuple[int, int] = action.payload  # (step, Citizen type)
        sid, ct = pair
        rest = list(task[2:])
        for i in range(0, len(rest), 2):
            if rest[i] == sid and rest[i + 1] == ct:
                del rest[i:i + 2]
                break
        st = STEPS[sid]
        pay: tuple[int, ...] = st[1]
        gain: tuple[int, ...] = st[2]
        self._gain(seat, gain[0] - pay[0], gain[1] - pay[1], gain[2] - pay[2], gain[3])
        if not self.quiet:
            key = (sid * 64 + ct) * 8 + seat
            text = _EXCHANGE_TEXT.get(key)
            if text is None:
                text = _EXCHANGE_TEXT[key] = (f"{SEAT[seat]}'s {CIT_DISPLAY[ct]}: pays {amount_text(pay)}, "
                                              f"gains {amount_text(gain)}.")
            self.emit("exchange", seat, text, {"card": CIT_NAME[ct]})
        if rest:
            self.tasks.append(("trades", seat, *rest))

    # ---- nothing activated (R5.12)
    @prompt("free-resource")
    def _free_prompt(self, task: Task) -> Decision:
        seat = task[1]
        which = "Second Harvest: n" if self.phase == P_HARVEST2 else "N"
        return Decision(seat, "free-resource", f"{which}one of your cards activated: take 1 resource.",
                        "A player whose cards did not activate takes any 1 resource (R5.12).")

    @choices("free-resource")
    def _free_choices(self, task: Task) -> list[Action]:
        return list(FREE_ACTS)

    @resolve("free-resource")
    def _free(self, task: Task, action: Action) -> None:
        seat: int = task[1]
        r: int = action.payload
        i = seat * 4 + r
        self.res[i] = self.res[i] + 1
        if not self.quiet:
            self.emit("free", seat, f"Nothing activated for {SEAT[seat]}: takes 1 {RESOURCE_WORD[r]}.")

    # ---- the summary
    @auto("harvest-end")
    def _harvest_end(self, task: Task) -> None:
        """Record what each seat got and lost in this Harvest (``payouts``, ``steals``) and say it."""
        base = self.hbase
        res = self.res
        n = self.players
        # each seat's (Gold, Strength, Magic, VP tokens) now less at the Harvest's start
        rows: list[tuple[int, ...]] = []
        for b in range(0, len(res) - 3, 4):
            rows.append((res[b] - base[b], res[b + 1] - base[b + 1], res[b + 2] - base[b + 2], res[b + 3] - base[b + 3]))
        self.payouts = pay = tuple(rows)
        self.steals = steals = self.hsteals
        if self.quiet:
            return
        second: int = task[2]
        rest = self.resting
        parts: list[str] = []
        effects: list[dict[str, Any]] = []
        for s in range(n):
            p = pay[s]
            if steals or s == rest:  # a steal or the Rest token: the part names them (harvest_text)
                parts.append(f"{SEAT[s]} {harvest_text(s, p, steals, s == rest)}")
            else:
                memo = _PARTS[s]
                part = memo.get(p)
                if part is None:
                    if len(memo) > 10_000:
                        memo.clear()
                    part = memo[p] = f"{SEAT[s]} {harvest_text(s, p, steals)}"
                parts.append(part)
            effects += self.res_effects(s, p, harvest=True)
        self.emit("harvest", None, _HARVEST_WORD[1 if second else 0] + "; ".join(parts) + ".", {
            "payouts": [list(p) for p in pay], "second": bool(second),
            "steals": [{"from": v, "to": s, "resource": RES_ID[r], "amount": k, "card": src_name(c)}
                       for s, v, r, k, c in steals]}, effects=effects)
