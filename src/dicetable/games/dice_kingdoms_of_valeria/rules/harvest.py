"""Dice Kingdoms of Valeria Harvest Phase and the Harvest Statue draft.

Rulebook: Harvest Phase (every player at once: each seat's Reward chain runs
on its own engine lane), Monster Lairs (first-completion priority settled
after the Harvest in turn order) and Statue Cards (Plinths marked in the
Harvest are drafted after it, in turn order from the Active Player).
"""

from __future__ import annotations

from dicetable.engine import auto
from dicetable.engine import effects as fx
from dicetable.engine.flow import Task

from .consts import BLACK_DIE
from ..sheet import CIT, CITV, GUILDS, LAIR_PENDING, LST, PLP, TRK
from .actions import ActionMixin
from .fx import KEYS
from .tables import (
    Reward,
    ACTION, DRAFT, HARVEST, STAGE_ACTION, STAGE_HARVEST1, STAGE_HARVEST2, _BITS, _HARVEST_TEXT, _NAME,
    _reward_tasks, _rewards_note,
)


class HarvestMixin(ActionMixin):
    """Harvest Phase and Statue draft task handlers. Methods of :class:`DiceKingdomsState`."""

    __slots__ = ()

    @auto("harvest")
    def _harvest_task(self, task: Task) -> None:
        self._start_harvest(task[2])

    def _start_harvest(self, stage: int) -> None:
        """Harvest Phase: every seat marks at once (each on its own lane), then the draft follows."""
        self.stage = stage
        self.phase = HARVEST
        if stage == STAGE_HARVEST2:
            b1, b2 = self.roll(BLACK_DIE), self.roll(BLACK_DIE)
            self.dice = (b1, b2) + self.dice[2:]
            if not self.quiet:
                self.emit("roll", self.active, f"2nd Harvest: the black dice show {b1} and {b2} "
                          f"(sum {b1 + b2})" + ("; doubles trigger no Event in this phase." if b1 == b2 else "."),
                          {"black": [b1, b2]}, effects=[fx.roll("dice-black", (b1, b2), self.active)])
        if self.drought:
            self.emit("drought", None, "Drought: no Harvest this turn.")
            self._end_harvest(None)
            return
        self.harvest_no += 1
        per_seat = [self._harvest_seat(s) for s in range(self.players)]
        if any(per_seat):
            self.split(per_seat)
            self.then(("end-harvest", None))  # once every seat's lane is empty
        else:
            self._end_harvest(None)

    def _harvest_seat(self, seat: int) -> tuple[Task, ...]:
        """Mark the Guild Track pips of every activated Citizen (rulebook: Harvest Phase).

        Returns the seat's Reward tasks, in the order they resolve.
        """
        lay = self.lay
        sh = self.sheets[seat]
        dice = self.dice
        rewards: list[Reward] = []
        marked = 0
        gained = [0, 0, 0, 0]
        cit_guild = lay.cit_guild
        before = self._score_before(seat)
        for s in lay.harvest_sections[dice[0]][dice[1]]:
            n = sh[CIT + s] - _BITS[sh[CITV + s]]
            if n > 0:
                g = cit_guild[s]
                k = self._mark_track(seat, g, n, rewards)
                marked += k
                gained[g] += k
        if marked:
            if not self.quiet:
                key = (*gained, *rewards)
                text = _HARVEST_TEXT.get(key)
                if text is None:
                    if len(_HARVEST_TEXT) > 50_000:
                        _HARVEST_TEXT.clear()
                    text = _HARVEST_TEXT[key] = " harvests " + ", ".join(
                        f"{k} {GUILDS[g]}" for g, k in enumerate(gained) if k) + " Guild Track pip" + (
                        "s" if marked > 1 else "") + _rewards_note(rewards) + "."
                keys = KEYS[lay.season][seat].trk
                effects = [fx.count(keys[g], k, sh[TRK + g]) for g, k in enumerate(gained) if k]
                self.emit("harvest", seat, _NAME[seat] + text, {"marked": gained},
                          effects=effects + self._scored(seat, before))
            return _reward_tasks(seat, rewards) if rewards else ()
        if not self.quiet:
            self.emit("harvest", seat, f"{_NAME[seat]} marks nothing from the dice: "
                      "1 pip on a Guild Track of their choice.", {"marked": gained})
        return (("fallback", seat, 0),)

    @auto("end-harvest")
    def _end_harvest(self, task: Task | None) -> None:
        """All seats have harvested: settle first-Lair priority, then start the Statue draft."""
        n = self.players
        order = [(self.active + i) % n for i in range(n)]
        nl = len(self.lair_first)
        for s in order:
            sh = self.sheets[s]
            if LAIR_PENDING in sh[LST:LST + nl]:
                for li in range(nl):
                    if sh[LST + li] == LAIR_PENDING:
                        self._settle_lair(s, li)
        self.phase = DRAFT
        self.drafter = -1
        self._draft(None)

    @auto("draft")
    def _draft(self, task: Task | None) -> None:
        """Harvest Statue draft: the next seat (turn order from the Active Player) with Plinths picks."""
        n = self.players
        start = 0 if self.drafter < 0 else ((self.drafter - self.active) % n) + 1
        for i in range(start, n):
            s = (self.active + i) % n
            sh = self.sheets[s]
            if sh[PLP]:
                self.then(*([("pick", s, 0)] * sh[PLP]), ("draft", None))
                sh[PLP] = 0
                self.drafter = s
                return
        self._end_draft()

    def _end_draft(self) -> None:
        self.drafter = -1
        self._refill()
        if self.stage == STAGE_HARVEST1:
            self.phase = ACTION
            self.stage = STAGE_ACTION
            self.acted = False
            self._action_phase(("action", self.active))
        else:
            self._end_turn()
